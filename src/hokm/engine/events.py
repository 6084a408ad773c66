"""Events: the frozen facts every transition produces. The event log is the game record.

Some events carry hidden information (the cards dealt to each seat). Never send an event
to a player as it is: :func:`hokm.engine.views.event_for` redacts it for one seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hokm.engine.cards import Card, Seat, Suit

__all__ = [
    "BamDecided",
    "BamOffered",
    "CardPlayed",
    "CardsDealt",
    "Event",
    "GameEnded",
    "HakemChosen",
    "HandEnded",
    "HandStarted",
    "Redealt",
    "TrickWon",
    "TrumpChosen",
]


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True, slots=True)
class HakemChosen:
    """The first hakem of a game. ``draw`` holds the face-up ace-draw cards (public)."""

    hakem: Seat
    method: str  # ace_draw | random | manual | keep | record (replayed from a game record)
    start: Seat | None = None
    draw: tuple[Card, ...] = ()
    kind: ClassVar[str] = "hakem_chosen"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hakem": int(self.hakem),
            "method": self.method,
            "start": None if self.start is None else int(self.start),
            "draw": _cards(self.draw),
        }


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand (or a redeal of it) begins; ``seed_commitment`` is set for seeded deals."""

    hand: int
    hakem: Seat
    seed_commitment: str | None
    kind: ClassVar[str] = "hand_started"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hand": self.hand,
            "hakem": int(self.hakem),
            "seed_commitment": self.seed_commitment,
        }


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Cards dealt in a deal round (1: five each; 2: the remaining eight each). Hidden info."""

    round: int
    cards: tuple[tuple[Card, ...], ...]  # per seat; redacted views replace others' with ()
    counts: tuple[int, int, int, int]
    kind: ClassVar[str] = "cards_dealt"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "round": self.round,
            "cards": [_cards(c) for c in self.cards],
            "counts": list(self.counts),
        }


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    seat: Seat
    suit: Suit
    kind: ClassVar[str] = "trump_chosen"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": int(self.seat), "suit": self.suit.value}


@dataclass(frozen=True, slots=True)
class Redealt:
    """The hand is dealt again with the same hakem: ``weak_five`` or ``no_trump``."""

    reason: str
    seat: Seat | None  # the hakem who asked, or a seat holding no trump
    seed: str | None  # revealed seed of the abandoned deal, if it was seeded
    kind: ClassVar[str] = "redealt"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reason": self.reason,
            "seat": None if self.seat is None else int(self.seat),
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: Seat
    card: Card
    kind: ClassVar[str] = "card_played"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": int(self.seat), "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class TrickWon:
    trick: int  # 0-based index within the hand
    leader: Seat
    cards: tuple[Card, ...]  # in playing order from the leader
    winner: Seat
    tricks: tuple[int, int]  # tricks per team after this one
    kind: ClassVar[str] = "trick_won"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "trick": self.trick,
            "leader": int(self.leader),
            "cards": _cards(self.cards),
            "winner": int(self.winner),
            "tricks": list(self.tricks),
        }


@dataclass(frozen=True, slots=True)
class BamOffered:
    team: int
    kind: ClassVar[str] = "bam_offered"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "team": self.team}


@dataclass(frozen=True, slots=True)
class BamDecided:
    seat: Seat
    go: bool
    kind: ClassVar[str] = "bam_decided"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": int(self.seat), "go": self.go}


@dataclass(frozen=True, slots=True)
class HandEnded:
    hand: int
    hakem: Seat
    result: str  # normal | kot | hakem_kot | bam | par_bam | failed_bam
    winner_team: int
    tricks: tuple[int, int]
    points: tuple[int, int]
    score: tuple[int, int]
    next_hakem: Seat
    seed: str | None  # the revealed seed of this hand's deal, if seeded
    kind: ClassVar[str] = "hand_ended"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hand": self.hand,
            "hakem": int(self.hakem),
            "result": self.result,
            "winner_team": self.winner_team,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "score": list(self.score),
            "next_hakem": int(self.next_hakem),
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class GameEnded:
    winner_team: int
    score: tuple[int, int]
    kind: ClassVar[str] = "game_ended"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "winner_team": self.winner_team, "score": list(self.score)}


Event = (
    HakemChosen
    | HandStarted
    | CardsDealt
    | TrumpChosen
    | Redealt
    | CardPlayed
    | TrickWon
    | BamOffered
    | BamDecided
    | HandEnded
    | GameEnded
)
