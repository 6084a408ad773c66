"""Actions: what players (and chance) do. Frozen, JSON round-tripping.

Chance actions (:class:`DrawAces`, :class:`SetHakem`, :class:`Deal`) come from a seed or
are given explicitly, so the engine itself never draws a random number.

>>> action_from_dict(Play(Seat(2), Card.parse("QS")).to_dict())
Play(seat=<Seat.S2: 2>, card=Card('QS'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, ClassVar

from hokm.engine.cards import ALL_CARDS, Card, Rank, Seat, Suit
from hokm.engine.errors import InvalidNotationError
from hokm.engine.frozen import unfrozen
from hokm.engine.shuffle import SeedStream, deck_from_seed

__all__ = [
    "Action",
    "ChooseTrump",
    "Deal",
    "DecideBam",
    "DrawAces",
    "Play",
    "RequestRedeal",
    "SetHakem",
    "action_from_dict",
]

DEAL_ROUNDS = (5, 4, 4)


def _dealt_positions(k: int) -> tuple[int, ...]:
    """The deck positions dealt to the k-th seat from the hakem (5-4-4)."""
    a, b, c = 5 * k, 20 + 4 * k, 36 + 4 * k
    return (*range(a, a + 5), *range(b, b + 4), *range(c, c + 4))


# For each hakem, per seat, a getter of that seat's 13 cards from the deck (as a tuple).
_DEALT: tuple[tuple[Any, ...], ...] = tuple(
    tuple(itemgetter(*_dealt_positions((seat - hakem) & 3)) for seat in range(4))
    for hakem in range(4)
)


@dataclass(frozen=True, slots=True)
class Play:
    """A seat plays a card to the current trick."""

    seat: Seat
    card: Card
    type: ClassVar[str] = "play"

    @staticmethod
    def of(seat: Seat | int, card: Card) -> Play:
        """The interned ``Play`` (equal to ``Play(seat, card)``, but free to build)."""
        return _PLAYS[seat][card.index]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": int(self.seat), "card": str(self.card)}


_PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(s, c) for c in ALL_CARDS) for s in Seat)


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The hakem names trump after seeing their first five cards."""

    seat: Seat
    suit: Suit
    type: ClassVar[str] = "choose_trump"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": int(self.seat), "suit": self.suit.value}


@dataclass(frozen=True, slots=True)
class RequestRedeal:
    """The hakem asks for a new deal because the first five are weak (option)."""

    seat: Seat
    type: ClassVar[str] = "request_redeal"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": int(self.seat)}


@dataclass(frozen=True, slots=True)
class DecideBam:
    """A player of the team at 7–0 decides whether to go on for all 13 tricks."""

    seat: Seat
    go: bool
    type: ClassVar[str] = "decide_bam"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": int(self.seat), "go": self.go}


@dataclass(frozen=True, slots=True)
class SetHakem:
    """The first hakem is set directly: by chance (``random``) or by the owner (``manual``)."""

    hakem: Seat
    type: ClassVar[str] = "set_hakem"

    @classmethod
    def from_seed(cls, seed: str) -> SetHakem:
        return cls(Seat(SeedStream(seed, "random-hakem").randbelow(4)))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "hakem": int(self.hakem)}


@dataclass(frozen=True, slots=True)
class DrawAces:
    """The ace draw: cards dealt face up from ``start`` in playing order until the first ace."""

    start: Seat
    cards: tuple[Card, ...]
    type: ClassVar[str] = "draw_aces"

    @classmethod
    def from_seed(cls, seed: str) -> DrawAces:
        stream = SeedStream(seed, "ace-draw")
        start = Seat(stream.randbelow(4))
        deck = deck_from_seed(seed, purpose="ace-draw-deck")
        cards: list[Card] = []
        for card in deck:
            cards.append(card)
            if card.rank == Rank.ACE:
                break
        return cls(start, tuple(cards))

    @property
    def hakem(self) -> Seat:
        return Seat((self.start + len(self.cards) - 1) % 4)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "start": int(self.start), "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand's deal: the 13 cards of each seat, in the order they are dealt.

    The first five cards of each seat come in the first round (the hakem names trump
    from theirs), the next four in the second, the last four in the third.
    ``seed`` is set when the deal was derived from a seed (see ``docs/records.md``).
    """

    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    seed: str | None = None
    # True when built from a whole deck, so the engine may skip re-checking it.
    _whole_deck: bool = field(default=False, compare=False, repr=False)
    type: ClassVar[str] = "deal"

    @classmethod
    def from_seed(cls, seed: str, hakem: Seat | int) -> Deal:
        """Deal the seed's deck 5-4-4, one round at a time, starting at the hakem."""
        return cls._deal(deck_from_seed(seed), hakem, seed)

    @classmethod
    def from_deck(cls, deck: Sequence[Card], hakem: Seat | int, *, seed: str | None = None) -> Deal:
        if len(deck) != 52 or len({c.index for c in deck}) != 52:
            raise InvalidNotationError("a deck is 52 different cards")
        return cls._deal(deck, hakem, seed)

    @classmethod
    def _deal(cls, deck: Sequence[Card], hakem: Seat | int, seed: str | None) -> Deal:
        # Deck positions 0-4 go to the hakem, 5-9 to the next seat, …; then 20-23 to the
        # hakem, …; then 36-39 to the hakem, … (5-4-4, always starting at the hakem).
        g0, g1, g2, g3 = _DEALT[hakem & 3]
        hands = (g0(deck), g1(deck), g2(deck), g3(deck))
        if cls is not Deal:
            return cls(hands, seed, True)
        # Deal(hands, seed, True), built unfrozen (see hokm.engine.frozen).
        deal = _UnfrozenDeal()
        deal.hands = hands
        deal.seed = seed
        deal._whole_deck = True
        deal.__class__ = Deal
        return deal  # type: ignore[no-any-return]

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[Card]], *, seed: str | None = None) -> Deal:
        if len(hands) != 4:
            raise InvalidNotationError("a deal has the cards of 4 seats")
        h0, h1, h2, h3 = (tuple(h) for h in hands)
        return cls((h0, h1, h2, h3), seed)

    def problem(self) -> str | None:
        """Why this is not a valid deal of all 52 cards, or None."""
        if self._whole_deck:
            return None
        for seat, hand in enumerate(self.hands):
            if len(hand) != 13:
                return f"seat {seat} holds {len(hand)} cards, not 13"
        h0, h1, h2, h3 = self.hands
        if len({c.index for c in (*h0, *h1, *h2, *h3)}) == 52:
            return None
        seen: set[Card] = set()
        for hand in self.hands:
            for card in hand:
                if card in seen:
                    return f"card {card} is dealt twice"
                seen.add(card)
        if len(seen) != len(ALL_CARDS):  # pragma: no cover - implied by the two checks above
            return "the deal is not the 52 cards"
        return None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": self.type,
            "hands": [[str(c) for c in hand] for hand in self.hands],
        }
        if self.seed is not None:
            data["seed"] = self.seed
        return data


_UnfrozenDeal = unfrozen(Deal)

Action = Play | ChooseTrump | RequestRedeal | DecideBam | SetHakem | DrawAces | Deal


def _seat(data: Mapping[str, Any], key: str = "seat") -> Seat:
    if key not in data:
        raise InvalidNotationError(f"action needs {key!r}")
    return Seat.parse(data[key])


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidNotationError(f"expected a list of cards, not {value!r}")
    return tuple(Card.parse(c) for c in value)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse an action from its JSON form; raises :class:`InvalidNotationError`."""
    if not isinstance(data, Mapping):
        raise InvalidNotationError("an action is a JSON object")
    kind = data.get("type")
    if kind == "play":
        return Play(_seat(data), Card.parse(data.get("card")))  # type: ignore[arg-type]
    if kind == "choose_trump":
        suit = data.get("suit")
        if not isinstance(suit, str):
            raise InvalidNotationError("choose_trump needs a suit S, H, D or C")
        return ChooseTrump(_seat(data), Suit.parse(suit))
    if kind == "request_redeal":
        return RequestRedeal(_seat(data))
    if kind == "decide_bam":
        go = data.get("go")
        if not isinstance(go, bool):
            raise InvalidNotationError("decide_bam needs go: true or false")
        return DecideBam(_seat(data), go)
    if kind == "set_hakem":
        return SetHakem(_seat(data, "hakem"))
    if kind == "draw_aces":
        return DrawAces(_seat(data, "start"), _cards(data.get("cards")))
    if kind == "deal":
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise InvalidNotationError("deal needs hands: four lists of cards")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, str):
            raise InvalidNotationError("a deal's seed is a string")
        return Deal.from_hands([_cards(h) for h in hands], seed=seed)
    raise InvalidNotationError(f"unknown action type {kind!r}")
