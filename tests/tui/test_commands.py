"""``folkcards play`` end to end: EOF, Ctrl-C, quit and ``--resume``, match end, bad options;
and ``folkcards demo`` for every registered game."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import tui_toygame
from tui_driver import Terminal, choices, command, env, hand_line, plain

from folkcards.engine.records import load_match
from folkcards.games import GAMES
from folkcards.tui.present import takes_tricks


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy game in this process's registry, to replay the records its runs save."""
    added = "toy" not in GAMES
    tui_toygame.install()
    yield
    if added:
        GAMES.pop("toy", None)


def run(args: list[str], stdin: str = "", toy: bool = True) -> subprocess.CompletedProcess[str]:
    """The command with ``stdin`` piped in (not a terminal)."""
    return subprocess.run(
        command(args, toy), input=stdin, capture_output=True, text=True, env=env(), timeout=120
    )


def test_eof_saves_to_the_save_file(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    res = run(["play", "toy", "--bots", "random", "--seed", "1", "--save", str(save)], "#1\n")
    assert res.returncode == 0, res.stderr
    assert "Input closed." in res.stdout
    assert f"Match saved to {save}" in res.stdout
    assert "Traceback" not in res.stdout + res.stderr
    record = json.loads(save.read_text())
    assert len(record["deals"][0]["actions"]) >= 1


def test_eof_without_save_file_says_so() -> None:
    res = run(["play", "toy", "--bots", "random", "--seed", "1"], "")
    assert res.returncode == 0
    assert "Input closed." in res.stdout
    assert "was not saved" in res.stdout


def test_ctrl_c_offers_to_save(tmp_path: Path) -> None:
    target = tmp_path / "after-interrupt.json"
    t = Terminal(["play", "toy", "--bots", "random", "--seed", "5"], toy=True)
    try:
        assert "Your choices" in plain(t.read_prompt())
        t.send("#1")
        t.read_prompt()
        t.interrupt()
        out = plain(t.read_prompt())
        assert "Interrupted." in out and "Save the match?" in out
        t.send(str(target))
        assert t.finish() == 130
    finally:
        t.kill()
    assert f"Match saved to {target}" in t.transcript
    assert "Traceback" not in t.transcript
    rec = json.loads(target.read_text())
    assert rec["game"] == "toy" and rec["deals"][0]["actions"]


def test_quit_then_resume_continues_the_same_deal(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    t = Terminal(["play", "toy", "--bots", "random", "--seed", "8", "--save", str(save)], toy=True)
    try:
        screen = t.read_prompt()
        t.send("#1")
        screen = t.read_prompt()
        hand_before = hand_line(screen)
        t.send("quit")
        assert t.finish() == 0
    finally:
        t.kill()
    first = json.loads(save.read_text())
    done = first["deals"][0]["actions"]
    assert not load_match(first).current.is_over
    t = Terminal(["play", "--resume", str(save)], toy=True)
    try:
        screen = t.read_prompt()
        assert "Your choices" in plain(screen)
        assert sorted(hand_line(screen)) == sorted(hand_before)
        while "Your choices" in plain(screen):
            t.send("#1")
            screen = t.read_prompt()
        assert "End of deal 1" in t.transcript
        assert "Next deal?" in plain(screen)
        t.send("q")
        assert t.finish() == 0
    finally:
        t.kill()
    after = json.loads(save.read_text())
    assert after["deals"][0]["actions"][: len(done)] == done
    assert load_match(after).current.is_over
    assert after["meta"]["terminal"] == {"people": [0], "bots": "random", "hotseat": False}


def test_the_match_ends_by_the_games_rule() -> None:
    res = run(
        ["play", "toy", "--variant", "target=1", "--bots", "random", "--seed", "2"], "#1\n" * 40
    )
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "Match over" in out and "The match is won by Seat 1 & Seat 3" in out
    assert "Next deal?" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nosuchgame"], "unknown game"),
        (["play", "toy", "--variant", "colour=red"], "unknown variant key"),
        (["play", "toy", "--variant", "target=many"], "needs an integer"),
        (["play", "toy", "--seat", "7"], "seat 7 is not at this table"),
        (["play", "toy", "--bots", "wizard"], "unknown bot"),
        (["play"], "name a game"),
    ],
)
def test_bad_options_exit_2(args: list[str], message: str) -> None:
    res = run(args)
    assert res.returncode == 2
    assert message in res.stderr
    assert "Traceback" not in res.stderr


def test_resume_of_a_bad_file_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "toy", "deals": []}')
    res = run(["play", "--resume", str(bad)])
    assert res.returncode == 1 and "not a match record" in res.stderr
    res = run(["play", "--resume", str(tmp_path / "missing.json")])
    assert res.returncode == 1 and "cannot read" in res.stderr


@pytest.mark.parametrize("name", sorted(GAMES))
def test_demo_logs_a_deal_of_every_game(name: str) -> None:
    res = run(["demo", name, "--seed", "1", "--deals", "1", "--bots", "random"], toy=False)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "Deal 1 · dealer Seat" in out and "Deal result" in out and "Match score" in out
    if takes_tricks(name):  # the game card's tricks (Scopone's cards go to a table)
        result = load_result_keys(out)
        assert "Trick 1:" in out or "redeal" in result
    else:
        assert re.search(r"Seat \d: play \S\S", out)


def load_result_keys(out: str) -> str:
    """The text of the deal-result table."""
    return out.split("Deal result", 1)[1]


def test_demo_plays_a_whole_match() -> None:
    game = "sasku"
    res = run(
        ["demo", game, "--seed", "1", "--bots", "heuristic"],
        toy=True,
    )
    assert res.returncode == 0, res.stderr
    assert "Match over" in res.stdout and "Winner:" in res.stdout


def test_short_forms_at_a_real_prompt() -> None:
    """A card typed alone with 10 for T, and an ambiguous short form, at a real prompt."""
    t = Terminal(["play", "toy", "--bots", "random", "--seed", "3"], toy=True)
    try:
        screen = t.read_prompt()
        bids = [o for o in choices(screen) if o.startswith("bid")]
        t.send("b")
        reply = plain(t.read_prompt())
        assert len(bids) == 3
        assert "could mean several choices" in reply
        t.send("pa")
        screen = t.read_prompt()
        while "Your choices (Play)" not in plain(screen):
            t.send("#1")
            screen = t.read_prompt()
        option = choices(screen)[-1]
        card = option.split()[1]
        t.send(card.lower())
        assert f"You: {option}" in plain(t.read_prompt())
    finally:
        t.kill()
