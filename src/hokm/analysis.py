"""Double-dummy analysis of a recorded game: which plays gave a hand away.

After a game every card is known, so each play can be judged as if all four seats had been
visible (double-dummy): for every legal card, the hand's outcome for the player's team if all
four seats played perfectly from there (a kot, a win, a loss or a kot against it) and the most
tricks the team could then take. A play whose outcome is proven worse than another card's gave
points away; that is a **mistake** here. Trick counts are shown but do not make a mistake on their
own: a hand ends at 7 tricks, so a trick more or less changes nothing unless it changes who
reaches 7 or a kot.

Double-dummy is a judge with hindsight, not a verdict on a player: the card it prefers is the
best one *for these cards*, which a player could not see. A mistake that costs the hand early
often had no better card on the information the player had; late in a hand most are real.

The whole-hand outcome uses DDS (``endplay``) for "who reaches 7", which is exact, and the own
solver for kots, with a node budget (``kot_nodes``): a kot it cannot settle within the budget is
shown as no kot, and a card is a mistake only when even its best case (the unsettled kot) is
worse than another card's worst case, so the budget can hide a mistake but never make one up.
Plays after the 7th trick (a bam) are not judged.

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

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hokm.bots import legal_cards_of, make_bot
from hokm.bots.fast import FastHand, hand_points
from hokm.engine import Card, Game, Play, RuleSet, SeatView, Suit, view_of
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

log = logging.getLogger(__name__)

KOT_NODES = 3000  # the own solver's budget per kot question (the bot's is 100–1,500)
BOT_LEVEL = "hard"  # the bot asked for a second opinion on each mistake
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
    _, points = hand_points(  # RULES.md §6, as the fast engine scores a hand
        winner,
        0 if abs(outcome) == 2 else 1,
        hakem & 1,
        kot_points=rules.kot_points,
        hakem_kot_points=rules.hakem_kot_points,
    )
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
    mistake: bool = False  # proven: the card's best case is worse than another card's worst
    kot_unsettled: bool = False  # the played card's kot question ran out of nodes
    # For a mistake: the card the hard bot plays from the same seat's view (what the player
    # could know), and whether that card avoids the mistake (None: not asked).
    bot_card: str | None = None
    bot_avoids: bool | None = None
    worse: tuple[str, ...] = ()  # every legal card that would have been a mistake here

    @property
    def unsettled(self) -> bool:
        """Below the best on its face but not a proven mistake: a kot question (this card's or
        the better cards') was not settled, so the comparison is open."""
        return not self.mistake and self.outcome < self.best_outcome

    @property
    def points_lost(self) -> int:
        """The points a mistake gave away (0 for a play that is not a proven mistake)."""
        return self.best_points - self.points if self.mistake else 0

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
            "kot_unsettled": self.kot_unsettled,
            "unsettled": self.unsettled,
            "bot_card": self.bot_card,
            "bot_avoids": self.bot_avoids,
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
    start_exact: bool = True  # False: a kot at the deal was not settled (start shows none)
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
            "start_exact": self.start_exact,
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
    truncated: bool = False  # only the first ``max_hands`` hands were analysed

    def seat_totals(self) -> list[dict[str, int]]:
        totals = [
            {"seat": s, "choices": 0, "mistakes": 0, "points_lost": 0, "avoidable": 0}
            for s in range(4)
        ]
        for hand in self.hands:
            for note in hand.notes:
                row = totals[note.seat]
                row["choices"] += 1
                if note.mistake:
                    row["mistakes"] += 1
                    row["points_lost"] += note.points_lost
                    row["avoidable"] += bool(note.bot_avoids)
        return totals

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": True,
            "hands": [h.to_dict() for h in self.hands],
            "seats": self.seat_totals(),
            "truncated": self.truncated,
        }


def analyse(
    record: object,
    *,
    kot_nodes: int = KOT_NODES,
    max_hands: int | None = None,
    bot: str | None = BOT_LEVEL,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Judge every play of a valid ``hokm-record/1`` double-dummy (module docs); with
    ``max_hands``, only the first that many hands (the report says ``truncated``). For each
    mistake the ``bot`` level (None: no bot) is asked what it plays from the seat's own view,
    which tells a mistake a player could have avoided from one only hindsight shows.
    ``progress(done, total)`` is called before each hand and once at the end.

    Raises :class:`~hokm.engine.errors.InvalidRecordError` for input that is not a record and
    :class:`RecordBrokenError` for a record that breaks a rule (the referee's error).
    """
    if bot is not None:
        make_bot(bot)  # an unknown level is refused before any work
    parsed = record if isinstance(record, Record) else parse_record(record)
    views: dict[tuple[int, int], SeatView] = {}

    def keep_view(game: Game, hand: int, play: int) -> None:
        if (max_hands is None or hand < max_hands) and len(game.legal_actions()) > 1:
            views[hand, play] = view_of(game, game.to_move)

    verdict = referee(parsed, observer=keep_view if bot is not None else None)
    if not verdict.report["ok"]:
        raise RecordBrokenError(verdict.report["error"])
    assert verdict.game is not None
    rules = verdict.game.rules
    hands: list[HandAnalysis] = []
    truncated = False
    total = len(parsed.hands) if max_hands is None else min(max_hands, len(parsed.hands))
    for index, (hand, summary) in enumerate(
        zip(parsed.hands, verdict.report["hands"], strict=True)
    ):
        if max_hands is not None and index >= max_hands:
            truncated = True
            break
        if progress is not None:
            progress(index, total)
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
        if bot is not None:
            judged = _second_opinion(judged, views, bot)
        hands.append(
            replace(
                judged,
                result=summary["result"],
                winner_team=summary["winner_team"],
                tricks=(int(summary["tricks"][0]), int(summary["tricks"][1])),
            )
        )
    if progress is not None:
        progress(total, total)
    return GameAnalysis(tuple(hands), truncated)


def analysis_report(record: object, max_hands: int | None = None) -> dict[str, Any]:
    """:func:`analyse` as JSON data (a top-level function, so a worker process can run it)."""
    return analyse(record, max_hands=max_hands).to_dict()


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
    start_exact = True
    judged = 0
    for number, text in enumerate(plays):
        if fast.is_over:
            break  # a bam: the hand was decided at 7 tricks
        card = Card.parse(text).index
        seat = fast.to_move
        team = seat & 1
        legal = fast.legal_mask()
        if start is None or legal & (legal - 1):  # a forced play needs no judging
            judged_cards = _outcomes(fast, kot_nodes)
            if start is None:  # the hakem leads: its team's view
                best = max(value for value, _, _ in judged_cards.values())
                start = best if team == hakem & 1 else -best
                start_exact = max(lo for _, lo, _ in judged_cards.values()) == max(
                    hi for _, _, hi in judged_cards.values()
                )
            if legal & (legal - 1):
                notes.append(_note(fast, number, card, rules, judged_cards))
        judged += 1
        fast.play(card)
    return HandAnalysis(index, hakem, trump.value, start, tuple(notes), judged, start_exact)


def _outcomes(fast: FastHand, kot_nodes: int) -> dict[int, tuple[int, int, int]]:
    """For each legal card: its outcome for the mover's team (a kot the solver could not
    settle counts as none, as :func:`~hokm.bots.dd.card_outcomes` says) and the lowest and
    highest the outcome can be."""
    from hokm.bots.dd import card_outcome_bounds  # (DDS: loaded when first needed)

    return {
        card: (low if low > 0 else high, low, high)
        for card, (low, high) in card_outcome_bounds(fast, kot_nodes=kot_nodes).items()
    }


def _note(
    fast: FastHand,
    number: int,
    card: int,
    rules: RuleSet,
    judged: dict[int, tuple[int, int, int]],
) -> PlayNote:
    seat = fast.to_move
    team = seat & 1

    def points(outcome: int) -> int:
        return outcome_points(outcome, team, fast.hakem, rules)

    from hokm.bots.dd import dds_card_scores  # (DDS: loaded when first needed)

    outcomes = {c: value for c, (value, _, _) in judged.items()}
    tricks = dds_card_scores(fast)
    best_outcome = max(outcomes.values())
    best_tricks = max(tricks[c] for c, o in outcomes.items() if o == best_outcome)
    best = tuple(
        _text(c)
        for c in sorted(outcomes)
        if outcomes[c] == best_outcome and tricks[c] == best_tricks
    )
    _, low, high = judged[card]
    floor = max(points(lo) for _, lo, _ in judged.values())  # the best card's worst case
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
        points=points(outcomes[card]),
        best_points=points(best_outcome),
        # proven: even the card's best case is worth fewer points than another card's worst
        mistake=points(high) < floor,
        kot_unsettled=low != high,
        worse=tuple(_text(c) for c in sorted(judged) if points(judged[c][2]) < floor),
    )


def _second_opinion(
    hand: HandAnalysis, views: Mapping[tuple[int, int], SeatView], level: str
) -> HandAnalysis:
    """Each mistake with the card the ``level`` bot plays from the seat's view, and whether
    that card avoids the mistake (judged like the played card, from the same outcomes)."""

    notes = []
    for note in hand.notes:
        view = views.get((hand.hand, note.play))
        card = None
        if note.mistake and view is not None:
            try:
                action = make_bot(level, seed=f"analysis/{hand.hand}/{note.play}").act(
                    _as_a_lone_hand(view)
                )
            except Exception:
                log.exception("analysis: the %s bot failed on a view", level)
            else:
                if isinstance(action, Play) and action.card in legal_cards_of(view):
                    card = str(action.card)
        if card is not None:
            notes.append(replace(note, bot_card=card, bot_avoids=card not in note.worse))
        else:
            notes.append(note)
    return replace(hand, notes=tuple(notes))


def _as_a_lone_hand(view: SeatView) -> SeatView:
    """The view with the score at 0–0 and a target no hand reaches, so the bot values a kot
    as the analysis does (the score's target not applied), not as worthless near the end."""
    rules = view.rules
    target = max(rules.target_points, rules.kot_points, rules.hakem_kot_points) + 1
    return dataclasses.replace(view, score=(0, 0), rules=rules.replace(target_points=target))


def _text(index: int) -> str:
    return str(Card.from_index(index))
