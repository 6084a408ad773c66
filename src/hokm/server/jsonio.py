"""Reading what clients send: strict JSON that the server can always store and send back.

Python's ``json.loads`` accepts text the server cannot write again: a lone surrogate
(``"\\ud800"``), integers of any size, ``NaN`` and ``Infinity``. Such a value reached storage
once (orjson refuses to write it) and broke the room it was sent to. Every frame and request
body is therefore read with orjson, which refuses all of them, and so whatever is accepted
can be stored and echoed. Integers beyond 64 bits become floats there, which every integer
field then refuses as not an integer.

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
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["BadJSON", "loads"]


class BadJSON(ValueError):
    """The text is not JSON this server accepts; the message says why."""


def loads(raw: str | bytes) -> Any:
    """Parse ``raw`` (UTF-8 bytes or text) or raise :class:`BadJSON`."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise BadJSON(f"not valid JSON: {exc}") from exc
