"""Golden whole-game files: regenerate each game in memory and diff it with its file.

A failure shows the first lines of the diff. If the change is intended, run ``make golden``
(``scripts/make_golden.py``), review ``git diff tests/golden`` and commit the new files.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_golden.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_golden", module)
    spec.loader.exec_module(module)
    return module


make_golden = load_script()


@pytest.mark.parametrize("scenario", make_golden.SCENARIOS, ids=lambda s: s.name)
def test_the_game_matches_its_golden_file(scenario: object) -> None:
    path = make_golden.GOLDEN_DIR / f"{scenario.name}.json"  # type: ignore[attr-defined]
    expected = path.read_text(encoding="utf-8")
    actual = make_golden.render(scenario)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), str(path), "regenerated", lineterm=""
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(f"{path.name} differs (run `make golden` if intended):\n{shown}")


@pytest.mark.parametrize("scenario", make_golden.SCENARIOS, ids=lambda s: s.name)
def test_golden_games_are_valid_and_self_consistent(scenario: object) -> None:
    from hokm.engine import Game, judge

    path = make_golden.GOLDEN_DIR / f"{scenario.name}.json"  # type: ignore[attr-defined]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["referee"]["ok"] and data["referee"]["game_over"]
    assert judge(data["record"]) == data["referee"]
    game = Game.from_dict(data["game_state"])
    assert [e.to_dict() for e in game.events] == data["events"]
    assert data["referee"]["score"] == data["final"]["score"]


def test_the_golden_set_covers_redeals_bam_decisions_and_three_presets() -> None:
    kinds: set[str] = set()
    for scenario in make_golden.SCENARIOS:
        data = json.loads((make_golden.GOLDEN_DIR / f"{scenario.name}.json").read_text("utf-8"))
        kinds |= {e["kind"] for e in data["events"]}
        kinds |= {f"go={e['go']}" for e in data["events"] if e["kind"] == "bam_decided"}
    assert {"redealt", "bam_offered", "go=True", "go=False", "game_ended"} <= kinds
