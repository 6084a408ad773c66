"""The search bot (level "hard"): sampled deals, double-dummy outcomes, score-aware choice.

In the first tricks (``learned``, 6 by default) the bot plays the card a learned value prefers
(:mod:`hokm.bots.learned`, trained on rule-bot play), if it beats the rule bot's card: sampled
worlds cannot tell the early cards apart, and measured, the search there fixed as many cards as
it broke. From then on, for each card decision the bot

1. asks the rule bot for its card (the fallback);
2. draws worlds consistent with its view (:mod:`hokm.bots.sampling`: voids, hand sizes, the
   trump call as evidence), or lists them all when few remain (the endgame);
3. keeps the worlds that explain the other seats' last ``infer`` (8) plays: would the rule
   bot, holding those cards, have played them?
   (:class:`~hokm.bots.sampling.PlayEvidence`; a world that does not is kept only with
   probability ``miss`` per play, or weighted so in the endgame);
4. values every legal card in each world half by double-dummy solving
   (:func:`hokm.bots.dd.card_outcomes`: does our team reach 7, is it a kot either way) and
   half by playing the hand out with rule bots on all four seats
   (:class:`~hokm.bots.rollout.Playout`: each seat sees only its own cards), the
   ``playout_weight``;
5. turns outcomes into points (normal, kot, hakem-kot) capped by what the game still needs, so
   a point beyond the target is worth nothing;
6. plays the best card only if it beats the rule card by a clear margin over the same worlds.

The number of worlds follows a fixed schedule by trick (double-dummy solving is dearest early)
and a work budget metered in solver nodes and rule-bot questions, so the bot is deterministic
for a seed and a view and never reads a clock. Trump choice, the redeal request and the bam
decision are the rule bot's.

>>> from hokm.engine import Game, RuleSet, Deal, Seat, view_of
>>> game = Game(RuleSet(), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("search", Seat(0)))
>>> bot = SearchBot(seed=1, worlds=4)
>>> _ = game.apply(bot.act(view_of(game, Seat(0))))
>>> game.can(bot.act(view_of(game, Seat(0))))
True
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass

from hokm.bots.base import CardBot, legal_cards_of
from hokm.bots.dd import card_outcomes
from hokm.bots.fast import FastHand
from hokm.bots.knowledge import Knowledge
from hokm.bots.learned import card_features, early_value_model
from hokm.bots.rollout import Playout
from hokm.bots.rule import RuleBot
from hokm.bots.sampling import (
    Facts,
    PlayEvidence,
    Policy,
    cards_of,
    count_worlds,
    enumerate_worlds,
    sample_world,
)
from hokm.engine import Card, SeatView, Suit

__all__ = ["Evaluation", "SearchBot", "learned_applies", "outcome_points", "rule_policy"]

# Worlds per decision by tricks already played (0, 1, 2, …): the first tricks cost the most.
WORLD_SCHEDULE = (10, 16, 24, 32, 40, 48)  # times world_scale
# Node budget of each kot question of the own solver, by tricks already played.
KOT_NODES = (100, 200, 400, 800, 1500)
# Work budget of a decision (units ≈ µs of CPU, counted from solver nodes, so deterministic):
# sampling stops once it is spent and at least MIN_WORLDS worlds were solved.
WORK_BUDGET = 150_000
MIN_WORLDS = 6
# Tricks at the start of the hand played by the learned card value instead of the search.
LEARNED_TRICKS = 6
# The points the learned value was trained with (the default rules).
TRAINED_KOT_POINTS = 2
TRAINED_HAKEM_KOT_POINTS = 3
SAMPLE_WORK = 300  # drawing one world
CHECK_WORK = 40  # asking the rule bot what a seat would have played (play evidence)
PLAY_WORK = 45  # one rule-bot play of a playout


def learned_applies(view: SeatView, *, near_target: bool = False) -> bool:
    """Whether the learned value's training fits this hand: it was trained with the default
    kot points (2, and 3 against the hakem's team) and without a cap, so strictly it fits only
    when no points beyond the target are at stake (each team still needs at least 3). With
    ``near_target`` (the search bot's default) it is used near the target too: its uncapped
    values still rank the cards better than a search from the first trick does (measured in
    whole games, ``docs/benchmarks.md``). Kot points up to one more than trained (kot 1 to 3,
    hakem-kot 1 to 4) change the worth of the rare kot a little, not the ranking of the cards
    (measured with 2 and 2, ``docs/benchmarks.md``); with dearer kots the bot searches from
    the first trick, valuing outcomes by the rules and the score (:func:`outcome_points`).

    >>> from dataclasses import replace
    >>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
    >>> game = Game(RuleSet(), hakem=Seat(0))
    >>> _ = game.apply(Deal.from_seed("applies", Seat(0)))
    >>> _ = game.choose_trump(Suit.SPADES)
    >>> view = view_of(game, Seat(0))
    >>> learned_applies(view), learned_applies(replace(view, score=(5, 0)))
    (True, False)
    >>> [learned_applies(replace(view, rules=RuleSet(kot_points=k, hakem_kot_points=h)))
    ...  for k, h in ((2, 2), (3, 4), (4, 4), (2, 5))]
    [True, True, False, False]
    """
    rules = view.rules
    if rules.kot_points > TRAINED_KOT_POINTS + 1:
        return False
    if rules.hakem_kot_points > TRAINED_HAKEM_KOT_POINTS + 1:
        return False
    if near_target:
        return True
    return all(rules.target_points - s >= TRAINED_HAKEM_KOT_POINTS for s in view.score)


def outcome_points(outcome: int, view: SeatView) -> float:
    """The points an outcome (±1 normal, ±2 kot, from the mover's side) is worth now.

    A kot is worth ``kot_points`` to the hakem's team and ``hakem_kot_points`` to the other;
    points are capped by what each team still needs to reach the target.

    >>> from hokm.engine import Game, RuleSet, Deal, Seat, Suit, view_of
    >>> game = Game(RuleSet(), hakem=Seat(0))
    >>> _ = game.apply(Deal.from_seed("pts", Seat(0)))
    >>> _ = game.choose_trump(Suit.SPADES)
    >>> [outcome_points(o, view_of(game, Seat(0))) for o in (2, 1, -1, -2)]
    [2.0, 1.0, -1.0, -3.0]
    """
    assert view.seat is not None and view.hakem is not None
    team = view.seat & 1
    winner = team if outcome > 0 else 1 - team
    if abs(outcome) == 1:
        points = 1
    elif winner == view.hakem & 1:
        points = view.rules.kot_points
    else:
        points = view.rules.hakem_kot_points
    points = min(points, max(view.rules.target_points - view.score[winner], 1))
    return float(points if winner == team else -points)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the search found for one decision."""

    card: Card  # the card played
    rule_card: Card  # the rule bot's card
    values: dict[Card, float]  # mean points per legal card over the worlds
    worlds: int
    exact: bool  # every consistent world was examined
    work: int  # solving work, in units of about a microsecond of CPU (deterministic)


class SearchBot(CardBot):
    """Double-dummy search over sampled deals, falling back to the rule bot (module docs)."""

    name = "search"

    def __init__(
        self,
        *,
        seed: int | str = 0,
        worlds: int | None = None,
        world_scale: float = 1.0,
        margin: float = 0.08,
        exact_limit: int = 120,
        kot: bool = True,
        work_budget: int = WORK_BUDGET,
        min_t: float = 0.0,
        infer: int = 8,
        miss: float = 0.2,
        tries: int = 5,
        learned: int = LEARNED_TRICKS,
        learned_margin: float = 0.0,
        near_target: bool = True,
        playout_weight: float = 0.5,
    ) -> None:
        super().__init__(seed=seed)
        checks = (
            # (the upper bounds: far past any measured use, short of a run that never ends)
            (worlds is None or 1 <= worlds <= 10_000, "worlds must be from 1 to 10000"),
            (0 < world_scale <= 100, "world_scale must be above 0, at most 100"),
            (margin >= 0, "margin must be at least 0"),
            (0 <= exact_limit <= 10_000, "exact_limit must be from 0 to 10000"),
            (
                1 <= work_budget <= 100 * WORK_BUDGET,
                f"work_budget must be from 1 to {100 * WORK_BUDGET}",
            ),
            (min_t >= 0, "min_t must be at least 0"),
            (0 <= infer <= 52, "infer must be from 0 to 52 (plays)"),
            (0 <= miss <= 1, "miss must be from 0 to 1"),
            (1 <= tries <= 100, "tries must be from 1 to 100"),
            (0 <= learned <= 13, "learned must be from 0 to 13 (tricks)"),
            (learned_margin >= 0, "learned_margin must be at least 0"),
            (0 <= playout_weight <= 1, "playout_weight must be from 0 to 1"),
        )
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
        self.worlds = worlds
        self.world_scale = world_scale
        self.margin = margin
        self.exact_limit = exact_limit
        self.kot = kot
        self.work_budget = work_budget
        self.min_t = min_t
        self.infer = infer
        self.miss = miss
        self.tries = tries
        self.learned = learned
        self.learned_margin = learned_margin
        self.near_target = near_target
        self.playout_weight = playout_weight
        self.rule = RuleBot(seed=seed)
        self.last: Evaluation | None = None

    # The delegated decisions ------------------------------------------------------

    def choose_trump(self, view: SeatView) -> Suit:
        return self.rule.choose_trump(view)

    def wants_redeal(self, view: SeatView) -> bool:
        return self.rule.wants_redeal(view)

    def decide_bam(self, view: SeatView) -> bool:
        return self.rule.decide_bam(view)

    # The card ------------------------------------------------------------------------

    def choose_card(self, view: SeatView) -> Card:
        cards = legal_cards_of(view)
        if not cards:
            raise ValueError("no card to play in this view")
        if len(cards) == 1:
            return cards[0]
        if view.bam_going:
            # A bam is being played: the hand is decided by taking every trick (or, defending,
            # one), not by reaching 7, which is all the searches below count to (they
            # crashed here on cards with no outcome). The rule bot's bam play decides.
            return self.rule.choose_card(view)
        if len(view.tricks) < self.learned and learned_applies(view, near_target=self.near_target):
            return self.learned_card(view, cards)
        evaluation = self.evaluate(view, self.rule.choose_card(view))
        self.last = evaluation
        return evaluation.card

    def learned_card(self, view: SeatView, cards: list[Card]) -> Card:
        """The first tricks' card: the learned value's best card if it beats the rule card by
        more than ``learned_margin`` points (:mod:`hokm.bots.learned`), else the rule card.

        The model was trained with the legal cards in index order, where the rule bot breaks
        ties between equal cards by that order; so the rule card it knows is asked that way,
        and the rule bot's own card (legal cards in the view's order) is the fallback.
        """
        knowledge = Knowledge.from_view(view)
        values, trained_rule = self.learned_values(view, cards, knowledge)
        best = max(values, key=lambda c: (values[c], c == trained_rule))
        if values[best] - values[trained_rule] > self.learned_margin:
            return best
        if list(values) == cards:  # the view lists its cards in index order too
            return trained_rule
        return self.rule.card_from(knowledge, cards, bam_going=view.bam_going)

    def learned_values(
        self, view: SeatView, cards: list[Card], knowledge: Knowledge | None = None
    ) -> tuple[dict[Card, float], Card]:
        """The learned value of each legal card (in index order) and the rule card as the model
        knows it."""
        knowledge = knowledge or Knowledge.from_view(view)
        ordered = sorted(cards, key=lambda c: c.index)
        trained_rule = self.rule.card_from(knowledge, ordered, bam_going=view.bam_going)
        rows = card_features(knowledge, ordered, trained_rule)
        return dict(zip(ordered, early_value_model().values(rows), strict=True)), trained_rule

    def evaluate(self, view: SeatView, rule_card: Card) -> Evaluation:
        """Search the view; the card is the best one if it beats ``rule_card`` clearly."""
        facts = Facts.from_view(view)
        played = len(view.tricks)
        n = self.worlds or max(
            1, round(self.world_scale * WORLD_SCHEDULE[min(played, len(WORLD_SCHEDULE) - 1)])
        )
        kot_nodes = KOT_NODES[min(played, len(KOT_NODES) - 1)]
        exact = count_worlds(facts) <= self.exact_limit
        meter = [0]
        evidence = (
            PlayEvidence(view, rule_policy(self.rule), plays=self.infer, miss=self.miss)
            if self.infer
            else None
        )
        weighted: Iterator[tuple[list[int], float]]
        if exact:
            weighted = enumerate_worlds(facts)
            if evidence is not None:
                weighted = _weigh(weighted, evidence, meter)
        else:
            rng = random.Random(f"{self.seed}|{_view_key(view)}")
            if evidence is None:
                weighted = ((sample_world(facts, rng), 1.0) for _ in range(n))
            else:
                weighted = ((_draw(facts, evidence, rng, self.tries, meter), 1.0) for _ in range(n))
        assert view.trump is not None and view.leader is not None and view.hakem is not None
        trick = [c.index for _, c in view.trick]
        points = {o: outcome_points(o, view) for o in (2, 1, -1, -2)}
        totals: dict[int, float] = {}
        per_world: list[tuple[float, dict[int, float]]] = []  # (weight, card points) per world
        weight_sum = 0.0
        count = 0
        pw = self.playout_weight
        base: Playout | None = None
        legal = legal_cards_of(view)
        for world, weight in weighted:
            if not exact and count >= MIN_WORLDS and meter[0] > self.work_budget:
                break  # the dearest positions get fewer worlds
            count += 1
            meter[0] += SAMPLE_WORK
            hand = FastHand(
                world,
                view.trump.ordinal,
                int(view.leader),
                hakem=int(view.hakem),
                trick=trick,
                won=view.tricks_won,
            )
            outcomes = card_outcomes(hand, kot=self.kot, kot_nodes=kot_nodes, meter=meter)
            mixed = {index: (1 - pw) * points[outcome] for index, outcome in outcomes.items()}
            if pw > 0:
                base = base or Playout.from_view(view, world)
                for card in legal:
                    outcome = self._playout_outcome(base, world, card, meter)
                    mixed[card.index] += pw * points[outcome]
            for index, value in mixed.items():
                totals[index] = totals.get(index, 0.0) + weight * value
            weight_sum += weight
            per_world.append((weight, mixed))
        values = {Card.from_index(c): v / max(weight_sum, 1e-9) for c, v in totals.items()}
        best = max(values, key=lambda c: (values[c], c is rule_card, -c.rank))
        gain = values[best] - values[rule_card]
        card = rule_card
        if gain > self.margin and (
            self.min_t <= 0 or self._t_value(per_world, best, rule_card) >= self.min_t
        ):
            card = best
        return Evaluation(card, rule_card, values, count, exact, meter[0])

    def _playout_outcome(
        self, base: Playout, world: list[int], card: Card, meter: list[int]
    ) -> int:
        """The hand's outcome for the mover's side (±1, ±2 with a kot) when it plays ``card``
        and every seat then plays on as the rule bot, in ``world``."""
        team = base.to_move & 1
        playout = base.copy(world)
        playout.play(card)
        before = playout.tricks_played
        won = playout.finish()
        meter[0] += PLAY_WORK * 4 * (playout.tricks_played - before + 1)
        if won[team] >= 7:
            outcome = 2 if won[1 - team] == 0 else 1
        else:
            outcome = -2 if won[team] == 0 else -1
        return outcome if self.kot else (1 if outcome > 0 else -1)

    @staticmethod
    def _t_value(
        per_world: list[tuple[float, dict[int, float]]], best: Card, rule_card: Card
    ) -> float:
        """The gain of ``best`` over ``rule_card`` in standard errors of the paired differences
        of the worlds' (mixed) card points."""
        total = sum(w for w, _ in per_world)
        diffs = [(w, pts[best.index] - pts[rule_card.index]) for w, pts in per_world]
        mean = sum(w * d for w, d in diffs) / total
        var = sum(w * (d - mean) ** 2 for w, d in diffs) / total
        n = len(diffs)
        if var <= 0 or n < 2:
            return float("inf") if mean > 0 else 0.0
        return float(mean / (var / (n - 1)) ** 0.5)


class _RulePolicy:
    """The rule bot as a :class:`~hokm.bots.sampling.Policy`: its knowledge of a past view is
    built once, and only the hand is set per world."""

    def __init__(self, rule: RuleBot) -> None:
        self.rule = rule

    def prepare(self, view: SeatView) -> object:
        return Knowledge.from_view(view)

    def card(self, prepared: object, view: SeatView, hand: int, legal: int) -> Card:
        assert isinstance(prepared, Knowledge)
        k = copy.copy(prepared)
        k.hand = tuple(cards_of(hand))
        k.hand_mask = hand
        k.unseen = prepared.unseen & ~hand
        cards = cards_of(legal)
        if len(cards) == 1:
            return cards[0]
        return self.rule.card_from(k, cards, bam_going=view.bam_going)


def rule_policy(rule: RuleBot) -> Policy:
    """The rule bot as a model of how the other seats play (for :class:`PlayEvidence`)."""
    return _RulePolicy(rule)


def _weigh(
    worlds: Iterator[tuple[list[int], float]], evidence: PlayEvidence, meter: list[int]
) -> Iterator[tuple[list[int], float]]:
    """The worlds with their weights times the play evidence's likelihood."""
    for world, weight in worlds:
        likelihood, calls = evidence.likelihood(world)
        meter[0] += calls * CHECK_WORK
        yield world, weight * likelihood


def _draw(
    facts: Facts, evidence: PlayEvidence, rng: random.Random, tries: int, meter: list[int]
) -> list[int]:
    """A world accepted by the play evidence, or after ``tries`` candidates the one that
    passed the most plays."""
    best: list[int] | None = None
    best_passed = -1
    for _ in range(tries):
        world = sample_world(facts, rng)
        accepted, passed, calls = evidence.test(world, rng)
        meter[0] += calls * CHECK_WORK + (SAMPLE_WORK if best is not None else 0)
        if accepted:
            return world
        if passed > best_passed:
            best, best_passed = world, passed
    assert best is not None
    return best


def _view_key(view: SeatView) -> str:
    """A text that fixes the decision's random stream: the seat, its cards, the plays so far."""
    played = "".join(str(c) for _, c in view.played)
    hand = "".join(str(c) for c in view.hand)
    return f"{view.hand_number}|{view.seat}|{view.score}|{hand}|{played}"
