"""Fraction of unseen cards a sampled world puts with their real holder: base vs soft."""
import random, sys
from hokm.engine import Game, RuleSet, Deal, Seat, Play, Phase, view_of
from hokm.bots.rule import RuleBot
from hokm.bots.search import rule_policy, _soft_world
from hokm.bots.sampling import Facts, sample_world, PlayEvidence, _bits
import time
bot = RuleBot(seed=1)
trust = float(sys.argv[1])
acc = {"base": [0, 0], "soft": [0, 0]}; tcalls = 0; ndec = 0; tt = 0
rng = random.Random(5)
for g in range(60):
    game = Game(RuleSet(), hakem=Seat(g % 4))
    game.apply(Deal.from_seed(f"acc{g}", Seat(g % 4)))
    game.apply(bot.act(view_of(game, Seat(g % 4))))
    while game.phase is Phase.PLAY:
        s = game.to_move; v = view_of(game, s)
        if len(v.tricks) in (3, 5, 7):
            facts = Facts.from_view(v)
            truth = [sum(1 << c.index for c in game.hand_of(x)) for x in range(4)]
            t0 = time.process_time()
            unlikely, calls = PlayEvidence(v, rule_policy(bot), plays=52).unlikely(facts.own)
            tt += time.process_time() - t0; tcalls += calls; ndec += 1
            for name in ("base", "soft"):
                for _ in range(10):
                    w = sample_world(facts, rng) if name == "base" else _soft_world(facts, unlikely, trust, rng)
                    for x in range(4):
                        if x != s:
                            acc[name][0] += (w[x] & truth[x]).bit_count()
                    acc[name][1] += facts.unseen.bit_count()
            # how often is an unlikely card actually held (false positive rate)
            wrong = sum((unlikely[x] & truth[x]).bit_count() for x in range(4))
            tot = sum((unlikely[x] & facts.unseen).bit_count() for x in range(4))
            acc.setdefault("fp", [0, 0]); acc["fp"][0] += wrong; acc["fp"][1] += tot
        game.apply(Play.of(s, bot.choose_card(v)))
for k, (a, b) in acc.items():
    print(k, f"{a/b:.3f}", b)
print("calls/decision", tcalls/ndec, "ms/decision", tt/ndec*1000)
