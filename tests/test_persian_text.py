"""The Persian the players read is written one way: the ezafe after a silent «ه» is «ـهٔ»
(«نسخهٔ قوانین», «پنجرهٔ دیگری»), as in the web client's table, never «ـه‌ی» beside it."""

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "hokm"
# a word ending in «ه», a zero-width non-joiner, «ی» and then a space: «همه‌ی صندلی‌ها»
SPLIT_EZAFE = re.compile("[\u0600-\u06ff]+\u0647\u200c\u06cc(?=[ \u00a0])")


def test_the_ezafe_after_a_silent_he_is_written_with_hamza() -> None:
    found = [
        f"{path.relative_to(SRC)}:{n}: {m.group()}"
        for path in sorted([*SRC.rglob("*.py"), *SRC.rglob("*.js")])
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for m in SPLIT_EZAFE.finditer(line)
    ]
    assert found == []
