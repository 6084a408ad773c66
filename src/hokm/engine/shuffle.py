"""Deals derived from a seed by a documented, portable algorithm (RULES.md §10).

The algorithm (also in ``docs/records.md``):

1. A byte stream is SHA-256 in counter mode: block ``k`` is
   ``SHA-256(utf8(seed) || 0x00 || utf8(purpose) || 0x00 || k as 8 bytes big-endian)``,
   for k = 0, 1, 2, …; the stream is the blocks concatenated.
2. ``randbelow(n)`` reads 4 bytes as a big-endian unsigned integer ``u`` and accepts it when
   ``u < 2**32 - (2**32 % n)`` (else reads again), returning ``u % n``: no modulo bias.
3. The deck starts in the order S, H, D, C and 2 … A within a suit (card index 0–51), and is
   shuffled by Fisher–Yates: for ``i`` from 51 down to 1, swap positions ``i`` and
   ``randbelow(i + 1)``. The purpose of a hand's deck is ``"deal"``.

The server publishes ``seed_commitment(seed)`` (SHA-256 of the seed, hex) before the deal
and reveals the seed after the hand, so anyone can re-derive the deal.

>>> [str(c) for c in deck_from_seed("example")[:5]]
['JD', '2D', '4C', '9D', '2C']
>>> seed_commitment("example")[:16]
'50d858e0985ecc7f'
"""

from __future__ import annotations

import hashlib
import operator
import secrets
import struct

from hokm.engine.cards import ALL_CARDS, Card

__all__ = ["SeedStream", "deck_from_seed", "new_seed", "seed_commitment"]


class SeedStream:
    """A deterministic stream of uniform integers derived from ``(seed, purpose)``."""

    __slots__ = ("_block", "_buffer", "_prefix")

    def __init__(self, seed: str, purpose: str) -> None:
        self._prefix = seed.encode() + b"\x00" + purpose.encode() + b"\x00"
        self._block = 0
        self._buffer = b""

    def _read4(self) -> int:
        if len(self._buffer) < 4:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._buffer += digest
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            u = self._read4()
            if u < limit:
                return u % n


def deck_from_seed(seed: str, *, purpose: str = "deal") -> list[Card]:
    """The shuffled 52-card deck for ``seed`` (see the module docstring)."""
    deck = list(ALL_CARDS)
    prefix = seed.encode() + b"\x00" + purpose.encode() + b"\x00"
    # Fast path: 7 blocks give 56 words, and the 51 swaps need 51 words unless one is
    # rejected, which happens with probability below 2**-25 per deck; then the reference
    # implementation (the same algorithm, word by word) takes over.
    sha256 = hashlib.sha256
    words = _UNPACK(b"".join([sha256(prefix + k).digest() for k in _BLOCKS]))
    if max(words) >= _MIN_LIMIT and any(map(operator.ge, words, _SIZE_LIMITS)):
        return _deck_slow(seed, purpose)
    for i, j in zip(_POSITIONS, map(operator.mod, words, _SIZES), strict=False):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_UNPACK = struct.Struct(">56I").unpack
_BLOCKS = tuple(k.to_bytes(8, "big") for k in range(7))
_SIZES = tuple(range(52, 1, -1))  # i + 1 for i = 51 … 1
_POSITIONS = tuple(range(51, 0, -1))
_SIZE_LIMITS = tuple((1 << 32) - ((1 << 32) % n) for n in _SIZES)
_MIN_LIMIT = min(_SIZE_LIMITS)  # no word below it is ever rejected


def _deck_slow(seed: str, purpose: str) -> list[Card]:
    deck = list(ALL_CARDS)
    stream = SeedStream(seed, purpose)
    for i in range(51, 0, -1):
        j = stream.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seed_commitment(seed: str) -> str:
    """The hash published before a deal: SHA-256 of the seed's UTF-8 bytes, hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def new_seed() -> str:
    """A fresh seed from a cryptographically secure generator (64 hex digits)."""
    return secrets.token_hex(32)
