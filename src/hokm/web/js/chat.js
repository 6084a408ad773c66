// Chat: free text when allowed, preset phrases and emoji during a hand; refusals are shown.
import { h, labelled } from "./dom.js";
import { num, t } from "./i18n.js";
import { EMOJI, phraseText } from "./common.js";
import { chatIcon, muteIcon } from "./icons.js";
import { kickButton, mayKick } from "./lobby.js";

export function inHand(store) {
  const game = store.game;
  const status = store.table?.status;
  if (!game || (status !== "playing" && status !== "paused")) return false;
  // As the server has it (Table.in_hand): from the trump choice to the hand's end; the pause
  // between hands is not in a hand, and free text is allowed then.
  return ["trump", "play", "bam"].includes(game.phase);
}

const MUTED_KEY = "hokm.muted";

/** The players whose chat this browser hides (their ids; kept across rooms and visits). */
export function mutedPlayers() {
  try {
    const ids = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(ids) ? ids.map(String) : []);
  } catch {
    return new Set();
  }
}

function setMuted(player, on) {
  const ids = mutedPlayers();
  if (on) ids.add(player);
  else ids.delete(player);
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...ids].slice(-200)));
  } catch {
    /* storage may be off: the choice lasts until the page is reloaded */
  }
}

// The phone's chat sheet open over the hand: how to fold it (see foldWhenFocusLeaves).
let foldSheet = null;

/** The sheet covers the hand and the buttons under it: a Tab (or Shift+Tab) out of it that
 * lands on one of them folds the sheet, so the focused control is not hidden behind it (it
 * was: the keyboard played on under the sheet, unseen). The page re-rendering (focus moved to
 * <main>) does not count. */
function foldWhenFocusLeaves(e) {
  const to = e.target;
  if (!foldSheet || !(to instanceof Element) || to.closest("aside.chat") || to.matches("main, body")) return;
  // (only over the table: in the lobby the chat opened on a phone is in the page, over nothing)
  if (document.querySelector(".room.at-table aside.chat.sheet")) foldSheet();
}
document.addEventListener("focusin", foldWhenFocusLeaves);

export function renderChat(ctx) {
  const { store, ui, sendChat } = ctx;
  const restricted = inHand(store);
  const me = store.you?.player_id;
  const muted = mutedPlayers();
  const speaker = (m) => m.name ?? (typeof m.seat === "number" ? store.seatName(m.seat) : "?");
  const shown = store.chat.filter((m) => !muted.has(m.player));
  // During a game the owner may remove an onlooker (a member without a seat) who misbehaves
  // in the chat: by the newest message of theirs shown. (In the lobby the list of members
  // without a seat has the button.)
  const table = store.table || {};
  const playing = table.status === "playing" || table.status === "paused";
  const member = (player) => (table.members || []).some((m) => m.player === player);
  const kickable = new Set();
  if (playing) for (const m of shown) if (member(m.player) && mayKick(table, me, m.player)) kickable.add(m.player);
  const lastOf = new Map(shown.slice(-50).map((m, i) => [m.player, i]));
  // The muted players heard in this room, each with a button to hear them again.
  const silenced = new Map();
  for (const m of store.chat) if (muted.has(m.player)) silenced.set(m.player, speaker(m));
  const toggle = (player, on) => {
    setMuted(player, on);
    ctx.redraw();
    // Keep the keyboard where it was: on the way to hear them again, or back at the input
    // (the redrawn log could otherwise leave the focus on the next player's mute button).
    // (During a hand there is no text box: the first phrase instead.)
    const input = document.getElementById("chat-input") || document.querySelector(".phrase-btn") || document.getElementById("chat-toggle");
    const next = on ? document.querySelector(`.unmute-btn[data-player="${CSS.escape(player)}"]`) : input;
    next?.focus();
  };
  // New messages are announced from a hidden live region that holds the newest message only:
  // a live log would read each message with its mute button's label.
  const newest = shown[shown.length - 1];
  const announce = h(
    "div.sr-only#chat-announce",
    { "aria-live": "polite" },
    newest ? `${speaker(newest)}: ${newest.phrase ? phraseText(newest.phrase, ui.phrases) : newest.text ?? ""}` : "",
  );
  const list = h(
    "ol.chat-log#chat-log",
    { "aria-label": t("chat") },
    shown.slice(-50).map((m, i) =>
      h(
        "li",
        {},
        // the name set apart: a Latin «Maximilian_» in a right-to-left line read «:_Maximilian»
        h("b", {}, h("bdi", {}, speaker(m)), ": "),
        m.phrase ? h("span.phrase", {}, phraseText(m.phrase, ui.phrases)) : h("span", { dir: "auto" }, m.text ?? ""),
        m.player && m.player !== me
          ? h(
              "button.mute-btn",
              {
                type: "button",
                dataset: { player: m.player },
                title: t("mute_player", { name: speaker(m) }),
                "aria-label": t("mute_player", { name: speaker(m) }),
                onclick: () => toggle(m.player, true),
              },
              muteIcon(),
            )
          : null,
        kickable.has(m.player) && lastOf.get(m.player) === i ? kickButton(ctx, m.player, speaker(m), "chat-kick") : null,
      ),
    ),
  );
  const unmute = silenced.size
    ? h(
        "p.small.chat-muted#chat-muted",
        {},
        t("chat_muted"),
        " ",
        [...silenced].map(([player, name]) =>
          h("button.link.unmute-btn", { type: "button", dataset: { player }, onclick: () => toggle(player, false) }, t("unmute_player", { name })),
        ),
      )
    : null;
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
  foldSheet =
    open && ui.chatSheet
      ? () => {
          foldSheet = null;
          ui.chatOpen = false;
          ui.chatSheet = false;
          ctx.redraw();
        }
      : null;
  // The badge counts the messages not seen yet: those that came while the chat was folded,
  // told by their table version (a count would stop at the 200 messages kept, and miss what
  // came during a reconnection).
  const latest = newest?.version ?? 0;
  if (open || ui.chatSeen === undefined) ui.chatSeen = Math.max(ui.chatSeen ?? 0, latest);
  const unread = shown.filter((m) => (m.version ?? 0) > ui.chatSeen).length;
  setTimeout(() => {
    const log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }, 0);
  return h(
    // A sheet over the screen's bottom only when opened by a tap on a small screen: a chat open
    // from the start (on a wide screen, then made narrow) stays in the page below the hand.
    `aside.chat${open ? ".open" : ""}${open && ui.chatSheet ? ".sheet" : ""}`,
    {
      "aria-label": t("chat"),
      // Escape folds the sheet over a phone's screen and gives the focus back to its toggle.
      onkeydown: (e) => {
        if (e.key !== "Escape" || !ui.chatOpen || !ui.chatSheet) return;
        e.stopPropagation();
        ui.chatOpen = false;
        ui.chatSheet = false;
        ctx.redraw();
        document.getElementById("chat-toggle")?.focus();
      },
    },
    h(
      "button.chat-toggle#chat-toggle",
      {
        type: "button",
        "aria-expanded": open ? "true" : "false",
        onclick: () => {
          ui.chatOpen = !ui.chatOpen;
          ui.chatSheet = ui.chatOpen && window.matchMedia("(max-width: 999px)").matches;
          ctx.redraw();
        },
      },
      chatIcon(),
      " ",
      t("chat"),
      // A sheet covers the hand and the prompt: the turn (and its clock) still says it is yours.
      open && ui.chatSheet && (store.game?.legal ?? []).length > 0
        ? h("span.sheet-turn#sheet-turn", { role: "status" }, t("your_turn_close_chat"))
        : null,
      unread > 0 && !open
        ? labelled("span.badge.unread#chat-unread", t(unread === 1 ? "chat_unread_one" : "chat_unread", { n: unread }), num(Math.min(unread, 99)))
        : null,
    ),
    open
      ? h(
          "div.chat-body",
          {},
          unmute,
          list,
          announce,
          h("p.small.chat-mode#chat-mode", {}, restricted ? t("chat_presets_only") : t("chat_free")),
          presets,
          restricted ? null : form, // during a hand only phrases and emoji are delivered
          ui.chatError ? h("p.chat-error#chat-error", { role: "alert" }, ui.chatError) : null,
        )
      : null,
  );
}
