"""A whole deal of every game played with the keyboard alone (no mouse event is sent), in
English and with the Persian layout, and the keyboard help."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.helpers import (
    deal_over,
    key_step,
    new_table,
    no_play_deal,
    open_seat,
    play_until,
)
from tests.server.harness import ServerThread

from folkcards.games import GAMES

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_deal_by_keyboard_alone(web: ServerThread, browser: Any, game: str) -> None:
    # the bots' deals are shuffled from a secure source, so a deal may end before this seat
    # has played (a bot's redeal, SAT-5.4 / HUU-4.6; everyone passed): then a new table, at
    # most four times, and only for a deal whose result says it had no play
    for _ in range(4):
        res = new_table(web, game)
        ctx, page, errs = open_seat(browser, web, res, "desktop", "fa" if game == "satat" else "en")
        moves = play_until(page, deal_over, step=key_step, seconds=240)
        if moves >= 3:
            break
        assert no_play_deal(page), f"only {moves} moves were made by keyboard in a played deal"
        assert errs == []
        ctx.close()
    assert moves >= 3, f"only {moves} moves were made by keyboard in four deals"
    # the deal's end is reachable by keyboard too: the result and the next steps have focus stops
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement !== document.body")
    assert page.locator(".side .result").count() == 1
    assert errs == []
    ctx.close()


def test_keys_focus_the_hand_and_help_dialog_traps_focus(web: ServerThread, browser: Any) -> None:
    res = new_table(web, "sheepshead")  # cards in hand from the start
    ctx, page, errs = open_seat(browser, web, res)
    page.wait_for_selector(".hand .card")
    page.keyboard.press("?")
    page.wait_for_selector("dialog[open]")
    assert "Enter" in page.locator("dialog[open]").inner_text()
    for _ in range(6):  # Tab stays inside the modal dialog
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('dialog[open]')")
    page.keyboard.press("Escape")
    assert page.locator("dialog[open]").count() == 0
    page.keyboard.press("c")
    assert page.evaluate("document.activeElement.matches('.hand .card')")
    name = page.evaluate("document.activeElement.querySelector('.card-name').textContent")
    assert " of " in name, name  # "Queen of spades", not "QS"
    # "c" focuses the first playable card, which may be any card of the hand (the only heart
    # when a bot has led hearts), so End and Home are checked by where they land, not by change
    at_end = "(() => { const c = [...document.querySelectorAll('.hand .card')];"
    at_end += " return c.length > 0 && document.activeElement === c[c.length - 1]; })()"
    at_home = "document.activeElement === document.querySelector('.hand .card')"
    for key, where in (("End", at_end), ("Home", at_home)):
        landed = False
        for _ in range(20):  # a frame arriving (a bot's step) may re-render between key presses
            page.keyboard.press(key)
            landed = page.evaluate(where)
            if landed:
                break
            page.wait_for_timeout(100)
            page.keyboard.press("c")
        assert landed, f"{key} did not move the focus to the hand's {key.lower()}"
    # one tab stop for the whole hand (roving tabindex)
    assert page.locator(".hand .card[tabindex='0']").count() == 1
    assert errs == []
    ctx.close()
