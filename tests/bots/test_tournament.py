"""Round robins of bots (hokm.arena.run_tournament, ``hokm tournament``)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from hokm.arena import run_arena, run_tournament
from hokm.cli import main
from hokm.cli import tournament as command


def test_every_pair_meets_the_same_boards_and_the_standings_follow_the_nets() -> None:
    bots = ["random", "rule", "naive"]
    report = run_tournament(bots, boards=24, seed="tour", games=2)
    assert sorted(report.matches) == [(0, 1), (0, 2), (1, 2)]
    for (i, j), match in report.matches.items():
        alone = run_arena(bots[i], bots[j], boards=24, seed="tour", games=2)
        assert match.board_net == alone.board_net  # the arena's own boards, deterministic
        assert report.net(i, j).mean == pytest.approx(-report.net(j, i).mean)
        assert report.net(j, i).low == pytest.approx(-report.net(i, j).high)
    standings = report.standings()
    assert [s.bot for s in standings] == ["rule", "naive", "random"]
    for row in standings:
        assert row.boards == 2 * 24 and row.hands == 2 * 2 * 24 and row.games == 2 * 2
        i = bots.index(row.bot)
        others = [report.net(i, j).mean for j in range(3) if j != i]
        assert row.net == pytest.approx(sum(others) / 2)
    assert sum(s.net for s in standings) == pytest.approx(0.0, abs=1e-9)
    data = report.to_dict()
    assert data["net_points_per_board"][1][1] is None
    assert data["standings"][0]["bot"] == "rule" and len(data["matches"]) == 3


def test_a_tournament_refuses_too_few_repeated_or_unknown_bots_before_playing() -> None:
    calls: list[object] = []
    for bots, message in (
        (["rule"], "at least two"),
        (["rule", "naive", "rule"], "once"),
        (["rule", "medium"], "once"),
        (["search:margin=0.1,kot=on", "hard:kot=on,margin=0.1"], "once"),
        # an option at its default is the bot itself: the pair played the same bot twice
        (["rule", "rule:trump_policy=strength"], "option at its default is the bot itself"),
        (["rule:lead_queen=off", "medium"], "once"),
        (["rule:lead_queen=on", "rule:lead_queen=yes"], "once"),
        (["rule:lead_queen=on,lead_queen=off", "rule"], "once"),  # the last one counts
        (["rule", "naive", "nobody"], "unknown bot"),
        (["rule", "rule:no_such_option=1"], "no option 'no_such_option'"),
    ):
        with pytest.raises(ValueError, match=message):
            run_tournament(bots, boards=2, seed="x", progress=lambda *a: calls.append(a))
    assert calls == []


@pytest.mark.parametrize(
    ("bots", "named"),
    [
        (["rule", "naive", "rule"], "rule is entered twice"),
        (["naive", "rule:lead_queen=off", "medium"], "rule:lead_queen=off and medium are one bot"),
        (["hard", "rule", "search"], "hard and search are one bot"),
    ],
)
def test_a_repeated_bot_is_named_in_the_refusal(bots: list[str], named: str) -> None:
    with pytest.raises(ValueError, match=f"^{named}: each bot may enter a tournament once"):
        run_tournament(bots, boards=2, seed="x")


def test_the_command_prints_the_table_and_standings_or_json() -> None:
    out, err = io.StringIO(), io.StringIO()
    args = ["tournament", "random", "naive", "rule", "--boards", "12", "--games", "0"]
    parsed = _parse(args)
    assert command.run(parsed, out=out, err=err) == 0
    text = out.getvalue()
    assert "row against column" in text and "standings" in text
    assert text.index("1. rule") < text.index("3. random")
    assert "match 3/3 naive vs rule" in err.getvalue()
    # Bots with options have long names: numbered in the table, which still fits 80 columns
    # (five such bots made rows of 168).
    long = ["tournament", "random", "naive", "easy", "rule", "rule:trump_policy=longest"]
    out = io.StringIO()
    assert command.run(_parse([*long, "--boards", "2", "--games", "0", "--quiet"]), out=out) == 0
    text = out.getvalue()
    assert "  [5] rule:trump_policy=longest\n" in text and "\n[5] " in text
    assert max(len(line) for line in text.splitlines()) <= 80, text

    out = io.StringIO()
    assert command.run(_parse([*args, "--json", "--quiet"]), out=out, err=io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert data["bots"] == ["random", "naive", "rule"] and data["boards_per_match"] == 12
    assert [m["boards"] for m in data["matches"]] == [12, 12, 12]
    assert data["clock"] == "wall"
    out = io.StringIO()  # --cpu-time as in the arena
    cpu = [*args[:3], "--boards", "2", "--games", "0", "--json", "--quiet", "--cpu-time"]
    assert command.run(_parse(cpu), out=out, err=io.StringIO()) == 0
    assert json.loads(out.getvalue())["clock"] == "cpu"

    # One board: no interval yet, which strict JSON says as null (it has no Infinity).
    out = io.StringIO()
    one = ["tournament", "random", "naive", "--boards", "1", "--json", "--quiet"]
    assert command.run(_parse(one), out=out, err=io.StringIO()) == 0
    strict = json.loads(out.getvalue(), parse_constant=_no_constant)
    assert strict["matches"][0]["net_points_per_board"]["low"] is None

    assert main(["tournament", "rule", "--boards", "2"]) == 2
    assert main(["tournament", "rule", "naive", "--boards", "0"]) == 2


def _no_constant(name: str) -> object:
    raise ValueError(f"not JSON: {name}")


def _parse(argv: list[str]) -> object:
    from hokm.cli import build_parser

    return build_parser().parse_args(argv)


def test_a_level_match_is_written_zero_without_a_minus_and_without_an_interval() -> None:
    """Two bots level on every board: the column's side of the table was -0.0 with the
    zero-width interval [-0.0, -0.0]; now 0.0 with no interval (null), and "±n/a" as text."""
    # (a weak-five redeal is not in these rules: the two play the same cards)
    report = run_tournament(["rule", "rule:redeal=off"], boards=2, seed="z", games=0)
    assert report.matches[0, 1].board_net == [0.0, 0.0]
    data = report.to_dict()
    level = {"mean": 0.0, "low": None, "high": None}
    assert data["net_points_per_board"] == [[None, level], [level, None]]
    assert "-0.0" not in json.dumps(data)
    assert "+0.000±n/a" in command.format_tournament(report)


def test_the_example_in_docs_bots_md_is_what_the_command_prints() -> None:
    """docs/bots.md shows a tournament's report; its intervals were the normal ones (1.96)
    after the arena had moved to Student-t, so the example no longer matched the command."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    shown = re.search(r"`--boards 40 --seed t1 --games 4`.*?\n```\n(.*?)```", docs, re.S)
    assert shown is not None, "docs/bots.md has the tournament example"
    out = io.StringIO()
    args = ["tournament", "random", "naive", "easy", "rule"]
    parsed = _parse([*args, "--boards", "40", "--seed", "t1", "--games", "4", "--quiet"])
    assert command.run(parsed, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == shown.group(1)


def test_ctrl_c_shows_the_boards_played_and_leaves_the_pairs_that_never_met_blank(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long round robin stopped with Ctrl-C is not thrown away: the first match whole, the
    second's whole boards, the third pair "not played"; JSON says ``interrupted``; exit 130."""
    import hokm.arena

    real = hokm.arena._play_hand
    hands: list[int] = []

    def stopped_in_the_second_match(*args: object, **kwargs: object) -> None:
        hands.append(1)
        if len(hands) == 4 * 2 + 3 * 2 + 1:  # 4 boards of match 1, 3 of match 2, then Ctrl-C
            raise KeyboardInterrupt
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hokm.arena, "_play_hand", stopped_in_the_second_match)
    argv = ["tournament", "random", "naive", "rule", "--boards", "4", "--games", "0"]
    out, err = io.StringIO(), io.StringIO()
    assert command.run(_parse(argv), out=out, err=err) == 130  # type: ignore[arg-type]
    text = out.getvalue()
    assert "stopped early: random vs rule played 3 boards; the standings" in text
    assert "not played" in text and "standings" in text
    assert re.search(r"rule +\+[0-9.]+ +\(hands", text)  # (3 boards against random)
    assert "interrupted with 1 of 3 matches whole" in err.getvalue()

    hands.clear()
    out = io.StringIO()
    assert command.run(_parse([*argv, "--json"]), out=out, err=io.StringIO()) == 130  # type: ignore[arg-type]
    data = json.loads(out.getvalue())
    assert data["interrupted"] is True
    assert [(m["a"], m["b"], m["boards"]) for m in data["matches"]] == [
        ("random", "naive", 4),
        ("random", "rule", 3),
    ]
    nets = data["net_points_per_board"]
    assert nets[1][2] is None and nets[2][1] is None and nets[0][2] is not None
    assert {s["bot"]: s["boards"] for s in data["standings"]} == {
        "random": 7,
        "naive": 4,
        "rule": 3,
    }
    hands[:] = [1] * 14  # Ctrl-C in the first board: nothing whole to show
    with pytest.raises(KeyboardInterrupt):
        command.run(_parse(argv), out=io.StringIO(), err=io.StringIO())  # type: ignore[arg-type]


def test_ctrl_c_during_a_matchs_games_says_the_match_was_cut_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every board played, the last match's games cut short: not "3 of 3 matches whole"."""
    import hokm.arena

    real = hokm.arena._play_game
    games: list[int] = []

    def stopped_in_the_last_matchs_second_game(*args: object, **kwargs: object) -> object:
        games.append(1)
        if len(games) == 2 + 2 + 2:  # two matches of 2 games, then the third match's second
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hokm.arena, "_play_game", stopped_in_the_last_matchs_second_game)
    argv = ["tournament", "random", "naive", "rule", "--boards", "4", "--games", "2"]
    out, err = io.StringIO(), io.StringIO()
    assert command.run(_parse(argv), out=out, err=err) == 130  # type: ignore[arg-type]
    assert "interrupted with 2 of 3 matches whole" in err.getvalue()
    assert "stopped early: naive vs rule played 4 boards and 1 game;" in out.getvalue()
