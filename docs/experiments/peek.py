"""Calibration only: the search bot knowing its partner's cards (a bound on what signals
between the two search-bot seats could tell), as `boards.py` arguments.

Every world the search bot draws gives the partner its real cards; the opponents' cards are
drawn as usual (voids, trump call, play evidence). Only the search (from trick `learned`+1,
or every trick with `search:learned=0`) sees it; the learned first tricks do not.
"""

import dataclasses
import sys

import hokm.arena as arena
import hokm.bots.search as search
from hokm.bots.sampling import ALL_MASK, Facts, count_worlds, enumerate_worlds, sample_world

STATE = {}
_orig_step = arena._Timed.step


def step(self, game, bots, labels):
    STATE["game"] = game
    return _orig_step(self, game, bots, labels)


arena._Timed.step = step
_orig_from_view = Facts.from_view


def _partner_facts(facts):
    """The facts with the partner taken out of the draw, and the partner's real cards."""
    partner = (facts.seat + 2) % 4
    pmask = sum(1 << c.index for c in STATE["game"].hand_of(partner))
    sizes = list(facts.sizes)
    sizes[partner] = 0
    voids = list(facts.void_suits)
    voids[partner] = ALL_MASK
    inner = dataclasses.replace(
        facts,
        unseen=facts.unseen & ~pmask,
        sizes=tuple(sizes),
        void_suits=tuple(voids),
        hakem=facts.seat if facts.hakem == partner else facts.hakem,
    )
    return inner, partner, pmask


def peek_sample_world(facts, rng, **kw):
    inner, partner, pmask = _partner_facts(facts)
    world = sample_world(inner, rng, **kw)
    world[partner] = pmask
    return world


def peek_enumerate_worlds(facts):
    inner, partner, pmask = _partner_facts(facts)
    for world, weight in enumerate_worlds(inner):
        world[partner] = pmask
        yield world, weight


def peek_count_worlds(facts):
    return count_worlds(_partner_facts(facts)[0])


search.sample_world = peek_sample_world
search.enumerate_worlds = peek_enumerate_worlds
search.count_worlds = peek_count_worlds
sys.argv = ["boards"] + sys.argv[1:]
exec(open(__file__.replace("peek.py", "boards.py")).read())
