// Home: a name (or an account), create a room, join by code, quick match, practise with bots.
import { clearErrors, dropToast, h, patch, toast } from "../dom.js";
import { latinDigits, num, roomCode, t } from "../i18n.js";
import { api, ensureGuest, forgetRoom, forgetToken, leaveRoom, rememberedRoom, savedName, saveName, ServerError, session } from "../net.js";
import { botLevels, defaultLevel, levelLabel, NAME_MAX, nameLimitNote, noteNameLimit, refusal } from "../common.js";

// A join code: six of the unambiguous letters and digits (hokm.table.codes).
const CODE_PATTERN = /^[34679ACDEFGHJKMNPQRTWXY]{6}$/;
const CODE_STRAY = /[^34679ACDEFGHJKMNPQRTWXY]/g;

// The code in a message pasted whole: our invitation ends «… کد اتاق: K7QX4M» (what follows
// the colon, a full stop after it or not); a friend's own words («بیا K7QX4M!») hold it as the
// one word that is a code. Null when there is none, or more than one.
export function codeInSentence(text) {
  const said = text.match(/[:：]\s*([^:：]+?)[\s.!?؟،,;؛)»"']*$/u);
  if (said && CODE_PATTERN.test(roomCode(said[1]))) return roomCode(said[1]);
  const plain = latinDigits(text).replace(/\p{Cf}/gu, "");
  // A link anywhere in it (words may follow it)
  const link = plain.match(/(?:\/r\/|#\/room\/|[?&]room=)([A-Za-z0-9]{6})(?![A-Za-z0-9])/);
  if (link && CODE_PATTERN.test(link[1].toUpperCase())) return link[1].toUpperCase();
  const words = [...new Set(plain.toUpperCase().split(/[^\p{L}\p{N}]+/u).filter((w) => CODE_PATTERN.test(w)))];
  if (words.length === 1) return words[0];
  // Ordinary words can be spelt with code letters («create», «khaneh»): of several, the one
  // with a digit, if only one has.
  const digits = words.filter((w) => /\d/.test(w));
  return digits.length === 1 ? digits[0] : null;
}

// Set when this tab is closed or reloaded while waiting for a quick match (it sends a leave
// then): the next page in the tab must not show the wait again if that leave is still on its way.
const LEFT_ON_HIDE = "hokm.leftQueue";

// Set when a waiting home page hands the wait to the next one (the logo clicked): until the
// new page has picked it up, closing the tab must still leave the queue.
let waitHandedOver = false;

/** Whether this tab left the queue as it closed, in the last 30 s (and forget it). */
function leftOnHide() {
  try {
    const at = Number(sessionStorage.getItem(LEFT_ON_HIDE));
    sessionStorage.removeItem(LEFT_ON_HIDE);
    return at > 0 && Date.now() - at < 30_000;
  } catch {
    return false;
  }
}

export async function render(main) {
  const state = {
    levels: ["easy", "medium", "hard"],
    accounts: false, // the server offers accounts (login, quick match)
    account: null, // the logged-in account's profile
    quick: null, // quick-match status while waiting
    busy: false,
    name: savedName(),
    code: "",
    codeError: "", // why the code typed was refused (said under the field)
    user: "",
    target: 3,
    level: null,
    alive: true,
  };
  let poll = null;

  const guarded = (fn) => async (ev) => {
    ev?.preventDefault?.();
    if (state.busy) return;
    state.busy = true;
    try {
      await fn();
    } catch (err) {
      toast(refusal(err), "error");
    } finally {
      state.busy = false;
    }
  };

  /** An identity to play with: the account, or a guest with the name typed. */
  const needName = async () => {
    if (state.account) return state.account.player;
    const name = state.name.trim();
    if (!name) {
      toast(t("name_needed"), "error");
      document.getElementById("name")?.focus();
      return null;
    }
    return ensureGuest(name);
  };

  const create = guarded(async () => {
    if (!(await needName())) return;
    const data = await api("/api/rooms", { method: "POST", body: {} });
    sessionStorage.setItem(`hokm.plan.${data.code}`, JSON.stringify({ sit: true }));
    location.hash = `#/room/${data.code}`;
  });

  // A code is checked here, so a typo is said under the field that keeps it (not on a page
  // of its own, nor in a note that would cover the field on a phone).
  const badCode = (key, params = {}) => {
    state.codeError = t(key, params);
    draw();
    document.getElementById("code")?.focus();
  };
  const join = guarded(async () => {
    // A pasted link names its room too: …/r/K7QX4M, …/#/room/K7QX4M, …?room=K7QX4M.
    const link = state.code.trim().match(/(?:\/r\/|#\/room\/|[?&]room=)([^/?#&]+)\/?$/);
    let code = roomCode(link ? decodeURIComponent(link[1]) : state.code);
    if (!link && !CODE_PATTERN.test(code)) code = codeInSentence(state.code) ?? code;
    if (!code) {
      badCode("code_missing");
      return;
    }
    if (!CODE_PATTERN.test(code)) {
      // Six characters, some never used in codes (0/O, 1/I, 2/Z … look alike): say which.
      const stray = [...new Set(code.match(CODE_STRAY) ?? [])];
      if (code.length === 6 && stray.length) badCode("code_letters", { chars: num(stray.join(" ")) });
      else badCode("code_malformed");
      return;
    }
    const room = await api(`/api/rooms/${encodeURIComponent(code)}`).catch((err) => {
      if (err?.status === 404) return null;
      throw err;
    });
    if (!room) {
      badCode("room_not_found");
      return;
    }
    if (!(await needName())) return;
    location.hash = `#/room/${code}`;
  });

  const practice = guarded(async () => {
    if (!(await needName())) return;
    const target = state.target;
    const level = state.level ?? defaultLevel(state.levels);
    const data = await api("/api/rooms", { method: "POST", body: { rules: { target_points: target } } });
    sessionStorage.setItem(`hokm.plan.${data.code}`, JSON.stringify({ practice: true, level }));
    location.hash = `#/room/${data.code}`;
  });

  // ---- quick match (needs an account on the server's side)
  // The queue lives on this page: the player is waiting only while they can see it.
  const followQuick = (status, { asked = false } = {}) => {
    // The page was left while a request was out: a match still takes the player to their
    // table (better than a seat a bot plays for them), anything else leaves the queue.
    if (!state.alive && status?.state !== "matched") {
      stopPoll();
      if (status?.state === "waiting") abandonQueue();
      return;
    }
    if (state.quick?.state === "waiting" && status?.state === "idle") {
      // The server has no word of this wait: its queue was lost (a restart, or the process
      // that kept it died). The player is here and still waiting: join again, unseen.
      if (!status.reason) {
        rejoin();
        return;
      }
      // Dropped from the queue without asking (away too long): say so, not just redraw.
      if (status.reason === "away") toast(t("quick_dropped"), "error");
      // Seated meanwhile in a game that is not over (another tab): the way back is on this page.
      if (status.reason === "in_game") toast(t("quick_in_game", { code: status.room ?? "" }), "error");
    }
    state.quick = status;
    if (status?.state === "matched" && status.code) {
      stopPoll();
      // Another waiting player chose bots and took this one along: say why it is unrated.
      if (!asked && status.rated === false) toast(t("quick_taken_along"));
      location.hash = `#/room/${status.code}`;
      return;
    }
    if (status?.state !== "waiting") stopPoll();
    draw();
  };
  /** After a refusal that says the player is no longer queued: a match may have taken them
   * (another player chose bots); follow it, or say the refusal. */
  const notQueued = async (err) => {
    if (err?.code !== "not_queued") throw err;
    const status = await matchedNow();
    if (!status) throw err;
    followQuick(status);
  };
  /** The match made since our last look (by another player's request), if there is one. */
  const matchedNow = async () => {
    const status = await api("/api/quick/status").catch(() => null);
    return status?.state === "matched" && status.code ? status : null;
  };
  const stopPoll = () => {
    clearInterval(poll);
    poll = null;
  };
  let rejoining = false;
  const rejoin = async () => {
    if (rejoining) return;
    rejoining = true;
    try {
      const status = await api("/api/quick/join", { method: "POST", body: {} });
      rejoinFailedSince = null;
      state.quickOffline = false;
      followQuick(status);
    } catch (err) {
      if (err?.code === "already_queued") return; // (already back: the next look says so)
      // A server still coming up (or its other processes) may not answer the join yet: the
      // next look, told "idle" again, tries again, as the looks themselves are kept for a
      // while; a refusal (or no answer for QUICK_OFFLINE_MS) ends the wait.
      rejoinFailedSince ??= Date.now();
      if (!unanswered(err) || Date.now() - rejoinFailedSince > QUICK_OFFLINE_MS) giveUpWait(err);
      else if (!state.quickOffline) {
        state.quickOffline = true;
        draw();
      }
    } finally {
      rejoining = false;
    }
  };
  let rejoinFailedSince = null;
  /** No answer from the server (the network, a restart): not a refusal. */
  const unanswered = (err) => !(err instanceof ServerError) || err.status >= 500;
  const giveUpWait = (err) => {
    stopPoll();
    state.quick = null; // no longer waiting: no frozen counter
    state.quickOffline = false;
    rejoinFailedSince = null;
    draw();
    toast(refusal(err), "error");
  };
  // The server may be restarting, or the network gone for a moment: a wait survives
  // QUICK_OFFLINE_MS of unanswered looks (the page says so), then ends with the error.
  const QUICK_OFFLINE_MS = 60000;
  let offlineSince = null;
  const pollQueue = () => {
    stopPoll();
    offlineSince = rejoinFailedSince = null;
    poll = setInterval(async () => {
      if (!state.alive) return stopPoll();
      let status;
      try {
        status = await api("/api/quick/status");
      } catch (err) {
        offlineSince ??= Date.now();
        if (!unanswered(err) || Date.now() - offlineSince > QUICK_OFFLINE_MS) return giveUpWait(err);
        if (!state.quickOffline) {
          state.quickOffline = true;
          draw();
        }
        return;
      }
      offlineSince = null;
      if (rejoinFailedSince === null) state.quickOffline = false; // (else: said by rejoin)
      followQuick(status);
    }, 1500);
  };
  const quick = guarded(async () => {
    if (!state.account) {
      toast(t("quick_needs_account"), "error");
      document.getElementById("login-box")?.setAttribute("open", "");
      document.getElementById("username")?.focus();
      return;
    }
    state.quickGame = null;
    state.roomGame = null;
    followQuick(await api("/api/quick/join", { method: "POST", body: {} }));
    if (state.alive && state.quick?.state === "waiting") {
      pollQueue();
      // «بازی سریع» is disabled now (the focus fell to <body>): on to «لغو», which hears the state
      document.getElementById("quick-cancel")?.focus();
    }
  });
  /** Leave the queue; if a match was made meanwhile (by another player's request since our
   * last look), go to that table instead: joining cleared any older match, so it is this
   * wait's. Returns true if the player was sent to a table. */
  const leaveQueue = async ({ keepalive = false } = {}) => {
    try {
      await api("/api/quick/leave", { method: "POST", body: {}, keepalive });
    } catch (err) {
      if (err?.code !== "not_queued") throw err; // not queued: matched meanwhile, or dropped
    }
    const status = await matchedNow();
    if (status) {
      toast(t("quick_found"));
      location.hash = `#/room/${status.code}`;
      return true;
    }
    return false;
  };
  // Left for another page: leave the queue, unless that page is this one again (the logo or
  // "home" clicked while waiting), which picks the wait up.
  const abandonQueue = () => {
    if (["", "#", "#/"].includes(location.hash)) {
      waitHandedOver = true;
      return;
    }
    leaveQueue({ keepalive: true }).catch(() => null);
  };
  // The tab closed (or reloaded) while waiting: leave the queue now rather than be matched as
  // a ghost until the server drops a waiter who stopped asking. Listened for from the start:
  // a wait handed over by the last page is this page's before it has asked about it.
  const onHide = () => {
    if (state.quick?.state !== "waiting" && !waitHandedOver) return;
    leaveQueue({ keepalive: true }).catch(() => null);
    try {
      sessionStorage.setItem(LEFT_ON_HIDE, String(Date.now()));
    } catch {
      /* storage refused: the server drops a waiter who stops asking */
    }
  };
  window.addEventListener("pagehide", onHide);
  const quickCancel = guarded(async () => {
    stopPoll();
    const sent = await leaveQueue();
    state.quick = null;
    if (!sent) {
      draw();
      document.getElementById("quick")?.focus(); // «لغو» is gone: back where the wait began
    }
  });
  const quickBots = guarded(async () => {
    let data;
    try {
      data = await api("/api/quick/bots", { method: "POST", body: {} });
    } catch (err) {
      await notQueued(err); // both pressed at once: the other's game has this player in it
      return;
    }
    followQuick({ state: "matched", ...data, code: data.code ?? data.room }, { asked: true });
  });

  // ---- accounts
  const loadAccount = async () => {
    try {
      state.account = await api("/api/accounts/me");
      if (state.account?.player?.name) saveName(state.account.player.name);
    } catch {
      state.account = null;
    }
  };
  const signIn = (path) =>
    guarded(async () => {
      const username = document.getElementById("username").value.trim();
      const password = document.getElementById("password").value;
      const body = { username, password };
      if (path.endsWith("register") && state.name.trim()) body.name = state.name.trim();
      clearErrors(); // earlier refusals are about earlier tries: only this answer counts
      await api(path, { method: "POST", body });
      forgetToken(); // the session cookie identifies us now
      await loadAccount();
      draw();
      // The pressed button is gone with the form: the focus goes to what took its place,
      // «وارد شده با نام …» (it fell to <main>, and nothing said the login had worked).
      document.getElementById("account")?.focus();
    });
  const signOut = guarded(async () => {
    await api("/api/accounts/logout", { method: "POST", body: {} }); // leaves the queue too
    stopPoll();
    forgetToken();
    // The account's name stays with the account: a guest on this browser (perhaps someone
    // else's turn at a shared computer) starts with an empty name, not as the account.
    const accountName = state.account?.player?.name;
    if (accountName && savedName() === accountName) saveName("");
    if (accountName && state.name === accountName) state.name = "";
    state.account = null;
    state.quick = null;
    state.quickGame = null;
    state.roomGame = null;
    draw();
    document.querySelector("#login-box summary")?.focus(); // the way back in, not <main>
  });

  function accountPanel() {
    if (!state.accounts) return null;
    if (state.account) {
      const p = state.account;
      return h(
        "div.panel.account#account",
        { tabindex: "-1" },
        h("span", {}, t("signed_in_as", { name: p.player?.name ?? p.username })),
        " ",
        // one's own profile (#/profile/ID is the page others see: no password form)
        h("a", { href: "#/profile" }, t("nav_profile")),
        " ",
        h("button.link#logout", { type: "button", onclick: signOut }, t("logout")),
      );
    }
    // Opened for a guest who came from «با ساختن حساب، امتیازهایتان می‌مانند» (game over).
    const asked = sessionStorage.getItem("hokm.openLogin") === "1";
    sessionStorage.removeItem("hokm.openLogin");
    return h(
      "details.panel.account#login-box",
      { open: asked || undefined },
      h("summary", {}, t("login"), " / ", t("register")),
      h(
        "form",
        { onsubmit: signIn("/api/accounts/login") },
        h("label", { for: "username" }, t("username")),
        h("input#username", { type: "text", autocomplete: "username", dir: "auto", value: state.user, oninput: (e) => { state.user = e.target.value; } }),
        h("label", { for: "password" }, t("password")),
        h("input#password", { type: "password", autocomplete: "current-password", "aria-describedby": "account-hint" }),
        h("p.small#account-hint", {}, t("account_hint")),
        h(
          "div.row",
          {},
          h("button.primary#login", { type: "submit" }, t("login")),
          h("button#register", { type: "button", onclick: signIn("/api/accounts/register") }, t("register")),
        ),
      ),
    );
  }

  /** A game in progress in another room: the way back to it, first on the page; or out of it,
   * asked twice (a loss, a bot plays on), for a player who left it for good (a practice game
   * whose tab they closed): a quick match refuses a player seated in a game in progress, and
   * the way out was back to the table, «ترک بازی», and back here. */
  function roomGamePanel() {
    if (!state.roomGame || state.quick || state.quickGame) return null;
    const [before, after] = t("room_game_on", { code: "\u0000" }).split("\u0000");
    const code = state.roomGame;
    const leave = async () => {
      state.leavingRoom = "sending";
      draw();
      const left = await leaveRoom(code);
      state.leavingRoom = null;
      if (left) {
        if (rememberedRoom() === code) forgetRoom();
        if (state.roomGame === code) state.roomGame = null;
        toast(t("left_game_room", { code }));
      } else toast(t("left_game_failed", { code }), "error");
      draw();
      document.getElementById(left ? "name" : "room-game-leave")?.focus();
    };
    const sure = state.leavingRoom === "sure";
    return h(
      "div.panel.quick-wait.game-on#room-game",
      {
        role: "status",
        // Escape takes the question back, as at the table
        onkeydown: (e) => {
          if (e.key !== "Escape" || !sure) return;
          e.stopPropagation();
          state.leavingRoom = null;
          draw();
          document.getElementById("room-game-leave")?.focus();
        },
      },
      h("p", {}, before, h("span.code", { dir: "ltr" }, code), after),
      h(
        "div.row",
        {},
        h("a.button.primary#room-game-go", { href: `#/room/${code}` }, t("quick_game_go")),
        sure
          ? h("p.small#room-game-leave-warning", {}, t("leave_game_warning"))
          : null,
        h(
          `button#room-game-leave${sure ? ".danger" : ""}`,
          {
            type: "button",
            disabled: state.leavingRoom === "sending",
            onclick: () => {
              if (!sure) {
                state.leavingRoom = "sure";
                draw();
                document.getElementById("room-game-leave")?.focus();
              } else leave();
            },
          },
          t(sure ? "leave_game_sure" : "leave_game"),
        ),
      ),
    );
  }

  function quickPanel() {
    if (state.quickGame && !state.quick) {
      return h(
        "div.panel.quick-wait#quick-game",
        { role: "status" },
        h("p", {}, t("quick_game_on")),
        h("a.button.primary#quick-game-go", { href: `#/room/${state.quickGame}` }, t("quick_game_go")),
      );
    }
    const q = state.quick;
    if (!q || q.state !== "waiting") return null;
    // The state is said once (two small live regions); the seconds counting beside it are
    // not in one (the whole panel was a live region, read again at every poll).
    return h(
      "div.panel.quick-wait#quick-wait",
      {},
      h(
        "p",
        {},
        h("span#quick-state", { role: "status" }, t(state.quickOffline ? "quick_offline" : "quick_match_wait")),
        " ",
        state.quickOffline ? null : h("span#quick-waited", {}, t("quick_waited", { n: Math.round(q.waiting_seconds ?? 0) })),
      ),
      typeof q.queue_size === "number" ? h("p.small#quick-queue", {}, t("quick_queue", { n: q.queue_size })) : null,
      h(
        "p.small#quick-bots-hint",
        {},
        h("span#quick-bots-said", { role: "status" }, q.bots_offered ? t("quick_bots_now") : ""),
        h("span", {}, q.bots_offered ? "" : t("quick_bots_in", { n: Math.ceil(q.bots_in ?? 0) })),
      ),
      h(
        "div.row",
        {},
        // (put before «لغو», which keeps the focus: reached with Shift+Tab, not forced on)
        q.bots_offered ? h("button.primary#quick-bots", { type: "button", onclick: quickBots }, t("quick_with_bots")) : null,
        h("button#quick-cancel", { type: "button", "aria-describedby": "quick-state", onclick: quickCancel }, t("quick_match_cancel")),
      ),
    );
  }

  function draw() {
    if (!state.alive) return;
    const nameField = state.account
      ? null
      : [
          h("label", { for: "name" }, t("your_name")),
          h("input#name", {
            type: "text",
            maxlength: NAME_MAX,
            autocomplete: "nickname",
            placeholder: t("name_placeholder"),
            value: state.name,
            // not `required`: the browser would complain in its own language; we say it in ours
            "aria-required": "true",
            oninput: (e) => {
              state.name = e.target.value;
              noteNameLimit(e.target);
              if (state.name.trim()) dropToast(t("name_needed")); // answered: it would cover the page
            },
          }),
          nameLimitNote(state.name),
        ];
    patch(
      main,
      h(
        "section.page.home",
        { dataset: { ready: state.ready ? "1" : "0" } },
        h("h1", { tabindex: "-1" }, t("app_title"), " ", h("span.suits", { "aria-hidden": "true" }, h("span", {}, "♠"), " ", h("span.suit-H", {}, "♥"), " ", h("span.suit-D", {}, "♦"), " ", h("span", {}, "♣"))),
        h("p.intro", {}, t("home_intro")),
        roomGamePanel(),
        accountPanel(),
        h(
          "form.panel",
          { onsubmit: create },
          nameField,
          h(
            "div.row",
            {},
            h("button.primary#create", { type: "submit" }, t("create_room")),
            h(
              "button#quick",
              {
                type: "button",
                onclick: quick,
                disabled: !state.accounts || state.quick?.state === "waiting", // already waiting
                title: state.accounts ? undefined : t("quick_unavailable"),
              },
              t("quick_match"),
            ),
          ),
          state.accounts && !state.account ? h("p.small#quick-hint", {}, t("quick_hint")) : null,
        ),
        quickPanel(),
        h(
          "form.panel",
          { onsubmit: join },
          h("label", { for: "code" }, t("room_code")),
          h(
            "div.row",
            {},
            h("input#code", {
              type: "text",
              maxlength: 120, // a pasted share link too
              autocapitalize: "characters",
              placeholder: t("code_placeholder"),
              dir: "ltr",
              value: state.code,
              "aria-invalid": state.codeError ? "true" : "false",
              "aria-describedby": state.codeError ? "code-error" : undefined,
              oninput: (e) => {
                state.code = e.target.value;
                if (state.codeError) {
                  state.codeError = ""; // said about what was typed before
                  draw();
                }
              },
            }),
            h("button#join", { type: "submit" }, t("join_room")),
          ),
          state.codeError ? h("p.field-error#code-error", { role: "alert" }, state.codeError) : null,
        ),
        h(
          "form.panel",
          { onsubmit: practice },
          h("h2", {}, t("practice")),
          h(
            "div.row",
            {},
            h(
              "label",
              {},
              t("practice_target"),
              " ",
              h(
                "select#practice-target",
                { onchange: (e) => { state.target = Number(e.target.value); } },
                [3, 5, 7].map((n) => h("option", { value: n, selected: n === state.target }, num(n))),
              ),
            ),
            h(
              "label",
              {},
              t("practice_level"),
              " ",
              h(
                "select#practice-level",
                { onchange: (e) => { state.level = e.target.value; } },
                state.levels.map((l) => h("option", { value: l, selected: l === (state.level ?? defaultLevel(state.levels)) }, levelLabel(l))),
              ),
            ),
          ),
          h("button.primary#practice", { type: "submit" }, t("start_practice")),
        ),
        h(
          "nav.links",
          { "aria-label": t("nav_more") },
          h("a", { href: "#/rules" }, t("nav_rules")),
          h("a", { href: "#/sim" }, t("nav_sim")),
          h("a", { href: "#/advisor" }, t("nav_advisor")),
        ),
      ),
    );
  }

  // Features that exist only when the server offers them. Wait for them (briefly) before the
  // first drawing, so that the page does not shift under a finger about to tap.
  const features = Promise.all([botLevels(), session()]).then(async ([levels, answer]) => {
    if (levels.length) state.levels = levels;
    // (no answer: as a guest for now, and the remembered room is kept for the next visit)
    const me = answer ?? { player: null, features: [], playing: [], unknown: true };
    const accounts = me.features.includes("accounts");
    state.accounts = accounts;
    if (accounts && me.player?.kind === "account") await loadAccount();
    const left = leftOnHide();
    if (accounts && state.account) {
      const status = await api("/api/quick/status").catch(() => null);
      if (status?.state === "waiting") {
        // this tab was closed (reloaded) while waiting: the leave it sent may still be on its
        // way, so leave again rather than show a wait the player gave up
        if (left) await leaveQueue().catch(() => null);
        else if (state.alive) quickResume(status);
        else abandonQueue();
      } else if (status?.state === "matched" && status.code) await quickGameOn(status.code);
    }
    waitHandedOver = false; // picked up (or there was none)
    if (!state.quickGame && !state.quick) await roomGameOn(me);
    state.ready = true;
  });
  await Promise.race([features, new Promise((r) => setTimeout(r, 1500))]);
  draw();
  if (!state.ready) features.then(draw);
  /** A quick game this player was matched into and still has a seat in (the page was left,
   * or the match came while they were elsewhere): offer the way back to it. */
  async function quickGameOn(code) {
    if (await seatedInGame(code, state.account?.player?.id)) state.quickGame = code;
  }
  /** A room where this player's game goes on: one the server knows of (played from any
   * device or browser), else the one this browser last played in if that game goes on. */
  async function roomGameOn(me) {
    const remembered = rememberedRoom();
    if (me.playing.length) {
      state.roomGame = me.playing.includes(remembered) ? remembered : me.playing[0];
      return;
    }
    if (!remembered || me.unknown) return;
    const id = me.player?.id;
    if (id && (await seatedInGame(remembered, id))) state.roomGame = remembered;
    else forgetRoom(); // that game is over (or not this player's): not asked about again
  }
  async function seatedInGame(code, me) {
    const room = await api(`/api/rooms/${encodeURIComponent(code)}`).catch(() => null);
    if (!room || !["playing", "paused"].includes(room.status)) return false;
    return (room.seats || []).some((seat) => seat.player === me && seat.kind === "human");
  }
  function quickResume(status) {
    state.quick = status;
    pollQueue();
  }
  return {
    refresh: draw,
    cleanup: () => {
      window.removeEventListener("pagehide", onHide);
      state.alive = false;
      stopPoll();
      // The queue lives on this page: going elsewhere (practice, a room, another page) leaves
      // it, or a match could seat the player in a rated game they are not looking at.
      if (state.quick?.state === "waiting") {
        state.quick = null;
        abandonQueue();
      }
    },
  };
}
