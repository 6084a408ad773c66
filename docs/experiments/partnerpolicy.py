"""Variant: the search's play evidence reads the partner's first-six-trick plays as the
learned value would make them (the partner is a search bot too), not as the rule bot would;
the opponents stay modelled as the rule bot. `boards.py` arguments. PP_PLAYS=N (default 6):
how many of the partner's learned-stage plays are checked, beside the usual last `infer`
plays of the other seats."""

import os
import sys

import hokm.bots.search as search
from hokm.bots.base import legal_cards_of
from hokm.bots.sampling import PlayEvidence, ViewPolicy

PP_PLAYS = int(os.environ.get("PP_PLAYS", "6"))
_LEARNER = search.SearchBot()


def _learned_choice(view):
    cards = legal_cards_of(view)
    if len(cards) > 1 and search.learned_applies(view, near_target=_LEARNER.near_target):
        return _LEARNER.learned_card(view, cards)
    return _LEARNER.rule.choose_card(view)


_LEARNED = ViewPolicy(_learned_choice)


class _Mixed:
    """The rule bot for every seat, the learned value for the partner's first six tricks."""

    def __init__(self, rule, partner):
        self.rule = rule
        self.partner = partner

    def prepare(self, view):
        return self.rule.prepare(view)

    def card(self, prepared, view, hand, legal):
        if int(view.seat) == self.partner and len(view.tricks) < _LEARNER.learned:
            return _LEARNED.card(None, view, hand, legal)
        return self.rule.card(prepared, view, hand, legal)


def evidence(view, policy, *, plays, miss):
    partner = (int(view.seat) + 2) % 4
    ev = PlayEvidence(view, _Mixed(policy, partner), plays=52, miss=miss)
    last = ev.plays[-plays:] if plays else []
    early = [p for p in ev.plays if p.seat == partner and len(p.view.tricks) < _LEARNER.learned]
    keep = {id(p) for p in last} | {id(p) for p in early[-PP_PLAYS:]}
    ev.plays = [p for p in ev.plays if id(p) in keep]
    return ev


search.PlayEvidence = evidence
sys.argv = ["boards"] + sys.argv[1:]
exec(open(__file__.replace("partnerpolicy.py", "boards.py")).read())
