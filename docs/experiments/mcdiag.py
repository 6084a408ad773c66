import sys, collections, random
import hokm.bots.search as S
from hokm.arena import run_arena
stats = collections.Counter()
orig_eval = S.SearchBot.evaluate
def ev(self, view, rule_card):
    e = orig_eval(self, view, rule_card)
    stats["decisions"] += 1; stats["worlds"] += e.worlds if not e.exact else 0
    return e
S.SearchBot.evaluate = ev
# count mismatches of yielded worlds by wrapping FastHand? simpler: wrap PlayEvidence to track last evidence
orig_init = S.PlayEvidence.__init__
ev_holder = []
def init(self, *a, **k):
    orig_init(self, *a, **k); ev_holder[:] = [self]
S.PlayEvidence.__init__ = init
orig_fh = S.FastHand
class FH(orig_fh):
    def __init__(self, world, *a, **k):
        if ev_holder and k.get("trick") is not None:
            m, _ = ev_holder[0].mismatches(world)
            stats["mis_total"] += m; stats["mis_zero"] += (m == 0); stats["n"] += 1
        super().__init__(world, *a, **k)
S.FastHand = FH
spec = sys.argv[1]
run_arena(spec, "rule", boards=int(sys.argv[2]), seed="diag-3", games=0)
print(spec, "worlds/dec %.1f" % (stats["worlds"]/stats["decisions"]), "zero-mismatch %.3f mean mis %.3f" % (stats["mis_zero"]/stats["n"], stats["mis_total"]/stats["n"]))
