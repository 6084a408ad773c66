"""REST for the web client's simulator and trump advisor: stateless, the engine decides.

The browser never re-implements a rule. It sends a whole hand as data (the hakem, the
thirteen cards of each seat, the trump and the cards played so far); the server replays it
with :class:`hokm.engine.Game` and answers with the legal cards, the tricks with their winners
and *why* each was won, and the result. The advisor ranks the four suits for a hakem's first
five cards with :mod:`hokm.bots.trump`.

| method and path | body | answer |
|---|---|---|
| ``POST /api/sim/deal`` | ``seed?``, ``hakem?`` | ``seed``, ``hakem``, ``hands`` (dealing order) |
| ``POST /api/sim/state`` | ``hakem``, ``hands``, ``trump?``, ``plays?`` | the replayed hand |
| ``POST /api/sim/bot`` | as ``state`` plus ``level?`` | the bot's ``action`` for the seat to move |
| ``POST /api/advisor/trump`` | ``cards`` (five) | ``suit``, ``scores``, ``reasons`` |

>>> state = replay({"hakem": 0, "hands": deal_json("doc", 0)["hands"], "trump": "H"})
>>> state["phase"], state["to_move"], len(state["legal"])
('play', 0, 13)
>>> advise(["AS", "KS", "QS", "2H", "3H"])["suit"]
'S'
>>> hands = deal_json("done", 1)["hands"]
>>> plays = []
>>> while (state := replay({"hakem": 1, "hands": hands, "trump": "C", "plays": plays}))[
...     "phase"
... ] != "over":
...     plays.append(state["legal"][0])
>>> state["hakem"], state["trump"], max(state["result"]["tricks"]), len(state["tricks"]) >= 7
(1, 'C', 7, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hokm.bots import LEVELS
from hokm.bots.trump import choose_trump_suit, suit_scores
from hokm.engine import (
    Card,
    ChooseTrump,
    Deal,
    DecideBam,
    Game,
    HokmError,
    Phase,
    Play,
    Rank,
    RuleSet,
    Seat,
    Suit,
    new_seed,
    persian_digits,
    view_of,
)
from hokm.engine.views import result_to_dict
from hokm.server import jsonio
from hokm.server.limits import client_address
from hokm.server.rooms import Busy, bot_move
from hokm.table import BotTurn, choose_bot_action

__all__ = ["advise", "deal_json", "replay", "routes", "trick_reason"]

MAX_BODY = 8 * 1024
_RANK_EN = {Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack"}
_SUIT_EN = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}


class SimError(ValueError):
    """Bad simulator input: answered 400 with the reason; nothing is stored anyway."""


def card_en(card: Card) -> str:
    rank = _RANK_EN.get(card.rank, str(int(card.rank)))
    return f"{rank} of {_SUIT_EN[card.suit]}"


def trick_reason(cards: Sequence[Card], trump: Suit | None) -> dict[str, str]:
    """Why the trick was won, in English and Persian (the rule of RULES.md §5 that decided).

    The winner is named by the page that shows the trick (a seat number here read "seat 2"
    under names such as "Bot 2" for another seat).

    >>> from hokm.engine import parse_cards
    >>> trick_reason(parse_cards("KS 2H AS 3S"), Suit.HEARTS)["en"]
    'cut with the 2 of hearts: a trump beats every card of another suit'
    """
    led = cards[0].suit
    trumps = [c for c in cards if c.suit is trump]
    if trumps and led is not trump:
        best = max(trumps, key=lambda c: c.rank)
        if len(trumps) == 1:
            return {
                "en": f"cut with the {card_en(best)}: a trump beats every card of another suit",
                "fa": f"با {best.persian} بریده شد: حکم از هر برگ خال دیگر بالاتر است",
            }
        return {
            "en": f"{len(trumps)} trumps were played; the highest, the {card_en(best)}, wins",
            "fa": f"{persian_digits(len(trumps))} حکم بازی شد و بالاترینِ آن‌ها، {best.persian}، برد",
        }
    same = [c for c in cards if c.suit is led]
    best = max(same, key=lambda c: c.rank)
    if led is trump:
        return {
            "en": f"trump was led; the highest trump, the {card_en(best)}, wins",
            "fa": f"خال زمین حکم بود و بالاترین حکم، {best.persian}، برد",
        }
    others = len(cards) - len(same)
    extra_en = (
        f" ({others} {'card' if others == 1 else 'cards'} of other suits cannot win)"
        if others
        else ""
    )
    # the winning card is the sentence's subject (it read «بالاترین برگ خال زمین (پیک)، شاه
    # پیک، برد», the suit said twice)
    extra_fa = (
        ""
        if not others
        else " (برگِ خال دیگر نمی‌برد)"
        if others == 1
        else f" ({persian_digits(others)} برگِ خال‌های دیگر نمی‌برند)"
    )
    return {
        "en": f"no trump was played; the highest card of the led suit "
        f"{_SUIT_EN[led]}, the {card_en(best)}, wins{extra_en}",
        "fa": f"حکمی بازی نشد؛ {best.persian} بالاترین برگ خال زمین بود و برد{extra_fa}",
    }


def deal_json(seed: str | None, hakem: int) -> dict[str, Any]:
    """A random (or seeded) deal, each seat's cards in dealing order (the first five first)."""
    seed = seed or new_seed()
    deal = Deal.from_seed(seed, Seat(hakem))
    return {"seed": seed, "hakem": hakem, "hands": [[str(c) for c in h] for h in deal.hands]}


def _seat(value: object, name: str) -> Seat:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise SimError(f"{name} must be a seat 0–3")
    return Seat(value)


def _cards(value: object, name: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise SimError(f"{name} must be a list of cards like 'AS'")
    return [Card.parse(c) for c in value]


_RULE_KEYS = ("bam", "failed_bam", "kot_points", "hakem_kot_points")


def _rules(value: object) -> RuleSet:
    """One hand's rules: the scoring options given (a record's rules), the rest default."""
    if value is None:
        return RuleSet(target_points=1)
    if not isinstance(value, Mapping):
        raise SimError("rules must be an object")
    return RuleSet.from_dict({k: value[k] for k in _RULE_KEYS if k in value}).replace(
        target_points=1
    )


def _build(data: Mapping[str, Any]) -> Game:
    """Replay the hand described by ``data`` on a fresh game (one hand, bam off)."""
    hakem = _seat(data.get("hakem", 0), "hakem")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise SimError("hands must be four lists of 13 cards")
    deal = Deal.from_hands([_cards(h, "hands") for h in hands])
    problem = deal.problem()
    if problem:
        raise SimError(problem)
    game = Game(_rules(data.get("rules")), hakem=hakem)
    game.apply(deal)
    trump = data.get("trump")
    if trump is None:
        if data.get("plays"):
            raise SimError("choose trump before playing cards")
        return game
    if not isinstance(trump, str):
        raise SimError("trump must be S, H, D or C")
    game.apply(ChooseTrump(hakem, Suit.parse(trump)))
    bam = data.get("bam")
    for i, card in enumerate(_cards(data.get("plays", []), "plays")):
        if game.phase is Phase.BAM and game.bam_team is not None:
            game.apply(DecideBam(Seat(game.bam_team), bool(bam)))
        if game.phase is not Phase.PLAY or game.to_move is None:
            raise SimError(f"play {i + 1}: the hand is already over")
        try:
            game.apply(Play(game.to_move, card))
        except HokmError as exc:
            raise SimError(f"play {i + 1} ({card}): {exc}") from exc
    if bam is not None and game.phase is Phase.BAM and game.bam_team is not None:
        # A decision after the last card given: stopping at 7–0 ends the hand (a kot), going
        # on leaves the winner to lead; with none given ("bam" absent or null) it is awaited.
        game.apply(DecideBam(Seat(game.bam_team), bool(bam)))
    return game


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """The state of the hand after the given plays, with every trick explained."""
    game = _build(data)
    trump = game.trump
    tricks = []
    for t in game.tricks if game.trump is not None else ():
        tricks.append({**t.to_dict(), "why": trick_reason(t.cards, trump)})
    result = result_to_dict(game.hand_results[0]) if game.hand_results else None
    if result is not None:
        last = game.hand_results[0]
        tricks = _all_tricks(last.plays, last.hakem, last.trump)
    to_move = game.to_move if game.phase in (Phase.PLAY, Phase.TRUMP) else None
    legal: list[str] = []
    if to_move is not None and game.phase is Phase.PLAY:
        legal = [str(c) for c in game.legal_cards(to_move)]
    view = view_of(game, None)
    hakem = game.hakem
    if game.hand_results:  # the game moved on: report the finished hand's hakem and trump
        hakem, trump = game.hand_results[0].hakem, game.hand_results[0].trump
    return {
        "phase": "over" if result is not None else game.phase.value,
        "hakem": None if hakem is None else int(hakem),
        "trump": None if trump is None else trump.value,
        "to_move": None if to_move is None else int(to_move),
        "legal": legal,
        "hands": [[str(c) for c in game.hand_of(s)] for s in Seat] if result is None else None,
        "trick": [[int(s), str(c)] for s, c in view.trick],
        "tricks": tricks,
        "tricks_won": list(result["tricks"]) if result else list(view.tricks_won),
        "result": result,
    }


def _all_tricks(plays: Sequence[Card], hakem: Seat, trump: Suit) -> list[dict[str, Any]]:
    """Tricks of a finished hand rebuilt from its plays (the engine's winners)."""
    from hokm.engine import trick_winner

    out: list[dict[str, Any]] = []
    leader = hakem
    for i in range(0, len(plays) - len(plays) % 4, 4):
        cards = tuple(plays[i : i + 4])
        winner = trick_winner(leader, cards, trump)
        out.append(
            {
                "leader": int(leader),
                "cards": [str(c) for c in cards],
                "winner": int(winner),
                "why": trick_reason(cards, trump),
            }
        )
        leader = winner
    return out


def bot_turn(data: Mapping[str, Any]) -> BotTurn:
    """The decision a bot of ``level`` is asked for: the seat to move, its view only, checked
    (an unknown level or a finished hand is refused here, before any bot thinks)."""
    game = _build(data)
    level = data.get("level", "medium")
    if not isinstance(level, str) or level not in LEVELS:
        raise SimError(f"level must be one of {', '.join(LEVELS)}")
    seat = game.to_move if game.phase in (Phase.PLAY, Phase.TRUMP) else None
    if seat is None:
        raise SimError("nobody is to move: the hand is over")
    seed = str(len(data.get("plays") or []))
    return BotTurn(int(seat), view_of(game, seat), level, version=0, seed=seed)


def bot_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a bot of ``level`` would do for the seat to move (computed here)."""
    return {"action": choose_bot_action(bot_turn(data)).to_dict()}


def _fa_decimal(value: float) -> str:
    """A score in Persian digits with the Persian decimal separator, as the page's bars show it.

    >>> _fa_decimal(4.78)
    '۴٫۷۸'
    """
    return persian_digits(f"{value:.2f}").replace(".", "\u066b")


def advise(cards: object) -> dict[str, Any]:
    """The trump a strong hakem would name with these five cards, with the scores and why."""
    hand = _cards(cards, "cards")
    if len(hand) != 5 or len(set(hand)) != 5:
        raise SimError("give exactly five different cards")
    scores = suit_scores(hand)
    best = choose_trump_suit(hand)
    ranking = sorted(Suit, key=lambda s: (-scores[s], s.ordinal))
    held = [c for c in hand if c.suit is best]
    honours = [c for c in held if c.rank >= Rank.TEN]
    second = ranking[1]
    longest = max(Suit, key=lambda s: (sum(c.suit is s for c in hand), -s.ordinal))
    n_long = sum(c.suit is longest for c in hand)
    if len(held) > max(sum(c.suit is s for c in hand) for s in Suit if s is not best):
        why_en = "it is your longest suit: more trumps to cut with and to draw the others' trumps"
        why_fa = "بلندترین خال شماست: حکم بیشتر برای بریدن و بیرون کشیدن حکم دیگران"
    elif len(held) == n_long:
        why_en = "it is as long as your other long suit, and its cards are higher"
        why_fa = "به اندازهٔ خال بلند دیگرتان است و برگ‌هایش بالاترند"
    else:
        why_en = (
            f"it is shorter than {_SUIT_EN[longest]}, but its high cards make it stronger:"
            " high trumps win tricks and draw the others' trumps"
        )
        why_fa = (
            f"از {longest.persian} کوتاه‌تر است، ولی برگ‌های بالایش آن را قوی‌تر می‌کنند:"
            " حکم‌های بالا دست می‌برند و حکم دیگران را بیرون می‌کشند"
        )
    en = (
        f"{_SUIT_EN[best].capitalize()}: {len(held)} card{'' if len(held) == 1 else 's'}"
        + (f" ({', '.join(c.pretty for c in honours)})" if honours else "")
        + f"; {why_en}. Score {scores[best]:.2f} against {scores[second]:.2f}"
        f" for {_SUIT_EN[second]}."
    )
    fa = (
        f"{best.persian}: {persian_digits(len(held))} برگ"
        + (f" ({'، '.join(c.persian for c in honours)})" if honours else "")
        + f"؛ {why_fa}. امتیاز {_fa_decimal(scores[best])} در برابر"
        f" {_fa_decimal(scores[second])} برای {second.persian}."
    )
    return {
        "suit": best.value,
        "scores": {s.value: round(scores[s], 3) for s in Suit},
        "ranking": [s.value for s in ranking],
        "reasons": {"en": en, "fa": fa},
        "policy": "strength",
    }


def _error(
    status: int,
    code: str,
    message: str,
    message_fa: str | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(
        {
            "code": code,
            "message": message,
            "message_fa": message_fa or "درخواست شبیه‌ساز نامعتبر است: " + message,
        },
        status_code=status,
        headers=headers,
    )


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await jsonio.read_body(request, MAX_BODY)
    except jsonio.TooLarge as exc:
        raise SimError("the body is too large") from exc
    except jsonio.BadJSON as exc:
        raise SimError(str(exc)) from exc
    if not raw.strip():
        return {}
    try:
        data = jsonio.loads(raw)
    except jsonio.BadJSON as exc:
        raise SimError(str(exc)) from exc
    if not isinstance(data, dict):
        raise SimError("the body must be a JSON object")
    return data


async def _bot_answer(request: Request, data: dict[str, Any]) -> dict[str, Any]:
    """The cheap levels answer at once; the others (the search bot: up to a second) think in
    the bot workers, never on the event loop that serves every room."""
    state = request.app.state.hokm
    turn = bot_turn(data)
    if turn.level in state.settings.inline_bot_levels:
        return {"action": choose_bot_action(turn).to_dict()}
    client = client_address(request)
    if not await state.sim_bots.take(client):
        raise _Busy(429, "rate_limited", "too many hard-bot requests from this address")
    try:
        action: dict[str, Any] = await state.rooms.offload(bot_move, turn)
    except Busy as exc:
        raise _Busy(503, "busy", str(exc)) from exc
    return {"action": action}


class _Busy(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


async def _answer(request: Request, kind: str) -> Response:
    try:
        data = await _body(request)
        if kind == "deal":
            seed = data.get("seed")
            if seed is not None and (not isinstance(seed, str) or len(seed) > 128):
                raise SimError("seed must be a short string")
            return JSONResponse(deal_json(seed, int(_seat(data.get("hakem", 0), "hakem"))))
        if kind == "state":
            return JSONResponse(replay(data))
        if kind == "bot":
            return JSONResponse(await _bot_answer(request, data))
        return JSONResponse(advise(data.get("cards")))
    except (SimError, HokmError) as exc:
        return _error(400, "bad_request", str(exc))
    except _Busy as exc:
        busy_fa = "سرور سرگرم است؛ کمی بعد دوباره امتحان کنید"
        return _error(exc.status, exc.code, str(exc), busy_fa, {"Retry-After": "2"})


async def post_deal(request: Request) -> Response:
    """A random or seeded deal for the simulator."""
    return await _answer(request, "deal")


async def post_state(request: Request) -> Response:
    """Replay a hand: legal cards, tricks with their winners and why, the result."""
    return await _answer(request, "state")


async def post_bot(request: Request) -> Response:
    """The move a bot would make for the seat to move."""
    return await _answer(request, "bot")


async def post_advice(request: Request) -> Response:
    """The suggested trump for a hakem's first five cards, and why."""
    return await _answer(request, "advice")


def routes() -> list[BaseRoute]:
    return [
        Route("/api/sim/deal", post_deal, methods=["POST"]),
        Route("/api/sim/state", post_state, methods=["POST"]),
        Route("/api/sim/bot", post_bot, methods=["POST"]),
        Route("/api/advisor/trump", post_advice, methods=["POST"]),
    ]


def bench(repeat: int = 200) -> dict[str, float]:
    """Milliseconds per call of the simulator's heaviest request and of the advisor."""
    import timeit

    deal = deal_json("bench", 0)
    plays: list[str] = []
    body: dict[str, Any] = {"hakem": 0, "hands": deal["hands"], "trump": "S", "plays": plays}
    while (state := replay(body))["phase"] != "over":
        plays.append(state["legal"][0])
    finished = timeit.timeit(lambda: replay(body), number=repeat) / repeat
    advice = timeit.timeit(lambda: advise(["AS", "KS", "2H", "3H", "4D"]), number=repeat * 5)
    return {
        "replay_finished_hand_ms": finished * 1000,
        "plays": float(len(plays)),
        "advise_ms": advice / (repeat * 5) * 1000,
    }


if __name__ == "__main__":  # pragma: no cover - ``python -m hokm.server.sim_api``: the benchmark
    for key, value in bench().items():
        print(f"{key}: {value:.3f}")
