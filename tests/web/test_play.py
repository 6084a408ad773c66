"""A person plays whole games in the browser against bots, with the mouse and the keyboard."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, Route

from hokm.engine import persian_digits
from tests.web.conftest import DESKTOP, PHONE, shot
from tests.web.helpers import (
    DECISION,
    LIVE_LOG,
    TRUMP_BUTTONS,
    announced,
    enter_name,
    hand_cards,
    practice_with_rules,
    start_practice,
    store,
    take_turn,
    take_turns_until,
    trump_taken,
)

# A card to play in a later hand than the last result: after that hand's first card, or
# the first card itself (the hakem leads: the result covered the table they play on).
_LATER_HAND = (
    "s.game && s.game.phase === 'play' && s.game.last_result"
    " && s.game.hand_number > s.game.last_result.hand"
)


def play_until_game_over(page: Page, *, max_moves: int = 400) -> dict[str, int]:
    """Click through decisions until the game-over panel appears; count what was done. Once
    the next hand's play has begun, or the player leads it, the last hand's result must not
    cover the table (it used to come back at the end of every trick)."""
    done = {"cards": 0, "trumps": 0, "later": 0}
    for _ in range(max_moves):
        page.wait_for_selector(DECISION, state="attached")
        if store(page, _LATER_HAND):
            assert page.locator("#hand-result").count() == 0
            done["later"] += 1
        what = take_turn(page)
        if what == "over":
            return done
        if what == "trump":
            done["trumps"] += 1
        elif what is not None:
            done["cards"] += 1
    raise AssertionError("the game did not end")


def test_one_person_plays_a_whole_game_against_three_bots(new_page: Callable[..., Page]) -> None:
    """Practice to 3 points, logged in: every decision is a click; the game ends with a
    winner and a summary whose record, replay and shuffle verification work, and the game is
    on the player's profile in words (won or lost, unrated, when) with a link to its replay."""
    page = new_page(viewport=PHONE)
    page.goto("/")
    made = page.request.post(
        "/api/accounts/register",
        data={"username": "maryam_play", "password": "a long password", "name": "مریم"},
    )
    assert made.status == 201, made.text()
    start_practice(page, None, target=3)
    assert store(page, "s.table.seats.filter(x => x.kind === 'bot').length") == 3
    assert store(page, "s.table.rules.target_points") == 3
    page.wait_for_selector(".hand .card")
    shot(page, "phone-table-start")
    done = play_until_game_over(page)
    assert done["cards"] >= 7  # at least one hand's worth of own cards
    # More than one hand played: the banner was checked. (hand_number has moved past the last
    # hand at game over, so a game won by one kot against the hakem has played one hand only.)
    if store(page, "s.game.last_result.hand") > 0:
        assert done["later"] > 0
    score = store(page, "s.game.score")
    winner = store(page, "s.game.winner_team")
    assert winner in (0, 1) and score[winner] >= 3
    store_seat = store(page, "s.mySeat")
    we_won = winner == store_seat % 2
    panel = page.locator("#game-over")
    # The result comes right under the table, before the rules (on a phone it was a screen
    # below), and the HUD names the last hand played, not one that never starts.
    assert page.evaluate(
        "document.querySelector('#game-over').compareDocumentPosition("
        "document.querySelector('#table-rules')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    last = store(page, "s.game.last_result.hand") + 1
    persian = "".join("۰۱۲۳۴۵۶۷۸۹"[int(d)] for d in str(last))
    assert page.inner_text(".hud .hand-no .label").endswith(persian)
    # ... with that hand's hakem and tricks (the view has moved on to the next hakem, 0–0),
    # and the panel tells how the last hand ended, even when it ended the game.
    final = store(page, "s.game.last_result")
    assert store(page, f"s.seatName({final['hakem']})") in page.inner_text(".hud .hand-no")
    ours = store_seat % 2
    digits = [persian_digits(str(final["tricks"][team])) for team in (ours, 1 - ours)]
    assert page.inner_text("#tricks .val").replace(" ", "") == "–".join(digits)
    assert "هَند آخر" in page.inner_text("#last-hand")
    assert page.inner_text("#last-hand").replace(" ", "").endswith(f"{'–'.join(digits)})")
    assert "۳" in panel.inner_text() or "۴" in panel.inner_text() or "۵" in panel.inner_text()
    if we_won:  # what the game brought this account, from its profile: the winner's point
        page.wait_for_selector("#game-reward")
        assert page.inner_text("#game-reward") == "۱\u00a0امتیاز گرفتید. نمایهٔ شما"
        assert page.get_attribute("#game-reward a", "href") == "#/profile"
    shot(page, "phone-game-over")
    assert page.locator("#quick-again").count() == 0  # a practice room, not a quick match's
    # A quick match's room (its owner drawn, not chosen) offers another quick match at its end
    # (drawn again here by the page's "back online" redraw).
    page.evaluate("hokmStore.table.quick = true; window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#quick-again")
    assert page.get_attribute("#quick-again", "href") == "#/"
    page.evaluate("hokmStore.table.quick = false; window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#quick-again", state="detached")
    # Back to the finished game a while later: its panel tells the result; no "the game went
    # on while you were away, now hand N" (it said so, of a hand that never came, each time).
    page.evaluate(
        "(() => { const p = JSON.parse(localStorage.getItem('hokm.place'));"
        " p.at = Date.now() - 60000; localStorage.setItem('hokm.place', JSON.stringify(p)); })()"
    )
    page.reload()
    page.wait_for_selector("#game-over")
    page.wait_for_timeout(500)
    assert page.locator(".toast", has_text="در نبود شما").count() == 0, page.inner_text("#toasts")

    # After the game: the record and a replay with the shuffle verified.
    page.wait_for_selector("#download-record")
    href = page.get_attribute("#download-record", "href")
    replay = page.get_attribute("#open-replay", "href")
    analysis_link = page.get_attribute("#open-analysis", "href")
    assert href is not None and href.startswith("/api/games/") and replay
    assert analysis_link == f"{replay}/analysis"
    record = page.request.get(href).json()
    assert record["hands"] and all(len(h["plays"]) >= 28 for h in record["hands"])
    # On a phone the record's row and the owner's row do not touch («تحلیل بازی» sat on
    # «بازی تازه»).
    above = page.locator("#open-analysis").bounding_box()
    below = page.locator("#continue").bounding_box()
    assert above and below and below["y"] - (above["y"] + above["height"]) >= 6, (above, below)

    # The owner starts a new game in the same room, then closes it: back to the lobby.
    page.click("#continue")
    page.wait_for_function("window.hokmStore.table.status === 'playing'")
    page.wait_for_function("window.hokmStore.game && window.hokmStore.game.score[0] === 0")
    assert store(page, "s.game.score") == [0, 0]
    # The game before stays within reach (its panel is gone for everyone at the table).
    assert page.get_attribute("#previous-game", "href") == replay
    assert page.get_attribute("#previous-game", "target") == "_blank"  # the seat is kept
    page.click("#close-game-now")
    # The red confirmation appears under the pointer: its white text stays on dark red.
    page.hover("#close-game-sure")
    background = page.eval_on_selector(
        "#close-game-sure", "e => getComputedStyle(e).backgroundColor"
    )
    assert background == "rgb(132, 32, 41)", background
    page.click("#close-game-sure")
    page.wait_for_selector(".lobby")
    assert page.locator("#start").count() == 1
    page.locator(".toast", has_text="بازی را بستید").wait_for()  # said, not silent
    # Its replay says why it has no winner (it said only that no hand was finished).
    assert replay.endswith("-1")
    page.goto(f"/{replay[:-1]}2")
    page.wait_for_selector("#game-ended")
    assert "به دست صاحب اتاق بسته شد" in page.inner_text("#game-ended")

    page.goto(f"/{replay}")
    page.wait_for_selector("#replay-why")
    # who won, in words; parts of a line separated by the Persian comma (a middle dot reads
    # as the Persian zero «۰»)
    assert "بازی را بردند" in page.inner_text("#game-winner")
    assert "·" not in page.inner_text("main")
    assert page.inner_text("#replay-trick-title").startswith("دست ۱")
    page.click("#replay-next")
    assert page.inner_text("#replay-trick-title").startswith("دست ۲")
    # The arrow keys step too, "next" towards the reading direction's end (left in Persian).
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-trick-title").startswith("دست ۳")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-trick-title").startswith("دست ۲")
    page.click("#verify")
    page.wait_for_selector("#verify-result li")
    # Checked against what this browser was sent before each deal, not against the record's
    # own hash of its seed (which always matched); one line for all the hands it vouches for.
    said = page.locator("#verify-result li").evaluate_all(
        "els => els.map(e => [e.dataset.state, Number(e.dataset.hands), e.innerText])"
    )
    assert [x[:2] for x in said] == [["ok", len(record["hands"])]], said
    assert "✔" in said[0][2] and said[0][2].startswith("هر "), said
    shot(page, "phone-replay")
    # A browser that was not at the table cannot vouch for the seeds; one sent another
    # commitment before the first deal says the seed does not match it.
    other = new_page(viewport=PHONE)
    other.goto(page.url)
    other.click("#verify")
    other.wait_for_selector("#verify-result li")
    unseen = other.locator("#verify-result li").evaluate_all("es => es.map(e => e.dataset.state)")
    assert unseen == ["unseen"], unseen
    assert "✔" not in other.inner_text("#verify-result")
    other.evaluate(
        """(id) => localStorage.setItem('hokm.commitments', JSON.stringify(
            {order: [id], games: {[id]: {0: ['00'.repeat(32)]}}}))""",
        page.url.split("/game/")[1].split("/")[0],
    )
    other.click("#verify")
    other.wait_for_selector("#verify-result li[data-state=bad_commitment]")
    first = other.inner_text("#verify-result li >> nth=0")  # the mismatch, said first
    assert first.startswith("هَند ۱:") and "ناسازگار" in first, first

    # The analysis: every seat's mistakes in Persian, each hand's count on its button, and
    # a mistake's button that shows its trick with the card outlined.
    game_id = href.split("/")[3]

    def slowly(route: Route) -> None:  # a longer game's few seconds
        time.sleep(2.2)
        route.continue_()

    page.route("**/analysis", slowly)
    page.evaluate(_RECORD_ELAPSED)
    page.click("#analyse")  # the page says it is at work, and for how long, then the answer
    loading = page.inner_text("#analysis-loading")
    hands = persian_digits(str(len(record["hands"])))
    assert loading.startswith(f"در حال تحلیل {hands} هَند"), loading
    expected = page.request.get(f"/api/games/{game_id}/analysis").json()
    page.wait_for_selector("#analysis-seats li")
    page.unroute("**/analysis")
    assert "(۱ ثانیه)" in page.evaluate("window.elapsed"), page.evaluate("window.elapsed")
    seats = page.locator("#analysis-seats li").all_inner_texts()
    assert len(seats) == 4 and all("اشتباه" in x and "امتیاز" in x for x in seats), seats
    assert not any(re.search(r"[0-9]", x) for x in seats), seats
    assert page.is_disabled("#analyse")
    counts = [len(h["mistakes"]) for h in expected["hands"]]
    buttons = page.locator("#hand-buttons button")
    assert buttons.count() == len(counts)
    for i, n in enumerate(counts):
        text = buttons.nth(i).inner_text()
        assert ("⚠" in text) == (n > 0), text
        if n:
            assert f"⚠ {persian_digits(n)}" in text and "اشتباه" in text, text
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is not None:
        buttons.nth(first).click()
        page.wait_for_selector("#analysis-mistakes li")
        assert page.locator("#analysis-mistakes li").count() == counts[first]
        # each mistake says what the hard bot plays from the same seat's view
        assert "ربات سخت" in page.locator("#analysis-mistakes li").first.inner_text()
        note = next(p for p in expected["hands"][first]["plays"] if p["mistake"])
        page.locator("#analysis-mistakes button").first.click()
        title = page.inner_text("#replay-trick-title")
        assert title.startswith(f"دست {persian_digits(note['trick'])}"), title
        # the card of the note is the one outlined: its place in the trick is its play's
        slots = page.locator("#replay .mini-slot")
        position = note["play"] - 4 * (note["trick"] - 1)
        assert "mistake" in (slots.nth(position).get_attribute("class") or "")
        assert "اشتباه" in (slots.nth(position).locator(".card").get_attribute("aria-label") or "")
        assert page.locator("#analysis-mistakes button.current").count() >= 1
    else:
        page.wait_for_selector("#analysis-clean")
    shot(page, "phone-replay-analysis")

    # The profile lists the games: the result in Persian, unrated (bots), a Persian date of
    # this year, and the replay link (it used to show the game's hex id and the English word
    # "won"). The second game, closed before a hand was played, is listed as cancelled.
    page.goto("/#/profile")
    page.wait_for_selector("#recent-games li")
    games = page.locator("#recent-games li")
    texts = games.all_inner_texts()
    assert len(texts) == 2, texts
    assert texts[0].startswith("لغو شد"), texts
    assert texts[1].startswith("برد" if we_won else "باخت"), texts
    mine = store_seat % 2
    final = f"{persian_digits(score[mine])}–{persian_digits(score[1 - mine])}"
    assert final in texts[1], texts  # the score, our team first
    assert "۰–۰" in texts[0], texts  # closed before a hand ended
    year = "".join(
        "۰۱۲۳۴۵۶۷۸۹"[int(d)]
        for d in page.evaluate(
            "new Intl.DateTimeFormat('en-u-ca-persian', {year: 'numeric'}).format(new Date())"
        )
        if d.isdigit()
    )
    for text in texts:
        assert "بی‌ریتینگ" in text and year in text and not re.search(r"[0-9a-zA-Z]", text), text
    assert games.nth(1).locator("a").get_attribute("href") == replay
    shot(page, "phone-profile-games")
    games.first.locator("a").click()
    page.wait_for_selector("#replay-empty")  # it used to say "loading" for ever
    shot(page, "phone-replay-cancelled")
    # The game-over panel's analysis link opens the replay with the analysis asked for.
    page.goto(f"/{analysis_link}")
    page.wait_for_selector("#analysis-seats li")
    assert page.is_disabled("#analyse")


def test_keyboard_play_and_illegal_cards(new_page: Callable[..., Page]) -> None:
    """Tab reaches the hand, arrows move between cards, Enter plays; suits are buttons too.
    Only the server's legal cards are highlighted; clicking another says it cannot be played
    and plays nothing."""
    page = new_page(viewport=DESKTOP, lang="en")
    start_practice(page, "Kim", target=3)
    played = focused_on_turn = 0
    checked_illegal = False
    for _ in range(300):
        page.wait_for_selector(DECISION, state="attached")
        if page.locator("#game-over").count() or (played >= 6 and checked_illegal):
            break
        if page.locator(TRUMP_BUTTONS).count():
            page.focus(TRUMP_BUTTONS)
            page.keyboard.press("Enter")
            trump_taken(page)
            continue
        if not page.locator(".hand .card.legal").count():
            continue
        if played:
            # The focus left in the hand by the last play moves to a card that can be played
            # now (it stayed on a card the new turn made unplayable, where Enter did nothing).
            assert page.evaluate("document.activeElement.classList.contains('legal')")
            focused_on_turn += 1
        if not checked_illegal and page.locator(".hand .card.illegal").count():
            check_illegal_card(page)
            checked_illegal = True
        play_with_keyboard(page)
        played += 1
    assert played >= 6 and checked_illegal and focused_on_turn >= 1


def check_illegal_card(page: Page) -> None:
    legal_set = set(store(page, "s.legal('play').map(a => a.card)"))
    shown = set(
        page.eval_on_selector_all(".hand .card.legal", "els => els.map(e => e.dataset.card)")
    )
    assert shown == legal_set
    before = hand_cards(page)
    illegal = page.locator(".hand .card.illegal").first
    assert illegal.get_attribute("aria-disabled") == "true"
    led = store(page, "s.game.trick[0][1]")[-1]
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[led]
    illegal.click(force=True)
    page.wait_for_selector(".toast.error")
    # The refusal says why: a card of the led suit is held (RULES.md: follow suit).
    said = page.inner_text("#toasts")
    assert "must follow the led suit" in said and suit in said.lower(), said
    assert hand_cards(page) == before


def play_with_keyboard(page: Page) -> None:
    # Tab from the top of the page until a card of the hand has focus.
    page.focus("#main")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('.hand')"):
            break
    else:
        raise AssertionError("the hand cannot be reached with Tab")
    for _ in range(13):
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            break
        page.keyboard.press("ArrowRight")
    card = page.evaluate("document.activeElement.dataset.card")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert " of " in label  # an accessible name such as "queen of hearts"
    page.keyboard.press("Enter")
    page.wait_for_function(f"!window.hokmStore.game.hand.includes('{card}')")


def test_the_hand_result_reads_well_in_english(new_page: Callable[..., Page]) -> None:
    """The banner after a hand, in English: 'We (A and B) won the hand: kot, 2 points' — the
    names joined as at the game's end, 'point' for one, a capitalised title (it once read
    'win / Them (Bot 2، Bot 4) won the hand: win, 1 points')."""
    page = new_page(viewport=DESKTOP, lang="en")
    # The banner goes once the next hand's play begins (soon, with this server's short pause
    # and fast bots): record it the moment it appears.
    page.add_init_script(_RECORD_BANNERS)
    start_practice(page, "Mina", target=7)
    for _ in range(200):
        page.wait_for_function(
            f"window.banners.length > 0 || !!document.querySelector('{DECISION}')"
        )
        if store(page, "!!s.handResult") or take_turn(page, stop_at_result=True) == "done":
            break
    page.wait_for_function("window.banners.length > 0")
    text, title, hud_tricks, hud_hand, tricks, hand, seat = page.evaluate("window.banners[0]")
    # While the result is up, the top bar shows that hand (not the next one at 0–0).
    ours = seat % 2
    assert hud_tricks.replace(" ", "") == f"{tricks[ours]}–{tricks[1 - ours]}"
    assert hud_hand.endswith(str(hand + 1))
    said = re.search(r"(We|They) \((.+) and (.+)\) won the hand: ([a-z -]+), (\d+) points?", text)
    assert said is not None and "،" not in text, text
    points = int(said.group(5))
    assert (f"{points} point" + ("" if points == 1 else "s")) in text
    assert ("1 points" not in text) if points == 1 else True
    assert title[:1].isupper(), title


_RECORD_BANNERS = """
window.banners = [];
new MutationObserver(() => {
  const el = document.querySelector('#hand-result');
  if (el && !el.dataset.seen) {
    el.dataset.seen = '1';
    const res = window.hokmStore.handResult;
    window.banners.push([el.innerText, el.querySelector('.result-name').innerText,
      document.querySelector('#tricks .val').innerText,
      document.querySelector('.hud .hand-no .label').innerText, res.tricks, res.hand,
      window.hokmStore.mySeat]);
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_skip_link_and_what_a_screen_reader_hears_at_the_table(
    new_page: Callable[..., Page],
) -> None:
    """The skip link moves the focus to the page (it used to open "page not found"); the
    score, tricks, trump and card counts are read with their words, not as bare digits."""
    page = new_page(lang="en")
    start_practice(page, "Kbd", level="easy")
    # On our own turn to play nothing moves until we do: before, a bot hakem's trump could
    # land between the Enter and the check and take the focus to our hand (under load).
    take_turns_until(page, ".hand .card.legal")
    page.focus("#skip-link")  # the first stop of the Tab order
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    assert page.locator(".table-view").count() == 1  # still at the table
    score = page.inner_text("#score .sr-only")
    assert re.search(r"Us \d+, Them \d+", score), score
    assert page.inner_text("#trump .sr-only").startswith("Trump: ")
    counts = page.locator(".seat .count .sr-only").all_inner_texts()
    assert counts and all(re.fullmatch(r"\d+ cards", c) for c in counts), counts


def in_persian_line(name: str) -> str:
    """A name as a Persian line of the page writes it: a Latin one (the player's own «Kbd»)
    set apart in a first-strong isolate, a Persian one («ربات ۲») as it is."""
    return f"\u2068{name}\u2069" if re.search("[A-Za-z]", name) else name


def test_the_last_trick_opens_with_enter_and_closes_with_escape(
    new_page: Callable[..., Page],
) -> None:
    """The last trick opens right under its button, which names it (``aria-controls``): a
    screen reader reads it next (it came at the end of the table, after the rules)."""
    page = new_page()
    start_practice(page, "Kbd", level="easy")
    for _ in range(300):  # play until a trick is complete
        if store(page, "(s.game.tricks || []).length") >= 1:
            break
        if take_turn(page) is None:
            page.wait_for_timeout(30)
    page.focus("#last-trick-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#last-trick")
    assert page.get_attribute("#last-trick-btn", "aria-controls") == "last-trick"
    after = page.evaluate(
        "document.getElementById('last-trick-btn').closest('.row').nextElementSibling.id"
    )
    assert after == "last-trick", after
    # In words a player would say: «دست قبل را ربات ۲ برد» (it read «دست قبل، ربات ۲ این دست
    # را برد», the trick named twice), each card «آس دل را نگار بازی کرد» (not the calque
    # «بازی‌شده توسط»), the ace draw «آس‌کشی: ربات ۲ حاکم شد» (it read «آس‌کشی: حاکم: …»).
    winner = in_persian_line(store(page, "s.seatName(s.game.tricks[0].winner)"))
    assert page.inner_text("#last-trick h3") == f"دست قبل را {winner} برد"
    labels = page.eval_on_selector_all(
        "#last-trick .card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) == 4 and all(re.fullmatch(r".+ را .+ بازی کرد", x) for x in labels), labels
    hakem = in_persian_line(store(page, "s.seatName(s.game.hakem)"))
    assert page.inner_text("#ace-draw summary") == f"آس‌کشی: {hakem} حاکم شد"
    page.keyboard.press("Escape")
    page.wait_for_selector("#last-trick", state="detached")
    assert page.evaluate("document.activeElement.id") == "last-trick-btn"


def test_the_hints_question_is_big_enough_for_a_finger(new_page: Callable[..., Page]) -> None:
    """On a touch screen the link-like buttons are 44 px targets: «نه» under the hint's
    question was 30 × 32 px, beside «راهنما را نشان بده»."""
    page = new_page(viewport=PHONE, touch=True)
    start_practice(page, "Kaveh", target=3)
    take_turns_until(page, "#hint")
    page.tap("#hint")
    page.wait_for_selector("#hint-no")
    for button in ("#hint-sure", "#hint-no"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (button, box)
    page.tap("#hint-no")
    page.wait_for_selector("#hint")


def test_a_player_alone_with_bots_asks_for_a_hint(new_page: Callable[..., Page]) -> None:
    """«راهنما» marks the rule bot's choice (a legal one) and says it in words; following it
    plays on; a new decision has no mark until asked again. The first hint of a game costs
    the win's points: the first tap says so and asks again (a tooltip is never seen on a
    phone), and "no" takes nothing."""
    page = new_page(viewport=PHONE)
    start_practice(page, "Kaveh", target=3)
    take_turns_until(page, "#hint")
    assert "امتیاز" in (page.get_attribute("#hint", "title") or "")
    page.click("#hint")
    assert "امتیاز ندارد" in page.inner_text("#hint-confirm")  # told before asking
    assert page.locator(".hinted").count() == 0
    shot(page, "phone-hint-confirm")
    page.click("#hint-no")
    page.wait_for_selector("#hint")
    assert store(page, "s.table.hinted") in (None, [])  # nothing was asked
    page.click("#hint")
    page.click("#hint-sure")
    page.wait_for_selector(".hinted")
    said = page.inner_text("#hint-said")
    assert said.startswith("ربات متوسط")
    assert store(page, "s.table.hinted") == [store(page, "s.you.player_id")]
    shot(page, "phone-hint")
    hinted = page.locator(".hinted").first
    card = hinted.get_attribute("data-card")
    if card is not None:  # a card: one of the legal ones, named in the sentence
        assert card in store(page, "s.legal('play').map(a => a.card)")
        hinted.click()
        page.wait_for_selector(f'.hand .card[data-card="{card}"]', state="detached")
    else:  # trump: a suit button
        assert hinted.get_attribute("data-suit") in "SHDC"
        hinted.click()
        trump_taken(page)
    for _ in range(200):
        page.wait_for_selector(DECISION, state="attached")
        if page.locator("#hint").count():
            break
        take_turn(page)
    assert page.locator(".hinted").count() == 0
    assert page.get_attribute("#hint", "title") is None  # no more to lose
    page.click("#hint")  # so asked at once
    page.wait_for_selector(".hinted")


_RECORD_ELAPSED = """() => {
  window.elapsed = [];
  new MutationObserver(() => {
    const el = document.getElementById('analysis-elapsed');
    if (el && el.textContent) window.elapsed.push(el.textContent);
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


_RECORD_NEXT_DEAL = """
window.nextDeals = [];
window.countsBetween = [];
new MutationObserver(() => {
  const s = window.hokmStore, el = document.querySelector('#hand-result');
  const g = s && s.game, res = s && s.handResult;
  if (g && g.phase === 'deal' && res) {
    window.countsBetween.push(document.querySelectorAll('.seat .count').length);
  }
  if (!el || !g || !res || g.phase !== 'trump' || !(g.hand_number > res.hand)) return;
  const crowned = [...document.querySelectorAll('.seat')].filter(
    (x) => x.querySelector('.seat-label .crown-icon')).map((x) => Number(x.dataset.seat));
  window.nextDeals.push({
    hud: document.querySelector('.hud .hand-no .label').innerText,
    hand: g.hand_number, hakem: g.hakem, crowned,
    trump: document.querySelector('#trump .val').innerText,
    banner: el.querySelector('.result-hand').innerText, result: res.hand,
  });
}).observe(document, {childList: true, subtree: true});
"""


_SNAPSHOT_AFTER_A_HAND = """async () => {
    const { RoomStore } = await import('/js/store.js');
    const last = { hand: 2, result: 'kot', winner_team: 1, tricks: [0, 7], points: 2 };
    const snapshot = (game) => ({ version: 9, table: { status: 'playing', game } });
    const fresh = new RoomStore('ABCDEF');
    fresh.applySnapshot(snapshot({ phase: 'trump', hand_number: 3, last_result: last }));
    const first = new RoomStore('ABCDEF');
    first.applySnapshot(snapshot({ phase: 'trump', hand_number: 0, last_result: null }));
    const kept = new RoomStore('ABCDEF');
    kept.handResult = { hand: 2, result: 'normal' };
    kept.applySnapshot(snapshot({ phase: 'trump', hand_number: 3, last_result: last }));
    return [fresh.handResult && fresh.handResult.hand, first.handResult, kept.handResult.result];
}"""


_COMMITMENTS_KEPT = """async () => {
    const { RoomStore } = await import('/js/store.js');
    const { seenCommitments } = await import('/js/seen.js');
    localStorage.removeItem('hokm.commitments');
    const snap = (phase, commitment) => ({ version: 5, commitment,
      table: { status: 'playing', game_number: 2, game: { phase, hand_number: 1 } } });
    const during = new RoomStore('abcdef');
    during.applySnapshot(snap('play', 'c1'));
    const between = new RoomStore('ABCDEF');
    between.applySnapshot(snap('deal', 'c9'));  // the seed may be out: not evidence
    const live = new RoomStore('ABCDEF');
    live.applySnapshot(snap('trump', null));
    const dealt = { kind: 'deal_committed', hand: 2, commitment: 'c2' };
    live.applyEvents([{ version: 6, event: dealt }]);
    // After a reconnect, missed events come in one batch: a commitment that arrives with its
    // own seed (the hand ended, or its deal was redealt) was not received before the deal.
    const ended = { kind: 'hand_ended', hand: 3, score: [0, 0], tricks: [7, 0] };
    live.applyEvents([
      { version: 7, event: { kind: 'deal_committed', hand: 3, commitment: 'c3' } },
      { version: 8, event: ended },
      { version: 9, event: { kind: 'deal_committed', hand: 4, commitment: 'c4' } },
    ]);
    live.applyEvents([
      { version: 10, event: { kind: 'deal_committed', hand: 5, commitment: 'c5' } },
      { version: 11, event: { kind: 'redealt', reason: 'weak_five', seed: 's5' } },
    ]);
    return [seenCommitments('ABCDEF-2', 1), seenCommitments('abcdef-2', 2),
            [3, 4, 5].map((h) => seenCommitments('ABCDEF-2', h))];
}"""


def test_the_commitments_a_page_receives_are_kept_for_the_replays_check(
    new_page: Callable[..., Page],
) -> None:
    """A deal's commitment is kept when it comes (deal_committed) or when a page (re)loads
    while its hand is on, not from a snapshot between hands (its seed may be out by then)."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate(_COMMITMENTS_KEPT) == [["c1"], ["c2"], [[], ["c4"], []]]


def test_a_page_loaded_while_the_last_hands_result_is_up_shows_it_again(
    new_page: Callable[..., Page],
) -> None:
    """The result banner came only with the hand_ended event: a reload in the pause between
    hands (or while the next hakem chose trump) lost it, and only the score said who won. A
    snapshot now brings the last hand's result back (the banner then shows it until the next
    hand's first card, as for everyone else); one already up is kept."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate(_SNAPSHOT_AFTER_A_HAND) == [2, None, "normal"]


def test_the_next_hakem_choosing_trump_is_shown_under_the_last_hands_result(
    new_page: Callable[..., Page],
) -> None:
    """Once the next hand is dealt, the top bar and the crown show that hand (its hakem is
    choosing trump; they used to show the finished hand's hakem and trump for the whole
    trump timer), while the result banner, still up, names the hand it is about. Between
    the hands no seat says how many cards it holds."""
    page = new_page(lang="en")
    page.add_init_script(_RECORD_NEXT_DEAL)
    start_practice(page, "Nima", target=7)
    for _ in range(300):
        page.wait_for_selector(DECISION, state="attached")
        if page.evaluate("window.nextDeals.length > 0") or take_turn(page) == "over":
            break
    seen = page.evaluate("window.nextDeals")
    assert seen, "no hand was dealt while a result was up"
    # Between hands no seat shows «۰ برگ» (it held no cards; nor does it yet).
    between = page.evaluate("window.countsBetween")
    assert between and not any(between), between
    for row in seen:
        assert row["hud"] == f"Hand {row['hand'] + 1}", row
        assert row["crowned"] == [row["hakem"]], row
        assert row["trump"] == "–", row  # not the finished hand's trump
        assert row["banner"] == f"Hand {row['result'] + 1}", row


def test_a_narrow_phone_shows_the_hand_in_two_rows_the_teams_in_words_and_chat_as_a_sheet(
    new_page: Callable[..., Page],
) -> None:
    """At 320 px the 13 cards take two rows (three pushed the last card off a small screen);
    the score and tricks say in words which number is ours, not by colour alone; the chat at
    the table opens over the bottom of the screen and its toggle closes it. An error toast of
    the home page is gone once the room is made."""
    page = new_page(viewport={"width": 320, "height": 640})
    page.goto("/")
    page.wait_for_selector('.home[data-ready="1"]')
    page.click("#create")
    page.wait_for_selector("#toasts >> text=اول یک نام وارد کنید.")
    page.fill("#name", "نگار")
    page.click("#create")
    page.wait_for_selector(".room.in-lobby")
    assert page.locator("#toasts .toast.error").count() == 0  # the missing name is not missing
    start_practice(page, "نگار", target=3, level="naive")
    page.wait_for_function(
        "document.querySelector('#choose-trump .suit-btn')"
        " || document.querySelectorAll('.hand .card').length === 13"
    )
    if page.locator(TRUMP_BUTTONS).count():  # our hakem: 5 cards until trump is named
        page.locator(TRUMP_BUTTONS).first.click()
        trump_taken(page)
    page.wait_for_function("document.querySelectorAll('.hand .card').length === 13")
    tops = page.eval_on_selector_all(
        # the rows as laid out (offsetTop): a playable card is lifted 4 px, with a transition
        ".hand .card",
        "els => els.map(e => e.offsetTop)",
    )
    assert len(set(tops)) == 2, tops
    # A side seat's short name stays whole beside the bot's icon and the hakem's crown (a
    # copy of the crown added where the hakem is not there, so both sides are measured):
    # «ربا…» it was, for a crowned side seat.
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.seat.pos-left, .seat.pos-right')].map((s) => {
            const label = s.querySelector('.seat-label'), name = label.querySelector('.name');
            if (!label.querySelector('.crown-icon')) {
                label.prepend(document.querySelector('.crown-icon').cloneNode(true));
            }
            return [name.textContent, name.scrollWidth - name.clientWidth];
        })"""
    )
    assert [c for c in cut if c[1] > 0] == [], cut
    for box in ("#score", "#tricks"):
        words = page.inner_text(f"{box} .shown .teams")
        assert words.replace(" ", "") == "ما–حریف", words
        assert page.is_visible(f"{box} .teams .us")
    # Opened on our turn: a decision of ours that begins folds a sheet (the next test), so
    # one beginning between these two taps would make the second open it again.
    page.wait_for_selector(".hand .card.legal")
    page.click("#chat-toggle")
    sheet = page.eval_on_selector(
        ".chat.sheet",
        "e => { const r = e.getBoundingClientRect(); "
        "return [getComputedStyle(e).position, Math.round(r.bottom), innerHeight]; }",
    )
    assert sheet[0] == "fixed" and sheet[1] == sheet[2], sheet
    assert page.is_visible(".chat-presets button >> nth=0")
    # Opened on our turn, it covers the hand and the prompt: its toggle says whose turn it is.
    assert page.inner_text("#sheet-turn") == "نوبت شماست؛ برای بازی، گفتگو را ببندید"
    shot(page, "phone320-chat-sheet")
    page.click("#chat-toggle")
    assert page.locator(".chat.open").count() == 0
    # A chat open from the start on a wide screen stays in the page when the screen narrows
    # (a tablet turned): it never covers the hand without being asked to.
    wide = new_page(viewport=DESKTOP)
    start_practice(wide, "Kim", target=3, level="naive")
    wide.wait_for_selector(".chat.open")
    wide.set_viewport_size({"width": 360, "height": 740})
    assert wide.eval_on_selector(".chat.open", "e => getComputedStyle(e).position") == "static"


def test_a_chat_sheet_folds_when_a_decision_of_yours_begins(
    new_page: Callable[..., Page],
) -> None:
    """On a phone the chat opens as a sheet over the hand; left open, it would take the taps
    meant for the cards and the turn would time out. It folds when your turn comes."""
    page = new_page(viewport={"width": 360, "height": 740})
    start_practice(page, "نگار", target=3, level="naive")
    # A tap on the chat while the bots play (checked and tapped in one turn of the page's
    # loop: the bots here move within 50 ms).
    tap_while_waiting = """() => {
        if ((window.hokmStore.game?.legal ?? []).length) return false;
        document.getElementById('chat-toggle').click();
        return !!document.querySelector('.chat.sheet');
    }"""
    for _ in range(40):
        page.wait_for_selector(DECISION, state="attached")
        take_turn(page)
        if page.evaluate(tap_while_waiting):
            break
    else:
        raise AssertionError("the chat was never opened while the bots played")
    page.wait_for_selector(".chat.open", state="detached")
    page.wait_for_selector(f"{TRUMP_BUTTONS}, .hand .card.legal, #bam-go")
    assert page.locator(".chat.sheet").count() == 0


def test_a_double_click_plays_one_card_quietly_and_a_lost_network_is_said_at_once(
    new_page: Callable[..., Page],
) -> None:
    """A double click (or double tap) on a card plays it, with no "not your turn" error for
    the second click; when the browser loses the network the page says so at once (the
    socket may take a long while to notice), and stops saying it when the network is back."""
    page = new_page(viewport=PHONE)
    page.add_init_script(LIVE_LOG)
    start_practice(page, "Nika", target=3)
    take_turns_until(page, ".hand .card.legal")
    card = str(page.locator(".hand .card.legal").first.get_attribute("data-card"))
    page.dblclick(f'.hand .card[data-card="{card}"]')
    page.wait_for_function(f"!window.hokmStore.game.hand.includes('{card}')")
    page.wait_for_timeout(300)
    assert page.locator(".toast.error").count() == 0, page.inner_text("#toasts")
    page.context.set_offline(True)
    try:
        page.wait_for_selector(".banner.warn:has-text('اتصال قطع است')")
        # said once to a screen reader (the banner comes with its words: not a live region)
        page.wait_for_function(
            "window.liveLog.some((e) => e.region === 'announce' && e.text === 'اتصال قطع است')"
        )
        assert page.get_attribute("#connection", "role") is None
    finally:
        page.context.set_offline(False)
    page.wait_for_selector(".banner.warn", state="detached")
    assert announced(page).count("اتصال قطع است") == 1, announced(page)


def test_the_tab_title_says_when_a_decision_is_yours(new_page: Callable[..., Page]) -> None:
    """Seen from another tab, where the turn clock runs on: the title begins with «● نوبت
    شماست» exactly while a decision of the player's waits, and the mark goes with the page."""
    page = new_page(viewport=DESKTOP)
    start_practice(page, "Arash")
    mine_and_title = "[(window.hokmStore.game?.legal ?? []).length > 0, document.title]"
    marked = 0
    for _ in range(8):
        page.wait_for_selector(DECISION)
        mine, title = page.evaluate(mine_and_title)
        if page.query_selector("#game-over"):
            break
        assert mine and title.startswith("● نوبت شماست · اتاق "), title
        marked += 1
        take_turn(page)
        mine, title = page.evaluate(mine_and_title)
        assert title.startswith("● ") == mine, (mine, title)
    assert marked >= 4
    page.click("#brand")
    page.wait_for_selector('.home[data-ready="1"]')
    assert not page.title().startswith("●"), page.title()


# Counts the notes the page starts (Web Audio), as a listener would hear them.
_COUNT_NOTES = """
window.notes = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.notes += 1;
  return start.apply(this, args);
};
"""


def test_a_chime_says_the_turn_came_unless_turned_off_in_the_menu(
    new_page: Callable[..., Page],
) -> None:
    """Two soft notes when a decision of the player's comes (not for the hakem's lead just
    after naming trump); «صدای نوبت» in the ☰ menu turns them off, in this browser."""
    page = new_page(viewport=DESKTOP)
    page.add_init_script(_COUNT_NOTES)
    start_practice(page, "Dara")
    turns = 0
    for _ in range(6):
        page.wait_for_selector(DECISION)
        if page.query_selector("#game-over"):
            break
        what = take_turn(page)
        turns += what != "trump"  # (after trump the hakem leads at once: no new turn)
    notes = page.evaluate("window.notes")
    # Two notes a turn that came: at most one a turn taken (a lead right after winning a
    # trick with the last card comes in the same frame: the decision never stopped), plus
    # the next turn, which may have come already while the last card was still being read.
    assert notes % 2 == 0 and 2 <= notes <= 2 * (turns + 1), (notes, turns)
    page.uncheck("#sound")  # (in the top bar's menu, open on a desktop)
    assert page.evaluate("JSON.parse(localStorage['hokm.settings']).sound") is False
    before = page.evaluate("window.notes")
    for _ in range(4):
        page.wait_for_selector(DECISION)
        if page.query_selector("#game-over"):
            break
        take_turn(page)
    assert page.evaluate("window.notes") == before
    page.reload()
    page.wait_for_selector(".table-view")
    assert not page.is_checked("#sound")  # kept in this browser


_SHEET_ROWS = """() => [...document.querySelectorAll('#hands-sheet tbody tr')].map(
    (tr) => [...tr.children].map((c) => c.textContent.trim()))"""

_SHEET_STORE = """async () => {
    const { RoomStore } = await import('/js/store.js');
    const s = new RoomStore('ABCDEF');
    const row = (hand, score) => ({ hand, hakem: 0, trump: 'S', result: 'normal', winner_team: 0,
        tricks: [7, 2], points: [1, 0], score, next_hakem: 0, seed: null });
    s.applySnapshot({ version: 5, table: { status: 'playing', hands: [row(0, [1, 0])],
        game: { phase: 'play', trump: 'H', hand_number: 1, score: [1, 0] } } });
    const ended = { kind: 'hand_ended', hand: 1, hakem: 1, result: 'kot', winner_team: 1,
        tricks: [0, 7], points: [0, 2], score: [1, 2], next_hakem: 2, seed: null };
    s.applyEvents([{ version: 6, event: ended }]);
    const after = s.table.hands.map((x) => [x.hand, x.trump, x.score.join('-'), 'kind' in x]);
    s.version = 5;  // the same event again (a resume that reaches back): one row per hand
    s.applyEvents([{ version: 6, event: ended }]);
    const again = s.table.hands.length;
    s.applyEvents([{ version: 7, event: { kind: 'game_started', game: 2 } }]);
    return [after, again, s.table.hands.length];
}"""


_SHEET_BOX = """() => {
    const r = document.querySelector('#hands-sheet table').getBoundingClientRect();
    return [r.left, r.right, window.innerWidth, document.documentElement.scrollWidth]; }"""

# [the table is within the screen on both sides and needs no scrolling in its box, the page is
# not wider than the screen]
_SHEET_FITS = """() => {
    const table = document.querySelector('#hands-sheet table');
    const r = table.getBoundingClientRect(), box = table.parentElement;
    return [r.left >= 0 && r.right <= window.innerWidth && box.scrollWidth <= box.clientWidth,
            document.documentElement.scrollWidth <= window.innerWidth]; }"""


def test_the_score_sheet_lists_every_hand_of_the_game(new_page: Callable[..., Page]) -> None:
    """«هَندهای این بازی»: each finished hand in a row (its hakem, trump, tricks, who won and
    how, its points, the score after it), folded under the table during the game, brought back
    whole by a reload, and open in the game-over panel, where its rows add up to the final
    score. It fits a 320 px phone."""
    page = new_page(viewport={"width": 320, "height": 640})
    page.goto("/")
    page.wait_for_selector("#practice")
    assert page.evaluate(_SHEET_STORE) == [
        [[0, "S", "1-0", False], [1, "H", "1-2", False]],
        2,
        0,
    ]
    # to 4 points: a hand scores at most 3, so the game outlives its first hand
    practice_with_rules(page, "سارا", {"target_points": 4})
    assert page.locator("#hands-sheet").count() == 0  # no hand finished yet
    for _ in range(200):
        page.wait_for_selector(DECISION, state="attached")
        if take_turn(page, stop_at_result=True) in ("done", "over"):
            break
    page.wait_for_selector("#hands-sheet")
    assert store(page, "s.table.status") != "game_over"
    assert page.get_attribute("#hands-sheet", "open") is None  # folded during the game
    assert page.inner_text("#hands-sheet summary").strip() == "هَندهای این بازی: ۱"
    page.click("#hands-sheet summary")
    first = page.evaluate(_SHEET_ROWS)
    result = store(page, "s.table.hands[0]")
    mine = store(page, "s.mySeat") % 2
    assert len(first) == 1 and first[0][0] == "۱"
    assert first[0][1] == store(page, f"s.seatName({result['hakem']})")
    assert first[0][4].startswith("ما" if result["winner_team"] == mine else "حریف")
    assert first[0][5] == persian_digits(str(result["points"][result["winner_team"]]))
    ours, theirs = (persian_digits(str(result["score"][t])) for t in (mine, 1 - mine))
    assert first[0][6].replace(" ", "") == f"{ours}–{theirs}"
    page.locator("#hands-sheet").scroll_into_view_if_needed()
    shot(page, "phone320-score-sheet-during-the-game")
    page.reload()  # the snapshot brings the sheet back
    page.wait_for_selector("#hands-sheet")
    page.click("#hands-sheet summary")
    assert page.evaluate(_SHEET_ROWS) == first
    play_until_game_over(page)
    page.wait_for_selector("#game-over #hands-sheet[open]")
    rows = page.evaluate(_SHEET_ROWS)
    hands = store(page, "s.table.hands")
    assert len(rows) == len(hands) >= 1
    assert [r[0] for r in rows] == [persian_digits(str(h["hand"] + 1)) for h in hands]
    total = [0, 0]
    for h in hands:  # each row's score is the one before plus its points
        total = [total[0] + h["points"][0], total[1] + h["points"][1]]
        assert h["score"] == total, hands
    assert total == store(page, "s.game.score")
    # It fits the phone: in a right-to-left page a too-wide table runs off the left edge (its
    # right edge stays put), so both edges are looked at, and the page never scrolls sideways.
    assert page.evaluate(_SHEET_FITS) == [True, True], page.evaluate(_SHEET_BOX)
    page.locator("#hands-sheet").scroll_into_view_if_needed()
    shot(page, "phone320-score-sheet")
    # In English too (its headers "#" and "Pts"); a longer sheet would scroll within itself,
    # never the page.
    page.click("#lang")
    page.wait_for_selector("#hands-sheet summary:has-text('This game')")
    assert page.evaluate(_SHEET_FITS) == [True, True], page.evaluate(_SHEET_BOX)
    page.locator("#hands-sheet").scroll_into_view_if_needed()
    shot(page, "phone320-score-sheet-english")
    page.click("#lang")
    page.wait_for_selector("#hands-sheet summary:has-text('هَندهای')")
    page.set_viewport_size(DESKTOP)
    page.locator("#hands-sheet").scroll_into_view_if_needed()
    shot(page, "desktop-score-sheet")


def _rated_profile(route: Route) -> None:
    """The profile as the server says it, with a rating change put on each recent game (a
    practice game is unrated; the server's side of it is tests/accounts/test_store.py)."""
    res = route.fetch()
    body = res.json()
    for game in body.get("recent_games", []):
        game["rating_change"] = [1500, 1488]
    route.fulfill(response=res, json=body)


def test_each_game_over_links_its_own_game_and_says_what_it_brought(
    new_page: Callable[..., Page],
) -> None:
    """A page that stays for the next game links that game's record and replay at its end,
    not the first game's (an onlooker's page kept the first one's), and a player is told
    what the game brought them: a winner's point, a rated game's move of their rating, with
    the way to their profile."""
    owner = new_page(lang="en")
    owner.route("**/api/players/*", _rated_profile)
    practice_with_rules(owner, "Owner", {"target_points": 1})
    code = store(owner, "s.code")
    onlooker = new_page()
    onlooker.goto("/")
    enter_name(onlooker, "Onlooker")
    onlooker.fill("#code", code)
    onlooker.click("#join")
    onlooker.wait_for_selector(".table-view")
    # the players see who watches (the onlooker sees no such line about themself); come in
    # during a hand, the onlooker is «مهمان», "Guest" on an English page, until it ends (a
    # name could tell a hand)
    owner.wait_for_selector("#onlookers")
    assert owner.inner_text("#onlookers") in ("Watching (1): Onlooker", "Watching (1): Guest")
    assert onlooker.locator("#onlookers").count() == 0
    for game in (1, 2):
        for _ in range(200):
            owner.wait_for_selector(DECISION, state="attached")
            if take_turn(owner) == "over":
                break
        for page in (owner, onlooker):
            page.wait_for_selector("#game-over #open-replay")
            assert page.get_attribute("#open-replay", "href") == f"#/game/{code}-{game}"
            assert page.get_attribute("#download-record", "href") == (
                f"/api/games/{code}-{game}/record"
            )
        assert onlooker.locator("#game-reward").count() == 0  # nothing for an onlooker
        assert onlooker.inner_text("#download-record") == "دریافت پروندهٔ بازی"  # (ezafe)
        # the onlooker's heading names the winners (it ended on a bare colon: «پایان بازی:»)
        winners = "۱" if store(onlooker, "s.game.winner_team") == 0 else "۲"
        assert onlooker.inner_text("#game-over h2") == f"پایان بازی: تیم {winners} برد."
        assert owner.inner_text("#onlookers") == "Watching (1): Onlooker"  # (named by now)
        reward = owner.locator("#game-reward")
        reward.wait_for()
        won = store(owner, "s.game.winner_team") == store(owner, "s.mySeat") % 2
        said = reward.inner_text()
        assert said.startswith("You earned 1 point · your" if won else "Your rating"), said
        assert "rating went from 1500 to 1488 (−12)" in said
        # a guest has no profile page: the way to an account, which keeps the points
        assert owner.get_attribute("#game-reward a", "href") == "#/"
        assert said.endswith(". Register to keep your points"), said
        if game == 1:
            owner.click("#continue")
            owner.wait_for_selector("#game-over", state="detached")
    # The way to an account opens the home page's login / register box (folded otherwise).
    owner.click("#reward-register")
    owner.wait_for_selector("#login-box[open] #register")


def test_at_a_games_end_the_owner_chooses_how_the_next_games_hakem_is_found(
    new_page: Callable[..., Page],
) -> None:
    """RULES.md §3: at the start of every new game the owner chooses next_game_hakem (keep,
    ace draw, random, manual). The game-over panel offered only «بازی تازه»: the choice was
    made, if at all, in the lobby's folded options before the first game."""
    page = new_page(viewport=DESKTOP)
    practice_with_rules(page, "Sara", {"target_points": 1})
    play_until_game_over(page)
    chooser = page.locator("#game-over select#next-game-hakem")
    assert chooser.input_value() == "keep"
    labels = chooser.locator("option").all_inner_texts()
    assert labels == ["همان حاکم", "آس‌کشی", "تصادفی", "به انتخاب صاحب اتاق"], labels
    assert "حاکم بازی بعد" in page.inner_text("label[for='next-game-hakem']")
    chooser.select_option("manual")
    page.wait_for_function("window.hokmStore.table.rules.next_game_hakem === 'manual'")
    page.click("#continue")
    page.wait_for_selector("#choose-hakem .hakem-btn")  # the owner picks the seat
    page.click("#choose-hakem .hakem-btn[data-seat='2']")
    page.wait_for_function("window.hokmStore.game && window.hokmStore.game.hakem === 2")
