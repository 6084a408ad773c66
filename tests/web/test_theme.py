"""The ☰ menu's theme («پوسته»): automatic (the system's light or dark), light or dark.

In the dark, every text the page shows (the prompt, the HUD, the chat, the lobby's seats, the
menu) keeps a WCAG contrast of at least 4.5:1 with what is behind it; the light theme is the
page's colours as they were before the theme existed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE, shot
from tests.web.helpers import (
    DECISION,
    enter_name,
    start_practice,
    store,
    take_turn,
    take_turns_until,
)

# Each visible element with text of its own (or matching ``selector``): its colour, the colour
# behind it (the first opaque background of it or its ancestors, with the translucent ones in
# between laid over it) and their WCAG contrast. Not measured (``skipped``): what lies on a
# gradient (the felt, whose colours no theme changes), under an opacity below 1 (a disabled
# button) or is for screen readers only.
_CONTRAST = """(selector) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]*)\\)/);
    if (!m) throw new Error(`not a colour: ${c}`);
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) =>
    [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.backgroundImage !== 'none' || cs.filter !== 'none') return null;
      if (Number(cs.opacity) < 1) return null;
      if (e.classList.contains('sr-only')) return null;
      const c = parse(cs.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
  const els = selector
    ? [...document.querySelectorAll(selector)]
    : [...document.querySelectorAll('body *')].filter(
        (el) => ownText(el) || el.matches('input, select'));
  const out = { measured: [], skipped: 0 };
  for (const el of els) {
    if (!el.checkVisibility({ visibilityProperty: true }) || !el.getClientRects().length) continue;
    const bg = behind(el);
    if (!bg) { out.skipped += 1; continue; }
    const cs = getComputedStyle(el);
    const fg = over(parse(cs.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const size = parseFloat(cs.fontSize);
    out.measured.push({
      what: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
        + [...el.classList].map((c) => '.' + c).join(''),
      text: (el.innerText || el.value || '').trim().slice(0, 30),
      fg: cs.color, bg: `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})`,
      ratio: (hi + 0.05) / (lo + 0.05),
      large: size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700),
    });
  }
  return out;
}"""


def contrast(page: Page, selector: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(_CONTRAST, selector)
    return found


def judge(where: str, keys: dict[str, list[dict[str, Any]]], sweep: dict[str, Any]) -> None:
    """Each key selector's text has a contrast of 4.5:1 or more; every other text on the page
    too (3:1 for large text, as WCAG allows)."""
    for selector, found in keys.items():
        assert found, f"{where}: nothing measured for {selector}"
        low = [m for m in found if m["ratio"] < 4.5]
        assert not low, f"{where}: {selector}: {low}"
    assert len(sweep["measured"]) >= 10, sweep
    low = [m for m in sweep["measured"] if m["ratio"] < (3 if m["large"] else 4.5)]
    assert not low, f"{where}: {low}"


def assert_readable(page: Page, where: str, key: list[str]) -> None:
    judge(where, {s: contrast(page, s)["measured"] for s in key}, contrast(page))


# The hand's result may go within a second (the next hand's play begins): measured as soon as
# it is put in the page.
_WATCH_RESULT = f"""() => {{
  const measure = {_CONTRAST};
  window.resultSeen = null;
  new MutationObserver((_, obs) => {{
    if (!document.getElementById('hand-result')) return;
    obs.disconnect();
    window.resultSeen = {{ banner: measure('#hand-result').measured, page: measure(null) }};
  }}).observe(document.body, {{ childList: true, subtree: true }});
}}"""


def body_background(page: Page) -> str:
    colour: str = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    return colour


def is_dark(colour: str) -> bool:
    r, g, b = (int(x) for x in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3])
    return max(r, g, b) < 60


def play_into_the_hand(page: Page) -> None:
    """Take this page's turns until a trick has been played and the player must play a card."""
    for _ in range(60):
        page.wait_for_selector(DECISION, state="attached")
        if store(page, "s.game.tricks.length") >= 1 and page.locator(".hand .card.legal").count():
            return
        take_turn(page)
    raise AssertionError("no turn after the first trick")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_on_a_dark_system_every_page_is_dark_and_readable(
    new_page: Callable[..., Page], size: str
) -> None:
    """With the setting on «خودکار» (never touched) and the system dark: the home page, the
    menu, a lobby and a table mid-hand are dark, their text readable; the cards stay light
    with their suits' colours."""
    viewport = PHONE if size == "phone" else DESKTOP
    page = new_page(viewport=viewport)
    page.emulate_media(color_scheme="dark")
    page.goto("/")
    enter_name(page, "Ali")
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert page.input_value("#theme") == "auto"
    assert is_dark(body_background(page)), body_background(page)
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
    shot(page, f"dark-{size}-home")
    if size == "phone":
        page.click("#menu")
    assert_readable(page, "home", ["h1", "label", "#nav a", ".deck-opt label", "#theme"])
    shot(page, f"dark-{size}-menu")
    if size == "phone":
        page.click("#menu")

    page.click("#create")
    page.wait_for_selector("#room-code")
    page.locator(".seat-card button.add-bot").first.click()
    page.wait_for_selector('.seat-card[data-kind="bot"]')
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"dark-{size}-lobby")
    page.click(".lobby details summary")
    assert_readable(
        page,
        "lobby",
        [".seat-card .seat-name", ".seat-head", ".seat-card .badge", ".opt", "#room-code"],
    )
    shot(page, f"dark-{size}-lobby-options")

    table = new_page(viewport=viewport)
    table.emulate_media(color_scheme="dark")
    start_practice(table, "Bita", target=7)  # no game over after one hand: its result is shown
    play_into_the_hand(table)
    if size == "phone":
        # the chat is a sheet over the bottom of a phone's screen, opened by a tap
        table.click("#chat-toggle")
        table.wait_for_selector(".chat-body")
    assert_readable(
        table,
        "table",
        ["#prompt", ".hud-item .label", ".hud-item .val", ".chat-toggle", ".chat-presets button"],
    )
    # the cards are paper in the dark too: light, with red and black suits
    card = table.locator(".hand .card").first
    paper = card.evaluate("e => getComputedStyle(e).backgroundColor")
    assert not is_dark(paper) and paper != "rgb(255, 255, 255)"
    reds = contrast(table, ".hand .card.suit-H .rank, .hand .card.suit-D .rank")["measured"]
    blacks = contrast(table, ".hand .card.suit-S .rank, .hand .card.suit-C .rank")["measured"]
    assert reds or blacks
    for m in reds + blacks:
        assert m["ratio"] >= 4.5, m
    assert all(m["fg"] == "rgb(200, 16, 46)" for m in reds)
    if size == "phone":
        shot(table, f"dark-{size}-table-chat")
        table.click("#chat-toggle")
    shot(table, f"dark-{size}-table")
    # the hand's result over the felt
    table.evaluate(_WATCH_RESULT)
    for _ in range(60):
        if take_turn(table, stop_at_result=True) == "done":
            break
        table.wait_for_selector(DECISION, state="attached")
    table.wait_for_function("window.resultSeen")
    seen = table.evaluate("window.resultSeen")
    judge("result", {"#hand-result": seen["banner"]}, seen["page"])
    shot(table, f"dark-{size}-result")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_other_pages_are_readable_in_the_dark(new_page: Callable[..., Page], size: str) -> None:
    """The rules, the simulator, the advisor (with its advice) and the leaderboard."""
    page = new_page(viewport=PHONE if size == "phone" else DESKTOP)
    page.add_init_script("localStorage.setItem('hokm.settings', JSON.stringify({theme: 'dark'}))")
    page.goto("/#/rules")
    page.wait_for_selector(".rules-body h2")
    assert is_dark(body_background(page))
    assert_readable(page, "rules", [".rules-body h2", ".rules-body p"])
    shot(page, f"dark-{size}-rules")
    page.goto("/#/sim")
    page.wait_for_selector(".sim h1")
    assert_readable(page, "sim", [".sim p"])
    shot(page, f"dark-{size}-sim")
    page.goto("/#/advisor")
    page.wait_for_selector(".advisor .picker")  # (not the simulator's picker, still there)
    for code in ("AH", "KH", "QH", "2S", "3D"):
        page.click(f'.picker [data-card="{code}"]')
    page.click("#advisor-ask")
    page.wait_for_selector("#advice")
    assert_readable(page, "advisor", ["#advice .advice strong", "#advice .advice .suit-H"])
    shot(page, f"dark-{size}-advisor")
    page.goto("/#/leaderboard")
    page.wait_for_selector("main h1")
    page.wait_for_timeout(300)
    assert_readable(page, "leaderboard", ["main h1"])
    shot(page, f"dark-{size}-leaderboard")


def test_the_menus_choice_overrides_the_system_and_is_kept(new_page: Callable[..., Page]) -> None:
    """«روشن» on a dark system is light, after a reload too; «تیره» on a light system is dark;
    back to «خودکار» the system decides again. The choice is on <html> before the page's
    <body> exists (no flash of the other theme)."""
    page = new_page(viewport=PHONE)
    # When <body> is parsed, which theme <html> already has.
    page.add_init_script(
        """new MutationObserver((_, obs) => {
             if (!document.body) return;
             window.themeAtBody = document.documentElement.dataset.theme || 'auto';
             obs.disconnect();
           }).observe(document, { childList: true, subtree: true });"""
    )
    page.emulate_media(color_scheme="dark")
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    assert is_dark(body_background(page))
    page.click("#menu")
    assert page.inner_text('label[for="theme"]') == "پوسته"
    options = page.eval_on_selector_all("#theme option", "os => os.map(o => o.textContent)")
    assert options == ["خودکار", "روشن", "تیره"]
    page.select_option("#theme", label="روشن")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert body_background(page) == "rgb(238, 242, 238)"
    assert page.evaluate("JSON.parse(localStorage['hokm.settings']).theme") == "light"

    page.reload()
    page.wait_for_selector('.home[data-ready="1"]')
    assert page.evaluate("window.themeAtBody") == "light"
    assert body_background(page) == "rgb(238, 242, 238)"
    assert page.input_value("#theme") == "light"

    page.emulate_media(color_scheme="light")
    page.click("#menu")
    page.select_option("#theme", label="تیره")
    assert is_dark(body_background(page))
    page.reload()
    page.wait_for_selector('.home[data-ready="1"]')
    assert page.evaluate("window.themeAtBody") == "dark"
    assert is_dark(body_background(page))
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"

    page.click("#menu")
    page.select_option("#theme", "auto")
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert body_background(page) == "rgb(238, 242, 238)"
    page.emulate_media(color_scheme="dark")
    assert is_dark(body_background(page))

    # In English the menu says the same.
    page.click("#lang")
    page.click("#menu")
    assert page.inner_text('label[for="theme"]') == "Theme"
    options = page.eval_on_selector_all("#theme option", "os => os.map(o => o.textContent)")
    assert options == ["Automatic", "Light", "Dark"]


# Computed colours of the light theme as they were before the colours became custom
# properties (taken from the page at the commit before).
_LIGHT = {
    ":root": {"background-color": "rgb(238, 242, 238)", "color": "rgb(27, 31, 35)"},
    ".home .panel": {"background-color": "rgb(255, 255, 255)"},
    "#name": {"background-color": "rgb(255, 255, 255)", "border-top-color": "rgb(154, 165, 177)"},
    "main button:not(.primary):not(.link)": {
        "background-color": "rgb(255, 255, 255)",
        "color": "rgb(27, 31, 35)",
    },
    ".home .links a": {"color": "rgb(11, 87, 208)"},
    ".hint": {"color": "rgb(92, 102, 112)"},
}
_LIGHT_TABLE = {
    ".hud-item": {"background-color": "rgb(255, 255, 255)"},
    ".hud-item .label": {"color": "rgb(92, 102, 112)"},
    "#prompt": {"background-color": "rgb(255, 243, 205)"},
    ".hand .card": {"background-color": "rgb(251, 250, 247)"},
    ".chat-body": {"background-color": "rgb(255, 255, 255)"},
    ".hand .card.suit-H, .hand .card.suit-D": {"color": "rgb(200, 16, 46)"},
}


def computed(page: Page, expected: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    got: dict[str, dict[str, str]] = {}
    for selector, props in expected.items():
        el = page.locator(selector).first
        got[selector] = {
            p: el.evaluate("(e, p) => getComputedStyle(e).getPropertyValue(p)", p) for p in props
        }
    return got


@pytest.mark.parametrize("choice", ["auto", "light"])
def test_the_light_theme_keeps_the_colours_it_had(
    new_page: Callable[..., Page], choice: str
) -> None:
    """On a light system (the setting untouched), or chosen on a dark one: the same colours as
    before the themes."""
    page = new_page(viewport=DESKTOP)
    if choice == "light":
        page.add_init_script(
            "localStorage.setItem('hokm.settings', JSON.stringify({theme: 'light'}))"
        )
        page.emulate_media(color_scheme="dark")
    else:
        page.emulate_media(color_scheme="light")
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    assert computed(page, _LIGHT) == _LIGHT
    start_practice(page, "Dara")
    take_turns_until(page, ".hand .card.legal")
    page.wait_for_selector(".chat-body")
    wanted = {
        s: v for s, v in _LIGHT_TABLE.items() if page.locator(s).count()
    }  # a hand may have no red card
    assert len(wanted) >= len(_LIGHT_TABLE) - 1
    assert computed(page, wanted) == wanted


def test_the_dark_palette_chosen_and_the_systems_are_the_same() -> None:
    """style.css writes the dark palette twice: chosen («تیره»), and the system's while the
    theme is «خودکار» (a media query cannot share a rule with an attribute selector, and
    ``light-dark()`` is too new for the phones our players have). The two must not drift."""
    css = (Path(__file__).resolve().parents[2] / "src/hokm/web/css/style.css").read_text()

    def block(opening: str) -> dict[str, str]:
        start = css.index(opening) + len(opening)
        body = css[start : css.index("}", start)]
        pairs = (d.split(":", 1) for d in body.split(";") if ":" in d)
        return {name.strip(): value.strip() for name, value in pairs}

    chosen = block(':root[data-theme="dark"] {')
    system = block(':root:not([data-theme="light"]) {')
    assert len(chosen) > 30 and chosen == system


# The focus ring of the focused element: its colour's contrast with what lies around it (the
# first opaque background of its parent and the parent's ancestors).
_RING = """() => {
  const el = document.activeElement;
  const parse = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  let bg = [255, 255, 255];
  for (let e = el.parentElement; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] === 1) { bg = c; break; }
  }
  const cs = getComputedStyle(el);
  const [hi, lo] = [lum(parse(cs.outlineColor)), lum(bg)].sort((a, b) => b - a);
  return {visible: el.matches(':focus-visible') && cs.outlineStyle !== 'none',
          ratio: (hi + 0.05) / (lo + 0.05), ring: cs.outlineColor, bg: String(bg)};
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_focus_ring_stands_out_from_what_is_around_it(
    new_page: Callable[..., Page], theme: str
) -> None:
    """The keyboard's focus ring has a contrast of 3:1 or more with the surface around it, on
    the page and in the green top bar, light or dark (the amber ring was 1.6:1 on the light
    theme's white panels: hard to find)."""
    page = new_page(viewport=DESKTOP)
    page.add_init_script(
        f"localStorage.setItem('hokm.settings', JSON.stringify({{theme: '{theme}'}}))"
    )
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    page.keyboard.press("Tab")  # the keyboard in use: focus is shown from now on
    low = {}
    for selector in [
        "#name",
        "#create",
        "#quick",
        "#code",
        "#practice",
        "#lang",
        "#nav a",
        "#theme",
    ]:
        page.focus(selector)
        ring = page.evaluate(_RING)
        assert ring["visible"], (selector, ring)
        if ring["ratio"] < 3:
            low[selector] = ring
    assert not low, low
