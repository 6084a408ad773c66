"""How a table's game result becomes the accounts' game outcome (no server needed)."""

from hokm.accounts.matchmaking import Match
from hokm.server.accounts_api import outcome_of
from hokm.table.model import GameResult

FOUR = Match(("a", "b", "c", "d"), rated=True)


def result(**changes: object) -> GameResult:
    data: dict[str, object] = {
        "table_id": "T",
        "game": 1,
        "status": "completed",
        "winner_team": 0,
        "score": (7, 2),
        "players": ("a", "b", "c", "d"),
        "bots": (None, None, None, None),
        "results": ("normal",),
        "par_bam": False,
        "left": (),
        "abandoned": None,
    }
    data.update(changes)
    return GameResult(**data)  # type: ignore[arg-type]


def test_first_game_of_a_quick_room_among_the_matched_four_is_rated() -> None:
    outcome = outcome_of(result(), game_id="T-1", code="T", match=FOUR, at=1)
    assert outcome.quick and outcome.rated and outcome.winner_team == 0


def test_later_games_and_private_rooms_are_not_rated() -> None:
    assert not outcome_of(result(game=2), game_id="T-2", code="T", match=FOUR, at=1).rated
    private = outcome_of(result(), game_id="T-1", code="T", match=None, at=1)
    assert not private.quick and not private.rated


def test_a_leaver_is_put_back_on_the_seat_a_bot_took() -> None:
    left = result(players=("a", "b", None, "d"), left=(("c", 2),))
    outcome = outcome_of(left, game_id="T-1", code="T", match=FOUR, at=1)
    assert outcome.players == ("a", "b", "c", "d") and outcome.leavers == {"c"} and outcome.rated


def test_whoever_got_a_quick_game_cancelled_counts_as_a_leaver() -> None:
    cancelled = result(status="cancelled", winner_team=None, abandoned="b")
    outcome = outcome_of(cancelled, game_id="T-1", code="T", match=FOUR, at=1)
    assert outcome.winner_team is None and outcome.leavers == {"b"}
    private = outcome_of(cancelled, game_id="T-1", code="T", match=None, at=1)
    assert private.leavers == frozenset()


def test_everyone_still_away_when_a_quick_game_was_cancelled_counts_as_a_leaver() -> None:
    """All four gone (say, matched and none came): the game is cancelled at one grace end,
    but the others stayed away as long; none of them is rated a winner for it."""
    cancelled = result(status="cancelled", winner_team=None, abandoned="a", absent=("b", "c", "d"))
    outcome = outcome_of(cancelled, game_id="T-1", code="T", match=FOUR, at=1)
    assert outcome.leavers == {"a", "b", "c", "d"}
    assert {outcome.result_of(p) for p in "abcd"} == {"left"}
    private = outcome_of(cancelled, game_id="T-1", code="T", match=None, at=1)
    assert private.leavers == frozenset()


def test_par_bam_counts_only_in_a_completed_game() -> None:
    assert outcome_of(result(par_bam=True), game_id="x", code=None, match=None, at=1).par_bam
    closed = result(status="closed", winner_team=None, par_bam=True)
    assert not outcome_of(closed, game_id="x", code=None, match=None, at=1).par_bam


def test_bots_game_from_the_queue_is_quick_but_not_rated() -> None:
    solo = Match(("a", None, None, None), rated=False)
    bots = result(players=("a", None, None, None), bots=(None, "medium", "medium", "medium"))
    outcome = outcome_of(bots, game_id="T-1", code="T", match=solo, at=1)
    assert outcome.quick and not outcome.rated and outcome.points() == {"a": 1}


def test_a_player_who_took_hints_earns_no_points_for_the_win() -> None:
    practice = result(players=("a", None, None, None), bots=(None, "medium", "medium", "medium"))
    plain = outcome_of(practice, game_id="T-1", code="T", match=None, at=1)
    assert plain.points() == {"a": 1}
    hinted = outcome_of(
        result(players=("a", None, "c", None), hinted=("a",)),
        game_id="T-1",
        code="T",
        match=None,
        at=1,
    )
    assert hinted.assisted == {"a"} and hinted.points() == {"c": 1}  # the partner keeps his
    assert hinted.result_of("a") == "won"  # still a win in the history


def test_a_player_the_bot_played_for_most_of_the_game_earns_no_points_for_the_win() -> None:
    """Away or timing out, a player whose bot made most of their decisions (``idle``) won
    nothing by their play: no points (the leaderboard was farmed by starting a game against
    weak bots and walking away), while the win stays in their history."""
    idle = outcome_of(
        result(players=("a", None, "c", None), idle=("a",)),
        game_id="T-1",
        code="T",
        match=None,
        at=1,
    )
    assert idle.assisted == {"a"} and idle.points() == {"c": 1}
    assert idle.result_of("a") == "won"
