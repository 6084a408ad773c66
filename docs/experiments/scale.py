"""Decision quality vs world count: DD loss on the true deal of the search's card, early tricks."""
import json, sys, pickle
from hokm.arena import _SEATS, bot_factory
from hokm.engine import Game, RuleSet, Deal, Phase, view_of, Card
from hokm.bots.search import SearchBot, outcome_points
from hokm.bots.base import legal_cards_of
from hokm.bots.fast import FastHand
from hokm.bots.dd import card_outcomes

seed, start, stop, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
variants = {"s1": dict(), "s3": dict(world_scale=3, work_budget=600_000), "s6": dict(world_scale=6, work_budget=1_500_000)}
rules = RuleSet()
make_a, make_b = bot_factory("search"), bot_factory("rule")
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
            if isinstance(bot, SearchBot) and view.phase is Phase.PLAY and len(legal_cards_of(view)) > 1 and len(view.tricks) < 5:
                world = [sum(1 << c.index for c in game.hand_of(s)) for s in range(4)]
                hand = FastHand(world, view.trump.ordinal, int(view.leader), hakem=int(view.hakem),
                                trick=[c.index for _, c in view.trick], won=view.tricks_won)
                o = card_outcomes(hand, kot=True, kot_nodes=3000)
                pts = {Card.from_index(k): outcome_points(v, view) for k, v in o.items()}
                best = max(pts.values())
                rule_card = bot.last.rule_card
                row = dict(trick=len(view.tricks), pos=len(view.trick), loss_rule=best - pts[rule_card])
                for name, kw in variants.items():
                    b = SearchBot(seed=f"{bseed}/x/{int(seat)}", **kw)
                    ev = b.evaluate(view, rule_card)
                    row[name] = best - pts[ev.card]
                    row[name + "_w"] = ev.worlds
                rows.append(row)
            game.apply(action)
    json.dump(rows, open(out, "w"))
    print(i, len(rows), flush=True)
