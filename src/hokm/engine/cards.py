"""Cards, suits, ranks, seats and teams: the small typed vocabulary of the engine.

Cards are interned: there are exactly 52 :class:`Card` objects, so identity,
equality and hashing are cheap, and ``Card.parse`` always returns the same object.

>>> card = Card.parse("10h")
>>> card, str(card), card.suit, card.rank
(Card('TH'), 'TH', <Suit.HEARTS: 'H'>, <Rank.TEN: 10>)
>>> Card.parse("as") is Card.parse("AS")
True
>>> Seat(3).next, Seat(1).partner, Seat(2).team
(<Seat.S0: 0>, <Seat.S3: 3>, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum, StrEnum
from typing import ClassVar

from hokm.engine.errors import InvalidNotationError

__all__ = [
    "ALL_CARDS",
    "Card",
    "Rank",
    "Seat",
    "Suit",
    "format_cards",
    "parse_cards",
    "persian_digits",
]


class Suit(StrEnum):
    """The four suits, in the order used for sorting and bitmasks."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def ordinal(self) -> int:
        """0–3 in the order S, H, D, C."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def persian(self) -> str:
        """The Persian name used in the UI (RULES.md §1)."""
        return _SUIT_PERSIAN[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, suit.symbol, suit.name):
                return suit
        raise InvalidNotationError(f"unknown suit {text!r}: use S, H, D or C")

    def __str__(self) -> str:
        return self.value


_SUIT_INDEX = {s: i for i, s in enumerate(Suit)}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_PERSIAN = {Suit.SPADES: "پیک", Suit.HEARTS: "دل", Suit.DIAMONDS: "خشت", Suit.CLUBS: "گشنیز"}
SUITS: tuple[Suit, ...] = tuple(Suit)


class Rank(IntEnum):
    """Ranks, compared by strength: the ace is high."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOL[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        for rank, symbol in _RANK_SYMBOL.items():
            if symbol == key:
                return rank
        raise InvalidNotationError(f"unknown rank {text!r}: use A K Q J T 9 … 2 (or 10)")

    def __str__(self) -> str:
        return self.symbol


_RANK_PERSIAN = {Rank.ACE: "آس", Rank.KING: "شاه", Rank.QUEEN: "بی‌بی", Rank.JACK: "سرباز"}
_RANK_SYMBOL = {r: ("T" if r == 10 else "JQKA"[r - 11] if r > 10 else str(int(r))) for r in Rank}
RANKS_HIGH_TO_LOW: tuple[Rank, ...] = tuple(sorted(Rank, reverse=True))


class Seat(IntEnum):
    """Seats 0–3 in playing order; partners sit opposite, so teams are {0, 2} and {1, 3}."""

    S0 = 0
    S1 = 1
    S2 = 2
    S3 = 3

    @property
    def team(self) -> int:
        return self & 1

    @property
    def partner(self) -> Seat:
        return _SEATS[(self + 2) & 3]

    @property
    def next(self) -> Seat:
        """The next player in playing order (on this player's right)."""
        return _SEATS[(self + 1) & 3]

    @classmethod
    def parse(cls, value: object) -> Seat:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
            raise InvalidNotationError(f"a seat is an integer 0–3, not {value!r}")
        return _SEATS[value]


_SEATS: tuple[Seat, ...] = tuple(Seat)
SEATS = _SEATS


def team_seats(team: int) -> tuple[Seat, Seat]:
    """The two seats of ``team`` (0: seats 0 and 2; 1: seats 1 and 3)."""
    return (_SEATS[team], _SEATS[team + 2])


class Card:
    """One of the 52 cards. Construct with :meth:`Card.parse` or :meth:`Card.of`."""

    __slots__ = ("index", "rank", "suit", "suit_index", "text")
    _by_index: ClassVar[list[Card]] = []
    _by_text: ClassVar[dict[str, Card]] = {}

    suit: Suit
    rank: Rank
    index: int  # 0..51: suit.ordinal * 13 + (rank - 2); also the card's bit in a bitmask
    suit_index: int
    text: str  # the notation, e.g. ``TH`` (what ``str`` gives; kept, as views render it often)

    def __init__(self, suit: Suit, rank: Rank) -> None:
        if len(Card._by_index) >= 52:
            raise TypeError("cards are interned: use Card.of(suit, rank) or Card.parse(text)")
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "index", suit.ordinal * 13 + (rank - 2))
        object.__setattr__(self, "suit_index", suit.ordinal)
        object.__setattr__(self, "text", rank.symbol + suit.value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        return cls._by_index[suit.ordinal * 13 + (rank - 2)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls._by_index[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``<rank><suit>``: ranks ``A K Q J T 9 … 2`` (or ``10``), suits ``S H D C``."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"a card is a string like 'AS', not {text!r}")
        card = cls._by_text.get(text.strip().upper())
        if card is None:
            raise InvalidNotationError(
                f"invalid card {text!r}: expected <rank><suit>, e.g. AS, TH, 10D, 2C"
            )
        return card

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def pretty(self) -> str:
        """Human form with a suit symbol, e.g. ``10♥``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.symbol
        return f"{rank}{self.suit.symbol}"

    @property
    def persian(self) -> str:
        """The card's name in Persian words, as the web client says it: «آس دل», «۷ گشنیز».

        >>> Card.parse("QS").persian, Card.parse("TC").persian
        ('بی‌بی پیک', '۱۰ گشنیز')
        """
        rank = _RANK_PERSIAN.get(self.rank) or persian_digits(int(self.rank))
        return f"{rank} {self.suit.persian}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


for _suit in Suit:
    for _rank in sorted(Rank):
        _card = Card(_suit, _rank)
        Card._by_index.append(_card)
        Card._by_text[str(_card)] = _card
        if _rank == Rank.TEN:
            Card._by_text["10" + _suit.value] = _card

ALL_CARDS: tuple[Card, ...] = tuple(Card._by_index)


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse a list of card strings, or one space-separated string."""
    if isinstance(texts, str):
        texts = texts.split()
    return [Card.parse(t) for t in texts]


_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def persian_digits(value: object) -> str:
    """``value`` as text with Persian digits, as the UI shows numbers (RULES.md §1).

    >>> persian_digits(12)
    '۱۲'
    """
    return str(value).translate(_PERSIAN_DIGITS)


#: Persian (U+06F0…) and Arabic-Indic (U+0660…) digits, as a Persian keyboard types them
_LATIN_DIGITS = str.maketrans(
    {chr(base + d): str(d) for base in (0x06F0, 0x0660) for d in range(10)}
)


def latin_digits(text: str) -> str:
    """``text`` with Persian and Arabic-Indic digits made ASCII (what people type, read).

    >>> latin_digits("۱۰♦ ٣")
    '10♦ 3'
    """
    return text.translate(_LATIN_DIGITS)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def sort_hand(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Sort by suit (trump first when known), then rank high to low, as players hold cards."""
    keys = _SORT_KEYS[trump]
    return sorted(cards, key=lambda card: keys[card.index])


def _sort_keys(trump: Suit | None) -> tuple[int, ...]:
    """Each card's place in a sorted hand (by card index): suit (trump first), then rank."""
    keys = []
    for card in ALL_CARDS:
        suit_order = -1 if card.suit is trump else card.suit.ordinal
        keys.append((suit_order + 1) * 16 + (Rank.ACE - card.rank))
    return tuple(keys)


_SORT_KEYS = {trump: _sort_keys(trump) for trump in (None, *Suit)}
