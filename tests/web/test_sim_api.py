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
