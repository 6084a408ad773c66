"""What a keyboard and screen-reader user meets: where the focus goes, what live regions say."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, Route

from tests.web.helpers import (
    DECISION,
    LIVE_LOG,
    announced,
    enter_name,
    live_log,
    practice_with_rules,
    store,
    take_turn,
    take_turns_until,
    three_trick_hand,
)

SUITS_FA = {"S": "پیک", "H": "دل", "D": "خشت", "C": "گشنیز"}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ACTIVE = "document.activeElement"


def active_is(page: Page, selector: str) -> bool:
    return bool(page.evaluate(f"{ACTIVE}.matches({selector!r})"))


def wait_focus(page: Page, selector: str, timeout: float = 4000) -> None:
    """Wait until the focused element matches ``selector`` (fails with where it is)."""
    try:
        page.wait_for_function(f"{ACTIVE}.matches({selector!r})", timeout=timeout)
    except Exception as exc:
        where = page.evaluate(f"{ACTIVE}.outerHTML.slice(0, 120)")
        raise AssertionError(f"focus is not on {selector} but on {where}") from exc


def test_a_bot_hakems_trump_is_said_once_politely(new_page: Callable[..., Page]) -> None:
    """A bot hakem names trump: «حکم: دل ♥» is said once in the polite #announce region (it
    was never said), and not again at the next tricks."""
    page = new_page()
    page.add_init_script(LIVE_LOG)
    practice_with_rules(page, "Tara", {"first_hakem": "manual"})
    page.click('#choose-hakem .hakem-btn[data-seat="1"]')  # a bot is hakem
    page.wait_for_function("window.hokmStore.game && window.hokmStore.game.trump")
    suit = store(page, "s.game.trump")
    said = f"حکم: {SUITS_FA[suit]} {SYMBOLS[suit]}"
    page.wait_for_function(
        "(said) => window.liveLog.some((e) => e.region === 'announce' && e.text === said)", arg=said
    )
    assert page.get_attribute("#announce", "aria-live") == "polite"
    # Six of our own turns (six tricks: a hand cannot end before seven, and the next hand's
    # trump, perhaps the same suit, would rightly be said again): the trump is not said again.
    for _ in range(6):
        page.wait_for_selector(DECISION, state="attached")
        take_turn(page)
    assert announced(page).count(said) == 1, announced(page)


# The game's phase each time a hakem is said in #announce, in window.hakemSaidAt.
_HAKEM_SAID_AT = """
window.hakemSaidAt = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (r.target.id === 'announce' && n.textContent.startsWith('حاکم: ')) {
      window.hakemSaidAt.push(window.hokmStore?.game?.phase ?? null);
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_each_hands_hakem_is_said_before_its_trump(new_page: Callable[..., Page]) -> None:
    """A hand's hakem is said once in #announce, before the trump it names: a bot's name, or
    «شما حاکم هستید.» to the hakem themselves (only the seat's badge showed it). Said once
    the hand is dealt, when the crown moves to them (between hands the next hakem was said
    while the crown was still on the last one)."""
    page = new_page()
    page.add_init_script(LIVE_LOG)
    page.add_init_script(_HAKEM_SAID_AT)
    practice_with_rules(page, "Tara", {"first_hakem": "manual"})
    page.click('#choose-hakem .hakem-btn[data-seat="1"]')
    page.wait_for_function("window.hokmStore.game && window.hokmStore.game.trump")
    bot = store(page, "s.seatName(1)")
    suit = store(page, "s.game.trump")
    said = announced(page)
    assert said.count(f"حاکم: {bot}") == 1, said
    assert said.index(f"حاکم: {bot}") < said.index(f"حکم: {SUITS_FA[suit]} {SYMBOLS[suit]}")
    for _ in range(6):  # a few tricks on: not said again within the hand
        page.wait_for_selector(DECISION, state="attached")
        take_turn(page)
    assert announced(page).count(f"حاکم: {bot}") == 1, announced(page)
    # the next hand's hakem (the same bot, or the one on its right) is said once more
    second_trump = "window.hokmStore.game.hand_number >= 1 && !!window.hokmStore.game.trump"
    for _ in range(100):
        page.wait_for_function(f"({second_trump}) || !!document.querySelector({DECISION!r})")
        if page.evaluate(second_trump):
            break
        take_turn(page)
    else:
        raise AssertionError("the second hand's trump never came")
    second = store(page, "s.seatName(s.game.hakem)")
    hakems = [x for x in announced(page) if x.startswith("حاکم: ") or x == "شما حاکم هستید."]
    assert hakems == [f"حاکم: {bot}", f"حاکم: {second}"], announced(page)
    phases = page.evaluate("window.hakemSaidAt")
    assert len(phases) == 2 and "deal" not in phases, phases

    mine = new_page()
    mine.add_init_script(LIVE_LOG)
    practice_with_rules(mine, "Hakem", {"first_hakem": "manual"})
    mine.click('#choose-hakem .hakem-btn[data-seat="0"]')
    mine.wait_for_selector("#choose-trump .suit-btn")
    mine.wait_for_function(
        "window.liveLog.some((e) => e.region === 'announce' && e.text === 'شما حاکم هستید.')"
    )


def test_toasts_are_said_once_and_no_live_region_nests_another(
    new_page: Callable[..., Page],
) -> None:
    """A notice (toast) is said once, politely, in #announce; an error is an alert of its own.
    #toasts is no live region (the toasts' own roles nested in it were read twice by some
    screen readers)."""
    nested = """() => [...document.querySelectorAll(
        '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]')]
        .filter((el) => el.parentElement?.closest(
        '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]'))
        .map((el) => el.outerHTML.slice(0, 80))"""
    page = new_page()
    page.add_init_script(LIVE_LOG)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    page.click("#create")  # no name yet: an error
    page.wait_for_selector("#toasts .toast.error[role=alert]")
    assert page.get_attribute("#toasts", "aria-live") is None
    assert page.evaluate(nested) == []
    enter_name(page, "Owner")
    page.click("#create")
    page.wait_for_selector("#room-code")
    code = page.inner_text("#room-code").strip()
    friend = new_page()
    friend.goto("/")
    enter_name(friend, "Friend")
    friend.fill("#code", code)
    friend.click("#join")
    toast = page.locator("#toasts .toast", has_text="Friend")  # a notice: who came
    toast.wait_for()
    assert toast.get_attribute("role") is None
    said = [x for x in announced(page) if "Friend" in x]
    assert said == [toast.inner_text()], announced(page)
    assert page.evaluate(nested) == []


def test_after_naming_trump_the_focus_is_on_a_playable_card(new_page: Callable[..., Page]) -> None:
    """The hakem names trump with the keyboard and leads: the focus goes to the first playable
    card (it fell to <main> when the trump buttons went)."""
    page = new_page()
    practice_with_rules(page, "Hakem", {"first_hakem": "manual"})
    page.click('#choose-hakem .hakem-btn[data-seat="0"]')
    page.wait_for_selector("#choose-trump .suit-btn")
    page.focus("#choose-trump .suit-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#choose-trump", state="detached")
    page.wait_for_selector(".hand .card.legal")
    wait_focus(page, ".hand .card.legal")
    page.keyboard.press("Enter")  # and the keyboard plays on
    page.wait_for_function(
        "window.hokmStore.game.tricks.length + window.hokmStore.game.trick.length > 0"
    )


def test_at_200_percent_zoom_the_focused_card_is_brought_into_view(
    new_page: Callable[..., Page],
) -> None:
    """At 640×400 (a 1280×800 screen at 200 %) the hand is below the fold: when a turn begins
    the focused card is scrolled into view (focus used preventScroll and left it unseen)."""
    page = new_page(viewport={"width": 640, "height": 400})
    practice_with_rules(page, "Zoom", {"first_hakem": "manual"})
    page.click('#choose-hakem .hakem-btn[data-seat="1"]')  # a bot names trump
    take_turns_until(page, ".hand .card.legal")
    # Play a card and scroll to the top at once, before the bots answer: the next turn must
    # bring its card back into view.
    page.evaluate(
        """() => { document.querySelector('.hand .card.legal').click(); window.scrollTo(0, 0);
        document.getElementById('main').focus({preventScroll: true}); }"""
    )
    page.wait_for_function(
        "document.activeElement.matches('.hand .card.legal')"
        " && !document.activeElement.classList.contains('leaving')"
    )
    box = page.evaluate(
        "(() => { const r = document.activeElement.getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight]; })()"
    )
    assert box[0] >= 0 and box[1] <= box[2], box


def test_only_the_players_own_turns_are_said_and_the_winner_at_the_end(
    new_page: Callable[..., Page],
) -> None:
    """No live region says every bot's turn («نوبت ربات ۲» for each card); the player's own
    turn is said, and at the end who won the game."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    practice_with_rules(page, "Quiet", {"target_points": 1})
    for _ in range(200):
        page.wait_for_selector(DECISION, state="attached")
        if take_turn(page) == "over":
            break
    else:
        raise AssertionError("the game did not end")
    turns = [e for e in live_log(page) if re.search(r"'s turn", e["text"])]
    assert not turns, turns[:5]
    said = announced(page)
    assert "Your turn" in said, said
    page.wait_for_function(
        "window.liveLog.some((e) => e.region === 'announce' && / won the game!$/.test(e.text))"
    )
    end = [x for x in announced(page) if x.endswith("won the game!")]
    assert len(end) == 1 and re.match(r"(Your team won!|The other team won\.) ", end[0]), end


def test_the_players_clock_warns_once_at_five_seconds(new_page: Callable[..., Page]) -> None:
    """With a short turn clock, the player is told politely, once, that 5 s are left."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    practice_with_rules(page, "Slow", {"turn_seconds": 7, "trump_seconds": 7})
    page.wait_for_selector(DECISION, state="attached")
    page.wait_for_function(
        "window.liveLog.some((e) => e.region === 'announce'"
        " && e.text.startsWith('Time is nearly up'))",
        timeout=15000,
    )
    page.wait_for_timeout(1500)
    warned = [x for x in announced(page) if x.startswith("Time is nearly up")]
    assert warned == ["Time is nearly up: 5 s left"], warned


def test_closing_the_game_moves_the_focus_to_the_question_and_back(
    new_page: Callable[..., Page],
) -> None:
    """«بستن بازی» with the keyboard: the focus goes to the confirmation (it fell to <main>);
    «لغو» (or Escape) brings it back to «بستن بازی»."""
    page = new_page()
    practice_with_rules(page, "Owner", {"first_hakem": "manual"})  # nothing moves meanwhile
    page.focus("#close-game-now")
    page.keyboard.press("Enter")
    wait_focus(page, "#close-game-sure")
    page.keyboard.press("Tab")
    assert active_is(page, "#close-game-cancel")
    page.keyboard.press("Enter")
    wait_focus(page, "#close-game-now")
    page.keyboard.press("Enter")
    wait_focus(page, "#close-game-sure")
    page.keyboard.press("Escape")
    wait_focus(page, "#close-game-now")
    assert page.locator("#close-game-sure").count() == 0


def create_room(page: Page, name: str) -> None:
    page.goto("/")
    enter_name(page, name)
    page.click("#create")
    page.wait_for_selector("#room-code")
    page.wait_for_function("window.hokmStore.mySeat === 0")


def test_adding_a_bot_keeps_the_focus_on_that_seat_and_says_what_it_does(
    new_page: Callable[..., Page],
) -> None:
    """The add-bot button is heard as «افزودن ربات به صندلی ۲» (not a bare «ربات»); pressed,
    the focus stays on the same seat's «برداشتن ربات», and back again."""
    page = new_page()
    create_room(page, "Mina")
    assert page.get_attribute("#add-bot-1", "aria-label") == "افزودن ربات به صندلی ۲"
    page.focus("#add-bot-1")
    page.keyboard.press("Enter")
    page.wait_for_function("window.hokmStore.table.seats[1].kind === 'bot'")
    wait_focus(page, '.seat-card[data-seat="1"] .remove-bot')
    assert page.get_attribute("#remove-bot-1", "aria-label") == "برداشتن ربات از صندلی ۲"
    page.keyboard.press("Enter")
    page.wait_for_function("window.hokmStore.table.seats[1].kind === 'empty'")
    wait_focus(page, "#add-bot-1")


def test_labels_in_english_card_counts_nav_and_the_leaderboard_toggle(
    new_page: Callable[..., Page],
) -> None:
    """ "1 card" (not "1 cards"); the main <nav> and the leaderboard's period toggle have names
    in the page's language; the add-bot button says what it does."""
    page = new_page(lang="en")
    create_room(page, "Ann")
    assert page.get_attribute("#add-bot-2", "aria-label") == "Add a bot to seat 3"
    assert page.get_attribute("#nav", "aria-label") == "Main"
    counts = page.evaluate(
        """() => import('/js/i18n.js').then((m) => [m.cardsText(1), m.cardsText(5)])"""
    )
    assert counts == ["1 card", "5 cards"], counts
    page.click("#lang")  # to Persian
    page.wait_for_function("document.documentElement.lang === 'fa'")
    assert page.get_attribute("#nav", "aria-label") == "منوی اصلی"
    page.goto("/#/leaderboard")
    page.wait_for_selector("#period-all")
    group = page.locator('[role="group"]:has(#period-all)')
    assert group.get_attribute("aria-label") == "کدام جدول"  # points (two periods) or rating


def test_a_nav_link_moves_the_focus_to_the_new_pages_heading_and_names_the_tab(
    new_page: Callable[..., Page],
) -> None:
    """A link of the top bar followed with the keyboard: the new page's <h1> has the focus (it
    fell to <body> as the nav was rebuilt) and the tab's title names the page."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    assert page.title() == "حکم · Hokm"
    page.focus('#nav a[href="#/rules"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(".rules-body")
    wait_focus(page, "main h1")
    assert page.evaluate(f"{ACTIVE}.textContent") == "قوانین حکم"
    assert page.title() == "قوانین · حکم"
    page.keyboard.press("Tab")  # on from the heading, not from the top of the page
    assert page.evaluate(f"document.querySelector('main').contains({ACTIVE})")
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.title() == "Rules · Hokm"
    page.focus('#nav a[href="#/advisor"]')
    page.keyboard.press("Enter")
    wait_focus(page, "main h1")
    assert page.evaluate(f"{ACTIVE}.textContent") == "Trump advisor"
    assert page.title() == "Trump advisor · Hokm"


def test_escape_closes_the_menu_and_the_chat_sheet_giving_the_focus_back(
    new_page: Callable[..., Page],
) -> None:
    """On a phone, Escape closes the ☰ menu and the chat sheet, and the focus goes back to the
    button that opened them."""
    page = new_page(viewport={"width": 360, "height": 740})
    create_room(page, "Sima")
    page.focus("#menu")
    page.keyboard.press("Enter")
    page.wait_for_selector("#nav.open")
    page.keyboard.press("Tab")
    assert page.evaluate(f"document.getElementById('nav').contains({ACTIVE})")
    page.keyboard.press("Escape")
    page.wait_for_selector("#nav.open", state="detached")
    assert page.get_attribute("#menu", "aria-expanded") == "false"
    assert active_is(page, "#menu")
    page.focus("#chat-toggle")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat.sheet #chat-input")
    page.focus("#chat-input")
    page.keyboard.press("Escape")
    page.wait_for_selector(".chat.sheet", state="detached")
    assert page.get_attribute("#chat-toggle", "aria-expanded") == "false"
    assert active_is(page, "#chat-toggle")


def test_the_quick_match_wait_is_said_once_and_keeps_the_focus_on_cancel(
    new_page: Callable[..., Page],
) -> None:
    """«بازی سریع» pressed: the focus goes to «لغو» (the pressed button is disabled: it fell to
    <body>); the seconds counting up are in no live region (the whole panel was one, read at
    every poll); bots offered are said once and their button does not take the focus but is
    one Shift+Tab away; «لغو» brings the focus back to «بازی سریع»."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    page.goto("/")
    made = page.request.post(
        "/api/accounts/register",
        data={"username": "a11y_quick", "password": "a long password", "name": "Quick"},
    )
    assert made.ok, made.text()
    polls = {"n": 0}

    def status(route: Route) -> None:  # the server's answers, a little faster
        polls["n"] += 1
        n = polls["n"]
        route.fulfill(
            json={
                "state": "waiting",
                "waiting_seconds": 1.5 * n,
                "queue_size": 1,
                "bots_offered": n >= 3,
                "bots_in": max(0, 60 - 1.5 * n) if n < 3 else 0,
            }
        )

    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"] #account')
    page.route("**/api/quick/status", status)
    page.focus("#quick")
    page.keyboard.press("Enter")
    page.wait_for_selector("#quick-wait")
    wait_focus(page, "#quick-cancel")
    page.wait_for_selector("#quick-bots", timeout=10000)
    assert active_is(page, "#quick-cancel")  # the new button did not take it
    assert "s so far" in page.inner_text("#quick-wait")  # the counter is still shown
    log = live_log(page)
    assert not [e for e in log if "so far" in e["text"] or "within" in e["text"]], log
    offered = [e for e in log if e["text"].startswith("Not enough players yet")]
    page.wait_for_timeout(1700)  # one more poll: not said again
    assert len([e for e in live_log(page) if e["text"].startswith("Not enough")]) == 1
    assert offered, log
    page.keyboard.press("Shift+Tab")
    assert active_is(page, "#quick-bots")
    page.keyboard.press("Tab")
    page.unroute("**/api/quick/status")
    page.keyboard.press("Enter")  # «لغو»
    page.wait_for_selector("#quick-wait", state="detached")
    wait_focus(page, "#quick")


def open_mocked_replay(page: Page, game_id: str, seed: str) -> None:
    """The replay page of ``game_id``, whose record (one hand of three tricks dealt from
    ``seed``, with no seed of its own) the page is served instead of the server's."""
    page.goto("/")
    record = {
        "players": ["Ana", "Ben", "Cy", "Dee"],
        "rules": {},
        "hands": [three_trick_hand(page, seed)],
        "result": {"status": "completed", "winner_team": 0},
    }
    page.route(f"**/api/games/{game_id}/record", lambda route: route.fulfill(json=record))
    page.goto(f"/#/game/{game_id}")


def test_stepping_through_a_replay_keeps_the_focus_and_says_the_trick(
    new_page: Callable[..., Page],
) -> None:
    """At the last trick «بعدی» is disabled: the focus goes to «قبلی» (it fell to <body>);
    each step says the trick shown, politely."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    open_mocked_replay(page, "A11Y-1", "a11y")
    page.wait_for_selector("#replay-next")
    page.focus("#replay-next")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-next:disabled")
    wait_focus(page, "#replay-prev")
    said = [x for x in announced(page) if x.startswith("Trick ")]
    assert [x.split(":")[0] for x in said] == ["Trick 2 of 3", "Trick 3 of 3"], said
    assert said[1].endswith(" won the trick")
    page.keyboard.press("Enter")  # «قبلی», to trick 2: still there
    page.wait_for_function(
        "document.getElementById('replay-trick-title').textContent.startsWith('Trick 2')"
    )
    assert active_is(page, "#replay-prev")
    assert announced(page)[-1].startswith("Trick 2 of 3")


def test_each_seats_bot_level_list_is_named_with_its_seat(new_page: Callable[..., Page]) -> None:
    """The owner's three «سطح ربات» lists (one per empty seat) are heard with their seat,
    «سطح ربات صندلی ۲» / "Bot level, seat 2": three lists alike named did not say which
    seat's bot they set."""
    page = new_page()
    create_room(page, "Lale")
    names = [page.get_attribute(f"#bot-level-{seat}", "aria-label") for seat in (1, 2, 3)]
    assert names == ["سطح ربات صندلی ۲", "سطح ربات صندلی ۳", "سطح ربات صندلی ۴"], names
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector('#bot-level-2[aria-label="Bot level, seat 3"]')


def test_tabbing_out_of_the_phone_chat_sheet_folds_it(new_page: Callable[..., Page]) -> None:
    """At the table on a phone the chat sheet covers the hand: Shift+Tab from its toggle goes
    to a control under it, and the sheet folds, so the focused control is in sight (the focus
    went on under the sheet, unseen). Within the sheet the focus moves and the sheet stays."""
    page = new_page(viewport={"width": 360, "height": 740})
    practice_with_rules(page, "Sheet", {"first_hakem": "manual"})  # nothing moves meanwhile
    page.focus("#chat-toggle")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat.sheet .phrase-btn")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert active_is(page, ".chat.sheet .phrase-btn")
    page.focus("#chat-toggle")
    page.keyboard.press("Shift+Tab")
    page.wait_for_selector(".chat.sheet", state="detached")
    assert page.get_attribute("#chat-toggle", "aria-expanded") == "false"
    seen = page.evaluate(
        """() => { const el = document.activeElement;
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return el !== document.body && el.contains(at) ? 'seen' : el.outerHTML.slice(0, 80); }"""
    )
    assert seen == "seen", seen


def test_the_table_has_a_heading_naming_the_room(new_page: Callable[..., Page]) -> None:
    """At the table a screen reader finds one <h1>, «اتاق CODE» / "Room CODE" (hidden to the
    eye), as in the lobby: the table had no heading at all, and the last trick's and the game
    result's headings stood under none."""
    page = new_page()
    practice_with_rules(page, "Heading", {"first_hakem": "manual"})
    code = store(page, "s.code")
    heading = page.get_by_role("heading", level=1)
    assert heading.count() == 1
    assert heading.inner_text() == f"اتاق {code}"
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.get_by_role("heading", level=1).inner_text() == f"Room {code}"


def test_logging_in_and_out_puts_the_focus_on_what_took_the_forms_place(
    new_page: Callable[..., Page],
) -> None:
    """«ثبت‌نام» pressed with the keyboard: the focus goes to «وارد شده با نام …» (it fell to
    <main> with the form, and nothing said the account was made); «خروج»: to the login box."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"] #login-box')
    page.focus("#login-box summary")
    page.keyboard.press("Enter")
    page.fill("#username", "a11y_login")
    page.fill("#password", "a long password")
    page.focus("#register")
    page.keyboard.press("Enter")
    page.wait_for_selector("#account")
    wait_focus(page, "#account")
    assert "a11y_login" in page.evaluate(f"{ACTIVE}.textContent")
    page.focus("#logout")
    page.keyboard.press("Enter")
    page.wait_for_selector("#login-box")
    wait_focus(page, "#login-box summary")


def practice_to_the_first_hands_end(page: Page, name: str) -> None:
    """A practice game to 7 as ``name``, played until its first hand's result is shown."""
    practice_with_rules(page, name, {"target_points": 7})
    for _ in range(100):
        page.wait_for_selector(f"{DECISION}, #hand-result", state="attached")
        if take_turn(page, stop_at_result=True) == "done":
            break


def test_a_hands_result_is_said_once_in_the_announce_region(new_page: Callable[..., Page]) -> None:
    """A hand ends: «Hand 1: We (…) won the hand: …» / "They (…) won the hand: …" is said once
    in the polite #announce region (the banner, a live region put in the page with its words
    in it, is not read by every screen reader); the banner itself is no longer a live region."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    practice_to_the_first_hands_end(page, "Hands")
    page.wait_for_function(
        "window.liveLog.some((e) => e.region === 'announce' && e.text.startsWith('Hand 1: '))"
    )
    said = [x for x in announced(page) if x.startswith("Hand 1: ")]
    assert re.match(r"Hand 1: (We|They) \(.+\) won the hand: .+, \d+ points?$", said[0]), said
    page.wait_for_timeout(1000)  # the next hand is dealt meanwhile: not said again
    assert len([x for x in announced(page) if x.startswith("Hand 1: ")]) == 1, announced(page)
    if page.locator("#hand-result").count():
        assert page.get_attribute("#hand-result", "role") is None


def test_entering_a_room_is_not_said_to_be_a_reconnection(new_page: Callable[..., Page]) -> None:
    """The first connection to a room says nothing in the top bar's live status (it said «در
    حال اتصال دوباره…», reconnecting, on entering every room); a dropped one still does."""
    page = new_page()
    page.add_init_script(LIVE_LOG)
    practice_with_rules(page, "First", {"first_hakem": "manual"})
    page.wait_for_selector("#choose-hakem")
    said = [e["text"] for e in live_log(page) if e["region"].startswith("conn")]
    assert said == [], said
    page.evaluate("window.hokmConn.ws.close()")
    page.wait_for_function(
        "window.liveLog.some((e) => e.region.startsWith('conn')"
        " && e.text === 'در حال اتصال دوباره…')"
    )
    page.wait_for_function("window.hokmConn.isOpen()")


def test_the_shuffle_check_is_said_and_read_as_a_list(new_page: Callable[..., Page]) -> None:
    """«بررسی بُر زدن» pressed with the keyboard: its outcome is said once in #announce (the
    result, a live region put in the page with its words in it, was not reliably read), and the
    result is a list again (its role=status hid that)."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    open_mocked_replay(page, "A11Y-2", "verify")  # no seed: nothing to check it with
    page.wait_for_selector("#verify")
    page.focus("#verify")
    page.keyboard.press("Enter")
    page.wait_for_selector("#verify-result li")
    page.wait_for_function("window.liveLog.some((e) => e.region === 'announce')")
    assert announced(page) == ["Hand 1: Verification is not available yet."], announced(page)
    assert page.get_attribute("#verify-result", "role") is None
    assert active_is(page, "#verify")


def test_the_simulators_seat_choice_is_a_named_group_of_toggle_buttons(
    new_page: Callable[..., Page],
) -> None:
    """The simulator's four seat buttons are toggle buttons in a named group, one pressed:
    they were tabs (role=tab) with no tab panel and no arrow keys, so a screen reader promised
    what the keyboard did not do."""
    page = new_page(lang="en")
    page.goto("/#/sim")
    page.wait_for_selector(".seat-tab")
    assert page.locator('[role="tab"], [role="tablist"]').count() == 0
    group = page.get_by_role("group", name="Whose cards")
    assert group.get_by_role("button").count() == 4
    assert group.get_by_role("button", pressed=True).all_inner_texts() == ["Seat 1 (0)"]
    group.get_by_role("button").nth(2).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('.seat-tab[aria-pressed="true"]:text("Seat 3")')


def test_a_card_another_seat_holds_says_whose_it_is_in_the_picker(
    new_page: Callable[..., Page],
) -> None:
    """Setting up seat 2 in the simulator, the ace of spades given to seat 1 is heard «آس پیک
    (صندلی ۱)»: only its colour told whose it was, and picking it takes it from that seat."""
    page = new_page()
    page.goto("/#/sim")
    page.wait_for_selector('.picker .card[data-card="AS"]')
    page.click('.picker .card[data-card="AS"]')  # to seat 1
    assert page.get_attribute('.picker .card[data-card="AS"]', "aria-label") == "آس پیک"
    page.locator(".seat-tab").nth(1).click()
    page.wait_for_selector('.seat-tab[aria-pressed="true"]:text("صندلی ۲")')
    assert page.get_attribute('.picker .card[data-card="AS"]', "aria-label") == "آس پیک (صندلی ۱)"
    assert page.get_attribute('.picker .card[data-card="KS"]', "aria-label") == "شاه پیک"


def test_each_seat_at_the_table_says_whose_side_it_is_on(new_page: Callable[..., Page]) -> None:
    """Each seat at the table is a group named with its player and side, «جای ربات ۳ (یار
    شما)» / "Bot 3's place (your partner)": the partner's place at the top, the opponents' at
    the sides, were seen but never heard (the seat's label was on a plain div, not read)."""
    page = new_page(lang="en")
    practice_with_rules(page, "Side", {"first_hakem": "manual"})
    names = page.eval_on_selector_all(
        ".board .seat",
        "els => els.map((e) => [e.getAttribute('role'), e.getAttribute('aria-label')])",
    )
    assert sorted(names) == [
        ["group", "Bot 2's place (opponent)"],
        ["group", "Bot 3's place (your partner)"],
        ["group", "Bot 4's place (opponent)"],
        ["group", "Side's place (you)"],
    ], names
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    assert page.get_by_role("group", name="جای ربات ۳ (یار شما)").count() == 1


def test_escape_withdraws_the_hints_question(new_page: Callable[..., Page]) -> None:
    """«راهنما» asks first whether to give up the win's points; Escape answers «نه» and the
    focus is back on «راهنما», as Escape withdraws the close-game question (it did nothing)."""
    page = new_page()
    practice_with_rules(page, "Hint", {"first_hakem": "manual"})
    page.click('#choose-hakem .hakem-btn[data-seat="0"]')  # our trump: no clock runs out soon
    page.wait_for_selector("#hint")
    page.focus("#hint")
    page.keyboard.press("Enter")
    wait_focus(page, "#hint-sure")
    page.keyboard.press("Escape")
    page.wait_for_selector("#hint-confirm", state="detached")
    wait_focus(page, "#hint")
    assert store(page, "s.table.hinted") in (None, [])


def test_when_a_hand_ends_the_focus_waits_on_the_hand(new_page: Callable[..., Page]) -> None:
    """The hand's cards go when it ends: the focus stays on the hand (a group named «برگ‌های
    شما…»), not <main>, from where a screen reader read the page again and Tab started over;
    the next decision takes it on."""
    page = new_page()
    practice_to_the_first_hands_end(page, "Wait")
    page.wait_for_function(
        "document.activeElement.matches('#my-hand, #my-hand .card, #choose-trump .suit-btn')"
        " || document.activeElement.tagName === 'MAIN'"
    )
    where = page.evaluate("document.activeElement.id || document.activeElement.tagName")
    assert where != "main", where
    take_turns_until(page, ".hand .card.legal")
    wait_focus(page, ".hand .card.legal")


def test_the_room_link_field_is_named_as_the_link_not_as_its_button(
    new_page: Callable[..., Page],
) -> None:
    """The lobby's read-only link field is «پیوند اتاق» / "Room link": it was named «کپی
    پیوند», as the button beside it, so a screen reader heard two «کپی پیوند» in a row."""
    page = new_page()
    create_room(page, "Link")
    assert page.get_attribute("#share-link", "aria-label") == "پیوند اتاق"
    assert page.get_by_role("textbox", name="پیوند اتاق").count() == 1
    assert page.get_by_role("button", name="کپی پیوند").count() == 1
    page.click("#lang")
    page.wait_for_selector('#share-link[aria-label="Room link"]')


def test_the_start_button_says_why_it_cannot_be_pressed_yet(new_page: Callable[..., Page]) -> None:
    """«شروع بازی», disabled while a seat is empty, is described by «هر چهار صندلی باید پر
    باشد»: a screen reader heard a dimmed button with no reason."""
    page = new_page()
    create_room(page, "Why")
    start = page.get_by_role("button", name="شروع بازی")
    assert start.is_disabled()
    assert start.get_attribute("aria-describedby") == "need-four"
    assert page.inner_text("#need-four").startswith("هر چهار صندلی")


def test_in_the_lobby_the_phone_chat_stays_open_when_the_focus_leaves_it(
    new_page: Callable[..., Page],
) -> None:
    """In the lobby the chat opened on a phone is in the page, covering nothing: a Shift+Tab
    out of it leaves it open (only the sheet over the table folds)."""
    page = new_page(viewport={"width": 360, "height": 740})
    create_room(page, "Lobby")
    page.focus("#chat-toggle")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-input")
    page.keyboard.press("Shift+Tab")
    page.wait_for_timeout(300)
    assert page.get_attribute("#chat-toggle", "aria-expanded") == "true"
    assert page.locator("#chat-input").count() == 1


def test_the_trump_advisors_suggestion_is_said_once(new_page: Callable[..., Page]) -> None:
    """«پنج برگ تصادفی» pressed with the keyboard: the suggestion and its reason are said once
    in #announce (the panel, a live region put in the page with its words and its table of
    scores in it, was not reliably read)."""
    page = new_page(lang="en")
    page.add_init_script(LIVE_LOG)
    page.goto("/#/advisor")
    page.wait_for_selector("#advisor-random")
    page.focus("#advisor-random")
    page.keyboard.press("Enter")
    page.wait_for_selector("#advice")
    page.wait_for_function("window.liveLog.some((e) => e.region === 'announce')")
    said = announced(page)
    assert len(said) == 1 and said[0].startswith("Suggested trump: "), said
    assert len(said[0]) > len("Suggested trump: clubs. "), said  # with its reason
    assert page.get_attribute("#advice", "role") is None
