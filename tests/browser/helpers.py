"""Shared steps of the browser tests: tables made through the API, a seat opened in a
browser context of a given size and language, moves made by keyboard or by clicking, and
the checks of what a person sees (in the viewport, every card's index corner uncovered)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.server.harness import ServerThread
from tests.server.harness import http_json as http

from folkcards.games import GAMES

SIZES = {"desktop": (1280, 860), "phone": (390, 844), "landscape": (844, 390)}

AXE_PLACES = [
    Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js",
    Path.home() / ".cache" / "folkcards" / "node_modules" / "axe-core" / "axe.min.js",
    Path("/usr/local/lib/node_modules/axe-core/axe.min.js"),
    Path("/usr/lib/node_modules/axe-core/axe.min.js"),
]


def axe_path() -> Path | None:
    """axe-core's script from npm (scripts/test installs it into tests/browser/node_modules)."""
    import os

    env = os.environ.get("FOLKCARDS_AXE")
    for p in [Path(env)] if env else AXE_PLACES:
        if p.is_file():
            return p
    return None


def seats_of(game: str, variant: dict[str, Any] | None = None) -> int:
    g = GAMES[game]
    return int(g.num_seats(g.normalize_variant(variant or {})))


def new_table(
    web: ServerThread,
    game: str,
    *,
    variant: dict[str, Any] | None = None,
    level: str = "random",
    mode: str = "deal",
    name: str = "You",
) -> dict[str, Any]:
    """A table with the caller in seat 0 and bots elsewhere; the create answer."""
    n = seats_of(game, variant)
    body = {
        "game": game,
        "name": name,
        "variant": variant or {},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (n - 1),
        "options": {"bot_delay": 0.0, "mode": mode},
    }
    status, res = http(web.url, "/api/tables", body)
    assert status == 200, res
    return dict(res)


def open_seat(
    browser: Any,
    web: ServerThread,
    res: dict[str, Any],
    size: str | tuple[int, int] = "desktop",
    lang: str = "en",
    settings: dict[str, str] | None = None,
) -> tuple[Any, Any, list[str]]:
    """A browser context seated at the table of ``res``; (context, page, page errors)."""
    w, h = SIZES[size] if isinstance(size, str) else size
    ctx = browser.new_context(viewport={"width": w, "height": h})
    seat = json.dumps({"seat": res["seat"], "token": res["token"]})
    init = f"localStorage.setItem('fc.seat.{res['id']}', {json.dumps(seat)});"
    init += f"localStorage.setItem('fc.lang', {json.dumps(lang)});"
    for k, v in (settings or {}).items():
        init += f"localStorage.setItem('fc.{k}', {json.dumps(v)});"
    ctx.add_init_script(init)
    page = ctx.new_page()
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    page.goto(f"{web.url}/t/{res['id']}")
    page.wait_for_selector(".seat.me")
    return ctx, page, errs


def deal_over(page: Any) -> bool:
    return bool(page.locator(".banner.deal-over").count() > 0)


NO_PLAY = ("redeal", "everyone passed", "doubler", "void deal")
NO_PLAY_FA = ("پخش دوباره", "همه پاس دادند", "دوبرابر", "دست باطل")


def no_play_deal(page: Any) -> bool:
    """The finished deal ended before any trick: a redeal (HUU-4.6, SAT-5.4, SAT-6.3),
    everyone passed, a doubler pass-out (SHP-9): its scoring summary says so."""
    summary = page.locator(".side .deal-breakdown summary")
    if not summary.count():
        return False
    text = summary.first.inner_text()
    return any(w in text.lower() for w in NO_PLAY) or any(w in text for w in NO_PLAY_FA)


def open_seat_with_a_turn(
    browser: Any,
    web: ServerThread,
    game: str,
    size: str = "desktop",
    lang: str = "en",
    **table: Any,
) -> tuple[Any, Any, list[str]]:
    """``open_seat`` at a new table whose deal comes to this seat's turn. The decks are
    shuffled from a secure source, so a bot may end a deal before this seat acts (a redeal,
    SAT-5.4 / HUU-4.6): then another table, at most four, and only after such a deal."""
    for _ in range(4):
        res = new_table(web, game, **table)
        ctx, page, errs = open_seat(browser, web, res, size, lang)
        deadline = time.time() + 60
        while not page.locator(".prompt.mine").count() and not deal_over(page):
            assert time.time() < deadline, "neither this seat's turn nor the deal's end came"
            page.wait_for_timeout(50)
        if page.locator(".prompt.mine").count():
            return ctx, page, errs
        assert no_play_deal(page), "a played deal ended without this seat's turn"
        assert errs == []
        ctx.close()
    raise AssertionError(f"four {game} deals in a row ended before this seat's turn")


def open_seat_at_a_trick(
    browser: Any, web: ServerThread, game: str
) -> tuple[dict[str, Any], Any, Any, list[str]]:
    """A new table (its create answer) and this seat opened at desktop size in English,
    played by clicks until cards lie on the felt with this seat to act
    (:func:`trick_on_felt`). A deal of random bots can end before that: with no card played
    (a redeal, HUU-4.6, SAT-5.4, or everyone passed) or with this seat leading every trick;
    then another table, at most four."""
    for _ in range(4):
        res = new_table(web, game)
        ctx, page, errs = open_seat(browser, web, res, "desktop", "en")
        play_until(page, lambda p: trick_on_felt(p) or deal_over(p))
        if trick_on_felt(page):
            return res, ctx, page, errs
        assert errs == []
        ctx.close()
    raise AssertionError(f"four {game} deals in a row ended before a trick came to this seat")


def key_step(page: Any) -> str | None:
    """One move made with the keyboard alone, as a player who cannot use a mouse would:
    Enter in an open chooser; else "c" to reach the hand, arrows to a playable card and
    Enter; else the digit of the first choice. Returns what was done (None: not our turn).
    The page is only read to know what a sighted keyboard user sees."""
    page.wait_for_timeout(40)
    if page.locator("dialog[open] .choice").count():
        page.keyboard.press("Enter")
        return "choice"
    if page.locator("dialog[open]").count():
        page.keyboard.press("Escape")
        return "escape"
    if page.locator(".hand.my-turn .card.legal").count():
        page.keyboard.press("c")
        for _ in range(30):
            if page.evaluate("document.activeElement.matches('.card.legal:not(.selected)')"):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        # a multi-card choice: the confirm button takes the focus once enough are selected
        if page.evaluate(
            "document.activeElement && document.activeElement.matches('.controls .act')"
        ):
            page.keyboard.press("Enter")
        return "card"
    if page.locator(".controls .act, .controls .act-from-select").count():
        page.keyboard.press("1")
        return "decision"
    return None


def click_step(page: Any, *, prefer: str | None = None) -> str | None:
    """One move by clicking: a chooser's first choice, a legal card, else a button."""
    page.wait_for_timeout(40)
    if page.locator("dialog[open] .choice").count():
        page.locator("dialog[open] .choice").first.click()
        return "choice"
    cards = page.locator(".hand.my-turn .card.legal")
    if cards.count():
        cards.first.click()
        return "card"
    buttons = page.locator(".controls .btn.act")
    if buttons.count():
        pref = page.locator(f'.controls .btn.act[data-action="{prefer}"]') if prefer else None
        if pref is not None and pref.count():
            pref.click()
        else:
            buttons.first.click()
        return "button"
    if page.locator(".controls .act-from-select").count():
        page.locator(".controls .act-from-select").first.click()
        return "select"
    return None


def play_until(page: Any, done: Any, *, step: Any = click_step, seconds: float = 150) -> int:
    """Make moves until ``done(page)``; the number of moves made."""
    moves = 0
    deadline = time.time() + seconds
    while not done(page):
        assert time.time() < deadline, "the deal did not get there in time"
        if step(page):
            moves += 1
            page.wait_for_timeout(60)
        else:
            page.wait_for_timeout(80)
    return moves


def trick_on_felt(page: Any) -> bool:
    """Cards on the felt and this seat to act."""
    return bool(
        page.locator(".center .card").count() >= 2 and page.locator(".hand.my-turn").count()
    )


OUT_OF_VIEW = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width === 0 || r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1;
}).map((el) => el.dataset.card || el.dataset.action || el.className)"""

COVERED_INDEX = """(sel) => {
  // the point inside each card's top-left index (rank and suit): the card itself must be the
  // topmost thing there (seats take part: they must not cover a card either)
  for (const s of document.querySelectorAll('.seat')) s.style.pointerEvents = 'auto';
  const bad = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    for (const [fx, fy] of [[0.11, 0.1], [0.12, 0.2]]) {
      const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      if (!hit || !el.contains(hit)) {
        const over = hit && (hit.closest('[data-card]') || hit.closest('.seat') || hit);
        bad.push(`${el.dataset.card} under ${over ? (over.dataset.card || over.getAttribute('class') || over.tagName) : 'nothing'}`);
        break;
      }
    }
  }
  for (const s of document.querySelectorAll('.seat')) s.style.pointerEvents = '';
  return bad;
}"""


def out_of_view(page: Any, selector: str) -> list[str]:
    """Elements matching ``selector`` not wholly inside the viewport (without scrolling)."""
    page.evaluate("window.scrollTo(0, 0)")
    return list(page.evaluate(OUT_OF_VIEW, selector))


def covered_indexes(page: Any, selector: str) -> list[str]:
    """Cards matching ``selector`` whose index corner is covered by something else."""
    page.evaluate("window.scrollTo(0, 0)")
    return list(page.evaluate(COVERED_INDEX, selector))


def settle(page: Any) -> None:
    """Let animations end (and no ghost card fly) before looking."""
    page.wait_for_timeout(650)
    page.wait_for_function("!document.querySelector('.card.ghost')")
