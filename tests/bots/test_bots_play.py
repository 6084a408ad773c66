"""Every bot plays only legal actions, is deterministic for a seed, and never peeks."""

from __future__ import annotations

import itertools
import random

import pytest

from hokm.bots import LEVELS, Bot, CardBot, make_bot
from hokm.bots.knowledge import Knowledge
from hokm.engine import (
    ALL_CARDS,
    Card,
    ChooseTrump,
    Deal,
    Game,
    Phase,
    Play,
    RuleSet,
    Seat,
    view_of,
)
from tests.bots.helpers_play import acting_seat, new_game, play_hand

FAST_LEVELS = ("random", "naive", "easy", "medium")
PRESETS = ("platform-a", "classic", "platform-b", "simulator")


def test_fast_bots_play_only_legal_actions_over_two_thousand_boards() -> None:
    """2,000 hands, every preset, every pairing of the fast bots: no illegal action ever."""
    pairs = list(itertools.product(FAST_LEVELS, repeat=2))
    counts = {level: 0 for level in FAST_LEVELS}
    for i in range(2000):
        a, b = pairs[i % len(pairs)]
        rules = RuleSet.preset(PRESETS[i % len(PRESETS)])
        bots = [make_bot(a if s % 2 == 0 else b, seed=f"{i}/{s}") for s in range(4)]
        game = new_game(rules, i % 4)
        play_hand(game, bots, f"legal/{i}")
        assert len(game.hand_results) == 1
        counts[a] += 1
        counts[b] += 1
    assert min(counts.values()) > 900


def test_hard_level_plays_legal_hands() -> None:
    """The hard level (search bot, or the rule bot when it is absent) plays legal hands."""
    for i in range(1):  # the search bot has its own tests; this checks the level's wiring
        bots = [make_bot("hard" if s % 2 else "naive", seed=s) for s in range(4)]
        game = new_game(RuleSet.preset("classic"), i % 4)
        play_hand(game, bots, f"hard/{i}")


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_gives_same_game(level: str) -> None:
    """A whole game with the same seeds is played the same way twice."""

    hands = 1 if level == "hard" else 8  # the search bot is slow: one hand proves it

    def record() -> list[dict[str, object]]:
        game = Game(RuleSet(target_points=3), hakem=Seat(1))
        levels = [level, "naive"] if level == "hard" else [level, level]
        bots: list[Bot] = [make_bot(levels[s % 2], seed=f"det/{s}") for s in range(4)]
        hand = 0
        while not game.is_over and hand < hands:
            play_hand(game, bots, f"det/{hand}")
            hand += 1
        return [a.to_dict() for a in game.history]

    assert record() == record()


def _known_to(game: Game, seat: Seat) -> tuple[list[list[Card]], set[Card]]:
    """Cards each seat has played this hand, and the cards ``seat`` holds or has seen."""
    view = view_of(game, seat)
    played: list[list[Card]] = [[], [], [], []]
    for s, c in view.played:
        played[s].append(c)
    return played, {*view.hand, *(c for _, c in view.played)}


def _other_world(game: Game, seat: Seat, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with the cards ``seat`` cannot see dealt anew.

    The hidden cards go to other seats (and to ``seat``'s own undealt cards during the trump
    phase) at random, never into a suit a seat has shown void in, so the history stays legal.
    """
    view = view_of(game, seat)
    played, known = _known_to(game, seat)
    voids = Knowledge.from_view(view).voids if view.phase is not Phase.TRUMP else [0] * 4
    pool = [c for c in ALL_CARDS if c not in known]
    deal = game.deal
    assert deal is not None
    while True:
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        rest = list(pool)
        ok = True
        for s in Seat:
            if s == seat:
                own = [c for c in deal.hands[s] if c in view.hand or c in played[s]]
                need = 13 - len(own)
                hands.append(own + rest[:need])
                rest = rest[need:]
                continue
            need = 13 - len(played[s])
            allowed = [c for c in rest if not voids[s] >> c.suit_index & 1]
            if len(allowed) < need:
                ok = False
                break
            take = allowed[:need]
            hands.append(played[s] + take)
            rest = [c for c in rest if c not in take]
        if ok and not rest:
            break
    if seat == game.hakem:  # the hakem's first five are what it saw: keep them first
        first = list(deal.hands[seat][:5])
        hands[seat] = first + [c for c in hands[seat] if c not in first]
    history = list(game.history)
    last_deal = max(i for i, a in enumerate(history) if isinstance(a, Deal))
    other = Game(game.rules, hakem=game.initial_hakem)
    for action in history[:last_deal]:
        other.apply(action)
    other.apply(Deal.from_hands(hands))
    for action in history[last_deal + 1 :]:
        other.apply(action)
    return other


@pytest.mark.parametrize("level", [*FAST_LEVELS, "hard"])
def test_decisions_do_not_change_when_only_unseen_cards_change(level: str) -> None:
    """Swap every card a seat cannot see: its view and its bot's decision stay the same."""
    rng = random.Random(7)
    checked = 0
    boards = 60 if level != "hard" else 8
    for i in range(boards):
        rules = RuleSet.preset(PRESETS[i % len(PRESETS)])
        game = new_game(rules, i % 4)
        game.apply(Deal.from_seed(f"peek/{i}", Seat(i % 4)))
        stop = rng.randrange(0, 45)
        bots = [make_bot("medium", seed=s) for s in range(4)]
        steps = 0
        while steps < stop and game.phase in (Phase.TRUMP, Phase.PLAY, Phase.BAM):
            game.apply(bots[acting_seat(game)].act(view_of(game, acting_seat(game))))
            steps += 1
        if game.phase not in (Phase.TRUMP, Phase.PLAY, Phase.BAM):
            continue
        seat = acting_seat(game)
        real = make_bot(level, seed=f"peek/{i}").act(view_of(game, seat))
        for _ in range(2):
            other = _other_world(game, seat, rng)
            assert view_of(other, seat) == view_of(game, seat)
            assert make_bot(level, seed=f"peek/{i}").act(view_of(other, seat)) == real, i
        checked += 1
    assert checked >= boards * 2 // 3


def test_bots_refuse_views_without_legal_actions() -> None:
    """Asked to act with nothing to do, a bot raises a clear ValueError."""
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed("none", Seat(0)))
    game.apply(ChooseTrump(Seat(0), ALL_CARDS[0].suit))
    idle = view_of(game, Seat(1))
    for level in LEVELS:
        with pytest.raises(ValueError, match="no legal action"):
            make_bot(level, seed=0).act(idle)


def test_card_bots_return_cards_from_the_legal_list() -> None:
    """choose_card of every card bot is one of the legal cards, trick after trick."""
    game = Game(RuleSet(), hakem=Seat(3))
    game.apply(Deal.from_seed("cards", Seat(3)))
    game.apply(ChooseTrump(Seat(3), ALL_CARDS[20].suit))
    bots = [make_bot(level, seed=1) for level in ("naive", "easy", "medium", "medium")]
    while game.phase is Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        bot = bots[seat]
        assert isinstance(bot, CardBot)
        card = bot.choose_card(view_of(game, seat))
        assert card in game.legal_cards()
        game.apply(Play(seat, card))
