"""Whole games of spec A vs B, game pairs j in [start, stop) of a seed (each deal sequence
played twice with the teams swapped, as `hokm arena` does): writes JSON {j: [a_won, a_won]}.
Pair two such files (same seed, different A) with gpair.py."""
import json, sys, time
from hokm.arena import ArenaReport, _Timed, _play_game, bot_factory, _labels, TimingStats
from hokm.engine import RuleSet
a, b, seed, start, stop, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
make = (bot_factory(a), bot_factory(b))
la, lb = _labels(a, b)
rep = ArenaReport(a, b, seed, RuleSet())
rep.timings = {la: TimingStats(), lb: TimingStats()}
runner = _Timed(rep.timings, time.process_time)
won = {}
for j in range(start, stop):
    pair = []
    for swap in (False, True):
        before = rep.games_won
        _play_game(rep, runner, make, (la, lb), f"{seed}/game/{j}", swap)
        pair.append(rep.games_won - before)
    won[j] = pair
    json.dump({"a": a, "b": b, "seed": seed, "won": won}, open(out, "w"))
