"""Rule-bot playouts: how a hand ends when every seat plays on as the rule bot would.

The double-dummy solver answers "what happens if all four seats see every card"; a playout
answers "what happens if all four seats play on as the rule bot, each seeing only its own
cards". Playouts on the real deal label the training data of the learned card value
(:mod:`hokm.bots.learned`, ``scripts/train_early_value.py``).

:class:`Playout` keeps one world's hand the way the rule bot's
:class:`~hokm.bots.knowledge.Knowledge` sees it, updated play by play instead of rebuilt from
the whole history at every decision: the cards played, the voids and caps every seat has
shown, who probably holds no trump (these are public, so one copy serves all four seats), and
each seat's own cards. Each decision builds the seat's ``Knowledge`` from that state in a few
microseconds and asks the rule bot's play (:func:`hokm.bots.rule.rule_card`). A test checks
that the knowledge equals ``Knowledge.from_view`` of the same position.

Like :class:`hokm.bots.fast.FastHand`, a playout ends as soon as a team has 7 tricks (the bam
is not played out).

>>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("playout", Seat(0)))
>>> _ = game.choose_trump(Suit.HEARTS)
>>> view = view_of(game, Seat(0))
>>> world = [sum(1 << c.index for c in game.hand_of(s)) for s in range(4)]
>>> playout = Playout.from_view(view, world)
>>> playout.play(playout.rule_card())
>>> max(playout.finish())
7
"""

from __future__ import annotations

from hokm.bots.knowledge import SUIT_MASKS, Knowledge, beats, note_play
from hokm.bots.rule import rule_card
from hokm.bots.sampling import cards_of
from hokm.engine import ALL_CARDS, Card, Seat, SeatView, Suit, sort_hand

__all__ = ["Playout"]

_SEATS = tuple(Seat)
_ALL = (1 << 52) - 1
TRICKS_TO_WIN = 7


class Playout:
    """One world's hand from a seat's view onwards, played by rule bots (module docs)."""

    __slots__ = (
        "best",
        "best_seat",
        "caps",
        "hakem",
        "hands",
        "lead_queen",
        "no_trump",
        "played",
        "to_move",
        "trick",
        "tricks_played",
        "trump",
        "voids",
        "won",
    )

    def __init__(
        self,
        *,
        hands: list[int],
        trump: Suit,
        hakem: Seat,
        to_move: Seat,
        trick: tuple[tuple[Seat, Card], ...],
        played: int,
        voids: list[int],
        caps: list[list[int]],
        no_trump: list[bool],
        won: list[int],
        tricks_played: int,
        lead_queen: bool = False,
    ) -> None:
        self.hands = hands
        self.trump = trump
        self.hakem = hakem
        self.to_move = to_move
        self.trick = trick
        self.played = played
        self.voids = voids
        self.caps = caps
        self.no_trump = no_trump
        self.won = won
        self.tricks_played = tricks_played
        self.lead_queen = lead_queen
        self.best_seat: Seat | None = None
        self.best: Card | None = None
        for seat, card in trick:
            if self.best is None or beats(card, self.best, trump):
                self.best_seat, self.best = seat, card

    @classmethod
    def from_view(cls, view: SeatView, world: list[int], *, lead_queen: bool = False) -> Playout:
        """The view's position with the seats holding ``world`` (four masks, the view's seat
        holding its own cards); the view's seat is to play."""
        if view.seat is None or view.trump is None or view.hakem is None:
            raise ValueError("a playout starts from a seat's view in the play phase")
        k = Knowledge.from_view(view)
        voids = list(k.voids)
        for s in range(4):  # the seat's own view knows its hand, not a public void
            if view.hand_sizes[s] == 0:
                voids[s] = 0
        return cls(
            hands=list(world),
            trump=view.trump,
            hakem=view.hakem,
            to_move=view.seat,
            trick=view.trick,
            played=k.played,
            voids=voids,
            caps=[list(c) for c in k.caps],
            no_trump=list(k.likely_no_trump),
            won=list(view.tricks_won),
            tricks_played=len(view.tricks),
            lead_queen=lead_queen,
        )

    def copy(self, world: list[int] | None = None) -> Playout:
        """An independent copy, the seats holding ``world`` if given."""
        other = Playout.__new__(Playout)
        other.hands = list(self.hands if world is None else world)
        other.trump = self.trump
        other.hakem = self.hakem
        other.to_move = self.to_move
        other.trick = self.trick
        other.played = self.played
        other.voids = list(self.voids)
        other.caps = [list(c) for c in self.caps]
        other.no_trump = list(self.no_trump)
        other.won = list(self.won)
        other.tricks_played = self.tricks_played
        other.lead_queen = self.lead_queen
        other.best_seat = self.best_seat
        other.best = self.best
        return other

    def knowledge(self, seat: Seat) -> Knowledge:
        """What ``seat`` knows now (equal to ``Knowledge.from_view`` of its view)."""
        hands = self.hands
        sizes = (
            hands[0].bit_count(),
            hands[1].bit_count(),
            hands[2].bit_count(),
            hands[3].bit_count(),
        )
        voids = self.voids
        if 0 in sizes:
            voids = [0b1111 if sizes[s] == 0 else voids[s] for s in range(4)]
        mask = hands[seat]
        return Knowledge(
            seat=seat,
            trump=self.trump,
            hakem=self.hakem,
            hand=tuple(sort_hand(cards_of(mask), self.trump)),
            hand_mask=mask,
            played=self.played,
            unseen=_ALL & ~mask & ~self.played,
            voids=voids,
            caps=self.caps,
            likely_no_trump=self.no_trump,
            hand_sizes=sizes,
            trick=self.trick,
            tricks_played=self.tricks_played,
            tricks_won=(self.won[0], self.won[1]),
        )

    def legal_mask(self) -> int:
        """The cards the seat to move may play."""
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0][1].suit_index]
            if follow:
                return follow
        return hand

    def rule_card(self) -> Card:
        """The rule bot's card for the seat to move."""
        legal = self.legal_mask()
        if legal & (legal - 1) == 0:
            return ALL_CARDS[legal.bit_length() - 1]
        k = self.knowledge(self.to_move)
        return rule_card(k, cards_of(legal), bam_going=False, lead_queen=self.lead_queen)

    def play(self, card: Card) -> None:
        """The seat to move plays ``card`` (it must be legal; not checked)."""
        seat = self.to_move
        self.hands[seat] &= ~(1 << card.index)
        self.played |= 1 << card.index
        trick = self.trick
        if trick:
            led = trick[0][1].suit
            best, best_seat = self.best, self.best_seat
            assert best is not None and best_seat is not None
            note_play(
                self.voids,
                self.caps,
                self.no_trump,
                len(trick),
                led,
                best_seat,
                best,
                seat,
                card,
                self.trump,
            )
            if beats(card, best, self.trump):
                self.best_seat, self.best = seat, card
        else:
            self.best_seat, self.best = seat, card
        if len(trick) == 3:
            winner = self.best_seat
            assert winner is not None
            self.won[winner.team] += 1
            self.tricks_played += 1
            self.trick = ()
            self.to_move = winner
            self.best_seat = self.best = None
        else:
            self.trick = (*trick, (seat, card))
            self.to_move = _SEATS[(seat + 1) & 3]

    @property
    def is_over(self) -> bool:
        return self.won[0] >= TRICKS_TO_WIN or self.won[1] >= TRICKS_TO_WIN

    def finish(self) -> tuple[int, int]:
        """Play on with rule bots until a team has 7 tricks; the tricks won by each team."""
        while not self.is_over:
            self.play(self.rule_card())
        return self.won[0], self.won[1]
