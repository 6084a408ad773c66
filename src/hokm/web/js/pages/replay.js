// A finished game: summary, record download, replay of each hand trick by trick (winners and
// reasons from the server), and the shuffle verification (POST /api/verify).
import { h, patch, toast } from "../dom.js";
import { capitalized, lang, num, t } from "../i18n.js";
import { api } from "../net.js";
import { cardEl, cardName, suitName } from "../cards.js";
import { refusal } from "../common.js";

export async function render(main, [gameId]) {
  const s = { record: null, hands: [], hand: 0, trick: 0, verify: null, error: null, alive: true };
  const names = () => (s.record?.players || []).map((p) => (typeof p === "string" ? p : p?.name) || null);
  const seatName = (i) => names()[i] || `${t("bot")} ${num(i + 1)}`;

  async function load() {
    try {
      s.record = await api(`/api/games/${encodeURIComponent(gameId)}/record`);
    } catch (err) {
      s.error = refusal(err);
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

  async function verify() {
    try {
      const shuffle = await api(`/api/games/${encodeURIComponent(gameId)}/shuffle`);
      const recHands = s.record?.hands || [];
      s.verify = await Promise.all(
        (shuffle.hands || []).map(async (hd, i) => {
          if (!hd.seed) return { hand: hd.hand ?? i, ok: null };
          const body = { seed: hd.seed, seed_commitment: hd.seed_commitment, hakem: hd.hakem };
          if (recHands[i]?.cards) body.cards = recHands[i].cards;
          const r = await api("/api/verify", { method: "POST", body });
          return { hand: hd.hand ?? i, ok: Boolean(r.ok), commitment: hd.seed_commitment };
        }),
      );
    } catch (err) {
      toast(refusal(err), "error");
      s.verify = [];
    }
    draw();
  }

  function trickView() {
    const sim = s.hands[s.hand];
    if (!sim) return h("p.loading", {}, t("loading"));
    const tricks = sim.tricks || [];
    const tr = tricks[s.trick];
    const res = sim.result;
    return h(
      "div.panel#replay",
      {},
      h(
        "div.row",
        {},
        h("b", {}, t("hand_n", { n: s.hand + 1 })),
        h("span", {}, "👑 ", seatName(sim.hakem)),
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
                return h(`div.mini-slot${seat === tr.winner ? ".won" : ""}`, {}, cardEl(card, { extra: "small", label: t("played_by", { card: cardName(card), name: seatName(seat) }) }), h("span.small", {}, seatName(seat)));
              }),
            ),
            h("p", {}, t("trick_won_by", { name: seatName(tr.winner) })),
            h("p.small#replay-why", {}, tr.why?.[lang()] ?? tr.why?.en ?? ""),
          )
        : null,
      h(
        "div.row",
        {},
        h("button#replay-prev", { type: "button", disabled: s.trick === 0, onclick: () => { s.trick -= 1; draw(); } }, t("prev")),
        h("button#replay-next", { type: "button", disabled: s.trick >= tricks.length - 1, onclick: () => { s.trick += 1; draw(); } }, t("next")),
      ),
    );
  }

  function draw() {
    if (!s.alive) return;
    if (s.error) {
      patch(main, h("section.page", {}, h("h1", {}, t("summary")), h("p.note", { role: "alert" }, s.error)));
      return;
    }
    const rec = s.record;
    const played = (rec?.hands || []).length; // hands finished in this game
    const results = s.hands.map((x) => x?.result).filter(Boolean);
    const totals = results.reduce((acc, r) => [acc[0] + r.points[0], acc[1] + r.points[1]], [0, 0]);
    patch(
      main,
      h(
        "section.page.replay",
        {},
        h("h1", {}, t("summary"), " ", h("span.code", { dir: "ltr" }, gameId)),
        !rec
          ? h("p.loading", {}, t("loading"))
          : [
              h(
                "div.panel",
                {},
                h("p", {}, [0, 1].map((team) => h("span", { class: `team${team}` }, t("team_n", { n: team + 1 }), ": ", h("bdi", {}, seatName(team)), t("list_sep"), h("bdi", {}, seatName(team + 2)), " — ", h("b", {}, num(totals[team])), h("br")))),
                h(
                  "div.row",
                  {},
                  h("a.button#download-record", { href: `/api/games/${encodeURIComponent(gameId)}/record`, download: `hokm-${gameId}.json` }, t("download_record")),
                  h("button#verify", { type: "button", onclick: verify }, t("verify_shuffle")),
                ),
                s.verify
                  ? h(
                      "ul#verify-result",
                      { role: "status" },
                      s.verify.map((v) => h("li", {}, t("hand_n", { n: v.hand + 1 }), ": ", v.ok === null ? t("verify_unavailable") : v.ok ? `✔ ${t("verify_ok")}` : `✘ ${t("verify_bad")}`)),
                    )
                  : null,
              ),
              h(
                "div.panel",
                {},
                h("h2", {}, t("hand_list")),
                played ? null : h("p.note#replay-empty", {}, t("no_hands_played")),
                h(
                  "div.row",
                  {},
                  (rec.hands || []).map((_, i) =>
                    h(
                      `button${i === s.hand ? ".primary" : ""}`,
                      { type: "button", "aria-pressed": i === s.hand ? "true" : "false", onclick: () => { s.hand = i; s.trick = 0; draw(); } },
                      t("hand_n", { n: i + 1 }),
                      s.hands[i]?.result ? `: ${handOutcome(s.hands[i].result)}` : "",
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
  load();
  return { refresh: draw, cleanup: () => { s.alive = false; } };
}

/** "Team 2 · kot" for a hand's button: who won it, and how. */
function handOutcome(result) {
  const team = typeof result.winner_team === "number" ? `${t("team_n", { n: result.winner_team + 1 })} · ` : "";
  return `${team}${t(`result_${result.result}`)}`;
}
