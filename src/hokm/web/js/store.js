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
    this.listeners = new Set();
  }

  get game() {
    return this.table?.game ?? null;
  }

  get mySeat() {
    return this.you?.seat ?? null;
  }

  get isOwner() {
    return Boolean(this.you?.owner);
  }

  seatName(seat) {
    const s = this.table?.seats?.[seat];
    if (!s || s.kind === "empty") return `#${seat + 1}`;
    return s.name || `#${seat + 1}`;
  }

  applySnapshot(msg) {
    this.version = msg.version;
    this.you = msg.you ?? this.you;
    this.table = msg.table;
    this.timer = msg.table?.timer ?? null;
    this.flash = this.table?.game?.trick?.length ? null : this.flash;
    this.chat = [...(msg.table?.chat ?? [])];
    this.stale = false;
  }

  /** Apply a batch of {version, event} (frames `event` or `events`). */
  applyEvents(items, extra = {}) {
    let gameTouched = false;
    for (const { version, event, game, timer } of items) {
      if (this.version !== null && version <= this.version) continue;
      this.version = version;
      if (this.applyEvent(event)) gameTouched = true;
      if (game !== undefined && this.table) {
        this.table.game = game;
        gameTouched = false;
        this.stale = false;
      }
      if (timer !== undefined) this.timer = timer;
    }
    if (extra.you) this.you = extra.you;
    if (extra.timer !== undefined) this.timer = extra.timer;
    if (gameTouched) this.stale = true;
  }

  /** Returns true when the event changed the game (our view may need refreshing). */
  applyEvent(ev) {
    const table = this.table;
    if (!table) return false;
    const game = table.game;
    const seats = table.seats || [];
    switch (ev.kind) {
      case "chat":
        this.chat.push(ev);
        if (this.chat.length > 200) this.chat.shift();
        return false;
      case "timer":
        this.timer = ev.timer;
        return false;
      case "paused":
        table.paused = true;
        table.status = "paused";
        return false;
      case "resumed":
        table.paused = false;
        table.status = "playing";
        return false;
      case "status":
        table.status = ev.status;
        table.paused = ev.status === "paused";
        return true;
      case "presence":
        for (const s of seats) {
          if (s.player_id && s.player_id === ev.player) s.connected = ev.connected;
        }
        return false;
      case "player_away":
      case "player_back":
        if (seats[ev.seat]) seats[ev.seat].away = ev.kind === "player_away";
        return false;
      case "deal_committed":
        table.seed_commitment = ev.commitment;
        return false;
      case "rules_changed":
      case "rules_set":
        if (ev.rules) table.rules = ev.rules;
        if ("preset" in ev) table.preset = ev.preset;
        return false;
      case "owner_changed":
        table.owner = ev.owner ?? ev.player_id ?? table.owner;
        if (this.you) this.you.owner = table.owner === this.you.player_id;
        return false;
      case "card_played":
        if (game) {
          game.trick = [...(game.trick || []), [ev.seat, ev.card]];
          if (ev.seat === game.seat) game.hand = game.hand.filter((c) => c !== ev.card);
          if (game.hand_sizes) game.hand_sizes[ev.seat] = Math.max(0, game.hand_sizes[ev.seat] - 1);
          game.legal = [];
          game.to_move = null;
        }
        return true;
      case "trick_won":
        if (game) {
          this.flash = { leader: ev.leader, cards: ev.cards, winner: ev.winner, at: Date.now() };
          game.tricks = [...(game.tricks || []), { leader: ev.leader, cards: ev.cards, winner: ev.winner }];
          game.trick = [];
          game.tricks_won = ev.tricks;
          game.leader = ev.winner;
        }
        return true;
      case "trump_chosen":
        if (game) game.trump = ev.suit;
        return true;
      case "hand_ended":
        if (game) {
          game.score = ev.score;
          game.last_result = ev;
        }
        this.handResult = ev;
        return true;
      case "game_ended":
        if (game) game.winner_team = ev.winner_team;
        table.status = "game_over";
        return true;
      case "hakem_chosen":
        if (game) game.hakem = ev.hakem;
        return true;
      default:
        if (GAME_EVENTS.has(ev.kind)) return true;
        // Seats, presence and everything else of the table: the snapshot says it best.
        this.applySeatEvent(ev, seats);
        return true;
    }
  }

  applySeatEvent(ev, seats) {
    const s = typeof ev.seat === "number" ? seats[ev.seat] : null;
    if (!s) return;
    if (ev.kind === "disconnected" || ev.kind === "away") {
      s.connected = ev.kind === "disconnected" ? false : s.connected;
      s.away = true;
    } else if (ev.kind === "reconnected" || ev.kind === "back") {
      s.connected = true;
      s.away = false;
    }
  }

  /** The countdown of the current timer, in whole seconds (null when no timer runs). */
  secondsLeft(serverNow) {
    if (!this.timer || !this.timer.deadline || this.table?.paused) return null;
    return Math.max(0, Math.ceil((this.timer.deadline - serverNow) / 1000));
  }

  legal(type) {
    return (this.game?.legal ?? []).filter((a) => a.type === type);
  }
}
