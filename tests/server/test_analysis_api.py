"""GET /api/games/{id}/analysis: computed once per game, kept, limited per address."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from hokm.analysis import analyse
from hokm.client import HokmClient
from hokm.server import create_app, rest
from hokm.server.limits import AddressLimits
from tests.server.helpers import running_server, settings, table_with_bots


def _game_over(client: HokmClient) -> bool:
    return any(e["event"]["kind"] == "game_result" for e in client.events)


async def test_the_analysis_is_computed_once_kept_limited_and_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = settings(tmp_path / "analysis.db")
    app = create_app(config)
    computed: list[int] = []

    def counting(record: Any, max_hands: int | None = None) -> dict[str, Any]:
        computed.append(1)
        return rest_report(record, max_hands)

    rest_report = rest.analysis_report
    monkeypatch.setattr(rest, "analysis_report", counting)
    async with running_server(config, app=app) as url:
        owner, code = await table_with_bots(url, rules={"target_points": 2})
        await owner.command("start")
        await owner.play_until(_game_over, timeout=60)
        games = (await owner.rest("GET", f"/api/rooms/{code}/games"))["games"]
        game_id = games[0]["game_id"]
        record = await owner.rest("GET", games[0]["record"])
        await owner.close()
        path = f"/api/games/{game_id}/analysis"
        state = app.state.hokm
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            # Three at once from one address: one job, one token, three equal answers.
            state.analysis_limits = AddressLimits(rate=0.0, burst=1)
            first = {"X-Forwarded-For": "10.0.0.1"}
            answers = await asyncio.gather(*(http.get(path, headers=first) for _ in range(3)))
            assert [a.status_code for a in answers] == [200, 200, 200]
            assert answers[0].json() == answers[1].json() == answers[2].json()
            assert answers[0].json() == {"game_id": game_id, **analyse(record).to_dict()}
            # A game's id typed in lower case finds it, as a room's code does.
            lower = await http.get(f"/api/games/{game_id.lower()}/record")
            assert lower.status_code == 200 and lower.json() == record
            assert len(computed) == 1
            # Kept: asked again (even from an address with no token left), not computed.
            again = await http.get(path, headers=first)
            assert again.status_code == 200 and len(computed) == 1
            # Forgotten, the address has used its one analysis: refused, nothing computed.
            state.analyses.clear()
            refused = await http.get(path, headers=first)
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
            assert len(computed) == 1
            # Another address may; a game longer than the cap is analysed up to it.
            monkeypatch.setattr(rest, "ANALYSED_HANDS", 1)
            capped = await http.get(path, headers={"X-Forwarded-For": "10.0.0.2"})
            data = capped.json()
            assert capped.status_code == 200 and len(computed) == 2
            assert len(data["hands"]) == 1 and data["truncated"] is (len(record["hands"]) > 1)
            missing = await http.get("/api/games/NOSUCH-1/analysis")
            assert missing.status_code == 404
