"""The learned value of the first tricks: features, the shipped model, and its training script."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hokm.bots.base import legal_cards_of
from hokm.bots.knowledge import Knowledge
from hokm.bots.learned import FEATURES, TreeModel, card_features, early_value_model
from hokm.bots.rollout import Playout
from hokm.bots.rule import RuleBot
from hokm.bots.search import SearchBot
from hokm.engine import Deal, Game, Play, RuleSet, Seat, view_of

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "train_early_value", ROOT / "scripts" / "train_early_value.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the process pool pickles its functions by module name
    spec.loader.exec_module(module)
    return module


def _positions(n: int) -> list[tuple[Game, Seat]]:
    """Positions of the first six tricks of rule-bot games, with the seat to move."""
    bot = RuleBot(seed=0)
    out = []
    for i in range(n):
        hakem = Seat(i % 4)
        game = Game(RuleSet(), hakem=hakem)
        game.apply(Deal.from_seed(f"learned-{i}", hakem))
        game.apply(bot.act(view_of(game, hakem)))
        while len(game.tricks) < 6:
            seat = game.to_move
            assert seat is not None
            out.append((game.copy(), seat))
            game.apply(Play.of(seat, bot.choose_card(view_of(game, seat))))
    return out


def test_features_read_what_the_seat_knows_and_nothing_else() -> None:
    """A row depends only on the seat's view: moving the other seats' unseen cards between
    them changes no feature, while the features do tell cards apart."""
    rule = RuleBot(seed=0)
    told_apart = 0
    for game, seat in _positions(12):
        view = view_of(game, seat)
        cards = legal_cards_of(view)
        rows = card_features(Knowledge.from_view(view), cards, rule.choose_card(view))
        assert len(rows) == len(cards) and all(len(r) == FEATURES for r in rows)
        assert all(math.isfinite(x) for r in rows for x in r)
        told_apart += len({tuple(r) for r in rows}) == len(rows)
        # The same public history with the two opponents' hands swapped: same view, same rows.
        world = [sum(1 << c.index for c in game.hand_of(Seat(q))) for q in range(4)]
        left, right = (int(seat) + 1) & 3, (int(seat) + 3) & 3
        world[left], world[right] = world[right], world[left]
        playout = Playout.from_view(view, world)
        assert card_features(playout.knowledge(seat), cards, rule.choose_card(view)) == rows
    assert told_apart > 100


def test_the_shipped_model_loads_and_values_every_card() -> None:
    model = early_value_model()
    assert model.meta["features"] == FEATURES
    assert model.meta["decisions"] > 100_000  # trained on real data, not a placeholder
    rule = RuleBot(seed=0)
    spread = 0.0
    for game, seat in _positions(4):
        view = view_of(game, seat)
        cards = legal_cards_of(view)
        values = model.values(
            card_features(Knowledge.from_view(view), cards, rule.choose_card(view))
        )
        assert all(math.isfinite(v) and abs(v) < 4 for v in values)
        spread = max(spread, max(values) - min(values))
    assert spread > 0.1  # it prefers some cards to others


def test_tree_model_refuses_a_broken_file() -> None:
    with pytest.raises(ValueError, match="non-empty list of trees"):
        TreeModel({"trees": []})
    with pytest.raises(ValueError, match="non-empty list of trees"):
        TreeModel({"meta": {}})


def test_search_bot_uses_the_learned_value_only_in_the_first_tricks() -> None:
    """With a margin nobody can beat the learned value plays the rule card; the learned tricks
    never run the search (``last`` stays unset until the first searched trick)."""
    rule = RuleBot(seed=0)
    for game, seat in _positions(6):
        view = view_of(game, seat)
        bot = SearchBot(seed=1, learned=6, learned_margin=100.0)
        assert bot.act(view) == Play.of(seat, rule.choose_card(view))
        assert bot.last is None


def test_training_script_labels_hands_and_writes_a_model_the_bot_reads(tmp_path: Path) -> None:
    """End to end on a few hands: generate labels, check one against the engine, train, load."""
    pytest.importorskip("lightgbm", reason="training needs the [train] extra")
    import numpy as np

    script = _script()
    data = tmp_path / "data"
    assert script.main(["generate", "t", "0", "12", str(data), "--jobs", "1"]) == 0
    chunk = np.load(data / "t-0.npz")
    x, y, g, r = chunk["X"], chunk["Y"], chunk["G"], chunk["R"]
    assert x.shape[1] == FEATURES and len(x) == len(y) == len(g) == len(r)
    assert set(np.unique(y)) <= {-3, -2, -1, 1, 2, 3}
    assert (np.bincount(g, weights=r) == 1).all()  # one rule card per decision
    assert (x[:, 0] < 6).all()
    # The first decision's rule-card label is the points of the hand played out by rule bots.
    bot = RuleBot(seed=0)
    hakem = Seat(0)
    game = Game(RuleSet(), hakem=hakem)
    game.apply(Deal.from_seed("t-0", hakem))
    game.apply(bot.act(view_of(game, hakem)))
    world = [sum(1 << c.index for c in game.hand_of(Seat(q))) for q in range(4)]
    won = Playout.from_view(view_of(game, hakem), world).finish()
    expected = script._points(won, 0, 0, RuleSet())
    assert y[(g == 0) & (r == 1)][0] == expected
    model_path = tmp_path / "model.json"
    assert script.main(["train", str(data), str(model_path), "--rounds", "5", "--jobs", "1"]) == 0
    model = TreeModel(json.loads(model_path.read_text()))
    assert len(model.trees) == 5 and model.meta["rows"] == len(x)
    assert math.isfinite(model.value([0.0] * FEATURES))
