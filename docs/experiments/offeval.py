"""Offline: models' card vs the rule card on held-out data files. usage: offeval.py 'glob' name=model.json[+model2.json] ..."""
import sys, glob, json
import numpy as np

def load_model(path):
    d = json.load(open(path))
    return d["trees"], d["meta"].get("features")

def predict(trees, x):
    out = np.zeros(len(x))
    for f, th, lt, rt, vals, root in trees:
        f = np.array(f, int); th = np.array(th); lt = np.array(lt, int); rt = np.array(rt, int); vals = np.array(vals)
        if root < 0:
            out += vals[-root - 1]; continue
        node = np.full(len(x), root)
        active = np.ones(len(x), bool)
        res = np.zeros(len(x))
        while active.any():
            idx = np.nonzero(active)[0]
            nd = node[idx]
            go_left = x[idx, f[nd]] <= th[nd]
            nxt = np.where(go_left, lt[nd], rt[nd])
            leaf = nxt < 0
            res[idx[leaf]] = vals[-nxt[leaf] - 1]
            node[idx] = nxt
            active[idx[leaf]] = False
        out += res
    return out

parts = []; off = 0
for p in sorted(glob.glob(sys.argv[1])):
    d = np.load(p); parts.append((d["X"], d["Y"], d["G"] + off, d["R"])); off += int(d["G"].max()) + 1
x, y, g, r = (np.concatenate([p[i] for p in parts]) for i in range(4))
keep = x[:, 0] < 6
x, y, g, r = x[keep], y[keep], g[keep], r[keep]
_, group, count = np.unique(g, return_inverse=True, return_counts=True)
size = group.max() + 1
rule = np.zeros(size); rule[group[r == 1]] = y[r == 1]
print("decisions", size, "rows", len(x))
cache = {}
gains = {}
for spec in sys.argv[2:]:
    name, paths = spec.split("=")
    pred = np.zeros(len(x))
    ms = paths.split("+")
    for m in ms:
        if m not in cache:
            trees, nf = load_model(m)
            cache[m] = predict(trees, x)
        pred += cache[m] / len(ms)
    rule_pred = np.zeros(size); rule_pred[group[r == 1]] = pred[r == 1]
    order = np.lexsort((-pred, group))
    first = np.ones(len(order), bool); first[1:] = group[order][1:] != group[order][:-1]
    pick = order[first]
    picked = np.zeros(size); picked[group[pick]] = y[pick]
    ppred = np.zeros(size); ppred[group[pick]] = pred[pick]
    for margin in (0.0, 0.03):
        gain = np.where(ppred - rule_pred > margin, picked, rule) - rule
        if margin == 0.0:
            gains[name] = gain
            d = gain - next(iter(gains.values()))
            print(f"  paired with the first: {d.mean():+.4f} ± {1.96*d.std()/np.sqrt(size):.4f}")
        print(f"{name:14s} margin {margin}: {gain.mean():+.4f} ± {1.96*gain.std()/np.sqrt(size):.4f}  overrides {(ppred - rule_pred > margin).mean():.3f}")
