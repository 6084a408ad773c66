"""Helpers for the browser tests: drive the client the way a person would."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

# Anything a seated player may have to do, or the end of the game.
DECISION = "#game-over, .hand .card.legal, #choose-trump .suit-btn, #bam-go"


def enter_name(page: Page, name: str) -> None:
    page.fill("#name", name)


def start_practice(page: Page, name: str, *, target: int = 3, level: str = "easy") -> None:
    """From the home page: a practice game against three bots."""
    page.goto("/")
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


def take_turn(page: Page) -> str | None:
    """Do whatever this page's player must do now by clicking; returns what was done."""
    trump = page.locator("#choose-trump .suit-btn")
    if trump.count():
        trump.first.click()
        return "trump"
    bam = page.locator("#bam-go")
    if bam.count():
        bam.click()
        return "bam"
    legal = page.locator(".hand .card.legal")
    if legal.count():
        card = legal.first.get_attribute("data-card")
        legal.first.click()
        return card
    return None
