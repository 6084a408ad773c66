import sys, glob
import numpy as np
import lightgbm as lgb
from hokm.engine import ALL_CARDS, Suit
from hokm.bots.trump import suit_scores, choose_trump_suit

def feats(five):
    cards = [ALL_CARDS[i] for i in five]
    sc = suit_scores(cards)
    rule = choose_trump_suit(cards)
    order = sorted(Suit, key=lambda s: -sc[s])
    rows = []
    for cand in Suit:
        ranks = sorted((c.rank for c in cards if c.suit is cand), reverse=True)
        r = [len(ranks), *(ranks + [0] * 5)[:5], sc[cand], float(cand is rule), order.index(cand)]
        others = sorted((s for s in Suit if s is not cand), key=lambda s: -sc[s])
        for s in others:
            rk = sorted((c.rank for c in cards if c.suit is s), reverse=True) + [0, 0]
            r += [sum(1 for c in cards if c.suit is s), rk[0], rk[1], sc[s]]
        rows.append(r)
    return rows, rule.ordinal

H = []; L = []
for p in sorted(glob.glob(sys.argv[1])):
    d = np.load(p); H.append(d["H"]); L.append(d["L"])
H = np.concatenate(H); L = np.concatenate(L)
X = []; rule = []
for five in H:
    rows, r = feats(five); X.extend(rows); rule.append(r)
X = np.array(X, np.float32); rule = np.array(rule)
n = len(H)
Y = (L - L.mean(1, keepdims=True)).reshape(-1)
held = np.arange(n) % 5 == 0
hx = np.repeat(held, 4)
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 300
leaves = int(sys.argv[3]) if len(sys.argv) > 3 else 31
params = dict(objective="regression", learning_rate=0.05, num_leaves=leaves, min_data_in_leaf=200, seed=1, verbose=-1, num_threads=1)
b = lgb.train(params, lgb.Dataset(X[~hx], Y[~hx]), rounds)
P = b.predict(X[hx]).reshape(-1, 4)
Lh = L[held]; rh = rule[held]
base = Lh[np.arange(len(Lh)), rh]
print("deals", n, "held", len(Lh), "rule mean", base.mean(), "oracle", Lh.max(1).mean())
for m in (0.0, 0.02, 0.05, 0.1):
    pick = P.argmax(1)
    better = P[np.arange(len(P)), pick] - P[np.arange(len(P)), rh] > m
    ch = np.where(better, pick, rh)
    g = Lh[np.arange(len(Lh)), ch] - base
    print(f"margin {m}: changed {better.mean():.3f} gain {g.mean():+.4f} ± {1.96*g.std()/np.sqrt(len(g)):.4f}")
