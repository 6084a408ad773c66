"""The arena's statistics on bots of known difference, and the ``hokm arena`` command."""

from __future__ import annotations

import argparse
import io
import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm.arena import bot_factory, mean_interval, paired_difference, run_arena, wilson_interval
from hokm.cli import arena as arena_cli
from hokm.engine import RuleSet


def test_a_deterministic_bot_against_itself_nets_exactly_zero() -> None:
    """Duplicate boards cancel the cards: the rule bot against itself is level on every board."""
    report = run_arena("rule", "rule", boards=12, seed="self", games=2)
    assert report.board_net == [0.0] * 12
    assert report.net.low <= 0 <= report.net.high
    assert report.hand_rate.mean == 0.5


def test_random_against_random_gives_an_interval_containing_zero() -> None:
    report = run_arena("random", "random", boards=80, seed="rr", games=0)
    assert report.net.low < 0 < report.net.high
    assert report.hand_rate.low < 0.5 < report.hand_rate.high


def test_rule_bot_beats_random_clearly() -> None:
    """A large known difference: the whole interval is far above zero."""
    report = run_arena("rule", "random", boards=40, seed="rule-random", games=4)
    assert report.net.low > 0.8
    assert report.hand_rate.low > 0.6
    assert report.games == 4 and report.games_won >= 3


def test_boards_play_the_same_cards_twice_with_the_teams_swapped() -> None:
    """Each board is two hands; results and hand counts add up."""
    report = run_arena("naive", "random", boards=10, seed="count", games=2)
    assert report.boards == 10 and report.hands == 20
    assert sum(report.results.values()) == 20
    assert len(report.board_net) == 10
    timing = report.timings["naive"]
    assert timing.all and set(timing.by_trick) <= set(range(13))


def test_json_decision_times_are_keyed_by_the_trick_number_the_text_shows() -> None:
    """``by_trick`` was keyed 0–12 while the text said "trick  1" … "trick 13" and the
    analysis's JSON counts ``trick`` from 1: "1" is now the first trick, as printed."""
    report = run_arena("rule", "naive", boards=2, seed="keys", games=0)
    for label, timing in report.timings.items():
        by_trick = report.to_dict()["decision_time"][label]["by_trick"]
        assert list(by_trick) == [str(t + 1) for t in sorted(timing.by_trick)]
        assert "0" not in by_trick and by_trick["1"]["n"] == len(timing.by_trick[0])
    text = arena_cli.format_report(report)
    assert "trick  1:" in text and "trick  0:" not in text


def test_same_seed_gives_the_same_report() -> None:
    first = run_arena("rule", "naive", boards=6, seed="again", games=2)
    second = run_arena("rule", "naive", boards=6, seed="again", games=2)
    assert first.board_net == second.board_net
    assert (first.games_won, first.results) == (second.games_won, second.results)


def test_injected_clock_gives_exact_timings() -> None:
    ticks = iter(range(10**6))
    report = run_arena("naive", "naive", boards=2, seed="clock", games=0, clock=lambda: next(ticks))
    summary = report.to_dict()["decision_time"]["A naive"]
    assert summary["median_ms"] == summary["max_ms"] == 1000.0


def test_wilson_and_mean_intervals() -> None:
    assert wilson_interval(0, 10).low == 0.0
    assert wilson_interval(10, 10).high == 1.0
    w = wilson_interval(99, 100)
    assert w.low < 0.99 < w.high <= 1.0
    assert math.isinf(mean_interval([2.0]).high)


def test_a_small_sample_gets_a_student_t_interval_and_never_one_of_zero_width() -> None:
    """Three boards of +2, 0, +1: t with 2 degrees of freedom (4.303), not the normal's 1.96,
    which gave an interval less than half as wide. Boards that all came out the same, one
    board, or none have no interval (null in JSON), not [x, x]."""
    m = mean_interval([2.0, 0.0, 1.0])
    assert m.mean == 1.0
    assert m.high - 1.0 == pytest.approx(4.303 * 1.0 / math.sqrt(3))
    assert m.low == pytest.approx(2.0 - m.high)
    four = mean_interval([2.0, 0.0, 2.0, 0.0])
    assert four.high - four.mean == pytest.approx(3.182 * math.sqrt(4 / 3) / 2)
    for values in ([1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0], [2.0]):
        same = mean_interval(values)
        assert same.mean == values[0] and not same.known
        assert same.to_dict() == {"mean": values[0], "low": None, "high": None}
    assert mean_interval([]).to_dict() == {"mean": None, "low": None, "high": None}
    big = mean_interval([1.0, -1.0] * 500)  # the t quantile tends to the normal's 1.96
    assert big.high - big.mean == pytest.approx(
        1.9623 * math.sqrt(1000 / 999) / math.sqrt(1000), rel=1e-3
    )


def test_no_games_give_no_game_win_rate_and_no_minus_zero_is_printed() -> None:
    """--games 0: the game-win rate is null, not 0 (no game was lost either); a level
    result against the first bot is written 0.0, never -0.0."""
    report = run_arena("rule", "rule", boards=4, seed="zero", games=0)
    data = report.to_dict()
    assert data["games"] == 0
    assert data["game_win_rate"] == {"mean": None, "low": None, "high": None}
    assert data["net_points_per_board"] == {"mean": 0.0, "low": None, "high": None}
    out = io.StringIO()
    args = _args(a="rule", b="rule", boards=4, games=0, json=True, quiet=True)
    assert arena_cli.run(args, out=out, err=io.StringIO()) == 0
    assert "-0.0" not in out.getvalue()
    assert json.loads(out.getvalue())["game_win_rate"]["mean"] is None
    out = io.StringIO()
    assert arena_cli.run(_args(a="rule", b="rule", boards=4, games=0, quiet=True), out=out) == 0
    assert "[no interval: all 4 boards came out the same]" in out.getvalue()


def test_bot_specs_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        bot_factory("genius")
    with pytest.raises(ValueError, match=r"no option 'colour'.*lead_queen"):
        bot_factory("rule:colour=blue")
    with pytest.raises(ValueError, match="key=value"):
        bot_factory("rule:oops")
    assert bot_factory("rule:lead_queen=off")("s").lead_queen is False  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("search:margin=abc", "'margin' of bot 'search' takes a number, not 'abc'"),
        ("rule:lead_queen=maybe", "'lead_queen' of bot 'rule' is on or off"),
        ("rule:bam_samples=2.5", "takes a whole number, not 2.5"),
        ("rule:bam_samples=on", "takes no on/off value"),
        ("rule:seed=5", "seed comes from --seed"),
        ("search:worlds=-1", "worlds must be from 1 to 10000"),
        ("search:worlds=100000", "worlds must be from 1 to 10000"),
        ("search:work_budget=10000000000", "work_budget must be from 1 to 15000000"),
        ("search:exact_limit=1000000", "exact_limit must be from 0 to 10000"),
        ("search:miss=2", "miss must be from 0 to 1"),
        ("rule:trump_policy=best", "trump_policy must be one of longest, strength"),
        ("search:min_t=inf", "takes a finite number, not inf"),
    ],
)
def test_bad_option_values_are_refused_with_the_reason(spec: str, said: str) -> None:
    """Before any match is played, and never as a traceback from deep in a game."""
    with pytest.raises(ValueError, match=re.escape(said)):
        bot_factory(spec)


def test_option_values_are_taken_as_their_type() -> None:
    bot = bot_factory("search:margin=1,kot=yes,worlds=12")("s")
    assert bot.margin == 1.0 and isinstance(bot.margin, float)  # type: ignore[attr-defined]
    assert bot.kot is True and bot.worlds == 12  # type: ignore[attr-defined]
    assert bot_factory("search:worlds=none")("s").worlds is None  # type: ignore[attr-defined]


def _args(**kw: object) -> argparse.Namespace:
    base = dict(a="rule", b="random", boards=4, seed="cli", preset=None, games=2, json=False)
    base["quiet"] = False
    base["cpu_time"] = False
    base.update(kw)
    return argparse.Namespace(**base)


def test_cli_prints_a_report_and_progress() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert arena_cli.run(_args(), out=out, err=err) == 0
    text = out.getvalue()
    assert "net points per board" in text and "hands won" in text and "match:" in text
    assert "trick  1" in text
    assert "boards 4/4" in err.getvalue()
    assert "wall clock" in text


def test_progress_says_whose_games_are_won_and_no_games_before_they_are_played() -> None:
    """The progress line read "games 2/2  net …  games 2/2" (the games played, then the
    games won, under one name) and "games 0/0" while the boards were played."""
    err = io.StringIO()
    assert arena_cli.run(_args(), out=io.StringIO(), err=err) == 0
    lines = err.getvalue().splitlines()
    boards = [line for line in lines if line.startswith("boards ")]
    assert boards and not any("games" in line for line in boards)
    final = lines[-1]
    assert final.startswith("games 2/2  net ") and " rule won " in final
    assert final.count("games") == 1


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal_and_writes_whole_lines_elsewhere() -> None:
    """A log file gets lines ending in a new line, never a carriage return; a terminal gets
    one redrawn line, closed at the end. An error after the start comes on a line of its own,
    without an empty line before it when nothing was drawn."""
    out, err = io.StringIO(), io.StringIO()
    assert arena_cli.run(_args(), out=out, err=err) == 0
    log = err.getvalue()
    assert "\r" not in log and log.endswith("\n") and "boards 4/4" in log
    out, terminal = io.StringIO(), _Terminal()
    assert arena_cli.run(_args(), out=out, err=terminal) == 0
    drawn = terminal.getvalue()
    assert drawn.startswith("\r") and drawn.endswith("\n") and drawn.count("\n") == 1
    err = io.StringIO()
    assert arena_cli.run(_args(b="wizard"), out=io.StringIO(), err=err) == 2
    assert err.getvalue().startswith("hokm arena: unknown bot 'wizard'")


def test_a_report_of_one_board_says_it_has_no_interval() -> None:
    out = io.StringIO()
    assert arena_cli.run(_args(boards=1, games=0, quiet=True), out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "[no interval from one board]" in text and "inf" not in text
    assert "preset platform-a" in text


def test_cli_times_decisions_by_cpu_time_when_asked() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert arena_cli.run(_args(cpu_time=True, quiet=True), out=out, err=err) == 0
    assert "median / p95 / max, CPU time" in out.getvalue()
    out = io.StringIO()
    assert arena_cli.run(_args(cpu_time=True, json=True, quiet=True), out=out, err=err) == 0
    assert json.loads(out.getvalue())["clock"] == "cpu"


def test_cli_json_is_machine_readable() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert arena_cli.run(_args(json=True, preset="classic", quiet=True), out=out, err=err) == 0
    data = json.loads(out.getvalue())
    assert data["boards"] == 4 and data["preset"] == "classic"
    assert data["rules"] == RuleSet.preset("classic").to_dict()
    assert set(data["net_points_per_board"]) == {"mean", "low", "high"}
    assert err.getvalue() == ""


def test_cli_bad_bot_or_numbers_give_a_clear_error() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert arena_cli.run(_args(b="wizard", quiet=True), out=out, err=err) == 2
    assert "unknown bot 'wizard'" in err.getvalue()
    for boards in (-1, 0):  # no boards: nothing to report (it played 2 games and 0/0 hands)
        assert arena_cli.run(_args(boards=boards), out=out, err=err) == 2
        assert f"--boards is from 1 to 100000, not {boards}" in err.getvalue()
    assert arena_cli.run(_args(games=-1), out=out, err=err) == 2
    assert "--games is from 0 to 10000, not -1" in err.getvalue()
    assert arena_cli.run(_args(a="rule:", quiet=True), out=out, err=err) == 2
    assert "no option after ':'" in err.getvalue()


def test_paired_difference_of_two_runs_on_the_same_boards() -> None:
    """Two runs with the same seed meet the same deals: the same pairing run twice gives the
    same boards (difference exactly zero), a weaker first bot a positive difference for the
    stronger one, and the JSON carries every board's net."""
    first = run_arena("rule", "naive", boards=6, seed="pair", games=0).to_dict()
    second = run_arena("rule", "naive", boards=6, seed="pair", games=0).to_dict()
    assert len(first["board_net"]) == 6
    assert first["board_net"] == second["board_net"]
    diff, differing = paired_difference(first["board_net"], second["board_net"])
    assert (diff.mean, differing) == (0.0, 0)
    weaker = run_arena("random", "naive", boards=6, seed="pair", games=0).to_dict()
    diff, differing = paired_difference(first["board_net"], weaker["board_net"])
    assert differing > 0 and diff.mean > 0
    with pytest.raises(ValueError, match="equal size"):
        paired_difference([1.0], [1.0, 2.0])


OPTION_NAMES = [
    *("margin", "worlds", "kot", "lead_queen", "bam_samples", "trump_policy", "seed"),
    *("miss", "learned", "world_scale", "nope", ""),
]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["rule", "search", "medium", "hard", "easy", "naive", "random", "x"]),
    st.lists(
        st.tuples(
            st.sampled_from(OPTION_NAMES),
            st.text(max_size=6) | st.sampled_from(["on", "none", "-1", "1e309", "nan", "2.5"]),
        ),
        max_size=3,
    ),
)
def test_any_bot_spec_is_taken_or_refused_with_a_value_error(
    name: str, options: list[tuple[str, str]]
) -> None:
    """Whatever is typed after the bot's name, the answer is a bot or a clear ValueError."""
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in options) if options else "")
    try:
        make = bot_factory(spec)
    except ValueError:
        return
    assert make("s") is not None


def test_ctrl_c_reports_the_whole_boards_played_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long run stopped with Ctrl-C is not thrown away: the report of the whole boards
    played is printed (JSON with ``interrupted``), the board under way not counted, exit 130."""
    import hokm.arena

    real = hokm.arena._play_hand
    hands: list[int] = []

    def stopped_in_the_fifth_board(*args: object, **kwargs: object) -> None:
        hands.append(1)
        if len(hands) == 10:  # the second table of the fifth board
            raise KeyboardInterrupt
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hokm.arena, "_play_hand", stopped_in_the_fifth_board)
    out, err = io.StringIO(), io.StringIO()
    assert arena_cli.run(_args(boards=10, json=True), out=out, err=err) == 130
    data = json.loads(out.getvalue())
    assert data["interrupted"] is True
    assert data["boards"] == 4 and len(data["board_net"]) == 4
    assert data["hands"] == 8 and sum(data["results"].values()) == 8
    assert "interrupted after 4 of 10 boards and 0 games" in err.getvalue()
    hands[:] = [1] * 8  # the first board's second table: nothing whole yet, nothing to report
    with pytest.raises(KeyboardInterrupt):
        arena_cli.run(_args(boards=10), out=io.StringIO(), err=io.StringIO())
