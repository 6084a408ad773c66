"""The arena: two bots compared on duplicate boards, plus a match of whole games.

A **board** is one deal (a seed and a hakem seat). It is played twice with the same cards in
the same seats: first bot A holds seats 0 and 2 and bot B seats 1 and 3, then the teams swap.
The luck of the cards cancels; what remains is the difference between the bots. For each
board the arena records A's net points (A's points minus B's, summed over both plays) and the
hands A won; the mean net comes with a Student-t 95 % interval, or none from fewer than two
boards or from boards that all came out the same (no spread to measure). The **match** plays
whole games to the target with common random deals (each game seed played twice, teams
swapped) and reports A's game-win rate with a Wilson interval (none from no game).
Every decision is timed per bot and per trick number.

The logic is pure apart from the clock, which is injectable.

>>> report = run_arena("rule", "random", boards=4, seed="doc", games=2)
>>> report.boards, report.hands
(4, 8)
>>> report.net.mean > 0
True
"""

from __future__ import annotations

import inspect
import math
import statistics
import time
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hokm.bots import Bot, EasyBot, NaiveBot, RandomBot, RuleBot, search_bot_class
from hokm.engine import Deal, DrawAces, Game, Phase, RuleSet, Seat, SetHakem, view_of

__all__ = [
    "ArenaReport",
    "Interval",
    "Standing",
    "TimingStats",
    "TournamentReport",
    "bot_factory",
    "json_number",
    "mean_interval",
    "paired_difference",
    "run_arena",
    "run_tournament",
    "t_quantile",
    "wilson_interval",
]

_SEATS = tuple(Seat)
Clock = Callable[[], float]
BotFactory = Callable[[str], Bot]
Progress = Callable[[str, int, int, "ArenaReport"], None]

# ---------------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with a 95 % confidence interval. No interval (too few samples, or none
    with any spread) has the bounds ±infinity; no estimate at all (no sample) a NaN mean."""

    mean: float
    low: float
    high: float

    @property
    def known(self) -> bool:
        """True when there is an interval (finite bounds)."""
        return math.isfinite(self.low) and math.isfinite(self.high)

    def to_dict(self) -> dict[str, float | None]:
        """JSON data: a value that is not known (no interval: ±infinity; no estimate: NaN) is
        ``null``, as JSON has neither; a zero is never written ``-0.0``.

        >>> Interval(-0.0, -math.inf, math.inf).to_dict()
        {'mean': 0.0, 'low': None, 'high': None}
        """
        return {k: json_number(v) for k, v in self.items()}

    def items(self) -> list[tuple[str, float]]:
        return [("mean", self.mean), ("low", self.low), ("high", self.high)]


def json_number(value: float) -> float | None:
    """``value`` as the JSON reports write it: ``None`` (null) when it is not finite, and
    ``0.0`` for ``-0.0``, which reads as a loss that is not there.

    >>> json_number(-0.0), json_number(math.nan), json_number(-0.5)
    (0.0, None, -0.5)
    """
    return value + 0.0 if math.isfinite(value) else None


# The two-sided 95 % quantiles of Student's t, for 1 to 30 degrees of freedom.
_T95 = (
    *(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228),
    *(2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086),
    *(2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042),
)
_Z95 = 1.959964


def t_quantile(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom: a table up
    to 30, then the Cornish–Fisher series, which goes on from the table to the normal's 1.96.

    >>> t_quantile(1), t_quantile(3), round(t_quantile(31), 3), round(t_quantile(10**6), 3)
    (12.706, 3.182, 2.039, 1.96)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom are at least 1, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean with a Student-t 95 % interval (3 boards: t = 4.30, not the normal's 1.96).

    Fewer than two values, or values that are all the same, give no interval (bounds
    ±infinity, ``null`` in JSON) rather than one of zero width: a sample without spread says
    nothing about the spread. No value at all gives no mean either (NaN).

    >>> mean_interval([1.0, -1.0, 1.0, -1.0]).low < 0 < mean_interval([1.0, -1.0]).high
    True
    >>> mean_interval([2.0, 2.0, 2.0]).known, mean_interval([2.0]).known
    (False, False)
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, -math.inf, math.inf)
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if n > 1 else 0.0
    if spread == 0:
        return Interval(mean, -math.inf, math.inf)
    half = t_quantile(n - 1) * spread / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[Interval, int]:
    """The mean per-board difference of two arena runs on the same boards, with its 95 %
    interval, and how many boards differ at all.

    Two variants of a bot played against the same opponent with the same seed meet the same
    deals, so most boards come out equal and the paired difference is far tighter than the
    difference of the two runs' own intervals (``board_net`` of ``hokm arena --json``).

    >>> interval, differing = paired_difference([2.0, 0.0, 1.0, -1.0], [0.0, 0.0, 1.0, -1.0])
    >>> interval.mean, differing
    (0.5, 1)
    """
    if len(a) != len(b):
        raise ValueError(f"the runs have {len(a)} and {len(b)} boards: pair runs of equal size")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    return mean_interval(diffs), sum(1 for d in diffs if d)


def wilson_interval(wins: float, n: int, *, z: float = 1.96) -> Interval:
    """The Wilson score interval of a proportion ``wins / n``.

    No trial (``n`` 0) gives no rate at all: NaN, ``null`` in JSON (not a rate of 0).

    >>> round(wilson_interval(50, 100).low, 3), round(wilson_interval(50, 100).high, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 0).to_dict()
    {'mean': None, 'low': None, 'high': None}
    """
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class TimingStats:
    """Decision times of one bot, in seconds, overall and per trick (index 0–12; numbered from
    1 in :meth:`to_dict`)."""

    all: list[float] = field(default_factory=list)
    by_trick: dict[int, list[float]] = field(default_factory=dict)

    def add(self, trick: int | None, seconds: float) -> None:
        self.all.append(seconds)
        if trick is not None:
            self.by_trick.setdefault(trick, []).append(seconds)

    @staticmethod
    def summary(values: list[float]) -> dict[str, float]:
        if not values:
            return {"n": 0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
        return {
            "n": len(values),
            "median_ms": statistics.median(ordered) * 1000,
            "p95_ms": p95 * 1000,
            "max_ms": ordered[-1] * 1000,
        }

    def to_dict(self) -> dict[str, Any]:
        # Keyed by the trick's number from 1, as the text report ("trick  1") and the
        # analysis's ``trick`` count; not by the index 0–12.
        return {
            **self.summary(self.all),
            "by_trick": {str(t + 1): self.summary(v) for t, v in sorted(self.by_trick.items())},
        }


# ---------------------------------------------------------------------- bots by name


def _parse_value(text: str) -> object:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


_CLASSES: dict[str, Callable[[], type[Bot]]] = {
    "random": lambda: RandomBot,
    "naive": lambda: NaiveBot,
    "easy": lambda: EasyBot,
    "rule": lambda: RuleBot,
    "medium": lambda: RuleBot,
    "search": search_bot_class,
    "hard": search_bot_class,
}


def bot_factory(spec: str) -> BotFactory:
    """A factory of bots from a spec ``name[:option=value,...]``, e.g. ``rule:lead_queen=off``.

    Names: random, naive, easy, rule (= medium), search (= hard). Options are keyword
    arguments of the bot class.

    >>> bot_factory("rule:trump_policy=longest")("s").trump_policy
    'longest'
    """
    name, colon, opts = spec.partition(":")
    if colon and not opts.strip(", "):
        raise ValueError(f"bot {spec!r}: no option after ':' (name:key=value,…, or the name alone)")
    if name not in _CLASSES:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(_CLASSES)}")
    cls = _CLASSES[name]()
    kinds = _option_kinds(cls)
    kwargs: dict[str, object] = {}
    for item in filter(None, opts.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise ValueError(f"bot option {item!r} is not key=value")
        if key == "seed":
            raise ValueError("a bot's seed comes from --seed, not from an option")
        if key not in kinds:
            known = ", ".join(kinds) or "none"
            raise ValueError(f"bot {name!r} has no option {key!r} (its options: {known})")
        kwargs[key] = _checked(name, key, kinds[key], _parse_value(value.strip()))

    def make(seed: str) -> Bot:
        return cls(seed=seed, **kwargs)

    try:
        make("check")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from exc
    return make


def _canonical(spec: str) -> str:
    """One spelling of a bot spec: ``medium:`` and ``rule`` are the same bot (the same class),
    options sorted, an option given twice taken as the bot takes it (the last), and an option
    at its default value left out (``rule:lead_queen=off`` is the rule bot itself).

    >>> _canonical("medium:trump_policy=strength,lead_queen=no") == _canonical("rule")
    True
    >>> _canonical("rule:lead_queen=on, trump_policy=longest")
    'RuleBot:lead_queen=True,trump_policy=longest'
    """
    name, _, opts = spec.partition(":")
    if name not in _CLASSES:
        return spec  # (refused by bot_factory)
    cls = _CLASSES[name]()
    kinds = _option_kinds(cls)
    defaults = {
        p.name: p.default
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.default is not p.empty
    }
    given: dict[str, str] = {}
    for item in filter(None, (item.strip() for item in opts.split(","))):
        key, _, text = item.partition("=")
        key = key.strip()
        try:
            value = _checked(name, key, kinds[key], _parse_value(text.strip()))
        except (KeyError, ValueError):  # (refused by bot_factory)
            given[key] = text.strip()
            continue
        if key in defaults and type(value) is type(defaults[key]) and value == defaults[key]:
            given.pop(key, None)
        else:
            given[key] = str(value)
    items = sorted(f"{key}={value}" for key, value in given.items())
    return ":".join([cls.__name__, *([",".join(items)] if items else [])])


def _option_kinds(cls: type[Bot]) -> dict[str, set[type]]:
    """The keyword options of a bot class (all but ``seed``) and the types each accepts."""
    hints = typing.get_type_hints(cls.__init__)
    kinds: dict[str, set[type]] = {}
    for param in inspect.signature(cls.__init__).parameters.values():
        if param.kind is not param.KEYWORD_ONLY or param.name == "seed":
            continue
        hint = hints.get(param.name, object)
        args = typing.get_args(hint) or (hint,)
        kinds[param.name] = {a for a in args if isinstance(a, type)}
    return kinds


def _checked(bot: str, key: str, kinds: set[type], value: object) -> object:
    """``value`` as option ``key`` takes it (an int where a float is taken), or a clear error."""
    if type(None) in kinds and isinstance(value, str) and value.lower() == "none":
        return None
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"option {key!r} of bot {bot!r} takes a finite number, not {value!r}")
    if bool in kinds:
        if not isinstance(value, bool):
            raise ValueError(f"option {key!r} of bot {bot!r} is on or off, not {value!r}")
        return value
    if isinstance(value, bool):  # on/off for a number or a word
        raise ValueError(f"option {key!r} of bot {bot!r} takes no on/off value")
    if int in kinds and isinstance(value, int):
        return value
    if float in kinds and isinstance(value, int | float):
        return float(value)
    if str in kinds:
        return str(value)
    wanted = "a whole number" if int in kinds else "a number"
    raise ValueError(f"option {key!r} of bot {bot!r} takes {wanted}, not {value!r}")


# ---------------------------------------------------------------------- playing


class _Timed:
    """Plays games with one bot per seat, timing each decision into per-label stats."""

    def __init__(self, timings: dict[str, TimingStats], clock: Clock) -> None:
        self.timings = timings
        self.clock = clock

    def step(self, game: Game, bots: list[Bot], labels: list[str]) -> None:
        if game.phase is Phase.BAM:
            assert game.bam_team is not None
            leader = game.leader
            seat = leader if leader is not None and leader.team == game.bam_team else None
            seat = seat if seat is not None else _SEATS[game.bam_team]
        else:
            assert game.to_move is not None
            seat = game.to_move
        view = view_of(game, seat)
        bot = bots[seat]
        start = self.clock()
        action = bot.act(view)
        spent = self.clock() - start
        trick = len(view.tricks) if view.phase is Phase.PLAY else None
        self.timings[labels[seat]].add(trick, spent)
        game.apply(action)  # raises IllegalActionError: an illegal move is a bug, never skipped


def _play_hand(game: Game, runner: _Timed, bots: list[Bot], labels: list[str], seed: str) -> None:
    """Play the game's current hand to its end (redeals get fresh seeds)."""
    start = len(game.hand_results)
    redeals = 0
    while len(game.hand_results) == start and not game.is_over:
        if game.phase is Phase.DEAL:
            assert game.hakem is not None
            deal_seed = seed if redeals == 0 else f"{seed}/redeal/{redeals}"
            redeals += 1
            game.apply(Deal.from_seed(deal_seed, game.hakem))
        else:
            runner.step(game, bots, labels)


@dataclass(slots=True)
class ArenaReport:
    """What the arena measured (A is the first bot)."""

    a: str
    b: str
    seed: str
    rules: RuleSet
    boards: int = 0
    hands: int = 0
    hands_won: int = 0
    board_net: list[float] = field(default_factory=list)
    results: dict[str, int] = field(default_factory=dict)
    games: int = 0
    games_won: int = 0
    timings: dict[str, TimingStats] = field(default_factory=dict)

    @property
    def net(self) -> Interval:
        """A's net points per board, with a 95 % interval."""
        return mean_interval(self.board_net)

    @property
    def hand_rate(self) -> Interval:
        return wilson_interval(self.hands_won, self.hands)

    @property
    def game_rate(self) -> Interval:
        return wilson_interval(self.games_won, self.games)

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "boards": self.boards,
            "net_points_per_board": self.net.to_dict(),
            "hands": self.hands,
            "hand_win_rate": self.hand_rate.to_dict(),
            "results": dict(sorted(self.results.items())),
            "games": self.games,
            "games_won": self.games_won,
            "game_win_rate": self.game_rate.to_dict(),
            "decision_time": {label: t.to_dict() for label, t in self.timings.items()},
            "board_net": list(self.board_net),
        }


def _labels(a: str, b: str) -> tuple[str, str]:
    return ("A " + a, "B " + b) if a == b else (a, b)


def run_arena(
    a: str,
    b: str,
    *,
    boards: int,
    seed: str,
    rules: RuleSet | None = None,
    games: int | None = None,
    progress: Progress | None = None,
    clock: Clock = time.perf_counter,
) -> ArenaReport:
    """Compare bot specs ``a`` and ``b`` (see :func:`bot_factory`) on duplicate boards.

    ``games`` whole games (rounded up to even: each game seed is played with both seatings;
    default ``boards // 5``) give the match headline. ``progress(stage, done, total, report)``
    is called after every board and game.
    """
    if boards < 0 or (games is not None and games < 0):
        raise ValueError("boards and games must be ≥ 0")
    rules = rules if rules is not None else RuleSet()
    make = (bot_factory(a), bot_factory(b))
    label_a, label_b = _labels(a, b)
    report = ArenaReport(a, b, seed, rules)
    report.timings = {label_a: TimingStats(), label_b: TimingStats()}
    runner = _Timed(report.timings, clock)
    for i in range(boards):
        _play_board(report, runner, make, (label_a, label_b), f"{seed}/board/{i}", _SEATS[i % 4])
        if progress is not None:
            progress("boards", i + 1, boards, report)
    n_games = max(boards // 5, 2) if games is None else games
    n_games += n_games % 2
    for j in range(n_games // 2):
        for swap in (False, True):
            _play_game(report, runner, make, (label_a, label_b), f"{seed}/game/{j}", swap)
            if progress is not None:
                progress("games", report.games, n_games, report)
    return report


# ---------------------------------------------------------------------- tournaments


@dataclass(frozen=True, slots=True)
class Standing:
    """One bot's record over a tournament."""

    bot: str
    net: float  # mean net points per board over all its boards, against every other bot
    boards: int
    hands_won: int
    hands: int
    games_won: int
    games: int


@dataclass
class TournamentReport:
    """A round robin: every pair of bots met on the same duplicate boards and game seeds."""

    bots: list[str]
    seed: str
    rules: RuleSet
    boards: int
    matches: dict[tuple[int, int], ArenaReport] = field(default_factory=dict)
    #: the pairs whose match ran to its end (boards and games); a tournament stopped early
    #: (Ctrl-C) has fewer than all the pairs
    complete: list[tuple[int, int]] = field(default_factory=list)

    @property
    def pairs(self) -> int:
        return len(self.bots) * (len(self.bots) - 1) // 2

    def played(self, i: int, j: int) -> bool:
        """Whether bots ``i`` and ``j`` played a whole board (a tournament stopped early has
        pairs that never met)."""
        pair = self.matches.get((min(i, j), max(i, j)))
        return pair is not None and pair.boards > 0

    def net(self, i: int, j: int) -> Interval:
        """Bot ``i``'s net points per board against bot ``j`` (95 % interval; none, NaN, for
        a pair that has not played)."""
        if not self.played(i, j):
            return mean_interval([])
        if i < j:
            return self.matches[i, j].net
        low_high = self.matches[j, i].net
        return Interval(-low_high.mean, -low_high.high, -low_high.low)

    def standings(self) -> list[Standing]:
        """Every bot by its mean net points per board against all the others, best first."""
        rows = []
        for i, bot in enumerate(self.bots):
            nets: list[float] = []
            hands_won = hands = games_won = games = 0
            for (a, b), report in self.matches.items():
                if i not in (a, b):
                    continue
                first = i == a
                nets.extend(x if first else -x for x in report.board_net)
                hands += report.hands
                hands_won += report.hands_won if first else report.hands - report.hands_won
                games += report.games
                games_won += report.games_won if first else report.games - report.games_won
            mean = statistics.fmean(nets) if nets else math.nan  # (stopped before it played)
            rows.append(Standing(bot, mean, len(nets), hands_won, hands, games_won, games))
        return sorted(rows, key=lambda r: (not r.boards, -r.net if r.boards else 0.0))

    def to_dict(self) -> dict[str, Any]:
        n = len(self.bots)
        return {
            "bots": list(self.bots),
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "boards_per_match": self.boards,
            "net_points_per_board": [
                [self.net(i, j).to_dict() if self.played(i, j) else None for j in range(n)]
                for i in range(n)
            ],
            "standings": [
                {
                    "bot": r.bot,
                    "net_points_per_board": json_number(r.net),
                    "boards": r.boards,
                    "hands_won": r.hands_won,
                    "hands": r.hands,
                    "games_won": r.games_won,
                    "games": r.games,
                }
                for r in self.standings()
            ],
            "matches": [
                {"a": self.bots[a], "b": self.bots[b], **report.to_dict()}
                for (a, b), report in sorted(self.matches.items())
                if report.boards
            ],
        }


TournamentProgress = Callable[[int, int, str, str, str, int, int, TournamentReport], None]


def run_tournament(
    bots: Sequence[str],
    *,
    boards: int,
    seed: str,
    rules: RuleSet | None = None,
    games: int | None = None,
    progress: TournamentProgress | None = None,
    clock: Clock = time.perf_counter,
) -> TournamentReport:
    """Every pair of ``bots`` (specs as for :func:`bot_factory`) plays the arena on the same
    ``boards`` boards and ``games`` game seeds of ``seed``, so every bot meets the same cards.

    ``progress(match, matches, a, b, stage, done, total, report)`` follows each match;
    ``report`` is the tournament so far, its match under way counting its whole boards (what
    an interrupted run can still show).

    >>> report = run_tournament(["random", "rule", "naive"], boards=2, seed="doc", games=0)
    >>> [r.bot for r in report.standings()][0]
    'rule'
    >>> report.net(0, 1).mean == -report.net(1, 0).mean
    True
    """
    specs = list(bots)
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two bots")
    entered: dict[str, str] = {}
    for spec in specs:
        key = _canonical(spec)
        if key in entered:
            first = entered[key]
            who = f"{spec} is entered twice" if first == spec else f"{first} and {spec} are one bot"
            raise ValueError(
                f"{who}: each bot may enter a tournament once (medium is rule and hard is "
                "search, and an option at its default is the bot itself; compare a bot with "
                "itself in hokm arena)"
            )
        entered[key] = spec
    for spec in specs:
        bot_factory(spec)  # a bad name or option is refused before any match is played
    report = TournamentReport(specs, seed, rules if rules is not None else RuleSet(), boards)
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    for number, (i, j) in enumerate(pairs, start=1):
        a, b = specs[i], specs[j]

        def step(stage: str, done: int, total: int, so_far: ArenaReport) -> None:
            report.matches[i, j] = so_far  # noqa: B023
            if progress is not None:
                progress(number, len(pairs), a, b, stage, done, total, report)  # noqa: B023

        report.matches[i, j] = run_arena(
            a, b, boards=boards, seed=seed, rules=rules, games=games, progress=step, clock=clock
        )
        report.complete.append((i, j))
    return report


def _seating(
    make: tuple[BotFactory, BotFactory], labels: tuple[str, str], seed: str, swap: bool
) -> tuple[list[Bot], list[str], int]:
    """Bots and labels per seat; A holds seats 0 and 2 unless ``swap``. Returns A's team."""
    team_a = 1 if swap else 0
    bots: list[Bot] = []
    names: list[str] = []
    for s in _SEATS:
        side = 0 if s.team == team_a else 1
        bots.append(make[side](f"{seed}/{'AB'[side]}/{int(s)}"))
        names.append(labels[side])
    return bots, names, team_a


def _play_board(
    report: ArenaReport,
    runner: _Timed,
    make: tuple[BotFactory, BotFactory],
    labels: tuple[str, str],
    seed: str,
    hakem: Seat,
) -> None:
    net = 0.0
    won = 0
    kinds: list[str] = []
    for swap in (False, True):
        bots, names, team_a = _seating(make, labels, seed, swap)
        game = Game(report.rules, hakem=hakem)
        _play_hand(game, runner, bots, names, seed)
        result = game.hand_results[-1]
        net += result.points[team_a] - result.points[1 - team_a]
        won += result.winner_team == team_a
        kinds.append(result.result)
    # Counted once the board is whole: a report read after an interruption is of whole boards.
    report.hands += 2
    report.hands_won += won
    for kind in kinds:
        report.results[kind] = report.results.get(kind, 0) + 1
    report.board_net.append(net)
    report.boards += 1


def _play_game(
    report: ArenaReport,
    runner: _Timed,
    make: tuple[BotFactory, BotFactory],
    labels: tuple[str, str],
    seed: str,
    swap: bool,
) -> None:
    bots, names, team_a = _seating(make, labels, seed, swap)
    game = Game(report.rules)
    if report.rules.first_hakem == "ace_draw":
        game.apply(DrawAces.from_seed(seed))
    else:
        game.apply(SetHakem.from_seed(seed))
    while not game.is_over:
        _play_hand(game, runner, bots, names, f"{seed}/hand/{game.hand_number}")
    report.games += 1
    report.games_won += game.winner_team == team_a
