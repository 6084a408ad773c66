"""Trump-choice data: for each deal, each of the 4 suits as trump, rule-bot playout on real deal."""
import sys
import numpy as np
from hokm.bots.fast import hand_points
from hokm.bots.rollout import Playout
from hokm.bots.trump import suit_scores, choose_trump_suit
from hokm.engine import Deal, Game, RuleSet, Seat, Suit, view_of

seed, start, stop, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rules = RuleSet()
hands5 = []
labels = []
for n in range(start, stop):
    hakem = Seat(n % 4)
    row = []
    five = None
    for suit in Suit:
        game = Game(rules, hakem=hakem)
        game.apply(Deal.from_seed(f"{seed}-{n}", hakem))
        if five is None:
            five = [c.index for c in view_of(game, hakem).hand]
        game.choose_trump(suit)
        world = [sum(1 << c.index for c in game.hand_of(Seat(q))) for q in range(4)]
        won = Playout.from_view(view_of(game, hakem), world).finish()
        winner = 0 if won[0] >= 7 else 1
        ht = int(hakem) & 1
        _, pts = hand_points(winner, won[1 - winner], ht, kot_points=rules.kot_points, hakem_kot_points=rules.hakem_kot_points)
        row.append(pts if winner == ht else -pts)
    hands5.append(five)
    labels.append(row)
np.savez_compressed(out, H=np.array(hands5, dtype=np.int16), L=np.array(labels, dtype=np.float32))
