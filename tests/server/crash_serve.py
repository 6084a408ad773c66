"""``hokm serve`` that dies as ``kill -9`` would (``os._exit``, no shutdown code) at the point
named by ``HOKM_TEST_CRASH_AT``: ``save_game`` (a game's last input is logged, the game not
stored yet) or ``record_game`` (the game is stored, its points not recorded yet)."""

from __future__ import annotations

import os
import sys
from typing import Any

from hokm.accounts.store import AccountStore
from hokm.cli import main
from hokm.storage import SqlStorage


async def _die(*_: Any) -> None:
    print("crashing on purpose", flush=True)
    os._exit(9)


if __name__ == "__main__":
    point = os.environ["HOKM_TEST_CRASH_AT"]
    owner = {"save_game": SqlStorage, "record_game": AccountStore}[point]
    setattr(owner, point, _die)
    sys.exit(main(sys.argv[1:]))
