"""Rate limits as data: a token bucket that is told the time.

>>> bucket = TokenBucket(rate=2, burst=3)
>>> [bucket.take(0.0) for _ in range(4)]
[True, True, True, False]
>>> bucket.take(0.5)
True
"""

from __future__ import annotations

import ipaddress
import time
from typing import Protocol, overload

from starlette.requests import HTTPConnection

__all__ = [
    "LOOPBACK",
    "NO_ROOM_LIMITED",
    "AddressLimits",
    "Limits",
    "TokenBucket",
    "address_key",
    "client_address",
]

# This machine: scripts, benchmarks and tests (behind a proxy that does not send
# X-Forwarded-For every client looks local; with it, uvicorn reports the real address).
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


#: the refusal (English, Persian) of a room code naming no room past the address's limit
#: (``ServerState.misses``), over REST and in a WebSocket ``join`` alike
NO_ROOM_LIMITED = (
    "too many room codes that name no room from this address",
    "کدهای اتاقِ نادرست از این نشانی بیش از حد بوده است؛ کمی بعد دوباره امتحان کنید",
)


def client_address(conn: HTTPConnection) -> str | None:
    """The address the per-address limits count a request or a socket by
    (:func:`address_key` of its client; None when the server does not know it)."""
    return address_key(conn.client.host) if conn.client is not None else None


@overload
def address_key(address: str) -> str: ...
@overload
def address_key(address: None) -> None: ...
def address_key(address: str | None) -> str | None:
    """What the per-address limits count ``address`` as: an IPv6 address by its /64, the
    network one subscriber is given (each of its 2^64 addresses counted apart, one machine
    could make guests, rooms, sockets and password guesses without end); an IPv4 address
    (also written as IPv6, ``::ffff:…``) as itself.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("2001:db8:1:2::ffff")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> address_key("::ffff:10.0.0.1"), address_key("10.0.0.1"), address_key("::1")
    ('10.0.0.1', '10.0.0.1', '::1')
    """
    if address is None or address in LOOPBACK:
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # (not an address: uvicorn passes on what a proxy sent)
        return address
    if ip.version == 4:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.is_loopback:
        return address
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


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


class Limits(Protocol):
    """Per-address limits as the server's handlers use them: in this process
    (:class:`AddressLimits`) or shared by every process (``hokm.server.cluster``)."""

    async def take(self, address: str | None) -> bool:
        """Take one token of ``address``'s bucket; False when it is empty."""
        ...

    async def refund(self, address: str | None) -> None:
        """Give back the token of a request refused for another reason."""
        ...


class AddressLimits:
    """A token bucket per client address; loopback is exempt.

    >>> limits = AddressLimits(rate=0.0, burst=2)
    >>> [limits.allow("10.0.0.1") for _ in range(3)], limits.allow("10.0.0.2")
    ([True, True, False], True)
    >>> all(limits.allow("127.0.0.1") for _ in range(5))
    True
    >>> limits = AddressLimits(rate=0.0, burst=2, keep=3)
    >>> [limits.allow("10.0.0.1") for _ in range(3)]
    [True, True, False]
    >>> [limits.allow(f"10.1.0.{n}") for n in range(9)], limits.allow("10.0.0.1")
    ([True, True, True, True, True, True, True, True, True], False)
    """

    def __init__(self, *, rate: float, burst: float, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.buckets: dict[str, TokenBucket] = {}

    def allow(self, address: str | None) -> bool:
        address = address or "?"
        if address in LOOPBACK:
            return True
        bucket = self.buckets.get(address)
        now = time.monotonic()
        if bucket is None:
            if len(self.buckets) >= self.keep:
                self._forget(now)
            bucket = self.buckets[address] = TokenBucket(rate=self.rate, burst=self.burst)
        return bucket.take(now)

    def _forget(self, now: float) -> None:
        """Make room: drop the buckets that are full again (they hold nothing a new one would
        not), else the tenth that have the most tokens left. Dropping them all let anyone with
        ``keep`` addresses empty every address's bucket, their own first; an address that used
        its bucket up is the last to be forgotten."""

        def tokens(item: tuple[str, TokenBucket]) -> float:
            bucket = item[1]
            since = 0.0 if bucket.updated is None else now - bucket.updated
            return min(bucket.burst, bucket.tokens + since * self.rate)

        ranked = sorted(self.buckets.items(), key=tokens, reverse=True)
        full = [address for address, bucket in ranked if tokens((address, bucket)) >= self.burst]
        for address in full or [address for address, _ in ranked[: max(1, self.keep // 10)]]:
            del self.buckets[address]

    def give_back(self, address: str | None) -> None:
        """Return the token of an :meth:`allow` whose request was refused for another reason
        (a taken username should not use up an address's registrations)."""
        bucket = self.buckets.get(address or "?")
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + 1)

    async def take(self, address: str | None) -> bool:
        return self.allow(address)

    async def refund(self, address: str | None) -> None:
        self.give_back(address)
