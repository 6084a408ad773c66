"""``hokm arena A B``: compare two bots on duplicate boards (see :mod:`hokm.arena`).

    hokm arena rule naive --boards 1000 --seed held-out-1
    hokm arena rule random --boards 200 --seed s --preset classic --json
    hokm arena rule rule:lead_queen=off --boards 2000 --seed s

Progress goes to stderr while it runs; the report (text or ``--json``) to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from hokm.arena import ArenaReport, TimingStats, json_number, run_arena
from hokm.cli import clip_quoted, count_option, out_of_range, seed_text
from hokm.engine import PRESETS, RuleSet
from hokm.engine.errors import HokmError

__all__ = [
    "MAX_BOARDS",
    "MAX_GAMES",
    "Progress",
    "add_match_options",
    "format_report",
    "interval",
    "match_rules",
    "print_json",
    "print_report",
    "register",
    "run",
    "signed",
]


MAX_BOARDS = 100_000  # 100 times the 1,000 of a careful comparison
MAX_GAMES = 10_000


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
    add_match_options(parser, boards="duplicate boards (default 200)", seed="arena")
    parser.set_defaults(func=run)


def add_match_options(parser: argparse.ArgumentParser, *, boards: str, seed: str) -> None:
    """The options ``hokm arena`` and ``hokm tournament`` share."""
    parser.add_argument(
        "--boards",
        type=count_option("--boards", 1, MAX_BOARDS),
        default=200,
        help=f"{boards}; at most {MAX_BOARDS}",
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time decisions by the process's CPU time (default: wall clock)",
    )
    parser.add_argument(
        "--seed", type=seed_text, default=seed, help=f"seed of the deals (default {seed!r})"
    )
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), help="rule preset (default platform-a)"
    )
    parser.add_argument(
        "--games",
        type=count_option("--games", 0, MAX_GAMES),
        default=None,
        help="whole games per match, played in pairs with the teams swapped (an odd number is "
        f"rounded up; default boards/5; at most {MAX_GAMES})",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def match_rules(args: argparse.Namespace, command: str, err: TextIO) -> RuleSet | None:
    """The rules of ``--preset``, or None after saying why the options are refused."""
    problem = out_of_range("--boards", args.boards, 1, MAX_BOARDS)
    if problem is None and args.games is not None:
        problem = out_of_range("--games", args.games, 0, MAX_GAMES)
    if problem is not None:
        print(f"hokm {command}: {problem}", file=err)
        return None
    try:
        return RuleSet.preset(args.preset) if args.preset else RuleSet()
    except HokmError as exc:
        print(f"hokm {command}: {clip_quoted(str(exc))}", file=err)
        return None


class Progress:
    """Progress on stderr: on a terminal one line, redrawn at most five times a second (and
    at each end); elsewhere (a log file) a line of its own every ten seconds and at each end."""

    def __init__(self, err: TextIO, *, quiet: bool) -> None:
        self.err = err
        self.quiet = quiet
        self.terminal = err.isatty()
        self.started = time.perf_counter()
        self.last = 0.0
        self.width = 0  # of the line on the terminal, 0 when none is open

    def show(self, text: str, done: int, total: int) -> None:
        now = time.perf_counter()
        every = 0.2 if self.terminal else 10.0
        if self.quiet or (now - self.last < every and done != total):
            return
        self.last = now
        line = f"{text}  {now - self.started:.0f}s"
        if not self.terminal:
            print(line, file=self.err, flush=True)
            return
        self.width = max(self.width, len(line))  # a shorter line blanks the rest of a longer one
        print(f"\r{line:<{self.width}}", end="", file=self.err, flush=True)

    def end(self) -> None:
        """Close the terminal's progress line, if one is open."""
        if self.width:
            print(file=self.err, flush=True)
            self.width = 0


def print_json(
    data: dict[str, Any], args: argparse.Namespace, shown: Progress, out: TextIO
) -> None:
    """A match's (or tournament's) report as strict JSON, with the preset and the seconds."""
    data = {**data, "preset": args.preset or "platform-a"}
    data["seconds"] = round(time.perf_counter() - shown.started, 3)
    print(
        json.dumps(_no_negative_zero(data), indent=2, ensure_ascii=False, allow_nan=False), file=out
    )


def _no_negative_zero(data: Any) -> Any:
    """``data`` with every number as :func:`hokm.arena.json_number` writes it: ``-0.0`` as
    ``0.0`` (a report never shows a minus zero).

    >>> _no_negative_zero({"a": [-0.0, 1], "b": -0.25})
    {'a': [0.0, 1], 'b': -0.25}
    """
    if isinstance(data, float):
        return json_number(data)
    if isinstance(data, dict):
        return {k: _no_negative_zero(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_no_negative_zero(v) for v in data]
    return data


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    rules = match_rules(args, "arena", err)
    if rules is None:
        return 2
    shown = Progress(err, quiet=args.quiet)
    so_far: list[ArenaReport] = []  # the report as it grows (what Ctrl-C leaves of it)

    def progress(stage: str, done: int, total: int, report: ArenaReport) -> None:
        so_far[:] = [report]
        net = report.net
        # (games won of those played: "games 3/4 … games 3/4" read as two counts of one thing)
        won = f"  {report.a} won {report.games_won}/{report.games}" if report.games else ""
        shown.show(
            f"{stage} {done}/{total}  net {net.mean:+.3f}/board  "
            f"hands {report.hand_rate.mean:.1%}{won}",
            done,
            total,
        )

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
        shown.end()
        print(f"hokm arena: {clip_quoted(str(exc))}", file=err)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C in a long run: what was played is not thrown away. The figures are of the
        # whole boards (and games) played; a board under way when it came is not counted.
        if not so_far or not so_far[0].boards:
            raise
        report = so_far[0]
        shown.end()
        print(
            f"hokm arena: interrupted after {report.boards} of {args.boards} boards"
            f" and {report.games} games: the figures are of those",
            file=err,
        )
        _print_report(report, args, shown, out, interrupted=True)
        return 130
    shown.end()
    _print_report(report, args, shown, out)
    return 0


def _print_report(
    report: ArenaReport,
    args: argparse.Namespace,
    shown: Progress,
    out: TextIO,
    *,
    interrupted: bool = False,
) -> None:
    clock = "CPU time" if args.cpu_time else "wall clock"
    print_report(
        report.to_dict(),
        lambda: format_report(report, preset=args.preset, clock=clock),
        args,
        shown,
        out,
        interrupted=interrupted,
    )


def print_report(
    data: dict[str, Any],
    text: Callable[[], str],
    args: argparse.Namespace,
    shown: Progress,
    out: TextIO,
    *,
    interrupted: bool = False,
) -> None:
    """A report (``data``, or ``text()`` without ``--json``), marked if Ctrl-C cut it short."""
    if args.json:
        data = {**data, "clock": "cpu" if args.cpu_time else "wall"}
        if interrupted:
            data["interrupted"] = True
        print_json(data, args, shown, out)
    else:
        print(text(), file=out)


def _ms(stats: dict[str, float]) -> str:
    return f"{stats['median_ms']:.3f} / {stats['p95_ms']:.3f} / {stats['max_ms']:.3f}"


def interval(low: float, high: float, boards: int = 1) -> str:
    """A 95 % interval of points, or why there is none: one board has no spread, and boards
    that all came out the same show none either.

    >>> interval(-0.25, 0.5), interval(float("-inf"), float("inf"))
    ('[-0.250, +0.500]', '[no interval from one board]')
    >>> interval(float("-inf"), float("inf"), boards=3)
    '[no interval: all 3 boards came out the same]'
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        if boards <= 1:
            return "[no interval from one board]"
        return f"[no interval: all {boards} boards came out the same]"
    return f"[{signed(low)}, {signed(high)}]"


def signed(x: float) -> str:
    """Points with their sign, and no minus on a zero that rounds to it.

    >>> signed(-0.0001), signed(0.25)
    ('+0.000', '+0.250')
    """
    text = f"{x:+.3f}"
    return "+0.000" if text == "-0.000" else text


def format_report(
    report: ArenaReport, *, preset: str | None = None, clock: str = "wall clock"
) -> str:
    """The human-readable report."""
    net, hands, games = report.net, report.hand_rate, report.game_rate
    headline = (
        f"match: {report.a} won {report.games_won} of {report.games} games to "
        f"{report.rules.target_points}: {games.mean:.1%} [{games.low:.1%}, {games.high:.1%}]"
        if report.games
        else "match: no whole games played (--games 0)"
    )
    lines = [
        f"{report.a} vs {report.b}   seed {report.seed!r}   preset {preset or 'platform-a'}",
        headline,
        f"boards: {report.boards}   net points per board {signed(net.mean)} "
        f"{interval(net.low, net.high, report.boards)} (95% CI)",
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
