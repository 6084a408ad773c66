"""Train the search bot's learned value of the first tricks' cards (hokm.bots.learned).

    pip install -e '.[train]'                      # LightGBM and NumPy, for training only
    python scripts/train_early_value.py generate lv 0 20000 data/ --jobs 2
    python scripts/train_early_value.py generate lv2 0 50000 data/ --jobs 2
    python scripts/train_early_value.py train data/ src/hokm/bots/data/early_value.json \
        --rounds 800 --all --jobs 2

(the shipped model: 70,000 hands, about 110 minutes of one core to generate and 10 minutes of
two to fit. ``--jobs 1`` makes the fit exactly reproducible; with two threads LightGBM's sums
may differ in the last bits.)

``generate`` plays hands ``SEED-START`` … ``SEED-(STOP-1)`` with rule bots in the four seats
(the hakem turns round the table, the rule bot chooses trump). At every decision with more than
one legal card it plays each card, then the rest of the hand with rule bots on the real deal,
and records the card's features (what the seat knows) and the points its side won. Files of
1,000 hands each go to the output folder (``lv-START.npz``), so a run can be stopped and
resumed. ``train`` fits a LightGBM regression on the labels centred per decision, on the
decisions of the first ``--tricks`` tricks, holds out every fifth hand to report what the
model's card would have earned against the rule card's (with rule-bot play after it, on the
real deals), and writes the model as JSON for :class:`hokm.bots.learned.TreeModel` (with
``--all``, refitted on every hand after the report).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hokm.bots.fast import hand_points
from hokm.bots.learned import FEATURES, card_features
from hokm.bots.rollout import Playout
from hokm.bots.rule import RuleBot
from hokm.bots.sampling import cards_of
from hokm.engine import Deal, Game, RuleSet, Seat, view_of

CHUNK = 1000


def _points(won: tuple[int, int], team: int, hakem_team: int, rules: RuleSet) -> int:
    """The hand's points from ``team``'s side (RULES.md §6, :func:`hokm.bots.fast.hand_points`)."""
    winner = 0 if won[0] >= 7 else 1
    _, points = hand_points(
        winner,
        won[1 - winner],
        hakem_team,
        kot_points=rules.kot_points,
        hakem_kot_points=rules.hakem_kot_points,
    )
    return points if winner == team else -points


def generate_chunk(seed: str, start: int, stop: int, out: str, tricks: int) -> int:
    import numpy as np

    rules = RuleSet()
    rule = RuleBot(seed=0)
    rows: list[list[float]] = []
    labels: list[float] = []
    groups: list[int] = []
    is_rule: list[int] = []
    group = 0
    for n in range(start, stop):
        hakem = Seat(n % 4)
        game = Game(rules, hakem=hakem)
        game.apply(Deal.from_seed(f"{seed}-{n}", hakem))
        game.choose_trump(rule.choose_trump(view_of(game, hakem)))
        world = [sum(1 << c.index for c in game.hand_of(Seat(q))) for q in range(4)]
        playout = Playout.from_view(view_of(game, hakem), world)
        hakem_team = int(hakem) & 1
        while not playout.is_over:
            seat = playout.to_move
            legal = playout.legal_mask()
            rule_card = playout.rule_card()
            if legal & (legal - 1) and playout.tricks_played < tricks:
                cards = cards_of(legal)
                features = card_features(playout.knowledge(seat), cards, rule_card)
                for card, row in zip(cards, features, strict=True):
                    rest = playout.copy()
                    rest.play(card)
                    won = rest.finish()
                    rows.append(row)
                    labels.append(_points(won, int(seat) & 1, hakem_team, rules))
                    groups.append(group)
                    is_rule.append(int(card == rule_card))
                group += 1
            playout.play(rule_card)
    np.savez_compressed(
        out,
        X=np.array(rows, dtype=np.float32).reshape(-1, FEATURES),
        Y=np.array(labels, dtype=np.float32),
        G=np.array(groups),
        R=np.array(is_rule),
    )
    return group


def generate(args: argparse.Namespace) -> int:
    os.makedirs(args.out, exist_ok=True)
    jobs = []
    for start in range(args.start, args.stop, CHUNK):
        path = os.path.join(args.out, f"{args.seed}-{start}.npz")
        if not os.path.exists(path):
            jobs.append((args.seed, start, min(start + CHUNK, args.stop), path, args.tricks))
    if args.jobs == 1:
        counts = [generate_chunk(*job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            counts = list(pool.map(generate_chunk, *zip(*jobs, strict=True)))
    for job, decisions in zip(jobs, counts, strict=True):
        print(f"{job[3]}: hands {job[1]}…{job[2] - 1}, {decisions} decisions", flush=True)
    return 0


def _tree(structure: dict[str, Any]) -> list[Any]:
    """One LightGBM tree as ``[features, thresholds, left, right, leaf_values, root]``."""
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    leaves: list[float] = []

    def walk(node: dict[str, Any]) -> int:
        if "leaf_value" in node:
            leaves.append(round(node["leaf_value"], 6))
            return -len(leaves)
        if node["decision_type"] != "<=":
            raise ValueError(f"unsupported split {node['decision_type']!r}")
        i = len(feature)
        feature.append(node["split_feature"])
        threshold.append(round(node["threshold"], 4))  # every feature is a whole number
        left.append(0)
        right.append(0)
        left[i] = walk(node["left_child"])
        right[i] = walk(node["right_child"])
        return i

    root = walk(structure)
    return [feature, threshold, left, right, leaves, root]


def export(booster: Any, meta: dict[str, Any]) -> dict[str, Any]:
    """The booster as ``TreeModel`` JSON."""
    trees = [_tree(info["tree_structure"]) for info in booster.dump_model()["tree_info"]]
    return {"meta": meta, "trees": trees}


def _first_rows(groups: Any) -> Any:
    """True on the first row of each decision."""
    import numpy as np

    first = np.ones(len(groups), bool)
    first[1:] = groups[1:] != groups[:-1]
    return first


def train(args: argparse.Namespace) -> int:
    import lightgbm as lgb
    import numpy as np

    parts: list[Any] = []
    offset = 0
    for path in sorted(glob.glob(os.path.join(args.data, "*.npz"))):
        d = np.load(path)
        parts.append((d["X"], d["Y"], d["G"] + offset, d["R"]))
        offset += int(d["G"].max()) + 1
    if not parts:
        print(f"no .npz files in {args.data}", file=sys.stderr)
        return 2
    x, y, g, r = (np.concatenate([p[i] for p in parts]) for i in range(4))
    # A hand starts at its only lead of the first trick: no trick played, no card in the trick,
    # 13 cards in hand (columns 0, 5, 8 of card_features).
    hand = np.cumsum((x[:, 0] == 0) & (x[:, 5] == 0) & (x[:, 8] == 13) & _first_rows(g))
    keep = x[:, 0] < args.tricks
    x, y, g, r, hand = x[keep], y[keep], g[keep], r[keep], hand[keep]
    _, group, count = np.unique(g, return_inverse=True, return_counts=True)
    centred = y - (np.bincount(group, weights=y) / count)[group]
    held_out = hand % 5 == 0  # whole hands, so no held-out decision shares a deal with the fit
    params = {
        "objective": "regression",
        "learning_rate": args.rate,
        "num_leaves": args.leaves,
        "min_data_in_leaf": 200,
        "feature_fraction": 0.9,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "seed": 1,
        "verbose": -1,
        "num_threads": args.jobs,
    }
    booster = lgb.train(params, lgb.Dataset(x[~held_out], centred[~held_out]), args.rounds)
    report(booster.predict(x[held_out]), x[held_out], y[held_out], group[held_out], r[held_out])
    if args.all:  # refit on every decision for the shipped model
        booster = lgb.train(params, lgb.Dataset(x, centred), args.rounds)
    meta = {
        "decisions": int(group.max()) + 1,
        "rows": len(x),
        "tricks": args.tricks,
        "rounds": args.rounds,
        "leaves": args.leaves,
        "features": FEATURES,
        "trained": " ".join(["scripts/train_early_value.py", *args.argv]),
    }
    with open(args.model, "w", encoding="utf-8") as f:
        json.dump(export(booster, meta), f, separators=(",", ":"))
    print(f"wrote {args.model} ({os.path.getsize(args.model)} bytes)")
    return 0


def report(pred: Any, x: Any, y: Any, group: Any, is_rule: Any) -> None:
    """Per trick: the held-out decisions' points with the model's card minus the rule card's."""
    import numpy as np

    order = np.lexsort((-pred, group))
    first = np.ones(len(order), bool)
    first[1:] = group[order][1:] != group[order][:-1]
    pick = order[first]
    size = int(group.max()) + 1
    picked = np.zeros(size)
    picked[group[pick]] = y[pick]
    picked_pred = np.zeros(size)
    picked_pred[group[pick]] = pred[pick]
    rule = np.zeros(size)
    rule[group[is_rule == 1]] = y[is_rule == 1]
    rule_pred = np.zeros(size)
    rule_pred[group[is_rule == 1]] = pred[is_rule == 1]
    best = np.full(size, -9.0)
    np.maximum.at(best, group, y)
    trick = np.zeros(size)
    trick[group] = x[:, 0]
    lead = np.zeros(size, bool)
    lead[group] = x[:, 5] == 0
    present = np.unique(group)
    for margin in (0.0, 0.05, 0.1):
        chosen = np.where(picked_pred - rule_pred > margin, picked, rule)
        gain = chosen - rule
        se = gain[present].std() / np.sqrt(len(present))
        print(f"margin {margin}: {gain[present].mean():+.4f} ± {1.96 * se:.4f} points a decision")
        for t in np.unique(trick[present]):
            sel = present[trick[present] == t]
            leads = sel[lead[sel]]
            print(
                f"  trick {int(t) + 1:2d}: {gain[sel].mean():+.4f}"
                f" (leads {gain[leads].mean():+.4f}, n={len(sel)};"
                f" seeing every card: {(best[sel] - rule[sel]).mean():+.3f})"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play hands and label every card of the first tricks")
    gen.add_argument("seed")
    gen.add_argument("start", type=int)
    gen.add_argument("stop", type=int)
    gen.add_argument("out", help="folder for the .npz files")
    gen.add_argument("--tricks", type=int, default=6, help="label decisions of these tricks")
    gen.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    fit = sub.add_parser("train", help="fit the model and write it as JSON")
    fit.add_argument("data", help="folder of .npz files from generate")
    fit.add_argument("model", help="the JSON file to write")
    fit.add_argument("--tricks", type=int, default=6, help="train on decisions of these tricks")
    fit.add_argument("--rounds", type=int, default=400)
    fit.add_argument("--leaves", type=int, default=63)
    fit.add_argument("--rate", type=float, default=0.05)
    fit.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    fit.add_argument("--all", action="store_true", help="refit on every decision at the end")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    return generate(args) if args.command == "generate" else train(args)


if __name__ == "__main__":
    sys.exit(main())
