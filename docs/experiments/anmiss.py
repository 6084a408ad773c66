import json, sys, collections
rows = []
for f in sys.argv[1:]: rows += json.load(open(f))
print("decisions", len(rows))
g = collections.defaultdict(lambda: collections.Counter())
for r in rows:
    k = ("early" if r["trick"] < 5 else "late", "lead" if r["pos"] == 0 else "follow")
    c = g[k]; c["n"] += 1
    c["rule_bad"] += not r["rule_ok"]; c["search_bad"] += not r["search_ok"]
    c["fixed"] += (not r["rule_ok"]) and r["search_ok"]; c["broke"] += r["rule_ok"] and not r["search_ok"]
    c["loss_rule"] += r["loss_rule"]; c["loss_search"] += r["loss_search"]
    # when rule bad and search kept it: was the best card's search value close?
    if not r["rule_ok"] and not r["search_ok"]:
        d = r["sv_best"] - r["sv_card"]
        c["miss_close"] += d > -0.1; c["miss_far"] += d <= -0.3
for k, c in sorted(g.items()):
    print(k, dict(c))
