"""The ``hokm`` command: one subcommand per module of this package.

Each module named in :data:`COMMANDS` defines ``register(subparsers)``, which adds its
parser and sets ``func`` to a callable taking the parsed arguments and returning an exit code.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import importlib.metadata
import io
import os
import re
import select
import sys
import textwrap
import typing
from collections.abc import Callable, Sequence

from hokm.engine import Suit, latin_digits

__all__ = [
    "COMMANDS",
    "clip",
    "clip_quoted",
    "count_option",
    "main",
    "out_of_range",
    "seed_text",
    "utf8_text",
]

#: the most characters of a user's input an error message repeats (then "…")
ECHO_LIMIT = 40

COMMANDS: tuple[str, ...] = (
    "serve",
    "play",
    "simulate",
    "arena",
    "tournament",
    "referee",
    "analyse",
    "verify",
    "bench",
    "accounts",
    "prune",
)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors repeat at most :data:`ECHO_LIMIT` characters of what was
    typed ("invalid int value: 'xxxx…'"); the subcommands' parsers are of this class too."""

    def error(self, message: str) -> typing.NoReturn:
        super().error(clip_quoted(message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hokm", description="Hokm (حکم): the Persian trick-taking card game.")
    parser.add_argument("--version", action="version", version=f"hokm {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"hokm.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"hokm.cli.{name}":
                raise
            continue  # that command is not built yet
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    _tolerate_narrow_encodings()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said with the command's own usage, not the top-level one
        command = _subparser(parser, getattr(args, "command", None)) or parser
        command.error(f"unrecognized arguments: {clip(' '.join(extra))}")
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = func(args)
    except KeyboardInterrupt:
        _say_interrupted(args.command)
        return 130
    except BrokenPipeError:
        if not _stdout_closed():
            raise  # another pipe (a socket, a worker) broke: not the reader going away
        return 141  # as a shell reports a process ended by SIGPIPE
    except OSError as exc:
        if exc.errno not in _FULL or not _stdout_full():
            raise
        with contextlib.suppress(OSError, ValueError):
            print(f"hokm {args.command}: cannot write the output: {exc.strerror}", file=sys.stderr)
        return 1
    return int(code or 0)


#: what writing to a file fails with when the disk (or a quota, or a device) is full or broken
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _stdout_full() -> bool:
    """Whether standard output cannot be written (``hokm arena … > report.txt`` on a full
    disk); then what is left to print goes nowhere, and Python's own flush at exit does not
    complain either."""
    try:
        fd = sys.stdout.fileno()
        os.write(fd, b"\n")  # (the output is lost anyway)
    except OSError as exc:
        if exc.errno not in _FULL:
            return False
    except (AttributeError, ValueError):  # no file descriptor (called in-process)
        return False
    else:
        return False
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    return True


def _say_interrupted(command: str) -> None:
    """Ctrl-C: said on standard error, on a line of its own on a terminal (a progress line
    may be open there, and without it the shell's prompt came right after the ``^C``)."""
    with contextlib.suppress(OSError, ValueError):
        lead = "\n" if sys.stderr.isatty() else ""
        print(f"{lead}hokm {command}: interrupted", file=sys.stderr, flush=True)


def _tolerate_narrow_encodings() -> None:
    """A terminal that cannot show ♠ or Persian (an ASCII or Latin-1 locale) gets '?' for
    them instead of a traceback in the middle of the output. A UTF-8 one writes a file name
    that is not UTF-8 (``caf\\xe9.json``, which Python reads as a lone surrogate) as its own
    bytes, as ``ls`` and a C locale's Python do, not with a UnicodeEncodeError traceback."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if not isinstance(stream, io.TextIOWrapper):
            continue
        if encoding != "utf8":
            stream.reconfigure(errors="replace")
        elif stream.errors == "strict":
            stream.reconfigure(errors="surrogateescape")


def _subparser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser | None:
    """The parser of the command ``name`` (None if there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            sub: argparse.ArgumentParser = action.choices[name]
            return sub
    return None


def _stdout_closed() -> bool:
    """True if standard output's reader went away (``hokm … | head``); then what is left to
    print goes nowhere, and Python's own flush at exit does not complain either."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no file descriptor (called in-process)
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    if not any(events & select.POLLERR for _, events in poller.poll(0)):
        return False  # the reader is still there: the broken pipe was another one
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    return True


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1.

    >>> count(1, "run"), count(3, "board")
    ('1 run', '3 boards')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` as an error message repeats it: at most ``limit`` characters, then "…".

    >>> clip("rule"), clip("x" * 50)
    ('rule', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…')
    """
    return text if len(text) <= limit else text[:limit] + "…"


# a piece in quotes as repr writes one; not an apostrophe inside a word ("the bot's seed")
_QUOTED = re.compile(r"(?<!\w)(?:'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\")(?!\w)")


def clip_quoted(message: str, limit: int = ECHO_LIMIT) -> str:
    """A message with every quoted piece of input in it (``'…'`` or ``"…"``, as ``repr``
    quotes) clipped to ``limit`` characters.

    >>> clip_quoted("unknown bot '" + "x" * 50 + "': choose one of rule, search")
    "unknown bot 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…': choose one of rule, search"
    >>> prose = "a bot's seed comes from --seed, not from the hakem's options; " * 2
    >>> clip_quoted(prose) == prose
    True
    """

    def shorten(match: re.Match[str]) -> str:
        quote = match.group(0)[0]
        inner = match.group(1) if quote == "'" else match.group(2)
        return f"{quote}{clip(inner, limit)}{quote}"

    return _QUOTED.sub(shorten, message)


def card_letters(text: str) -> str:
    """Cards as people type or as the commands print them (``Q♠ 10♥``, ``۱۰♦`` on a Persian
    keyboard) in notation letters (``QS 10H``), which :meth:`hokm.engine.Card.parse` reads.

    >>> card_letters("Q♠ ۱۰♦")
    'QS 10D'
    """
    for suit in Suit:
        text = text.replace(suit.symbol, suit.value)
    return latin_digits(text)


def fold(text: str, width: int = 80) -> str:
    """Lines longer than ``width`` broken after a comma, semicolon or colon where one fits
    (between words otherwise), the rest of a line indented four spaces deeper than it: a
    readable account fits an 80-column terminal without splitting "seat 3 wins (tricks 0–3)".

    >>> print(fold("  Trick 1: " + ", ".join(f"seat {s} 10♠" for s in range(4)) + ": won", 40))
      Trick 1: seat 0 10♠, seat 1 10♠,
          seat 2 10♠, seat 3 10♠: won
    """
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip())) + "    "
        pieces = _pieces(line)
        current = pieces[0]
        for piece in pieces[1:]:
            if len(current) + 1 + len(piece) <= width:
                current += " " + piece
            else:
                out.append(current)
                current = indent + piece
        out.append(current)
    folded: list[str] = []
    for line in out:  # a piece still too long: between words
        if len(line) <= width:
            folded.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        wrapped = textwrap.wrap(
            line,
            width=width,
            subsequent_indent=indent if indent.endswith("    ") else indent + "    ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        folded.extend(wrapped or [line])
    return "\n".join(folded)


def _pieces(line: str) -> list[str]:
    """``line`` split after each ", ", "; " or ": " that is not inside parentheses."""
    pieces, start, depth = [], 0, 0
    for i, ch in enumerate(line):
        depth += (ch == "(") - (ch == ")")
        if ch in ",;:" and depth == 0 and line[i + 1 : i + 2] == " ":
            pieces.append(line[start : i + 1])
            start = i + 2
    pieces.append(line[start:])
    return pieces


def whole_number(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``, else a clear error
    naming ``what`` ("a port is from 0 to 65535, not 99999")."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} is from {low} to {high}, not {clip(text)}")
        return value

    return parse


def count_option(option: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` for a count such as ``--hands``: a whole number, else an error
    naming the option's range (``1e20`` is no whole number). The range itself is checked by
    the command with :func:`out_of_range`, so that a refusal is its own one line, exit 2."""

    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not a whole number: {text!r} ({option} is from {low} to {high})"
            ) from None

    return parse


def out_of_range(option: str, value: int, low: int, high: int) -> str | None:
    """Why ``value`` is refused for the count ``option`` (None: it is from ``low`` to
    ``high``).

    >>> out_of_range("--hands", 10**20, 1, 1_000_000)
    '--hands is from 1 to 1000000, not 100000000000000000000'
    >>> out_of_range("--hands", 5, 1, 1_000_000) is None
    True
    """
    if low <= value <= high:
        return None
    return f"{option} is from {low} to {high}, not {clip(str(value))}"


def not_blank(refusal: str) -> Callable[[str], str]:
    """An argparse ``type``: any text but an empty or blank one (an unset shell variable in
    ``--seed "$SEED"`` or ``--db "$DB"``), refused with ``refusal``."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(refusal)
        return text

    return parse


def utf8_text(what: str) -> Callable[[str], str]:
    """An argparse ``type``: text that is UTF-8. Bytes that are not (a Latin-1 terminal's
    ``café``) reach Python as lone surrogates, which cannot be hashed or printed as text.
    """

    def parse(text: str) -> str:
        if _SURROGATE.search(text):
            raw = text.encode("utf-8", "surrogateescape") if _ESCAPED.fullmatch(text) else b""
            shown = f": {clip(repr(raw))}" if raw else ""
            raise argparse.ArgumentTypeError(f"{what} is UTF-8 text; this is not{shown}")
        return text

    return parse


_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED = re.compile("(?:[^\ud800-\udfff]|[\udc80-\udcff])*")  # surrogateescape's own


def seed_text(text: str) -> str:
    """An argparse ``type`` for a seed: UTF-8 text (it is hashed as such: bytes that are not
    ended ``hokm play`` and ``hokm simulate`` with a traceback), and not a blank one (an unset
    ``"$SEED"``), which would quietly give everyone the same deals."""
    not_blank("a seed is not empty: give any word or number")(text)
    return utf8_text("a seed")(text)


def _version() -> str:
    try:
        return importlib.metadata.version("hokm")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a tree
        return "unknown"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
