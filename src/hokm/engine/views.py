"""Per-seat views: exactly what one seat may know, and nothing else.

A :class:`SeatView` holds the seat's own cards, the public facts (hakem, trump, played
cards and who played them, tricks, scores, hand sizes, the ace draw) and the seat's legal
actions. ``seat=None`` is the spectator view: no hidden cards at all. Bots and the server
see games only through these views; :func:`event_for` redacts events the same way.

>>> from hokm.engine import Game, RuleSet, Deal, Seat
>>> game = Game(RuleSet(), hakem=Seat(1))
>>> _ = game.apply(Deal.from_seed("view", Seat(1)))
>>> view = view_of(game, Seat(1))
>>> len(view.hand), view.hand_sizes, view.legal[0]["type"]
(5, (5, 5, 5, 5), 'choose_trump')
>>> view_of(game, None).hand
()
>>> SeatView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hokm.engine.cards import Card, Seat, Suit, sort_hand
from hokm.engine.errors import InvalidNotationError
from hokm.engine.events import CardsDealt, Event
from hokm.engine.game import Game, HandResult, Phase, Trick
from hokm.engine.rules import RuleSet

__all__ = ["SeatView", "event_for", "view_of"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` may know about the game now (``seat=None``: a spectator)."""

    seat: Seat | None
    rules: RuleSet
    phase: Phase
    hand_number: int
    hakem: Seat | None
    trump: Suit | None
    hand: tuple[Card, ...]  # own cards, sorted; () for a spectator
    hand_sizes: tuple[int, int, int, int]
    leader: Seat | None
    to_move: Seat | None
    trick: tuple[tuple[Seat, Card], ...]  # the current trick, in playing order
    tricks: tuple[Trick, ...]  # completed tricks of this hand
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    bam_team: int | None
    bam_going: bool
    ace_draw_start: Seat | None
    ace_draw: tuple[Card, ...]
    last_result: dict[str, Any] | None
    winner_team: int | None
    legal: tuple[dict[str, Any], ...]  # this seat's legal actions, as JSON

    @property
    def played(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played this hand, with who played it, in order."""
        out: list[tuple[Seat, Card]] = []
        for t in self.tricks:
            out.extend(((Seat((t.leader + i) % 4), c) for i, c in enumerate(t.cards)))
        out.extend(self.trick)
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": None if self.seat is None else int(self.seat),
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "hakem": _opt_int(self.hakem),
            "trump": None if self.trump is None else self.trump.value,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "leader": _opt_int(self.leader),
            "to_move": _opt_int(self.to_move),
            "trick": [[int(s), str(c)] for s, c in self.trick],
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "score": list(self.score),
            "bam_team": self.bam_team,
            "bam_going": self.bam_going,
            "ace_draw_start": _opt_int(self.ace_draw_start),
            "ace_draw": [str(c) for c in self.ace_draw],
            "last_result": self.last_result,
            "winner_team": self.winner_team,
            "legal": list(self.legal),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatView:
        try:
            return cls(
                seat=_opt_seat(data["seat"]),
                rules=RuleSet.from_dict(data["rules"]),
                phase=Phase(data["phase"]),
                hand_number=int(data["hand_number"]),
                hakem=_opt_seat(data["hakem"]),
                trump=None if data["trump"] is None else Suit.parse(data["trump"]),
                hand=tuple(Card.parse(c) for c in data["hand"]),
                hand_sizes=_four(data["hand_sizes"]),
                leader=_opt_seat(data["leader"]),
                to_move=_opt_seat(data["to_move"]),
                trick=tuple((Seat.parse(s), Card.parse(c)) for s, c in data["trick"]),
                tricks=tuple(
                    Trick(
                        Seat.parse(t["leader"]),
                        tuple(Card.parse(c) for c in t["cards"]),
                        Seat.parse(t["winner"]),
                    )
                    for t in data["tricks"]
                ),
                tricks_won=(int(data["tricks_won"][0]), int(data["tricks_won"][1])),
                score=(int(data["score"][0]), int(data["score"][1])),
                bam_team=data["bam_team"],
                bam_going=bool(data["bam_going"]),
                ace_draw_start=_opt_seat(data["ace_draw_start"]),
                ace_draw=tuple(Card.parse(c) for c in data["ace_draw"]),
                last_result=data["last_result"],
                winner_team=data["winner_team"],
                legal=tuple(data["legal"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise InvalidNotationError(f"not a seat view: {exc}") from exc


def _opt_int(seat: Seat | None) -> int | None:
    return None if seat is None else int(seat)


def _opt_seat(value: object) -> Seat | None:
    return None if value is None else Seat.parse(value)


def _four(values: Any) -> tuple[int, int, int, int]:
    a, b, c, d = (int(v) for v in values)
    return (a, b, c, d)


def result_to_dict(result: HandResult) -> dict[str, Any]:
    """The public summary of a finished hand (no unplayed cards)."""
    return {
        "hand": result.hand,
        "hakem": int(result.hakem),
        "trump": result.trump.value,
        "result": result.result,
        "winner_team": result.winner_team,
        "tricks": list(result.tricks),
        "points": list(result.points),
        "score": list(result.score),
        "next_hakem": int(result.next_hakem),
        "seed": result.deal.seed,
    }


def view_of(game: Game, seat: Seat | int | None) -> SeatView:
    """The view of ``seat`` (``None``: a spectator, who sees no hidden card)."""
    own = None if seat is None else Seat(seat)
    hand = () if own is None else tuple(sort_hand(game.hand_of(own), game.trump))
    hand_size = game.hand_size
    sizes = (hand_size(0), hand_size(1), hand_size(2), hand_size(3))
    draw = game.ace_draw
    last = game.hand_results[-1] if game.hand_results else None
    legal = () if own is None else tuple(a.to_dict() for a in game.legal_actions(own))
    return SeatView(
        seat=own,
        rules=game.rules,
        phase=game.phase,
        hand_number=game.hand_number,
        hakem=game.hakem,
        trump=game.trump,
        hand=hand,
        hand_sizes=sizes,
        leader=game.leader,
        to_move=game.to_move if game.phase in (Phase.PLAY, Phase.TRUMP) else None,
        trick=tuple(game.current_trick),
        tricks=tuple(game.tricks),
        tricks_won=(game.tricks_won[0], game.tricks_won[1]),
        score=(game.score[0], game.score[1]),
        bam_team=game.bam_team,
        bam_going=bool(game.bam_decision),
        ace_draw_start=None if draw is None else draw.start,
        ace_draw=() if draw is None else draw.cards,
        last_result=None if last is None else result_to_dict(last),
        winner_team=game.winner_team,
        legal=legal,
    )


def event_for(event: Event, seat: Seat | int | None) -> dict[str, Any] | None:
    """The JSON form of ``event`` as ``seat`` may see it (``None``: a spectator).

    Dealt cards of other seats are replaced by their count; the seed of an abandoned deal
    is public only once the deal is abandoned (it is, by then). Returns None if nothing of
    the event may be shown.
    """
    data = event.to_dict()
    if isinstance(event, CardsDealt):
        data["cards"] = [
            [str(c) for c in cards] if seat is not None and i == seat else []
            for i, cards in enumerate(event.cards)
        ]
    # Redealt and HandEnded reveal the seed of a deal that is over, so it can be verified.
    return data
