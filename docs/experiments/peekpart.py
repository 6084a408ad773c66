"""Calibration only: the search bot knowing one thing about its partner's cards, to see
which part of `peek.py`'s gain a signal could carry. PEEK=trumps (how many trumps the
partner holds), lengths (the partner's four suit lengths), honours (which aces and kings
the partner holds); none, the control. Worlds are drawn as usual and kept when they agree (up to 400 draws,
else the closest)."""

import os
import sys

import hokm.arena as arena
import hokm.bots.search as search
from hokm.bots.fast import SUIT_MASKS
from hokm.bots.sampling import sample_world

WHAT = os.environ["PEEK"]
STATE = {}
_orig_step = arena._Timed.step


def step(self, game, bots, labels):
    STATE["game"] = game
    return _orig_step(self, game, bots, labels)


arena._Timed.step = step
HONOURS = sum(1 << (s * 13 + r) for s in range(4) for r in (11, 12))  # K, A


def key(facts, mask):
    if WHAT == "trumps":
        return (mask & SUIT_MASKS[facts.trump]).bit_count()
    if WHAT == "lengths":
        return tuple((mask & SUIT_MASKS[s]).bit_count() for s in range(4))
    if WHAT == "honours":
        return mask & HONOURS
    if WHAT == "none":  # the control: the same draws, no peek
        return 0
    raise SystemExit(f"PEEK={WHAT}?")


def distance(a, b):
    if WHAT == "trumps":
        return abs(a - b)
    if WHAT == "lengths":
        return sum(abs(x - y) for x, y in zip(a, b))
    return (a ^ b).bit_count()


def peek_sample_world(facts, rng, **kw):
    partner = (facts.seat + 2) % 4
    true = key(facts, sum(1 << c.index for c in STATE["game"].hand_of(partner)))
    best, best_d = None, None
    for _ in range(400):
        world = sample_world(facts, rng, **kw)
        d = distance(key(facts, world[partner]), true)
        if d == 0:
            return world
        if best_d is None or d < best_d:
            best, best_d = world, d
    return best


search.sample_world = peek_sample_world
search.count_worlds = lambda facts: 10**9  # never enumerate: every world goes through the peek
sys.argv = ["boards"] + sys.argv[1:]
exec(open(__file__.replace("peekpart.py", "boards.py")).read())
