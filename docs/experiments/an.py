import json, sys, collections, math
rows = []
for f in sys.argv[1:]:
    rows += json.load(open(f))
print("overrides", len(rows), "sum value", sum(r["value"] for r in rows), "nonzero", sum(r["value"] != 0 for r in rows))
def rep(key, name):
    g = collections.defaultdict(list)
    for r in rows: g[key(r)].append(r["value"])
    print("--", name)
    for k in sorted(g, key=lambda k: str(k)):
        v = g[k]; n = len(v); m = sum(v)/n
        sd = math.sqrt(sum((x-m)**2 for x in v)/max(n-1,1))
        print(f"{str(k):>20} n={n:4d} sum={sum(v):+6.1f} mean={m:+.3f} se={sd/math.sqrt(n):.3f} pos={sum(x>0 for x in v)} neg={sum(x<0 for x in v)}")
rep(lambda r: r["trick"], "trick")
rep(lambda r: r["pos"], "pos")
rep(lambda r: (r["pos"], "trumpled" if r["led"]==r["trump"] else ("lead" if r["led"] is None else ("follow" if r["card"][-1]==r["led"] and r["rule"][-1]==r["led"] else "mixed"))), "kind")
rep(lambda r: round(min(r["vcard"]-r["vrule"], 0.5)*10)/10, "gain")
rep(lambda r: r["exact"], "exact")
rep(lambda r: r["hakem_team"], "hakem team")
rep(lambda r: min(r["worlds"], 60)//10*10, "worlds")
rep(lambda r: ("early" if r["trick"] < 5 else "late", round(min(r["vcard"]-r["vrule"], 0.5)*10)/10), "phase x gain")
rep(lambda r: ("early" if r["trick"] < 5 else "late", r["pos"]), "phase x pos")
rep(lambda r: ("early" if r["trick"] < 5 else "late", round((r["vcard"]-r["vrule"])*r["worlds"]/2)), "phase x flips")
