"""The pure rules engine of Hokm: no I/O, no clock, no global randomness.

>>> from hokm.engine import Card, Seat
>>> Card.parse("QH").suit.persian
'دل'
"""

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
from hokm.engine.cards import (
    ALL_CARDS,
    Card,
    Rank,
    Seat,
    Suit,
    format_cards,
    latin_digits,
    parse_cards,
    persian_digits,
    sort_hand,
    team_seats,
)
from hokm.engine.errors import (
    HokmError,
    IllegalActionError,
    InvalidNotationError,
    InvalidRecordError,
    InvalidRulesError,
    NotYourTurnError,
    WrongPhaseError,
)
from hokm.engine.events import Event
from hokm.engine.game import Game, HandResult, Phase, Trick, seven_nil_result, trick_winner
from hokm.engine.records import judge, parse_record, record_from_game
from hokm.engine.rules import PRESETS, RuleSet
from hokm.engine.shuffle import deck_from_seed, new_seed, seed_commitment
from hokm.engine.views import SeatView, event_for, view_of

__all__ = [
    "ALL_CARDS",
    "PRESETS",
    "Action",
    "Card",
    "ChooseTrump",
    "Deal",
    "DecideBam",
    "DrawAces",
    "Event",
    "Game",
    "HandResult",
    "HokmError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidRecordError",
    "InvalidRulesError",
    "NotYourTurnError",
    "Phase",
    "Play",
    "Rank",
    "RequestRedeal",
    "RuleSet",
    "Seat",
    "SeatView",
    "SetHakem",
    "Suit",
    "Trick",
    "WrongPhaseError",
    "action_from_dict",
    "deck_from_seed",
    "event_for",
    "format_cards",
    "judge",
    "latin_digits",
    "new_seed",
    "parse_cards",
    "parse_record",
    "persian_digits",
    "record_from_game",
    "seed_commitment",
    "seven_nil_result",
    "sort_hand",
    "team_seats",
    "trick_winner",
    "view_of",
]
