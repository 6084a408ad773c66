"""Card counting, void inference, trump choice, bam and the rule bot's habits on stacked decks."""

from __future__ import annotations

import random

from hokm.bots import RuleBot
from hokm.bots.bam import bam_pays, estimate_bam, sample_world
from hokm.bots.knowledge import Knowledge, cards_of, current_winner, mask_of
from hokm.bots.trump import choose_trump_suit, suit_scores, wants_redeal
from hokm.engine import (
    Card,
    ChooseTrump,
    Deal,
    Game,
    Phase,
    Play,
    RuleSet,
    Seat,
    Suit,
    parse_cards,
    view_of,
)

# Four hands built so the first tricks are easy to read: seat 0 is hakem, spades are trump.
HANDS = [
    "AS KS QS 2S 3S AH 2H 3H AD 2D AC 2C 3C",
    "4S 5S KH QH JH TH 9H 3D 4D 5D KC QC JC",
    "6S 7S 8S 4H 5H 6H KD QD JD TD TC 9C 8C",
    "9S TS JS 7H 8H 6D 7D 8D 9D 7C 6C 5C 4C",
]


def stacked(plays: str = "", rules: RuleSet | None = None, trump: Suit = Suit.SPADES) -> Game:
    game = Game(rules or RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_hands([parse_cards(h) for h in HANDS]))
    game.apply(ChooseTrump(Seat(0), trump))
    for text in plays.split():
        assert game.to_move is not None
        game.apply(Play(game.to_move, Card.parse(text)))
    return game


def test_knowledge_counts_played_and_unseen_cards() -> None:
    k = Knowledge.from_view(view_of(stacked("AH KH 4H 7H"), Seat(0)))
    assert k.played == mask_of(parse_cards("AH KH 4H 7H"))
    assert k.count_unseen(Suit.HEARTS) == 13 - 4 - 2  # four played, two in hand
    assert k.is_master(Card.parse("AS")) and not k.is_master(Card.parse("2H"))
    assert k.trumps_out() == 8
    assert cards_of(mask_of(parse_cards("3C AS"))) == parse_cards("AS 3C")


def test_knowledge_infers_voids_from_failing_to_follow() -> None:
    """Seat 1 discards on a diamond lead: it has no diamond; a cut shows the same."""
    game = stacked("AH KH 4H 7H AD 3D KD 6D AC KC TC 4C AS 4S 6S 9S 2D 4D QD 7D")
    game.apply(Play(Seat(2), Card.parse("JD")))
    k = Knowledge.from_view(view_of(game, Seat(3)))
    assert not k.is_void(Seat(1), Suit.DIAMONDS)
    game = stacked("AH KH 4H 7H AD 3D KD 6D AC KC TC 4C AS 4S 6S 9S 2D 4D QD 7D JD")
    game.apply(Play(Seat(3), Card.parse("8D")))
    game.apply(Play(Seat(0), Card.parse("2H")))
    k = Knowledge.from_view(view_of(game, Seat(1)))
    assert k.is_void(Seat(0), Suit.DIAMONDS)
    assert k.p_void(Seat(0), Suit.DIAMONDS) == 1.0
    assert k.p_holds(Seat(0), Suit.DIAMONDS, 3) == 0.0


def test_current_winner_follows_the_trick_rule() -> None:
    trick = ((Seat(1), Card.parse("KH")), (Seat(2), Card.parse("AH")), (Seat(3), Card.parse("2S")))
    assert current_winner(trick, Suit.SPADES) == (Seat(3), Card.parse("2S"))
    assert current_winner(trick, Suit.CLUBS) == (Seat(2), Card.parse("AH"))


def test_trump_choice_prefers_length_then_honours() -> None:
    assert choose_trump_suit(parse_cards("2H 3H 4H AS KS"), policy="longest") is Suit.HEARTS
    assert choose_trump_suit(parse_cards("2H 3H AS KS 4D")) is Suit.SPADES
    assert choose_trump_suit(parse_cards("2H 3H 4H 5H AS")) is Suit.HEARTS
    scores = suit_scores(parse_cards("AS KS 2H 3H 9C"))
    assert scores[Suit.SPADES] > scores[Suit.HEARTS] > scores[Suit.CLUBS] > scores[Suit.DIAMONDS]
    assert wants_redeal(parse_cards("2H 3H 9S 8D 7C"))
    assert not wants_redeal(parse_cards("2H 3H TS 8D 7C"))


def test_rule_bot_asks_for_a_redeal_only_with_a_weak_five() -> None:
    rules = RuleSet.preset("classic")
    weak = ["2H 3H 9S 8D 7C", "AS KS QS JS TS"]
    hands = [parse_cards(weak[0]) + parse_cards("4H 5H 6H 7H 8H 9H TH JH")]
    rest = [c for c in parse_cards(" ".join(HANDS)) if c not in hands[0]]
    hands += [rest[i * 13 : i * 13 + 13] for i in range(3)]
    game = Game(rules, hakem=Seat(0))
    game.apply(Deal.from_hands(hands))
    action = RuleBot(seed=0).act(view_of(game, Seat(0)))
    assert action.to_dict()["type"] == "request_redeal"
    assert RuleBot(seed=0, redeal=False).act(view_of(game, Seat(0))).to_dict()["type"] == (
        "choose_trump"
    )


def test_fourth_hand_wins_with_the_cheapest_winner() -> None:
    """Seat 1 wins with QC; seat 0, last to play with AC 3C, takes it with the ace."""
    game = stacked("2C KC 8C 4C QC 9C 5C")
    assert RuleBot().choose_card(view_of(game, Seat(0))) == Card.parse("AC")


def test_does_not_overtake_a_partner_who_wins() -> None:
    """Partner (seat 2) wins with TD; seat 0, last, keeps its ace and plays 2D."""
    game = stacked("2C KC 8C 4C 3D TD 6D")
    assert RuleBot().choose_card(view_of(game, Seat(0))) == Card.parse("2D")


def test_cuts_low_when_void_and_the_opponents_win() -> None:
    """Seat 0 has no club: on seat 1's winning QC it cuts with its lowest trump."""
    hands = [
        "AS KS QS 2S 3S AH 2H 3H AD 2D 3D 4D 5D",
        "4S 5S KH QH JH TH 9H 6D 7D AC KC QC JC",
        "6S 7S 8S 4H 5H 6H KD QD JD TD TC 9C 8C",
        "9S TS JS 7H 8H 8D 9D 7C 6C 5C 4C 3C 2C",
    ]
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_hands([parse_cards(h) for h in hands]))
    game.apply(ChooseTrump(Seat(0), Suit.SPADES))
    for text in ["2H", "KH", "4H", "7H", "QC", "8C", "2C"]:
        assert game.to_move is not None
        game.apply(Play(game.to_move, Card.parse(text)))
    assert RuleBot().choose_card(view_of(game, Seat(0))) == Card.parse("2S")


def test_draws_trumps_with_the_master_when_long() -> None:
    """The hakem holding A K Q and two more trumps leads the ace of trump."""
    assert RuleBot().choose_card(view_of(stacked(), Seat(0))) == Card.parse("AS")


def test_sampled_worlds_respect_voids_and_hand_sizes() -> None:
    game = stacked("AH KH 4H 7H AD 3D KD 6D AC KC TC 4C AS 4S 6S 9S 2D 4D QD 7D JD 8D 2H")
    k = Knowledge.from_view(view_of(game, Seat(1)))
    rng = random.Random(3)
    for _ in range(30):
        world = sample_world(k, rng)
        assert world[1] == list(k.hand)
        assert [len(w) for w in world] == list(k.hand_sizes)
        assert not any(c.suit is Suit.DIAMONDS for c in world[0])  # seat 0 showed a void


def test_bam_decision_goes_on_only_when_it_pays() -> None:
    """At 7–0 holding every master the team goes on; with failed_bam=kot it always goes."""
    rules = RuleSet.preset("platform-b")
    game = Game(rules, hakem=Seat(0))
    hands = [
        parse_cards("AS KS QS JS TS 9S 8S 7S AH KH QH JH TH"),
        parse_cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C"),
        parse_cards("6S 5S 9H 8H 7H 6H 5H AD KD QD JD TD AC"),
        parse_cards("9D 8D 7D 6D 5D KC QC JC TC 9C 8C 7C 6C"),
    ]
    game.apply(Deal.from_hands(hands))
    game.apply(ChooseTrump(Seat(0), Suit.SPADES))
    bot = RuleBot(seed=0)
    while game.phase is Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        game.apply(Play(seat, bot.choose_card(view_of(game, seat))))
    assert game.phase is Phase.BAM and game.bam_team == 0
    view = view_of(game, Seat(0))
    assert estimate_bam(view, samples=8, seed="t") == 1.0
    assert bam_pays(view, samples=8)
    assert RuleBot(seed=0).act(view).to_dict()["go"] is True


def _lead_view(hand0: str, trump: Suit = Suit.SPADES) -> Game:
    """A deal where seat 0 (hakem) holds ``hand0`` and leads the first trick."""
    mine = parse_cards(hand0)
    rest = [c for c in parse_cards(" ".join(HANDS)) if c not in mine]
    game = Game(RuleSet(), hakem=Seat(0))
    game.apply(Deal.from_hands([mine, rest[:13], rest[13:26], rest[26:39]]))
    game.apply(ChooseTrump(Seat(0), trump))
    return game


def test_leads_the_queen_from_ace_queen_only_when_asked() -> None:
    """آس بی‌بی (option ``lead_queen``): with A-Q (no king) the queen is led first.

    It is off by default: it measured worse (docs/benchmarks.md), so the master ace is cashed.
    """
    game = _lead_view("2S 3S AH QH 5H 4H 9D 8D 7D 9C 8C 7C 6C")
    assert RuleBot(lead_queen=True).choose_card(view_of(game, Seat(0))) == Card.parse("QH")
    assert RuleBot().choose_card(view_of(game, Seat(0))) == Card.parse("AH")


def test_leads_an_escape_suit_singleton_early() -> None:
    """خال فرار: no master to cash, three low trumps and a singleton diamond: lead it."""
    game = _lead_view("2S 3S 4S 5D 9H 8H 7H 6H JC TC 9C 8C 7C")
    assert RuleBot().choose_card(view_of(game, Seat(0))) == Card.parse("5D")


def test_knowledge_caps_a_third_or_fourth_hand_that_did_not_beat_an_opponent() -> None:
    """Seat 2 followed 8C under seat 1's KC: it likely holds no club above the king."""
    k = Knowledge.from_view(view_of(stacked("2C KC 8C 4C"), Seat(1)))
    clubs = Suit.CLUBS.ordinal
    assert k.caps[2][clubs] == 13  # the king
    assert k.caps[3][clubs] == 15  # seat 3's partner was winning: nothing inferred
    assert k.caps[0][clubs] == 15  # the leader: nothing inferred
    # The ace of clubs is unseen to seat 1; seat 2 is now unlikely to hold it.
    queen = Card.parse("QC")
    assert k.p_holds_higher(Seat(2), queen) < k.p_holds_higher(Seat(3), queen)


def _game_from(hands: list[str], plays: str, trump: Suit = Suit.SPADES, hakem: int = 0) -> Game:
    game = Game(RuleSet(), hakem=Seat(hakem))
    game.apply(Deal.from_hands([parse_cards(h) for h in hands]))
    game.apply(ChooseTrump(Seat(hakem), trump))
    for text in plays.split():
        assert game.to_move is not None
        game.apply(Play(game.to_move, Card.parse(text)))
    return game


def test_second_hand_void_leaves_a_low_lead_to_partner() -> None:
    """Seat 0 leads 4D; seat 1 has no diamond: partner (seat 3, K-Q-J of diamonds) is likely
    to beat a four, so seat 1 keeps its trumps and discards. A high lead is still cut."""
    hands = [
        "AS KS 2S 3S AH 2H 3H 4D 5D 6D 7D 2C 3C",
        "4S 5S 6S KH QH JH TH 9H 8H 7H AC KC QC",
        "7S 8S 9S 6H 5H 4H AD TD 9D 8D JC TC 9C",
        "TS JS QS KD QD JD 3D 2D 8C 7C 6C 5C 4C",
    ]
    low = _game_from(hands, "4D")
    card = RuleBot().choose_card(view_of(low, Seat(1)))
    assert card.suit is not Suit.SPADES and card == Card.parse("7H")
    hands[0] = "AS KS 2S 3S AH 2H 3H AD 5D 6D 7D 2C 3C"
    hands[2] = "7S 8S 9S 6H 5H 4H 4D TD 9D 8D JC TC 9C"
    high = _game_from(hands, "AD")
    assert RuleBot().choose_card(view_of(high, Seat(1))) == Card.parse("4S")


def test_second_hand_does_not_waste_a_doubtful_cover_on_an_honour() -> None:
    """Seat 0 leads the jack of hearts; seat 1 holds Q-5 with the ace and king unseen: the
    queen would most likely fall to them, so seat 1 plays low. With A-5 it takes the trick."""
    hands = [
        "AS KS 2S 3S JH 2H 3H 4D 5D 6D 7D 2C 3C",
        "4S 5S 6S QH 5H 8D 9D TD JD AC KC QC JC",
        "7S 8S 9S AH KH 4H AD KD QD TC 9C 8C 7C",
        "TS JS QS TH 9H 8H 7H 6H 3D 2D 6C 5C 4C",
    ]
    game = _game_from(hands, "JH")
    assert RuleBot().choose_card(view_of(game, Seat(1))) == Card.parse("5H")
    hands[1] = "4S 5S 6S AH 5H 8D 9D TD JD AC KC QC JC"
    hands[2] = "7S 8S 9S QH KH 4H AD KD QD TC 9C 8C 7C"
    game = _game_from(hands, "JH")
    assert RuleBot().choose_card(view_of(game, Seat(1))) == Card.parse("AH")


def test_draws_trumps_only_when_our_side_is_long() -> None:
    """A defender with the master and two more trumps (seven out) keeps them; it does not
    lead a king of trump into the unseen ace either. The hakem's side with four does draw."""
    game = _lead_view("AS 4S 3S AH KH 5H 4H 9D 8D 7D 9C 8C 7C")
    view = view_of(game, Seat(0))
    # Seat 0 is the hakem here, with three trumps: not long, so it cashes a side master.
    assert RuleBot().choose_card(view) == Card.parse("AH")
    game = _lead_view("KS 4S 3S 2S AH 5H 4H 9D 8D 7D 9C 8C 7C")
    card = RuleBot().choose_card(view_of(game, Seat(0)))
    assert card != Card.parse("KS")  # no forcing lead of the king into the ace
    game = _lead_view("AS 4S 3S 2S 6H 5H 4H 9D 8D 7D 9C 8C 7C")
    assert RuleBot().choose_card(view_of(game, Seat(0))) == Card.parse("AS")


def test_at_six_tricks_keeps_its_trumps_for_a_later_trick() -> None:
    """A real position (arena seed dev-z): seat 2's side has 6 tricks, the hakem's 3, four
    cards left each. Any one of the last four tricks wins the hand, so seat 2 leads a small
    spade and keeps J-10 of trump (leading the 10 runs into the hakem's K-Q of trump)."""
    hands = [
        "4C 2C AS JS 8S 4S TH 7H 6H 5H 2H QD 8D",
        "AC KC QC 9C 6C 9S 7S AH QH 8H KD 5D 4D",
        "JC TC 8C 7C 5C QS 6S 5S 2S 3H JD 3D 2D",
        "3C KS TS 3S KH JH 9H 4H AD TD 9D 7D 6D",
    ]
    plays = (
        "AH 3H 4H 2H AC 5C 3C 2C KD 2D AD 8D KH 5H 8H 7C 2S KS AS 7S QD 4D 3D 6D "
        "6H QH 8C 9H QS 3S 4S 9S JD 7D 7H 5D"
    )
    game = _game_from(hands, plays, trump=Suit.CLUBS, hakem=1)
    view = view_of(game, Seat(2))
    assert view.tricks_won == (6, 3) and not view.trick
    assert RuleBot().choose_card(view) == Card.parse("5S")
