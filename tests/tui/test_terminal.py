"""The teaching table at a real prompt: a number is a bid and a jump bid asks first, the
engine's reason for a refused input, hot-seat hand-over clears the scrollback, an ASCII
terminal gets a plain table, a missing terminal extra is named, ``rules`` opens the
phase's section (and ``folkcards rules`` prints the pages)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import tui_toygame
from tui_driver import Terminal, choices, command, env, numeric_menu, plain

from folkcards.games import GAMES


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    added = "toy" not in GAMES
    tui_toygame.install()
    yield
    if added:
        GAMES.pop("toy", None)


def until(t: Terminal, out: str, marker: str, limit: int = 80) -> str:
    """Answer every other prompt with the first choice until ``marker`` is on screen."""
    for _ in range(limit):
        text = plain(out)
        if marker in text.split("Your choices")[-1] or marker in text[-400:]:
            return out
        last = text.rstrip("\n").split("\n")[-1]
        if "Next deal?" in last or "n = no" in last or "Signal with" in last:
            t.send("")
        else:
            t.send("#1")
        out = t.read_prompt()
    raise AssertionError(f"{marker!r} never shown: " + plain(out)[-1500:])


def test_a_number_is_a_bid_and_a_jump_bid_asks_first() -> None:
    t = Terminal(["play", "huutopussi", "--bots", "random", "--seed", "4"], rows=24, cols=80)
    try:
        out = until(t, t.read_prompt(), "Your choices (Bidding)")
        text = plain(out)
        assert numeric_menu(text)
        entry = choices(text)[0]
        m = re.match(r"bid (\d+)–(\d+) in steps of 5", entry)
        assert m, entry
        low = int(m.group(1))
        jump = low + 20
        t.send("62")
        reply = plain(t.read_prompt())
        assert "steps of 5" in reply and "HUU-4.2" in reply, reply
        assert "not a choice" not in reply
        t.send(str(jump))
        ask = plain(t.read_prompt())
        assert f"Jump bid: {jump} is 4 steps above the lowest bid {low}" in ask, ask
        t.send("n")
        again = plain(t.read_prompt())
        assert "You: bid" not in again and again.rstrip().endswith("(seat 0) >")
        t.send(str(jump))
        t.read_prompt()
        t.send("")
        done = plain(t.read_prompt())
        assert f"You: bid {jump}" in done, done[-800:]
    finally:
        t.kill()


def test_explain_off_bids_at_once_and_drops_the_notes() -> None:
    args = ["play", "huutopussi", "--bots", "random", "--seed", "4", "--no-explain"]
    t = Terminal(args, rows=24, cols=80)
    try:
        out = until(t, t.read_prompt(), "Your choices (Bidding)")
        low = int(re.search(r"bid (\d+)–", plain(out)).group(1))  # type: ignore[union-attr]
        t.send(str(low + 20))
        done = plain(t.read_prompt())
        assert f"You: bid {low + 20}" in done and "Jump bid" not in done
    finally:
        t.kill()


def test_sasku_auction_number_is_not_a_menu_position() -> None:
    t = Terminal(["play", "sasku", "--bots", "random", "--seed", "3"], rows=24, cols=80)
    try:
        until(t, t.read_prompt(), "Your choices (Auction)")
        t.send("5")
        reply = plain(t.read_prompt())
        assert "You: bid 5" in reply or "Not allowed: bid 5" in reply, reply[-600:]
    finally:
        t.kill()


def test_a_card_not_held_gets_the_engines_reason() -> None:
    t = Terminal(["play", "sasku", "--bots", "random", "--seed", "3"], rows=24, cols=80)
    try:
        out = until(t, t.read_prompt(), "Your choices (Trick play)")
        hand = re.findall(
            r"\b([AKQJT9876][CSHD])\b", plain(out).split("Your hand:")[-1].split("\n")[0]
        )
        card = next(c for c in ("TH", "AS", "9C", "7D", "KH") if c not in hand)
        t.send(card.replace("T", "10").lower())
        reply = plain(t.read_prompt())
        assert re.search(
            rf"Not allowed: play {card} — (you do not hold {card}|{card} is not in your hand) "
            r"\(SAS-10\.1\)",
            reply,
        ), reply
    finally:
        t.kill()


def test_hotseat_hand_over_clears_the_scrollback_and_names_the_seat() -> None:
    t = Terminal(["play", "toy", "--hotseat", "--seed", "3"], toy=True)
    try:
        out = t.read_prompt()
        assert "\x1b[3J" in out and "\x1b[2J" in out, "scrollback not cleared"
        text = plain(out)
        seat = int(re.search(r"Seat (\d): press Enter when ready", text).group(1))  # type: ignore[union-attr]
        assert f"Hand over to Seat {seat} (seat {seat})" in text
        t.send("")
        screen = t.read_prompt()
        assert screen.index("\x1b[3J") < screen.index("Your choices")
    finally:
        t.kill()


def test_an_ascii_terminal_gets_a_plain_table() -> None:
    t = Terminal(
        ["play", "sasku", "--bots", "random", "--seed", "3"], rows=24, cols=80, encoding="ascii"
    )
    try:
        out = until(t, t.read_prompt(), "Your choices (Trick play)")
        t.send("quit")
        t.read_prompt()
        t.send("")
        assert t.finish() == 0
    finally:
        t.kill()
    raw = t.raw
    assert "Traceback" not in raw and "UnicodeEncodeError" not in raw
    assert raw.isascii(), sorted({c for c in raw if not c.isascii()})
    text = plain(out)
    assert "+-" in text and "trump " in text
    assert re.search(r"trump (clubs|spades|hearts|diamonds)\b", text)


def test_without_rich_the_extra_to_install_is_named() -> None:
    code = (
        "import sys; sys.modules['rich'] = None\n"
        "from folkcards.cli import main\n"
        "sys.exit(main(['play', 'sasku']))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env(), timeout=60
    )
    assert res.returncode == 2, res.stderr
    assert "pip install 'folkcards[tui]'" in res.stderr
    assert "Traceback" not in res.stderr and "ModuleNotFoundError" not in res.stderr


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(args), capture_output=True, text=True, env=env(), timeout=60)


@pytest.mark.parametrize("name", ["sasku", "scopone", "sheepshead", "satat", "huutopussi"])
def test_rules_command_prints_the_page(name: str) -> None:
    res = run(["rules", name])
    if "not in this installation" in res.stdout:
        pytest.skip("no players' guide in this checkout")
    assert res.returncode == 0, res.stderr
    assert GAMES[name].title.split()[0] in res.stdout
    fa = run(["rules", name, "--lang", "fa"])
    assert fa.returncode == 0 and re.search(r"[\u0600-\u06ff]", fa.stdout), fa.stdout[:300]


def test_rules_command_errors() -> None:
    assert run(["rules", "nosuchgame"]).returncode == 2
    res = run(["rules", "sasku", "--section", "nosuchsection"])
    assert res.returncode == 1 and "Traceback" not in res.stderr


def test_rules_at_the_table_opens_the_phase() -> None:
    t = Terminal(["play", "sasku", "--bots", "random", "--seed", "3"], rows=24, cols=80)
    try:
        until(t, t.read_prompt(), "Your choices (Auction)")
        t.send("rules")
        reply = plain(t.read_prompt())
        if "not in this installation" in reply:
            pytest.skip("no players' guide in this checkout")
        assert "Bidding" in reply and "folkcards rules sasku" in reply, reply[-1500:]
    finally:
        t.kill()
