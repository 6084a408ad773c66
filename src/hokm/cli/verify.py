"""``hokm verify``: re-derive deals from revealed seeds and check them.

The server publishes SHA-256(seed) before each deal and reveals the seed after the hand.
Given the seed and the published commitment (and the hakem, to see who got which cards), or
a record whose hands carry ``seed`` and ``commitment``, this re-derives each deal by the
algorithm of ``docs/records.md`` and says whether it matches. Exit status 0: everything
matches; 1: something does not, or there is nothing to compare (a ``--seed`` without
``--commitment`` or ``--cards``, a record whose hands carry no seed: nothing is proven);
2: unusable input. With ``--json``, a failure that is not a mismatch carries the ``error``
object of ``hokm referee --json`` (``{"hand": null, …, "reason": "…"}``).
"""

from __future__ import annotations

import argparse
import json
import string
import sys
from typing import Any

from hokm.cli import card_letters, clip_quoted, count, fold, utf8_text
from hokm.cli.referee import UnreadableError, load_json, read_text
from hokm.engine import Card, Deal, HokmError, Seat, seed_commitment, sort_hand
from hokm.engine.records import DealCheck, check_deal, verify_record

__all__ = ["register", "run"]

EXIT_OK, EXIT_MISMATCH, EXIT_INPUT = 0, 1, 2
NOTHING_TO_COMPARE = (
    "nothing to compare: give the published --commitment, or --hakem, --seat and --cards"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check that deals match their published seed commitments",
        description="Re-derive deals from revealed seeds (docs/records.md) and check them "
        "against published commitments and known cards. Give a record FILE, or --seed.",
    )
    parser.add_argument("file", nargs="?", metavar="FILE", help="a hokm-record/1 file ('-': stdin)")
    parser.add_argument("--seed", type=utf8_text("a seed"), help="the revealed seed")
    parser.add_argument("--commitment", help="the published commitment (SHA-256 of the seed)")
    parser.add_argument("--hakem", type=int, choices=range(4), help="the hand's hakem (0–3)")
    parser.add_argument(
        "--seat", type=int, choices=range(4), help="the seat whose --cards these are"
    )
    parser.add_argument("--cards", help="the 13 cards --seat held, e.g. 'AS KH 10D …'")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.file is None and args.seed is None:
        return _usage("give a record FILE, or a deal's --seed")
    if args.file is not None and args.seed is not None:
        return _usage("give a record FILE or a deal's --seed, not both")
    if args.file is not None:
        return _run_record(args.file, as_json=args.json)
    if (args.cards is None) != (args.seat is None):
        return _usage("--cards and --seat go together")
    if args.cards is not None and args.hakem is None:
        return _usage("--cards needs --hakem (the deal starts at the hakem)")
    if args.commitment is not None and not _is_sha256(args.commitment):
        return _usage("--commitment: a SHA-256 is 64 hexadecimal digits")
    cards = None
    if args.cards is not None:
        try:
            cards = {args.seat: _card_list(args.cards)}
        except HokmError as exc:
            return _usage(f"--cards: {clip_quoted(str(exc))}")
        given = cards[args.seat]
        twice = sorted({str(c) for c in given if given.count(c) > 1})
        if twice:
            return _usage(f"--cards: {', '.join(twice)} given twice (a hand holds each card once)")
        if len(given) != 13:
            return _usage(f"--cards: a hand is 13 cards, not {len(given)}")
    check = check_deal(args.seed, commitment=args.commitment, hakem=args.hakem, cards=cards)
    compared = check.commitment_ok is not None or check.cards_ok is not None
    ok = check.ok and compared
    if args.json:
        data: dict[str, Any] = {"ok": ok, "checks": [check.to_dict()]}
        if not compared:
            data["error"] = _error(NOTHING_TO_COMPARE)
        data["commitment"] = seed_commitment(args.seed)
        if args.hakem is not None:
            deal = Deal.from_seed(args.seed, Seat(args.hakem))
            data["cards"] = [[str(c) for c in hand] for hand in deal.hands]
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(f"SHA-256 of the seed: {seed_commitment(args.seed)}")
        if args.commitment is None:
            print("No commitment given: compare it with the one published before the deal.")
        if args.hakem is not None:
            deal = Deal.from_seed(args.seed, Seat(args.hakem))
            for seat, hand in enumerate(deal.hands):
                shown = " ".join(c.pretty for c in sort_hand(hand))
                print(f"seat {seat}{' (hakem)' if seat == args.hakem else ''}: {shown}")
        if compared:
            print(fold(_check_text(check)))
    if not compared:  # a script checking fairness fails closed, as for a record without seeds
        print(f"hokm verify: {NOTHING_TO_COMPARE}", file=sys.stderr)
    return EXIT_OK if ok else EXIT_MISMATCH


def _card_list(text: str) -> list[str]:
    """Cards as typed or as this command prints them (``Q♠ 10♥``, ``QS,TH``), as notation;
    a word that is no card raises."""
    return [str(Card.parse(word)) for word in card_letters(text).replace(",", " ").split()]


def _is_sha256(text: str) -> bool:
    """64 hexadecimal digits (either case; spaces around them are ignored, as the check does).

    >>> _is_sha256("ab" * 32), _is_sha256("zz"), _is_sha256(" " + "AB" * 32 + " ")
    (True, False, True)
    """
    text = text.strip()
    return len(text) == 64 and all(c in string.hexdigits for c in text)


def _usage(message: str) -> int:
    print(f"hokm verify: {message}", file=sys.stderr)
    return EXIT_INPUT


def _error(reason: str) -> dict[str, Any]:
    """An error as ``hokm referee --json`` and ``hokm analyse --json`` give one."""
    return {"hand": None, "play": None, "seat": None, "card": None, "reason": reason}


def _run_record(name: str, *, as_json: bool) -> int:
    try:
        checks = verify_record(load_json(read_text(name)))
    except (UnreadableError, HokmError, RecursionError) as exc:
        # the referee's reading: '-' is stdin, the same size limit and the same reasons
        if as_json:  # the referee's malformed-input line
            line = {"file": name, "ok": False, "malformed": True, "error": _error(str(exc))}
            print(json.dumps(line, ensure_ascii=False))
        return _usage(f"{name}: {exc}")
    ok = bool(checks) and all(c.ok for c in checks)
    if as_json:
        data: dict[str, Any] = {"file": name, "ok": ok, "checks": [c.to_dict() for c in checks]}
        if not checks:
            data["error"] = _error("no hand carries a seed: nothing to verify")
        print(json.dumps(data, ensure_ascii=False))
    else:
        for check in checks:
            print(fold(_check_text(check)))
        if not checks:
            print(f"{name}: no hand carries a seed: nothing to verify.")
        else:
            verdict = "every seeded deal matches" if ok else "SOME DEALS DO NOT MATCH"
            print(fold(f"{name}: {count(len(checks), 'seeded deal')} checked: {verdict}."))
    return EXIT_OK if ok else EXIT_MISMATCH


def _check_text(check: DealCheck) -> str:
    where = "" if check.hand is None else f"hand {check.hand + 1}"
    if check.redeal is not None:
        where += f" (abandoned deal {check.redeal + 1})"
    parts = []
    if check.commitment_ok is not None:
        parts.append("commitment matches" if check.commitment_ok else "commitment DOES NOT match")
    if check.cards_ok is not None:
        parts.append("cards match the seed" if check.cards_ok else "cards DO NOT match the seed")
    status = "OK" if check.ok else "MISMATCH"
    text = f"{status}{' ' + where if where else ''}: " + ("; ".join(parts) or "nothing to compare")
    if check.problems:
        text += " (" + "; ".join(check.problems) + ")"
    return text
