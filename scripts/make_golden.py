#!/usr/bin/env python3
"""Regenerate the golden whole-game files in ``tests/golden/``.

Each file is one complete game, played by a fixed random policy from fixed seeds, written as
readable JSON: the rules, every event, what each seat (and a spectator) saw at key points,
events as one seat received them, the game record and the referee's report and account.
``tests/golden/test_golden.py`` regenerates them in memory and diffs: any change of rules,
views, notation or records shows up as a readable diff. After an intended change run

    make golden        (or: .venv/bin/python scripts/make_golden.py)

and review the diff before committing it.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hokm.cli.referee import describe
from hokm.engine import (
    Deal,
    DrawAces,
    Game,
    Phase,
    RuleSet,
    Seat,
    SetHakem,
    event_for,
    parse_cards,
    record_from_game,
    view_of,
)
from hokm.engine.records import referee

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

# A deal where seat 1 holds no spade: with spades trump and redeal_if_player_has_no_trump on,
# it is dealt again.
NO_SPADE_FOR_SEAT_1 = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)
# Seat 0 (hakem) holds the seven top spades, everyone holds a spade: with spades trump and
# first-legal play team 0 reaches 7–0, and a bam is offered.
SEVEN_TOP_SPADES = (
    "AS KS QS JS TS 9S 8S AH KH QH AD KD QD",
    "7S JH TH 9H 8H JD TD 9D AC KC QC JC TC",
    "6S 5S 7H 6H 5H 8D 7D 6D 9C 8C 7C 6C 5C",
    "4S 3S 2S 4H 3H 2H 5D 4D 3D 2D 4C 3C 2C",
)


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    rules: RuleSet
    seed: int
    # Stacked deals used (in order) before seeded ones; each with the trump to name.
    stacked: tuple[tuple[tuple[str, ...], str], ...] = ()
    bam_go: bool = True


SCENARIOS = (
    Scenario(
        "platform_a_short_game",
        "Default rules (platform-a) to 3 points: an ace draw, seeded deals, random play.",
        RuleSet(target_points=3),
        seed=1,
    ),
    Scenario(
        "classic_redeal_and_bam",
        "Classic rules (bam on, failed bam keeps the kot, both redeals) to 3 points: a "
        "no-trump redeal, then a stacked hand where the hakem's team reaches 7–0 and goes "
        "for bam, then seeded random hands.",
        RuleSet.preset("classic", target_points=3, first_hakem="random"),
        seed=2,
        stacked=((NO_SPADE_FOR_SEAT_1, "S"), (SEVEN_TOP_SPADES, "S")),
    ),
    Scenario(
        "platform_b_declined_bam",
        "Platform B rules (bam on, failed bam −3) to 3 points: the 7–0 team declines bam "
        "and scores a kot, then seeded random hands.",
        RuleSet.preset("platform-b", target_points=3, first_hakem="manual"),
        seed=3,
        stacked=((SEVEN_TOP_SPADES, "S"),),
        bam_go=False,
    ),
)


def play_scenario(scenario: Scenario) -> tuple[Game, list[dict[str, Any]]]:
    """Play the scenario's game; return it and the views taken at key points."""
    rules = scenario.rules
    rng = random.Random(scenario.seed)
    game = Game(rules)
    views: list[dict[str, Any]] = []

    def snapshot(label: str) -> None:
        for seat in (0, 1, 2, 3, None):
            views.append({"at": label, "seat": seat, "view": view_of(game, seat).to_dict()})

    if rules.first_hakem == "ace_draw":
        game.apply(DrawAces.from_seed(f"golden-{scenario.seed}"))
    elif rules.first_hakem == "random":
        game.apply(SetHakem.from_seed(f"golden-{scenario.seed}"))
    else:
        game.apply(SetHakem(Seat(0)))
    stacked = list(scenario.stacked)
    trumps: list[str] = []
    while not game.is_over:
        if game.phase is Phase.DEAL:
            if stacked:
                hands, trump = stacked.pop(0)
                cards = [parse_cards(h) for h in hands]
                hakem = int(game.hakem or 0)
                game.apply(Deal.from_hands([cards[(s - hakem) % 4] for s in range(4)]))
                trumps.append(trump)
            else:
                game.apply(
                    Deal.from_seed(f"golden-{scenario.seed}-{len(game.history)}", game.hakem or 0)
                )
            if game.hand_number == 0 and len(views) < 5:
                snapshot("first hand: the hakem names trump")
            continue
        if game.phase is Phase.TRUMP and trumps:
            game.choose_trump(trumps.pop(0))
            continue
        if game.phase is Phase.BAM:
            snapshot("a team is at 7–0: the bam decision")
            assert game.bam_team is not None
            game.apply(_bam(game.bam_team, scenario.bam_go))
            continue
        actions = game.legal_actions()
        if scenario.stacked and game.phase is Phase.PLAY and game.deal and game.deal.seed is None:
            action = actions[0]  # stacked hands are played first-legal
        else:
            action = actions[int(rng.random() * len(actions))]
        game.apply(action)
        if game.hand_number == 0 and len(game.plays) == 6:
            snapshot("first hand: the second trick in progress")
    snapshot("the game is over")
    return game, views


def _bam(team: int, go: bool) -> Any:
    from hokm.engine import DecideBam

    return DecideBam(Seat(team), go)


def golden_data(scenario: Scenario) -> dict[str, Any]:
    game, views = play_scenario(scenario)
    record = record_from_game(game)
    verdict = referee(record)
    return {
        "name": scenario.name,
        "description": scenario.description,
        "regenerate": "make golden  (scripts/make_golden.py)",
        "rules": scenario.rules.to_dict(),
        "final": {"score": game.score, "winner_team": game.winner_team},
        "events": [e.to_dict() for e in game.events],
        "events_as_seat_1_saw_them": [event_for(e, 1) for e in game.events[:12]],
        "views": views,
        "record": record,
        "referee": verdict.report,
        "referee_text": describe(verdict, name=scenario.name).splitlines(),
        "game_state": game.to_dict(),
    }


def dumps(data: Any, indent: int = 0, width: int = 100) -> str:
    """JSON with short lists and objects on one line, long ones one item per line."""
    flat = json.dumps(data, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(data, dict | list) or not data:
        return flat
    pad = " " * (indent + 1)
    if isinstance(data, list):
        items = [pad + dumps(item, indent + 1, width) for item in data]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [
        f"{pad}{json.dumps(key, ensure_ascii=False)}: {dumps(value, indent + 1, width)}"
        for key, value in data.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def render(scenario: Scenario) -> str:
    return dumps(golden_data(scenario)) + "\n"


def main(argv: list[str] | None = None, *, out: Callable[[str], None] = print) -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for scenario in SCENARIOS:
        path = GOLDEN_DIR / f"{scenario.name}.json"
        text = render(scenario)
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        out(
            f"{'updated' if changed else 'unchanged'}: {path.relative_to(GOLDEN_DIR.parent.parent)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
