"""``hokm verify``: a revealed seed re-derives the deal and matches its commitment."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hokm.cli import main
from hokm.engine import Deal, Game, RuleSet, Seat, record_from_game, seed_commitment
from hokm.engine.records import check_deal, verify_record
from tests.engine.helpers import random_game

SEED = "5f1e" * 16


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_seed_matching_its_commitment_exits_0_and_shows_the_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "--seed", SEED, "--commitment", seed_commitment(SEED), "--hakem", "2"
    )
    assert code == 0 and "OK: commitment matches" in out
    assert "seat 2 (hakem):" in out


def test_a_wrong_commitment_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", SEED, "--commitment", seed_commitment("other"))
    assert code == 1 and "commitment DOES NOT match" in out


def test_a_players_own_cards_are_checked_against_the_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deal = Deal.from_seed(SEED, Seat(1))
    mine = " ".join(str(c) for c in reversed(deal.hands[3]))
    code, out, _ = run(capsys, "--seed", SEED, "--hakem", "1", "--seat", "3", "--cards", mine)
    assert code == 0 and "cards match the seed" in out
    other = " ".join(str(c) for c in deal.hands[2])
    code, out, _ = run(capsys, "--seed", SEED, "--hakem", "1", "--seat", "3", "--cards", other)
    assert code == 1 and "cards DO NOT match" in out


def test_cards_as_this_command_prints_them_are_read_and_a_non_card_is_unusable_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deal = Deal.from_seed(SEED, Seat(1))
    shown = " ".join(c.pretty for c in deal.hands[3])  # Q♠ 10♥ …, as the command prints
    code, out, _ = run(capsys, "--seed", SEED, "--hakem", "1", "--seat", "3", "--cards", shown)
    assert code == 0 and "cards match the seed" in out
    code, out, err = run(capsys, "--seed", SEED, "--hakem", "1", "--seat", "3", "--cards", "ZZ")
    assert code == 2 and "--cards: invalid card 'ZZ'" in err and "MISMATCH" not in out
    code, _, err = run(capsys, "no-such-record.json")
    assert code == 2 and "no-such-record.json: no such file" in err


def test_json_output_carries_the_derived_deal(capsys: pytest.CaptureFixture[str]) -> None:
    commitment = seed_commitment(SEED)
    code, out, _ = run(capsys, "--seed", SEED, "--hakem", "0", "--commitment", commitment, "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["commitment"] == seed_commitment(SEED)
    assert data["cards"][0] == [str(c) for c in Deal.from_seed(SEED, Seat(0)).hands[0]]
    assert "error" not in data


@pytest.mark.parametrize("more", [[], ["--hakem", "0"]])
def test_a_seed_with_nothing_to_compare_fails_closed(
    more: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``hokm verify --seed S`` (no commitment, no cards) proved nothing and said "OK",
    exit 0; now exit 1 and one line saying what to give, as a record without seeds."""
    code, out, err = run(capsys, "--seed", SEED, *more)
    assert code == 1 and "OK" not in out
    assert f"SHA-256 of the seed: {seed_commitment(SEED)}" in out  # still shown, to compare
    assert err == (
        "hokm verify: nothing to compare: give the published --commitment, or --hakem, "
        "--seat and --cards\n"
    )
    code, out, err = run(capsys, "--seed", SEED, *more, "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["commitment"] == seed_commitment(SEED)
    assert data["error"]["reason"].startswith("nothing to compare")
    assert set(data["error"]) == {"hand", "play", "seat", "card", "reason"}


def test_json_errors_have_the_referees_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that cannot be read was {"ok": false, "error": "name: reason"}: a string where
    hokm referee and hokm analyse give an object; now the same line as theirs."""
    missing = str(tmp_path / "missing.json")
    code, out, err = run(capsys, "--json", missing)
    assert code == 2 and f"hokm verify: {missing}: no such file" in err
    verify_line = json.loads(out)
    assert main(["referee", "--json", missing]) == 2
    referee_line = json.loads(capsys.readouterr().out)
    assert (
        verify_line
        == referee_line
        == {
            "file": missing,
            "ok": False,
            "malformed": True,
            "error": {
                "hand": None,
                "play": None,
                "seat": None,
                "card": None,
                "reason": "no such file",
            },
        }
    )


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--seed", SEED, "--cards", "AS")[0] == 2
    assert run(capsys, "--seed", SEED, "--seat", "1", "--cards", "AS")[0] == 2
    code, out, err = run(capsys, "--seed", SEED, "--hakem", "1", "--seat", "1", "--cards", "AS KH")
    assert code == 2 and "a hand is 13 cards, not 2" in err and "MISMATCH" not in out
    hand = [str(c) for c in Deal.from_seed(SEED, Seat(1)).hands[1]]
    typo = " ".join([*hand[:12], hand[0]])  # a card typed twice: said, not "MISMATCH"
    code, out, err = run(capsys, "--seed", SEED, "--hakem", "1", "--seat", "1", "--cards", typo)
    assert code == 2 and f"--cards: {hand[0]} given twice" in err and "MISMATCH" not in out
    padded = f" {seed_commitment(SEED).upper()}\n"  # pasted with spaces: read as the check reads it
    assert run(capsys, "--seed", SEED, "--commitment", padded)[0] == 0
    code, out, err = run(capsys, "--seed", SEED, "--commitment", "zz")
    assert code == 2 and "64 hexadecimal digits" in err and "MISMATCH" not in out
    code, _, err = run(capsys)
    assert code == 2 and "give a record FILE, or a deal's --seed" in err


def test_every_seeded_deal_of_a_record_is_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = random_game(RuleSet.preset("classic", target_points=2), 11)
    record = record_from_game(game)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out, _ = run(capsys, str(path))
    assert code == 0 and "every seeded deal matches" in out
    hands = record["hands"]
    assert len(verify_record(record)) == len(hands) + sum(len(h.get("redeals", [])) for h in hands)

    hands[-1]["cards"][0], hands[-1]["cards"][1] = hands[-1]["cards"][1], hands[-1]["cards"][0]
    path.write_text(json.dumps(record))
    code, out, _ = run(capsys, str(path), "--json")
    data = json.loads(out)
    assert code == 1 and not data["ok"]
    assert data["checks"][-1]["cards_ok"] is False


def test_a_record_without_seeds_has_nothing_to_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(RuleSet(), hakem=0)
    deal = Deal.from_seed("x", Seat(0))
    game.apply(Deal.from_hands(deal.hands))
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(record_from_game(game)))
    code, out, _ = run(capsys, str(path))
    assert code == 1 and "nothing to verify" in out
    code, out, _ = run(capsys, str(path), "--json")
    data = json.loads(out)
    assert code == 1 and data["file"] == str(path) and not data["ok"] and data["checks"] == []
    assert data["error"]["reason"] == "no hand carries a seed: nothing to verify"
    (tmp_path / "bad.json").write_text("{")
    assert run(capsys, str(tmp_path / "bad.json"))[0] == 2
    code, _, err = run(capsys, str(tmp_path / "bad.json"))
    assert code == 2 and "bad.json: not valid JSON" in err  # the file is named


def test_a_record_is_read_from_stdin_and_may_start_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _ = random_game(RuleSet(target_points=1), 12)
    text = json.dumps(record_from_game(game))
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + text))
    code, out, _ = run(capsys, "-")
    assert code == 0 and "-: 1 seeded deal checked: every seeded deal matches." in out
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert run(capsys, str(path))[0] == 0


def test_check_deal_needs_the_hakem_to_compare_cards() -> None:
    check = check_deal(SEED, cards={0: ["AS"]})
    assert not check.ok and "hakem is needed" in check.problems[0]
