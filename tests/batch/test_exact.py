"""The batched engine against the scalar engine: the same worlds with the same choices
give identical tricks, points and results, in every game and every variant that
affects play (SAS-10.3, SHP-7.6, SAT-8.3, HUU-8.3, SCO-4.2 among the rules exercised)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import COVERED, kernel_for  # noqa: E402
from folkcards.batch.exact import check, positions  # noqa: E402
from folkcards.bots.base import utilities  # noqa: E402
from folkcards.games import GAMES  # noqa: E402

POSITIONS = 600  # per game and policy: 6,000 positions in all


@pytest.fixture(scope="module")
def states() -> dict[str, list[Any]]:
    return {g: positions(GAMES[g], POSITIONS, seed=7) for g in COVERED}


@pytest.mark.parametrize("policy", ["random", "fast"])
@pytest.mark.parametrize("game", COVERED)
def test_batch_plays_exactly_as_the_scalar_engine(
    game: str, policy: str, states: dict[str, list[Any]]
) -> None:
    report = check(GAMES[game], states[game], policy, seed=3)
    assert report.positions == POSITIONS and report.actions > POSITIONS
    assert not report.failures, "\n".join(report.failures)


def _codes(game: str, states: list[Any]) -> tuple[Any, list[list[int]]]:
    k = kernel_for(game)
    assert k is not None
    a = k.build(k.encode(states), np.arange(len(states)), seed=5, record=True)
    k.play(a, "random")
    return a, [list(map(int, a["record"][i, : a["nrec"][i]])) for i in range(len(states))]


def test_the_positions_reach_every_rule_that_changes_play(states: dict[str, list[Any]]) -> None:
    """The differential test means something only where the positions and the random
    choices reach each variant and each special rule."""
    sasku = Counter(bool(s.must_beat) for s in states["sasku"])
    assert sasku[True] and sasku[False]  # SAS-17.2 both ways
    modes = Counter(s.mode for s in states["sheepshead"])
    assert modes["called"] and modes["alone"] and modes["leaster"]  # SHP-6.5, SHP-9
    satat = states["satat"]
    assert any(s.tk for s in satat) and any(not s.tk for s in satat)  # SAT-15
    assert any(s.sig == 2 for s in satat)  # the lese phase is skipped, not lost
    _, codes = _codes("satat", satat)
    flat = Counter(c for row in codes for c in row)
    assert flat[64] and flat[65]  # SAT-9.2: continue and stop after a 7-0
    huu = states["huutopussi"]
    assert {s.num_seats for s in huu} == {3, 4} and any(s.erlangen for s in huu)
    _, codes = _codes("huutopussi", huu)
    flat = Counter(c for row in codes for c in row)
    for code in (64, 68, 72, 77, 78, 79):  # HUU-8.3 – 8.5 declare, ask, answer; HUU-12.9
        assert any(flat[code + i] for i in range(4 if code in (64, 68) else 1)), code
    _, codes = _codes("scopone", states["scopone"])
    takes = [c >> 6 for row in codes for c in row]
    assert any(t and t & (t - 1) for t in takes)  # SCO-4.2.2: captures by a sum
    assert any(s.variant["scientifico"] for s in states["scopone"])


@pytest.mark.parametrize("game", COVERED)
def test_forced_actions_are_the_scalar_actions(game: str, states: dict[str, list[Any]]) -> None:
    """A row's forced first action is the scalar legal action with that code; an action
    that is not legal there is refused."""
    k = kernel_for(game)
    assert k is not None
    rng = random.Random(1)
    sample = [s for s in states[game] if not k.skipped(s)][:60]
    chosen = [rng.choice(s.legal_actions()) for s in sample]
    codes = [k.action_code(s, a) for s, a in zip(sample, chosen, strict=True)]
    a = k.build(k.encode(sample), np.arange(len(sample)), np.array(codes)[:, None], 2, True)
    k.play(a, "fast")
    for i, s in enumerate(sample):
        assert a["record"][i, 0] == codes[i]
        after = s.clone()
        after.apply(chosen[i])
        final = k.replay(after, list(map(int, a["record"][i, 1 : a["nrec"][i]])))
        assert not k.mismatches(a, i, final)
    a = k.build(k.encode(sample[:1]), np.arange(1), np.array([[63]]), 2)
    with pytest.raises(ValueError, match="not legal"):
        k.play(a, "fast")


@pytest.mark.parametrize("game", COVERED)
def test_vectorised_utilities_equal_the_bots_utilities(
    game: str, states: dict[str, list[Any]]
) -> None:
    k = kernel_for(game)
    assert k is not None
    sample = states[game][:80]
    a = k.build(k.encode(sample), np.arange(len(sample)), seed=9, record=True)
    k.play(a, "random")
    for i, s in enumerate(sample):
        if k.num_sides(s) != a["score"].shape[1]:
            continue  # the utilities of a batch are taken per game variant
        final = k.replay(s, list(map(int, a["record"][i, : a["nrec"][i]])))
        want = utilities(game, final.result(), s.num_seats)
        got = k.utilities({key: v[i : i + 1] for key, v in a.items()}, s.num_seats, k.num_sides(s))[
            0
        ]
        assert got.tolist() == pytest.approx(want)


def _digest(env: dict[str, str]) -> dict[str, Any]:
    code = (
        "import json; from folkcards.batch import exact, kernel_for, compiled;"
        "from folkcards.games import GAMES; import numpy as np; out = {'compiled': compiled()}\n"
        "for g in ('sasku','sheepshead','satat','huutopussi','scopone'):\n"
        "    st = exact.positions(GAMES[g], 12, seed=3); k = kernel_for(g)\n"
        "    a = k.build(k.encode(st), np.arange(len(st)), seed=4, record=True)\n"
        "    k.play(a, 'fast'); out[g] = [a['record'].tolist(), a['score'].tolist()]\n"
        "print(json.dumps(out))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    return out


def test_without_numba_the_same_kernels_run_as_python_and_agree() -> None:
    """FOLKCARDS_NO_NUMBA=1 runs the kernels as plain Python: same seeds, same choices."""
    pytest.importorskip("numba")
    env = dict(os.environ)
    plain = _digest({**env, "FOLKCARDS_NO_NUMBA": "1"})
    fast = _digest({k: v for k, v in env.items() if k != "FOLKCARDS_NO_NUMBA"})
    assert plain.pop("compiled") is False and fast.pop("compiled") is True
    assert plain == fast
