"""Skill rating for quick games: OpenSkill's Weng-Lin Plackett-Luce team model.

Each player has a Gaussian belief ``mu ± sigma`` about their skill; a team's strength is the sum
of its players'. After a rated game both teams' players move, more when the result was a
surprise (beating a stronger team is worth more) and more while ``sigma`` is large (new players).
The shown rating is conservative, ``mu - 3·sigma``, scaled by 100 and never below 0, so a new
player starts at 0 and climbs as the system becomes sure of them. See ``docs/accounts.md``.

>>> a, b, c, d = (Rating() for _ in range(4))
>>> game = RatedGame("g1", (("ali", "bita"), ("cyrus", "dara")), winner_team=0)
>>> new = rating_updates(game, {"ali": a, "bita": b, "cyrus": c, "dara": d})
>>> new["ali"].mu > a.mu > new["cyrus"].mu, new["ali"].games
(True, 1)
>>> tier_of(Rating(mu=25.0, sigma=1.0, games=40)).english
'King'
>>> tier_of(Rating(mu=40.0, sigma=1.0, games=3)).english  # provisional: still a newcomer
'Newcomer'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from openskill.models import PlackettLuce

from hokm.accounts.errors import InvalidInputError

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "MODEL",
    "PROVISIONAL_GAMES",
    "RatedGame",
    "Rating",
    "Tier",
    "predict_win",
    "rating_updates",
    "tier_of",
]

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
#: a player is provisional (shown as Newcomer) until they have played this many rated games
PROVISIONAL_GAMES = 10
#: the model: Plackett-Luce with OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)
MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


class Tier(Enum):
    """The six tiers of RULES.md §8, low to high, with the lowest shown rating of each."""

    NEWCOMER = ("تازه‌وارد", "Newcomer", 0)
    JACK = ("سرباز", "Jack", 1000)
    QUEEN = ("بی‌بی", "Queen", 1600)
    KING = ("شاه", "King", 2200)
    ACE = ("آس", "Ace", 2800)
    HAKEM = ("حاکم", "Hakem", 3400)

    @property
    def persian(self) -> str:
        return str(self.value[0])

    @property
    def english(self) -> str:
        return str(self.value[1])

    @property
    def threshold(self) -> int:
        return int(self.value[2])

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.name.lower(),
            "name": self.english,
            "persian": self.persian,
            "min_rating": self.threshold,
        }


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill belief and number of rated games."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def conservative(self) -> float:
        """``mu - 3·sigma``: the skill the player has very likely reached (≈99.9 %)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating shown to people: ``100 · (mu - 3·sigma)``, rounded, at least 0."""
        return max(0, round(100 * self.conservative))

    @property
    def is_provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def tier(self) -> Tier:
        return tier_of(self)

    def to_dict(self) -> dict[str, object]:
        return {
            "rating": self.shown,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "rated_games": self.games,
            "provisional": self.is_provisional,
            "provisional_games_left": max(0, PROVISIONAL_GAMES - self.games),
            "tier": self.tier.to_dict(),
        }


def tier_of(rating: Rating) -> Tier:
    """The tier of a rating: Newcomer while provisional, else the highest threshold reached."""
    if rating.is_provisional:
        return Tier.NEWCOMER
    reached = Tier.NEWCOMER
    for tier in Tier:
        if rating.shown >= tier.threshold:
            reached = tier
    return reached


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What the rating needs to know about one finished (or abandoned) quick game.

    ``teams`` are the two teams' players (seats 0+2 and 1+3); ``winner_team`` is 0 or 1, or
    ``None`` when the game was cancelled; ``leavers`` left the game in progress on purpose.
    """

    game_id: str
    teams: tuple[tuple[str, str], tuple[str, str]]
    winner_team: int | None
    leavers: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        players = [p for team in self.teams for p in team]
        if len(players) != 4 or len(set(players)) != 4:
            raise InvalidInputError("a rated game needs four different players")
        if self.winner_team not in (0, 1, None):
            raise InvalidInputError(f"winner_team must be 0, 1 or None, not {self.winner_team!r}")
        if not self.leavers <= set(players):
            raise InvalidInputError("a leaver must be one of the game's players")

    def team_of(self, player: str) -> int:
        return 0 if player in self.teams[0] else 1


def _rate(
    teams: tuple[tuple[str, str], tuple[str, str]],
    ratings: Mapping[str, Rating],
    loser_team: int,
) -> dict[str, Rating]:
    """Every player's rating after their team won (or lost) against the other."""
    model_teams = [
        [MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) for p in t] for t in teams
    ]
    ranks = [2.0, 1.0] if loser_team == 0 else [1.0, 2.0]  # lower rank is better
    result = MODEL.rate(model_teams, ranks=ranks)
    return {
        player: Rating(mu=new.mu, sigma=new.sigma, games=ratings[player].games + 1)
        for team, new_team in zip(teams, result, strict=True)
        for player, new in zip(team, new_team, strict=True)
    }


def rating_updates(game: RatedGame, ratings: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the players whose rating this game changes (others are absent).

    * No leaver: a finished game moves all four; a cancelled game changes nothing.
    * Leavers on one team: that team lost. The leavers and both opponents move; a partner who
      stayed keeps their rating (not punished), whatever happened after the leave.
    * Leavers on both teams: each leaver takes a loss; the players who stayed keep their ratings.
    """
    missing = [p for t in game.teams for p in t if p not in ratings]
    if missing:
        raise InvalidInputError(f"no rating given for {missing[0]!r}")
    leaver_teams = {game.team_of(p) for p in game.leavers}
    if not leaver_teams:
        if game.winner_team is None:
            return {}
        return _rate(game.teams, ratings, loser_team=1 - game.winner_team)
    if len(leaver_teams) == 1:
        (loser,) = leaver_teams
        rated = _rate(game.teams, ratings, loser_team=loser)
        keep = set(game.leavers) | set(game.teams[1 - loser])
        return {p: r for p, r in rated.items() if p in keep}
    updates: dict[str, Rating] = {}
    for leaver in sorted(game.leavers):
        updates[leaver] = _rate(game.teams, ratings, loser_team=game.team_of(leaver))[leaver]
    return updates


def predict_win(team0: tuple[Rating, Rating], team1: tuple[Rating, Rating]) -> float:
    """The model's probability that ``team0`` beats ``team1``.

    >>> round(predict_win((Rating(), Rating()), (Rating(), Rating())), 2)
    0.5
    """
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in (team0, team1)]
    return float(MODEL.predict_win(teams)[0])
