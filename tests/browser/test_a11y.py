"""Accessibility: axe-core (from npm) finds no serious or critical WCAG 2.2 A/AA violation on
the lobby, a table in play, a finished deal's result, the replay and the dialogs, in English
and in Persian; cards and log entries have names in words; toasts and turns are announced."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.browser.helpers import (
    axe_path,
    click_step,
    deal_over,
    new_table,
    open_seat,
    play_until,
    settle,
    trick_on_felt,
)
from tests.server.harness import ServerThread

from folkcards.games import GAMES

pytestmark = pytest.mark.browser

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe(page: Any, what: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page, as readable lines."""
    path = axe_path()
    if path is None:
        pytest.skip(
            "axe-core is not installed (npm install --prefix tests/browser axe-core, "
            "as scripts/test does)"
        )
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(path))
    found = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})).violations.map((v) => ({id: v.id, impact: v.impact,"
        " help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' — '"
        " + (n.failureSummary || '').split('\\n').slice(0, 3).join(' '))}))",
        TAGS,
    )
    return [
        f"{what}: {v['id']} ({v['impact']}) {v['help']}: {json.dumps(v['nodes'])}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_axe_lobby_table_result_replay(web: ServerThread, browser: Any, lang: str) -> None:
    bad: list[str] = []
    res = new_table(web, "sheepshead")
    ctx, page, errs = open_seat(browser, web, res, "desktop", lang)
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    bad += axe(page, "lobby")
    page.click("#btn-settings")
    page.wait_for_selector("dialog[open]")
    bad += axe(page, "settings dialog")
    page.keyboard.press("Escape")
    page.goto(f"{web.url}/t/{res['id']}")
    page.wait_for_selector(".seat.me")
    play_until(page, trick_on_felt)
    settle(page)
    bad += axe(page, "table")
    page.click("#btn-invite")
    page.wait_for_selector("dialog[open] .qr svg")
    bad += axe(page, "invite dialog")
    page.keyboard.press("Escape")
    play_until(page, deal_over)
    settle(page)
    bad += axe(page, "result")
    page.click(".banner.deal-over a[href^='/replay']")
    page.wait_for_selector(".replay-bar")
    page.keyboard.press("End")
    settle(page)
    bad += axe(page, "replay")
    assert bad == [], "\n".join(bad)
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("game", ["scopone", "huutopussi"])
def test_axe_other_packs_and_phases(web: ServerThread, browser: Any, game: str) -> None:
    if game not in GAMES:
        pytest.skip(f"{game} is not registered")
    res = new_table(web, game)
    ctx, page, errs = open_seat(browser, web, res, "phone", "en", {"fourColour": "1"})
    for _ in range(3):
        click_step(page)
        page.wait_for_timeout(100)
    settle(page)
    bad = axe(page, f"{game} table at 390 px")
    assert bad == [], "\n".join(bad)
    assert errs == []
    ctx.close()


def test_cards_and_log_are_named_in_words(web: ServerThread, browser: Any) -> None:
    res = new_table(web, "scopone")
    ctx, page, errs = open_seat(browser, web, res, "desktop", "en")
    play_until(page, lambda p: p.locator(".log li").count() >= 4)
    labels = page.eval_on_selector_all(
        ".hand .card", "els => els.map((e) => e.querySelector('.card-name').textContent)"
    )
    assert labels and all(" of " in x for x in labels), labels
    assert any(s in " ".join(labels) for s in ("coins", "cups", "swords", "batons"))
    # every card in the log has its name in words (rank and suit, not "9S")
    names = page.eval_on_selector_all(
        ".log .cinline", "els => els.map((e) => e.getAttribute('aria-label'))"
    )
    assert names and all(n and " of " in n for n in names), names
    # the same in Persian: «شاه پیک», the card text isolated left-to-right
    ctx2, page2, errs2 = open_seat(browser, web, res, "desktop", "fa")
    fa = page2.eval_on_selector_all(
        ".hand .card", "els => els.map((e) => e.querySelector('.card-name').textContent)"
    )
    assert all(any(s in x for s in ("سکه", "جام", "شمشیر", "چوب")) for x in fa), fa
    assert page2.evaluate(
        "[...document.querySelectorAll('.log .cinline')].every((e) => e.getAttribute('dir') === 'ltr')"
    )
    assert errs == [] and errs2 == []
    ctx.close()
    ctx2.close()


def test_turns_tricks_and_errors_are_announced(web: ServerThread, browser: Any) -> None:
    res = new_table(web, "sasku")
    ctx, page, errs = open_seat(browser, web, res, "desktop", "en")
    play_until(
        page,
        lambda p: p.locator(".hand.my-turn .card.illegal").count() > 0 or deal_over(p),
        seconds=200,
    )
    said = page.locator("#live-polite").inner_text()
    assert "Your turn" in said or ":" in said, said
    if page.locator(".hand.my-turn .card.illegal").count():
        page.locator(".hand.my-turn .card.illegal").first.click()
        page.wait_for_function("document.querySelector('#live-alert').textContent.length > 0")
        assert "Not allowed" in page.locator("#live-alert").inner_text()
    play_until(page, deal_over)
    assert (
        "wins the trick"
        in page.evaluate(
            "document.querySelector('#live-polite').textContent + document.body.innerText"
        )
        or page.locator(".side .result").count()
    )
    assert errs == []
    ctx.close()
