import sys, collections, random
import hokm.bots.search as S
from hokm.arena import run_arena
stats = collections.Counter()
orig_test = S.PlayEvidence.test
def test(self, world, rng):
    r = orig_test(self, world, rng)
    stats["tests"] += 1
    stats["accepted"] += r[0]
    return r
S.PlayEvidence.test = test
orig_draw = S._draw
def draw(facts, evidence, rng, tries, meter):
    before = stats["accepted"]
    w = orig_draw(facts, evidence, rng, tries, meter)
    stats["draws"] += 1
    stats["draw_ok"] += stats["accepted"] > before
    return w
S._draw = draw
spec = sys.argv[1]
run_arena(spec, "rule", boards=int(sys.argv[2]), seed="diag-2", games=0)
print(spec, dict(stats), "tests/draw %.2f fail %.3f" % (stats["tests"]/stats["draws"], 1-stats["draw_ok"]/stats["draws"]))
