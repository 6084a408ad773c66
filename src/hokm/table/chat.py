"""Chat policy (RULES.md §8, 002): what may be said, when, and how often.

* Free text in the lobby, between hands and after a game.
* From the deal to the end of each hand only preset phrases and emoji (:data:`PHRASES`),
  so no one can tell their partner their cards.
* Links and phone numbers are never delivered in any phase, however they are disguised:
  Persian (۰–۹) and Arabic-Indic (٠–٩) digits, digits spaced or dotted apart,
  "dot com" / "نقطه کام", ``www``, ``t.me``, ``@handles``.
* A length cap and a flood limit per player.

Everything here is pure: the caller passes the time in.

>>> check_text("salam, khubid?", free_text=True) is None
True
>>> check_text("call me ۰۹۱۲ ۳۴۵ ۶۷۸۹", free_text=True).code
'phone'
>>> check_text("example dot com", free_text=True).code
'link'
>>> check_text("hello", free_text=False).code
'preset_only'
>>> check_text("👍", free_text=False) is None
True
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from hokm.engine import latin_digits

__all__ = [
    "BLANK",
    "EMOJI",
    "MAX_CHAT_CHARS",
    "MAX_MARKS",
    "PHRASES",
    "ChatRejection",
    "FloodLimiter",
    "cap_marks",
    "check_text",
    "phrase_text",
    "skeleton",
]

MAX_CHAT_CHARS = 200
FLOOD_MESSAGES = 5  # at most this many messages ...
FLOOD_SECONDS = 10.0  # ... within this many seconds, per player

# Preset phrases allowed during a hand: id -> (Persian, English).
PHRASES: dict[str, tuple[str, str]] = {
    "hi": ("سلام", "Hi"),
    "gl": ("موفق باشید", "Good luck"),
    "nice": ("آفرین!", "Nice!"),
    "well_played": ("خوب بازی کردی", "Well played"),
    "thanks": ("مرسی", "Thanks"),
    "sorry": ("ببخشید", "Sorry"),
    "oops": ("اوه!", "Oops!"),
    "hurry": ("لطفاً سریع‌تر", "Please hurry"),
    "wait": ("یک لحظه", "One moment"),
    "brb": ("الان برمی‌گردم", "Be right back"),
    "gg": ("بازی خوبی بود", "Good game"),
    "again": ("یک بازی دیگر؟", "Another game?"),
    "bye": ("خداحافظ", "Bye"),
    "wow": ("وای!", "Wow!"),
    "unlucky": ("بدشانسی بود", "Unlucky"),
    "kot": ("کُت!", "Kot!"),
}

# Emoji accepted alone (or several of them) at any time.
EMOJI: tuple[str, ...] = (
    "👍",
    "👎",
    "👏",
    "😀",
    "😂",
    "😅",
    "😉",
    "😎",
    "😮",
    "😢",
    "😡",
    "🤔",
    "🙏",
    "❤️",
    "🔥",
    "🎉",
    "☕",
    "🤝",
    "👋",
    "💪",
)
_EMOJI_CANONICAL = {unicodedata.normalize("NFC", e).replace("\ufe0f", ""): e for e in EMOJI}
_EMOJI_BARE = sorted(_EMOJI_CANONICAL, key=len, reverse=True)
MAX_HAND_EMOJI = 3  # emoji in one message during a hand


@dataclass(frozen=True, slots=True)
class ChatRejection:
    """Why a message was not delivered: a stable ``code`` and a reason in both languages."""

    code: str  # empty | too_long | preset_only | too_many_emoji | link | phone | flood | …
    message: str
    message_fa: str

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "message_fa": self.message_fa}


_REJECT = {
    "empty": ("the message is empty", "پیام خالی است"),
    "too_long": (f"the message is longer than {MAX_CHAT_CHARS} characters", "پیام خیلی طولانی است"),
    "preset_only": (
        "during a hand only preset phrases and emoji can be sent",
        "در طول هَند فقط عبارت‌های آماده و شکلک می‌شود فرستاد",
    ),
    "link": ("links are not allowed in chat", "فرستادن لینک در گفتگو مجاز نیست"),
    "phone": ("phone numbers are not allowed in chat", "فرستادن شماره تلفن در گفتگو مجاز نیست"),
    "flood": ("too many messages; wait a few seconds", "پیام‌ها زیاد است؛ چند ثانیه صبر کنید"),
    "unknown_phrase": ("no such preset phrase", "چنین جملهٔ آماده‌ای وجود ندارد"),
    "too_many_emoji": (
        "during a hand a message holds at most 3 emoji",
        "در طول هَند هر پیام حداکثر ۳ شکلک دارد",
    ),
}


def rejection(code: str) -> ChatRejection:
    message, message_fa = _REJECT[code]
    return ChatRejection(code, message, message_fa)


def phrase_text(phrase_id: str) -> tuple[str, str] | None:
    """The (Persian, English) text of a preset phrase, or None."""
    return PHRASES.get(phrase_id)


# ---------------------------------------------------------------------------------- detection

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), " ")
# Characters drawn like a dot ("example٫com", "example•com").
_DOTS = dict.fromkeys(map(ord, "\u066b\u06d4\u2022\u2027\u2219\u22c5\u00b7\u30fb\uff65\u0701"), ".")
# Letters of other scripts drawn like Latin ones ("example.сom" with a Cyrillic с), and the
# Arabic forms of Persian letters: compared as what they look like.
_LOOKALIKE = str.maketrans(
    "аеорсухіјѕԁӏԛԝүһвкмнтαβεηικνορτυχωيك",
    "aeopcyxijsdlqwyhbkmhtabenikvoptuxwیک",
)


def skeleton(text: str) -> str:
    """``text`` as it looks, for comparing and for finding what it disguises: compatibility
    forms folded (fullwidth letters, ligatures), lower case, Latin digits, look-alike
    letters of other scripts as the Latin ones they look like, marks and invisible
    characters dropped (zero-width joiners as nothing).

    >>> skeleton("Ѕаrа\u034f") == skeleton("sara")
    True
    >>> skeleton("ｅｘａｍｐｌｅ．ｃ\u200cｏｍ")
    'example.com'
    """
    text = latin_digits(unicodedata.normalize("NFKC", text)).casefold()
    text = text.translate(_LOOKALIKE).translate(_DOTS)
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Mn", "Me", "Cf"))


def _normalize(text: str) -> str:
    text = latin_digits(unicodedata.normalize("NFKC", text)).translate(_ZERO_WIDTH)
    return text.casefold().translate(_DOTS)


# Words people use to spell out the dot and the at sign.
_DOT = r"(?:\.|。|·|[(\[{]\s*(?:dot|\.)\s*[)\]}]|\bdot\b|\bdat\b|نقطه|دات)"
_AT_SIGN = r"(?:@|\(\s*at\s*\)|\[\s*at\s*\])"
_TLDS_TIGHT = (
    r"(?:com|net|org|ir|io|me|co|info|biz|xyz|app|dev|site|online|link|ly|gg|tv|ru|de|uk"
    r"|shop|store|ai|live|top|club|tk|pw|cc|ws|su|icu|website)"
)
_TLDS_LOOSE = r"(?:com|net|org|ir|io|info|xyz|shop|kam|کام|نت|آی\s*\.?\s*آر|ای\s*\.?\s*ار|ارگ)"
_LINK_PATTERNS = [
    re.compile(r"[a-z][a-z0-9+.-]*://"),  # any scheme
    re.compile(r"\bwww\b|وب\s*سایت|دبلیو"),
    re.compile(
        r"\b(?:t\.me|wa\.me|telegram|instagram|insta|whatsapp)\b"
        r"|تل\s*گرام|اینس\s*تا|اینستا|واتس\s*(?:اپ|آپ)|واتساپ"
    ),
    # The short-link and messenger hosts, spaced or spelled out ("t . me/x", "bit dot ly").
    re.compile(r"\b(?:t|wa|bit|tinyurl|goo)\s*" + _DOT + r"\s*(?:me|ly|gl|com)\b"),
    re.compile(r"[\w-]\." + _TLDS_TIGHT + r"(?![a-z0-9])"),  # name.tld
    re.compile(r"[a-z0-9\u0600-\u06ff_-]+\s*" + _DOT + r"\s*" + _TLDS_LOOSE + r"(?![a-z])"),
    re.compile(r"(?:^|\s)@[a-z0-9_.]{3,}"),  # @handles
    re.compile(r"[a-z0-9._-]+\s*" + _AT_SIGN + r"\s*[a-z0-9-]+\s*" + _DOT),  # e-mail-like
    # "me at mail dot com" (the word "at" needs a name and a domain ending after it, not
    # "see you at 7. gg" nor "at home. come")
    re.compile(
        r"[a-z0-9._-]+\s+at\s+[a-z][a-z0-9-]*\s*" + _DOT + r"\s*" + _TLDS_TIGHT + r"(?![a-z0-9])"
    ),
]
# Spelled without spaces or joiners at all ("t e l e g r a m" is rare, "تل‌گرام" is not).
_SQUEEZED = re.compile(r"telegram|instagram|whatsapp|تلگرام|اینستاگرام|واتساپ")
# Digits with any separators between them; 7 or more digits is treated as a phone number.
_DIGIT_RUN = re.compile(r"\+?\d(?:[\s.\-_/()\\,*|:]*\d)+")
_PHONE_WORDS = re.compile(r"شماره|تماس|\bphone\b|\bcall\b|\bnumber\b|موبایل")


def find_link(text: str) -> bool:
    """True if ``text`` looks like it carries a link, site name, handle or e-mail address:
    read as written (zero-width characters as spaces) and as it looks (:func:`skeleton`:
    look-alike letters and dots, invisible characters dropped)."""
    for norm in (_normalize(text), skeleton(text)):
        if any(p.search(norm) for p in _LINK_PATTERNS):
            return True
    squeezed = "".join(ch for ch in skeleton(text) if ch.isalnum())
    return bool(_SQUEEZED.search(squeezed))


_NUMBER_WORDS = {
    **dict.fromkeys(["zero", "oh", "صفر"], "0"),
    **dict.fromkeys(["one", "یک", "یه"], "1"),
    **dict.fromkeys(["two", "دو"], "2"),
    **dict.fromkeys(["three", "سه"], "3"),
    **dict.fromkeys(["four", "چهار"], "4"),
    **dict.fromkeys(["five", "پنج"], "5"),
    **dict.fromkeys(["six", "شش", "شیش"], "6"),
    **dict.fromkeys(["seven", "هفت"], "7"),
    **dict.fromkeys(["eight", "هشت"], "8"),
    **dict.fromkeys(["nine", "نه"], "9"),
}
# Numbers of two digits said as one word ("twelve", "sixty", "دوازده", "شصت").
_TENS_WORDS = frozenset(
    [
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "ده",
        "یازده",
        "دوازده",
        "سیزده",
        "چهارده",
        "پانزده",
        "پونزده",
        "شانزده",
        "شونزده",
        "هفده",
        "هیفده",
        "هجده",
        "هیجده",
        "نوزده",
        "بیست",
        "سی",
        "چهل",
        "پنجاه",
        "شصت",
        "هفتاد",
        "هشتاد",
        "نود",
    ]
)
_HUNDREDS_WORDS = frozenset(
    [
        "hundred",
        "صد",
        "یکصد",
        "دویست",
        "سیصد",
        "چهارصد",
        "پانصد",
        "ششصد",
        "شیشصد",
        "هفتصد",
        "هشتصد",
        "نهصد",
    ]
)
_AND_WORDS = frozenset({"and", "و"})  # "sixty and seven", «شصت و هفت»: the run goes on
_WORD = re.compile(r"[^\W\d_]+|\d+")


def _spelled_digits(norm: str) -> int:
    """The longest run of digits and spelled-out numbers (``zero nine one two ...``,
    ``twelve``, «شصت و هفت»), counted in the digits they stand for."""
    best = run = 0
    for token in _WORD.findall(norm):
        if token.isdigit():
            run += len(token)
        elif token in _NUMBER_WORDS:
            run += 1
        elif token in _TENS_WORDS:
            run += 2
        elif token in _HUNDREDS_WORDS:
            run += 3
        elif token not in _AND_WORDS:
            run = 0
        best = max(best, run)
    return best


def find_phone(text: str) -> bool:
    """True if ``text`` carries a phone number (7+ digits, however written and spaced,
    also spelled out in English or Persian words)."""
    norm = _normalize(text)
    if _spelled_digits(norm) >= 7 or _spelled_digits(skeleton(text)) >= 7:
        return True
    for run in _DIGIT_RUN.finditer(norm):
        digits = sum(ch.isdigit() for ch in run.group())
        if digits >= 7:
            return True
        if digits >= 4 and _PHONE_WORDS.search(norm):
            return True
    # All digits of the message together (e.g. split by words): many digits is a number.
    return sum(ch.isdigit() for ch in norm) >= 9


def emoji_sequence(text: str) -> list[str] | None:
    """The allowed :data:`EMOJI` that ``text`` is made of, in their canonical form (spaces
    and emoji variation selectors ignored), or None if it holds anything else.

    >>> emoji_sequence(" 👍 ❤ ")
    ['👍', '❤️']
    >>> emoji_sequence("👍 ok") is None
    True
    """
    rest = unicodedata.normalize("NFC", text).replace(" ", "").replace("\ufe0f", "")
    if not rest:
        return None
    found: list[str] = []
    while rest:  # longest-first greedy match over the allowed emoji
        for emoji in _EMOJI_BARE:
            if rest.startswith(emoji):
                rest = rest[len(emoji) :]
                found.append(_EMOJI_CANONICAL[emoji])
                break
        else:
            return None
    return found


def is_emoji_only(text: str) -> bool:
    """True if ``text`` is one or more of the allowed :data:`EMOJI` (spaces allowed)."""
    return emoji_sequence(text) is not None


#: Characters that show as nothing or a blank yet count as letters or symbols (Hangul
#: fillers, the blank Braille pattern, the combining grapheme joiner, Mongolian and Khmer
#: blanks): a name or a message of them alone looks empty.
BLANK = frozenset("\u3164\u115f\u1160\uffa0\u2800\u034f\u180e\u17b4\u17b5")


#: combining marks kept on one character: enough for any script's letter (Persian's shadda,
#: a vowel and a superscript alef are three); more stack above and below the line ("zalgo")
#: and spill over the other lines of the chat and the seats around a name
MAX_MARKS = 4


def cap_marks(text: str) -> str:
    """``text`` with at most :data:`MAX_MARKS` combining marks on any one character.

    >>> cap_marks("بَّ") == "بَّ"
    True
    >>> len(cap_marks("x" + "\u0301" * 20))
    5
    """
    out: list[str] = []
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run <= MAX_MARKS:
            out.append(ch)
    return "".join(out)


def _visible(text: str) -> str:
    r"""``text`` without invisible format characters (direction overrides and isolates,
    zero-width spaces, soft hyphens), which can disguise what a message says, and without
    control characters but the line break (DEL and U+0080–U+009F: the command check refuses
    only those below U+0020, and a client printing chat to a terminal takes U+009B for an
    escape), and with no more than :data:`MAX_MARKS` combining marks on a character. The
    zero-width non-joiner and joiner stay: Persian words and emoji need them.

    >>> _visible("a\u202eb\u009b2Jc\nd")
    'ab2Jc\nd'
    """
    return cap_marks(
        "".join(
            ch
            for ch in text
            if ch in "\u200c\u200d\n" or unicodedata.category(ch) not in ("Cf", "Cc")
        )
    ).strip()


def chat_text(text: str, *, free_text: bool) -> str | ChatRejection:
    """The text to deliver for ``text``, or why it may not be delivered now.

    Free text loses its invisible format characters. During a hand (``free_text`` False) a
    message is 1 to :data:`MAX_HAND_EMOJI` allowed emoji, delivered in their canonical form,
    so no spacing or invisible characters can carry a message of their own.

    >>> chat_text("سلام\u202e!", free_text=True)
    'سلام!'
    >>> chat_text(" 👍  👍", free_text=False)
    '👍👍'
    >>> chat_text("👍 " * 4, free_text=False).code
    'too_many_emoji'
    """
    if len(text.strip()) > MAX_CHAT_CHARS:
        return rejection("too_long")
    if not free_text:
        emoji = emoji_sequence(text)
        if emoji is None:
            return rejection("empty" if not _visible(text) else "preset_only")
        if len(emoji) > MAX_HAND_EMOJI:
            return rejection("too_many_emoji")
        return "".join(emoji)
    shown = _visible(text)
    if not shown or all(ch in BLANK or ch.isspace() for ch in shown):
        return rejection("empty")
    if find_link(shown):
        return rejection("link")
    if find_phone(shown):
        return rejection("phone")
    return shown


def check_text(text: str, *, free_text: bool) -> ChatRejection | None:
    """Why ``text`` may not be delivered now, or None (:func:`chat_text` without the text).
    ``free_text`` is False during a hand."""
    shown = chat_text(text, free_text=free_text)
    return shown if isinstance(shown, ChatRejection) else None


@dataclass(slots=True)
class FloodLimiter:
    """At most ``limit`` messages per ``window`` seconds per player (a sliding window)."""

    limit: int = FLOOD_MESSAGES
    window: float = FLOOD_SECONDS
    sent: dict[str, list[float]] = field(default_factory=dict)

    def allow(self, player: str, now: float) -> bool:
        """Record a message at ``now`` if allowed; False (and nothing recorded) if flooding.

        Players whose messages have all left the window are forgotten (they decide nothing):
        a room kept every player who ever chatted in it, in memory and in its snapshots."""
        for gone in [p for p, ts in self.sent.items() if not ts or now - ts[-1] >= self.window]:
            del self.sent[gone]
        times = [t for t in self.sent.get(player, []) if now - t < self.window]
        if len(times) >= self.limit:
            self.sent[player] = times
            return False
        times.append(now)
        self.sent[player] = times
        return True
