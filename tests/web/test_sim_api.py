"""The simulator and advisor REST (``hokm.server.sim_api``) behind the web pages."""

from __future__ import annotations

import httpx
import pytest

from hokm.engine import Suit, parse_cards
from hokm.server.sim_api import advise, deal_json, replay, trick_reason


def test_a_seeded_deal_is_the_same_every_time_and_holds_52_cards() -> None:
    one, two = deal_json("seed-1", 2), deal_json("seed-1", 2)
    assert one == two
    assert sorted(c for hand in one["hands"] for c in hand) == sorted(
        {c for hand in one["hands"] for c in hand}
    )
    assert all(len(hand) == 13 for hand in one["hands"])


def test_replay_gives_the_legal_cards_and_refuses_an_illegal_play() -> None:
    hands = deal_json("follow", 0)["hands"]
    state = replay({"hakem": 0, "hands": hands, "trump": "H"})
    lead = state["legal"][0]
    after = replay({"hakem": 0, "hands": hands, "trump": "H", "plays": [lead]})
    led_suit = lead[-1]
    holding = [c for c in after["hands"][1] if c[-1] == led_suit]
    if holding:  # seat 1 must follow suit
        assert set(after["legal"]) == set(holding)
        other = next(c for c in after["hands"][1] if c[-1] != led_suit)
        with pytest.raises(ValueError, match="play 2"):
            replay({"hakem": 0, "hands": hands, "trump": "H", "plays": [lead, other]})


def test_each_finished_trick_says_why_it_was_won() -> None:
    assert "cut" in trick_reason(parse_cards("KS 2H AS 3S"), Suit.HEARTS)["en"]
    reason = trick_reason(parse_cards("KS 2D AS 3S"), Suit.HEARTS)
    assert "highest card of the led suit" in reason["en"] and "خال زمین" in reason["fa"]


def test_the_persian_reasons_read_as_a_player_says_them() -> None:
    """The winning card is the subject of its sentence: «شاه پیک بالاترین برگ خال زمین بود و
    برد», not the calque «بالاترین برگ خال زمین (پیک)، شاه پیک، برد» (the suit said twice)."""
    led = trick_reason(parse_cards("KS 2D AS 3S"), Suit.HEARTS)["fa"]
    assert led == "حکمی بازی نشد؛ آس پیک بالاترین برگ خال زمین بود و برد (برگِ خال دیگر نمی‌برد)"
    two = trick_reason(parse_cards("KS 2D 4C 3S"), Suit.HEARTS)["fa"]
    assert two.endswith("شاه پیک بالاترین برگ خال زمین بود و برد (۲ برگِ خال‌های دیگر نمی‌برند)")
    assert trick_reason(parse_cards("KS 2H AH 3S"), Suit.HEARTS)["fa"] == (
        "۲ حکم بازی شد و بالاترینِ آن‌ها، آس دل، برد"
    )
    assert trick_reason(parse_cards("KH 2H AH 3H"), Suit.HEARTS)["fa"] == (
        "خال زمین حکم بود و بالاترین حکم، آس دل، برد"
    )


def test_advice_needs_five_different_cards() -> None:
    advice = advise(["AH", "KH", "QH", "2S", "3C"])
    assert advice["suit"] == "H"
    # the cards named as people read them, in both languages (English said "(AH KH QH)")
    assert advice["reasons"]["en"].startswith("Hearts: 3 cards (A♥, K♥, Q♥); ")
    assert advice["reasons"]["fa"].startswith("دل: ۳ برگ (آس دل، شاه دل، بی‌بی دل)؛ ")
    with pytest.raises(ValueError, match="five"):
        advise(["AH", "KH"])


def test_bad_input_over_http_is_a_clear_400(server: str) -> None:
    """Nothing but a JSON error with the reason in English and Persian; never a traceback."""
    with httpx.Client(base_url=server) as client:
        for path, body in (
            ("/api/sim/state", {"hakem": 9, "hands": []}),
            ("/api/sim/state", {"hakem": 0, "hands": [["AS"]] * 4}),
            ("/api/advisor/trump", {"cards": ["AS", "XX", "2H", "3H", "4H"]}),
            ("/api/sim/bot", {"hakem": 0, "hands": deal_json("x", 0)["hands"], "level": "god"}),
        ):
            res = client.post(path, json=body)
            assert res.status_code == 400, (path, res.text)
            data = res.json()
            assert data["code"] == "bad_request" and data["message"] and data["message_fa"]
        res = client.post("/api/sim/state", content=b"not json")
        assert res.status_code == 400
        ok = client.post("/api/sim/deal", json={"seed": "http", "hakem": 1})
        assert ok.status_code == 200 and ok.json() == deal_json("http", 1)


def test_a_hand_stopped_at_seven_nil_is_over_in_the_replay() -> None:
    """With bam on, a team at 7–0 that stops (a record's ``"bam": false``) has won a kot: the
    referee says so. The replay left the hand waiting for the bam decision (phase "bam", no
    result), since the decision was applied only before a further card, so the web replay
    of such a kot showed no result."""
    hands = [[f"{r}{suit}" for r in "AKQJT98765432"] for suit in "SHDC"]
    plays = [card for trick in range(7) for card in (hand[trick] for hand in hands)]
    hand = {"hakem": 0, "hands": hands, "trump": "S", "plays": plays, "rules": {"bam": True}}
    stopped = replay({**hand, "bam": False})
    assert stopped["phase"] == "over" and stopped["result"] is not None
    assert (stopped["result"]["result"], stopped["result"]["points"]) == ("kot", [2, 0])
    assert len(stopped["tricks"]) == 7 and stopped["tricks_won"] == [7, 0]
    going_on = replay({**hand, "bam": True})  # the bam goes on: the winner leads trick 8
    assert (going_on["phase"], going_on["to_move"], going_on["result"]) == ("play", 0, None)
    assert set(going_on["legal"]) == set(hands[0][7:])
    undecided = replay(hand)  # no decision yet ("bam" absent or null): it is still awaited
    assert (undecided["phase"], undecided["result"]) == ("bam", None)
