"""REST endpoints: identity, rooms by code, rules and presets, records and shuffle checks.

Every handler answers JSON; bad input gets ``400`` with an error body (code, English and
Persian message) and changes nothing. See ``docs/protocol.md`` §2.
"""

from __future__ import annotations

import dataclasses
import logging
import time
import typing
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from hokm import __version__
from hokm.analysis import RecordBrokenError, analysis_report
from hokm.engine import PRESETS, Card, Deal, HokmError, RuleSet, Seat, seed_commitment
from hokm.engine.records import check_deal
from hokm.server import jsonio
from hokm.server.auth import COOKIE_NAME, BadName, Identity, clean_name
from hokm.server.cluster import UNREACHABLE, ClusterError
from hokm.server.errors import error_body
from hokm.server.limits import NO_ROOM_LIMITED, client_address
from hokm.server.rooms import Busy
from hokm.server.state import ServerState
from hokm.table import OPTION_MAXIMA, TableError, check_room_rules
from hokm.table.chat import EMOJI, PHRASES
from hokm.table.codes import is_code, normalize_code
from hokm.table.commands import BOT_LEVELS

log = logging.getLogger(__name__)

__all__ = ["PROTOCOL_VERSION", "routes"]

PROTOCOL_VERSION = 1
MAX_BODY = 16 * 1024


def _state(request: Request) -> ServerState:
    state: ServerState = request.app.state.hokm
    return state


def error(
    status: int, code: str, detail: str | None = None, detail_fa: str | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, detail, detail_fa), status_code=status)


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        raw = await jsonio.read_body(request, MAX_BODY)
    except jsonio.TooLarge as exc:
        raise _Refusal(413, "bad_request", "the body is too large") from exc
    except jsonio.BadJSON as exc:
        raise _Refusal(400, "bad_json", str(exc)) from exc
    if not raw.strip():
        return {}
    try:
        data = jsonio.loads(raw)
    except jsonio.BadJSON as exc:
        raise _Refusal(400, "bad_json", str(exc)) from exc
    if not isinstance(data, dict):
        raise _Refusal(400, "bad_json", "the body must be a JSON object")
    return data


class _Refusal(Exception):
    def __init__(
        self, status: int, code: str, detail: str | None = None, detail_fa: str | None = None
    ) -> None:
        super().__init__(detail or code)
        self.status = status
        self.code = code
        self.detail = detail
        self.detail_fa = detail_fa


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


async def identify(request: Request) -> Identity | None:
    return await _state(request).auth.identify(request.cookies, _bearer(request))


def _with_cookie(response: Response, token: str, request: Request) -> Response:
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


async def _limit(request: Request) -> None:
    address = client_address(request)
    if not await _state(request).creations.take(address):
        raise _Refusal(
            429,
            "rate_limited",
            "too many new guests or rooms from this address",
            "مهمان یا اتاق تازه از این نشانی بیش از حد بوده است؛ کمی بعد دوباره امتحان کنید",
        )


def _handler(fn: Any) -> Any:
    """Turn refusals and engine errors into JSON errors; nothing else escapes as a traceback."""

    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await fn(request)
            return response
        except _Refusal as refusal:
            return error(refusal.status, refusal.code, refusal.detail, refusal.detail_fa)
        except HokmError as exc:
            return error(400, "bad_request", str(exc))
        except ClusterError as exc:  # Redis does not answer: who owns a room is not known
            log.debug("%s: %s", request.url.path, exc)  # (the outage itself is logged once)
            return error(503, "server_error", UNREACHABLE)

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


# ---------------------------------------------------------------------------------- identity


@_handler
async def post_guest(request: Request) -> Response:
    """Create a guest identity, or rename the current one."""
    data = await _json_body(request)
    try:
        name = clean_name(data.get("name"))
    except BadName as exc:
        raise _Refusal(400, "bad_name", str(exc), exc.fa) from exc
    await _limit(request)  # (a request refused for its input changes nothing, not the limit)
    state = _state(request)
    current = await identify(request)
    if current is not None and current.kind == "guest":
        identity = await state.guests.rename(current, name)
        token = state.guests.token_for(identity)
    else:
        identity, token = await state.guests.create(name)
    state.rooms.rename(identity)
    response = JSONResponse({"player": identity.to_dict(), "token": token})
    return _with_cookie(response, token, request)


@_handler
async def get_me(request: Request) -> Response:
    """The caller's identity."""
    identity = await identify(request)
    if identity is None:
        raise _Refusal(401, "unauthorized")
    return JSONResponse({"player": identity.to_dict()})


async def get_session(request: Request) -> Response:
    """Who the caller is (``player``, null before they have an identity), what this server
    offers besides the core (``features``, e.g. ``accounts``), and the rooms where the caller
    holds a seat in a game in progress (``playing``), loaded now or stored so when they were
    unloaded (such a room is loaded to check it). Always 200, so that a page may ask before
    it knows whether the caller is anyone (``/api/me`` answers 401 then)."""
    state = _state(request)
    identity = await identify(request)
    playing = [] if identity is None else await state.playing_rooms(identity.id)
    return JSONResponse(
        {
            "player": identity.to_dict() if identity is not None else None,
            "features": sorted(state.features),
            "playing": sorted(playing),
        }
    )


# ---------------------------------------------------------------------------------- rooms


def _rules_from(data: dict[str, Any]) -> RuleSet:
    preset = data.get("preset")
    options = data.get("rules", {})
    if preset is not None and not isinstance(preset, str):
        raise _Refusal(400, "bad_rules", "preset must be a string")
    if not isinstance(options, dict):
        raise _Refusal(400, "bad_rules", "rules must be an object")
    try:
        rules = RuleSet.from_dict({**({"preset": preset} if preset else {}), **options})
    except HokmError as exc:
        raise _Refusal(400, "bad_rules", str(exc)) from exc
    try:
        check_room_rules(rules)  # the room's maxima, as the lobby's set_rules
    except TableError as exc:
        raise _Refusal(400, exc.code, exc.message, exc.message_fa) from exc
    return rules


@_handler
async def post_room(request: Request) -> Response:
    """Create a room; the caller is its owner."""
    identity = await identify(request)
    if identity is None:
        raise _Refusal(401, "unauthorized")
    data = await _json_body(request)
    unknown = sorted(set(data) - {"preset", "rules"})
    if unknown:
        raise _Refusal(400, "bad_request", f"unknown field {unknown[0]!r}")
    rules = _rules_from(data)
    await _limit(request)  # (a request refused for its input changes nothing, not the limit)
    preset = data.get("preset") or None  # a string or nothing: _rules_from checked it
    room = await _state(request).rooms.create(identity, rules, preset=preset)
    base = str(request.base_url).rstrip("/")
    return JSONResponse(
        {"code": room.code, "link": f"{base}/r/{room.code}", "room": room.public_info()},
        status_code=201,
    )


async def _no_room(request: Request) -> _Refusal:
    """The refusal of a code that names no room: ``404``, or ``429`` once this address has
    tried too many such codes (guessing a private room's code)."""
    if not await _state(request).misses.take(client_address(request)):
        return _Refusal(429, "rate_limited", *NO_ROOM_LIMITED)
    return _Refusal(404, "room_not_found")


async def _room_or_404(request: Request) -> Any:
    code = normalize_code(request.path_params["code"])
    room = await _state(request).rooms.get(code) if is_code(code) else None
    if room is None:
        raise await _no_room(request)
    return room


@_handler
async def get_room(request: Request) -> Response:
    """Public information about a room (no hidden cards)."""
    room = await _room_or_404(request)
    try:
        return JSONResponse(await room.info())
    except ClusterError:  # its owner let it go just then: asked again, as a join does
        return JSONResponse(await (await _room_or_404(request)).info())


@_handler
async def get_room_games(request: Request) -> Response:
    """The room's finished games."""
    code = normalize_code(request.path_params["code"])
    games = await _state(request).storage.list_games(code)
    if not games and await _state(request).rooms.get(code) is None:
        raise await _no_room(request)
    return JSONResponse(
        {"games": [{**g.to_dict(), "record": f"/api/games/{g.game_id}/record"} for g in games]}
    )


async def _game(request: Request) -> tuple[Any, dict[str, Any]]:
    # As room codes are: whatever the case a person typed it in (codes are upper case).
    game_id = request.path_params["game_id"].upper()
    found = await _state(request).storage.get_game(game_id) if len(game_id) <= 40 else None
    if found is None:
        raise _Refusal(
            404, "not_found", "no finished game with this id", "بازی تمام‌شده‌ای با این شناسه نیست"
        )
    return found


@_handler
async def get_record(request: Request) -> Response:
    """A finished game as a hokm-record/1 document (a download)."""
    summary, record = await _game(request)
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="hokm-{summary.game_id}.json"'},
    )


ANALYSES_KEPT = 64  # finished games' analyses kept in memory (each a few tens of kB)
ANALYSED_HANDS = 30  # a longer game is analysed up to this hand (about 8 s of CPU)


@_handler
async def get_analysis(request: Request) -> Response:
    """A finished game judged double-dummy (``hokm.analysis``): each play with a choice, the
    mistakes, and each seat's points given away. Computed in the analysis worker, then kept."""
    summary, record = await _game(request)
    state = _state(request)
    key = summary.game_id
    report = state.analyses.get(key)
    if report is None:
        client = client_address(request)
        joining = state.rooms.analysing(key)  # asked already: wait for that job, no new one
        if not joining and not await state.analysis_limits.take(client):
            raise _Refusal(
                429,
                "rate_limited",
                "too many analyses from this address; try again in ten seconds",
                "درخواست تحلیل از این نشانی زیاد بوده است؛ ده ثانیه دیگر دوباره امتحان کنید",
            )
        try:
            report = await state.rooms.analyse(key, analysis_report, record, ANALYSED_HANDS)
        except Busy as exc:
            if not joining:
                await state.analysis_limits.refund(client)
            raise _Refusal(
                503, "busy", str(exc), "سرور سرگرم است؛ کمی بعد دوباره امتحان کنید"
            ) from exc
        except (RecordBrokenError, HokmError) as exc:  # a stored game is always valid
            raise _Refusal(422, "not_analysable", f"the stored record: {exc}") from exc
        state.analyses[key] = report
        while len(state.analyses) > ANALYSES_KEPT:
            state.analyses.popitem(last=False)
    else:
        state.analyses.move_to_end(key)
    return JSONResponse({"game_id": key, **report})


@_handler
async def get_shuffle(request: Request) -> Response:
    """Every hand's seed commitment and revealed seed."""
    summary, record = await _game(request)
    hands = []
    for i, hand in enumerate(record.get("hands", [])):
        seed = hand.get("seed")
        hands.append(
            {
                "hand": i,
                "hakem": hand.get("hakem"),
                "seed": seed,
                "seed_commitment": seed_commitment(seed) if isinstance(seed, str) else None,
            }
        )
    return JSONResponse({"game_id": summary.game_id, "hands": hands})


_VERIFY_FIELDS = frozenset({"seed", "seed_commitment", "hakem", "cards"})


@_handler
async def post_verify(request: Request) -> Response:
    """Re-derive a deal from its seed; check the commitment and (optionally) the cards."""
    data = await _json_body(request)
    # A misspelt field ("commitment") would be no check at all, and the answer "ok": refused.
    unknown = sorted(set(data) - _VERIFY_FIELDS)
    if unknown:
        raise _Refusal(
            400,
            "bad_request",
            f"unknown field {unknown[0]!r} (the fields are {', '.join(sorted(_VERIFY_FIELDS))})",
            f"فیلد ناشناخته: {unknown[0]}",
        )
    seed = data.get("seed")
    if not isinstance(seed, str) or not 0 < len(seed) <= 200:
        raise _Refusal(400, "bad_request", "seed must be a string of 1 to 200 characters")
    hakem = data.get("hakem", 0)
    if not isinstance(hakem, int) or isinstance(hakem, bool):
        raise _Refusal(400, "bad_request", "hakem must be a seat number, 0 to 3")
    seat = Seat.parse(hakem)
    deal = Deal.from_seed(seed, seat)
    cards = [[str(c) for c in hand] for hand in deal.hands]
    commitment = data.get("seed_commitment")
    if commitment is not None and not isinstance(commitment, str):
        raise _Refusal(400, "bad_request", "seed_commitment must be a string (hex SHA-256)")
    given = data.get("cards")
    if given is not None:
        if (
            not isinstance(given, list)
            or len(given) != 4
            or not all(isinstance(hand, list) for hand in given)
        ):
            raise _Refusal(400, "bad_request", "cards must be four lists of cards")
        for hand in given:
            for card in hand:
                Card.parse(card)  # a card that is not a card: 400, as before
    # As hokm verify and the referee judge it (check_deal): the commitment's hex in any case,
    # each seat's cards as a set (a hand sorted as a player sees it is the same hand).
    check = check_deal(
        seed,
        commitment=commitment,
        hakem=seat,
        cards=None if given is None else dict(enumerate(given)),
    )
    return JSONResponse(
        {
            "ok": check.ok,
            "commitment_ok": check.commitment_ok,
            "cards_ok": check.cards_ok,
            "seed_commitment": seed_commitment(seed),
            "cards": cards,
        }
    )


# ---------------------------------------------------------------------------------- rules


def rule_options() -> list[dict[str, Any]]:
    hints = typing.get_type_hints(RuleSet)
    options: list[dict[str, Any]] = []
    for f in dataclasses.fields(RuleSet):
        option: dict[str, Any] = {"name": f.name, "default": f.default}
        choices = typing.get_args(hints[f.name])
        if choices:
            option.update(type="choice", choices=list(choices))
        elif isinstance(f.default, bool):
            option["type"] = "boolean"
        elif f.name.endswith("_seconds"):
            option.update(type="seconds", exclusive_min=0, max=86400)  # (0 itself is refused)
        else:
            option.update(type="integer", min=1)
            if f.name in OPTION_MAXIMA:  # what a room takes (the engine has no maximum)
                option["max"] = OPTION_MAXIMA[f.name]
        options.append(option)
    return options


async def get_rules(request: Request) -> Response:
    """Every rule option with its default and allowed values; the bot levels."""
    return JSONResponse({"options": rule_options(), "bot_levels": list(BOT_LEVELS)})


async def get_presets(request: Request) -> Response:
    """The named presets and the full options each sets."""
    return JSONResponse({"presets": {name: RuleSet.preset(name).to_dict() for name in PRESETS}})


async def get_phrases(request: Request) -> Response:
    """The preset chat phrases and emoji accepted during a hand."""
    return JSONResponse(
        {
            "phrases": [{"id": k, "fa": fa, "en": en} for k, (fa, en) in PHRASES.items()],
            "emoji": list(EMOJI),
        }
    )


@_handler
async def get_metrics(request: Request) -> Response:
    """Rooms, connections, move-to-broadcast latency and garbage-collector pauses (samples
    newer than ``since``) of the process that answers: which one (``node``, its cluster id;
    None alone), for how long it has served (``uptime``, seconds) and its ``version``."""
    state = _state(request)
    rooms = state.rooms
    raw = request.query_params.get("since", "0")
    try:
        since = float(raw)
    except ValueError:
        raise _Refusal(
            400, "bad_request", f"since must be a Unix time in seconds, not {raw[:40]!r}"
        ) from None
    actors = list(rooms.actors.values())
    return JSONResponse(
        {
            "rooms": len(actors),
            "playing": sum(a.table.status == "playing" for a in actors),
            "connections": sum(len(a.conns) for a in actors),
            "latency": rooms.metrics.summary(since),
            "gc": rooms.gc_pauses.summary(since),
            "node": rooms.cluster.node if rooms.cluster is not None else None,
            "uptime": round(time.monotonic() - state.started, 1),
            "version": __version__,
        }
    )


async def get_health(request: Request) -> Response:
    """Liveness (200 while the process serves) and the database (``database``: false when it
    does not answer; then rooms refuse the inputs they cannot store); with several processes
    also Redis (``redis``: false while this process's link to it is not trusted, when it
    serves no room). With ``?ready=1`` either being down is a 503, for a balancer's
    readiness check."""
    state = _state(request)
    up = await state.storage.ping()
    body: dict[str, Any] = {"ok": True, "database": up}
    cluster = state.rooms.cluster
    if cluster is not None:
        body["redis"] = cluster.trusted()
        up = up and body["redis"]
    ready = request.query_params.get("ready") not in (None, "", "0")
    body.update(version=__version__, protocol=PROTOCOL_VERSION)
    return JSONResponse(body, status_code=503 if ready and not up else 200)


async def room_link(request: Request) -> Response:
    """The short room link opens the web client on that room. A mistyped code still goes to
    the room page, which says no room has it (it opened the home page without a word); only
    what cannot be a code at all (not letters and digits) goes home."""
    code = normalize_code(request.path_params["code"])
    looks = 0 < len(code) <= 16 and code.isascii() and code.isalnum()  # (every code does)
    return RedirectResponse(f"/?room={code}" if looks else "/", status_code=302)


def routes() -> list[BaseRoute]:
    return [
        Route("/api/guest", post_guest, methods=["POST"]),
        Route("/api/me", get_me, methods=["GET"]),
        Route("/api/session", get_session, methods=["GET"]),
        Route("/api/rooms", post_room, methods=["POST"]),
        Route("/api/rooms/{code}", get_room, methods=["GET"]),
        Route("/api/rooms/{code}/games", get_room_games, methods=["GET"]),
        Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
        Route("/api/games/{game_id}/shuffle", get_shuffle, methods=["GET"]),
        Route("/api/games/{game_id}/analysis", get_analysis, methods=["GET"]),
        Route("/api/verify", post_verify, methods=["POST"]),
        Route("/api/rules", get_rules, methods=["GET"]),
        Route("/api/presets", get_presets, methods=["GET"]),
        Route("/api/chat/phrases", get_phrases, methods=["GET"]),
        Route("/api/health", get_health, methods=["GET"]),
        Route("/api/metrics", get_metrics, methods=["GET"]),
        Route("/r/{code}", room_link, methods=["GET"]),
    ]
