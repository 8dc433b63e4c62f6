"""Copies of a deal: ``pickle`` (every protocol), ``copy.copy``, ``copy.deepcopy`` and
``clone()`` behave exactly like the original (the same legal actions, observations and
public observation; the same result and record when played on) and are independent of it.

A pickled state holds equal but not identical strings and actions, so these tests catch
any rule code that compares phases, modes or actions by identity (SHP-10.2 ``legal``,
SHP-7.8 play, SHP-6.1 calls).
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shp_helpers import ACTIONS_A
from shp_helpers import state as make

from folkcards.engine.api import Observation
from folkcards.engine.records import load_deal
from folkcards.games.sheepshead import ACTIONS, GAME, SheepsheadDeal

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

COPIERS: dict[str, Callable[[SheepsheadDeal], Any]] = {
    **{
        f"pickle-{p}": (lambda s, p=p: pickle.loads(pickle.dumps(s, protocol=p)))
        for p in range(pickle.HIGHEST_PROTOCOL + 1)
    },
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "clone": lambda s: s.clone(),
}


def random_variant(rng: random.Random) -> dict[str, Any]:
    """A random variant of SHP-12.1 (each option given or not)."""
    v: dict[str, Any] = {}
    if rng.random() < 0.6:
        v["no_pick"] = rng.choice(["leaster", "doubler"])
    if rng.random() < 0.5:
        v["double_on_bump"] = rng.random() < 0.5
    if rng.random() < 0.3:
        v["match_deals"] = rng.randrange(1, 9)
    return v


def random_deal(rng: random.Random) -> SheepsheadDeal:
    """A fresh random deal of a random variant, at a random legal stake (SHP-11.2)."""
    v = GAME.normalize_variant(random_variant(rng))
    stake = rng.choice([1, 2, 4, 16]) if v["no_pick"] == "doubler" else 1
    st0 = GAME.random_deal(rng, v, rng.randrange(5), {"stake": stake})
    assert isinstance(st0, SheepsheadDeal)
    return st0


def view(state: SheepsheadDeal) -> tuple[Any, ...]:
    """Everything a client can read from a state (legal first: it may fill the cache)."""
    obs: list[Observation] = [state.observation(s) for s in range(5)]
    return (
        state.legal_texts(),
        obs,
        state.public_observation(),
        state.phase,
        state.mode,
        state.to_act,
        state.is_over,
        json.dumps(state.record()),
        json.dumps(state.result()) if state.is_over else None,
    )


def play_on(state: SheepsheadDeal, seed: int) -> tuple[str, str, list[Observation]]:
    """Play ``state`` to the end with random legal actions drawn from ``seed``; its final
    record, result and observations."""
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    final = [state.observation(s) for s in range(5)] + [state.public_observation()]
    return json.dumps(state.record()), json.dumps(state.result()), final


def check_copies(state: SheepsheadDeal, rng: random.Random) -> None:
    """Each kind of copy equals the original now and after the same random continuation;
    playing a copy leaves the original as it was."""
    if rng.random() < 0.5:
        state.legal_actions()  # sometimes the legal cache is filled before copying
    copies = {name: f(state) for name, f in COPIERS.items()}
    before = view(state)
    for name, twin in copies.items():
        assert type(twin) is SheepsheadDeal, name
        assert twin.game is GAME, name  # the game pickles by name (the registry's one)
        assert view(twin) == before, name
    cont = rng.randrange(2**32)
    reference = load_deal(json.loads(json.dumps(state.record())))  # independent of copying
    assert isinstance(reference, SheepsheadDeal)
    want = play_on(reference, cont)
    for name, twin in copies.items():
        assert play_on(twin, cont) == want, name
        assert view(state) == before, f"playing the {name} copy changed the original"


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_every_copy_behaves_like_the_original(seed: int) -> None:
    """At random points of random deals of random variants (SHP-12.1), pickle/copy/deepcopy
    /clone copies give the same legal actions (SHP-10.2), observations (SHP-13.1) and
    public observation, and the same result and record (SHP-10.1) when played on."""
    rng = random.Random(seed)
    state = random_deal(rng)
    checked = 0
    while True:
        if rng.random() < 0.12 or state.is_over:
            check_copies(state, rng)
            checked += 1
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert checked >= 1


# The hand-checked deal of shp_helpers, cut at each phase, plus a leaster and a pass-out.
PHASE_POINTS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("pick", [], {}),
    ("pick", ["pass", "pass"], {}),
    ("bury", ["pick"], {}),
    ("bury", ["pick", "bury KS"], {}),
    ("call", ACTIONS_A[:3], {}),
    ("play", ACTIONS_A[:4], {}),  # SHP-7.1: eldest leads
    ("play", ACTIONS_A[:6], {}),  # following, called game (SHP-7.5/7.6 duties)
    ("play", ACTIONS_A[:10], {}),  # AC is led next
    ("play", ACTIONS_A[:-1], {}),  # the sixth trick (SHP-7.5: no restriction)
    ("over", ACTIONS_A, {}),
    ("play", ["pass"] * 5, {}),  # SHP-9.1 leaster
    ("play", ["pass"] * 5 + ["play QC"], {}),
    ("over", ["pass"] * 5, {"variant": {"no_pick": "doubler"}}),  # SHP-9.5
]


def test_a_pickled_deal_plays_on_in_every_phase() -> None:
    """SHP-4.1, SHP-5.1, SHP-6.1, SHP-7.8, SHP-10.2: after a pickle round trip (every
    protocol) a deal is in the same phase, offers the same legal actions — a deal in
    ``play`` offers its cards, not the picker's calls — and each legal action leads to the
    same state as in the original."""
    for phase, actions, kw in PHASE_POINTS:
        original = make(actions, **kw)
        assert original.phase == phase
        for p in range(pickle.HIGHEST_PROTOCOL + 1):
            twin = pickle.loads(pickle.dumps(original, protocol=p))
            assert twin.phase == phase and twin.mode == original.mode
            assert twin.legal_texts() == original.legal_texts(), (phase, actions, p)
            if phase == "play":
                assert all(t.startswith("play ") for t in twin.legal_texts())
            # the history is the module's own action objects again (nothing stale kept)
            assert all(a is ACTIONS.actions[a] for a in twin.history)
            assert all(a is ACTIONS.actions[a] for a in twin.legal_actions())
            for a in original.legal_actions():
                x, y = original.clone(), pickle.loads(pickle.dumps(twin, protocol=p))
                x.apply(a)
                y.apply(a.text)
                assert view(y) == view(x), (phase, actions, a.text)


def _immutable(value: object) -> bool:
    if value is None or isinstance(value, (int, str, float)):
        return True
    if isinstance(value, tuple):
        return all(_immutable(v) for v in value)
    return value is GAME


def test_clone_sets_every_slot_and_shares_nothing_mutable() -> None:
    """clone() (and so copy/deepcopy) and pickle set every slot of the state to an equal
    value (the legal cache may be left empty) and copy every mutable one; only immutable
    parts (and the read-only variant) are shared. A slot added to the class but forgotten
    in clone() or in the pickle state fails here."""
    for actions in ([], ACTIONS_A[:4], ACTIONS_A[:12], ACTIONS_A):
        original = make(actions)
        original.legal_actions()
        for name, f in COPIERS.items():
            twin = f(original)
            assert twin.legal_actions() == original.legal_actions(), name
            for slot in SheepsheadDeal.__slots__:
                value = getattr(original, slot)
                got = getattr(twin, slot)  # AttributeError if clone() left it unset
                if slot == "_legal":  # a cache: a pickle drops it, it is computed again
                    assert got is None or got == value, name
                    continue
                assert got == value, (name, slot)
                if slot != "variant" and not _immutable(value):
                    assert getattr(twin, slot) is not value, (name, slot)
                    if isinstance(value, list):
                        assert all(_immutable(v) for v in value), (name, slot)


def test_playing_a_copy_leaves_the_original_unchanged() -> None:
    """SHP-7.9: tricks, points and hands of the original stay as they were while a copy of
    each kind is played to the end (no shared list)."""
    original = make(ACTIONS_A[:12])
    before = view(original)
    for name, f in COPIERS.items():
        twin = f(original)
        for text in ACTIONS_A[12:]:
            twin.apply(text)
        assert twin.is_over and twin.result()["picker_tricks"] == 6, name
        assert view(original) == before, name
