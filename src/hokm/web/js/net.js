// REST helpers and the WebSocket connection (docs/protocol.md), with automatic reconnect.

const TOKEN_KEY = "hokm.token";
const NAME_KEY = "hokm.name";

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* ignore */
  }
}

export function savedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

const ROOM_KEY = "hokm.room";

/** The room where this browser last sat at a game in progress (the home page offers the way
 * back to it while that game goes on). */
export function rememberRoom(code) {
  try {
    if (localStorage.getItem(ROOM_KEY) !== code) localStorage.setItem(ROOM_KEY, code);
  } catch {
    /* ignore */
  }
}

export function forgetRoom() {
  try {
    localStorage.removeItem(ROOM_KEY);
  } catch {
    /* ignore */
  }
}

export function rememberedRoom() {
  try {
    return localStorage.getItem(ROOM_KEY) || "";
  } catch {
    return "";
  }
}

const PLACE_KEY = "hokm.place";

/** Where the game at `code` stood when this browser last saw it (and when). */
export function rememberPlace(code, place) {
  if (!place) return;
  try {
    localStorage.setItem(PLACE_KEY, JSON.stringify({ code, ...place, at: Date.now() }));
  } catch {
    /* ignore */
  }
}

export function rememberedPlace(code) {
  try {
    const place = JSON.parse(localStorage.getItem(PLACE_KEY) || "null");
    return place && place.code === code && Array.isArray(place.score) ? place : null;
  } catch {
    return null;
  }
}

/** Drop the guest token (after logging in, the session cookie identifies the player). */
export function forgetToken() {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* ignore */
  }
}

function saveToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
  } catch {
    /* ignore */
  }
}

/** An error answer of the server: ``code`` and a message in both languages. */
export class ServerError extends Error {
  constructor(status, body) {
    const en = typeof body?.message === "string" ? body.message : `HTTP ${status}`;
    super(en);
    this.status = status;
    this.code = body?.code ?? String(status);
    this.message_fa = body?.message_fa ?? "";
  }
}

/** JSON over HTTP; the guest token goes along as a bearer token (the cookie is sent too). */
export async function api(path, { method = "GET", body, keepalive = false } = {}) {
  const headers = { Accept: "application/json" };
  const token = savedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    keepalive, // true: the request goes out even if the page is closing
  });
  let data = null;
  const type = res.headers.get("content-type") || "";
  if (type.includes("json")) data = await res.json().catch(() => null);
  if (!res.ok) throw new ServerError(res.status, data);
  return data;
}

/** Who this browser is (``player``, null for nobody yet), what the server offers
 * (``features``: "accounts") and the rooms where this player's game goes on (``playing``):
 * GET /api/session, which answers 200 even for nobody (no error in the console). */
export async function session() {
  const data = await api("/api/session").catch(() => null);
  if (!data) return null; // the server did not answer: nothing is known (decide nothing)
  return {
    player: data.player ?? null,
    features: Array.isArray(data.features) ? data.features : [],
    playing: Array.isArray(data.playing) ? data.playing : [],
  };
}

/** Become (or rename) a guest; keeps the token for the WebSocket and REST. */
export async function ensureGuest(name) {
  const me = await session();
  if (me?.player?.kind && me.player.kind !== "guest") return me.player; // logged in
  const data = await api("/api/guest", { method: "POST", body: { name } });
  saveToken(data.token);
  saveName(data.player.name);
  return data.player;
}

/**
 * One WebSocket to /ws that says hello, joins a room and resumes after a drop.
 * ``handlers.message(msg)`` gets every server frame; ``handlers.status(s)`` gets
 * "connecting" | "online" | "offline" | "closed" | "replaced" | "signed_out".
 */
export class Connection {
  constructor(handlers) {
    this.handlers = handlers;
    this.ws = null;
    this.room = null;
    this.asRole = "player";
    this.lastVersion = null;
    this.attempt = 0;
    this.closed = false;
    this.counter = 0;
    this.player = null;
    this.clockOffset = 0;
    this.pending = new Map();
    this.prefix = Math.random().toString(36).slice(2, 8);
    this.onVisibility = () => {
      if (document.visibilityState === "visible" && !this.isOpen()) this.reconnectNow();
    };
    document.addEventListener("visibilitychange", this.onVisibility);
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN && this.player;
  }

  connect(room, { as = "player" } = {}) {
    this.room = room;
    this.asRole = as;
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    this.player = null;
    this.handlers.status("connecting");
    ws.onopen = () => {
      // batch: frames queued together (a move's events and the reply) arrive in one message.
      const hello = { type: "hello", protocol: 1, batch: true };
      const token = savedToken();
      if (token) hello.token = token;
      const name = savedName();
      if (name) hello.name = name;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && msg.type === "batch" && Array.isArray(msg.frames)) {
        for (const frame of msg.frames) this.receive(frame);
      } else {
        this.receive(msg);
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.player = null;
      this.failPending();
      if (ev.code === 4001 && savedToken()) {
        forgetToken(); // a guest token that no longer identifies anyone: use the cookies
        this.scheduleReconnect();
        return;
      }
      if (ev.code === 4003) {
        // The account's session ended (a logout or a password change elsewhere): coming back
        // would be as someone else, so stay away until the player signs in again.
        this.closed = true;
        this.handlers.status("signed_out");
        return;
      }
      if (this.closed || ev.code === 4009 || ev.code === 4002) {
        this.handlers.status(ev.code === 4009 ? "replaced" : "closed");
        return;
      }
      this.handlers.status("offline");
      this.scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.attempt = 0;
      this.player = msg.player;
      if (msg.player?.kind === "guest") saveToken(msg.token);
      this.setClock(msg.server_time);
      this.handlers.status("online");
      if (this.room) this.join();
    }
    if (msg.type !== "welcome") this.setClock(msg.server_time);
    if ((msg.type === "ack" || msg.type === "error" || msg.type === "pong") && msg.ref && this.pending.has(msg.ref)) {
      const done = this.pending.get(msg.ref);
      this.pending.delete(msg.ref);
      done(msg);
    }
    this.handlers.message(msg);
  }

  setClock(serverTime) {
    if (typeof serverTime !== "number") return;
    const ms = serverTime < 1e11 ? serverTime * 1000 : serverTime; // seconds or milliseconds
    this.clockOffset = ms - Date.now();
  }

  /** A room command (docs/table.md): sit, stand, add_bot, start, chat … */
  command(type, fields = {}) {
    return this.request({ type, ...fields });
  }

  join({ fresh = false } = {}) {
    const msg = { type: "join", code: this.room };
    if (this.asRole !== "player") msg.as = this.asRole;
    if (!fresh && this.lastVersion !== null) msg.last_version = this.lastVersion;
    this.send(msg);
  }

  scheduleReconnect() {
    const delay = Math.min(5000, 400 * 2 ** this.attempt);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.closed || this.isOpen()) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    clearTimeout(this.timer);
    this.open();
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  nextRef(kind) {
    this.counter += 1;
    return `${kind}${this.prefix}-${this.counter}`;
  }

  /** Send a request and resolve with the matching ack/error (null when offline). */
  request(msg) {
    const ref = this.nextRef("r");
    return new Promise((resolve) => {
      if (!this.send({ ...msg, ref })) {
        resolve(null);
        return;
      }
      this.pending.set(ref, resolve);
    });
  }

  /** Whether the server answers a ping within ``ms``: the browser may say it is offline
   * (no network at all) while the server it plays on is on this very machine. */
  answers(ms = 1500) {
    return new Promise((resolve) => {
      const ref = this.nextRef("p");
      if (!this.send({ type: "ping", ref })) {
        resolve(false);
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(ref);
        resolve(false);
      }, ms);
      this.pending.set(ref, (msg) => {
        clearTimeout(timer);
        resolve(msg?.type === "pong");
      });
    });
  }

  /** A table action made against ``version``. */
  action(action, version) {
    const id = this.nextRef("a");
    return this.request({ type: "action", version, action_id: id, action });
  }

  failPending() {
    for (const done of this.pending.values()) done(null);
    this.pending.clear();
  }

  serverNow() {
    return Date.now() + this.clockOffset;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.onVisibility);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      if (this.room) {
        try {
          ws.close(1000);
        } catch {
          /* ignore */
        }
      }
    }
  }
}

/** Leave the room ``code`` from a page that is not the room's (its seat given up; in a game
 * in progress a loss, a bot playing on): joined for a moment, left, closed. Resolves whether
 * the room took the leave. */
export function leaveRoom(code, ms = 8000) {
  return new Promise((resolve) => {
    let asked = false;
    let settled = false;
    const finish = (ok) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.close();
      resolve(ok);
    };
    const conn = new Connection({
      status: (s) => {
        if (["closed", "signed_out", "replaced"].includes(s)) finish(false);
      },
      message: (msg) => {
        if (msg.type === "snapshot" && !asked) {
          asked = true;
          conn.command("leave").then((reply) => finish(reply?.type === "ack"));
        } else if (msg.type === "error" && !msg.ref) finish(false); // (the join refused)
      },
    });
    const timer = setTimeout(() => finish(false), ms);
    conn.connect(code);
  });
}
