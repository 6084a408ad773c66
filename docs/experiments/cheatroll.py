"""Calibration only: a bot that sees every card and values each legal card by playing the hand
out on the real deal with rule bots in all four seats (one-step improvement of the rule bot
with perfect information; it models the opponents exactly). Rule card on ties."""
import sys
import hokm.arena as arena
from hokm.bots.search import SearchBot
from hokm.bots.rule import RuleBot
from hokm.bots.base import legal_cards_of
from hokm.engine import Phase, view_of
from hokm.engine.actions import Play
STATE = {}
_orig = arena._Timed.step
def step(self, game, bots, labels):
    STATE["game"] = game
    return _orig(self, game, bots, labels)
arena._Timed.step = step
RULES = [RuleBot(seed=s) for s in range(4)]
class CheatRollBot(SearchBot):
    name = "cheatroll"
    def choose_card(self, view):
        cards = legal_cards_of(view)
        rule_card = self.rule.choose_card(view)
        if len(cards) == 1:
            return cards[0]
        game = STATE["game"]
        team = int(view.seat) & 1
        vals = {}
        for c in cards:
            g = game.copy()
            n = len(g.hand_results)
            g.apply(Play(view.seat, c))
            while len(g.hand_results) == n:
                s = g.to_move
                if s is None:
                    raise RuntimeError(f"{g.phase} {g.hand_results[-1:] }")
                g.apply(RULES[int(s)].act(view_of(g, s)))
            r = g.hand_results[-1]
            vals[c] = r.points[team] - r.points[1 - team]
        return max(vals, key=lambda c: (vals[c], c is rule_card))
arena._CLASSES["cheatroll"] = lambda: CheatRollBot
sys.argv = ["boards"] + sys.argv[1:]
exec(open(__file__.replace("cheatroll.py", "boards.py")).read())
