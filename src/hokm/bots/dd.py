"""Double-dummy solving of Hokm positions: every hand visible, best play by all four seats.

Two solvers answer the same questions about a :class:`~hokm.bots.fast.FastHand`:

* :func:`dds_card_scores` asks the bridge world's DDS (shipped by the ``endplay`` package) for the
  most tricks the side to move takes after each of its legal cards, or which cards reach a target.
  Hokm's trick rules are bridge's (follow suit, trump wins, no duty to trump), seats 0–3 map to
  DDS hands N, E, S, W and suits S, H, D, C to DDS suits 0–3.
* :class:`Solver` is this project's own alpha-beta search on bitmasks (transposition table, move
  ordering, equivalent cards played once). It answers "can ``team`` win ``need`` of the next
  ``horizon`` tricks", which covers Hokm's own questions: reaching 7 (``horizon`` = the rest of
  the hand) and kot (win every trick until 7, a question DDS cannot ask).

``docs/search.md`` compares them; :func:`card_outcomes` uses DDS for "who reaches 7" and the own
solver for kot, which is where each is faster.

>>> from hokm.engine import Deal, Seat, Suit
>>> from hokm.bots.fast import FastHand
>>> hand = FastHand.from_deal(Deal.from_seed("dd", Seat(0)), trump=Suit.SPADES, hakem=Seat(0))
>>> for _ in range(36):  # play nine tricks with the lowest legal card
...     _ = hand.play((hand.legal_mask() & -hand.legal_mask()).bit_length() - 1)
>>> scores = dds_card_scores(hand)
>>> Solver(hand).can_reach(0, max(scores.values()), 4)
True
>>> Solver(hand).can_reach(0, max(scores.values()) + 1, 4)
False
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from endplay import _dds

from hokm.bots.fast import BITS13, SUIT_OF, FastHand

__all__ = [
    "SearchLimitError",
    "Solver",
    "card_outcome_bounds",
    "card_outcomes",
    "dds_card_scores",
    "dds_winning_cards",
]


class SearchLimitError(Exception):
    """The own solver used up its node budget before answering."""


# ----------------------------------------------------------------------------- DDS (endplay)


def _dds_deal(hand: FastHand) -> object:
    deal = _dds.deal()
    deal.trump = hand.trump
    deal.first = hand.leader
    for i in range(3):
        if i < len(hand.trick):
            card = hand.trick[i]
            deal.currentTrickSuit[i] = SUIT_OF[card]
            deal.currentTrickRank[i] = card % 13 + 2
        else:
            deal.currentTrickSuit[i] = 0
            deal.currentTrickRank[i] = 0
    remain = deal.remainCards
    for seat in range(4):
        mask = hand.hands[seat]
        row = remain[seat]
        for suit in range(4):
            row[suit] = ((mask >> (13 * suit)) & 0x1FFF) << 2
    return deal


# Work of a DDS call: a fixed set-up cost plus its search nodes (units ≈ microseconds of CPU on
# the benchmark machine; an own-solver node costs about 35).
DDS_CALL_WORK = 300
OWN_NODE_WORK = 35


# DDS keeps its search memory per "thread index", and every call here uses index 0: calls from
# two threads of one process (a server without worker processes runs bots and analyses in
# threads) must not overlap. The lock costs well under a microsecond when nobody holds it.
_DDS_LOCK = threading.Lock()


def _dds_solve(
    hand: FastHand, target: int, solutions: int, meter: list[int] | None = None
) -> dict[int, int]:
    fut = _dds.futureTricks()
    with _DDS_LOCK:
        _dds.SolveBoard(_dds_deal(hand), target, solutions, 1, fut, 0)
    if meter is not None:
        meter[0] += DDS_CALL_WORK + fut.nodes
    out: dict[int, int] = {}
    for i in range(fut.cards):
        suit = fut.suit[i]
        score = fut.score[i]
        out[13 * suit + fut.rank[i] - 2] = score
        equals = fut.equals[i] >> 2
        while equals:
            low = equals & -equals
            out[13 * suit + low.bit_length() - 1] = score
            equals ^= low
    return out


def dds_card_scores(hand: FastHand) -> dict[int, int]:
    """For each legal card: the most tricks the mover's team takes from here (current trick
    included) if the whole hand were played out, per DDS."""
    return _dds_solve(hand, -1, 3)


def dds_winning_cards(hand: FastHand, need: int, *, meter: list[int] | None = None) -> set[int]:
    """The legal cards after which the mover's team takes at least ``need`` more tricks."""
    if need <= 0:
        return set(_legal_cards(hand))
    if need > 13 - hand.tricks_played:
        return set()
    return {card for card, score in _dds_solve(hand, need, 2, meter).items() if score >= need}


def _legal_cards(hand: FastHand) -> list[int]:
    mask = hand.legal_mask()
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ----------------------------------------------------------------------------- own solver


class Solver:
    """Alpha-beta (boolean, null-window) double-dummy search on per-suit bitmasks.

    The position is copied from a :class:`FastHand`; the transposition table lives as long as
    the solver, so ask one solver several questions about the same position.
    """

    def __init__(self, hand: FastHand, *, max_nodes: int | None = None) -> None:
        self.h = [(hand.hands[seat] >> (13 * s)) & 0x1FFF for seat in range(4) for s in range(4)]
        self.trump = hand.trump
        self.leader = hand.leader
        self.trick = [(SUIT_OF[c], c % 13) for c in hand.trick]
        self.tt: dict[tuple[object, ...], bool] = {}
        self.nodes = 0  # since the last reset (the node budget counts these)
        self.total_nodes = 0
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62

    def can_reach(self, team: int, need: int, horizon: int) -> bool:
        """Can ``team`` win at least ``need`` of the next ``horizon`` tricks (the trick in
        progress counts as the first) against best defence?"""
        return self._search(team, need, horizon)

    def card_reaches(self, card: int, team: int, need: int, horizon: int) -> bool:
        """Like :meth:`can_reach` after the seat to move plays ``card`` (legal, not checked)."""
        suit, rank = SUIT_OF[card], card % 13
        mover = (self.leader + len(self.trick)) & 3
        return self._try(mover, suit, rank, team, need, horizon)

    # The search proper --------------------------------------------------------------

    def _search(self, team: int, need: int, horizon: int) -> bool:
        if need <= 0:
            return True
        if need > horizon:
            return False
        trick = self.trick
        key = None
        if not trick:
            key = (*self.h, self.leader, team, need, horizon)
            cached = self.tt.get(key)
            if cached is not None:
                return cached
        self.nodes += 1
        self.total_nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchLimitError(f"more than {self.max_nodes} nodes")
        mover = (self.leader + len(trick)) & 3
        maximizing = (mover & 1) == team
        result = not maximizing
        for suit, rank in self._moves(mover):
            if self._try(mover, suit, rank, team, need, horizon) is maximizing:
                result = maximizing
                break
        if key is not None:
            self.tt[key] = result
        return result

    def _try(self, mover: int, suit: int, rank: int, team: int, need: int, horizon: int) -> bool:
        # The position is restored even when the node budget runs out below (a
        # SearchLimitError): the solver and its table are asked again about the same position.
        h = self.h
        slot = 4 * mover + suit
        h[slot] ^= 1 << rank
        trick = self.trick
        trick.append((suit, rank))
        try:
            if len(trick) < 4:
                return self._search(team, need, horizon)
            leader = self.leader
            winner = (leader + _winner_pos(trick, self.trump)) & 3
            self.trick = []
            self.leader = winner
            won = 1 if (winner & 1) == team else 0
            try:
                return self._search(team, need - won, horizon - 1)
            finally:
                self.leader = leader
                self.trick = trick
        finally:
            trick.pop()
            h[slot] |= 1 << rank

    def _moves(self, mover: int) -> list[tuple[int, int]]:
        """Legal moves, one per group of equivalent cards, in a good order to try."""
        h = self.h
        base = 4 * mover
        trick = self.trick
        if trick:
            led = trick[0][0]
            suits: tuple[int, ...] = (led,) if h[base + led] else (0, 1, 2, 3)
        else:
            suits = (0, 1, 2, 3)
        moves: list[tuple[int, int]] = []
        for suit in suits:
            mine = h[base + suit]
            if not mine:
                continue
            others = h[suit] | h[4 + suit] | h[8 + suit] | h[12 + suit]
            for s, r in trick:
                if s == suit:
                    others |= 1 << r
            others &= ~mine
            prev = -1
            for rank in reversed(BITS13[mine]):  # high to low; keep the top of each group
                if prev < 0 or others >> rank & ((1 << (prev - rank)) - 1):
                    moves.append((suit, rank))
                prev = rank
        if len(moves) > 1 and trick:
            moves.sort(key=self._follow_order(mover))
        elif len(moves) > 1:
            moves.sort(key=_lead_order)
        return moves

    def _follow_order(self, mover: int) -> Callable[[tuple[int, int]], int]:
        trick = self.trick
        trump = self.trump
        pos = _winner_pos(trick, trump)
        best_suit, best_rank = trick[pos]
        partner_wins = (len(trick) - pos) == 2  # the winner sits two seats before the mover

        def key(move: tuple[int, int]) -> int:
            suit, rank = move
            beats = (suit == best_suit and rank > best_rank) or (
                suit == trump and best_suit != trump
            )
            if partner_wins:
                return rank + (20 if suit == trump else 0) + (40 if beats else 0)
            if beats:
                return rank + (20 if suit == trump else 0)
            return 100 + rank + (20 if suit == trump else 0)

        return key


def _lead_order(move: tuple[int, int]) -> int:
    return -move[1]


def _winner_pos(trick: list[tuple[int, int]], trump: int) -> int:
    best_suit, best_rank = trick[0]
    pos = 0
    for i in range(1, len(trick)):
        suit, rank = trick[i]
        if suit == best_suit:
            if rank > best_rank:
                best_rank, pos = rank, i
        elif suit == trump:
            best_suit, best_rank, pos = suit, rank, i
    return pos


# ----------------------------------------------------------------------------- Hokm outcomes

# At most this many cards in the mover's hand, the own solver replaces DDS (it is faster there:
# see docs/search.md).
OWN_SOLVER_CARDS = 3


def card_outcomes(
    hand: FastHand, *, kot: bool = True, kot_nodes: int = 3000, meter: list[int] | None = None
) -> dict[int, int]:
    """For each legal card of the seat to move: the hand's outcome for the mover's team.

    ``+2`` a kot for the mover's team, ``+1`` a normal win, ``-1`` a normal loss, ``-2`` a kot
    against it (the caller turns kots into kot or hakem-kot points). Without ``kot`` only
    ``±1`` is returned. Each kot question gets ``kot_nodes`` nodes of the own solver; one it
    cannot settle counts as no kot (the common case early in a hand).
    """
    bounds = card_outcome_bounds(hand, kot=kot, kot_nodes=kot_nodes, meter=meter)
    return {card: low if low > 0 else high for card, (low, high) in bounds.items()}


def card_outcome_bounds(
    hand: FastHand, *, kot: bool = True, kot_nodes: int = 3000, meter: list[int] | None = None
) -> dict[int, tuple[int, int]]:
    """Like :func:`card_outcomes`, each outcome as ``(lowest, highest)`` it can be: equal when
    settled, ``(1, 2)`` or ``(-2, -1)`` when the kot question ran out of nodes."""
    team = hand.to_move & 1
    mine, theirs = hand.won[team], hand.won[1 - team]
    legal = _legal_cards(hand)
    solver = None
    if hand.hands[hand.to_move].bit_count() <= OWN_SOLVER_CARDS:
        # Tiny endgames: the own solver answers before a DDS call has set up.
        solver = Solver(hand)
        need, horizon = 7 - mine, 13 - hand.tricks_played
        winners = {c for c in legal if solver.card_reaches(c, team, need, horizon)}
    else:
        winners = dds_winning_cards(hand, 7 - mine, meter=meter)
    out: dict[int, tuple[int, int]] = {}
    kot_possible = kot and (mine == 0 or theirs == 0)
    solver = (solver or Solver(hand)) if kot_possible else None
    for card in legal:
        won = card in winners
        value = 1 if won else -1
        bounds = (value, value)
        if solver is not None and (theirs == 0 if won else mine == 0):
            solver.nodes = 0
            solver.max_nodes = kot_nodes
            try:
                if won:  # our kot: we win every trick until we have 7
                    kot_here = solver.card_reaches(card, team, 7 - mine, 7 - mine)
                else:  # their kot: we win none of the tricks until they have 7
                    kot_here = not solver.card_reaches(card, team, 1, 7 - theirs)
            except SearchLimitError:
                bounds = (min(value, 2 * value), max(value, 2 * value))
            else:
                if kot_here:
                    bounds = (2 * value, 2 * value)
        out[card] = bounds
    if solver is not None and meter is not None:
        meter[0] += OWN_NODE_WORK * solver.total_nodes
    return out
