"""Online tables without sockets: rooms, seats, phases, timers as data, bots, disconnects,
chat policy and versioned, per-recipient events. See ``docs/table.md``.

The server owns the I/O: it feeds a :class:`Table` commands, connections, ticks and bot
moves (each with the time ``now``), stores ``table.to_dict()`` whenever an :class:`Outcome`
changed something, and sends each connected member ``table.render(event, player)``.
"""

from hokm.table.bots import choose_bot_action, make_table_bot
from hokm.table.chat import EMOJI, MAX_CHAT_CHARS, PHRASES, ChatRejection, check_text
from hokm.table.codes import CODE_ALPHABET, is_code, new_code, normalize_code
from hokm.table.commands import BOT_LEVELS, COMMAND_TYPES, Command, parse_command
from hokm.table.errors import ERROR_CODES, TableError, error_frame
from hokm.table.handlers import OPTION_MAXIMA, check_room_rules
from hokm.table.model import (
    BotTurn,
    Deadline,
    GameResult,
    Member,
    Outcome,
    SeatSlot,
    TableConfig,
    TableEvent,
)
from hokm.table.records import game_record
from hokm.table.table import STATUSES, Table, iter_seeds

__all__ = [
    "BOT_LEVELS",
    "CODE_ALPHABET",
    "COMMAND_TYPES",
    "EMOJI",
    "ERROR_CODES",
    "MAX_CHAT_CHARS",
    "OPTION_MAXIMA",
    "PHRASES",
    "STATUSES",
    "BotTurn",
    "ChatRejection",
    "Command",
    "Deadline",
    "GameResult",
    "Member",
    "Outcome",
    "SeatSlot",
    "Table",
    "TableConfig",
    "TableError",
    "TableEvent",
    "check_room_rules",
    "check_text",
    "choose_bot_action",
    "error_frame",
    "game_record",
    "is_code",
    "iter_seeds",
    "make_table_bot",
    "new_code",
    "normalize_code",
    "parse_command",
]
