"""At every search decision: is the rule card / the search card DD-optimal on the true deal?"""
import json, sys
from hokm.arena import _SEATS, bot_factory
from hokm.engine import Game, RuleSet, Deal, Phase, view_of, Card
from hokm.bots.search import SearchBot, outcome_points
from hokm.bots.base import legal_cards_of
from hokm.bots.fast import FastHand
from hokm.bots.dd import card_outcomes

spec, seed, start, stop, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rules = RuleSet()
make_a, make_b = bot_factory(spec), bot_factory("rule")
rows = []
for i in range(start, stop):
    bseed = f"{seed}/board/{i}"
    for swap in (False, True):
        team_a = 1 if swap else 0
        bots = [(make_a if s.team == team_a else make_b)(f"{bseed}/{'AB'[0 if s.team == team_a else 1]}/{int(s)}") for s in _SEATS]
        game = Game(rules, hakem=_SEATS[i % 4])
        game.apply(Deal.from_seed(bseed, game.hakem))
        n = len(game.hand_results)
        while len(game.hand_results) == n:
            if game.phase is Phase.DEAL:
                break
            seat = game.to_move
            view = view_of(game, seat)
            bot = bots[seat]
            action = bot.act(view)
            if isinstance(bot, SearchBot) and view.phase is Phase.PLAY and len(legal_cards_of(view)) > 1:
                ev = bot.last
                world = [sum(1 << c.index for c in game.hand_of(s)) for s in range(4)]
                hand = FastHand(world, view.trump.ordinal, int(view.leader), hakem=int(view.hakem),
                                trick=[c.index for _, c in view.trick], won=view.tricks_won)
                o = card_outcomes(hand, kot=True, kot_nodes=3000)
                pts = {Card.from_index(k): outcome_points(v, view) for k, v in o.items()}
                best = max(pts.values())
                rows.append(dict(trick=len(view.tricks), pos=len(view.trick),
                    rule_ok=pts[ev.rule_card] == best, search_ok=pts[ev.card] == best,
                    override=ev.card != ev.rule_card, loss_rule=best - pts[ev.rule_card], loss_search=best-pts[ev.card],
                    sv_best=max(ev.values[c] for c in pts if pts[c] == best), sv_rule=ev.values[ev.rule_card], sv_card=ev.values[ev.card], worlds=ev.worlds))
            game.apply(action)
    json.dump(rows, open(out, "w"))
