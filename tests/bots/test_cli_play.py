"""``hokm play`` driven through its input: a whole game, bad input, quitting."""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hokm.analysis import analyse
from hokm.cli import play
from hokm.cli.analyse import analyse_text
from hokm.engine import parse_cards
from hokm.engine.records import judge


def _run(lines: str, **options: object) -> tuple[int, str]:
    args = argparse.Namespace(
        level=options.get("level", "medium"),
        preset=options.get("preset"),
        target=options.get("target", 1),
        seed=options.get("seed", "cli-test"),
        record=options.get("record"),
        resume=options.get("resume"),
        rule=options.get("rule"),
    )
    out, err = io.StringIO(), io.StringIO()
    code = play.run(args, inp=io.StringIO(lines), out=out, err=err)
    assert not err.getvalue() or (code == 2 and not out.getvalue())  # refusals: stderr only
    return code, out.getvalue() + err.getvalue()


def test_a_whole_game_played_by_the_auto_command_ends_with_a_winner() -> None:
    """Answering 'a' at every prompt plays a full game to the target."""
    code, text = _run("a\n" * 400, target=2, preset="classic")
    assert code == 0
    assert "Game over:" in text
    assert "Trick 1 · trump" in text and "hakem" in text and "Your hand:" in text
    assert any(symbol in text for symbol in "♠♥♦♣")


def test_bad_input_is_explained_and_nothing_changes() -> None:
    """Unknown cards, numbers out of range and cards not held get a clear message."""
    code, text = _run("ZZ\n♥\n99\nAS\nh\n?\nq\n", seed="bad-input")
    assert code == 0
    assert "not a card: 'ZZ'" in text
    assert "not a card: '♥'" in text  # as typed, not as read ('H')
    assert "no card number 99" in text
    assert "you do not hold" in text or "must follow suit" in text or "Your card: AS" in text
    assert "Commands:" in text
    assert "the bot would play" in text
    assert "Goodbye." in text
    assert "Traceback" not in text


def test_the_trump_prompt_explains_empty_lines_and_takes_persian_digits() -> None:
    """Seed 'd' makes South the first hakem: an empty line, a new deal the rules do not
    have and a number out of range are explained; ۴ (Persian four) names clubs."""
    code, text = _run("\nr\n۵\n۴\nq\ny\n", seed="d", target=7)
    assert code == 0 and "You are hakem" in text
    assert "type a suit's number 1–4" in text
    assert "these rules have no new deal" in text
    assert "no suit number 5" in text
    assert "You name trump: ♣ clubs" in text


def test_a_lone_rank_that_cannot_be_played_says_what_can() -> None:
    """K, J or T alone when no card of that rank may be played is answered with the suit to
    follow, not with a question about the unplayable cards."""
    hand = tuple(parse_cards("KH KD 2S"))
    assert play._parse_choice("K", hand, legal=parse_cards("2S")) in hand
    assert play._parse_choice("K", hand, legal=hand) == "which one? K♥ or K♦"
    assert play._parse_choice("J", hand, legal=hand) == "you hold no J"


def test_cards_by_number_and_notation_are_accepted() -> None:
    """Typing every number 1–13 in turn always finds a legal card, so the game goes on."""
    numbers = "".join(f"{n}\n" for n in range(1, 14)) * 40
    code, text = _run(numbers, seed="numbers", target=1)
    assert code == 0
    assert "Game over:" in text
    assert "  You play " in text


def test_end_of_input_quits_cleanly() -> None:
    code, text = _run("")
    assert code == 0
    assert text.rstrip().endswith("Goodbye.")


def test_hokm_play_runs_as_a_command_reading_stdin() -> None:
    """The real command, fed by a pipe, plays a short game against easy bots."""
    proc = subprocess.run(
        [sys.executable, "-m", "hokm", "play", "--level", "easy", "--target", "1", "--seed", "x"],
        input="a\n" * 200,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over:" in proc.stdout


def test_a_game_ended_by_a_hangup_or_a_kill_is_saved(tmp_path: Path) -> None:
    """The terminal closing (SIGHUP) or a kill (SIGTERM) ends the game like Ctrl-C: the record
    so far is saved (it was lost)."""
    for number in (signal.SIGTERM, signal.SIGHUP):
        path = tmp_path / f"{number.name}.json"
        proc = subprocess.Popen(
            [sys.executable, "-m", "hokm", "play", "--seed", "x", "--record", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        for line in proc.stdout:  # wait for the first hand's header: the game is on
            if "=== Hand 1" in line:
                break
        proc.send_signal(number)
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 128 + number, out
        assert f"Stopped ({number.name})." in out and f"saved to {path}" in out
        record = json.loads(path.read_text(encoding="utf-8"))
        assert judge(record)["ok"] and not judge(record)["game_over"]


def test_a_target_out_of_range_is_refused_by_its_option_name() -> None:
    for target in (0, 22, 10**23):  # a game to 10²³ was taken
        code, text = _run("", target=target)
        assert code == 2
        assert f"--target is the points to win, from 1 to 21 (not {target})" in text


def test_refusals_go_to_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``hokm play --target 0 >/dev/null`` said nothing: its refusals went to stdout."""
    from hokm.cli import main

    assert main(["play", "--target", "0"]) == 2
    said = capsys.readouterr()
    assert not said.out and "--target" in said.err
    assert main(["simulate", "--hands", "0"]) == 2
    said = capsys.readouterr()
    assert not said.out and "--hands is from 1 to 1000000, not 0" in said.err


def test_the_game_is_saved_as_a_record_that_the_referee_and_the_analysis_accept(
    tmp_path: Path,
) -> None:
    """--record writes the whole game; the referee scores it as the terminal said, and the
    analysis judges it. A game quit in the middle is saved too, unfinished."""
    path = tmp_path / "game.json"
    code, text = _run("a\n" * 400, target=2, seed="record", record=str(path))
    assert code == 0 and "Game over:" in text and f"saved to {path}" in text
    record = json.loads(path.read_text(encoding="utf-8"))
    report = judge(record)
    assert report["ok"] and report["game_over"]
    high, low = sorted(report["score"], reverse=True)
    assert f"win {high}–{low}." in text  # the winners' points first
    assert len(analyse(record).hands) == len(record["hands"])
    _, account, status = analyse_text(path.read_text(encoding="utf-8"))
    assert status == 0 and "seat 0 (You), team 0:" in account and "seat 3 (West)" in account

    quit_path = tmp_path / "quit.json"
    code, text = _run("a\n" * 5 + "q\n", seed="record", record=str(quit_path))
    assert code == 0 and "Goodbye." in text
    partial = json.loads(quit_path.read_text(encoding="utf-8"))
    assert judge(partial)["ok"] and not judge(partial)["game_over"]
    assert "hokm analyse" in text
    # Quit before any card: saved, but no analysis is offered of a hand with no play.
    code, text = _run("q\ny\n", seed="d", record=str(tmp_path / "early.json"))  # South: hakem
    assert code == 0 and "saved to" in text and "hokm analyse" not in text

    code, text = _run("", record=str(tmp_path / "no" / "such" / "game.json"))
    assert code == 2 and "cannot write" in text and "Hokm —" not in text
    assert not (tmp_path / "no").exists()

    # An existing file is never overwritten: the earlier game stays as it was.
    before = path.read_bytes()
    code, text = _run("a\n" * 400, target=2, seed="other", record=str(path))
    assert code == 2 and "already exists" in text and "Hokm —" not in text
    assert path.read_bytes() == before


class _Interrupting(io.StringIO):
    """Input that answers a few prompts, then is interrupted (Ctrl-C)."""

    def __init__(self, lines: str, after: int) -> None:
        super().__init__(lines)
        self.left = after

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().readline()


def test_an_interrupted_game_is_still_saved(tmp_path: Path) -> None:
    path = tmp_path / "interrupted.json"
    args = argparse.Namespace(
        level="medium", preset=None, target=3, seed="ctrl-c", record=str(path)
    )
    out = io.StringIO()
    code = play.run(args, inp=_Interrupting("a\n" * 50, after=8), out=out)
    assert code == 130 and "Interrupted." in out.getvalue()
    record = json.loads(path.read_text(encoding="utf-8"))
    report = judge(record)
    assert report["ok"] and not report["game_over"]
    assert sum(len(h["plays"]) for h in record["hands"]) >= 8
    assert [p.name for p in tmp_path.iterdir()] == ["interrupted.json"]  # no temp file left


def test_the_trump_prompt_helps_without_choosing_and_quitting_is_asked_once_more() -> None:
    """At the trump prompt help and ? only inform (once they named a suit); Persian suit
    names are understood; a lone q asks before quitting (it may have meant a queen)."""
    code, text = _run("help\n?\nr\nدل\nq\nn\nq\ny\n", seed="h2", level="easy", target=7)
    assert code == 0
    assert "or by its Persian name: پیک، دل، خشت، گشنیز." in text and "the bot would name" in text
    # No line begins with Persian: a terminal would show such a line right to left.
    assert not [line for line in text.splitlines() if line[:1] and "\u0600" <= line[0] <= "\u06ff"]
    assert "these rules have no new deal" in text
    assert text.count("You name trump:") == 1 and "You name trump: ♥ hearts" in text
    assert text.count("Quit the game?") == 2 and text.rstrip().endswith("Goodbye.")
    assert "Trick 1 · trump ♥" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_redeal_for_a_player_without_trump_names_that_player() -> None:
    code, text = _run("a\n" * 600, seed="nt5", level="easy", preset="classic", target=3)
    assert code == 0 and "West holds no trump: the cards are dealt again." in text


def test_declining_a_bam_tells_the_last_trick_once_and_h_explains_the_question() -> None:
    """At 7–0 the player is asked about bam; h explains the choices; n stops at the kot, and
    the trick that made it 7–0 is told once (it used to be told again after the answer)."""
    code, text = _run(
        "a\n" * 7 + "h\nn\n" + "a\n" * 60, preset="classic", seed="b12", level="random"
    )
    assert code == 0 and "Go on for bam" in text, text[-2000:]
    assert "y = go on for bam: play for all 13 tricks · n = stop at the kot ·" in text
    before, after = text.split("You stop at the kot.", 1)
    last = [
        line for line in before.splitlines() if "wins the trick" in line or "win the trick" in line
    ][-1]
    assert last not in after.split("Hand over:", 1)[0]
    # The score on a line of its own: wrapped, it was cut in two at the end of a line.
    assert "Hand over: You and North win (kot), tricks 7–0, 2 points.\nScore: you+North " in after


def test_at_a_seven_nil_against_the_hakem_stopping_is_called_a_hakem_kot() -> None:
    """RULES.md §1: 7–0 against the hakem's team is a hakem-kot, in the help too (it said
    "n = stop at the kot" whichever team held the hakem)."""
    code, text = _run(
        "a\n" * 7 + "h\nn\n" + "a\n" * 60, preset="classic", seed="hk13", level="random"
    )
    said = " ".join(text.split())
    assert code == 0 and "n = stop at the hakem-kot · a = as the bot says" in said, said
    assert "You stop at the hakem-kot." in text


def test_an_empty_seed_or_record_name_is_refused_before_the_game() -> None:
    for options, said in (
        ({"seed": " "}, "--seed is empty"),
        ({"record": ""}, "--record: cannot write '' (an empty file name)"),
    ):
        code, text = _run("a\n" * 5, **options)
        assert code == 2 and said in text and "Trick 1" not in text, text


def test_a_quit_game_is_resumed_where_it_stopped_and_saved_back(tmp_path: Path) -> None:
    """``--resume FILE`` goes on with a game saved by ``--record`` (its rules, seed and bots),
    from the card where it stopped, and saves it back there; a finished game, a file that
    is not a record, or --seed beside it are refused in one line."""
    path = tmp_path / "g.json"
    code, _ = _run("a\n" * 6 + "q\ny\n", target=3, seed="resume", record=str(path))
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert code == 0 and saved["session"] == {"seed": "resume", "level": "medium"}
    before = judge(saved)
    assert before["ok"] and not before["game_over"]
    plays = [len(hand["plays"]) for hand in saved["hands"]]

    code, text = _run("a\n" * 600, level=None, target=None, seed=None, resume=str(path))
    assert code == 0 and "Resumed:" in text and "Game over:" in text, text
    assert "Ace draw" not in text  # the first hakem was drawn before
    done = json.loads(path.read_text(encoding="utf-8"))
    report = judge(done)
    assert report["ok"] and report["game_over"]
    # The same game: its hands so far are the saved ones, played on from the same card.
    for i, hand in enumerate(saved["hands"]):
        assert done["hands"][i]["cards"] == hand["cards"]
        assert done["hands"][i]["plays"][: plays[i]] == hand["plays"]
    assert done["rules"]["target_points"] == 3
    # And it is the game that was never stopped: the same deals after the resume too.
    whole = tmp_path / "whole.json"
    code, _ = _run("a\n" * 600, target=3, seed="resume", record=str(whole))
    uninterrupted = json.loads(whole.read_text(encoding="utf-8"))
    assert [h["cards"] for h in done["hands"]] == [h["cards"] for h in uninterrupted["hands"]]
    assert done["hands"] == uninterrupted["hands"]  # (the bots here play as they would have)

    for options, said in (
        ({"resume": str(path)}, "that game is over"),
        ({"resume": str(tmp_path / "none.json")}, "cannot read it"),
        ({"resume": str(path), "seed": "x"}, "leave out --seed"),
    ):
        options = {"level": None, "target": None, "seed": None, **options}
        code, text = _run("", **options)
        assert code == 2 and said in text, text
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    code, text = _run("", level=None, target=None, seed=None, resume=str(junk))
    assert code == 2 and "not valid JSON" in text
    # Records that are valid but cannot be played on: refused in one line, left as they were.
    for change, said in (
        ({"hands": []}, "no hand was dealt"),  # it crashed, and saved over the file first
        ({"rules": {**saved["rules"], "target_points": 10**30}}, "out of range"),
        ({"session": {"seed": "\x1b[2J"}, "hands": [{**saved["hands"][0], "seed": None}]}, "seed"),
    ):
        crafted = tmp_path / "crafted.json"
        text_before = json.dumps({**saved, **change})
        crafted.write_text(text_before, encoding="utf-8")
        code, text = _run("a\n" * 5, level=None, target=None, seed=None, resume=str(crafted))
        assert code == 2 and said in text and "Traceback" not in text, text
        assert crafted.read_text(encoding="utf-8") == text_before


class _ClosedTerminal(io.StringIO):
    """A terminal window closed under the game: reading, then writing, fail with EIO."""

    def __init__(self, lines: str, after: int) -> None:
        super().__init__(lines)
        self.left = after
        self.gone = False

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.left == 0:
            self.gone = True
            raise OSError(errno.EIO, "Input/output error")
        self.left -= 1
        return super().readline()


class _DeadOutput(io.StringIO):
    def __init__(self, terminal: _ClosedTerminal) -> None:
        super().__init__()
        self.terminal = terminal

    def write(self, text: str) -> int:
        if self.terminal.gone:
            raise OSError(errno.EIO, "Input/output error")
        return super().write(text)


def test_a_closed_terminal_window_saves_the_game(tmp_path: Path) -> None:
    """Closing the window reads as EIO, not as a signal: it was a traceback (a bug, exit 1)
    and the record was never written. It is a hang-up now: saved, exit 129."""
    path = tmp_path / "closed.json"
    args = argparse.Namespace(
        level="medium", preset=None, target=3, seed="closed", record=str(path), resume=None
    )
    terminal = _ClosedTerminal("a\n" * 50, after=8)
    code = play.run(args, inp=terminal, out=_DeadOutput(terminal), err=io.StringIO())
    assert code == 128 + signal.SIGHUP
    record = json.loads(path.read_text(encoding="utf-8"))
    assert judge(record)["ok"] and record["session"]["seed"] == "closed"


def test_saving_back_keeps_the_files_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    """A resumed game saved back over a private file stays private, and a link to the
    record updates the file it names (it was replaced by a plain file, 644)."""
    real = tmp_path / "real.json"
    _run("a\n" * 4 + "q\ny\n", target=3, seed="mode", record=str(real))
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    before = json.loads(real.read_text(encoding="utf-8"))
    code, _ = _run("a\n" * 4 + "q\ny\n", level=None, target=None, seed=None, resume=str(link))
    assert code == 0 and link.is_symlink()
    assert (real.stat().st_mode & 0o777) == 0o600
    after = json.loads(real.read_text(encoding="utf-8"))
    assert sum(len(h["plays"]) for h in after["hands"]) > sum(
        len(h["plays"]) for h in before["hands"]
    )


def test_h_at_the_trump_prompt_names_hearts_as_the_prompt_says() -> None:
    """The prompt offers 2/H ♥; H showed the help instead (S, D and C worked)."""
    code, text = _run("H\nq\ny\n", seed="h2", level="easy", target=7)
    assert code == 0 and "You name trump: ♥ hearts" in text
    assert "or by its Persian name" not in text  # no help was shown


def test_a_game_resumed_at_a_bam_decision_shows_the_hand_first(tmp_path: Path) -> None:
    """Quit at "7–0! Go on for bam?": resumed, the question came before any card was shown."""
    path = tmp_path / "bam.json"
    for seed in (f"bam{i}" for i in range(40)):
        if path.exists():
            path.unlink()
        _, text = _run("a\n" * 400, preset="classic", target=7, seed=seed, record=str(path))
        if "Go on for bam" not in text:
            continue
        quit_at = "a\n" * text.split("Go on for bam")[0].count(": a\n")  # the answers before
        path.unlink()
        _run(quit_at + "q\ny\n", preset="classic", target=7, seed=seed, record=str(path))
        code, again = _run("q\ny\n", level=None, target=None, seed=None, resume=str(path))
        assert code == 0
        assert "Go on for bam" in again.split("Resumed:")[1], again  # resumed at the question
        before_question = again.split("Go on for bam")[0].split("Resumed:")[1]
        assert "Your hand:" in before_question and "trump" in before_question, again
        # No card is to be played at the question: none is bracketed as unplayable.
        assert "(1:" not in before_question and "cannot be played now" not in before_question
        return
    raise AssertionError("no game of these seeds reached a bam decision")


def test_a_signal_while_the_game_is_saved_does_not_lose_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A closing terminal's SIGHUP (or a kill's SIGTERM) that lands while the record is
    written, after a game that ended by itself: it broke off the save (no file, a temp file
    left) with a traceback."""
    path = tmp_path / "late.json"
    real_dump = json.dump

    def dump_hit_by_a_signal(*args: object, **kwargs: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        real_dump(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(play.json, "dump", dump_hit_by_a_signal)
    code, text = _run("a\n" * 400, target=1, seed="late", record=str(path))
    assert code == 0 and "Game over:" in text
    assert judge(json.loads(path.read_text(encoding="utf-8")))["game_over"]
    assert [p.name for p in tmp_path.iterdir()] == ["late.json"]  # no temp file left
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # put back after the game


def test_a_game_resumed_in_another_terminal_is_refused(tmp_path: Path) -> None:
    """Two ``--resume`` of one file at once would each save back its own hands, and the
    last save would undo the other's game: the second is refused while the first plays
    (an advisory lock on the file, as another process holds it here); saving to another
    ``--record`` file is allowed."""
    import fcntl
    import subprocess
    import sys

    path = tmp_path / "g.json"
    code, _ = _run("a\n" * 6 + "q\ny\n", target=3, seed="twice", record=str(path))
    assert code == 0
    before = path.read_bytes()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys; f = open(sys.argv[1], 'rb'); "
            "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        code, text = _run("a\n" * 600, level=None, target=None, seed=None, resume=str(path))
        assert code == 2 and "is being played in another hokm play" in text, text
        assert path.read_bytes() == before  # nothing changed
        other = tmp_path / "copy.json"
        code, text = _run(
            "a\n" * 600, level=None, target=None, seed=None, resume=str(path), record=str(other)
        )
        assert code == 0 and "Game over:" in text and other.exists()
    finally:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.close()
        holder.stdout.close()
        holder.wait(10)
    with open(path, "rb") as free:  # and the lock is given back when a game ends
        fcntl.flock(free, fcntl.LOCK_EX | fcntl.LOCK_NB)
    code, text = _run("a\n" * 600, level=None, target=None, seed=None, resume=str(path))
    assert code == 0 and "Game over:" in text


class _Terminal(io.StringIO):
    """Standard output on a terminal (of the size ``os.get_terminal_size`` says)."""

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return 1


def test_a_narrow_terminal_gets_lines_that_fit_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 50-column terminal every line fits 48 columns (the table too): they were
    wrapped at 78 whatever the terminal, which folded the hand in the middle of a card."""
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=1: os.terminal_size((50, 24)))
    args = argparse.Namespace(
        level="easy", preset=None, target=1, seed="px", record=None, resume=None
    )
    out = _Terminal()
    assert play.run(args, inp=io.StringIO("a\n" * 200), out=out, err=io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert "Game over: " in out.getvalue()
    assert max(len(line) for line in lines) <= 48
    assert not any(line.endswith(" –") for line in lines)  # a score is not cut at its dash
    hand = next(i for i, line in enumerate(lines) if line.startswith("Your hand: "))
    assert lines[hand + 1].startswith("  ") and ":" in lines[hand + 1]
    assert "       West (12)  2♠    A♠  East (12)" in lines  # the table as on 80 columns


def test_input_that_is_not_utf8_is_refused_as_such_not_with_a_traceback() -> None:
    """A Latin-1 terminal's bytes, typed where UTF-8 is read strictly (a UTF-8 locale): a
    traceback ended the game; and where they are read as escapes, they were said as
    '\\udcff'. Seed 'd' makes South the first hakem."""
    args = argparse.Namespace(
        level="easy", preset=None, target=7, seed="d", record=None, resume=None
    )
    strict = io.TextIOWrapper(io.BytesIO(b"\xe9\n4\nq\ny\n"), encoding="utf-8", errors="strict")
    out = io.StringIO()
    assert play.run(args, inp=strict, out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "unknown suit '\ufffd'" in text and "You name trump: ♣ clubs" in text
    escaped = io.StringIO("\udce9\n4\nq\ny\n")  # as Python reads it in a C locale
    out = io.StringIO()
    assert play.run(args, inp=escaped, out=out, err=io.StringIO()) == 0
    assert "unknown suit '\ufffd'" in out.getvalue() and "\\udc" not in out.getvalue()
    proc = subprocess.run(
        [sys.executable, "-m", "hokm", "play", "--level", "easy", "--seed", "d"],
        input=b"\xff\xfe\nq\ny\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # strict, as a UTF-8 locale's
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr
    assert "unknown suit '\ufffd\ufffd'" in proc.stdout.decode()


def test_a_failed_bam_says_the_bamming_teams_minus_3() -> None:
    """platform-b (failed_bam=minus3): East and West go on for bam at 7–0 and South takes the
    8th trick. The line said only "You and North win (failed bam), tricks 1–7, 0 points",
    and the score's 2 became −1 unexplained."""
    code, text = _run("a\n" * 2000, seed="b11", preset="platform-b", level="random", target=7)
    assert code == 0 and "East goes on for bam!" in text
    said = " ".join(text[text.index("(failed bam)") :].split()[:18])
    assert said.startswith(
        "(failed bam), tricks 1–7, 0 points; East and West score −3 for the failed bam."
    )
    assert "Score: you+North 6 – -1 East+West." in text


def test_a_saved_game_with_a_byte_order_mark_is_resumed_as_the_referee_reads_it(
    tmp_path: Path,
) -> None:
    """A record opened and saved by an editor that writes a byte-order mark: the referee
    reads it, and --resume refused it as "not valid JSON (Unexpected UTF-8 BOM …)"."""
    path = tmp_path / "g.json"
    code, _ = _run("a\n" * 6 + "q\ny\n", target=3, seed="bom", record=str(path))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert code == 0 and judge(json.loads(path.read_text(encoding="utf-8-sig")))["ok"]
    code, text = _run("q\ny\n", level=None, target=None, seed=None, resume=str(path))
    assert code == 0 and "Resumed:" in text and "BOM" not in text, text


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "not a record: not valid JSON: nested too deeply"),
        (b'{"hands": [\xff]}', "not a record: not UTF-8 text"),
        (b"  \n", "not a record: the file is empty"),
    ],
)
def test_a_file_that_is_no_saved_game_is_refused_in_one_line(
    tmp_path: Path, content: bytes, said: str
) -> None:
    """--resume says what the referee says of such a file; JSON nested too deeply for
    Python's parser ended with a RecursionError traceback."""
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    code, text = _run("", level=None, target=None, seed=None, resume=str(path))
    assert code == 2 and text.startswith(f"hokm play: --resume: {path}: {said}")
    assert "Traceback" not in text and text.count("\n") == 1


def test_a_saved_game_that_breaks_a_rule_is_refused_saying_where(tmp_path: Path) -> None:
    """--resume said only "the record breaks a rule: seat 0 does not hold 6C", not in which
    hand and trick, as the referee says it."""
    path = tmp_path / "g.json"
    code, _ = _run("a\n" * 6 + "q\ny\n", target=3, seed="broken", record=str(path))
    saved = json.loads(path.read_text(encoding="utf-8"))
    hand = saved["hands"][0]
    hakem = hand["hakem"]
    other = next(c for c in hand["cards"][(hakem + 1) % 4] if c not in hand["plays"])
    hand["plays"][0] = other  # the hakem leads a card another seat holds
    path.write_text(json.dumps(saved), encoding="utf-8")
    code, text = _run("", level=None, target=None, seed=None, resume=str(path))
    said = (
        f"hokm play: --resume: {path}: the record breaks a rule at hand 1, trick 1 "
        f"(play 1, the trick's 1st card), seat {hakem}, card {other}: "
        f"seat {hakem} does not hold {other}"
    )
    assert code == 2 and text.startswith(said), text
    assert text.count("\n") == 1


def test_a_seven_nil_against_the_hakem_is_called_a_hakem_kot() -> None:
    """RULES.md §1 names: East and West, not the hakem's team, stop at 7–0, a hakem-kot. The
    lines said "East stops at the kot." and "win (hakem kot)"."""
    code, text = _run("a\n" * 2000, seed="pb6", preset="platform-b", level="easy", target=7)
    assert code == 0 and "East stops at the hakem-kot." in text, text[-3000:]
    assert "Hand over: East and West win (hakem-kot), tricks 7–0, 3 points." in text
    assert "hakem kot" not in text and "stops at the kot" not in text


def test_every_rule_option_of_a_game_is_set_with_rule(tmp_path: Path) -> None:
    """RULES.md §9: the options a terminal game uses can each be set (--rule NAME=VALUE, over
    the preset), not only as the presets combine them: bam with failed_bam=kot and no redeals,
    other kot points, a random first hakem. The record keeps them and the rules line says them."""
    path = tmp_path / "game.json"
    rules = ["bam=on", "failed_bam=kot", "kot_points=4", "hakem_kot_points=۵", "first_hakem=random"]
    code, text = _run("a\n" * 400, target=2, seed="rule", record=str(path), rule=rules)
    assert code == 0 and "Game over:" in text
    assert "Rules: custom, to 2, kot 4/5, bam on (kot), first hakem random" in text
    assert "Ace draw" not in text
    saved = json.loads(path.read_text(encoding="utf-8"))["rules"]
    assert (saved["bam"], saved["failed_bam"], saved["kot_points"]) == (True, "kot", 4)
    assert (saved["hakem_kot_points"], saved["first_hakem"]) == (5, "random")
    assert not saved["hakem_may_redeal_weak_five"] and saved["turn_seconds"] == 15
    code, text = _run("a\n" * 400, target=1, preset="classic", rule=["bam=off"])
    assert (
        code == 0 and "Rules: custom, to 1, kot 2/3, no bam, redeals: weak five, no trump" in text
    )


def test_a_manual_first_hakem_is_chosen_by_the_player() -> None:
    """first_hakem=manual: the room owner picks the seat (RULES.md §3); in the terminal, the
    player. It was drawn at random and recorded as chosen."""
    code, text = _run("7\nnorth\n" + "a\n" * 400, seed="manual", rule=["first_hakem=manual"])
    assert code == 0 and "Choose the first hakem" in text
    assert "no seat 7" in text and "First hakem: North." in text
    assert "=== Hand 1 · hakem North" in text


def test_a_bad_rule_option_is_refused_by_name() -> None:
    for rule, said in (
        ("kot_points=0", "kot_points must be an integer ≥ 1, not 0"),
        ("bam=maybe", "bam is on or off, not 'maybe'"),
        ("bogus=1", "unknown rule option 'bogus'"),
        ("bam", "give NAME=VALUE"),
        ("turn_seconds=30", "turn_seconds has no use in a terminal game"),
        ("kot_points=11", "kot_points at a table is at most 10"),
    ):
        code, text = _run("", rule=[rule])
        assert code == 2 and said in text, (rule, text)


@pytest.mark.parametrize("name", ["replace", "preset", "to_dict", "__slots__"])
def test_a_name_that_is_no_rule_option_is_called_unknown(name: str) -> None:
    """A RuleSet's method or slot is no rule option: it was refused as one "of no use in a
    terminal game (no clock, one game)", as if it were a clock."""
    code, text = _run("", rule=[f"{name}=1"])
    assert code == 2 and f"unknown rule option {name!r}" in text, text
    assert "no use" not in text
