"""The web table's hint: the recommendation first, each alternative on one named scale (the
deal value in %, with its difference to the best), the reason in words, in English and in
Persian; the panel is reached and collapsed with the keyboard."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.browser.helpers import click_step, new_table, open_seat
from tests.server.harness import ServerThread

pytestmark = pytest.mark.browser

WORDS = {
    "en": ("Hint:", "Deal value in %", "recommended", "vs the best"),
    "fa": ("پیشنهاد:", "ارزش دست به درصد", "پیشنهادشده", "نسبت به بهترین"),
}


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_hint_is_shown_in_a_panel(web: ServerThread, browser: Any, lang: str) -> None:
    res = new_table(web, "scopone")  # card play from the first move: the search's scale
    ctx, page, errs = open_seat(browser, web, res, "desktop", lang)
    page.wait_for_selector("#btn-hint:not([hidden])", timeout=60_000)
    page.locator(".hand .card").first.focus()
    page.keyboard.press("h")
    panel = page.locator(".hint-panel")
    panel.wait_for(timeout=60_000)
    title, scale, recommended, versus = WORDS[lang]
    # on a wide screen the panel heads the side column: the hand stays on the screen
    assert page.locator(".side .hint-panel").count() == 1
    hand = page.locator(".hand").bounding_box()
    assert hand and hand["y"] + hand["height"] <= 860
    assert page.evaluate("document.querySelector('.hint-panel').open")
    assert title in panel.locator("summary").inner_text()
    assert scale in panel.locator(".hint-scale").inner_text()
    rows = panel.locator(".hint-rows li")
    assert rows.count() >= 2
    best = rows.first
    assert "best" in (best.get_attribute("class") or "") and recommended in best.inner_text()
    second = rows.nth(1).inner_text()
    assert versus in second
    if lang == "fa":
        assert re.search("[۰-۹]", second) and "٪" in second and not re.search("[0-9]", second)
    else:
        assert re.search(r"\d+\.\d%", second)
    # the recommendation is also one of the playable cards or buttons
    choice = best.get_attribute("data-action") or ""
    card = choice.split(" ")[1] if " " in choice else ""
    assert (
        page.locator(f'.hand .card[data-card="{card}"]').count()
        or page.locator(f'.controls .act[data-action="{choice}"]').count()
    )
    # keyboard: "c" reaches the hinted card (so "h", "c", Enter plays the hint); Scopone's
    # every choice at its first move is a card
    assert card, choice
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("c")
    assert page.evaluate("document.activeElement.dataset.card") == card
    # the summary is a tab stop; Enter collapses and reopens the panel
    panel.locator("summary").focus()
    page.keyboard.press("Enter")
    assert not page.evaluate("document.querySelector('.hint-panel').open")
    page.keyboard.press("Enter")
    assert page.evaluate("document.querySelector('.hint-panel').open")
    # once the position moves on, the panel goes
    click_step(page)
    if page.locator("dialog[open] .choice").count():
        click_step(page)
    page.wait_for_selector(".hint-panel", state="detached", timeout=30_000)
    assert errs == []
    ctx.close()


def test_a_phone_held_sideways_shows_the_hint_beside_the_felt(
    web: ServerThread, browser: Any
) -> None:
    """At 844×390 the felt fills one side; the hint goes on the other, between the prompt
    and the hand, inside the screen (it scrolls within itself), not below the fold."""
    res = new_table(web, "scopone")
    ctx, page, errs = open_seat(browser, web, res, "landscape", "en")
    page.wait_for_selector("#btn-hint:not([hidden])", timeout=60_000)
    page.keyboard.press("h")
    panel = page.locator(".hint-panel")
    panel.wait_for(timeout=60_000)
    box, felt, hand = (
        loc.bounding_box() for loc in (panel, page.locator(".felt"), page.locator(".hand"))
    )
    assert box and felt and hand
    assert box["x"] >= felt["x"] + felt["width"]  # beside the felt
    assert box["y"] + box["height"] <= hand["y"] + 2  # above the hand
    assert box["y"] >= 0 and box["y"] + box["height"] <= 390  # on the screen
    assert panel.locator(".hint-rows li").count() >= 2
    assert page.locator(".board .hint-panel").count() == 1
    from tests.browser.test_a11y import axe

    assert axe(page, "the hint beside the felt") == []  # scrolled within, yet reachable
    assert errs == []
    ctx.close()
