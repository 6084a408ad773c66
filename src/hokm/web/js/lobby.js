// The room lobby: the code to share, the seats, bots, the rules in force, start.
import { clearErrors, h, toast } from "./dom.js";
import { robot } from "./icons.js";
import { latinDigits, num, t } from "./i18n.js";
import {
  OPTION_ORDER,
  defaultLevel,
  levelLabel,
  optionLabel,
  optionValue,
  presetLabel,
  presets,
  rulesList,
  rulesMeta,
} from "./common.js";

const meta = { presets: null, options: null };
presets().then((p) => {
  meta.presets = p;
});
rulesMeta().then((m) => {
  meta.options = m.options ?? [];
});

export function shareLink(code) {
  return `${location.origin}/r/${code}`;
}

/** Why the last game was cancelled, in the lobby until the next game: from the room's own
 * results, so the player it was about, back later, reads it too (a toast, gone in seconds,
 * was all; and only for those whose page was open). */
function cancelledNote(store) {
  const table = store.table;
  const last = (table.games || []).at(-1);
  if (table.status !== "lobby" || !last || last.status !== "cancelled" || !last.abandoned) return null;
  if (last.game !== table.game_number) return null;
  const you = last.abandoned === store.you?.player_id;
  const gone = (table.members || []).find((m) => m.player === last.abandoned)?.name;
  let said = you ? t("game_cancelled_you") : gone ? t("game_cancelled_by", { name: gone }) : t("game_cancelled");
  if (!you && store.isOwner) said += ` ${t("game_cancelled_owner")}`;
  return h("p.note.call#game-cancelled", {}, said);
}

export function renderLobby(ctx) {
  const { store, ui, command } = ctx;
  const table = store.table;
  const owner = store.isOwner;
  const running = table.status === "playing" || table.status === "paused";
  const filled = table.seats.every((s) => s.kind !== "empty");
  const link = shareLink(store.code);
  const me = store.you?.player_id;
  const unseated = store.onlookers(); // for the owner to see who waits without a seat

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("copied"));
    } catch {
      const input = document.getElementById("share-link");
      input?.select();
    }
  };

  // A phone's share sheet (Telegram, WhatsApp, a text message…) where the browser has one; the
  // link's copy stays for the others. A share the person closes unsent is no error.
  const canShare = typeof navigator.share === "function";
  const share = async () => {
    try {
      await navigator.share({ title: t("invite_title"), text: t("invite_text", { code: store.code }), url: link });
    } catch (err) {
      if (err?.name !== "AbortError") copy();
    }
  };

  return h(
    "div.lobby",
    {},
    h(
      "div.panel.share",
      {},
      h("h1", { tabindex: "-1" }, t("lobby_title"), " ", h("span.code#room-code", { dir: "ltr" }, store.code)),
      h("p", {}, t("share_code")),
      h(
        "div.row",
        {},
        h("input#share-link", { type: "text", readonly: true, value: link, dir: "ltr", "aria-label": t("room_link"), onfocus: (e) => e.target.select() }),
        h("button#copy-link", { type: "button", onclick: copy }, t("copy_link")),
        canShare ? h("button.primary#share-invite", { type: "button", onclick: share }, t("share_invite")) : null,
      ),
    ),
    cancelledNote(store),
    ui.spectator ? h("p.note", {}, t("spectating")) : null,
    !ui.spectator && filled && (store.mySeat === null || store.mySeat === undefined)
      ? h("p.note#seats-full", {}, t(owner ? "seats_full_owner" : "seats_full"))
      : null,
    !ui.spectator && !filled && !running && (store.mySeat === null || store.mySeat === undefined)
      ? h("p.note.call#choose-seat", { role: "status" }, t("choose_seat"))
      : null,
    unseated.length && !(owner && !running)
      ? h(
          "p.small#unseated",
          {},
          t("in_room_no_seat"),
          " ",
          // The owner without a seat is still the one who starts the game: say who it is.
          unseated.map((m) => (m.player === table.owner ? t("name_owner", { name: m.name }) : m.name)).join(t("list_sep")),
        )
      : null,
    // The owner sees who waits without a seat one by one, each with «بیرون کردن».
    unseated.length && owner && !running
      ? h(
          "div.small#unseated",
          {},
          h("p", {}, t("in_room_no_seat")),
          h("ul.unseated-list", {}, unseated.map((m) => h("li", { dataset: { player: m.player } }, m.name, " ", mayKick(table, me, m.player) ? kickButton(ctx, m.player, m.name) : null))),
        )
      : null,
    h("div.seats", { role: "list" }, [0, 1, 2, 3].map((i) => seatCard(ctx, table.seats[i], running))),
    h(
      "div.row.actions",
      {},
      owner
        ? [
            h(
              "button.primary#start",
              {
                type: "button",
                disabled: !filled || running,
                // why it cannot be pressed yet, heard with it
                "aria-describedby": !filled ? "need-four" : undefined,
                onclick: () => command("start"),
              },
              t("start_game"),
            ),
            !filled ? h("span.hint#need-four", {}, t("need_four")) : null,
          ]
        : h("p.hint", {}, t("waiting_owner")),
      h(
        "button#leave",
        {
          type: "button",
          onclick: async () => {
            await command("leave");
            location.hash = "#/";
          },
        },
        t("leave_room"),
      ),
    ),
    rulesPanel(ctx, owner && !running),
  );
}

function seatCard(ctx, seat, running) {
  const { store, ui, command } = ctx;
  const mine = seat.seat === store.mySeat;
  const owner = store.isOwner;
  const team = seat.seat % 2;
  const badges = [];
  if (mine) badges.push(h("span.badge.you", {}, t("you")));
  if (seat.player_id && seat.player_id === store.table.owner) badges.push(h("span.badge", {}, t("owner")));
  if (seat.kind === "bot" && seat.level) badges.push(h("span.badge.bot", {}, levelLabel(seat.level)));
  if (seat.kind === "human" && (seat.away || seat.connected === false)) badges.push(h("span.badge.away", {}, t("away")));

  const controls = [];
  if (!running) {
    if (seat.kind === "empty" && !ui.spectator) {
      controls.push(h("button.sit", { type: "button", "aria-label": t("sit_at", { n: seat.seat + 1 }), dataset: { focusSlot: `sit-${seat.seat}` }, onclick: () => command("sit", { seat: seat.seat }) }, t("sit_here")));
    }
    // (a seat taken: the focus goes from its «نشستن» to its «برخاستن»; see data-focus-slot)
    if (mine) controls.push(h("button.stand", { type: "button", dataset: { focusSlot: `sit-${seat.seat}` }, onclick: () => command("stand") }, t("stand_up")));
    if (owner && (seat.kind === "empty" || seat.kind === "bot")) {
      ui.botLevel ||= {};
      const chosen = seat.level ?? ui.botLevel[seat.seat] ?? defaultLevel(ui.levels);
      const level = h(
        "select.level",
        {
          // one per empty or bot seat: heard with its seat («سطح ربات صندلی ۲»), not three alike
          "aria-label": t("bot_level_at", { n: seat.seat + 1 }),
          id: `bot-level-${seat.seat}`,
          onchange: (e) => {
            ui.botLevel[seat.seat] = e.target.value;
            if (seat.kind === "bot") command("add_bot", { seat: seat.seat, level: e.target.value });
          },
        },
        ui.levels.map((l) => h("option", { value: l, selected: l === chosen }, levelLabel(l))),
      );
      controls.push(level);
      if (seat.kind === "empty") {
        controls.push(
          h(
            "button.add-bot",
            {
              type: "button",
              id: `add-bot-${seat.seat}`,
              // heard as what it does: «افزودن ربات به صندلی ۲», not a bare «ربات»
              "aria-label": t("add_bot_to", { n: seat.seat + 1 }),
              // the bot seated, the focus stays on this seat's «برداشتن ربات» (and back)
              dataset: { focusSlot: `bot-${seat.seat}` },
              onclick: () => command("add_bot", { seat: seat.seat, level: ui.botLevel[seat.seat] ?? chosen }),
            },
            t("add_bot"),
            " ",
            robot(""),
          ),
        );
      } else {
        controls.push(
          h(
            "button.remove-bot",
            { type: "button", id: `remove-bot-${seat.seat}`, "aria-label": t("remove_bot_from", { n: seat.seat + 1 }), dataset: { focusSlot: `bot-${seat.seat}` }, onclick: () => command("remove_bot", { seat: seat.seat }) },
            t("remove_bot"),
          ),
        );
      }
    }
  }
  if (!running && seat.kind === "human" && mayKick(store.table, store.you?.player_id, seat.player_id)) {
    controls.push(kickButton(ctx, seat.player_id, seat.name));
  }
  const name = seat.kind === "empty" ? t("seat_empty") : seat.name;
  return h(
    `div.seat-card.team${team}`,
    { role: "listitem", dataset: { seat: seat.seat, kind: seat.kind } },
    h("div.seat-head", {}, h("span.seat-no", {}, t("seat_n", { n: seat.seat + 1 })), h("span.team-tag", {}, t("team_n", { n: team + 1 }))),
    h("div.seat-name", {}, seat.kind === "bot" ? [robot(t("bot")), " "] : "", seat.kind === "bot" ? ctx.store.seatName(seat.seat) : name, " ", badges),
    controls.length ? h("div.row.seat-controls", {}, controls) : null,
  );
}

/** Whether the owner (``me``) may remove ``player`` from the room, as the server's ``kick``
 * has it: never oneself or the room's creator; a player seated in a game in progress, or in a
 * quick game's room, not while seated. It is for good, so the button asks once more. */
export function mayKick(table, me, player) {
  if (!me || !player || table.owner !== me || player === me || player === table.creator) return false;
  const seated = table.seats.some((s) => s.player_id === player);
  const running = table.status === "playing" || table.status === "paused";
  return !(seated && (running || table.quick));
}

export function kickButton(ctx, player, name, where = "kick") {
  const { ui, command } = ctx;
  const sure = ui.confirmKick === player;
  return h(
    `button.kick${sure ? ".danger" : ""}`,
    {
      type: "button",
      id: `${where}-${player}`,
      "aria-label": t(sure ? "kick_sure_label" : "kick_label", { name }),
      onclick: () => {
        if (!sure) {
          ui.confirmKick = player;
          ctx.redraw();
          return;
        }
        ui.confirmKick = null;
        command("kick", { player });
      },
    },
    t(sure ? "kick_sure" : "kick"),
  );
}

function rulesPanel(ctx, editable) {
  const { store, command } = ctx;
  const table = store.table;
  const current = table.rules || {};
  if (!editable) {
    return h("details.panel.rules-now", { open: true }, h("summary", {}, t("rules_in_force")), rulesList(current, table.preset));
  }
  const presetNames = Object.keys(meta.presets || { "platform-a": {}, classic: {}, simulator: {}, "platform-b": {} });
  const presetSel = h(
    "select#preset",
    {
      onchange: (e) => command("set_rules", { preset: e.target.value }),
    },
    !table.preset ? h("option", { value: "", selected: true }, "—") : null,
    presetNames.map((p) => h("option", { value: p, selected: table.preset === p }, presetLabel(p))),
  );
  const inputs = {};
  const draft = (ctx.ui.ruleDraft ||= {});
  const remember = (k) => (e) => {
    const el = e.target;
    draft[k] = el.type === "checkbox" ? el.checked : el.value; // numbers are read at apply
    if (k === "bam") {
      // The failed-bam penalty only means something with bam.
      const failed = document.getElementById("opt-failed_bam");
      if (failed) failed.disabled = !el.checked;
    }
  };
  const bamOn = "bam" in draft ? draft.bam : current.bam;
  const fields = OPTION_ORDER.filter((k) => k in current).map((k) => {
    const info = (meta.options || []).find((o) => o.name === k) || {};
    const value = k in draft ? draft[k] : current[k];
    let input;
    if (typeof value === "boolean" || info.type === "boolean") {
      input = h("input", { type: "checkbox", id: `opt-${k}`, checked: Boolean(value), onchange: remember(k) });
      // The box right by its own words (a grid of two columns put it by the next option's).
      return h("label.opt.check", { for: `opt-${k}` }, input, h("span", {}, optionLabel(k)));
    } else if (info.choices || info.type === "choice") {
      input = h(
        "select",
        { id: `opt-${k}`, onchange: remember(k), disabled: k === "failed_bam" && !bamOn },
        (info.choices || [value]).map((c) => h("option", { value: c, selected: c === value }, optionValue(c))),
      );
    } else {
      // Text, not type=number: a number field cannot show Persian digits, and a Persian
      // keyboard types them; they are read back with latinDigits.
      input = h("input.num", { type: "text", id: `opt-${k}`, value: typeof value === "number" ? num(value) : value, inputmode: "numeric", autocomplete: "off", size: 5, oninput: remember(k) });
    }
    inputs[k] = input;
    return h("label.opt", { for: `opt-${k}` }, h("span", {}, optionLabel(k)), input);
  });
  const apply = async () => {
    clearErrors();
    const rules = {};
    for (const [k, v] of Object.entries(draft)) {
      const value = typeof v === "string" && typeof current[k] === "number" ? readNumber(k, v) : v;
      if (value === null) return; // said which field, and why
      if (value !== current[k]) rules[k] = value;
    }
    if (!Object.keys(rules).length) return;
    const reply = await command("set_rules", { options: rules });
    if (reply?.type === "ack") {
      ctx.ui.ruleDraft = {};
      toast(t("options_applied"), "info", { lobby: true });
      ctx.redraw(); // the fields as the rules now are, in this language's digits
    }
  };
  /** A number typed for option ``k`` (any digits), or null after saying what is wrong. */
  const readNumber = (k, text) => {
    const info = (meta.options || []).find((o) => o.name === k) || {};
    const seconds = info.type === "seconds" || k.endsWith("_seconds");
    const value = Number(latinDigits(text).trim().replace("٫", "."));
    const low = seconds ? 1 : info.min ?? 1;
    const high = seconds ? info.max ?? 86400 : info.max ?? null;
    const field = document.getElementById(`opt-${k}`);
    // Seconds may have a fraction (۱٫۵); every other option is a whole number.
    const shape = seconds ? Number.isFinite(value) : Number.isInteger(value);
    if (!text.trim() || !shape || value < low || (high !== null && value > high)) {
      const said = seconds ? "option_bad_seconds" : high === null ? "option_bad_number" : "option_bad_number_range";
      toast(t(said, { name: optionLabel(k), min: low, max: high ?? 0 }), "error", { lobby: true });
      field?.setAttribute("aria-invalid", "true");
      field?.focus();
      return null;
    }
    field?.removeAttribute("aria-invalid");
    return value;
  };
  return h(
    "div.panel.rules-edit",
    {},
    h("label", { for: "preset" }, t("preset"), " "),
    presetSel,
    h("details", {}, h("summary", {}, t("options")), h("div.opts", {}, fields), h("button#apply-rules", { type: "button", onclick: apply }, t("apply_options"))),
    h("details.rules-now", { open: true }, h("summary", {}, t("rules_in_force"), ": ", t("target", { n: current.target_points ?? 7 })), rulesList(current, table.preset)),
  );
}


