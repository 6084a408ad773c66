"""Scratch: the same fit with and without the extra columns; paired held-out gain per decision."""
import glob, sys
import numpy as np, lightgbm as lgb
sys.path.insert(0, "/work/main/scripts")
from train_early_value import _first_rows

parts = []; offset = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.npz")):
    d = np.load(path)
    parts.append((d["X"], d["Y"], d["G"] + offset, d["R"])); offset += int(d["G"].max()) + 1
x, y, g, r = (np.concatenate([p[i] for p in parts]) for i in range(4))
hand = np.cumsum((x[:, 0] == 0) & (x[:, 5] == 0) & (x[:, 8] == 13) & _first_rows(g))
_, group, count = np.unique(g, return_inverse=True, return_counts=True)
centred = y - (np.bincount(group, weights=y) / count)[group]
held = hand % 5 == 0
params = {"objective": "regression", "learning_rate": 0.05, "num_leaves": 63, "min_data_in_leaf": 200,
          "feature_fraction": 0.9, "bagging_fraction": 0.8, "bagging_freq": 1, "seed": 1, "verbose": -1, "num_threads": 2}
size = int(group.max()) + 1
rule = np.zeros(size); rule[group[r == 1]] = y[r == 1]
rule_pred_idx = r == 1
def gains(cols):
    b = lgb.train(params, lgb.Dataset(x[~held][:, cols], centred[~held]), 400)
    pred = b.predict(x[held][:, cols])
    gh, yh, rh = group[held], y[held], r[held]
    order = np.lexsort((-pred, gh))
    first = np.ones(len(order), bool); first[1:] = gh[order][1:] != gh[order][:-1]
    pick = order[first]
    picked = np.zeros(size); picked[gh[pick]] = yh[pick]
    pp = np.zeros(size); pp[gh[pick]] = pred[pick]
    rp = np.zeros(size); rp[gh[rh == 1]] = pred[rh == 1]
    chosen = np.where(pp - rp > 0, picked, rule)
    present = np.unique(gh)
    return (chosen - rule)[present], x[held][:, 0], present
n = x.shape[1]
a, _, present = gains(list(range(n)))
b, _, _ = gains(list(range(51)))
d = a - b
se = lambda v: 1.96 * v.std() / np.sqrt(len(v))
print(f"decisions {len(present)}  with extra {a.mean():+.4f} ± {se(a):.4f}  without {b.mean():+.4f} ± {se(b):.4f}  paired {d.mean():+.4f} ± {se(d):.4f}")
