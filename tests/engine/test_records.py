"""Game records (hokm-record/1) and the referee's ``judge``: valid games, each kind of
broken record, malformed input, and round trips from games to records and back."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm.engine import (
    Deal,
    Game,
    InvalidRecordError,
    Phase,
    RuleSet,
    Seat,
    judge,
    parse_record,
    record_from_game,
    seed_commitment,
)
from hokm.engine.records import referee
from tests.engine.helpers import (
    ALL_TRUMPS_AT_0,
    NORMAL_7_1,
    SEVEN_THEN_LOSE,
    WEAK_FIVE,
    play_first_legal,
    random_game,
    stacked,
    start,
)


def hands_of(text: tuple[str, ...]) -> list[list[str]]:
    return [h.split() for h in text]


def played_record(deal: tuple[str, ...], rules: dict[str, Any], **hand: Any) -> dict[str, Any]:
    """The record of one hand played first-legal on a stacked deal (spades trump)."""
    game = start(RuleSet.from_dict(rules), stacked(deal))
    play_first_legal(game, bam=hand.pop("bam_go", None))
    record = record_from_game(game)
    record["rules"] = rules
    record["hands"][0].update(hand)
    return record


def error_of(record: dict[str, Any]) -> dict[str, Any]:
    report = judge(record)
    assert report["ok"] is False, report
    return report["error"]  # type: ignore[no-any-return]


# ---------------------------------------------------------------- valid records


def test_the_issue_example_shape_is_accepted() -> None:
    record = played_record(NORMAL_7_1, {"preset": "platform-b", "bam": True})
    record["hands"][0] = {k: record["hands"][0][k] for k in ("hakem", "cards", "trump", "plays")}
    record["hands"][0]["bam"] = False
    report = judge(record)
    assert report == {
        "ok": True,
        "hands": [
            {
                "hakem": 0,
                "trump": "S",
                "trick_winners": [1, 0, 0, 0, 0, 0, 0, 0],
                "tricks": [7, 1],
                "complete": True,
                "result": "normal",
                "winner_team": 0,
                "points": [1, 0],
                "score": [1, 0],
                "next_hakem": 0,
            }
        ],
        "score": [1, 0],
        "game_over": False,
        "winner_team": None,
    }


def test_a_won_bam_ends_the_game_for_the_bamming_team() -> None:
    record = played_record(ALL_TRUMPS_AT_0, {"preset": "platform-b"}, bam_go=True)
    assert record["hands"][0]["bam"] is True
    report = judge(record)
    assert report["hands"][0]["result"] == "bam" and report["hands"][0]["tricks"] == [13, 0]
    assert report["game_over"] is True and report["winner_team"] == 0
    assert report["score"] == [7, 0]


def test_a_declined_bam_is_a_kot() -> None:
    record = played_record(ALL_TRUMPS_AT_0, {"preset": "platform-b"}, bam_go=False)
    assert judge(record)["hands"][0]["result"] == "kot"


def test_a_failed_bam_follows_the_failed_bam_option() -> None:
    minus3 = played_record(SEVEN_THEN_LOSE, {"bam": True}, bam_go=True)
    assert judge(minus3)["hands"][0]["points"] == [-3, 0]
    kot = copy.deepcopy(minus3)
    kot["rules"] = {"bam": True, "failed_bam": "kot"}
    assert judge(kot)["hands"][0]["points"] == [2, 0]


def test_the_bam_field_is_ignored_when_bam_is_off() -> None:
    record = played_record(ALL_TRUMPS_AT_0, {}, bam=True)
    assert judge(record)["hands"][0]["result"] == "kot"


def test_an_unfinished_last_hand_is_reported_as_such() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["plays"] = record["hands"][0]["plays"][:6]
    hand = judge(record)["hands"][0]
    assert hand["complete"] is False and hand["result"] is None and hand["points"] == [0, 0]
    assert hand["trick_winners"] == [1] and hand["tricks"] == [0, 1]
    record["hands"][0]["plays"] = []
    record["hands"][0]["trump"] = None
    assert judge(record)["hands"][0]["trump"] is None


def test_a_last_hand_waiting_for_the_bam_decision_is_unfinished() -> None:
    record = played_record(ALL_TRUMPS_AT_0, {"bam": True}, bam=None)
    record["hands"][0]["plays"] = record["hands"][0]["plays"][:28]
    hand = judge(record)["hands"][0]
    assert hand["complete"] is False and hand["tricks"] == [7, 0]


def test_later_hakems_are_optional_but_checked() -> None:
    game = Game(RuleSet(), hakem=0)
    for deal in (NORMAL_7_1, NORMAL_7_1):
        game.apply(stacked(deal))
        game.choose_trump("S")
        play_first_legal(game)
    record = record_from_game(game)
    del record["hands"][1]["hakem"]
    assert judge(record)["ok"]
    record["hands"][1]["hakem"] = 1
    error = error_of(record)
    assert error == {
        "hand": 1,
        "play": None,
        "seat": None,
        "card": None,
        "reason": "the hakem is seat 0 by the rules (the hakem stays while the hakem's team"
        " wins a hand, else the next seat is hakem), not seat 1",
    }


# ---------------------------------------------------------------- broken records (exit 1)


def test_a_duplicated_card_is_a_deal_error() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["cards"][0][12] = "AS"
    error = error_of(record)
    assert (error["hand"], error["play"], error["seat"], error["card"]) == (0, None, None, None)
    assert error["reason"] == "invalid deal: card AS is dealt twice"


def test_a_wrong_count_is_a_deal_error() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["cards"][2].pop()
    assert error_of(record)["reason"] == "invalid deal: seat 2 holds 12 cards, not 13"
    record["hands"][0]["cards"].pop()
    assert error_of(record)["reason"] == "the cards of 3 seats are given, not 4"
    del record["hands"][0]["cards"][1:]
    assert error_of(record)["reason"] == "the cards of 1 seat are given, not 4"
    record["hands"][0]["cards"] = []
    assert error_of(record)["reason"] == "no seat's cards are given: a deal is 4 lists of 13"


def test_a_player_without_trump_is_a_deal_error_when_that_redeal_rule_is_on() -> None:
    record = played_record(ALL_TRUMPS_AT_0, {})
    assert judge(record)["ok"]
    record["rules"] = {"redeal_if_player_has_no_trump": True}
    error = error_of(record)
    assert (error["hand"], error["play"], error["seat"], error["card"]) == (0, None, None, None)
    assert "seat 1 holds no trump" in error["reason"]


def test_not_following_suit_names_hand_play_seat_card_and_rule() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["plays"][1] = "2H"  # seat 1 holds AS and must follow 2S
    assert error_of(record) == {
        "hand": 0,
        "play": 1,
        "seat": 1,
        "card": "2H",
        "reason": "must follow suit ♠: seat 1 holds AS",
    }


def test_an_ace_draw_without_its_ace_is_an_error_before_any_hand() -> None:
    game, _ = random_game(RuleSet(), 3)  # the first hakem by an ace draw
    record = record_from_game(game)
    drawn = record["ace_draw"]["cards"]
    last = next(c for c in ("2D", "3D", "4D", "5D") if c not in drawn)
    drawn[-1] = last
    error = error_of(record)
    assert error["hand"] is None  # the draw comes before hand 1
    said = f"ace draw: the ace draw ends with an ace, not {last} (cards are dealt until one)"
    assert error["reason"] == said


def test_an_ace_draw_under_rules_that_choose_the_first_hakem_otherwise_is_an_error() -> None:
    game, _ = random_game(RuleSet(), 3)
    record = record_from_game(game)
    record["rules"]["first_hakem"] = "random"
    error = error_of(record)
    assert error["hand"] is None
    assert error["reason"] == "an ace draw is given, but the rules' first_hakem is 'random'"


def test_a_card_not_held_is_an_error_at_that_play() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["plays"][0] = "AS"
    error = error_of(record)
    assert (error["play"], error["seat"], error["card"]) == (0, 0, "AS")
    assert error["reason"] == "seat 0 does not hold AS"


def test_a_card_played_twice_is_an_error() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["plays"][4] = "2S"
    assert error_of(record)["reason"] == "seat 1 does not hold 2S"


def test_bad_card_notation_in_a_play_is_an_error_at_that_play() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["plays"][2] = "1Z"
    error = error_of(record)
    assert (error["play"], error["seat"], error["card"]) == (2, 2, "1Z")
    assert "invalid card '1Z'" in error["reason"]


def test_plays_after_the_hand_is_over_are_an_error() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["plays"].append("QS")
    error = error_of(record)
    assert (error["play"], error["card"]) == (32, "QS")
    assert error["reason"] == "the hand is over: this play is extra"


def test_plays_after_7_0_need_a_bam_decision() -> None:
    record = played_record(ALL_TRUMPS_AT_0, {"bam": True}, bam_go=True)
    record["hands"][0]["bam"] = False
    error = error_of(record)
    assert error["play"] == 28 and "without bam" in error["reason"]


def test_an_unfinished_hand_before_another_hand_is_an_error() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"].append(copy.deepcopy(record["hands"][0]))
    record["hands"][0]["plays"] = record["hands"][0]["plays"][:8]
    assert error_of(record)["reason"] == "the hand is unfinished but another hand follows"


def test_a_hand_after_the_game_is_over_is_an_error() -> None:
    record = played_record(NORMAL_7_1, {"target_points": 1})
    record["hands"].append(copy.deepcopy(record["hands"][0]))
    error = error_of(record)
    assert error["hand"] == 1 and "already over" in error["reason"]


def test_a_missing_or_invalid_trump_is_an_error() -> None:
    record = played_record(NORMAL_7_1, {})
    record["hands"][0]["trump"] = None
    assert error_of(record)["reason"] == "the hand has no trump"
    record["hands"][0]["trump"] = "X"
    assert "unknown suit 'X'" in error_of(record)["reason"]


def test_a_seed_must_give_the_recorded_cards_and_match_its_commitment() -> None:
    game = Game(RuleSet(), hakem=Seat(2))
    game.apply(Deal.from_seed("seeded", Seat(2)))
    record = record_from_game(game)
    hand = record["hands"][0]
    assert hand["seed"] == "seeded" and hand["commitment"] == seed_commitment("seeded")
    assert judge(record)["ok"]
    hand["commitment"] = "00" * 32
    assert "does not match its commitment" in error_of(record)["reason"]
    hand["commitment"] = seed_commitment("seeded")
    hand["cards"][0], hand["cards"][1] = hand["cards"][1], hand["cards"][0]
    assert error_of(record)["reason"] == "seat 0's cards are not the deal of the seed"


# ---------------------------------------------------------------- malformed input (exit 2)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "top level must be a JSON object"),
        ({"format": "hokm-record/9", "hands": []}, "format must be 'hokm-record/1'"),
        ({"rules": {}}, "hands must be a list"),
        ({"hands": [{"cards": []}]}, r"hands\[0\].hakem is required"),
        ({"hands": [{"hakem": 4, "cards": []}]}, "must be a seat 0–3"),
        ({"hands": [{"hakem": 0}]}, "cards is required"),
        ({"hands": [{"hakem": 0, "cards": [[1]]}]}, "must be a list of card strings"),
        ({"hands": [{"hakem": 0, "cards": [], "bam": "yes"}]}, "bam must be true, false"),
        ({"hands": [{"hakem": 0, "cards": [], "plays": "AS"}]}, "plays must be a list"),
        ({"rules": {"bam": 1}, "hands": []}, "rules: bam must be true or false"),
        ({"rules": {"preset": "x"}, "hands": []}, "unknown preset"),
        ({"rules": [], "hands": []}, "rules must be an object"),
        ({"hands": [], "ace_draw": []}, "ace_draw must be an object"),
        ({"hands": [], "ace_draw": {"cards": ["AS"]}}, r"ace_draw.start must be a seat 0–3"),
        ({"hands": [], "ace_draw": {"start": "1", "cards": ["AS"]}}, r"ace_draw.start must be"),
        ({"hands": [], "ace_draw": {"start": 7, "cards": ["AS"]}}, r"ace_draw.start must be"),
        ({"hands": [], "ace_draw": {"start": True, "cards": ["AS"]}}, r"ace_draw.start must be"),
        ({"hands": [], "ace_draw": {"start": 1}}, r"ace_draw.cards must be a list of card strings"),
        ({"hands": [], "ace_draw": {"start": 1, "cards": "AS"}}, r"ace_draw.cards must be a list"),
    ],
)
def test_malformed_records_raise_a_clear_error(data: object, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        judge(data)


# ---------------------------------------------------------------- round trips and fuzzing


@pytest.mark.parametrize("preset", ["classic", "platform-a", "platform-b", "simulator"])
def test_records_of_random_games_judge_to_the_games_results(preset: str) -> None:
    for seed in range(4):
        game, _ = random_game(RuleSet.preset(preset, target_points=3), seed)
        record = json.loads(json.dumps(record_from_game(game)))
        report = judge(record)
        assert report["ok"], report
        assert report["score"] == game.score and report["game_over"]
        assert [h["result"] for h in report["hands"]] == [r.result for r in game.hand_results]
        assert parse_record(record).to_dict() == record


def test_a_game_in_progress_records_and_judges_consistently() -> None:
    rng = random.Random(5)
    for steps in range(0, 400, 7):
        game = Game(RuleSet.preset("classic"), hakem=steps % 4)
        for _ in range(steps):
            if game.is_over:
                break
            if game.phase is Phase.DEAL:
                game.apply(Deal.from_seed(f"p{steps}-{len(game.history)}", game.hakem or 0))
            else:
                game.apply(rng.choice(game.legal_actions()))
        verdict = referee(record_from_game(game))
        assert verdict.report["ok"], verdict.report
        assert verdict.game is not None and verdict.report["score"] == game.score
        if game.phase in (Phase.TRUMP, Phase.PLAY, Phase.BAM):
            assert verdict.report["hands"][-1]["complete"] is False
            assert verdict.game.plays == game.plays


def test_redeals_are_recorded_and_replayed() -> None:
    game = Game(RuleSet.preset("classic"), hakem=0)
    game.apply(stacked(ALL_TRUMPS_AT_0))
    game.choose_trump("S")  # seat 1 holds no spade: redealt
    game.apply(stacked(WEAK_FIVE))
    game.choose_trump("S")
    play_first_legal(game)
    record = record_from_game(game)
    assert record["hands"][0]["redeals"][0]["reason"] == "no_trump"
    report = judge(record)
    assert report["ok"] and report["hands"][0]["result"] == game.hand_results[0].result
    record["hands"][0]["redeals"][0]["trump"] = "H"  # seat 0 holds no heart: redealt too
    assert judge(record)["ok"]
    record["hands"][0]["redeals"][0]["cards"] = hands_of(WEAK_FIVE)
    record["hands"][0]["redeals"][0]["trump"] = "S"
    # The first abandoned deal is "redeal 1", as `hokm verify` says "abandoned deal 1".
    assert error_of(record)["reason"].startswith("redeal 1: no redeal is due")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 60)
    | st.sampled_from(["AS", "10h", "S", "H", "hokm-record/1", "classic", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "format",
                    "rules",
                    "hands",
                    "hakem",
                    "cards",
                    "trump",
                    "plays",
                    "bam",
                    "preset",
                    "seed",
                    "commitment",
                    "redeals",
                    "reason",
                    "ace_draw",
                    "start",
                    "target_points",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_judge_never_raises_anything_but_invalid_record_error(data: object) -> None:
    try:
        report = judge(data)
    except InvalidRecordError:
        return
    assert report["ok"] in (True, False)
    json.dumps(report)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.data())
def test_mutated_records_give_a_report_or_a_located_error(seed: int, data: st.DataObject) -> None:
    game, _ = random_game(RuleSet.preset("platform-b", target_points=2), seed % 50)
    record = record_from_game(game)
    hand = data.draw(st.integers(0, len(record["hands"]) - 1))
    target = record["hands"][hand]
    kind = data.draw(st.sampled_from(["play", "drop", "card", "trump", "hakem", "bam"]))
    if kind == "play" and target["plays"]:
        i = data.draw(st.integers(0, len(target["plays"]) - 1))
        target["plays"][i] = data.draw(st.sampled_from(["AS", "2C", "TH", "QD", "zz"]))
    elif kind == "drop" and target["plays"]:
        del target["plays"][data.draw(st.integers(0, len(target["plays"]) - 1))]
    elif kind == "card":
        seat = data.draw(st.integers(0, 3))
        target["cards"][seat][data.draw(st.integers(0, 12))] = data.draw(
            st.sampled_from(["AS", "2C", "TH", "QD", "??"])
        )
    elif kind == "trump":
        target["trump"] = data.draw(st.sampled_from(["S", "H", "D", "C", None, "Q"]))
    elif kind == "hakem":
        target["hakem"] = data.draw(st.integers(0, 3))
    else:
        target["bam"] = data.draw(st.sampled_from([True, False, None]))
    report = judge(record)
    if not report["ok"]:
        error = report["error"]
        assert set(error) == {"hand", "play", "seat", "card", "reason"}
        assert isinstance(error["reason"], str) and error["hand"] is not None
