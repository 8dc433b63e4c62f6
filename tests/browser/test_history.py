"""History and links: "My games" lists the deals this browser played with their result,
date and replay link; a replay's address carries its step; copy buttons copy; the rules
open at the current phase; the trick's winner and points are told."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.browser.helpers import deal_over, new_table, open_seat, play_until, settle
from tests.server.harness import ServerThread

pytestmark = pytest.mark.browser


def test_my_games_replay_step_links_and_copy(web: ServerThread, browser: Any) -> None:
    res = new_table(web, "sheepshead")
    ctx, page, errs = open_seat(browser, web, res, "desktop", "en")
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.url)
    # the rules open at the phase being played
    page.click("#btn-rules")
    page.wait_for_function(  # read in one go: the page keeps re-rendering under it
        "() => { const d = document.querySelector('dialog[open]');"
        " return !!d && d.innerText.includes('Now'); }"
    )
    page.keyboard.press("Escape")
    # a trick's winner is told on the felt with the points it took (the note is shown for a
    # moment: read its text when it is seen, not after)
    notes: list[str] = []

    def note_seen(p: Any) -> bool:
        text = p.evaluate(
            "() => { const n = document.querySelector('.trick-note'); return n ? n.innerText : null; }"
        )
        if text:
            notes.append(text)
        return bool(text) or deal_over(p)

    play_until(page, note_seen)
    if notes:
        assert re.search(r"wins the trick · \+\d+ points", notes[0]), notes[0]
    play_until(page, deal_over)
    page.click("a[data-link][href='/#my-games']")
    page.wait_for_selector("#mine-list li")
    row = page.locator("#mine-list li").first
    assert "Sheepshead" in row.inner_text() and "Deal 1" in row.inner_text()
    assert row.locator("time").count() == 1
    row.locator("a[href*='/replay?table=']").first.click()
    page.wait_for_selector(".replay-bar")
    page.keyboard.press("End")
    last = int(re.search(r"step=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    assert last > 5
    page.keyboard.press("ArrowLeft")
    assert f"step={last - 1}" in page.url
    page.click("#rp-copy")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith(f"step={last - 1}") and copied.startswith(web.url)
    # the link opens the same moment
    page.goto(copied)
    page.wait_for_selector(".replay-bar")
    assert f"{last - 1} / {last}" in page.locator(".rp-step").inner_text()
    settle(page)
    assert errs == []
    ctx.close()
