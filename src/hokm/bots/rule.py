"""The rule bot (level "medium"): hand-written card play on top of card counting.

It sees only its :class:`~hokm.engine.SeatView`. Each decision builds a
:class:`~hokm.bots.knowledge.Knowledge` (cards played, masters, trumps out, voids, rough odds
of who holds what) and then follows the habits of a good player:

* lead: draw trumps with the master trump when our side is long in them, cash masters that
  are more likely than not to hold, lead a suit partner is void in so partner can cut
  (cross-ruff), lead an escape suit (a singleton) early to cut that suit later, else lead low
  (or the top of touching honours) from a long suit that is unlikely to be cut (the queen
  from A-Q only with the ``lead_queen`` option: it measured worse);
* second hand low (but cash a master when the suit is running out); when void, leave a low
  lead to partner and cut anything else with the cheapest trump;
* third hand high, but never overtake a partner who is winning; hold the ace when partner
  leads an honour that may be a singleton;
* fourth hand: the cheapest winner, or the least useful card when partner wins;
* cut with the cheapest trump that wins (over an opponent's cut too), discard from the least
  useful suit;
* count to 7: when losing the trick loses the hand, for a kot or a bam, it plays for the
  trick (at 6 tricks of its own it plays on normally: any later trick wins too).

:meth:`RuleBot.choose_card` returns the rule card for a view (the search bot falls back to it).

>>> from hokm.engine import Game, RuleSet, Deal, Seat, view_of
>>> game = Game(RuleSet(), hakem=Seat(2))
>>> _ = game.apply(Deal.from_seed("rule", Seat(2)))
>>> bot = RuleBot(seed=1)
>>> _ = game.apply(bot.act(view_of(game, Seat(2))))
>>> card = bot.choose_card(view_of(game, Seat(2)))
>>> card in game.legal_cards()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from hokm.bots.base import CardBot, legal_cards_of
from hokm.bots.knowledge import Knowledge, beats, current_winner
from hokm.bots.trump import TRUMP_POLICIES, choose_trump_suit, wants_redeal
from hokm.engine import Card, Rank, Seat, SeatView, Suit

__all__ = ["RuleBot", "rule_card"]

_SEATS = tuple(Seat)


class RuleBot(CardBot):
    """Card counting, void inference and the classic habits (see the module docstring)."""

    name = "rule"

    def __init__(
        self,
        *,
        seed: int | str = 0,
        trump_policy: str = "strength",
        bam_samples: int = 24,
        lead_queen: bool = False,
        redeal: bool = True,
    ) -> None:
        super().__init__(seed=seed)
        if trump_policy not in TRUMP_POLICIES:
            raise ValueError(f"trump_policy must be one of {', '.join(TRUMP_POLICIES)}")
        if bam_samples < 0:  # 0: never go on for bam (the roll-outs' own bots)
            raise ValueError("bam_samples must be at least 0")
        self.trump_policy = trump_policy
        self.bam_samples = bam_samples
        self.lead_queen = lead_queen
        self.redeal = redeal

    def choose_trump(self, view: SeatView) -> Suit:
        return choose_trump_suit(view.hand, policy=self.trump_policy)

    def wants_redeal(self, view: SeatView) -> bool:
        return self.redeal and wants_redeal(view.hand)

    def decide_bam(self, view: SeatView) -> bool:
        from hokm.bots.bam import bam_pays  # local: bam rolls games out with rule bots

        return bam_pays(view, samples=self.bam_samples, seed=f"{self.seed}:{len(view.tricks)}")

    def choose_card(self, view: SeatView) -> Card:
        """The rule card for ``view`` (the seat must be the one to play)."""
        cards = legal_cards_of(view)
        if not cards:
            raise ValueError("no card to play in this view")
        if len(cards) == 1:
            return cards[0]
        return self.card_from(Knowledge.from_view(view), cards, bam_going=view.bam_going)

    def card_from(self, k: Knowledge, cards: Sequence[Card], *, bam_going: bool) -> Card:
        """The rule card among ``cards`` (the legal ones, two or more) from the seat's
        knowledge already built (the search bot builds it once per decision or per world)."""
        return self.play_class(k, list(cards), bam_going, self.lead_queen).choose()

    play_class: type[_Play]


# ---------------------------------------------------------------------- the card


def rule_card(
    k: Knowledge, cards: Sequence[Card], *, bam_going: bool = False, lead_queen: bool = False
) -> Card:
    """The rule bot's card among ``cards`` (the legal ones) given the seat's knowledge."""
    return _Play(k, list(cards), bam_going, lead_queen).choose()


class _Play:
    """One card decision: the knowledge, the legal cards and the score situation."""

    cash_p = 0.5  # lead a master when it holds with at least these odds

    def __init__(self, k: Knowledge, cards: list[Card], bam_going: bool, lead_queen: bool) -> None:
        self.k = k
        self.cards = cards
        self.trump = k.trump
        self.me = k.seat
        self.partner = k.seat.partner
        self.lead_queen = lead_queen
        team = k.seat.team
        ours, theirs = k.tricks_won[team], k.tricks_won[1 - team]
        self.ours, self.theirs = ours, theirs
        # Count to 7: play for this trick when losing it loses the hand, for a kot or a bam.
        # At 6 tricks of our own any later trick wins the hand too: playing for this one
        # spends the trumps that would win a later one (measured: −0.02 points per board).
        self.urgent = (
            theirs == 6 or bam_going or (theirs == 0 and ours >= 4) or (ours == 0 and theirs >= 4)
        )
        self.my_trumps = k.mine(self.trump) if self.trump is not None else []

    def choose(self) -> Card:
        n = len(self.k.trick)
        if n == 0:
            return self.lead()
        if n == 1:
            return self.second()
        if n == 2:
            return self.third()
        return self.fourth()

    # ------------------------------------------------------------------ values

    def keep_value(self, c: Card) -> float:
        """How much the card is worth keeping (the lowest is discarded / played low)."""
        k = self.k
        v = float(c.rank)
        if c.suit is self.trump:
            return v + 30
        mine = k.mine(c.suit)
        if k.is_master(c):
            v += 12
        else:
            # A small card that guards a king or queen is worth more than its rank.
            higher = [m for m in mine if m.rank > c.rank]
            for h in higher:
                if h.rank >= Rank.QUEEN and not k.is_master(h):
                    guards_needed = 1 if h.rank == Rank.KING else 2
                    below = sum(1 for m in mine if m.rank < h.rank)
                    if below <= guards_needed:
                        v += 6
                        break
        if len(mine) == 1 and self.my_trumps and not k.is_master(c):
            v -= 3  # discarding a singleton makes a void to cut later
        return v

    def lowest(self, cards: Sequence[Card] | None = None) -> Card:
        """The card to give up: the lowest of the led suit, else the least useful discard."""
        pool = self.cards if cards is None else cards
        trick = self.k.trick
        if trick and pool[0].suit is trick[0][1].suit:
            return min(pool, key=lambda c: c.rank)
        return min(pool, key=lambda c: (self.keep_value(c), c.index))

    def cheapest(self, cards: Sequence[Card]) -> Card:
        return min(cards, key=lambda c: (c.suit is self.trump, c.rank, c.index))

    def p_team(self, c: Card) -> float:
        """Odds that our side wins the trick if this seat plays ``c`` now."""
        k = self.k
        if not k.trick:
            return k.p_holds_trick(c, self.me, c.suit)
        led = k.trick[0][1].suit
        best_seat, best = current_winner(k.trick, self.trump)
        if beats(c, best, self.trump):
            best_seat, best = self.me, c
        if best_seat.team == self.me.team:
            return k.p_holds_trick(best, best_seat, led)
        if self.partner in k.seats_after():
            return 0.6 * k.p_beats(self.partner, best, led)
        return 0.0

    def best_for_trick(self) -> Card:
        """The card most likely to win the trick, the cheapest among near-equals."""
        scored = [(self.p_team(c), c) for c in self.cards]
        top = max(p for p, _ in scored)
        near = [c for p, c in scored if p >= top - 0.05]
        if top <= 0.0:
            return self.lowest()
        return self.cheapest(near)

    # ------------------------------------------------------------------ positions

    def fourth(self) -> Card:
        best_seat, best = current_winner(self.k.trick, self.trump)
        if best_seat == self.partner:
            return self.lowest(self._no_trump_if_possible())
        winners = [c for c in self.cards if beats(c, best, self.trump)]
        if winners:
            return self.cheapest(winners)
        return self.lowest()

    def third(self) -> Card:
        k = self.k
        led_card = k.trick[0][1]
        led = led_card.suit
        best_seat, best = current_winner(k.trick, self.trump)
        winners = [c for c in self.cards if beats(c, best, self.trump)]
        if best_seat == self.partner:
            p_partner = k.p_holds_trick(best, best_seat, led)
            if not winners or p_partner >= (0.75 if self.urgent else 0.5):
                return self.lowest(self._no_trump_if_possible())
            if (
                led_card is best
                and led_card.rank >= Rank.QUEEN
                and any(c.rank == Rank.ACE and c.suit is led for c in self.cards)
                and not self.urgent
            ):
                return self.lowest()  # hold the ace over partner's (maybe singleton) honour
            scored = [(k.p_holds_trick(c, self.me, led), c) for c in winners]
            top = max(p for p, _ in scored)
            if top >= p_partner + 0.25:
                return self.cheapest([c for p, c in scored if p >= top - 0.05])
            return self.lowest(self._no_trump_if_possible())
        if not winners:
            return self.lowest()
        if self.cards[0].suit is not led and not self.urgent:
            return min(winners, key=lambda c: c.rank)  # void: cut with the cheapest trump
        scored = [(k.p_holds_trick(c, self.me, led), c) for c in winners]
        top = max(p for p, _ in scored)
        return self.cheapest([c for p, c in scored if p >= top - 0.05])

    def second(self) -> Card:
        k = self.k
        led_card = k.trick[0][1]
        led = led_card.suit
        winners = [c for c in self.cards if beats(c, led_card, self.trump)]
        if self.urgent and winners:
            return self.best_for_trick()
        if not winners:
            return self.lowest()
        scored = [(k.p_holds_trick(c, self.me, led), c) for c in winners]
        top = max(p for p, _ in scored)
        near = [c for p, c in scored if p >= top - 0.05]
        choice = self.cheapest(near)
        following = self.cards[0].suit is led
        if following:
            running_out = k.count_unseen(led) <= 4
            if top >= 0.75 and (running_out or k.is_master(choice)):
                return choice
            return self.lowest()
        # Void in the led suit. A low card that is not a master is left to partner (who is
        # likely to beat it) while there is a side card to discard; otherwise cut with the
        # cheapest trump (measured against cutting only when the cut is likely to hold: +0.05
        # points per board, docs/benchmarks.md).
        side = [c for c in self.cards if c.suit is not self.trump]
        if side and led_card.rank < Rank.JACK and not k.is_master(led_card):
            return self.lowest(side)
        return min(winners, key=lambda c: c.rank)

    def _no_trump_if_possible(self) -> list[Card]:
        side = [c for c in self.cards if c.suit is not self.trump]
        if side and self.k.trick and self.k.trick[0][1].suit is not self.trump:
            return side
        return self.cards

    # ------------------------------------------------------------------ leading

    def lead(self) -> Card:
        k = self.k
        trump = self.trump
        if self.urgent:
            return self.best_for_trick()
        side = [c for c in self.cards if c.suit is not trump]
        trumps = [c for c in self.cards if c.suit is trump]
        if not side:
            top = max(trumps, key=lambda c: c.rank)
            return top if k.is_master(top) else min(trumps, key=lambda c: c.rank)
        drawn = self._draw_trumps(trumps)
        if drawn is not None:
            return drawn
        queen = self._queen_from_aq(side) if k.tricks_played < 6 else None
        if queen is not None:
            return queen
        cashed = self._cash_master(side)
        if cashed is not None:
            return cashed
        for pick in (self._partner_cuts, self._escape_suit):
            card = pick(side)
            if card is not None:
                return card
        return self._safe_low(side)

    def _opponents(self) -> tuple[Seat, Seat]:
        return (self.me.next, self.partner.next)

    def _opp_may_cut(self, suit: Suit) -> float:
        """Odds that an opponent cuts a lead of ``suit``."""
        k = self.k
        trump = self.trump
        if trump is None or suit is trump or not k.trumps_out():
            return 0.0
        p = 0.0
        for o in self._opponents():
            p = max(p, k.p_void(o, suit) * k.p_holds(o, trump, k.trumps_out()))
        return p

    def _draw_trumps(self, trumps: list[Card]) -> Card | None:
        k = self.k
        trump = self.trump
        if not trumps or trump is None:
            return None
        out = k.trumps_out()
        opp_have = any(k.p_holds(o, trump, out) > 0.05 for o in self._opponents())
        if not opp_have:
            return None
        hakem_side = k.hakem is not None and k.hakem.team == self.me.team
        top = max(trumps, key=lambda c: c.rank)
        long_side = len(trumps) >= out or (hakem_side and len(trumps) >= 4)
        if not long_side:
            return None
        if k.is_master(top):
            return top
        if len(trumps) >= out + 2:
            return min(trumps, key=lambda c: c.rank)  # low trumps still pull theirs
        return None

    def _cash_master(self, side: list[Card]) -> Card | None:
        k = self.k
        best: tuple[float, int, Card] | None = None
        for c in side:
            if not k.is_master(c):
                continue
            p = k.p_holds_trick(c, self.me, c.suit)
            if p < self.cash_p:
                continue
            key = (p, -len(k.mine(c.suit)), c)
            if best is None or key[:2] > best[:2]:
                best = key
        return None if best is None else best[2]

    def _partner_cuts(self, side: list[Card]) -> Card | None:
        """Cross-ruff: lead a suit partner is void in while partner may hold trumps."""
        k = self.k
        trump = self.trump
        if trump is None or not k.trumps_out():
            return None
        p_trump = k.p_holds(self.partner, trump, k.trumps_out())
        if p_trump < 0.5:
            return None
        rho = self.partner.next
        options = []
        for c in side:
            if k.is_void(self.partner, c.suit) and k.count_unseen(c.suit) > 0:
                risk = k.p_void(rho, c.suit) * k.p_holds(rho, trump, k.trumps_out())
                options.append((risk, c.rank, c))
        if not options:
            return None
        risk, _, card = min(options, key=lambda o: (o[0], o[1]))
        return card if risk < 0.5 else None

    def _escape_suit(self, side: list[Card]) -> Card | None:
        """A singleton led early so the suit can be cut later."""
        k = self.k
        if len(self.my_trumps) < 2 or not k.trumps_out() or k.tricks_played > 8:
            return None
        singles = [
            c
            for c in side
            if len(k.mine(c.suit)) == 1 and not k.is_master(c) and k.count_unseen(c.suit) >= 3
        ]
        if not singles:
            return None
        return min(singles, key=lambda c: (c.rank >= Rank.KING, c.rank))

    def _queen_from_aq(self, side: list[Card]) -> Card | None:
        """آس بی‌بی: holding A and Q but not K, lead the queen while the king is out."""
        if not self.lead_queen:
            return None
        k = self.k
        for c in side:
            if c.rank != Rank.QUEEN:
                continue
            ranks = {m.rank for m in k.mine(c.suit)}
            king = Card.of(c.suit, Rank.KING)
            if (
                Rank.ACE in ranks
                and Rank.KING not in ranks
                and k.unseen >> king.index & 1
                and self._opp_may_cut(c.suit) < 0.3
            ):
                return c
        return None

    def _safe_low(self, side: list[Card]) -> Card:
        """Low from a long suit that is least likely to be cut (length wins tricks later)."""
        k = self.k
        best: tuple[float, Card] | None = None
        for suit in (s for s in Suit if any(c.suit is s for c in side)):
            mine = k.mine(suit)
            low = mine[0]
            score = -4.0 * self._opp_may_cut(suit) + 0.3 * len(mine) - low.rank / 20
            if best is None or score > best[0]:
                best = (score, low)
        assert best is not None
        return self._top_of_sequence(best[1])

    def _top_of_sequence(self, low: Card) -> Card:
        """Lead the top of touching honours (K-Q, Q-J…) to force out the higher card."""
        mine = self.k.mine(low.suit)
        if len(mine) >= 2:
            top, second = mine[-1], mine[-2]
            touching = not (self.k.higher_unseen(second) & ~self.k.higher_unseen(top))
            if top.rank >= Rank.JACK and second.rank >= Rank.TEN and touching:
                return top
        return low


RuleBot.play_class = _Play
