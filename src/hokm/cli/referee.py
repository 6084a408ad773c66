"""``hokm referee FILE... [--json]``: check recorded games (``hokm-record/1``) and score them.

Exit status: 0 when every record is valid, 1 when a record breaks a rule (the error names
hand, play, seat, card and reason), 2 when a file cannot be read or is not a record.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from typing import Any, BinaryIO

from hokm.cli import fold
from hokm.engine import Card, Game, HokmError, RuleSet, Seat
from hokm.engine.events import (
    BamDecided,
    BamOffered,
    GameEnded,
    HakemChosen,
    HandEnded,
    HandStarted,
    Redealt,
    TrickWon,
    TrumpChosen,
)
from hokm.engine.records import RESULT_NAMES, Verdict, referee
from hokm.engine.rules import PRESETS

__all__ = [
    "UnreadableError",
    "describe",
    "error_place",
    "judge_text",
    "left_of",
    "load_json",
    "players_of",
    "read_text",
    "register",
    "run",
    "say_outcome",
]

EXIT_OK, EXIT_BROKEN, EXIT_MALFORMED = 0, 1, 2
MAX_BYTES = 16 * 1024 * 1024  # a record of even a very long game is far smaller


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "referee",
        help="check recorded games and score them",
        description="Check every deal and play of hokm-record/1 files and score the games. "
        "Exit status 0: all valid; 1: a record breaks a rule; 2: unreadable or malformed input.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-': stdin)")
    parser.add_argument("--json", action="store_true", help="one JSON report per file and line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = EXIT_OK
    try:
        for i, name in enumerate(args.files):
            again = name == "-" and "-" in args.files[:i]  # (it was read to its end)
            source = (
                UnreadableError("standard input ('-') is read once") if again else read_text(name)
            )
            report, text, code = judge_text(source, name=name)
            status = max(status, code)
            say_outcome(
                "referee", name, report, text, json_lines=args.json, failed=code == EXIT_MALFORMED
            )
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep the interpreter's flush quiet
    return status


def read_text(name: str) -> str | Exception:
    """A file's text ('-': standard input), or the error that stopped reading it."""
    try:
        if name == "-":
            # As bytes, decoded strictly as a file is: the text stream of a C.UTF-8 locale
            # reads bytes that are not UTF-8 as surrogates ("\udcff") instead of refusing them.
            raw: BinaryIO | None = getattr(sys.stdin, "buffer", None)
            if raw is not None:
                data = raw.read(MAX_BYTES + 1)
                if len(data) > MAX_BYTES:  # (cut anywhere, perhaps inside a character)
                    return UnreadableError(f"standard input is larger than {MAX_BYTES} bytes")
                text = data.decode("utf-8-sig")
            else:
                text = sys.stdin.read(MAX_BYTES + 1).removeprefix("\ufeff")
        else:  # utf-8-sig: a byte-order mark (some Windows editors write one) is not an error
            with open(name, encoding="utf-8-sig") as handle:
                text = handle.read(MAX_BYTES + 1)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return exc
    if len(text) <= MAX_BYTES and not text.strip():  # (too large: said as such, by load_json)
        what = "standard input" if name == "-" else "the file"
        return UnreadableError(f"{what} is empty: a record is a JSON object")
    return text


def judge_text(source: str | Exception, *, name: str = "record") -> tuple[dict[str, Any], str, int]:
    """Judge a record's text: the JSON report, the readable account, and the exit status."""
    try:
        data = load_json(source)
        verdict = referee(data)
    except (UnreadableError, HokmError, RecursionError) as exc:
        return _malformed(name, str(exc))
    except Exception as exc:  # a referee must never show a traceback
        return _malformed(name, f"internal error while judging: {exc!r}")
    code = EXIT_OK if verdict.report["ok"] else EXIT_BROKEN
    text = describe(verdict, name=name, players=players_of(data), left=left_of(data))
    return verdict.report, text, code


def players_of(data: object) -> list[str | None]:
    """The names per seat a record may carry (``players``: a name, or null for a bot)."""
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list) or len(players) != 4:
        return [None] * 4
    return [_printable(p) if isinstance(p, str) else None for p in players]


def left_of(data: object) -> list[tuple[int, str | None, int, int]]:
    """Who left the game and where, as a server's record says (``left``: seat, name, hand,
    plays), as ``(seat, name, hand, plays)``; entries that do not fit are passed over (the
    field is not part of the rules, and a referee judges the cards)."""
    entries = data.get("left") if isinstance(data, dict) else None
    found: list[tuple[int, str | None, int, int]] = []
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict):
            continue
        seat, name, hand, plays = e.get("seat"), e.get("name"), e.get("hand"), e.get("plays")
        numbers = (seat, hand, plays)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in numbers):
            continue
        assert isinstance(seat, int) and isinstance(hand, int) and isinstance(plays, int)
        if 0 <= seat < 4 and hand >= 0 and 0 <= plays <= 52:
            found.append((seat, _printable(name) if isinstance(name, str) else None, hand, plays))
    return found


def _printable(name: str) -> str | None:
    """A name fit for a terminal: no control characters (escape sequences, new lines)."""
    kept = "".join(c for c in name if c.isprintable() or c == "\u200c")
    return " ".join(kept.split())[:40] or None


class UnreadableError(Exception):
    """A file that cannot be read, or is not JSON."""


def load_json(source: str | Exception) -> object:
    """The JSON data of a file's text as read by :func:`read_text` (its error if reading failed,
    an empty text included).

    Raises :class:`UnreadableError` with a short reason.
    """
    if isinstance(source, Exception):
        raise UnreadableError(_describe_exception(source))
    if len(source) > MAX_BYTES:
        raise UnreadableError(f"the file is larger than {MAX_BYTES} bytes")
    try:
        return json.loads(source)
    except (ValueError, RecursionError) as exc:
        if "int_max_str_digits" in str(exc) or "integer string conversion" in str(exc):
            raise UnreadableError("not valid JSON for a record: a number far too long") from exc
        raise UnreadableError(f"not valid JSON: {_describe_exception(exc)}") from exc


def _describe_exception(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc) or type(exc).__name__


def _malformed(name: str, reason: str) -> tuple[dict[str, Any], str, int]:
    error = {"hand": None, "play": None, "seat": None, "card": None, "reason": reason}
    report = {"ok": False, "malformed": True, "error": error}
    return report, f"{name}: cannot judge: {reason}", EXIT_MALFORMED


# ---------------------------------------------------------------------------- readable account


def describe(
    verdict: Verdict,
    *,
    name: str = "record",
    players: list[str | None] | None = None,
    left: list[tuple[int, str | None, int, int]] | None = None,
) -> str:
    """A readable, trick-by-trick account of a judged record, in English; seats are numbered
    0–3 as in the record, and the ``players`` named there are listed once, with those who
    ``left`` the game (:func:`left_of`) and where."""
    lines = [f"== {name} =="]
    game = verdict.game
    if game is not None:
        lines.append(f"Rules: {_rules_text(game.rules)}")
        if players and any(players):
            named = ", ".join(f"seat {i} {p or '(bot)'}" for i, p in enumerate(players))
            lines.append(f"Players: {named}; team 0 is seats 0 and 2, team 1 seats 1 and 3.")
        for seat, who, hand, plays in left or ():
            lines.append(
                f"Seat {seat}: {who or 'its player'} left the game in hand {hand + 1} after "
                f"{plays} card{'' if plays == 1 else 's'} of it; a bot played the seat from "
                "then on."
            )
        lines.extend(_events_text(game))
    report = verdict.report
    if not report["ok"]:
        if game is not None and game.current_trick:
            table = ", ".join(_seat_card(s, c) for s, c in game.current_trick)
            lines.append(f"  On the table: {table}.")
        lines.append(_error_text(report["error"]))
        return fold("\n".join(lines))
    assert game is not None
    if game.hand_number < len(report["hands"]):
        lines.extend(_in_progress_text(game))
    a, b = (_signed(x) for x in report["score"])
    if report["game_over"]:
        lines.append(f"Game over: team {report['winner_team']} wins, {a}–{b}.")
    else:
        lines.append(f"Score {a}–{b} (team 0–team 1); the game is not over.")
    lines.append("The record is valid.")
    return fold("\n".join(lines))


def _rules_text(rules: RuleSet) -> str:
    preset = rules.preset_name()
    if preset is None:  # a preset played to another target (hokm play --target) says so
        for name in PRESETS:
            base = RuleSet.preset(name)
            if rules.replace(target_points=base.target_points) == base:
                preset = f"{name} with another target"
                break
    parts = [f"preset {preset}" if preset else "custom rules"]
    parts.append(f"target {rules.target_points} point{'s' * (rules.target_points != 1)}")
    parts.append(f"kot {rules.kot_points}, hakem-kot {rules.hakem_kot_points}")
    parts.append(f"bam on (failed bam: {rules.failed_bam})" if rules.bam else "bam off")
    if rules.hakem_may_redeal_weak_five:
        parts.append("weak-five redeal on")
    if rules.redeal_if_player_has_no_trump:
        parts.append("no-trump redeal on")
    return ", ".join(parts)


def _seat_card(seat: int, card: Card) -> str:
    return f"seat {seat} {card.pretty}"


def _result_text(event: HandEnded) -> str:
    english, persian = RESULT_NAMES[event.result]
    won = event.tricks[event.winner_team]
    lost = event.tricks[1 - event.winner_team]
    points = ", ".join(
        f"team {t} {'+' if p > 0 else ''}{_signed(p)}" for t, p in enumerate(event.points) if p
    )
    outcome = f"team {event.winner_team} wins the hand {won}–{lost}"
    if event.result == "failed_bam" and event.tricks[event.winner_team] < 7:
        # (failed_bam=minus3: the hand goes to the other team, which took fewer tricks)
        bammer = 1 - event.winner_team
        outcome = (
            f"team {bammer}'s bam failed at {event.tricks[bammer]}–{won}, so team "
            f"{event.winner_team} wins the hand"
        )
    return (
        f"  Result: {english} ({persian}); {outcome}; points: {points or 'none'}; "
        f"score {_signed(event.score[0])}–{_signed(event.score[1])}; "
        f"next hakem seat {int(event.next_hakem)}."
    )


def _signed(number: int) -> str:
    """A score as read (a failed bam can make one negative): ``−3``, not ``-3`` after a dash."""
    return f"−{-number}" if number < 0 else str(number)


def _events_text(game: Game) -> list[str]:
    lines: list[str] = []
    started: set[int] = set()
    for event in game.events:
        if isinstance(event, HakemChosen):
            if event.method == "ace_draw" and event.start is not None:
                drawn = ", ".join(
                    _seat_card((event.start + i) % 4, c) for i, c in enumerate(event.draw)
                )
                lines.append(f"Ace draw: {drawn}: seat {int(event.hakem)} is the first hakem.")
            else:
                how = "as recorded" if event.method == "record" else event.method
                lines.append(f"First hakem: seat {int(event.hakem)} ({how}).")
        elif isinstance(event, HandStarted):
            team = Seat(event.hakem).team
            again = ", dealt again" if event.hand in started else ""
            started.add(event.hand)
            lines.append(
                f"Hand {event.hand + 1}{again}: hakem seat {int(event.hakem)} (team {team})."
            )
        elif isinstance(event, Redealt):
            why = (
                "the hakem's first five hold no card of 10 or higher"
                if event.reason == "weak_five"
                else f"seat {event.seat} holds no trump"
            )
            lines.append(f"  Redeal: {why}.")
        elif isinstance(event, TrumpChosen):
            lines.append(
                f"  Trump: {event.suit.symbol} {event.suit.name.lower()} ({event.suit.persian})."
            )
        elif isinstance(event, TrickWon):
            cards = ", ".join(
                _seat_card((event.leader + i) % 4, c) for i, c in enumerate(event.cards)
            )
            lines.append(
                f"  Trick {event.trick + 1}: {cards}: seat {int(event.winner)} wins "
                f"(tricks {event.tricks[0]}–{event.tricks[1]})."
            )
        elif isinstance(event, BamOffered):
            lines.append(f"  Team {event.team} is at 7–0 and may go for bam (بام).")
        elif isinstance(event, BamDecided):
            choice = "goes for bam" if event.go else "stops (no bam)"
            lines.append(f"  Seat {int(event.seat)} {choice}.")
        elif isinstance(event, HandEnded):
            lines.append(_result_text(event))
        elif isinstance(event, GameEnded):
            lines.append(f"Team {event.winner_team} reaches the target and wins the game.")
    return lines


def _in_progress_text(game: Game) -> list[str]:
    lines = ["  The hand is in progress"]
    if game.trump is None:
        lines[0] += ": the hakem has not named trump yet."
    elif game.bam_team is not None and game.bam_decision is None:
        lines[0] += f": team {game.bam_team} has not decided on bam yet."
    else:
        table = ", ".join(_seat_card(s, c) for s, c in game.current_trick) or "none"
        lines[0] += (
            f": {len(game.tricks)} trick{'' if len(game.tricks) == 1 else 's'} played "
            f"({game.tricks_won[0]}–{game.tricks_won[1]}); on the table: {table}."
        )
    return lines


def say_outcome(
    command: str,
    name: str,
    report: Mapping[str, Any],
    text: str,
    *,
    json_lines: bool,
    failed: bool,
) -> None:
    """One file's outcome: a JSON line naming the file, or the readable account (which says
    a failure's reason itself). A failure's reason is said on standard error too when standard
    output is not the terminal (JSON for a machine, or the account going to a file), so a
    person still sees it."""
    if json_lines:
        print(json.dumps({"file": name, **report}, ensure_ascii=False), flush=True)
    else:
        print(text, flush=True)
    if failed and (json_lines or not sys.stdout.isatty()):
        place = error_place(report["error"])  # where, as the account says it
        where = f" at {place}" if place else ""
        print(f"hokm {command}: {name}{where}: {report['error']['reason']}", file=sys.stderr)


def _error_text(error: dict[str, Any]) -> str:
    place = error_place(error)
    return f"INVALID{' at ' + place if place else ''}: {error['reason']}."


_NTH = ("1st", "2nd", "3rd", "4th")


def error_place(error: Mapping[str, Any]) -> str:
    """Where a referee's error is, counted from 1 as people do: the hand, the trick and the
    card's place in it, the seat (a play the hand had no room for has no trick or seat).

    >>> error_place({"hand": 1, "play": 5, "seat": 2, "card": "KH"})
    "hand 2, trick 2 (play 6, the trick's 2nd card), seat 2, card KH"
    >>> error_place({"hand": 0, "play": 52, "seat": None, "card": "AS"})
    'hand 1, play 53, card AS'
    """
    where = [f"hand {error['hand'] + 1}"] if error.get("hand") is not None else []
    play = error.get("play")
    if play is not None and error.get("seat") is not None:  # every card of a trick has a seat
        where.append(f"trick {play // 4 + 1} (play {play + 1}, the trick's {_NTH[play % 4]} card)")
    elif play is not None:
        where.append(f"play {play + 1}")
    if error.get("seat") is not None:
        where.append(f"seat {error['seat']}")
    if error.get("card") is not None:
        where.append(f"card {error['card']}")
    return ", ".join(where)
