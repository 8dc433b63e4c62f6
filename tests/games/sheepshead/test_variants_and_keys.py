"""Variant validation (SHP-12.1, conventions.md "Deal record") and the carried-over deal key
``stake`` in match records (SHP-11.2, SHP-11.4)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shp_helpers import record

from folkcards.engine.api import MalformedRecord
from folkcards.engine.match import Match
from folkcards.engine.records import load_match, replay
from folkcards.games.sheepshead import GAME, SheepsheadDeal

# --- SHP-12.1 variants ---------------------------------------------------------------------

DEFAULTS: dict[str, Any] = {"no_pick": "leaster", "double_on_bump": False, "match_deals": 5}
VALUES: dict[str, list[Any]] = {
    "no_pick": ["leaster", "doubler", "Doubler", "LEASTER", "redeal", "", 0, True, None, []],
    "double_on_bump": [True, False, 0, 1, "true", None, 1.0],
    "match_deals": [1, 2, 5, 12, 10**9, 0, -1, True, False, 2.0, 5.0, "5", None],
}
UNKNOWN = ["stake", "No_pick", "schneider", "match-deals", ""]
OMIT = object()


def allowed(raw: dict[str, Any]) -> bool:
    """SHP-12.1 read directly: only the three keys; ``no_pick`` exactly "leaster" or
    "doubler"; ``double_on_bump`` a JSON boolean; ``match_deals`` a JSON integer ≥ 1 (not a
    boolean, not 2.0). The rules forbid no combination of valid values (SHP-12.3: no_pick
    only matters when nobody picks; SHP-12.2: double_on_bump works under both)."""
    for key, value in raw.items():
        if key == "no_pick":
            ok = type(value) is str and value in ("leaster", "doubler")
        elif key == "double_on_bump":
            ok = type(value) is bool
        elif key == "match_deals":
            ok = type(value) is int and value >= 1
        else:
            return False
        if not ok:
            return False
    return True


def typed(v: dict[str, Any]) -> list[tuple[str, type, Any]]:
    """A variant compared with its value types (True == 1 in Python, not in JSON)."""
    return sorted((k, type(x), x) for k, x in v.items())


@st.composite
def raw_variants(draw: st.DrawFn) -> dict[str, Any]:
    """A variant drawn option by option: each option omitted or given (a valid or invalid
    value), sometimes an unknown key, in a random key order."""
    items = []
    for key, values in VALUES.items():
        value = draw(st.sampled_from([OMIT, *values]))
        if value is not OMIT:
            items.append((key, value))
    if draw(st.integers(0, 4)) == 0:
        items.append((draw(st.sampled_from(UNKNOWN)), draw(st.sampled_from([1, True, "x"]))))
    return dict(draw(st.permutations(items)))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(raw=raw_variants())
def test_variants_accepted_iff_the_rules_allow_them(raw: dict[str, Any]) -> None:
    """SHP-12.1 / SHP-14.3: a variant spelt with any subset of its keys is accepted exactly
    when the rules allow it (however many keys it spells out), and then normalizes to the
    same variant as its minimal spelling (only the non-default keys); a record with it
    replays or is malformed accordingly, alone or in a match."""
    spelt = dict(raw)
    if allowed(raw):
        v = GAME.normalize_variant(raw)
        assert raw == spelt  # not changed in place
        minimal = {k: x for k, x in raw.items() if x != DEFAULTS[k]}
        assert typed(v) == typed(GAME.normalize_variant(minimal))
        assert typed(v) == typed({**DEFAULTS, **raw})
        assert typed(GAME.variant_diff(v)) == typed(minimal)
        assert typed(GAME.normalize_variant(v)) == typed(v)  # a complete spelling again
        assert replay(record(variant=raw))["ok"] is True
        # conventions.md: variants are equal when equal after defaults — a deal may spell the
        # match's variant in full while the match gives it minimally.
        m = {"game": "sheepshead", "variant": minimal, "deals": [record(variant=dict(v))]}
        assert replay(m)["ok"] is True
    else:
        with pytest.raises(MalformedRecord):
            GAME.normalize_variant(raw)
        for obj in (record(variant=raw), {"game": "sheepshead", "variant": raw, "deals": [{}]}):
            o = replay(obj)
            assert o["ok"] is False and o["index"] is None, o
        # However it is spelt: the bad key with every other key spelt out is still bad.
        full = {**DEFAULTS, **raw}
        with pytest.raises(MalformedRecord):
            GAME.normalize_variant(full)
        assert replay(record(variant=full))["ok"] is False


def test_the_variant_check_has_no_memory() -> None:
    """A bad variant stays bad after the good full spelling was seen (no cache hides it)."""
    for _ in range(3):
        assert GAME.normalize_variant(dict(DEFAULTS)) == DEFAULTS
        for bad in ({**DEFAULTS, "match_deals": True}, {**DEFAULTS, "double_on_bump": 0}):
            with pytest.raises(MalformedRecord):
                GAME.normalize_variant(bad)


# --- SHP-11.2 stake in match records ---------------------------------------------------------

DOUBLER: dict[str, Any] = {"no_pick": "doubler", "match_deals": 9}


def doubler_match(seed: int, deals: int) -> dict[str, Any]:
    """A doubler match of random legal play (the match's and the actions' RNG from seed)."""
    m = Match(GAME, DOUBLER, rng=random.Random(seed), dealer=0)
    rng = random.Random(seed)
    while len(m.deals) < deals and not m.is_over:
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    return json.loads(json.dumps(m.record()))


def passed_out(deal: dict[str, Any]) -> bool:
    return bool(deal["actions"] == ["pass"] * 5)


def without_stakes(rec: dict[str, Any], which: list[int]) -> dict[str, Any]:
    out = json.loads(json.dumps(rec))
    for i in which:
        out["deals"][i].pop("stake", None)
    return out


def test_shp_11_2_a_deal_after_a_pass_out_may_omit_its_stake() -> None:
    """SHP-11.2, SHP-9.5: after a doubler pass-out the next deal is at stake 2; the match
    record's later deal may leave ``stake`` out and then replays at the computed stake —
    the same output as with the key (before: 'carried-over keys {"stake": 1} disagree')."""
    rec = doubler_match(15, 3)
    assert passed_out(rec["deals"][0]) and not passed_out(rec["deals"][1])
    assert "stake" not in rec["deals"][0] and rec["deals"][1]["stake"] == 2
    assert "stake" not in rec["deals"][2]  # back to 1 after a played deal
    full = replay(rec)
    assert full["ok"] is True and full["result"]["stake"] == 1
    omitted = without_stakes(rec, [1])
    assert replay(omitted) == full
    rep = load_match(omitted)
    assert [d.stake for d in rep.deals if isinstance(d, SheepsheadDeal)] == [1, 2, 1]
    assert all(x % 2 == 0 for x in rep.deals[1].result()["score"])
    # Cut after the deal at stake 2: its result says stake 2 with or without the key.
    two = {**omitted, "deals": omitted["deals"][:2]}
    assert replay(two) == replay({**rec, "deals": rec["deals"][:2]})
    assert replay(two)["result"]["stake"] == 2
    # ... and while it is still in progress the legal actions are those of the full record.
    part = json.loads(json.dumps(two))
    part["deals"][1]["actions"] = part["deals"][1]["actions"][:3]
    o = replay(part)
    assert o["ok"] is True and o["over"] is False
    assert o == replay({**part, "deals": [part["deals"][0], {**part["deals"][1], "stake": 2}]})


def test_shp_11_2_stakes_compound_and_every_key_may_be_omitted() -> None:
    """SHP-11.2: two pass-outs in a row give stakes 1, 2, 4; any of the keys may be left
    out; a pass-out in the middle of a match is followed by stake 2, then 1 again."""
    rec = doubler_match(399, 3)
    assert [passed_out(d) for d in rec["deals"]] == [True, True, False]
    assert [d.get("stake", 1) for d in rec["deals"]] == [1, 2, 4]
    full = replay(rec)
    assert full["ok"] is True and full["result"]["stake"] == 4
    for which in ([1], [2], [1, 2], [0, 1, 2]):
        assert replay(without_stakes(rec, which)) == full, which
    mid = doubler_match(10, 4)
    assert [passed_out(d) for d in mid["deals"]] == [False, True, False, False]
    assert [d.get("stake", 1) for d in mid["deals"]] == [1, 1, 2, 1]
    assert replay(without_stakes(mid, [2])) == replay(mid)
    assert replay(without_stakes(mid, [2]))["ok"] is True


@pytest.mark.parametrize(
    ("deal", "value"),
    [(1, 1), (1, 4), (1, 3), (1, "2"), (1, 2.0), (1, True), (1, None), (0, 2), (2, 2), (2, 0)],
)
def test_shp_11_2_and_11_4_a_wrong_stake_in_a_match_is_malformed(deal: int, value: Any) -> None:
    """SHP-11.2/11.4: a ``stake`` that a deal of a match gives must equal the computed one
    (1, 2, 1 here) and be a power of two, else the record is malformed at that deal."""
    rec = doubler_match(15, 3)
    rec["deals"][deal]["stake"] = value
    o = replay(rec)
    assert o["ok"] is False and o["index"] is None and o["deal"] == deal, o
    assert "stake" in o["error"]


def test_shp_11_2_a_right_stake_may_be_given() -> None:
    """SHP-11.2: giving the computed stake explicitly (even 1) changes nothing."""
    rec = doubler_match(15, 3)
    full = replay(rec)
    given = json.loads(json.dumps(rec))
    for d, s in zip(given["deals"], [1, 2, 1], strict=True):
        d["stake"] = s
    assert replay(given) == full


def test_shp_11_2_standalone_stake_and_new_deal_checks() -> None:
    """SHP-11.2: a lone deal record takes ``stake`` as given (absent = 1) under doubler;
    under leaster the stake is always 1, so a deal at another stake cannot be made."""
    o = replay(record(actions=["pass"] * 5, variant={"no_pick": "doubler"}, stake=8))
    assert o["ok"] is True and o["result"]["stake"] == 8 and o["result"]["redeal"] is True
    o = replay(record(actions=["pass"] * 5, variant={"no_pick": "doubler"}))
    assert o["ok"] is True and o["result"]["stake"] == 1
    leaster = GAME.normalize_variant({})
    with pytest.raises(MalformedRecord):
        GAME.random_deal(random.Random(0), leaster, 0, {"stake": 2})
    with pytest.raises(MalformedRecord):
        GAME.random_deal(random.Random(0), GAME.normalize_variant(DOUBLER), 0, {"stake": 3})
    one = GAME.random_deal(random.Random(0), leaster, 0, {"stake": 1})
    assert "stake" not in one.record()
