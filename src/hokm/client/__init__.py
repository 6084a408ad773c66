"""A Python client for ``hokm serve``: scripts, tests and external bots join rooms and play.

>>> from hokm.client import HokmClient
>>> HokmClient("http://127.0.0.1:8000").ws_url
'ws://127.0.0.1:8000/ws'
"""

from hokm.client.client import ClientError, HokmClient, ServerError

__all__ = ["ClientError", "HokmClient", "ServerError"]
