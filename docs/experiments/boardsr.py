"""boards.py with custom kot points: per-board nets of spec A vs B under kot KOT and hakem-kot HKOT.

Usage: boardsr.py KOT HKOT A B SEED START STOP OUT.json
"""
import json, sys, time
from hokm.arena import ArenaReport, _Timed, _play_board, bot_factory, _labels, TimingStats, _SEATS
from hokm.engine import RuleSet
kot, hkot = int(sys.argv[1]), int(sys.argv[2])
a, b, seed, start, stop, out = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
rules = RuleSet(kot_points=kot, hakem_kot_points=hkot)
make = (bot_factory(a), bot_factory(b))
la, lb = _labels(a, b)
rep = ArenaReport(a, b, seed, rules)
rep.timings = {la: TimingStats(), lb: TimingStats()}
runner = _Timed(rep.timings, time.process_time)
nets = {}
for i in range(start, stop):
    _play_board(rep, runner, make, (la, lb), f"{seed}/board/{i}", _SEATS[i % 4])
    nets[i] = rep.board_net[-1]
    t = rep.timings[la]
    json.dump({"a": a, "b": b, "seed": seed, "nets": nets, "times": sorted(t.all)[-5:], "n": len(t.all)}, open(out, "w"))
