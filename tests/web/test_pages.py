"""Pages without a table: home in both languages, rules, simulator, trump advisor, accounts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route

from hokm.engine import Deal, Seat, seed_commitment
from tests.web.conftest import DESKTOP, PHONE, shot
from tests.web.helpers import start_practice, take_turns_until, three_trick_hand


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_home_is_persian_first_with_an_english_switch(
    new_page: Callable[..., Page], size: str
) -> None:
    """Right-to-left Persian by default; the switch gives left-to-right English and sticks."""
    page = new_page(viewport=PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.inner_text("#practice") == "شروع تمرین"
    assert "۳" in page.inner_text("#practice-target")  # Persian digits
    shot(page, f"{size}-home-fa")
    # A missing or refused name is explained in Persian (not by the browser, in its language).
    page.wait_for_selector('.home[data-ready="1"]')
    page.click("#create")
    page.wait_for_selector("#toasts >> text=اول یک نام وارد کنید.")
    page.locator("#name").press_sequentially("م")  # answered: the note goes at once
    page.wait_for_selector("#toasts >> text=اول یک نام وارد کنید.", state="detached", timeout=1000)
    page.fill("#name", "www.example.com")
    page.click("#create")
    page.wait_for_selector("#toasts >> text=پیوند")
    assert page.url.endswith("/") or page.url.endswith("#/")  # no room was made
    page.fill("#name", "")
    page.click("#lang")
    page.wait_for_selector("text=Start practice")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert page.evaluate("document.documentElement.lang") == "en"
    shot(page, f"{size}-home-en")
    page.reload()
    page.wait_for_selector("text=Start practice")


def test_a_link_to_no_room_says_so_before_asking_a_name(new_page: Callable[..., Page]) -> None:
    """A first visit by a link to a room that is not there used to ask for a name first, and
    say "no room" only once the name was given."""
    page = new_page(viewport=PHONE)
    page.goto("/#/room/KKKKKK")
    page.wait_for_selector("h1:has-text('اتاقی با این کد پیدا نشد.')")
    assert page.locator("#name").count() == 0


def test_a_link_to_no_game_says_what_was_not_found_with_the_way_home(
    new_page: Callable[..., Page],
) -> None:
    """A replay link to no finished game said a bare «پیدا نشد» (the server's Persian for any
    404), with no way on but the browser's back button."""
    page = new_page(viewport=PHONE)
    page.goto("/#/game/KKKKKK-9")
    page.wait_for_selector(".page .note[role=alert]")
    assert page.inner_text(".page .note") == "بازی تمام‌شده‌ای با این شناسه پیدا نشد."
    page.click(".page a[href='#/']")
    page.wait_for_selector('.home[data-ready="1"]')


def test_an_address_with_no_page_says_so_in_both_languages_with_the_way_home(
    new_page: Callable[..., Page],
) -> None:
    """/rules (the client's pages are at /#/…) or a mistyped link got a bare English «Not
    Found» in plain text; now a page of the site, under its policy, with the way home. An
    unknown API endpoint answers in JSON, as the API's errors do."""
    page = new_page(viewport=PHONE, csp=True)
    page.add_init_script(_CSP_WATCH)
    answer = page.goto("/rules")
    assert answer is not None and answer.status == 404
    assert page.inner_text("h1") == "این صفحه پیدا نشد."
    assert "Page not found." in page.inner_text("main")
    # styled by the site's sheet (a blocked one would leave the header an inline box)
    assert page.evaluate("getComputedStyle(document.querySelector('.topbar')).display") != "inline"
    assert page.evaluate("window.cspViolations") == []
    page.click("main a[href='/']")
    page.wait_for_selector('.home[data-ready="1"]')
    api = page.request.get("/api/no-such-thing")
    assert api.status == 404 and api.json()["code"] == "not_found"


def test_a_wrong_room_code_is_said_on_the_home_page_which_keeps_it(
    new_page: Callable[..., Page],
) -> None:
    """A code that cannot be one, or names no room, is refused beside the field, which keeps
    what was typed (it used to open a page saying only that no room was found)."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    page.fill("#name", "Mina")
    for typed, said in (
        ("", "کد اتاقی را که صاحب آن فرستاده است وارد کنید."),  # it used to say nothing
        ("ab", "این کد اتاق نیست"),
        ("KKKKKK", "اتاقی با این کد پیدا نشد."),
        ("https://hokm.example/r/kkk-kkk", "اتاقی با این کد پیدا نشد."),  # a pasted link
        ("http://hokm.example/#/room/KKKKKK", "اتاقی با این کد پیدا نشد."),  # the address bar
        ("ZZZZZZ", "این کد اتاق نیست: در کد اتاق این نویسه‌ها هرگز نمی‌آیند: \u2068Z\u2069."),
        ("K0QX4O", "هرگز نمی‌آیند: \u2068۰ O\u2069."),  # six, but 0 and O are never used
        ("K7QX4", "کد اتاق شش حرف و رقم است"),
    ):
        page.fill("#code", typed)
        page.click("#join")
        # Said under the field (a note at the bottom of a phone's screen covered it).
        page.locator("#code-error", has_text=said).wait_for()
        assert page.locator("#code-error").count() == 1  # the last try's answer only
        assert page.get_attribute("#code", "aria-invalid") == "true"
        assert page.input_value("#code") == typed
        assert page.evaluate("location.hash") in ("", "#/")
    page.type("#code", "K")  # typing again: the old answer goes
    page.wait_for_selector("#code-error", state="detached")


def test_a_code_is_found_in_a_message_pasted_whole(new_page: Callable[..., Page]) -> None:
    """A friend pastes the message that brought the code: our invitation (after its colon,
    with a full stop or not), or their own words, where the code is the one word that can be
    a code. Two such words, or none, find nothing (the field then says what is wrong)."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    found = page.evaluate(
        """import('/js/pages/home.js').then((m) => [
            'بیا با هم حکم بازی کنیم! کد اتاق: \u2068K7QX4M\u2069',
            'بیا با هم حکم بازی کنیم! کد اتاق: \u2068K7QX4M\u2069.',
            'کد اتاق: k7q-x4m؟',
            'بیا k7qx4m، منتظرم!',
            'join room K7QX4M please',
            'کد: ۷۷۷۴۴۴ یا K7QX4M',
            'بیا بازی کنیم',
            'code: HELLO1',
            'create a room? join K7QX4M',
            'https://hokm.example/r/K7QX4M see you there',
            'khaneh',
        ].map((text) => m.codeInSentence(text)))"""
    )
    assert found == ["K7QX4M"] * 5 + [None, None, None] + ["K7QX4M", "K7QX4M", "KHANEH"]


def test_a_latin_name_in_a_persian_sentence_is_set_apart(new_page: Callable[..., Page]) -> None:
    """«Maximilian_» in a right-to-left sentence kept its underscore at the wrong end and
    moved the sentence's brackets: names with Latin letters are bidi-isolated in Persian
    (not in English, nor Persian names)."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    said = page.evaluate(
        """import('/js/i18n.js').then((m) => [
            m.t('trick_won_by', {name: 'Maximilian_'}), m.t('trick_won_by', {name: 'مریم'}),
            m.t('trick_won_by', {name: 7})])"""
    )
    assert said[0] == "\u2068Maximilian_\u2069 این دست را برد"
    assert said[1] == "مریم این دست را برد" and said[2] == "۷ این دست را برد"
    # A list of names opening with a Latin one keeps the sentence's order on the screen:
    # «neda55849» rightmost, then «و», then «ربات ۳» (the list's one isolate took the first
    # name's direction and printed «و ربات ۳ neda55849»).
    won = page.evaluate(
        """import('/js/i18n.js').then((m) =>
            m.t('won_game', {team: m.nameList(['neda55849', 'ربات ۳'])}))"""
    )
    order = lefts_in_an_rtl_line(page, won, ["neda55849", " و ", "ربات"])
    assert order[0] > order[1] > order[2], order


_LEFTS = """([text, parts]) => {
    const p = document.createElement('p');
    p.dir = 'rtl';
    p.textContent = text;
    document.body.append(p);
    const node = p.firstChild;
    const xs = parts.map((part) => {
        const r = document.createRange(), at = node.data.indexOf(part);
        r.setStart(node, at); r.setEnd(node, at + part.length);
        return r.getBoundingClientRect().left;
    });
    p.remove();
    return xs;
}"""


def lefts_in_an_rtl_line(page: Page, text: str, parts: list[str]) -> list[float]:
    """Where each of ``parts`` begins on the screen (its left edge) in ``text`` laid out as a
    right-to-left paragraph: the order a reader sees them in."""
    xs: list[float] = page.evaluate(_LEFTS, [text, parts])
    return xs


def test_a_name_at_the_limit_says_so(new_page: Callable[..., Page]) -> None:
    """The browser stops a name at 24 characters (the server's limit) and cuts a pasted one
    without a word: the page says why, on the home page and on a shared room link's prompt."""
    from hokm.server.auth import MAX_NAME

    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    assert not page.is_visible("#name-limit")
    page.locator("#name").press_sequentially("ن" * 23)
    assert not page.is_visible("#name-limit")
    page.locator("#name").press_sequentially("ام خانوادگی")
    assert page.input_value("#name") == "ن" * 23 + "ا"
    assert page.inner_text("#name-limit") == f"نام حداکثر {'۲۴'} نویسه است."
    assert MAX_NAME == 24
    shot(page, "phone-home-name-limit")
    page.fill("#name", "Mina")
    page.locator("#name").press("End")
    page.keyboard.type("x")  # an input event with a short name: the note goes
    assert not page.is_visible("#name-limit")
    page.click("#create")
    page.wait_for_selector(".room.in-lobby")
    other = new_page(viewport=PHONE)  # a friend given the room's link
    other.goto(page.url)
    other.wait_for_selector("#name")
    other.locator("#name").press_sequentially("Maximilian Alexander von Humboldt")
    assert len(other.input_value("#name")) == MAX_NAME
    assert other.is_visible("#name-limit")


def test_the_pages_code_pattern_is_the_servers_alphabet() -> None:
    """The home page checks a code with the alphabet of :mod:`hokm.table.codes`."""
    import re
    from pathlib import Path

    from hokm.table.codes import CODE_ALPHABET, CODE_LENGTH

    home = Path(__file__).parents[2] / "src/hokm/web/js/pages/home.js"
    pattern = re.search(r"const CODE_PATTERN = /\^\[(\w+)\]\{(\d+)\}\$/;", home.read_text())
    assert pattern is not None
    assert (pattern[1], int(pattern[2])) == (CODE_ALPHABET, CODE_LENGTH)
    stray = re.search(r"const CODE_STRAY = /\[\^(\w+)\]/g;", home.read_text())
    assert stray is not None and stray[1] == CODE_ALPHABET


def test_every_string_has_both_languages(new_page: Callable[..., Page]) -> None:
    """The translation table has the same keys in Persian and English."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#practice")
    missing = page.evaluate(
        """import('/js/i18n.js').then(m => {
            const fa = Object.keys(m._STRINGS.fa), en = Object.keys(m._STRINGS.en);
            return [fa.filter(k => !en.includes(k)), en.filter(k => !fa.includes(k))];
        })"""
    )
    assert missing == [[], []]


def test_simulator_deals_plays_and_explains_each_trick(new_page: Callable[..., Page]) -> None:
    """A seeded random deal; trump from the hakem's five; legal cards come from the server;
    a finished trick says who won it and why."""
    page = new_page(viewport=DESKTOP, lang="en")
    page.goto("/#/sim")
    page.fill("#sim-seed", "web-test")
    page.click("#sim-random")
    page.wait_for_selector("#sim-choose-trump .suit-btn")
    page.wait_for_selector("#sim-advice")
    page.locator('#sim-choose-trump .suit-btn[data-suit="H"]').click()
    page.wait_for_selector(".sim-hand.to-move .card.legal")
    for _ in range(4):
        page.locator(".sim-hand.to-move .card.legal").first.click()
        page.wait_for_load_state()
        page.wait_for_timeout(50)
        page.wait_for_selector(".sim-hand.to-move .card.legal, #sim-result")
    page.wait_for_selector("#trick-log li")
    why = page.inner_text("#trick-log li")
    assert "won the trick" in why and ("highest" in why or "cut" in why)
    shot(page, "desktop-sim")
    page.click("#sim-undo")
    page.wait_for_function("!document.querySelector('#trick-log')")


def store_hands(page: Page) -> list[list[str]]:
    """The simulator's hands as set up so far, by the picker's outlines (owner-N)."""
    return page.evaluate(
        """[0, 1, 2, 3].map((n) => [...document.querySelectorAll(`.picker .card.owner-${n}`)]
            .map((el) => el.dataset.card))"""
    )


def test_simulator_set_up_card_by_card_against_bots(new_page: Callable[..., Page]) -> None:
    page = new_page(viewport=PHONE)
    page.goto("/#/sim")
    page.wait_for_selector("#sim-vs-bots")
    page.click("#sim-vs-bots")
    page.locator(".picker .card").nth(0).click()  # AS to seat 1
    assert "(۱)" in page.inner_text(".seat-tab.primary")
    # A card another seat holds comes to the seat being set up (it was only taken away).
    page.locator(".seat-tab").nth(1).click()
    page.locator(".picker .card").nth(0).click()  # AS, seat 1's, to seat 2
    assert store_hands(page) == [[], ["AS"], [], []]
    page.locator(".picker .card").nth(0).click()  # again: back to the deck
    assert store_hands(page) == [[], [], [], []]
    page.locator(".seat-tab").nth(0).click()
    page.locator(".picker .card").nth(0).click()  # AS to seat 1
    page.click("#sim-fill")
    page.click("#sim-start")
    page.wait_for_selector(".sim-hand")
    # Against bots, their hands are face down (the player's own face up) unless asked for.
    hand = '.sim-hand[data-seat="{}"] .card'
    assert page.locator(hand.format(0) + "[data-card]").count() >= 1
    for seat in (1, 2, 3):
        assert page.locator(hand.format(seat) + ".back").count() >= 1
        assert page.locator(hand.format(seat) + "[data-card]").count() == 0
    shot(page, "phone-sim")
    page.check("#sim-show-bots")
    assert page.locator(hand.format(1) + "[data-card]").count() >= 1


def test_register_then_quick_match_leaderboard_and_profile(
    new_page: Callable[..., Page],
) -> None:
    """With the accounts endpoints: a guest is asked to log in for a profile; register from
    the home page, wait in the quick-match queue (and leave it), see the leaderboard and one's
    own profile."""
    page = new_page(viewport=PHONE)
    page.goto("/#/profile")  # a guest's own profile page asks them to log in
    page.wait_for_selector("#profile-error")
    assert "وارد" in page.inner_text("#profile-error")
    page.goto("/")
    page.wait_for_selector("#login-box")
    page.fill("#name", "Parisa")
    page.click("#login-box summary")
    # The open form fits the phone: the password field is styled like the others (an
    # unstyled one was 392 px wide and pushed the page sideways).
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The marks a username may hold are quoted one by one: bare («با رقم و _ - . در صورت
    # نیاز») the «.» read as the end of the sentence, and the «_ -» as a dash.
    assert "نشانه‌های «_»، «-» و «.»" in page.inner_text("#account-hint")
    page.fill("#username", "pw")
    page.fill("#password", "short")
    page.click("#register")  # refused, and the toast says what to fix, in Persian
    page.wait_for_selector("text=نام کاربری باید ۳ تا ۲۴ نویسه باشد")
    page.fill("#username", "parisa_web")
    page.fill("#password", "a long password")
    page.click("#register")
    page.wait_for_selector("#account")
    assert "Parisa" in page.inner_text("#account")
    # The logout button can be seen: its text is not the panel's white.
    colour = page.eval_on_selector("#logout", "e => getComputedStyle(e).color")
    assert colour not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    shot(page, "phone-home-account")
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    # It says how long the player has waited and when bots will be offered (after 60 s).
    hint = page.inner_text("#quick-bots-hint")
    assert "ثانیهٔ دیگر" in hint and "ربات" in hint, hint
    assert "ثانیه گذشته" in page.inner_text("#quick-wait")
    page.click("#quick-cancel")
    page.wait_for_selector("#quick-wait", state="detached")
    # Taken out of the queue for sitting down to a game elsewhere (another tab): said, with
    # the room (the server's answer stood in for here).
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    page.route(
        "**/api/quick/status",
        lambda route: route.fulfill(json={"state": "idle", "reason": "in_game", "room": "K7QX4M"}),
    )
    said = page.wait_for_selector("#toasts .toast.error >> text=از صف بازی سریع بیرون آمدید")
    assert said is not None and "K7QX4M" in said.inner_text()
    page.wait_for_selector("#quick-wait", state="detached")
    page.unroute("**/api/quick/status")
    page.request.post("/api/quick/leave")
    page.goto("/#/leaderboard")
    page.wait_for_selector("#period-week")
    page.click("#period-week")
    page.wait_for_selector("#period-week.primary")
    # Others on the board and not oneself (no points yet): said, not silently left out.
    board = {
        "period": "all",
        "entries": [{"rank": 1, "player_id": "a_x", "name": "Sara", "points": 3}],
        "me": {"player_id": "a_me", "rank": None, "points": 0},
    }
    page.route("**/api/leaderboard*", lambda route: route.fulfill(json=board))
    page.click("#period-all")
    page.wait_for_selector("#my-rank")
    assert "هنوز در این فهرست نیستید" in page.inner_text("#my-rank")
    page.unroute("**/api/leaderboard*")
    # The rating board: nobody has played a rated game on this server yet...
    page.click("#period-rating")
    page.wait_for_selector("#period-rating.primary")
    assert "بازی سریع ریتینگ دارد" in page.inner_text("#leaderboard-empty")
    assert page.locator("#leaderboard").count() == 0  # no headers over no rows
    # ... and with players on it: the rating, its tier, a settling one marked.
    ladder = {
        "by": "rating",
        "entries": [
            {
                "rank": 1,
                "player_id": "a_x",
                "name": "Sara",
                "rating": 1834,
                "provisional": False,
                "rated_games": 40,
                "tier": {"id": "queen", "name": "Queen", "persian": "بی‌بی"},
            },
            {
                "rank": 2,
                "player_id": "a_y",
                "name": "Nima",
                "rating": 312,
                "provisional": True,
                "rated_games": 2,
                "tier": {"id": "newcomer", "name": "Newcomer", "persian": "تازه‌وارد"},
            },
        ],
        "me": {"player_id": "a_me", "rank": None, "rating": 0},
    }
    page.route("**/api/leaderboard*", lambda route: route.fulfill(json=ladder))
    page.click("#period-all")
    page.wait_for_selector("#period-all.primary")
    page.click("#period-rating")
    page.wait_for_selector("#leaderboard tbody tr >> nth=1")
    cells = page.eval_on_selector_all(
        "#leaderboard tbody tr td:last-child", "els => els.map(e => e.textContent)"
    )
    assert cells == ["۱۸۳۴، بی‌بی", "۳۱۲، تازه‌وارد (موقت)"], cells
    assert page.inner_text("#leaderboard thead").split()[-1] == "ریتینگ"
    assert "بازی ریتینگ‌داری نکرده‌اید" in page.inner_text("#my-rank")
    shot(page, "phone-rating-board")
    page.unroute("**/api/leaderboard*")
    # One's own profile by the home page's link: with the password form below (the link went
    # to #/profile/ID, the page anyone else sees, without it).
    page.goto("/")
    page.click("#account a")
    page.wait_for_selector("#profile")
    assert page.evaluate("location.hash") == "#/profile"
    assert "parisa_web" in page.inner_text("#profile")
    # A new account has no rating yet (not «۰»), and is told what gives one: a quick match of
    # four players (it said «فقط بازی‌های سریع ریتینگ را تغییر می‌دهند» on the profile of one
    # who had just played a quick match with bots, unrated).
    rating = page.locator("#profile dt", has_text="ریتینگ").locator(
        "xpath=following-sibling::dd[1]"
    )
    assert rating.inner_text() == "هنوز ریتینگی ندارد: فقط بازی سریع با چهار بازیکن ریتینگ دارد"
    assert page.inner_text("#profile").count("parisa_web") == 1  # name = username: said once
    assert "هنوز بازی‌ای" in page.inner_text("#no-games")  # a new account: no games yet
    shot(page, "phone-profile")
    # The password is changed from one's own profile (the server had it, no page did): a
    # wrong current one is refused and changes nothing; then the new one logs in.
    page.click("#password-box summary")
    shot(page, "phone-profile-password")
    page.fill("#old-password", "not my password")
    page.fill("#new-password", "another long one")
    page.click("#change-password")
    page.wait_for_selector("#toasts .toast.error >> text=گذرواژهٔ کنونی نادرست است")
    page.fill("#old-password", "a long password")
    page.click("#change-password")
    page.wait_for_selector("#toasts >> text=گذرواژه عوض شد")
    assert page.input_value("#old-password") == "" and not page.is_visible("#new-password")
    # The name shown at tables is changed here too (the server had it, no page did); a
    # name the server refuses is said and changes nothing.
    page.click("#name-box summary")
    name = page.request.get("/api/accounts/me").json()["player"]["name"]
    assert page.input_value("#new-name") == name
    page.fill("#new-name", "   ")
    page.click("#change-name")
    page.wait_for_selector("#toasts .toast.error")
    assert page.request.get("/api/accounts/me").json()["player"]["name"] == name
    page.fill("#new-name", "پریسا")
    page.click("#change-name")
    page.wait_for_selector("#toasts >> text=نام شما «پریسا» شد.")
    # The error before it is gone (a newer word on the name), and a second rename replaces it.
    named = "#toasts .toast[data-about=name]"
    assert page.locator(named).count() == 1
    page.fill("#new-name", "پریسا ۲")
    page.click("#change-name")
    page.wait_for_selector("#toasts >> text=نام شما «پریسا ۲» شد.")
    assert page.locator(named).count() == 1
    page.fill("#new-name", "پریسا")
    page.click("#change-name")
    page.wait_for_selector("#toasts >> text=نام شما «پریسا» شد.")
    assert page.request.get("/api/accounts/me").json()["player"]["name"] == "پریسا"
    assert "پریسا" in page.inner_text("#profile") and "parisa_web" in page.inner_text("#profile")
    shot(page, "phone-profile-renamed")
    fresh = new_page(viewport=PHONE)
    fresh.goto("/")
    for password, status in (("a long password", 401), ("another long one", 200)):
        answer = fresh.request.post(
            "/api/accounts/login", data={"username": "parisa_web", "password": password}
        )
        assert answer.status == status, answer.text()

    # A game won with hints earned no points, and the profile says why (the server's answer
    # with such a game added: winning one takes a whole game against bots).
    def with_hinted_win(route: Route) -> None:
        data = route.fetch().json()
        won = {"game_id": "g1", "seat": 0, "result": "won", "points": 0, "score": [7, 3]}
        data["recent_games"] = [{**won, "quick": False, "rated": False, "finished_at": 0}]
        route.fulfill(json=data)

    page.route("**/api/accounts/me", with_hinted_win)
    page.reload()
    page.wait_for_selector("#recent-games li")
    assert "بی‌امتیاز (با راهنما یا بازیِ ربات)" in page.inner_text("#recent-games li")
    shot(page, "phone-profile-hinted-win")
    page.unroute("**/api/accounts/me")

    # A rated game says how far it moved the rating, the sign kept before the digits.
    def with_rated_loss(route: Route) -> None:
        data = route.fetch().json()
        lost = {"game_id": "g2", "seat": 1, "result": "lost", "points": 0, "score": [7, 5]}
        data["recent_games"] = [
            {**lost, "quick": True, "rated": True, "finished_at": 0, "rating_change": [1512, 1497]}
        ]
        route.fulfill(json=data)

    page.route("**/api/accounts/me", with_rated_loss)
    page.reload()
    page.wait_for_selector("#recent-games li .rating-move")
    assert page.inner_text("#recent-games li .rating-move") == "ریتینگ از ۱۵۱۲ به ۱۴۹۷ (−۱۵)"
    assert page.get_attribute("#recent-games li .rating-delta", "dir") == "ltr"
    shot(page, "phone-profile-rated-loss")
    page.unroute("**/api/accounts/me")
    # Going to play something else while waiting leaves the queue (a match would otherwise
    # seat the player, unseen, in a rated game and count them as a leaver).
    page.goto("/")
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    assert "چهار بازیکن" in page.inner_text("#quick-queue")
    # «اکنون ۱ نفر در صف‌اند» had a plural verb for one person: the count stands alone.
    queue = page.inner_text("#quick-queue")
    assert re.search(r"اکنون در صف: [۱-۹][۰-۹]* نفر \(با خودتان\)\.$", queue), queue
    # The logo (home again) keeps the wait: the new home page picks it up.
    page.click("#brand")
    page.wait_for_function("location.hash === '#/'")
    page.wait_for_selector("#quick-wait")
    assert page.request.get("/api/quick/status").json()["state"] == "waiting"
    # Closing (here: reloading) the tab leaves the queue at once, instead of the player
    # staying matchable as a ghost until the server's 90 s drop.
    page.reload()
    page.wait_for_selector('.home[data-ready="1"]')
    assert page.query_selector("#quick-wait") is None
    assert page.request.get("/api/quick/status").json()["state"] == "idle"
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    assert page.is_disabled("#quick")  # already waiting
    page.select_option("#practice-target", "3")
    page.click("#practice")
    page.wait_for_selector(".table-view")
    page.wait_for_function("window.hokmStore.mySeat === 0")
    for _ in range(50):  # the leave request goes out as the page changes; nothing waits for it
        if page.request.get("/api/quick/status").json()["state"] == "idle":
            break
        page.wait_for_timeout(100)
    assert page.request.get("/api/quick/status").json()["state"] == "idle"
    # A match that came while the player was away from the home page (here: the practice
    # table stands in for the quick game): the home page offers the way back to the table.
    code = page.evaluate("window.hokmStore.table.code")
    page.route(
        "**/api/quick/status",
        lambda route: route.fulfill(
            json={"state": "matched", "code": code, "seat": 0, "rated": True}
        ),
    )
    page.goto("/")
    page.wait_for_selector("#quick-game")
    assert "در جریان" in page.inner_text("#quick-game")
    page.click("#quick-game-go")
    page.wait_for_selector(".table-view")
    page.unroute("**/api/quick/status")
    # Seated in that game, still in progress, the player cannot wait for another (two games
    # at once, a bot playing one): the home page says which room holds them.
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    page.click("#quick")
    page.wait_for_selector(f"#toasts .toast.error >> text=در اتاق {code} سر یک بازی نیمه‌تمام")
    assert page.query_selector("#quick-wait") is None
    page.goto(f"/#/room/{code}")  # the owner closes it: free again
    page.click("#close-game-now")
    page.click("#close-game-sure")
    page.wait_for_function("window.hokmStore.table.status !== 'playing'")
    # Logging out while waiting leaves the queue: no frozen counter on the page, and the
    # server no longer counts the player.
    page.goto("/")
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    page.click("#logout")
    page.wait_for_selector("#login-box")
    assert page.query_selector("#quick-wait") is None
    # The account's name went with the account: a guest here starts with none.
    assert page.input_value("#name") == ""
    page.reload()
    page.wait_for_selector('.home[data-ready="1"]')
    assert page.input_value("#name") == ""


def test_rules_advisor_and_four_colour_deck(new_page: Callable[..., Page]) -> None:
    """The rules in Persian (with the words of RULES.md §1) and in English; the trump advisor
    explains its choice; the four-colour deck recolours diamonds and is remembered."""
    page = new_page(viewport=PHONE)
    page.goto("/#/rules")
    page.wait_for_selector(".rules-body h2")
    text = page.inner_text(".rules-body")
    for word in ("حاکم", "حکم", "کُت", "حاکم‌کُتی", "بام", "پَر بام", "خال زمین"):
        assert word in text
    shot(page, "phone-rules-fa")
    page.click("#rules-en")
    assert "hakem-kot" in page.inner_text(".rules-body")
    assert page.get_attribute(".rules-body", "dir") == "ltr"

    page.goto("/#/advisor")
    for code in ("AS", "KS", "QS", "2H", "3D"):
        page.click(f'.picker [data-card="{code}"]')
    page.click("#advisor-ask")
    page.wait_for_selector("#advice")
    assert "پیک" in page.inner_text("#advice .advice")
    shot(page, "phone-advisor")

    red = page.eval_on_selector('.picker [data-card="AD"]', "e => getComputedStyle(e).color")
    page.click("#menu")
    page.check("#deck4")
    blue = page.eval_on_selector('.picker [data-card="AD"]', "e => getComputedStyle(e).color")
    assert red != blue
    page.reload()
    assert page.is_checked("#deck4")


_FULL_TRICK = """async () => {
    const { cardEl } = await import('/js/cards.js');
    const { h } = await import('/js/dom.js');
    const cards = { bottom: 'KH', right: 'AC', top: '6C', left: '3C' };
    const board = h('div.board', {}, h('div.trick', {}, Object.entries(cards).map(
        ([pos, card]) => h(`div.slot.pos-${pos}`, {}, cardEl(card)))));
    board.querySelector('.trick').style.pointerEvents = 'auto';  // for elementFromPoint
    document.querySelector('main').prepend(board);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    return Object.entries(cards).filter(([pos, card]) => {
        const corner = board.querySelector(`.pos-${pos} .corner`).getBoundingClientRect();
        const points = [[corner.left + 2, corner.top + 2], [corner.right - 2, corner.bottom - 2]];
        return points.some(([x, y]) => {
            const el = document.elementFromPoint(x, y);
            return !el || el.closest('[data-card]')?.dataset.card !== card;
        });
    }).map(([pos]) => pos);
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_full_trick_leaves_every_card_readable(new_page: Callable[..., Page], size: str) -> None:
    """The four cards of a trick, as the table draws them: no card covers another's rank
    (the top seat's card used to hide the right seat's rank)."""
    page = new_page(viewport=PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate(_FULL_TRICK) == []


_LONG_NAMES = """async () => {
    const { cardEl } = await import('/js/cards.js');
    const { h } = await import('/js/dom.js');
    const cards = { bottom: 'KH', right: 'AC', top: '6C', left: '3C' };
    const name = { left: 'سیدعلی‌اصغر حسینی‌نژادیان', right: 'Maximilian_Longname_1234',
                   top: 'Wolfgang-Amadeus-Mozart7' };
    const board = h('div.board', {},
        Object.entries(name).map(([pos, n]) => h(`div.seat.pos-${pos}`, {},
            h('div.seat-label', {}, h('span.name', { dir: 'auto' }, n)))),
        h('div.trick', {}, Object.entries(cards).map(
            ([pos, card]) => h(`div.slot.pos-${pos}`, {}, cardEl(card))),
            h('div.trick-note', {}, `${name.left} این دست را برد`)));
    document.querySelector('main').prepend(board);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const rects = [...board.querySelectorAll('.trick .card, .trick-note')]
        .map(c => c.getBoundingClientRect());
    return [...board.querySelectorAll('.seat-label')].filter((label) => {
        const a = label.getBoundingClientRect();
        return rects.some(b => a.left < b.right && b.left < a.right
            && a.top < b.bottom && b.top < a.bottom);
    }).map(label => label.parentElement.className);
}"""


@pytest.mark.parametrize("size", ["phone", "tablet", "desktop"])
def test_long_names_around_the_trick_stay_clear_of_its_cards_and_its_note(
    new_page: Callable[..., Page], size: str
) -> None:
    """The left and right seats' names, however long, end before the trick's cards (on a
    phone the cards lay over the end of a long name), and the top seat's name before the
    note of who won the trick, in the corner (on a phone the two were written over each
    other, and on a tablet 700–720 px wide too)."""
    tablet = {"width": 710, "height": 900}
    page = new_page(viewport={"phone": PHONE, "tablet": tablet, "desktop": DESKTOP}[size])
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate(_LONG_NAMES) == []


_BOTTOM_SEAT = """async () => {
    const { cardEl } = await import('/js/cards.js');
    const { h } = await import('/js/dom.js');
    // the player's own seat as the table draws it while a bot plays for them and their
    // clock runs: name, the «غایب» badge, the countdown; their card in the trick above it
    const seat = h('div.seat.pos-bottom', {},
        h('div.seat-label', {}, h('span.name', { dir: 'auto' }, 'محمدحسین خسروشاهی')),
        h('span.badge.away', {}, 'غایب 🤖'),
        h('div.seat-meta', {}, h('div.countdown', {}, h('span.secs', {}, '۹'))));
    const board = h('div.board', {}, seat,
        h('div.trick', {}, h('div.slot.pos-bottom', {}, cardEl('4S'))));
    document.querySelector('main').prepend(board);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const card = board.querySelector('.trick .card').getBoundingClientRect();
    const felt = board.getBoundingClientRect();
    return [...seat.children].filter((part) => {
        const a = part.getBoundingClientRect();
        const covered = a.top < card.bottom && card.top < a.bottom
            && a.left < card.right && card.left < a.right;
        return covered || a.bottom > felt.bottom || a.left < felt.left || a.right > felt.right;
    }).map((part) => part.className);
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_players_own_seat_away_and_on_the_clock_stays_clear_of_their_card(
    new_page: Callable[..., Page], size: str
) -> None:
    """The bottom seat while a bot plays for its player, on the clock: its name, the «غایب»
    badge and the countdown stay on the felt and clear of the trick's bottom card (stacked
    under the name, they pushed it up under the card on a phone)."""
    page = new_page(viewport=PHONE if size == "phone" else DESKTOP)
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate(_BOTTOM_SEAT) == []


def test_the_card_picker_is_one_tab_stop_walked_with_the_arrow_keys(
    new_page: Callable[..., Page],
) -> None:
    """The trump advisor's 52 cards: Tab enters at the first card and leaves after it; the
    arrow keys walk the grid (a row is a suit of 13, laid out left to right in both
    languages, as a hand of cards is)."""
    for lang, forward in (("en", "ArrowRight"), ("fa", "ArrowRight")):
        page = new_page(lang=lang)
        page.goto("/#/advisor")
        page.wait_for_selector(".picker .card")
        assert page.locator('.picker .card[tabindex="0"]').count() == 1
        page.focus('.picker .card[tabindex="0"]')
        order = page.eval_on_selector_all(".picker .card", "els => els.map(e => e.dataset.card)")
        current = "document.activeElement.dataset.card"
        assert page.evaluate(current) == order[0]
        page.keyboard.press(forward)
        assert page.evaluate(current) == order[1]
        page.keyboard.press("ArrowDown")
        assert page.evaluate(current) == order[14]
        page.keyboard.press("End")
        assert page.evaluate(current) == order[25]
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('.picker')") is False


def test_a_room_page_says_so_when_its_session_is_logged_out_elsewhere(
    new_page: Callable[..., Page],
) -> None:
    """Logged out in another tab (or by a password change elsewhere), the room's socket is
    closed by the server (4003): the page says why and how to come back, and does not
    reconnect as someone else."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector("#login-box")
    page.fill("#name", "Nima")
    page.click("#login-box summary")
    page.fill("#username", "nima_elsewhere")
    page.fill("#password", "a long password")
    page.click("#register")
    page.wait_for_selector("#account")
    page.click("#create")
    page.wait_for_selector("#room-code")
    page.wait_for_function("window.hokmStore.mySeat === 0")
    other = page.context.new_page()  # the same browser: the same session cookie
    other.goto("/")
    other.wait_for_selector('.home[data-ready="1"] #logout')
    other.click("#logout")
    other.wait_for_selector("#login-box")
    page.wait_for_selector("#signed-out")
    text = page.inner_text("#signed-out")
    assert "از حساب خارج شده‌اید" in text and "ورود دوباره" in text, text
    shot(page, "phone-signed-out")
    page.wait_for_timeout(1000)  # (a reconnection would have begun by now)
    assert page.evaluate("!window.hokmConn.isOpen() && window.hokmConn.ws === null")
    assert page.locator("#signed-out").count() == 1
    page.click("#signed-out a")
    page.wait_for_selector("#login-box")


def test_a_quick_match_wait_lives_through_a_server_restart(
    new_page: Callable[..., Page],
) -> None:
    """The queue is in the server's memory. While the server is restarting the page says it is
    not answering and keeps the wait; told "idle" with no reason afterwards (the queue was
    lost), it joins again by itself. A drop for being away is said, and ends the wait."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector("#login-box")
    page.fill("#name", "Kian")
    page.click("#login-box summary")
    page.fill("#username", "kian_restart")
    page.fill("#password", "a long password")
    page.click("#register")
    page.wait_for_selector("#account")
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    # The server goes down: the looks are refused at the socket.
    page.route("**/api/quick/status", lambda route: route.abort("connectionrefused"))
    page.wait_for_selector("#quick-state:has-text('سرور پاسخ نمی‌دهد')")
    shot(page, "phone-quick-offline")
    assert page.query_selector("#quick-wait") is not None
    # It comes back with an empty queue (left here for real; the next look answers as a
    # new process would, with no reason).
    assert page.request.post("/api/quick/leave").json()["state"] == "idle"
    looks: list[str] = []

    def restarted(route: Route) -> None:
        looks.append(route.request.url)
        if len(looks) == 1:
            route.fulfill(json={"state": "idle"})
        else:
            route.continue_()

    page.unroute("**/api/quick/status")
    page.route("**/api/quick/status", restarted)
    page.wait_for_selector("#quick-state:has-text('در انتظار بازیکن‌های دیگر')")
    for _ in range(50):
        if page.request.get("/api/quick/status").json()["state"] == "waiting":
            break
        page.wait_for_timeout(100)
    assert page.request.get("/api/quick/status").json()["state"] == "waiting"
    assert page.query_selector("#quick-wait") is not None
    assert "مدتی در صف نبودید" not in page.inner_text("body")
    # Dropped for not asking (here: as the server would say it): the page says so and stops.
    page.unroute("**/api/quick/status")
    page.route(
        "**/api/quick/status",
        lambda route: route.fulfill(json={"state": "idle", "reason": "away"}),
    )
    page.wait_for_selector("text=مدتی در صف نبودید")
    page.wait_for_selector("#quick-wait", state="detached")
    page.unroute("**/api/quick/status")
    page.request.post("/api/quick/leave")


def test_a_quick_match_wait_rejoins_when_the_restarted_server_first_fails_the_join(
    new_page: Callable[..., Page],
) -> None:
    """Told "idle" with no reason (the queue was lost in a restart), the page joins again; a
    join the server does not answer yet (503 while it comes up) is tried again at the next
    look, as the looks themselves are, instead of ending the wait with an error."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector("#login-box")
    page.fill("#name", "Kaveh")
    page.click("#login-box summary")
    page.fill("#username", "kaveh_rejoin")
    page.fill("#password", "a long password")
    page.click("#register")
    page.wait_for_selector("#account")
    page.click("#quick")
    page.wait_for_selector("#quick-wait")
    assert page.request.post("/api/quick/leave").json()["state"] == "idle"  # the lost queue
    joins: list[int] = []

    def status(route: Route) -> None:
        if any(code == 200 for code in joins):
            route.continue_()
        else:  # as a new process answers: no word of this player
            route.fulfill(json={"state": "idle"})

    def join(route: Route) -> None:
        if not joins:  # the first join: the server is not ready yet
            joins.append(503)
            route.fulfill(status=503, json={"code": "server_error", "message": "starting"})
            return
        response = route.fetch()
        joins.append(response.status)
        route.fulfill(response=response)

    page.route("**/api/quick/status", status)
    page.route("**/api/quick/join", join)
    for _ in range(100):
        if page.request.get("/api/quick/status").json()["state"] == "waiting":
            break
        page.wait_for_timeout(100)
    assert joins[:2] == [503, 200], joins
    assert page.request.get("/api/quick/status").json()["state"] == "waiting"
    page.wait_for_selector("#quick-state:has-text('در انتظار بازیکن‌های دیگر')")
    assert page.query_selector("#quick-wait") is not None
    page.unroute("**/api/quick/status")
    page.unroute("**/api/quick/join")
    page.request.post("/api/quick/leave")


def test_an_account_is_deleted_from_its_profile_with_its_password(
    new_page: Callable[..., Page],
) -> None:
    """The own profile's «حذف حساب» says what goes, needs the password (a wrong one is
    refused in Persian and deletes nothing), and then leaves the player a guest with no name."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector("#login-box")
    page.fill("#name", "Shirin")
    page.click("#login-box summary")
    page.fill("#username", "shirin_leaves")
    page.fill("#password", "a long password")
    page.click("#register")
    page.wait_for_selector("#account")
    page.goto("/#/profile")
    page.wait_for_selector("#delete-box")
    page.click("#delete-box summary")
    assert "برای همیشه" in page.inner_text("#delete-warning")
    shot(page, "phone-profile-delete")
    page.fill("#delete-password", "not the password")
    page.click("#delete-account")
    page.wait_for_selector("#toasts .toast.error")
    assert page.request.get("/api/accounts/me").status == 200  # nothing deleted
    page.fill("#delete-password", "a long password")
    page.click("#delete-account")
    page.wait_for_selector("text=حساب شما حذف شد")
    page.wait_for_selector('.home[data-ready="1"] #login-box')
    assert page.input_value("#name") == ""
    assert page.request.get("/api/accounts/me").status == 401
    login = {"username": "shirin_leaves", "password": "a long password"}
    assert page.request.post("/api/accounts/login", data=login).status == 401


def _replay_of_a_leaver(page: Page, *, plays: int, name: str = "Ben") -> None:
    """The replay of a record in which ``name`` (seat 1) left after ``plays`` cards of hand 1."""
    page.goto("/")
    record = {
        "players": ["Ana", None, "Cy", "Dee"],
        "left": [{"seat": 1, "name": name, "hand": 0, "plays": plays}],
        "rules": {},
        "hands": [three_trick_hand(page, "left")],
        "result": {"status": "cancelled", "winner_team": None},
    }
    page.route("**/api/games/LEFT-1/record", lambda route: route.fulfill(json=record))
    page.goto("/#/game/LEFT-1")
    page.wait_for_selector("#replay-next")


def test_a_replay_names_who_played_a_leavers_seat_card_by_card(
    new_page: Callable[..., Page],
) -> None:
    """A record's ``left`` (a player who left mid-game, a bot on from their sixth card):
    the summary says so, and each card of that seat is credited to the player or the bot."""
    page = new_page(viewport=PHONE)
    _replay_of_a_leaver(page, plays=6)
    summary = page.inner_text(".replay .panel").replace("\u2068", "").replace("\u2069", "")
    assert "Ben (سپس ربات)، Dee" in summary
    # (the hand's cards, not Ben's own; "برگ بازی" read as "playing card" without the comma)
    assert "Ben در هَند ۱، پس از ۶ برگِ آن هَند، بازی را ترک کرد" in summary
    shot(page, "phone-replay-left")

    def seat_one_label() -> str:
        labels = page.locator("#replay .mini-slot .card").evaluate_all(
            "els => els.map((e) => e.getAttribute('aria-label'))"
        )
        return next(x for x in labels if "Ben" in x).replace("\u2068", "").replace("\u2069", "")

    # Trick 1 (plays 0–3) was Ben's own; trick 3 (plays 8–11) the bot's.
    # («آس دل را ربات به جای Ben بازی کرد»)
    assert "ربات به جای Ben" not in seat_one_label()
    page.click("#replay-next")
    page.click("#replay-next")
    page.wait_for_function(
        "document.getElementById('replay-trick-title').textContent.startsWith('دست ۳')"
    )
    assert " را ربات به جای Ben بازی کرد" in seat_one_label()


@pytest.mark.parametrize(("lang", "name"), [("fa", "Ben"), ("en", "بهرام")])
def test_a_leavers_then_a_bot_reads_in_the_pages_direction(
    new_page: Callable[..., Page], lang: str, name: str
) -> None:
    """«Ben (سپس ربات)» in the summary and the analysis is a phrase of the page's language
    around a name: it is laid out in the page's direction. Its ``bdi`` took the direction of
    its first letter, the name's, so a Persian page showed «(سپس ربات) Ben» reading from
    the right (and an English one «(then a bot) بهرام» for a Persian name)."""
    page = new_page(viewport=PHONE, lang=lang)
    _replay_of_a_leaver(page, plays=6, name=name)
    page_dir = "rtl" if lang == "fa" else "ltr"
    leaver = page.locator(".replay .panel bdi", has_text=name)
    assert leaver.evaluate("e => getComputedStyle(e).direction") == page_dir
    # The name comes first in the reading direction, the bot after it.
    then_bot = "سپس ربات" if lang == "fa" else "then a bot"
    spans = leaver.evaluate(
        """(e, [name, bot]) => {
            const at = (s) => {
                const r = document.createRange();
                const i = e.textContent.indexOf(s);
                r.setStart(e.firstChild, i);
                r.setEnd(e.firstChild, i + s.length);
                return r.getBoundingClientRect().left;
            };
            return [at(name), at(bot)];
        }""",
        [name, then_bot],
    )
    name_x, bot_x = spans
    assert (name_x > bot_x) if lang == "fa" else (name_x < bot_x), spans


def test_under_a_card_of_the_bot_for_a_leaver_the_leavers_name_shows(
    new_page: Callable[..., Page],
) -> None:
    """Under each card of a replayed trick, the seat's name: for a leaver's seat after they
    left, «ربات به جای Ben». Cut to one line of 56 px it read «ربات به ج…», the name never
    shown; it takes two lines (a longer name is still cut, at the second), and the cards of
    the trick stay in line."""
    page = new_page(viewport=PHONE)
    _replay_of_a_leaver(page, plays=0)
    label = page.locator("#replay .mini-slot > .small", has_text="Ben")
    assert label.inner_text().replace("\u2068", "").replace("\u2069", "") == "ربات به جای Ben"
    # Not cut: no wider than its box, on no more lines than it shows (two).
    width, lines = label.evaluate(
        """(e) => {
            const r = document.createRange();
            r.selectNodeContents(e);
            const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
            return [e.scrollWidth - e.clientWidth, tops.size];
        }"""
    )
    assert width <= 0 and lines <= 2, (width, lines)
    tops = page.locator("#replay .mini-slot .card").evaluate_all(
        "els => els.map((e) => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    shot(page, "phone-replay-bot-for-leaver")


def test_a_game_id_in_a_heading_is_never_broken_at_its_dash(
    new_page: Callable[..., Page],
) -> None:
    """«Game summary NM3XE4-1» on a phone in English: the id broke after its dash, «NM3XE4-»
    on one line and «1» under it; it is kept whole (on the next line if need be)."""
    page = new_page(viewport=PHONE, lang="en")
    page.goto("/")
    record = {
        "players": ["Ana", "Ben", "Cy", "Dee"],
        "rules": {},
        "hands": [three_trick_hand(page, "whole")],
        "result": {"status": "cancelled", "winner_team": None},
    }
    page.route("**/api/games/NM3XE4-1/record", lambda route: route.fulfill(json=record))
    page.goto("/#/game/NM3XE4-1")
    page.wait_for_selector("#replay-next")
    code = page.locator("h1 .code")
    assert code.inner_text() == "NM3XE4-1"
    lines = code.evaluate(
        "e => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size"
    )
    assert lines == 1, lines


_CSP_WATCH = """
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


def test_every_page_keeps_to_the_content_security_policy(new_page: Callable[..., Page]) -> None:
    """The server sends a strict policy (own scripts, the one inline theme script by its
    hash, no framing): every page works under it, the theme is set before the first paint,
    and nothing is blocked: home, rules, simulator, advisor (its bars are style attributes),
    leaderboard, a practice game at the table, a replay."""
    page = new_page(viewport=PHONE, csp=True)
    page.add_init_script(_CSP_WATCH)
    page.add_init_script("localStorage.setItem('hokm.settings', JSON.stringify({theme: 'dark'}))")
    answer = page.goto("/")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "'sha256-" in policy, policy
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    page.wait_for_selector("#practice")
    # Dark, as asked (by the inline script, allowed by its hash, and again by app.js; a
    # blocked inline script would be among the violations checked at the end).
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    for route, ready in (
        ("/#/rules", ".rules-body"),
        ("/#/sim", "#sim-random"),
        ("/#/leaderboard", "#period-all"),
        ("/#/profile", "#profile-error, #profile"),
        ("/#/game/NOPE-1", ".page h1"),
    ):
        page.goto(route)
        page.wait_for_selector(ready)
    page.goto("/#/advisor")
    for code in ("AS", "KS", "QS", "2H", "3D"):
        page.click(f'.picker [data-card="{code}"]')
    page.click("#advisor-ask")
    page.wait_for_selector("#advice .bar")
    assert page.eval_on_selector("#advice .bar", "e => e.getBoundingClientRect().width") > 0
    start_practice(page, "Roya")
    take_turns_until(page, ".hand .card.legal")
    page.click(".hand .card.legal")
    page.wait_for_selector("#trick .card")
    assert page.evaluate("window.cspViolations") == []


def test_a_replay_of_a_game_won_by_bam_shows_the_final_score(
    new_page: Callable[..., Page],
) -> None:
    """A won bam wins the game at once: the bamming team gets the points it needs to reach the
    target (RULES.md §6; the referee's points). The replay summed each hand's points as the
    simulator scores it, one hand to a target of 1, so a kot and then a bam to 7 read 3 – 0."""
    hands = [[f"{r}{suit}" for r in "AKQJT98765432"] for suit in "SHDC"]
    plays = [card for trick in range(13) for card in (hand[trick] for hand in hands)]
    record = {
        "players": ["Ana", "Ben", "Cy", "Dee"],
        "rules": {"bam": True},
        "hands": [
            {"hakem": 0, "cards": hands, "trump": "S", "plays": plays[:28], "bam": False},
            {"hakem": 0, "cards": hands, "trump": "S", "plays": plays, "bam": True},
        ],
        "result": {"status": "completed", "winner_team": 0, "score": [7, 0]},
    }
    page = new_page(lang="en")
    page.route("**/api/games/BAM777-1/record", lambda route: route.fulfill(json=record))
    page.goto("/#/game/BAM777-1")
    page.wait_for_selector("#game-winner")
    # (the hands' states come after the record: until then the totals read 0)
    page.wait_for_function("document.querySelector('.replay .panel p b')?.textContent > '0'")
    totals = page.locator(".replay .panel p").first.locator("b").all_inner_texts()
    assert totals == ["7", "0"]


def test_the_replay_names_a_seven_nil_against_the_hakem_a_hakem_kot(
    new_page: Callable[..., Page],
) -> None:
    """A mistake of the team that is not the hakem's, which missed a 7–0, missed a hakem-kot
    (RULES.md §6, 3 points), as `hokm analyse` says; the replay said "a kot → a win"."""
    hands = [[f"{r}{suit}" for r in "AKQJT98765432"] for suit in "SHDC"]
    # Seat 1 (hakem) leads A♥, seat 0 cuts with A♠ and leads spades to 7–0.
    plays = [hands[1][0], hands[2][0], hands[3][0], hands[0][0]]
    plays += [card for trick in range(1, 7) for card in (hand[trick] for hand in hands)]
    record = {
        "players": ["Ana", "Ben", "Cy", "Dee"],
        "rules": {},
        "hands": [{"hakem": 1, "cards": hands, "trump": "S", "plays": plays}],
        "result": {"status": "completed", "winner_team": 0, "score": [3, 0]},
    }
    note = {
        "play": 4, "trick": 2, "seat": 0, "card": "KS", "choices": 2, "outcome": 1,
        "best_outcome": 2, "tricks": 6, "best_tricks": 7, "best": ["QS"], "points": 1,
        "best_points": 3, "points_lost": 2, "mistake": True, "kot_unsettled": False,
        "unsettled": False, "bot_card": None, "bot_avoids": None,
    }  # fmt: skip
    analysis = {
        "game_id": "HKOT77-1", "ok": True, "truncated": False,
        "hands": [{"hand": 0, "hakem": 1, "trump": "S", "start": -2, "start_exact": True,
                   "judged": 28, "result": "hakem_kot", "winner_team": 0, "tricks": [7, 0],
                   "plays": [note, {**note, "seat": 1, "play": 5, "outcome": -2,
                                    "best_outcome": -1, "points": -3, "best_points": -1}],
                   "mistakes": [4, 5]}],
        "seats": [{"seat": s, "choices": 2, "mistakes": 1, "points_lost": 2, "avoidable": 0}
                  for s in range(4)],
    }  # fmt: skip
    page = new_page(lang="en")
    page.route("**/api/games/HKOT77-1/record", lambda route: route.fulfill(json=record))
    page.route("**/api/games/HKOT77-1/analysis", lambda route: route.fulfill(json=analysis))
    page.goto("/#/game/HKOT77-1")
    page.click("#analyse")
    page.wait_for_selector("#analysis-mistakes")
    said = page.locator("#analysis-mistakes li").all_inner_texts()
    assert ": a hakem-kot → a win." in said[0], said
    assert ": a loss → hakem-kot against." in said[1], said


_HAND_END_KEPT = """async () => {
    const { RoomStore } = await import('/js/store.js');
    const { sawHandEnd } = await import('/js/seen.js');
    localStorage.removeItem('hokm.commitments');
    const store = new RoomStore('abcdef');
    store.applySnapshot({ version: 5, commitment: null,
      table: { status: 'playing', game_number: 3, game: { phase: 'trump', hand_number: 0 } } });
    const ended = (version, hand) => ({ version, event: { kind: 'hand_ended', hand } });
    const dealt = { kind: 'deal_committed', hand: 0, commitment: 'c' };
    store.applyEvents([{ version: 6, event: dealt }]);
    store.applyEvents([ended(7, 0), ended(8, 1)]);  // (no commitment of hand 1: not kept)
    return [sawHandEnd('ABCDEF-3', 0), sawHandEnd('abcdef-3', 1)];
}"""


def test_a_browser_gone_before_a_redealt_hands_played_deal_does_not_cry_mismatch(
    new_page: Callable[..., Page],
) -> None:
    """A spectator saw a hand's first deal committed and closed the page while the hakem
    asked for a new deal: it has that deal's commitment, not the played one's. The replay's
    check said «ناسازگار» (the server cheated) of that hand; it cannot vouch for it (unseen).
    A browser that saw the hand end at the table had the played deal's commitment: its lack
    there is a mismatch."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    assert page.evaluate(_HAND_END_KEPT) == [True, False]
    first = Deal.from_seed("redealt", Seat(0))
    hand = {
        **three_trick_hand(page, "played"),
        "seed": "played",
        "redeals": [
            {
                "reason": "weak_five",
                "cards": [[str(c) for c in h] for h in first.hands],
                "seed": "redealt",
            }
        ],
    }
    record = {
        "players": ["Ana", "Ben", "Cy", "Dee"],
        "rules": {"hakem_may_redeal_weak_five": True},
        "hands": [hand],
        "result": {"status": "closed", "winner_team": None, "score": [0, 0]},
    }
    page.route("**/api/games/*/record", lambda route: route.fulfill(json=record))

    def check(hands: dict[str, Any]) -> list[str]:
        page.evaluate(
            "(g) => localStorage.setItem('hokm.commitments', "
            "JSON.stringify({order: ['REDEAL-1'], games: {'REDEAL-1': g}}))",
            hands,
        )
        page.goto("/#/")
        page.goto("/#/game/redeal-1")
        page.click("#verify")
        page.wait_for_selector("#verify-result li")
        return list(
            page.locator("#verify-result li").evaluate_all("es => es.map(e => e.dataset.state)")
        )

    gone = seed_commitment("redealt")
    assert check({"0": [gone]}) == ["unseen"]
    assert check({"0": [gone], "ended": [0]}) == ["bad_commitment"]
    assert check({"0": [gone, seed_commitment("played")]}) == ["ok"]


def test_the_rules_page_names_the_presets_as_the_preset_menu_does(
    new_page: Callable[..., Page],
) -> None:
    """The rules page's list of presets uses the names the lobby's preset menu shows (in
    English it called the default preset "Standard", the menu "Default")."""
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    named = page.evaluate(
        """async () => {
        const i18n = await import('/js/i18n.js');
        const { presetLabel } = await import('/js/common.js');
        const { RULES_FA, RULES_EN } = await import('/js/rules_text.js');
        const bold = (html) => {
            const p = [...new DOMParser().parseFromString(html, 'text/html')
                .querySelectorAll('p')].find((x) => /^(Presets|نسخه‌های آماده)/.test(x.textContent));
            return [...p.querySelectorAll('b')].map((b) => b.textContent);
        };
        const labels = () => ['platform-a', 'classic', 'simulator', 'platform-b'].map(presetLabel);
        i18n.setLang('en');
        const en = [bold(RULES_EN), labels()];
        i18n.setLang('fa');
        return [en, [bold(RULES_FA), labels()]];
    }"""
    )
    for shown, labels in named:  # («آرام» is «آرام (نوبت‌های بلندتر)» in the menu)
        assert len(shown) == 4 and all(map(str.startswith, labels, shown)), (shown, labels)


def test_a_failed_bam_at_minus_three_says_who_lost_the_points(
    new_page: Callable[..., Page],
) -> None:
    """A failed bam at minus 3 is the other team's hand for 0 points: the banner (and what a
    screen reader hears) read «حریف (…) این هَند را برد: بام ناموفق، ۰ امتیاز», the bammers'
    −3 nowhere but in their score. It says whose bam failed and what it cost them."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    said = page.evaluate(
        """import('/js/table.js').then((m) => {
            const names = ['نگار', 'ربات ۲', 'ربات ۳', 'ربات ۴'];
            const res = {hand: 2, result: 'failed_bam', winner_team: 1, points: [-3, 0]};
            return [0, 1, null].map((seat) =>
                m.handSaid({mySeat: seat, seatName: (s) => names[s]}, res));
        })"""
    )
    assert said == [
        "هَند ۳: بام ما (نگار و ربات ۳) ناموفق بود: ۳\u00a0امتیاز از ما کم شد",
        "هَند ۳: بام حریف (نگار و ربات ۳) ناموفق بود: ۳\u00a0امتیاز از آن‌ها کم شد",
        "هَند ۳: بام تیم ۱ (نگار و ربات ۳) ناموفق بود: ۳\u00a0امتیاز از آن‌ها کم شد",
    ]
    # The score sheet's «امتیاز هَند» shows the bammers' «−۳», in their colour, not the
    # others' «۰» (a score that fell by 3 with no row saying so).
    cell = page.evaluate(
        """import('/js/table.js').then((m) => {
            const row = {hand: 2, hakem: 1, trump: 'S', result: 'failed_bam', winner_team: 1,
                tricks: [11, 1], points: [-3, 0], score: [-1, 0]};
            const store = {mySeat: 0, seatName: (s) => `ربات ${s + 1}`,
                table: {hands: [row], status: 'playing'}};
            const td = m.handsSheet({store}).querySelectorAll('tbody td')[4];
            return [td.textContent, td.className];
        })"""
    )
    assert cell == ["\u2066−۳\u2069", "us"]


def test_a_negative_score_keeps_its_minus_before_its_digits(
    new_page: Callable[..., Page],
) -> None:
    """After a failed bam at minus 3 a score can be below zero: in the right-to-left score bar
    «−۱» was drawn «۱−», the sign after the digits (as the rating's change once was); and the
    sign's direction must not spill over the «–» onto the other team's score, which would then
    swap sides («ما» on the right)."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    score = page.evaluate("import('/js/i18n.js').then((m) => `ما ${m.num(-13)} – ${m.num(0)}`)")
    xs = lefts_in_an_rtl_line(page, score, ["۰", "−", "۱۳", "ما"])
    assert xs[0] < xs[1] < xs[2] < xs[3], xs  # «۰ – −۱۳ ما» from the left


def test_a_number_stays_on_the_line_of_its_word(new_page: Callable[..., Page]) -> None:
    """On a phone the hand banner read «برد ساده، ۱» at a line's end with «امتیاز» alone under
    it, and the note after a time away ended «امتیاز: ما ۰ – حریف» with «۰.» alone: a
    no-break space keeps them together."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    said = page.evaluate(
        """import('/js/i18n.js').then((m) => [m.pointsText(1), m.pointsText(3),
            m.t('while_away', {hand: 2, us: 0, them: 1})])"""
    )
    assert said[:2] == ["۱\u00a0امتیاز", "۳\u00a0امتیاز"]
    assert said[2].endswith("اکنون هَند\u00a0۲ است؛ امتیاز: ما\u00a0۰ – حریف\u00a0۱."), said[2]
