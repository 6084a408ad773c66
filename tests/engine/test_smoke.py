"""Smoke tests of the engine's public API (the thorough rule tests live beside this file)."""

import random

from hokm.engine import Deal, DrawAces, Game, Phase, RuleSet, view_of


def test_random_games_end_with_a_winner_and_round_trip() -> None:
    """Random legal games with bam on end with a winner and serialise back unchanged."""
    rng = random.Random(7)
    for i in range(20):
        game = Game(RuleSet.preset("platform-b"))
        game.apply(DrawAces.from_seed(f"smoke-{i}"))
        while not game.is_over:
            if game.phase is Phase.DEAL:
                assert game.hakem is not None
                game.apply(Deal.from_seed(f"smoke-{i}-{len(game.history)}", game.hakem))
            else:
                game.apply(rng.choice(game.legal_actions()))
        assert game.winner_team in (0, 1)
        assert Game.from_dict(game.to_dict()) == game
        assert view_of(game, None).hand == ()
