"""The README's client example runs as written against a real server and plays a game."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

from tests.server.helpers import running_server, settings

README = Path(__file__).resolve().parents[2] / "README.md"


def client_example() -> str:
    """The README's Python block that uses ``hokm.client``."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if "HokmClient" in b]
    assert len(found) == 1, "the README has one client example"
    return found[0]


async def test_the_readme_client_example_plays_a_whole_game(tmp_path: Path) -> None:
    code = client_example()
    assert "http://127.0.0.1:8000" in code  # the address `make run` serves
    async with running_server(settings(tmp_path / "hokm.db")) as url:
        script = tmp_path / "example.py"
        script.write_text(code.replace("http://127.0.0.1:8000", url), encoding="utf-8")
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 0, err.decode()
    said = re.fullmatch(
        r"room (\w+) score \[(\d), (\d)\] won by (my|the other) team\n", out.decode()
    )
    assert said is not None, out.decode()
    score = (int(said.group(2)), int(said.group(3)))
    winner = 0 if said.group(4) == "my" else 1
    assert score[winner] >= 3 > score[1 - winner]  # the example's target
