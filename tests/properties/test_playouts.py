"""Random playouts and property tests: invariants that must hold in every game.

Hypothesis picks the rules and the seed; each example plays a whole game with random
legal actions and checks the invariants after every action.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st

from hokm.engine import (
    ALL_CARDS,
    Card,
    Deal,
    DrawAces,
    Game,
    Phase,
    RuleSet,
    SeatView,
    SetHakem,
    event_for,
    view_of,
)
from hokm.engine.events import CardPlayed, CardsDealt, Event, HandEnded, Redealt

CARD_TEXTS = {str(c) for c in ALL_CARDS}

rules_strategy = st.builds(
    RuleSet,
    target_points=st.integers(1, 5),
    kot_points=st.integers(1, 4),
    hakem_kot_points=st.integers(1, 5),
    bam=st.booleans(),
    failed_bam=st.sampled_from(["minus3", "kot"]),
    first_hakem=st.sampled_from(["ace_draw", "random"]),
    hakem_may_redeal_weak_five=st.booleans(),
    redeal_if_player_has_no_trump=st.booleans(),
)

# No shrinking: a failing example is reported as drawn (a whole game shrinks slowly).
PROPERTY_SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[HypothesisPhase.explicit, HypothesisPhase.reuse, HypothesisPhase.generate],
)


def cards_in(data: Any) -> set[str]:
    """Every string in JSON data that is a card, e.g. ``"AS"``."""
    found: set[str] = set()
    if isinstance(data, str):
        if data in CARD_TEXTS:
            found.add(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            # The ace draw is a separate, public deck; seeds are not cards.
            if key not in ("seed", "seed_commitment", "ace_draw", "draw"):
                found |= cards_in(value)
    elif isinstance(data, list | tuple):
        for item in data:
            found |= cards_in(item)
    return found


class Checker:
    """Follows a game action by action and checks every invariant."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.played: set[Card] = set()  # cards played in the current hand
        self.public: set[Card] = set()  # played this hand
        self.dealt: list[set[Card]] = [set(), set(), set(), set()]  # dealt to each seat
        self.steps = 0

    def after(self, events: list[Event]) -> None:
        game = self.game
        self.steps += 1
        for event in events:
            if isinstance(event, CardsDealt):
                for seat in range(4):
                    self.dealt[seat] |= set(event.cards[seat])
            if isinstance(event, CardPlayed):
                assert event.card not in self.played, "a card is played twice in a hand"
                self.played.add(event.card)
                self.public.add(event.card)
            self.check_event(event)
            if isinstance(event, HandEnded):
                self.check_hand_end(event)
                self.played.clear()
                self.public = set()
            if isinstance(event, HandEnded | Redealt):
                self.dealt = [set(), set(), set(), set()]
        if game.phase in (Phase.PLAY, Phase.BAM):
            self.check_conservation()
        self.check_views()

    def own(self, seat: int) -> set[Card]:
        return self.dealt[seat]

    def check_event(self, event: Event) -> None:
        for seat in (None, 0, 1, 2, 3):
            data = event_for(event, seat)
            if data is None:
                continue
            allowed = {str(c) for c in self.public | self.played}
            if seat is not None:
                allowed |= {str(c) for c in self.own(seat)}
            assert cards_in(data) <= allowed, f"event {event.kind} leaks to seat {seat}"

    def check_views(self) -> None:
        game = self.game
        for seat in (None, 0, 1, 2, 3):
            view = view_of(game, seat)
            data = view.to_dict()
            hidden = {str(c) for s in range(4) if s != seat for c in game.hand_of(s)}
            assert not cards_in(data) & hidden, f"the view of seat {seat} leaks cards"
            if seat is not None:
                assert set(view.hand) == set(game.hand_of(seat))
            else:
                assert view.hand == ()
            if self.steps % 9 == 0:  # JSON round trips are slow: check every ninth step
                assert SeatView.from_dict(json.loads(json.dumps(data))) == view

    def check_conservation(self) -> None:
        game = self.game
        held = [c for s in range(4) for c in game.hand_of(s)]
        everything = held + list(game.plays)
        assert len(everything) == 52 and set(everything) == set(ALL_CARDS)
        assert set(game.plays) == self.played
        assert max(game.tricks_won) <= (13 if game.bam_decision else 7)

    def check_hand_end(self, end: HandEnded) -> None:
        game = self.game
        result = game.hand_results[-1]
        rules = game.rules
        won, lost = end.tricks[end.winner_team], end.tricks[1 - end.winner_team]
        if end.result in ("normal", "kot", "hakem_kot"):
            assert won == 7 and len(result.trick_winners) == won + lost
        points = {
            "normal": 1,
            "kot": rules.kot_points,
            "hakem_kot": rules.hakem_kot_points,
        }
        if end.result in points:
            assert end.points[end.winner_team] == points[end.result]
            assert (lost == 0) is (end.result != "normal")
            assert (end.result == "hakem_kot") is (lost == 0 and end.hakem.team != end.winner_team)
        elif end.result in ("bam", "par_bam"):
            assert rules.bam and result.bam is True and won == 13
            assert (end.result == "bam") is (end.hakem.team == end.winner_team)
            assert end.score[end.winner_team] == rules.target_points and game.is_over
        else:
            assert end.result == "failed_bam" and rules.bam and result.bam is True
            assert min(end.tricks) == 1 and 7 <= max(end.tricks) <= 12  # ends at once
            if rules.failed_bam == "minus3":
                assert -3 in end.points and end.points[end.winner_team] == 0
        assert end.next_hakem == (
            end.hakem if end.hakem.team == end.winner_team else end.hakem.next
        )
        total = [sum(r.points[t] for r in game.hand_results) for t in (0, 1)]
        assert list(end.score) == total
        assert len(result.plays) == 4 * len(result.trick_winners)


def play_checked(rules: RuleSet, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(rules)
    checker = Checker(game)
    first = (
        DrawAces.from_seed(f"d{seed}")
        if rules.first_hakem == "ace_draw"
        else SetHakem.from_seed(f"h{seed}")
    )
    checker.after(game.apply(first))
    while not game.is_over:
        if game.phase is Phase.DEAL:
            assert game.hakem is not None
            action: Any = Deal.from_seed(f"{seed}-{len(game.history)}", game.hakem)
        else:
            action = rng.choice(game.legal_actions())
        checker.after(game.apply(action))
    return game


@PROPERTY_SETTINGS
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(rules: RuleSet, seed: int) -> None:
    """52 cards conserved, each played once, 7 tricks unless bam, scores follow results,
    views and events leak no unplayed card of another seat, and JSON round-trips."""
    game = play_checked(rules, seed)
    assert game.winner_team in (0, 1)
    assert game.score[game.winner_team] >= rules.target_points
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game


@settings(max_examples=40, deadline=None, phases=PROPERTY_SETTINGS.phases)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_a_game_in_progress_round_trips_through_json(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = Game(RuleSet.preset("classic"), hakem=seed % 4)
    for _ in range(steps):
        if game.is_over:
            break
        if game.phase is Phase.DEAL:
            assert game.hakem is not None
            game.apply(Deal.from_seed(f"{seed}-{len(game.history)}", game.hakem))
        else:
            game.apply(rng.choice(game.legal_actions()))
    copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy == game
    assert copy.legal_actions() == game.legal_actions()
    for seat in (None, 0, 1, 2, 3):
        assert view_of(copy, seat) == view_of(game, seat)


def test_many_random_hands_end_at_seven_tricks_without_bam() -> None:
    """A quick volume run: 300 hands with bam off each stop at exactly 7 tricks for the winner."""
    rng = random.Random(2024)
    for i in range(300):
        game = Game(RuleSet(), hakem=i % 4)
        game.apply(Deal.from_seed(f"volume-{i}", game.hakem or 0))
        while game.hand_number == 0:
            game.apply(rng.choice(game.legal_actions()))
        result = game.hand_results[0]
        assert max(result.tricks) == 7 and sum(result.tricks) == len(result.trick_winners)


@given(st.sampled_from(ALL_CARDS))
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    if card.rank == 10:
        assert Card.parse("10" + card.suit.value) is card
