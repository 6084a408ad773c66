"""Account points (RULES.md §8, source 004) and leaderboard helpers, without I/O.

For each game a team wins, each of its players that is an account or a guest identity (never a
bot) gets +1 point; a par-bam win gives +2. Games won with bots at the table count too.

>>> points_for_game(("ali", None, "bita", "cyrus"), winner_team=0)
{'ali': 1, 'bita': 1}
>>> points_for_game(("ali", None, "bita", "cyrus"), winner_team=1, par_bam=True)
{'cyrus': 2}
>>> week_start(datetime(2026, 11, 29, 12, 30, tzinfo=UTC)).isoformat()   # a Sunday
'2026-11-23T00:00:00+00:00'
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from hokm.accounts.errors import InvalidInputError

__all__ = ["PAR_BAM_POINTS", "WIN_POINTS", "points_for_game", "week_start"]

WIN_POINTS = 1
PAR_BAM_POINTS = 2


def points_for_game(
    players: Sequence[str | None], winner_team: int | None, *, par_bam: bool = False
) -> dict[str, int]:
    """Points earned in one game, by player id. ``players`` by seat; ``None`` is a bot.

    ``winner_team`` is ``None`` for a cancelled game: nobody gets points.
    """
    if len(players) != 4:
        raise InvalidInputError("a game has four seats")
    if winner_team not in (0, 1, None):
        raise InvalidInputError(f"winner_team must be 0, 1 or None, not {winner_team!r}")
    if winner_team is None:
        return {}
    points = PAR_BAM_POINTS if par_bam else WIN_POINTS
    return {
        p: points for seat, p in enumerate(players) if p is not None and seat % 2 == winner_team
    }


def week_start(now: datetime) -> datetime:
    """Monday 00:00 UTC of the week holding ``now``: the "this week" leaderboard starts there."""
    if now.tzinfo is None:
        raise InvalidInputError("a timezone-aware time is needed")
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())
