"""Structured explanations (``DealState.explain``, ``IllegalAction.explanation``).

The golden corpus ``golden/explanations.json`` was written by the engine *before*
explanations had codes (``make_explanations_golden.py``): every message text must still be
exactly what it was — through ``explain_illegal``, ``explain(a).text`` and the message of
the ``IllegalAction`` that ``apply`` raises (for the action and for its text). Every
explanation must have a code of :data:`MESSAGES` whose template's placeholders are exactly
its params, typed by the parameter conventions, and cite only rule IDs that the rules
files define.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from folkcards.cards import CARD_NAMES
from folkcards.engine.actions import Action, ActionSyntaxError
from folkcards.engine.api import DealState, IllegalAction
from folkcards.engine.explain import (
    MESSAGES,
    RULE_ID,
    Explanation,
    explained,
    placeholders,
    render,
    rule_ids,
    unexplained,
)
from folkcards.engine.records import load_deal
from folkcards.games import GAMES

CORPUS = Path(__file__).parent / "golden" / "explanations.json"
RULE_FILES = {
    "SAS": "sasku.md",
    "SCO": "scopone.md",
    "SHP": "sheepshead.md",
    "SAT": "satat.md",
    "HUU": "huutopussi.md",
}
SUIT_VALUES = {"C", "S", "H", "D", "trump"}


@cache
def corpus() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(CORPUS.read_text())
    return data


def states(deal: dict[str, Any]) -> Iterator[tuple[dict[str, Any], DealState]]:
    """Each probe of a corpus deal with the state it was made at."""
    record = deal["record"]
    by_step: dict[int, DealState] = {}
    for p in deal["probes"]:
        k = p["at"]
        if k not in by_step:
            by_step[k] = load_deal({**record, "actions": record["actions"][:k]})
        yield p, by_step[k]


def action_of(state: DealState, probe: dict[str, Any]) -> Action:
    table = state.game.all_actions(state.variant)
    if table is not None:
        a = table[probe["code"]]
        assert a.text == probe["action"]
        return a
    from folkcards.games.scopone import action_for, parse_play

    card, take = parse_play(probe["action"])
    return action_for(card, take or 0)


@cache
def rules_text(prefix: str, rules_dir: str) -> str:
    return (Path(rules_dir) / RULE_FILES[prefix]).read_text()


def rule_defined(rule: str, rules_dir: Path) -> bool:
    """The rules file of the ID's game defines it (a row, a heading or a bold ID)."""
    text = rules_text(rule.split("-")[0], str(rules_dir))
    return re.search(rf"(?:\| |## |\*\*|^){re.escape(rule)}(?![\d.]*\d)", text, re.M) is not None


def check(e: Explanation, game: str, num_seats: int, rules_dir: Path) -> None:
    """Everything an explanation promises, but its text (checked against the corpus)."""
    assert e.code in MESSAGES, e
    assert placeholders(MESSAGES[e.code]) == set(e.params), e
    render(e.code, e.params)  # every placeholder fills
    assert e.rules == rule_ids(e.text), e
    for rule in e.rules:
        assert RULE_FILES[rule.split("-")[0]] == f"{game}.md", f"{rule} cited by {game}"
        assert rule_defined(rule, rules_dir), f"{rule} is not defined in the rules ({e})"
    json.dumps(e.to_dict())
    for name, value in e.params.items():
        if name in ("seat", "holder"):
            assert type(value) is int and 0 <= value < num_seats, e
        elif name in ("card", "picture", "winning"):
            assert value in CARD_NAMES, e
        elif name == "cards":
            assert isinstance(value, list) and all(c in CARD_NAMES for c in value), e
        elif name == "suit":
            assert value in SUIT_VALUES, e
        elif name in ("expected", "legal"):
            assert isinstance(value, list) and value and all(isinstance(v, str) for v in value)
        elif name in ("action", "phase", "token", "message"):
            assert isinstance(value, str), e
        else:
            assert type(value) is int, e


def test_the_corpus_covers_every_game() -> None:
    games = {d["record"]["game"] for d in corpus()}
    assert games == set(GAMES)
    assert sum(len(d["probes"]) for d in corpus()) > 500


@pytest.mark.parametrize("game", list(GAMES))
def test_texts_are_unchanged_and_explanations_complete(game: str, rules_path: Path) -> None:
    seen_codes: set[str] = set()
    for deal in corpus():
        if deal["record"]["game"] != game:
            continue
        for p, state in states(deal):
            n = state.num_seats
            if "text" in p:
                a = action_of(state, p)
                assert state.explain_illegal(a) == p["text"]
                e = state.explain(a)
                assert e.text == p["text"]
                assert e.code != "unexplained", e
                check(e, game, n, rules_path)
                seen_codes.add(e.code)
                tries: list[tuple[str, Any]] = [("apply", a), ("apply_text", a.text)]
            else:
                tries = [("apply_text", p["action"])]
            before = state.record()
            for key, arg in tries:
                if key not in p:
                    continue  # a legal spelling (Scopone's lone "play C")
                with pytest.raises(IllegalAction) as info:
                    state.apply(arg)
                assert str(info.value) == p[key]
                ex = info.value.explanation
                assert ex.text == p[key]
                assert ex.code != "unexplained", (p, ex)
                check(ex, game, n, rules_path)
                seen_codes.add(ex.code)
            assert state.record() == before
    assert len(seen_codes) > 8


def test_render_fills_templates_and_lists() -> None:
    e = explained("must_follow", "seat 2 must follow suit H (SAT-8.3)", seat=2, suit="H")
    assert e.rules == ("SAT-8.3",)
    assert e.render() == "seat 2 must follow H (SAT-8.3)"
    assert render("must_take_single", {"card": "5C", "cards": ["5S", "5H"]}) == (
        "5C must take exactly one card of equal rank (5S or 5H), never a sum"
    )
    assert render("not_on_table", {"cards": ["AS", "2C"]}) == "AS 2C not on the table"
    assert (
        render(
            "wrong_phase",
            {"action": "bury AS", "phase": "pick", "seat": 4, "expected": ["pick", "pass"]},
        )
        == "'bury AS' is not allowed in phase pick: seat 4 must send 'pick' or 'pass'"
    )
    assert render(
        "untruthful_answer", {"action": "answer C", "legal": ["answer D", "answer S"]}
    ) == ("'answer C' is not the truthful answer; the only legal: answer D, answer S")
    assert e.render({"must_follow": "pelaaja {seat}: tunnusta {suit}"}) == (
        "pelaaja 2: tunnusta H (SAT-8.3)"
    )
    with pytest.raises(KeyError):
        render("must_follow", {"seat": 2})
    with pytest.raises(KeyError):
        render("no such code", {})


def test_rule_ids_and_unexplained() -> None:
    assert rule_ids("x (SAT-8, SAT-17.3) and SAT-8 again, HUU-4.2") == (
        "SAT-8",
        "SAT-17.3",
        "HUU-4.2",
    )
    assert RULE_ID.fullmatch("SAS-10.3")
    e = unexplained("something odd (SHP-7.2)")
    assert e.code == "unexplained" and e.params == {"message": e.text} and e.rules == ("SHP-7.2",)
    assert e.to_dict() == {
        "code": "unexplained",
        "params": {"message": "something odd (SHP-7.2)"},
        "rules": ["SHP-7.2"],
        "text": "something odd (SHP-7.2)",
    }


def test_every_template_is_well_formed() -> None:
    for code, template in MESSAGES.items():
        names = placeholders(template)
        params: dict[str, Any] = {
            n: ["AS", "KS"] if n in ("cards", "expected", "legal") else 1 for n in names
        }
        assert render(code, params)
        assert not re.search(RULE_ID, template), f"{code}: rule IDs belong in 'rules'"


def test_illegal_action_carries_its_explanation() -> None:
    game = GAMES["sasku"]
    state = game.random_deal(random.Random(3))
    with pytest.raises(IllegalAction) as info:
        state.apply("play AS")  # the cutter must choose a dealing method
    ex = info.value.explanation
    assert ex.code == "wrong_phase" and ex.params["phase"] == "cut"
    assert ex.params["expected"] == ["deal …"] and ex.rules == ("SAS-6.2",)
    assert str(info.value) == ex.text and info.value.rule is None
    with pytest.raises(IllegalAction) as info:
        state.apply("give 5H")  # not a card of the Sasku pack
    assert info.value.explanation.code == "card_not_in_deck"
    assert info.value.explanation.params == {"card": "5H"}
    with pytest.raises(IllegalAction) as info:
        state.apply(1.5)  # type: ignore[arg-type]
    assert info.value.explanation.code == "not_an_action"
    # an error built from a message alone still has an explanation, with the rule given apart
    plain = IllegalAction("no", "SAS-1.1")
    assert str(plain) == "no (SAS-1.1)" and plain.rule == "SAS-1.1"
    assert plain.explanation.code == "unexplained" and plain.explanation.rules == ("SAS-1.1",)


def test_syntax_errors_carry_codes() -> None:
    err = ActionSyntaxError("bids are 5 to 9, not 3 (SAS-8.4)", "bid_out_of_range", {"bid": 3})
    assert err.explanation.code == "bid_out_of_range" and err.explanation.rules == ("SAS-8.4",)
    assert str(err.cited(" (X)")) == "bids are 5 to 9, not 3 (SAS-8.4) (X)"
    assert ActionSyntaxError("odd").explanation.code == "unexplained"


@pytest.mark.parametrize("game", list(GAMES))
def test_deal_over_is_explained(game: str) -> None:
    g = GAMES[game]
    rng = random.Random(11)
    state = g.random_deal(rng)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    table = g.all_actions(state.variant)
    a = table[0] if table is not None else state.history[-1]
    e = state.explain(a)
    assert e.code in ("deal_over", "deal_void") and e.text == state.explain_illegal(a)
    with pytest.raises(IllegalAction) as info:
        state.apply(a.text)
    assert info.value.explanation.code in ("deal_over", "deal_void")


def test_the_rare_codes_are_reachable() -> None:
    """Codes the random corpus seldom meets, each from a position built for it."""
    # Huutopussi, Erlangen: trick 1 must be led with an ace (HUU-12.4)
    game = GAMES["huutopussi"]
    for seed in range(200):
        rng = random.Random(seed)
        st = game.random_deal(rng, {"erlangen": True})
        while not st.is_over and st.phase != "play":
            st.apply(rng.choice(st.legal_actions()))
        if st.is_over or not st.legal_actions():
            continue
        seat = st.to_act
        assert seat is not None
        hand = st.hands[seat]  # type: ignore[attr-defined]
        legal = set(st.legal_actions())
        table = game.all_actions(st.variant)
        plays = [a for a in table if a.text.startswith("play ") and a not in legal]
        held = [a for a in plays if hand >> CARD_NAMES.index(a.text[5:]) & 1]
        if held:
            assert st.explain(held[0]).code == "first_trick_ace"
            break
    else:
        raise AssertionError("no Erlangen first trick with an illegal held card")


def explanation_of(state: DealState, action: Any) -> Explanation:
    """The explanation carried by the error of ``state.apply(action)`` (state unchanged)."""
    before = state.record()
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert state.record() == before
    assert str(info.value) == info.value.explanation.text
    return info.value.explanation


def rare_codes() -> set[str]:
    """The codes the corpus seldom or never meets, each from a position made for it."""
    found: set[str] = set()
    satat = GAMES["satat"].random_deal(random.Random(1))
    found.add(explanation_of(satat, 10**6).code)  # no_such_code (a bare int, the base path)
    with pytest.raises(IllegalAction) as info:
        satat.parse_action(5)  # type: ignore[arg-type]
    found.add(info.value.explanation.code)  # not_text
    scopone = GAMES["scopone"]
    kings = ["KC", "KS", "KH", "5D"]
    rest = [c for c in (CARD_NAMES[i] for i in range(52)) if c not in kings]
    rest = [c for c in rest if c in {CARD_NAMES[i] for i in scopone.card().display_order()}]
    void = scopone.new_deal(
        scopone.normalize_variant({}),
        0,
        hands=[[CARD_NAMES.index(c) for c in rest[9 * s : 9 * s + 9]] for s in range(4)],
        extra={"table": [CARD_NAMES.index(c) for c in kings]},
    )
    assert void.is_over and void.result()["redeal"]
    found.add(explanation_of(void, "play AD").code)  # deal_void
    for seed in range(300):  # 'play C' with two captures is ambiguous (SCO-4.6)
        rng = random.Random(seed)
        st = scopone.random_deal(rng)
        while not st.is_over:
            cards = [a.card for a in st.legal_actions() if a.take]  # type: ignore[attr-defined]
            twice = [c for c in set(cards) if cards.count(c) > 1]
            if twice:
                e = explanation_of(st, f"play {CARD_NAMES[twice[0]]}")
                assert e.params == {"card": CARD_NAMES[twice[0]], "count": cards.count(twice[0])}
                found.add(e.code)
                break
            st.apply(rng.choice(st.legal_actions()))
        if "ambiguous_play" in found:
            break
    return found


DEFENSIVE = {"unexplained", "not_legal_now"}
"""Codes no game position reaches: the fallback for a message without a code, and
Huutopussi's leader, who may always lead any card it holds (HUU-7.3)."""


def test_every_code_is_met() -> None:
    met: set[str] = set(rare_codes())
    for deal in corpus():
        for p, state in states(deal):
            if "text" in p:
                met.add(state.explain(action_of(state, p)).code)
            try:
                state.clone().apply(p["action"])
            except IllegalAction as exc:
                met.add(exc.explanation.code)
    assert {"no_such_code", "not_text", "deal_void", "ambiguous_play"} <= met
    assert met | DEFENSIVE == set(MESSAGES), sorted(set(MESSAGES) - met - DEFENSIVE)
    assert not met & DEFENSIVE
