"""Scopone variants (SCO-8) and deal-record keys in matches (SCO-7).

Variants: drawn option by option (each given or left out, with a good or a bad value),
a variant is accepted exactly when SCO-8.7 allows every value — SCO-8 forbids no
combination (SCO-8.2: ``dealer_last_sweep`` goes with either deal) — and it normalizes
to the same as its minimal spelling.

Deal keys: Scopone defines none (SCO-7.2: nothing but the totals carries over), so a
deal of a match has only the conventions' keys; its dealer follows SCO-7.1 (the same
dealer after a void deal, SCO-3.4).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, DECK_40, card, iter_cards
from folkcards.engine import MalformedRecord, Match, replay
from folkcards.games.scopone import GAME

CARDS = list(iter_cards(DECK_40))
PACK = [CARD_NAMES[c] for c in CARDS]
DEFAULTS: dict[str, Any] = {
    "scientifico": False,
    "dealer_last_sweep": False,
    "re_bello": False,
    "napola": False,
    "target": 11,
    "primiera_pictures": "flat",
}
BOOLS = ("scientifico", "dealer_last_sweep", "re_bello", "napola")

BAD_SCALARS: st.SearchStrategy[Any] = st.sampled_from([None, "true", "11", 0.0, 1.0, 11.0, [], {}])
OPTIONS = {
    **{k: st.one_of(st.booleans(), st.integers(0, 1), BAD_SCALARS) for k in BOOLS},
    "target": st.one_of(st.integers(-3, 40), st.just(2**64), st.booleans(), BAD_SCALARS),
    "primiera_pictures": st.one_of(
        st.sampled_from(["flat", "graded", "Flat", "GRADED", "graded ", "", "pictures"]),
        st.booleans(),
        BAD_SCALARS,
    ),
    # keys SCO-8 does not define (SCO-8.7: an unknown key is malformed)
    "Napola": st.booleans(),
    "dealer-last-sweep": st.booleans(),
    "redeal": st.booleans(),
}


def allowed(key: str, value: Any) -> bool:
    """SCO-8.1–8.7 and conventions ("Integers are JSON integers"; strings are exact)."""
    if key in BOOLS:  # SCO-8.1–8.4: bool
        return type(value) is bool
    if key == "target":  # SCO-8.5, SCO-8.7: int >= 1
        return type(value) is int and value >= 1
    if key == "primiera_pictures":  # SCO-8.6, SCO-8.7: exactly "flat" or "graded"
        return value in ("flat", "graded") and type(value) is str
    return False  # SCO-8.7: unknown key


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.fixed_dictionaries({}, optional=OPTIONS))
def test_sco_8_7_variant_accepted_iff_the_rules_allow_it(raw: dict[str, Any]) -> None:
    """SCO-8.7: accepted iff every given option has an allowed value (no combination is
    forbidden), however many keys are spelt out; the normal form is that of the minimal
    spelling, and a record, a random deal and a match accept or refuse it alike."""
    ok = all(allowed(k, v) for k, v in raw.items())
    record = {"game": "scopone", "variant": raw, "dealer": 0, "deck": PACK, "actions": []}
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


def test_sco_8_7_all_keys_spelt_out_are_still_checked() -> None:
    """Spelling out every option does not skip a check (a full mapping is validated)."""
    bads = ({"target": 0}, {"napola": 1}, {"primiera_pictures": "Graded"}, {"target": 11.0})
    for bad in bads:
        with pytest.raises(MalformedRecord):
            GAME.normalize_variant({**DEFAULTS, **bad})


# --- SCO-7: deal-record keys and dealers in match records -------------------------------------


def void_deck(rng: random.Random) -> list[int]:
    """A classic deck whose table (indices 12, 13, 26, 27) holds three kings (SCO-3.4)."""
    deck = CARDS.copy()
    rng.shuffle(deck)
    for pos, suit in zip((12, 13, 26), "CSH", strict=True):
        j = deck.index(card("K", suit))
        deck[pos], deck[j] = deck[j], deck[pos]
    return deck


def live_match() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A live match's record (``Match.record()``) and its deals' results: deal 0 void,
    deals 1 and 2 played out with random legal actions."""
    rng = random.Random(6)
    match = Match(GAME, {"re_bello": True}, rng=rng, dealer=2)
    assert match.new_deal(void_deck(rng)).is_over
    match.finish_deal()
    for _ in range(2):
        deal = match.new_deal()
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        match.finish_deal()
    return match.record(), [d.result() for d in match.deals]


def test_sco_7_1_live_match_record_replays() -> None:
    """SCO-7.1, SCO-7.2: the same dealer after the void deal, then the next seat; the
    record holds no game-defined deal key and replays to the live match's last result."""
    rec, results = live_match()
    deals = rec["deals"]
    assert results[0] == {"score": [0, 0], "redeal": True}
    assert [d["dealer"] for d in deals] == [2, 2, 3]
    assert all(set(d) == {"dealer", "deck", "actions"} for d in deals)
    out = replay(rec)
    assert out["ok"] and out["over"], out
    assert {k: out["result"][k] for k in results[2]} == results[2]
    assert out["result"]["totals"] == [
        results[1]["score"][t] + results[2]["score"][t] for t in (0, 1)
    ]
    assert GAME.deal_keys == () and GAME.derived_deal_keys == ()
    assert GAME.normalize_carry(deals[1], GAME.normalize_variant({})) == {}


@pytest.mark.parametrize(
    ("deal", "key", "value", "why"),
    [
        (1, "dealer", 3, "SCO-7.1: the same dealer deals again after a void deal"),
        (2, "dealer", 2, "SCO-7.1: the deal passes to the next seat"),
        (1, "replay", {"trump": "D", "declarer": 0}, "SCO-7.2: Scopone has no such key"),
        (2, "redeal", True, "SCO-7.2: nothing carries over"),
        (1, "variant", {"re_bello": False}, "SCO-7.4: a deal's variant equals the match's"),
    ],
)
def test_sco_7_4_deal_keys_disagreeing_with_the_match(
    deal: int, key: str, value: Any, why: str
) -> None:
    """SCO-7.4, SCO-10.1: a wrong dealer or a key Scopone does not define is malformed
    (index null), named by its deal."""
    rec, _ = live_match()
    bad = copy.deepcopy(rec)
    bad["deals"][deal][key] = value
    out = replay(bad)
    assert out["ok"] is False and out["deal"] == deal and out["index"] is None, why


def test_sco_7_4_deal_variant_spelt_in_full_is_the_match_variant() -> None:
    """SCO-7.4: a deal's own variant, if present, must equal the match's after defaults —
    spelt out in full it still is."""
    rec, _ = live_match()
    spelt = copy.deepcopy(rec)
    spelt["deals"][1]["variant"] = {**DEFAULTS, "re_bello": True}
    assert replay(spelt) == replay(rec)
