"""Property tests over random legal Scopone playouts of every variant, and replay fuzzing."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
import scopone_reference as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, DECK_40, iter_cards
from folkcards.engine import Match, replay
from folkcards.games.scopone import GAME, ScoponeState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"scientifico": True},
    {"dealer_last_sweep": True},
    {"re_bello": True},
    {"napola": True},
    {"target": 3},
    {"primiera_pictures": "graded"},
    {
        "scientifico": True,
        "dealer_last_sweep": True,
        "re_bello": True,
        "napola": True,
        "primiera_pictures": "graded",
        "target": 21,
    },
]
SETTINGS = settings(
    max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
EVERY_VARIANT = pytest.mark.parametrize("vi", range(len(VARIANTS)), ids=[str(v) for v in VARIANTS])


def check_invariants(state: ScoponeState) -> None:
    """Cards conserved and disjoint; legal non-empty while a seat acts (SCO-4.3)."""
    parts = [*state.hands, state.table, *state.piles]
    total = 0
    for p in parts:
        assert not total & p
        total |= p
    assert total == DECK_40
    if not state.is_over:
        assert state.legal_actions()
        assert len(set(state.legal_texts())) == len(state.legal_actions())


def check_observations(state: ScoponeState, rng: random.Random) -> None:
    """No hidden-card leak; determinize gives a state with the very same observation."""
    for seat in range(4):
        obs = state.observation(seat)
        data = json.dumps(obs.to_dict())
        for other in range(4):
            if other == seat:
                continue
            for c in iter_cards(state.hands[other]):
                assert f'"{CARD_NAMES[c]}"' not in data or _public(state, c)
        det = GAME.determinize(obs, rng)
        assert det.observation(seat) == obs
        assert det.hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in det.hands] == [h.bit_count() for h in state.hands]
        check_invariants(det)
        if not det.is_over:  # the sampled world plays on
            det.apply(rng.choice(det.legal_actions()))


def _public(state: ScoponeState, c: int) -> bool:
    return bool((state.table | state.piles[0] | state.piles[1]) >> c & 1)


@EVERY_VARIANT
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_match_the_reference(seed: int, vi: int) -> None:
    """SCO-4 … SCO-6 over random deals of every variant: engine = naive referee, turn by turn."""
    rng = random.Random(seed)
    variant = VARIANTS[vi]
    state = GAME.random_deal(rng, variant, dealer=seed % 4)
    probe = rng.randrange(0, 41)
    while not state.is_over:
        check_invariants(state)
        if state.turn == probe:
            check_observations(state, rng)
            twin = state.clone()
            a = rng.choice(twin.legal_actions())
            twin.apply(a)
            assert state.turn == twin.turn - 1 and len(state.history) == len(twin.history) - 1
        state.apply(rng.choice(state.legal_actions()))
    check_invariants(state)
    check_observations(state, rng)
    res = state.result()
    rec = state.record()

    def legal_agrees(i: int, seat: int, texts: list[str]) -> None:
        assert seat == (state.dealer + 1 + i) % 4

    assert ref.replay_deal(rec, legal_agrees) == res  # whole-deal cross-check
    assert replay(rec) == {"ok": True, "over": True, "result": res}  # record round-trip
    assert replay(json.loads(json.dumps(rec)))["result"] == res
    if not res["redeal"]:
        assert sum(res["cards"]) == 40 and sum(res["coins"]) == 10  # SCO-6
        assert res["last_capture"] is not None  # SCO-5.4
        assert any(a.take for a in state.history)


@EVERY_VARIANT
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_lists_equal_the_reference_at_every_turn(seed: int, vi: int) -> None:
    """SCO-4.2 / SCO-4.3 / SCO-4.5: the exact legal list, at every turn, against brute force."""
    rng = random.Random(seed)
    variant = VARIANTS[vi]
    state = GAME.random_deal(rng, variant, dealer=seed % 4)
    if state.is_over:
        return
    hands = [[CARD_NAMES[c] for c in iter_cards(h)] for h in state.hands]
    table = [CARD_NAMES[c] for c in iter_cards(state.table)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        assert state.legal_texts() == ref.legal(hands[seat], table)
        a = rng.choice(state.legal_actions())
        words = a.text.split()
        hands[seat].remove(words[1])
        if len(words) > 2:
            for t in words[3:]:
                table.remove(t)
        else:
            table.append(words[1])
        # every legal text parses back to itself (notation round-trip, SCO-4.6)
        assert state.parse_action(a.text.lower().replace(" ", "  ")) == a
        state.apply(a)


@EVERY_VARIANT
@settings(max_examples=1, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_round_trip(seed: int, vi: int) -> None:
    """SCO-7: a random match's record replays to its totals and winner."""
    variant = dict(VARIANTS[vi])
    variant["target"] = min(variant.get("target", 11), 4)
    rng = random.Random(seed)
    m = Match(GAME, variant, rng=rng)
    while not m.is_over:
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    out = replay(m.record())
    assert out["ok"] and out["result"]["totals"] == m.state.totals
    assert out["result"]["winner"] == m.state.winner and out["result"]["match_over"]
    t = m.state.totals
    capotto = m.deals[-1].result().get("capotto")
    assert capotto is not None or (max(t) >= variant["target"] and t[0] != t[1])


def _valid_record(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    variant = VARIANTS[seed % len(VARIANTS)]
    state = GAME.random_deal(rng, variant, dealer=seed % 4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    rec = state.record()
    if seed % 3 == 0:  # a hands record too
        rec2 = copy.deepcopy(rec)
        del rec2["deck"]
        st2 = GAME.deal_from_record(rec, GAME.normalize_variant(rec.get("variant", {})))
        assert isinstance(st2, ScoponeState)
        rec2["hands"] = [[CARD_NAMES[c] for c in iter_cards(h)] for h in st2.hands]
        if not rec2.get("variant", {}).get("scientifico"):
            rec2["extra"] = {"table": [CARD_NAMES[c] for c in st2.initial_table]}
        rec = rec2
    return rec


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["play", "play AC", "play 7D take", "play KD take 5S 5H", "10D", "7d", "take"]),
    st.lists(st.sampled_from([*ref.DECK, "9D", "TC", ""]), max_size=6),
    st.dictionaries(st.sampled_from(["table", "napola", "x"]), st.integers(0, 3), max_size=2),
)


def _mutate(obj: Any, path_choice: int, junk: Any) -> Any:
    """Replace / delete / duplicate one node of a JSON tree, chosen by ``path_choice``."""
    nodes: list[tuple[Any, Any]] = []

    def walk(o: Any) -> None:
        if isinstance(o, dict):
            for k in list(o):
                nodes.append((o, k))
                walk(o[k])
        elif isinstance(o, list):
            for i in range(len(o)):
                nodes.append((o, i))
                walk(o[i])

    walk(obj)
    if not nodes:
        return junk
    parent, key = nodes[path_choice % len(nodes)]
    kind = path_choice // len(nodes) % 4
    if kind == 0:
        parent[key] = junk
    elif kind == 1:
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif kind == 2 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif isinstance(parent, list) and len(parent) > 1:
        j = (key + 1) % len(parent)
        parent[key], parent[j] = parent[j], parent[key]
    else:
        parent[key] = junk
    return obj


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 40),
    muts=st.lists(st.tuples(st.integers(0, 10**6), JUNK), min_size=1, max_size=3),
    as_match=st.booleans(),
)
def test_fuzzed_records_never_crash_replay(
    seed: int, muts: list[tuple[int, Any]], as_match: bool
) -> None:
    """SCO-10.1 / SCO-10.2: a mutated record gives a valid result or the clean error object."""
    rec: Any = _valid_record(seed)
    if as_match:
        inner = {k: v for k, v in rec.items() if k not in ("game", "variant")}
        rec = {"game": "scopone", "variant": rec.get("variant", {}), "deals": [inner]}
    for choice, junk in muts:
        rec = _mutate(rec, choice, copy.deepcopy(junk))
    out = replay(rec)
    json.dumps(out)
    # exactly one of the replay contract's three shapes (conventions.md)
    if out["ok"] is True:
        if out["over"] is True:
            assert set(out) == {"ok", "over", "result"} and "score" in out["result"]
        else:
            assert out["over"] is False
            assert set(out) == {"ok", "over", "to_act", "phase", "legal"}
            assert out["legal"] and out["phase"] == "play" and out["to_act"] in range(4)
    else:
        assert out["ok"] is False
        assert set(out) == {"ok", "index", "action", "error"} | ({"deal"} if as_match else set())
        assert set(out) >= {"index", "action", "error"} and isinstance(out["error"], str)
        assert "\n" not in out["error"]
        if out["index"] is not None:
            assert isinstance(out["index"], int)
