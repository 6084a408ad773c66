// A finished game: summary, record download, replay of each hand trick by trick (winners and
// reasons from the server), the shuffle verification (POST /api/verify), and on request the
// double-dummy analysis (GET /api/games/{id}/analysis): each seat's mistakes, each hand's
// mistakes as buttons that open their trick, and the mistaken cards outlined in the trick.
import { announce, h, patch, toast } from "../dom.js";
import { capitalized, lang, nameList, num, pointsText, t } from "../i18n.js";
import { api } from "../net.js";
import { cardEl, cardName, suitName } from "../cards.js";
import { refusal } from "../common.js";
import { crown } from "../icons.js";
import { sawHandEnd, seenCommitments } from "../seen.js";

/** "Hand 3", "Hands 1, 2 and 4", or "All 4 hands" (``hands``: their numbers as shown). */
function handsText(hands, total) {
  if (hands.length === 1) return t("hand_n", { n: hands[0] });
  if (hands.length === total) return t("all_hands", { n: total });
  return t("hands_n", { n: `${hands.slice(0, -1).join(t("list_sep"))}${t("and")}${hands[hands.length - 1]}` });
}

// (in the order said: a mismatch first)
const VERIFY_MARK = { bad_cards: "✘ ", bad_commitment: "✘ ", ok: "✔ ", unseen: "", unavailable: "" };

/** The SHA-256 of ``text`` in hex, worked out in this browser (null where the page is not a
 * secure context, plain http to another machine: the server's hash is used there). */
async function sha256(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function render(main, [gameId, analysisRoute]) {
  const s = { record: null, hands: [], hand: 0, trick: 0, verify: null, analysis: null, error: null, alive: true };
  const names = () => (s.record?.players || []).map((p) => (typeof p === "string" ? p : p?.name) || null);
  // A player who left mid-game (the record's ``left``): their seat is a bot's by the end, so
  // ``players`` has null there; before the play they left at, the cards were theirs.
  const leaver = (i) => (Array.isArray(s.record?.left) ? s.record.left : []).find((e) => e?.seat === i && Number.isInteger(e.hand) && Number.isInteger(e.plays));
  /** The name the record gives seat ``i``'s leaver (else the seat's own). */
  const ownName = (i) => names()[i] || `${t("bot")} ${num(i + 1)}`;
  const leaverName = (e) => (typeof e.name === "string" && e.name) || ownName(e.seat);
  /** Seat ``i``'s name at ``at`` = {hand, play} (indices from 0), or over the whole game. */
  const seatName = (i, at) => {
    const gone = leaver(i);
    if (!gone) return ownName(i);
    const who = leaverName(gone);
    if (!at) return t("left_then_bot", { name: who });
    return at.hand < gone.hand || (at.hand === gone.hand && at.play < gone.plays) ? who : t("bot_for", { name: who });
  };
  // Over the whole game a leaver's seat is a phrase of the page's language around the name
  // («Ben (سپس ربات)»): it takes the page's direction, not the name's (a bare name, its own).
  const seatBdi = (i) => h("bdi", leaver(i) ? { dir: document.documentElement.dir || "auto" } : {}, seatName(i));
  const leftNotes = () =>
    [0, 1, 2, 3]
      .map(leaver)
      .filter(Boolean)
      .map((e) => h("p.small.left-note", {}, t(e.plays ? "replay_left" : "replay_left_at_start", { name: leaverName(e), hand: e.hand + 1, n: e.plays })));

  async function load() {
    try {
      s.record = await api(`/api/games/${encodeURIComponent(gameId)}/record`);
    } catch (err) {
      // (the server's Persian for a missing game is a bare «پیدا نشد»)
      s.error = err?.code === "not_found" ? t("game_not_found") : refusal(err);
      draw();
      return;
    }
    draw();
    const rules = s.record.rules || {};
    s.hands = await Promise.all(
      (s.record.hands || []).map((hand) =>
        api("/api/sim/state", {
          method: "POST",
          body: { hakem: hand.hakem, hands: hand.cards, trump: hand.trump, plays: hand.plays, rules, bam: hand.bam },
        }).catch(() => null),
      ),
    );
    draw();
  }

  /** Each hand's shuffle: were its cards dealt from its seed (the server re-derives the deal,
   * as ``hokm verify`` does), and was that seed fixed before the deal: its SHA-256 is a
   * commitment this browser received at the table before the cards (seen.js). A record's own
   * commitment is the hash of its own seed, so only a commitment received beforehand shows
   * the deal was not chosen afterwards; a browser that was not at the table says so. */
  async function verify() {
    try {
      s.verify = await Promise.all((s.record?.hands || []).map((hand, i) => verifyHand(hand, i)));
    } catch (err) {
      toast(refusal(err), "error");
      s.verify = [];
    }
    draw();
    // Said once (the list, put in the page with its words in it, was a live region that screen
    // readers do not reliably read, and no longer read as a list).
    announce([...document.querySelectorAll("#verify-result li")].map((li) => li.textContent).join(" "));
  }

  async function verifyHand(hand, i) {
    const deals = [...(Array.isArray(hand.redeals) ? hand.redeals : []), hand];
    if (!deals.every((d) => typeof d.seed === "string" && d.seed)) return { hand: i, state: "unavailable" };
    const seen = seenCommitments(gameId, i);
    const checks = await Promise.all(
      deals.map(async (d) => {
        const body = { seed: d.seed, hakem: hand.hakem };
        if (Array.isArray(d.cards)) body.cards = d.cards;
        const r = await api("/api/verify", { method: "POST", body });
        return { cards: r.cards_ok !== false, hash: (await sha256(d.seed)) ?? r.seed_commitment };
      }),
    );
    const played = checks[checks.length - 1];
    if (!checks.every((c) => c.cards)) return { hand: i, state: "bad_cards" };
    if (!seen.length) return { hand: i, state: "unseen" };
    if (seen.includes(played.hash)) return { hand: i, state: "ok" };
    // Only commitments of deals redealt before the one played, and not here when the hand
    // ended: this browser left before the played deal (a spectator who closed the page while
    // the hakem asked for a new deal), which it cannot vouch for; it is no mismatch.
    const redealt = checks.slice(0, -1).map((c) => c.hash);
    if (!sawHandEnd(gameId, i) && seen.every((c) => redealt.includes(c))) return { hand: i, state: "unseen" };
    return { hand: i, state: "bad_commitment" };
  }

  async function analyse() {
    s.analysis = "loading";
    s.analysingSince = Date.now();
    draw();
    // The analysis takes a few seconds (about a third of one a hand): the seconds it has taken
    // are shown as they pass, so a wait is not taken for a page that hangs.
    const tick = setInterval(() => {
      const el = document.getElementById("analysis-elapsed");
      if (el && s.analysis === "loading") el.textContent = t("seconds_so_far", { n: Math.floor((Date.now() - s.analysingSince) / 1000) });
    }, 1000);
    try {
      s.analysis = await api(`/api/games/${encodeURIComponent(gameId)}/analysis`);
    } catch (err) {
      s.analysis = null;
      toast(refusal(err), "error");
    } finally {
      clearInterval(tick);
    }
    draw();
  }

  /** The analysis of hand ``i`` (null before the analysis is loaded, or for a hand without play). */
  const handAnalysis = (i) => (s.analysis && s.analysis !== "loading" ? s.analysis.hands.find((x) => x.hand === i) : null);
  /** A hand's outcome for the player's team (RULES.md §6): the 7–0 of the hakem's team is a kot,
   * the 7–0 against it a hakem-kot, whichever team's side it is told from. */
  const outcome = (o, hakemTeam) =>
    t(Math.abs(o) === 2 && (o > 0) !== hakemTeam ? (o > 0 ? "outcome_hakem_kot" : "outcome_hakem_kot_against") : `outcome_${o}`);

  function mistakeText(note, hakem) {
    const better = note.best.map(cardName).join(t("list_sep"));
    const hakemTeam = note.seat % 2 === hakem % 2;
    return t("analysis_mistake", {
      card: cardName(note.card),
      trick: note.trick,
      before: outcome(note.best_outcome, hakemTeam),
      after: outcome(note.outcome, hakemTeam),
      better,
    });
  }

  /** What the hard bot plays from the same seat's view: an avoidable mistake, or hindsight. */
  function botText(note) {
    if (!note.bot_card) return "";
    if (note.bot_card === note.card) return h("span.small.bot-view", {}, " ", t("bot_same"));
    const key = note.bot_avoids ? "bot_avoids" : "bot_also";
    return h("span.small.bot-view", {}, " ", t(key, { card: cardName(note.bot_card) }));
  }

  function analysisPanel() {
    if (s.analysis === "loading") {
      const hands = Math.min((s.record?.hands || []).length, 30); // the server analyses 30 at most
      return h("p.loading#analysis-loading", { role: "status" }, t("analysing_hands", { n: hands }), " ", h("span.small#analysis-elapsed", { "aria-hidden": "true" }, ""));
    }
    if (!s.analysis) return null;
    return h(
      "div.panel#analysis",
      {},
      h("h2", {}, t("analysis")),
      h("p.small", {}, t("analysis_about")),
      h(
        "ul#analysis-seats",
        {},
        s.analysis.seats.map((row) =>
          h("li", { class: `team${row.seat % 2}` }, seatBdi(row.seat), ": ", t("analysis_seat", { m: mistakesText(row.mistakes), c: row.choices, p: pointsText(row.points_lost) }), row.avoidable ? t("analysis_avoidable", { n: row.avoidable }) : ""),
        ),
      ),
    );
  }

  function handAnalysisView() {
    const ha = handAnalysis(s.hand);
    if (!ha) return null;
    const mistakes = ha.plays.filter((p) => p.mistake);
    return h(
      "div#analysis-hand",
      {},
      typeof ha.start === "number"
        ? h("p.small#analysis-start", {}, t("analysis_start", { outcome: t(`start_${ha.start}`) }), ha.start_exact === false ? ` ${t(ha.start > 0 ? "start_maybe_kot" : "start_maybe_hakem_kot")}` : "")
        : null,
      mistakes.length
        ? h(
            "ul#analysis-mistakes",
            {},
            mistakes.map((note) =>
              h(
                "li",
                {},
                h(
                  `button${note.trick - 1 === s.trick ? ".current" : ""}`,
                  {
                    type: "button",
                    "aria-current": note.trick - 1 === s.trick ? "true" : "false",
                    onclick: () => {
                      s.trick = note.trick - 1;
                      draw();
                      // on a phone the trick is far above the list: bring it into view
                      main.querySelector("#replay")?.scrollIntoView({ block: "start" });
                    },
                  },
                  h("span", {}, "⚠ ", h("bdi", {}, seatName(note.seat, { hand: s.hand, play: note.play })), " ", mistakeText(note, ha.hakem), botText(note)),
                ),
              ),
            ),
          )
        : h("p.small#analysis-clean", {}, t("analysis_none")),
    );
  }

  function trickView() {
    const sim = s.hands[s.hand];
    if (!sim) return h("p.loading", {}, t("loading"));
    const tricks = sim.tricks || [];
    const tr = tricks[s.trick];
    const res = sim.result;
    const ha = handAnalysis(s.hand);
    const mistakeAt = new Set((ha?.plays || []).filter((p) => p.mistake).map((p) => p.play));
    return h(
      "div.panel#replay",
      {},
      h(
        "div.row",
        {},
        h("b", {}, t("hand_n", { n: s.hand + 1 })),
        h("span", {}, crown(t("hakem")), " ", seatName(sim.hakem, { hand: s.hand, play: 0 })),
        h("span", {}, t("trump"), ": ", suitName(sim.trump)),
        res ? h("span", {}, capitalized(t(`result_${res.result}`)), ` (${num(res.tricks[0])}–${num(res.tricks[1])})`) : null,
      ),
      tr
        ? h(
            "div",
            {},
            h("h3#replay-trick-title", {}, t("trick_n", { n: s.trick + 1 }), " / ", num(tricks.length)),
            h(
              "div.row",
              {}, // in play order, read in the page's direction (right to left in Persian)
              tr.cards.map((card, i) => {
                const seat = (tr.leader + i) % 4;
                const wrong = mistakeAt.has(s.trick * 4 + i);
                const who = seatName(seat, { hand: s.hand, play: s.trick * 4 + i });
                const label = t("played_by", { card: cardName(card), name: who }) + (wrong ? ` (${t("analysis_mistake_mark")})` : "");
                return h(
                  `div.mini-slot${seat === tr.winner ? ".won" : ""}${wrong ? ".mistake" : ""}`,
                  {},
                  cardEl(card, { extra: "small", label }),
                  h("span.small", {}, wrong ? "⚠ " : "", who),
                );
              }),
            ),
            h("p", {}, t("trick_won_by", { name: seatName(tr.winner, { hand: s.hand, play: s.trick * 4 + ((tr.winner - tr.leader + 4) % 4) }) })),
            h("p.small#replay-why", {}, tr.why?.[lang()] ?? tr.why?.en ?? ""),
          )
        : null,
      h(
        "div.row",
        {},
        h("button#replay-prev", { type: "button", disabled: s.trick === 0, onclick: () => step(-1) }, t("prev")),
        h("button#replay-next", { type: "button", disabled: s.trick >= tricks.length - 1, onclick: () => step(1) }, t("next")),
      ),
      handAnalysisView(),
    );
  }

  /** «قبلی» / «بعدی»: show the trick before or after, say which it is (politely), and keep the
   * focus on a button that still works: at the last trick «بعدی» is disabled, and a disabled
   * button drops the focus to <body>. */
  function step(by) {
    const tricks = s.hands[s.hand]?.tricks || [];
    const to = s.trick + by;
    if (to < 0 || to >= tricks.length) return;
    const hadFocus = document.activeElement?.id;
    s.trick = to;
    draw();
    const tr = tricks[to];
    announce(t("replay_trick_said", { n: to + 1, total: tricks.length, name: seatName(tr.winner, { hand: s.hand, play: to * 4 + ((tr.winner - tr.leader + 4) % 4) }) }));
    const here = document.getElementById(by > 0 ? "replay-next" : "replay-prev");
    const other = document.getElementById(by > 0 ? "replay-prev" : "replay-next");
    if (here?.disabled && (hadFocus === here.id || document.activeElement === document.body)) other?.focus({ preventScroll: true });
  }

  function draw() {
    if (!s.alive) return;
    if (s.error) {
      patch(main, h("section.page", {}, h("h1", { tabindex: "-1" }, t("summary")), h("p.note", { role: "alert" }, s.error), h("a", { href: "#/" }, t("nav_home"))));
      return;
    }
    const rec = s.record;
    const played = (rec?.hands || []).length; // hands finished in this game
    const results = s.hands.map((x) => x?.result).filter(Boolean);
    // The game's own score when the record has it: the simulator scores each hand alone (to a
    // target of 1), so a won bam, which takes the team to the game's target, adds only 1 there.
    const score = rec?.result?.score;
    const summed = results.reduce((acc, r) => [acc[0] + r.points[0], acc[1] + r.points[1]], [0, 0]);
    const totals = Array.isArray(score) && score.length === 2 && score.every(Number.isFinite) ? score : summed;
    patch(
      main,
      h(
        "section.page.replay",
        {},
        h("h1", { tabindex: "-1" }, t("summary"), " ", h("span.code", { dir: "ltr" }, gameId)),
        !rec
          ? h("p.loading", {}, t("loading"))
          : [
              h(
                "div.panel",
                {},
                h("p", {}, [0, 1].map((team) => h("span", { class: `team${team}` }, t("team_n", { n: team + 1 }), ": ", seatBdi(team), t("list_sep"), seatBdi(team + 2), " — ", h("b", {}, num(totals[team])), h("br")))),
                leftNotes(),
                // who won, in words (the totals alone leave the reader to compare them)
                rec.result?.status === "completed" && typeof rec.result.winner_team === "number"
                  ? h("p#game-winner", {}, h("strong", {}, t("won_game", { team: nameList([rec.result.winner_team, rec.result.winner_team + 2].map((x) => seatName(x))) })))
                  : rec.result?.status === "closed" || rec.result?.status === "cancelled"
                    ? // why it has no winner: closed by the room's owner, or cancelled (a seat away too long)
                      h("p#game-ended", {}, h("strong", {}, t(`game_ended_${rec.result.status}`)))
                    : null,
                h(
                  "div.row",
                  {},
                  h("a.button#download-record", { href: `/api/games/${encodeURIComponent(gameId)}/record`, download: `hokm-${gameId}.json` }, t("download_record")),
                  h("button#verify", { type: "button", onclick: verify }, t("verify_shuffle")),
                  played ? h("button#analyse", { type: "button", disabled: s.analysis !== null, onclick: analyse }, t("analyse")) : null,
                ),
                s.verify
                  ? h(
                      "ul#verify-result",
                      {},
                      // one line per outcome, naming its hands (the same sentence four times was a wall)
                      Object.keys(VERIFY_MARK)
                        .map((state) => [state, s.verify.filter((v) => v.state === state).map((v) => num(v.hand + 1))])
                        .filter(([, hands]) => hands.length)
                        .map(([state, hands]) => h("li", { dataset: { state, hands: hands.length } }, handsText(hands, s.verify.length), ": ", VERIFY_MARK[state], t(`verify_${state}`))),
                    )
                  : null,
              ),
              analysisPanel(),
              h(
                "div.panel",
                {},
                h("h2", {}, t("hand_list")),
                played ? null : h("p.note#replay-empty", {}, t("no_hands_played")),
                h(
                  "div.row#hand-buttons",
                  {},
                  (rec.hands || []).map((_, i) =>
                    h(
                      `button${i === s.hand ? ".primary" : ""}`,
                      { type: "button", "aria-pressed": i === s.hand ? "true" : "false", onclick: () => { s.hand = i; s.trick = 0; draw(); } },
                      // one flex item: the button's gap would open a space before the comma
                      h(
                        "span",
                        {},
                        t("hand_n", { n: i + 1 }),
                        s.hands[i]?.result ? `: ${handOutcome(s.hands[i].result)}` : "",
                        mistakeCount(handAnalysis(i)),
                      ),
                    ),
                  ),
                ),
              ),
              played ? trickView() : null,
            ],
      ),
    );
  }

  draw();
  // #/game/ID/analysis (the game-over panel's link): ask once the record is here and has hands
  load().then(() => {
    if (analysisRoute && s.alive && s.record?.hands?.length && s.analysis === null) analyse();
  });
  // The arrow keys step through the tricks as the buttons do (the one toward the reading
  // direction's end is "next": left in Persian, right in English), unless typing somewhere.
  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    if (e.target?.closest?.("input, textarea, select, [role='group']")) return;
    const forward = (e.key === "ArrowLeft") === (document.documentElement.dir === "rtl");
    const button = document.getElementById(forward ? "replay-next" : "replay-prev");
    if (!button || button.disabled) return;
    e.preventDefault();
    button.click();
    document.getElementById(forward ? "replay-next" : "replay-prev")?.focus({ preventScroll: true });
  };
  document.addEventListener("keydown", onKey);
  return {
    refresh: draw,
    cleanup: () => {
      s.alive = false;
      document.removeEventListener("keydown", onKey);
    },
  };
}

/** "1 mistake", "2 mistakes" (one form in Persian). */
function mistakesText(n) {
  return t(n === 1 ? "mistakes_one" : "mistakes_many", { n });
}

/** " · ⚠ 2" after a hand's button when the analysis found mistakes in it. */
function mistakeCount(ha) {
  const n = ha ? ha.mistakes.length : 0;
  if (!n) return "";
  // seen: " · ⚠ 2"; heard: "2 mistakes" (a screen reader would say "warning sign 2")
  return h("span.mistakes", {}, h("span", { "aria-hidden": "true" }, t("sep"), "⚠ ", num(n)), h("span.sr-only", {}, ` (${mistakesText(n)})`));
}

/** "Team 2 · kot" for a hand's button: who won it, and how. */
function handOutcome(result) {
  const team = typeof result.winner_team === "number" ? `${t("team_n", { n: result.winner_team + 1 })}${t("sep")}` : "";
  return `${team}${t(`result_${result.result}`)}`;
}
