"""Variant validation (SAT-14) and the carried deal-record keys ``redeals``/``passing``
(SAT-4.6, SAT-12.3, SAT-12.4, SAT-13.1).

Variants are drawn option by option, each option given (a valid or an invalid value) or
omitted, so that every spelling — from ``{}`` to all keys — goes through every path that
reads a variant (``normalize_variant``, ``replay`` of a deal and of a match, ``Match``).

Carried keys are checked on match records written by ``Match(...).record()``: a derived key
left out of a later deal replays to the same output; a wrong value is malformed
(``index: null``, ``deal`` = that deal).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, DECK_52, iter_cards
from folkcards.engine import MalformedRecord, Match, replay
from folkcards.games.satat import GAME, PICTURES, deck_from_hands

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DECK = [CARD_NAMES[c] for c in iter_cards(DECK_52)]

# --- SAT-14: variants, option by option --------------------------------------------------

DEFAULTS = {"trup_kasiet": False, "signals": "none", "match_target": 0}
VALUES: dict[str, list[Any]] = {
    "trup_kasiet": [False, True, 0, 1, None, "true", "false", [], {}],
    "signals": ["none", "home", "all", "None", "ALL", "tournament", "", None, 0, True, ["all"]],
    "match_target": [0, 1, 3, 7, 10**9, -1, -7, True, False, 2.0, 0.0, "3", None, [3]],
}


def allowed_value(key: str, value: Any) -> bool:
    """SAT-14's table, literally: the type and the allowed values of each key (JSON types:
    a boolean is not an integer, 2.0 is not an integer)."""
    if key == "trup_kasiet":
        return type(value) is bool
    if key == "signals":
        return type(value) is str and value in ("none", "home", "all")
    if key == "match_target":
        return type(value) is int and value >= 0
    return False  # SAT-14: an unknown key is malformed


def rules_allow(variant: dict[str, Any]) -> bool:
    """SAT-14: every key known with a good value; "Variant keys combine freely"."""
    return all(allowed_value(k, v) for k, v in variant.items())


def variants() -> st.SearchStrategy[dict[str, Any]]:
    """Each option given or omitted; sometimes an unknown key as well."""
    value = {k: st.sampled_from(v) for k, v in VALUES.items()}
    value["match_target"] = st.one_of(value["match_target"], st.integers(-3, 10**6))
    known = st.fixed_dictionaries({}, optional=value)
    unknown = st.dictionaries(st.sampled_from(["colour", "Signals", "trup-kasiet", ""]), st.just(1))
    return st.one_of(known, st.builds(lambda a, b: {**a, **b}, known, unknown))


# The carried keys (SAT-4.6): absent, good, or bad; "passing" with Trup Kasiet is malformed.
ABSENT = object()
REDEALS = [ABSENT, 0, 1, 2, 3, -1, True, "1", None, 1.0]
PASSINGS = [
    ABSENT,
    None,
    {"winners": 0, "cards": 1},
    {"winners": 1, "cards": 2},
    {"winners": 2, "cards": 1},
    {"winners": 0, "cards": 3},
    {"winners": 0},
    {"winners": 0, "cards": 1, "x": 1},
    {"winners": True, "cards": 1},
    [0, 1],
    0,
]


def carry_allowed(redeals: Any, passing: Any, variant_ok: bool, tk: bool) -> bool:
    """SAT-4.6: redeals an integer 0–2; passing null or {winners 0|1, cards 1|2}, and null in
    Trup Kasiet."""
    r_ok = redeals is ABSENT or (type(redeals) is int and 0 <= redeals <= 2)
    p_ok = passing is ABSENT or passing is None
    if isinstance(passing, dict) and set(passing) == {"winners", "cards"}:
        w, k = passing["winners"], passing["cards"]
        p_ok = type(w) is int and w in (0, 1) and type(k) is int and k in (1, 2) and not tk
    return r_ok and p_ok and variant_ok


@FAST
@given(
    raw=variants(),
    redeals=st.sampled_from(REDEALS),
    passing=st.sampled_from(PASSINGS),
    seed=st.integers(0, 2**16),
)
def test_sat_14_variants_drawn_option_by_option(
    raw: dict[str, Any], redeals: Any, passing: Any, seed: int
) -> None:
    """SAT-14, SAT-18.1, SAT-4.6: a variant is accepted iff the rules allow it, however many
    keys it spells out, through every path that reads one; the normalized result equals
    that of the minimal spelling; a deal record's carried keys are checked with it."""
    ok = rules_allow(raw)
    try:
        norm = GAME.normalize_variant(raw)
    except MalformedRecord:
        assert not ok, raw
    else:
        assert ok, raw
        minimal = {k: v for k, v in raw.items() if v != DEFAULTS[k]}
        assert norm == {**DEFAULTS, **raw} == GAME.normalize_variant(minimal)
        assert GAME.normalize_variant(dict(norm)) == norm  # the full spelling (all keys)
        assert GAME.variant_diff(norm) == minimal
    # again, now that the spelling has been seen once (no cache may skip the checks)
    try:
        GAME.normalize_variant(copy.deepcopy(raw))
    except MalformedRecord:
        assert not ok
    else:
        assert ok
    try:
        Match(GAME, raw, rng=random.Random(seed))
    except MalformedRecord:
        assert not ok
    else:
        assert ok
    deck = random.Random(seed).sample(DECK, 52)
    record: dict[str, Any] = {"game": "satat", "variant": raw, "dealer": 0, "deck": deck}
    record["actions"] = []
    if redeals is not ABSENT:
        record["redeals"] = redeals
    if passing is not ABSENT:
        record["passing"] = passing
    out = replay(copy.deepcopy(record))
    tk = ok and GAME.normalize_variant(raw)["trup_kasiet"]
    expect = carry_allowed(redeals, passing, ok, tk)
    assert out["ok"] is expect, (record, out)
    if not expect:
        assert out["index"] is None
    match = {"game": "satat", "variant": raw, "deals": [{"dealer": 0, "deck": deck, "actions": []}]}
    out = replay(match)
    assert out["ok"] is ok and (ok or (out["index"] is None and out["deal"] is None)), out


@pytest.mark.parametrize("raw", [{k: v} for k, vs in VALUES.items() for v in vs])
def test_sat_14_each_value_alone(raw: dict[str, Any]) -> None:
    """SAT-14: each listed value of each key alone, accepted iff the table allows it."""
    try:
        GAME.normalize_variant(raw)
    except MalformedRecord:
        assert not rules_allow(raw)
    else:
        assert rules_allow(raw)


# --- SAT-4.6 / SAT-13.1: carried keys in match records -----------------------------------


def rigged_deck(kind: str, dealer: int, rng: random.Random) -> list[int]:
    """A deck for the next deal: ``no_pictures`` — the trump maker's first five hold no K, Q
    or J (SAT-5.4); ``sweep`` — he holds all 13 hearts (he wins every trick with hearts
    trump); else a shuffled deck."""
    deck = rng.sample(range(52), 52)
    tm = (dealer + 1) % 4
    if kind == "random":
        return deck
    hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
    want = [c for c in range(52) if (c // 13 == 2 if kind == "sweep" else not PICTURES >> c & 1)]
    want = want if kind == "sweep" else rng.sample(want, 5)
    for target in want:  # move each wanted card into the trump maker's hand
        s, i = next((s, i) for s in range(4) for i, c in enumerate(hands[s]) if c == target)
        if s != tm:
            slot = next(j for j, c in enumerate(hands[tm]) if c not in want)
            hands[s][i], hands[tm][slot] = hands[tm][slot], target
    hands[tm].sort(key=lambda c: c not in want)
    return deck_from_hands(hands, dealer)


PLAN = ["no_pictures", "sweep", "no_pictures", "random", "sweep", "no_pictures", "no_pictures"]


def build_match(seed: int, variant: dict[str, Any]) -> Match:
    """A match played by a policy that takes the no-picture redeal when it may, makes hearts
    trump on a sweep deal and then continues or stops at 7-0, and otherwise plays randomly."""
    rng = random.Random(seed)
    m = Match(GAME, variant, rng=rng)
    for kind in PLAN + ["random"] * 4:
        if m.is_over:
            break
        state = m.new_deal(rigged_deck(kind, m.next_dealer(), rng))
        while not state.is_over:
            legal = state.legal_texts()
            pick = rng.choice(legal)
            if state.phase == "trump" and kind == "no_pictures" and "redeal" in legal:
                pick = "redeal"
            elif state.phase == "trump" and kind == "sweep":
                pick = "trump H" if "trump H" in legal else next(a for a in legal if a[-1] == "H")
            state.apply(pick)
        m.finish_deal()
    return m


def wrong_values(deal: dict[str, Any], key: str) -> list[Any]:
    """Wrong values of a carried key for one deal (every other legal-looking value)."""
    right = deal.get(key, 0 if key == "redeals" else None)
    if key == "redeals":
        return [v for v in (0, 1, 2) if v != right]
    options: list[Any] = [None] + [{"winners": w, "cards": k} for w in (0, 1) for k in (1, 2)]
    return [v for v in options if v != right]


@pytest.mark.parametrize("variant", [{}, {"signals": "home"}, {"trup_kasiet": True}])
@pytest.mark.parametrize("seed", [1, 2])
def test_sat_4_6_13_1_derived_keys_in_match_records(variant: dict[str, Any], seed: int) -> None:
    """SAT-4.6, SAT-13.1, SAT-12.3, SAT-12.4: in a match record written by ``Match``, a later
    deal's ``redeals``/``passing`` may be left out (derived) or spelt out at the derived
    value; any other value is malformed (``index: null``, that deal). In the first deal the
    derived values are the start of a match (0, null)."""
    m = build_match(seed, variant)
    record = m.record()
    tk = bool(variant.get("trup_kasiet"))
    deals = record["deals"]
    assert any("redeals" in d for d in deals[1:]), "the plan makes redeals carry"
    assert tk or any("passing" in d for d in deals[1:]), "the plan makes passing carry"
    assert "redeals" not in deals[0] and "passing" not in deals[0]
    base = replay(record)
    assert base["ok"] is True
    for k in range(len(deals)):
        for key in ("redeals", "passing"):
            if k and key in deals[k]:  # left out: derived from the deals before
                other = copy.deepcopy(record)
                del other["deals"][k][key]
                assert replay(other) == base, (k, key)
            else:  # spelt out at the derived value
                other = copy.deepcopy(record)
                other["deals"][k][key] = 0 if key == "redeals" else None
                assert replay(other) == base, (k, key)
            for wrong in wrong_values(deals[k], key):
                other = copy.deepcopy(record)
                other["deals"][k][key] = wrong
                out = replay(other)
                assert out["ok"] is False and out["index"] is None and out["deal"] == k, (
                    k,
                    key,
                    wrong,
                    out,
                )
    # each deal alone (its own record keeps its carried keys) replays as in the match
    for state in m.deals:
        alone = replay(state.record())
        assert alone["ok"] is True and alone.get("result", {}).get("outcome") == (
            state.result()["outcome"] if state.is_over else None
        )


def test_sat_4_6_new_deal_checks_the_carry() -> None:
    """SAT-4.6, SAT-18.1: a carry handed to ``new_deal`` is checked like a record's."""
    v = GAME.normalize_variant({})
    deck = list(range(52))
    for bad in (
        {"redeals": 3},
        {"redeals": True},
        {"passing": {"winners": 2, "cards": 1}},
        {"passing": {"winners": 0}},
    ):
        with pytest.raises(MalformedRecord):
            GAME.new_deal(v, 0, deck, carry=bad)
    with pytest.raises(MalformedRecord):
        GAME.new_deal(
            GAME.normalize_variant({"trup_kasiet": True}),
            0,
            deck,
            carry={"passing": {"winners": 0, "cards": 1}},
        )
    state = GAME.new_deal(v, 0, deck, carry={"redeals": 2, "passing": {"winners": 1, "cards": 2}})
    assert state.carry() == {"redeals": 2, "passing": {"winners": 1, "cards": 2}}
