"""End-to-end: people playing at the web table in headless Chromium, by clicking."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from tests.browser.helpers import click_step
from tests.server.harness import ServerThread
from tests.server.harness import http_json as http

from folkcards.games import GAMES

pytestmark = pytest.mark.browser


def errors_of(page: Any) -> list[str]:
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    return errs


def deal_over(page: Any) -> bool:
    return page.locator(".banner.deal-over").count() > 0


def create_in_lobby(
    page: Any, base: str, game: str, name: str, kinds: dict[int, str] | None = None
) -> str:
    """Fill the lobby form (one deal, fast bots) and create; returns the table id."""
    page.goto(base + "/")
    page.click(f".game-tile:has(input[value={game}])")
    page.wait_for_selector(f".game-tile.on:has(input[value={game}])")
    page.fill("input[name=name]", name)
    page.select_option("select[name=mode]", "deal")
    page.select_option("select[name=bot_delay]", "0.25")
    for seat, kind in (kinds or {}).items():
        page.select_option(f"select[name=kind{seat}]", kind)
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".felt")
    return str(page.url.rsplit("/", 1)[1])


def test_sasku_deal_by_clicking_with_reload_and_rule_explained(
    web: ServerThread, browser: Any, tmp_path: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    errs = errors_of(page)
    tid = create_in_lobby(page, web.url, "sasku", "Kadri")
    moves, reloaded, explained = 0, False, False
    deadline = time.time() + 150
    while not deal_over(page):
        assert time.time() < deadline, "the deal did not finish"
        illegal = page.locator(".hand.my-turn .card.illegal")
        if not explained and illegal.count():
            illegal.first.click()  # an illegal card is explained with its rule
            page.wait_for_selector(".toast:not([hidden])")
            assert "SAS-" in page.locator(".toast").inner_text()
            explained = True
        did = click_step(page, prefer="pass")
        if did:
            moves += 1
            page.wait_for_timeout(150)
        else:
            page.wait_for_timeout(100)
        if moves == 6 and not reloaded:
            hand_before = page.locator(".hand .card").count()
            log_before = page.locator(".log li").count()
            page.reload()
            page.wait_for_selector(".felt .seat.me")
            page.wait_for_function(f"document.querySelectorAll('.log li').length >= {log_before}")
            assert page.locator(".hand .card").count() <= hand_before
            assert page.locator(".seat.me .seat-name").inner_text().startswith("Kadri")
            reloaded = True
    assert reloaded and moves >= 9
    assert page.locator(".side .result").count() == 1
    # the finished deal can be replayed and downloaded
    status, rec = http(web.url, f"/api/tables/{tid}/record")
    assert status == 200 and len(rec["deals"]) == 1
    page.click(".banner.deal-over a[href^='/replay']")
    page.wait_for_selector(".replay-bar")
    page.click("[data-step='9999']")
    assert page.locator(".side .result").count() == 1
    # a downloaded record opened on the Replays page shows the same deal
    record_file = tmp_path / "record.json"
    record_file.write_text(json.dumps(rec))
    page.click("#rp-open")
    page.set_input_files("#record-file", str(record_file))
    page.wait_for_selector(".replay-bar")
    page.click("[data-step='9999']")
    steps = len(rec["deals"][0]["actions"])
    assert f"{steps} / {steps}" in page.locator(".rp-step").inner_text()
    assert page.locator(".side .result").count() == 1
    assert errs == []
    ctx.close()


def test_two_humans_at_one_scopone_table(web: ServerThread, browser: Any) -> None:
    a = browser.new_context(viewport={"width": 1100, "height": 820})
    b = browser.new_context(viewport={"width": 390, "height": 844})
    pa, pb = a.new_page(), b.new_page()
    errs = errors_of(pa) + errors_of(pb)
    tid = create_in_lobby(pa, web.url, "scopone", "Anna", {2: "human"})
    invite = pa.locator(".banner code").inner_text()
    assert invite.endswith(f"/t/{tid}")
    pb.goto(invite)
    pb.wait_for_selector(".take")
    pb.fill("#join-name", "Bruno")
    pb.click(".take[data-seat='2']")
    pb.wait_for_selector(".seat.me")
    assert "Bruno" in pb.locator(".seat.me").inner_text()
    pa.wait_for_selector(".felt .hand, .felt")
    deadline = time.time() + 150
    turns = {"a": 0, "b": 0}
    while not (deal_over(pa) and deal_over(pb)):
        assert time.time() < deadline, "the Scopone deal did not finish"
        if click_step(pa):
            turns["a"] += 1
        if click_step(pb):
            turns["b"] += 1
        pa.wait_for_timeout(80)
    assert turns["a"] >= 9 and turns["b"] >= 9
    assert "Anna" in pb.locator(".seat[data-seat='0']").inner_text()
    assert errs == []
    a.close()
    b.close()


def test_persian_rtl_and_phone_width(web: ServerThread, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 812})
    page = ctx.new_page()
    errs = errors_of(page)
    page.goto(web.url + "/")
    page.select_option("#lang-select", "fa")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert page.evaluate("document.documentElement.lang") == "fa"
    assert page.locator("#create button[type=submit]").inner_text() == "ساختن میز"
    assert "۴" in page.locator(".game-pick").inner_text()  # Persian digits
    game = "sasku"
    create_in_lobby(page, web.url, game, "سارا")
    page.wait_for_selector(".felt .seat.me")
    assert page.evaluate("getComputedStyle(document.querySelector('.side')).direction") == "rtl"
    # nothing spills sideways on a 375-px phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    label = page.locator(".tb-title").inner_text()
    assert any("\u0600" <= ch <= "\u06ff" for ch in label)
    assert errs == []
    ctx.close()


def test_screenshot_of_each_game_table(web: ServerThread, browser: Any, artifacts: Path) -> None:
    for game in sorted(GAMES):
        g = GAMES[game]
        n = g.num_seats(g.normalize_variant({}))
        body = {
            "game": game,
            "name": "You",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * (n - 1),
            "options": {"bot_delay": 0.05},
        }
        status, res = http(web.url, "/api/tables", body)
        assert status == 200
        ctx = browser.new_context(viewport={"width": 1280, "height": 860})
        seat = json.dumps({"seat": res["seat"], "token": res["token"]})
        ctx.add_init_script(f"localStorage.setItem('fc.seat.{res['id']}', {json.dumps(seat)})")
        page = ctx.new_page()
        errs = errors_of(page)
        page.goto(f"{web.url}/t/{res['id']}")
        page.wait_for_selector(".seat.me")
        # play into the deal until cards are on the table (or a dozen moves)
        for _ in range(60):
            if page.locator(".center .card").count() >= 2 and page.locator(".hand.my-turn").count():
                break
            click_step(page, prefer="pass")
            page.wait_for_timeout(120)
        page.wait_for_timeout(700)  # let animations settle
        path = artifacts / f"web-{game}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000
        assert errs == []
        ctx.close()
