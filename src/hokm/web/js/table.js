// The game table: own hand at the bottom, the trick around the centre, score, trump, hakem,
// whose turn with a countdown, trump and bam choices, results. Legal moves come only from the
// server's list (game.legal); this file never decides what is legal.
import { arrowFocus, h, labelled, toast } from "./dom.js";
import { capitalized, cardsText, nameList, num, pointsText, t } from "./i18n.js";
import { SYMBOL, cardEl, cardName, sortHand, suitName } from "./cards.js";
import { crown, robot } from "./icons.js";
import { optionChoices, optionLabel, optionValue, ratingDelta, rulesList } from "./common.js";

const POSITIONS = ["bottom", "right", "top", "left"]; // counter-clockwise play: next is on the right

export function seatPosition(seat, bottomSeat) {
  return POSITIONS[(seat - bottomSeat + 4) % 4];
}

export function teamLabel(store, team) {
  const mine = store.mySeat;
  const who = mine === null || mine === undefined ? t("team_n", { n: team + 1 }) : mine % 2 === team ? t("team_us") : t("team_them");
  return who;
}

export function renderTable(ctx) {
  const { store, ui } = ctx;
  const game = store.game;
  const bottom = store.mySeat ?? 0;
  const paused = store.table.paused || store.table.status === "paused";
  return h(
    "div.table-view",
    {
      dataset: { phase: game.phase },
      onkeydown: (e) => {
        if (e.key === "Escape" && ui.lastTrickOpen) {
          ui.lastTrickOpen = false; // Escape closes the last trick, as it opened: by keyboard
          ctx.redraw();
          document.getElementById("last-trick-btn")?.focus();
        }
      },
    },
    // The page's heading, for screen readers (the lobby's «اتاق K7QX4M» is gone): the table had
    // none, and the game's end and the last trick were headings under nothing.
    h("h1.sr-only#table-title", {}, t("lobby_title"), " ", h("span", { dir: "ltr" }, store.code)),
    hud(ctx),
    paused ? h("div.banner.warn#paused", {}, t("game_paused")) : null,
    awayBanner(ctx),
    h(
      "div.board",
      { role: "region", "aria-label": t("table_label") },
      [0, 1, 2, 3].map((s) => seatBox(ctx, s, seatPosition(s, bottom))),
      trickArea(ctx, bottom),
      resultBanner(ctx),
    ),
    store.table.status === "game_over" ? gameOver(ctx) : null,
    prompt(ctx),
    store.mySeat !== null && store.mySeat !== undefined ? handRow(ctx) : h("p.note#spectator-note", {}, t("spectating_table")),
    h("div.row.aux", {}, lastTrickButton(ctx), closeGameButton(ctx), leaveGameButton(ctx), previousGameLink(ctx)),
    // right under its button: a screen reader reads it next (it came after the rules)
    ui.lastTrickOpen ? lastTrickPanel(ctx, bottom) : null,
    onlookers(store),
    store.table.status === "game_over" ? null : handsSheet(ctx),
    aceDrawInfo(store),
    h(
      "details.rules-now#table-rules",
      {
        open: (game.hand_number ?? 0) === 0 && !(game.tricks || []).length && game.phase !== "play",
        "data-stage": game.phase === "play" || (game.hand_number ?? 0) > 0 ? "playing" : "start",
      },
      h("summary", {}, t("rules_in_force"), ": ", t("target", { n: store.table.rules?.target_points ?? 7 }), store.table.rules?.bam ? `${t("sep")}${t("opt_bam")}` : ""),
      rulesList(store.table.rules, store.table.preset),
    ),
  );
}

function hud(ctx) {
  const { store } = ctx;
  const game = store.game;
  const rules = store.table.rules || {};
  const us = store.mySeat === null || store.mySeat === undefined ? 0 : store.mySeat % 2;
  const them = 1 - us;
  const score = game.score || [0, 0];
  // While a hand's result is shown (and once the game is over) the HUD shows that hand: the
  // view has moved on to the next hakem with no trump and no tricks yet.
  const last = shownHand(ctx);
  const tricks = last?.tricks ?? game.tricks_won ?? [0, 0];
  const trump = last?.trump ?? game.trump;
  const hakem = last?.hakem ?? game.hakem;
  return h(
    "div.hud",
    {},
    labelled(
      "div.hud-item.score#score",
      `${t("game_score")} (${t("target", { n: rules.target_points ?? 7 })}): ${teamLabel(store, us)} ${num(score[us])}${t("list_sep")}${teamLabel(store, them)} ${num(score[them])}`,
      h("span.label", {}, t("score"), " ", h("small", {}, t("target", { n: rules.target_points ?? 7 }))),
      h("span.val", {}, h("b.us", {}, num(score[us])), " – ", h("b.them", {}, num(score[them]))),
      teamsCaption(store, us, them),
    ),
    labelled(
      "div.hud-item.tricks#tricks",
      `${t("tricks")}: ${teamLabel(store, us)} ${num(tricks[us])}${t("list_sep")}${teamLabel(store, them)} ${num(tricks[them])}`,
      h("span.label", {}, t("tricks")),
      h("span.val", {}, h("b.us", {}, num(tricks[us])), " – ", h("b.them", {}, num(tricks[them]))),
      teamsCaption(store, us, them),
    ),
    labelled(
      "div.hud-item.trump#trump",
      `${t("trump")}: ${trump ? suitName(trump) : t("no_trump_yet")}`,
      h("span.label", {}, t("trump")),
      trump ? h(`span.val.big.suit-${trump}`, {}, SYMBOL[trump]) : h("span.val", {}, "–"),
    ),
    h(
      "div.hud-item.hand-no",
      {},
      h("span.label", {}, t("hand_n", { n: (last ? last.hand : game.hand_number ?? 0) + 1 })),
      h("span.val.small", {}, hakem !== null && hakem !== undefined ? [crown(t("hakem")), " ", h("span.name", { dir: "auto" }, store.seatName(hakem))] : "–"),
    ),
  );
}

/** Whose number is whose, in words under the two numbers: not by their colours alone. */
function teamsCaption(store, us, them) {
  return h("span.teams", {}, h("span.us", {}, teamLabel(store, us)), " – ", h("span.them", {}, teamLabel(store, them)));
}

/** The finished hand whose result is still up: the last one once the game is over, or the one
 * whose result banner shows (until it is closed or the next hand's play begins); else null. */
function bannerHand(ctx) {
  const { store, ui } = ctx;
  const game = store.game;
  const last = game.last_result;
  if (store.table.status === "game_over") return last && typeof last.hand === "number" ? last : null;
  const res = store.handResult;
  if (!res || ui.resultShown === `${res.hand}` || typeof res.hand !== "number") return null;
  const begun = (game.trick || []).length > 0 || (game.tricks || []).length > 0;
  if (game.phase === "play" && begun && game.hand_number > res.hand) return null;
  // The viewer leads the next hand's first trick (the hakem): the table is theirs to play on.
  if (game.phase === "play" && game.hand_number > res.hand && store.legal("play").length) return null;
  return last && last.hand === res.hand ? last : res;
}

/** The finished hand the score bar and the crown still show: the banner's hand until the next
 * hand is dealt (then its hakem is choosing trump, and the bar and crown must say so). */
function shownHand(ctx) {
  const shown = bannerHand(ctx);
  if (shown === null || ctx.store.table.status === "game_over") return shown;
  const game = ctx.store.game;
  return game.phase === "deal" || !(game.hand_number > shown.hand) ? shown : null;
}

function awayBanner(ctx) {
  const { store } = ctx;
  if (store.table.status !== "playing" && store.table.status !== "paused") return null;
  const away = store.table.seats.filter((s) => s.kind === "human" && (s.away || s.connected === false));
  const grace = (store.table.grace || []).filter((g) => g.cancel_at || g.deadline);
  if (!away.length && !grace.length) return null;
  // Others away are said in one line however many they are (a line each pushed the hand
  // below the fold on a phone); the player themself gets the way back.
  const others = away.filter((s) => s.seat !== store.mySeat);
  const gone = others.filter((s) => s.connected === false);
  const idle = others.filter((s) => s.connected !== false);
  const line = (list, one, many) =>
    list.length === 1
      ? h("div", {}, t(one, { name: list[0].name }), " ", t("bot_plays_for", { name: list[0].name }), ".")
      : list.length > 1
        ? h("div", {}, t(many, { names: nameList(list.map((s) => s.name), t("list_sep")) }))
        : null;
  return h(
    "div.banner.info#away",
    {},
    line(gone, "player_away", "players_away"),
    line(idle, "player_idle", "players_idle"),
    // Told to the player themself, with the way back: a bot plays every move meanwhile.
    away.some((s) => s.seat === store.mySeat)
      ? h(
          "div#self-away",
          {},
          t("you_idle"),
          " ",
          h("button.primary#back-btn", { type: "button", onclick: () => ctx.command("back") }, t("i_am_back")),
        )
      : null,
    grace.map((g) => {
      const at = g.cancel_at ?? g.deadline;
      const ms = at < 1e11 ? at * 1000 : at;
      const name = typeof g.seat === "number" ? store.seatName(g.seat) : "";
      const [before, after] = t("grace_warning_at", { name, n: "\u0000" }).split("\u0000");
      return h("div.grace", {}, before, h("b", { dataset: { deadline: ms } }, ""), after);
    }),
  );
}

const HAND_ON = new Set(["trump", "play", "bam"]);

function seatBox(ctx, seat, pos) {
  const { store } = ctx;
  const game = store.game;
  const info = store.table.seats[seat] || {};
  const turn = game.to_move === seat || store.timer?.seat === seat;
  const last = shownHand(ctx);
  const isHakem = (last?.hakem ?? game.hakem) === seat; // the shown hand's hakem (see hud)
  const count = game.hand_sizes?.[seat] ?? 0;
  const away = info.kind === "human" && (info.away || info.connected === false);
  const team = seat % 2;
  return h(
    `div.seat.pos-${pos}.team${team}${turn ? ".turn" : ""}`,
    // a named group (a plain div's label is not read), saying whose side the seat is on:
    // the partner sits at the top, but a screen reader heard only names
    { dataset: { seat }, role: "group", "aria-label": `${t("seat_of", { name: store.seatName(seat) })} (${seatSide(store, seat)})` },
    h(
      "div.seat-label",
      {},
      isHakem ? crown(t("hakem")) : null,
      info.kind === "bot" ? robot(t("bot")) : null,
      h("span.name", { dir: "auto" }, store.seatName(seat)),
    ),
    // Under the name, not beside it: a long name is cut short, the badge must not be.
    away ? h("span.badge.away", { title: t("bot_plays_for", { name: store.seatName(seat) }) }, t("away"), " ", robot(t("bot"))) : null,
    pos === "bottom" && seat === store.mySeat
      ? h("div.seat-meta", {}, turn ? countdown(store, seat) : null)
      : // cards held only while a hand is on (between hands «۰ برگ» beside everyone said nothing)
        h("div.seat-meta", {}, HAND_ON.has(game.phase) ? labelled("span.count", cardsText(count), h("span.mini-back"), num(count)) : null, turn ? countdown(store, seat) : null),
  );
}

/** Whose side a seat is on, from the viewer's: «شما», «یار شما», «حریف» (a spectator: the team). */
function seatSide(store, seat) {
  const me = store.mySeat;
  if (me === null || me === undefined) return t("team_n", { n: (seat % 2) + 1 });
  return seat === me ? t("you") : seat % 2 === me % 2 ? t("seat_partner") : t("seat_opponent");
}

function countdown(store, seat) {
  if (!store.timer || store.timer.seat !== seat || !store.timer.deadline || store.timer.auto) return null;
  return h(
    "span.countdown",
    { role: "timer", "aria-label": t("time_left"), dataset: { countdown: "1", total: store.timerTotal() } },
    h("span.ring", {}),
    h("span.secs", {}, ""),
  );
}

/** Refresh every countdown on the page (called four times a second). */
export function updateCountdowns(root, store, serverNow) {
  const left = store.secondsLeft(serverNow);
  for (const el of root.querySelectorAll("[data-countdown]")) {
    const total = Number(el.dataset.total) || 15;
    const secs = el.querySelector(".secs");
    if (secs) secs.textContent = left === null ? "" : num(left);
    el.style.setProperty("--frac", left === null ? 1 : Math.max(0, Math.min(1, left / total)));
    el.classList.toggle("low", left !== null && left <= 5);
  }
  for (const el of root.querySelectorAll("[data-deadline]")) {
    const secs = Math.max(0, Math.ceil((Number(el.dataset.deadline) - serverNow) / 1000));
    el.textContent = num(secs);
  }
}

function trickArea(ctx, bottom) {
  const { store } = ctx;
  const game = store.game;
  let cards = (game.trick || []).map(([seat, card]) => ({ seat, card }));
  let winner = null;
  const flash = store.flash;
  if (!cards.length && flash && Date.now() - flash.at < 1400) {
    cards = flash.cards.map((card, i) => ({ seat: (flash.leader + i) % 4, card }));
    winner = flash.winner;
    flash.shown = true;
  }
  const last = cards.length ? cards[cards.length - 1].card : null;
  // animate a card once, when it first appears (re-renders must not replay the animation)
  const fresh = last && winner === null && ctx.ui.animated !== last ? last : null;
  if (fresh) ctx.ui.animated = last;
  return h(
    "div.trick",
    { id: "trick", "aria-live": "polite", "aria-label": cards.length ? "" : t("empty_trick") },
    cards.map(({ seat, card }) =>
      h(
        `div.slot.pos-${seatPosition(seat, bottom)}${winner === seat ? ".won" : ""}`,
        {},
        cardEl(card, {
          extra: card === fresh ? "fresh" : "",
          label: t("played_by", { card: cardName(card), name: store.seatName(seat) }),
        }),
      ),
    ),
    winner !== null ? h("div.trick-note", {}, t("trick_won_by", { name: store.seatName(winner) })) : null,
  );
}

/** Which decision is in front of the player (a hint belongs to one decision only). */
function decisionKey(store) {
  const game = store.game;
  // The game and the cards held too: a redeal keeps the hand's number, a new game its own.
  const where = [store.table.game_number, game.hand_number, game.phase, (game.tricks || []).length, (game.trick || []).length];
  return [...where, (game.hand || []).join("")].join("|");
}

/** The rule bot's suggestion for this decision, if the player asked for it. */
function hintNow(ctx) {
  const hint = ctx.ui.hint;
  return hint && hint.key === decisionKey(ctx.store) ? hint.action : null;
}

/** The suggestion in words (a live region: a screen reader hears it too). */
function hintSaid(hint) {
  if (!hint) return null;
  let text = "";
  if (hint.card) text = t("hint_card", { card: cardName(hint.card) });
  else if (hint.suit) text = t("hint_suit", { suit: suitName(hint.suit) });
  else if (hint.type === "request_redeal") text = t("hint_redeal");
  return h("span.small.hint-said#hint-said", { role: "status" }, text);
}

/** Whether this player asked for a hint in this game (a win then earns them no points). */
function hintedMe(store) {
  const me = store.you?.player_id;
  return Boolean(me && (store.table.hinted || []).includes(me));
}

/** Whether the bot made more of this player's decisions in the game just over than they did
 * (timeouts, or away): its win earns them no points, as a hint's does. */
function idleMe(store) {
  const me = store.you?.player_id;
  return Boolean(me && ((store.table.games || []).at(-1)?.idle || []).includes(me));
}

/** «راهنما»: for a player alone with bots (practice), what the rule bot would do here. */
function hintButton(ctx) {
  const { store, ui } = ctx;
  if (store.table.seats.filter((s) => s.kind === "human").length !== 1) return null;
  const key = decisionKey(store);
  const first = !hintedMe(store); // the first hint of a game costs the win's points
  const ask = async () => {
    if (ui.hintAsked !== null && ui.hintAsked !== undefined) {
      ui.hintAsked = null; // the question goes at once: a second tap cannot ask twice
      ctx.redraw();
    }
    const reply = await ctx.command("hint");
    if (reply?.type === "ack" && reply.hint) {
      ui.hint = { key, action: reply.hint };
      ctx.redraw();
      document.querySelector(".hinted")?.focus();
    }
  };
  // The first hint of a game is asked twice: the cost is said before it is paid (a tooltip
  // is never seen on a phone, and a toast after the hint came too late).
  if (first && ui.hintAsked === key) {
    const no = () => {
      ui.hintAsked = null;
      ctx.redraw();
      document.getElementById("hint")?.focus();
    };
    return h(
      "span.hint-confirm#hint-confirm",
      {
        role: "alert",
        // Escape says «نه», as it withdraws the close-game and leave-game questions
        onkeydown: (e) => {
          if (e.key !== "Escape") return;
          e.stopPropagation();
          no();
        },
      },
      h("span.small", {}, t("hint_costs_points")),
      " ",
      h("button.link#hint-sure", { type: "button", onclick: ask }, t("hint_anyway")),
      " ",
      h("button.link#hint-no", { type: "button", onclick: no }, t("hint_no")),
    );
  }
  return h(
    "button.link.hint-btn#hint",
    {
      type: "button",
      title: first ? t("hint_costs_points") : undefined,
      onclick: () => {
        if (!first) return ask();
        ui.hintAsked = key;
        ctx.redraw();
        document.getElementById("hint-sure")?.focus();
      },
    },
    t("hint"),
  );
}

function prompt(ctx) {
  const { store, act } = ctx;
  const hint = hintNow(ctx);
  const game = store.game;
  if (store.table.status === "game_over" || game.phase === "game_over") return null;
  const me = store.mySeat;
  const timerBar = me !== null && store.timer?.seat === me ? countdown(store, me) : null;
  if (game.phase === "choose_hakem" && (store.table.rules?.first_hakem === "manual" || store.table.rules?.next_game_hakem === "manual")) {
    if (!store.isOwner) return h("div.prompt#prompt", { role: "status" }, t("waiting_owner_hakem"));
    return h(
      "div.prompt.choose-hakem#choose-hakem",
      { role: "group", "aria-label": t("choose_hakem"), dataset: { decision: "1" } },
      h("strong", { role: "alert" }, t("choose_hakem")),
      h(
        "div.row",
        {},
        [0, 1, 2, 3].map((seat) => h("button.hakem-btn", { type: "button", dataset: { seat }, onclick: () => ctx.command("choose_hakem", { seat }) }, store.seatName(seat))),
      ),
    );
  }
  const trumps = store.legal("choose_trump");
  if (trumps.length) {
    const counts = {};
    for (const c of game.hand) counts[c.slice(-1)] = (counts[c.slice(-1)] || 0) + 1;
    const redeal = store.legal("request_redeal");
    return h(
      "div.prompt.choose-trump#choose-trump",
      { role: "group", "aria-label": t("choose_trump"), dataset: { decision: "1" } },
      h("div.prompt-head", {}, h("strong", { role: "alert" }, t("choose_trump")), " ", timerBar),
      h("p.small", {}, t("choose_trump_help")),
      h(
        "div.row.suits",
        { onkeydown: arrowFocus(".suit-btn") },
        trumps.map((a) =>
          h(
            `button.suit-btn.suit-${a.suit}${hint?.suit === a.suit ? ".hinted" : ""}`,
            { type: "button", dataset: { suit: a.suit }, "aria-describedby": hint?.suit === a.suit ? "hint-said" : undefined, onclick: () => act({ type: "choose_trump", suit: a.suit }), "aria-label": `${t("trump")}: ${suitName(a.suit)} (${cardsText(counts[a.suit] || 0)})` },
            h("span.sym", { "aria-hidden": "true" }, SYMBOL[a.suit]),
            h("span", {}, t(`suit_${a.suit}`), " ", h("small", {}, `(${num(counts[a.suit] || 0)})`)),
          ),
        ),
      ),
      redeal.length ? h(`button#redeal${hint?.type === "request_redeal" ? ".hinted" : ""}`, { type: "button", onclick: () => act({ type: "request_redeal" }) }, t("request_redeal")) : null,
      hintSaid(hint) ?? hintButton(ctx),
    );
  }
  const bams = store.legal("decide_bam");
  if (bams.length) {
    return h(
      "div.prompt.bam#bam",
      { role: "group", "aria-label": t("result_bam"), dataset: { decision: "1" } },
      h("div.prompt-head", {}, h("strong", { role: "alert" }, t("bam_question")), " ", timerBar),
      h(
        "div.row",
        {},
        h("button.primary#bam-go", { type: "button", onclick: () => act({ type: "decide_bam", go: true }) }, t("bam_go")),
        h("button#bam-stop", { type: "button", onclick: () => act({ type: "decide_bam", go: false }) }, t("bam_stop")),
      ),
    );
  }
  let text = "";
  if (store.legal("play").length) text = t("your_turn");
  else if (game.phase === "trump" && game.hakem !== null) text = t("waiting_trump", { name: store.seatName(game.hakem) });
  else if (game.phase === "bam") text = t("bam_waiting", { team: teamLabel(store, game.bam_team ?? 0) });
  else if (game.to_move !== null && game.to_move !== undefined) text = t("turn_of", { name: store.seatName(game.to_move) });
  else if (game.phase === "choose_hakem") text = t("choosing_hakem");
  else if (game.phase === "deal") text = t(game.last_result ? "next_hand_soon" : "dealing");
  if (game.bam_going) text = `${text}${t("sep")}${t("bam_going")}`;
  // (kept when empty, hidden, so the table does not jump)
  const mine = store.legal("play").length > 0;
  const kind = mine ? "mine" : text || timerBar ? "" : "idle";
  // Not a live region: it said every bot's turn, a line per card. The room page tells a
  // screen reader the player's own turn (and the trump, the winner) once, in #announce.
  return h("div.prompt#prompt", { class: kind }, h("span.prompt-text", {}, text), " ", timerBar, mine ? [" ", hintSaid(hint) ?? hintButton(ctx)] : null);
}

/** Why a card may not be played now, in the player's words. The server says which cards are
 * legal; on one's own turn a card is refused only for not following the led suit. */
function whyNotLegal(game, legal) {
  if (!legal.size) return t("not_your_turn_now");
  const lead = (game.trick || [])[0]?.[1];
  return lead ? t("must_follow", { suit: suitName(lead.slice(-1)) }) : t("not_legal");
}

function handRow(ctx) {
  const { store, act, ui } = ctx;
  const game = store.game;
  const legal = new Set(store.legal("play").map((a) => a.card));
  const cards = sortHand(game.hand || [], game.trump);
  const play = (card, ev) => {
    // A double click sends one card: a click is ignored while a card is on its way, and so is
    // the second click of a double click (``detail`` counts the clicks) even once the card is
    // answered: the hand has moved under the pointer, and may be playable again when the card
    // won the trick, but that click is not a lead.
    if (ui.playSending || (ev?.detail ?? 0) >= 2) return;
    if (!legal.has(card)) {
      toast(whyNotLegal(game, legal), "error");
      return;
    }
    // show the move at once; the server's events confirm it
    const btn = document.querySelector(`.hand [data-card="${card}"]`);
    if (btn) btn.classList.add("leaving");
    for (const el of document.querySelectorAll(".hand .card.legal")) el.classList.remove("legal");
    legal.clear();
    ui.playSending = true;
    act({ type: "play", card }).then((reply) => {
      ui.playSending = false;
      if (reply?.type !== "ack") ctx.redraw(); // refused or offline: the hand is playable again
    });
  };
  const onKey = arrowFocus(".card");
  const hinted = hintNow(ctx)?.card;
  return h(
    "div.hand#my-hand",
    // focusable by script: the focus waits here when the hand's last card is gone
    { role: "group", "aria-label": `${t("your_hand")}${t("sep")}${t("legal_hint")}`, dir: "ltr", tabindex: "-1", onkeydown: onKey },
    cards.map((card) =>
      cardEl(card, {
        button: true,
        extra: (legal.has(card) ? "legal" : legal.size ? "illegal" : "idle") + (hinted === card ? ".hinted" : ""),
        describedby: hinted === card ? "hint-said" : undefined,
        disabled: !legal.has(card),
        onclick: (ev) => play(card, ev),
      }),
    ),
  );
}

function closeGameButton(ctx) {
  const { store, ui } = ctx;
  if (!store.isOwner || store.table.status === "game_over") return null;
  // The focus follows the question: to the confirmation when it is asked, back to «بستن بازی»
  // when it is withdrawn (both fell to <main> as their buttons went).
  const cancel = () => {
    ui.confirmClose = false;
    ctx.redraw();
    document.getElementById("close-game-now")?.focus();
  };
  if (!ui.confirmClose) {
    return h("button#close-game-now", { type: "button", onclick: () => { ui.confirmClose = true; ctx.redraw(); document.getElementById("close-game-sure")?.focus(); } }, t("close_game"));
  }
  return h(
    "span.row#close-game-confirm",
    {
      onkeydown: (e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation(); // Escape withdraws the question, as «لغو» does
        cancel();
      },
    },
    // The matched game of a quick room: closing it is leaving it (a loss for the closer).
    h("button.danger#close-game-sure", { type: "button", onclick: () => { ui.confirmClose = false; ctx.command("close_game"); } }, t(store.table.quick && store.table.game_number === 1 ? "close_game_sure_quick" : "close_game_sure")),
    h("button#close-game-cancel", { type: "button", onclick: cancel }, t("quick_match_cancel")),
  );
}

/** A seated player leaves the game in progress (RULES.md §8: a loss for them; a bot takes the
 * seat and the game goes on for the others). Asked twice, as closing it is; without it the
 * only way out was to close the page, which keeps the seat until the grace ends and then
 * cancels everyone's game. */
function leaveGameButton(ctx) {
  const { store, ui } = ctx;
  if (!Number.isInteger(store.mySeat) || store.table.status === "game_over") return null;
  const cancel = () => {
    ui.confirmLeave = false;
    ctx.redraw();
    document.getElementById("leave-game")?.focus();
  };
  if (!ui.confirmLeave) {
    return h("button#leave-game", { type: "button", onclick: () => { ui.confirmLeave = true; ctx.redraw(); document.getElementById("leave-game-sure")?.focus(); } }, t("leave_game"));
  }
  const leave = async () => {
    ui.confirmLeave = false;
    ui.leaving = true; // (the page's own "you left" news, not "you left in another window")
    const reply = await ctx.command("leave");
    if (reply?.type === "error" || !reply) {
      ui.leaving = false;
      ctx.redraw();
      return;
    }
    toast(t("left_game"));
    location.hash = "#/";
  };
  return h(
    "span.row#leave-game-confirm",
    {
      onkeydown: (e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        cancel();
      },
    },
    h("p.small#leave-game-warning", {}, t("leave_game_warning")),
    h("button.danger#leave-game-sure", { type: "button", onclick: leave }, t("leave_game_sure")),
    h("button#leave-game-cancel", { type: "button", onclick: cancel }, t("quick_match_cancel")),
  );
}

/** Who watches the table: the players know who sees the cards played and the chat. */
function onlookers(store) {
  const names = store.onlookers().map((m) => m.name);
  if (!names.length) return null;
  // each name isolated, so a Latin one keeps its punctuation in a Persian line
  return h("p.small#onlookers", {}, t("onlookers", { n: names.length }), ": ", names.map((name, i) => [i ? t("list_sep") : "", h("bdi", {}, name)]));
}

/** In a room's second or later game: the way back to the game before (its result, record,
 * replay and analysis), which the game-over panel showed until the owner started this one. */
function previousGameLink(ctx) {
  const { store } = ctx;
  const n = store.table.game_number;
  if (!Number.isInteger(n) || n < 2 || store.table.status === "game_over") return null;
  // In a new tab: leaving the table would leave the seat to a bot for the moves meanwhile.
  return h(
    "a.button#previous-game",
    { href: `#/game/${store.code}-${n - 1}`, target: "_blank", rel: "noopener" },
    t("previous_game"),
  );
}

function lastTrickButton(ctx) {
  const { store, ui } = ctx;
  const tricks = store.game.tricks || [];
  if (!tricks.length) return null;
  return h(
    "button#last-trick-btn",
    {
      type: "button",
      "aria-expanded": ui.lastTrickOpen ? "true" : "false",
      "aria-controls": ui.lastTrickOpen ? "last-trick" : undefined,
      onclick: () => {
        ui.lastTrickOpen = !ui.lastTrickOpen;
        ctx.redraw();
        // On a short screen the panel opens below the fold: bring it into view.
        if (ui.lastTrickOpen) document.getElementById("last-trick")?.scrollIntoView({ block: "nearest" });
      },
    },
    t("last_trick"),
  );
}

function lastTrickPanel(ctx, bottom) {
  const { store } = ctx;
  const tricks = store.game.tricks || [];
  const last = tricks[tricks.length - 1];
  if (!last) return null;
  return h(
    "div.panel.last-trick#last-trick",
    { role: "region", "aria-label": t("last_trick") },
    h("h3", {}, t("last_trick_won_by", { name: store.seatName(last.winner) })),
    h(
      "div.row",
      {},
      last.cards.map((card, i) => {
        const seat = (last.leader + i) % 4;
        return h(
          `div.mini-slot${seat === last.winner ? ".won" : ""}`,
          {},
          cardEl(card, { extra: "small", label: t("played_by", { card: cardName(card), name: store.seatName(seat) }) }),
          h("span.small", { title: store.seatName(seat), dir: "auto" }, store.seatName(seat)),
        );
      }),
    ),
  );
}

/** A failed bam that cost the bammers points (``failed_bam`` at minus 3): the hand is the
 * others', for nothing. */
function bamLoss(res) {
  return res.result === "failed_bam" && (res.points || [0, 0])[1 - res.winner_team] < 0;
}

/** The score sheet: this game's finished hands, one row each, told from the viewer's side
 * (a spectator's: team 1 first, as the score bar): the hakem, trump, tricks, who won it (with
 * the result when it is more than a plain win), its points and the score after it. Folded
 * during the game; open in the game-over panel (a new `data-stage`, so `patch()` opens it). */
export function handsSheet(ctx) {
  const { store } = ctx;
  const hands = store.table.hands || [];
  if (!hands.length) return null;
  const mine = store.mySeat;
  const us = mine === null || mine === undefined ? 0 : mine % 2;
  const side = (team) => (team === us ? "us" : "them");
  const over = store.table.status === "game_over";
  return h(
    "details.hands-sheet#hands-sheet",
    { open: over, "data-stage": over ? "over" : "playing" },
    h("summary", {}, t("hands_sheet"), ": ", num(hands.length)),
    h(
      "div.sheet-scroll",
      // a keyboard can scroll it where it overflows (Safari makes no scroll area focusable)
      { tabindex: "0", role: "region", "aria-label": t("hands_sheet") },
      h(
        "table",
        { "aria-label": t("hands_sheet") },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["sheet_hand", "hakem", "trump", "tricks", "sheet_winner", "sheet_points", "sheet_score"].map((key) => h("th", { scope: "col" }, t(key))),
          ),
        ),
        h(
          "tbody",
          {},
          hands.map((r) => {
            const kind = r.result && r.result !== "normal" ? `${t("sep")}${t(`result_${r.result}`)}` : "";
            return h(
              `tr#sheet-hand-${r.hand}`,
              {},
              h("th", { scope: "row" }, num(r.hand + 1)),
              h("td.name", { dir: "auto", title: store.seatName(r.hakem) }, store.seatName(r.hakem)),
              h("td", {}, r.trump ? h(`span.suit-${r.trump}`, { role: "img", "aria-label": suitName(r.trump) }, SYMBOL[r.trump]) : "–"),
              h("td.nowrap", {}, ...oursTheirs(r.tricks, mine)),
              h(`td.${side(r.winner_team)}`, {}, teamLabel(store, r.winner_team), kind),
              // a failed bam at minus 3: the others' «۰» told nothing, the bammers' «−۳» is shown
              bamLoss(r) ? h(`td.${side(1 - r.winner_team)}`, {}, num(r.points[1 - r.winner_team])) : h("td", {}, num((r.points || [0, 0])[r.winner_team] ?? 0)),
              h("td.nowrap", {}, ...oursTheirs(r.score, mine)),
            );
          }),
        ),
      ),
    ),
  );
}

function aceDrawInfo(store) {
  const game = store.game;
  const draw = game.ace_draw || [];
  if (!draw.length || (game.hand_number ?? 0) > 0 || (game.tricks || []).length > 1) return null;
  const start = game.ace_draw_start ?? 0;
  const hakem = (start + draw.length - 1) % 4;
  return h(
    "details.ace-draw#ace-draw",
    { open: game.phase === "trump", "data-stage": game.phase === "trump" ? "trump" : "playing" },
    h("summary", {}, t("ace_draw_told", { name: store.seatName(hakem) })),
    h(
      "div.row.draw-cards",
      {},
      draw.map((card, i) => {
        const seat = (start + i) % 4;
        return h(
          `div.mini-slot${i === draw.length - 1 ? ".won" : ""}`,
          {},
          cardEl(card, { extra: "small", label: t("played_by", { card: cardName(card), name: store.seatName(seat) }) }),
          h("span.small", { title: store.seatName(seat), dir: "auto" }, store.seatName(seat)),
        );
      }),
    ),
    h("p.small", {}, t("ace_draw_result", { name: store.seatName(hakem) })),
  );
}

/** A pair by team (a hand's tricks, a score) "ours – theirs" for a seated player, in the score
 * bar's order and colours (team 1 first for a spectator). */
function oursTheirs(pair, mine) {
  const us = mine === null || mine === undefined ? 0 : mine % 2;
  return [h("b.us", {}, num(pair?.[us] ?? 0)), " – ", h("b.them", {}, num(pair?.[1 - us] ?? 0))];
}

function resultBanner(ctx) {
  const { store, ui } = ctx;
  const res = store.handResult;
  if (store.table.status === "game_over") return null; // the game-over panel says it all
  // Once closed, or once the next hand's play has begun, the result no longer covers the table.
  if (!res || bannerHand(ctx) === null) return null;
  const mine = store.mySeat;
  const told = handTold(store, res);
  const animate = ui.bannerAnimated !== res.hand;
  ui.bannerAnimated = res.hand;
  // Not a live region: one put in the page with its words already in it is not read by every
  // screen reader; the room page says the result in #announce (handSaid).
  return h(
    `div.result-banner.result-${res.result}${animate ? ".enter" : ""}#hand-result`,
    {},
    h("div.small.result-hand", {}, t("hand_n", { n: res.hand + 1 })),
    h("strong.result-name", {}, told.title),
    h("div", {}, told.sentence),
    h("div.small.result-tricks", {}, `${t("tricks")}: `, ...oursTheirs(res.tricks, mine)),
    h(
      "button.link#dismiss-result",
      {
        type: "button",
        onclick: () => {
          ui.resultShown = `${res.hand}`;
          ctx.redraw();
        },
      },
      t("close"),
    ),
  );
}

/** A finished hand in one line for a screen reader: «هَند ۲: ما (…) این هَند را بردیم: کُت، ۲ امتیاز». */
export function handSaid(store, res) {
  return `${t("hand_n", { n: res.hand + 1 })}: ${handTold(store, res).sentence}`;
}

/** A finished hand told from the viewer's side: a title ("We lost the hand", with the result
 * when it is more than a plain win: "· Kot") and a sentence naming the team, result, points. */
function handTold(store, res) {
  const mine = store.mySeat;
  const ours = mine !== null && mine !== undefined && mine % 2 === res.winner_team;
  const theirs = mine !== null && mine !== undefined && !ours;
  const team = ours ? t("team_we") : theirs ? t("team_they") : t("team_n", { n: res.winner_team + 1 });
  // «و» / "and" as at the game's end (the game-over panel showed both joinings at once)
  const names = nameList([res.winner_team, res.winner_team + 2].map((s) => store.seatName(s)));
  const points = pointsText((res.points || [0, 0])[res.winner_team]);
  const who = ours ? t("hand_won_us") : theirs ? t("hand_lost_us") : t("hand_won_team", { n: res.winner_team + 1 });
  const title = res.result === "normal" ? who : `${who}${t("sep")}${capitalized(t(`result_${res.result}`))}`;
  // A failed bam at minus 3 is the others' hand for 0 points: said so, the «−۳» of the
  // bammers was nowhere but in their score («حریف این هَند را برد: بام ناموفق، ۰ امتیاز»).
  const loser = 1 - res.winner_team;
  if (bamLoss(res)) {
    const lost = res.points[loser];
    const bammers = nameList([loser, loser + 2].map((s) => store.seatName(s)));
    const key = theirs ? "failed_bam_us" : ours ? "failed_bam_them" : "failed_bam_team";
    return { title, sentence: t(key, { n: loser + 1, names: bammers, points: pointsText(-lost) }) };
  }
  return {
    title,
    sentence: t(ours ? "won_hand_us" : "won_hand", { team: `${team} (${names})`, result: t(`result_${res.result}`), points }),
  };
}

const GAME_TRIES = 10; // a second apart: the game is stored, then recorded for its players

/** Ask for the room's stored games until ``wanted`` is among them (`ui.games`), then, for a
 * seated player, their profile until it lists that game (`ui.reward`: its points and rating
 * change). Stops when the page has moved on to another game, or after GAME_TRIES asks each. */
async function findGame(ctx, wanted, player) {
  const { ui } = ctx;
  // still wanted: the page shows this game's end (not the next game's, nor another page)
  const wanting = () => ui.gamesFor === wanted && !ctx.left?.();
  const pause = () => new Promise((r) => setTimeout(r, 1000));
  const ask = async (path) => {
    try {
      const r = await fetch(path, { credentials: "same-origin" });
      return r.status === 404 ? "none" : r.ok ? await r.json() : null;
    } catch {
      return null;
    }
  };
  for (let i = 0; i < GAME_TRIES && wanting(); i++) {
    const d = await ask(`/api/rooms/${encodeURIComponent(ctx.store.code)}/games`);
    if (!wanting()) return;
    if (d && d !== "none") ui.games = d.games || [];
    if (ui.games.some((g) => g.game_id === wanted)) {
      ctx.redraw();
      break;
    }
    await pause();
  }
  if (!player || !ui.games.some((g) => g.game_id === wanted)) return;
  for (let i = 0; i < GAME_TRIES && wanting(); i++) {
    const p = await ask(`/api/players/${encodeURIComponent(player)}`);
    if (p === "none" || !wanting()) return; // a server without accounts
    const mine = (p?.recent_games || []).find((g) => g.game_id === wanted);
    if (mine) {
      ui.reward = { ...mine, guest: p?.player?.kind !== "account" };
      ctx.redraw();
      return;
    }
    await pause();
  }
}

/** What the game brought the player: points, and a rated game's move of their rating. */
function rewardLine(game) {
  if (!game || (!game.points && !game.rating_change)) return null;
  const parts = [];
  if (game.points) parts.push(t("reward_points", { points: pointsText(game.points) }));
  if (Array.isArray(game.rating_change)) {
    const [before, after] = game.rating_change;
    const said = t("reward_rating", { before: num(before), after: num(after) });
    parts.push([
      parts.length ? said : capitalized(said),
      " (",
      ratingDelta(game.rating_change),
      ")",
    ]);
  }
  // Then where to see it: one's profile, or for a guest (no profile page) the way to an
  // account, which keeps the guest's points.
  return h(
    "p#game-reward",
    {},
    parts.map((part, i) => [i ? t("sep") : "", part]),
    ". ",
    game.guest
      ? // the home page opens its «ورود / ثبت‌نام» box for it (it is folded otherwise)
        h("a#reward-register", { href: "#/", onclick: () => sessionStorage.setItem("hokm.openLogin", "1") }, t("reward_register"))
      : h("a", { href: "#/profile" }, t("reward_profile")),
  );
}

function gameOver(ctx) {
  const { store, command, ui } = ctx;
  const game = store.game;
  const win = game.winner_team;
  const me = store.mySeat;
  // an onlooker's heading names the team (it ended on a bare colon: «پایان بازی:»)
  const headline = me === null || me === undefined ? t("team_won", { n: win + 1 }) : me % 2 === win ? t("we_won") : t("we_lost");
  // This game's stored record (its links) and what it brought the player: asked for once per
  // game (a page that stayed for the next game used to keep linking the first one's).
  const wanted = `${store.code}-${store.table.game_number}`;
  if (ui.gamesFor !== wanted) {
    ui.gamesFor = wanted;
    ui.games = [];
    ui.reward = null;
    findGame(ctx, wanted, me === null || me === undefined ? null : store.you?.player_id);
  }
  const lastGame = ui.games.find((g) => g.game_id === wanted) ?? null;
  return h(
    "div.panel.game-over#game-over",
    { role: "region", "aria-label": t("game_result"), dataset: { decision: "1" } },
    h("h2", {}, t("game_result"), ": ", headline),
    h("p", {}, t("won_game", { team: nameList([win, win + 2].map((s) => store.seatName(s))) })),
    me !== null && me !== undefined && me % 2 === win && hintedMe(store) ? h("p.small#hinted-game", {}, t("hinted_no_points")) : null,
    me !== null && me !== undefined && me % 2 === win && !hintedMe(store) && idleMe(store) ? h("p.small#idle-game", {}, t("idle_no_points")) : null,
    game.last_result
      ? h(
          "p#last-hand",
          {},
          t("last_hand"),
          ": ",
          handTold(store, game.last_result).sentence,
          " ",
          // «(دست‌ها ۷ – ۳)» on one line (at 320 px its «۳)» wrapped alone)
          h("span.nowrap", {}, "(", t("tricks"), " ", ...oursTheirs(game.last_result.tricks, me), ")"),
        )
      : null,
    rewardLine(ui.reward),
    h(
      "p#final-score",
      {},
      // the teams as the score bar names them («ما» / «حریف»; a spectator: team 1 and 2)
      [0, 1].map((team) => h("span.final", {}, `${teamLabel(store, team)} (${nameList([team, team + 2].map((s) => store.seatName(s)))}): `, h("b", {}, num(game.score?.[team] ?? 0)))),
    ),
    handsSheet(ctx),
    lastGame
      ? h(
          "div.row",
          {},
          h("a.button#download-record", { href: `/api/games/${lastGame.game_id}/record`, download: `hokm-${lastGame.game_id}.json` }, t("download_record")),
          h("a.button#open-replay", { href: `#/game/${lastGame.game_id}` }, t("replay"), t("sep"), t("verify_shuffle")),
          h("a.button#open-analysis", { href: `#/game/${lastGame.game_id}/analysis` }, t("analyse")),
        )
      : null,
    store.isOwner
      ? h(
          "div.row",
          {},
          nextHakemChoice(ctx),
          h("button.primary#continue", { type: "button", onclick: () => command("continue_game") }, t("continue_game")),
          h("button#close-game", { type: "button", onclick: () => command("close_game") }, t("close_game")),
        )
      : h("p.hint", {}, store.table.quick ? t("quick_over_wait", { name: ownerName(store) }) : t("waiting_owner")),
    // A quick match's room: its owner was drawn, not chosen; another match is one tap away
    // for its players, who leave this room first (a seat kept here would stall its next game).
    store.table.quick && Number.isInteger(store.mySeat)
      ? h(
          "p",
          {},
          h(
            "a.button#quick-again",
            {
              href: "#/",
              onclick: async (e) => {
                e.preventDefault();
                await command("leave");
                location.hash = "#/";
              },
            },
            t("quick_again"),
          ),
        )
      : null,
  );
}

/** RULES.md §3: at the start of every new game the owner chooses how its first hakem is
 * found (next_game_hakem); changed here, it is the room's rule from now on (set_rules). */
function nextHakemChoice(ctx) {
  const current = ctx.store.table.rules?.next_game_hakem ?? "keep";
  return h(
    "label.next-hakem",
    { for: "next-game-hakem" },
    h("span", {}, optionLabel("next_game_hakem"), " "),
    h(
      "select#next-game-hakem",
      { onchange: (e) => ctx.command("set_rules", { options: { next_game_hakem: e.target.value } }) },
      (optionChoices("next_game_hakem") ?? [current]).map((c) => h("option", { value: c, selected: c === current }, optionValue(c))),
    ),
  );
}

function ownerName(store) {
  const owner = (store.table.members || []).find((m) => m.player === store.table.owner);
  return owner?.name ?? "?";
}

