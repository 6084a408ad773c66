"""``hokm bench [SECTION...]``: speed benchmarks, one section per part of the project.

A section is a function ``(options: BenchOptions) -> list[Measurement]`` named in
:data:`SECTIONS` as ``"module:function"``; sections whose module does not exist yet are
skipped, so each part adds its own section without touching the others. Results are the
median of ``--repeat`` runs; CPU time of this process is used (the machine may be shared),
and wall-clock rates are shown beside it. Figures go to ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from hokm.cli import clip, count, count_option, out_of_range
from hokm.engine import Deal, Game, Phase, RuleSet, Seat, judge, record_from_game, view_of

__all__ = [
    "MAX_REPEAT",
    "SECTIONS",
    "BenchOptions",
    "Measurement",
    "measure",
    "random_games",
    "random_hands",
    "register",
]

MAX_REPEAT = 100  # runs per figure

#: Section name → "module:function". Add a line for a new section.
SECTIONS: dict[str, str] = {
    "engine": "hokm.cli.bench:engine_section",
    "fast": "hokm.cli.bench_fast:fast_section",
    "analysis": "hokm.cli.bench:analysis_section",
}


@dataclass(frozen=True, slots=True)
class BenchOptions:
    repeat: int = 5  # runs per measurement; the median is reported
    # multiplies the work of each run (0.1 for a quick look), never what is measured
    scale: float = 1.0
    seed: str = "bench"


@dataclass(frozen=True, slots=True)
class Measurement:
    name: str
    value: float  # median rate over the runs, by CPU time
    unit: str  # e.g. "hands/s"
    wall: float  # median rate by wall-clock time
    runs: tuple[float, ...]  # every run's CPU-time rate

    def line(self) -> str:
        """The figure on one line, the runs' spread on the next (80 columns: it was 115)."""
        spread = f"{min(self.runs):,.0f}–{max(self.runs):,.0f}"
        return (
            f"  {self.name:<54} {self.value:>10,.0f} {self.unit}\n"
            f"      runs {spread} {self.unit}; wall clock {self.wall:,.0f}"
        )


def measure(
    name: str,
    unit: str,
    work: Callable[[int], int],
    size: int,
    options: BenchOptions,
    *,
    cycle: int = 1,
) -> Measurement:
    """Run ``work(size)`` (which returns how many ``unit`` it did) ``repeat`` times.

    ``--scale`` changes how much work a run does, never what is measured: a ``work`` that goes
    through ``cycle`` fixed positions in turn (item ``i`` is position ``i % cycle``) is given
    a whole number of passes over all of them, at least one, so every scale measures the same
    positions, each equally often (at 0.1, 60 solves of 20 positions were the first 6 only).
    """
    passes = max(1, math.ceil(size * options.scale / cycle - 1e-9))
    size = passes * cycle
    cpu_rates: list[float] = []
    wall_rates: list[float] = []
    for _ in range(options.repeat):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        done = work(size)
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        cpu_rates.append(done / cpu if cpu > 0 else float("inf"))
        wall_rates.append(done / wall if wall > 0 else float("inf"))
    return Measurement(
        name, statistics.median(cpu_rates), unit, statistics.median(wall_rates), tuple(cpu_rates)
    )


# ---------------------------------------------------------------------------- engine section


def random_hands(count: int, *, rules: RuleSet | None = None, seed: str = "bench") -> int:
    """Play ``count`` complete random hands through the public API, each in a fresh game.

    Each hand: a new :class:`Game`, a deal from a seed, a random trump choice (or a redeal
    when the rules allow one), then random legal plays from ``Game.legal_actions``, each
    applied with ``Game.apply``, until the hand is scored. Returns ``count``.
    """
    rules = rules if rules is not None else RuleSet()
    bits = random.Random(seed).getrandbits  # bits(32) % n: a random index (bias below 2**-28)
    seats = tuple(Seat)
    deal_phase = Phase.DEAL
    for i in range(count):
        hakem = seats[i & 3]
        game = Game(rules, hakem=hakem)
        deals = 0
        while True:
            actions = game.legal_actions()
            if actions:
                game.apply(actions[bits(32) % len(actions)])
            elif game.hand_number == 0 and game.phase is deal_phase:
                game.apply(Deal.from_seed(f"{seed}:{i}:{deals}", hakem))
                deals += 1
            else:
                break  # the hand is scored (no legal action until the next deal)
    return count


def random_games(count: int, *, rules: RuleSet | None = None, seed: str = "bench") -> int:
    """Play random whole games through the public API until at least ``count`` hands are
    complete; return the number of hands. As :func:`random_hands`, but the hands follow each
    other in games (the hakem rotates, scores add up), as at a table."""
    rules = rules if rules is not None else RuleSet()
    bits = random.Random(seed).getrandbits
    seats = tuple(Seat)
    deal_phase = Phase.DEAL
    hands = deals = 0
    while hands < count:
        game = Game(rules, hakem=seats[hands & 3])
        while True:
            actions = game.legal_actions()
            if actions:
                game.apply(actions[bits(32) % len(actions)])
            elif game.phase is deal_phase:
                game.apply(Deal.from_seed(f"{seed}:{deals}", game.hakem or 0))
                deals += 1
            else:
                break  # the game is over
        hands += len(game.hand_results)
    return hands


def _deals(count: int) -> int:
    for i in range(count):
        Deal.from_seed(f"deal:{i}", Seat(i & 3))
    return count


def _played_games(count: int, rules: RuleSet) -> list[Game]:
    rand = random.Random(1).random
    games = []
    for i in range(count):
        game = Game(rules, hakem=i & 3)
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game.apply(Deal.from_seed(f"g{i}:{len(game.history)}", game.hakem or 0))
            else:
                actions = game.legal_actions()
                game.apply(actions[int(rand() * len(actions))])
        games.append(game)
    return games


def engine_section(options: BenchOptions) -> list[Measurement]:
    """The public engine API: random hands, deals, views, JSON round trips, the referee."""
    classic = RuleSet.preset("classic")
    games = _played_games(4, classic)
    hands_per_game = sum(len(g.hand_results) for g in games) / len(games)
    records = [record_from_game(g) for g in games]
    middle = games[0].copy()

    def views(n: int) -> int:
        for i in range(n):
            view_of(middle, i % 5 if i % 5 < 4 else None)
        return n

    def round_trips(n: int) -> int:
        for i in range(n):
            Game.from_dict(games[i % len(games)].to_dict())
        return int(n * hands_per_game)

    def referee(n: int) -> int:
        for i in range(n):
            judge(records[i % len(records)])
        return int(n * hands_per_game)

    return [
        measure(
            "random hands, public API (Game.legal_actions + apply)",
            "hands/s",
            lambda n: random_hands(n, seed=options.seed),
            3000,
            options,
        ),
        measure(
            "random hands in whole games, public API",
            "hands/s",
            lambda n: random_games(n, seed=options.seed),
            3000,
            options,
        ),
        measure(
            "random hands, classic preset (bam, redeals)",
            "hands/s",
            lambda n: random_hands(n, rules=classic, seed=options.seed),
            2000,
            options,
        ),
        measure("deals from a seed (SHA-256 + Fisher–Yates)", "deals/s", _deals, 5000, options),
        measure("view_of(game, seat)", "views/s", views, 5000, options, cycle=5),
        measure(
            "Game.to_dict + Game.from_dict (replay)",
            "hands/s",
            round_trips,
            40,
            options,
            cycle=len(games),
        ),
        measure("referee: judge(record)", "hands/s", referee, 40, options, cycle=len(records)),
    ]


# ---------------------------------------------------------------------------- analysis section


def analysis_section(options: BenchOptions) -> list[Measurement]:
    """``hokm analyse`` on games the rule bot played in all four seats (default rules)."""
    from hokm.analysis import analyse
    from hokm.bots import RuleBot

    records = []
    hands = 0
    for i in range(3):
        game = Game(RuleSet(), hakem=Seat(i))
        bots = [RuleBot(seed=f"bench{i}/{s}") for s in range(4)]
        while not game.is_over:
            if game.phase is Phase.DEAL:
                game.apply(Deal.from_seed(f"analysis{i}:{len(game.history)}", game.hakem or 0))
            else:
                seat = game.to_move
                assert seat is not None
                game.apply(bots[seat].act(view_of(game, seat)))
        records.append(record_from_game(game))
        hands += len(game.hand_results)

    def analysed(n: int) -> int:
        done = 0
        for j in range(n):
            done += len(analyse(records[j % len(records)]).hands)
        return done

    return [
        measure(
            "double-dummy analysis of rule-bot games",
            "hands/s",
            analysed,
            3,
            options,
            cycle=len(records),
        )
    ]


# ---------------------------------------------------------------------------- the command


def _load(spec: str) -> Callable[[BenchOptions], list[Measurement]] | None:
    module_name, _, func_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None
    func = getattr(module, func_name, None)
    return func if callable(func) else None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="run speed benchmarks",
        description="Speed benchmarks, by section (default: all available sections).",
    )
    parser.add_argument(
        "sections", nargs="*", metavar="SECTION", help=f"sections: {', '.join(SECTIONS)}"
    )
    parser.add_argument(
        "--repeat",
        type=count_option("--repeat", 1, MAX_REPEAT),
        default=5,
        help=f"runs per figure (median; 5; at most {MAX_REPEAT})",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="work per run (e.g. 0.1; at most 100)"
    )
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    names = list(dict.fromkeys(args.sections)) or list(SECTIONS)  # each section once
    unknown = [n for n in names if n not in SECTIONS]
    problem = None
    if unknown:
        problem = f"unknown section {clip(unknown[0])!r}; sections: {', '.join(SECTIONS)}"
    elif (repeat := out_of_range("--repeat", args.repeat, 1, MAX_REPEAT)) is not None:
        problem = repeat
    elif not 0 < args.scale <= 100:  # (NaN and infinity too: inf crashed, 1e30 never ended)
        problem = f"--scale is above 0 and at most 100, not {args.scale:g}"
    if problem is not None:
        print(f"hokm bench: {problem}", file=sys.stderr)
        return 2
    options = BenchOptions(repeat=args.repeat, scale=args.scale)
    results: dict[str, Any] = {
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "sections": {},
    }
    if not args.json:
        print(f"Python {results['python']}; median of {count(options.repeat, 'run')}, CPU time")
    for name in names:
        section = _load(SECTIONS[name])
        if section is None:
            if args.sections:
                print(f"hokm bench: section {name!r} is not available yet", file=sys.stderr)
                return 2
            continue
        measurements = section(options)
        results["sections"][name] = [asdict(m) for m in measurements]
        if not args.json:
            print(f"[{name}]")
            for m in measurements:
                print(m.line(), flush=True)
    if args.json:
        print(json.dumps(results))
    return 0
