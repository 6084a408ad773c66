import { num, t } from "./i18n.js";
import { rememberCommitment, rememberHandEnded } from "./seen.js";

// The client's copy of one room: built from `snapshot`, kept current with `event` frames.
// The rules are never re-implemented here: the legal actions and the hand come from the
// server's view of this seat (snapshot.table.game, or `game` in an event frame).

const GAME_EVENTS = new Set([
  "hakem_chosen",
  "hand_started",
  "cards_dealt",
  "trump_chosen",
  "redealt",
  "card_played",
  "trick_won",
  "bam_offered",
  "bam_decided",
  "hand_ended",
  "game_ended",
  "game_started",
  "game_closed",
  "game_cancelled",
  "timeout",
]);

export class RoomStore {
  constructor(code) {
    this.code = code;
    this.version = null;
    this.you = null;
    this.table = null;
    this.timer = null;
    this.chat = [];
    this.notes = [];
    this.flash = null; // the last completed trick, shown for a moment
    this.handResult = null; // the hand result to announce
    this.stale = false; // our view may miss legal actions: ask for a snapshot
    this.tableStale = false;
    this.listeners = new Set();
    this.batchCommitments = []; // the deal commitments of the batch being applied (applyEvents)
  }

  get game() {
    return this.table?.game ?? null;
  }

  get mySeat() {
    const id = this.you?.player_id;
    if (id && this.table?.seats) {
      const seat = this.table.seats.find((x) => x.kind === "human" && x.player_id === id);
      return seat ? seat.seat : null;
    }
    return this.you?.seat ?? null;
  }

  /** The members here without a seat (connected, the viewer apart): those the owner sees
   * waiting in the lobby, and who watch the table during a game. */
  onlookers() {
    const seated = new Set((this.table?.seats || []).map((s) => s.player_id).filter(Boolean));
    const me = this.you?.player_id;
    return (this.table?.members || []).filter((m) => !seated.has(m.player) && m.connected !== false && m.player !== me);
  }

  get isOwner() {
    return Boolean(this.you?.owner);
  }

  seatName(seat) {
    const s = this.table?.seats?.[seat];
    if (!s || s.kind === "empty") return t("seat_n", { n: seat + 1 });
    if (s.kind === "bot") return s.name || `${t("bot")} ${num(seat + 1)}`;
    return s.name || t("seat_n", { n: seat + 1 });
  }

  applySnapshot(msg) {
    this.version = msg.version;
    this.you = msg.you ?? this.you;
    this.table = msg.table;
    this.timer = msg.table?.timer ?? null;
    this.flash = this.table?.game?.trick?.length ? null : this.flash;
    this.chat = [...(msg.table?.chat ?? [])];
    this.stale = false;
    this.tableStale = false;
    // A page loaded (or back) while the last hand's result is still up, until the next
    // hand's first card, shows it again: it came only with the hand_ended event, and a reload
    // in the pause between hands lost it (the banner itself decides whether it is still up).
    const last = this.table?.game?.last_result;
    if (this.handResult === null && last && typeof last.hand === "number") this.handResult = last;
    // A deal's commitment, if the page (re)loaded while its hand is on: its seed is not out yet.
    const game = this.table?.game;
    if (msg.commitment && game && ["trump", "play", "bam"].includes(game.phase)) {
      rememberCommitment(this.code, this.table.game_number, game.hand_number, msg.commitment);
    }
  }

  /** Apply a batch of {version, event, game?, you?} (frames `event` or `events`). */
  applyEvents(items, extra = {}) {
    let gameStale = false;
    // A deal's commitment is kept (seen.js) only if its seed is not revealed in the same batch:
    // after a reconnect the missed events come together, and a commitment that arrives with
    // its own seed was not received before the deal.
    this.batchCommitments = [];
    for (const { version, event, game, timer, you } of items) {
      if (this.version !== null && version <= this.version) continue;
      this.version = version;
      const effect = this.applyEvent(event);
      if (effect === "game") gameStale = true;
      if (effect === "table") this.tableStale = true;
      if (game !== undefined && this.table) {
        this.table.game = game;
        gameStale = false;
      }
      if (timer !== undefined) this.timer = timer;
      if (you) this.setYou(you);
    }
    if (extra.game !== undefined && extra.game !== null && this.table) {
      this.table.game = extra.game;
      gameStale = false;
    }
    if (extra.you) this.setYou(extra.you);
    if (extra.timer !== undefined) this.timer = extra.timer;
    this.stale = gameStale || this.tableStale;
    for (const c of this.batchCommitments) rememberCommitment(this.code, c.game, c.hand, c.commitment);
    this.batchCommitments = [];
  }

  /** A seed of hand ``hand`` revealed (the hand ended, or its deal was redealt): commitments
   * of it that came in this batch were not received before their deal. */
  revealed(hand) {
    this.batchCommitments = this.batchCommitments.filter((c) => c.game !== this.table?.game_number || c.hand !== hand);
  }

  setYou(you) {
    this.you = { ...you };
  }

  /**
   * Apply one event to the local copy. Returns "game" when our view of the game (hand,
   * legal actions) may now be out of date, "table" when only a snapshot can say what changed,
   * or null.
   */
  applyEvent(ev) {
    const table = this.table;
    if (!table) return null;
    const game = table.game;
    const seats = table.seats || [];
    switch (ev.kind) {
      case "chat":
        // the table version marks a message (as in the snapshot's chat): what is new is later
        this.chat.push({ ...ev, version: this.version });
        if (this.chat.length > 200) this.chat.shift();
        return null;
      case "timer":
        this.timer = ev.timer;
        return null;
      case "paused":
        table.paused = true;
        table.status = "paused";
        return null;
      case "resumed":
        table.paused = false;
        if (table.status === "paused") table.status = "playing";
        return null;
      case "status":
        table.status = ev.status;
        table.paused = ev.status === "paused";
        return null;
      case "seat_changed": {
        const kind = ev.occupant ?? (ev.level ? "bot" : ev.player ? "human" : "empty");
        seats[ev.seat] = { ...ev, kind, player_id: ev.player ?? null };
        return null;
      }
      case "member_joined":
      case "member_renamed": {
        for (const seat of seats) if (seat.player_id === ev.player) seat.name = ev.name;
        const members = (table.members || []).filter((m) => m.player !== ev.player);
        const was = (table.members || []).find((m) => m.player === ev.player);
        table.members = [...members, { ...(was || { connected: true, seat: null }), player: ev.player, name: ev.name }];
        return null;
      }
      case "member_left":
        table.members = (table.members || []).filter((m) => m.player !== ev.player);
        return null;
      case "presence":
        for (const seat of seats) if (seat.player_id && seat.player_id === ev.player) seat.connected = ev.connected;
        table.members = (table.members || []).map((m) => (m.player === ev.player ? { ...m, connected: ev.connected } : m));
        if (ev.connected) table.grace = (table.grace || []).filter((g) => g.player !== ev.player);
        return null;
      case "player_away":
      case "player_back":
      case "player_returned":
        if (seats[ev.seat]) seats[ev.seat].away = ev.kind === "player_away";
        if (ev.kind === "player_returned") table.grace = (table.grace || []).filter((g) => g.seat !== ev.seat);
        return null;
      case "grace_warning":
        table.grace = [...(table.grace || []).filter((g) => g.seat !== ev.seat), ev];
        return null;
      case "deal_committed":
        table.seed_commitment = ev.commitment;
        this.batchCommitments.push({ game: table.game_number, hand: ev.hand, commitment: ev.commitment }); // kept at the batch's end
        return null;
      case "rules_changed":
      case "rules_set":
        if (ev.rules) table.rules = ev.rules;
        if ("preset" in ev) table.preset = ev.preset;
        return null;
      case "owner_changed":
        table.owner = ev.owner ?? ev.player_id ?? null;
        if (this.you) this.you.owner = Boolean(table.owner) && table.owner === this.you.player_id;
        return null;
      case "hints_used":
        table.hinted = [...(table.hinted || []).filter((p) => p !== ev.player), ev.player];
        return null;
      case "game_started":
        if (ev.rules) table.rules = ev.rules;
        table.game_number = ev.game ?? table.game_number;
        table.hinted = [];
        table.grace = [];
        table.hands = [];
        this.handResult = null;
        return "game";
      case "game_cancelled":
      case "game_closed":
        table.grace = [];
        return "table";
      case "game_result":
        table.games = [...(table.games || []), ev];
        return null;
      case "timeout":
        return null;
      case "card_played":
        if (game) {
          game.trick = [...(game.trick || []), [ev.seat, ev.card]];
          if (ev.seat === game.seat) game.hand = game.hand.filter((c) => c !== ev.card);
          if (game.hand_sizes) game.hand_sizes[ev.seat] = Math.max(0, game.hand_sizes[ev.seat] - 1);
          game.legal = [];
          game.to_move = null;
        }
        return "game";
      case "trick_won":
        if (game) {
          this.flash = { leader: ev.leader, cards: ev.cards, winner: ev.winner, at: Date.now() };
          game.tricks = [...(game.tricks || []), { leader: ev.leader, cards: ev.cards, winner: ev.winner }];
          game.trick = [];
          game.tricks_won = ev.tricks;
          game.leader = ev.winner;
        }
        return "game";
      case "trump_chosen":
        if (game) game.trump = ev.suit;
        return "game";
      case "hand_ended":
        if (game) {
          game.score = ev.score;
          // The event has no trump: the hand's own, still on the view until the next deal.
          game.last_result = { ...ev, trump: ev.trump ?? game.trump ?? null };
          // The score sheet (snapshot.hands): one row per hand, a replayed event replaces its row.
          const row = { ...game.last_result };
          delete row.kind;
          table.hands = [...(table.hands || []).filter((x) => x.hand !== ev.hand), row].sort((a, b) => a.hand - b.hand);
        }
        this.handResult = ev;
        this.timer = null;
        rememberHandEnded(this.code, table.game_number, ev.hand); // (seen.js: it was there)
        this.revealed(ev.hand);
        return "game";
      case "game_ended":
        if (game) game.winner_team = ev.winner_team;
        this.timer = null;
        return "game";
      case "hakem_chosen":
        if (game) game.hakem = ev.hakem;
        return "game";
      case "redealt":
        // a deal's seed revealed: which deal's, the batch may not say (the view can be behind):
        // none of its commitments is kept (a hand may then be "unseen", never wrongly ✔)
        this.batchCommitments = [];
        return "game";
      default:
        return GAME_EVENTS.has(ev.kind) ? "game" : "table";
    }
  }

  /** The full length of the current timer in seconds (from the rules when not given). */
  timerTotal() {
    const rules = this.table?.rules || {};
    if (this.timer?.seconds) return this.timer.seconds;
    if (this.game?.phase === "trump") return rules.trump_seconds ?? 20;
    return rules.turn_seconds ?? 15;
  }

  /** The countdown of the current timer, in whole seconds (null when no timer runs). */
  secondsLeft(serverNow) {
    if (!this.timer || !this.timer.deadline || this.timer.auto || this.table?.paused) return null;
    return Math.max(0, Math.ceil((this.timer.deadline - serverNow) / 1000));
  }

  legal(type) {
    return (this.game?.legal ?? []).filter((a) => a.type === type);
  }
}
