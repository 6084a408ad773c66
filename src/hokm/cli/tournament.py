"""``hokm tournament A B C …``: a round robin of bots on duplicate boards (:mod:`hokm.arena`).

    hokm tournament random naive easy rule search --boards 200 --seed t1
    hokm tournament rule rule:trump_policy=longest rule:lead_queen=on --boards 1000 --json

Every pair plays the arena on the same boards and game seeds, so every bot meets the same
cards. The report is a table of net points per board (row against column) and the standings:
each bot's mean net points per board against all the others. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any, TextIO

from hokm.arena import TournamentReport, run_tournament
from hokm.cli import clip_quoted, count
from hokm.cli.arena import Progress, add_match_options, match_rules, print_report, signed

__all__ = ["format_tournament", "register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="a round robin of bots on duplicate boards",
        description=(
            "Every pair of bots plays the arena (duplicate boards, then whole games) on the "
            "same deals. Bots: random, naive, easy, rule (medium), search (hard); options as "
            "name:key=value,key=value."
        ),
    )
    parser.add_argument("bots", nargs="+", metavar="BOT", help="two or more bots")
    add_match_options(parser, boards="duplicate boards per pair (default 200)", seed="tournament")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    rules = match_rules(args, "tournament", err)
    if rules is None:
        return 2
    shown = Progress(err, quiet=args.quiet)
    so_far: list[TournamentReport] = []  # the tournament as it grows (what Ctrl-C leaves)

    def progress(
        match: int,
        matches: int,
        a: str,
        b: str,
        stage: str,
        done: int,
        total: int,
        report: TournamentReport,
    ) -> None:
        so_far[:] = [report]
        shown.show(f"match {match}/{matches} {a} vs {b}: {stage} {done}/{total}", done, total)

    try:
        report = run_tournament(
            args.bots,
            boards=args.boards,
            seed=args.seed,
            rules=rules,
            games=args.games,
            progress=progress,
            clock=time.process_time if args.cpu_time else time.perf_counter,
        )
    except ValueError as exc:
        shown.end()
        print(f"hokm tournament: {clip_quoted(str(exc))}", file=err)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C in a long round robin: the whole boards played are shown, the pairs that
        # never met left blank (the board under way when it came is not counted).
        partial = so_far[0] if so_far else None
        if partial is None or not any(m.boards for m in partial.matches.values()):
            raise
        shown.end()
        print(
            f"hokm tournament: interrupted with {len(partial.complete)} of {partial.pairs} "
            "matches whole: the figures are of the boards played",
            file=err,
        )
        print_report(
            partial.to_dict(),
            lambda: format_tournament(partial, preset=args.preset),
            args,
            shown,
            out,
            interrupted=True,
        )
        return 130
    shown.end()
    print_report(
        report.to_dict(), lambda: format_tournament(report, preset=args.preset), args, shown, out
    )
    return 0


def format_tournament(report: TournamentReport, *, preset: str | None = None) -> str:
    """The table of net points per board and the standings, as text."""
    names = report.bots
    lines = [
        f"tournament: {len(names)} bots, {count(report.boards, 'board')} per pair, "
        f"seed {report.seed!r}, preset {preset or 'platform-a'}",
    ]
    if len(report.complete) < report.pairs:  # (Ctrl-C: what the match cut short had played)
        cut = [
            f"{names[i]} vs {names[j]} played {count(m.boards, 'board')}"
            + (f" and {count(m.games, 'game')}" if m.games else "")
            for (i, j), m in sorted(report.matches.items())
            if (i, j) not in report.complete and m.boards
        ]
        lines.append(
            "stopped early: "
            + "".join(f"{text}; " for text in cut)
            + "the standings are of the boards played"
        )
    # A cell is "+0.123±0.456" (12 characters): five bots of short names fit 80 columns. Longer
    # names (bot options: "rule:trump_policy=strength") are numbered, so the table still fits.
    bots = names
    if max(len(b) for b in names) > 12:
        bots = [f"[{i}]" for i in range(1, len(names) + 1)]
        lines.extend(f"  {label} {name}" for label, name in zip(bots, names, strict=True))
    width = max(len(b) for b in bots)
    column = 14
    lines += [
        "net points per board, row against column (± half the 95% interval):",
        " " * (width + 2) + "".join(f"{b:>{column}}" for b in bots),
    ]
    for i, bot in enumerate(bots):
        cells = []
        for j in range(len(bots)):
            if i == j:
                cells.append(f"{'—':>{column}}")
            elif not report.played(i, j):
                cells.append(f"{'not played':>{column}}")
            else:
                net = report.net(i, j)
                half = (net.high - net.low) / 2
                spread = f"±{half:.3f}" if math.isfinite(half) else "±n/a"
                cells.append(f"{f'{signed(net.mean)}{spread}':>{column}}")
        lines.append(f"{bot:<{width + 2}}" + "".join(cells))
    lines.append("standings (mean net points per board against all the others):")
    pad = min(max(len(b) for b in names), 40)
    for rank, row in enumerate(report.standings(), start=1):
        if not row.boards:
            lines.append(f"  {rank}. {row.bot:<{pad}}  not played")
            continue
        hands = row.hands_won / row.hands if row.hands else 0.0
        games = f", games {row.games_won}/{row.games}" if row.games else ""
        lines.append(f"  {rank}. {row.bot:<{pad}}  {signed(row.net)}  (hands {hands:.1%}{games})")
    return "\n".join(lines)
