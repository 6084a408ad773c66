"""``hokm accounts``: the operator's account tools, on the server's database.

There is no e-mail: a player who forgot their password asks the operator, who sets a new one
with ``reset-password`` (printed once; every session of the account ends, and its sockets in
a running server close within ``session_check_seconds``). ``list`` finds accounts by
username or display name; ``delete`` erases one as ``DELETE /api/accounts/me`` does
(``docs/accounts.md``, "Deleting an account"). ``--db`` is ``hokm serve``'s (default
``HOKM_DATABASE_URL`` or ``var/hokm.db``); the server may be running meanwhile.

Exit status 0: done; 1: no such account (or ``delete`` not confirmed); 2: unusable input or
database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from hokm.cli import clip, whole_number
from hokm.cli.serve import add_database_option, check_database, missing_database_file

__all__ = ["register", "run"]

EXIT_OK, EXIT_MISSING, EXIT_INPUT = 0, 1, 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "accounts",
        help="find accounts, reset a forgotten password, delete an account",
        description="The operator's account tools, on the server's database (it may be "
        "running). There is no e-mail: reset-password is how a player who forgot their "
        "password gets back in.",
    )
    add_database_option(parser)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="accounts by username or name", description="Accounts, newest first."
    )
    listing.add_argument("search", nargs="?", default="", help="part of a username or name")
    listing.add_argument(
        "--limit",
        type=whole_number("--limit", 1, 10_000),
        default=50,
        help="at most this many (50)",
    )
    listing.add_argument("--json", action="store_true", help="print JSON lines")
    reset = actions.add_parser(
        "reset-password",
        help="give an account a new random password (printed once)",
        description="Set a new random password, print it once, and end every session of "
        "the account. Give it to the player, who can change it on their profile page.",
    )
    reset.add_argument("username")
    delete = actions.add_parser(
        "delete",
        help="erase an account for good",
        description="Erase an account: username (free again), password, sessions, rating, "
        "points and history. Games already played keep the name shown at the table.",
    )
    delete.add_argument("username")
    delete.add_argument("--yes", action="store_true", help="do it (without it: say what would go)")
    for action in (listing, reset, delete):  # after the action too, as an operator types it
        add_database_option(action, default=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hokm.storage import database_url

    url = database_url(args.db)
    problem = missing_database_file(url) or check_database(url)
    if problem is not None:
        print(f"hokm accounts: {problem}", file=sys.stderr)
        return EXIT_INPUT
    actions: dict[str, Callable[[Any, argparse.Namespace], Awaitable[int]]] = {
        "list": _list,
        "reset-password": _reset,
        "delete": _delete,
    }
    return asyncio.run(_with_store(url, actions[args.action], args))


async def _with_store(
    url: str, action: Callable[[Any, argparse.Namespace], Awaitable[int]], args: argparse.Namespace
) -> int:
    from hokm.accounts.store import AccountStore
    from hokm.storage import SqlStorage

    storage = SqlStorage(url)
    await storage.start()
    try:
        store = AccountStore(storage)
        await store.start()
        return await action(store, args)
    finally:
        await storage.close()


async def _list(store: Any, args: argparse.Namespace) -> int:
    rows = await store.find_accounts(args.search, limit=args.limit)
    for row in rows:
        if args.json:
            print(json.dumps(row, ensure_ascii=False))
        else:
            created = datetime.fromtimestamp(row["created_at"] / 1000, UTC)
            print(
                f"{row['username']:<24} {row['name']:<24} {created:%Y-%m-%d} "
                f"{row['games_played']:>5} games {row['points']:>5} points  {row['player_id']}"
            )
    if not rows and not args.json:
        print("no accounts" + (f" matching {clip(args.search)!r}" if args.search else ""))
    return EXIT_OK


async def _account(store: Any, username: str) -> Any:
    account = await store.account_by_username(username)
    if account is None:
        print(f"hokm accounts: no account named {clip(username)!r}", file=sys.stderr)
    return account


async def _reset(store: Any, args: argparse.Namespace) -> int:
    from hokm.accounts.security import Passwords

    account = await _account(store, args.username)
    if account is None:
        return EXIT_MISSING
    password = secrets.token_urlsafe(12)  # 16 characters, about 96 bits
    await store.set_password(account.player_id, await Passwords().hash(password))
    await store.delete_sessions(player_id=account.player_id)
    print(f"new password of {account.username!r}: {password}")
    print("every session of the account has ended; the player can change it on their profile")
    return EXIT_OK


async def _delete(store: Any, args: argparse.Namespace) -> int:
    account = await _account(store, args.username)
    if account is None:
        return EXIT_MISSING
    if not args.yes:
        print(
            f"would erase the account {account.username!r} ({account.player_id}): its "
            "username, password, sessions, rating, points and history; add --yes to do it"
        )
        return EXIT_MISSING
    await store.delete_account(account.player_id)
    print(f"erased the account {account.username!r} ({account.player_id})")
    return EXIT_OK
