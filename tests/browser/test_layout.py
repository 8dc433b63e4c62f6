"""Every screen: at 390×844, 844×390 and 1280×860, in English and Persian, the hand, the
trick (or Scopone's table) and the current decision are on screen together without
scrolling; no card of the hand or the trick has its index corner covered (5-player tricks,
the overlapped hand in RTL); results fit. Screenshots of each game's table and result at
each size in both languages go to artifacts/web-<game>-<table|result>-<size>-<lang>.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.helpers import (
    SIZES,
    covered_indexes,
    deal_over,
    open_seat,
    open_seat_at_a_trick,
    out_of_view,
    play_until,
    settle,
)
from tests.server.harness import ServerThread

from folkcards.games import GAMES

pytestmark = pytest.mark.browser

LANGS = ("en", "fa")


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= innerWidth"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_screen(web: ServerThread, browser: Any, artifacts: Path, game: str) -> None:
    res, ctx, page, errs = open_seat_at_a_trick(browser, web, game)
    problems: list[str] = []
    for size in SIZES:
        for lang in LANGS:
            c, p, e = open_seat(browser, web, res, size, lang)
            p.wait_for_selector(".hand.my-turn")
            settle(p)
            where = f"{game} {size} {lang}"
            for what, sel in (
                ("hand", ".hand .card"),
                ("trick/table", ".center .card"),
                ("decision", ".prompt, .controls .act, .controls .act-from-select"),
            ):
                if p.locator(sel).count() == 0 and what != "decision":
                    problems.append(f"{where}: no {what} shown")
                gone = out_of_view(p, sel)
                if gone:
                    problems.append(f"{where}: {what} not on screen: {gone}")
            for what, sel in (
                ("hand", ".hand .card"),
                ("trick", ".trick .card"),
                ("table", ".fish-table .card"),
            ):
                hidden = covered_indexes(p, sel)
                if hidden:
                    problems.append(f"{where}: {what} index covered: {hidden}")
            if not no_sideways_scroll(p):
                problems.append(f"{where}: the page scrolls sideways")
            p.screenshot(path=str(artifacts / f"web-{game}-table-{size}-{lang}.png"))
            problems += [f"{where}: page error {x}" for x in e]
            c.close()
    play_until(page, deal_over)
    for size in SIZES:
        for lang in LANGS:
            c, p, e = open_seat(browser, web, res, size, lang)
            p.wait_for_selector(".side .result")
            settle(p)
            where = f"{game} result {size} {lang}"
            fits = p.evaluate(
                "[...document.querySelectorAll('.result-banner, .side .result')].filter((el) =>"
                " el.scrollHeight > el.clientHeight + 2 || el.scrollWidth > el.clientWidth + 2)"
                ".map((el) => el.className)"
            )
            if fits:
                problems.append(f"{where}: overflows: {fits}")
            if out_of_view(p, ".result-banner"):
                problems.append(f"{where}: the deal's score is not on screen")
            if not no_sideways_scroll(p):
                problems.append(f"{where}: the page scrolls sideways")
            p.screenshot(path=str(artifacts / f"web-{game}-result-{size}-{lang}.png"))
            problems += [f"{where}: page error {x}" for x in e]
            c.close()
    assert problems == [], "\n".join(problems)
    assert errs == []
    ctx.close()
