"""Game records (``hokm-record/1``) and the referee that judges them. Pure: no I/O.

A record is JSON data: the rules, then per hand the hakem, each seat's 13 cards, the trump,
the cards in playing order and the bam decision (``docs/records.md`` has every field).
:func:`judge` replays a record through the engine and returns the referee's report;
:func:`record_from_game` writes the record of a game (finished or in progress).

>>> from hokm.engine import Game, RuleSet, Deal, Seat, Phase
>>> game = Game(RuleSet(target_points=1), hakem=Seat(0))
>>> _ = game.apply(Deal.from_seed("record", Seat(0)))
>>> _ = game.choose_trump("H")
>>> while game.phase is Phase.PLAY:
...     _ = game.play(game.legal_cards()[0])
>>> report = judge(record_from_game(game))
>>> report["ok"], report["game_over"], report["hands"][0]["result"]
(True, True, 'normal')
>>> bad = record_from_game(game)
>>> bad["hands"][0]["plays"][1] = bad["hands"][0]["plays"][0]
>>> judge(bad)["error"]["reason"]
'seat 1 does not hold 3S'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hokm.engine.actions import ChooseTrump, Deal, DecideBam, DrawAces, Play, RequestRedeal
from hokm.engine.cards import Card, Seat, Suit
from hokm.engine.errors import HokmError, InvalidRecordError
from hokm.engine.events import Redealt
from hokm.engine.game import Game, Phase
from hokm.engine.rules import RuleSet
from hokm.engine.shuffle import seed_commitment

__all__ = [
    "FORMAT",
    "RESULT_NAMES",
    "DealCheck",
    "Record",
    "RecordHand",
    "RecordRedeal",
    "Verdict",
    "check_deal",
    "judge",
    "parse_record",
    "record_from_game",
    "referee",
    "verify_record",
]

FORMAT = "hokm-record/1"

#: English and Persian names of hand results (RULES.md §1 and §6).
RESULT_NAMES: dict[str, tuple[str, str]] = {
    "normal": ("normal win", "برد ساده"),
    "kot": ("kot", "کُت"),
    "hakem_kot": ("hakem-kot", "حاکم‌کُتی"),
    "bam": ("bam", "بام"),
    "par_bam": ("par-bam", "پَر بام"),
    "failed_bam": ("failed bam", "بام ناموفق"),
}

_REDEAL_REASONS = ("weak_five", "no_trump")


# ---------------------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class RecordRedeal:
    """A deal that was abandoned before the hand's played deal (extra, optional field)."""

    reason: str  # weak_five | no_trump
    cards: tuple[tuple[str, ...], ...]
    trump: str | None = None  # the trump named before a no_trump redeal
    seed: str | None = None
    commitment: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"reason": self.reason, "cards": [list(h) for h in self.cards]}
        if self.trump is not None:
            data["trump"] = self.trump
        _put_seed(data, self.seed, self.commitment)
        return data


@dataclass(frozen=True, slots=True)
class RecordHand:
    """One hand of a record. Card texts are kept as written; the referee parses them."""

    hakem: int | None
    cards: tuple[tuple[str, ...], ...]
    trump: str | None
    plays: tuple[str, ...]
    bam: bool | None = False  # None: explicitly undecided (a game waiting for the decision)
    seed: str | None = None
    commitment: str | None = None
    redeals: tuple[RecordRedeal, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        if self.hakem is not None:
            data["hakem"] = self.hakem
        data["cards"] = [list(h) for h in self.cards]
        data["trump"] = self.trump
        data["plays"] = list(self.plays)
        data["bam"] = self.bam
        _put_seed(data, self.seed, self.commitment)
        if self.redeals:
            data["redeals"] = [r.to_dict() for r in self.redeals]
        return data


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed ``hokm-record/1``: rules (as written) and hands."""

    rules: Mapping[str, Any]
    hands: tuple[RecordHand, ...]
    ace_draw: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "rules": dict(self.rules)}
        if self.ace_draw is not None:
            data["ace_draw"] = dict(self.ace_draw)
        data["hands"] = [h.to_dict() for h in self.hands]
        return data


def _put_seed(data: dict[str, Any], seed: str | None, commitment: str | None) -> None:
    if seed is not None:
        data["seed"] = seed
    if commitment is not None:
        data["commitment"] = commitment


def _malformed(where: str, what: str) -> InvalidRecordError:
    return InvalidRecordError(f"malformed record: {where} {what}")


def _opt_str(data: Mapping[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise _malformed(f"{where}.{key}", "must be a string")
    return value


def _str_list(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _malformed(where, "must be a list of card strings")
    return tuple(value)


def _cards_field(value: object, where: str) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list):
        raise _malformed(where, "must be a list of four lists of cards (one per seat)")
    return tuple(_str_list(seat_cards, f"{where}[{s}]") for s, seat_cards in enumerate(value))


def _parse_redeal(data: object, where: str) -> RecordRedeal:
    if not isinstance(data, Mapping):
        raise _malformed(where, "must be an object")
    reason = data.get("reason")
    if reason not in _REDEAL_REASONS:
        raise _malformed(f"{where}.reason", "must be weak_five or no_trump")
    return RecordRedeal(
        reason=reason,
        cards=_cards_field(data.get("cards"), f"{where}.cards"),
        trump=_opt_str(data, "trump", where),
        seed=_opt_str(data, "seed", where),
        commitment=_opt_str(data, "commitment", where),
    )


def _parse_hand(data: object, index: int) -> RecordHand:
    where = f"hands[{index}]"
    if not isinstance(data, Mapping):
        raise _malformed(where, "must be an object")
    hakem = data.get("hakem")
    if hakem is None:
        if index == 0:
            raise _malformed(f"{where}.hakem", "is required for the first hand")
    elif isinstance(hakem, bool) or not isinstance(hakem, int) or not 0 <= hakem <= 3:
        raise _malformed(f"{where}.hakem", "must be a seat 0–3")
    if "cards" not in data:
        raise _malformed(f"{where}.cards", "is required")
    plays = data.get("plays", [])
    bam = data.get("bam", False)
    if bam is not None and not isinstance(bam, bool):
        raise _malformed(f"{where}.bam", "must be true, false or null")
    redeals = data.get("redeals", [])
    if not isinstance(redeals, list):
        raise _malformed(f"{where}.redeals", "must be a list")
    known = {"hakem", "cards", "trump", "plays", "bam", "seed", "commitment", "redeals"}
    return RecordHand(
        hakem=hakem,
        cards=_cards_field(data["cards"], f"{where}.cards"),
        trump=_opt_str(data, "trump", where),
        plays=_str_list(plays, f"{where}.plays"),
        bam=bam,
        seed=_opt_str(data, "seed", where),
        commitment=_opt_str(data, "commitment", where),
        redeals=tuple(_parse_redeal(r, f"{where}.redeals[{i}]") for i, r in enumerate(redeals)),
        extra={k: v for k, v in data.items() if k not in known},
    )


def parse_record(data: object) -> Record:
    """Check the shape of a record; raise :class:`InvalidRecordError` when malformed.

    Only the structure is checked here (JSON types, required fields); cards, plays and
    scores are the referee's business (:func:`judge`).
    """
    if not isinstance(data, Mapping):
        raise InvalidRecordError("malformed record: the top level must be a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise InvalidRecordError(f"malformed record: format must be {FORMAT!r}, not {fmt!r}")
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise _malformed("rules", "must be an object")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise _malformed("hands", "must be a list")
    ace_draw = data.get("ace_draw")
    if ace_draw is not None:
        if not isinstance(ace_draw, Mapping):
            raise _malformed("ace_draw", "must be an object")
        start = ace_draw.get("start")
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= 3:
            raise _malformed("ace_draw.start", "must be a seat 0–3")
        _str_list(ace_draw.get("cards"), "ace_draw.cards")
    return Record(
        rules=dict(rules),
        hands=tuple(_parse_hand(h, i) for i, h in enumerate(hands)),
        ace_draw=None if ace_draw is None else dict(ace_draw),
    )


# ---------------------------------------------------------------------------- the referee


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's report (``judge``'s JSON) and the replayed game, up to any error."""

    report: dict[str, Any]
    game: Game | None
    record: Record | None


class _Broken(Exception):
    """A rule break at a place in the record (becomes the report's ``error``)."""

    def __init__(
        self,
        hand: int | None,
        reason: str,
        *,
        play: int | None = None,
        seat: int | None = None,
        card: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.error = {"hand": hand, "play": play, "seat": seat, "card": card, "reason": reason}


def judge(record: object) -> dict[str, Any]:
    """Check every deal and play of ``record`` and score the game (see ``docs/records.md``).

    Returns ``{"ok": true, "hands": [...], "score": ..., "game_over": ..., "winner_team": ...}``
    or ``{"ok": false, "error": {"hand", "play", "seat", "card", "reason"}}``; raises
    :class:`InvalidRecordError` when the input is not a record at all.
    """
    return referee(record).report


#: Called before each recorded play is applied: ``observer(game, hand_index, play_index)``
#: (the game positioned just before the play; ``game.to_move`` plays it). The observer must not
#: change the game: it reads it (``view_of``) and returns.
PlayObserver = Callable[[Game, int, int], None]


def referee(record: object, *, observer: PlayObserver | None = None) -> Verdict:
    """Like :func:`judge`, also returning the replayed game (for a readable account);
    ``observer`` sees the game before each play (the analysis asks a bot there)."""
    parsed = record if isinstance(record, Record) else parse_record(record)
    try:
        rules = RuleSet.from_dict(parsed.rules)
    except HokmError as exc:
        raise InvalidRecordError(f"malformed record: rules: {exc}") from exc
    game: Game | None = None
    hands_out: list[dict[str, Any]] = []
    try:
        game = _first_game(rules, parsed)
        for index, hand in enumerate(parsed.hands):
            last = index == len(parsed.hands) - 1
            hands_out.append(_judge_hand(game, index, hand, last=last, observer=observer))
    except _Broken as broken:
        return Verdict({"ok": False, "error": broken.error}, game, parsed)
    assert game is not None
    report = {
        "ok": True,
        "hands": hands_out,
        "score": list(game.score),
        "game_over": game.is_over,
        "winner_team": game.winner_team,
    }
    return Verdict(report, game, parsed)


def _first_game(rules: RuleSet, record: Record) -> Game:
    if not record.hands:
        return Game(rules, first_hakem="manual")
    hakem = record.hands[0].hakem
    assert hakem is not None  # parse_record requires it
    if record.ace_draw is None:
        return Game(rules, hakem=Seat(hakem), hakem_method="record")
    if rules.first_hakem != "ace_draw":  # the record contradicts itself
        raise _Broken(
            None, f"an ace draw is given, but the rules' first_hakem is {rules.first_hakem!r}"
        )
    game = Game(rules, first_hakem="ace_draw")
    try:
        draw = DrawAces(
            Seat.parse(record.ace_draw.get("start")),
            tuple(Card.parse(c) for c in _str_list(record.ace_draw.get("cards"), "ace_draw.cards")),
        )
        game.apply(draw)
    except HokmError as exc:
        raise _Broken(None, f"ace draw: {exc}") from exc  # before any hand
    if game.hakem != hakem:
        raise _Broken(0, f"the ace draw makes seat {int(draw.hakem)} hakem, not seat {hakem}")
    return game


def _deal(hand: RecordHand | RecordRedeal, index: int, hakem: Seat) -> Deal:
    """The deal of a hand (or of an abandoned deal), with its seed checked."""
    if len(hand.cards) != 4:
        given = len(hand.cards)
        if given == 0:
            raise _Broken(index, "no seat's cards are given: a deal is 4 lists of 13")
        raise _Broken(index, f"the cards of {given} seat{'s' * (given > 1)} are given, not 4")
    hands: list[list[Card]] = []
    for seat, texts in enumerate(hand.cards):
        try:
            hands.append([Card.parse(t) for t in texts])
        except HokmError as exc:
            raise _Broken(index, f"seat {seat}: {exc}") from exc
    deal = Deal.from_hands(hands, seed=hand.seed)
    problem = deal.problem()
    if problem is not None:
        raise _Broken(index, f"invalid deal: {problem}")
    if hand.seed is not None:
        if hand.commitment is not None and seed_commitment(hand.seed) != hand.commitment.lower():
            raise _Broken(index, "the seed does not match its commitment (SHA-256 of the seed)")
        seeded = Deal.from_seed(hand.seed, hakem)
        for seat in range(4):
            if set(seeded.hands[seat]) != set(deal.hands[seat]):
                raise _Broken(index, f"seat {seat}'s cards are not the deal of the seed")
    return deal


def _trump(text: str, index: int) -> Suit:
    try:
        return Suit.parse(text)
    except HokmError as exc:
        raise _Broken(index, f"trump: {exc}") from exc


def _redeal(game: Game, index: int, redeal: RecordRedeal, number: int) -> None:
    hakem = game.hakem
    assert hakem is not None
    try:
        game.apply(_deal(redeal, index, hakem))
    except _Broken as broken:
        broken.error["reason"] = f"redeal {number}: {broken.error['reason']}"
        raise
    try:
        if redeal.reason == "weak_five":
            game.apply(RequestRedeal(hakem))
            return
        if redeal.trump is None:
            raise _Broken(index, f"redeal {number}: a no_trump redeal needs the trump named")
        events = game.apply(ChooseTrump(hakem, _trump(redeal.trump, index)))
    except HokmError as exc:
        raise _Broken(index, f"redeal {number}: {exc}") from exc
    if not any(isinstance(e, Redealt) for e in events):
        raise _Broken(index, f"redeal {number}: no redeal is due (no_trump)")


def _judge_hand(
    game: Game,
    index: int,
    hand: RecordHand,
    *,
    last: bool,
    observer: PlayObserver | None = None,
) -> dict[str, Any]:
    if game.is_over:
        raise _Broken(index, f"the game is already over (team {game.winner_team} won)")
    assert game.hakem is not None
    if hand.hakem is not None and hand.hakem != game.hakem:
        raise _Broken(
            index,
            f"the hakem is seat {int(game.hakem)} by the rules (the hakem stays while "
            f"the hakem's team wins a hand, else the next seat is hakem), not seat {hand.hakem}",
        )
    for number, redeal in enumerate(hand.redeals, start=1):  # counted from 1, as people do
        _redeal(game, index, redeal, number)
    hakem = game.hakem
    game.apply(_deal(hand, index, hakem))
    if hand.trump is None:
        if hand.plays or not last:
            raise _Broken(index, "the hand has no trump")
        return _summary(game, index)
    events = game.apply(ChooseTrump(hakem, _trump(hand.trump, index)))
    for event in events:
        if isinstance(event, Redealt):
            raise _Broken(
                index,
                f"seat {int(event.seat or 0)} holds no trump: with redeal_if_player_has_no_trump "
                "on this deal is redealt",
            )
    for play, text in enumerate(hand.plays):
        _play(game, index, play, text, hand.bam, observer)
    if game.phase is Phase.BAM and hand.bam is not None:
        _decide_bam(game, hand.bam)
    if game.hand_number == index and not last:
        raise _Broken(index, "the hand is unfinished but another hand follows")
    return _summary(game, index)


def _decide_bam(game: Game, go: bool) -> None:
    assert game.bam_team is not None
    game.apply(DecideBam(Seat(game.bam_team), go))


def _play(
    game: Game,
    index: int,
    play: int,
    text: str,
    bam: bool | None,
    observer: PlayObserver | None = None,
) -> None:
    if game.phase is Phase.BAM and bam:
        _decide_bam(game, True)
    seat = game.to_move
    if game.hand_number != index or game.phase is not Phase.PLAY or seat is None:
        if game.phase is Phase.BAM:
            reason = "the hand ended at 7–0 without bam: this play is extra"
        else:
            reason = "the hand is over: this play is extra"
        raise _Broken(index, reason, play=play, card=text)
    if observer is not None:
        observer(game, index, play)
    try:
        game.apply(Play.of(seat, Card.parse(text)))
    except HokmError as exc:
        raise _Broken(index, str(exc), play=play, seat=int(seat), card=text) from exc


def _summary(game: Game, index: int) -> dict[str, Any]:
    if game.hand_number > index:
        r = game.hand_results[index]
        return {
            "hakem": int(r.hakem),
            "trump": r.trump.value,
            "trick_winners": [int(s) for s in r.trick_winners],
            "tricks": list(r.tricks),
            "complete": True,
            "result": r.result,
            "winner_team": r.winner_team,
            "points": list(r.points),
            "score": list(r.score),
            "next_hakem": int(r.next_hakem),
        }
    return {
        "hakem": None if game.hakem is None else int(game.hakem),
        "trump": None if game.trump is None else game.trump.value,
        "trick_winners": [int(t.winner) for t in game.tricks],
        "tricks": list(game.tricks_won),
        "complete": False,
        "result": None,
        "winner_team": None,
        "points": [0, 0],
        "score": list(game.score),
        "next_hakem": None,
    }


# ---------------------------------------------------------------------------- building


def record_from_game(game: Game) -> dict[str, Any]:
    """The ``hokm-record/1`` of ``game``, finished or in progress, as JSON data.

    Seeded deals carry ``seed`` and ``commitment``; abandoned deals appear as ``redeals``
    of the hand that followed them; the ace draw, if any, as ``ace_draw``.
    """
    replay = Game(
        game.rules,
        hakem=game.initial_hakem,
        hakem_method=game.initial_hakem_method,
        first_hakem=game.first_hakem_method,
    )
    hands: list[dict[str, Any]] = []
    redeals: list[dict[str, Any]] = []
    hand: dict[str, Any] | None = None
    for action in game.history:
        events = replay.apply(action)
        if isinstance(action, Deal):
            hand = {"hakem": int(replay.hakem or 0), "cards": _card_lists(action)}
            hand.update(trump=None, plays=[], bam=False)
            _put_seed(hand, action.seed, _commitment(action.seed))
        elif hand is not None and isinstance(action, ChooseTrump):
            hand["trump"] = action.suit.value
        elif hand is not None and isinstance(action, Play):
            hand["plays"].append(str(action.card))
        elif hand is not None and isinstance(action, DecideBam):
            hand["bam"] = action.go
        for event in events:
            if isinstance(event, Redealt) and hand is not None:
                redeal = {"reason": event.reason, "cards": hand["cards"]}
                if event.reason == "no_trump":
                    redeal["trump"] = hand["trump"]
                _put_seed(redeal, hand.get("seed"), hand.get("commitment"))
                redeals.append(redeal)
                hand = None
            elif event.kind == "hand_ended" and hand is not None:
                hands.append(_with_redeals(hand, redeals))
                redeals = []
                hand = None
    if hand is not None:
        if replay.phase is Phase.BAM:
            hand["bam"] = None
        hands.append(_with_redeals(hand, redeals))
    data: dict[str, Any] = {"format": FORMAT, "rules": game.rules.to_dict()}
    if game.ace_draw is not None:
        draw = game.ace_draw
        data["ace_draw"] = {"start": int(draw.start), "cards": [str(c) for c in draw.cards]}
    data["hands"] = hands
    return data


def _card_lists(deal: Deal) -> list[list[str]]:
    return [[str(c) for c in hand] for hand in deal.hands]


def _commitment(seed: str | None) -> str | None:
    return None if seed is None else seed_commitment(seed)


def _with_redeals(hand: dict[str, Any], redeals: list[dict[str, Any]]) -> dict[str, Any]:
    if redeals:
        hand["redeals"] = list(redeals)
    return hand


# ---------------------------------------------------------------------------- verifying deals


@dataclass(frozen=True, slots=True)
class DealCheck:
    """Whether one seeded deal matches its commitment and its recorded cards."""

    hand: int | None
    redeal: int | None  # index in the hand's ``redeals``; None for the played deal
    seed: str
    commitment_ok: bool | None  # None: no commitment given
    cards_ok: bool | None  # None: no cards (or no hakem) to compare
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "redeal": self.redeal,
            "seed": self.seed,
            "commitment_ok": self.commitment_ok,
            "cards_ok": self.cards_ok,
            "ok": self.ok,
            "problems": list(self.problems),
        }


def check_deal(
    seed: str,
    *,
    commitment: str | None = None,
    hakem: Seat | int | None = None,
    cards: Mapping[int, list[str] | tuple[str, ...]] | None = None,
    hand: int | None = None,
    redeal: int | None = None,
) -> DealCheck:
    """Re-derive the deal of ``seed`` and compare it with a commitment and known cards.

    ``cards`` maps seats to the cards they held (any order); it needs ``hakem``, since the
    deal starts at the hakem.

    >>> check_deal("example", commitment=seed_commitment("example")).ok
    True
    >>> check_deal("example", commitment="00").problems
    ('the commitment is not SHA-256 of the seed',)
    """
    problems: list[str] = []
    commitment_ok = None
    if commitment is not None:
        commitment_ok = seed_commitment(seed) == commitment.strip().lower()
        if not commitment_ok:
            problems.append("the commitment is not SHA-256 of the seed")
    cards_ok = None
    if cards:
        if hakem is None:
            problems.append("the hakem is needed to re-derive who holds which cards")
        else:
            deal = Deal.from_seed(seed, Seat(hakem))
            cards_ok = True
            for seat, texts in sorted(cards.items()):
                try:
                    held = {Card.parse(t) for t in texts}
                except HokmError as exc:
                    problems.append(f"seat {seat}: {exc}")
                    cards_ok = False
                    continue
                if held != set(deal.hands[seat]) or len(texts) != 13:
                    cards_ok = False
                    problems.append(f"seat {seat}'s cards are not the deal of the seed")
    return DealCheck(hand, redeal, seed, commitment_ok, cards_ok, tuple(problems))


def verify_record(record: object) -> list[DealCheck]:
    """Check every seeded deal of a record (played deals and redeals).

    The hakem of a hand without one is found by replaying the record with :func:`referee`.
    Raises :class:`InvalidRecordError` when the record is malformed.
    """
    parsed = record if isinstance(record, Record) else parse_record(record)
    hakems: list[int | None] = [h.hakem for h in parsed.hands]
    if any(h is None for h in hakems):
        report = referee(parsed).report
        for i, judged in enumerate(report.get("hands", [])):
            if hakems[i] is None:
                hakems[i] = judged["hakem"]
    checks: list[DealCheck] = []
    for index, hand in enumerate(parsed.hands):
        hakem = hakems[index]
        deals: list[tuple[int | None, RecordHand | RecordRedeal]] = list(enumerate(hand.redeals))
        deals.append((None, hand))
        for redeal, dealt in deals:
            if dealt.seed is None:
                continue
            cards = dict(enumerate(dealt.cards)) if len(dealt.cards) == 4 else None
            checks.append(
                check_deal(
                    dealt.seed,
                    commitment=dealt.commitment,
                    hakem=hakem,
                    cards=cards,
                    hand=index,
                    redeal=redeal,
                )
            )
    return checks
