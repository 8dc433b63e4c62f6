"""The replay narrates each step as the live table did, in English and Persian: a trick won
with its points, a Scopa, from the events a spectator had (the replay frames' ``events``).
The step's events are said in the replay bar, on the felt and in the move log; stepping
back takes a felt note away. Screenshots in ``artifacts/replay-narration-<game>-<lang>-<size>.png``."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import SIZES, settle
from tests.server.harness import ServerThread
from tests.server.harness import http_json as http

from folkcards.engine.api import SPECTATOR
from folkcards.games import GAMES

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"scopa": "Scopa!", "sweeps": "sweeps the table", "wins": r"wins the trick, \+\d+"},
    "fa": {"scopa": "اسکوپا!", "sweeps": "میز را پاک می‌کند", "wins": r"تریک را می‌برد، \+[۰-۹]+"},
}


def shared_deal(web: ServerThread, game: str, kind: str) -> tuple[str, int]:
    """A random deal of ``game`` with an event of ``kind``, shared on the server: its id, and
    the step (actions played) at which the first such event happened."""
    g = GAMES[game]
    for seed in range(500):
        rng = random.Random(seed)
        state = g.random_deal(rng)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if not any(e.kind == kind for e in state.events_for(SPECTATOR)):
            continue
        replay = g.deal_from_record(state.record(), state.variant)
        k = 0
        for text in state.record()["actions"]:
            replay.apply(text)
            k += 1
            if any(e.kind == kind for e in replay.events_for(SPECTATOR)):
                break
        status, res = http(web.url, "/api/records", dict(state.record(), game=game))
        assert status == 200, res
        return str(res["id"]), k
    pytest.fail(f"no {game} deal with a {kind}")


def open_replay(browser: Any, web: ServerThread, rid: str, step: int, lang: str, size: str) -> Any:
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h})
    ctx.add_init_script(f"localStorage.setItem('fc.lang', {json.dumps(lang)});")
    page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(f"{web.url}/replay?record={rid}&step={step}")
    page.wait_for_selector(".replay-bar")
    ARTIFACTS.mkdir(exist_ok=True)
    return ctx, page


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fa", "phone")])
def test_the_replay_narrates_a_scopa(web: ServerThread, browser: Any, lang: str, size: str) -> None:
    words = WORDS[lang]
    rid, k = shared_deal(web, "scopone", "sweep")
    ctx, page = open_replay(browser, web, rid, k - 1, lang, size)
    forward, back = ("ArrowLeft", "ArrowRight") if lang == "fa" else ("ArrowRight", "ArrowLeft")
    page.keyboard.press(forward)  # step onto the sweep, as a person steps through (RTL: ←)
    page.wait_for_selector(".rp-said")
    said = page.locator(".rp-said").inner_text()
    assert words["scopa"] in said and words["sweeps"] in said, said
    assert page.locator(".felt-note.scopa").inner_text().strip() == words["scopa"]
    log = page.locator(".log li.ev-scopa").all_inner_texts()
    assert log and words["sweeps"] in log[-1], log
    assert page.locator(".rp-said").is_visible()
    settle(page)
    page.screenshot(path=str(ARTIFACTS / f"replay-narration-scopone-{lang}-{size}.png"))
    page.keyboard.press(back)  # back before the sweep: nothing of it is said
    page.wait_for_function("() => !document.querySelector('.felt-note.scopa')")
    assert words["sweeps"] not in " ".join(page.locator(".log li.ev").all_inner_texts())
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()


@pytest.mark.parametrize(("lang", "size"), [("fa", "desktop"), ("en", "phone")])
def test_the_replay_narrates_a_trick_with_its_points(
    web: ServerThread, browser: Any, lang: str, size: str
) -> None:
    words = WORDS[lang]
    rid, k = shared_deal(web, "sasku", "trick")
    ctx, page = open_replay(browser, web, rid, k, lang, size)
    page.wait_for_selector(".rp-said")
    said = page.locator(".rp-said").inner_text()
    assert re.search(words["wins"], said), said
    assert page.locator(".trick-note").count() == 1
    log = page.locator(".log li.ev-trick").all_inner_texts()
    assert len(log) == 1 and re.search(words["wins"], log[0]), log
    # the whole deal told in the log at its last step, one line per trick
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelectorAll('.log li.ev-trick').length >= 9")
    settle(page)
    page.screenshot(path=str(ARTIFACTS / f"replay-narration-sasku-{lang}-{size}.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()
