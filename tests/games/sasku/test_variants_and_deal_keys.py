"""Sasku variants (SAS-17) and the ``replay`` deal-record key in matches (SAS-15.2, SAS-16).

Variants: drawn option by option (each given or left out, with a good or a bad value),
a variant is accepted exactly when the rules allow every value — SAS-17 forbids no
combination of options — and it normalizes to the same as its minimal spelling.

``replay``: SAS-14.1 says the result's ``replay`` is "exactly what the next deal record
must carry", SAS-16.3 that it follows SAS-16.2 from the deals before, and the first deal
has none. So a deal of a match may not leave it out after a 60–60 (it is no *derived*
key), and a value that differs from the derived one is malformed.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, cards_list, parse_card
from folkcards.engine import MalformedRecord, Match, replay
from folkcards.games.sasku import DECK, GAME

GOLDEN = Path(__file__).parent / "golden"
PACK = [CARD_NAMES[c] for c in cards_list(DECK)]
DEFAULTS = {"must_beat": True, "target": 16, "exchange": True}

BAD_SCALARS: st.SearchStrategy[Any] = st.sampled_from([None, "true", "16", 0.0, 1.0, 16.0, [], {}])
OPTIONS = {
    "must_beat": st.one_of(st.booleans(), st.integers(0, 1), BAD_SCALARS),
    "target": st.one_of(st.integers(-3, 40), st.just(2**64), st.booleans(), BAD_SCALARS),
    "exchange": st.one_of(st.booleans(), st.integers(0, 1), BAD_SCALARS),
    # keys the rules do not define (SAS-17.1: an unknown key is malformed)
    "Target": st.integers(1, 20),
    "must-beat": st.booleans(),
    "replay": st.booleans(),
}


def allowed(key: str, value: Any) -> bool:
    """SAS-17.1–17.4 and conventions ("Integers are JSON integers: not booleans, not 2.0")."""
    if key in ("must_beat", "exchange"):  # SAS-17.2, SAS-17.4: bool
        return type(value) is bool
    if key == "target":  # SAS-17.3: int >= 1
        return type(value) is int and value >= 1
    return False  # SAS-17.1: unknown key


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.fixed_dictionaries({}, optional=OPTIONS))
def test_sas_17_variant_accepted_iff_the_rules_allow_it(raw: dict[str, Any]) -> None:
    """SAS-17.1: accepted iff every given option has an allowed value (no combination is
    forbidden), however many keys are spelt out; the normal form is that of the minimal
    spelling, and a record, a random deal and a match accept or refuse it alike."""
    ok = all(allowed(k, v) for k, v in raw.items())
    record = {"game": "sasku", "variant": raw, "dealer": 0, "deck": PACK, "actions": []}
    out = replay(json.loads(json.dumps(record)))
    assert out["ok"] is ok, out
    if not ok:
        with pytest.raises(MalformedRecord):
            GAME.normalize_variant(raw)
        with pytest.raises(MalformedRecord):
            GAME.random_deal(random.Random(0), raw)
        with pytest.raises(MalformedRecord):
            Match(GAME, raw)
        return
    norm = GAME.normalize_variant(raw)
    minimal = {k: v for k, v in raw.items() if v != DEFAULTS[k]}
    assert norm == GAME.normalize_variant(minimal) == {**DEFAULTS, **raw}
    assert all(type(norm[k]) is type(d) for k, d in DEFAULTS.items())
    assert GAME.variant_diff(norm) == minimal
    assert GAME.random_deal(random.Random(0), raw).variant == norm
    assert Match(GAME, raw).variant == norm


def test_sas_17_all_keys_spelt_out_are_still_checked() -> None:
    """Spelling out every option does not skip a check (a full mapping is validated)."""
    for bad in ({"target": 0}, {"must_beat": 1}, {"exchange": None}, {"target": 16.0}):
        full = {**DEFAULTS, **bad}
        with pytest.raises(MalformedRecord):
            GAME.normalize_variant(full)
        norm = GAME.normalize_variant(DEFAULTS)
        with pytest.raises(MalformedRecord):
            GAME.normalize_variant({**norm, **bad})


# --- SAS-15.2, SAS-16.2, SAS-16.3: ``replay`` in match records ------------------------------


def play_out(deal: Any, rng: random.Random) -> None:
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


def tie_match() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A live match's record (``Match.record()``) and its deals' results: deal 0 ends
    60–60 (the golden ``sixty_all``), deal 1 is its replay deal, deal 2 an ordinary deal."""
    golden = json.loads((GOLDEN / "sixty_all.json").read_text())
    match = Match(GAME, {}, rng=random.Random(4), dealer=golden["dealer"])
    first = match.new_deal([parse_card(c) for c in golden["deck"]])
    for text in golden["actions"]:
        first.apply(text)
    match.finish_deal()
    rng = random.Random(9)
    for _ in range(2):
        play_out(match.new_deal(), rng)
        match.finish_deal()
    results = [d.result() for d in match.deals]
    assert results[0]["redeal"] and not results[1]["redeal"]  # deal 2 is an ordinary deal
    return match.record(), results


DROP = "leave the key out"


def changed(rec: dict[str, Any], deal: int, value: Any) -> dict[str, Any]:
    """The record with deal ``deal``'s ``replay`` set to ``value`` (or left out: DROP)."""
    bad = copy.deepcopy(rec)
    if value == DROP:
        del bad["deals"][deal]["replay"]
    else:
        bad["deals"][deal]["replay"] = value
    return bad


def test_sas_16_2_live_match_record_carries_replay_and_replays() -> None:
    """SAS-16.2, SAS-15.2: after 60–60 the same dealer deals, and the record of the live
    match carries ``replay`` exactly as the tied deal's result gives it; it replays to the
    live match's last result."""
    rec, results = tie_match()
    deals = rec["deals"]
    assert "replay" not in deals[0] and "replay" not in deals[2]
    assert deals[1]["dealer"] == deals[0]["dealer"]
    assert deals[1]["replay"] == results[0]["replay"] == {"trump": "D", "declarer": 3}
    assert deals[2]["dealer"] == (deals[1]["dealer"] + 1) % 4
    out = replay(rec)
    assert out["ok"] and out["over"], out
    assert {k: out["result"][k] for k in results[2]} == results[2]
    assert GAME.deal_keys == ("replay",) and GAME.derived_deal_keys == ()


@pytest.mark.parametrize(
    ("deal", "value", "why"),
    [
        (1, DROP, "SAS-14.1: the deal after a 60-60 must carry replay (it is not derived)"),
        (1, {"trump": "D", "declarer": 1}, "SAS-16.3: another declarer"),
        (1, {"trump": "H", "declarer": 3}, "SAS-16.3: another trump"),
        (1, {"trump": "D", "declarer": None}, "SAS-16.3: a passed deal instead"),
        (1, [], "SAS-15.2: replay must be an object"),
        (1, {"trump": "D", "declarer": 3, "bid": 5}, "SAS-15.2: exactly trump and declarer"),
        (0, {"trump": "D", "declarer": 3}, "SAS-16.3: the first deal has no replay"),
        (2, {"trump": "D", "declarer": 3}, "SAS-16.2: no replay after a deal that scored"),
        (2, None, "SAS-15.2, SAS-20.1: null is a bad replay, not an absent one"),
    ],
)
def test_sas_16_3_replay_key_disagreeing_with_the_deals_before(
    deal: int, value: Any, why: str
) -> None:
    """SAS-16.3: a missing, extra or different ``replay`` is malformed (index null), named
    by its deal (conventions.md, order of checks (c))."""
    rec, _ = tie_match()
    out = replay(changed(rec, deal, value))
    assert out["ok"] is False and out["deal"] == deal and out["index"] is None, why


def test_sas_16_3_replay_key_is_compared_after_normalizing() -> None:
    """Text input is case-insensitive (conventions): ``"d"`` is the derived ``"D"``."""
    rec, _ = tie_match()
    assert replay(changed(rec, 1, {"trump": "d", "declarer": 3})) == replay(rec)


def test_sas_15_2_lone_deal_takes_replay_as_given() -> None:
    """Conventions "Deal record": in a lone deal record a carried-over key is taken as
    given; absent, the deal is an ordinary deal (with an auction, SAS-15.2)."""
    rec, results = tie_match()
    lone = {"game": "sasku", **rec["deals"][1]}
    assert replay(lone) == {"ok": True, "over": True, "result": results[1]}
    ordinary = {k: v for k, v in lone.items() if k != "replay"}
    out = replay(ordinary)  # its plays come where the auction's actions are due
    assert out["ok"] is False and out["index"] is not None
    variant = GAME.normalize_variant({})
    assert GAME.normalize_carry({}, variant) == {}
    assert GAME.normalize_carry({"replay": {"trump": "s", "declarer": 0}}, variant) == {
        "replay": {"trump": "S", "declarer": 0}
    }
    bad_keys = (
        None,
        {"trump": "C", "declarer": None},
        {"trump": "D"},
        {"trump": "X", "declarer": 1},
    )
    for bad in bad_keys:
        with pytest.raises(MalformedRecord):
            GAME.normalize_carry({"replay": bad}, variant)
