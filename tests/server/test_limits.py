"""The per-address limits in one process: what they keep when many addresses come."""

from __future__ import annotations

from hokm.server.limits import AddressLimits


def test_many_new_addresses_do_not_refill_a_used_up_bucket() -> None:
    """The limits keep ``keep`` addresses; past that they forgot every one, so an address
    that used its bucket up (guests, rooms) had it full again once ``keep`` other addresses
    had asked: a botnet's, or one machine's before IPv6 was counted by its /64. Full buckets
    go first, then the fullest; a used-up one stays."""
    limits = AddressLimits(rate=0.0, burst=3, keep=100)
    assert [limits.allow("203.0.113.7") for _ in range(4)] == [True, True, True, False]
    for n in range(1000):
        assert limits.allow(f"10.{n // 250}.{n % 250}.1")
    assert len(limits.buckets) <= 100
    assert not limits.allow("203.0.113.7")
