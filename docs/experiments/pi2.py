"""Policy iteration on the learned first tricks: labels with the learned policy playing on.

The shipped model (pi1) was trained on labels where every seat plays on as the rule bot. This
script labels the same kind of decisions, but after the labelled card the deciding seat's team
plays its first six tricks by pi1 (the search bot's first-trick policy, learned_margin 0) and
the rule bot after; the other team plays the rule bot. The main line of each hand is played the
same way, with the learned team alternating by hand, and only the learned team's decisions are
labelled (on-policy: the positions the search bot meets against rule bots).

    python docs/experiments/pi2.py generate SEED START STOP OUTDIR [--jobs 2] [--model M.json]
    python docs/experiments/pi2.py check            # the booster equals TreeModel on random rows
    python scripts/train_early_value.py train OUTDIR pi2.json --rounds 800 --all --jobs 2

The output files are those of ``train_early_value.py generate`` (X, Y, G, R).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
from train_early_value import _points  # noqa: E402

from hokm.bots.learned import FEATURES, card_features  # noqa: E402
from hokm.bots.rollout import Playout  # noqa: E402
from hokm.bots.rule import RuleBot  # noqa: E402
from hokm.bots.sampling import cards_of  # noqa: E402
from hokm.engine import Deal, Game, RuleSet, Seat, view_of  # noqa: E402

LEARNED = 6
CHUNK = 250
DEFAULT_MODEL = os.path.join(
    os.path.dirname(__file__), "..", "..", "src", "hokm", "bots", "data", "early_value.json"
)


def to_lightgbm(data: dict) -> str:
    """TreeModel JSON as LightGBM's text model (leaf values already carry the shrinkage)."""
    trees = data["trees"]
    out = [
        "tree",
        "version=v4",
        "num_class=1",
        "num_tree_per_iteration=1",
        "label_index=0",
        f"max_feature_idx={FEATURES - 1}",
        "objective=regression",
        "feature_names=" + " ".join(f"Column_{i}" for i in range(FEATURES)),
        "feature_infos=" + " ".join("[0:100]" for _ in range(FEATURES)),
        "",
    ]
    for n, (f, th, lt, rt, vals, _root) in enumerate(trees):
        out += [
            f"Tree={n}",
            f"num_leaves={len(vals)}",
            "num_cat=0",
            "split_feature=" + " ".join(map(str, f)),
            "split_gain=" + " ".join("1" for _ in f),
            "threshold=" + " ".join(repr(float(x)) for x in th),
            "decision_type=" + " ".join("2" for _ in f),
            "left_child=" + " ".join(map(str, lt)),
            "right_child=" + " ".join(map(str, rt)),
            "leaf_value=" + " ".join(repr(float(v)) for v in vals),
            "leaf_weight=" + " ".join("1" for _ in vals),
            "leaf_count=" + " ".join("1" for _ in vals),
            "internal_value=" + " ".join("0" for _ in f),
            "internal_weight=" + " ".join("1" for _ in f),
            "internal_count=" + " ".join("1" for _ in f),
            "is_linear=0",
            "shrinkage=1",
            "",
            "",
        ]
    out += ["end of trees", "", "pandas_categorical:null", ""]
    return "\n".join(out)


_BOOSTER = None


def _tree_export(structure: dict) -> list:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
    from train_early_value import _tree

    return _tree(structure)


def booster(path: str):
    global _BOOSTER
    if _BOOSTER is None:
        import lightgbm as lgb

        with open(path, encoding="utf-8") as f:
            _BOOSTER = lgb.Booster(model_str=to_lightgbm(json.load(f)))
    return _BOOSTER


def learned_card(playout: Playout, model) -> object:
    """pi1's card for the seat to move (as SearchBot.learned_card with learned_margin 0)."""
    legal = playout.legal_mask()
    cards = cards_of(legal)
    rule = playout.rule_card()
    rows = card_features(playout.knowledge(playout.to_move), cards, rule)
    values = model.predict(np.asarray(rows, dtype=np.float64), num_threads=1)
    r = cards.index(rule)
    best = max(range(len(cards)), key=lambda i: (values[i], i == r))
    return cards[best] if values[best] - values[r] > 0 else rule


def next_card(playout: Playout, learned_team: int, model) -> object:
    legal = playout.legal_mask()
    if legal & (legal - 1) == 0:
        return cards_of(legal)[0]
    if playout.tricks_played < LEARNED and (int(playout.to_move) & 1) == learned_team:
        return learned_card(playout, model)
    return playout.rule_card()


def finish(playout: Playout, learned_team: int, model) -> tuple[int, int]:
    while not playout.is_over:
        playout.play(next_card(playout, learned_team, model))
    return playout.won[0], playout.won[1]


def generate_chunk(seed: str, start: int, stop: int, out: str, model_path: str) -> int:
    model = booster(model_path)
    rules = RuleSet()
    rule = RuleBot(seed=0)
    rows: list[list[float]] = []
    labels: list[float] = []
    groups: list[int] = []
    is_rule: list[int] = []
    group = 0
    for n in range(start, stop):
        hakem = Seat(n % 4)
        team = (n // 4) % 2  # every hakem seat with both learned teams
        game = Game(rules, hakem=hakem)
        game.apply(Deal.from_seed(f"{seed}-{n}", hakem))
        game.choose_trump(rule.choose_trump(view_of(game, hakem)))
        world = [sum(1 << c.index for c in game.hand_of(Seat(q))) for q in range(4)]
        playout = Playout.from_view(view_of(game, hakem), world)
        hakem_team = int(hakem) & 1
        while not playout.is_over:
            seat = playout.to_move
            legal = playout.legal_mask()
            if legal & (legal - 1) and playout.tricks_played < LEARNED and (int(seat) & 1) == team:
                cards = cards_of(legal)
                rule_card = playout.rule_card()
                features = card_features(playout.knowledge(seat), cards, rule_card)
                for card, row in zip(cards, features, strict=True):
                    rest = playout.copy()
                    rest.play(card)
                    won = finish(rest, team, model)
                    rows.append(row)
                    labels.append(_points(won, team, hakem_team, rules))
                    groups.append(group)
                    is_rule.append(int(card == rule_card))
                group += 1
            playout.play(next_card(playout, team, model))
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
            jobs.append((args.seed, start, min(start + CHUNK, args.stop), path, args.model))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(generate_chunk, *job) for job in jobs]
        for job, future in zip(jobs, futures, strict=True):
            print(f"{job[3]}: hands {job[1]}…{job[2] - 1}, {future.result()} decisions", flush=True)
    return 0


def check(args: argparse.Namespace) -> int:
    from hokm.bots.learned import TreeModel

    with open(args.model, encoding="utf-8") as f:
        data = json.load(f)
    tree = TreeModel(data)
    model = booster(args.model)
    rng = np.random.default_rng(0)
    x = rng.integers(0, 14, (300, FEATURES)).astype(np.float64)
    a = model.predict(x, num_threads=1)
    b = np.array(tree.values(x.tolist()))
    print("max |diff|", float(np.abs(a - b).max()))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("seed")
    gen.add_argument("start", type=int)
    gen.add_argument("stop", type=int)
    gen.add_argument("out")
    gen.add_argument("--jobs", type=int, default=2)
    gen.add_argument("--model", default=DEFAULT_MODEL)
    chk = sub.add_parser("check")
    chk.add_argument("--model", default=DEFAULT_MODEL)
    args = parser.parse_args()
    return generate(args) if args.command == "generate" else check(args)


if __name__ == "__main__":
    sys.exit(main())
