"""Offline: in the first tricks, would rule-bot playouts over evidence worlds add to the
learned value?

    python docs/experiments/early_search_off.py generate SEED START STOP OUT.json [WORLDS]
    python docs/experiments/early_search_off.py report OUT*.json

``generate`` plays hands SEED-START … with rule bots in the four seats (as the training data of
the learned value). At every decision of the first six tricks with a choice it records, per
legal card: the label (the points the seat's side wins when it plays the card and rule bots
play on, on the real deal), the learned value, and, in each of WORLDS worlds drawn as the
search bot draws them (voids, trump call, the play evidence of the other seats' last 8 plays),
the points of the same playout in that world. ``report`` compares the cards that policies built
from these would play: paired against the learned card, points a decision.
"""

from __future__ import annotations

import glob
import json
import math
import random
import sys

from hokm.bots.base import legal_cards_of
from hokm.bots.rollout import Playout
from hokm.bots.rule import RuleBot
from hokm.bots.sampling import Facts, PlayEvidence
from hokm.bots.search import SearchBot, _draw, _view_key, outcome_points, rule_policy
from hokm.engine import Deal, Game, RuleSet, Seat, view_of


def _points(won: tuple[int, int], view_seat: int, view: object) -> float:
    team = view_seat & 1
    if won[team] >= 7:
        outcome = 2 if won[1 - team] == 0 else 1
    else:
        outcome = -2 if won[team] == 0 else -1
    return outcome_points(outcome, view)  # type: ignore[arg-type]


def generate(seed: str, start: int, stop: int, out: str, worlds: int) -> None:
    rules = RuleSet()
    rule = RuleBot(seed=0)
    bot = SearchBot(seed=0)
    records = []
    for n in range(start, stop):
        hakem = Seat(n % 4)
        game = Game(rules, hakem=hakem)
        game.apply(Deal.from_seed(f"{seed}-{n}", hakem))
        game.choose_trump(rule.choose_trump(view_of(game, hakem)))
        real = [sum(1 << c.index for c in game.hand_of(Seat(q))) for q in range(4)]
        while len(game.tricks) < 6:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            legal = sorted(legal_cards_of(view), key=lambda c: c.index)
            rule_card = rule.choose_card(view)
            if len(legal) > 1:
                world_real = [real[q] & ~_played_mask(view) for q in range(4)]
                base = Playout.from_view(view, world_real)
                labels = {}
                for card in legal:
                    p = base.copy()
                    p.play(card)
                    labels[card.index] = _points(p.finish(), int(seat), view)
                lv, trained_rule = bot.learned_values(view, legal)
                facts = Facts.from_view(view)
                evidence = PlayEvidence(view, rule_policy(rule), plays=8, miss=0.2)
                rng = random.Random(f"0|{_view_key(view)}")
                meter = [0]
                per_world = []
                pbase: Playout | None = None
                for _ in range(worlds):
                    world = _draw(facts, evidence, rng, 5, meter)
                    pbase = pbase or Playout.from_view(view, world)
                    row = {}
                    for card in legal:
                        p = pbase.copy(world)
                        p.play(card)
                        row[card.index] = _points(p.finish(), int(seat), view)
                    per_world.append([row[c.index] for c in legal])
                records.append(
                    {
                        "hand": n,
                        "trick": len(view.tricks),
                        "pos": len(view.trick),
                        "cards": [c.index for c in legal],
                        "rule": rule_card.index,
                        "trained_rule": trained_rule.index,
                        "label": [labels[c.index] for c in legal],
                        "learned": [lv[c] for c in legal],
                        "worlds": per_world,
                    }
                )
            game.play(rule_card)
        with open(out, "w") as f:
            json.dump(records, f)


def _played_mask(view) -> int:  # type: ignore[no-untyped-def]
    mask = 0
    for _, c in view.played:
        mask |= 1 << c.index
    return mask


def report(paths: list[str]) -> None:
    records = []
    for path in paths:
        records += json.load(open(path))
    print(f"{len(records)} decisions")

    def learned_pick(r: dict, extra=None, alpha=0.0, nw=None) -> int:  # type: ignore[type-arg]
        vals = list(r["learned"])
        if alpha:
            ws = r["worlds"][:nw] if nw else r["worlds"]
            means = [sum(w[i] for w in ws) / len(ws) for i in range(len(r["cards"]))]
            avg = sum(means) / len(means)
            vals = [v + alpha * (m - avg) for v, m in zip(vals, means)]
        tr = r["cards"].index(r["trained_rule"])
        best = max(range(len(vals)), key=lambda i: (vals[i], i == tr))
        return best

    def search_pick(r: dict, margin: float, nw=None) -> int:  # type: ignore[type-arg]
        ws = r["worlds"][:nw] if nw else r["worlds"]
        means = [sum(w[i] for w in ws) / len(ws) for i in range(len(r["cards"]))]
        ri = r["cards"].index(r["rule"])
        best = max(range(len(means)), key=lambda i: (means[i], i == ri))
        return best if means[best] - means[ri] > margin else ri

    def evaluate(name: str, pick) -> None:  # type: ignore[no-untyped-def]
        diffs = []
        by_trick: dict[int, list[float]] = {}
        for r in records:
            base = r["label"][learned_pick(r)]
            d = r["label"][pick(r)] - base
            diffs.append(d)
            by_trick.setdefault(r["trick"], []).append(d)
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        tricks = " ".join(f"{t + 1}:{sum(v) / len(v):+.4f}" for t, v in sorted(by_trick.items()))
        print(f"{name:28s} {mean:+.4f} ± {1.96 * sd / math.sqrt(n):.4f}   {tricks}")

    evaluate("rule", lambda r: r["cards"].index(r["rule"]))
    evaluate("learned", learned_pick)
    for m in (0.0, 0.08, 0.2):
        evaluate(f"search margin {m}", lambda r, m=m: search_pick(r, m))
    for nw in (8, 16, None):
        for a in (0.25, 0.5, 1.0, 2.0):
            evaluate(f"learned+{a}*search nw={nw}", lambda r, a=a, nw=nw: learned_pick(r, alpha=a, nw=nw))


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        w = int(sys.argv[6]) if len(sys.argv) > 6 else 24
        generate(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], w)
    else:
        paths = [p for a in sys.argv[2:] for p in glob.glob(a)]
        report(paths)
