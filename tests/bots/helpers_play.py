"""Shared helpers of the bot tests: play hands with bots, checking every action first."""

from __future__ import annotations

from hokm.bots import Bot
from hokm.engine import Deal, Game, Phase, RuleSet, Seat, view_of


def acting_seat(game: Game) -> Seat:
    """The seat whose decision is due (in phase bam: a seat of the team at 7–0)."""
    if game.phase is Phase.BAM:
        assert game.bam_team is not None
        return Seat(game.bam_team)
    assert game.to_move is not None
    return game.to_move


def play_hand(game: Game, bots: list[Bot], seed: str, *, max_steps: int = 400) -> int:
    """Play the current hand to its end; every bot action must be legal. Returns the actions."""
    start = len(game.hand_results)
    steps = 0
    redeals = 0
    while len(game.hand_results) == start and not game.is_over:
        if game.phase is Phase.DEAL:
            assert game.hakem is not None
            game.apply(Deal.from_seed(f"{seed}/{redeals}", game.hakem))
            redeals += 1
            continue
        seat = acting_seat(game)
        view = view_of(game, seat)
        action = bots[seat].act(view)
        assert action.to_dict() in view.legal, (action, view.legal)
        assert game.can(action)
        game.apply(action)
        steps += 1
        assert steps < max_steps
    return steps


def new_game(rules: RuleSet, hakem: int) -> Game:
    return Game(rules, hakem=Seat(hakem))
