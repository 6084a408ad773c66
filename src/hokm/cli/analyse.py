"""``hokm analyse FILE... [--json] [--all]``: double-dummy analysis of recorded games.

Every play with a choice is judged as if all four hands had been visible (``hokm.analysis``):
a play after which the hand's outcome for the player's team is worse than after its best card
(a won hand lost, a kot missed or let through) is a mistake, and the points it gave away are
counted per seat. Exit status as ``hokm referee``: 0 analysed, 1 a record breaks a rule (it is
not analysed), 2 unreadable or malformed input.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from typing import Any

from hokm.analysis import (
    KOT_NODES,
    GameAnalysis,
    HandAnalysis,
    PlayNote,
    RecordBrokenError,
    analyse,
)
from hokm.cli import fold, whole_number
from hokm.cli.referee import (
    UnreadableError,
    error_place,
    left_of,
    load_json,
    players_of,
    read_text,
    say_outcome,
)
from hokm.engine import Card, HokmError, Suit, seven_nil_result
from hokm.engine.records import RESULT_NAMES

__all__ = ["analyse_text", "describe", "register", "run"]

EXIT_OK, EXIT_BROKEN, EXIT_MALFORMED = 0, 1, 2


def _outcome_text(outcome: int, *, team: int, hakem: int) -> str:
    """A hand's outcome (2, 1, -1, -2) for ``team``, by its name: a 7–0 is a kot or a
    hakem-kot as the engine names it (``seven_nil_result``), whichever team says it."""
    if outcome == 1:
        return "a win"
    if outcome == -1:
        return "a loss"
    english, persian = RESULT_NAMES[seven_nil_result(team if outcome > 0 else 1 - team, hakem)]
    return f"a {english} ({persian})" if outcome > 0 else f"a {english} against it"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyse",
        aliases=["analyze"],
        help="find the plays that gave hands away (double-dummy)",
        description="Judge every play of hokm-record/1 files double-dummy (all hands visible, "
        "as after the game): a play that turned a won hand into a lost one, or missed or let "
        "through a kot, is a mistake. Exit status 0: analysed; 1: a record breaks a rule; "
        "2: unreadable or malformed input.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-': stdin)")
    parser.add_argument("--json", action="store_true", help="one JSON report per file and line")
    parser.add_argument(
        "--all", action="store_true", help="list every play with a choice, not only mistakes"
    )
    parser.add_argument(
        "--kot-nodes",
        type=whole_number("a kot budget", 100, 1_000_000),
        default=KOT_NODES,
        metavar="N",
        help=f"search budget per kot question, 100 to 1000000 ({KOT_NODES}); more settles "
        "more early kots, slower (20000: about twice the time)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = EXIT_OK
    try:
        for name in args.files:
            shown = _progress(name) if sys.stderr.isatty() else None
            report, text, code = analyse_text(
                read_text(name),
                name=name,
                every=args.all,
                progress=shown,
                kot_nodes=getattr(args, "kot_nodes", KOT_NODES),
            )
            status = max(status, code)
            say_outcome("analyse", name, report, text, json_lines=args.json, failed=code != EXIT_OK)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep the interpreter's flush quiet
    return status


def _progress(name: str) -> Callable[[int, int], None]:
    """A progress line on the terminal (standard error), wiped when the file is done."""

    def show(done: int, total: int) -> None:
        line = f"analysing {name}: hand {done + 1} of {total}…" if done < total else ""
        print(f"\r\033[K{line}", end="", file=sys.stderr, flush=True)

    return show


def analyse_text(
    source: str | Exception,
    *,
    name: str = "record",
    every: bool = False,
    progress: Callable[[int, int], None] | None = None,
    kot_nodes: int = KOT_NODES,
) -> tuple[dict[str, Any], str, int]:
    """Analyse a record's text: the JSON report, the readable account, and the exit status."""
    try:
        data = load_json(source)
        analysis = analyse(data, progress=progress, kot_nodes=kot_nodes)
    except RecordBrokenError as exc:
        report = {"ok": False, "error": exc.error}
        place = error_place(exc.error)
        where = f" at {place}" if place else ""
        text = f"{name}: not analysed: the record breaks a rule{where}: {exc}"
        return report, text, EXIT_BROKEN
    except (UnreadableError, HokmError, RecursionError) as exc:
        return _malformed(name, str(exc))
    except Exception as exc:  # like the referee: never a traceback
        return _malformed(name, f"internal error while analysing: {exc!r}")
    text = describe(analysis, name=name, every=every, players=players_of(data), left=left_of(data))
    return analysis.to_dict(), text, EXIT_OK


def _malformed(name: str, reason: str) -> tuple[dict[str, Any], str, int]:
    error = {"hand": None, "play": None, "seat": None, "card": None, "reason": reason}
    report = {"ok": False, "malformed": True, "error": error}
    return report, f"{name}: cannot analyse: {reason}", EXIT_MALFORMED


def describe(
    analysis: GameAnalysis,
    *,
    name: str = "record",
    every: bool = False,
    players: list[str | None] | None = None,
    left: list[tuple[int, str | None, int, int]] | None = None,
) -> str:
    """A readable account: per hand its double-dummy outcome and the mistakes, then per seat.
    A seat whose player ``left`` (:func:`hokm.cli.referee.left_of`) is named for its player
    before the play they left at, and for the bot from it."""
    names = players or [None] * 4
    gone = {s: (who or names[s], (hand, plays)) for s, who, hand, plays in left or ()}

    def seat(i: int, at: tuple[int, int] | None = None) -> str:
        label = names[i]
        if i in gone:
            who, since = gone[i]
            label = (
                f"{who}, then a bot" if at is None else who if at < since else f"a bot for {who}"
            )
        return f"seat {i} ({label})" if label else f"seat {i}"

    lines = [f"== {name} (double-dummy: every hand visible) =="]
    for hand in analysis.hands:
        lines.extend(_hand_text(hand, every, seat))
    if not analysis.hands:
        lines.append("No card was played.")
    lines.append(
        "Seats (mistakes / plays with a choice, points given away; avoidable: the hard bot, "
        "from the seat's view, plays a card that avoids the mistake):"
    )
    for row in analysis.seat_totals():
        lines.append(
            f"  {seat(row['seat'])}, team {row['seat'] & 1}: {row['mistakes']} / "
            f"{row['choices']}, {row['points_lost']} point{'s' * (row['points_lost'] != 1)}, "
            f"{row['avoidable']} avoidable"
        )
    return fold("\n".join(lines))


def _hand_text(
    hand: HandAnalysis, every: bool, seat: Callable[[int, tuple[int, int] | None], str]
) -> list[str]:
    team = hand.hakem & 1
    start = ""
    if hand.start:
        kot = 2 if hand.start > 0 else -2
        perhaps = _outcome_text(kot, team=team, hakem=hand.hakem)
        maybe = "" if hand.start_exact else f" (perhaps {perhaps})"
        start = (
            f"; at the deal: {_outcome_text(hand.start, team=team, hakem=hand.hakem)}{maybe} "
            f"for team {team}"
        )
    lines = [
        f"Hand {hand.hand + 1}: hakem {seat(hand.hakem, (hand.hand, 0))}, team {team}, "
        f"trump {Suit.parse(hand.trump).symbol}{start}."
    ]
    shown = hand.notes if every else hand.mistakes
    for note in shown:
        at = functools.partial(_seat_at, seat, (hand.hand, note.play))
        lines.append(_note_text(note, at, hakem=hand.hakem))
    if not hand.mistakes:
        lines.append("  No mistake: every card kept the hand's best outcome.")
    if hand.result is not None and hand.winner_team is not None:
        english, persian = RESULT_NAMES[hand.result]
        won, lost = hand.tricks[hand.winner_team], hand.tricks[1 - hand.winner_team]
        outcome = f"team {hand.winner_team} {won}–{lost}"
        if hand.result == "failed_bam" and won < lost:
            # (failed_bam=minus3: the hand goes to the other team, which took fewer tricks)
            outcome = (
                f"team {1 - hand.winner_team}'s bam failed at {lost}–{won}, "
                f"so team {hand.winner_team} wins the hand"
            )
        lines.append(f"  Result: {english} ({persian}), {outcome}.")
    else:
        lines.append(f"  Unfinished: tricks {hand.tricks[0]}–{hand.tricks[1]} so far.")
    return lines


def _seat_at(
    seat: Callable[[int, tuple[int, int] | None], str], at: tuple[int, int], i: int
) -> str:
    return seat(i, at)


def _note_text(note: PlayNote, seat: Callable[[int], str], *, hakem: int) -> str:
    card = Card.parse(note.card).pretty
    head = f"  Trick {note.trick}, {seat(note.seat)} {card}"
    team = note.seat & 1

    def say(outcome: int) -> str:  # for the player's team
        return _outcome_text(outcome, team=team, hakem=hakem)

    if note.unsettled:
        # Worse on its face, but a kot was not settled: the comparison is open, no blame.
        better = ", ".join(Card.parse(c).pretty for c in note.best)
        if note.kot_unsettled:  # this card's own kot question
            return (
                f"{head}: {say(note.outcome)} for team {team}, perhaps "
                f"{say(note.best_outcome)} as with {better}: too close to call, not a "
                "mistake (its kot was not settled within the search budget)."
            )
        return (  # the better cards' kot question: they are perhaps no better
            f"{head}: {say(note.outcome)} for team {team}; {better} perhaps "
            f"{say(note.best_outcome)}, perhaps the same: unsettled, not a mistake (their "
            "kot was not settled within the search budget)."
        )
    if not note.mistake:
        best = "best" if note.card in note.best else "keeps the outcome"
        left = 14 - note.trick
        perhaps = ""
        if note.kot_unsettled:  # its kot (or the kot against it) is still open
            perhaps = f", perhaps {say(2 if note.outcome > 0 else -2)} (kot not settled)"
        return (
            f"{head}: {best}; {say(note.outcome)}{perhaps} for team {team} "
            f"({note.tricks} of the {left} tricks left if all were played)."
        )
    better = ", ".join(Card.parse(c).pretty for c in note.best)
    return (
        f"{head}: MISTAKE, {say(note.best_outcome)} became {say(note.outcome)} "
        f"for team {note.seat & 1} ({_signed(note.best_points)} → {_signed(note.points)} "
        f"points); better: {better}.{_bot_text(note)}"
    )


def _bot_text(note: PlayNote) -> str:
    """What the hard bot, seeing only this seat's cards, plays instead."""
    if note.bot_card is None:
        return ""
    card = Card.parse(note.bot_card).pretty
    seeing = " The hard bot, seeing only this seat's cards,"
    if note.bot_card == note.card:
        return f"{seeing} would play the same card."
    if note.bot_avoids:  # not a mistake, though perhaps not one of the best cards either
        return f"{seeing} would play {card} and avoid this mistake."
    return f"{seeing} would play {card}: a mistake too."


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}"
