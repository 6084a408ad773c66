"""Fit a correction on top of the shipped learned value: pi2 = pi1 + trees fitted on the residual.

    python docs/experiments/pi2train.py DATA_DIR OUT.json [ROUNDS] [LEAVES] [RATE]

DATA_DIR holds pi2.py generate files (labels with pi1 playing on). The new trees start from
pi1's prediction (LightGBM init_score) and learn only how the labels moved; the written model
is pi1's trees followed by the new ones (TreeModel sums every tree).
"""

from __future__ import annotations

import glob
import json
import os
import sys

import lightgbm as lgb
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from pi2 import DEFAULT_MODEL, booster, _tree_export  # noqa: E402


def main() -> int:
    data, out = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    leaves = int(sys.argv[4]) if len(sys.argv) > 4 else 31
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 0.05
    parts = []
    offset = 0
    for path in sorted(glob.glob(os.path.join(data, "*.npz"))):
        d = np.load(path)
        parts.append((d["X"], d["Y"], d["G"] + offset))
        offset += int(d["G"].max()) + 1
    x, y, g = (np.concatenate([p[i] for p in parts]) for i in range(3))
    keep = x[:, 0] < 6
    x, y, g = x[keep], y[keep], g[keep]
    _, group, count = np.unique(g, return_inverse=True, return_counts=True)
    centred = y - (np.bincount(group, weights=y) / count)[group]
    base = booster(DEFAULT_MODEL).predict(x.astype(np.float64), num_threads=2)
    params = {
        "objective": "regression",
        "learning_rate": rate,
        "num_leaves": leaves,
        "min_data_in_leaf": 400,
        "feature_fraction": 0.9,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "seed": 1,
        "verbose": -1,
        "num_threads": 2,
    }
    fit = lgb.train(params, lgb.Dataset(x, centred, init_score=base), rounds)
    with open(DEFAULT_MODEL, encoding="utf-8") as f:
        pi1 = json.load(f)
    extra = [_tree_export(info["tree_structure"]) for info in fit.dump_model()["tree_info"]]
    meta = dict(pi1["meta"])
    meta["correction"] = f"pi2train {data} rounds={rounds} leaves={leaves} rate={rate}"
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "trees": pi1["trees"] + extra}, f, separators=(",", ":"))
    print(f"wrote {out}: {len(pi1['trees'])} + {len(extra)} trees, {len(x)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
