"""A fast inner representation of one Hokm hand, for search bots (checked against the engine).

Cards are the engine's card indices (``suit.ordinal * 13 + rank - 2``), so a seat's cards are a
52-bit integer mask whose bit ``i`` is card ``i``; the 13 bits of suit ``s`` start at ``13 * s``
with the 2 lowest. :class:`FastHand` holds the four masks, trump, the current trick and the
tricks won, computes legal moves as masks and plays and undoes cards without allocating objects.
:func:`random_playout` plays a whole hand at random as fast as pure Python allows. The bam
option is not modelled here: a hand ends as soon as a team has 7 tricks.

A differential test (``tests/bots/test_fast.py``) plays thousands of random hands through both
this module and :class:`hokm.engine.Game` and checks every legal move, trick winner and result.

>>> from hokm.engine import Deal, Seat, Suit
>>> deal = Deal.from_seed("fast", Seat(0))
>>> hand = FastHand.from_deal(deal, trump=Suit.HEARTS, hakem=Seat(0))
>>> bin(hand.legal_mask()).count("1")
13
>>> while not hand.is_over:
...     _ = hand.play(lowest_card(hand.legal_mask()))
>>> max(hand.won)
7
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterable, Sequence

from hokm.engine.actions import Deal
from hokm.engine.cards import Card, Seat, Suit

__all__ = [
    "ALL_MASK",
    "SUIT_MASKS",
    "FastHand",
    "cards_of_mask",
    "hand_points",
    "lowest_card",
    "mask_of",
    "random_playout",
    "random_position",
]

ALL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
TRICKS_TO_WIN = 7

# For every 13-bit suit holding: its ranks (0 = the 2 … 12 = the ace), low to high, and its size.
BITS13: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
POP13: tuple[int, ...] = tuple(len(b) for b in BITS13)


def mask_of(cards: Iterable[Card]) -> int:
    """The 52-bit mask of ``cards``.

    >>> mask_of([Card.parse("2S"), Card.parse("AC")]) == 1 | 1 << 51
    True
    """
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a mask, lowest index first."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(Card.from_index(low.bit_length() - 1))
        mask ^= low
    return out


def lowest_card(mask: int) -> int:
    """The index of the lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def hand_points(
    winner_team: int,
    loser_tricks: int,
    hakem_team: int,
    *,
    kot_points: int = 2,
    hakem_kot_points: int = 3,
) -> tuple[str, int]:
    """The result name and points of a hand won by ``winner_team`` (RULES.md §6).

    >>> hand_points(1, 0, 0)
    ('hakem_kot', 3)
    >>> hand_points(0, 2, 0)
    ('normal', 1)
    """
    if loser_tricks:
        return "normal", 1
    if winner_team == hakem_team:
        return "kot", kot_points
    return "hakem_kot", hakem_kot_points


class FastHand:
    """The play phase of one hand as integers: masks per seat, trump, trick, tricks won.

    ``play``/``undo`` are exact inverses, so a search walks the tree in place.
    """

    __slots__ = ("_undo", "hakem", "hands", "leader", "to_move", "trick", "trump", "won")

    def __init__(
        self,
        hands: Sequence[int],
        trump: int,
        leader: int,
        *,
        hakem: int | None = None,
        trick: Sequence[int] = (),
        won: Sequence[int] = (0, 0),
    ) -> None:
        if len(hands) != 4:
            raise ValueError("a hand has the masks of 4 seats")
        self.hands: list[int] = list(hands)
        self.trump = int(trump)
        self.leader = int(leader)
        self.hakem = self.leader if hakem is None else int(hakem)
        self.trick: list[int] = list(trick)
        self.to_move = (self.leader + len(self.trick)) & 3
        self.won: list[int] = [int(won[0]), int(won[1])]
        self._undo: list[tuple[int, int, int]] = []  # (card, leader before, winner or -1)

    @classmethod
    def from_deal(cls, deal: Deal, *, trump: Suit, hakem: Seat) -> FastHand:
        """The start of play of an engine :class:`~hokm.engine.Deal` (the hakem leads)."""
        hands = [mask_of(h) for h in deal.hands]
        return cls(hands, trump.ordinal, int(hakem), hakem=int(hakem))

    def copy(self) -> FastHand:
        """An independent copy of the position (without the undo history)."""
        other = FastHand(self.hands, self.trump, self.leader, hakem=self.hakem, trick=self.trick)
        other.won = list(self.won)
        return other

    @property
    def is_over(self) -> bool:
        return self.won[0] >= TRICKS_TO_WIN or self.won[1] >= TRICKS_TO_WIN

    @property
    def winner_team(self) -> int | None:
        if self.won[0] >= TRICKS_TO_WIN:
            return 0
        if self.won[1] >= TRICKS_TO_WIN:
            return 1
        return None

    @property
    def tricks_played(self) -> int:
        return self.won[0] + self.won[1]

    def legal_mask(self) -> int:
        """The cards the seat to move may play, as a mask (0 when the hand is over)."""
        if self.is_over:
            return 0
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & SUIT_MASKS[SUIT_OF[self.trick[0]]]
            if follow:
                return follow
        return hand

    def play(self, card: int) -> int:
        """Play card index ``card`` for the seat to move; return the trick winner or -1.

        The card is not checked (use :meth:`legal_mask`): this is the search's inner loop.
        """
        seat = self.to_move
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.to_move = (seat + 1) & 3
            self._undo.append((card, self.leader, -1))
            return -1
        winner = (self.leader + trick_winner_offset(trick, self.trump)) & 3
        self._undo.append((card, self.leader, winner))
        self.won[winner & 1] += 1
        self.trick = []
        self.leader = self.to_move = winner
        return winner

    def undo(self) -> None:
        """Take back the last card played."""
        card, leader, winner = self._undo.pop()
        if winner >= 0:
            self.won[winner & 1] -= 1
            undo = self._undo
            self.trick = [undo[-3][0], undo[-2][0], undo[-1][0]]
        else:
            self.trick.pop()
        self.leader = leader
        seat = (leader + len(self.trick)) & 3
        self.to_move = seat
        self.hands[seat] |= 1 << card

    def result(self, *, kot_points: int = 2, hakem_kot_points: int = 3) -> tuple[str, int, int]:
        """``(result, winner_team, points)`` of a finished hand."""
        team = self.winner_team
        if team is None:
            raise ValueError("the hand is not over")
        name, points = hand_points(
            team,
            self.won[1 - team],
            self.hakem & 1,
            kot_points=kot_points,
            hakem_kot_points=hakem_kot_points,
        )
        return name, team, points


def trick_winner_offset(trick: Sequence[int], trump: int) -> int:
    """Position (0–3) in ``trick`` of the winning card."""
    best = trick[0]
    best_suit = SUIT_OF[best]
    pos = 0
    for i in (1, 2, 3):
        card = trick[i]
        suit = SUIT_OF[card]
        if suit == best_suit:
            if card > best:
                best, pos = card, i
        elif suit == trump:
            best, best_suit, pos = card, suit, i
    return pos


def random_playout(
    hands: Sequence[int],
    trump: int,
    leader: int,
    rnd: Callable[[], float] = _random.random,
    *,
    won: tuple[int, int] = (0, 0),
    plays: list[int] | None = None,
) -> tuple[int, int]:
    """Play uniformly random legal cards from a trick boundary until a team has 7 tricks.

    ``hands`` are 52-bit masks of equal size, ``leader`` leads the next trick, ``rnd`` returns
    floats in [0, 1). Returns the tricks won by teams 0 and 1; ``plays`` (if given) receives the
    card indices in order.

    >>> from hokm.engine import Deal, Seat
    >>> deal = Deal.from_seed("playout", Seat(2))
    >>> tricks = random_playout([mask_of(h) for h in deal.hands], 1, 2, _random.Random(1).random)
    >>> max(tricks)
    7
    """
    # Per-suit 13-bit holdings, flat: h[4 * seat + suit].
    h = [(hands[seat] >> (13 * s)) & 0x1FFF for seat in range(4) for s in range(4)]
    w0, w1 = won
    left = POP13[h[0]] + POP13[h[1]] + POP13[h[2]] + POP13[h[3]]
    bits, pop = BITS13, POP13
    record = plays is not None
    while w0 < 7 and w1 < 7:
        # The leader plays any card.
        base = 4 * leader
        k = int(rnd() * left)
        for led in (0, 1, 2, 3):
            m = h[base + led]
            n = pop[m]
            if k < n:
                rank = bits[m][k]
                h[base + led] = m ^ (1 << rank)
                break
            k -= n
        else:  # pragma: no cover - rnd() < 1 always finds a card
            raise AssertionError("no card to lead")
        if record:
            plays.append(13 * led + rank)  # type: ignore[union-attr]
        best = rank + 20 if led == trump else rank
        winner = leader
        seat = leader
        for _ in (1, 2, 3):
            seat = (seat + 1) & 3
            base = 4 * seat
            m = h[base + led]
            if m:
                b = bits[m]
                rank = b[int(rnd() * len(b))]
                h[base + led] = m ^ (1 << rank)
                suit = led
                key = rank + 20 if led == trump else rank
            else:
                k = int(rnd() * left)  # a follower still holds ``left`` cards
                for suit in (0, 1, 2, 3):
                    m = h[base + suit]
                    n = pop[m]
                    if k < n:
                        rank = bits[m][k]
                        h[base + suit] = m ^ (1 << rank)
                        break
                    k -= n
                key = rank + 20 if suit == trump else -1
            if record:
                plays.append(13 * suit + rank)  # type: ignore[union-attr]
            if key > best:
                best, winner = key, seat
        left -= 1
        if winner & 1:
            w1 += 1
        else:
            w0 += 1
        leader = winner
    return w0, w1


def random_position(label: str, cards_left: int, rng: _random.Random) -> FastHand | None:
    """A random position with about ``cards_left`` cards per seat, or None if the hand ended.

    The deal comes from the seed ``label`` with a random hakem and trump; random legal cards
    are then played (for solver tests and benchmarks).
    """
    hakem = Seat(rng.randrange(4))
    trump = rng.choice(list(Suit))
    hand = FastHand.from_deal(Deal.from_seed(label, hakem), trump=trump, hakem=hakem)
    for _ in range((13 - cards_left) * 4 + rng.randrange(4)):
        legal = hand.legal_mask()
        if not legal:
            return None
        hand.play(rng.choice(cards_of_mask(legal)).index)
    return None if hand.is_over else hand
