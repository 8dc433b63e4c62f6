"""Variant validation (HUU-11, HUU-11.5) and the carried-over deal key ``totals`` (HUU-10.3).

HUU-11.5 forbids some options to be *given*: a key that is present in the record's
``variant``, whatever its value (``{"players": 3, "tie": "draw"}`` is malformed, as is
``{"erlangen": true, "last_trick": 20}``). The verdict may not depend on how many keys a
variant spells out; the engine's own normalized variants (which list every option) are
re-normalized by the callers that hold them (Match, records, determinize) and stay valid.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, DECK_36
from folkcards.engine.api import MalformedRecord
from folkcards.engine.match import Match
from folkcards.engine.records import load_deal, replay
from folkcards.games.huutopussi import GAME, HuutopussiState
from folkcards.games.huutopussi.rules import VARIANT_KEYS

# HUU-11, the table of options, as the rules file gives it: default first.
VALUES: dict[str, tuple[Any, ...]] = {
    "players": (4, 3),
    "card_points": ("10-10-5-5-5", "11-10-4-3-2"),
    "last_trick": (20, 10),
    "marriage_values": ("hearts-high", "bridge"),
    "no_trick_rule": ("lapari", "porvoo"),
    "erlangen": (False, True),
    "tie": ("draw", "extra_deal"),
}
DEFAULTS = {k: v[0] for k, v in VALUES.items()}
DECK = [CARD_NAMES[c] for c in range(52) if DECK_36 >> c & 1]


def allowed(raw: dict[str, Any]) -> bool:
    """HUU-11.5 read from the rules file: ``erlangen: true`` with ``players: 3``, or with any
    of ``card_points``, ``last_trick``, ``no_trick_rule`` given, is malformed; ``players: 3``
    with ``no_trick_rule`` or ``tie`` given is malformed; all other combinations are allowed.
    "Given" means present in the variant object, whatever the value."""
    players = raw.get("players", 4)
    fixed = any(k in raw for k in ("card_points", "last_trick", "no_trick_rule"))
    if raw.get("erlangen", False) and (players == 3 or fixed):
        return False
    return not (players == 3 and any(k in raw for k in ("no_trick_rule", "tie")))


@st.composite
def spelt_variants(draw: st.DrawFn) -> dict[str, Any]:
    """A variant drawn option by option: each given (with one of its values) or omitted, the
    keys in any order."""
    raw: dict[str, Any] = {}
    for key in draw(st.permutations(list(VALUES))):
        if draw(st.booleans()):
            raw[key] = draw(st.sampled_from(VALUES[key]))
    return raw


def deal_record(variant: Any) -> dict[str, Any]:
    return {"game": "huutopussi", "variant": variant, "dealer": 0, "deck": DECK, "actions": []}


def test_the_options_are_those_of_the_rules_file() -> None:
    """HUU-11: keys, defaults and values; the rules table reads them in the same order."""
    assert [o.key for o in GAME.variant_options] == list(VALUES) == list(VARIANT_KEYS)
    for o in GAME.variant_options:
        assert o.default == VALUES[o.key][0]
        assert set(o.choices or (False, True)) == set(VALUES[o.key])


@settings(max_examples=400, deadline=None)
@given(raw=spelt_variants())
def test_huu_11_5_validation_follows_the_keys_given_not_how_many(raw: dict[str, Any]) -> None:
    """HUU-11.5, HUU-17.1: accepted iff the rules allow the combination — as drawn, and with
    all seven keys spelt out — through ``normalize_variant`` (twice: the second answer may
    come from a cache) and through ``replay``; an accepted variant normalizes to the same
    variant as its minimal spelling, and the engine's normalized variant re-normalizes."""
    for spelling in (raw, {**DEFAULTS, **raw}):
        ok = allowed(spelling)
        text = json.dumps(spelling)  # as a record gives it
        for _ in range(2):
            try:
                v = GAME.normalize_variant(json.loads(text))
            except MalformedRecord as exc:
                assert not ok, f"{text} is allowed by HUU-11.5 but rejected: {exc}"
                assert "HUU-11.5" in str(exc)
            else:
                assert ok, f"{text} breaks HUU-11.5 but was accepted"
        out = replay(deal_record(json.loads(text)))
        assert out["ok"] is ok
        if not ok:
            assert out["index"] is None and "HUU-11.5" in out["error"]
            continue
        minimal = {k: x for k, x in spelling.items() if x != DEFAULTS[k]}
        assert v == {**DEFAULTS, **spelling} == GAME.normalize_variant(minimal)
        assert GAME.variant_diff(v) == minimal
        # internal callers hand back what normalize_variant returned, or a dict copy of it
        assert GAME.normalize_variant(v) == v
        assert GAME.normalize_variant(dict(v)) == v
        assert GAME.normalize_variant(copy.deepcopy(v)) == v
        # a normal form that went through JSON: renormalize_variant, not a record's spelling
        assert GAME.renormalize_variant(json.loads(json.dumps(v))) == v
        plain = json.loads(json.dumps(v))
        if allowed(plain):
            assert GAME.normalize_variant(plain) == v
        else:
            with pytest.raises(MalformedRecord):
                GAME.normalize_variant(plain)


def test_huu_11_5_the_seven_key_spelling_from_the_report() -> None:
    """HUU-11.5: ``players: 3`` with ``no_trick_rule`` given is malformed however many other
    keys are spelt out (it was accepted when all seven were)."""
    full = {
        "players": 3,
        "card_points": "11-10-4-3-2",
        "last_trick": 10,
        "marriage_values": "bridge",
        "no_trick_rule": "lapari",
        "erlangen": False,
        "tie": "draw",
    }
    for variant in (full, {"players": 3, "no_trick_rule": "lapari"}):
        out = replay(deal_record(variant))
        assert out["ok"] is False and out["index"] is None
        assert "no_trick_rule" in out["error"] and "HUU-11.5" in out["error"]
    del full["no_trick_rule"], full["tie"]
    assert replay(deal_record(full))["ok"] is True


def test_huu_11_5_a_normalized_variant_changed_by_hand_is_checked_again() -> None:
    """HUU-11.5: the defaults that normalization filled in are not 'given'; a value set by
    hand is."""
    three = GAME.normalize_variant({"players": 3})
    assert GAME.normalize_variant({**three, "players": 4}) == DEFAULTS
    with pytest.raises(MalformedRecord):
        GAME.normalize_variant({**three, "tie": "draw"})
    with pytest.raises(MalformedRecord):
        GAME.normalize_variant({**three, "no_trick_rule": "porvoo"})
    four = GAME.normalize_variant({})
    assert GAME.normalize_variant({**four, "players": 3}) == {**DEFAULTS, "players": 3}
    assert GAME.normalize_variant({**four, "erlangen": True}) == {**DEFAULTS, "erlangen": True}
    with pytest.raises(MalformedRecord):
        GAME.normalize_variant({**GAME.normalize_variant({"tie": "draw"}), "players": 3})
    with pytest.raises(MalformedRecord):
        GAME.normalize_variant({**GAME.normalize_variant({"erlangen": True}), "last_trick": 20})


@pytest.mark.parametrize(
    "bad",
    [
        {**DEFAULTS, "players": 3, "tie": "extra_deal"},  # not the normal form of any variant
        {**DEFAULTS, "erlangen": True, "card_points": "11-10-4-3-2"},
        {**DEFAULTS, "erlangen": True, "players": 3},
        {**DEFAULTS, "last_trick": 20.0},
        {**DEFAULTS, "erlangen": 0},
        {**DEFAULTS, "bogus": 1},
        {k: v for k, v in DEFAULTS.items() if k != "tie"},
        [],
    ],
    ids=str,
)
def test_renormalize_variant_accepts_only_normal_forms(bad: Any) -> None:
    """HUU-11.5: a normal form lists every option; an option it may not give holds its
    default; the values are checked as in a record."""
    with pytest.raises(MalformedRecord):
        GAME.renormalize_variant(bad)


@pytest.mark.parametrize(
    "variant",
    [{"players": 3}, {"erlangen": True}, {"players": 3, "card_points": "11-10-4-3-2"}, {}],
    ids=json.dumps,
)
def test_internal_callers_of_a_normalized_variant(variant: dict[str, Any]) -> None:
    """HUU-10, HUU-11.5: Match (new and from its record), records, random deals and
    determinize take the engine's normalized variants of every rule set."""
    rng = random.Random(3)
    m = Match(GAME, variant, rng=random.Random(3), dealer=0)
    for _ in range(3):
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    rec = json.loads(json.dumps(m.record()))
    assert rec["variant"] == variant and replay(rec)["ok"] is True
    again = Match.from_record(rec, rng=random.Random(4))
    assert again.variant == m.variant and again.state.totals == m.state.totals
    assert Match(GAME, m.variant).variant == m.variant
    if not again.is_over:
        d = again.new_deal()
        assert d.variant == m.variant and not d.is_over
    s = GAME.random_deal(rng, m.variant)
    assert s.variant == m.variant
    s.apply(s.legal_actions()[0])
    world = GAME.determinize(s.observation(0), rng)
    assert world.variant == m.variant and world.observation(0) == s.observation(0)
    lone = {**rec["deals"][-1], "game": "huutopussi", "variant": rec["variant"]}
    assert load_deal(lone).variant == m.variant


# --- HUU-10.3: ``totals`` ---------------------------------------------------------------------


def played_match(variant: dict[str, Any]) -> dict[str, Any]:
    """A match record of random deals in which a deal after the first carries totals ≠ 0."""
    for seed in range(100):
        rng = random.Random(seed)
        m = Match(GAME, variant, rng=random.Random(seed), dealer=1)
        while len(m.deals) < 4 and not m.is_over:
            d = m.new_deal()
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
            m.finish_deal()
        rec = json.loads(json.dumps(m.record()))
        if sum("totals" in d for d in rec["deals"][1:]) >= 2:
            return rec
    raise AssertionError("no match with carried totals")


def test_totals_is_the_one_derived_deal_key() -> None:
    """HUU-10.3, conventions.md "Deal record": ``totals`` may be given, in a match it is
    derived; absent it is the start of a match (all 0)."""
    assert GAME.deal_keys == ("totals",) and GAME.derived_deal_keys == ("totals",)
    for v, k in (({}, 2), ({"players": 3}, 3)):
        nv = GAME.normalize_variant(v)
        assert GAME.normalize_carry({}, nv) == {"totals": [0] * k}
        assert GAME.normalize_carry({"totals": [5] * k}, nv) == {"totals": [5] * k}
        for bad in ([0] * (k - 1), [0.0] * k, [True] * k, None, "0", {"0": 0}):
            with pytest.raises(MalformedRecord):
                GAME.normalize_carry({"totals": bad}, nv)


@pytest.mark.parametrize("variant", [{}, {"players": 3}, {"erlangen": True}], ids=json.dumps)
def test_huu_10_3_totals_in_a_match_record(variant: dict[str, Any]) -> None:
    """HUU-10.3, HUU-10.4: in a match record ``totals`` may be left out of a later deal (the
    engine derives it); a present value that differs, or is ill-typed, is malformed (``index``
    null, ``deal`` that deal); a lone deal with its ``totals`` replays as in its match."""
    rec = played_match(variant)
    expected = replay(rec)
    assert expected["ok"] is True
    later = [k for k, d in enumerate(rec["deals"]) if k and "totals" in d]
    for k in later:
        deals = copy.deepcopy(rec["deals"])
        del deals[k]["totals"]
        assert replay({**rec, "deals": deals}) == expected
        t = rec["deals"][k]["totals"]
        for wrong in ([t[0] + 5, *t[1:]], [*t, 0], [float(x) for x in t], "x"):
            deals = copy.deepcopy(rec["deals"])
            deals[k]["totals"] = wrong
            out = replay({**rec, "deals": deals})
            assert out["ok"] is False and out["index"] is None and out["deal"] == k
            assert "totals" in out["error"]
        lone = {**rec["deals"][k], "game": "huutopussi", "variant": rec["variant"]}
        state = load_deal(lone)
        assert isinstance(state, HuutopussiState) and list(state.totals) == t
    # every deal's totals removed: all derived, the same replay
    deals = [{k: v for k, v in d.items() if k != "totals"} for d in rec["deals"]]
    assert replay({**rec, "deals": deals}) == expected
    # the first deal may say the start-of-match totals (all 0), not others
    n = len(expected["result"]["totals"])
    first = {**rec["deals"][0], "totals": [0] * n}
    assert replay({**rec, "deals": [first, *rec["deals"][1:]]}) == expected
    first = {**rec["deals"][0], "totals": [10] + [0] * (n - 1)}
    out = replay({**rec, "deals": [first, *rec["deals"][1:]]})
    assert out["ok"] is False and out["deal"] == 0 and out["index"] is None
