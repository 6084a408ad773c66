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
