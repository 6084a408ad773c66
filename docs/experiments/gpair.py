"""Pair two games.py outputs (same seed): the change in A's game win rate, with a 95 % CI."""
import json, math, sys
new, old = (json.load(open(p))["won"] for p in sys.argv[1:3])
common = sorted(set(new) & set(old), key=int)
d = [(sum(new[j]) - sum(old[j])) / 2 for j in common]
n = len(d)
mean = sum(d) / n
sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
rate = lambda w: sum(sum(w[j]) for j in common) / (2 * n)
print(f"{n} game pairs ({2 * n} games), {sum(x != 0 for x in d)} differ: "
      f"new {rate(new):.1%}, old {rate(old):.1%}, change {mean:+.3f} ± {1.96 * sd / math.sqrt(n):.3f}")
