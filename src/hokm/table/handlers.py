"""The handlers of a table's commands, one small function per command type.

Each ``cmd_<type>(table, player, command, now)`` validates everything first and raises a
:class:`~hokm.table.errors.TableError` before changing anything; then it changes the table
and emits its events. :meth:`hokm.table.Table.handle` parses the command and calls the handler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hokm.engine import (
    Action,
    ChooseTrump,
    DecideBam,
    Game,
    IllegalActionError,
    InvalidNotationError,
    InvalidRulesError,
    NotYourTurnError,
    Phase,
    Play,
    RequestRedeal,
    RuleSet,
    Seat,
    SetHakem,
    WrongPhaseError,
    action_from_dict,
    persian_digits,
    view_of,
)
from hokm.table.bots import make_table_bot
from hokm.table.chat import PHRASES, ChatRejection, chat_text, rejection, skeleton
from hokm.table.commands import Command
from hokm.table.errors import TableError
from hokm.table.model import Member, SeatSlot

if TYPE_CHECKING:
    from hokm.table.table import Table

__all__ = [
    "HANDLERS",
    "OPTION_MAXIMA",
    "PLAYER_ACTIONS",
    "ChatError",
    "check_room_rules",
    "not_member",
]

_OPTION_FA = {
    "target_points": "امتیاز پایان بازی",
    "kot_points": "امتیاز کُت",
    "hakem_kot_points": "امتیاز حاکم‌کُتی",
}

PLAYER_ACTIONS = (Play, ChooseTrump, RequestRedeal, DecideBam)
Handler = Callable[["Table", str, Command, float], None]


def require_owner(table: Table, player: str, what: str) -> None:
    if player != table.owner:
        raise TableError("not_owner", f"only the owner can {what}")  # (its Persian: the code's)


def require_not_playing(table: Table, what: str) -> None:
    if table._status == "playing":
        raise TableError(
            "wrong_status",
            f"cannot {what} during a game",
            "در طول بازی این کار ممکن نیست",
        )


#: what a member who joins during a hand is called until it ends ("guest"; then their name)
NEWCOMER_NAME = "مهمان"


def distinct_name(table: Table, player: str, name: str) -> str:
    """``name``, or ``name 2``, ``name 3`` … if another member of the table already shows it
    (two "Ali" at one table could not be told apart in the seats and the chat). A name in
    Persian script gets Persian digits.

    >>> from hokm.table import Table
    >>> table = Table("T", "T", owner="a", owner_name="علی", now=0.0)
    >>> table.members["a"] = Member("a", "علی")
    >>> distinct_name(table, "b", "علی"), distinct_name(table, "b", "Sara")
    ('علی ۲', 'Sara')
    """
    taken = {skeleton(m.name) for p, m in table.members.items() if p != player}
    if skeleton(name) not in taken:  # as it looks: "Ѕаrа" (Cyrillic) is "Sara" here
        return name
    persian = any("\u0600" <= ch <= "\u06ff" for ch in name)
    for n in range(2, 100):
        number = persian_digits(n) if persian else str(n)
        candidate = f"{name} {number}"
        if skeleton(candidate) not in taken:
            return candidate
    return name


def cmd_join(table: Table, player: str, cmd: Command, now: float) -> None:
    assert cmd.name is not None
    member = table.members.get(player)
    if member is not None:
        if table.in_hand:  # shown when the hand ends (a name is free text: not mid-hand)
            pending = None if cmd.name == member.name else cmd.name
            if pending != member.pending_name:
                member.pending_name = pending
                data = {"player": player, "name": pending}
                table._emit("rename_held", data, audience=player)  # theirs alone to see
            return
        name = distinct_name(table, player, cmd.name)
        if member.name != name:
            member.name = name
            table._emit("member_renamed", {"player": player, "name": name})
        return
    if player in table.banned:
        raise TableError("not_allowed", "the owner removed you from this room")
    if len(table.members) >= table.config.max_members:
        # Make room by dropping the longest-standing spectator who has gone away (a member
        # leaves only by ``leave``, so closed tabs would otherwise fill the room for good);
        # they join again when they come back, if there is room then.
        gone = next(
            (
                m.player
                for m in table.members.values()
                if not m.is_connected
                and m.player != table.owner
                and table.seat_of(m.player) is None
            ),
            None,
        )
        if gone is None:
            raise TableError("table_full", "this table is full")
        del table.members[gone]
        table._emit("member_left", {"player": gone, "seat": None, "forfeit": False})
    if table.in_hand:
        # A name is free text to the partner: a second guest named "AS KH QD" coming to
        # watch would tell it mid-hand, as a rename would. Shown as a newcomer until the
        # hand ends (the held rename's way), and to the newcomer alone meanwhile.
        shown = distinct_name(table, player, NEWCOMER_NAME)
        table.members[player] = Member(player, shown, pending_name=cmd.name)
        table._emit("member_joined", {"player": player, "name": shown})
        table._emit("rename_held", {"player": player, "name": cmd.name}, audience=player)
    else:
        name = distinct_name(table, player, cmd.name)  # after any drop: its name is free again
        table.members[player] = Member(player, name)
        table._emit("member_joined", {"player": player, "name": name})
    if table.owner is None:
        table.owner = player
        table._emit("owner_changed", {"owner": player})


def cmd_leave(table: Table, player: str, cmd: Command, now: float) -> None:
    remove_member(table, player, now)


def cmd_kick(table: Table, player: str, cmd: Command, now: float) -> None:
    """The owner removes a member (a stranger who found the code, a spammer), who may not
    join again (``Table.banned``). Not a player seated in a game in progress (after it), not
    a seated player of a quick room (its owner is only the first matched player: onlookers
    only), not oneself."""
    assert cmd.player is not None
    require_owner(table, player, "remove a member")
    target = cmd.player
    if table.quick and table.seat_of(target) is not None:
        raise TableError(
            "wrong_status",
            "a player of a quick game's room cannot be removed (onlookers can)",
            "بازیکنان اتاق بازی سریع را نمی‌شود بیرون کرد (تماشاگران را می‌شود)",
        )
    if target == player:
        raise TableError("bad_seat", "leave the room instead", "برای رفتن، از اتاق خارج شوید")
    if target == table.creator:  # an owner it passed to (the creator away) cannot shut it out
        raise TableError(
            "not_owner",
            "the player who made the room cannot be removed from it",
            "سازندهٔ اتاق را نمی‌شود از آن بیرون کرد",
        )
    if target not in table.members:
        raise TableError("not_member", f"{target!r} has not joined this table")
    if table.seat_of(target) is not None and table._status == "playing":
        raise TableError(
            "wrong_status",
            "a player seated in the game can be removed after it",
            "بازیکنی که سر میز است بعد از بازی بیرون می‌شود",
        )
    table.banned.add(target)
    remove_member(table, target, now, removed=True)


def remove_member(table: Table, player: str, now: float, *, removed: bool = False) -> None:
    """``player`` leaves (or, ``removed``, is removed by the owner): their seat is freed, or
    in a game in progress given to a bot, the player counted as having left it."""
    seat = table.seat_of(player)
    forfeit = False
    if seat is not None:
        slot = table.seats[seat]
        if table._status == "playing":
            forfeit = True
            table.left_this_game.append((player, seat))
            game = table.game
            if game is not None:  # where, for the record: who played this seat's cards when
                table.left_at.append(
                    {
                        "seat": seat,
                        "name": table.members[player].name,
                        "hand": len(game.hand_results),
                        "plays": len(game.plays),
                    }
                )
            table.seats[seat] = SeatSlot(
                "bot", None, table.config.timeout_bot_level, replaced=player
            )
        else:
            table.seats[seat] = SeatSlot()
        del slot
    table.deadlines.pop(f"grace_warn:{player}", None)
    table.deadlines.pop(f"grace_cancel:{player}", None)
    member = table.members.pop(player)
    left: dict[str, Any] = {
        "player": player,
        "name": member.name,
        "seat": seat,
        "forfeit": forfeit,
    }
    if removed:
        left["removed"] = True
    table._emit("member_left", left)
    if seat is not None:
        table._emit("seat_changed", table._seat_public(seat))
    if table.owner == player:
        table._pass_ownership()
    if member.is_connected and table._status == "playing" and not table.connected_players():
        table.paused_at = now
        table._emit("paused", {})


def target_of(table: Table, player: str, cmd: Command, what: str) -> str:
    """The member a seating command is about: the sender, or (owner only) another."""
    target = cmd.player if cmd.player is not None else player
    if target != player:
        require_owner(table, player, f"{what} another player")
        if target not in table.members:
            raise TableError("not_member", f"{target!r} has not joined this table")
    return target


def cmd_sit(table: Table, player: str, cmd: Command, now: float) -> None:
    assert cmd.seat is not None
    require_not_playing(table, "change seats")
    target = target_of(table, player, cmd, "seat")
    member = table.members.get(target)
    # A member who closed the page, seated by the owner, would be counted in a game they
    # never joined and cancelled when their grace ran out. The quick match is the exception:
    # the server seats its matched players before their pages connect.
    quick_setup = table.quick and table.game_number == 0
    if target != player and member is not None and not member.is_connected and not quick_setup:
        raise TableError(
            "not_here",
            f"{member.name} is not in the room now: only people here can be seated",
            f"{member.name} الان در اتاق نیست؛ فقط کسانی که اینجا هستند می‌نشینند",
        )
    if table.seats[cmd.seat].kind != "empty":
        if table.seats[cmd.seat].player == target:
            return
        raise TableError("seat_taken", f"seat {cmd.seat} is taken")
    old = table.seat_of(target)
    if old is not None:
        table.seats[old] = SeatSlot()
        table._emit("seat_changed", table._seat_public(old))
    table.seats[cmd.seat] = SeatSlot("human", target)
    table._emit("seat_changed", table._seat_public(cmd.seat))


def cmd_stand(table: Table, player: str, cmd: Command, now: float) -> None:
    require_not_playing(table, "change seats")
    target = target_of(table, player, cmd, "unseat")
    seat = table.seat_of(target)
    if seat is None:
        raise TableError("not_seated", f"{target!r} has no seat")
    table.seats[seat] = SeatSlot()
    table._emit("seat_changed", table._seat_public(seat))


def cmd_add_bot(table: Table, player: str, cmd: Command, now: float) -> None:
    assert cmd.seat is not None
    require_owner(table, player, "add a bot")
    require_not_playing(table, "add a bot")
    slot = table.seats[cmd.seat]
    level = cmd.level or "medium"
    if slot.kind == "human":
        raise TableError("seat_taken", f"seat {cmd.seat} is taken by a player")
    table.seats[cmd.seat] = SeatSlot("bot", None, level)
    table._emit("seat_changed", table._seat_public(cmd.seat))


def cmd_remove_bot(table: Table, player: str, cmd: Command, now: float) -> None:
    assert cmd.seat is not None
    require_owner(table, player, "remove a bot")
    require_not_playing(table, "remove a bot")
    if table.seats[cmd.seat].kind != "bot":
        raise TableError("bad_seat", f"seat {cmd.seat} has no bot")
    table.seats[cmd.seat] = SeatSlot()
    table._emit("seat_changed", table._seat_public(cmd.seat))


# The largest value a room takes for the engine's open-ended options (RULES.md allows any
# integer ≥ 1): a game to 999 points is a room that never ends, and a typo more often than a
# wish. Told to pages by /api/rules ("max").
OPTION_MAXIMA: dict[str, int] = {"target_points": 21, "kot_points": 10, "hakem_kot_points": 10}


def check_room_rules(rules: RuleSet) -> None:
    """Refuse rules a room does not take (:data:`OPTION_MAXIMA`), as ``bad_rules``: for the
    lobby's ``set_rules`` and for a room created with its rules (``POST /api/rules``)."""
    for name, high in OPTION_MAXIMA.items():
        value = getattr(rules, name)
        if value > high:
            raise TableError(
                "bad_rules",
                f"{name} at a table is at most {high}, not {value}",
                f"{_OPTION_FA[name]} در یک اتاق حداکثر {persian_digits(high)} است",
            )


def cmd_set_rules(table: Table, player: str, cmd: Command, now: float) -> None:
    require_owner(table, player, "set the rules")
    require_not_playing(table, "change the rules")
    # Options apply on top of the preset if one is named, else on top of the rules in force.
    spec: dict[str, Any] = {} if cmd.preset is not None else table.rules.to_dict()
    spec.update(cmd.options)
    if cmd.preset is not None:
        spec["preset"] = cmd.preset
    try:
        rules = RuleSet.from_dict(spec)
    except InvalidRulesError as exc:
        raise TableError("bad_rules", str(exc)) from exc
    check_room_rules(rules)
    table.rules = rules
    table.preset = rules.preset_name()
    table._emit("rules_changed", {"rules": rules.to_dict(), "preset": table.preset})


def cmd_start(table: Table, player: str, cmd: Command, now: float) -> None:
    require_owner(table, player, "start the game")
    if table._status != "lobby":
        raise TableError("wrong_status", f"the table is {table.status}: start is for the lobby")
    require_full(table)
    table._begin_game(Game(table.rules), now)


def require_full(table: Table) -> None:
    empty = [i for i, s in enumerate(table.seats) if s.kind == "empty"]
    if empty:
        raise TableError(
            "not_ready",
            f"seat {empty[0]} is empty: seat a player or a bot",
            "همهٔ صندلی‌ها باید پر باشند",
        )


def cmd_continue_game(table: Table, player: str, cmd: Command, now: float) -> None:
    require_owner(table, player, "continue")
    if table._status != "between_games" or table.game is None:
        raise TableError("wrong_status", "continue is for after a game")
    require_full(table)
    method = table.rules.next_game_hakem
    previous = table.game
    if method == "keep" and previous.hakem is not None:
        game = Game(table.rules, hakem=previous.hakem, hakem_method="keep")
    else:
        game = Game(table.rules, first_hakem="manual" if method == "keep" else method)
    table._begin_game(game, now)


def cmd_close_game(table: Table, player: str, cmd: Command, now: float) -> None:
    require_owner(table, player, "close the game")
    if table._status == "playing":
        table._end_game("closed", now, closed_by=player)
    elif table._status == "lobby":
        raise TableError("wrong_status", "there is no game to close")
    table._set_status("lobby")
    table.game = None
    table.commitment = None


def cmd_choose_hakem(table: Table, player: str, cmd: Command, now: float) -> None:
    assert cmd.seat is not None
    require_owner(table, player, "choose the hakem")
    game = table.game
    if table._status != "playing" or game is None or game.phase is not Phase.CHOOSE_HAKEM:
        raise TableError("wrong_phase", "the first hakem is not being chosen now")
    if game.first_hakem_method != "manual":
        raise TableError("wrong_phase", f"the first hakem is chosen by {game.first_hakem_method}")
    table._apply_game_action(SetHakem(Seat(cmd.seat)), now, auto=False)


def cmd_back(table: Table, player: str, cmd: Command, now: float) -> None:
    if table.seat_of(player) is None:
        raise TableError("not_seated", "you have no seat")


#: the level whose card a hint suggests (the rule bot: instant, and what the hints teach)
HINT_LEVEL = "medium"


def cmd_hint(table: Table, player: str, cmd: Command, now: float) -> None:
    """What the rule bot would do in the player's place, from the player's own view: for a
    player alone at a table of bots (practice), at their own trump or card decision. Changes
    nothing but, the first time in a game, that the player used hints (the ``hints_used``
    event: a win then earns them no points); not even *away* (:meth:`Table._touch` skips it)."""
    seat = table.seat_of(player)
    if seat is None:
        raise TableError("not_seated", "you have no seat")
    game = table.game
    if table.status != "playing" or game is None:
        raise TableError("wrong_status", "hints are given during a game")
    others = [s for s, slot in enumerate(table.seats) if s != seat and slot.kind == "human"]
    if others:
        raise TableError(
            "wrong_status",
            "hints are only for a player alone with bots",
            "راهنما فقط در بازی تنها با ربات‌ها در دسترس است",
        )
    view = view_of(game, Seat(seat))
    if not view.legal:
        raise TableError("not_your_turn", "hints are given at your own decision")
    if game.phase is Phase.BAM:  # the bam estimate plays games out: too dear for a hint
        raise TableError("wrong_phase", "hints are given for trump and cards")
    bot = make_table_bot(HINT_LEVEL, seed=f"hint:{table.id}:{table.game_version}")
    try:
        action = bot.act(view).to_dict()
    except Exception as exc:  # a bot's bug must not break the table
        raise TableError("wrong_status", f"no hint now ({exc.__class__.__name__})") from exc
    if action not in view.legal:
        raise TableError("wrong_status", "no hint now")
    table.reply_extra = {"hint": action}
    table.note_hinted(player)


def cmd_chat(table: Table, player: str, cmd: Command, now: float) -> None:
    if not table.flood.allow(player, now):
        raise chat_rejected("flood", code="rate_limited")
    phrase = None
    text = cmd.text
    if cmd.phrase is not None:
        if cmd.phrase not in PHRASES:
            raise chat_rejected("unknown_phrase")
        phrase = cmd.phrase
        text = None
    else:
        assert text is not None
        shown = text if table.replaying else chat_text(text, free_text=not table.in_hand)
        if isinstance(shown, ChatRejection):
            raise chat_rejected(shown.code)
        text = shown
    message = {
        "player": player,
        "name": table.members[player].name,
        "seat": table.seat_of(player),
        "text": text,
        "phrase": phrase,
        "at": now,
    }
    event = table._emit("chat", message)
    table.chat.append({**message, "version": event.version})


def cmd_action(table: Table, player: str, cmd: Command, now: float) -> None:
    assert cmd.action is not None and cmd.version is not None
    seat = table.seat_of(player)
    if seat is None:
        raise TableError("not_seated", "you have no seat at this table")
    raw = dict(cmd.action)
    raw.setdefault("seat", seat)
    try:
        action = action_from_dict(raw)
    except InvalidNotationError as exc:
        raise TableError("bad_command", f"action: {exc}") from exc
    if not isinstance(action, PLAYER_ACTIONS):
        raise TableError("bad_command", f"action: {action.type} is not a player's action")
    if int(action.seat) != seat:
        raise TableError("not_seated", f"you sit on seat {seat}, not seat {int(action.seat)}")
    game = table.game
    if table._status != "playing" or game is None:
        raise TableError("wrong_status", "no game is being played")
    if table.is_paused:  # pragma: no cover - a connected sender unpauses the table
        raise TableError("wrong_status", "the game is paused")
    # Made against an older game first: a card clicked as the turn timed out, arriving after
    # the bot played it, is late, not a card the player does not hold.
    if cmd.version > table.version:
        raise TableError(
            "stale", f"version {cmd.version} is newer than the table's ({table.version})"
        )
    if cmd.version < table.game_version:
        raise TableError(
            "stale",
            f"the game changed since version {cmd.version} (now {table.game_version}): "
            "look again and retry",
        )
    try:
        game.check(action)
    except NotYourTurnError as exc:
        raise TableError("not_your_turn", str(exc)) from exc
    except WrongPhaseError as exc:
        raise TableError("wrong_phase", str(exc)) from exc
    except IllegalActionError as exc:
        raise TableError("illegal", str(exc), illegal_fa(game, action)) from exc
    table._apply_game_action(action, now, auto=False)


# ------------------------------------------------------------------ shared helpers


def illegal_fa(game: Game, action: Action) -> str:
    """The Persian reason for the common illegal moves (the English one names the rule)."""
    if isinstance(action, Play):
        if action.card not in game.hand_of(action.seat):
            return f"برگ {action.card.persian} را ندارید"
        return "باید از خال زمین بازی کنید، اگر دارید"
    if isinstance(action, RequestRedeal):
        return "درخواست پخش دوباره فقط وقتی مجاز است که در پنج برگ اول برگی از ده به بالا نباشد"
    return "این حرکت طبق قوانین مجاز نیست"


def not_member() -> TableError:
    return TableError("not_member", "join the table first")


class ChatError(TableError):
    def __init__(self, reason: str, code: str) -> None:
        r = rejection(reason)
        super().__init__(code, r.message, r.message_fa)
        self.reason = reason


def chat_rejected(reason: str, *, code: str = "chat_rejected") -> TableError:
    return ChatError(reason, code)


HANDLERS: dict[str, Handler] = {
    "join": cmd_join,
    "leave": cmd_leave,
    "kick": cmd_kick,
    "sit": cmd_sit,
    "stand": cmd_stand,
    "add_bot": cmd_add_bot,
    "remove_bot": cmd_remove_bot,
    "set_rules": cmd_set_rules,
    "start": cmd_start,
    "choose_hakem": cmd_choose_hakem,
    "action": cmd_action,
    "continue_game": cmd_continue_game,
    "close_game": cmd_close_game,
    "chat": cmd_chat,
    "back": cmd_back,
    "hint": cmd_hint,
}
