"""The quick-match queue, without sockets or a clock: time is passed in (seconds).

Four humans are matched when their ratings are close enough for every one of them; the gap a
player accepts widens the longer they wait. After ``bot_offer_seconds`` a waiting player may
choose to play with bots instead; such a game is not rated. Quick games use ``platform-a``.

>>> queue = QuickMatchQueue()
>>> for name, skill in [("a", 25.0), ("b", 26.0), ("c", 24.0), ("d", 40.0)]:
...     queue.join(name, skill, now=0.0)
>>> queue.tick(now=1.0)       # d is too far from the others for now
[]
>>> queue.status("a", now=1.0).bots_offered
False
>>> for name in "abcd":       # waiting players keep asking for their status (see below)
...     queue.touch(name, now=200.0)
>>> [m.players for m in queue.tick(now=200.0)]   # the accepted gap has widened
[('b', 'c', 'a', 'd')]
>>> queue.join("e", 25.0, now=200.0)
>>> queue.play_with_bots("e", now=230.0)   # too early: bots are offered after 60 s
Traceback (most recent call last):
...
hokm.accounts.errors.InvalidInputError: bots are offered after 60 s of waiting; 30 s to go
>>> match = queue.play_with_bots("e", now=260.0)
>>> match.players, match.rated
(('e', None, None, None), False)

Two people waiting alone (and still asking for their status) play together, partners
against two bots, when one of them asks:

>>> queue.join("g", 25.0, now=300.0); queue.join("h", 45.0, now=310.0)
>>> queue.touch("g", now=368.0)
>>> queue.play_with_bots("h", now=370.0).players
('h', None, 'g', None)

A player who has not asked for their status (:meth:`QuickMatchQueue.touch`) for
``stale_seconds`` has gone, and is dropped at the next tick rather than matched as a ghost:

>>> queue.join("f", 25.0, now=300.0)
>>> queue.tick(now=391.0), "f" in queue
([], False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hokm.accounts.errors import AlreadyQueuedError, InvalidInputError, NotQueuedError

__all__ = ["QUICK_PRESET", "Match", "MatchmakingConfig", "QueueStatus", "QuickMatchQueue"]

#: the rule preset of every quick game (RULES.md §8: turn 15 s, trump 20 s, game to 7)
QUICK_PRESET = "platform-a"


@dataclass(frozen=True, slots=True)
class MatchmakingConfig:
    """How fast the accepted rating gap widens, and when bots are offered (rating = ``mu``)."""

    base_gap: float = 3.0  # gap accepted at once (about one "beta" of the rating model)
    widen_per_second: float = 0.1  # added per second of waiting
    max_gap: float = math.inf  # the gap never exceeds this
    bot_offer_seconds: float = 60.0  # after this long a player may choose bots
    # A waiting player who has not asked for their status this long has gone (closed the
    # page, lost the network): they leave the queue instead of being matched as a ghost.
    # Long enough for a throttled background tab (the web client leaves the queue itself when
    # the player goes to another page).
    stale_seconds: float = 90.0
    # Only players who asked for their status this recently (a page polls every 1–2 s) come
    # along into another player's game with bots: a closed or frozen tab does not.
    present_seconds: float = 5.0

    def __post_init__(self) -> None:
        names = ("base_gap", "widen_per_second", "bot_offer_seconds", "stale_seconds")
        for name in (*names, "present_seconds"):
            value = getattr(self, name)
            if not value >= 0:
                raise InvalidInputError(f"{name} must be ≥ 0, not {value!r}")
        if not self.max_gap >= self.base_gap:
            raise InvalidInputError("max_gap must be at least base_gap")

    def gap(self, waited: float) -> float:
        """The rating gap accepted after waiting ``waited`` seconds."""
        return min(self.max_gap, self.base_gap + self.widen_per_second * max(0.0, waited))


@dataclass(frozen=True, slots=True)
class Match:
    """A quick game to start: players by seat (``None`` = a bot); teams are seats 0+2 and 1+3."""

    players: tuple[str | None, str | None, str | None, str | None]
    rated: bool
    preset: str = QUICK_PRESET

    @property
    def humans(self) -> list[str]:
        return [p for p in self.players if p is not None]

    def to_dict(self) -> dict[str, object]:
        return {"players": list(self.players), "rated": self.rated, "preset": self.preset}


@dataclass(frozen=True, slots=True)
class QueueStatus:
    waiting_seconds: float
    accepted_gap: float
    bots_offered: bool
    queue_size: int
    bots_in: float = 0.0  # seconds until a game with bots is offered (0: offered)

    def to_dict(self) -> dict[str, object]:
        return {
            "waiting_seconds": round(self.waiting_seconds, 1),
            "accepted_gap": round(self.accepted_gap, 2),
            "bots_offered": self.bots_offered,
            "bots_in": round(self.bots_in, 1),
            "queue_size": self.queue_size,
        }


@dataclass(slots=True)
class _Entry:
    player: str
    rating: float
    joined: float
    order: int
    seen: float  # when the player last joined or asked for their status


@dataclass
class QuickMatchQueue:
    """Players waiting for a quick game. Not thread-safe: one owner calls it."""

    config: MatchmakingConfig = field(default_factory=MatchmakingConfig)
    _entries: dict[str, _Entry] = field(default_factory=dict)
    _taken: dict[str, _Entry] = field(default_factory=dict)  # by the last tick (``restore``)
    _counter: int = 0

    def __contains__(self, player: object) -> bool:
        return player in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def join(self, player: str, rating: float, *, now: float) -> None:
        if player in self._entries:
            raise AlreadyQueuedError("already waiting for a quick game")
        if not math.isfinite(rating):
            raise InvalidInputError("rating must be a finite number")
        self._counter += 1
        self._entries[player] = _Entry(player, float(rating), now, self._counter, now)

    def leave(self, player: str) -> None:
        if self._entries.pop(player, None) is None:
            raise NotQueuedError("not waiting for a quick game")

    def touch(self, player: str, *, now: float) -> None:
        """The player is still there (they asked for their status)."""
        entry = self._entries.get(player)
        if entry is not None:
            entry.seen = max(entry.seen, now)

    def drop_gone(self, *, now: float) -> list[str]:
        """Remove the players not seen for ``stale_seconds``; who they were."""
        gone = [
            e.player for e in self._entries.values() if now - e.seen > self.config.stale_seconds
        ]
        for player in gone:
            del self._entries[player]
        return gone

    def status(self, player: str, *, now: float) -> QueueStatus:
        entry = self._entry(player)
        waited = max(0.0, now - entry.joined)
        return QueueStatus(
            waiting_seconds=waited,
            accepted_gap=self.config.gap(waited),
            bots_offered=waited >= self.config.bot_offer_seconds,
            queue_size=len(self._entries),
            bots_in=max(0.0, self.config.bot_offer_seconds - waited),
        )

    def play_with_bots(self, player: str, *, now: float) -> Match:
        """The player gives up waiting for a rated game of four: an unrated game now, with bots
        in the empty seats.

        Up to three other waiting players to whom bots are offered too (they have waited as
        long, and asked for their status in the last ``present_seconds``) come along,
        longest-waiting first, so that two people waiting alone play together rather than each
        with three bots (the page says so while bots are offered). The player sits at
        seat 0, a second person opposite as partner (seat 2), a third at seat 1.
        """
        entry = self._entry(player)
        left = self.config.bot_offer_seconds - (now - entry.joined)
        if left > 0:
            raise InvalidInputError(
                f"bots are offered after {self.config.bot_offer_seconds:g} s of waiting; "
                f"{math.ceil(left)} s to go"
            )
        entry.seen = max(entry.seen, now)  # asking is being here
        self.drop_gone(now=now)
        others = sorted(
            (
                e
                for e in self._entries.values()
                if e.player != player
                and now - e.joined >= self.config.bot_offer_seconds
                and now - e.seen <= self.config.present_seconds
            ),
            key=lambda e: e.order,
        )[:3]
        players: list[str | None] = [None, None, None, None]
        for seat, taken in zip((0, 2, 1, 3), [entry, *others], strict=False):
            players[seat] = taken.player
            del self._entries[taken.player]
        return Match((players[0], players[1], players[2], players[3]), rated=False)

    def tick(self, *, now: float) -> list[Match]:
        """Drop the players who have gone (:meth:`drop_gone`), then form every match of four
        humans possible now, longest-waiting players first."""
        self.drop_gone(now=now)
        matches: list[Match] = []
        self._taken = {}
        while (group := self._best_group(now)) is not None:
            for entry in group:
                del self._entries[entry.player]
                self._taken[entry.player] = entry
            matches.append(Match(_seat(group), rated=True))
        return matches

    def restore(self, players: list[str]) -> None:
        """Put players of a match the last :meth:`tick` formed back in the queue as they were
        (their wait and place kept): the match was not started."""
        for player in players:
            entry = self._taken.pop(player, None)
            if entry is not None and player not in self._entries:
                self._entries[player] = entry

    def _entry(self, player: str) -> _Entry:
        entry = self._entries.get(player)
        if entry is None:
            raise NotQueuedError("not waiting for a quick game")
        return entry

    def _best_group(self, now: float) -> list[_Entry] | None:
        """Of the acceptable groups of four neighbours by rating, the one waiting longest."""
        ranked = sorted(self._entries.values(), key=lambda e: (e.rating, e.order))
        best: list[_Entry] | None = None
        best_key: tuple[int, float] | None = None
        for i in range(len(ranked) - 3):
            group = ranked[i : i + 4]
            if not self._acceptable(group, now):
                continue
            key = (min(e.order for e in group), group[-1].rating - group[0].rating)
            if best_key is None or key < best_key:
                best, best_key = group, key
        return best

    def _acceptable(self, group: list[_Entry], now: float) -> bool:
        """Every player accepts every other's rating under their own (widened) gap."""
        low, high = group[0].rating, group[-1].rating
        return all(
            max(high - e.rating, e.rating - low) <= self.config.gap(now - e.joined) for e in group
        )


def _seat(group: list[_Entry]) -> tuple[str, str, str, str]:
    """Split four players into the two teams with the closest total rating."""
    best: tuple[str, str, str, str] | None = None
    best_diff = math.inf
    first = group[0]
    for partner in group[1:]:
        team_a = [first, partner]
        team_b = [e for e in group if e not in team_a]
        diff = abs(sum(e.rating for e in team_a) - sum(e.rating for e in team_b))
        if diff < best_diff:
            best_diff = diff
            best = (team_b[1].player, team_a[0].player, team_b[0].player, team_a[1].player)
    assert best is not None
    return best
