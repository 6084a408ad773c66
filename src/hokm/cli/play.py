"""``hokm play``: a game in the terminal against three bots, for people without a browser.

You sit South (seat 0); your partner is North (seat 2); East (seat 1, on your right) plays
after you, West (seat 3) before you. Play a card by its notation (``QH``, ``10h``, ``q♥``) or
by its number in your hand; ``a`` lets the bot play for you, ``?`` shows its suggestion,
``h`` shows the help, ``q`` quits (after asking). With ``--record FILE`` the game (finished or
not) is saved as a ``hokm-record/1`` file that ``hokm referee`` checks and ``hokm analyse`` judges.

    hokm play --level medium --preset classic --record game.json
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import fcntl
import io
import json
import os
import re
import signal
import stat
import sys
import textwrap
import threading
from collections.abc import Collection
from typing import Any, TextIO

from hokm.bots import LEVELS, Bot, RuleBot, legal_actions_of, make_bot
from hokm.bots.knowledge import current_winner
from hokm.cli import card_letters, clip, clip_quoted, seed_text
from hokm.cli.referee import UnreadableError, error_place, load_json, read_text
from hokm.engine import (
    PRESETS,
    Action,
    Card,
    ChooseTrump,
    Deal,
    DecideBam,
    DrawAces,
    Game,
    HokmError,
    Phase,
    Play,
    RequestRedeal,
    RuleSet,
    Seat,
    SeatView,
    SetHakem,
    Suit,
    latin_digits,
    new_seed,
    seven_nil_result,
    view_of,
)
from hokm.engine.events import Redealt
from hokm.engine.records import RESULT_NAMES, record_from_game, referee
from hokm.table import OPTION_MAXIMA, TableError, check_room_rules

__all__ = ["PlaySession", "register", "run"]

HUMAN = Seat(0)
NAMES = {0: "You", 1: "East", 2: "North", 3: "West"}
HELP = (
    "Commands: a card (QH, 10h, q♥) or its number in your hand (K, J or T alone: the one you "
    "can play) · a = the bot plays for you · ? = the bot's suggestion · h = help · q = quit"
)
# Lines of their own, each beginning with a Latin letter: a terminal that sets a line's
# direction by its first letter would show a line that began with Persian right to left.
TRUMP_HELP = (
    "Name trump by its number, letter or symbol: 1/S/♠ … 4/C/♣,",
    "or by its Persian name: پیک، دل، خشت، گشنیز.",
    "a = the bot names it for you · ? = the bot's choice, not naming it · q = quit",
)
BAM_HELP = (
    "y = go on for bam: play for all 13 tricks · n = stop at the {kot} · "
    "a = as the bot says · q = quit"
)
WIDTH = 78  # lines are wrapped between words to fit an 80-column terminal
MIN_WIDTH = 30  # ... or a narrower one, down to this (the table is 30 wide at its narrowest)
#: the suits' Persian names (RULES.md §1, ``Suit.persian``), as a Persian player may type
#: them, and خاج, another name for clubs
PERSIAN_SUITS = {suit.persian: suit for suit in Suit} | {"خاج": Suit.CLUBS}


class Quit(Exception):
    """The player quit (or the input ended)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against three bots",
        description="Play Hokm in the terminal: you and a bot partner against two bots.",
    )
    parser.add_argument(
        "--level", choices=LEVELS, default=None, help="bot level (medium; a resumed game's own)"
    )
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), help="rule preset (default platform-a)"
    )
    parser.add_argument("--target", type=int, help="points to win the game (preset's default)")
    parser.add_argument(
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help="a rule option over the preset (RULES.md §9; repeatable): "
        + ", ".join(GAME_OPTIONS)
        + "; on/off for the yes-or-no ones",
    )
    parser.add_argument(
        "--seed", type=seed_text, help="seed of the deals (default: a fresh random seed)"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="save the game as a hokm-record/1 file when it ends or you quit "
        "(then: hokm analyse FILE)",
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with a game saved by --record (its rules, seed and bots; saved back there)",
    )
    parser.set_defaults(func=run)


MAX_TARGET = OPTION_MAXIMA["target_points"]  # as a room's: a longer game is a typo
#: the rule options a terminal game uses (``--rule``); the clocks and the next game's hakem
#: have no use here (no clock runs, and a session is one game)
GAME_OPTIONS = (
    "target_points",
    "kot_points",
    "hakem_kot_points",
    "bam",
    "failed_bam",
    "first_hakem",
    "hakem_may_redeal_weak_five",
    "redeal_if_player_has_no_trump",
)
#: every rule option's name (RULES.md §9), of use here or not
RULE_OPTIONS = frozenset(f.name for f in dataclasses.fields(RuleSet))
_ON = {"on": True, "true": True, "yes": True, "1": True}
_OFF = {"off": False, "false": False, "no": False, "0": False}


def rule_options(texts: list[str]) -> dict[str, Any]:
    """The options of ``--rule NAME=VALUE`` arguments, typed; raises ``ValueError`` saying
    which one is wrong (a value out of range is the rules' own error, later).

    >>> rule_options(["bam=on", "kot_points=۴", "failed_bam=kot"])
    {'bam': True, 'kot_points': 4, 'failed_bam': 'kot'}
    """
    defaults = RuleSet()
    options: dict[str, Any] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise ValueError(f"--rule {clip(text)!r}: give NAME=VALUE, as --rule bam=on")
        if name not in RULE_OPTIONS:  # (a RuleSet's method or slot is no option)
            raise ValueError(
                f"unknown rule option {clip(name)!r}: one of {', '.join(GAME_OPTIONS)}"
            )
        if name not in GAME_OPTIONS:
            raise ValueError(f"{name} has no use in a terminal game (no clock, one game)")
        default = getattr(defaults, name)
        if isinstance(default, bool):
            switch = {**_ON, **_OFF}.get(latin_digits(value).lower())
            if switch is None:
                raise ValueError(f"{name} is on or off, not {clip(value)!r}")
            options[name] = switch
        elif isinstance(default, int):
            digits = latin_digits(value)
            if not re.fullmatch(r"-?[0-9]{1,6}", digits):
                raise ValueError(f"{name} is a whole number, not {clip(value)!r}")
            options[name] = int(digits)
        else:
            options[name] = value
    return options


def run(
    args: argparse.Namespace,
    *,
    inp: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    inp = _readable(sys.stdin if inp is None else inp)
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err  # refusals: not mixed into the game's text
    resume = getattr(args, "resume", None)
    if resume is not None:
        return _resume(args, resume, inp=inp, out=out, err=err)
    if args.target is not None and not 1 <= args.target <= MAX_TARGET:
        print(
            f"hokm play: --target is the points to win, from 1 to {MAX_TARGET} (not {args.target})",
            file=err,
        )
        return 2
    try:
        rules = RuleSet.preset(
            args.preset or "platform-a", **rule_options(getattr(args, "rule", None) or [])
        )
        if args.target is not None:
            rules = rules.replace(target_points=args.target)
        check_room_rules(rules)  # a room's maxima: a longer game is a typo
    except TableError as exc:
        print(f"hokm play: --rule: {exc.message}", file=err)
        return 2
    except ValueError as exc:  # (the rules' own errors are HokmError, a ValueError)
        print(f"hokm play: {clip_quoted(str(exc))}", file=err)
        return 2
    if args.seed is not None and not args.seed.strip():
        print("hokm play: --seed is empty: give a seed, or leave it out for a new one", file=err)
        return 2
    record = getattr(args, "record", None)
    if record is not None and not _writable_record(record, err):
        return 2
    session = PlaySession(
        rules,
        level=args.level or "medium",
        seed=args.seed or new_seed(),
        inp=inp,
        out=out,
        preset=_preset_of(rules),
    )
    return _play(session, record, out)


def _preset_of(rules: RuleSet) -> str | None:
    """The preset ``rules`` are, perhaps with another target (the rules line says it)."""
    return next(
        (
            p
            for p in sorted(PRESETS)
            if RuleSet.preset(p, target_points=rules.target_points) == rules
        ),
        None,
    )


def _resume(args: argparse.Namespace, path: str, *, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """``--resume FILE``: the game saved there, replayed by the referee, played on."""
    given = (
        ("--seed", args.seed),
        ("--preset", args.preset),
        ("--target", args.target),
        ("--rule", getattr(args, "rule", None)),
    )
    fixed = [o for o, v in given if v is not None]
    if fixed:
        print(
            f"hokm play: --resume goes on with the saved game's own rules and seed: leave out "
            f"{' and '.join(fixed)}",
            file=err,
        )
        return 2
    problem, session = _saved_session(path, level=args.level, inp=inp, out=out)
    if session is None:
        print(f"hokm play: --resume: {path}: {problem}", file=err)
        return 2
    record = getattr(args, "record", None)
    if record is not None and os.path.abspath(record) != os.path.abspath(path):
        if not _writable_record(record, err):
            return 2
    elif not (
        os.access(path, os.W_OK)
        and os.access(os.path.dirname(os.path.realpath(path)) or ".", os.W_OK)
    ):  # saved back there (a new file beside it, then renamed): said now, not after the game
        print(f"hokm play: --resume: {path}: cannot be written back (no permission)", file=err)
        return 2
    with open(path, "rb") as held:
        try:  # two terminals on one saved game: the second save would undo the first's hands
            if record is None or os.path.abspath(record) == os.path.abspath(path):
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(
                f"hokm play: --resume: {path}: this game is being played in another "
                "hokm play; go on there, or quit it first",
                file=err,
            )
            return 2
        return _play(session, record or path, out)


def _writable_record(record: str, err: TextIO) -> bool:
    """Whether ``--record FILE`` can be made (a new file in a folder that exists), else say
    why on ``err``."""
    problem = _unwritable(record) if record.strip() else "an empty file name"
    if problem:
        print(f"hokm play: --record: cannot write {record!r} ({problem})", file=err)
    return not problem


def _saved_session(
    path: str, *, level: str | None, inp: TextIO, out: TextIO
) -> tuple[str, PlaySession | None]:
    """The session of the game saved at ``path``, or why there is none."""
    # Read as the referee reads a file (a byte-order mark, the size limit, JSON nested too
    # deeply for Python's parser: a RecursionError traceback here before), said as it says.
    source = read_text(path)
    if isinstance(source, OSError):
        return f"cannot read it ({source.strerror})", None
    try:
        data = load_json(source)
        verdict = referee(data)
    except UnreadableError as exc:
        return f"not a record: {exc}", None
    except HokmError as exc:
        return str(exc), None
    except RecursionError:
        return "not a record: nested too deeply", None
    if not verdict.report["ok"] or verdict.game is None:
        error = verdict.report["error"]
        where = error_place(error)
        return f"the record breaks a rule{' at ' + where if where else ''}: {error['reason']}", None
    game = verdict.game
    if game.is_over:
        a, b = game.score
        return f"that game is over ({a}–{b}): nothing to go on with", None
    if game.hakem is None:
        return "no hand was dealt in it: start a new game instead", None
    try:
        check_room_rules(game.rules)  # a room's maxima: a longer game is a crafted file
    except TableError as exc:
        return f"its rules are out of range ({exc.message})", None
    assert isinstance(data, dict)  # (the referee took it: a JSON object)
    session = data.get("session")
    saved: dict[str, Any] = session if isinstance(session, dict) else {}
    seed = saved.get("seed")
    if not isinstance(seed, str) or not seed:
        # (records saved before the session was: the first hand's deal seed names it)
        first = (data.get("hands") or [{}])[0]
        deal_seed = first.get("seed") if isinstance(first, dict) else None
        seed = deal_seed.rpartition("/deal/")[0] if isinstance(deal_seed, str) else ""
    if not seed.strip() or not seed.isprintable() or len(seed) > 200:
        return "it does not say its seed (was it saved by hokm play --record?)", None
    chosen = level or saved.get("level")
    preset = _preset_of(game.rules)  # (perhaps with another target), for the rules line
    session = PlaySession(
        game.rules,
        level=chosen if chosen in LEVELS else "medium",
        seed=seed,
        inp=inp,
        out=out,
        preset=preset,
        game=game,
    )
    return "", session


def _play(session: PlaySession, record: str | None, out: TextIO) -> int:
    """Play the session's game; save it to ``record`` at its end or when it stops."""
    code = 0
    handlers = _on_hangup()
    try:
        try:
            try:
                session.play_game()
            finally:  # stopped for any reason: no signal may break off what follows (the save)
                _hold_signals()
        except Quit:
            with contextlib.suppress(OSError):
                print("\nGoodbye.", file=out)
        except KeyboardInterrupt:
            with contextlib.suppress(OSError):
                print("\nInterrupted.", file=out)
            code = 130
        except _Stopped as stop:  # the terminal closed (SIGHUP, or EIO) or a kill (SIGTERM)
            with contextlib.suppress(OSError):
                print(f"\nStopped ({signal.Signals(stop.signum).name}).", file=out)
            code = 128 + stop.signum
        except BrokenPipeError:
            code = 1
        except Exception:  # a bug: the game so far is still saved, then the traceback
            if record is not None:
                with contextlib.suppress(Exception):
                    session.save_record(record)
            raise
        if record is not None:  # (a second hang-up or kill now is ignored: see _on_hangup)
            saved = session.save_record(record)
            code = code or saved
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    return code


def _hold_signals() -> None:
    """From now on SIGHUP and SIGTERM are ignored (until :func:`_play` puts its handlers
    back): the game is over and is being saved."""
    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGHUP, signal.SIGTERM):
            signal.signal(number, signal.SIG_IGN)


class _Stopped(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_hangup() -> dict[int, Any]:
    """While a game is played, SIGHUP and SIGTERM end it like Ctrl-C (the record is saved);
    returns the handlers to put back. Only the main thread may set them."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def stop(signum: int, frame: object) -> None:
        # One is enough: a second (a closing terminal sends SIGHUP and then SIGTERM, or
        # SIGHUP twice) must not break off the saving the first one started.
        _hold_signals()
        raise _Stopped(signum)

    return {number: signal.signal(number, stop) for number in (signal.SIGHUP, signal.SIGTERM)}


def _unwritable(path: str) -> str | None:
    """Why the record could not be written to ``path`` (checked before the game), or None."""
    if os.path.isdir(path):
        return "it is a folder"
    if os.path.exists(path):
        return (
            "it already exists: choose another name, or go on with that game: "
            f"hokm play --resume {path}"
        )
    real = os.path.realpath(path)  # (a link is saved through, into its target's folder)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        return "no such folder"
    probe = f"{real}.tmp-{os.getpid()}"
    try:
        with open(probe, "w", encoding="utf-8"):
            pass
        os.remove(probe)
    except OSError as exc:
        return exc.strerror or "not writable"
    return None


class PlaySession:
    """One game between the terminal player (South) and three bots."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        level: str,
        seed: str,
        inp: TextIO,
        out: TextIO,
        preset: str | None = None,
        game: Game | None = None,
    ) -> None:
        self.rules = rules
        self.preset = preset
        self.level = level
        self.seed = seed
        self.inp = inp
        self.out = out
        self.bots: list[Bot] = [make_bot(level, seed=f"{seed}/{s}") for s in range(4)]
        self.helper = RuleBot(seed=f"{seed}/hint")
        self.resumed = game is not None  # a saved game played on (hokm play --resume)
        self.game = game if game is not None else Game(rules)

    # ------------------------------------------------------------------ output and input

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Print a line; ``wrap`` (unless it is a line of the table): between words, to fit
        the terminal (80 columns, or a narrower terminal's own width)."""
        width = self.width()
        if wrap and len(text) > width:
            text = "\n".join(_fill(line, width) for line in text.split("\n"))
        try:
            print(text.rstrip(), file=self.out, flush=True)
        except BrokenPipeError:
            raise
        except OSError as exc:  # the terminal is gone (EIO): as a hang-up, the game is saved
            raise _Stopped(signal.SIGHUP) from exc

    def width(self) -> int:
        """The width lines are wrapped to: :data:`WIDTH`, or less on a narrower terminal (asked
        at each line, so a window made narrower in the middle of a game is followed)."""
        try:
            if self.out.isatty():
                columns = os.get_terminal_size(self.out.fileno()).columns
                return max(MIN_WIDTH, min(WIDTH, columns - 2))
        except (AttributeError, OSError, ValueError):  # no terminal size (a pipe, a test)
            pass
        return WIDTH

    def ask(self, prompt: str) -> str:
        while True:
            text = self._line(prompt)
            if text.lower() not in ("q", "quit", "exit"):
                return text
            # Asked once more: a lone Q may have meant a queen.
            if self._line("Quit the game? y or q = quit, anything else = go on: ").lower() in (
                "y",
                "yes",
                "q",
            ):
                raise Quit

    def _line(self, prompt: str) -> str:
        try:
            print(prompt, end="", file=self.out, flush=True)
            line = self.inp.readline()
        except BrokenPipeError:
            raise
        except OSError as exc:  # a closed terminal window reads as EIO: a hang-up
            raise _Stopped(signal.SIGHUP) from exc
        if not line:
            raise Quit
        # Bytes that are not UTF-8 (a Latin-1 terminal, a pasted file): U+FFFD, said as such
        # ("not a card: '�'"), not as Python's escapes of them ('\udcff').
        text = _SURROGATES.sub("\ufffd", line).strip()
        if not self.inp.isatty():
            print(text, file=self.out)  # echo piped input so the transcript reads well
        return text

    # ------------------------------------------------------------------ the game

    def play_game(self) -> None:
        game = self.game
        self.say(f"Hokm — you (South) and North against East and West; bots: {self.level}.")
        self.say(f"Rules: {self._rules_line()}")
        self.say(f"Seed: {self.seed}", wrap=False)  # (copied from the line, as it is)
        self.say(HELP)
        if not self.resumed:
            self._first_hakem()
        elif game.phase is not Phase.DEAL:  # in the middle of a hand: where it stands
            played = sum(len(t.cards) for t in game.tricks) + len(game.trick)
            self._announce_hand()
            self.say(f"Resumed: {played} card{'s' * (played != 1)} played in this hand.")
            if game.phase is Phase.BAM:  # asked at once: the table and the hand first
                self._show_table(view_of(game, HUMAN))
        while not game.is_over:
            if game.phase is Phase.DEAL:
                assert game.hakem is not None
                n = sum(1 for a in game.history if isinstance(a, Deal))
                game.apply(Deal.from_seed(f"{self.seed}/deal/{n}", game.hakem))
                self._announce_hand()
                continue
            self._step()
        winner = game.winner_team
        assert winner is not None
        self.say(
            f"\nGame over: {'you and North' if winner == 0 else 'East and West'} win "
            f"{game.score[winner]}–{game.score[1 - winner]}."
        )

    def save_record(self, path: str) -> int:
        """Write the game as a hokm-record/1 file (atomically); 0, or 1 if it cannot be."""
        data = record_from_game(self.game)
        data["players"] = [NAMES[s] for s in range(4)]
        data["session"] = {"seed": self.seed, "level": self.level}  # for --resume
        real = os.path.realpath(path)  # through a link, to the file it names
        temp = f"{real}.tmp-{os.getpid()}"
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)  # a file saved over keeps its mode,
        except OSError:  # from its first byte (a private record is never readable by others)
            mode = 0o666  # (less the umask: as open() makes a new file)
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with open(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, ensure_ascii=False, indent=1)
            os.replace(temp, real)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.remove(temp)
            if not isinstance(exc, OSError):
                raise
            with contextlib.suppress(_Stopped, OSError):
                self.say(f"hokm play: the record could not be saved to {path!r}: {exc.strerror}")
            return 1
        hands = len(data["hands"])
        with contextlib.suppress(_Stopped, OSError):  # saved: the terminal may be gone
            # (not wrapped: the path is copied from the line)
            self.say(f"Record of {hands} hand{'s' * (hands != 1)} saved to {path}.", wrap=False)
            if any(hand.get("plays") for hand in data["hands"]):  # (quit before any card: no)
                self.say(f"`hokm analyse {path}` shows the plays that gave hands away.")
        return 0

    def _rules_line(self) -> str:
        r = self.rules
        # A preset with another target is still that preset: the line says the target.
        name = r.preset_name() or self.preset or "custom"
        bam = f"bam on ({r.failed_bam})" if r.bam else "no bam"
        line = f"{name}, to {r.target_points}, kot {r.kot_points}/{r.hakem_kot_points}, {bam}"
        if r.first_hakem != "ace_draw":
            line += f", first hakem {r.first_hakem}"
        redeals = [
            what
            for what, on in (
                ("weak five", r.hakem_may_redeal_weak_five),
                ("no trump", r.redeal_if_player_has_no_trump),
            )
            if on
        ]
        return line + (f", redeals: {', '.join(redeals)}" if redeals else "")

    def _first_hakem(self) -> None:
        game = self.game
        if self.rules.first_hakem == "ace_draw":
            draw = DrawAces.from_seed(self.seed)
            game.apply(draw)
            shown = " ".join(
                f"{NAMES[(draw.start + i) % 4]}:{c.pretty}" for i, c in enumerate(draw.cards)
            )
            self.say(f"Ace draw: {shown}")
        elif self.rules.first_hakem == "manual":  # the room owner's choice: the player's here
            game.apply(SetHakem(self._ask_first_hakem()))
        else:
            game.apply(SetHakem.from_seed(self.seed))
        assert game.hakem is not None
        self.say(f"First hakem: {NAMES[game.hakem]}.")

    def _ask_first_hakem(self) -> Seat:
        names = {name.lower(): seat for seat, name in NAMES.items()} | {"south": 0}
        while True:
            text = latin_digits(
                self.ask("Choose the first hakem: 0 you, 1 East, 2 North, 3 West (a = at random): ")
            ).lower()
            if text == "a":
                return SetHakem.from_seed(self.seed).hakem
            if text in names:
                return Seat(names[text])
            if text.isdecimal() and 0 <= int(text) <= 3:
                return Seat(int(text))
            self.say(f"  no seat {clip(text)}: type 0–3 or a name (you, East, North, West)")

    def _announce_hand(self) -> None:
        game = self.game
        assert game.hakem is not None
        self.say(
            f"\n=== Hand {game.hand_number + 1} · hakem {NAMES[game.hakem]} · "
            f"score you+North {game.score[0]} – {game.score[1]} East+West ==="
        )

    def _step(self) -> None:
        game = self.game
        if game.phase is Phase.BAM:
            assert game.bam_team is not None
            seat = HUMAN if game.bam_team == HUMAN.team else Seat(1)
        else:
            assert game.to_move is not None
            seat = game.to_move
        view = view_of(game, seat)
        action = self._human(view) if seat == HUMAN else self.bots[seat].act(view)
        before = len(game.tricks)
        hands = len(game.hand_results)
        events = game.apply(action)
        self._narrate(seat, action, before, hands)
        for event in events:
            if isinstance(event, Redealt) and event.reason == "no_trump" and event.seat is not None:
                who = NAMES[int(event.seat)]
                self.say(f"{who} {_verb(event.seat, 'hold')} no trump: the cards are dealt again.")

    def _narrate(self, seat: Seat, action: Action, tricks_before: int, hands: int) -> None:
        game = self.game
        if isinstance(action, ChooseTrump):
            self.say(
                f"{NAMES[seat]} {_verb(seat, 'name')} trump: "
                f"{action.suit.symbol} {action.suit.name.lower()}"
            )
        elif isinstance(action, RequestRedeal):
            self.say(f"{NAMES[seat]} {_verb(seat, 'ask')} for a new deal (weak five).")
        elif isinstance(action, DecideBam):
            if action.go:
                self.say(f"{NAMES[seat]} {_verb(seat, 'go', 'goes')} on for bam!")
            else:  # the hand is over: a kot, or a hakem-kot when the 7–0 is against the hakem
                kot = _result_name(self.game.hand_results[-1].result)
                self.say(f"{NAMES[seat]} {_verb(seat, 'stop')} at the {kot}.")
        elif isinstance(action, Play):
            self.say(f"  {NAMES[seat]} {_verb(seat, 'play')} {action.card.pretty}")
        # (a bam decision ends no trick: the hand's last trick was told as it was won)
        played = isinstance(action, Play)
        if played and (len(game.tricks) > tricks_before or len(game.hand_results) > hands):
            trick = self._last_trick(hands)
            if trick is not None:
                who = trick[0]
                self.say(f"  -> {NAMES[who]} {_verb(who, 'win')} the trick with {trick[1].pretty}")
        if len(game.hand_results) > hands:
            self._hand_over()

    def _last_trick(self, hands: int) -> tuple[Seat, Card] | None:
        game = self.game
        if len(game.hand_results) > hands:
            result = game.hand_results[-1]
            if not result.trick_winners:
                return None
            # The last trick of a finished hand: its winner and winning card.
            plays = result.plays
            n = len(result.trick_winners)
            cards = plays[4 * (n - 1) : 4 * n]
            winner = result.trick_winners[-1]
            leader = result.hakem if n == 1 else result.trick_winners[-2]
            return winner, cards[(winner - leader) % 4]
        t = game.tricks[-1]
        return t.winner, t.cards[(t.winner - t.leader) % 4]

    def _hand_over(self) -> None:
        r = self.game.hand_results[-1]
        w = r.winner_team
        who = "You and North" if w == 0 else "East and West"
        # The winners' tricks first ("win 7–3"); the score as the hand's header gives it,
        # team by team (winners first, it read "score 1–2" beside a header's "2 – 1").
        lost = r.points[1 - w]  # a failed bam's −3 (failed_bam=minus3): said, not only scored
        they = "you and North" if w == 1 else "East and West"
        penalty = f"; {they} score {lost} for the failed bam".replace("-", "−") if lost else ""
        self.say(
            f"Hand over: {who} win ({_result_name(r.result)}), tricks "
            f"{r.tricks[w]}–{r.tricks[1 - w]}, {r.points[w]} point{'s' * (r.points[w] != 1)}"
            f"{penalty}.",
        )
        # On a line of its own: wrapped, it was cut in two ("you+North 1" / "– 2 East+West").
        self.say(f"Score: you+North {r.score[0]} – {r.score[1]} East+West.")

    # ------------------------------------------------------------------ the human's turn

    def _human(self, view: SeatView) -> Action:
        if view.phase is Phase.TRUMP:
            return self._ask_trump(view)
        if view.phase is Phase.BAM:
            return self._ask_bam(view)
        return self._ask_card(view)

    def _ask_trump(self, view: SeatView) -> Action:
        self.say(f"You are hakem. Your first five: {self._cards(view.hand)}")
        redeal = any(a["type"] == "request_redeal" for a in view.legal)
        hint = self.helper.act(view)
        if redeal:  # on a line of its own: the prompt stays within 80 columns
            self.say("A weak five: r asks for a new deal.")
        while True:
            # (h is hearts here, as the prompt says: help is spelled out)
            text = self.ask("Name trump (1/S ♠, 2/H ♥, 3/D ♦, 4/C ♣; a = bot's choice; help): ")
            low = text.lower()
            if low == "help":
                for line in TRUMP_HELP:
                    self.say(line)
                if redeal:
                    self.say("r = ask for a new deal (weak five)")
                continue
            if low == "?":
                self.say(f"  the bot would {_describe(hint)}")
                continue
            if low == "a":
                return hint
            if not text:
                self.say("  type a suit's number 1–4 or its letter S, H, D or C (help for help)")
                continue
            if text.isdecimal() and len(text) == 1:  # Persian digits too
                if 1 <= int(text) <= 4:
                    return ChooseTrump(HUMAN, list(Suit)[int(text) - 1])
                self.say(f"  no suit number {int(text)}: choose 1–4 (help for help)")
                continue
            if low == "r":
                if redeal:
                    return RequestRedeal(HUMAN)
                if self.rules.hakem_may_redeal_weak_five:
                    self.say("  a new deal can be asked for only with a weak five")
                else:
                    self.say("  these rules have no new deal for a weak five")
                continue
            persian = text.replace("ي", "ی").replace("ك", "ک")  # an Arabic keyboard's letters
            if persian in PERSIAN_SUITS:
                return ChooseTrump(HUMAN, PERSIAN_SUITS[persian])
            try:
                return ChooseTrump(HUMAN, Suit.parse(text))
            except HokmError as exc:
                self.say(f"  {clip_quoted(str(exc))} (help for help)")

    def _ask_bam(self, view: SeatView) -> Action:
        hint = self.helper.decide_bam(view)
        while True:
            text = self.ask(
                f"7–0! Go on for bam (all 13 tricks)? y/n (bot says {'y' if hint else 'n'}): "
            ).lower()
            if text in ("y", "yes", "n", "no", "a"):
                go = hint if text == "a" else text.startswith("y")
                return DecideBam(HUMAN, go)
            if text in ("h", "help", "?"):
                # (your team's 7–0: a hakem-kot when the hakem is on the other team)
                assert view.hakem is not None
                kot = _result_name(seven_nil_result(int(HUMAN) & 1, view.hakem))
                self.say(BAM_HELP.format(kot=kot))
                continue
            self.say("  answer y or n (h for help)")

    def _ask_card(self, view: SeatView) -> Action:
        self._show_table(view)
        legal = {a.card for a in legal_actions_of(view) if isinstance(a, Play)}
        while True:
            text = self.ask("Your card: ")
            if text.lower() in ("h", "help"):
                self.say(HELP)
                continue
            if text in ("?", "a"):
                card = self.helper.choose_card(view)
                if text == "?":
                    self.say(f"  the bot would play {card.pretty}")
                    continue
                return Play(HUMAN, card)
            card_or_error = _parse_choice(text, view.hand, legal)
            if isinstance(card_or_error, str):
                self.say(f"  {card_or_error}")
                continue
            if card_or_error not in legal:
                led = view.trick[0][1].suit
                named = ""
                if text.isdecimal():  # a number is a place in the hand; say which card that is
                    named = f"card {text} is {card_or_error.pretty}; "
                self.say(
                    f"  {named}you must follow suit {led.symbol}: play one of "
                    f"{self._cards([c for c in view.hand if c in legal])}",
                )
                continue
            return Play(HUMAN, card_or_error)

    def _cards(self, cards: Any) -> str:
        return " ".join(c.pretty for c in cards)

    def _show_table(self, view: SeatView) -> None:
        assert view.trump is not None and view.hakem is not None
        trump = view.trump
        us, them = view.tricks_won
        self.say("")
        self.say(f"Trick {len(view.tricks) + 1} · trump {trump.symbol} · hakem {NAMES[view.hakem]}")
        self.say(
            f"tricks you+North {us} – {them} East+West · score {view.score[0]}–{view.score[1]} "
            f"(to {self.rules.target_points})"
        )
        played = {seat: card for seat, card in view.trick}
        sizes = view.hand_sizes

        def slot(seat: int) -> str:
            card = played.get(Seat(seat))
            return card.pretty if card is not None else "··"

        # Each card next to its player, towards the middle of the table (44 columns, or as
        # wide as a narrower terminal, the sides at least "West (13) 10♠" wide).
        table = max(30, min(44, self.width()))
        side = (table - 4) // 2
        self.say(f"{'North (' + str(sizes[2]) + ')':^{table}}", wrap=False)
        self.say(f"{slot(2):^{table}}", wrap=False)
        west, east = f"West ({sizes[3]}) {slot(3):>3}", f"{slot(1):<3} East ({sizes[1]})"
        self.say(f"{west:>{side}}    {east:<{side}}", wrap=False)
        self.say(f"{slot(0):^{table}}", wrap=False)
        self.say(f"{'You':^{table}}", wrap=False)
        if view.trick:
            winner, card = current_winner(view.trick, trump)
            self.say(
                f"  led {view.trick[0][1].suit.symbol}; {NAMES[winner]} winning with {card.pretty}"
            )
        legal = {Card.parse(a["card"]) for a in view.legal if a["type"] == "play"}
        # Brackets only when a card is to be played: shown for the bam question (a resumed
        # game), every card was bracketed as one that "cannot be played now".
        playing = any(a["type"] == "play" for a in view.legal)
        shown = [
            f"{i}:{c.pretty}" if c in legal or not playing else f"({i}:{c.pretty})"
            for i, c in enumerate(view.hand, 1)
        ]
        self.say("Your hand: " + "  ".join(shown))
        if playing and len(legal) < len(view.hand):
            self.say("           (cards in brackets cannot be played now)")


def _fill(line: str, width: int) -> str:
    """``line`` wrapped between words to ``width``, its continuation lines indented two more.

    A score ("you+North 1 – 2 East+West") is never cut at its dash.

    >>> print(_fill("  Your hand: 1:Q♠  2:8♠  3:3♠", 18))
      Your hand: 1:Q♠
        2:8♠  3:3♠
    >>> print(_fill("=== Hand 1 · score you+North 0 – 0 East+West ===", 32))
    === Hand 1 · score you+North
      0 – 0 East+West ===
    """
    if len(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip()))
    filled = textwrap.fill(
        line.replace(" – ", "\0–\0"),  # (as long, and no space to break at)
        width,
        subsequent_indent=indent + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return filled.replace("\0–\0", " – ")


_SURROGATES = re.compile("[\ud800-\udfff]")


def _readable(inp: TextIO) -> TextIO:
    """The input (standard input), reading bytes that are not UTF-8 as U+FFFD: in a UTF-8
    locale its errors are strict, and a Latin-1 terminal's é ended the game with a traceback."""
    if isinstance(inp, io.TextIOWrapper) and inp.errors == "strict":
        with contextlib.suppress(ValueError, OSError):
            inp.reconfigure(errors="replace")
    return inp


def _verb(seat: Seat, verb: str, third: str | None = None) -> str:
    """``verb`` for You, its third person (``third``, else verb + s) for the other seats."""
    if seat == HUMAN:
        return verb
    return third if third is not None else verb + "s"


def _describe(action: Action) -> str:
    """What a bot's trump-step action does, for the ``?`` hint."""
    if isinstance(action, ChooseTrump):
        return f"name {action.suit.symbol} {action.suit.name.lower()}"
    if isinstance(action, RequestRedeal):
        return "ask for a new deal"
    return str(action)


def _result_name(result: str) -> str:
    """A hand's result by its name (RULES.md §1: hakem-kot, par-bam), "normal" for a plain win.

    >>> _result_name("hakem_kot"), _result_name("par_bam"), _result_name("normal")
    ('hakem-kot', 'par-bam', 'normal')
    """
    return "normal" if result == "normal" else RESULT_NAMES[result][0]


def _parse_choice(text: str, hand: tuple[Card, ...], legal: Collection[Card] = ()) -> Card | str:
    """The card meant by ``text`` (notation, 1-based number in ``hand``, or a bare ``K``, ``J``
    or ``T`` when one card of that rank can be played), or an error.

    >>> from hokm.engine import parse_cards
    >>> hand = tuple(parse_cards("JH JS 10C"))
    >>> _parse_choice("j", hand, legal=parse_cards("JS 10C")).pretty
    'J♠'
    >>> _parse_choice("j", hand, legal=hand)
    'which one? J♥ or J♠'
    >>> _parse_choice("t", hand, legal=hand).pretty
    '10♣'
    >>> _parse_choice("A", tuple(parse_cards("AH AS 2C")), legal=parse_cards("AH AS"))
    'an ace alone is not a card here: type AH or AS'
    >>> _parse_choice("j", hand, legal=parse_cards("10C")) in hand  # refused by the caller
    True
    >>> ten = tuple(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10C JD"))
    >>> _parse_choice("10", ten, legal=ten)
    '10: card number 10 (J♦) or your 10♣? type JD or TC'
    >>> _parse_choice("10", ten[:8] + ten[9:] + ten[8:9], legal=ten).pretty  # the 10th is the ten
    '10♣'
    >>> _parse_choice("۱۰", ten, legal=ten)  # Persian digits: the same question
    '10: card number 10 (J♦) or your 10♣? type JD or TC'
    >>> two = tuple(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S 10C"))
    >>> _parse_choice("10", two, legal=two)  # the 10th is a ten, and another is held
    '10: card number 10 (10♣) or your 10♠? type TC or TS'
    """
    if not text:
        return "type a card such as QH or its number; h for help"
    tens = [c for c in hand if str(c)[:-1] == "T"]
    text = latin_digits(text)  # (۱۰ is 10: the same question)
    others = [c for c in tens if c != hand[9]] if len(hand) >= 10 else []
    if text == "10" and others:
        # card number 10, or a ten? Said, never guessed.
        named = " or ".join(c.pretty for c in others)
        return (
            f"10: card number 10 ({hand[9].pretty}) or your {named}? type {hand[9]} or {others[0]}"
        )
    if text.isdecimal():
        n = int(text)
        if 1 <= n <= len(hand):
            return hand[n - 1]
        return f"no card number {n}: choose 1–{len(hand)}"
    rank = text.upper()
    if rank in ("K", "J", "T"):  # not A or Q: 'a' and 'q' are commands; 10 is a card number
        held = [c for c in hand if str(c)[:-1] == rank]
        if not held:
            return f"you hold no {'10' if rank == 'T' else rank}"
        playable = [c for c in held if c in legal]
        if len(playable) > 1:
            return "which one? " + " or ".join(c.pretty for c in playable)
        return (playable or held)[0]  # none playable: the caller says what can be played
    if rank in ("A", "Q"):  # (lower case: the commands 'a' and 'q')
        held = [c for c in hand if str(c)[:-1] == rank and c in legal] or [
            c for c in hand if str(c)[:-1] == rank
        ]
        name = "an ace" if rank == "A" else "a queen"
        if not held:
            return f"you hold no {'ace' if rank == 'A' else 'queen'}"
        return f"{name} alone is not a card here: type {' or '.join(map(str, held))}"
    try:
        card = Card.parse(card_letters(text))
    except HokmError:
        return f"not a card: {clip(text)!r}; type one such as QH, 10♥ or its number (h for help)"
    if card not in hand:
        return f"you do not hold {card.pretty}"
    return card
