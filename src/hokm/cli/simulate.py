"""``hokm simulate --hands N --seed S [--preset P]``: random legal play, with statistics.

Whole games are played (the hakem rotates, games end at the target and the next one starts)
with uniformly random legal actions and seeded deals, until N hands are complete. Sanity
figures for random play: the hakem's team wins ≈ 50 % of hands, kot ≈ 1.5–1.8 %, ≈ 11 tricks
per hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hokm.cli import count_option, out_of_range, seed_text
from hokm.engine import PRESETS, Deal, DrawAces, Game, Phase, RuleSet
from hokm.engine.records import RESULT_NAMES

__all__ = ["MAX_HANDS", "SimulationStats", "register", "run", "simulate"]

MAX_HANDS = 1_000_000  # about three minutes of random play; more is a typo


# Results of hands that reached 7–0 (a kot of either kind, or a bam attempt).
_SEVEN_NIL = ("kot", "hakem_kot", "bam", "par_bam", "failed_bam")


@dataclass
class SimulationStats:
    """Counts from a simulation; rates are derived."""

    hands: int = 0
    games: int = 0
    hakem_team_wins: int = 0
    tricks: int = 0
    redeals: int = 0
    results: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def rate(self, count: int) -> float:
        return count / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "games": self.games,
            "hakem_team_win_rate": self.rate(self.hakem_team_wins),
            "kot_rate": self.rate(self.results["kot"]),
            "hakem_kot_rate": self.rate(self.results["hakem_kot"]),
            "seven_nil_rate": self.rate(sum(self.results[r] for r in _SEVEN_NIL)),
            "mean_tricks_per_hand": self.rate(self.tricks),
            "results": dict(sorted(self.results.items())),
            "redeals": self.redeals,
            "seconds": self.seconds,
            "hands_per_second": self.hands / self.seconds if self.seconds else 0.0,
        }


def simulate(hands: int, *, seed: str | int = 0, rules: RuleSet | None = None) -> SimulationStats:
    """Play random legal games until ``hands`` hands are complete."""
    rules = rules if rules is not None else RuleSet()
    rng = random.Random(f"simulate:{seed}")
    stats = SimulationStats()
    start = time.perf_counter()
    deals = 0
    while stats.hands < hands:
        game = Game(rules, first_hakem="ace_draw")
        game.apply(DrawAces.from_seed(f"{seed}:game:{stats.games}"))
        while not game.is_over and stats.hands < hands:
            if game.phase is Phase.DEAL:
                assert game.hakem is not None
                game.apply(Deal.from_seed(f"{seed}:deal:{deals}", game.hakem))
                deals += 1
                continue
            number = game.hand_number
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
            if game.hand_number != number:
                _count(stats, game)
        stats.games += game.is_over
    stats.redeals = deals - stats.hands
    stats.seconds = time.perf_counter() - start
    return stats


def _count(stats: SimulationStats, game: Game) -> None:
    result = game.hand_results[-1]
    stats.hands += 1
    stats.tricks += len(result.trick_winners)
    stats.results[result.result] += 1
    stats.hakem_team_wins += result.winner_team == result.hakem.team


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play random legal games and print statistics",
        description="Play random legal games with seeded deals and print statistics: "
        "hakem-team win rate, kot and hakem-kot rates, mean tricks per hand, hands per second.",
    )
    parser.add_argument(
        "--hands",
        type=count_option("--hands", 1, MAX_HANDS),
        default=10_000,
        help=f"hands to play (10000; at most {MAX_HANDS})",
    )
    parser.add_argument(
        "--seed",
        type=seed_text,
        default="0",
        help="seed of the deals and the random play (default '0')",
    )
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), help="rule preset (default platform-a)"
    )
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problem = out_of_range("--hands", args.hands, 1, MAX_HANDS)
    if problem is not None:
        print(f"hokm simulate: {problem}", file=sys.stderr)
        return 2
    rules = RuleSet.preset(args.preset) if args.preset else RuleSet()
    stats = simulate(args.hands, seed=args.seed, rules=rules)
    data = stats.to_dict()
    if args.json:
        print(json.dumps({"preset": args.preset or "platform-a", "seed": args.seed, **data}))
        return 0
    print(f"rules: {args.preset or 'defaults (platform-a)'}; seed {args.seed!r}")
    print(f"hands played:         {stats.hands} ({stats.games} complete games)")
    print(f"hakem team wins:      {100 * data['hakem_team_win_rate']:.1f} %")
    print(f"kot (کُت):             {100 * data['kot_rate']:.2f} %")
    print(f"hakem-kot (حاکم‌کُتی):  {100 * data['hakem_kot_rate']:.2f} %")
    print(f"all 7–0 hands:        {100 * data['seven_nil_rate']:.2f} %")
    for name in ("bam", "par_bam", "failed_bam"):
        if stats.results[name]:
            english, persian = RESULT_NAMES[name]  # as the referee and the rules name them
            label = f"{english} ({persian}):"
            shown = sum(not unicodedata.combining(c) for c in label)  # the marks take no column
            pad = " " * max(1, 22 - shown)
            print(f"{label}{pad}{100 * stats.rate(stats.results[name]):.2f} %")
    if stats.redeals:
        print(f"redeals:              {stats.redeals}")
    print(f"mean tricks per hand: {data['mean_tricks_per_hand']:.2f}")
    print(f"speed:                {data['hands_per_second']:.0f} hands/s ({stats.seconds:.2f} s)")
    return 0
