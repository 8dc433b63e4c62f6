"""Copies of a Satat state: ``pickle`` (every protocol), ``copy.copy``, ``copy.deepcopy`` and
``clone()`` at random points of random deals of every variant (Trup Kasiet SAT-15, every
``signals`` level SAT-16, carried ``redeals``/``passing`` SAT-4.6).

A copy must answer exactly as the original (legal list SAT-17.1, every seat's observation
SAT-19, the public observation SAT-19.2), play on to the same record and result when given
the same actions, and be independent: playing the copy leaves the original as it was.
The rules compare phases by value, so a pickled state (whose strings are new objects)
plays on like the original — the bug these tests were written for.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from satat_helpers import ALL_VARIANTS, CARRIES, deal

from folkcards.games.satat import CONFIGS, GAME, PHASES, TABLE, SatatState

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)


def _pickled(protocol: int) -> Callable[[SatatState], SatatState]:
    def cp(state: SatatState) -> SatatState:
        out = pickle.loads(pickle.dumps(state, protocol=protocol))
        assert isinstance(out, SatatState)
        return out

    return cp


COPIERS: dict[str, Callable[[SatatState], Any]] = {
    **{f"pickle{p}": _pickled(p) for p in range(pickle.HIGHEST_PROTOCOL + 1)},
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "clone": SatatState.clone,
}

# Never changed after the deal is set up, so a clone may share them (checked below: the
# original's full state is unchanged after its copy has been played to the end).
SHARED_SETUP = frozenset({"variant", "deck", "hands_record", "passing"})


def views(state: SatatState) -> tuple[Any, ...]:
    """Everything a client can ask of a state."""
    return (
        state.legal_texts(),
        state.phase,
        state.to_act,
        state.is_over,
        [state.observation(s) for s in range(4)],
        state.public_observation(),
        state.record(),
        state.result() if state.is_over else None,
    )


def play_on(state: SatatState, seed: int) -> SatatState:
    """Random legal actions (from ``seed``) to the end of the deal."""
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def random_point(seed: int) -> tuple[SatatState, random.Random]:
    """A random variant and carry, played a random number of random actions (mostly mid-play)."""
    rng = random.Random(seed)
    state = deal(rng, rng.choice(ALL_VARIANTS), rng.choice(CARRIES))
    for _ in range(rng.randrange(70)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state, rng


def check_copy(state: SatatState, name: str, seed: int) -> None:
    before = copy.deepcopy(state.__getstate__())
    seen = views(state)
    twin = COPIERS[name](state)
    assert type(twin) is SatatState and twin is not state
    assert views(twin) == seen, name
    assert twin.game is GAME and twin.phase == PHASES[twin.ph]
    assert twin.cfg is (CONFIGS[twin.trump] if twin.trump >= 0 else None)
    # independence: nothing the copy may change is shared with the original
    for slot in SatatState.__slots__:
        value = getattr(state, slot)
        if isinstance(value, (list, dict, set)) and slot not in SHARED_SETUP:
            assert getattr(twin, slot) is not value, f"{name} shares {slot}"
    play_on(twin, seed)
    assert state.__getstate__() == before, f"playing the {name} copy changed the original"
    assert views(state) == seen
    # the same actions give the same deal
    rest = play_on(state.clone(), seed)
    assert twin.record() == rest.record() and twin.result() == rest.result(), name
    assert views(twin) == views(rest)


@FAST
@given(seed=SEEDS)
def test_every_copy_answers_and_plays_on_like_the_original(seed: int) -> None:
    """SAT-17.1, SAT-19: pickle, copy, deepcopy and clone at a random point of a random deal."""
    state, rng = random_point(seed)
    for name in COPIERS:
        check_copy(state, name, rng.randrange(2**32))


@pytest.mark.parametrize(
    "variant", ALL_VARIANTS, ids=lambda v: f"{v['trup_kasiet']}-{v['signals']}"
)
def test_pickle_at_every_step_of_a_deal(variant: dict[str, Any]) -> None:
    """SAT-8.3, SAT-16.5: a state pickled at any step (play, lese, announce, give, continue…)
    plays its next action like the original — phases are compared by value."""
    rng = random.Random(7)
    for carry in CARRIES:
        state = deal(rng, variant, carry)
        while not state.is_over:
            twin = pickle.loads(pickle.dumps(state))
            assert twin.legal_texts() == state.legal_texts(), state.phase
            a = rng.choice(state.legal_actions())
            twin.apply(a.text)
            state.apply(a)
            assert (twin.phase, twin.to_act, twin.legal_texts()) == (
                state.phase,
                state.to_act,
                state.legal_texts(),
            )
            assert twin.public_observation() == state.public_observation()
        assert twin.result() == state.result()


def test_pickled_history_is_the_action_table() -> None:
    """Unpickled actions are the table's own objects (nothing compares actions by identity,
    but the copy is then indistinguishable from a state replayed from its record)."""
    state, _ = random_point(11)
    twin = pickle.loads(pickle.dumps(state))
    assert all(a is TABLE.actions[a] for a in twin.history)
    assert twin.history == state.history and twin.actors == state.actors
