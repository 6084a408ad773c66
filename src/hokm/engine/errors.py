"""The engine's narrow error family. Everything is a :class:`ValueError`.

The server maps exactly this family to protocol errors; anything else is a bug.
"""

from __future__ import annotations

__all__ = [
    "HokmError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidRecordError",
    "InvalidRulesError",
    "NotYourTurnError",
    "WrongPhaseError",
]


class HokmError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidNotationError(HokmError):
    """A card, suit, seat or action could not be parsed."""


class InvalidRulesError(HokmError):
    """A rule option has a bad name or value."""


class IllegalActionError(HokmError):
    """An action breaks a rule; the message names the rule. Nothing changed."""


class NotYourTurnError(IllegalActionError):
    """An action was made by a seat that is not to act."""


class WrongPhaseError(IllegalActionError):
    """An action does not belong to the current phase."""


class InvalidRecordError(HokmError):
    """A game record is malformed (not a rule break in a well-formed record)."""
