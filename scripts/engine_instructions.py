"""Instructions per random hand of the public engine API, counted by valgrind (callgrind).

Wall-clock rates are noisy on a shared machine; instruction counts are not. This plays
``--hands`` random hands with the benchmark's own loop (:func:`hokm.cli.bench.random_hands`,
as ``hokm bench engine`` does) under callgrind, once more with no hands, and prints the
difference divided by the number of hands::

    .venv/bin/python scripts/engine_instructions.py                 # 400 random hands
    .venv/bin/python scripts/engine_instructions.py --loop games    # hands in whole games
    .venv/bin/python scripts/engine_instructions.py --loop classic  # classic preset
    .venv/bin/python scripts/engine_instructions.py --loop deals    # Deal.from_seed only

``--play N`` plays N hands without valgrind (the child process of the measurement; also handy
under ``python -m cProfile``). Needs ``valgrind`` on the PATH. ``PYTHONHASHSEED=0`` is set for
the children so runs repeat exactly.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

from hokm.cli.bench import random_games, random_hands
from hokm.engine import Deal, RuleSet, Seat


def _deals(count: int) -> int:
    for i in range(count):
        Deal.from_seed(f"deal:{i}", Seat(i & 3))
    return count


def play(loop: str, count: int) -> int:
    """Run ``count`` units of ``loop``; return how many hands (or deals) were done."""
    if count == 0:
        return 0
    if loop == "hands":
        return random_hands(count)
    if loop == "games":
        return random_games(count)
    if loop == "classic":
        return random_hands(count, rules=RuleSet.preset("classic"))
    if loop == "deals":
        return _deals(count)
    raise ValueError(f"unknown loop {loop!r}")


def instructions(loop: str, count: int) -> tuple[int, int]:
    """(instructions, hands done) of a child process playing ``count`` units under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--loop",
            loop,
            "--play",
            str(count),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        with open(out, encoding="utf-8") as file:
            totals = re.search(r"^totals:\s*(\d+)", file.read(), re.MULTILINE)
        assert totals is not None, "no totals in the callgrind output"
        return int(totals.group(1)), int(done.stdout.split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop", default="hands", choices=["hands", "games", "classic", "deals"])
    parser.add_argument("--hands", type=int, default=400, help="units to measure (400)")
    parser.add_argument("--play", type=int, help="just play this many units (no valgrind)")
    args = parser.parse_args()
    if args.play is not None:
        print(play(args.loop, args.play))
        return 0
    base, _ = instructions(args.loop, 0)
    total, done = instructions(args.loop, args.hands)
    per = (total - base) / done
    unit = "deal" if args.loop == "deals" else "hand"
    print(
        f"{args.loop}: {done} {unit}s, {total - base:,} instructions, {per / 1e6:.4f} M per {unit}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
