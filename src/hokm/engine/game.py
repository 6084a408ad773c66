"""The game state machine: one game of Hokm, hands until a team reaches ``target_points``.

A :class:`Game` is mutable and applies :mod:`actions <hokm.engine.actions>`; every action is
checked first (``check`` raises an :class:`IllegalActionError` naming the rule, ``can`` returns
a bool) and produces frozen :mod:`events <hokm.engine.events>`. Chance never happens inside:
the first hakem and each deal are actions built from a seed or given explicitly.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("doc", Seat(0)))
>>> game.phase, game.to_move, len(game.hand_of(Seat(0)))
(<Phase.TRUMP: 'trump'>, <Seat.S0: 0>, 5)
>>> _ = game.choose_trump(Suit.HEARTS)
>>> game.phase, len(game.hand_of(Seat(3))), game.to_move
(<Phase.PLAY: 'play'>, 13, <Seat.S0: 0>)
>>> while game.phase is Phase.PLAY:
...     _ = game.play(game.legal_cards()[0])
>>> game.hand_results[0].result in {"normal", "kot", "hakem_kot"}
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hokm.engine.actions import (
    Action,
    ChooseTrump,
    Deal,
    DecideBam,
    DrawAces,
    Play,
    RequestRedeal,
    SetHakem,
    action_from_dict,
)
from hokm.engine.cards import ALL_CARDS, Card, Rank, Seat, Suit
from hokm.engine.errors import (
    IllegalActionError,
    InvalidNotationError,
    NotYourTurnError,
    WrongPhaseError,
)
from hokm.engine.events import (
    BamDecided,
    BamOffered,
    CardPlayed,
    CardsDealt,
    Event,
    GameEnded,
    HakemChosen,
    HandEnded,
    HandStarted,
    Redealt,
    TrickWon,
    TrumpChosen,
)
from hokm.engine.frozen import unfrozen
from hokm.engine.rules import RuleSet
from hokm.engine.shuffle import seed_commitment

__all__ = ["Game", "HandResult", "Phase", "Trick", "seven_nil_result", "trick_winner"]

_SEATS = tuple(Seat)
TRICKS_TO_WIN = 7
_DEFAULT_RULES = RuleSet()
_FIRST_HAKEM_METHODS = ("ace_draw", "random", "manual")
_PLAYS = tuple(tuple(Play.of(s, c) for c in ALL_CARDS) for s in Seat)
_CHOOSE_TRUMP = tuple(tuple(ChooseTrump(s, suit) for suit in Suit) for s in Seat)
_CARD_PLAYED = tuple(tuple(CardPlayed(s, c) for c in ALL_CARDS) for s in Seat)


class Phase(StrEnum):
    """The phases of a game; each has its own small transition function."""

    CHOOSE_HAKEM = "choose_hakem"  # waiting for the ace draw / random / manual hakem
    DEAL = "deal"  # waiting for a hand's deal (chance)
    TRUMP = "trump"  # the hakem holds five cards and names trump (or asks for a redeal)
    PLAY = "play"  # tricks
    BAM = "bam"  # a team at 7–0 decides whether to go on for all 13 tricks
    GAME_OVER = "game_over"


# Enum members are slow to look up on the class; the hot paths use these module constants.
_CHOOSE_HAKEM = Phase.CHOOSE_HAKEM
_DEAL = Phase.DEAL
_TRUMP = Phase.TRUMP
_PLAY = Phase.PLAY
_BAM = Phase.BAM
_GAME_OVER = Phase.GAME_OVER
_NOTHING_HELD: Any = (((), (), (), ()),) * 4  # holdings before a deal: immutable


@dataclass(frozen=True, slots=True)
class Trick:
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": int(self.leader),
            "cards": [str(c) for c in self.cards],
            "winner": int(self.winner),
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended and what it scored."""

    hand: int
    hakem: Seat
    trump: Suit
    deal: Deal
    plays: tuple[Card, ...]
    bam: bool | None  # the 7–0 team's decision, None when none was asked
    trick_winners: tuple[Seat, ...]
    tricks: tuple[int, int]
    result: str
    winner_team: int
    points: tuple[int, int]
    score: tuple[int, int]
    next_hakem: Seat


# Frozen dataclasses build slowly (each field goes through object.__setattr__). The hot paths
# build them as plain objects with the same slots and then give them their class (see
# hokm.engine.frozen): same objects, a fraction of the cost.
_UnfrozenTrickWon = unfrozen(TrickWon)
_UnfrozenHandResult = unfrozen(HandResult)
_UnfrozenHandEnded = unfrozen(HandEnded)
_UnfrozenCardsDealt = unfrozen(CardsDealt)
_UnfrozenHandStarted = unfrozen(HandStarted)
_UnfrozenHakemChosen = unfrozen(HakemChosen)
_UnfrozenTrumpChosen = unfrozen(TrumpChosen)


def _cards_dealt(
    number: int, cards: tuple[tuple[Card, ...], ...], counts: tuple[int, int, int, int]
) -> CardsDealt:
    """``CardsDealt(number, cards, counts)``, built unfrozen (see above)."""
    dealt = _UnfrozenCardsDealt()
    dealt.round = number
    dealt.cards = cards
    dealt.counts = counts
    dealt.__class__ = CardsDealt
    event: CardsDealt = dealt
    return event


def trick_winner(leader: Seat, cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> Seat:
    """The winner of a complete trick: highest trump, else highest card of the led suit."""
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit is best_card.suit:
            if card.rank > best_card.rank:
                best, best_card = i, card
        elif card.suit is trump:
            best, best_card = i, card
    return _SEATS[(leader + best) & 3]


class _SeatFacts:
    """A seat's fixed facts for the hot path of a play (module constants, one per seat),
    linked in playing order, so a play needs no lookup by seat."""

    __slots__ = ("index", "next", "play_of", "played_of", "seat", "team")

    seat: Seat
    index: int  # int(seat), a plain int: lists index quicker by it than by the enum member
    team: int
    play_of: tuple[Play, ...]  # the seat's interned Play actions, by card index
    played_of: tuple[CardPlayed, ...]  # the seat's interned CardPlayed events, by card index
    next: _SeatFacts


def _seat_facts() -> tuple[_SeatFacts, ...]:
    facts = []
    for seat in _SEATS:
        fact = _SeatFacts()
        fact.seat = seat
        fact.index = int(seat)
        fact.team = seat & 1
        fact.play_of = _PLAYS[seat]
        fact.played_of = _CARD_PLAYED[seat]
        facts.append(fact)
    for fact in facts:
        fact.next = facts[(fact.index + 1) & 3]
    return tuple(facts)


_FACTS = _seat_facts()


class Game:
    """One game of Hokm. See the module docstring for an example."""

    __slots__ = (
        "_held",
        "_led",
        "_mover",
        "_played",
        "_plays",
        "_tricks",
        "_won",
        "ace_draw",
        "bam_decision",
        "bam_team",
        "deal",
        "events",
        "first_hakem_method",
        "hakem",
        "hand_number",
        "hand_results",
        "history",
        "initial_hakem",
        "initial_hakem_method",
        "leader",
        "phase",
        "rules",
        "score",
        "to_move",
        "trick",
        "tricks_won",
        "trump",
        "winner_team",
    )

    def __init__(
        self,
        rules: RuleSet | None = None,
        *,
        hakem: Seat | int | None = None,
        hakem_method: str = "manual",
        first_hakem: str | None = None,
    ) -> None:
        self.rules = rules if rules is not None else _DEFAULT_RULES
        self.initial_hakem: Seat | None = (
            None if hakem is None else hakem if type(hakem) is Seat else Seat(hakem)
        )
        self.initial_hakem_method = hakem_method
        if first_hakem is not None and first_hakem not in _FIRST_HAKEM_METHODS:
            raise InvalidNotationError(
                f"first_hakem must be one of {', '.join(_FIRST_HAKEM_METHODS)}, not {first_hakem!r}"
            )
        # How the first hakem is chosen when none is given (default: the rules' first_hakem);
        # a next game in the same room uses next_game_hakem instead.
        self.first_hakem_method: str = first_hakem or self.rules.first_hakem
        self.score = [0, 0]
        self.hakem: Seat | None = None
        self.hand_number = 0
        self.history: list[Action] = []
        self.events: list[Event] = []
        self.hand_results: list[HandResult] = []
        self.winner_team: int | None = None
        self.ace_draw: DrawAces | None = None
        self._reset_hand()
        if self.initial_hakem is None:
            self.phase = _CHOOSE_HAKEM
        else:
            self._set_first_hakem(self.initial_hakem, hakem_method, None)

    # ------------------------------------------------------------------ state helpers

    def _reset_hand(self) -> None:
        self.phase = _DEAL
        self.deal: Deal | None = None
        # What each seat holds, per suit (index S, H, D, C) in deal order: the card indexes, and
        # in parallel the interned Play actions of that seat (legal actions are slices of
        # these). Indexes, not cards: list.index compares ints in C, while a Card comparison
        # goes through Python (Card defines __lt__), about a microsecond each.
        self._held: list[list[list[int]]] = _NOTHING_HELD  # replaced (not changed) by a deal
        self._plays: list[list[list[Play]]] = _NOTHING_HELD
        self._mover = _FACTS[0]  # in phase play, the seat to move: self._mover.seat is to_move
        self.trump: Suit | None = None
        self.leader: Seat | None = None
        self.to_move: Seat | None = None
        self.trick: list[Card] = []
        self._led = -1  # suit index of the current trick's first card; -1 before it
        self._won: list[TrickWon] = []  # this hand's TrickWon events, one per trick
        self._tricks: list[Trick] = []  # the same tricks as Trick, built when asked for
        self.tricks_won = [0, 0]
        self._played: list[Card] = []  # the cards of this hand's completed tricks
        self.bam_team: int | None = None
        self.bam_decision: bool | None = None

    def _set_first_hakem(self, hakem: Seat, method: str, draw: DrawAces | None) -> list[Event]:
        self.hakem = hakem
        self.ace_draw = draw
        self.phase = _DEAL
        event = _UnfrozenHakemChosen()
        event.hakem = hakem
        event.method = method
        event.start = None if draw is None else draw.start
        event.draw = () if draw is None else draw.cards
        event.__class__ = HakemChosen
        self.events.append(event)
        return [event]

    @property
    def is_over(self) -> bool:
        return self.phase is _GAME_OVER

    @property
    def is_chance(self) -> bool:
        """True when the next action is chance: the first hakem (not manual) or a deal."""
        return self.phase is _DEAL or (
            self.phase is _CHOOSE_HAKEM and self.first_hakem_method != "manual"
        )

    def hand_of(self, seat: Seat | int) -> list[Card]:
        """The cards ``seat`` holds now (five while trump is being chosen)."""
        a, b, c, d = self._held[seat]
        return [ALL_CARDS[i] for i in (*a, *b, *c, *d)]

    def hand_size(self, seat: Seat | int) -> int:
        """How many cards ``seat`` holds now (public: everyone can count them)."""
        a, b, c, d = self._held[seat]
        return len(a) + len(b) + len(c) + len(d)

    @property
    def holdings(self) -> list[list[list[Card]]]:
        """The cards of each seat per suit (S, H, D, C), in deal order."""
        return [[[ALL_CARDS[i] for i in suit] for suit in seat] for seat in self._held]

    @property
    def plays(self) -> list[Card]:
        """The cards played this hand, in order."""
        return [*self._played, *self.trick]

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks of this hand."""
        tricks = self._tricks
        for event in self._won[len(tricks) :]:
            tricks.append(Trick(event.leader, event.cards, event.winner))
        return tricks

    @property
    def hands(self) -> list[list[Card]]:
        """The cards each seat holds now."""
        return [self.hand_of(seat) for seat in _SEATS]

    def _hold(self, hands: tuple[tuple[Card, ...], ...]) -> None:
        """Add dealt cards to what each seat holds."""
        everything = zip(self._held, self._plays, _PLAYS, hands, strict=True)
        for by_suit, plays_by_suit, plays, cards in everything:
            for card in cards:
                suit = card.suit_index
                index = card.index
                by_suit[suit].append(index)
                plays_by_suit[suit].append(plays[index])

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        leader = self.leader
        if leader is None:
            return []
        return [(_SEATS[(leader + i) & 3], c) for i, c in enumerate(self.trick)]

    # ------------------------------------------------------------------ legal actions

    def legal_cards(self, seat: Seat | int | None = None) -> list[Card]:
        """The cards ``seat`` (default: the seat to move) may play now; empty if none."""
        if self.phase is not _PLAY:
            return []
        mover = self._mover
        if seat is not None and seat != mover.seat:
            return []
        by_suit = self._held[mover.index]
        if self._led >= 0:
            follow = by_suit[self._led]
            if follow:
                return [ALL_CARDS[i] for i in follow]
        return [ALL_CARDS[i] for i in (*by_suit[0], *by_suit[1], *by_suit[2], *by_suit[3])]

    def legal_actions(self, seat: Seat | int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default: the seat to move). Chance is not listed."""
        phase = self.phase
        if phase is _PLAY:
            mover = self._mover
            if seat is not None and seat != mover.seat:
                return []
            by_suit = self._plays[mover.index]
            led = self._led
            if led >= 0:
                follow = by_suit[led]
                if follow:
                    return follow.copy()  # type: ignore[return-value]  # list[Play] is list[Action]
            return [*by_suit[0], *by_suit[1], *by_suit[2], *by_suit[3]]
        if phase is _TRUMP:
            hakem = self.hakem
            if hakem is None or (seat is not None and seat != hakem):
                return []
            actions: list[Action] = [*_CHOOSE_TRUMP[hakem]]
            if self._may_redeal_weak_five():
                actions.append(RequestRedeal(hakem))
            return actions
        if phase is _BAM:
            return self._bam_actions(seat)
        return []

    def _bam_actions(self, seat: Seat | int | None) -> list[Action]:
        # Not inline in legal_actions: its comprehensions would make self and seat closure
        # cells there, which every call (every play) would pay for.
        team = self.bam_team
        assert team is not None
        seats = [s for s in _SEATS if s.team == team]
        if seat is not None:
            seats = [s for s in seats if s == seat]
        return [DecideBam(s, go) for s in seats for go in (True, False)]

    def _may_redeal_weak_five(self) -> bool:
        if not self.rules.hakem_may_redeal_weak_five or self.hakem is None:
            return False
        return all(card.rank < Rank.TEN for card in self.hand_of(self.hakem))

    # ------------------------------------------------------------------ check / can / apply

    def check(self, action: Action) -> None:
        """Raise an :class:`IllegalActionError` naming the broken rule; change nothing."""
        if isinstance(action, Play):
            self._check_play(action)
        elif isinstance(action, ChooseTrump | RequestRedeal):
            self._check_trump_phase(action)
        elif isinstance(action, DecideBam):
            self._check_bam(action)
        elif isinstance(action, Deal):
            self._check_deal(action)
        elif isinstance(action, SetHakem | DrawAces):
            self._check_first_hakem(action)
        else:
            raise IllegalActionError(f"unknown action {action!r}")

    def can(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Check and apply ``action``; return the events it produced."""
        if type(action) is Play or isinstance(action, Play):
            # The hot path of every playout: check and apply a play in one pass.
            seat = action.seat
            card = action.card
            mover = self._mover
            if self.phase is not _PLAY or seat is not mover.seat:
                self._check_play(action)  # raises the precise error (or passes: seat == int)
            suit = card.suit_index
            index = mover.index
            by_suit = self._held[index]
            same_suit = by_suit[suit]
            try:
                position = same_suit.index(card.index)
            except ValueError:
                position = -1
            led = self._led
            if position < 0 or (suit != led and led >= 0 and by_suit[led]):
                self._check_play(action)  # raises the precise error
            del same_suit[position]
            del self._plays[index][suit][position]
            trick = self.trick
            trick.append(card)
            self.history.append(action)
            played = mover.played_of[card.index]
            if len(trick) < 4:
                if led < 0:
                    self._led = suit
                mover = mover.next
                self._mover = mover
                self.to_move = mover.seat
                self.events.append(played)
                return [played]
            return self._finish_trick(played)
        if isinstance(action, Deal):  # once a hand, as the trump choice: tested first
            self._check_deal(action)
            events = self._do_deal(action)
        elif isinstance(action, ChooseTrump):
            self._check_trump_phase(action)
            events = self._do_trump(action)
        elif isinstance(action, RequestRedeal):
            self._check_trump_phase(action)
            events = self._do_redeal("weak_five", action.seat)
        elif isinstance(action, DecideBam):
            self._check_bam(action)
            events = self._do_bam(action)
        elif isinstance(action, SetHakem):
            self._check_first_hakem(action)
            method = "manual" if self.first_hakem_method == "manual" else "random"
            events = self._set_first_hakem(action.hakem, method, None)
        elif isinstance(action, DrawAces):
            self._check_first_hakem(action)
            events = self._set_first_hakem(action.hakem, "ace_draw", action)
        else:
            raise IllegalActionError(f"unknown action {action!r}")
        self.history.append(action)
        return events

    # Convenience verbs for the seat to move.
    def play(self, card: Card | str) -> list[Event]:
        if isinstance(card, str):
            card = Card.parse(card)
        if self.to_move is None:
            raise WrongPhaseError(f"no card can be played in phase {self.phase.value}")
        return self.apply(Play(self.to_move, card))

    def choose_trump(self, suit: Suit | str) -> list[Event]:
        if isinstance(suit, str):
            suit = Suit.parse(suit)
        if self.phase is not _TRUMP or self.hakem is None:
            raise WrongPhaseError(f"trump is chosen in phase trump, not {self.phase.value}")
        return self.apply(ChooseTrump(self.hakem, suit))

    # ------------------------------------------------------------------ checks

    def _check_first_hakem(self, action: SetHakem | DrawAces) -> None:
        if self.phase is not _CHOOSE_HAKEM:
            raise WrongPhaseError("the first hakem is already chosen")
        method = self.first_hakem_method
        if isinstance(action, DrawAces):
            if method != "ace_draw":
                raise IllegalActionError(f"first_hakem is {method}: no ace draw")
            cards = action.cards
            if not cards:
                raise IllegalActionError("the ace draw deals at least one card")
            twice = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
            if twice is not None:
                raise IllegalActionError(f"the ace draw deals {twice} twice")
            early = next((c for c in cards[:-1] if c.rank == Rank.ACE), None)
            if early is not None:
                raise IllegalActionError(
                    f"the ace draw stops at the first ace, {early}: no card is dealt after it"
                )
            if cards[-1].rank != Rank.ACE:
                raise IllegalActionError(
                    f"the ace draw ends with an ace, not {cards[-1]} (cards are dealt until one)"
                )
        elif method == "ace_draw":
            raise IllegalActionError("first_hakem is ace_draw: the hakem is found by an ace draw")

    def _check_deal(self, deal: Deal) -> None:
        if self.phase is not _DEAL:
            raise WrongPhaseError(f"no deal is due in phase {self.phase.value}")
        if not deal._whole_deck:  # a deal built from a whole deck is valid by construction
            problem = deal.problem()
            if problem is not None:
                raise IllegalActionError(f"invalid deal: {problem}")

    def _check_trump_phase(self, action: ChooseTrump | RequestRedeal) -> None:
        if self.phase is not _TRUMP:
            raise WrongPhaseError(f"trump is chosen in phase trump, not {self.phase.value}")
        if action.seat != self.hakem:
            raise NotYourTurnError(f"only the hakem (seat {self.hakem}) names trump")
        if isinstance(action, RequestRedeal) and not self._may_redeal_weak_five():
            if not self.rules.hakem_may_redeal_weak_five:
                raise IllegalActionError("hakem_may_redeal_weak_five is off: no redeal")
            raise IllegalActionError("a redeal needs a first five with no card of rank 10 or more")

    def _check_play(self, action: Play) -> None:
        if self.phase is not _PLAY:
            raise WrongPhaseError(f"cards are played in phase play, not {self.phase.value}")
        seat = action.seat
        if seat != self.to_move:
            raise NotYourTurnError(f"not seat {int(seat)}'s turn: seat {self.to_move} is to play")
        card = action.card
        by_suit = self._held[seat]
        if card.index not in by_suit[card.suit_index]:
            raise IllegalActionError(f"seat {int(seat)} does not hold {card}")
        if self.trick:
            led = self.trick[0].suit_index
            if card.suit_index != led and by_suit[led]:
                raise IllegalActionError(
                    f"must follow suit {self.trick[0].suit.symbol}: seat {int(seat)} holds "
                    + " ".join(str(ALL_CARDS[i]) for i in sorted(by_suit[led]))
                )

    def _check_bam(self, action: DecideBam) -> None:
        if self.phase is not _BAM:
            raise WrongPhaseError(f"bam is decided in phase bam, not {self.phase.value}")
        if action.seat.team != self.bam_team:
            raise NotYourTurnError(f"only team {self.bam_team}, at 7–0, decides on bam")

    # ------------------------------------------------------------------ transitions

    def _do_deal(self, deal: Deal) -> list[Event]:
        hakem = self.hakem
        assert hakem is not None
        self.deal = deal
        h0, h1, h2, h3 = deal.hands
        first = (h0[:5], h1[:5], h2[:5], h3[:5])
        self._held = [[[], [], [], []], [[], [], [], []], [[], [], [], []], [[], [], [], []]]
        self._plays = [[[], [], [], []], [[], [], [], []], [[], [], [], []], [[], [], [], []]]
        self._mover = _FACTS[hakem]
        self._hold(first)
        self.phase = _TRUMP
        self.to_move = hakem
        commitment = None if deal.seed is None else seed_commitment(deal.seed)
        started = _UnfrozenHandStarted()
        started.hand = self.hand_number
        started.hakem = hakem
        started.seed_commitment = commitment
        started.__class__ = HandStarted
        events: list[Event] = [started, _cards_dealt(1, first, (5, 5, 5, 5))]
        self.events.extend(events)
        return events

    def _do_trump(self, action: ChooseTrump) -> list[Event]:
        deal = self.deal
        assert deal is not None
        self.trump = action.suit
        h0, h1, h2, h3 = deal.hands
        rest = (h0[5:], h1[5:], h2[5:], h3[5:])
        self._hold(rest)
        chosen = _UnfrozenTrumpChosen()
        chosen.seat = action.seat
        chosen.suit = action.suit
        chosen.__class__ = TrumpChosen
        events: list[Event] = [chosen, _cards_dealt(2, rest, (13, 13, 13, 13))]
        self.events.extend(events)
        if self.rules.redeal_if_player_has_no_trump:
            for seat in _SEATS:
                if not self._held[seat][action.suit.ordinal]:
                    return events + self._do_redeal("no_trump", seat)
        self.phase = _PLAY
        self.leader = self.to_move = self.hakem
        self._mover = _FACTS[self.hakem]  # type: ignore[index]
        return events

    def _do_redeal(self, reason: str, seat: Seat) -> list[Event]:
        seed = None if self.deal is None else self.deal.seed
        event = Redealt(reason, seat, seed)
        self._reset_hand()
        self.events.append(event)
        return [event]

    def _finish_trick(self, played: CardPlayed) -> list[Event]:
        leader = self.leader
        assert leader is not None
        c0, c1, c2, c3 = self.trick
        cards = (c0, c1, c2, c3)
        self._played += cards
        # The trick winner (as trick_winner, unrolled): within a suit, card index order is
        # rank order, so plain integers are compared.
        trump = self.trump
        best, b_suit, b_index = 0, c0.suit, c0.index
        if c1.suit is b_suit:
            if c1.index > b_index:
                best, b_index = 1, c1.index
        elif c1.suit is trump:
            best, b_suit, b_index = 1, trump, c1.index
        if c2.suit is b_suit:
            if c2.index > b_index:
                best, b_index = 2, c2.index
        elif c2.suit is trump:
            best, b_suit, b_index = 2, trump, c2.index
        if c3.suit is b_suit:
            if c3.index > b_index:
                best = 3
        elif c3.suit is trump:
            best = 3
        mover = _FACTS[(leader + best) & 3]
        winner = mover.seat
        team = mover.team
        won = self.tricks_won
        won[team] += 1
        taken = won[team]
        # The TrickWon event, built unfrozen (see above); the Trick is built when asked for.
        done = self._won
        event = _UnfrozenTrickWon()
        event.trick = len(done)
        event.leader = leader
        event.cards = cards
        event.winner = winner
        event.tricks = (won[0], won[1])
        event.__class__ = TrickWon
        done.append(event)
        events = self.events
        events.append(played)
        events.append(event)
        self.trick = []
        self._led = -1
        self.leader = self.to_move = winner
        self._mover = mover
        if self.bam_decision:
            assert self.bam_team is not None
            if team != self.bam_team:
                return [played, event, *self._end_failed_bam()]
            if taken == 13:
                return [played, event, *self._end_bam()]
            return [played, event]
        if taken == TRICKS_TO_WIN:
            if self.rules.bam and won[1 - team] == 0:
                self.phase = _BAM
                self.bam_team = team
                offered = BamOffered(team)
                self.events.append(offered)
                return [played, event, offered]
            return [played, event, *self._end_normal(team)]
        return [played, event]

    def _do_bam(self, action: DecideBam) -> list[Event]:
        self.bam_decision = action.go
        decided = BamDecided(action.seat, action.go)
        self.events.append(decided)
        if action.go:
            self.phase = _PLAY
            return [decided]
        assert self.bam_team is not None
        return [decided, *self._end_normal(self.bam_team)]

    # ------------------------------------------------------------------ scoring

    def _kot_points(self, winner_team: int) -> tuple[str, int]:
        assert self.hakem is not None
        if seven_nil_result(winner_team, self.hakem) == "kot":
            return "kot", self.rules.kot_points
        return "hakem_kot", self.rules.hakem_kot_points

    def _end_normal(self, team: int) -> list[Event]:
        if self.tricks_won[1 - team] == 0:
            result, points = self._kot_points(team)
            return self._end_hand(result, team, _points(team, points))
        return self._end_hand("normal", team, _points(team, 1))

    def _end_bam(self) -> list[Event]:
        team = self.bam_team
        assert team is not None and self.hakem is not None
        result = "bam" if self.hakem.team == team else "par_bam"
        points = max(self.rules.target_points - self.score[team], 0)
        return self._end_hand(result, team, _points(team, points), game_won=True)

    def _end_failed_bam(self) -> list[Event]:
        team = self.bam_team
        assert team is not None
        if self.rules.failed_bam == "minus3":
            return self._end_hand("failed_bam", 1 - team, _points(team, -3))
        _, points = self._kot_points(team)
        return self._end_hand("failed_bam", team, _points(team, points))

    def _end_hand(
        self, result: str, winner_team: int, points: tuple[int, int], *, game_won: bool = False
    ) -> list[Event]:
        hakem = self.hakem
        assert hakem is not None and self.deal is not None and self.trump is not None
        self.score[0] += points[0]
        self.score[1] += points[1]
        # (Seat.team and Seat.next are properties: Python calls; the hot paths avoid them.)
        next_hakem = hakem if hakem & 1 == winner_team else _SEATS[(hakem + 1) & 3]
        score = (self.score[0], self.score[1])
        tricks = (self.tricks_won[0], self.tricks_won[1])
        done = _UnfrozenHandResult()
        done.hand = self.hand_number
        done.hakem = hakem
        done.trump = self.trump
        done.deal = self.deal
        done.plays = tuple(self._played)  # a hand ends with a trick
        done.bam = self.bam_decision
        done.trick_winners = tuple([event.winner for event in self._won])
        done.tricks = tricks
        done.result = result
        done.winner_team = winner_team
        done.points = points
        done.score = score
        done.next_hakem = next_hakem
        done.__class__ = HandResult
        self.hand_results.append(done)
        ended = _UnfrozenHandEnded()
        ended.hand = self.hand_number
        ended.hakem = hakem
        ended.result = result
        ended.winner_team = winner_team
        ended.tricks = tricks
        ended.points = points
        ended.score = score
        ended.next_hakem = next_hakem
        ended.seed = self.deal.seed
        ended.__class__ = HandEnded
        events: list[Event] = [ended]
        self.hand_number += 1
        self.hakem = next_hakem
        self._reset_hand()
        target = self.rules.target_points
        if game_won or score[winner_team] >= target:
            self.phase = _GAME_OVER
            self.winner_team = winner_team
            events.append(GameEnded(winner_team, score))
        elif score[1 - winner_team] >= target:  # pragma: no cover - only the winner's rises
            raise AssertionError("score reached the target without a winner")
        self.events.extend(events)
        return events

    # ------------------------------------------------------------------ next game, copies, JSON

    def next_game(self, *, first_hakem: Seat | int | None = None) -> Game:
        """A new game in the same room, with the hakem chosen by ``next_game_hakem``.

        With ``keep`` the hakem of the end of this game starts; with ``manual`` pass
        ``first_hakem`` (or set it later with :class:`SetHakem`); with ``ace_draw`` or
        ``random`` the new game waits for that chance action. A ``first_hakem`` under another
        method than ``manual`` is refused (:class:`IllegalActionError`), not dropped.
        """
        if self.phase is not _GAME_OVER:
            raise WrongPhaseError("a next game starts only when this game is over")
        method = self.rules.next_game_hakem
        if first_hakem is not None and method != "manual":
            raise IllegalActionError(
                f"first_hakem is given only under next_game_hakem=manual, not {method}"
            )
        if method == "keep":
            assert self.hakem is not None
            return Game(self.rules, hakem=self.hakem, hakem_method="keep")
        if method == "manual" and first_hakem is not None:
            return Game(self.rules, hakem=first_hakem, hakem_method="manual")
        return Game(self.rules, first_hakem=method)

    def copy(self) -> Game:
        """An independent copy (by replaying the history)."""
        return Game.from_dict(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON data: rules, how the game began, and every action."""
        data: dict[str, Any] = {
            "format": "hokm-game/1",
            "rules": self.rules.to_dict(),
            "hakem": None if self.initial_hakem is None else int(self.initial_hakem),
            "hakem_method": self.initial_hakem_method,
            "actions": [a.to_dict() for a in self.history],
        }
        if self.initial_hakem is None and self.first_hakem_method != self.rules.first_hakem:
            data["first_hakem"] = self.first_hakem_method
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        if not isinstance(data, Mapping) or data.get("format") != "hokm-game/1":
            raise InvalidNotationError("not a hokm-game/1 state")
        rules = RuleSet.from_dict(data.get("rules", {}))
        hakem = data.get("hakem")
        method = data.get("hakem_method", "manual")
        if not isinstance(method, str):
            raise InvalidNotationError("hakem_method is a string")
        first = data.get("first_hakem")
        if first is not None and not isinstance(first, str):
            raise InvalidNotationError("first_hakem is a string")
        game = cls(
            rules,
            hakem=None if hakem is None else Seat.parse(hakem),
            hakem_method=method,
            first_hakem=first,
        )
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise InvalidNotationError("actions is a list")
        for item in actions:
            game.apply(action_from_dict(item))
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game phase={self.phase.value} hand={self.hand_number} hakem={self.hakem} "
            f"trump={self.trump} score={self.score} tricks={self.tricks_won}>"
        )


def seven_nil_result(winner_team: int, hakem: Seat | int) -> str:
    """The name of a hand won 7–0 by ``winner_team`` (RULES.md §1): a ``kot`` when the
    hakem's team won it, a ``hakem_kot`` when the hakem's team took no trick.

    >>> seven_nil_result(0, Seat(2)), seven_nil_result(1, Seat(2))
    ('kot', 'hakem_kot')
    """
    return "kot" if int(hakem) & 1 == winner_team else "hakem_kot"


def _points(team: int, points: int) -> tuple[int, int]:
    return (points, 0) if team == 0 else (0, points)
