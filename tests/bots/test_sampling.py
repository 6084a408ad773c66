"""Sampled worlds agree with everything a seat knows, and nothing else."""

from __future__ import annotations

import random

from hokm.bots.fast import SUIT_MASKS, mask_of
from hokm.bots.sampling import (
    Facts,
    count_worlds,
    enumerate_worlds,
    sample_world,
    trump_call_likelihood,
)
from hokm.engine import Deal, Game, RuleSet, Seat, SeatView, Suit, view_of


def _views(seed: str, rng: random.Random, stop_after: int) -> tuple[Game, SeatView]:
    hakem = Seat(rng.randrange(4))
    game = Game(RuleSet(), hakem=hakem)
    game.apply(Deal.from_seed(seed, hakem))
    game.choose_trump(rng.choice(list(Suit)))
    for _ in range(stop_after):
        game.play(rng.choice(game.legal_cards()))
        if game.hand_number:
            raise LookupError
    assert game.to_move is not None
    return game, view_of(game, game.to_move)


def test_worlds_keep_sizes_voids_own_cards_and_played_cards() -> None:
    """Every sampled world deals exactly the unseen cards, in the right sizes, around voids."""
    rng = random.Random(1)
    checked = 0
    for i in range(150):
        try:
            game, view = _views(f"s-{i}", rng, rng.randrange(0, 36))
        except LookupError:
            continue
        facts = Facts.from_view(view)
        for _ in range(5):
            world = sample_world(facts, rng)
            assert world[facts.seat] == mask_of(view.hand)
            assert [m.bit_count() for m in world] == list(view.hand_sizes)
            assert world[0] | world[1] | world[2] | world[3] == facts.unseen | facts.own
            assert facts.fits(world)
        # The true deal is one of the consistent worlds.
        assert facts.fits([mask_of(h) for h in game.hands])
        checked += 1
    assert checked > 100


def test_voids_come_from_failing_to_follow() -> None:
    """A seat that discarded on a led suit is void in it in the facts."""
    rng = random.Random(2)
    for i in range(100):
        try:
            game, view = _views(f"v-{i}", rng, 30)
        except LookupError:
            continue
        facts = Facts.from_view(view)
        for trick in game.tricks:
            led = trick.cards[0].suit
            for k, card in enumerate(trick.cards):
                seat = (trick.leader + k) % 4
                if card.suit is not led:
                    assert facts.void_suits[seat] & SUIT_MASKS[led.ordinal]


def test_enumeration_lists_every_consistent_world_once() -> None:
    """In an endgame, enumeration yields each fitting deal once, and the true deal among them."""
    rng = random.Random(3)
    done = 0
    for i in range(60):
        try:
            game, view = _views(f"e-{i}", rng, 40)
        except LookupError:
            continue
        facts = Facts.from_view(view)
        if count_worlds(facts) > 2000:
            continue
        worlds = [tuple(w) for w, _ in enumerate_worlds(facts)]
        assert len(worlds) == len(set(worlds)) <= count_worlds(facts)
        assert all(facts.fits(list(w)) for w in worlds)
        assert tuple(mask_of(h) for h in game.hands) in worlds
        done += 1
    assert done > 5


def test_the_trump_call_gives_the_hakem_more_trumps() -> None:
    """Seen from another seat, sampled hakem hands hold more trumps than an even share."""
    assert trump_call_likelihood(6) > trump_call_likelihood(3) > trump_call_likelihood(1)
    rng = random.Random(4)
    hakem = Seat(0)
    game = Game(RuleSet(), hakem=hakem)
    game.apply(Deal.from_seed("evidence", hakem))
    game.choose_trump(Suit.HEARTS)
    facts = Facts.from_view(view_of(game, Seat(1)))
    unseen_trumps = (facts.unseen & SUIT_MASKS[Suit.HEARTS.ordinal]).bit_count()
    total = sum(
        (sample_world(facts, rng)[0] & SUIT_MASKS[Suit.HEARTS.ordinal]).bit_count()
        for _ in range(400)
    )
    assert total / 400 > unseen_trumps / 3 + 0.5


def _rule_game(seed: str, hakem: Seat) -> Game:
    from hokm.bots import RuleBot
    from hokm.engine import Phase

    bots = [RuleBot(seed=f"{seed}{s}") for s in range(4)]
    game = Game(RuleSet(), hakem=hakem)
    game.apply(Deal.from_seed(seed, hakem))
    while game.phase is not Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].act(view_of(game, seat)))
    return game


def test_rule_bot_plays_agree_with_the_rule_policy_in_the_true_deal() -> None:
    """Four rule bots play; in the real deal the rule policy explains every earlier play
    (so the evidence never rejects the truth), the quick policy answers like the full one,
    and sampled worlds mostly fail some play."""
    from hokm.bots import RuleBot
    from hokm.bots.sampling import PlayEvidence, ViewPolicy
    from hokm.bots.search import rule_policy

    rule = RuleBot(seed=0)
    quick, full = rule_policy(rule), ViewPolicy(rule.choose_card)
    rng = random.Random(3)
    wrong = checked = 0
    for i in range(3):
        game = _rule_game(f"agree-{i}", Seat(i))
        while game.hand_number == 0:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            evidence = PlayEvidence(view, quick, plays=12)
            assert evidence.mismatches([mask_of(h) for h in game.hands])[0] == 0
            facts = Facts.from_view(view)
            slow = PlayEvidence(view, full, plays=12)
            for _ in range(3):
                world = sample_world(facts, rng)
                misses = evidence.mismatches(world)
                assert misses == slow.mismatches(world)
                wrong += misses[0] > 0
                checked += 1
            game.apply(rule.act(view))
    assert wrong > checked // 2


def test_play_evidence_puts_the_unseen_cards_nearer_the_truth() -> None:
    """Worlds accepted by the play evidence place more unseen cards with their real holder
    than plain worlds do."""
    from hokm.bots import RuleBot
    from hokm.bots.sampling import PlayEvidence
    from hokm.bots.search import rule_policy

    rule = RuleBot(seed=0)
    rng = random.Random(4)
    plain = informed = 0
    for i in range(8):
        game = _rule_game(f"nearer-{i}", Seat(i % 4))
        for _ in range(4 * (3 + i % 5)):
            game.play(rule.choose_card(view_of(game, game.to_move)))
        seat = game.to_move
        assert seat is not None
        view = view_of(game, seat)
        facts = Facts.from_view(view)
        truth = [mask_of(h) for h in game.hands]
        evidence = PlayEvidence(view, rule_policy(rule), plays=12, miss=0.0)
        for _ in range(20):
            world = sample_world(facts, rng)
            plain += sum((world[s] & truth[s]).bit_count() for s in facts.others)
            while not evidence.test(world, rng)[0]:
                world = sample_world(facts, rng)
            informed += sum((world[s] & truth[s]).bit_count() for s in facts.others)
    assert informed > plain * 1.1
