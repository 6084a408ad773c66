import json, sys, glob, math
def load(prefix):
    nets = {}
    for f in glob.glob(prefix + "*.json"):
        nets.update({int(k): v for k, v in json.load(open(f))["nets"].items()})
    return nets
a, b = load(sys.argv[1]), load(sys.argv[2])
common = sorted(set(a) & set(b))
d = [a[i] - b[i] for i in common]
n = len(d); m = sum(d)/n; sd = math.sqrt(sum((x-m)**2 for x in d)/(n-1))
ma = sum(a[i] for i in common)/n; mb = sum(b[i] for i in common)/n
print(f"boards={n} A={ma:+.3f} B={mb:+.3f} diff={m:+.3f} ±{1.96*sd/math.sqrt(n):.3f} differing={sum(x!=0 for x in d)}")
