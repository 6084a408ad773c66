"""At small scale, quick-match ratings order scripted players by their hidden skill."""

from hokm.accounts.simulation import simulate


def test_ratings_order_players_by_hidden_skill() -> None:
    report = simulate(players=16, games=200, seed=7)
    assert report.games == 200
    assert report.tau_mu > 0.5
    assert report.top_quarter_hit >= 0.5


def test_no_skill_difference_gives_no_order() -> None:
    report = simulate(players=16, games=200, seed=7, spread=0.0001)
    assert abs(report.tau_mu) < 0.4
