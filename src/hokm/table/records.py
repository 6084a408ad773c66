"""The ``hokm-record/1`` record of a game played at a table (issue 2 §3, docs/records.md).

Uses ``hokm.engine.records.record_from_game`` when the engine provides it; otherwise builds
the documented form itself. Extra fields (``table``, ``players``, ``seeds``) are allowed by
the format and help people find and verify their games.
"""

from __future__ import annotations

import importlib
from typing import Any

from hokm.engine import Game

__all__ = ["game_record"]


def _own_record(game: Game) -> dict[str, Any]:
    hands: list[dict[str, Any]] = []
    for result in game.hand_results:
        hand: dict[str, Any] = {
            "hakem": int(result.hakem),
            "cards": [[str(c) for c in cards] for cards in result.deal.hands],
            "trump": result.trump.value,
            "plays": [str(c) for c in result.plays],
        }
        if result.bam is not None:
            hand["bam"] = result.bam
        if result.deal.seed is not None:
            hand["seed"] = result.deal.seed
        hands.append(hand)
    return {"format": "hokm-record/1", "rules": game.rules.to_dict(), "hands": hands}


def game_record(
    game: Game, *, table: str | None = None, players: list[str | None] | None = None
) -> dict[str, Any]:
    """The record of ``game``'s finished hands (an unfinished last hand is left out)."""
    record: dict[str, Any] | None = None
    try:
        module = importlib.import_module("hokm.engine.records")
    except ImportError:
        module = None
    maker = getattr(module, "record_from_game", None) if module is not None else None
    if maker is not None:
        try:
            made = maker(game)
        except (ValueError, TypeError):
            made = None
        if isinstance(made, dict):
            record = made
            # Only finished hands: the table stores games that ended or were cancelled.
            hands = record.get("hands")
            if isinstance(hands, list) and len(hands) > len(game.hand_results):
                record = {**record, "hands": hands[: len(game.hand_results)]}
    if record is None:
        record = _own_record(game)
    if table is not None:
        record["table"] = table
    if players is not None:
        record["players"] = players
    return record
