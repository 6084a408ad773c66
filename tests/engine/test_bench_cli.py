"""``hokm bench``: the engine section runs and reports rates (figures go to the docs)."""

from __future__ import annotations

import json

import pytest

from hokm.cli import main
from hokm.cli.bench import random_hands
from hokm.engine import RuleSet


def test_random_hands_plays_complete_hands() -> None:
    assert random_hands(20, rules=RuleSet.preset("classic")) == 20


def test_the_engine_section_reports_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--repeat", "1", "--scale", "0.01", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    names = [m["name"] for m in results["sections"]["engine"]]
    assert names[0].startswith("random hands, public API")
    assert all(m["value"] > 0 and m["unit"].endswith("/s") for m in results["sections"]["engine"])


def test_unknown_sections_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """On standard error, naming the one option that is wrong."""
    assert main(["bench", "nope"]) == 2
    said = capsys.readouterr()
    assert "unknown section" in said.err and not said.out
    assert main(["bench", "engine", "--scale", "0"]) == 2
    said = capsys.readouterr()
    assert said.err.strip() == "hokm bench: --scale is above 0 and at most 100, not 0"
    assert not said.out
    for scale in ("inf", "nan", "1e30"):  # inf crashed; 1e30 ran for ever
        assert main(["bench", "engine", "--scale", scale]) == 2
        assert "--scale is above 0 and at most 100" in capsys.readouterr().err
    assert main(["bench", "engine", "--repeat", "0"]) == 2
    assert capsys.readouterr().err.strip() == "hokm bench: --repeat is from 1 to 100, not 0"


def test_the_analysis_section_analyses_whole_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "analysis", "--repeat", "1", "--scale", "0.1", "--json"]) == 0
    (figure,) = json.loads(capsys.readouterr().out)["sections"]["analysis"]
    assert figure["unit"] == "hands/s" and figure["value"] > 0


@pytest.mark.parametrize("scale", [0.001, 0.01, 0.1, 0.5, 1.0, 2.5])
def test_every_scale_measures_the_same_positions_each_equally_often(scale: float) -> None:
    """``--scale 0.1`` ran 6 of the 60 solves of 20 positions: the first 6 positions only, a
    different (and easier or harder) set than at 1. Now a run is whole passes over them."""
    from collections import Counter

    from hokm.cli.bench import BenchOptions, measure

    seen: Counter[int] = Counter()

    def work(n: int) -> int:
        seen.update(i % 20 for i in range(n))
        return n

    measure("positions", "solves/s", work, 60, BenchOptions(repeat=1, scale=scale), cycle=20)
    assert set(seen) == set(range(20)) and len(set(seen.values())) == 1
    passes = seen[0]
    assert passes == max(1, round(3 * scale + 0.4999))  # 3 passes at 1, at least one


def test_the_sections_measure_whole_passes_over_their_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every figure of the fast and analysis sections that goes through fixed positions says
    how many (its cycle), so the scale cannot pick a subset of them."""
    from hokm.cli import bench, bench_fast

    calls: list[tuple[str, int, int]] = []

    def record(name: str, unit: str, work: object, size: int, options: object, *, cycle: int = 1):  # type: ignore[no-untyped-def]
        calls.append((name, size, cycle))

    monkeypatch.setattr(bench_fast, "measure", record)
    bench_fast.fast_section(bench.BenchOptions())
    cycles = {name: cycle for name, _, cycle in calls}
    assert all(size % cycle == 0 for _, size, cycle in calls)  # at scale 1: the old figures
    assert cycles["card_outcomes (reach 7 + kot), 13 cards a seat"] == bench_fast.POSITIONS
    assert cycles["DDS 'reach 7?' for all cards, 13 cards a seat"] == bench_fast.POSITIONS
    assert cycles["FastHand legal_mask + play (+ undo)"] == bench_fast.DEALS
