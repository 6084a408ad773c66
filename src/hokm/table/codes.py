"""Short join codes in an unambiguous alphabet (no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V).

>>> import random
>>> code = new_code(random.Random(1))
>>> len(code), all(c in CODE_ALPHABET for c in code)
(6, True)
>>> normalize_code(" ab-c d ")
'ABCD'
>>> normalize_code("mecxy۶")  # a Persian keyboard's digit 6
'MECXY6'
>>> normalize_code("\u2068MECXY6\u2069")  # copied from a Persian sentence
'MECXY6'
"""

from __future__ import annotations

import random
import unicodedata

from hokm.engine import latin_digits

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "is_code", "new_code", "normalize_code"]

CODE_ALPHABET = "34679ACDEFGHJKMNPQRTWXY"
CODE_LENGTH = 6


def new_code(rng: random.Random, *, length: int = CODE_LENGTH) -> str:
    """A fresh join code. Pass ``random.SystemRandom()`` in production, a seeded RNG in tests.

    The caller (storage/server) retries on the rare collision with an existing room.
    """
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What a person typed, upper-cased, digits made ASCII, without spaces, dashes and the
    invisible format marks a Persian message wraps a Latin code in (bidi isolates and marks,
    zero-width joiners: Unicode category Cf), so a code copied from an invitation works."""
    return "".join(
        ch
        for ch in latin_digits(text).upper()
        if not (ch.isspace() or ch in "-_" or unicodedata.category(ch) == "Cf")
    )


def is_code(text: str) -> bool:
    """True if ``text`` (normalized) could be a join code."""
    code = normalize_code(text)
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)
