import json, sys, collections
rows = []
for f in sys.argv[1:]: rows += json.load(open(f))
for kind in ("lead", "follow", "all"):
    rs = [r for r in rows if kind == "all" or (r["pos"] == 0) == (kind == "lead")]
    print(kind, len(rs), "rule", sum(r["loss_rule"] for r in rs), {k: (sum(r[k] for r in rs), round(sum(r[k+"_w"] for r in rs)/len(rs),1)) for k in ("s1", "s3", "s6")})
