"""The search bot: legal, deterministic, blind to hidden cards, falls back to the rule bot."""

from __future__ import annotations

import random

import pytest

from hokm.bots.rule import RuleBot
from hokm.bots.search import SearchBot
from hokm.engine import Deal, DecideBam, Game, Phase, Play, RuleSet, Seat, Suit, view_of


def _bots(worlds: int = 2) -> list[SearchBot]:
    return [SearchBot(seed=f"t{s}", worlds=worlds) for s in range(4)]


def test_search_bots_play_only_legal_moves() -> None:
    """Four search bots play whole games (trump, cards, bam on) without an illegal action."""
    bots = _bots()
    for i in range(2):
        game = Game(RuleSet.preset("platform-b").replace(target_points=3), hakem=Seat(i))
        while not game.is_over:
            if game.phase is Phase.DEAL:
                assert game.hakem is not None
                game.apply(Deal.from_seed(f"legal-{i}-{len(game.history)}", game.hakem))
                continue
            seat = game.to_move if game.phase is not Phase.BAM else None
            if seat is None:
                seat = game.legal_actions()[0].seat  # type: ignore[union-attr]
            action = bots[seat].act(view_of(game, seat))
            assert game.can(action)
            game.apply(action)
        assert game.winner_team in (0, 1)


def test_search_bots_play_on_through_a_bam() -> None:
    """After a team at 7–0 goes on for bam, every seat's search bot plays a legal card to the
    hand's end (it raised KeyError there: its searches count to 7 tricks, not 13)."""
    rule, bams = RuleBot(seed=0), 0
    for i in range(400):
        game = Game(RuleSet.preset("classic"), hakem=Seat(i % 4))
        game.apply(Deal.from_seed(f"bam-{i}", Seat(i % 4)))
        while game.phase is not Phase.BAM and not game.hand_results:
            if game.phase is Phase.DEAL:
                break
            seat = game.to_move
            assert seat is not None
            game.apply(rule.act(view_of(game, seat)))
        if game.phase is not Phase.BAM:
            continue
        team = game.bam_team
        assert team is not None
        game.apply(DecideBam(Seat(team), go=True))
        bots = _bots()
        while not game.hand_results:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            assert view.bam_going
            action = bots[seat].act(view)
            assert action.to_dict() in view.legal
            game.apply(action)
        bams += 1
        if bams == 3:
            break
    assert bams == 3


def test_decisions_are_deterministic_for_a_seed() -> None:
    """Two bots with the same seed choose the same card with the same values (the search runs
    from the first trick with ``learned=0``)."""
    game = Game(RuleSet(), hakem=Seat(1))
    game.apply(Deal.from_seed("det", Seat(1)))
    game.choose_trump(Suit.CLUBS)
    for _ in range(5):
        game.play(game.legal_cards()[0])
    view = view_of(game, game.to_move)
    a, b = SearchBot(seed=9, worlds=6, learned=0), SearchBot(seed=9, worlds=6, learned=0)
    assert a.act(view) == b.act(view)
    assert a.last is not None and b.last is not None
    assert a.last.values == b.last.values


def _other_deal(game: Game, seat: Seat, rng: random.Random) -> Game | None:
    """The same hand so far, with the unplayed cards of the other seats dealt differently."""
    assert game.deal is not None and game.hakem is not None and game.trump is not None
    played = {c for c in game.plays}
    others = [s for s in Seat if s != seat]
    pool = [c for s in others for c in game.hand_of(s)]
    rng.shuffle(pool)
    hands = {}
    for s in others:
        keep = [c for c in game.deal.hands[s] if c in played]
        take = 13 - len(keep)
        hands[s] = keep + pool[:take]
        pool = pool[take:]
    hands[seat] = list(game.deal.hands[seat])
    other = Game(RuleSet(), hakem=game.hakem)
    other.apply(Deal.from_hands([hands[s] for s in Seat]))
    other.choose_trump(game.trump)
    for action in game.history[2:]:
        if not other.can(action):
            return None
        other.apply(action)
    return other


def test_decisions_ignore_the_other_seats_unseen_cards() -> None:
    """Changing only the cards a seat cannot see changes neither its view nor its decision."""
    rng = random.Random(5)
    compared = 0
    for i in range(40):
        hakem = Seat(i % 4)
        game = Game(RuleSet(), hakem=hakem)
        game.apply(Deal.from_seed(f"peek-{i}", hakem))
        game.choose_trump(rng.choice(list(Suit)))
        for _ in range(rng.randrange(8, 30)):
            game.play(rng.choice(game.legal_cards()))
        if game.phase is not Phase.PLAY or game.hand_number:
            continue
        seat = game.to_move
        assert seat is not None
        for _ in range(20):
            other = _other_deal(game, seat, rng)
            if other is None or other.hands == game.hands:
                continue
            view, view2 = view_of(game, seat), view_of(other, seat)
            assert view == view2
            bot = SearchBot(seed=1, worlds=3)
            first = bot.act(view)
            assert SearchBot(seed=1, worlds=3).act(view2) == first == bot.act(view2)
            compared += 1
            break
    assert compared >= 5


def test_a_huge_margin_always_plays_the_rule_card() -> None:
    """With margins no search and no learned value can clear, the search bot plays the rule
    bot's card."""
    rng = random.Random(6)
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed("margin", Seat(0)))
    game.choose_trump(Suit.SPADES)
    bot = SearchBot(seed=2, worlds=3, margin=100.0, learned_margin=100.0)
    while game.hand_number == 0:
        seat = game.to_move
        assert seat is not None
        view = view_of(game, seat)
        action = bot.act(view)
        assert isinstance(action, Play)
        assert action.card == bot.rule.choose_card(view)
        game.apply(action if rng.random() < 0.5 else Play(seat, rng.choice(game.legal_cards())))


def test_the_endgame_is_solved_exactly() -> None:
    """Late in a hand every consistent world is examined."""
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed("exact", Seat(0)))
    game.choose_trump(Suit.DIAMONDS)
    bot = SearchBot(seed=3, worlds=4)
    seen_exact = False
    while game.hand_number == 0:
        seat = game.to_move
        assert seat is not None
        view = view_of(game, seat)
        bot.last = None
        game.apply(bot.act(view))
        if bot.last is not None and sum(view.hand_sizes) <= 8:
            assert bot.last.exact
            seen_exact = True
    assert seen_exact or sum(game.hand_results[0].tricks) < 12


def test_points_are_capped_by_what_the_game_still_needs() -> None:
    """At 6–5 to 7 a kot is worth no more than a normal win to either team."""
    from dataclasses import replace

    from hokm.bots.search import outcome_points

    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed("cap", Seat(0)))
    game.choose_trump(Suit.SPADES)
    view = view_of(game, Seat(1))
    assert [outcome_points(o, view) for o in (2, 1, -1, -2)] == [3.0, 1.0, -1.0, -2.0]
    late = replace(view, score=(6, 5))
    assert [outcome_points(o, late) for o in (2, 1, -1, -2)] == [2.0, 1.0, -1.0, -1.0]


def test_worlds_drawn_with_play_evidence_explain_the_plays_and_cost_work() -> None:
    """A drawn world fits every checked play when possible; each rule-bot question counts
    as work; ``infer=0`` turns the evidence off."""
    import random as _random

    from hokm.bots.sampling import Facts, PlayEvidence
    from hokm.bots.search import CHECK_WORK, _draw, rule_policy

    game = Game(RuleSet(), hakem=Seat(2))
    game.apply(Deal.from_seed("evidence", Seat(2)))
    game.choose_trump(Suit.HEARTS)
    rule = SearchBot(seed=0).rule
    for _ in range(14):
        game.play(rule.choose_card(view_of(game, game.to_move)))
    view = view_of(game, game.to_move)
    facts = Facts.from_view(view)
    evidence = PlayEvidence(view, rule_policy(rule), plays=8, miss=0.0)
    rng = _random.Random(1)
    for _ in range(5):
        meter = [0]
        world = _draw(facts, evidence, rng, 500, meter)
        misses, calls = evidence.mismatches(world)
        assert misses == 0 and facts.fits(world)
        assert meter[0] >= calls * CHECK_WORK > 0
    plain = SearchBot(seed=4, worlds=6, infer=0, learned=0)
    assert game.can(plain.act(view))
    assert plain.last is not None and plain.last.worlds == 6


def test_playout_values_mix_with_double_dummy_over_the_same_worlds() -> None:
    """``playout_weight`` w values each card by (1 − w) × double-dummy + w × the hand played
    out by rule bots, in the same worlds: the mixed values are the weighted mean of the two
    pure ones, and with w = 1 each card's value is the mean of playout outcomes (points of a
    normal win or loss, or a kot)."""
    rng = random.Random(11)
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed("mix", Seat(0)))
    game.choose_trump(Suit.HEARTS)
    checked = 0
    while game.hand_number == 0 and checked < 12:
        seat = game.to_move
        assert seat is not None
        view = view_of(game, seat)
        if len(view.tricks) >= 6 and len(game.legal_cards()) > 1:
            rule = SearchBot(seed=1).rule.choose_card(view)
            pure = {
                w: SearchBot(seed=1, worlds=6, playout_weight=w).evaluate(view, rule)
                for w in (0.0, 0.5, 1.0)
            }
            assert pure[0.0].worlds == pure[1.0].worlds == pure[0.5].worlds
            for card, mixed in pure[0.5].values.items():
                expected = (pure[0.0].values[card] + pure[1.0].values[card]) / 2
                assert abs(mixed - expected) < 1e-9
            assert all(-3 <= v <= 3 for v in pure[1.0].values.values())
            checked += 1
        game.play(rng.choice(game.legal_cards()))
    assert checked > 0
    assert SearchBot(seed=1, playout_weight=0.5).playout_weight == 0.5
    with pytest.raises(ValueError, match="playout_weight"):
        SearchBot(playout_weight=1.5)
