"""Reading what clients send: strict JSON that the server can always store and send back.

Python's ``json.loads`` accepts text the server cannot write again: a lone surrogate
(``"\\ud800"``), integers of any size, ``NaN`` and ``Infinity``. Such a value reached storage
once (orjson refuses to write it) and broke the room it was sent to. Every frame and request
body is therefore read with orjson, which refuses all of them, and so whatever is accepted
can be stored and echoed. Integers beyond 64 bits become floats there, which every integer
field then refuses as not an integer. orjson reads 1024 levels of nesting but writes only 254
(and the log wraps a command in a few more): a value nested deeper than :data:`MAX_DEPTH` is
refused too.

>>> loads('{"seat": 1, "text": "سلام"}')
{'seat': 1, 'text': 'سلام'}
>>> loads('{"text": "\\\\ud800"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hokm.server.jsonio.BadJSON: not valid JSON: no low surrogate in string...
>>> loads('{"n": NaN}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hokm.server.jsonio.BadJSON: not valid JSON: unexpected character...
>>> type(loads('{"version": 1180591620717411303424}')["version"]).__name__
'float'
>>> loads('{"t": ' + '[' * 300 + ']' * 300 + '}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hokm.server.jsonio.BadJSON: nested deeper than 32 levels
"""

from __future__ import annotations

from contextlib import aclosing
from typing import Any

import orjson
from starlette.requests import ClientDisconnect, Request

__all__ = ["MAX_DEPTH", "BadJSON", "TooLarge", "loads", "read_body"]

MAX_DEPTH = 32  # levels of nesting accepted (every message of the protocol has a few)


class BadJSON(ValueError):
    """The text is not JSON this server accepts; the message says why."""


class TooLarge(ValueError):
    """A request body longer than the endpoint takes."""


async def read_body(request: Request, limit: int) -> bytes:
    """The body of ``request``, read no further than ``limit`` bytes.

    Starlette's ``request.body()`` reads the whole body, whatever its size, before anyone can
    look at its length: one request announcing a gigabyte made the server wait for and hold
    all of it. Here a body longer than ``limit`` (said by its ``Content-Length``, or seen as
    it arrives) raises :class:`TooLarge` at once, and a body cut off by the client
    disconnecting raises :class:`BadJSON` (it is no JSON, and nothing may be done with it).
    """
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise TooLarge(f"at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async with aclosing(request.stream()) as stream:
            async for chunk in stream:
                size += len(chunk)
                if size > limit:
                    raise TooLarge(f"at most {limit} bytes")
                chunks.append(chunk)
    except ClientDisconnect as exc:
        raise BadJSON("the body was cut off") from exc
    return b"".join(chunks)


def loads(raw: str | bytes) -> Any:
    """Parse ``raw`` (UTF-8 bytes or text) or raise :class:`BadJSON`."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise BadJSON(f"not valid JSON: {exc}") from exc
    if _too_deep(data):
        raise BadJSON(f"nested deeper than {MAX_DEPTH} levels")
    return data


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests lists and objects deeper than :data:`MAX_DEPTH`."""
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [
            item
            for v in level
            if isinstance(v, dict | list)
            for item in (v.values() if isinstance(v, dict) else v)
        ]
        if not level:
            return False
    return any(isinstance(v, dict | list) for v in level)
