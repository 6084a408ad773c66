"""The OpenAPI 3 description of the REST endpoints, served at ``/openapi.json``."""

from __future__ import annotations

from typing import Any

from hokm import __version__

__all__ = ["openapi_document"]

_ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _op(
    summary: str,
    ok: dict[str, Any],
    *,
    body: dict[str, Any] | None = None,
    errors: tuple[int, ...] = (),
    params: tuple[str, ...] = (),
) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": {"200": _json(ok, "OK")}}
    for status in errors:
        op["responses"][str(status)] = _json(_ERROR, "refused; nothing changed")
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if params:
        op["parameters"] = [
            {"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
            for p in params
        ]
    return op


def openapi_document() -> dict[str, Any]:
    obj = {"type": "object"}
    player = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "kind": {"type": "string", "enum": ["guest", "account"]},
        },
    }
    create_room = _op(
        "Create a room; the caller becomes its owner",
        {
            "type": "object",
            "properties": {"code": {"type": "string"}, "link": {"type": "string"}, "room": obj},
        },
        body={"type": "object", "properties": {"preset": {"type": "string"}, "rules": obj}},
        errors=(400, 401),
    )
    create_room["responses"]["201"] = create_room["responses"].pop("200")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Hokm server",
            "version": __version__,
            "description": "REST endpoints of hokm serve. The real-time protocol (WebSocket /ws) "
            "is described in docs/protocol.md.",
        },
        "paths": {
            "/api/guest": {
                "post": _op(
                    "Create (or rename) a guest identity; sets the hokm_guest cookie",
                    {
                        "type": "object",
                        "properties": {"player": player, "token": {"type": "string"}},
                    },
                    body={
                        "type": "object",
                        "required": ["name"],
                        "properties": {"name": {"type": "string", "maxLength": 24}},
                    },
                    errors=(400,),
                )
            },
            "/api/me": {
                "get": _op(
                    "The caller's identity",
                    {"type": "object", "properties": {"player": player}},
                    errors=(401,),
                )
            },
            "/api/session": {
                "get": _op(
                    "Who the caller is (null for nobody), the server's features, and the rooms "
                    "where the caller's game goes on",
                    {
                        "type": "object",
                        "properties": {
                            "player": {"anyOf": [player, {"type": "null"}]},
                            "features": {"type": "array", "items": {"type": "string"}},
                            "playing": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                )
            },
            "/api/rooms": {"post": create_room},
            "/api/rooms/{code}": {
                "get": _op("Public information about a room", obj, errors=(404,), params=("code",))
            },
            "/api/rooms/{code}/games": {
                "get": _op("The room's finished games", obj, errors=(404,), params=("code",))
            },
            "/api/games/{game_id}/record": {
                "get": _op(
                    "A finished game as a hokm-record/1 document",
                    obj,
                    errors=(404,),
                    params=("game_id",),
                )
            },
            "/api/games/{game_id}/shuffle": {
                "get": _op(
                    "Each hand's seed commitment and revealed seed",
                    obj,
                    errors=(404,),
                    params=("game_id",),
                )
            },
            "/api/games/{game_id}/analysis": {
                "get": _op(
                    "A finished game judged double-dummy: each play with a choice, the "
                    "mistakes, each seat's points given away (docs/records.md)",
                    obj,
                    errors=(404, 422, 429, 503),
                    params=("game_id",),
                )
            },
            "/api/verify": {
                "post": _op(
                    "Re-derive a deal from its seed and check the commitment and cards",
                    obj,
                    body={
                        "type": "object",
                        "required": ["seed"],
                        "properties": {
                            "seed": {"type": "string"},
                            "seed_commitment": {"type": "string"},
                            "hakem": {"type": "integer", "minimum": 0, "maximum": 3},
                            "cards": {
                                "type": "array",
                                "items": {"type": "array", "items": {"type": "string"}},
                            },
                        },
                    },
                    errors=(400,),
                )
            },
            "/api/rules": {
                "get": _op("Every rule option: default and allowed values; bot levels", obj)
            },
            "/api/presets": {"get": _op("The named presets and the options each sets", obj)},
            "/api/chat/phrases": {
                "get": _op("Preset chat phrases and emoji allowed during a hand", obj)
            },
            "/api/health": {
                "get": _op(
                    "Liveness and versions; database (and Redis) up; ?ready=1 answers 503 "
                    "when either is down",
                    obj,
                    errors=(503,),
                )
            },
            "/api/metrics": {
                "get": _op(
                    "Rooms, games in play, connections, move-to-broadcast latency and "
                    "garbage-collector pauses (?since=Unix seconds)",
                    obj,
                    errors=(400,),
                )
            },
            "/api/sim/deal": {
                "post": _op(
                    "Simulator: a random or seeded deal, each seat's cards in dealing order",
                    obj,
                    body=obj,
                    errors=(400,),
                )
            },
            "/api/sim/state": {
                "post": _op(
                    "Simulator: a hand replayed from its plays: legal cards, tricks with their "
                    "winners and why, the result",
                    obj,
                    body=obj,
                    errors=(400,),
                )
            },
            "/api/sim/bot": {
                "post": _op(
                    "Simulator: the move a bot of a level would make for the seat to move",
                    obj,
                    body=obj,
                    errors=(400, 429, 503),
                )
            },
            "/api/advisor/trump": {
                "post": _op(
                    "The trump a strong hakem would name with these five cards, and why",
                    obj,
                    body=obj,
                    errors=(400,),
                )
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["code", "message", "message_fa"],
                    "properties": {
                        "code": {"type": "string"},
                        "message": {"type": "string"},
                        "message_fa": {"type": "string"},
                    },
                }
            }
        },
    }
