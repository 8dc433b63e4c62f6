"""A table that teaches, checked without a terminal: numbers in bidding are bids, jump bids
ask first, every refused input gets the engine's reason in the player's words, every
phase's screen fits 80×24, the last trick's winner and the deal's breakdown are told,
hints are readable."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from folkcards.cards import CARD_NAMES, iter_cards
from folkcards.engine.api import DealState
from folkcards.engine.match import Match
from folkcards.games import GAMES
from folkcards.tui import explain, hints, i18n, narrate
from folkcards.tui import menu as menus
from folkcards.tui.inputs import Command, InputError, resolve
from folkcards.tui.session import PlaySession, Seating

NAMES = ["You", "Seat 1", "Partner", "Seat 3"]
GENERIC = "not a choice here"
"""The old catch-all reply that no refused input may get any more."""


def low_bids(state: DealState, rng: random.Random) -> str:
    """A random action, but the lowest bid or a pass in Huutopussi's bidding."""
    texts = state.legal_texts()
    if state.phase == "bidding" and "pass" in texts and rng.random() < 0.8:
        return "pass"
    if state.phase == "bidding":
        return texts[0]
    return texts[rng.randrange(len(texts))]


def reach(
    name: str,
    want: Callable[[DealState], bool],
    variant: dict[str, Any] | None = None,
    seeds: int = 400,
    policy: Callable[[DealState, random.Random], str] | None = None,
) -> DealState:
    """A state of a random deal where ``want`` holds (seat to act may be any)."""
    game = GAMES[name]
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.random_deal(rng, variant)
        while not state.is_over:
            if want(state):
                return state
            if policy is not None:
                state.apply(policy(state, rng))
                continue
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    pytest.fail(f"{name}: no state found")


def answer(state: DealState, text: str) -> tuple[Command, str]:
    """What the table does with ``text`` typed by the seat to act: the command, and the
    reply it prints when the input is refused (the engine's reason in the player's words)."""
    seat = state.to_act
    assert seat is not None
    obs = state.observation(seat)
    names = [f"Seat {s}" for s in range(state.num_seats)]
    names[seat] = "You"
    try:
        cmd = resolve(text, obs, state.game)
    except InputError as exc:
        return Command("error", message=str(exc)), str(exc)
    if cmd.kind == "illegal" and cmd.action is not None:
        return cmd, explain.not_allowed(
            cmd.action.text, explain.refusal(state, cmd.action, seat, names)
        )
    if cmd.kind == "refused":
        rules = tuple(getattr(cmd.explanation, "rules", ()) or ())
        why = explain.reason(cmd.explanation, cmd.message, rules, seat, names, state.game.name)
        return cmd, "Not allowed: " + why
    return cmd, ""


def played_out(name: str, seed: int) -> DealState:
    """A random deal of ``name`` played to its end by uniformly random legal actions."""
    rng = random.Random(seed)
    state = GAMES[name].random_deal(rng)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def held(state: DealState) -> set[str]:
    seat = state.to_act
    assert seat is not None
    return {CARD_NAMES[c] for c in iter_cards(state.observation(seat).hand)}


# --- numbers in bidding --------------------------------------------------------------


def test_a_number_in_huutopussi_bidding_is_that_bid() -> None:
    state = reach(
        "huutopussi", lambda s: s.phase == "bidding" and not s.observation(0).info["high_bid"]
    )
    cmd, _ = answer(state, "70")
    assert cmd.kind == "action" and cmd.action is not None and cmd.action.text == "bid 70"
    assert "Jump bid" in cmd.confirm and "4 steps" in cmd.confirm
    lowest, next_up = answer(state, "50")[0], answer(state, "55")[0]
    assert lowest.action is not None and lowest.action.text == "bid 50" and not lowest.confirm
    assert next_up.action is not None and next_up.action.text == "bid 55" and not next_up.confirm
    # a menu position is #n in a menu with numbers
    menu = menus.build(state.observation(state.to_act or 0))
    assert menu.numeric_verb == "bid"
    entry = resolve("#1", state.observation(state.to_act or 0), state.game)
    assert entry.kind == "entry" and entry.entry is not None and entry.entry.typing == "number"


def test_a_number_in_the_sasku_auction_is_a_bid_not_a_menu_position() -> None:
    state = reach("sasku", lambda s: s.phase == "auction")
    obs = state.observation(state.to_act or 0)
    for n in range(5, 10):
        cmd, reply = answer(state, str(n))
        assert cmd.action is not None and cmd.action.text == f"bid {n}", (n, cmd)
        if cmd.kind == "illegal":
            assert "SAS-8.4" in reply and "your" in reply.lower(), reply
    menu = menus.build(obs)
    assert menu.numeric_verb == "bid" or not any(a.text.startswith("bid") for a in obs.legal)


def test_the_contract_is_typed_as_a_number() -> None:
    state = reach("huutopussi", lambda s: s.phase == "contract")
    low = min(int(a.text.split()[1]) for a in state.legal_actions())
    cmd, _ = answer(state, str(low))
    assert cmd.action is not None and cmd.action.text == f"contract {low}" and not cmd.confirm


# --- the engine's reason for every refused input --------------------------------------


def test_bid_62_says_bids_are_multiples_of_5() -> None:
    state = reach("huutopussi", lambda s: s.phase == "bidding")
    for text in ("bid 62", "62"):
        cmd, reply = answer(state, text)
        assert cmd.kind == "refused", cmd
        assert "steps of 5" in reply and "HUU-4.2" in reply, reply


def test_return_a_card_not_held_or_a_picture() -> None:
    state = reach("huutopussi", lambda s: s.phase == "return" and "KH" not in held(s))
    cmd, reply = answer(state, "return kh")
    assert cmd.kind == "illegal"
    assert reply == "Not allowed: return KH — you do not hold KH (HUU-5.3)", reply
    sasku = reach("sasku", lambda s: any(a.text.startswith("return") for a in s.legal_actions()))
    cmd, reply = answer(sasku, "return kh")
    assert cmd.kind == "refused" and "KH is a picture" in reply and "SAS-7.4" in reply, reply


@pytest.mark.parametrize("name", ["sasku", "sheepshead", "satat", "huutopussi"])
def test_a_card_alone_that_is_not_held(name: str) -> None:
    state = reach(name, lambda s: s.phase == "play" and "TH" not in held(s))
    cmd, reply = answer(state, "10h")
    assert cmd.kind == "illegal" and cmd.action is not None and cmd.action.text == "play TH"
    assert re.search(r"you do not hold TH|TH is not in your hand", reply), reply
    assert re.search(r"\b[A-Z]{3}-\d+", reply) and "seat " not in reply.lower()


def test_a_card_held_but_not_allowed_says_follow_suit_in_your_words() -> None:
    def revoke(s: DealState) -> bool:
        legal = {a.text.split()[1] for a in s.legal_actions() if a.text.startswith("play")}
        return s.phase == "play" and bool(held(s) - legal)

    state = reach("sasku", revoke)
    legal = {a.text.split()[1] for a in state.legal_actions()}
    card = sorted(held(state) - legal)[0]
    _, reply = answer(state, card.lower())
    assert reply.startswith(f"Not allowed: play {card} — you must"), reply
    assert "SAS-10.3" in reply and "seat" not in reply.lower()


def test_a_suit_letter_alone_names_the_trump_it_would_make() -> None:
    state = reach("sasku", lambda s: s.phase == "declare" and "trump S" not in s.legal_texts())
    cmd, reply = answer(state, "s")
    assert cmd.kind == "illegal" and cmd.action is not None and cmd.action.text == "trump S"
    assert "you have" in reply and "SAS-9.1" in reply, reply


def test_blind_5_says_what_is_wrong() -> None:
    state = reach("satat", lambda s: s.phase == "trump")
    cmd, reply = answer(state, "blind 5")
    assert cmd.kind == "refused" and "SAT-" in reply and GENERIC not in reply, reply


def test_bury_two_cards_in_one_line() -> None:
    state = reach("sheepshead", lambda s: s.phase == "bury" and "TC" not in held(s))
    cmd, reply = answer(state, "bury tc 8h")
    assert cmd.kind == "illegal" and "you do not hold TC (SHP-5.1)" in reply, reply
    first, second = sorted(held(state))[:2]
    cmd, _ = answer(state, f"bury {first.lower()} {second.lower()}")
    assert cmd.kind == "action" and cmd.action is not None
    assert cmd.action.text == f"bury {first}" and [a.text for a in cmd.more] == [f"bury {second}"]


def test_scopone_play_card_alone_when_it_has_one_capture() -> None:
    def one_option(s: DealState) -> bool:
        texts = s.legal_texts()
        for t in texts:
            card = t.split()[1]
            same = [u for u in texts if u.split()[1] == card]
            if len(same) == 1 and " take " in t:
                return True
        return False

    state = reach("scopone", one_option)
    texts = state.legal_texts()
    target = next(
        t for t in texts if " take " in t and sum(u.split()[1] == t.split()[1] for u in texts) == 1
    )
    cmd, _ = answer(state, "play " + target.split()[1].lower())
    assert cmd.kind == "action" and cmd.action is not None and cmd.action.text == target


@pytest.mark.parametrize("name", sorted(n for n in GAMES if n != "toy"))
def test_no_refused_input_gets_the_generic_reply(name: str) -> None:
    """Whatever a person types that is not legal: a specific reason, never 'not a choice'."""
    probes = ["bid 62", "return kh", "10h", "s", "blind 5", "bury tc 8h", "play zz", "give 7c"]
    rng = random.Random(name)
    game = GAMES[name]
    state = game.random_deal(rng)
    checked = 0
    while not state.is_over and checked < 60:
        for text in probes:
            cmd, reply = answer(state, text)
            if cmd.kind != "action":
                assert GENERIC not in reply and reply, (text, reply)
                checked += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert checked


# --- the menus fit -------------------------------------------------------------------

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("sasku", {}),
    ("scopone", {}),
    ("scopone", {"scientifico": True}),
    ("sheepshead", {}),
    ("satat", {}),
    ("satat", {"signals": "all"}),
    ("satat", {"trup_kasiet": True}),
    ("huutopussi", {}),
    ("huutopussi", {"players": 3}),
    ("huutopussi", {"erlangen": True}),
]


def screen_of(state: DealState, hotseat: bool = False, lang: str = "en") -> list[str]:
    """The lines the table draws for the seat to act on an 80×24 terminal."""
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=False, highlight=False)
    match = Match(state.game, state.variant, rng=random.Random(0))
    seat = state.to_act
    assert seat is not None
    people = list(range(state.num_seats)) if hotseat else [seat]
    session = PlaySession(
        match=match,
        seating=Seating(people=people, bots="random", hotseat=hotseat),
        console=console,
        read=lambda _p: "",
        lang=lang,
    )
    obs = state.observation(seat)
    try:
        session.draw(obs, session.facts())
    finally:
        i18n.set_lang("en")
    return out.getvalue().rstrip("\n").split("\n")


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=[f"{n}-{v}" for n, v in VARIANTS])
def test_every_phase_fits_an_80x24_screen(name: str, variant: dict[str, Any], lang: str) -> None:
    """Every decision of random deals, at every seat: the table, the task, the notes, the
    choices and the prompt in 24 lines of at most 80 columns (cells: the isolates and
    joiners of Persian text take none) — in English and in Persian."""
    game = GAMES[name]
    phases: set[str] = set()
    worst = 0
    for seed in range(6 if lang == "en" else 3):
        rng = random.Random(seed)
        state = game.random_deal(rng, variant)
        while not state.is_over:
            lines = screen_of(state, hotseat=seed % 2 == 1, lang=lang)
            assert all(i18n.width(line) <= 80 for line in lines), max(lines, key=i18n.width)
            assert len(lines) + 1 <= 24, "\n".join(lines)  # + the prompt line
            worst = max(worst, len(lines) + 1)
            phases.add(state.phase)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert "play" in phases and worst > 8


def test_the_long_menus_are_compact() -> None:
    """Sasku's 40 cut methods, Huutopussi's 79 bids and 57 contracts, Satat's 39 signal
    variants: a handful of entries each."""
    cut = reach("sasku", lambda s: s.phase == "cut")
    m = menus.build(cut.observation(cut.to_act or 0))
    assert len(m.entries) == 5 and any(e.label == "deal to CARD" for e in m.entries)
    bid = reach("huutopussi", lambda s: s.phase == "bidding" and len(s.legal_actions()) > 50)
    m = menus.build(bid.observation(bid.to_act or 0))
    assert (
        next(e.label for e in m.entries).startswith("bid ")
        and "in steps of 5" in m.entries[0].label
    )
    assert len(m.entries) <= 3
    contract = reach(
        "huutopussi",
        lambda s: s.phase == "contract" and len(s.legal_actions()) > 50,
        policy=low_bids,
    )
    m = menus.build(contract.observation(contract.to_act or 0))
    assert len(m.entries) == 1 and m.entries[0].label.startswith("contract ")
    sig = reach(
        "satat",
        lambda s: s.phase == "play" and len(s.legal_actions()) > 30,
        variant={"signals": "all"},
    )
    m = menus.build(sig.observation(sig.to_act or 0))
    assert all(" grate" not in e.label and " pile" not in e.label for e in m.entries)
    assert len(m.entries) <= 13 and m.decorations


# --- narration and the end of a deal --------------------------------------------------


@pytest.mark.parametrize("name", ["sasku", "sheepshead", "satat", "huutopussi"])
def test_the_last_trick_is_told_with_its_winner(name: str) -> None:
    game = GAMES[name]
    for seed in range(50):
        state = played_out(game.name, seed)
        if any(e.kind == "trick" for e in state.events()):
            break
    found = narrate.engine_events(state, 0, 0)
    assert found is not None, "the engine narrates every game"
    text = "\n".join(
        line.plain
        for line in narrate.from_events(found, name, [*NAMES, "Seat 4"], 0, name != "sheepshead")
    )
    last = [e for e in state.events() if e.kind == "trick"][-1]
    winner = ([*NAMES, "Seat 4"])[last.data["winner"]]
    assert re.search(rf"Trick {last.data['number']}: .*→ {winner}.* · last trick", text), text


@pytest.mark.parametrize(
    ("name", "phrases"),
    [
        ("sasku", ["Why: ", " points (SAS-13.", "Strokes", "trump ", "This deal:", "tricks"]),
        ("scopone", ["Most cards", "Primiera", "Sweeps", "counted", "Cards taken from"]),
        ("sheepshead", ["Why: ", "(SHP-8.2)", "This deal:", "Card points from", "bury"]),
        ("satat", ["Why: ", " tricks (SAT-9.", "This deal:"]),
        ("huutopussi", ["Why: ", "points and marriages", "marriages ", "last trick"]),
    ],
)
def test_the_deal_end_breakdown_in_words_and_numbers(name: str, phrases: list[str]) -> None:
    game = GAMES[name]
    for seed in range(20):
        state = played_out(game.name, seed)
        result = state.result()
        if result.get("redeal"):
            continue
        names = [f"Seat {s}" for s in range(state.num_seats)]
        names[0] = "You"
        partnership = name != "sheepshead"
        end = narrate.deal_end(state, 0)
        assert end is not None and end["score"] == result["score"]
        text = "\n".join(t.plain for t in narrate.breakdown(end, name, names, 0, partnership))
        for phrase in phrases:
            assert phrase in text, (phrase, text)
        score = result["score"]
        assert all(f"{v:+d}" in text for v in score), text
        hands = "\n".join(t.plain for t in narrate.open_hands(state, names))
        start = state.fresh()
        for a in state.history:
            if a.text.startswith("play"):
                break
            start.apply(a)
        for s in range(state.num_seats):
            for c in iter_cards(start.observation(s).hand):
                assert CARD_NAMES[c] in hands
        return
    pytest.fail("no scored deal")


def test_the_breakdown_names_the_comparison_and_each_part_per_side() -> None:
    """Rendered from the ``deal_end`` event alone: the reason with its rule (SAS-13.4), the
    sides by name, the component's facts, the score and where the card points came from."""
    end = {
        "score": [0, 4],
        "outcome": "declarers_lost",
        "reason": {
            "who": "declarers",
            "side": 0,
            "measure": "points",
            "value": 52,
            "op": "<",
            "target": 61,
            "rule": "SAS-13.4",
        },
        "components": [{"name": "strokes", "points": [0, 4], "trump": "H", "rule": "SAS-13.4"}],
        "points_from": {"tricks": [52, 68]},
    }
    lines = [t.plain for t in narrate.breakdown(end, "sasku", NAMES, 0, True)]
    text = "\n".join(lines)
    assert "the declarers lost" in lines[0]
    assert "Why: declarers (You & Partner) 52 < 61 points (SAS-13.4)" in text
    strokes = next(line for line in lines if "Strokes" in line)
    assert strokes.split()[1:] == ["+0", "+4"], strokes
    assert "trump hearts" in text
    assert re.search(r"This deal:\s+\+0\s+\+4", text) and re.search(r"tricks\s+52\s+68", text)


def test_a_huutopussi_breakdown_says_each_sides_marriages() -> None:
    """HUU-9.3: a side's total is its card points plus its marriages; the breakdown says the
    marriages of each side, as the deal_end event's components carry them."""
    game = GAMES["huutopussi"]
    for seed in range(200):
        state = played_out(game.name, seed)
        result = state.result()
        if result.get("redeal") or not any(result["marriages"]):
            continue
        end = narrate.deal_end(state, 0)
        assert end is not None
        said = [c["marriages"] for c in end["components"]]
        assert said == result["marriages"]
        text = "\n".join(t.plain for t in narrate.breakdown(end, "huutopussi", NAMES, 0, True))
        for m in result["marriages"]:
            assert f"marriages {m}" in text, text
        return
    pytest.fail("no deal with a marriage")


# --- hints ---------------------------------------------------------------------------


def test_a_hint_puts_the_recommendation_first_on_one_labelled_scale() -> None:
    h = {
        "choice": "play JC",
        "scale": "win",
        "actions": [
            {"action": "play 6H", "value": 0.41, "samples": 20, "gain": 0.01},
            {"action": "play JC", "value": 0.40, "samples": 20, "heuristic": 1.0},
            {"action": "play AS", "value": 0.30, "samples": 20, "gain": -0.1},
        ],
    }
    out = hints.lines(h)
    assert out[0] == "Hint: play JC"
    assert "chance to win" in out[1]
    assert "play JC" in out[2] and "recommended" in out[2]
    six = next(line for line in out if "play 6H" in line)
    assert "within noise of the best" in six and "41.0%" in six and "+1.0" in six
    plain = hints.lines(
        {
            "choice": "bid 5",
            "scale": "heuristic",
            "actions": [{"action": "diamonds", "value": 2.0}, {"action": "bid 5", "value": 1.5}],
        }
    )
    assert plain[0] == "Hint: bid 5" and "bid 5 > diamonds" in plain[2]
    assert not re.search(r"\d\.\d", "\n".join(plain)), "no numbers on an unnamed scale"


def test_passed_cards_are_told_once() -> None:
    """A card handed over by the action just told is not told twice (SAS-7.4, Sasku's
    exchange: the action line says it); Satat's exchange (SAT-7.4), which moves every
    pair's cards once the fourth give is in, is told pair by pair to the viewer."""
    from folkcards.engine.records import load_deal

    hands = [[r + s for r in "AKQJT98765432"] for s in "CSHD"]
    record = {
        "game": "satat",
        "dealer": 0,
        "hands": hands,
        "actions": ["trump S", "propose", "refuse", "give AS", "give AH", "give AD"],
        "passing": {"winners": 1, "cards": 1},
    }
    state = load_deal(record)
    told = len(narrate.engine_events(state, 0, 0))
    state.apply(state.legal_actions()[0])  # the fourth give: the exchange
    found = narrate.engine_events(state, 0, told)
    lines = [t.plain for t in narrate.from_events(found, "satat", NAMES, 0, True)]
    passes = [line for line in lines if "→" in line]
    assert len(passes) == 4, lines
    assert any(line.strip().startswith("You → ") and "A" in line for line in passes), passes

    game = GAMES["sasku"]
    for seed in range(100):
        rng = random.Random(seed)
        deal = game.random_deal(rng)
        told = 0
        while not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
            found = narrate.engine_events(deal, 0, told)
            told += len(found)
            if any(e.kind == "pass_cards" for e in found):
                lines = narrate.from_events(found, "sasku", NAMES, 0, True)
                assert not any("→" in t.plain and "Trick" not in t.plain for t in lines)
                return
    pytest.fail("no Sasku exchange in 100 deals")
