"""``hokm arena A B``: compare two bots on duplicate boards (see :mod:`hokm.arena`).

    hokm arena rule naive --boards 1000 --seed held-out-1
    hokm arena rule random --boards 200 --seed s --preset classic --json
    hokm arena rule rule:lead_queen=off --boards 2000 --seed s

Progress goes to stderr while it runs; the report (text or ``--json``) to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from hokm.arena import ArenaReport, TimingStats, run_arena
from hokm.engine import PRESETS, RuleSet
from hokm.engine.errors import HokmError

__all__ = ["format_report", "register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="compare two bots on duplicate boards",
        description=(
            "Play each deal twice with the same cards in the same seats and the teams swapped, "
            "then whole games with common deals. Bots: random, naive, easy, rule (medium), "
            "search (hard); options as name:key=value,key=value."
        ),
    )
    parser.add_argument("a", help="first bot (the figures are from its side)")
    parser.add_argument("b", help="second bot")
    parser.add_argument("--boards", type=int, default=200, help="duplicate boards (default 200)")
    parser.add_argument("--seed", default="arena", help="seed of the deals (default 'arena')")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="rule preset (default rules)")
    parser.add_argument(
        "--games", type=int, default=None, help="whole games for the match (default boards/5)"
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time decisions by the process's CPU time (default: wall clock)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if args.boards < 1 or (args.games is not None and args.games < 0):
        print("hokm arena: --boards must be ≥ 1 and --games ≥ 0", file=err)
        return 2
    try:
        rules = RuleSet.preset(args.preset) if args.preset else RuleSet()
    except HokmError as exc:
        print(f"hokm arena: {exc}", file=err)
        return 2
    started = time.perf_counter()
    last = [0.0]

    def progress(stage: str, done: int, total: int, report: ArenaReport) -> None:
        now = time.perf_counter()
        if args.quiet or (now - last[0] < 0.2 and done != total):
            return
        last[0] = now
        net = report.net
        line = (
            f"\r{stage} {done}/{total}  net {net.mean:+.3f}/board  "
            f"hands {report.hand_rate.mean:.1%}  games {report.games_won}/{report.games}  "
            f"{now - started:.0f}s"
        )
        print(line, end="", file=err, flush=True)

    try:
        report = run_arena(
            args.a,
            args.b,
            boards=args.boards,
            seed=args.seed,
            rules=rules,
            games=args.games,
            progress=progress,
            clock=time.process_time if args.cpu_time else time.perf_counter,
        )
    except ValueError as exc:
        print(f"\nhokm arena: {exc}", file=err)
        return 2
    if not args.quiet:
        print(file=err)
    if args.json:
        data = report.to_dict()
        data["preset"] = args.preset
        data["clock"] = "cpu" if args.cpu_time else "wall"
        data["seconds"] = round(time.perf_counter() - started, 3)
        print(json.dumps(data, indent=2, ensure_ascii=False), file=out)
    else:
        clock = "CPU time" if args.cpu_time else "wall clock"
        print(format_report(report, preset=args.preset, clock=clock), file=out)
    return 0


def _ms(stats: dict[str, float]) -> str:
    return f"{stats['median_ms']:.3f} / {stats['p95_ms']:.3f} / {stats['max_ms']:.1f}"


def format_report(
    report: ArenaReport, *, preset: str | None = None, clock: str = "wall clock"
) -> str:
    """The human-readable report."""
    net, hands, games = report.net, report.hand_rate, report.game_rate
    lines = [
        f"{report.a} vs {report.b}   seed {report.seed!r}   preset {preset or 'default'}",
        f"match: {report.a} won {report.games_won} of {report.games} games to "
        f"{report.rules.target_points}: {games.mean:.1%} [{games.low:.1%}, {games.high:.1%}]",
        f"boards: {report.boards}   net points per board {net.mean:+.3f} "
        f"[{net.low:+.3f}, {net.high:+.3f}] (95% CI)",
        f"hands won: {report.hands_won}/{report.hands} = {hands.mean:.1%} "
        f"[{hands.low:.1%}, {hands.high:.1%}]",
        "results: " + ", ".join(f"{k} {v}" for k, v in sorted(report.results.items())),
        f"decision time (ms, median / p95 / max, {clock}):",
    ]
    for label, timing in report.timings.items():
        lines.append(f"  {label}: {_ms(TimingStats.summary(timing.all))}  ({len(timing.all)})")
        tricks = sorted(timing.by_trick)
        for t in tricks:
            lines.append(f"    trick {t + 1:2d}: {_ms(TimingStats.summary(timing.by_trick[t]))}")
    return "\n".join(lines)
