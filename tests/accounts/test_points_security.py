"""Account points, input rules, tokens, password hashing and login rate limiting."""

from datetime import UTC, datetime

import pytest

from hokm.accounts.errors import InvalidInputError, RateLimitedError
from hokm.accounts.points import points_for_game, week_start
from hokm.accounts.security import (
    LoginLimiter,
    Passwords,
    check_display_name,
    check_username,
    hash_token,
    new_session_token,
)


def test_each_winner_gets_one_point_bots_none() -> None:
    assert points_for_game(("a", "b", "c", "d"), winner_team=1) == {"b": 1, "d": 1}
    assert points_for_game((None, "b", None, "d"), winner_team=0) == {}


def test_par_bam_win_gives_two_points() -> None:
    assert points_for_game(("a", None, "c", None), 0, par_bam=True) == {"a": 2, "c": 2}


def test_cancelled_game_gives_no_points() -> None:
    assert points_for_game(("a", "b", "c", "d"), None) == {}


def test_week_starts_on_monday_utc() -> None:
    monday = datetime(2026, 11, 23, tzinfo=UTC)
    assert week_start(datetime(2026, 11, 23, 0, 0, tzinfo=UTC)) == monday
    assert week_start(datetime(2026, 11, 29, 23, 59, tzinfo=UTC)) == monday
    with pytest.raises(InvalidInputError):
        week_start(datetime(2026, 11, 29))


def test_usernames_and_display_names() -> None:
    assert check_username("سارا_۱") == "سارا_۱"
    for bad in ("ab", "a" * 25, "has space", "a/b", 5):
        with pytest.raises(InvalidInputError):
            check_username(bad)
    assert check_display_name("  Sara   K ") == "Sara K"
    for bad in ("", "x" * 25, "go to www.x.com", "a\x00b"):
        with pytest.raises(InvalidInputError):
            check_display_name(bad)


def test_tokens_are_random_and_stored_hashed() -> None:
    tokens = {new_session_token() for _ in range(50)}
    assert len(tokens) == 50
    token = tokens.pop()
    assert hash_token(token) == hash_token(token) and token not in hash_token(token)


async def test_argon2id_hash_and_verify_off_the_loop() -> None:
    passwords = Passwords(time_cost=1, memory_cost=1024)
    stored = await passwords.hash("correct horse")
    assert stored.startswith("$argon2id$")
    assert await passwords.verify(stored, "correct horse")
    assert not await passwords.verify(stored, "wrong horse")
    assert not await passwords.verify(None, "correct horse")  # unknown user: same path
    assert not await passwords.verify("not a hash", "x")


def test_rate_limit_per_account_from_one_address() -> None:
    limiter = LoginLimiter(max_per_pair=3, max_per_account=100, window_seconds=100)
    for i in range(3):
        limiter.check(account="sara", address="10.0.0.1", now=i)
        limiter.failed(account="sara", address="10.0.0.1", now=i)
    with pytest.raises(RateLimitedError) as info:
        limiter.check(account="sara", address="10.0.0.1", now=10)
    assert info.value.retry_after == 90
    limiter.check(account="other", address="10.0.0.1", now=10)  # other accounts are fine
    limiter.check(account="sara", address="10.0.0.1", now=100)  # the window has passed


def test_nobody_locks_an_account_out_with_a_few_wrong_passwords() -> None:
    """Five wrong passwords from other addresses used to lock the owner out too (usernames
    are public on the leaderboard): now they lock only those addresses out; the account as a
    whole after ``max_per_account`` failures from anywhere."""
    limiter = LoginLimiter(max_per_pair=5, max_per_account=12, window_seconds=100)
    for i in range(5):
        limiter.failed(account="sara", address=f"10.0.0.{i}", now=i)
    limiter.check(account="sara", address="192.168.1.7", now=6)  # her own: fine
    for i in range(7):
        limiter.failed(account="sara", address=f"10.0.1.{i}", now=10 + i)
    with pytest.raises(RateLimitedError):  # 12 from anywhere: the account rests a while
        limiter.check(account="sara", address="192.168.1.7", now=20)


def test_rate_limit_per_address_across_accounts() -> None:
    limiter = LoginLimiter(max_per_account=100, max_per_address=3, window_seconds=100)
    for i in range(3):
        limiter.failed(account=f"user{i}", address="1.1.1.1", now=0)
    with pytest.raises(RateLimitedError):
        limiter.check(account="fresh", address="1.1.1.1", now=1)
    limiter.check(account="fresh", address="2.2.2.2", now=1)


def test_failures_before_a_password_change_do_not_count_against_the_account() -> None:
    """``since`` (the password's last change) sets the account's earlier failures aside; the
    address's counter keeps every one, and failures after the change count as usual."""
    limiter = LoginLimiter(max_per_pair=3, max_per_address=5, window_seconds=100)
    for i in range(3):
        limiter.failed(account="sara", address="a", now=i)
    with pytest.raises(RateLimitedError):
        limiter.check(account="sara", address="a", now=5)
    limiter.check(account="sara", address="a", now=5, since=2.5)  # reset at 2.5: allowed
    limiter.failed(account="sara", address="a", now=6)
    limiter.failed(account="sara", address="a", now=7)
    with pytest.raises(RateLimitedError):  # five from the address, whatever the account's
        limiter.check(account="sara", address="a", now=8, since=2.5)
    limiter.check(account="sara", address="b", now=8, since=2.5)  # 3 since, from b: none
    limiter.failed(account="sara", address="b", now=9)
    limiter.failed(account="sara", address="b", now=10)
    limiter.failed(account="sara", address="b", now=11)
    with pytest.raises(RateLimitedError):  # three after the change, from b
        limiter.check(account="sara", address="b", now=12, since=2.5)


def test_success_clears_the_account_failures() -> None:
    limiter = LoginLimiter(max_per_pair=2, max_per_address=100, window_seconds=100)
    limiter.failed(account="sara", address="a", now=0)
    limiter.succeeded(account="sara", address="a")
    limiter.failed(account="sara", address="a", now=1)
    limiter.check(account="sara", address="a", now=2)


async def test_hashing_and_checking_run_off_the_event_loop_thread() -> None:
    """argon2 work happens in a worker thread, never on the thread running the event loop."""
    import threading

    passwords = Passwords(time_cost=1, memory_cost=1024)
    seen: list[int] = []
    real_hash, real_verify = passwords.hash_sync, passwords.verify_sync

    def hash_sync(password: str) -> str:
        seen.append(threading.get_ident())
        return real_hash(password)

    def verify_sync(stored: str | None, password: str) -> bool:
        seen.append(threading.get_ident())
        return real_verify(stored, password)

    passwords.hash_sync = hash_sync  # type: ignore[method-assign]
    passwords.verify_sync = verify_sync  # type: ignore[method-assign]
    stored = await passwords.hash("correct horse")
    assert await passwords.verify(stored, "correct horse")
    assert len(seen) == 2 and threading.get_ident() not in seen
