"""Rate limits as data: a token bucket that is told the time.

>>> bucket = TokenBucket(rate=2, burst=3)
>>> [bucket.take(0.0) for _ in range(4)]
[True, True, True, False]
>>> bucket.take(0.5)
True
"""

from __future__ import annotations

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up; each message takes one."""

    __slots__ = ("burst", "rate", "tokens", "updated")

    def __init__(self, *, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.updated: float | None = None

    def take(self, now: float) -> bool:
        if self.updated is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
