"""The server: an ASGI app (Starlette on uvicorn) around the table state machine.

``create_app(Settings(...))`` builds it; ``hokm serve`` runs it. The protocol is in
``docs/protocol.md``.
"""

from hokm.server.app import create_app
from hokm.server.state import ServerState, Settings

__all__ = ["ServerState", "Settings", "create_app"]
