"""Deals from seeds: the documented algorithm, its fast path, and commitments."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest

from hokm.engine import (
    ALL_CARDS,
    Card,
    Deal,
    Seat,
    deck_from_seed,
    new_seed,
    seed_commitment,
    shuffle,
)
from hokm.engine.shuffle import SeedStream, _deck_slow


def test_the_fast_shuffle_equals_the_reference_algorithm() -> None:
    for i in range(300):
        seed = f"seed-{i}"
        assert deck_from_seed(seed) == _deck_slow(seed, "deal")
        assert deck_from_seed(seed, purpose="ace-draw-deck") == _deck_slow(seed, "ace-draw-deck")


def _documented_deck(seed: str, sha256: Callable[[bytes], Any] = hashlib.sha256) -> list[Card]:
    """Fisher–Yates over SHA-256 counter-mode words, as docs/records.md describes."""
    prefix = seed.encode() + b"\x00deal\x00"
    stream = b"".join(sha256(prefix + k.to_bytes(8, "big")).digest() for k in range(8))
    words = [int.from_bytes(stream[4 * i : 4 * i + 4], "big") for i in range(64)]
    deck = list(ALL_CARDS)
    pos = 0
    for i in range(51, 0, -1):
        n = i + 1
        while words[pos] >= 2**32 - 2**32 % n:
            pos += 1
        j = words[pos] % n
        pos += 1
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_reference_algorithm_step_by_step() -> None:
    assert deck_from_seed("docs") == _documented_deck("docs")


class _Digest:
    def __init__(self, digest: bytes) -> None:
        self._digest = digest

    def digest(self) -> bytes:
        return self._digest


def _sha256_with_word(word: bytes) -> Callable[[bytes], _Digest]:
    """SHA-256, except that block 0 of every stream starts with ``word``."""

    def sha256(data: bytes) -> _Digest:
        digest = hashlib.sha256(data).digest()
        return _Digest(word + digest[4:] if data.endswith(bytes(8)) else digest)

    return sha256


def test_a_rejected_word_on_the_fast_path_falls_back_to_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """0xFFFFFFFF is rejected for every deck size: the next word is read instead."""
    fake = _sha256_with_word(b"\xff\xff\xff\xff")
    monkeypatch.setattr(shuffle, "_sha256", fake)
    expected = _documented_deck("rejected", fake)
    assert deck_from_seed("rejected") == expected == _deck_slow("rejected", "deal")
    assert expected != _documented_deck("rejected")


def test_three_ff_bytes_that_are_no_rejected_word_keep_the_fast_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """0x00FFFFFF holds three 0xFF bytes but is far below every rejection limit."""
    fake = _sha256_with_word(b"\x00\xff\xff\xff")
    monkeypatch.setattr(shuffle, "_sha256", fake)
    monkeypatch.setattr(shuffle, "_deck_slow", None)  # the fast path must not need it
    assert deck_from_seed("kept") == _documented_deck("kept", fake)


def test_rejection_sampling_reads_another_word() -> None:
    stream = SeedStream("x", "p")
    assert all(0 <= stream.randbelow(3) < 3 for _ in range(100))


def test_a_seeded_deal_is_the_deck_dealt_5_4_4_from_the_hakem() -> None:
    deck = deck_from_seed("abc")
    deal = Deal.from_seed("abc", Seat(3))
    assert deal.hands[3] == (*deck[0:5], *deck[20:24], *deck[36:40])
    assert deal.hands[0] == (*deck[5:10], *deck[24:28], *deck[40:44])
    assert deal.seed == "abc" and deal.problem() is None
    assert Deal.from_hands(deal.hands, seed="abc") == deal


def test_commitments_are_sha256_hex_of_the_seed() -> None:
    assert seed_commitment("abc") == hashlib.sha256(b"abc").hexdigest()
    seed = new_seed()
    assert len(seed) == 64 and int(seed, 16) >= 0 and new_seed() != seed
