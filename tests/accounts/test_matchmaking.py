"""The quick-match queue with a fake clock."""

import pytest

from hokm.accounts.errors import AlreadyQueuedError, InvalidInputError, NotQueuedError
from hokm.accounts.matchmaking import MatchmakingConfig, QuickMatchQueue

# Players here never go away (touching them at every tick would only add noise); the last test
# is about those who do.
CONFIG = MatchmakingConfig(
    base_gap=2.0, widen_per_second=0.1, bot_offer_seconds=60, stale_seconds=float("inf")
)


def queue_with(ratings: dict[str, float], now: float = 0.0) -> QuickMatchQueue:
    queue = QuickMatchQueue(CONFIG)
    for player, rating in ratings.items():
        queue.join(player, rating, now=now)
    return queue


def test_four_close_players_are_matched_at_once_and_rated() -> None:
    queue = queue_with({"a": 25, "b": 25.5, "c": 26, "d": 24.5})
    (match,) = queue.tick(now=0.0)
    assert sorted(match.humans) == ["a", "b", "c", "d"]
    assert match.rated and match.preset == "platform-a"
    assert len(queue) == 0


def test_three_players_are_never_matched_among_humans() -> None:
    queue = queue_with({"a": 25, "b": 25, "c": 25})
    assert queue.tick(now=10_000.0) == []


def test_the_accepted_gap_widens_with_waiting_time() -> None:
    queue = queue_with({"a": 20, "b": 20, "c": 20, "d": 26})
    assert queue.tick(now=0.0) == []
    assert queue.status("a", now=39.0).accepted_gap == pytest.approx(5.9)
    assert queue.status("a", now=39.0).bots_in == pytest.approx(21.0)  # offered at 60 s
    assert queue.status("a", now=75.0).to_dict()["bots_in"] == 0
    assert queue.tick(now=39.0) == []  # gap 5.9 < 6
    (match,) = queue.tick(now=40.0)  # gap 6.0 for everyone
    assert sorted(match.humans) == ["a", "b", "c", "d"]


def test_every_player_must_accept_the_gap_a_newcomer_to_the_queue_too() -> None:
    queue = queue_with({"a": 20, "b": 20, "c": 20})
    queue.join("d", 26, now=100.0)  # the others have waited long; d just came
    assert queue.tick(now=100.0) == []
    assert len(queue.tick(now=140.0)) == 1


def test_closest_ratings_are_grouped_together() -> None:
    ratings = {f"low{i}": 10 + i * 0.1 for i in range(4)} | {f"high{i}": 40 + i for i in range(4)}
    queue = queue_with(ratings)
    matches = queue.tick(now=10.0)
    groups = sorted(sorted(m.humans) for m in matches)
    assert groups == [[f"high{i}" for i in range(4)], [f"low{i}" for i in range(4)]]


def test_longest_waiting_group_goes_first() -> None:
    queue = queue_with({"a": 10, "b": 10, "c": 10, "d": 10}, now=0)
    assert [sorted(m.humans) for m in queue.tick(now=0)] == [["a", "b", "c", "d"]]
    queue.join("late", 10, now=5)
    for p in "efg":
        queue.join(p, 10, now=1)
    queue.join("h", 10, now=6)
    (match,) = queue.tick(now=6)
    assert sorted(match.humans) == ["e", "f", "g", "late"]
    assert "h" in queue


def test_teams_are_balanced_by_total_rating() -> None:
    queue = queue_with({"a": 10, "b": 10.5, "c": 11, "d": 11.5})
    (match,) = queue.tick(now=0)
    team0 = {match.players[0], match.players[2]}
    assert team0 in ({"a", "d"}, {"b", "c"})


def test_bots_are_offered_only_after_the_set_time_and_are_unrated() -> None:
    queue = queue_with({"a": 25})
    queue.join("b", 40, now=10)  # waiting, but not yet offered bots at 60
    assert not queue.status("a", now=59).bots_offered
    with pytest.raises(InvalidInputError, match="1 s to go"):
        queue.play_with_bots("a", now=59)
    assert "a" in queue  # nothing changed
    assert queue.status("a", now=60).bots_offered
    match = queue.play_with_bots("a", now=60)
    assert match.players == ("a", None, None, None) and not match.rated
    assert "a" not in queue and "b" in queue


def test_people_offered_bots_too_come_along_as_partner_then_opponent() -> None:
    """Who asks sits at seat 0; others offered bots too and seen in the last 5 s join,
    longest-waiting first (partner opposite, then an opponent); who has waited less or was not
    seen just now stays queued, who has gone is dropped."""
    queue = QuickMatchQueue(MatchmakingConfig(bot_offer_seconds=60, stale_seconds=90))
    queue.join("e", 25, now=-100)  # has stopped asking for their status: gone
    for player, rating in {"a": 25, "b": 40, "c": 10, "f": 30}.items():
        queue.join(player, rating, now=0)
    queue.join("d", 25, now=30)  # bots not offered to d yet at 61
    for player in "acd":
        queue.touch(player, now=58)
    queue.touch("f", now=50)  # still queued, but not seen in the last 5 s: a frozen tab?
    match = queue.play_with_bots("b", now=61)  # b itself last seen at 0: asking is being here
    assert match.players == ("b", "c", "a", None) and not match.rated
    assert sorted(queue._entries) == ["d", "f"]  # e was dropped


def test_join_twice_leave_and_unknown_players_are_refused() -> None:
    queue = queue_with({"a": 25})
    with pytest.raises(AlreadyQueuedError):
        queue.join("a", 25, now=1)
    queue.leave("a")
    with pytest.raises(NotQueuedError):
        queue.leave("a")
    with pytest.raises(NotQueuedError):
        queue.status("a", now=1)
    with pytest.raises(InvalidInputError):
        queue.join("x", float("nan"), now=1)


def test_bad_config_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        MatchmakingConfig(base_gap=-1)
    with pytest.raises(InvalidInputError):
        MatchmakingConfig(base_gap=5, max_gap=1)


def test_players_who_stop_asking_are_dropped_before_matching() -> None:
    queue = QuickMatchQueue(MatchmakingConfig(base_gap=2.0, stale_seconds=15.0))
    for player in "abc":
        queue.join(player, 25, now=0.0)
    queue.touch("a", now=14.0)
    queue.touch("b", now=14.0)
    queue.join("d", 25, now=14.0)
    assert queue.tick(now=16.0) == []  # c has not asked since 0: gone, not matched
    assert "c" not in queue and len(queue) == 3
    queue.join("e", 25, now=16.0)
    (match,) = queue.tick(now=16.0)
    assert sorted(match.humans) == ["a", "b", "d", "e"]


def test_players_of_a_match_not_started_go_back_as_they_were() -> None:
    """A match the server does not start (one of the four sat down to another game): the
    others return with their wait and their place; only players of the last tick's matches."""
    queue = queue_with({"a": 25, "b": 25, "c": 25, "d": 25})
    (match,) = queue.tick(now=30)
    queue.restore([p for p in match.humans if p != "a"] + ["stranger"])
    assert "a" not in queue and "stranger" not in queue and len(queue) == 3
    assert queue.status("b", now=40).waiting_seconds == 40  # waited since 0, not since 30
    queue.tick(now=50)  # a new tick forgets the last one's matches
    queue.restore(["a"])
    assert "a" not in queue
