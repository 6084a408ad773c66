"""What every ``hokm`` command shares: the version, a closed pipe, argument checks."""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import io
import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hokm.cli import main


def test_a_reader_that_went_away_ends_the_command_quietly() -> None:
    """``hokm … | head -1``: no traceback when the pipe closes under the command."""
    read, write = os.pipe()
    os.close(read)  # every write now fails with EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "hokm", "verify", "--seed", "x", "--hakem", "0"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write)
    assert proc.returncode == 141
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--hands", "5"],
        ["verify", "--seed", "example", "--commitment", hashlib.sha256(b"example").hexdigest()],
    ],
)
def test_an_output_that_cannot_be_written_is_said_in_one_line(argv: list[str]) -> None:
    """``hokm … > report.txt`` on a full disk (here /dev/full): a line on stderr and exit 1,
    not an OSError traceback."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "hokm", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    assert proc.returncode == 1
    assert proc.stderr == f"hokm {argv[0]}: cannot write the output: No space left on device\n"


def test_version_and_a_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("hokm ")
    with pytest.raises(SystemExit) as done:
        main(["serve", "--port", "99999"])
    assert done.value.code == 2
    assert "a port is from 0 to 65535, not 99999" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--log-level", "loud"], "invalid choice: 'loud'"),
        (["--bot-delay", "-1"], "--bot-delay is from 0 to 86400 seconds, not -1"),
        (["--bot-workers", "-2"], "--bot-workers is from 0 to 64, not -2"),
        (["--full-gc-seconds", "x"], "not a number of seconds: 'x'"),
        # a full collection every nanosecond would hold the event loop for good
        (
            ["--full-gc-seconds", "1e-9"],
            "--full-gc-seconds is 0 (CPython's own heuristic) or from 10 to 86400 seconds, "
            "not 1e-9",
        ),
        (["--full-gc-seconds", "9.5"], "or from 10 to 86400 seconds, not 9.5"),
        (["--bot-delay", "86401"], "--bot-delay is from 0 to 86400 seconds, not 86401"),
        (["--allow-origin", "play.example.com"], "not an origin: 'play.example.com'"),
        (["--allow-origin", "https://a.example/game"], "not an origin: 'https://a.example/game'"),
        (["--allow-origin", "ftp://a.example"], "not an origin: 'ftp://a.example'"),
        (["--allow-origin", "https://a.example:99999"], "not an origin"),
        (["--allow-origin", "https://*.example.com"], "not an origin"),
        (["--allow-origin", "https://x y"], "not an origin"),
        (["--db", ""], "--db is empty"),  # it used to mean the default database, silently
        (["--prune-days", "-1"], "--prune-days is from 0 to 36500, not -1"),
        (["--prune-days", "1.5"], "not a whole number: '1.5'"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", *argv])
    assert done.value.code == 2 and said in capsys.readouterr().err


def test_the_full_collection_period_is_0_or_at_least_10_seconds() -> None:
    from hokm.cli import build_parser

    for given, kept in (("0", 0.0), ("10", 10.0), ("300", 300.0), ("86400", 86400.0)):
        args = build_parser().parse_args(["serve", "--full-gc-seconds", given])
        assert args.full_gc_seconds == kept
    assert build_parser().parse_args(["serve", "--bot-delay", "1e-9"]).bot_delay == 1e-9


def test_an_allowed_origin_is_written_as_browsers_send_it() -> None:
    """``--allow-origin https://Play.Example.com/`` used to be kept as typed, so the browser's
    ``Origin: https://play.example.com`` never matched it and every socket was refused."""
    from hokm.cli.serve import origin
    from hokm.server.ws import origin_allowed

    allowed = (
        origin("https://Play.Example.com:443/"),  # a browser leaves the default port out
        origin("http://[0:0::1]:8080"),
        origin("http://Bücher.example:80"),
    )
    assert allowed == (
        "https://play.example.com",
        "http://[::1]:8080",
        "http://xn--bcher-kva.example",
    )
    for sent in allowed:
        assert origin_allowed({"host": "x:1", "origin": sent}, allowed)
    assert not origin_allowed({"host": "x:1", "origin": "https://evil.example"}, allowed)
    assert origin(" * ") == "*"


def test_an_origin_from_the_environment_is_checked_like_the_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOKM_ALLOWED_ORIGINS", "https://ok.example, ok.example/x")
    assert main(["serve", "--db", str(tmp_path / "h.db"), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hokm serve: HOKM_ALLOWED_ORIGINS: not an origin: 'ok.example/x'"), err


def test_a_wrong_sockets_per_address_is_named_as_that(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """HOKM_SOCKETS_PER_ADDRESS that is not a whole number from 1 stops the start in one line
    naming it (it was blamed on HOKM_ALLOWED_ORIGINS; 0 or less refused every socket)."""
    argv = ["serve", "--db", str(tmp_path / "h.db"), "--port", "0"]
    for value in ("abc", "0", "-5", "2.5"):
        monkeypatch.setenv("HOKM_SOCKETS_PER_ADDRESS", value)
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == (
            "hokm serve: HOKM_SOCKETS_PER_ADDRESS is a whole number of sockets from 1, "
            f"not {value!r}\n"
        ), err


def test_a_short_secret_is_refused_in_one_line_and_an_empty_one_is_unset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """HOKM_SECRET signs guests' tokens: a short one (``x``, a word) could be found by trying
    and any guest impersonated, and was taken as it was; blank is the database's, as unset
    (``"  "`` was a secret of two spaces)."""
    from hokm.server import Settings

    argv = ["serve", "--db", str(tmp_path / "h.db"), "--port", "0"]
    for value in ("x", "hokm-secret"):
        monkeypatch.setenv("HOKM_SECRET", value)
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"hokm serve: HOKM_SECRET is {len(value)} characters;"), err
        assert err.count("\n") == 1, err
    monkeypatch.setenv("HOKM_SECRET", "  ")
    assert Settings().secret is None
    monkeypatch.setenv("HOKM_SECRET", " a-long-enough-secret ")
    assert Settings().secret == "a-long-enough-secret"


def test_serve_says_in_one_line_why_it_cannot_use_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong --db is one clear line and exit 2 before the server starts (it used to be a
    traceback from the server's start-up): not a database file, an unsupported kind, a
    PostgreSQL server that is not there."""
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database\n" * 100)
    for db, said in (
        (str(not_db), "file is not a database"),
        ("mysql://x/y", "unsupported database mysql://x/y"),
        ("postgresql://nobody:secret@127.0.0.1:1/x", "cannot open the database"),
        (":memory:", "an in-memory SQLite database cannot hold the server's games"),  # a crash
        ("sqlite://", "an in-memory SQLite database"),
    ):
        assert main(["serve", "--db", db, "--port", "0"]) == 2
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and "Traceback" not in err, err
        assert "secret" not in err  # the password is not shown
    # A database of another version (a column of the accounts' tables missing): refused
    # before the server starts, naming it.
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as conn:
        conn.execute(
            "CREATE TABLE hokm_sessions (token_hash VARCHAR(64) PRIMARY KEY,"
            " player_id VARCHAR(64) NOT NULL, created_at BIGINT NOT NULL)"
        )
    conn.close()
    assert main(["serve", "--db", str(old), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "made by another version of hokm: table hokm_sessions lacks expires_at" in err, err


def test_serve_refuses_a_database_another_server_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second ``hokm serve`` on the database a first one serves (the old one still running,
    a second ``make run`` on another port) would load the same rooms and write over them:
    one line and exit 2. The operator's tools work beside a running server."""
    from hokm.storage import SqlStorage

    db = tmp_path / "served.db"

    async def serve_then_try() -> None:
        first = SqlStorage(str(db))
        await first.start()
        await first.hold_serving(shared=False)
        try:
            assert await asyncio.to_thread(main, ["serve", "--db", str(db), "--port", "0"]) == 2
            err = capsys.readouterr().err
            assert len(err.strip().splitlines()) == 1, err
            assert "another hokm serve uses this database" in err and str(db) in err, err
            listed = ["accounts", "list", "--db", str(db)]
            assert await asyncio.to_thread(main, listed) == 0
        finally:
            await first.close()

    asyncio.run(serve_then_try())


def test_serve_says_in_one_line_why_it_cannot_listen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A busy port or a host that is not this machine's: one line and exit 2, before the
    database is created (uvicorn printed six lines and exited 3, after creating it)."""
    db = tmp_path / "never.db"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for argv, said in (
            (["--port", str(port)], f"port {port} on 127.0.0.1 is in use: stop what uses it"),
            (["--port", str(port)], "another port (--port N; with make: make run PORT=N)"),
            (["--host", "999.1.1.1"], "cannot listen on '999.1.1.1'"),
            (["--host", "[::1]"], "write an IPv6 address without brackets: --host ::1"),
            (["--host", "127.0.0.1:8000"], "on its own: --host 127.0.0.1 --port 8000"),
        ):
            assert main(["serve", "--db", str(db), *argv]) == 2
            err = capsys.readouterr().err
            lines = err.strip().splitlines()
            assert len(lines) == 1 and said in lines[0], err
    assert not db.exists()


def test_a_stray_argument_is_refused_with_the_commands_own_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["verify", "a.json", "b.json"])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert err.startswith("usage: hokm verify") and "unrecognized arguments: b.json" in err


def test_an_ascii_terminal_gets_question_marks_not_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hokm", "verify", "--seed", "x", "--hakem", "0"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=60,
        check=False,
    )
    # exit 1: a seed with nothing to compare proves nothing (the deal is still shown)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert b"?" in proc.stdout  # the suit symbols, replaced


@pytest.mark.parametrize(
    "command", ["arena rule naive", "simulate", "play", "tournament rule naive"]
)
def test_an_empty_seed_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--seed "$SEED"`` with SEED unset would give every run the same deals, quietly."""
    with pytest.raises(SystemExit) as done:
        main([*command.split(), "--seed", " "])
    assert done.value.code == 2
    assert "--seed: a seed is not empty" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        "arena rule naive",
        "simulate",
        "play",
        "tournament rule naive",
        "verify --hakem 0",
    ],
)
def test_a_seed_that_is_not_utf8_is_refused(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--seed café`` typed on a Latin-1 terminal reaches Python as 'caf\\udce9', which
    cannot be hashed: play, simulate and verify ended with a traceback, the arena with the
    codec's own message."""
    with pytest.raises(SystemExit) as done:
        main([*command.split(), "--seed", "caf\udce9"])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert "--seed: a seed is UTF-8 text; this is not: b'caf\\xe9'" in err


def test_the_real_command_refuses_a_seed_of_latin1_bytes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hokm", "simulate", "--hands", "1", "--seed", b"caf\xe9"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert proc.stderr.endswith(b"a seed is UTF-8 text; this is not: b'caf\\xe9'\n")


def test_a_file_name_that_is_not_utf8_is_written_back_as_its_bytes(tmp_path: Path) -> None:
    """In a UTF-8 locale standard output is strict: a record named caf\\xe9.json (a Latin-1
    name) ended ``hokm referee`` with a UnicodeEncodeError traceback at its name."""
    from hokm.engine import Deal, Game, Phase, RuleSet, Seat, record_from_game

    game = Game(RuleSet(target_points=1), hakem=Seat(0))
    game.apply(Deal.from_seed("latin", Seat(0)))
    game.choose_trump("S")
    while game.phase is Phase.PLAY:
        game.play(game.legal_cards()[0])
    (tmp_path / os.fsdecode(b"caf\xe9.json")).write_text(json.dumps(record_from_game(game)))
    for command in ("referee", "verify"):
        proc = subprocess.run(
            [sys.executable, "-m", "hokm", command, b"caf\xe9.json", b"x\xff.json"],
            capture_output=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # strict, as a UTF-8 locale's
            timeout=60,
            check=False,
        )
        assert b"Traceback" not in proc.stderr and proc.returncode == 2
        if command == "referee":
            assert b"== caf\xe9.json ==" in proc.stdout and b"The record is valid." in proc.stdout
            assert b"x\xff.json: cannot judge: no such file" in proc.stdout


LONG = "x" * 200
CLIPPED = "x" * 40 + "…"


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--hands", LONG],  # argparse's own "invalid int value"
        ["simulate", "--preset", LONG],  # argparse's "invalid choice"
        ["simulate", LONG],  # an unrecognized argument
        ["bench", "--scale", LONG],
        ["analyse", "--kot-nodes", "9" * 200, "game.json"],
        ["serve", "--allow-origin", LONG],
    ],
)
def test_a_parsing_error_repeats_at_most_40_characters_of_the_input(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    err = capsys.readouterr().err.splitlines()[-1]
    assert done.value.code == 2
    assert ("9" * 40 + "…" if "--kot-nodes" in argv else CLIPPED) in err
    assert "x" * 41 not in err and "9" * 41 not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", LONG, "rule", "--boards", "1"],
        ["arena", "rule", f"rule:lead_queen={LONG}", "--boards", "1"],
        ["arena", "rule", f"rule:{LONG}=1", "--boards", "1"],
        ["tournament", "rule", LONG, "--boards", "1"],
        ["bench", LONG],
        ["verify", "--seed", "s", "--hakem", "0", "--seat", "1", "--cards", LONG],
    ],
)
def test_a_commands_own_error_repeats_at_most_40_characters_of_the_input(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert f"'{CLIPPED}'" in err and "x" * 41 not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["simulate", "--hands", "1" + "0" * 20], "--hands is from 1 to 1000000, not 1" + "0" * 20),
        (["simulate", "--hands", "1000001"], "--hands is from 1 to 1000000, not 1000001"),
        (["arena", "rule", "naive", "--boards", "100001"], "--boards is from 1 to 100000"),
        (["arena", "rule", "naive", "--games", "10001"], "--games is from 0 to 10000, not 10001"),
        (["tournament", "rule", "naive", "--boards", "10" * 30], "--boards is from 1 to 100000"),
        (["bench", "--repeat", "101"], "--repeat is from 1 to 100, not 101"),
    ],
)
def test_a_count_beyond_its_maximum_is_refused_in_one_line_naming_the_option(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``simulate --hands 100000000000000000000`` played for ever; now it is refused before
    anything runs."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"hokm {argv[0]}: {said}")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["simulate", "--hands", "1e20"],
            "not a whole number: '1e20' (--hands is from 1 to 1000000)",
        ),
        (["arena", "a", "b", "--boards", "2.5"], "'2.5' (--boards is from 1 to 100000)"),
        (["arena", "a", "b", "--games", "x"], "'x' (--games is from 0 to 10000)"),
        (["bench", "--repeat", "1e3"], "'1e3' (--repeat is from 1 to 100)"),
    ],
)
def test_a_count_that_is_no_whole_number_is_refused_with_the_options_range(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and said in capsys.readouterr().err


def test_an_empty_redis_prefix_is_the_default_not_no_prefix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HOKM_REDIS_PREFIX set but empty (as a deployment's template leaves it) gave keys with
    no prefix at all, mixing deployments on one Redis; empty is the default ``hokm:``, as an
    empty HOKM_REDIS_URL is no Redis."""
    from hokm.server import Settings

    for value, prefix in (("", "hokm:"), ("  ", "hokm:"), ("site-b:", "site-b:")):
        monkeypatch.setenv("HOKM_REDIS_PREFIX", value)
        assert Settings().redis_prefix == prefix
    monkeypatch.delenv("HOKM_REDIS_PREFIX")
    assert Settings().redis_prefix == "hokm:"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("command", ["simulate", "arena", "tournament", "analyse", "bench"])
def test_ctrl_c_is_said_on_a_line_of_its_own(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C in a long command: exit 130 with a line on stderr, not silence that left the
    progress line open and the shell's prompt right after the ``^C``."""
    module = importlib.import_module(f"hokm.cli.{command}")

    def interrupted(args: object) -> int:
        print("\rboards 379/20000", end="", file=sys.stderr)  # a progress line, still open
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "run", interrupted)
    argv = {
        "simulate": ["simulate"],
        "arena": ["arena", "rule", "naive"],
        "tournament": ["tournament", "rule", "naive"],
        "analyse": ["analyse", "game.json"],
        "bench": ["bench"],
    }[command]
    assert main(argv) == 130
    assert capsys.readouterr().err == f"\rboards 379/20000hokm {command}: interrupted\n"
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(argv) == 130
    assert terminal.getvalue() == f"\rboards 379/20000\nhokm {command}: interrupted\n"
