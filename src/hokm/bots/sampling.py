"""Deals consistent with what one seat knows: the worlds a search bot looks at.

A world gives every other seat as many unseen cards as it holds, never a card of a suit it
has shown void in (it failed to follow that suit). The hakem's trump call is soft evidence: a
hakem names a suit that is long in their first five cards, so a world in which the hakem holds
few trumps is accepted with a lower probability (:func:`trump_call_likelihood`). Worlds are
drawn by rejection, so they are uniform among the consistent deals (weighted by that evidence);
when few deals remain, :func:`enumerate_worlds` lists them all.

:class:`PlayEvidence` reads the other seats' recent plays: in a world, would a model player (a
:class:`Policy`, the rule bot for the search bot) have played those cards? Worlds in which it
would not are accepted only with probability ``miss`` per play (or weighted so).

>>> import random
>>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("sample", Seat(0)))
>>> _ = game.choose_trump(Suit.SPADES)
>>> facts = Facts.from_view(view_of(game, Seat(1)))
>>> world = sample_world(facts, random.Random(1))
>>> [bin(m).count("1") for m in world]
[13, 13, 13, 13]
>>> world[1] == facts.own
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from math import comb
from typing import Protocol

from hokm.bots.fast import ALL_MASK, SUIT_MASKS, mask_of
from hokm.engine import ALL_CARDS, Card, Seat, SeatView, sort_hand

__all__ = [
    "Facts",
    "PlayEvidence",
    "Policy",
    "ViewPolicy",
    "cards_of",
    "count_worlds",
    "enumerate_worlds",
    "mask_of_indices",
    "sample_world",
    "sample_worlds",
    "trump_call_likelihood",
]

# Probability that a hakem names a suit holding x of their first five cards (x = 0..5): a suit
# of 3+ is almost always named, a suit of 2 about half the time (it is often tied with
# another pair), a single card hardly ever.
_CALL_GIVEN_FIVE = (0.01, 0.03, 0.5, 0.95, 1.0, 1.0)


def trump_call_likelihood(trumps: int, cards: int = 13) -> float:
    """P(the hakem names this trump | they hold ``trumps`` of it among ``cards`` dealt),
    with the first five a random five of the ``cards``.

    >>> round(trump_call_likelihood(1), 3), round(trump_call_likelihood(6), 3)
    (0.018, 0.605)
    """
    total = comb(cards, 5)
    out = 0.0
    for x in range(6):
        ways = comb(trumps, x) * comb(cards - trumps, 5 - x)
        out += ways / total * _CALL_GIVEN_FIVE[x]
    return out


_LIKELIHOOD = tuple(trump_call_likelihood(k) for k in range(14))
_ACCEPT = tuple(p / max(_LIKELIHOOD) for p in _LIKELIHOOD)


@dataclass(frozen=True, slots=True)
class Facts:
    """What a seat knows about the hidden cards, as masks."""

    seat: int
    own: int  # the seat's own cards
    unseen: int  # cards held by the other three seats
    sizes: tuple[int, int, int, int]  # cards each seat holds now
    void_suits: tuple[int, int, int, int]  # per seat: a mask of the suits it cannot hold
    hakem: int
    trump: int
    hakem_played_trumps: int  # trumps the hakem has played this hand

    @classmethod
    def from_view(cls, view: SeatView) -> Facts:
        if view.seat is None or view.trump is None or view.hakem is None:
            raise ValueError("worlds are sampled for a seat in the play phase")
        own = mask_of(view.hand)
        played = 0
        voids = [0, 0, 0, 0]
        trump = view.trump.ordinal
        hakem_trumps = 0
        tricks = [[((t.leader + i) % 4, c) for i, c in enumerate(t.cards)] for t in view.tricks] + [
            list(view.trick)
        ]
        for trick in tricks:
            if not trick:
                continue
            led = trick[0][1].suit_index
            for seat, card in trick:
                played |= 1 << card.index
                if card.suit_index != led:
                    voids[seat] |= SUIT_MASKS[led]
                if seat == view.hakem and card.suit_index == trump:
                    hakem_trumps += 1
        s = view.hand_sizes
        return cls(
            seat=int(view.seat),
            own=own,
            unseen=ALL_MASK & ~own & ~played,
            sizes=(s[0], s[1], s[2], s[3]),
            void_suits=(voids[0], voids[1], voids[2], voids[3]),
            hakem=int(view.hakem),
            trump=trump,
            hakem_played_trumps=hakem_trumps,
        )

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if s != self.seat)

    def fits(self, world: list[int]) -> bool:
        """Every seat's cards avoid its void suits."""
        return all(not (world[s] & self.void_suits[s]) for s in range(4))

    def acceptance(self, world: list[int]) -> float:
        """How well the world fits the trump call, 0–1 (1 when the hakem is this seat)."""
        if self.hakem == self.seat:
            return 1.0
        held = (world[self.hakem] & SUIT_MASKS[self.trump]).bit_count()
        return _ACCEPT[held + self.hakem_played_trumps]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sample_world(facts: Facts, rng: random.Random, *, tries: int = 12) -> list[int]:
    """One world: the four seats' cards as masks, consistent with ``facts``.

    Plain deals are tried first (rejection keeps them uniform); when voids make those fail,
    the cards are dealt suit by suit, most constrained suit first, each card to a seat that
    may hold it with odds proportional to the room left (close to uniform, always valid).
    The trump-call evidence accepts or rejects either kind of world.
    """
    bits = [1 << c for c in _bits(facts.unseen)]
    others = facts.others
    sizes = [facts.sizes[s] for s in others]
    rand = rng.random
    for attempt in range(64):
        if attempt < tries:
            bits.sort(key=lambda _: rand())  # a uniform shuffle (C speed)
            world = [0, 0, 0, 0]
            pos = 0
            for seat, size in zip(others, sizes, strict=True):
                world[seat] = sum(bits[pos : pos + size])  # distinct bits: sum is or
                pos += size
            if not facts.fits(world):
                continue
        else:
            found = _constrained_world(facts, rng)
            if found is None:
                continue
            world = found
        world[facts.seat] = facts.own
        if rand() < facts.acceptance(world):
            return world
    found = None
    while found is None:
        found = _constrained_world(facts, rng)
    found[facts.seat] = facts.own
    return found


def _constrained_world(facts: Facts, rng: random.Random) -> list[int] | None:
    """One suit-by-suit constrained deal, or None at a dead end."""
    others = facts.others
    left = [facts.sizes[s] if s != facts.seat else 0 for s in range(4)]
    world = [0, 0, 0, 0]
    suits = sorted(
        range(4), key=lambda su: sum(1 for s in others if not facts.void_suits[s] >> (13 * su) & 1)
    )
    rand = rng.random
    for suit in suits:
        allowed = [s for s in others if not facts.void_suits[s] >> (13 * suit) & 1]
        for card in _bits(facts.unseen & SUIT_MASKS[suit]):
            room = sum(left[s] for s in allowed)
            if not room:
                return None
            x = rand() * room
            for seat in allowed:
                x -= left[seat]
                if x < 0 and left[seat]:
                    break
            world[seat] |= 1 << card
            left[seat] -= 1
    return world


def sample_worlds(facts: Facts, n: int, rng: random.Random) -> list[list[int]]:
    """``n`` independent worlds."""
    return [sample_world(facts, rng) for _ in range(n)]


def count_worlds(facts: Facts) -> int:
    """How many deals of the unseen cards fit the hand sizes (voids ignored: an upper bound)."""
    n = facts.unseen.bit_count()
    out = 1
    for seat in facts.others:
        out *= comb(n, facts.sizes[seat])
        n -= facts.sizes[seat]
    return out


def enumerate_worlds(facts: Facts) -> Iterator[tuple[list[int], float]]:
    """Every consistent world with its weight (the trump-call evidence), for small endgames."""
    cards = _bits(facts.unseen)
    a, b, c = facts.others
    for first in itertools.combinations(cards, facts.sizes[a]):
        m_a = mask_of_indices(first)
        if m_a & facts.void_suits[a]:
            continue
        rest = [x for x in cards if not m_a >> x & 1]
        for second in itertools.combinations(rest, facts.sizes[b]):
            m_b = mask_of_indices(second)
            if m_b & facts.void_suits[b]:
                continue
            m_c = facts.unseen & ~m_a & ~m_b
            if m_c & facts.void_suits[c]:
                continue
            world = [0, 0, 0, 0]
            world[facts.seat] = facts.own
            world[a], world[b], world[c] = m_a, m_b, m_c
            weight = facts.acceptance(world)
            if weight > 0:
                yield world, weight


def _equivalent(a: Card, b: Card, known: int) -> bool:
    """Same suit, and every card ranked between them is in ``known`` (the seat's or played)."""
    if a.suit_index != b.suit_index:
        return False
    low, high = sorted((a.index, b.index))
    between = ((1 << high) - 1) & ~((2 << low) - 1)
    return between & ~known == 0


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, low index first."""
    return [ALL_CARDS[i] for i in _bits(mask)]


def mask_of_indices(indices: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


# ---------------------------------------------------------------------- play evidence


class Policy(Protocol):
    """A model of how a seat plays, asked about past plays in sampled worlds."""

    def prepare(self, view: SeatView) -> object:
        """Whatever can be computed once from a past view whose hand is left empty."""

    def card(self, prepared: object, view: SeatView, hand: int, legal: int) -> Card:
        """The card the seat would play holding ``hand`` (a mask), ``legal`` its legal cards."""


@dataclass(frozen=True, slots=True)
class ViewPolicy:
    """A :class:`Policy` from any function of a complete view (slower: a view per question).

    >>> from hokm.bots.base import legal_cards_of
    >>> first = ViewPolicy(lambda view: legal_cards_of(view)[0])
    """

    choose: Callable[[SeatView], Card]

    def prepare(self, view: SeatView) -> object:
        return None

    def card(self, prepared: object, view: SeatView, hand: int, legal: int) -> Card:
        full = replace(
            view,
            hand=tuple(sort_hand(cards_of(hand), view.trump)),
            legal=tuple({"type": "play", "card": str(c)} for c in cards_of(legal)),
        )
        return self.choose(full)


@dataclass(frozen=True, slots=True)
class _PastPlay:
    seat: int
    card: Card
    view: SeatView  # the seat's view just before the play, its hand left to the world
    later: int  # the cards this seat played from this play on (this one included)
    led: int  # the suit led (a mask), 0 when the seat led
    gone: int  # the cards played before this one
    prepared: object  # the policy's preparation of ``view``


class PlayEvidence:
    """The other seats' recent plays as evidence: would a model player have played them?

    For each of the last ``plays`` cards played by other seats, the seat's view at that
    moment is rebuilt in a world (its hand then = its cards in the world plus the cards it has
    played since) and the ``policy`` asked for its card. A world's likelihood is
    ``miss`` to the power of the number of plays the policy would not have made.
    """

    def __init__(self, view: SeatView, policy: Policy, *, plays: int = 8, miss: float = 0.2):
        assert view.seat is not None
        self.policy = policy
        self.miss = miss
        me = int(view.seat)
        sequence: list[tuple[int, int, Card]] = []  # (trick number, position, card)
        for t, trick in enumerate(view.tricks):
            sequence.extend((t, i, c) for i, c in enumerate(trick.cards))
        sequence.extend((len(view.tricks), i, c) for i, (_, c) in enumerate(view.trick))
        seats = []
        for t, i, _ in sequence:
            leader = view.tricks[t].leader if t < len(view.tricks) else view.leader
            assert leader is not None
            seats.append((int(leader) + i) & 3)
        chosen = [j for j in range(len(sequence)) if seats[j] != me][-plays:] if plays else []
        self.plays: list[_PastPlay] = []
        for j in chosen:
            t, i, card = sequence[j]
            seat = seats[j]
            later = 0
            for k in range(j, len(sequence)):
                if seats[k] == seat:
                    later |= 1 << sequence[k][2].index
            sizes = list(view.hand_sizes)
            for k in range(j, len(sequence)):
                sizes[seats[k]] += 1
            tricks = view.tricks[:t]
            won = [0, 0]
            for done in tricks:
                won[done.winner & 1] += 1
            leader = view.tricks[t].leader if t < len(view.tricks) else view.leader
            assert leader is not None
            current = tuple((Seat((int(leader) + p) & 3), sequence[j - i + p][2]) for p in range(i))
            skeleton = replace(
                view,
                seat=Seat(seat),
                hand=(),
                hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
                leader=leader,
                to_move=Seat(seat),
                trick=current,
                tricks=tricks,
                tricks_won=(won[0], won[1]),
                bam_going=view.bam_going and max(won) >= 7,
                legal=(),
            )
            led = SUIT_MASKS[current[0][1].suit_index] if current else 0
            gone = 0
            for k in range(j):
                gone |= 1 << sequence[k][2].index
            self.plays.append(
                _PastPlay(seat, card, skeleton, later, led, gone, policy.prepare(skeleton))
            )

    def mismatches(self, world: list[int]) -> tuple[int, int]:
        """How many of the plays the policy would not have made in ``world``, and the policy
        calls it took (a play with one legal card is no evidence and costs none)."""
        out = calls = 0
        for play in self.plays:
            agrees = self._agrees(play, world)
            if agrees is None:
                continue
            calls += 1
            if not agrees:
                out += 1
        return out, calls

    def _agrees(self, play: _PastPlay, world: list[int]) -> bool | None:
        """Would the policy have made ``play`` in ``world``? None: the seat had one legal card
        then (no evidence, and no policy call)."""
        hand = world[play.seat] | play.later
        legal = hand & play.led if hand & play.led else hand
        if legal & (legal - 1) == 0:
            return None
        card = self.policy.card(play.prepared, play.view, hand, legal)
        return _equivalent(card, play.card, hand | play.gone)

    def test(self, world: list[int], rng: random.Random) -> tuple[bool, int, int]:
        """Rejection test, latest play first: each play the policy would not have made passes
        with probability ``miss``. Returns (accepted, plays passed, policy calls)."""
        calls = 0
        for n, play in enumerate(reversed(self.plays)):
            agrees = self._agrees(play, world)
            if agrees is None:
                continue
            calls += 1
            if not agrees and rng.random() >= self.miss:
                return False, n, calls
        return True, len(self.plays), calls

    def likelihood(self, world: list[int]) -> tuple[float, int]:
        """``miss`` to the power of the mismatches, and the policy calls it took."""
        misses, calls = self.mismatches(world)
        return float(self.miss**misses), calls
