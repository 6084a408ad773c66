"""Compare two arena runs board by board: variants of a bot against the same opponent.

    hokm arena search rule --boards 200 --seed s --games 0 --json > old.json
    hokm arena search:margin=0.04 rule --boards 200 --seed s --games 0 --json > new.json
    python scripts/paired_arena.py new.json old.json

Both runs must use the same seed, preset and number of boards (they then play the same deals
in the same seats). Prints each run's net points per board and the paired difference (first
minus second) with its 95 % interval and the number of boards that came out differently.
"""

from __future__ import annotations

import argparse
import json
import sys

from hokm.arena import mean_interval, paired_difference
from hokm.cli.arena import interval, signed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="arena --json report of the first variant")
    parser.add_argument("second", help="arena --json report of the second variant")
    args = parser.parse_args(argv)
    runs = []
    for path in (args.first, args.second):
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    first, second = runs
    if (first["seed"], first["rules"]) != (second["seed"], second["rules"]):
        print("the runs used different seeds or rules: their boards differ", file=sys.stderr)
        return 2
    try:
        diff, differing = paired_difference(first["board_net"], second["board_net"])
    except (KeyError, ValueError) as exc:
        print(f"cannot pair the runs: {exc}", file=sys.stderr)
        return 2
    for label, run in (("first", first), ("second", second)):
        net = mean_interval(run["board_net"])
        boards = len(run["board_net"])
        shown = f"{signed(net.mean)} {interval(net.low, net.high, boards)}"
        print(f"{label:6}  {run['a']} vs {run['b']}: {shown}")
    boards = len(first["board_net"])
    print(
        f"first − second: {signed(diff.mean)} {interval(diff.low, diff.high, boards)} over "
        f"{boards} boards, {differing} of them differ"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
