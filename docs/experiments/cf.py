"""Counterfactual value of each search override: at every decision where the search bot's card
differs from the rule card, play the rest of the hand with the rule card instead (same bots),
and record the difference in team-A points with features of the decision."""
import json, sys
from hokm.arena import _SEATS, bot_factory
from hokm.engine import Game, RuleSet, Deal, Phase, view_of
from hokm.engine.actions import Play
from hokm.bots.search import SearchBot
from hokm.bots.base import legal_cards_of

a, seed, start, stop, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ON_TURN = globals().get("ON_TURN")  # set by cfcheat.py: sees the game before each decision
rules = RuleSet()
make_a, make_b = bot_factory(a), bot_factory("rule")


def seating(bseed, swap):
    team_a = 1 if swap else 0
    return [(make_a, make_b)[0 if s.team == team_a else 1](f"{bseed}/{'AB'[0 if s.team == team_a else 1]}/{int(s)}") for s in _SEATS], team_a


def finish(game, bots, pending=None):
    n = len(game.hand_results)
    while len(game.hand_results) == n:
        if game.phase is Phase.DEAL:
            raise RuntimeError("redeal")
        seat = game.to_move
        view = view_of(game, seat)
        if ON_TURN is not None:
            ON_TURN(game)
        bot = bots[seat]
        before = game.copy() if pending is not None else None
        action = bot.act(view)
        if pending is not None and isinstance(bot, SearchBot) and view.phase is Phase.PLAY:
            ev = bot.last
            if ev is not None and len(legal_cards_of(view)) > 1 and ev.card != ev.rule_card:
                pending.append((before, seat, view, ev))
            bot.last = None
        game.apply(action)
    return game.hand_results[-1]


rows = []
for i in range(start, stop):
    bseed = f"{seed}/board/{i}"
    for swap in (False, True):
        bots, team_a = seating(bseed, swap)
        game = Game(rules, hakem=_SEATS[i % 4])
        game.apply(Deal.from_seed(bseed, game.hakem))
        pending = []
        try:
            result = finish(game, bots, pending)
        except RuntimeError:
            continue
        actual = result.points[team_a] - result.points[1 - team_a]
        for g, seat, view, ev in pending:
            bots2, _ = seating(bseed, swap)
            g.apply(Play(seat, ev.rule_card))
            r2 = finish(g, bots2)
            alt = r2.points[team_a] - r2.points[1 - team_a]
            tr = view.trick
            rows.append(dict(
                board=i, swap=swap, seat=int(seat), trick=len(view.tricks), pos=len(tr),
                ncards=len(view.hand), nlegal=len(legal_cards_of(view)),
                card=str(ev.card), rule=str(ev.rule_card),
                vcard=ev.values[ev.card], vrule=ev.values[ev.rule_card],
                worlds=ev.worlds, exact=ev.exact, trump=str(view.trump),
                led=(str(tr[0][1].suit) if tr else None),
                won=list(view.tricks_won), hakem_team=(int(view.hakem) & 1) == (int(seat) & 1),
                actual=actual, alt=alt, value=actual - alt))
    json.dump(rows, open(out, "w"))
    print(i, len(rows), flush=True)
