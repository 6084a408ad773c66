"""Helpers for the browser tests: drive the client the way a person would."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

# Anything a seated player may have to do, or the end of the game.
DECISION = "#game-over, .hand .card.legal, #choose-trump .suit-btn, #bam-go"


def enter_name(page: Page, name: str) -> None:
    """On the home page, once its optional features are known (nothing moves after that)."""
    page.wait_for_selector('.home[data-ready="1"]')
    page.fill("#name", name)


def start_practice(page: Page, name: str | None, *, target: int = 3, level: str = "easy") -> None:
    """From the home page: a practice game against three bots (``name`` ``None``: logged in,
    the account's name is used)."""
    page.goto("/")
    if name is None:
        page.wait_for_selector('.home[data-ready="1"] #account')
    else:
        enter_name(page, name)
    page.select_option("#practice-target", str(target))
    page.select_option("#practice-level", level)
    page.click("#practice")
    page.wait_for_selector(".table-view")


def store(page: Page, expr: str) -> Any:
    """Evaluate ``expr`` against the room store of the page (``s``)."""
    return page.evaluate(f"(() => {{ const s = window.hokmStore; return {expr}; }})()")


def hand_cards(page: Page) -> list[str]:
    cards = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")
    return [str(c) for c in cards]


_WHAT_NOW = """(stopAtResult) => {
    if (stopAtResult && window.hokmStore && window.hokmStore.handResult) return 'done';
    if (document.querySelector('#game-over')) return 'over';
    if (document.querySelector('#choose-trump .suit-btn')) return 'trump';
    if (document.querySelector('#bam-go')) return 'bam';
    const card = document.querySelector('.hand .card.legal');
    return card ? card.dataset.card : null;
}"""


TRUMP_BUTTONS = "#choose-trump .suit-btn"


def trump_taken(page: Page) -> None:
    """After naming trump: wait until the server has taken the call (its buttons are gone), so
    the next turn never focuses or clicks a button the page is removing."""
    page.wait_for_selector(TRUMP_BUTTONS, state="detached")


def take_turn(page: Page, *, stop_at_result: bool = False) -> str | None:
    """Do whatever this page's player must do now by clicking; returns what was done
    (doing nothing: ``"over"`` once the game is over, ``"done"`` once a hand result is known
    if ``stop_at_result``)."""
    what = page.evaluate(_WHAT_NOW, stop_at_result)
    if what in ("done", "over"):
        return str(what)
    # Each click waits for its control to go (the server took the action) before returning, so
    # the next turn never clicks a control the page is about to remove.
    if what == "trump":
        page.locator(TRUMP_BUTTONS).first.click()
        trump_taken(page)
    elif what == "bam":
        page.click("#bam-go")
        page.wait_for_selector("#bam-go", state="detached")
    elif what is not None:
        page.click(f'.hand .card.legal[data-card="{what}"]')
        page.wait_for_selector(f'.hand .card[data-card="{what}"]', state="detached")
    return str(what) if what is not None else None


def take_turns_until(page: Page, selector: str, *, limit: int = 200) -> None:
    """Take this page's turns until ``selector`` is on the page (e.g. a playable card)."""
    for _ in range(limit):
        page.wait_for_selector(DECISION, state="attached")
        if page.locator(selector).count():
            return
        take_turn(page)
    raise AssertionError(f"{selector} never came")


# What a screen reader would be told: each text added to (or changed in) a live region, as
# {region, text}, in window.liveLog. The countdown (role=timer) is not live.
LIVE_LOG = """
window.liveLog = [];
const LIVE = '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]';
const said = (el, text) => {
  if (text && text.trim()) window.liveLog.push({region: el.id || el.className, text: text.trim()});
};
new MutationObserver((records) => {
  for (const r of records) {
    const at = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    const region = at && at.closest(LIVE);
    if (region && r.type === 'characterData') said(region, r.target.data);
    if (region) for (const n of r.addedNodes) said(region, n.textContent);
    // a live region put in the page with its words already in it
    for (const n of region ? [] : r.addedNodes) {
      if (n.nodeType !== 1) continue;
      for (const el of [n, ...n.querySelectorAll(LIVE)]) {
        if (el.matches(LIVE)) said(el, el.textContent);
      }
    }
  }
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


def live_log(page: Page) -> list[dict[str, str]]:
    """What went into live regions since the page opened (``LIVE_LOG`` must be installed)."""
    log: list[dict[str, str]] = page.evaluate("window.liveLog")
    return log


def announced(page: Page) -> list[str]:
    """The lines said in the hidden polite region #announce so far."""
    return [e["text"] for e in live_log(page) if e["region"] == "announce"]


def practice_with_rules(page: Page, name: str, rules: dict[str, Any], **kw: Any) -> None:
    """``start_practice`` with these room rules added (e.g. a manual first hakem)."""

    def add_rules(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        body = route.request.post_data_json or {}
        body["rules"] = {**body.get("rules", {}), **rules}
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/rooms", add_rules)
    start_practice(page, name, **kw)


def three_trick_hand(page: Page, seed: str) -> dict[str, Any]:
    """A record's hand of three tricks (each card the first legal one, hakem 0, hearts
    trump), made with the simulator's API, for a replay served from a test's route."""
    deal = page.request.post("/api/sim/deal", data={"seed": seed, "hakem": 0}).json()
    plays: list[str] = []
    for _ in range(12):
        state = page.request.post(
            "/api/sim/state",
            data={"hakem": 0, "hands": deal["hands"], "trump": "H", "plays": plays},
        ).json()
        plays.append(state["legal"][0])
    return {"hakem": 0, "cards": deal["hands"], "trump": "H", "plays": plays}
