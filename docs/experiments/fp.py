import random
from hokm.engine import Game, RuleSet, Deal, Seat, Play, Phase, view_of
from hokm.bots.rule import RuleBot
from hokm.bots.search import rule_policy
from hokm.bots.sampling import Facts, PlayEvidence, _bits, SUIT_MASKS, _equivalent
bot = RuleBot(seed=1)
stats = {}
for g in range(40):
    game = Game(RuleSet(), hakem=Seat(g % 4))
    game.apply(Deal.from_seed(f"acc{g}", Seat(g % 4)))
    game.apply(bot.act(view_of(game, Seat(g % 4))))
    while game.phase is Phase.PLAY:
        s = game.to_move; v = view_of(game, s)
        if len(v.tricks) == 6:
            facts = Facts.from_view(v)
            truth = [sum(1 << c.index for c in game.hand_of(x)) for x in range(4)]
            ev = PlayEvidence(v, rule_policy(bot), plays=52)
            for play in ev.plays:
                kind = "lead" if not play.led else ("follow" if play.card.suit_index * 13 <= play.led.bit_length() - 1 < play.card.suit_index * 13 + 13 else "void")
                x = play.card.index; suit = SUIT_MASKS[play.card.suit_index]
                known = play.later & suit
                others = suit & ~play.gone & ~facts.own & ~play.later & facts.unseen
                for y in _bits(others):
                    hand = known | (1 << y)
                    card = ev.policy.card(play.prepared, play.view, hand, hand)
                    flagged = card.index == y and not _equivalent(card, play.card, hand | play.gone)
                    held = bool(truth[play.seat] >> y & 1)
                    st = stats.setdefault((kind, flagged), [0, 0]); st[0] += held; st[1] += 1
        game.apply(Play.of(s, bot.choose_card(v)))
for k in sorted(stats): a, b = stats[k]; print(k, f"held {a/b:.3f} of {b}")
