"""No frame ever carries a card its recipient may not see.

Four human clients and a spectator play random games (several rule sets, redeals and bam
included) over real sockets. Every frame each one received is checked afterwards against
the truth, which the game itself reveals: each deal's seed (published after the hand, or at a
redeal) re-derives all four hands. At the moment a frame arrives, the only cards it may name
are the recipient's own hand, the cards already played in this deal, and the public ace draw.
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field
from typing import Any

from hokm.client import HokmClient
from hokm.engine import Deal, Seat

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
SECRET_KEYS = {"seed", "commitment", "seed_commitment"}  # hex strings, never card names
RULE_SETS: list[dict[str, Any]] = [
    {"preset": "classic", "options": {"target_points": 1}},
    {"options": {"target_points": 1, "bam": True, "redeal_if_player_has_no_trump": True}},
    {"preset": "platform-b", "options": {"target_points": 1, "first_hakem": "random"}},
    {"options": {"target_points": 1, "hakem_may_redeal_weak_five": True, "bam": True}},
]


@dataclass
class Attempt:
    """One deal (a hand, or a deal abandoned by a redeal)."""

    hakem: int
    seed: str | None = None
    plays: list[str] = field(default_factory=list)


@dataclass
class Seen:
    cards: set[str]
    attempt: Attempt | None
    played: int
    ace: frozenset[str]
    where: str


def _cards_in(value: Any, out: set[str], key: str | None = None) -> None:
    if key in SECRET_KEYS:
        return
    if isinstance(value, str):
        if CARD.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _cards_in(v, out, k)
    elif isinstance(value, list):
        for v in value:
            _cards_in(v, out)


def _track(frames: list[dict[str, Any]]) -> list[Seen]:
    """Follow one recipient's frames; note what each one showed and what was public then."""
    seen: list[Seen] = []
    attempt: Attempt | None = None
    ace: set[str] = set()
    for frame in frames:
        for item in frame.get("events", [frame]) if frame.get("type") == "events" else [frame]:
            event = item.get("event") or {}
            kind = event.get("kind")
            if kind == "game_started":
                ace, attempt = set(), None
            elif kind == "hakem_chosen":
                ace |= set(event.get("draw", []))
            elif kind == "hand_started":
                attempt = Attempt(int(event["hakem"]))
            elif kind == "card_played" and attempt is not None:
                attempt.plays.append(event["card"])
            elif kind in ("redealt", "hand_ended") and attempt is not None:
                attempt.seed = event["seed"]
        cards: set[str] = set()
        _cards_in(frame, cards)
        played = len(attempt.plays) if attempt is not None else 0
        seen.append(Seen(cards, attempt, played, frozenset(ace), str(frame)[:300]))
    return seen


def _leaks(frames: list[dict[str, Any]], seat: int | None) -> list[str]:
    problems = []
    for item in _track(frames):
        allowed = set(item.ace)
        if item.attempt is not None:
            allowed |= set(item.attempt.plays[: item.played])
            if seat is not None:
                assert item.attempt.seed is not None, "every deal's seed is revealed in the end"
                deal = Deal.from_seed(item.attempt.seed, Seat(item.attempt.hakem))
                allowed |= {str(c) for c in deal.hands[seat]}
        extra = item.cards - allowed
        if extra:
            problems.append(f"seat {seat} saw {sorted(extra)} in {item.where}")
    return problems


async def _play(client: HokmClient, games: int, rng: random.Random) -> None:
    def done(c: HokmClient) -> bool:
        return sum(e["event"]["kind"] == "game_result" for e in c.events) >= games

    await client.play_until(done, choose=rng.choice, timeout=120)


async def test_no_frame_shows_a_card_its_recipient_may_not_see(server: str) -> None:
    """Random games with four players and a spectator: every frame is checked."""
    players = [HokmClient(server, name=f"P{i}", batch=i % 2 == 1) for i in range(4)]
    spectator = HokmClient(server, name="Eve", batch=True)
    for client in (*players, spectator):
        await client.connect()
    owner = players[0]
    code = await owner.create_room(rules={"turn_seconds": 60, "trump_seconds": 60})
    for seat, client in enumerate(players):
        await client.join(code)
        await client.command("sit", seat=seat)
    await spectator.join(code)
    rng = random.Random(4)
    for number, rules in enumerate(RULE_SETS, start=1):
        await owner.command("set_rules", **rules)
        await owner.command("start" if number == 1 else "continue_game")
        await asyncio.gather(*(_play(c, number, random.Random(rng.random())) for c in players))
        await spectator.wait_for(
            lambda c, n=number: sum(e["event"]["kind"] == "game_result" for e in c.events) >= n
        )
    problems = []
    for seat, client in enumerate(players):
        problems += _leaks(client.frames, seat)
    problems += _leaks(spectator.frames, None)
    assert problems == []
    dealt = [e for e in spectator.events if e["event"]["kind"] == "cards_dealt"]
    assert dealt and all(cards == [] for e in dealt for cards in e["event"]["cards"])
    own = [e for e in players[1].events if e["event"]["kind"] == "cards_dealt"]
    assert all(e["event"]["cards"][1] for e in own)  # each player did see their own cards
    for client in (*players, spectator):
        await client.close()


def test_the_checker_finds_a_leak() -> None:
    """The checker itself flags another seat's unplayed card (and accepts own cards)."""
    deal = Deal.from_seed("s", Seat(0))
    mine, theirs = str(deal.hands[0][0]), str(deal.hands[1][0])
    frames = [
        {"type": "event", "version": 1, "event": {"kind": "hand_started", "hakem": 0}},
        {"type": "event", "version": 2, "event": {"kind": "cards_dealt", "cards": [[mine], []]}},
        {"type": "event", "version": 3, "event": {"kind": "x"}, "game": {"hand": [theirs]}},
        {"type": "event", "version": 4, "event": {"kind": "hand_ended", "seed": "s"}},
    ]
    assert _leaks(frames, 0) == [_leaks(frames, 0)[0]] and theirs in _leaks(frames, 0)[0]
    assert len(_leaks(frames, 1)) == 1 and mine in _leaks(frames, 1)[0]
