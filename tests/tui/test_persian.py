"""The terminal table in Persian (``--lang fa``), driven through a pseudo-terminal as a
Persian-speaking person plays: every prompt, menu label, narration line, refused input's
explanation, hint and result in Persian with Persian digits, card codes kept as they are
typed; Persian digits and words typed are understood; the screen fits 80×24; visual order
(``--bidi visual``) for terminals without bidi. The catalogs behind it are the web table's
(``folkcards/guide/messages.<lang>.json``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tui_driver import Terminal, command, env, plain

from folkcards.tui import i18n

PERSIAN = re.compile("[\u0600-\u06ff]")
PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufeff]")
"""Arabic-script letters in their joined forms (what visual order writes)."""
ENGLISH_WORDS = re.compile(
    r"\b(Your|choices|Trick|trick|Deal|deal|Not allowed|Hint|Match|score|Seat|seat|You|"
    r"Partner|points|strokes|passed|wins|takes|trump)\b"
)
"""Words of the English table that must not appear in the Persian one."""
CARD = re.compile(r"\b[AKQJT98765432][CSHD]\b")
LOGICAL = ["--lang", "fa", "--bidi", "logical"]


def to_ascii(text: str) -> str:
    return i18n.ascii_digits(text)


def persian_choices(screen: str) -> list[str]:
    """The menu entries drawn under «گزینه‌های شما», in order (Persian digits read)."""
    text = plain(screen)
    text = text[text.rfind("گزینه‌های شما") :]
    found: dict[int, str] = {}
    for line in text.split("\n")[1:]:
        if line.rstrip().endswith(">"):
            break
        for m in re.finditer(r"(?:^|\s)#?([۰-۹]+)\) (\S+(?: \S+)*?)(?=\s{2,}|\s*$)", line):
            found[int(to_ascii(m.group(1)))] = m.group(2)
    return [found[i] for i in sorted(found)]


def answer_for(screen: str) -> str:
    """What a person types at this prompt to go on with the first choice."""
    text = plain(screen).rstrip()
    lines = text.split("\n")
    last = lines[-1]
    if "دست بعد؟" in last:
        return "q"
    if "ذخیره شود؟" in last or "Enter =" in last:
        return ""
    ask = lines[-2] if len(lines) > 1 else ""
    if "کدام کارت" in ask:
        return "9h"
    if "کدام؟" in ask:
        m = re.search(r"[۰-۹]+", ask.split("(")[-1])
        return to_ascii(m.group(0)) if m else "1"
    tail = text[text.rfind("گزینه‌های شما") :]
    return "#۱" if "#۱)" in tail else "۱"


def play_deal(t: Terminal, first: list[str] | None = None) -> list[str]:
    """Play on at every prompt (``first`` typed first) until the command ends; every prompt."""
    script = list(first or [])
    prompts = []
    out = t.read_prompt()
    while not t.closed:
        prompts.append(out)
        screen = plain(out)
        lines = screen.rstrip("\n").split("\n")
        assert all(i18n.width(line) <= 80 for line in lines), screen[-1500:]
        t.send(script.pop(0) if script else answer_for(out))
        out = t.read_prompt()
    return prompts


@pytest.mark.parametrize("game", ["sasku", "huutopussi"])
def test_a_whole_deal_in_persian(game: str, tmp_path: Path) -> None:
    """Every prompt and line of a deal at 80×24 is Persian: the menu in Persian words and
    digits, the narration (tricks with their winner and points), the deal's breakdown and
    the open hands; a Persian digit chooses; the saved record is the engine's."""
    save = tmp_path / "fa.json"
    args = ["play", game, "--seed", "5", "--bots", "heuristic", "--save", str(save), *LOGICAL]
    t = Terminal(args, rows=24, cols=80)
    try:
        prompts = play_deal(t)
        assert t.proc.wait(timeout=60) == 0
    finally:
        t.kill()
    shown = plain(t.transcript)
    decisions = [p for p in prompts if "گزینه‌های شما" in plain(p)]
    assert decisions, shown[-2000:]
    for p in decisions:
        screen = plain(p)
        assert screen.rstrip().endswith("(جایگاه ۰) >"), screen[-300:]
        assert persian_choices(p), screen[-1500:]
        assert "دست شما:" in screen
    leftover = ENGLISH_WORDS.findall(shown.replace("\u2066", " ").replace("\u2069", " "))
    assert leftover == [], (leftover, shown[-3000:])
    assert "تریک" in shown and "←" in shown  # a trick and its winner
    assert "پایان دست ۱" in shown and "این دست:" in shown
    assert "دست‌ها در نخستین کارت، اکنون رو باز:" in shown
    assert re.search("[۰-۹]", shown) and CARD.search(shown)
    assert "ذخیره شد" in shown
    record = json.loads(save.read_text())
    assert record["game"] == game and record["deals"][0]["actions"]


def until_choices(t: Terminal, phase_word: str) -> str:
    out = t.read_prompt()
    for _ in range(60):
        if f"گزینه‌های شما ({phase_word}" in plain(out):
            return out
        t.send(answer_for(out))
        out = t.read_prompt()
    raise AssertionError(plain(out)[-1500:])


def test_a_refused_input_is_explained_in_persian() -> None:
    """A card not held, an unknown word and a bid in Persian digits: the engine's reason in
    Persian with its rule ID, then the prompt again."""
    t = Terminal(["play", "sasku", "--bots", "random", "--seed", "3", *LOGICAL], rows=24, cols=80)
    try:
        out = until_choices(t, "بازی تریک‌ها")
        hand = CARD.findall(plain(out).split("دست شما:")[-1].split("\n")[0])
        card = next(c for c in ("TH", "AS", "9C", "7D", "KH") if c not in hand)
        t.send(card.replace("T", "10").lower())
        reply = plain(t.read_prompt())
        assert re.search(
            rf"مجاز نیست: بازی \u2066{card}\u2069 — \u2066{card}\u2069 در دست شما نیست "
            r"\(\u2066SAS-10\.1\u2069\)",
            reply,
        ), reply
        assert reply.rstrip().endswith("(جایگاه ۰) >")
        t.send("xyzzy")
        reply = plain(t.read_prompt())
        assert "مجاز نیست: «xyzzy» حرکتی از این بازی نیست" in reply, reply
        t.send(f"چرا {card.lower()}")  # a command word in Persian
        reply = plain(t.read_prompt())
        assert "در دست شما نیست" in reply and "SAS-10.1" in reply, reply
    finally:
        t.kill()


def test_persian_digits_bid_and_a_jump_bid_asks_in_persian() -> None:
    t = Terminal(["play", "huutopussi", "--bots", "random", "--seed", "4", *LOGICAL])
    try:
        out = until_choices(t, "خواندن")
        m = re.search(r"بخوان ([۰-۹]+)–([۰-۹]+) با گام ۵", plain(out))
        assert m, plain(out)[-800:]
        low = int(to_ascii(m.group(1)))
        t.send("۶۲")
        reply = plain(t.read_prompt())
        assert "گام ۵" in reply and "HUU-4.2" in reply and "مجاز نیست" in reply, reply
        jump = low + 20
        t.send("".join("۰۱۲۳۴۵۶۷۸۹"[int(d)] for d in str(jump)))
        ask = plain(t.read_prompt())
        assert "خواندن پرشی" in ask and ask.rstrip().endswith("n = نه >"), ask
        t.send("")
        done = plain(t.read_prompt())
        with i18n.using("fa"):
            assert f"شما: بخوان {i18n.num(jump)}" in done, done[-800:]
    finally:
        t.kill()


def test_the_hint_in_persian() -> None:
    args = ["play", "sasku", "--bots", "random", "--seed", "3", "--hint", "search:iters=8"]
    t = Terminal([*args, *LOGICAL], rows=24, cols=80)
    try:
        out = until_choices(t, "بازی تریک‌ها")
        options = persian_choices(out)
        t.send("؟")
        reply = plain(t.read_prompt())
        assert "پیشنهاد: " in reply, reply
        said = reply.split("پیشنهاد: ", 1)[1].split("\n")[0].strip()
        assert said.split()[0] == "بازی" and said in options, (said, options)
        assert "ارزش دست به درصد" in reply or "قاعده‌های سرانگشتی" in reply, reply
        assert "٪" in reply or ">" in reply
        assert not re.search(r"\b(Hint|deal value|recommended)\b", reply), reply
    finally:
        t.kill()


def test_visual_order_for_a_terminal_without_bidi() -> None:
    """``--bidi visual``: every line reordered and its letters joined, the prompt still ends
    where the person types, and the game still plays."""
    args = ["play", "sasku", "--bots", "random", "--seed", "3", "--lang", "fa", "--bidi", "visual"]
    t = Terminal(args, rows=24, cols=80)
    try:
        out = t.read_prompt()
        screen = plain(out)
        assert PRESENTATION.search(screen), screen[-800:]
        assert "گزینه‌های شما" not in screen  # the logical text is not what is written
        assert screen.endswith("> ")
        assert "\u2066" not in screen and "\u200c" not in screen
        t.send("1")
        reply = plain(t.read_prompt())
        assert PRESENTATION.search(reply) and reply.endswith("> ")
        t.send("quit")
        t.read_prompt()
        t.send("")
        assert t.finish() == 0
    finally:
        t.kill()


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(args), input=stdin, capture_output=True, text=True, env=env(), timeout=120
    )


def test_hint_command_and_demo_in_persian(tmp_path: Path) -> None:
    """``folkcards hint --lang fa`` and ``folkcards demo --lang fa``: Persian text (a pipe is
    written in logical order)."""
    import random

    from folkcards.engine.match import Match
    from folkcards.games import GAMES

    match = Match(GAMES["sasku"], {}, rng=random.Random(2))
    deal = match.new_deal()
    while deal.phase != "play":
        deal.apply(deal.legal_actions()[0])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(match.record()))
    res = run(["hint", str(path), "--bot", "heuristic", "--lang", "fa"])
    assert res.returncode == 0, res.stderr
    assert "انتخاب: بازی" in res.stdout and "(پیشنهادشده)" in res.stdout, res.stdout
    assert "ساسکو · جایگاه" in res.stdout and not PRESENTATION.search(res.stdout)
    demo = run(["demo", "scopone", "--seed", "1", "--deals", "1", "--lang", "fa"])
    assert demo.returncode == 0, demo.stderr
    assert "بازیکنان:" in demo.stdout and "نتیجهٔ دست" in demo.stdout, demo.stdout[:1500]
    assert "امتیاز مسابقه:" in demo.stdout
    assert not ENGLISH_WORDS.findall(demo.stdout.replace("\u2066", " ").replace("\u2069", " "))
