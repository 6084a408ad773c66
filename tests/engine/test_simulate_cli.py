"""``hokm simulate``: random legal play gives the statistics random play should give."""

from __future__ import annotations

import json

import pytest

from hokm.cli import main
from hokm.cli.simulate import simulate
from hokm.engine import RuleSet


def test_random_play_statistics_are_sane_and_deterministic() -> None:
    stats = simulate(400, seed="t", rules=RuleSet())
    data = stats.to_dict()
    assert stats.hands == 400 and sum(stats.results.values()) == 400
    assert 0.4 < data["hakem_team_win_rate"] < 0.6
    assert 10.0 < data["mean_tricks_per_hand"] < 12.0
    assert data["kot_rate"] + data["hakem_kot_rate"] == data["seven_nil_rate"] < 0.06
    again = simulate(400, seed="t", rules=RuleSet()).to_dict()
    assert {k: v for k, v in again.items() if "second" not in k} == {
        k: v for k, v in data.items() if "second" not in k
    }


def test_simulate_with_bam_counts_bam_results() -> None:
    stats = simulate(300, seed=3, rules=RuleSet.preset("classic"))
    assert set(stats.results) <= {"normal", "kot", "hakem_kot", "bam", "par_bam", "failed_bam"}
    assert stats.redeals > 0  # classic redeals when a player holds no trump


def test_bam_results_are_named_as_the_referee_names_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ "failed bam (بام ناموفق)", as the referee and RULES.md say it (it printed "failed-bam")."""
    assert main(["simulate", "--hands", "2000", "--seed", "0", "--preset", "platform-b"]) == 0
    out = capsys.readouterr().out
    assert "failed bam (بام ناموفق): " in out and "failed-bam" not in out
    assert "par-bam (پَر بام): " in out


def test_the_command_prints_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "50", "--seed", "9", "--preset", "platform-b"]) == 0
    out = capsys.readouterr().out
    assert "hakem team wins:" in out and "mean tricks per hand:" in out and "hands/s" in out
    assert main(["simulate", "--hands", "20", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 20 and data["preset"] == "platform-a"  # the default, named
    assert main(["simulate", "--hands", "0"]) == 2
