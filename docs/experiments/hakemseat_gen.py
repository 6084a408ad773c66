"""Scratch: the training data with 3 more columns (where the hakem sits), same recipe."""
import sys
sys.path.insert(0, "/work/main/scripts")
import train_early_value as tev
from hokm.bots import learned

base = learned.card_features
EXTRA = 3

def features(k, cards, rule_card):
    rows = base(k, cards, rule_card)
    me, hk = int(k.seat), int(k.hakem)
    rel = (hk - me) & 3
    after = {(me + j) & 3 for j in range(1, 4 - len(k.trick))}
    extra = [float(rel == 1), float(rel == 3), float(hk in after)]
    return [r + extra for r in rows]

tev.card_features = features
tev.FEATURES = learned.FEATURES + EXTRA
sys.exit(tev.main(sys.argv[1:]))
