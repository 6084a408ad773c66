"""Double-dummy analysis of a recorded game: which plays gave a hand away.

After a game every card is known, so each play can be judged as if all four seats had been
visible (double-dummy): for every legal card, the hand's outcome for the player's team if all
four seats played perfectly from there (a kot, a win, a loss or a kot against it) and the most
tricks the team could then take. A play whose outcome is worse than the best card's gave points
away; that is a **mistake** here. Trick counts are shown but do not make a mistake on their
own: a hand ends at 7 tricks, so a trick more or less changes nothing unless it changes who
reaches 7 or a kot.

Double-dummy is a judge with hindsight, not a verdict on a player: the card it prefers is the
best one *for these cards*, which a player could not see. A mistake that costs the hand early
often had no better card on the information the player had; late in a hand most are real.

The whole-hand outcome uses DDS (``endplay``) for "who reaches 7" and the own solver for kots,
with a node budget (``kot_nodes``): a kot it cannot settle within the budget counts as no kot,
which early in a hand is nearly always right. Plays after the 7th trick (a bam) are not judged.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, Phase
>>> from hokm.engine.records import record_from_game
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("analysis", Seat(0)))
>>> _ = game.choose_trump("S")
>>> while game.phase is Phase.PLAY:
...     _ = game.play(game.legal_cards()[0])
>>> report = analyse(record_from_game(game))
>>> len(report.hands), report.hands[0].trump
(1, 'S')
>>> all(n.points_lost >= 0 for n in report.hands[0].notes)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hokm.bots.dd import card_outcomes, dds_card_scores
from hokm.bots.fast import FastHand
from hokm.engine import Card, RuleSet, Suit
from hokm.engine.records import Record, parse_record, referee

__all__ = [
    "GameAnalysis",
    "HandAnalysis",
    "PlayNote",
    "RecordBrokenError",
    "analyse",
    "analysis_report",
    "outcome_points",
]

KOT_NODES = 3000  # the own solver's budget per kot question (the bot's is 100–1,500)
TRICKS_TO_WIN = 7


class RecordBrokenError(ValueError):
    """The record breaks a rule: the referee's error, which analysis cannot go past."""

    def __init__(self, error: Mapping[str, Any]) -> None:
        self.error = dict(error)
        super().__init__(str(error.get("reason", "the record breaks a rule")))


def outcome_points(outcome: int, team: int, hakem: int, rules: RuleSet) -> int:
    """The points of a double-dummy outcome (±1 a normal hand, ±2 a kot) for ``team``.

    A kot is worth ``kot_points`` to the hakem's team and ``hakem_kot_points`` to the other
    (RULES.md §6); the score's target is not applied (a hand is judged on its own).

    >>> rules = RuleSet()
    >>> [outcome_points(o, 0, 0, rules) for o in (2, 1, -1, -2)]
    [2, 1, -1, -3]
    """
    winner = team if outcome > 0 else 1 - team
    if abs(outcome) == 1:
        points = 1
    elif winner == hakem & 1:
        points = rules.kot_points
    else:
        points = rules.hakem_kot_points
    return points if winner == team else -points


@dataclass(frozen=True, slots=True)
class PlayNote:
    """One play with a choice, judged double-dummy."""

    play: int  # index of the play in the hand (0-based, as in the record)
    trick: int  # 1-based trick number
    seat: int
    card: str  # as in records, e.g. "KH"
    choices: int  # legal cards the seat had
    outcome: int  # the hand's outcome for the seat's team after this card: -2, -1, 1, 2
    best_outcome: int
    tricks: int  # tricks the seat's team takes from here (current trick included) after it
    best_tricks: int  # the most after any card that reaches the best outcome
    best: tuple[str, ...]  # the cards that reach the best outcome with the most tricks
    points: int  # the outcome's points for the seat's team
    best_points: int

    @property
    def points_lost(self) -> int:
        return self.best_points - self.points

    @property
    def mistake(self) -> bool:
        return self.outcome < self.best_outcome

    def to_dict(self) -> dict[str, Any]:
        return {
            "play": self.play,
            "trick": self.trick,
            "seat": self.seat,
            "card": self.card,
            "choices": self.choices,
            "outcome": self.outcome,
            "best_outcome": self.best_outcome,
            "tricks": self.tricks,
            "best_tricks": self.best_tricks,
            "best": list(self.best),
            "points": self.points,
            "best_points": self.best_points,
            "points_lost": self.points_lost,
            "mistake": self.mistake,
        }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The double-dummy story of one hand."""

    hand: int  # 0-based, as in the record
    hakem: int
    trump: str  # "S", "H", "D" or "C"
    start: int | None  # the hand's outcome for the hakem's team before the first card
    notes: tuple[PlayNote, ...]  # the plays with a choice, in order
    judged: int  # plays judged (with or without a choice); later plays came after the 7th trick
    result: str | None = None  # as the referee scores it (None: the hand is unfinished)
    winner_team: int | None = None
    tricks: tuple[int, int] = (0, 0)

    @property
    def mistakes(self) -> tuple[PlayNote, ...]:
        return tuple(n for n in self.notes if n.mistake)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "hakem": self.hakem,
            "trump": self.trump,
            "start": self.start,
            "judged": self.judged,
            "result": self.result,
            "winner_team": self.winner_team,
            "tricks": list(self.tricks),
            "plays": [n.to_dict() for n in self.notes],
            "mistakes": [n.play for n in self.mistakes],
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """Every hand of a record, and each seat's mistakes and the points they gave away."""

    hands: tuple[HandAnalysis, ...]

    def seat_totals(self) -> list[dict[str, int]]:
        totals = [{"seat": s, "choices": 0, "mistakes": 0, "points_lost": 0} for s in range(4)]
        for hand in self.hands:
            for note in hand.notes:
                row = totals[note.seat]
                row["choices"] += 1
                if note.mistake:
                    row["mistakes"] += 1
                    row["points_lost"] += note.points_lost
        return totals

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": True,
            "hands": [h.to_dict() for h in self.hands],
            "seats": self.seat_totals(),
        }


def analyse(record: object, *, kot_nodes: int = KOT_NODES) -> GameAnalysis:
    """Judge every play of a valid ``hokm-record/1`` double-dummy (module docs).

    Raises :class:`~hokm.engine.errors.InvalidRecordError` for input that is not a record and
    :class:`RecordBrokenError` for a record that breaks a rule (the referee's error).
    """
    parsed = record if isinstance(record, Record) else parse_record(record)
    verdict = referee(parsed)
    if not verdict.report["ok"]:
        raise RecordBrokenError(verdict.report["error"])
    assert verdict.game is not None
    rules = verdict.game.rules
    hands: list[HandAnalysis] = []
    for index, (hand, summary) in enumerate(
        zip(parsed.hands, verdict.report["hands"], strict=True)
    ):
        if hand.trump is None or summary["hakem"] is None:
            continue  # dealt, trump not named yet: nothing was played
        judged = _analyse_hand(
            index,
            int(summary["hakem"]),
            Suit.parse(hand.trump),
            hand.cards,
            hand.plays,
            rules,
            kot_nodes,
        )
        hands.append(
            replace(
                judged,
                result=summary["result"],
                winner_team=summary["winner_team"],
                tricks=(int(summary["tricks"][0]), int(summary["tricks"][1])),
            )
        )
    return GameAnalysis(tuple(hands))


def analysis_report(record: object) -> dict[str, Any]:
    """:func:`analyse` as JSON data (a top-level function, so a worker process can run it)."""
    return analyse(record).to_dict()


def _analyse_hand(
    index: int,
    hakem: int,
    trump: Suit,
    cards: Sequence[Sequence[str]],
    plays: Sequence[str],
    rules: RuleSet,
    kot_nodes: int,
) -> HandAnalysis:
    masks = [sum(1 << Card.parse(text).index for text in seat) for seat in cards]
    fast = FastHand(masks, trump.ordinal, hakem, hakem=hakem)
    notes: list[PlayNote] = []
    start: int | None = None
    judged = 0
    for number, text in enumerate(plays):
        if fast.is_over:
            break  # a bam: the hand was decided at 7 tricks
        card = Card.parse(text).index
        seat = fast.to_move
        team = seat & 1
        legal = fast.legal_mask()
        if start is None:
            outcomes = card_outcomes(fast, kot_nodes=kot_nodes)
            best = max(outcomes.values())
            start = best if team == hakem & 1 else -best
        if legal & (legal - 1):
            notes.append(_note(fast, number, card, rules, kot_nodes))
        judged += 1
        fast.play(card)
    return HandAnalysis(index, hakem, trump.value, start, tuple(notes), judged)


def _note(fast: FastHand, number: int, card: int, rules: RuleSet, kot_nodes: int) -> PlayNote:
    seat = fast.to_move
    team = seat & 1
    outcomes = card_outcomes(fast, kot_nodes=kot_nodes)
    tricks = dds_card_scores(fast)
    best_outcome = max(outcomes.values())
    best_tricks = max(tricks[c] for c, o in outcomes.items() if o == best_outcome)
    best = tuple(
        _text(c)
        for c in sorted(outcomes)
        if outcomes[c] == best_outcome and tricks[c] == best_tricks
    )
    return PlayNote(
        play=number,
        trick=fast.tricks_played + 1,
        seat=seat,
        card=_text(card),
        choices=len(outcomes),
        outcome=outcomes[card],
        best_outcome=best_outcome,
        tricks=tricks[card],
        best_tricks=best_tricks,
        best=best,
        points=outcome_points(outcomes[card], team, fast.hakem, rules),
        best_points=outcome_points(best_outcome, team, fast.hakem, rules),
    )


def _text(index: int) -> str:
    return str(Card.from_index(index))
