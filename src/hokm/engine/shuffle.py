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
import importlib
import operator
import secrets
import struct
from collections.abc import Callable
from typing import Any

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
            digest = _sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
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
    # Fast path: 7 blocks give 56 words, and the 51 swaps need 51 words unless one is
    # rejected, which happens with probability below 2**-25 per deck; then the reference
    # implementation (the same algorithm, word by word) takes over. A rejected word is at
    # least 2**32 - 51, so its first three bytes are 0xFF: without three 0xFF bytes in a row
    # in the stream, no word is rejected.
    prefix = seed.encode() + b"\x00" + purpose.encode() + b"\x00"
    sha256 = _sha256
    stream = b"".join([sha256(prefix + block).digest() for block in _BLOCKS])
    words = _UNPACK(stream)
    if b"\xff\xff\xff" in stream and any(map(operator.ge, words, _SIZE_LIMITS)):
        return _deck_slow(seed, purpose)
    deck = list(ALL_CARDS)
    for i, j in zip(_POSITIONS, map(operator.mod, words, _SIZES), strict=True):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _builtin_sha256() -> Callable[[bytes], Any]:
    """SHA-256 of CPython's own module when there is one (cheaper to set up per call than
    OpenSSL's, and the digests are the same), else hashlib's."""
    for name in ("_sha2", "_sha256"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        constructor: Callable[[bytes], Any] | None = getattr(module, "sha256", None)
        if constructor is not None:
            return constructor
    return hashlib.sha256


_sha256 = _builtin_sha256()
_UNPACK = struct.Struct(">51I").unpack_from  # the first 51 words
_BLOCKS = tuple(k.to_bytes(8, "big") for k in range(7))
_SIZES = tuple(range(52, 1, -1))  # i + 1 for i = 51 … 1
_POSITIONS = tuple(range(51, 0, -1))
_SIZE_LIMITS = tuple((1 << 32) - ((1 << 32) % n) for n in _SIZES)
assert min(_SIZE_LIMITS) >= 0xFFFFFF00  # a rejected word starts with three 0xFF bytes


def _deck_slow(seed: str, purpose: str) -> list[Card]:
    deck = list(ALL_CARDS)
    stream = SeedStream(seed, purpose)
    for i in range(51, 0, -1):
        j = stream.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seed_commitment(seed: str) -> str:
    """The hash published before a deal: SHA-256 of the seed's UTF-8 bytes, hex."""
    digest: str = _sha256(seed.encode()).hexdigest()
    return digest


def new_seed() -> str:
    """A fresh seed from a cryptographically secure generator (64 hex digits)."""
    return secrets.token_hex(32)
