"""One test (or a few) per rule of RULES.md §2–7 and §9, with stacked decks.

Every option of §9 that changes play is tested both ways.
"""

from __future__ import annotations

import random

import pytest

from hokm.engine import (
    ALL_CARDS,
    Card,
    ChooseTrump,
    Deal,
    DecideBam,
    DrawAces,
    Game,
    IllegalActionError,
    InvalidRulesError,
    NotYourTurnError,
    Phase,
    Play,
    RequestRedeal,
    RuleSet,
    Seat,
    SetHakem,
    Suit,
    WrongPhaseError,
    deck_from_seed,
    parse_cards,
    trick_winner,
)
from hokm.engine.events import BamOffered, HandEnded, Redealt
from tests.engine.helpers import (
    ALL_TRUMPS_AT_0,
    HAKEM_LOSES_7_1,
    NORMAL_7_1,
    SEVEN_THEN_LOSE,
    WEAK_FIVE,
    play_first_legal,
    stacked,
    start,
)

BAM = RuleSet(bam=True)
BAM_KOT = RuleSet(bam=True, failed_bam="kot")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# ---------------------------------------------------------------- §2 table, deck, order


def test_teams_are_opposite_seats_and_play_goes_in_seat_order() -> None:
    assert [s.team for s in Seat] == [0, 1, 0, 1]
    assert [s.partner for s in Seat] == [Seat(2), Seat(3), Seat(0), Seat(1)]
    assert [s.next for s in Seat] == [Seat(1), Seat(2), Seat(3), Seat(0)]


def test_the_deck_is_52_different_cards_ranked_ace_high() -> None:
    assert len(set(ALL_CARDS)) == 52
    assert trick_winner(Seat(0), cards("KS AS 2S TS"), None) == Seat(1)
    assert trick_winner(Seat(0), cards("TS 9S JS 2S"), None) == Seat(2)


def test_the_two_of_trump_beats_the_ace_of_another_suit() -> None:
    assert trick_winner(Seat(0), cards("AS KS 2H QS"), Suit.HEARTS) == Seat(2)


def test_the_highest_trump_wins_when_several_players_cut() -> None:
    assert trick_winner(Seat(1), cards("AS 3H 9H 2H"), Suit.HEARTS) == Seat(3)


def test_discards_of_another_suit_never_win() -> None:
    assert trick_winner(Seat(3), cards("2S AD AC AH"), Suit.HEARTS) == Seat(2)
    assert trick_winner(Seat(3), cards("2S AD AC KH"), Suit.SPADES) == Seat(3)


# ---------------------------------------------------------------- §3 first hakem


def test_ace_draw_makes_the_first_player_to_receive_an_ace_hakem() -> None:
    game = Game(RuleSet())
    assert game.phase is Phase.CHOOSE_HAKEM and game.is_chance
    draw = DrawAces(Seat(2), tuple(cards("3C KD AH")))  # seats 2, 3, 0
    events = game.apply(draw)
    assert game.hakem == Seat(0) and game.phase is Phase.DEAL
    assert events[0].to_dict()["draw"] == ["3C", "KD", "AH"]


def test_ace_draw_from_a_seed_stops_at_the_first_ace() -> None:
    draw = DrawAces.from_seed("ace")
    assert draw.cards[-1].rank == 14 and all(c.rank != 14 for c in draw.cards[:-1])
    assert draw.hakem == Seat((draw.start + len(draw.cards) - 1) % 4)


@pytest.mark.parametrize(
    ("drawn", "reason"),
    [
        ("3C KD", "ends with an ace, not KD"),
        ("AS AH", "stops at the first ace, AS: no card is dealt after it"),
        ("", "the ace draw deals at least one card"),
        ("3C 5D 3C AS", "the ace draw deals 3C twice"),
    ],
)
def test_an_ace_draw_that_does_not_stop_at_the_first_ace_is_refused(
    drawn: str, reason: str
) -> None:
    game = Game(RuleSet())
    with pytest.raises(IllegalActionError, match=reason):
        game.apply(DrawAces(Seat(0), tuple(cards(drawn))))
    assert game.phase is Phase.CHOOSE_HAKEM and game.history == []


def test_first_hakem_ace_draw_refuses_a_directly_set_hakem() -> None:
    with pytest.raises(IllegalActionError, match="first_hakem is ace_draw"):
        Game(RuleSet()).apply(SetHakem(Seat(1)))


@pytest.mark.parametrize("method", ["random", "manual"])
def test_first_hakem_random_or_manual_sets_the_hakem_and_refuses_an_ace_draw(
    method: str,
) -> None:
    game = Game(RuleSet(first_hakem=method))  # type: ignore[arg-type]
    assert game.is_chance is (method == "random")
    with pytest.raises(IllegalActionError, match=f"first_hakem is {method}"):
        game.apply(DrawAces(Seat(0), (Card.parse("AS"),)))
    event = game.apply(SetHakem(Seat(3)))[0]
    assert game.hakem == Seat(3)
    assert event.to_dict()["method"] == method


def test_random_hakem_from_a_seed_is_deterministic() -> None:
    assert SetHakem.from_seed("x") == SetHakem.from_seed("x")
    assert {SetHakem.from_seed(str(i)).hakem for i in range(40)} == set(Seat)


def test_the_first_hakem_is_chosen_only_once() -> None:
    game = Game(RuleSet(first_hakem="manual"))
    game.apply(SetHakem(Seat(1)))
    with pytest.raises(WrongPhaseError, match="already chosen"):
        game.apply(SetHakem(Seat(2)))


def _finished_game(rules: RuleSet) -> Game:
    game = Game(rules.replace(target_points=1), hakem=Seat(0))
    game.apply(stacked(HAKEM_LOSES_7_1))
    game.choose_trump("S")
    play_first_legal(game, script=["AH"])
    assert game.is_over and game.hakem == Seat(1)  # the hakem's team lost: seat 1 is next
    return game


def test_next_game_hakem_keep_starts_with_the_hakem_at_the_end_of_the_last_game() -> None:
    nxt = _finished_game(RuleSet(next_game_hakem="keep")).next_game()
    assert nxt.hakem == Seat(1) and nxt.phase is Phase.DEAL and nxt.score == [0, 0]


def test_next_game_hakem_ace_draw_waits_for_an_ace_draw() -> None:
    nxt = _finished_game(RuleSet(next_game_hakem="ace_draw", first_hakem="manual")).next_game()
    assert nxt.phase is Phase.CHOOSE_HAKEM and nxt.is_chance
    with pytest.raises(IllegalActionError, match="ace_draw"):
        nxt.apply(SetHakem(Seat(2)))
    nxt.apply(DrawAces(Seat(2), tuple(cards("2C AD"))))
    assert nxt.hakem == Seat(3)
    assert Game.from_dict(nxt.to_dict()) == nxt


def test_next_game_hakem_random_waits_for_a_random_hakem() -> None:
    nxt = _finished_game(RuleSet(next_game_hakem="random")).next_game()
    assert nxt.phase is Phase.CHOOSE_HAKEM and nxt.is_chance
    nxt.apply(SetHakem.from_seed("next"))
    assert nxt.hakem is not None


def test_next_game_hakem_manual_takes_the_owners_choice() -> None:
    done = _finished_game(RuleSet(next_game_hakem="manual"))
    assert done.next_game(first_hakem=2).hakem == Seat(2)
    waiting = done.next_game()
    assert waiting.phase is Phase.CHOOSE_HAKEM and not waiting.is_chance
    waiting.apply(SetHakem(Seat(0)))
    assert waiting.hakem == Seat(0)


@pytest.mark.parametrize("method", ["keep", "ace_draw", "random"])
def test_a_chosen_next_hakem_is_refused_unless_the_owner_chooses(method: str) -> None:
    """``next_game(first_hakem=2)`` under ``keep`` started with the kept hakem, the seat given
    silently dropped."""
    done = _finished_game(RuleSet(next_game_hakem=method))
    said = f"first_hakem is given only under next_game_hakem=manual, not {method}"
    with pytest.raises(IllegalActionError, match=said):
        done.next_game(first_hakem=2)


def test_a_next_game_starts_only_after_the_game_is_over() -> None:
    with pytest.raises(WrongPhaseError, match="over"):
        Game(RuleSet(), hakem=0).next_game()


# ---------------------------------------------------------------- §4 dealing and trump


def test_the_deal_is_5_4_4_starting_at_the_hakem() -> None:
    deck = deck_from_seed("deal-order")
    deal = Deal.from_deck(deck, Seat(2))
    assert deal.hands[2][:5] == tuple(deck[0:5])
    assert deal.hands[3][:5] == tuple(deck[5:10])
    assert deal.hands[1][:5] == tuple(deck[15:20])
    assert deal.hands[2][5:9] == tuple(deck[20:24])
    assert deal.hands[2][9:] == tuple(deck[36:40])
    assert deal.hands[1][9:] == tuple(deck[48:52])
    assert Deal.from_seed("deal-order", Seat(2)) == Deal.from_deck(deck, 2, seed="deal-order")


def test_trump_is_named_by_the_hakem_from_the_first_five() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=1, trump=None)
    assert game.phase is Phase.TRUMP and game.to_move == Seat(1)
    assert [len(game.hand_of(s)) for s in Seat] == [5, 5, 5, 5]
    assert {a for a in game.legal_actions()} == {ChooseTrump(Seat(1), s) for s in Suit}
    with pytest.raises(NotYourTurnError, match="only the hakem"):
        game.apply(ChooseTrump(Seat(0), Suit.SPADES))
    game.choose_trump("d")
    assert game.trump is Suit.DIAMONDS and game.phase is Phase.PLAY
    assert [len(game.hand_of(s)) for s in Seat] == [13, 13, 13, 13]


def test_a_deal_must_be_the_52_cards_13_each() -> None:
    game = Game(RuleSet(), hakem=0)
    hands = [parse_cards(h) for h in NORMAL_7_1]
    short = [hands[0][:12], hands[1], hands[2], hands[3]]
    with pytest.raises(IllegalActionError, match="seat 0 holds 12 cards"):
        game.apply(Deal.from_hands(short))
    twice = [[*hands[0][:12], hands[1][0]], hands[1], hands[2], hands[3]]
    with pytest.raises(IllegalActionError, match="dealt twice"):
        game.apply(Deal.from_hands(twice))
    assert game.phase is Phase.DEAL and game.history == []


def test_weak_five_redeal_on_lets_the_hakem_ask_for_a_new_deal() -> None:
    game = start(RuleSet(hakem_may_redeal_weak_five=True), stacked(WEAK_FIVE), trump=None)
    assert RequestRedeal(Seat(0)) in game.legal_actions()
    events = game.apply(RequestRedeal(Seat(0)))
    assert isinstance(events[0], Redealt) and events[0].reason == "weak_five"
    assert game.phase is Phase.DEAL and game.hakem == Seat(0) and game.hand_number == 0


def test_weak_five_redeal_off_refuses_the_request() -> None:
    game = start(RuleSet(), stacked(WEAK_FIVE), trump=None)
    assert RequestRedeal(Seat(0)) not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="hakem_may_redeal_weak_five is off"):
        game.apply(RequestRedeal(Seat(0)))
    assert game.phase is Phase.TRUMP


def test_weak_five_redeal_needs_a_weak_five() -> None:
    rules = RuleSet(hakem_may_redeal_weak_five=True)
    game = start(rules, stacked(HAKEM_LOSES_7_1), trump=None)  # AH KH … in the first five
    assert RequestRedeal(Seat(0)) not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="rank 10 or more"):
        game.apply(RequestRedeal(Seat(0)))


def test_weak_five_counts_a_ten_as_strong() -> None:
    hands = (
        "2S 3S 4H 5D TC AS KS QS JS TS 9S 8S 7S",
        WEAK_FIVE[1],
        WEAK_FIVE[2],
        "AC KC QC JC 9C 8C 7C 6C 5C 4C 3C 2C 4S",
    )
    game = start(RuleSet(hakem_may_redeal_weak_five=True), stacked(hands), trump=None)
    assert not game.can(RequestRedeal(Seat(0)))


def test_no_trump_redeal_on_redeals_when_a_player_holds_no_trump() -> None:
    game = start(RuleSet(redeal_if_player_has_no_trump=True), stacked(ALL_TRUMPS_AT_0))
    redealt = [e for e in game.events if isinstance(e, Redealt)]
    assert redealt and redealt[0].reason == "no_trump" and redealt[0].seat == Seat(1)
    assert game.phase is Phase.DEAL and game.hakem == Seat(0) and game.hand_number == 0


def test_no_trump_redeal_on_keeps_a_deal_where_everyone_holds_trump() -> None:
    game = start(RuleSet(redeal_if_player_has_no_trump=True), stacked(WEAK_FIVE))
    assert game.phase is Phase.PLAY


def test_no_trump_redeal_off_plays_the_deal() -> None:
    game = start(RuleSet(), stacked(ALL_TRUMPS_AT_0))
    assert game.phase is Phase.PLAY


# ---------------------------------------------------------------- §5 playing a hand


def test_the_hakem_leads_the_first_trick_and_the_winner_leads_the_next() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=0)
    assert game.to_move == Seat(0)
    for card in ("2S", "AS", "AH", "2C"):
        game.play(card)
    assert game.tricks[0].winner == Seat(1) and game.to_move == Seat(1)


def test_a_player_must_follow_suit_when_able() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=0)
    game.play("2S")
    assert game.legal_cards() == [Card.parse("AS")]
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match="must follow suit ♠: seat 1 holds AS"):
        game.play("2H")
    assert game.to_dict() == before


def test_not_following_suit_names_every_card_of_the_suit_held() -> None:
    """It named one card only ("holds 6C" of five clubs), as if that were the only one."""
    rng = random.Random(5)
    for seed in range(50):
        game = Game(RuleSet(), hakem=Seat(0))
        game.apply(Deal.from_seed(f"follow-{seed}", Seat(0)))
        game.choose_trump(rng.choice("SHDC"))
        while game.phase is Phase.PLAY:
            if game.trick:
                led = game.trick[0].suit
                hand = game.hand_of(game.to_move)
                held = sorted(c for c in hand if c.suit is led)
                other = next((c for c in hand if c.suit is not led), None)
                if len(held) >= 2 and other is not None:
                    listed = " ".join(str(c) for c in held)
                    said = f"must follow suit {led.symbol}: seat {int(game.to_move)} holds {listed}"
                    with pytest.raises(IllegalActionError) as refused:
                        game.play(other)
                    assert str(refused.value) == said
                    return
            game.play(rng.choice(game.legal_cards()))
    raise AssertionError("no seat to move held two cards of the led suit and another")


def test_a_void_player_may_cut_or_discard_with_no_duty_to_beat() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=0)
    game.play("2S")
    game.play("AS")
    assert len(game.legal_cards()) == 13  # seat 2 has no spade: anything goes
    game.play("3D")  # a discard, though not beating the AS
    assert game.legal_cards(Seat(3)) == game.hand_of(Seat(3))


def test_a_card_not_held_is_refused() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=0)
    with pytest.raises(IllegalActionError, match="seat 0 does not hold AS"):
        game.play("AS")


def test_playing_out_of_turn_is_refused() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=0)
    with pytest.raises(NotYourTurnError, match="not seat 1's turn: seat 0 is to play"):
        game.apply(Play(Seat(1), Card.parse("AS")))
    assert not game.can(Play(Seat(1), Card.parse("AS")))
    assert game.legal_actions(Seat(1)) == []


def test_a_card_in_the_wrong_phase_is_refused() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1), hakem=0, trump=None)
    with pytest.raises(WrongPhaseError, match="phase play, not trump"):
        game.apply(Play(Seat(0), Card.parse("2S")))


# ---------------------------------------------------------------- §6 scoring and hakem


def _ended(game: Game) -> HandEnded:
    return [e for e in game.events if isinstance(e, HandEnded)][-1]


def test_a_normal_win_scores_one_point_and_the_hakem_stays() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1))
    play_first_legal(game)
    end = _ended(game)
    assert (end.result, end.tricks, end.points, end.winner_team) == ("normal", (7, 1), (1, 0), 0)
    assert game.hakem == Seat(0) and game.phase is Phase.DEAL and game.hand_number == 1


def test_the_hand_stops_as_soon_as_a_team_has_seven_tricks() -> None:
    game = start(RuleSet(), stacked(NORMAL_7_1))
    play_first_legal(game)
    result = game.hand_results[0]
    assert len(result.trick_winners) == 8 and len(result.plays) == 32


def test_when_the_hakems_team_loses_the_next_seat_becomes_hakem() -> None:
    game = start(RuleSet(), stacked(HAKEM_LOSES_7_1))
    play_first_legal(game, script=["AH"])
    end = _ended(game)
    assert (end.result, end.tricks, end.points) == ("normal", (1, 7), (0, 1))
    assert end.next_hakem == Seat(1) and game.hakem == Seat(1)


@pytest.mark.parametrize("kot_points", [2, 4])
def test_kot_scores_kot_points_when_the_losers_are_not_the_hakems_team(kot_points: int) -> None:
    game = start(RuleSet(kot_points=kot_points), stacked(ALL_TRUMPS_AT_0))
    play_first_legal(game)
    end = _ended(game)
    assert (end.result, end.tricks, end.points) == ("kot", (7, 0), (kot_points, 0))
    assert game.hakem == Seat(0)


@pytest.mark.parametrize("hakem_kot_points", [3, 5])
def test_hakem_kot_scores_hakem_kot_points_when_the_hakems_team_took_nothing(
    hakem_kot_points: int,
) -> None:
    game = start(RuleSet(hakem_kot_points=hakem_kot_points), stacked(ALL_TRUMPS_AT_0, rotate=1))
    play_first_legal(game)
    end = _ended(game)
    assert (end.result, end.tricks, end.points) == ("hakem_kot", (0, 7), (0, hakem_kot_points))
    assert game.hakem == Seat(1)


def test_bam_off_ends_a_7_0_hand_at_once() -> None:
    game = start(RuleSet(bam=False), stacked(ALL_TRUMPS_AT_0))
    play_first_legal(game)
    assert not any(isinstance(e, BamOffered) for e in game.events)
    assert game.hand_results[0].bam is None and len(game.hand_results[0].plays) == 28


def test_bam_on_offers_the_7_0_team_the_choice() -> None:
    game = start(BAM, stacked(ALL_TRUMPS_AT_0))
    play_first_legal(game, bam=None)
    assert game.phase is Phase.BAM and game.bam_team == 0
    assert set(game.legal_actions(Seat(2))) == {DecideBam(Seat(2), True), DecideBam(Seat(2), False)}
    assert game.legal_actions(Seat(1)) == []
    with pytest.raises(NotYourTurnError, match="only team 0"):
        game.apply(DecideBam(Seat(1), True))
    with pytest.raises(WrongPhaseError):
        game.apply(Play(Seat(0), Card.parse("6S")))


def test_a_declined_bam_scores_the_kot() -> None:
    game = start(BAM, stacked(ALL_TRUMPS_AT_0))
    play_first_legal(game, bam=False)
    end = _ended(game)
    assert (end.result, end.points) == ("kot", (2, 0))
    assert game.hand_results[0].bam is False


def test_a_won_bam_by_the_hakems_team_wins_the_whole_game() -> None:
    game = Game(BAM, hakem=Seat(0))
    game.score = [0, 6]  # whatever the score
    game.apply(stacked(ALL_TRUMPS_AT_0))
    game.choose_trump("S")
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.tricks, end.points) == ("bam", (13, 0), (7, 0))
    assert game.is_over and game.winner_team == 0 and game.score == [7, 6]


def test_a_won_par_bam_by_the_other_team_wins_the_whole_game() -> None:
    game = start(BAM, stacked(ALL_TRUMPS_AT_0, rotate=1))
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.tricks, end.points, end.winner_team) == (
        "par_bam",
        (0, 13),
        (0, 7),
        1,
    )
    assert game.is_over and game.winner_team == 1


def test_failed_bam_minus3_costs_three_and_is_a_lost_hand() -> None:
    game = start(BAM, stacked(SEVEN_THEN_LOSE))
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.tricks, end.points, end.winner_team) == (
        "failed_bam",
        (7, 1),
        (-3, 0),
        1,
    )
    assert game.score == [-3, 0] and game.hakem == Seat(1)  # lost hand: the hakem moves on
    assert len(game.hand_results[0].plays) == 32  # the hand ends at once


def test_failed_bam_kot_keeps_the_kot_points_and_the_hand() -> None:
    game = start(BAM_KOT, stacked(SEVEN_THEN_LOSE))
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.tricks, end.points, end.winner_team) == (
        "failed_bam",
        (7, 1),
        (2, 0),
        0,
    )
    assert game.hakem == Seat(0)


def test_failed_bam_kot_by_the_hakems_team_keeps_kot_points() -> None:
    game = start(BAM_KOT, stacked(SEVEN_THEN_LOSE, rotate=1), hakem=1)
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.tricks, end.points, end.winner_team) == (
        "failed_bam",
        (1, 7),
        (0, 2),
        1,
    )
    assert game.hakem == Seat(1)


def test_failed_bam_kot_by_the_other_team_keeps_hakem_kot_points() -> None:
    game = start(BAM_KOT, stacked(SEVEN_THEN_LOSE, rotate=1), hakem=0)
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.tricks, end.points, end.winner_team) == (
        "failed_bam",
        (1, 7),
        (0, 3),
        1,
    )
    assert game.hakem == Seat(1)


def test_failed_bam_minus3_by_the_other_team_keeps_the_hakem() -> None:
    game = start(BAM, stacked(SEVEN_THEN_LOSE, rotate=1), hakem=0)
    play_first_legal(game, bam=True)
    end = _ended(game)
    assert (end.result, end.points, end.winner_team) == ("failed_bam", (0, -3), 0)
    assert game.hakem == Seat(0) and game.score == [0, -3]


# ---------------------------------------------------------------- §7 end of a game


@pytest.mark.parametrize(("target", "over"), [(1, True), (2, False)])
def test_the_game_ends_when_a_team_reaches_target_points(target: int, over: bool) -> None:
    game = start(RuleSet(target_points=target), stacked(NORMAL_7_1))
    play_first_legal(game)
    assert game.is_over is over
    assert game.winner_team == (0 if over else None)


def test_nothing_can_be_played_after_the_game_is_over() -> None:
    game = start(RuleSet(target_points=2), stacked(ALL_TRUMPS_AT_0))
    play_first_legal(game)
    assert game.is_over and game.score == [2, 0] and game.legal_actions() == []
    with pytest.raises(WrongPhaseError, match="no deal is due in phase game_over"):
        game.apply(Deal.from_seed("late", Seat(0)))


def test_scores_add_up_over_hands() -> None:
    game = Game(RuleSet(), hakem=Seat(0))
    for deal, script in ((NORMAL_7_1, []), (HAKEM_LOSES_7_1, ["AH"]), (ALL_TRUMPS_AT_0, [])):
        game.apply(stacked(deal, rotate=int(game.hakem or 0)))
        game.choose_trump("S")
        play_first_legal(game, script=script)
    assert [r.result for r in game.hand_results] == ["normal", "normal", "kot"]
    assert game.score == [1, 3] and game.hakem == Seat(1)


# ---------------------------------------------------------------- §9 options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target_points": 0}, "target_points must be an integer ≥ 1"),
        ({"kot_points": "2"}, "kot_points must be an integer"),
        ({"hakem_kot_points": 0}, "hakem_kot_points must be an integer"),
        ({"bam": "yes"}, "bam must be true or false"),
        ({"failed_bam": "minus2"}, "failed_bam must be one of minus3, kot"),
        ({"first_hakem": "dice"}, "first_hakem must be one of"),
        ({"next_game_hakem": "dice"}, "next_game_hakem must be one of"),
        ({"hakem_may_redeal_weak_five": 1}, "hakem_may_redeal_weak_five must be true or false"),
        ({"redeal_if_player_has_no_trump": None}, "redeal_if_player_has_no_trump must be"),
        ({"trump_seconds": 0}, "trump_seconds must be a number of seconds > 0"),
        ({"turn_seconds": -1}, "turn_seconds must be"),
        ({"grace_seconds": 10**6}, "grace_seconds must be at most"),
        ({"colour": "red"}, "unknown rule option 'colour'"),
        ({"preset": "nope"}, "unknown preset 'nope'"),
    ],
)
def test_each_invalid_option_raises_one_clear_error(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        RuleSet.from_dict(options)


def test_presets_differ_from_the_defaults_as_rules_md_says() -> None:
    assert RuleSet.preset("platform-a") == RuleSet()
    assert RuleSet.preset("simulator") == RuleSet(turn_seconds=30)
    assert RuleSet.preset("platform-b") == RuleSet(bam=True, failed_bam="minus3", turn_seconds=30)
    assert RuleSet.preset("classic") == RuleSet(
        bam=True,
        failed_bam="kot",
        hakem_may_redeal_weak_five=True,
        redeal_if_player_has_no_trump=True,
        turn_seconds=30,
    )
    assert RuleSet.from_dict({"preset": "classic", "bam": False}).bam is False
    assert RuleSet.preset("classic").preset_name() == "classic"


def test_rules_round_trip_through_json_data() -> None:
    for name in ("classic", "simulator", "platform-a", "platform-b"):
        rules = RuleSet.preset(name, target_points=3)
        assert RuleSet.from_dict(rules.to_dict()) == rules
