"""Rule-bot playouts: the incremental knowledge and cards equal the rule bot's on real games."""

from __future__ import annotations

from hokm.bots.knowledge import Knowledge
from hokm.bots.rollout import Playout
from hokm.bots.rule import RuleBot
from hokm.engine import Deal, Game, Phase, Play, RuleSet, Seat, view_of


def _sorted_deal(seed: str, hakem: Seat) -> Deal:
    """A seeded deal with each hand in card-index order.

    The rule bot breaks some ties by the order of its legal cards, which a game lists in deal
    order within a suit and a playout in index order; sorted hands make the two orders agree.
    """
    deal = Deal.from_seed(seed, hakem)
    return Deal.from_hands([sorted(h, key=lambda c: c.index) for h in deal.hands])


def test_playout_knows_and_plays_what_the_rule_bot_does() -> None:
    """From positions at every trick, a playout's knowledge equals ``Knowledge.from_view`` of
    each seat's real view and its card equals the rule bot's, play by play to the end."""
    bot = RuleBot(seed=1)
    checked = 0
    for i in range(60):
        hakem = Seat(i % 4)
        game = Game(RuleSet(), hakem=hakem)
        game.apply(_sorted_deal(f"playout-{i}", hakem))
        game.apply(bot.act(view_of(game, hakem)))
        while len(game.tricks) < i % 8 or len(game.current_trick) < i % 3:
            seat = game.to_move
            assert seat is not None
            game.apply(Play.of(seat, bot.choose_card(view_of(game, seat))))
        seat = game.to_move
        if seat is None:  # the hand ended on the way
            continue
        world = [sum(1 << c.index for c in game.hand_of(s)) for s in range(4)]
        playout = Playout.from_view(view_of(game, seat), world)
        copy = playout.copy()
        while game.phase is Phase.PLAY and max(game.tricks_won) < 7:
            seat = game.to_move
            assert seat is not None and seat == playout.to_move
            view = view_of(game, seat)
            assert playout.knowledge(seat) == Knowledge.from_view(view)
            card = bot.choose_card(view)
            assert playout.rule_card() == card
            game.apply(Play.of(seat, card))
            playout.play(card)
            checked += 1
        assert playout.is_over
        assert tuple(playout.won) == copy.finish()  # the copy was independent and plays alike
    assert checked > 1000


def test_playout_needs_a_seat_in_play() -> None:
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_seed("no-trump-yet", Seat(0)))
    try:
        Playout.from_view(view_of(game, Seat(0)), [0, 0, 0, 0])
    except ValueError as exc:
        assert "play phase" in str(exc)
    else:
        raise AssertionError("a view before the trump call has no playout")
