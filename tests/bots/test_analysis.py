"""Double-dummy analysis of records (hokm.analysis, ``hokm analyse``)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from hokm.analysis import GameAnalysis, PlayNote, RecordBrokenError, _as_a_lone_hand, analyse
from hokm.bots import make_bot
from hokm.bots.dd import card_outcomes
from hokm.bots.fast import FastHand
from hokm.cli import main
from hokm.engine import (
    Card,
    Deal,
    DrawAces,
    Game,
    InvalidRecordError,
    Phase,
    RuleSet,
    Seat,
    view_of,
)
from hokm.engine.records import record_from_game

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _bot_game(seed: str, levels: tuple[str, str] = ("medium", "random"), target: int = 7) -> Game:
    game = Game(RuleSet(target_points=target), first_hakem="ace_draw")
    game.apply(DrawAces.from_seed(seed))
    bots = [make_bot(levels[s & 1], seed=s) for s in range(4)]
    n = 0
    while not game.is_over:
        if game.is_chance:
            assert game.hakem is not None
            game.apply(Deal.from_seed(f"{seed}-{n}", game.hakem))
            n += 1
            continue
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].act(view_of(game, seat)))
    return game


def _hakem_side(outcome: int, seat: int, hakem: int) -> int:
    """A mover's outcome seen from the hakem's team: only who reaches 7 (its sign)."""
    sign = 1 if outcome > 0 else -1
    return sign if (seat & 1) == (hakem & 1) else -sign


@pytest.mark.parametrize("seed", ["an-1", "an-2", "an-3"])
def test_the_double_dummy_outcome_changes_only_at_a_mistake(seed: str) -> None:
    """Who reaches 7 with perfect play from each position: it moves only when a card is a
    mistake, against the team of the seat that played it, and ends as the real result."""
    game = _bot_game(seed)
    analysis = analyse(record_from_game(game))
    assert len(analysis.hands) == len(game.hand_results)
    for hand, result in zip(analysis.hands, game.hand_results, strict=True):
        assert hand.result == result.result and hand.winner_team == result.winner_team
        assert hand.start is not None
        before = 1 if hand.start > 0 else -1  # for the hakem's team
        for note in hand.notes:
            assert note.choices >= 2
            assert _hakem_side(note.best_outcome, note.seat, hand.hakem) == before
            after = _hakem_side(note.outcome, note.seat, hand.hakem)
            if after != before:
                assert note.mistake and note.points_lost >= 2
                assert note.card not in note.best
                # the flip is against the team of the seat that played the card
                assert (after > 0) != ((note.seat & 1) == (hand.hakem & 1))
            before = after
        hakem_won = result.winner_team == hand.hakem & 1
        assert before == (1 if hakem_won else -1)


def _best_card(fast: FastHand) -> int:
    outcomes = card_outcomes(fast)
    return min(c for c, o in outcomes.items() if o == max(outcomes.values()))


def test_perfect_play_has_no_mistake_and_one_blunder_is_found() -> None:
    """Four seats play the double-dummy best card, except one card that gives the hand away:
    the analysis names exactly that card, its better cards and the points it cost."""
    rng = random.Random(3)
    for attempt in range(40):
        game = Game(RuleSet(), hakem=Seat(0))
        deal = Deal.from_seed(f"blunder-{attempt}", Seat(0))
        game.apply(deal)
        game.choose_trump("H")
        fast = FastHand.from_deal(deal, trump=game.trump, hakem=Seat(0))  # type: ignore[arg-type]
        blunder_at = rng.randrange(8, 30)
        blunder: int | None = None
        while game.phase is Phase.PLAY:
            card = _best_card(fast)
            if len(game.current_trick) + 4 * len(game.tricks) == blunder_at:
                outcomes = card_outcomes(fast)
                worse = [c for c, o in outcomes.items() if o * outcomes[card] < 0]
                if worse:
                    card, blunder = min(worse), blunder_at
            fast.play(card)
            game.play(Card.from_index(card))
        if blunder is None:
            continue
        analysis = analyse(record_from_game(game))
        (hand,) = analysis.hands
        (mistake,) = hand.mistakes
        assert mistake.play == blunder
        assert mistake.best_outcome > 0 > mistake.outcome
        assert mistake.points_lost == mistake.best_points - mistake.points >= 2
        assert mistake.best and mistake.card not in mistake.best
        totals = analysis.seat_totals()
        assert sum(t["mistakes"] for t in totals) == 1
        assert totals[mistake.seat]["points_lost"] == mistake.points_lost
        return
    pytest.fail("no deal gave a losing card to play")


@pytest.mark.parametrize("seed", ["an-budget-1", "an-budget-2"])
def test_a_smaller_kot_budget_hides_mistakes_but_never_makes_one_up(seed: str) -> None:
    """Kot questions the solver cannot settle are not taken as answers: every mistake found
    with 200 nodes a question is found with 5,000 too, with the same points (a budget used
    to turn a kot it could not prove into a mistake that a larger budget took back)."""
    record = record_from_game(_bot_game(seed))
    small = analyse(record, kot_nodes=200)
    large = analyse(record, kot_nodes=5_000)
    unsettled = 0
    for few, many in zip(small.hands, large.hands, strict=True):
        found = {n.play: n for n in many.mistakes}
        for note in few.mistakes:
            assert note.play in found
            assert note.points_lost <= found[note.play].points_lost
        unsettled += sum(n.kot_unsettled for n in few.notes)
    assert unsettled > 0  # the small budget did leave kot questions open


def test_each_mistake_has_the_hard_bots_card_from_the_seats_own_view() -> None:
    """The second opinion is the hard bot asked with the seat's view: where the hard bot
    itself played (its first six tricks do not depend on its seed), it names the card it
    played; and it avoids the mistake exactly when its card is not one of the worse cards."""
    game = _bot_game("an-hard", ("hard", "random"), target=3)
    analysis = analyse(record_from_game(game))
    mistakes = [n for h in analysis.hands for n in h.mistakes]
    assert mistakes
    for note in mistakes:
        assert note.bot_card is not None and note.card in note.worse
        assert note.bot_avoids == (note.bot_card not in note.worse)
        if note.seat % 2 == 0 and note.trick <= 6:
            assert note.bot_card == note.card and note.bot_avoids is False
    totals = analysis.seat_totals()
    assert sum(t["avoidable"] for t in totals) == sum(bool(n.bot_avoids) for n in mistakes)
    plain = analyse(record_from_game(game), bot=None)
    assert all(n.bot_card is None for h in plain.hands for n in h.notes)
    assert [n.play for h in plain.hands for n in h.mistakes] == [n.play for n in mistakes]


def test_the_bot_is_asked_as_if_the_hand_were_alone() -> None:
    """Near the target a kot is worth no more than a win to the bot (points are capped by
    the target), while the analysis counts a hand's points uncapped: the bot is asked with
    the score at 0–0 and a target no hand reaches, and otherwise the same view."""
    game = Game(RuleSet(target_points=2), hakem=Seat(1))
    game.apply(Deal.from_seed("lone", Seat(1)))
    game.choose_trump("D")
    seat = game.to_move
    assert seat is not None
    view = dataclasses.replace(view_of(game, seat), score=(1, 1))
    alone = _as_a_lone_hand(view)
    assert alone.score == (0, 0)
    assert alone.rules.target_points > alone.rules.hakem_kot_points
    assert alone.rules.replace(target_points=2) == view.rules
    assert dataclasses.replace(alone, score=view.score, rules=view.rules) == view


def test_plays_after_the_seventh_trick_of_a_bam_are_not_judged() -> None:
    data = json.loads((GOLDEN / "classic_redeal_and_bam.json").read_text(encoding="utf-8"))
    record = data["record"]
    analysis = analyse(record)
    bam_hands = [i for i, h in enumerate(record["hands"]) if h.get("bam")]
    assert bam_hands
    for index in bam_hands:
        (hand,) = [h for h in analysis.hands if h.hand == index]
        plays = len(record["hands"][index]["plays"])
        assert plays > hand.judged
        assert all(n.play < hand.judged for n in hand.notes)


def test_a_broken_or_malformed_record_is_refused() -> None:
    game = _bot_game("an-broken")
    record = record_from_game(game)
    plays = record["hands"][0]["plays"]
    plays[1], plays[2] = plays[2], plays[1]  # out of turn: someone plays another's card
    with pytest.raises(RecordBrokenError) as broken:
        analyse(record)
    assert broken.value.error["hand"] == 0
    with pytest.raises(InvalidRecordError):
        analyse({"hands": "no"})


def test_an_unfinished_game_is_analysed_up_to_its_last_play() -> None:
    game = Game(RuleSet(), hakem=Seat(2))
    game.apply(Deal.from_seed("unfinished", Seat(2)))
    game.choose_trump("S")
    for _ in range(10):
        game.play(game.legal_cards()[-1])
    calls: list[tuple[int, int]] = []
    analysis = analyse(record_from_game(game), progress=lambda *a: calls.append(a))
    (hand,) = analysis.hands
    assert hand.result is None and hand.judged == 10
    assert sum(hand.tricks) == 2
    assert calls == [(0, 1), (1, 1)]  # before the hand, then done


def test_the_command_prints_mistakes_json_and_exit_statuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _bot_game("an-cli")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_from_game(game)), encoding="utf-8")
    assert main(["analyse", str(path)]) == 0
    text = capsys.readouterr().out
    assert "double-dummy" in text and "Seats (mistakes" in text
    assert text.count("Hand ") == len(game.hand_results)

    assert main(["analyse", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = analyse(record_from_game(game))
    assert isinstance(expected, GameAnalysis)
    assert report == {"file": str(path), **expected.to_dict()}
    mistakes = sum(len(h["mistakes"]) for h in report["hands"])
    assert mistakes == sum(s["mistakes"] for s in report["seats"])
    if mistakes:
        assert "MISTAKE" in text

    assert main(["analyse", "--all", str(path)]) == 0
    every = capsys.readouterr().out
    plays = sum(len(h["plays"]) for h in report["hands"])
    assert every.count("  Trick ") == plays

    broken = record_from_game(game)
    broken["hands"][0]["plays"][0] = "XX"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    assert main(["analyse", str(bad)]) == 1
    out = capsys.readouterr()
    assert "breaks a rule at hand 1, trick 1 (play 1, the trick's 1st card), seat" in out.out
    assert "hokm analyse" in out.err

    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    assert main(["analyse", "--json", str(junk), str(path)]) == 2
    said = capsys.readouterr()
    first, second = said.out.splitlines()
    assert json.loads(first)["malformed"] is True and json.loads(second)["ok"] is True
    assert json.loads(first)["file"] == str(junk) and "hokm analyse" in said.err


def _saved_game(
    tmp_path: Path, seed: str, *, hakem: int, trump: str, plays: int
) -> tuple[Game, Path]:
    """A hand of ``plays`` cards (each seat's last legal card), saved as a record file."""
    game = Game(RuleSet(), hakem=Seat(hakem))
    game.apply(Deal.from_seed(seed, Seat(hakem)))
    game.choose_trump(trump)
    for _ in range(plays):
        game.play(game.legal_cards()[-1])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_from_game(game)), encoding="utf-8")
    return game, path


def test_the_kot_budget_is_an_option_of_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = _saved_game(tmp_path, "budget", hakem=2, trump="S", plays=8)
    assert main(["analyse", "--json", "--kot-nodes", "20000", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = analyse(record_from_game(game), kot_nodes=20000).to_dict()
    assert report == {"file": str(path), **expected}
    with pytest.raises(SystemExit):
        main(["analyse", "--kot-nodes", "5", str(path)])
    assert "from 100 to 1000000" in capsys.readouterr().err


def _note(**kw: object) -> PlayNote:
    base: dict[str, object] = dict(
        play=4, trick=2, seat=1, card="4S", choices=3, outcome=-1, best_outcome=-1,
        tricks=5, best_tricks=5, best=("5D",), points=-1, best_points=-1,
    )  # fmt: skip
    base.update(kw)
    return PlayNote(**base)  # type: ignore[arg-type]


def _said(note: PlayNote, *, hakem: int = 0) -> str:
    from hokm.cli.analyse import _note_text

    return _note_text(note, lambda s: f"seat {s}", hakem=hakem)


def test_a_seven_nil_against_the_hakem_is_named_a_hakem_kot() -> None:
    """RULES.md §6: a 7–0 is a kot when the hakem's team wins it and a hakem-kot (+3) when
    the other team does. The readable analysis called both a kot: "a kot (کُت) became a win
    for team 1 (+3 → +1 points)" of the team that was not the hakem's."""
    missed = _note(outcome=1, best_outcome=2, points=1, best_points=3, mistake=True)
    assert "MISTAKE, a hakem-kot (حاکم‌کُتی) became a win for team 1 (+3 → +1" in _said(missed)
    assert "MISTAKE, a kot (کُت) became a win for team 1 (+2 → +1" in _said(
        _note(outcome=1, best_outcome=2, points=1, best_points=2, mistake=True), hakem=1
    )
    let_through = _note(outcome=-2, best_outcome=-1, points=-3, best_points=-1, mistake=True)
    assert "a loss became a hakem-kot against it for team 1" in _said(let_through, hakem=3)
    assert "a loss became a kot against it for team 1" in _said(let_through)


def test_a_play_whose_comparison_a_kot_left_unsettled_is_not_blamed() -> None:
    """The played card is a sure kot against (-2); the better card is a loss or perhaps a kot
    against too, its kot question unsettled (shown as none: -1). Not a proven mistake: the
    note said "a kot against it …, perhaps a loss", as if the played card's own outcome were
    in doubt; it says the comparison is unsettled and blames nothing."""
    note = _note(outcome=-2, best_outcome=-1, points=-2, best_points=-1)
    assert note.unsettled and note.to_dict()["unsettled"] is True  # what --json says of it
    text = _said(note)
    assert "MISTAKE" not in text and "unsettled, not a mistake" in text
    assert text.startswith("  Trick 2, seat 1 4♠: a kot against it for team 1; 5♦ perhaps")
    assert "their kot was not settled" in text
    # The played card's own kot unsettled: a win, perhaps a kot as the best card's.
    text = _said(_note(outcome=1, best_outcome=2, points=1, best_points=2, kot_unsettled=True))
    assert "MISTAKE" not in text and "too close to call, not a mistake" in text
    assert "a win for team 1, perhaps a hakem-kot (حاکم‌کُتی) as with 5♦" in text
    # A card that keeps the outcome but whose kot against is open says so.
    text = _said(_note(kot_unsettled=True))
    assert "a loss, perhaps a kot against it (kot not settled)" in text
    # A proven mistake is still one.
    note = _note(outcome=-1, best_outcome=1, points=-1, best_points=1, mistake=True)
    assert not note.unsettled and note.to_dict()["unsettled"] is False
    assert "MISTAKE, a win became a loss for team 1" in _said(note)
    assert not _note(kot_unsettled=True).unsettled  # keeps the outcome: nothing to compare


def test_json_counts_hands_and_plays_from_0_and_tricks_from_1_as_the_docs_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/records.md: ``hand`` and ``play`` are indexes, ``trick`` the number people read
    ("play": 4, "trick": 2), the same number as the readable account's "Trick 2"."""
    _, path = _saved_game(tmp_path, "count", hakem=1, trump="H", plays=12)
    assert main(["analyse", "--json", str(path)]) == 0
    (hand,) = json.loads(capsys.readouterr().out)["hands"]
    assert hand["hand"] == 0 and hand["plays"]
    assert all(p["trick"] == p["play"] // 4 + 1 for p in hand["plays"])
    assert {p["trick"] for p in hand["plays"]} <= {1, 2, 3}
    assert main(["analyse", "--all", str(path)]) == 0
    text = capsys.readouterr().out
    for p in hand["plays"]:
        assert f"  Trick {p['trick']}, seat {p['seat']} " in text


def test_a_leavers_seat_is_named_for_the_player_then_for_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server's record says who left and from which play a bot held the seat (``left``):
    each play of that seat is put to the player or to the bot, the totals to both."""
    _, path = _saved_game(tmp_path, "leaver", hakem=2, trump="S", plays=12)
    record = json.loads(path.read_text(encoding="utf-8"))
    record["players"] = ["Ann", None, "Cy", "Dee"]
    record["left"] = [{"seat": 1, "name": "Bob", "hand": 0, "plays": 6}]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["analyse", "--all", str(path)]) == 0
    text = capsys.readouterr().out
    assert main(["analyse", "--json", "--all", str(path)]) == 0
    plays = json.loads(capsys.readouterr().out)["hands"][0]["plays"]
    mine = [p for p in plays if p["seat"] == 1]
    assert {p["play"] < 6 for p in mine} == {True, False}, mine  # before and after
    for p in mine:
        who = "Bob" if p["play"] < 6 else "a bot for Bob"
        assert f"  Trick {p['trick']}, seat 1 ({who}) " in text, (p, text)
    assert "  seat 1 (Bob, then a bot), team 1:" in text


def _failed_bam_record(failed_bam: str) -> dict[str, object]:
    """Team 0 (the hakem's) takes the first seven tricks, goes for bam and loses the eighth."""
    ranks = "AKQJT98765432"
    hands = [
        [r + "S" for r in ranks[:12]] + ["2H"],
        [r + "H" for r in ranks[:12]] + ["2S"],
        [r + "D" for r in ranks],
        [r + "C" for r in ranks],
    ]
    plays = ["AS", "2S", "2D", "2C"]
    for i in range(1, 7):
        low = ranks[::-1][i]
        plays += [ranks[i] + "S", ranks[::-1][i] + "H", low + "D", low + "C"]
    plays += ["2H", "AH", "AD", "AC"]
    rules = {"preset": "classic", "redeal_if_player_has_no_trump": False, "failed_bam": failed_bam}
    hand = {"hakem": 0, "cards": hands, "trump": "S", "plays": plays, "bam": True}
    return {"rules": rules, "hands": [hand]}


@pytest.mark.parametrize(
    ("failed_bam", "said"),
    [
        ("minus3", "Result: failed bam (بام ناموفق), team 0's bam failed at 7–1, so team 1 wins"),
        ("kot", "Result: failed bam (بام ناموفق), team 0 7–1."),
    ],
)
def test_a_failed_bam_result_says_whose_bam_failed(
    failed_bam: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under failed_bam=minus3 the other team wins the hand with fewer tricks: the analysis
    said "team 1 1–7", as if team 1 had won 1–7 (the referee says whose bam failed)."""
    path = tmp_path / "bam.json"
    path.write_text(json.dumps(_failed_bam_record(failed_bam)), encoding="utf-8")
    assert main(["analyse", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # (lines are wrapped at 80 columns)
    assert said in out, out
    assert "1–7" not in out
