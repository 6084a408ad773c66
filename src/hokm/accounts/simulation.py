"""Does the rating order players by skill? A quick-match simulation with a fake clock.

Scripted players have a hidden skill; they wait in the real :class:`QuickMatchQueue`, and each
matched game is won by a team with probability ``logistic((S0 - S1) / scale)`` where ``S`` is the
sum of the team's hidden skills. Ratings are updated with :func:`rating_updates`. The figure is
Kendall's tau between the hidden skills and the final ratings (1 = the same order).

Run: ``.venv/bin/python -m hokm.accounts.simulation --players 40 --games 600 --seed 1``

>>> report = simulate(players=12, games=60, seed=3)
>>> report.games, -1.0 <= report.tau_mu <= 1.0
(60, True)
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from hokm.accounts.matchmaking import MatchmakingConfig, QuickMatchQueue
from hokm.accounts.rating import RatedGame, Rating, Tier, rating_updates, tier_of

__all__ = ["SimulationReport", "kendall_tau", "simulate"]


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-a between two sequences: (concordant - discordant) / pairs.

    >>> kendall_tau([1, 2, 3], [10, 20, 30]), kendall_tau([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    n = len(xs)
    if n != len(ys) or n < 2:
        raise ValueError("two sequences of the same length ≥ 2 are needed")
    score = 0
    for i in range(n):
        for j in range(i + 1, n):
            product = (xs[i] - xs[j]) * (ys[i] - ys[j])
            score += (product > 0) - (product < 0)
    return score / (n * (n - 1) / 2)


@dataclass(frozen=True)
class SimulationReport:
    players: int
    games: int
    tau_mu: float  # hidden skill vs mu
    tau_shown: float  # hidden skill vs the shown (conservative) rating
    tau_win_rate: float  # hidden skill vs the plain share of games won (a naive baseline)
    top_quarter_hit: float  # share of the truly best quarter found in the rated best quarter
    tiers: dict[str, int]
    ratings: dict[str, Rating] = field(default_factory=dict, repr=False)  # final, by player
    played: list[RatedGame] = field(default_factory=list, repr=False)  # every game, in order

    def to_text(self) -> str:
        tiers = ", ".join(f"{name} {count}" for name, count in self.tiers.items())
        return (
            f"{self.players} players, {self.games} rated games: Kendall tau "
            f"{self.tau_mu:.3f} (mu), {self.tau_shown:.3f} (shown rating), "
            f"{self.tau_win_rate:.3f} (win rate baseline); "
            f"best quarter found {self.top_quarter_hit:.0%}; tiers: {tiers}"
        )


def simulate(
    *, players: int = 40, games: int = 600, seed: int = 1, spread: float = 1.0, scale: float = 1.0
) -> SimulationReport:
    """Play ``games`` quick games among ``players`` scripted players; report the ordering."""
    if players < 4 or games < 1:
        raise ValueError("at least 4 players and 1 game")
    rng = random.Random(seed)
    skill = {f"p{i:03d}": rng.gauss(0.0, spread) for i in range(players)}
    ratings = {p: Rating() for p in skill}
    wins = dict.fromkeys(skill, 0)
    log: list[RatedGame] = []
    queue = QuickMatchQueue(MatchmakingConfig(stale_seconds=math.inf))  # nobody walks away
    now, played = 0.0, 0
    while played < games:
        for p in skill:  # every idle player queues, in a random order
            if p not in queue and rng.random() < 0.8:
                queue.join(p, ratings[p].mu, now=now)
        for match in queue.tick(now=now):
            if played == games:
                break
            seats = [p for p in match.players if p is not None]
            teams = ((seats[0], seats[2]), (seats[1], seats[3]))
            edge = sum(skill[p] for p in teams[0]) - sum(skill[p] for p in teams[1])
            winner = 0 if rng.random() < 1 / (1 + math.exp(-edge / scale)) else 1
            game = RatedGame(f"sim-{played}", teams, winner_team=winner)
            ratings.update(rating_updates(game, ratings))
            log.append(game)
            for p in teams[winner]:
                wins[p] += 1
            played += 1
        now += 10.0
    names = sorted(skill)
    hidden = [skill[p] for p in names]
    quarter = max(1, players // 4)
    best_true = set(sorted(names, key=lambda p: -skill[p])[:quarter])
    best_rated = set(sorted(names, key=lambda p: -ratings[p].mu)[:quarter])
    counts = Counter(tier_of(ratings[p]) for p in names)
    tiers = {tier.english: counts[tier] for tier in Tier if counts[tier]}
    return SimulationReport(
        players=players,
        games=played,
        tau_mu=kendall_tau(hidden, [ratings[p].mu for p in names]),
        tau_shown=kendall_tau(hidden, [ratings[p].conservative for p in names]),
        tau_win_rate=kendall_tau(hidden, [wins[p] / max(1, ratings[p].games) for p in names]),
        top_quarter_hit=len(best_true & best_rated) / quarter,
        tiers=tiers,
        ratings=ratings,
        played=log,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spread", type=float, default=1.0, help="sd of hidden skill")
    parser.add_argument("--runs", type=int, default=1, help="seeds seed, seed+1, …; median tau")
    args = parser.parse_args(argv)
    taus, baseline = [], []
    for run in range(args.runs):
        report = simulate(
            players=args.players, games=args.games, seed=args.seed + run, spread=args.spread
        )
        taus.append(report.tau_mu)
        baseline.append(report.tau_win_rate)
        print(f"seed {args.seed + run}: {report.to_text()}")
    if args.runs > 1:
        print(
            f"median Kendall tau over {args.runs} runs: {statistics.median(taus):.3f} (mu), "
            f"{statistics.median(baseline):.3f} (win rate baseline)"
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
