import random, sys, time
from hokm.engine import Deal, Seat, Suit
from hokm.bots.rollout import Playout
from hokm.bots.trump import choose_trump_suit
SUITS = list(Suit)
def playout_value(masks, trump, hakem):
    p = Playout(hands=list(masks), trump=trump, hakem=hakem, to_move=hakem, trick=(), played=0,
                voids=[0]*4, caps=[[15]*4 for _ in range(4)], no_trump=[False]*4, won=[0,0], tricks_played=0)
    won = p.finish()
    team = hakem.team
    ours, theirs = won[team], won[1-team]
    if ours >= 7: return 2 if theirs == 0 else 1
    return -3 if ours == 0 else -1
N = int(sys.argv[1]); W = int(sys.argv[2])
gain = 0.0; differ = 0; tot_pol = 0; tot_pl = 0; tot_best = 0
t0 = time.process_time()
for i in range(N):
    hakem = Seat(i % 4)
    deal = Deal.from_seed(f"tx{i}", hakem)
    masks = [sum(1 << c.index for c in h) for h in deal.hands]
    five = deal.hands[hakem][:5]
    true = {t: playout_value(masks, t, hakem) for t in SUITS}
    pol = choose_trump_suit(five)
    rng = random.Random(i)
    known = sum(1 << c.index for c in five)
    rest = [c for c in range(52) if not known >> c & 1]
    est = {t: 0.0 for t in SUITS}
    for w in range(W):
        rng.shuffle(rest)
        hands = [0]*4; pos = 0
        for s in range(4):
            k = 8 if s == hakem else 13
            m = known if s == hakem else 0
            for c in rest[pos:pos+k]: m |= 1 << c
            pos += k; hands[s] = m
        for t in SUITS: est[t] += playout_value(hands, t, hakem)
    pl = max(SUITS, key=lambda t: (est[t] + (0.5 if t is pol else 0), -t.ordinal))
    differ += pl is not pol
    tot_pol += true[pol]; tot_pl += true[pl]; tot_best += max(true.values())
print(f"N={N} W={W} differ={differ} policy={tot_pol/N:+.3f} playout={tot_pl/N:+.3f} oracle={tot_best/N:+.3f}  {(time.process_time()-t0)/N*1000:.0f} ms/deal")
