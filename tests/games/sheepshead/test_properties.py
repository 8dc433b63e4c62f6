"""Property tests over random legal playouts of every variant (SHP-1.5, SHP-8.6, SHP-10,
SHP-13.1), determinization, and fuzzing of ``replay`` (SHP-14.2, SHP-14.3)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shp_helpers import referee

from folkcards.cards import CARD_NAMES, DECK_32, mask_text, parse_card
from folkcards.engine.actions import sorted_texts
from folkcards.engine.records import replay
from folkcards.games.sheepshead import GAME, POINTS, SheepsheadDeal

VARIANTS: list[dict[str, Any]] = [
    {},
    {"no_pick": "doubler"},
    {"double_on_bump": True},
    {"no_pick": "doubler", "double_on_bump": True, "match_deals": 2},
]
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def hidden_from(state: SheepsheadDeal, seat: int) -> set[str]:
    """Card texts ``seat`` must not see now: other hands, and blind/bury when not its own."""
    over = state.is_over
    hidden = 0
    for s in range(5):
        if s != seat and not over:
            hidden |= state.hands[s]
    if state.picker != seat and not (over and state.mode != "doubler"):
        hidden |= state.blind_mask | state.bury
    if state.picker == seat:
        hidden &= ~(state.blind_mask | state.bury)
    if state.called >= 0:
        hidden &= ~(1 << state.called)  # the call itself is public
    for a in state.history:
        if a.text.startswith("play "):
            hidden &= ~(1 << parse_card(a.text[5:]))  # played cards are public
    return set(mask_text(hidden))


def walk(seed: int, variant: dict[str, Any], check) -> SheepsheadDeal:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    stake = rng.choice([1, 2, 8]) if variant.get("no_pick") == "doubler" else 1
    state = GAME.random_deal(
        rng, GAME.normalize_variant(variant), rng.randrange(5), {"stake": stake}
    )
    assert isinstance(state, SheepsheadDeal)
    while True:
        check(state, rng)
        if state.is_over:
            return state
        legal = state.legal_actions()
        assert legal, "legal is never empty while a seat acts"
        texts = [a.text for a in legal]
        assert texts == sorted_texts(texts, DECK_32) and list(legal) == sorted(legal)
        state.apply(rng.choice(legal))


def conservation(state: SheepsheadDeal, rng: random.Random) -> None:
    """SHP-1.1: the 32 cards are always somewhere exactly once; SHP-1.5 points follow."""
    played = 0
    for a in state.history:
        if a.text.startswith("play "):
            played |= 1 << parse_card(a.text[5:])
    in_trick = 0
    for c in state.trick:
        in_trick |= 1 << c
    assert in_trick & ~played == 0
    total = played
    piles = [*state.hands, state.bury] + ([state.blind_mask] if state.picker < 0 else [])
    for p in piles:
        assert not total & p
        total |= p
    assert total == DECK_32
    done = played & ~in_trick
    assert sum(state.taken) == sum(POINTS[c] for c in range(52) if done >> c & 1)


def no_leak(state: SheepsheadDeal, rng: random.Random) -> None:
    """SHP-13.1: an observation never names a hidden card, nor the partner early."""
    for seat in range(5):
        obs = state.observation(seat)
        d = obs.to_dict()
        # Call texts name a card publicly (the call, or a call one could make): not a leak.
        d["legal"] = [a for a in d["legal"] if not a.startswith("call ")]
        d["history"] = [a for a in d["history"] if not a.startswith("call ")]
        d["info"].pop("called")
        if d["task"] is not None and d["task"]["code"] == "shp_call":  # the calls on offer
            del d["task"]["params"]["cards"], d["task"]["text"]
        text = json.dumps(d)
        for card in hidden_from(state, seat):
            assert f'"{card}"' not in text and f' {card}"' not in text, (seat, card)
        if state.mode == "called" and not state.is_over:
            played = any(a.text == f"play {CARD_NAMES[state.called]}" for a in state.history)
            if seat != state.partner and not played:
                assert obs.info["partner"] is None


def determinize_ok(state: SheepsheadDeal, rng: random.Random) -> None:
    """determinize gives a full state whose observation equals the given one."""
    for seat in range(5):
        obs = state.observation(seat)
        other = GAME.determinize(obs, rng)
        assert other.observation(seat) == obs
        assert sum(h.bit_count() for h in other.hands) == sum(h.bit_count() for h in state.hands)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), v=st.sampled_from(VARIANTS))
def test_playout_conservation_points_and_scores(seed: int, v: dict[str, Any]) -> None:
    """SHP-1.1/1.5: 32 cards conserved; 120 points incl. bury/blind; SHP-8.6 zero-sum."""
    state = walk(seed, v, conservation)
    r = state.result()
    assert sum(r["score"]) == 0
    if r["mode"] == "doubler":
        assert r["redeal"] and r["points"] == [0] * 5
    else:
        assert sum(r["points"]) == 120 and sum(r["tricks"]) == 6
        ref = referee(state.record())
        assert {k: r[k] for k in ref} == ref


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), v=st.sampled_from(VARIANTS))
def test_record_round_trip(seed: int, v: dict[str, Any]) -> None:
    """Replaying ``state.record()`` gives the same result, also mid-deal (SHP-10)."""
    rng = random.Random(seed)
    state = walk(seed, v, lambda s, r: None)
    rec = json.loads(json.dumps(state.record()))
    assert replay(rec) == {"ok": True, "over": True, "result": state.result()}
    cut = rng.randrange(len(rec["actions"]) + 1)
    part = dict(rec, actions=rec["actions"][:cut])
    mid = GAME.deal_from_record(part, GAME.normalize_variant(v))
    for a in part["actions"]:
        mid.apply(a)
    assert replay(part) == (
        {"ok": True, "over": True, "result": mid.result()}
        if mid.is_over
        else {
            "ok": True,
            "over": False,
            "to_act": mid.to_act,
            "phase": mid.phase,
            "legal": mid.legal_texts(),
        }
    )


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), v=st.sampled_from(VARIANTS))
def test_no_leak_of_blind_bury_or_partner(seed: int, v: dict[str, Any]) -> None:
    """SHP-13.1: observations show each seat only what it may know."""
    walk(seed, v, no_leak)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), v=st.sampled_from(VARIANTS))
def test_determinize_consistent(seed: int, v: dict[str, Any]) -> None:
    """determinize(obs) is a full deal whose observation of that seat is obs."""
    walk(seed, v, determinize_ok)


def test_determinize_uses_inferences() -> None:
    """Determinized worlds respect revealed voids and the called card's possible holders
    (SHP-7.3, SHP-7.6): sampled many times they never contradict the history."""
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        state = GAME.random_deal(rng, GAME.normalize_variant({}), 0)
        while not state.is_over and (state.phase != "play" or state.trick_no < 3):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over or state.mode != "called":
            continue
        for seat in range(5):
            obs = state.observation(seat)
            for _ in range(3):
                world = GAME.determinize(obs, rng)
                assert world.observation(seat) == obs
                assert world.called == state.called
                if seat != state.partner and obs.info["partner"] is None:
                    assert world.partner != state.picker
                checked += 1
    assert checked > 100


def test_determinize_partner_varies_for_defenders() -> None:
    """SHP-13.1: a defender's view does not fix the partner: sampling moves the called card."""
    from shp_helpers import state as make

    st0 = make(["pick", "bury KS", "bury TD", "call AC"])
    obs = st0.observation(3)
    seen = {GAME.determinize(obs, random.Random(i)).partner for i in range(40)}
    assert seen == {0, 2, 4}
    obs = st0.observation(2)  # the partner knows
    assert {GAME.determinize(obs, random.Random(i)).partner for i in range(10)} == {2}


# --- fuzzing -------------------------------------------------------------------------------

_JUNK: list[Any] = [None, 0, -1, 7, 2.5, True, "", "x", "play", "pass", "play 10h", [], {}, "6C"]


def mutate(rec: dict[str, Any], rng: random.Random) -> Any:
    """One random structural or textual mutation of a record (may break it or not)."""
    rec = copy.deepcopy(rec)
    kind = rng.randrange(9)
    acts = rec.get("actions", [])
    if kind == 0 and acts:
        del acts[rng.randrange(len(acts))]
    elif kind == 1 and acts:
        acts[rng.randrange(len(acts))] = rng.choice(_JUNK + acts)
    elif kind == 2 and len(acts) > 1:
        i, j = rng.randrange(len(acts)), rng.randrange(len(acts))
        acts[i], acts[j] = acts[j], acts[i]
    elif kind == 3:
        key = rng.choice([*rec.keys(), "stake", "extra", "hands", "colour"])
        rec[key] = rng.choice(_JUNK)
    elif kind == 4 and "deck" in rec:
        d = rec["deck"]
        d[rng.randrange(len(d))] = rng.choice([*_JUNK, "AS", "7D"])
    elif kind == 5:
        rec.pop(rng.choice(list(rec.keys())))
    elif kind == 6:
        rec["variant"] = rng.choice(
            [{"no_pick": "doubler"}, {"match_deals": 0}, {"x": 1}, {"double_on_bump": "yes"}, []]
        )
    elif kind == 7:
        acts.insert(rng.randrange(len(acts) + 1), rng.choice(["pick", "pass", "alone", "call AS"]))
    else:
        return rng.choice([[], "text", 3, None, {"deals": []}, {"deals": [rec]}, {"game": "x"}])
    return rec


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), v=st.sampled_from(VARIANTS))
def test_fuzz_replay_never_crashes(seed: int, v: dict[str, Any]) -> None:
    """SHP-14.2/14.3: mutated records always give a valid result or a clean error object."""
    rng = random.Random(seed)
    base = walk(seed, v, lambda s, r: None).record()
    for _ in range(15):
        obj = mutate(base, rng)
        if rng.random() < 0.3:
            obj = {"game": "sheepshead", "variant": v, "deals": [obj]}
        o = replay(obj)
        assert isinstance(o, dict) and isinstance(o["ok"], bool)
        json.dumps(o)
        if o["ok"]:
            assert set(o) in ({"ok", "over", "to_act", "phase", "legal"}, {"ok", "over", "result"})
        else:
            assert isinstance(o["error"], str) and o["error"] and "\n" not in o["error"]
            assert o["index"] is None or isinstance(o["index"], int)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), v=st.sampled_from(VARIANTS))
def test_clone_is_independent(seed: int, v: dict[str, Any]) -> None:
    """clone() copies: playing on the copy leaves the original as it was (SHP-10)."""
    rng = random.Random(seed)
    state = GAME.random_deal(rng, GAME.normalize_variant(v), rng.randrange(5))
    for _ in range(rng.randrange(40)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = (json.dumps(state.record()), [state.observation(s) for s in range(5)])
    twin = state.clone()
    assert twin.observation(0) == state.observation(0)
    while not twin.is_over:
        twin.apply(rng.choice(twin.legal_actions()))
    assert (json.dumps(state.record()), [state.observation(s) for s in range(5)]) == before
    assert replay(twin.record())["result"] == twin.result()


def test_apply_accepts_codes_and_texts() -> None:
    """apply takes an Action, its text, or its integer code; anything else is illegal."""
    from folkcards.engine.api import IllegalAction
    from folkcards.games.sheepshead import ACTIONS

    state = GAME.random_deal(random.Random(1), GAME.normalize_variant({}), 0)
    state.apply(int(ACTIONS["pass"]))
    state.apply("PASS")
    assert [a.text for a in state.history] == ["pass", "pass"]
    for bad in (999, -1, 2.5, None, ACTIONS["play AC"]):
        try:
            state.apply(bad)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert "\n" not in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")
    assert len(state.history) == 2
