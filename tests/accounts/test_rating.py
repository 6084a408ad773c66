"""The rating rules: who moves, by how much, tiers, provisional players, leavers."""

import pytest

from hokm.accounts.errors import InvalidInputError
from hokm.accounts.rating import (
    PROVISIONAL_GAMES,
    RatedGame,
    Rating,
    Tier,
    predict_win,
    rating_updates,
    tier_of,
)

TEAMS = (("a", "c"), ("b", "d"))


def fresh() -> dict[str, Rating]:
    return {p: Rating() for p in "abcd"}


def test_win_raises_and_loss_lowers_every_player() -> None:
    new = rating_updates(RatedGame("g", TEAMS, winner_team=1), fresh())
    assert set(new) == set("abcd")
    assert new["b"].mu > 25 and new["d"].mu > 25
    assert new["a"].mu < 25 and new["c"].mu < 25
    assert all(r.games == 1 for r in new.values())
    assert all(r.sigma < Rating().sigma for r in new.values())


def test_beating_a_stronger_team_is_worth_more() -> None:
    weak, strong = Rating(mu=20, sigma=3), Rating(mu=30, sigma=3)
    upset = rating_updates(
        RatedGame("g1", TEAMS, winner_team=0), {"a": weak, "c": weak, "b": strong, "d": strong}
    )
    expected = rating_updates(
        RatedGame("g2", TEAMS, winner_team=0), {"a": strong, "c": strong, "b": weak, "d": weak}
    )
    assert upset["a"].mu - weak.mu > expected["a"].mu - strong.mu > 0
    assert predict_win((strong, strong), (weak, weak)) > 0.5


def test_cancelled_game_without_leaver_changes_nothing() -> None:
    assert rating_updates(RatedGame("g", TEAMS, winner_team=None), fresh()) == {}


def test_leaver_takes_a_loss_and_partner_is_not_punished() -> None:
    ratings = fresh()
    # the leaver's team even went on to win with a bot: the leaver still loses
    game = RatedGame("g", TEAMS, winner_team=0, leavers=frozenset({"a"}))
    new = rating_updates(game, ratings)
    assert "c" not in new  # the partner keeps their rating
    assert new["a"].mu < 25
    assert new["b"].mu > 25 and new["d"].mu > 25


def test_leaver_in_a_cancelled_game_still_takes_a_loss() -> None:
    game = RatedGame("g", TEAMS, winner_team=None, leavers=frozenset({"b"}))
    new = rating_updates(game, fresh())
    assert set(new) == {"b", "a", "c"} and new["b"].mu < 25 and new["a"].mu > 25


def test_leavers_on_both_teams_each_lose_and_the_others_stay() -> None:
    game = RatedGame("g", TEAMS, winner_team=0, leavers=frozenset({"a", "b"}))
    new = rating_updates(game, fresh())
    assert set(new) == {"a", "b"} and new["a"].mu < 25 and new["b"].mu < 25


def test_provisional_players_are_newcomers_whatever_their_rating() -> None:
    strong = Rating(mu=45, sigma=1, games=PROVISIONAL_GAMES - 1)
    assert strong.is_provisional and tier_of(strong) is Tier.NEWCOMER
    settled = Rating(mu=45, sigma=1, games=PROVISIONAL_GAMES)
    assert not settled.is_provisional and tier_of(settled) is Tier.HAKEM


@pytest.mark.parametrize("tier", list(Tier))
def test_tier_thresholds_are_inclusive_and_ordered(tier: Tier) -> None:
    mu = tier.threshold / 100 + 3 * 1.0
    assert tier_of(Rating(mu=mu, sigma=1.0, games=50)) is tier
    assert tier_of(Rating(mu=mu - 0.02, sigma=1.0, games=50)) is (
        tier if tier is Tier.NEWCOMER else list(Tier)[list(Tier).index(tier) - 1]
    )


def test_tiers_low_to_high_with_persian_names() -> None:
    assert [t.persian for t in Tier] == ["تازه‌وارد", "سرباز", "بی‌بی", "شاه", "آس", "حاکم"]
    thresholds = [t.threshold for t in Tier]
    assert thresholds == sorted(thresholds) and len(set(thresholds)) == 6


def test_shown_rating_is_conservative_and_never_negative() -> None:
    assert Rating().shown == 0
    assert Rating(mu=10, sigma=8).shown == 0
    assert Rating(mu=30, sigma=2).shown == 2400


@pytest.mark.parametrize(
    "kwargs",
    [
        {"teams": (("a", "a"), ("b", "c")), "winner_team": 0},
        {"teams": TEAMS, "winner_team": 2},
        {"teams": TEAMS, "winner_team": 0, "leavers": frozenset({"z"})},
    ],
)
def test_bad_games_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        RatedGame("g", **kwargs)  # type: ignore[arg-type]


def test_missing_rating_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="no rating"):
        rating_updates(RatedGame("g", TEAMS, winner_team=0), {"a": Rating()})
