"""Four people in four browsers join one room by its code and play a hand; reloads; chat."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Page, WebSocket

from hokm.engine import persian_digits
from tests.web.conftest import DESKTOP, PHONE, shot
from tests.web.helpers import (
    DECISION,
    LIVE_LOG,
    TRUMP_BUTTONS,
    announced,
    enter_name,
    hand_cards,
    start_practice,
    store,
    take_turn,
    trump_taken,
)


def create_room(page: Page, name: str) -> str:
    """A new room for friends: its owner is seated at the first seat."""
    page.goto("/")
    enter_name(page, name)
    page.click("#create")
    page.wait_for_selector("#room-code")
    page.wait_for_function("window.hokmStore.mySeat === 0")
    return page.inner_text("#room-code").strip()


def join_room(page: Page, name: str, code: str) -> None:
    page.goto("/")
    enter_name(page, name)
    page.fill("#code", code.lower())
    page.click("#join")
    page.wait_for_selector(".lobby")


def sit(page: Page, seat: int) -> None:
    page.click(f'.seat-card[data-seat="{seat}"] button.sit')
    page.wait_for_function(f"window.hokmStore.mySeat === {seat}")


def add_bots(page: Page, seats: tuple[int, ...] = (1, 2, 3)) -> None:
    """The owner's «ربات» on each of these seats, one by one."""
    for seat in seats:
        page.click(f"#add-bot-{seat}")
        page.wait_for_function(f"window.hokmStore.table.seats[{seat}].kind === 'bot'")


def watch_room(page: Page, name: str, code: str) -> None:
    """Come into a room whose game has begun: onlooking, at the table."""
    page.goto("/")
    enter_name(page, name)
    page.fill("#code", code)
    page.click("#join")
    page.wait_for_selector(".table-view")


def test_four_browsers_join_by_code_and_play_a_hand(new_page: Callable[..., Page]) -> None:
    """Each sees only their own 13 cards (together the 52), plays by clicking, and all four
    see the same hand result."""
    names = ["Ali", "Bita", "Cyrus", "Dara"]
    pages = [new_page(viewport=PHONE if i % 2 else DESKTOP) for i in range(4)]
    code = create_room(pages[0], names[0])
    assert len(code) == 6
    shot(pages[0], "desktop-lobby-empty")
    join_room(pages[1], names[1], code)
    pages[0].locator(".toast", has_text="Bita").first.wait_for()  # the owner hears who came
    # Typed on a Persian keyboard: Persian digits, and a dash a person may add.
    join_room(pages[2], names[2], persian_digits(f"{code[:3]}-{code[3:]}"))
    # The fourth opens the shared link: /r/CODE asks for a name, then enters the room.
    link = pages[0].input_value("#share-link")
    assert link.endswith(f"/r/{code}")
    pages[3].goto(link)
    # Before giving a name the friend sees whose room it is and who is in it.
    pages[3].wait_for_selector("#room-preview")
    preview = pages[3].inner_text("#room-preview")
    assert preview.startswith("صاحب اتاق: \u2068Ali") and "Cyrus" in preview, preview
    assert "۳ صندلی خالی" in preview, preview
    shot(pages[3], "phone-invited-friend")
    pages[3].fill("#name", names[3])
    pages[3].click("#join")
    pages[3].wait_for_selector(".lobby")
    # A joiner is asked to take a seat; the owner sees who waits without one (not themself).
    assert "نشستن" in pages[1].inner_text("#choose-seat")
    assert "Bita" not in pages[1].inner_text("#unseated")
    pages[0].wait_for_function(
        "['Bita', 'Cyrus', 'Dara'].every(n => "
        "document.querySelector('#unseated')?.innerText.includes(n))"
    )
    for seat, page in enumerate(pages[1:], start=1):
        sit(page, seat)
    assert pages[1].locator("#choose-seat").count() == 0
    pages[0].wait_for_selector("#unseated", state="detached")
    pages[0].wait_for_function("window.hokmStore.table.seats.every(s => s.kind === 'human')")
    shot(pages[1], "phone-lobby-full")
    # Only the owner may start.
    assert pages[1].locator("#start").count() == 0
    pages[0].click("#start")
    for page in pages:
        page.wait_for_selector(".table-view")
    # Wait for the full deal (13 cards each) after the hakem names trump.
    for _ in range(50):
        for page in pages:
            if page.locator(TRUMP_BUTTONS).count():
                page.locator(TRUMP_BUTTONS).first.click()
                trump_taken(page)
        if all(len(hand_cards(p)) == 13 for p in pages):
            break
        pages[0].wait_for_timeout(100)
    hands = [set(hand_cards(p)) for p in pages]
    assert all(len(h) == 13 for h in hands)
    assert len(set().union(*hands)) == 52
    # A fifth person with the code only watches: no hand, no hidden card anywhere in the page.
    watcher = new_page(viewport=PHONE)
    watch_room(watcher, "Elham", code)
    assert watcher.locator(".hand").count() == 0
    assert store(watcher, "s.game.hand.length") == 0
    shown = set(watcher.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    public = set(store(watcher, "s.game.ace_draw")) | {c for _, c in store(watcher, "s.game.trick")}
    assert shown <= public
    watcher.context.close()
    shot(pages[0], "desktop-table-four")
    shot(pages[1], "phone-table-four")

    # Play the hand: whoever has a decision clicks, until everyone sees the result.
    done = [False] * 4
    for _ in range(300):
        if all(done):
            break
        moved = False
        for i, page in enumerate(pages):
            if done[i]:
                continue
            what = take_turn(page, stop_at_result=True)
            if what == "done":
                done[i] = True
            elif what is not None:
                moved = True
        if not moved:
            pages[0].wait_for_timeout(30)
    results = [store(p, "s.handResult") for p in pages]
    assert all(r is not None for r in results)
    assert all(r["tricks"] == results[0]["tricks"] for r in results)
    assert max(results[0]["tricks"]) == 7
    pages[2].wait_for_selector("#hand-result")
    assert "هَند را برد" in pages[2].inner_text("#hand-result")
    shot(pages[2], "desktop-hand-result")
    for seat in (0, 1):  # each sees their own team's tricks first, as in the score bar
        ours, theirs = results[0]["tricks"][seat % 2], results[0]["tricks"][1 - seat % 2]
        pages[seat].wait_for_selector("#hand-result .result-tricks")
        assert pages[seat].inner_text("#hand-result .result-tricks b.us") == persian_digits(ours)
        assert pages[seat].inner_text("#hand-result .result-tricks b.them") == persian_digits(
            theirs
        )


def test_reload_and_dropped_connection_restore_the_table(new_page: Callable[..., Page]) -> None:
    """After a reload the same player is back in the same seat with the same cards, tricks and
    score, without doing anything; after a dropped socket the client reconnects by itself,
    re-joins with the last version it processed and gets only the events it missed. (The only
    human being away, the practice game pauses meanwhile, so nothing moves.)"""
    page = new_page(viewport=PHONE)
    sent: list[str] = []
    received: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framesent", lambda f: sent.append(str(f)))
        ws.on("framereceived", lambda f: received.append(str(f)))

    page.on("websocket", watch)
    start_practice(page, "Nima", target=3)
    played = 0
    while played < 3:
        page.wait_for_selector(DECISION, state="attached")
        if take_turn(page) not in (None, "trump", "over"):
            played += 1
    page.wait_for_selector(".hand .card.legal")  # our turn: nothing moves until we play
    state = (
        "({hand: [...s.game.hand].sort(), seat: s.mySeat, tricks: s.game.tricks.length,"
        " score: s.game.score, code: s.code})"
    )
    before = store(page, state)
    page.reload()
    page.wait_for_selector(".hand .card.legal")
    assert store(page, state) == before
    assert sorted(hand_cards(page)) == before["hand"]
    assert store(page, "s.table.seats[s.mySeat].name") == "Nima"

    # Drop the socket as a network failure would.
    sent.clear()
    received.clear()
    version = page.evaluate(
        "(() => { const v = hokmStore.version; hokmConn.ws.close(); return v; })()"
    )
    page.wait_for_function("window.hokmConn.isOpen() && window.hokmStore.version !== null")
    page.wait_for_function("window.hokmConn.lastVersion !== null")
    resumes = [json.loads(f) for f in sent if '"last_version"' in f]
    assert resumes and resumes[-1]["type"] == "join" and resumes[-1]["last_version"] >= version
    page.wait_for_function("document.querySelector('.hand .card.legal') !== null")
    assert any(json.loads(f).get("type") == "events" for f in received)
    assert store(page, "[...s.game.hand].sort()") == before["hand"]
    assert take_turn(page) is not None

    # Home in the middle of the game: the page offers the way back to the table.
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    back = page.locator("#room-game-go")
    assert before["code"] in page.inner_text("#room-game")
    shot(page, "phone-home-game-on")
    back.click()
    page.wait_for_selector(".table-view .hand .card")
    assert store(page, "s.code") == before["code"]


def test_a_game_left_behind_is_left_from_the_home_page(new_page: Callable[..., Page]) -> None:
    """A practice game whose player went home for good: the home page offers the way back and,
    asked twice, the way out («ترک بازی»: a loss, a bot plays on). A quick match refuses a
    player seated in a game in progress, and the way out was back to the table and back."""
    page = new_page(viewport=PHONE)
    start_practice(page, "Shirin", target=3)
    code = store(page, "s.code")
    me = store(page, "s.you.player_id")
    page.goto("/")
    page.wait_for_selector("#room-game-leave")
    page.click("#room-game-leave")  # asked once more; Escape takes it back
    page.wait_for_selector("#room-game-leave.danger")
    page.keyboard.press("Escape")
    page.wait_for_selector("#room-game-leave:not(.danger)")
    assert page.locator("#room-game-leave-warning").count() == 0
    page.click("#room-game-leave")  # asked once more, with what it means
    page.wait_for_selector("#room-game-leave.danger")
    assert "باخت" in page.inner_text("#room-game-leave-warning")
    assert page.evaluate("document.activeElement.id") == "room-game-leave"
    shot(page, "phone-home-leave-game-sure")
    page.click("#room-game-leave")
    page.wait_for_selector("#room-game", state="detached")
    said = page.locator("#toasts .toast", has_text="بیرون آمدید").inner_text()
    assert said.startswith(f"از بازی اتاق \u2068{code}\u2069 بیرون آمدید"), said
    room = page.evaluate(f"fetch('/api/rooms/{code}').then((r) => r.json())")
    assert all(seat["player"] != me for seat in room["seats"]), room["seats"]
    assert page.evaluate("fetch('/api/session').then((r) => r.json())")["playing"] == []
    page.reload()  # and not offered again
    page.wait_for_selector('.home[data-ready="1"]')
    assert page.locator("#room-game").count() == 0


def test_a_latin_name_in_the_chat_keeps_its_marks_and_the_colon_after_it(
    new_page: Callable[..., Page],
) -> None:
    """In a right-to-left chat line the speaker «Maximilian_» was not set apart: its «_» went
    to the name's start and the «:» came before it («:_Maximilian»). The name is isolated."""
    page = new_page(viewport=DESKTOP)
    create_room(page, "Maximilian_")
    page.wait_for_selector("#chat-input")
    page.fill("#chat-input", "سلام به همه")
    page.click("#chat-send")
    page.wait_for_selector("#chat-log li")
    xs = page.evaluate(
        """() => {
            const b = document.querySelector('#chat-log li b');
            const at = (part) => {
                const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    const i = node.data.indexOf(part);
                    if (i < 0) continue;
                    const r = document.createRange();
                    r.setStart(node, i); r.setEnd(node, i + part.length);
                    return r.getBoundingClientRect().left;
                }
                return null;
            };
            return [at(':'), at('M'), at('n_'), at('_')];
        }"""
    )
    assert xs[0] < xs[1] < xs[2] < xs[3], xs  # «: Maximilian_» from the left


def test_chat_free_text_in_the_lobby_only_phrases_during_a_hand(
    new_page: Callable[..., Page],
) -> None:
    """Free text before the game; during a hand there is no text box (the server refuses free
    text anyway) while preset phrases and emoji are delivered; links are refused in every
    phase."""
    page = new_page(viewport=DESKTOP)
    code = create_room(page, "Shirin")
    assert code
    page.wait_for_selector("#chat-input")
    # The empty box reads right to left in Persian (its «پیام…» at the right edge); typed in,
    # its text sets its direction (dir=auto).
    direction = "getComputedStyle(document.getElementById('chat-input')).direction"
    assert page.evaluate(direction) == "rtl"
    page.fill("#chat-input", "hello")
    assert page.evaluate(direction) == "ltr"
    page.fill("#chat-input", "سلام به همه")
    assert page.evaluate(direction) == "rtl"
    page.click("#chat-send")
    page.wait_for_selector("#chat-log li")
    assert "سلام به همه" in page.inner_text("#chat-log")
    page.fill("#chat-input", "www.example.com")
    page.click("#chat-send")
    page.wait_for_selector("#chat-error")
    assert "www.example.com" not in page.inner_text("#chat-log")
    # Bots on the empty seats, then start: a hand is under way.
    add_bots(page)
    page.click("#start")
    page.wait_for_selector(".table-view")
    page.wait_for_function("['trump', 'play'].includes(window.hokmStore.game.phase)")
    assert "فقط عبارت" in page.inner_text("#chat-mode")
    # No text box to type into during a hand; the server refuses free text all the same.
    assert page.locator("#chat-input").count() == 0
    reply = page.evaluate("hokmConn.command('chat', {text: 'I hold the ace of hearts'})")
    assert reply["type"] == "error", reply
    assert "I hold" not in page.inner_text("#chat-log")
    count = page.locator("#chat-log li").count()
    page.locator(".phrase-btn").first.click()
    page.wait_for_function(f"document.querySelectorAll('#chat-log li').length > {count}")
    page.locator(".emoji-btn").first.click()
    page.wait_for_function(f"document.querySelectorAll('#chat-log li').length > {count + 1}")
    assert page.locator("#chat-error").count() == 0
    shot(page, "desktop-chat")
    # The pause between hands is not in a hand (as the server has it): the text box is there.
    between = (
        "import('/js/chat.js').then((m) =>"
        " m.inHand({game: {phase: %r}, table: {status: 'playing'}}))"
    )
    assert page.evaluate(between % "deal") is False
    assert page.evaluate(between % "play") is True


def test_during_a_game_the_owner_removes_an_onlooker_from_the_chat(
    new_page: Callable[..., Page],
) -> None:
    """An onlooker (a member without a seat) who misbehaves in the chat during a game: the
    owner's «بیرون کردن» by their newest message asks once more, then removes them. No such
    button for a seated player, for the owner's own messages, or on anyone else's page."""
    owner = new_page(viewport=DESKTOP)
    code = create_room(owner, "Leila")
    watcher = new_page(viewport=DESKTOP)
    join_room(watcher, "Mina", code)
    mina = watcher.evaluate("window.hokmStore.you.player_id")
    add_bots(owner)
    owner.click("#start")
    owner.wait_for_selector(".table-view")
    watcher.wait_for_selector(".table-view")
    for page in (watcher, watcher, owner):  # two phrases of Mina's, one of the owner's
        page.wait_for_selector(".phrase-btn")
        count = page.locator("#chat-log li").count()
        page.locator(".phrase-btn").first.click()
        page.wait_for_function(f"document.querySelectorAll('#chat-log li').length > {count}")
    owner.wait_for_function("document.querySelectorAll('#chat-log li').length >= 3")
    button = f'[id="chat-kick-{mina}"]'
    owner.wait_for_selector(button)
    assert owner.locator("#chat-log button.kick").count() == 1  # by her newest message only
    assert owner.locator("#chat-log li").nth(1).locator("button.kick").count() == 1
    assert watcher.locator("#chat-log button.kick").count() == 0  # only the owner may
    assert owner.get_attribute(button, "aria-label") == "بیرون کردن \u2068Mina\u2069 از اتاق"
    owner.click(button)
    owner.wait_for_selector(f"{button}.danger")
    shot(owner, "desktop-chat-kick-sure")
    owner.click(button)
    watcher.wait_for_selector("#room-gone")
    assert watcher.inner_text("#room-gone") == "صاحب اتاق شما را از این اتاق بیرون کرده است."
    owner.wait_for_function(f"!window.hokmStore.table.members.some((m) => m.player === {mina!r})")
    assert owner.locator("#chat-log button.kick").count() == 0
    assert owner.evaluate("window.hokmStore.game.phase") in ("trump", "play")  # the game goes on


def test_a_newcomer_during_a_hand_signs_the_chat_as_guest_on_an_english_page(
    new_page: Callable[..., Page],
) -> None:
    """Come in during a hand, a member is «مهمان» until it ends (their name could tell a
    hand); on an English page their chat is signed "Guest", as the members' list says, not
    with the Persian placeholder; also after a reload (the snapshot's chat)."""
    owner = new_page(viewport=DESKTOP, lang="en")
    code = create_room(owner, "Leila")
    add_bots(owner)
    owner.click("#start")
    owner.wait_for_selector(".table-view")
    owner.wait_for_function("['trump', 'play'].includes(window.hokmStore.game.phase)")
    newcomer = new_page(viewport=DESKTOP)
    watch_room(newcomer, "AS KH QD", code)
    newcomer.wait_for_selector(".emoji-btn")
    newcomer.locator(".emoji-btn").first.click()
    owner.wait_for_selector("#chat-log li")
    for _ in range(2):  # as the event came, then from the snapshot after a reload
        line = owner.inner_text("#chat-log li")
        assert "Guest" in line and "مهمان" not in line and "AS KH" not in line, line
        owner.reload()
        owner.wait_for_selector("#chat-log li")


def test_no_chat_kick_button_beside_a_player_who_sat_down_while_the_owner_watched(
    new_page: Callable[..., Page],
) -> None:
    """A member who joined and then sat down (``seat_changed``, after the owner's page had
    the room) is a player, not an onlooker: no «بیرون کردن» by their chat during the game
    (the server would refuse it, ``wrong_status``)."""
    owner = new_page(viewport=DESKTOP)
    code = create_room(owner, "Leila")
    player = new_page(viewport=DESKTOP)
    join_room(player, "Mina", code)
    mina = player.evaluate("window.hokmStore.you.player_id")
    sit(player, 1)
    add_bots(owner, (2, 3))
    owner.wait_for_function("window.hokmStore.table.seats[1].kind === 'human'")
    owner.click("#start")
    owner.wait_for_selector(".table-view")
    player.wait_for_selector(".phrase-btn")
    player.locator(".phrase-btn").first.click()
    owner.wait_for_function("document.querySelectorAll('#chat-log li').length >= 1")
    assert owner.locator(f'[id="chat-kick-{mina}"]').count() == 0


def open_chat(page: Page) -> None:
    page.wait_for_selector("#chat-toggle")
    if page.get_attribute("#chat-toggle", "aria-expanded") != "true":
        page.click("#chat-toggle")
    page.wait_for_selector("#chat-input")


def say(page: Page, text: str) -> None:
    count = page.locator("#chat-log li").count()
    page.fill("#chat-input", text)
    page.click("#chat-send")
    page.wait_for_function(f"document.querySelectorAll('#chat-log li').length > {count}")


def test_a_player_mutes_another_players_chat_and_a_full_room_says_so(
    new_page: Callable[..., Page],
) -> None:
    """Leila mutes Omid from his message: his messages, earlier and later, are hidden from
    her (and from the unread count), also after a reload, while he still sees them; her own
    messages have no mute button; one click shows his messages again."""
    leila = new_page(viewport=PHONE)
    code = create_room(leila, "Leila")
    omid = new_page(viewport=DESKTOP)
    join_room(omid, "Omid", code)
    open_chat(leila)
    open_chat(omid)
    say(leila, "سلام")
    # With her chat folded, his message shows as one unread (hers are not counted).
    leila.click("#chat-toggle")
    say(omid, "پیام اول امید")
    leila.wait_for_selector("#chat-unread")
    assert leila.inner_text("#chat-unread .shown") == "۱"
    assert leila.inner_text("#chat-unread .sr-only") == "۱ پیام تازه"
    open_chat(leila)
    assert leila.locator("#chat-unread").count() == 0
    leila.wait_for_selector("#chat-log li:has-text('پیام اول امید')")
    # A screen reader hears the newest message from a hidden live region, without the mute
    # button's label (the log itself is not live).
    assert leila.text_content("#chat-announce") == "Omid: پیام اول امید"
    assert leila.get_attribute("#chat-log", "aria-live") is None
    assert leila.locator("#chat-log li:has-text('سلام') .mute-btn").count() == 0
    button = leila.locator("#chat-log li:has-text('پیام اول امید') .mute-btn")
    # (a Latin name in a Persian sentence is set apart by bidi isolates, U+2068 … U+2069)
    assert button.get_attribute("aria-label") == "پنهان کردن پیام‌های \u2068Omid\u2069"
    shot(leila, "phone-chat-mute-button")
    button.click()
    leila.wait_for_selector("#chat-muted")
    # The focus goes to the way back (it fell to the page's body, or to the next mute button).
    assert leila.evaluate("document.activeElement.classList.contains('unmute-btn')")
    assert "امید" not in leila.inner_text("#chat-log")
    assert "سلام" in leila.inner_text("#chat-log")
    say(omid, "پیام دوم امید")
    assert "پیام دوم امید" in omid.inner_text("#chat-log")
    say(leila, "هنوز اینجام")  # delivered after his second message
    assert "امید" not in leila.inner_text("#chat-log")
    shot(leila, "phone-chat-muted")
    leila.click("#chat-toggle")  # folded: his next message is not counted as new
    say(omid, "پیام سوم امید")
    leila.wait_for_function("window.hokmStore.chat.some(m => m.text === 'پیام سوم امید')")
    assert leila.locator("#chat-unread").count() == 0
    open_chat(leila)
    leila.reload()
    open_chat(leila)
    leila.wait_for_selector("#chat-muted")
    assert "امید" not in leila.inner_text("#chat-log")
    leila.click("#chat-muted .unmute-btn")
    leila.wait_for_selector("#chat-log li:has-text('پیام دوم امید')")
    assert leila.locator("#chat-muted").count() == 0
    assert "پیام اول امید" in leila.inner_text("#chat-log")
    # Leila fills the other seats with bots: Omid, without a seat, is told why.
    assert omid.locator("#seats-full").count() == 0
    add_bots(leila)
    omid.wait_for_selector("#seats-full")
    assert "هر چهار صندلی پر است" in omid.inner_text("#seats-full")
    # Leila gives Omid her seat: she is still the owner, and both can tell.
    leila.click('.seat-card[data-seat="0"] button.stand')
    leila.wait_for_function("window.hokmStore.mySeat === null")
    omid.click('.seat-card[data-seat="0"] button.sit')
    omid.wait_for_function("window.hokmStore.mySeat === 0")
    omid.wait_for_selector("#unseated:has-text('Leila\u2069 (صاحب اتاق)')")
    leila.wait_for_selector("#seats-full:has-text('صاحب اتاق')")
    assert leila.locator("#start").is_enabled()
    shot(leila, "phone-lobby-owner-without-seat")


def test_leaving_in_one_tab_takes_the_other_tab_out_of_the_room(
    new_page: Callable[..., Page],
) -> None:
    """The same player has the room open in two tabs and leaves it in one: the other tab
    says so and goes back to the home page instead of showing a room she is not in."""
    first = new_page()
    code = create_room(first, "Ali")
    second = first.context.new_page()  # same browser: the same player
    second.goto(f"/r/{code}")
    second.wait_for_selector(".lobby")
    first.click("#leave")
    second.wait_for_function("location.hash === '#/'")
    second.wait_for_selector("#create")
    toasts = second.inner_text("#toasts")
    assert "شما در پنجرهٔ دیگری از این اتاق بیرون رفتید." in toasts


def test_a_spectator_is_told_so_at_the_table(new_page: Callable[..., Page]) -> None:
    """Somebody who opens the link of a table already playing with its four seats taken
    watches it: a lasting note says so (no hand of cards is shown), and the panels the
    players needed before the first trick (the rules, the ace draw) are folded once play
    has begun, so the table and the chat stay in view on a phone."""
    player = new_page(viewport=PHONE)
    start_practice(player, "Sara", level="medium")
    # The names under the drawn aces keep their own direction: a Latin name cut short keeps
    # its start ("walke…"), as in the top bar, not its end ("…ker4354").
    player.wait_for_selector("#ace-draw .mini-slot > span.small", state="attached")
    dirs = player.eval_on_selector_all(
        "#ace-draw .mini-slot > span.small", "els => els.map(e => e.dir)"
    )
    assert dirs and set(dirs) == {"auto"}, dirs
    code = store(player, "s.table.code")
    watcher = new_page(viewport=PHONE)
    watcher.goto(f"/r/{code}")
    # Told before giving a name that the game is under way and full: they will watch.
    watcher.wait_for_selector("#watch-only")
    assert watcher.inner_text("#join") == "تماشای بازی"
    watcher.fill("#name", "Nima")
    watcher.click("#join")
    watcher.wait_for_selector(".table-view")
    assert "تماشاگر" in watcher.inner_text("#spectator-note")
    assert watcher.locator(".hand .card").count() == 0
    for _ in range(200):  # Sara plays on until the first trick has been played
        if store(player, "(s.game.tricks || []).length") >= 1:
            break
        if take_turn(player) is None:
            player.wait_for_timeout(50)
    player.wait_for_function("!document.querySelector('#table-rules').open")
    assert player.locator("#ace-draw[open]").count() == 0
    shot(watcher, "phone-spectator")


def _short_turns_with_bots(page: Page, *, trump_seconds: float) -> None:
    """A room of Sara's and three easy bots, 1.5 s a turn, started."""
    create_room(page, "Sara")
    for seat in (1, 2, 3):
        page.evaluate(f"hokmConn.command('add_bot', {{seat: {seat}, level: 'easy'}})")
    page.wait_for_function("hokmStore.table.seats.every(s => s.kind !== 'empty')")
    options = f"{{trump_seconds: {trump_seconds}, turn_seconds: 1.5}}"
    reply = page.evaluate(f"hokmConn.command('set_rules', {{options: {options}}})")
    assert reply["type"] == "ack", reply
    page.click("#start")


def test_a_player_who_times_out_is_told_and_comes_back_with_a_button(
    new_page: Callable[..., Page],
) -> None:
    """Time running out is said to the player in their own words (trump or card chosen for
    them); after two misses the banner speaks to them and «برگشتم» gives the seat back."""
    page = new_page(viewport=PHONE)
    # A card's notice goes at the player's next card turn, which bots playing at once bring
    # within a fraction of a second: every toast is caught as it comes (_SEEN_TOASTS).
    page.add_init_script(_SEEN_TOASTS)
    page.add_init_script(LIVE_LOG)
    _short_turns_with_bots(page, trump_seconds=1.5)
    page.wait_for_selector(".table-view")
    page.wait_for_function("window.toastsSeen.some((t) => t.includes('وقت شما تمام شد'))")
    said = page.evaluate("window.toastsSeen.find((t) => t.includes('وقت شما تمام شد'))")
    # The first decision that timed out: naming trump if this player is the first hakem.
    # What the bot did is said in words: the suit it named, the card it played.
    hakem = store(page, "s.game.hakem === s.mySeat && s.game.hand_number === 0")
    suit = "(پیک ♠|دل ♥|خشت ♦|گشنیز ♣)"
    card = "(آس|شاه|بی‌بی|سرباز|۱۰|[۲-۹]) (پیک|دل|خشت|گشنیز)"
    expected = f"ربات {suit} را حکم کرد" if hakem else f"ربات {card} را به جای شما بازی کرد"
    assert re.fullmatch(f"وقت شما تمام شد؛ {expected}\\.", said), said
    page.wait_for_selector("#self-away #back-btn")
    assert "شما دو نوبت بازی نکرده‌اید" in page.inner_text("#self-away")
    assert "Sara" not in page.inner_text("#self-away")  # spoken to, not about
    # Said once to a screen reader (the banner comes with its words: not a live region), its
    # button left out of what is said
    away = [x for x in announced(page) if "شما دو نوبت بازی نکرده‌اید" in x]
    assert len(away) == 1 and "برگشتم" not in away[0], announced(page)
    assert page.get_attribute("#away", "role") is None
    shot(page, "phone-self-away")
    page.click("#back-btn")
    page.wait_for_function(
        "hokmStore.table.seats[hokmStore.mySeat].away === false"
        " && !document.querySelector('#self-away')"
    )


# Every toast the page shows, however briefly, in ``window.toastsSeen``.
_SEEN_TOASTS = """
window.toastsSeen = [];
new MutationObserver((changes) => {
  for (const change of changes)
    for (const node of change.addedNodes)
      if (node.classList?.contains("toast")) window.toastsSeen.push(node.textContent);
}).observe(document, { childList: true, subtree: true });
"""


def test_time_ran_out_is_no_longer_said_once_the_next_turn_comes(
    new_page: Callable[..., Page],
) -> None:
    """«وقت شما تمام شد؛ یک برگ به جای شما بازی می‌شود.» stays up 6 s, longer than bots take
    to play round: it was still there, in red, under «نوبت شماست» of the next turn."""
    page = new_page(viewport=PHONE)
    page.add_init_script(_SEEN_TOASTS)
    _short_turns_with_bots(page, trump_seconds=20)
    page.wait_for_selector(DECISION)
    if page.locator(TRUMP_BUTTONS).count():  # the hakem names trump in time
        take_turn(page)
    timed_out = "را به جای شما بازی کرد"
    # A card's time ran out, and a card was played for this player: said (the bots here play
    # at once, so the next turn may come within milliseconds)
    page.wait_for_function(f"window.toastsSeen.some((t) => t.includes({timed_out!r}))")
    page.wait_for_function("hokmStore.legal('play').length > 0")  # the next card of theirs
    assert page.locator(".toast", has_text=timed_out).count() == 0
    take_turn(page)  # (in time: not away)


def test_rule_options_take_persian_digits_and_say_which_field_is_wrong(
    new_page: Callable[..., Page],
) -> None:
    page = new_page(viewport=DESKTOP)
    create_room(page, "Omid")
    page.click(".rules-edit details > summary")
    target = page.locator("#opt-target_points")
    assert target.input_value() == "۷"  # Persian digits, like every other number on the page
    target.fill("۰")
    page.click("#apply-rules")
    error = page.locator(".toast.error")
    error.first.wait_for()
    assert "امتیاز پایان بازی" in error.first.inner_text()  # the field, in the player's words
    assert store(page, "s.table.rules.target_points") == 7  # nothing changed
    target.fill("۹۹۹")  # a game that would never end: the room's ceiling is said
    page.click("#apply-rules")
    page.locator(".toast.error", has_text="۲۱").wait_for()
    assert store(page, "s.table.rules.target_points") == 7
    target.fill("۵")
    page.locator("#opt-kot_points").fill("3")  # Latin digits are fine too
    shot(page, "desktop-rule-options")
    page.click("#apply-rules")
    page.wait_for_function("hokmStore.table.rules.target_points === 5")
    assert store(page, "s.table.rules.kot_points") == 3
    assert page.locator(".toast", has_text="قوانین تازه اعمال شد").count() == 1
    assert page.locator(".toast.error").count() == 0  # the earlier refusal is cleared
    assert page.locator("#opt-target_points").input_value() == "۵"
    # Starting from far down the lobby, the table opens at its top.
    for seat in (1, 2, 3):
        page.evaluate(f"hokmConn.command('add_bot', {{seat: {seat}}})")
    page.wait_for_function("hokmStore.table.seats.every(s => s.kind !== 'empty')")
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    page.evaluate("document.querySelector('#start').click()")  # as a tap: no scrolling first
    page.wait_for_selector(".table-view .hand .card")
    assert page.evaluate("document.body.scrollHeight > innerHeight")  # the page could stay down
    assert page.evaluate("window.scrollY") == 0
    # The lobby's "new rules" toast does not linger over the table (it used to, for 3.5 s).
    assert page.locator("#toasts .toast").count() == 0, page.inner_text("#toasts")


def test_back_after_a_while_away_a_player_is_told_the_game_went_on(
    new_page: Callable[..., Page],
) -> None:
    """Two friends with two bots: one closes the tab, the other plays on (a bot plays the
    absent seat). Coming back later the absent player is told that the game went on without
    them, with the hand and the score; their home page from another browser where they never
    played offers the way back too (the server knows where they sit: /api/session)."""
    owner, friend = new_page(lang="en"), new_page(lang="en")
    code = create_room(owner, "Owner")
    join_room(friend, "Friend", code)
    sit(friend, 2)
    add_bots(owner, (1, 3))
    owner.click("#start")
    friend.wait_for_selector(".table-view")
    context = friend.context
    friend.close()
    owner.wait_for_function("window.hokmStore.table.seats[2].connected === false")
    for _ in range(200):  # the owner plays on; a bot plays for the friend
        owner.wait_for_selector(DECISION, state="attached")
        if store(owner, "(s.game.tricks || []).length >= 2 || s.game.hand_number > 0"):
            break
        take_turn(owner)
    back = context.new_page()
    back.goto("/")
    back.wait_for_selector('.home[data-ready="1"]')
    assert code in back.inner_text("#room-game")  # offered the way back
    # The friend was last here "a minute ago" (not a reload a moment ago).
    back.evaluate(
        "(() => { const p = JSON.parse(localStorage.getItem('hokm.place'));"
        " p.at = Date.now() - 60000; localStorage.setItem('hokm.place', JSON.stringify(p)); })()"
    )
    back.click("#room-game-go")
    back.wait_for_selector(".table-view")
    toast = back.locator(".toast", has_text="while you were away")
    toast.wait_for()
    assert "score: us" in toast.inner_text()
    # A reload a moment later says nothing more.
    back.reload()
    back.wait_for_selector(".table-view .hand .card")
    back.wait_for_timeout(300)
    assert back.locator(".toast", has_text="while you were away").count() == 0
    # The connection lost (not the tab closed) for a while: told too, when it comes back.
    context.set_offline(True)  # (no new connection; the open socket is dropped by hand)
    back.evaluate("window.hokmConn.ws.close()")
    back.wait_for_function("!window.hokmConn.isOpen()")
    owner.wait_for_function("window.hokmStore.table.seats[2].connected === false")
    back.evaluate(  # gone "a minute" (the test does not wait that long)
        "(() => { const p = JSON.parse(localStorage.getItem('hokm.place'));"
        " p.at = Date.now() - 60000; localStorage.setItem('hokm.place', JSON.stringify(p)); })()"
    )
    tricks = store(owner, "s.game.tricks.length + 13 * s.game.hand_number")
    for _ in range(200):
        owner.wait_for_selector(DECISION, state="attached")
        if store(owner, f"s.game.tricks.length + 13 * s.game.hand_number > {tricks}"):
            break
        take_turn(owner)
    context.set_offline(False)
    back.locator(".toast", has_text="while you were away").wait_for()
    # The tab in the background for a while, its connection open (a phone freezes such a
    # tab; the frames wait and are applied at once when it is shown): shown again, it tells
    # what went on too. (Headless Chromium is never hidden: the page is told it is. Its
    # turns are played by clicks, as the test cannot wait out the turn timer.)
    back.evaluate(_SET_VISIBILITY, "hidden")
    back.evaluate(  # hidden "a minute" ago
        "(() => { const p = JSON.parse(localStorage.getItem('hokm.place'));"
        " p.at = Date.now() - 60000; localStorage.setItem('hokm.place', JSON.stringify(p)); })()"
    )
    back.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
    tricks = store(owner, "s.game.tricks.length + 13 * s.game.hand_number")
    for _ in range(200):
        if store(owner, f"s.game.tricks.length + 13 * s.game.hand_number > {tricks}"):
            break
        owner.wait_for_timeout(100)
        for page in (owner, back):
            if page.locator(DECISION).count():
                take_turn(page)
    # The connection also dropped and came back while hidden: nothing is said yet (a toast
    # in a hidden tab is gone before anyone sees it), and once shown, it is said once.
    back.evaluate("window.hokmConn.ws.close()")
    back.wait_for_function("!window.hokmConn.isOpen()")
    back.wait_for_function("window.hokmConn.isOpen()")
    back.wait_for_timeout(500)
    assert back.locator(".toast", has_text="while you were away").count() == 0
    back.evaluate(_SET_VISIBILITY, "visible")
    back.locator(".toast", has_text="while you were away").wait_for()
    back.wait_for_timeout(800)
    assert back.locator(".toast", has_text="while you were away").count() == 1


# Tells the page it is hidden or shown, as a browser does when the tab goes to the background.
_SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_the_home_page_offers_a_game_in_progress_to_its_player_and_no_401s(
    new_page: Callable[..., Page], server: str
) -> None:
    """/api/session says who the caller is (200 even for nobody: a first visit logs no
    refused request) and where their game goes on, so another browser of the same player is
    offered the way back."""
    fresh = new_page()
    refused: list[str] = []
    fresh.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    fresh.goto("/")
    fresh.wait_for_selector('.home[data-ready="1"]')
    assert refused == []
    assert fresh.locator("#room-game").count() == 0
    start_practice(fresh, "Sima", target=3)
    code = store(fresh, "s.code")
    token = fresh.evaluate("localStorage.getItem('hokm.token')")
    other = new_page()  # the same guest in another browser: the token, not the remembered room
    other.add_init_script(f"localStorage.setItem('hokm.token', {json.dumps(token)})")
    other.goto("/")
    other.wait_for_selector('.home[data-ready="1"]')
    assert code in other.inner_text("#room-game")
    assert other.evaluate("localStorage.getItem('hokm.room')") is None


def test_players_away_are_said_in_one_line(new_page: Callable[..., Page]) -> None:
    """Two of three people close their pages during a game: the one left is told in one line
    who is away and that bots play for them (a line each pushed the hand below the fold on a
    narrow phone)."""
    pages = [new_page(viewport=PHONE) for _ in range(3)]
    code = create_room(pages[0], "Ali")
    for seat, (page, name) in enumerate(zip(pages[1:], ("Bita", "Cyrus"), strict=True), start=1):
        join_room(page, name, code)
        sit(page, seat)
    pages[0].click("#add-bot-3")
    pages[0].wait_for_function("window.hokmStore.table.seats[3].kind === 'bot'")
    pages[0].click("#start")
    pages[0].wait_for_selector(".table-view")
    pages[1].close()
    pages[2].close()
    pages[0].wait_for_function(
        "document.querySelector('#away')?.innerText.includes('Cyrus')"
        " && document.querySelector('#away').innerText.includes('Bita')"
    )
    lines = pages[0].locator("#away > div").all_inner_texts()
    assert len(lines) == 1 and "قطع شده‌اند" in lines[0] and "ربات‌ها" in lines[0], lines
    shot(pages[0], "phone-two-away")


def test_the_hakem_sees_the_five_cards_beside_the_trump_buttons_on_a_small_phone(
    new_page: Callable[..., Page],
) -> None:
    """At 320×640 the four suits sit in one row, so the hakem's five cards are on the screen
    without scrolling while the trump timer runs (two rows of suits pushed them below)."""
    page = new_page(viewport={"width": 320, "height": 640})
    create_room(page, "Omid")
    page.evaluate("hokmConn.command('set_rules', {options: {first_hakem: 'manual'}})")
    page.wait_for_function("hokmStore.table.rules.first_hakem === 'manual'")
    for seat in (1, 2, 3):
        page.evaluate(f"hokmConn.command('add_bot', {{seat: {seat}}})")
    page.wait_for_function("hokmStore.table.seats.every(s => s.kind !== 'empty')")
    page.evaluate("document.querySelector('#start').click()")
    page.click('#choose-hakem .hakem-btn[data-seat="0"]')
    page.wait_for_selector("#choose-trump .suit-btn")
    page.wait_for_function("document.querySelectorAll('.hand .card').length === 5")
    page.wait_for_timeout(300)  # the deal's animation
    tops = page.eval_on_selector_all(
        "#choose-trump .suit-btn", "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(tops) == 4 and len(set(tops)) == 1, tops  # one row
    bottoms = page.eval_on_selector_all(
        ".hand .card", "els => els.map(e => e.getBoundingClientRect().bottom)"
    )
    assert page.evaluate("window.scrollY") == 0
    assert max(bottoms) <= page.evaluate("innerHeight"), bottoms
    shot(page, "phone320-trump-choice")


def test_the_owner_removes_a_stranger_who_is_told_and_kept_out(
    new_page: Callable[..., Page],
) -> None:
    """«بیرون کردن» beside a member in the lobby asks once more, then removes them: their
    page says the owner removed them, with the way home, and the room's link no longer lets
    them in. Others see nothing of the button."""
    owner = new_page(viewport=PHONE)
    code = create_room(owner, "Leila")
    stranger = new_page(viewport=PHONE)
    join_room(stranger, "Kaveh", code)
    sit(stranger, 2)
    assert stranger.locator("button.kick").count() == 0  # only the owner may
    card = '.seat-card[data-seat="2"] button.kick'
    owner.wait_for_selector(card)
    # (the name set apart from the Persian around it)
    assert owner.get_attribute(card, "aria-label") == "بیرون کردن \u2068Kaveh\u2069 از اتاق"
    owner.click(card)
    owner.wait_for_selector(f"{card}.danger")
    assert owner.inner_text(card) == "مطمئنید؟ بیرون کن"
    shot(owner, "phone-lobby-kick-sure")
    owner.click(card)
    stranger.wait_for_selector("#room-gone")
    assert stranger.inner_text("#room-gone") == "صاحب اتاق شما را از این اتاق بیرون کرده است."
    shot(stranger, "phone-removed")
    owner.wait_for_function("window.hokmStore.table.seats[2].kind === 'empty'")
    stranger.goto(f"/r/{code}")  # the link again: kept out, told why
    stranger.wait_for_selector("#room-gone")
    members = owner.evaluate("window.hokmStore.table.members.map((m) => m.name)")
    assert "Kaveh" not in members
    # One who waits without a seat is listed by name, with the same button.
    watcher = new_page(viewport=PHONE)
    join_room(watcher, "Mina", code)
    owner.wait_for_selector("#unseated li button.kick")
    assert "Mina" in owner.inner_text("#unseated li")


_FAKE_SHARE = """
window.shared = [];
Navigator.prototype.share = function (data) {
  window.shared.push(data);
  return window.shareAnswer === 'abort'
    ? Promise.reject(new DOMException('closed', 'AbortError'))
    : Promise.resolve();
};
"""


def test_an_invitation_goes_through_the_phones_share_sheet_and_its_code_joins(
    new_page: Callable[..., Page],
) -> None:
    """Where the browser has a share sheet (phones), the lobby offers «فرستادن دعوت»: a
    Persian sentence with the room's code and its link, for Telegram or a text message. The
    invitation pasted whole into the code field (its code carries the invisible marks that
    keep a Latin code in place in Persian) joins the room. A share closed unsent says nothing;
    without a share sheet (most desktops) only the link's copy is offered."""
    owner = new_page(viewport=PHONE)
    owner.add_init_script(_FAKE_SHARE)
    code = create_room(owner, "نگار")
    owner.click("#share-invite")
    owner.wait_for_function("window.shared.length === 1")
    sent = owner.evaluate("window.shared[0]")
    assert sent["url"] == owner.input_value("#share-link")
    assert sent["url"].endswith(f"/r/{code}")
    assert sent["text"].startswith("بیا با هم حکم بازی کنیم")
    assert code in sent["text"] and "\u2068" in sent["text"]  # the code set apart in Persian
    shot(owner, "phone-lobby-share")
    # Closed unsent: no copy, no notice.
    owner.evaluate("window.shareAnswer = 'abort'")
    owner.click("#share-invite")
    owner.wait_for_function("window.shared.length === 2")
    owner.wait_for_timeout(300)
    assert owner.locator(".toast").count() == 0
    # A friend pastes the code as it came, in its sentence's marks.
    friend = new_page()
    friend.add_init_script("delete Navigator.prototype.share")
    friend.goto("/")
    enter_name(friend, "Sam")
    pasted = sent["text"].split(": ")[-1]
    assert pasted != code and pasted.strip("\u2068\u2069") == code
    friend.fill("#code", sent["text"])  # the whole invitation, as a messaging app pastes it
    friend.click("#join")
    friend.wait_for_selector(".lobby")
    assert friend.inner_text("#room-code").strip() == code
    assert friend.locator("#copy-link").count() == 1
    assert friend.locator("#share-invite").count() == 0  # no share sheet here


def _ali_and_bita_with_two_bots(owner: Page, guest: Page) -> None:
    """Ali's room, Bita at seat 2 (his partner), easy bots at 1 and 3: ready to start."""
    code = create_room(owner, "Ali")
    join_room(guest, "Bita", code)
    sit(guest, 2)
    for seat in (1, 3):
        owner.evaluate(f"hokmConn.command('add_bot', {{seat: {seat}, level: 'easy'}})")
    owner.wait_for_function("hokmStore.table.seats.every(s => s.kind !== 'empty')")


def test_a_seated_player_leaves_the_game_and_a_bot_plays_on_for_the_others(
    new_page: Callable[..., Page],
) -> None:
    """«ترک بازی» at the table (there was none: closing the page kept the seat until the
    grace ran out, then cancelled everyone's game): asked twice, it leaves the room, a bot
    takes the seat and the game goes on for the owner; «لغو» withdraws the question."""
    owner, guest = new_page(viewport=DESKTOP), new_page(viewport=PHONE)
    _ali_and_bita_with_two_bots(owner, guest)
    owner.click("#start")
    guest.wait_for_selector(".table-view")
    guest.click("#leave-game")
    assert "باخت حساب می‌شود" in guest.inner_text("#leave-game-warning")
    assert guest.evaluate("document.activeElement.id") == "leave-game-sure"
    guest.click("#leave-game-cancel")  # withdrawn: still at the table
    assert guest.locator("#leave-game-sure").count() == 0 and guest.is_visible(".table-view")
    guest.set_viewport_size(DESKTOP)  # where notes sit at the foot, over the question
    guest.click("#leave-game")
    box = guest.evaluate("document.getElementById('toasts').getBoundingClientRect().top")
    assert box < DESKTOP["height"] / 2, box  # at the top while the question is asked
    guest.set_viewport_size(PHONE)
    shot(guest, "phone-leave-game")
    guest.click("#leave-game-sure")
    guest.wait_for_selector('.home[data-ready="1"]')
    guest.locator("#toasts .toast", has_text="از بازی بیرون آمدید").wait_for()
    assert guest.locator(".toast", has_text="پنجرهٔ دیگری").count() == 0
    # The owner's game goes on with a bot in seat 2, which plays its cards.
    owner.wait_for_function(
        "hokmStore.table.seats[2].kind === 'bot' && hokmStore.table.status === 'playing'"
    )
    owner.locator(".toast", has_text="بازی را ترک کرد").wait_for()  # not just a new name
    # … to the hand's end: the bot played the cards of the seat the guest left
    for _ in range(30):
        if store(owner, "s.game.hand_number > 0 || s.table.status === 'game_over'"):
            break
        owner.wait_for_selector(DECISION, state="attached")
        take_turn(owner)
    assert store(owner, "s.game.hand_number > 0 || s.table.status === 'game_over'")
    assert store(owner, "s.table.seats[2].kind") == "bot"


def test_a_player_whose_connection_comes_back_is_said_to_be_back(
    new_page: Callable[..., Page],
) -> None:
    """Bita's page goes (her seat kept, a bot playing for her) and comes back: the others see
    her in the away banner, then «Bita برگشت.» as the line goes, said once to a screen
    reader too (the page listened for event kinds the server never sends: nothing said it)."""
    owner, guest = new_page(viewport=PHONE), new_page(viewport=PHONE)
    owner.add_init_script(LIVE_LOG)
    _ali_and_bita_with_two_bots(owner, guest)
    owner.reload()  # (the live log from here on)
    owner.wait_for_selector(".lobby")
    owner.click("#start")
    guest.wait_for_selector(".table-view")
    context = guest.context
    guest.close()  # her page goes
    owner.wait_for_function("document.querySelector('#away')?.innerText.includes('Bita')")
    again = context.new_page()  # and comes back (the same browser: the same guest)
    again.goto(owner.url)
    again.wait_for_selector(".table-view")
    owner.locator("#toasts .toast", has_text="برگشت").wait_for()
    assert (
        owner.locator("#toasts .toast", has_text="برگشت").inner_text() == "\u2068Bita\u2069 برگشت."
    )
    owner.wait_for_selector("#away", state="detached")
    assert [x for x in announced(owner) if "برگشت" in x] == ["\u2068Bita\u2069 برگشت."]
    assert again.locator("#toasts .toast", has_text="برگشت").count() == 0  # not to herself


def _practice_to_a_card_of_mine(page: Page) -> str:
    """A practice game against naive bots, on to this player's first card to play: one of
    the playable ones."""
    start_practice(page, "Sara", level="naive")
    page.wait_for_selector(DECISION)
    if page.locator(TRUMP_BUTTONS).count():
        take_turn(page)
    page.wait_for_selector(".hand .card.legal")
    return str(page.get_attribute(".hand .card.legal", "data-card"))


def test_a_card_clicked_while_offline_is_not_sent_and_stays_in_the_hand(
    new_page: Callable[..., Page],
) -> None:
    """Offline, a card clicked would wait in the socket and land after the bot had played
    for the player: it is not sent, the player is told, and the card stays playable."""
    page = new_page(viewport=PHONE)
    card = _practice_to_a_card_of_mine(page)
    page.context.set_offline(True)
    page.wait_for_function("!navigator.onLine")
    page.wait_for_timeout(100)  # (the page hears of it by the 'offline' event)
    page.click(f'.hand .card[data-card="{card}"]')
    page.locator("#toasts .toast.error", has_text="حرکت شما فرستاده نشد").wait_for()
    assert card in hand_cards(page)
    assert page.locator(f'.hand .card.legal[data-card="{card}"]').count() == 1
    page.context.set_offline(False)
    page.wait_for_function("navigator.onLine && hokmConn.isOpen()", timeout=15000)
    page.click(f'.hand .card[data-card="{card}"]')
    page.wait_for_function(f"!hokmStore.game.hand.includes('{card}')")


def test_a_card_is_sent_when_the_browser_says_offline_but_the_server_answers(
    new_page: Callable[..., Page],
) -> None:
    """A browser with no network at all says it is offline, though the server it plays on
    runs on the same machine (``hokm serve`` on 127.0.0.1, a laptop in flight mode): every
    card was refused as not sent, and the game could not be played. The server is asked
    first (a ping): a card it would get is sent."""
    page = new_page(viewport=PHONE)
    card = _practice_to_a_card_of_mine(page)
    page.evaluate(
        """() => {
            Object.defineProperty(navigator, 'onLine', { get: () => false });
            window.dispatchEvent(new Event('offline'));
        }"""
    )
    page.click(f'.hand .card[data-card="{card}"]')
    page.wait_for_function(f"!hokmStore.game.hand.includes('{card}')")
    assert page.locator("#toasts .toast", has_text="حرکت شما فرستاده نشد").count() == 0


def _bita_gone_from_the_game(owner: Page, guest: Page, *, grace_seconds: int) -> None:
    """Ali's game with Bita and two bots, this grace for an absent player, Bita's page closed
    once the game is on."""
    _ali_and_bita_with_two_bots(owner, guest)
    options = json.dumps({"grace_seconds": grace_seconds})
    reply = owner.evaluate(f"hokmConn.command('set_rules', {{options: {options}}})")
    assert reply["type"] == "ack", reply
    owner.click("#start")
    guest.wait_for_selector(".table-view")
    guest.close()


def test_a_game_cancelled_for_an_absent_player_says_why_in_the_lobby_and_frees_the_seat(
    new_page: Callable[..., Page],
) -> None:
    """A player who closed the page and never came back cancels the game at the grace's end:
    the lobby says who and why until the next game (a toast of a few seconds was all), and
    the seat is free for a bot (it kept the absent player until the owner removed them)."""
    owner, guest = new_page(viewport=PHONE), new_page(viewport=PHONE)
    _bita_gone_from_the_game(owner, guest, grace_seconds=1)
    owner.wait_for_selector("#game-cancelled", timeout=20000)
    said = owner.inner_text("#game-cancelled")
    assert "Bita" in said and "برنگشت" in said and "ربات" in said, said
    assert store(owner, "s.table.seats[2].kind") == "empty"
    assert owner.locator(".toast", has_text="لغو شد").count() == 0  # said once, in the lobby
    shot(owner, "phone-game-cancelled")
    owner.reload()  # from the room's results: a page opened later reads it too
    owner.wait_for_selector("#game-cancelled")
    assert owner.inner_text("#game-cancelled") == said
    owner.evaluate("hokmConn.command('add_bot', {seat: 2, level: 'easy'})")
    owner.wait_for_function("hokmStore.table.seats.every(s => s.kind !== 'empty')")
    owner.click("#start")
    owner.wait_for_selector(".table-view")
    assert owner.locator("#game-cancelled").count() == 0


# Wraps the page's hokmConn.action: the first answer is `stale` (the server's `stale` as the
# page sees it), after ``meanwhile`` ran (what else came in before the answer); later ones go
# to the server. Counts the actions sent in window.sent.
_STALE_ONCE = """(meanwhile) => {
    const conn = window.hokmConn, real = conn.action.bind(conn);
    window.sent = 0;
    conn.action = async (action, version) => {
        window.sent += 1;
        if (window.sent > 1) return real(action, version);
        if (meanwhile === 'bot_played') {
            // the bot's move for this player arrived first: the card left the hand
            const g = window.hokmStore.game;
            g.hand = g.hand.filter((c) => c !== action.card);
            g.legal = [];
        }
        return { type: 'error', code: 'stale_version', message: 'stale' };
    };
}"""


def test_a_stale_move_is_sent_again_only_while_the_decision_is_still_the_players(
    new_page: Callable[..., Page],
) -> None:
    """`stale` means the game moved on since the click: sent again once the page has caught
    up, if it is still the same decision (a race with an event of no consequence); never when
    the bot played for the player meanwhile (the card would land on a later decision)."""
    page = new_page(viewport=PHONE)
    start_practice(page, "Sara", level="naive")
    for meanwhile, sent in (("bot_played", 1), ("nothing", 2)):
        page.wait_for_selector(DECISION)
        if page.locator(TRUMP_BUTTONS).count():
            take_turn(page)
        page.wait_for_selector(".hand .card.legal")
        page.evaluate(_STALE_ONCE, meanwhile)
        card = page.get_attribute(".hand .card.legal", "data-card")
        page.click(f'.hand .card[data-card="{card}"]')
        page.wait_for_timeout(600)
        assert page.evaluate("window.sent") == sent, meanwhile
        if sent == 2:  # sent again, and played
            page.wait_for_function(f"!hokmStore.game.hand.includes('{card}')")
        page.reload()  # (a fresh page: its own store and connection)
        page.wait_for_selector(".table-view")


def test_the_grace_countdown_is_said_with_its_seconds_once(
    new_page: Callable[..., Page],
) -> None:
    """The banner's line «اگر Bita برنگردد، بازی تا … ثانیهٔ دیگر لغو می‌شود.» is said once to a
    screen reader when it comes (the banner is no live region), with its number: read as the
    page was drawn, before the clock filled it, it said «بازی تا ثانیهٔ دیگر», no number, and
    the whole banner again, the line about Bita's leaving before it too."""
    owner, guest = new_page(viewport=PHONE), new_page(viewport=PHONE)
    owner.add_init_script(LIVE_LOG)
    _bita_gone_from_the_game(owner, guest, grace_seconds=4)
    owner.wait_for_selector("#away .grace")
    owner.wait_for_function(
        "window.liveLog.some((e) => e.region === 'announce' && e.text.includes('برنگردد'))"
    )
    owner.wait_for_timeout(1500)  # bots play on meanwhile: the page is drawn again and again
    said = [x for x in announced(owner) if "برنگردد" in x]
    assert len(said) == 1, announced(owner)
    assert re.search("تا [۱-۹][۰-۹]* ثانیهٔ دیگر لغو می‌شود", said[0]), said
    # The banner's line before it («Bita قطع شده است …») is not said again with the new one
    assert sum("قطع شده" in x for x in announced(owner)) == 1, announced(owner)
