"""The own double-dummy solver and DDS (endplay) agree; Hokm outcomes follow from them."""

from __future__ import annotations

import random

from hokm.bots.dd import (
    SearchLimitError,
    Solver,
    card_outcomes,
    dds_card_scores,
    dds_winning_cards,
)
from hokm.bots.fast import FastHand, cards_of_mask, mask_of, random_position
from hokm.engine import parse_cards


def _position(i: int, cards_left: int, rng: random.Random) -> FastHand | None:
    return random_position(f"dd-{i}", cards_left, rng)


def test_own_solver_agrees_with_dds_on_random_positions() -> None:
    """Max tricks per card from DDS equal what the own boolean solver proves, trick in progress
    included."""
    rng = random.Random(8)
    checked = 0
    for i in range(400):
        hand = _position(i, rng.choice((2, 3, 4, 5)), rng)
        if hand is None:
            continue
        team = hand.to_move & 1
        horizon = 13 - hand.tricks_played
        solver = Solver(hand)
        for card, score in dds_card_scores(hand).items():
            assert solver.card_reaches(card, team, score, horizon)
            assert not solver.card_reaches(card, team, score + 1, horizon)
        checked += 1
    assert checked > 100


def test_dds_scores_cover_exactly_the_legal_cards() -> None:
    """DDS answers for every legal card (equivalent cards expanded) and nothing else."""
    rng = random.Random(9)
    for i in range(30):
        hand = _position(i, 13, rng)
        assert hand is not None
        scores = dds_card_scores(hand)
        assert set(scores) == {c.index for c in cards_of_mask(hand.legal_mask())}
        best = max(scores.values())
        assert dds_winning_cards(hand, best) == {c for c, s in scores.items() if s == best}
        assert dds_winning_cards(hand, best + 1) == set()


def test_a_hand_of_all_the_top_trumps_is_a_kot() -> None:
    """Seat 0 holds all 13 trumps: every card wins a kot; the others lose a kot."""
    spades = mask_of(parse_cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"))
    hearts = mask_of(parse_cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"))
    diamonds = mask_of(parse_cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"))
    clubs = mask_of(parse_cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"))
    hand = FastHand([spades, hearts, diamonds, clubs], 0, 0, hakem=0)
    assert set(card_outcomes(hand).values()) == {2}
    hand.play(parse_cards("2S")[0].index)
    assert set(card_outcomes(hand).values()) == {-2}


def test_outcomes_match_a_played_out_kot_check() -> None:
    """A kot found by card_outcomes is confirmed by the own solver without a node limit."""
    rng = random.Random(10)
    found = 0
    for i in range(150):
        hand = _position(i, 9, rng)
        if hand is None:
            continue
        team = hand.to_move & 1
        mine, theirs = hand.won[team], hand.won[1 - team]
        for card, value in card_outcomes(hand, kot_nodes=10**6).items():
            solver = Solver(hand)
            if value == 2:
                assert theirs == 0 and solver.card_reaches(card, team, 7 - mine, 7 - mine)
                found += 1
            if value == -2:
                assert mine == 0 and not solver.card_reaches(card, team, 1, 7 - theirs)
                found += 1
            if value == 1 and theirs == 0:
                assert not solver.card_reaches(card, team, 7 - mine, 7 - mine)
    assert found > 0


def test_node_limit_stops_the_solver() -> None:
    """A solver with a tiny node budget raises instead of searching on."""
    hand = _position(1, 13, random.Random(1))
    assert hand is not None
    solver = Solver(hand, max_nodes=5)
    try:
        solver.can_reach(0, 7, 13)
    except SearchLimitError:
        return
    raise AssertionError("the node limit was not enforced")


def test_a_solver_that_ran_out_of_nodes_still_answers_about_its_own_position() -> None:
    """A question stopped by the node budget leaves the position as it was, so the same
    solver's next answers equal a fresh solver's (card_outcomes asks one solver about every
    card; a stopped search used to leave cards missing from the hands and later kot answers
    wrong)."""
    rng = random.Random(5)
    stopped = 0
    for i in range(60):
        hand = _position(100 + i, rng.choice((6, 7, 8)), rng)
        if hand is None:
            continue
        team = hand.to_move & 1
        need = 7 - hand.won[team]
        solver = Solver(hand, max_nodes=rng.choice((3, 10, 40)))
        before = (list(solver.h), list(solver.trick), solver.leader)
        try:
            solver.can_reach(team, need, need)
        except SearchLimitError:
            stopped += 1
        assert (solver.h, solver.trick, solver.leader) == before
        solver.nodes = 0
        solver.max_nodes = 1 << 62
        for card in cards_of_mask(hand.legal_mask()):
            for question in ((team, need, need), (1 - team, 1, need), (team, 1, need)):
                fresh = Solver(hand).card_reaches(card.index, *question)
                assert solver.card_reaches(card.index, *question) == fresh
    assert stopped > 20


def test_endgame_outcomes_from_the_own_solver_match_dds() -> None:
    """With 3 cards or fewer the own solver decides who reaches 7, exactly as DDS would."""
    rng = random.Random(12)
    checked = 0
    for i in range(300):
        hand = _position(i, rng.choice((2, 3)), rng)
        if hand is None:
            continue
        team = hand.to_move & 1
        winners = dds_winning_cards(hand, 7 - hand.won[team])
        outcomes = card_outcomes(hand, kot=False)
        assert {c for c, v in outcomes.items() if v > 0} == winners
        checked += 1
    assert checked > 50
