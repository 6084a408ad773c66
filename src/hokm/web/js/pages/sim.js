// The simulator: deal at random or card by card, play all four seats or against bots, and
// see why each trick was won. Every rule is applied by the server (/api/sim/*).
import { h, patch, toast } from "../dom.js";
import { capitalized, cardsText, lang, num, pointsText, t } from "../i18n.js";
import { api } from "../net.js";
import { SYMBOL, backEl, cardEl, cardName, sortHand, suitName } from "../cards.js";
import { DECK, picker, shuffled } from "../picker.js";
import { botLevels, levelLabel, refusal } from "../common.js";
import { crown, robot } from "../icons.js";

export async function render(main) {
  const s = {
    stage: "setup", // setup | play
    hakem: 0,
    hands: [[], [], [], []],
    seed: null,
    control: "all", // all | bots
    showBots: false, // against bots: their hands face up (for study) or down (a real game)
    level: "medium",
    levels: ["easy", "medium", "hard"],
    setupSeat: 0,
    trump: null,
    plays: [],
    sim: null,
    advice: null,
    busy: false,
    alive: true,
    seedText: "",
  };

  const body = () => ({ hakem: s.hakem, hands: s.hands, trump: s.trump, plays: s.plays });

  async function refreshState() {
    try {
      s.sim = await api("/api/sim/state", { method: "POST", body: body() });
    } catch (err) {
      toast(refusal(err), "error");
      if (s.plays.length) s.plays.pop();
      return;
    }
    draw();
    if (s.sim.phase === "trump" && !s.advice) {
      const five = s.hands[s.hakem].slice(0, 5);
      api("/api/advisor/trump", { method: "POST", body: { cards: five } })
        .then((a) => {
          s.advice = a;
          draw();
        })
        .catch(() => {});
    }
    botStep();
  }

  function humanSeat(seat) {
    return s.control === "all" || seat === 0;
  }

  async function botStep() {
    const sim = s.sim;
    if (!s.alive || !sim || sim.to_move === null || humanSeat(sim.to_move)) return;
    if (sim.phase !== "play" && sim.phase !== "trump") return;
    await new Promise((r) => setTimeout(r, 350));
    if (!s.alive || s.sim !== sim) return;
    try {
      const { action } = await api("/api/sim/bot", { method: "POST", body: { ...body(), level: s.level } });
      if (action.type === "choose_trump") s.trump = action.suit;
      else if (action.type === "play") s.plays = [...s.plays, action.card];
      await refreshState();
    } catch (err) {
      toast(refusal(err), "error");
    }
  }

  async function randomDeal() {
    try {
      const seed = s.seedText.trim() || undefined;
      const d = await api("/api/sim/deal", { method: "POST", body: { hakem: s.hakem, seed } });
      s.hands = d.hands;
      s.seed = d.seed;
      start();
    } catch (err) {
      toast(refusal(err), "error");
    }
  }

  function start() {
    s.stage = "play";
    s.trump = null;
    s.plays = [];
    s.sim = null;
    s.advice = null;
    refreshState();
  }

  // A card of the seat being set up goes back to the deck; any other card comes to it, taken
  // from the seat that held it (it was only taken away, to no one).
  function assign(code) {
    const owner = s.hands.findIndex((hand) => hand.includes(code));
    if (owner === s.setupSeat) {
      s.hands[owner] = s.hands[owner].filter((c) => c !== code);
    } else if (s.hands[s.setupSeat].length < 13) {
      if (owner >= 0) s.hands[owner] = s.hands[owner].filter((c) => c !== code);
      s.hands[s.setupSeat] = [...s.hands[s.setupSeat], code];
      if (s.hands[s.setupSeat].length === 13) {
        const next = s.hands.findIndex((hand) => hand.length < 13);
        if (next >= 0) s.setupSeat = next;
      }
    }
    draw();
  }

  function fillRest() {
    const used = new Set(s.hands.flat());
    const rest = shuffled(DECK.filter((c) => !used.has(c)));
    s.hands = s.hands.map((hand) => {
      const more = rest.splice(0, 13 - hand.length);
      return [...hand, ...more];
    });
    draw();
  }

  function seatLabel(seat) {
    return [
      s.sim?.hakem === seat ? [crown(t("hakem")), " "] : null,
      s.control === "bots" && seat !== 0 ? [robot(t("bot")), " "] : null,
      h("b", {}, t("seat_n", { n: seat + 1 })),
      " — ",
      t("team_n", { n: (seat % 2) + 1 }),
    ];
  }

  function setupView() {
    const complete = s.hands.every((hand) => hand.length === 13);
    return h(
      "div",
      {},
      h(
        "div.panel",
        {},
        h(
          "div.row",
          {},
          h(
            "label",
            {},
            t("hakem"),
            " ",
            h(
              "select#sim-hakem",
              { onchange: (e) => { s.hakem = Number(e.target.value); } },
              [0, 1, 2, 3].map((i) => h("option", { value: i, selected: s.hakem === i }, t("seat_n", { n: i + 1 }))),
            ),
          ),
          h(
            "label",
            {},
            h("input", { type: "radio", name: "control", value: "all", checked: s.control === "all", onchange: () => { s.control = "all"; draw(); } }),
            " ",
            t("sim_play_all"),
          ),
          h(
            "label",
            {},
            h("input#sim-vs-bots", { type: "radio", name: "control", value: "bots", checked: s.control === "bots", onchange: () => { s.control = "bots"; draw(); } }),
            " ",
            t("sim_vs_bots"),
          ),
          s.control === "bots"
            ? h(
                "select#sim-level",
                { "aria-label": t("bot_level"), onchange: (e) => { s.level = e.target.value; } },
                s.levels.map((l) => h("option", { value: l, selected: s.level === l }, levelLabel(l))),
              )
            : null,

        ),
        h(
          "div.row",
          {},
          h("label", {}, t("sim_seed"), " ", h("input#sim-seed", { type: "text", dir: "ltr", size: 10, value: s.seedText, oninput: (e) => { s.seedText = e.target.value; } })),
          h("button.primary#sim-random", { type: "button", onclick: randomDeal }, t("sim_random")),
        ),
      ),
      h(
        "div.panel",
        {},
        h("h2", {}, t("sim_setup")),
        h(
          "div.row",
          // four toggle buttons (one pressed), not tabs: they have no tab panels and no arrow keys
          { role: "group", "aria-label": t("sim_whose") },
          [0, 1, 2, 3].map((i) =>
            h(
              `button.seat-tab${s.setupSeat === i ? ".primary" : ""}`,
              { type: "button", "aria-pressed": s.setupSeat === i ? "true" : "false", onclick: () => { s.setupSeat = i; draw(); } },
              `${t("seat_n", { n: i + 1 })} (${num(s.hands[i].length)})`,
            ),
          ),
        ),
        h("p", {}, t("sim_pick_for", { n: s.setupSeat + 1, k: s.hands[s.setupSeat].length })),
        picker(
          (code) => {
            const owner = s.hands.findIndex((hand) => hand.includes(code));
            return { owner: owner >= 0 ? owner : null, pressed: owner === s.setupSeat };
          },
          assign,
          t("sim_pick_for", { n: s.setupSeat + 1, k: s.hands[s.setupSeat].length }),
        ),
        h(
          "div.row",
          {},
          h("button#sim-fill", { type: "button", onclick: fillRest }, t("sim_fill")),
          h("button#sim-clear", { type: "button", onclick: () => { s.hands = [[], [], [], []]; draw(); } }, t("sim_clear")),
          h("button.primary#sim-start", { type: "button", disabled: !complete, onclick: start }, t("sim_start")),
        ),
      ),
    );
  }

  function playView() {
    const sim = s.sim;
    if (!sim) return h("p.loading", {}, t("loading"));
    const legal = new Set(sim.legal || []);
    const hands = sim.hands || [[], [], [], []];
    const trumpChoice = sim.phase === "trump" && humanSeat(sim.hakem);
    return h(
      "div",
      {},
      h(
        "div.row.panel",
        {},
        h("span", {}, t("hakem"), ": ", crown(t("hakem")), " ", t("seat_n", { n: sim.hakem + 1 })),
        h("span#sim-trump", {}, t("trump"), ": ", sim.trump ? h(`b.suit-${sim.trump}`, {}, suitName(sim.trump)) : t("no_trump_yet")),
        h("span#sim-tricks", {}, t("tricks"), ": ", `${num(sim.tricks_won[0])} – ${num(sim.tricks_won[1])}`),
        s.seed ? h("span.small", {}, t("sim_seed_shown"), " ", h("bdi", { dir: "ltr" }, `${s.seed.slice(0, 10)}…`)) : null,
        s.control === "bots"
          ? h(
              "label.small",
              {},
              h("input#sim-show-bots", { type: "checkbox", checked: s.showBots, onchange: (e) => { s.showBots = e.target.checked; draw(); } }),
              " ",
              t("sim_show_bots"),
            )
          : null,
        h("button#sim-undo", { type: "button", "aria-label": t("undo"), title: t("undo"), disabled: !s.plays.length && !s.trump, onclick: () => { if (s.plays.length) s.plays = s.plays.slice(0, -1); else s.trump = null; s.advice = null; refreshState(); } }, "↶"),
        h("button#sim-new", { type: "button", onclick: () => { s.stage = "setup"; s.hands = [[], [], [], []]; draw(); } }, t("sim_random"), " / ", t("sim_setup")),
      ),
      trumpChoice
        ? h(
            "div.prompt.choose-trump#sim-choose-trump",
            {},
            h("strong", {}, t("choose_trump")),
            h(
              "div.row.suits",
              {},
              ["S", "H", "D", "C"].map((suit) =>
                h(`button.suit-btn.suit-${suit}`, { type: "button", dataset: { suit }, onclick: () => { s.trump = suit; refreshState(); } }, h("span.sym", { "aria-hidden": "true" }, SYMBOL[suit]), t(`suit_${suit}`)),
              ),
            ),
            s.advice ? h("p.small#sim-advice", {}, t("advisor_suggests", { suit: suitName(s.advice.suit) }), " — ", s.advice.reasons?.[lang()] ?? "") : null,
          )
        : null,
      sim.result
        ? h(
            "div.panel.result-panel#sim-result",
            { role: "status" },
            h("strong.result-name", {}, capitalized(t(`result_${sim.result.result}`))),
            h("p", {}, t("won_hand", { team: t("team_n", { n: sim.result.winner_team + 1 }), result: t(`result_${sim.result.result}`), points: pointsText(sim.result.points[sim.result.winner_team]) })),
          )
        : null,
      sim.trick?.length
        ? h("div.panel.current-trick", {}, h("h3", {}, t("trick_n", { n: sim.tricks.length + 1 })), h("div.row", { dir: "ltr" }, sim.trick.map(([seat, card]) => h("div.mini-slot", {}, cardEl(card, { extra: "small", label: t("played_by", { card: cardName(card), name: t("seat_n", { n: seat + 1 }) }) }), h("span.small", {}, t("seat_n", { n: seat + 1 }))))))
        : null,
      h(
        "div.sim-hands",
        {},
        [0, 1, 2, 3].map((seat) => {
          const mine = sim.to_move === seat && sim.phase === "play";
          const canClick = mine && humanSeat(seat);
          return h(
            `div.sim-hand${mine ? ".to-move" : ""}`,
            { dataset: { seat } },
            h("div.small", {}, seatLabel(seat), " — ", cardsText(hands[seat]?.length ?? 0)),
            // Against bots their cards are face down unless asked for: playing against them
            // with every hand shown was no game.
            s.control === "bots" && seat !== 0 && !s.showBots && !sim.result
              ? h("div.hand.sim-backs", { dir: "ltr" }, (hands[seat] || []).map(() => backEl("small")))
              : h(
              "div.hand",
              { dir: "ltr" },
              sortHand(hands[seat] || [], sim.trump).map((card) =>
                cardEl(card, {
                  button: true,
                  extra: canClick ? (legal.has(card) ? "legal" : "illegal") : "idle",
                  disabled: !(canClick && legal.has(card)),
                  onclick: () => {
                    if (!canClick) return;
                    if (!legal.has(card)) {
                      toast(t("not_legal"), "error");
                      return;
                    }
                    s.plays = [...s.plays, card];
                    refreshState();
                  },
                }),
              ),
            ),
          );
        }),
      ),
      sim.tricks?.length
        ? h(
            "div.panel",
            {},
            h("h3", {}, t("sim_why")),
            h(
              "ol.trick-log#trick-log",
              {},
              sim.tricks.map((tr, i) =>
                h(
                  "li",
                  {},
                  h("b", {}, t("trick_n", { n: i + 1 }), ": "),
                  // in play order in the page's reading direction (as the replay lays tricks
                  // out), each card kept whole; the arrow points on to the winner
                  h("span", {}, tr.cards.map((c) => h("bdi", { dir: "ltr" }, `${c.slice(0, -1).replace("T", "10")}${SYMBOL[c.slice(-1)]}`)).flatMap((el, k) => (k ? [" ", el] : [el]))),
                  lang() === "fa" ? " ← " : " → ",
                  t("trick_won_by", { name: t("seat_n", { n: tr.winner + 1 }) }),
                  h("div.small", {}, tr.why?.[lang()] ?? tr.why?.en ?? ""),
                ),
              ),
            ),
          )
        : null,
    );
  }

  function draw() {
    if (!s.alive) return;
    patch(main, h("section.page.sim", {}, h("h1", { tabindex: "-1" }, t("sim_title")), h("p", {}, t("sim_intro")), s.stage === "setup" ? setupView() : playView()));
  }

  botLevels().then((levels) => {
    if (levels.length) {
      s.levels = levels;
      if (!levels.includes(s.level)) s.level = levels[levels.length - 1];
      if (s.stage === "setup") draw();
    }
  });
  draw();
  return {
    refresh: draw,
    cleanup: () => {
      s.alive = false;
    },
  };
}
