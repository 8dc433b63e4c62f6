"""History entries are :class:`~folkcards.engine.actions.Step` values, hidden exactly where
SAT-19 hides them.

At every point of random seeded deals — every variant, with and without card passing —
each seat's observation and the spectator's are read against the deal's full history and
the rules, restated here from the rules file (the action texts read word by word, as an
independent oracle):

* another seat's ``pass`` in the ``propose`` phase and its announce-phase ``silent`` are
  left out (SAT-19.1, SAT-16.7);
* another seat's ``give`` is ``give ?`` / ``give ? ?`` (one ``?`` per card given) until the
  exchange, which is applied once all four have given (SAT-7.3), and afterwards to every
  seat but its receiver (SAT-19.1; winners give left, losers right, SAT-7.4);
* a Trup Kasiet ``hide C`` is ``hide ?`` to the other seats (SAT-15.2, SAT-19.3);
* every other step is seen whole (SAT-19.2: plays, signals, trump, blind, the calls).

A hidden entry is the shared masked step (``masked("give ?")``): ``hidden`` > 0, no
``action``, no cards. A visible one is the step of the very action played: its
``action`` is that action.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from satat_helpers import ALL_VARIANTS, CARRIES, deal

from folkcards.engine import SPECTATOR, Step, masked
from folkcards.engine.actions import Action
from folkcards.games.satat import SatatState

CONFIGS = [(v, c) for v in ALL_VARIANTS for c in CARRIES]


def _receiver(seat: int, winners: int) -> int:
    """SAT-7.4: a winner gives to his left (seat + 1), a loser to his right (seat − 1)."""
    return (seat + 1) % 4 if seat % 2 == winners else (seat + 3) % 4


def expected_history(
    state: SatatState, phases: list[str], viewer: int
) -> list[tuple[str, int, Action | None]]:
    """``(text, actor, action)`` of each entry ``viewer`` sees (SAT-19), ``action`` None
    where the entry is masked; ``phases[i]`` is the phase the ``i``-th action was taken in."""
    passing = state.carry().get("passing")
    winners = passing["winners"] if passing else -1
    exchanged = sum(1 for a in state.history if a.text.split(" ")[0] == "give") == 4
    out: list[tuple[str, int, Action | None]] = []
    for a, s, phase in zip(state.history, state.actors, phases, strict=True):
        words = a.text.split(" ")
        verb = words[0]
        if s == viewer:
            out.append((a.text, s, a))
        elif verb == "pass" and phase == "propose":
            continue  # SAT-19.1
        elif verb == "silent" and phase == "announce":
            continue  # SAT-19.1, SAT-16.7
        elif verb == "hide":
            out.append(("hide ?", s, None))  # SAT-19.3
        elif verb == "give" and not (exchanged and _receiver(s, winners) == viewer):
            out.append((" ".join(["give"] + ["?"] * (len(words) - 1)), s, None))  # SAT-19.1
        else:
            out.append((a.text, s, a))
    return out


def check_history(state: SatatState, phases: list[str], seen: Counter[str]) -> None:
    """Every seat's and the spectator's history against :func:`expected_history`."""
    for viewer in (0, 1, 2, 3, SPECTATOR):
        obs = state.observation(viewer) if viewer >= 0 else state.public_observation()
        want = expected_history(state, phases, viewer)
        assert [str(t) for t in obs.history] == [t for t, _, _ in want]
        assert list(obs.actors) == [s for _, s, _ in want]
        for step, (text, _, action) in zip(obs.history, want, strict=True):
            assert isinstance(step, Step)
            assert step.kind == text.split(" ")[0]
            if action is None:
                assert step is masked(text)
                assert step.hidden == text.count("?") > 0
                assert step.action is None
                assert step.cards == () and step.card_set == 0
                seen["masked " + step.kind] += 1
            else:
                assert step.action is action  # the action played itself
                assert step is action.step
                assert step.hidden == 0 and "?" not in step
                seen["whole"] += 1
        left_out = len(state.history) - len(want)
        seen["left out"] += left_out


@pytest.mark.parametrize(("variant", "carry"), CONFIGS)
@pytest.mark.parametrize("seed", range(2))
def test_sat_19_history_entries_are_steps_masked_where_hidden(
    variant: dict[str, Any], carry: dict[str, Any], seed: int
) -> None:
    rng = random.Random(f"steps-{seed}-{sorted(variant.items())}-{carry}")
    seen: Counter[str] = Counter()
    state = deal(rng, variant, carry)
    phases: list[str] = []
    while not state.is_over:  # at every point of the deal
        check_history(state, phases, seen)
        phases.append(state.phase)
        state.apply(rng.choice(state.legal_actions()))
    check_history(state, phases, seen)
    assert seen["whole"]


def test_sat_19_every_kind_of_hiding_is_met() -> None:
    """The deals above reach every hidden case: a masked ``give`` (one and two cards), a
    masked ``hide``, and steps left out."""
    seen: Counter[str] = Counter()
    for variant, carry in CONFIGS:
        rng = random.Random(f"kinds-{sorted(variant.items())}-{carry}")
        for _ in range(3):
            state = deal(rng, variant, carry)
            phases: list[str] = []
            while not state.is_over:
                phases.append(state.phase)
                state.apply(rng.choice(state.legal_actions()))
            check_history(state, phases, seen)
    assert seen["masked give"] and seen["masked hide"] and seen["left out"]
