"""Frozen dataclasses built quickly, for the engine's hot paths.

A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``, several
times the cost of a plain attribute store. :func:`unfrozen` gives a class with the same
slots and nothing else: build one of those, store the fields, then set its ``__class__`` to
the frozen class. Both classes have the same layout (the same slots in the same order), which
is exactly when CPython allows the assignment, so the result is an ordinary instance of the
frozen class, equal to one built by its constructor and as frozen.

>>> from hokm.engine.cards import Seat, Suit
>>> from hokm.engine.events import TrumpChosen
>>> event = unfrozen(TrumpChosen)()
>>> event.seat, event.suit = Seat(1), Suit.HEARTS
>>> event.__class__ = TrumpChosen
>>> event == TrumpChosen(Seat(1), Suit.HEARTS), type(event) is TrumpChosen
(True, True)
"""

from __future__ import annotations

from typing import Any

__all__ = ["unfrozen"]


def unfrozen(cls: type) -> Any:
    """A plain class with the slots of the slotted dataclass ``cls`` (see the module doc)."""
    slots = cls.__dict__["__slots__"]
    return type(f"Unfrozen{cls.__name__}", (), {"__slots__": slots, "__module__": __name__})
