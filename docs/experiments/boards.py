"""Per-board nets of spec A vs B on seed boards [start, stop): writes JSON.

KOTS=K,H in the environment plays with kot K and hakem-kot H instead of the default points.
"""
import json, os, sys, time
from hokm.arena import ArenaReport, _Timed, _play_board, bot_factory, _labels, TimingStats, _SEATS
from hokm.engine import RuleSet
a, b, seed, start, stop, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
kots = os.environ.get("KOTS")
rules = RuleSet() if not kots else RuleSet(kot_points=int(kots.split(",")[0]), hakem_kot_points=int(kots.split(",")[1]))
make = (bot_factory(a), bot_factory(b))
la, lb = _labels(a, b)
rep = ArenaReport(a, b, seed, rules)
rep.timings = {la: TimingStats(), lb: TimingStats()}
runner = _Timed(rep.timings, time.process_time)
nets = {}
for i in range(start, stop):
    _play_board(rep, runner, make, (la, lb), f"{seed}/board/{i}", _SEATS[i % 4])
    nets[i] = rep.board_net[-1]
    json.dump({"a": a, "b": b, "seed": seed, "nets": nets}, open(out, "w"))
