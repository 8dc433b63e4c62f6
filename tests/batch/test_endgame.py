"""The exact endgame solvers against a plain minimax over the scalar engine.

``folkcards.bots.endgame`` (alpha-beta with a transposition table over the engine, every
trick game) and the batch kernels' compiled solvers (``GameKernel.solve``: Sasku's
SAS-10 – SAS-13 and Sheepshead's SHP-7 – SHP-8) must give exactly the value of a minimax
without pruning that enumerates every legal action of the engine, on random deals of
random variants played at random to their last tricks (must-beat on and off, SAS-17.2;
called, alone and the called-suit duties, SHP-7.5 – SHP-7.6; Trup Kasiet, SAT-15;
marriages, asks, Erlangen and three players, HUU-8, HUU-12)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch.exact import positions, random_variant  # noqa: E402
from folkcards.bots.base import utilities  # noqa: E402
from folkcards.bots.endgame import Solver, allies_of, game_name, solve  # noqa: E402
from folkcards.engine.api import DealState  # noqa: E402
from folkcards.games import GAMES  # noqa: E402

TRICK_GAMES = ("sasku", "sheepshead", "satat", "huutopussi")


def _minimax(state: DealState, seat: int, allies: frozenset[int]) -> float:
    """``seat``'s utility under plain minimax: every legal action, no pruning, no table
    (Satat's signals, which change nothing that counts, get their first action as in
    ``GameKernel.replay``, and of the plays that differ by a signal only — ``play 4H``,
    ``play 4H grate`` — the first is tried: the tree would be thousands of times larger;
    ``tests/batch/test_exact.py`` shows that they play alike)."""
    kernel = kernel_for(game_name(state))
    assert kernel is not None
    if not state.is_over and kernel.skipped(state):
        state = state.clone()
        while not state.is_over and kernel.skipped(state):
            state.apply(state.legal_actions()[0])
    if state.is_over:
        return utilities(state.game, state.result(), len(state.hands), state.variant)[seat]
    values = []
    codes: set[int] = set()
    for action in state.legal_actions():
        code = kernel.action_code(state, action)
        if code >= 0 and code in codes:
            continue
        codes.add(code)
        child = state.clone()
        child.apply(action)
        values.append(_minimax(child, seat, allies))
    return max(values) if state.to_act in allies else min(values)


def _held(state: DealState) -> int:
    st: Any = state
    return max(int(h).bit_count() for h in st.hands)


def endgames(game: str, n: int, cards: int, seed: int) -> list[DealState]:
    """``n`` states in card play (the kernel accepts them) whose hands hold at most
    ``cards`` cards: random deals of random variants, every choice uniformly random."""
    g = GAMES[game]
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(f"endgames:{game}:{seed}")
    out: list[DealState] = []
    while len(out) < n:
        variant = random_variant(g, rng)
        v = g.normalize_variant(variant)
        st = g.random_deal(rng, variant, dealer=rng.randrange(g.num_seats(v)))
        while not st.is_over and not (kernel.accepts(st) and _held(st) <= cards):
            st.apply(rng.choice(st.legal_actions()))
        if not st.is_over and st.to_act is not None:
            out.append(st)
    return out


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_the_scalar_solver_is_exact(game: str) -> None:
    states = endgames(game, 30, 2, seed=1)
    for st in states:
        seat = st.to_act
        assert seat is not None
        allies = allies_of(st, seat)
        assert solve(st) == pytest.approx(_minimax(st, seat, allies), abs=1e-12)
    seen: Any = states
    if game == "sasku":  # SAS-17.2 both ways
        assert {bool(s.must_beat) for s in seen} == {True, False}
    elif game == "sheepshead":  # SHP-6, SHP-8.5, SHP-9
        assert {s.mode for s in seen} >= {"called", "alone"}
    elif game == "satat":  # SAT-15 both ways
        assert {bool(s.tk) for s in seen} == {True, False}
    else:  # HUU-12 (three players), Erlangen
        assert {s.num_seats for s in seen} == {3, 4} and any(s.erlangen for s in seen)


def test_the_scalar_solver_is_exact_in_three_trick_sasku() -> None:
    for st in endgames("sasku", 12, 3, seed=2):
        seat = st.to_act
        assert seat is not None
        assert solve(st) == pytest.approx(_minimax(st, seat, allies_of(st, seat)), abs=1e-12)


def _kernel_values(game: str, states: list[DealState], stop: int) -> Any:
    """Every seat's utility of each state by the kernel's solver (after playing nothing:
    ``stop`` is at least the tricks left)."""
    k = kernel_for(game)
    assert k is not None
    a = k.build(k.encode(states), np.arange(len(states)))
    k.play(a, "fast", stop=stop)
    k.solve(a)
    return k.utilities(a, len(states[0].hands), k.num_sides(states[0]))


def _side_seat(st: Any) -> int:
    """The seat whose utility the kernel's solver optimises: team 0's seat 0 in Sasku, the
    picker in Sheepshead."""
    return int(st.picker) if game_name(st) == "sheepshead" else 0


@pytest.mark.parametrize("game", ["sasku", "sheepshead"])
def test_the_compiled_solver_is_exact(game: str) -> None:
    k = kernel_for(game)
    assert k is not None
    cards = 3 if game == "sasku" else 2
    states = [s for s in endgames(game, 60, cards, seed=3) if k.solvable(s)]
    got = _kernel_values(game, states, cards)
    for i, st in enumerate(states):
        seat = _side_seat(st)
        want = _minimax(st, seat, allies_of(st, seat))
        assert got[i, seat] == pytest.approx(want, abs=1e-12), i
    if game == "sasku":
        beat = Counter(bool(s.must_beat) for s in states)  # type: ignore[attr-defined]
        assert beat[True] and beat[False]  # SAS-17.2 both ways
    else:
        modes = Counter(s.mode for s in states)  # type: ignore[attr-defined]
        assert modes["called"] and modes["alone"]


@pytest.mark.parametrize("game", ["sasku", "sheepshead"])
def test_the_compiled_solver_agrees_with_the_scalar_solver_on_longer_endgames(game: str) -> None:
    """Four Sasku tricks, three Sheepshead ones (the scalar solver is checked above)."""
    k = kernel_for(game)
    assert k is not None
    cards = 4 if game == "sasku" else 3
    states = [s for s in endgames(game, 20, cards, seed=4) if k.solvable(s)]
    got = _kernel_values(game, states, cards)
    for i, st in enumerate(states):
        seat = _side_seat(st)
        want = Solver(seat, allies_of(st, seat)).value(st)
        assert got[i, seat] == pytest.approx(want, abs=1e-12), i


@pytest.mark.parametrize("game", ["sasku", "sheepshead"])
def test_stopped_playouts_are_finished_by_the_solver(game: str) -> None:
    """Rows stopped at the last tricks after a forced card, then solved, give the value of
    that card: the solver's value of the state after it."""
    k = kernel_for(game)
    assert k is not None
    states = [s for s in endgames(game, 20, 3, seed=5) if k.solvable(s)]
    rng = random.Random(6)
    chosen = [
        rng.choice([a for a in s.legal_actions() if k.action_code(s, a) >= 0]) for s in states
    ]
    forced = np.array([[k.action_code(s, a)] for s, a in zip(states, chosen, strict=True)])
    a = k.build(k.encode(states), np.arange(len(states)), forced)
    k.play(a, "fast", stop=3)
    k.solve(a)
    got = k.utilities(a, len(states[0].hands), k.num_sides(states[0]))
    for i, (st, action) in enumerate(zip(states, chosen, strict=True)):
        after = st.clone()
        after.apply(action)
        seat = _side_seat(st)
        assert got[i, seat] == pytest.approx(Solver(seat, allies_of(st, seat)).value(after))


def test_a_kernel_without_a_solver_refuses_to_stop() -> None:
    k = kernel_for("satat")
    assert k is not None and not k.solver
    st = endgames("satat", 1, 3, seed=1)
    a = k.build(k.encode(st), np.arange(1))
    with pytest.raises(ValueError, match="no endgame solver"):
        k.play(a, "fast", stop=2)


def test_a_leaster_is_not_solved() -> None:
    k = kernel_for("sheepshead")
    assert k is not None
    leasters = [s for s in endgames("sheepshead", 200, 2, seed=7) if not k.solvable(s)]
    assert leasters and all(s.mode == "leaster" for s in leasters)  # type: ignore[attr-defined]
    a = k.build(k.encode(leasters[:1]), np.arange(1))
    k.play(a, "fast", stop=2)
    with pytest.raises(ValueError, match="leaster"):
        k.solve(a)


def test_playouts_with_the_partner_hidden_play_by_the_rules() -> None:
    """Sheepshead's ``hidden`` rows (the called partner unknown to the others until the
    called card falls, SHP-7.5) change the fast policy's choices, not the rules: the
    recorded choices replay through the scalar engine to the same result."""
    g = GAMES["sheepshead"]
    k = kernel_for("sheepshead")
    assert k is not None
    states = [s for s in positions(g, 300, seed=8) if s.mode == "called"]  # type: ignore[attr-defined]
    base = k.encode(states)
    plain = k.build(base, np.arange(len(states)), seed=3, record=True)
    k.play(plain, "fast")
    a = k.build(base, np.arange(len(states)), seed=3, record=True)
    a["hidden"] = np.ones(len(states), np.int64)
    k.play(a, "fast")
    assert (a["record"] != plain["record"]).any()
    for i, st in enumerate(states):
        final = k.replay(st, [int(c) for c in a["record"][i, : a["nrec"][i]]])
        assert not k.mismatches(a, i, final)
