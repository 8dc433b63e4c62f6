"""``folkcards play``, driven through a pseudo-terminal as a person plays it.

For every registered game (so games that land later are covered too) a person at seat 0
plays a whole deal against random bots, using every input form (list numbers, the
canonical text in lower case, cards alone such as ``10h``) and the table commands (bad
input, ``history``, ``?``, ``why CARD``), then stops and the match record is saved. The
saved record is replayed to check what each screen showed: the seat's own hand exactly,
and no card of another hand that the seat could not know.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import tui_toygame
from tui_driver import Terminal, choices, hand_line, last_screen, numeric_menu, plain

from folkcards.cards import mask_text
from folkcards.engine.records import load_match
from folkcards.games import GAMES

CARD = re.compile(r"(?<![A-Za-z0-9])[AKQJT98765432][CSHD](?![A-Za-z0-9])")
RULE_ID = re.compile(r"\b[A-Z]{3}-\d+")
ASKABLE = [r + s for s in "CSHD" for r in "AKQJ"]
"""Cards of every deck (a ``why`` about one not held must cite a rule in every game)."""
CARD_PHASE = re.compile(r"^[a-z]+ [AKQJT98765432][CSHD]$")


RANGE = re.compile(r"^(\w+) (\d+)–(\d+)(?: in steps of (\d+))?$")


def typed(action: str, options: list[str], rng: random.Random, numeric: bool) -> str:
    """One of the ways a person may type ``action``: its menu position (``#n`` in a menu
    with numbers), its text in lower case, or (when it names one choice) its card alone,
    ``10`` for a ten."""
    pos = options.index(action) + 1
    forms = [f"#{pos}" if numeric else str(pos), action.lower()]
    words = action.split(" ")
    if len(words) >= 2 and CARD.fullmatch(words[1]):
        same = [o for o in options if o.split(" ")[1:2] == [words[1]]]
        if len(same) == 1:
            c = words[1]
            forms.append(("10" + c[1] if c[0] == "T" else c).lower())
    return rng.choice(forms)


def pick(options: list[str], rng: random.Random, numeric: bool) -> tuple[list[str], str]:
    """The lines to type for a random menu entry, and the action they make."""
    entry = rng.choice(options)
    m = RANGE.match(entry)
    if m:
        lo, hi, step = int(m.group(2)), int(m.group(3)), int(m.group(4) or 1)
        n = rng.choice(range(lo, min(hi, lo + 2 * step) + 1, step))
        return [str(n) if numeric else f"{m.group(1)} {n}"], f"{m.group(1)} {n}"
    if entry.endswith(" CARD"):
        return [
            f"#{options.index(entry) + 1}" if numeric else str(options.index(entry) + 1),
            "9h",
        ], (entry.removesuffix("CARD") + "9H")
    return [typed(entry, options, rng, numeric)], entry


def play_one_deal(
    args: list[str], toy: bool, seed: str, hint: bool = True, size: tuple[int, int] = (50, 120)
) -> tuple[Terminal, list[str], dict[str, int]]:
    """Play a deal at seat 0 on a terminal of ``size`` (rows, columns), then stop at the
    'Next deal?' prompt; the screens of each decision and how often each table command was
    tried. Every table drawn must fit the terminal."""
    rows, cols = size
    t = Terminal(args, toy=toy, rows=rows, cols=cols)
    rng = random.Random(seed)
    screens: list[str] = []
    tried = {"bad": 0, "history": 0, "hint": 0, "why": 0, "short": 0}
    try:
        out = t.read_prompt()
        while not t.closed:
            text = plain(out)
            last = text.rstrip("\n").split("\n")[-1]
            if "Next deal?" in last:
                t.send("q")
                out = t.read_prompt()
                continue
            assert "Your choices" in text, text[-1500:]
            screen = last_screen(out)
            assert len(screen) <= rows and all(len(ln) <= cols for ln in screen), "\n".join(screen)
            screens.append(out)
            options = choices(text)
            numeric = numeric_menu(text)
            assert options, text[-1500:]
            if not tried["bad"]:
                t.send("xyzzy")
                reply = plain(t.read_prompt())
                assert "Not allowed" in reply and reply.endswith("> ")
                t.send(f"#{len(options) + 5}")
                reply = plain(t.read_prompt())
                assert f"positions go from 1 to {len(options)}" in reply
                tried["bad"] += 1
            if not tried["history"] and len(screens) > 1:
                t.send("history")
                reply = plain(t.read_prompt())
                assert "The deal so far" in reply
                tried["history"] += 1
            if hint and not tried["hint"]:
                t.send("?")
                reply = plain(t.read_prompt())
                assert "Hint: " in reply, reply
                suggested = reply.split("Hint: ", 1)[1].split("\n")[0].strip()
                assert any(suggested.split()[0] == o.split()[0] for o in options), (
                    suggested,
                    options,
                )
                tried["hint"] += 1
            if not tried["why"] and all(CARD_PHASE.match(o) for o in options):
                hand = set(hand_line(text))
                named = {o.split(" ")[1] for o in options}
                others = [c for c in ASKABLE if c not in hand and c not in named]
                target = others[0] if others else None
                if target is not None:
                    t.send(f"why {target.lower()}")
                    reply = plain(t.read_prompt())
                    assert RULE_ID.search(reply), reply
                    tried["why"] += 1
            lines, action = pick(options, rng, numeric)
            if lines[0] not in (
                action.lower(),
                f"#{options.index(action) + 1}" if action in options else "",
            ):
                tried["short"] += 1
            for line in lines:
                t.send(line)
                out = t.read_prompt()
            while (
                plain(out).rstrip().endswith(("n = no >", "none · g grate · p pile >", "v vire >"))
            ):
                t.send("")  # confirm a jump bid; no signal
                out = t.read_prompt()
            assert re.search(rf"\bYou: {re.escape(action)}\b", plain(out)), (
                lines,
                plain(out)[-800:],
            )
    finally:
        if not t.closed:
            t.kill()
    return t, screens, tried


def check_screens(record: dict, screens: list[str], seat: int = 0) -> None:
    """Replay the first deal: at each of the seat's decisions the screen showed its own hand
    and no card of another seat's hand that its observation does not reveal."""
    rep = load_match(record)
    game = rep.game
    deal_rec = dict(record["deals"][0])
    state = game.deal_from_record(deal_rec, rep.variant)
    k = 0
    for text in deal_rec["actions"]:
        if state.to_act == seat:
            assert k < len(screens), "fewer screens than decisions"
            screen = plain(screens[k])
            obs = state.observation(seat)
            assert sorted(hand_line(screen)) == sorted(mask_text(obs.hand))
            public = set(CARD.findall(json.dumps(obs.to_dict())))
            shown = set(CARD.findall(screen))
            for other in range(state.num_seats):
                if other == seat:
                    continue
                hidden = set(mask_text(state.observation(other).hand)) - public
                assert not (hidden & shown), (
                    f"screen {k} shows {sorted(hidden & shown)} of seat {other}"
                )
            k += 1
        state.apply(text)
    assert state.is_over
    assert k == len(screens)


BREAKDOWN = {
    "sasku": "Strokes",
    "scopone": "Primiera",
    "sheepshead": "Card points from",
    "satat": "This deal:",
    "huutopussi": "marriages",
}
"""A phrase of each game's deal-end breakdown in words (from its ``deal_end`` event)."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_person_plays_a_deal_of_every_game(name: str, tmp_path: Path) -> None:
    """A whole deal at seat 0 on an 80×24 terminal: every screen fits, the last trick is
    told with its winner, the deal ends with its breakdown and every hand shown open."""
    save = tmp_path / "match.json"
    args = ["play", name, "--seat", "0", "--bots", "random", "--seed", "11"]
    args += ["--save", str(save), "--hint", "search:iters=8"]
    t, screens, tried = play_one_deal(args, toy=False, seed=name, size=(24, 80))
    assert t.proc.wait(timeout=60) == 0
    shown = " ".join(t.transcript.split())  # lines wrapped at 80 columns joined again
    assert "End of deal 1" in shown and "Deal result" in shown and "Match score" in shown
    assert f"Match saved to {save}" in shown
    assert tried["bad"] and tried["hint"]
    record = json.loads(save.read_text())
    assert record["meta"]["terminal"]["people"] == [0]
    check_screens(record, screens)
    rep = load_match(record)
    deal = rep.game.deal_from_record(record["deals"][0], rep.variant)
    for a in record["deals"][0]["actions"]:
        deal.apply(a)
    tricks = [e for e in deal.events() if e.kind == "trick"]
    end = shown.split("End of deal 1", 1)[1]
    if tricks:
        names = ["You", "Seat 1", "Partner", "Seat 3"] if deal.num_seats == 4 else None
        last = tricks[-1].data
        winner = names[last["winner"]] if names else f"Seat {last['winner']}"
        if not names and last["winner"] == 0:
            winner = "You"
        pattern = rf"Trick {last['number']}: (?:(?!Trick ).)*→ {winner}(?:(?!Trick ).)*last trick"
        assert re.search(pattern, shown), shown[-3000:]
    if not deal.result().get("redeal"):
        assert BREAKDOWN[name] in end, end[:1500]
        assert "Hands at the first card" in end


@pytest.fixture
def toy_registered() -> Iterator[None]:
    """The toy game in this process's registry (to replay its records), for one test."""
    added = "toy" not in GAMES
    tui_toygame.install()
    yield
    if added:
        GAMES.pop("toy", None)


@pytest.mark.usefixtures("toy_registered")
def test_toy_game_every_command(tmp_path: Path) -> None:
    """The mechanics on a small game that needs no real game to have landed."""
    save = tmp_path / "toy.json"
    args = ["play", "toy", "--bots", "random", "--seed", "2", "--save", str(save)]
    t, screens, tried = play_one_deal(args, toy=True, seed="toy", hint=False)
    assert t.proc.wait(timeout=60) == 0
    assert tried["bad"] and tried["history"]
    record = json.loads(save.read_text())
    check_screens(record, screens)
    # the toy's private 'hide' action of another seat shows as 'hide ?' only
    if record["deals"][0]["actions"][4].startswith("hide") and "hide ?" in t.transcript:
        hidden = record["deals"][0]["actions"][4].split()[1]
        assert f"hide {hidden}" not in t.transcript


def test_legal_cards_are_highlighted() -> None:
    """In the toy's trick play, legal cards are drawn reversed and the others dimmed."""
    t = Terminal(["play", "toy", "--bots", "random", "--seed", "4"], toy=True)
    marked = {"legal": 0, "dimmed": 0}
    try:
        out = t.read_prompt()
        while "Your choices" in plain(out):
            if "Your choices (Play)" in plain(out):
                line = [ln for ln in out.split("\n") if "Your hand:" in plain(ln)][-1]
                options = choices(out)
                for m in re.finditer(r"\x1b\[([0-9;]*)m([AKQJ][CSHD])", line):
                    params = m.group(1).split(";")
                    if f"play {m.group(2)}" in options:
                        assert "7" in params, (m.group(0), options)
                        marked["legal"] += 1
                    else:
                        assert "2" in params, (m.group(0), options)
                        marked["dimmed"] += 1
            t.send("#1")
            out = t.read_prompt()
        assert marked["legal"] and marked["dimmed"], marked
        assert "Next deal?" in plain(out)
        t.send("q")
        assert "Save the match?" in plain(t.read_prompt())
        t.send("")
        assert t.finish() == 0
        assert "Not saved." in t.transcript
    finally:
        t.kill()


@pytest.mark.usefixtures("toy_registered")
def test_hotseat_hides_hands_between_turns(tmp_path: Path) -> None:
    """Every seat is a person; before each change of seat the screen is cleared and the next
    person must press Enter; each screen shows only the seat to act's hand."""
    save = tmp_path / "hot.json"
    t = Terminal(["play", "toy", "--hotseat", "--seed", "3", "--save", str(save)], toy=True)
    screens: list[tuple[int, str]] = []
    try:
        out = t.read_prompt()
        seat = None
        while not t.closed:
            text = plain(out)
            last = text.rstrip("\n").split("\n")[-1]
            if "press Enter when ready" in last:
                seat = int(re.search(r"Seat (\d):", last).group(1))  # type: ignore[union-attr]
                assert "\x1b[2J" in out or "\x1b[H" in out, (
                    "screen not cleared before the hand-over"
                )
                t.send("")
                out = t.read_prompt()
                assert "\x1b[2J" in out or "\x1b[H" in out
                continue
            if "Next deal?" in last:
                t.send("q")
                out = t.read_prompt()
                continue
            assert seat is not None and f"Seat {seat} (seat {seat})" in text
            screens.append((seat, out))
            t.send("#1")
            out = t.read_prompt()
        assert t.proc.wait(timeout=60) == 0
    finally:
        t.kill()
    record = json.loads(save.read_text())
    assert record["meta"]["terminal"]["hotseat"] is True
    rep = load_match(record)
    state = rep.game.deal_from_record(record["deals"][0], rep.variant)
    k = 0
    for text in record["deals"][0]["actions"]:
        seat, screen = screens[k]
        assert seat == state.to_act
        assert sorted(hand_line(screen)) == sorted(mask_text(state.observation(seat).hand))
        k += 1
        state.apply(text)
    assert k == len(screens)
