"""``hokm referee``: exit codes 0/1/2, one JSON line per file, a readable account, and no
traceback on any input (garbage files are fuzzed)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm.cli import main
from hokm.engine import RuleSet, record_from_game
from tests.engine.helpers import (
    ALL_TRUMPS_AT_0,
    NORMAL_7_1,
    SEVEN_THEN_LOSE,
    play_first_legal,
    stacked,
    start,
)


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def valid_record(deal: tuple[str, ...] = NORMAL_7_1, **rules: Any) -> dict[str, Any]:
    game = start(RuleSet(**rules), stacked(deal))
    play_first_legal(game, bam=True)
    return record_from_game(game)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["referee", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_valid_record_exits_0_with_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--json", write(tmp_path / "a.json", valid_record()))
    assert code == 0
    (line,) = out.splitlines()
    report = json.loads(line)
    assert report["ok"] and report["hands"][0]["result"] == "normal"


def test_json_output_is_one_line_per_file_in_order_and_the_worst_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "good.json", valid_record())
    broken_data = valid_record()
    broken_data["hands"][0]["plays"][1] = "2H"
    broken = write(tmp_path / "broken.json", broken_data)
    code, out, _ = run(capsys, "--json", good, broken, good)
    assert code == 1
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["ok"] for r in reports] == [True, False, True]
    assert [r["file"] for r in reports] == [good, broken, good]
    assert reports[1]["error"] == {
        "hand": 0,
        "play": 1,
        "seat": 1,
        "card": "2H",
        "reason": "must follow suit ♠: seat 1 holds AS",
    }
    code, out, err = run(capsys, "--json", good, str(tmp_path / "missing.json"))
    assert code == 2 and len(out.splitlines()) == 2 and "no such file" in err


def test_the_readable_account_goes_trick_by_trick_with_persian_result_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "kot.json", valid_record(ALL_TRUMPS_AT_0, bam=True))
    code, out, _ = run(capsys, path)
    assert code == 0
    assert "Trick 1: seat 0 A♠, seat 1 A♥, seat 2 A♦, seat 3 A♣: seat 0 wins" in out
    assert "Trick 13:" in out
    assert "Result: bam (بام); team 0 wins the hand 13–0" in out
    assert "Game over: team 0 wins, 7–0." in out


def test_the_players_a_record_names_are_listed_once_and_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record saved by ``hokm play`` names its seats; the account says which seat is whom.
    A file starting with a UTF-8 byte-order mark (as some editors save) is read as JSON."""
    data = valid_record()
    data["players"] = ["You", "East", None, "West\x1b[2J"]
    path = tmp_path / "named.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8"))
    code, out, _ = run(capsys, str(path))
    assert code == 0
    assert "Players: seat 0 You, seat 1 East, seat 2 (bot), seat 3 West[2J;" in out
    assert "\x1b" not in out  # a name cannot send the terminal escape sequences
    code, out, _ = run(capsys, write(tmp_path / "plain.json", valid_record()))
    assert code == 0 and "Players:" not in out


def test_a_failed_bam_under_minus3_reads_as_the_bamming_teams_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hand goes to the team with fewer tricks (RULES.md §6): said as a failed bam, not
    "team 1 wins the hand 1–7"; a negative score reads −3, not "0–-3"."""
    game = start(RuleSet(bam=True), stacked(SEVEN_THEN_LOSE))
    play_first_legal(game, bam=True)
    code, out, _ = run(capsys, write(tmp_path / "failed.json", record_from_game(game)))
    said = " ".join(out.split())
    assert code == 0
    assert "team 0's bam failed at 7–1, so team 1 wins the hand; points: team 0 −3;" in said
    assert "score −3–0;" in said and "Score −3–0 (team 0–team 1)" in said
    assert "–-" not in said and " -3" not in said


def test_a_leaver_is_listed_and_a_malformed_left_field_is_passed_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``left`` (a server's record of who left mid-game) is listed; entries that do not fit
    are passed over without a word: the field is not part of the rules."""
    data = valid_record()
    data["players"] = ["Ann", None, "Cy", "Dee"]
    data["left"] = [
        {"seat": 1, "name": "Bob\n", "hand": 0, "plays": 1},
        {"seat": True, "name": "X", "hand": 0, "plays": 3},
        {"seat": 4, "name": "Y", "hand": 0, "plays": 3},
        {"seat": 2, "name": "Z", "hand": -1, "plays": 3},
        "nonsense",
    ]
    code, out, _ = run(capsys, write(tmp_path / "left.json", data))
    assert code == 0
    said = " ".join(out.split())  # (long lines are folded)
    assert said.count("left the game") == 1
    assert "Seat 1: Bob left the game in hand 1 after 1 card of it; a bot played the seat" in said
    data["left"] = {"seat": 1}
    code, out, _ = run(capsys, write(tmp_path / "left2.json", data))
    assert code == 0 and "left the game" not in out


def test_the_readable_account_of_a_broken_record_names_the_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = valid_record()
    data["hands"][0]["plays"][5] = "KH"
    code, out, _ = run(capsys, write(tmp_path / "b.json", data))
    assert code == 1
    flat = " ".join(out.split())  # (the account folds the line after a colon)
    place = "hand 1, trick 2 (play 6, the trick's 2nd card), seat 2, card KH"
    assert f"INVALID at {place}: seat 2 does not hold KH." in flat
    # JSON keeps its indexes from 0
    code, out, _ = run(capsys, "--json", write(tmp_path / "b.json", data))
    assert json.loads(out)["error"] == {
        "hand": 0,
        "play": 5,
        "seat": 2,
        "card": "KH",
        "reason": "seat 2 does not hold KH",
    }
    data = valid_record()
    data["hands"][0]["plays"].append("AS")  # after the hand's end: no trick, no seat
    extra = len(data["hands"][0]["plays"])
    code, out, _ = run(capsys, write(tmp_path / "c.json", data))
    assert code == 1 and f"INVALID at hand 1, play {extra}, card AS: the hand is over" in out


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"\xff\xfe\x00binary",
        b"[" * 100_000,
        b'{"hands": [' + b"[" * 50_000 + b"]" * 50_000 + b"]}",
        b"1e999999",
        b'{"hands": [{"hakem": 0, "cards": NaN}]}',
        b'"just a string"',
        b"null",
    ],
)
def test_garbage_files_exit_2_with_a_message_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "garbage"
    path.write_bytes(content)
    code, out, err = run(capsys, "--json", str(path))
    assert code == 2
    assert json.loads(out)["ok"] is False and "Traceback" not in out + err
    assert err.startswith("hokm referee: ")


def test_a_directory_is_unreadable_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(tmp_path))
    assert code == 2 and "is a directory" in out and "cannot judge" in out
    assert "is a directory" in err  # output to a file (not a terminal): said there too


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_fuzzed_files_never_crash(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.json"
        path.write_bytes(content)
        code = main(["referee", "--json", str(path)])
    assert code in (0, 1, 2)


def test_the_rules_line_names_a_preset_played_to_another_target() -> None:
    from hokm.cli.referee import _rules_text
    from hokm.engine import RuleSet

    text = _rules_text(RuleSet.preset("classic", target_points=1))
    assert text.startswith("preset classic with another target, target 1 point,")
    assert _rules_text(RuleSet.preset("classic")).startswith("preset classic, target 7 points")
    assert _rules_text(RuleSet(kot_points=5)).startswith("custom rules")


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "the file is empty"),
        (b"  \n", "the file is empty"),
        (b'{"format": ' + b"9" * 5000 + b"}", "a number far too long"),
    ],
)
def test_an_empty_file_or_an_endless_number_is_said_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, said: str
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    code, _, err = run(capsys, str(path))
    assert code == 2 and said in err and "sys.set_int_max_str_digits" not in err


@pytest.mark.parametrize("command", ["referee", "analyse", "verify"])
@pytest.mark.parametrize("content", ["", "  \n", "\ufeff"])
def test_an_empty_standard_input_is_called_standard_input_not_a_file(
    command: str, content: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hokm referee - < /dev/null`` said "-: the file is empty"; there is no file."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(content))
    assert main([command, "--json", "-"]) == 2
    out, err = capsys.readouterr()
    assert "standard input is empty" in err and "file is empty" not in err + out
    assert "standard input is empty" in json.loads(out)["error"]["reason"]


@pytest.mark.parametrize("command", ["referee", "analyse", "verify"])
def test_standard_input_that_is_not_utf8_is_refused_as_a_file_is(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bytes that are not UTF-8 were refused in a file but taken from standard input (Python
    reads it with ``surrogateescape`` in a C.UTF-8 locale), "\\udcff" then said in errors."""
    import io

    raw = b'{"hands": [], "rules": {"preset": "\xff"}, "x": "\xfe"}'
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr("sys.stdin", stdin)
    assert main([command, "--json", "-"]) == 2
    out, err = capsys.readouterr()
    assert "not UTF-8 text" in err and "\\udc" not in out + err
    assert json.loads(out)["error"]["reason"] == "not UTF-8 text"


def test_a_byte_order_mark_on_standard_input_is_not_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    raw = b'\xef\xbb\xbf{"hands": []}'
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["referee", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_standard_input_named_twice_is_judged_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """'-' given twice: the record once, then a clear refusal (it said the second was empty)."""
    import io

    stdin = io.TextIOWrapper(io.BytesIO(b'{"hands": []}'), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["referee", "--json", "-", "-"]) == 2
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["ok"] is True
    assert second["ok"] is False and "read once" in second["error"]["reason"]


def test_standard_input_too_large_is_said_to_be_too_large_even_cut_inside_a_character(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from hokm.cli import referee as referee_cli

    monkeypatch.setattr(referee_cli, "MAX_BYTES", 100)
    raw = ('{"hands": [], "x": "' + "ح" * 100 + '"}').encode()  # byte 101 inside a letter
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["referee", "-"]) == 2
    assert "standard input is larger than 100 bytes" in capsys.readouterr().err


def test_a_file_too_large_is_said_to_be_too_large_even_when_it_starts_blank(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record after more blank space than the size limit was called "the file is empty"."""
    from hokm.cli import referee as referee_cli

    monkeypatch.setattr(referee_cli, "MAX_BYTES", 100)
    path = tmp_path / "padded.json"
    path.write_text(" " * 200 + '{"hands": []}', encoding="utf-8")
    assert main(["referee", str(path)]) == 2
    said = capsys.readouterr()
    assert "the file is larger than 100 bytes" in said.err and "empty" not in said.err
