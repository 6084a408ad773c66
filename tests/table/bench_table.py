"""Benchmark of the table state machine (not a test; run by hand, figures in docs/benchmarks.md).

    .venv/bin/python -m tests.table.bench_table [games]

Plays complete games at a table with four bots (random or medium) through the off-loop bot
interface (``pending_bot_turns`` → ``choose_bot_action`` → ``apply_bot_action``), renders every
event for five recipients, and reports the cost per bot move (bot thinking + apply + five
renders), the largest stored table (``to_dict`` as JSON) and the memory of a table mid-hand.
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc

from hokm.engine import RuleSet
from hokm.table import Table, TableConfig, choose_bot_action, iter_seeds


def play(games: int, level: str) -> dict[str, float]:
    events = frames = inputs = 0
    snap_bytes = 0
    start = time.perf_counter()
    for g in range(games):
        t = Table(
            f"b{g}",
            "ACDEFG",
            owner="ann",
            owner_name="Ann",
            now=0.0,
            rules=RuleSet(),
            config=TableConfig(bot_delay=0, hand_pause=0),
            seed_source=iter_seeds(f"b{g}"),
        )
        t.connect("ann", 0.0)
        for seat in range(4):
            t.handle("ann", {"type": "add_bot", "seat": seat, "level": level}, 0.0)
        out = t.handle("ann", {"type": "start"}, 0.0)
        now = 0.0
        while t.status == "playing":
            turns = t.pending_bot_turns(now)
            if not turns:
                now += 1
                out.merge(t.tick(now))
                continue
            (turn,) = turns
            out.merge(t.apply_bot_action(turn.seat, choose_bot_action(turn), turn.version, now))
            inputs += 1
        for event in out.events:
            for who in ("ann", "s1", "s2", "s3", None):
                if t.render(event, who) is not None:
                    frames += 1
        events += len(out.events)
        snap_bytes = max(snap_bytes, len(json.dumps(t.to_dict())))
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "inputs": inputs,
        "events": events,
        "frames": frames,
        "us_per_input": 1e6 * elapsed / max(inputs, 1),
        "snapshot_bytes": snap_bytes,
    }


def memory_per_table(tables: int = 200, *, full: bool = False) -> float:
    """Bytes held by one table in the first hand, or (``full``) after a whole game, when its
    event log holds ``log_size`` events."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = []
    for i in range(tables):
        t = Table(
            f"m{i}",
            "ACDEFG",
            owner="ann",
            owner_name="Ann",
            now=0.0,
            config=TableConfig(bot_delay=0, hand_pause=0),
            seed_source=iter_seeds(f"m{i}"),
        )
        t.connect("ann", 0.0)
        if not full:
            t.handle("ann", {"type": "sit", "seat": 0}, 0.0)
        for seat in range(4):
            t.handle("ann", {"type": "add_bot", "seat": seat, "level": "random"}, 0.0)
        t.handle("ann", {"type": "start"}, 0.0)
        t.advance(0.0)
        kept.append(t)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / tables


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for level in ("random", "medium"):
        r = play(games, level)
        print(
            f"{level:>7}: {r['games']} games in {r['seconds']:.2f} s; "
            f"{r['inputs']} bot moves, {r['events']} events, {r['frames']} frames; "
            f"{r['us_per_input']:.0f} µs per bot move (bot thinking + apply + render); "
            f"stored table ≤ {r['snapshot_bytes'] / 1024:.1f} KiB"
        )
    first = memory_per_table() / 1024
    full = memory_per_table(50, full=True) / 1024
    print(f"memory per table: {first:.1f} KiB in the first hand, {full:.1f} KiB after a game")


if __name__ == "__main__":
    main()
