"""What one seat can infer from its :class:`~hokm.engine.SeatView`: card counting and voids.

Everything here is computed from the view alone: the seat's own cards, the cards played and
who played them, the hand sizes. Cards are handled as 52-bit masks (bit ``card.index``).

* ``unseen``: the cards neither in this seat's hand nor played; the other three seats hold them.
* ``voids[seat]``: suits a seat has shown it lacks (it did not follow a led suit).
* ``likely_no_trump[seat]``: a seat that was void in the led suit, saw the opponents winning
  the trick, and still discarded instead of cutting: it probably holds no trump.
* ``is_master(card)``: no unseen card of the suit ranks higher.
* ``p_void`` / ``p_holds``: rough hypergeometric odds that another seat lacks a suit or holds
  one of some unseen cards, given the known voids and hand sizes.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("know", Seat(0)))
>>> _ = game.choose_trump(Suit.SPADES)
>>> k = Knowledge.from_view(view_of(game, Seat(0)))
>>> bin(k.unseen).count("1"), k.hand_sizes
(39, (13, 13, 13, 13))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

from hokm.engine import ALL_CARDS, Card, Seat, SeatView, Suit

__all__ = [
    "SUIT_MASKS",
    "Knowledge",
    "beats",
    "cards_of",
    "current_winner",
    "mask_of",
    "note_play",
]

SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
_SEATS = tuple(Seat)
_SUITS = tuple(Suit)


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, low index first (so low rank first within a suit)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def current_winner(trick: tuple[tuple[Seat, Card], ...], trump: Suit | None) -> tuple[Seat, Card]:
    """The seat and card winning an unfinished (non-empty) trick so far."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card.suit is best.suit:
            if card.rank > best.rank:
                best_seat, best = seat, card
        elif card.suit is trump:
            best_seat, best = seat, card
    return best_seat, best


def note_play(
    voids: list[int],
    caps: list[list[int]],
    no_trump: list[bool],
    pos: int,
    led: Suit,
    best_seat: Seat,
    best: Card,
    seat: Seat,
    card: Card,
    trump: Suit | None,
) -> None:
    """What ``seat`` shows by playing ``card`` as the trick's ``pos``-th card (1–3; ``best``,
    played by ``best_seat``, winning so far): its voids, caps and "probably no trump", updated
    in place. The one place these inferences are written (:class:`Knowledge` and the playouts
    of :mod:`hokm.bots.rollout` use it)."""
    if (
        pos >= 2
        and card.suit is led
        and best.suit is led
        and best_seat.team != seat.team
        and card.rank < best.rank
    ):
        # Third or fourth hand followed low under an opponent's winning card:
        # it most likely holds nothing that beats it.
        caps[seat][led.ordinal] = min(caps[seat][led.ordinal], best.rank)
    if card.suit is not led:
        voids[seat] |= 1 << led.ordinal
        if (
            card.suit is not trump
            and trump is not None
            and best_seat.team != seat.team
            and led is not trump
        ):
            no_trump[seat] = True


def beats(card: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``card`` played now beats ``best``, the card winning the trick."""
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump


@dataclass(slots=True)
class Knowledge:
    """Card counting and void inference for one seat (see the module docstring)."""

    seat: Seat
    trump: Suit | None
    hakem: Seat | None
    hand: tuple[Card, ...]
    hand_mask: int
    played: int
    unseen: int
    voids: list[int]  # per seat: bit s set when the seat has no card of suit ordinal s
    caps: list[list[int]]  # per seat and suit: it likely holds no unseen card ranked above
    likely_no_trump: list[bool]
    hand_sizes: tuple[int, int, int, int]
    trick: tuple[tuple[Seat, Card], ...]
    tricks_played: int
    tricks_won: tuple[int, int]
    cap_trust: float = 0.2  # weight of a card above a seat's cap (0: surely not held)
    hakem_weight: float = 2.5  # how much likelier a hakem's card is a trump than another's

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        if view.seat is None:
            raise ValueError("a spectator view has no seat to reason for")
        trump = view.trump
        hand_mask = mask_of(view.hand)
        played = 0
        voids = [0, 0, 0, 0]
        no_trump = [False, False, False, False]
        caps = [[15, 15, 15, 15] for _ in range(4)]
        tricks = [
            tuple((_SEATS[(t.leader + i) & 3], c) for i, c in enumerate(t.cards))
            for t in view.tricks
        ]
        if view.trick:
            tricks.append(view.trick)
        for trick in tricks:
            _, lead_card = trick[0]
            led = lead_card.suit
            played |= 1 << lead_card.index
            best_seat, best = trick[0]
            for pos, (seat, card) in enumerate(trick[1:], 1):
                played |= 1 << card.index
                note_play(voids, caps, no_trump, pos, led, best_seat, best, seat, card, trump)
                if beats(card, best, trump):
                    best_seat, best = seat, card
        unseen = ((1 << 52) - 1) & ~hand_mask & ~played
        sizes = view.hand_sizes
        for s in _SEATS:
            if sizes[s] == 0:
                voids[s] = 0b1111
        return cls(
            seat=view.seat,
            trump=trump,
            hakem=view.hakem,
            hand=view.hand,
            hand_mask=hand_mask,
            played=played,
            unseen=unseen,
            voids=voids,
            caps=caps,
            likely_no_trump=no_trump,
            hand_sizes=sizes,
            trick=view.trick,
            tricks_played=len(view.tricks),
            tricks_won=view.tricks_won,
        )

    # ------------------------------------------------------------------ counting

    def unseen_in(self, suit: Suit) -> int:
        """The mask of unseen cards of ``suit``."""
        return self.unseen & SUIT_MASKS[suit.ordinal]

    def count_unseen(self, suit: Suit) -> int:
        return (self.unseen & SUIT_MASKS[suit.ordinal]).bit_count()

    def mine(self, suit: Suit) -> list[Card]:
        """This seat's cards of ``suit``, low to high."""
        return cards_of(self.hand_mask & SUIT_MASKS[suit.ordinal])

    def higher_unseen(self, card: Card) -> int:
        """The mask of unseen cards of the card's suit that rank above it."""
        above = SUIT_MASKS[card.suit_index] & ~((2 << card.index) - 1)
        return self.unseen & above

    def is_master(self, card: Card) -> bool:
        """No unseen card of the suit ranks higher (the card wins if its suit is not cut)."""
        return not self.higher_unseen(card)

    def trumps_out(self) -> int:
        """Unseen trumps: held by the other three seats."""
        return 0 if self.trump is None else self.count_unseen(self.trump)

    # ------------------------------------------------------------------ inference about seats

    def is_void(self, seat: Seat, suit: Suit) -> bool:
        """Certain: ``seat`` holds no card of ``suit``."""
        if seat == self.seat:
            return not self.hand_mask & SUIT_MASKS[suit.ordinal]
        return bool(self.voids[seat] >> suit.ordinal & 1) or not self.unseen_in(suit)

    def _pool(self, suit: Suit) -> int:
        """Hand slots of other seats that may hold ``suit``."""
        return sum(
            self.hand_sizes[s]
            for s in _SEATS
            if s != self.seat and not self.voids[s] >> suit.ordinal & 1
        )

    def p_holds_higher(self, seat: Seat, card: Card) -> float:
        """Odds that ``seat`` holds an unseen card of the card's suit ranked above it."""
        higher = self.higher_unseen(card)
        if not higher:
            return 0.0
        cap = self.caps[seat][card.suit_index]
        if cap >= 15 or card.rank >= cap:
            return self.p_holds(seat, card.suit, higher.bit_count())
        capped = higher & ~((2 << (card.suit_index * 13 + cap - 2)) - 1)
        count = higher.bit_count() - capped.bit_count() + self.cap_trust * capped.bit_count()
        return self.p_holds(seat, card.suit, count)

    def p_holds(self, seat: Seat, suit: Suit, count: float) -> float:
        """Odds that ``seat`` holds at least one of ``count`` given unseen cards of ``suit``."""
        if seat == self.seat:
            raise ValueError("p_holds is about other seats")
        if count <= 0 or self.voids[seat] >> suit.ordinal & 1:
            return 0.0
        pool = self._pool(suit)
        h = self.hand_sizes[seat]
        if h >= pool:
            return 1.0
        if suit is self.trump and self.hakem_weight != 1.0 and self._weighs_hakem(seat):
            # The hakem chose trump from its five: it holds more trumps than its share.
            share = self.hakem_weight * h / (self.hakem_weight * h + pool - h)
            p_none = float((1.0 - share) ** count)
        elif suit is self.trump and self.hakem_weight != 1.0 and self._weighs_hakem(None):
            share = h / (self.hakem_weight * self._hakem_size() + pool - self._hakem_size())
            p_none = (1.0 - share) ** count
        elif isinstance(count, int):
            p_none = comb(pool - h, count) / comb(pool, count) if count <= pool - h else 0.0
        else:
            p_none = (1.0 - h / pool) ** count
        p: float = 1.0 - p_none
        if suit is self.trump and self.likely_no_trump[seat]:
            p *= 0.25
        return p

    def _weighs_hakem(self, seat: Seat | None) -> bool:
        """Whether the hakem's trump weight applies (to ``seat`` = the hakem, or to others)."""
        hakem = self.hakem
        if hakem is None or hakem == self.seat or self.trump is None:
            return False
        if self.voids[hakem] >> self.trump.ordinal & 1:
            return False
        return seat is None or seat == hakem

    def _hakem_size(self) -> int:
        assert self.hakem is not None
        return self.hand_sizes[self.hakem]

    def p_void(self, seat: Seat, suit: Suit) -> float:
        """Odds that ``seat`` holds no card of ``suit``."""
        if seat == self.seat:
            return 1.0 if self.is_void(seat, suit) else 0.0
        return 1.0 - self.p_holds(seat, suit, self.count_unseen(suit))

    def p_beats(self, seat: Seat, best: Card, led: Suit) -> float:
        """Odds that ``seat``, still to play, beats ``best`` in a trick led in ``led``."""
        trump = self.trump
        if best.suit is led:
            p_higher = self.p_holds_higher(seat, best)
            if led is trump or trump is None:
                return p_higher
            p_cut = self.p_void(seat, led) * self.p_holds(seat, trump, self.trumps_out())
            return min(1.0, p_higher + p_cut)
        if best.suit is trump:
            p_over = self.p_holds_higher(seat, best)
            return self.p_void(seat, led) * p_over
        return 0.0  # pragma: no cover - a discard is never the best card

    def seats_after(self) -> tuple[Seat, ...]:
        """The seats still to play in the current trick after this seat."""
        n = len(self.trick)
        return tuple(_SEATS[(self.seat + i) & 3] for i in range(1, 4 - n))

    def p_holds_trick(self, best: Card, best_seat: Seat, led: Suit) -> float:
        """Odds that ``best`` (played by ``best_seat``) wins against the opponents still to play.

        A later partner of ``best_seat`` is ignored (it cannot hurt that side).
        """
        p = 1.0
        for s in self.seats_after():
            if s.team != best_seat.team:
                p *= 1.0 - self.p_beats(s, best, led)
        return p
