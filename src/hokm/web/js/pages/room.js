// A room: the connection, the lobby before a game, the table during one, chat throughout.
import { announce, dropLobbyToasts, dropToast, focusInView, h, patch, toast } from "../dom.js";
import { nameList, roomCode, t } from "../i18n.js";
import { cardName, suitName, SYMBOL } from "../cards.js";
import { api, Connection, ensureGuest, rememberPlace, rememberRoom, rememberedPlace, savedName, savedToken } from "../net.js";
import { RoomStore } from "../store.js";
import { normalize } from "../protocol.js";
import { botLevels, NAME_MAX, nameLimitNote, noteNameLimit, phrases, refusal } from "../common.js";
import { renderLobby } from "../lobby.js";
import { handSaid, renderTable, updateCountdowns } from "../table.js";
import { renderChat } from "../chat.js";
import { chime } from "../sound.js";

const TURN_MARK = "● ";

function loadPlan(code) {
  try {
    return JSON.parse(sessionStorage.getItem(`hokm.plan.${code}`) || "null");
  } catch {
    return null;
  }
}

// Back at the table after this long away (not a mere reload), the player is told how far the
// game went on without them.
const AWAY_NOTE_MS = 10_000;

/** Where the game stands, to tell a returning player what happened meanwhile. */
function placeOf(store) {
  const game = store.game;
  if (!game || !Number.isInteger(game.hand_number)) return null;
  return {
    game: store.table.game_number ?? null,
    hand: game.hand_number,
    tricks: (game.tricks || []).length,
    score: [...(game.score || [0, 0])],
  };
}

// The moves a bot makes for a player whose time ran out, and what the player is told of them.
const AUTO_MOVES = new Set(["trump_chosen", "card_played", "bam_decided", "redealt"]);

function timedOutText(ev) {
  if (ev.kind === "trump_chosen") return t("you_timeout_trump", { suit: suitName(ev.suit) });
  if (ev.kind === "bam_decided") return t(ev.go ? "you_timeout_bam_go" : "you_timeout_bam_stop");
  if (ev.kind === "redealt") return t("you_timeout_redeal");
  return t("you_timeout_card", { card: cardName(ev.card) });
}

// The banners whose words are said when they change (sayBanners).
const BANNERS = ["paused", "away", "game-cancelled", "connection"];

export async function render(main, [rawCode]) {
  const code = roomCode(rawCode);
  const store = new RoomStore(code);
  const ui = {
    status: "connecting",
    saidBanners: {}, // each banner's lines when last drawn (sayBanners)
    notFound: false,
    plan: loadPlan(code),
    planRunning: false,
    phrases: [],
    levels: ["easy", "medium", "hard"],
    lastTrickOpen: false,
    chatOpen: window.matchMedia("(min-width: 900px)").matches,
    chatError: "",
    chatDraft: "",
    resultShown: null,
    games: [], // the room's stored games, asked for at a game's end (gamesFor: which game)
    gamesFor: null,
    reward: null, // what the finished game brought this player (its profile entry)
    spectator: false,
    hiddenSince: 0, // when the tab went to the background (0: it is shown)
    netDown: navigator.onLine === false, // the browser says the network is gone
    playSending: false, // a card was sent and is not answered yet (a second click is ignored)
    confirmLeave: false, // «ترک بازی» asked: is it sure?
    leaving: false, // this page sent the player's leave
    timedOut: false, // this player's time ran out: the bot's move for them is still to come
    timeoutSaid: "", // the note of what the bot did for them (gone at their next turn)
  };
  let conn = null;
  let refreshTimer = null;
  let tick = null;
  let lastAck = 0;

  // Where this player's decisions stand: the game, the hand, its phase (trump, play, bam) and
  // the cards in hand (a redeal gives as many others). A move the server found stale is sent
  // again only if this is as it was: else a bot decided for the player meanwhile (their time
  // ran out), and the old click would land on a later decision.
  const decisionMark = () => {
    const g = store.game;
    return g ? `${store.table?.game_number ?? ""}/${g.hand_number}/${g.phase}/${(g.hand ?? []).join(",")}` : "";
  };
  const stillLegal = (action) =>
    store.legal(action.type).some((a) => Object.keys(action).every((k) => k === "type" || a[k] === action[k]));

  const act = async (action) => {
    if (!conn) return null;
    // Sent now, it would wait in the socket and land after the turn was played for them:
    // unless the server answers all the same (it runs on this machine, which has no network).
    if (ui.netDown && !(await conn.answers())) {
      toast(t("offline_not_sent"), "error");
      return null;
    }
    const decided = decisionMark();
    let reply = await conn.action(action, Math.max(store.version ?? 0, lastAck));
    if (reply?.type === "error" && reply.code === "stale_version") {
      await new Promise((r) => setTimeout(r, 150));
      // (what happened instead is said by the move's own note, «… به جای شما بازی کرد»)
      if (decisionMark() !== decided || !stillLegal(action)) return reply;
      reply = await conn.action(action, Math.max(store.version ?? 0, lastAck));
    }
    if (!reply) {
      toast(t("offline"), "error");
    } else if (reply.type === "error") {
      toast(t("refused", { reason: refusal(reply) }), "error");
    } else if (reply.type === "ack") {
      lastAck = Math.max(lastAck, reply.version ?? 0);
    }
    return reply;
  };

  const command = async (type, fields = {}) => {
    const reply = conn ? await conn.command(type, fields) : null;
    if (!alive) return reply; // the page was left (a practice still being set up): no toasts
    if (!reply) toast(t("offline"), "error");
    else if (reply.type === "error") toast(t("refused", { reason: refusal(reply) }), "error");
    return reply;
  };

  const sendChat = async (msg) => {
    const reply = await conn?.request({ type: "chat", ...msg });
    if (!reply) {
      ui.chatError = t("offline");
    } else if (reply.type === "error") {
      ui.chatError = t("refused", { reason: refusal(reply) });
      // On a phone the chat's foot can be below the screen: bring the reason into view.
      setTimeout(() => document.getElementById("chat-error")?.scrollIntoView({ block: "nearest" }), 0);
    } else {
      ui.chatError = "";
      if (msg.text) {
        ui.chatDraft = "";
        const box = document.getElementById("chat-input");
        if (box && box.value.trim() === msg.text) box.value = "";
      }
    }
    draw();
    return reply;
  };

  window.hokmStore = store; // for tests and debugging
  // (`left`: the page was left; a late answer or a poll of a left page does nothing more)
  const ctx = { store, ui, act, command, sendChat, redraw: () => draw(), code, conn: () => conn, left: () => !alive };

  function focusKey() {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    if (el.dataset?.card) return { card: el.dataset.card, inHand: Boolean(el.closest(".hand")) };
    if (el.id) return { id: el.id };
    return null;
  }

  /** A decision of yours begins: the focus, if it is nowhere useful (the page, or a card of
   * the hand that cannot be played now), goes to the first control of the decision, so the
   * keyboard plays on without a Tab hunt. Focus in the chat or anywhere else stays. */
  function focusDecision() {
    const el = document.activeElement;
    const idle = !el || el === document.body || el === main || el.tagName === "MAIN" || el.matches?.(".hand") || (el.closest?.(".hand") && el.getAttribute("aria-disabled") === "true");
    if (!idle) return;
    focusInView(main.querySelector(".hand .card.legal, #choose-trump .suit-btn, #bam-go"));
  }

  function restoreFocus(key) {
    if (!key) return;
    let el = null;
    if (key.id) el = document.getElementById(key.id);
    else if (key.card) {
      el = main.querySelector(`.hand [data-card="${key.card}"]`);
      // (no card left: the hand ended; the focus stays on the hand, not <main>, till the next)
      if (!el && key.inHand) el = main.querySelector(".hand .card.legal") || main.querySelector(".hand .card") || main.querySelector(".hand");
    }
    if (el && el !== document.activeElement) focusInView(el);
  }

  /** Said once to a screen reader (the hidden #announce region), on what changed: a hand's
   * result, each hand's hakem, the trump named (by anyone: a bot hakem's choice was never
   * said), the player's own turn (not every bot's: that was a line per card), and who won the
   * game. */
  function tell(myTurn) {
    const game = store.game;
    const table = store.table;
    if (!game || !table || table.status === "lobby" || table.status === "closed") return;
    const over = table.status === "game_over";
    // A hand's result (a game's last hand is told by who won the game)
    const res = store.handResult;
    const handKey = res && typeof res.hand === "number" ? `${table.game_number}|${res.hand}` : null;
    if (handKey && handKey !== ui.saidHand && !over) announce(handSaid(store, res));
    if (handKey) ui.saidHand = handKey;
    // Each hand's hakem (who names trump and leads), before the trump: the seat's badge alone
    // is not said when a hand begins. Said once the hand is dealt, as the crown moves then
    // (between hands the engine already holds the next hakem, while the crown stays on the
    // last hand's).
    const dealt = Number.isInteger(game.hakem) && game.phase !== "deal";
    const hakemKey = dealt ? `${table.game_number}|${game.hand_number}|${game.hakem}` : null;
    if (hakemKey && hakemKey !== ui.saidHakem && !over) {
      announce(game.hakem === store.mySeat ? t("you_are_hakem") : t("hakem_is", { name: store.seatName(game.hakem) }));
    }
    if (hakemKey) ui.saidHakem = hakemKey;
    const trumpKey = game.trump ? `${table.game_number}|${game.hand_number}|${game.trump}` : null;
    if (trumpKey && trumpKey !== ui.saidTrump && !over) announce(t("trump_named", { suit: t(`suit_${game.trump}`), sym: SYMBOL[game.trump] }));
    if (trumpKey) ui.saidTrump = trumpKey;
    if (myTurn && !ui.saidTurn) announce(t("your_turn"));
    ui.saidTurn = myTurn;
    if (over && ui.saidOver !== table.game_number && typeof game.winner_team === "number") {
      ui.saidOver = table.game_number;
      const win = game.winner_team;
      const me = store.mySeat;
      const head = Number.isInteger(me) ? `${t(me % 2 === win ? "we_won" : "we_lost")} ` : "";
      announce(`${head}${t("won_game", { team: nameList([win, win + 2].map((x) => store.seatName(x))) })}`);
    }
  }

  /** Banners that come into the page with their words in them (the game paused, who is away,
   * why the last game was cancelled, the connection lost): a live region put in the page
   * already full is not read by every screen reader, so each line of a banner is said once in
   * #announce when it comes (the buttons in it left out: they are reached with Tab). A line
   * with a countdown («… تا ۲۸ ثانیهٔ دیگر …») is said with its seconds, which the page only
   * fills after drawing, and is not said again as they run down. */
  function sayBanners() {
    for (const id of BANNERS) {
      const el = document.getElementById(id);
      const lines = el ? bannerLines(el) : [];
      const before = ui.saidBanners[id] ?? [];
      const fresh = lines.filter((line) => !before.includes(line.key));
      if (fresh.length) announce(fresh.map((line) => line.text).join(" "));
      ui.saidBanners[id] = lines.map((line) => line.key);
    }
  }

  /** A banner's lines (its blocks, else itself) as ``{key, text}``: the words, and the words
   * with the countdowns' seconds in them. */
  function bannerLines(el) {
    const blocks = [...el.children].some((c) => c.nodeName === "DIV") ? [...el.children] : [el];
    const words = (node) => node.textContent.replace(/\s+/g, " ").trim();
    return blocks
      .map((block) => {
        const line = block.cloneNode(true);
        for (const control of line.querySelectorAll("button, a")) control.remove();
        for (const clock of line.querySelectorAll("[data-deadline]")) clock.textContent = "";
        const key = words(line);
        if (conn) updateCountdowns(line, store, conn.serverNow());
        return { key, text: words(line) };
      })
      .filter((line) => line.key);
  }

  /** The tab's title begins with «● نوبت شماست» while a decision of the player's waits (a
   * card, trump, bam): seen from another tab or the taskbar, where the turn clock runs on. */
  function markTitle(deciding) {
    const title = document.title;
    const plain = title.startsWith(TURN_MARK) ? title.slice(title.indexOf(" · ") + 3) : title;
    const wanted = deciding ? `${TURN_MARK}${t("your_turn")} · ${plain}` : plain;
    if (wanted !== title) document.title = wanted;
  }

  /** The player's own clock: said once, politely, when five seconds are left. */
  function warnClock() {
    const timer = store.timer;
    if (!conn || !timer || timer.auto || !timer.deadline || timer.seat !== store.mySeat || !Number.isInteger(store.mySeat)) return;
    const left = store.secondsLeft(conn.serverNow());
    if (left === null || left > 5 || left <= 0 || store.timerTotal() <= 5 || ui.warnedClock === timer.deadline) return;
    ui.warnedClock = timer.deadline;
    announce(t("time_running_out", { n: left }));
  }

  let alive = true; // false once the page is left: a late reply must not draw over the next page
  function draw() {
    if (!alive) return;
    const key = focusKey();
    if (ui.needName) {
      drawNamePrompt();
      return;
    }
    if (ui.notFound || ui.removed) {
      const said = ui.removed ? t("removed_from_room") : t("room_not_found");
      patch(main, h("section.page", {}, h("h1#room-gone", { tabindex: "-1" }, said), h("a", { href: "#/" }, t("nav_home"))));
      return;
    }
    if (!store.table) {
      patch(main, h("section.page", {}, h("p.loading", {}, ui.status === "offline" ? t("reconnecting") : t("loading"))));
      return;
    }
    const game = store.game;
    const status = store.table.status;
    // Your turn: a "not your turn" said just before it is out of date.
    const myTurn = store.legal("play").length > 0;
    // So is "your time ran out, a card is played for you" (up for 6 s, as long as the bots
    // may take to play round to you again).
    if (myTurn && !ui.myTurn) for (const said of [t("not_your_turn_now"), ui.timeoutSaid]) dropToast(said);
    ui.myTurn = myTurn;
    // A decision of yours begins (a card, trump, bam): a chat sheet over the bottom of a
    // phone's screen would hide the hand and take the taps meant for it, so it folds.
    const deciding = (game?.legal ?? []).length > 0;
    // (trump named, then the hakem leads: a new decision too, though one was being made)
    const kind = deciding ? game.legal[0].type : null;
    const began = deciding && (!ui.deciding || kind !== ui.decisionKind);
    const wasDeciding = ui.deciding;
    ui.decisionKind = kind;
    if (deciding && !ui.deciding && ui.chatSheet) {
      ui.chatOpen = false;
      ui.chatSheet = false;
    }
    ui.deciding = deciding;
    const atTable = game && status !== "lobby" && status !== "closed";
    if (atTable && Number.isInteger(store.mySeat)) rememberRoom(code);
    // From the lobby (perhaps scrolled down to the options) to the table: show its top.
    const toTable = atTable && ui.drawnAtTable === false;
    ui.drawnAtTable = Boolean(atTable);
    const body = atTable ? renderTable(ctx) : renderLobby(ctx);
    patch(
      main,
      h(
        `section.room${atTable ? ".at-table" : ".in-lobby"}`,
        {},
        connectionBanner(),
        body,
        renderChat(ctx),
      ),
    );
    restoreFocus(key);
    if (began) focusDecision();
    // A turn that comes (not one the page opened on, nor the hakem's lead after naming trump)
    if (began && !wasDeciding && ui.drawnOnce) chime();
    ui.drawnOnce = true;
    tell(myTurn);
    sayBanners();
    markTitle(deciding);
    if (toTable) {
      window.scrollTo(0, 0);
      dropLobbyToasts();
    }
    if (conn) updateCountdowns(main, store, conn.serverNow());
  }

  function connectionBanner() {
    // The browser knows at once when the network is gone; the socket may take a while.
    if (ui.status === "online" && !ui.netDown) return null;
    if (ui.status === "signed_out") {
      return h("div.banner.warn#signed-out", { role: "alert" }, t("signed_out"), " ", h("a", { href: "#/" }, t("sign_in_again")));
    }
    const text = ui.status === "replaced" || ui.netDown ? t("offline") : t("reconnecting");
    return h("div.banner.warn#connection", {}, text);
  }

  function drawNamePrompt() {
    const input = h("input#name", {
      type: "text",
      maxlength: NAME_MAX,
      "aria-required": "true",
      value: savedName(),
      placeholder: t("name_placeholder"),
      oninput: (e) => {
        noteNameLimit(e.target);
        if (e.target.value.trim()) dropToast(t("name_needed")); // answered
      },
    });
    patch(
      main,
      h(
        "section.page",
        {},
        h("h1", { tabindex: "-1" }, t("lobby_title"), " ", h("span.code", { dir: "ltr" }, code)),
        h(
          "form.panel.name-prompt",
          {
            onsubmit: async (e) => {
              e.preventDefault();
              const name = (document.getElementById("name")?.value ?? "").trim();
              if (!name) {
                toast(t("name_needed"), "error");
                document.getElementById("name")?.focus();
                return;
              }
              try {
                await ensureGuest(name);
              } catch (err) {
                toast(refusal(err), "error");
                return;
              }
              ui.needName = false;
              connect();
            },
          },
          h("label", { for: "name" }, t("your_name")),
          h("div.row", {}, input, h("button.primary#join", { type: "submit" }, t(ui.watchOnly ? "watch_game" : "join_room"))),
          nameLimitNote(savedName()),
          ui.watchOnly ? h("p.note#watch-only", {}, t("watch_only_note")) : null,
          ui.preview ? roomPreview(ui.preview) : null,
        ),
      ),
    );
    input.focus();
  }

  /** «صاحب اتاق: نگار. در اتاق: نگار، سام. ۲ صندلی خالی.» (the room's public facts). */
  function roomPreview(info) {
    const members = (info.members ?? []).filter((m) => m.connected !== false);
    const host = (info.members ?? []).find((m) => m.player === info.owner)?.name;
    const free = (info.seats ?? []).filter((seat) => seat.kind === "empty").length;
    const parts = [
      host ? t("preview_host", { name: host }) : null,
      members.length ? t("preview_here", { names: nameList(members.map((m) => m.name), t("list_sep")) }) : null,
      free ? t(free === 1 ? "preview_free_one" : "preview_free", { n: free }) : t("preview_full"),
    ].filter(Boolean);
    return h("p.small#room-preview", {}, `${parts.join(". ")}.`);
  }

  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      if (store.stale && conn?.isOpen()) conn.join({ fresh: true });
    }, 80);
  }

  /** A room frame was applied: the first after (re)connecting tells what went on while this
   * player was away; each one notes where the game stands, and when. */
  function seen() {
    // A tab in the background (a phone may freeze it with its connection open, and the
    // frames queue up) keeps the place it had when it was hidden: shown again, it says
    // what went on (onVisibility).
    if (ui.hiddenSince) return;
    if (ui.checkAway) {
      ui.checkAway = false;
      tellWhileAway();
    }
    notePlace();
  }

  /** The tab hidden: note where the game stands. Shown again after a while: once the frames
   * that queued up meanwhile are applied, say what went on. */
  function onVisibility() {
    if (document.visibilityState === "hidden") {
      if (!ui.hiddenSince) notePlace();
      ui.hiddenSince = Date.now();
      return;
    }
    const since = ui.hiddenSince;
    if (!since) return;
    setTimeout(() => {
      if (!alive || ui.hiddenSince !== since) return; // hidden again meanwhile
      ui.hiddenSince = 0;
      // a lost connection tells it on its return (onStatus: the next room frame)
      if (!conn?.isOpen()) return;
      ui.checkAway = false;
      tellWhileAway();
    }, 400);
  }
  document.addEventListener("visibilitychange", onVisibility);

  function notePlace() {
    const status = store.table?.status;
    if (Number.isInteger(store.mySeat) && (status === "playing" || status === "paused")) rememberPlace(code, placeOf(store));
  }

  /** Back after a while (the tab was closed, the connection lost): if the game went on
   * meanwhile, say so; a bot played this seat's turns. */
  function tellWhileAway() {
    const before = rememberedPlace(code);
    const now = placeOf(store);
    notePlace(); // told once: the next check starts from here
    if (!before || !now || !Number.isInteger(store.mySeat)) return;
    // A game over is told by its own panel (its score is final, and no hand is under way:
    // "now hand 3" of a game that ended after hand 2 was wrong on every reload).
    const status = store.table?.status;
    if (status !== "playing" && status !== "paused") return;
    if (before.game !== now.game || Date.now() - before.at < AWAY_NOTE_MS) return;
    if (now.hand === before.hand && now.tricks <= before.tricks) return;
    const us = store.mySeat % 2;
    toast(t("while_away", { hand: now.hand + 1, us: now.score[us], them: now.score[1 - us] }));
  }

  /** The seat of a human player, if they hold one. */
  function seatOf(player) {
    const seat = (store.table?.seats || []).findIndex((s) => s.kind === "human" && s.player_id === player);
    return seat < 0 ? null : seat;
  }

  function note(ev) {
    const name = typeof ev.seat === "number" ? store.seatName(ev.seat) : ev.name ?? "";
    // The player's own move won the race with the bot: nothing was done for them.
    if (AUTO_MOVES.has(ev.kind) && ev.seat === store.mySeat && !ev.auto) ui.timedOut = false;
    // Who went away is in the away banner (said by sayBanners); who came back, to the table
    // during a game (a connection back, or an idle player's «برگشتم»), leaves it: said here.
    const back = ev.kind === "player_back" ? ev.seat : ev.kind === "presence" && ev.connected ? seatOf(ev.player) : null;
    if (Number.isInteger(back) && back !== store.mySeat && store.table?.status === "playing") toast(t("player_back", { name: store.seatName(back) }));
    else if (ev.kind === "paused") toast(t("game_paused"), "info", { say: false }); // (and its banner)
    else if (ev.kind === "member_joined" && ev.player !== store.you?.player_id) {
      if (store.table?.status !== "playing") toast(t("member_joined", { name: ev.name }));
    }
    else if (ev.kind === "timeout" && ev.seat === store.mySeat) ui.timedOut = true; // said with the move
    else if (ev.auto && ev.seat === store.mySeat && ui.timedOut && AUTO_MOVES.has(ev.kind)) {
      // What the bot did for this player, once it is done: the trump, the card, the bam.
      ui.timedOut = false;
      dropToast(ui.timeoutSaid);
      ui.timeoutSaid = timedOutText(ev);
      toast(ui.timeoutSaid);
    } else if (ev.kind === "timeout") {
      // Not again and again for a player the banner above the table already says is away.
      const seat = store.table?.seats?.[ev.seat];
      if (!seat || !(seat.away || seat.connected === false)) toast(t("bot_plays_for", { name }));
    }
    else if (ev.kind === "member_left" && ev.forfeit && ev.player !== store.you?.player_id) {
      // «ترک بازی»: the name at the table just turned into a bot's.
      toast(t("left_game_other", { name: ev.name ?? "" }));
    } else if (ev.kind === "game_cancelled") {
      // Said in the lobby, until the next game (lobby.js cancelledNote): a toast alone was
      // gone in seconds. The warning before it came true.
      const gone = store.table?.members?.find((m) => m.player === ev.abandoned)?.name;
      if (gone) dropToast(t("grace_warning", { name: gone }));
      else toast(t("game_cancelled"), "error");
    }
    else if (ev.kind === "game_closed") toast(t(store.isOwner ? "game_closed_you" : "game_closed"));
    else if (ev.kind === "game_started" && ev.game > 1 && !store.isOwner) toast(t("new_game_started"));
    // (the countdown is the banner's, above the table: a toast's number would stand still)
    else if (ev.kind === "grace_warning") toast(t("grace_warning", { name }), "error");
  }

  function onMessage(raw) {
    const msg = normalize(raw);
    switch (msg.type) {
      case "snapshot":
        store.applySnapshot(msg);
        seen();
        conn.lastVersion = store.version;
        ui.spectator = store.you?.role === "spectator";
        runPlan();
        draw();
        break;
      case "events": {
        const items = msg.items;
        if (!store.table || !items.length) return;
        // A gap before the first event is asked for again (sync), unless the batch says it
        // starts before it: an event not for this viewer (another's held rename) leaves one,
        // and asking again for what one may not see looped until the server refused.
        const first = msg.from ?? items[0]?.version;
        if (store.version !== null && first > store.version + 1) {
          conn.send({ type: "sync", last_version: store.version });
          return;
        }
        const me = store.you?.player_id;
        store.applyEvents(items, { you: msg.you, timer: msg.timer, game: msg.game });
        conn.lastVersion = store.version;
        seen();
        const gone = me && items.find((it) => it.event?.kind === "member_left" && it.event.player === me);
        if (gone) {
          if (gone.event.removed) {
            // The owner removed this player: said where the room was, with the way home.
            ui.removed = true;
            conn.close();
            draw();
            return;
          }
          // This player left the room from another tab or device: this page leaves too (its
          // own «ترک بازی» says so itself).
          if (!ui.leaving) toast(t("left_elsewhere"));
          location.hash = "#/";
          return;
        }
        for (const item of items) note(item.event);
        if (store.stale) scheduleRefresh();
        draw();
        break;
      }
      case "error":
        if (msg.code === "room_not_found" || msg.code === "not_allowed") {
          if (msg.code === "not_allowed") ui.removed = true;
          else ui.notFound = true;
          conn.close();
          draw();
        } else if (msg.code === "room_full" && !ui.spectator) {
          ui.spectator = true;
          toast(t("spectating"));
          conn.asRole = "spectator";
          conn.join({ fresh: true });
        } else if (!msg.ref && msg.code === "rate_limited" && msg.command === "join") {
          // A join held back (too many in a row: reloads, a reconnecting loop): again soon.
          setTimeout(() => alive && conn?.isOpen() && conn.join(), 2500);
        } else if (!msg.ref && msg.code !== "stale_version") {
          toast(refusal(msg), "error");
        }
        break;
      case "bye":
        // (a session that ended is said by the banner, which stays: no toast besides it)
        if (msg.reason && msg.code !== 4003) toast(refusal({ message: msg.reason }), "error");
        break;
      default:
        break;
    }
  }

  function onStatus(s) {
    // from when we were gone (a hidden tab's place is from when it was hidden)
    if (ui.status === "online" && s !== "online" && !ui.hiddenSince) notePlace();
    if (s === "online") ui.checkAway = true; // the next room frame says what went on
    ui.status = s;
    // The first connection is no reconnection: the live #conn said «در حال اتصال دوباره…» on
    // entering every room.
    const first = s === "connecting" && !ui.wasOnline;
    if (s === "online") ui.wasOnline = true;
    const el = document.getElementById("conn");
    if (el) {
      el.textContent = s === "online" || first ? "" : s === "connecting" ? t("reconnecting") : t("offline");
      el.className = `conn ${s}`;
    }
    if (store.table) draw();
  }

  async function runPlan() {
    const plan = ui.plan;
    if (!plan || ui.planRunning || !store.isOwner) return;
    if (store.table.status !== "lobby" || store.game) return;
    ui.planRunning = true;
    try {
      let mine = store.mySeat;
      if (mine === null || mine === undefined) {
        const empty = store.table.seats.find((s) => s.kind === "empty");
        if (empty) {
          const r = await command("sit", { seat: empty.seat });
          if (r?.type === "ack") mine = empty.seat;
        }
      }
      if (!plan.practice) {
        // A new room for friends: its owner takes the first seat (and may move to another)
        // and waits for them; nothing else is done for them.
        sessionStorage.removeItem(`hokm.plan.${code}`);
        ui.plan = null;
        return;
      }
      for (const seat of [...store.table.seats]) {
        if (seat.kind === "empty" && seat.seat !== mine) {
          await command("add_bot", { seat: seat.seat, level: plan.level });
        }
      }
      const reply = await command("start");
      if (reply?.type === "ack") {
        sessionStorage.removeItem(`hokm.plan.${code}`);
        ui.plan = null;
      }
    } finally {
      ui.planRunning = false;
    }
  }

  function connect() {
    conn = new Connection({ message: onMessage, status: onStatus });
    window.hokmConn = conn; // for tests and debugging
    conn.connect(code);
  }

  phrases().then((p) => {
    ui.phrases = p;
  });
  botLevels().then((levels) => {
    if (levels.length) ui.levels = levels;
  });

  if (!savedToken() && !savedName()) {
    ui.needName = true;
    // A link to no room says so at once, before asking a name for nothing.
    api(`/api/rooms/${encodeURIComponent(code)}`).then(
      (info) => {
        if (!alive || !ui.needName || !info) return;
        // Whose room this is and who is in it, so an invited friend knows where they are going.
        ui.preview = info;
        // A game under way with its four seats taken: the visitor will watch, and is told so.
        const full = (info.seats ?? []).every((seat) => seat.kind !== "empty");
        if (full && ["playing", "paused"].includes(info.status)) ui.watchOnly = true;
        draw();
      },
      (err) => {
        if (!alive || err?.code !== "room_not_found" || !ui.needName) return;
        ui.needName = false;
        ui.notFound = true;
        draw();
      },
    );
  } else {
    connect();
  }
  const onNetwork = () => {
    ui.netDown = navigator.onLine === false;
    if (store.table) draw();
  };
  window.addEventListener("offline", onNetwork);
  window.addEventListener("online", onNetwork);
  draw();
  tick = setInterval(() => {
    if (conn) updateCountdowns(main, store, conn.serverNow());
    warnClock();
    if (store.flash && Date.now() - store.flash.at > 1400 && store.flash.shown) {
      store.flash = null;
      draw();
    }
  }, 250);

  return {
    cleanup() {
      alive = false;
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("offline", onNetwork);
      window.removeEventListener("online", onNetwork);
      clearInterval(tick);
      clearTimeout(refreshTimer);
      markTitle(false); // (the next page's own title has no mark: it is left as it is)
      if (conn) conn.close();
      const el = document.getElementById("conn");
      if (el) el.textContent = "";
    },
    refresh: draw,
  };
}
