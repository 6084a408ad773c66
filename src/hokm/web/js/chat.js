// Chat: free text when allowed, preset phrases and emoji during a hand; refusals are shown.
import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { EMOJI, phraseText } from "./common.js";

export function inHand(store) {
  const game = store.game;
  const status = store.table?.status;
  if (!game || (status !== "playing" && status !== "paused")) return false;
  return ["deal", "trump", "play", "bam"].includes(game.phase);
}

export function renderChat(ctx) {
  const { store, ui, sendChat } = ctx;
  const restricted = inHand(store);
  const list = h(
    "ol.chat-log#chat-log",
    { "aria-live": "polite", "aria-label": t("chat") },
    store.chat.slice(-50).map((m) =>
      h(
        "li",
        {},
        h("b", {}, m.name ?? (typeof m.seat === "number" ? store.seatName(m.seat) : "?"), ": "),
        m.phrase ? h("span.phrase", {}, phraseText(m.phrase, ui.phrases)) : h("span", { dir: "auto" }, m.text ?? ""),
      ),
    ),
  );
  const input = h("input#chat-input", {
    type: "text",
    maxlength: 200,
    dir: "auto",
    value: ui.chatDraft,
    placeholder: t("chat_placeholder"),
    "aria-label": t("chat_placeholder"),
    oninput: (e) => {
      ui.chatDraft = e.target.value;
    },
  });
  const form = h(
    "form.chat-form",
    {
      onsubmit: (e) => {
        e.preventDefault();
        const text = (document.getElementById("chat-input")?.value ?? ui.chatDraft).trim();
        if (text) sendChat({ text });
      },
    },
    input,
    h("button#chat-send", { type: "submit" }, t("send")),
  );
  const presets = h(
    "div.chat-presets",
    {},
    (ui.phrases || []).map((p) =>
      h("button.phrase-btn", { type: "button", dataset: { phrase: p.id }, onclick: () => sendChat({ phrase: p.id }) }, phraseText(p.id, ui.phrases)),
    ),
    EMOJI.map((e) => h("button.emoji-btn", { type: "button", onclick: () => sendChat({ text: e }), "aria-label": e }, e)),
  );
  const open = ui.chatOpen;
  setTimeout(() => {
    const log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }, 0);
  return h(
    "aside.chat",
    { "aria-label": t("chat") },
    h(
      "button.chat-toggle#chat-toggle",
      {
        type: "button",
        "aria-expanded": open ? "true" : "false",
        onclick: () => {
          ui.chatOpen = !ui.chatOpen;
          ctx.redraw();
        },
      },
      "💬 ",
      t("chat"),
      store.chat.length ? h("span.badge", {}, num(Math.min(store.chat.length, 99))) : null,
    ),
    open
      ? h(
          "div.chat-body",
          {},
          list,
          h("p.small.chat-mode#chat-mode", {}, restricted ? t("chat_presets_only") : t("chat_free")),
          presets,
          form,
          ui.chatError ? h("p.chat-error#chat-error", { role: "alert" }, ui.chatError) : null,
        )
      : null,
  );
}
