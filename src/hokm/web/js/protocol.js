// Normalise server frames to one shape (docs/protocol.md), tolerating the table's own field
// names (docs/table.md): `turn` for timers, flat event frames, `between_games`, seconds vs ms.

import { lang, latinDigits } from "./i18n.js";

const STATUS = { between_games: "game_over" };

// The name the table gives a member who came in during a hand until it ends («مهمان»,
// «مهمان ۲»: their own is held, as it could tell a hand); an English page says "Guest".
const NEWCOMER = /^مهمان(?: ([۰-۹0-9]+))?$/;

function shownName(name) {
  const newcomer = lang() !== "fa" && typeof name === "string" ? name.match(NEWCOMER) : null;
  return newcomer ? `Guest${newcomer[1] ? ` ${latinDigits(newcomer[1])}` : ""}` : name;
}

/** A member or a chat line (signed with its author's name when said) as this page names it. */
const withShownName = (m) => (m && typeof m.name === "string" ? { ...m, name: shownName(m.name) } : m);

export function normTimer(timer) {
  if (!timer || typeof timer !== "object") return null;
  let deadline = timer.deadline ?? timer.at ?? null;
  if (typeof deadline === "number" && deadline < 1e11) deadline *= 1000; // seconds → ms
  return { ...timer, deadline };
}

function normSeat(seat, i) {
  if (!seat) return { seat: i, kind: "empty" };
  return {
    ...seat,
    seat: seat.seat ?? i,
    kind: seat.kind ?? (seat.bot || seat.level ? "bot" : seat.player || seat.player_id ? "human" : "empty"),
    player_id: seat.player_id ?? seat.player ?? null,
  };
}

export function normTable(table, msg = {}) {
  const t = { ...(table || {}) };
  t.status = STATUS[t.status] ?? t.status ?? "lobby";
  t.seats = [0, 1, 2, 3].map((i) => normSeat((t.seats || [])[i], i));
  if (!("game" in t) || t.game === undefined) t.game = msg.game ?? null;
  t.timer = normTimer(t.timer ?? msg.timer ?? msg.turn ?? null);
  t.chat = (t.chat ?? msg.chat ?? []).map(withShownName);
  t.hands = Array.isArray(t.hands) ? t.hands : Array.isArray(msg.hands) ? msg.hands : []; // this game's finished hands
  t.paused = Boolean(t.paused || t.status === "paused");
  if (t.owner && typeof t.owner === "object") t.owner = t.owner.id ?? t.owner.player_id;
  if (Array.isArray(t.members)) t.members = t.members.map(withShownName);
  return t;
}

export function normYou(you) {
  if (!you) return null;
  return {
    ...you,
    player_id: you.player_id ?? you.player ?? you.id ?? null,
    seat: you.seat ?? null,
    owner: Boolean(you.owner ?? you.is_owner),
    role: you.role ?? (you.is_member === false ? "spectator" : "player"),
  };
}

function normEvent(raw) {
  const ev = { ...raw };
  delete ev.type;
  delete ev.room;
  if (ev.kind === "turn") return { kind: "timer", timer: normTimer({ ...ev, kind: ev.decision ?? "turn" }) };
  if (ev.kind === "timer") ev.timer = normTimer(ev.timer);
  if (ev.kind === "status") ev.status = STATUS[ev.status] ?? ev.status;
  if (["member_joined", "member_renamed", "chat"].includes(ev.kind)) ev.name = shownName(ev.name);
  return ev;
}

/** One canonical frame: snapshot {version, you, table}; event(s) {items: [{version, event, game?, timer?}]}. */
export function normalize(msg) {
  if (msg.type === "snapshot") {
    return { ...msg, you: normYou(msg.you), table: normTable(msg.table, msg) };
  }
  if (msg.type === "event") {
    const inner = msg.event ?? msg;
    const item = { version: msg.version, event: normEvent(inner) };
    if (msg.game !== undefined) item.game = msg.game;
    if (msg.you !== undefined) item.you = normYou(msg.you);
    if (msg.timer !== undefined) item.timer = normTimer(msg.timer);
    return { type: "events", items: [item] };
  }
  if (msg.type === "events") {
    const items = (msg.events || []).map((e) => {
      const inner = e.event ?? e;
      const item = { version: e.version, event: normEvent(inner) };
      if (e.game !== undefined) item.game = e.game;
      if (e.timer !== undefined) item.timer = normTimer(e.timer);
      return item;
    });
    return {
      type: "events",
      // the first version the batch accounts for: events before its first item that are not
      // this viewer's to see (a rename held for its author alone) are in it, not missing
      from: msg.from_version,
      items,
      game: msg.game,
      you: normYou(msg.you),
      timer: msg.timer === undefined ? undefined : normTimer(msg.timer),
    };
  }
  if (msg.type === "error") {
    const code = { stale: "stale_version", table_full: "room_full", chat_rejected: "chat_refused" }[msg.code] ?? msg.code;
    return { ...msg, code };
  }
  return msg;
}
