"""Shared checks of the batched kernels' ``heuristic`` playout policy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, Observation

Scorer = Callable[[Observation], Mapping[Action, float]]
Counted = Callable[[Any, Observation], str | None]


def _heuristic_playouts(
    game: str, states: list[DealState], scorer: Scorer, counted: Counted
) -> tuple[Counter[str], list[str]]:
    """Plays every state out by the kernel's ``heuristic`` policy, replays the recorded
    actions through the scalar engine, and at each decision with a choice that
    ``counted(state, obs)`` names (a label; None: not checked) asks whether ``scorer``,
    from that seat's observation, rates the kernel's action among its best. Returns the
    decisions checked per label and the misses."""
    np = pytest.importorskip("numpy")
    from folkcards.batch import kernel_for

    k = kernel_for(game)
    assert k is not None and "heuristic" in k.policies
    a = k.build(k.encode(states), np.arange(len(states)), seed=9, record=True)
    k.play(a, "heuristic")
    checked: Counter[str] = Counter()
    misses: list[str] = []
    for i, state in enumerate(states):
        st: Any = state.clone()
        for code in a["record"][i, : a["nrec"][i]]:
            obs = st.observation(st.to_act)
            action = next(x for x in obs.legal if k.action_code(st, x) == int(code))
            label = counted(st, obs) if len(obs.legal) > 1 else None
            if label is not None:
                checked[label] += 1
                scores = scorer(obs)
                if scores[action] < max(scores.values()) - 1e-9:
                    misses.append(f"row {i} step {len(st.history)}: {action.text}")
            st.apply(action)
        assert st.is_over
    return checked, misses


@pytest.fixture
def heuristic_playouts() -> Callable[..., tuple[Counter[str], list[str]]]:
    return _heuristic_playouts


@pytest.fixture
def read_as_whole() -> Callable[..., list[Any]]:
    """``read_as_whole(kernel, worlds, seat, bids=(True,))``: the rows built from the first
    of ``worlds`` and all their hands (``encode_hands``) equal the rows of the whole deals
    (``encode``), key by key and dtype, and the weights of the reading by hands
    (``likelihoods_hands``) equal those of the whole deals for each ``bids``; the weights,
    one array per ``bids``."""
    import numpy as np

    def check(
        kernel: Any, worlds: list[Any], seat: int, bids: tuple[bool, ...] = (True,)
    ) -> list[Any]:
        hands = np.array([list(w.hands) for w in worlds], np.uint64)
        whole = kernel.encode(worlds)
        alone = kernel.encode_hands(worlds[0], hands)
        assert set(alone) == set(whole)
        for key, value in whole.items():
            assert alone[key].dtype == value.dtype and np.array_equal(alone[key], value), key
        out = []
        for b in bids:
            want = kernel.likelihoods(worlds, seat, 0.25, b)
            assert np.array_equal(kernel.likelihoods_hands(worlds[0], hands, seat, 0.25, b), want)
            out.append(want)
        return out

    return check
