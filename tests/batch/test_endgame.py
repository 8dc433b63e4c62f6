"""The exact endgame solvers against a plain minimax over the scalar engine.

``folkcards.bots.endgame`` (alpha-beta with a transposition table over the engine, every
trick game) and the batch kernels' compiled solvers (``GameKernel.solve``: Sasku's
SAS-10 – SAS-13, Sheepshead's SHP-7 – SHP-8, Satat's SAT-8 – SAT-9 and SAT-15 and
Huutopussi's HUU-7 – HUU-9, HUU-11.4 and HUU-12 with four players) must
give exactly the value of a minimax without pruning that enumerates every legal action of
the engine, on random deals of random variants played at random to their last tricks
(must-beat on and off, SAS-17.2; called, alone and the called-suit duties, SHP-7.5 –
SHP-7.6; Trup Kasiet and the signals, SAT-15, SAT-16; marriages, asks, Erlangen and three
players, HUU-8, HUU-12). Satat's 7-0 choice and continuation (SAT-9.2, SAT-9.3) come six
or more tricks before the end, out of the minimax's reach: deals in which one team takes
every trick check them against the scalar solver, and a solved row must end with the
tricks and score of an optimal line played through the engine. Huutopussi's declarations,
asks, answers and kontra/re (HUU-8, HUU-12.9) are solver moves: endgames that keep kings
and queens back and calls pending check them, and its three-player deal (HUU-13, every
seat for itself) is not solved."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch.exact import positions, random_variant  # noqa: E402
from folkcards.batch.huutopussi import (  # noqa: E402
    ANSWER_SUIT,
    ASK_HALF,
    ASK_MARRIAGE,
    DECLARE,
    KONTRA,
    RE,
    _value,
)
from folkcards.batch.satat import CONTINUE, STOP  # noqa: E402
from folkcards.bots.base import utilities  # noqa: E402
from folkcards.bots.endgame import Solver, allies_of, game_name, solve  # noqa: E402
from folkcards.cards import CARD_NAMES  # noqa: E402
from folkcards.engine.api import DealState  # noqa: E402
from folkcards.games import GAMES  # noqa: E402
from folkcards.games.huutopussi import rules as HT  # noqa: E402
from folkcards.games.huutopussi import scoring  # noqa: E402
from folkcards.games.satat import TWO_H  # noqa: E402

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
        return utilities(state.game, state.result(), state.num_seats, state.variant)[seat]
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
    return k.utilities(a, states[0].num_seats, k.num_sides(states[0]))


def _side_seat(st: Any) -> int:
    """The seat whose utility the kernel's solver optimises: team 0's seat 0 in Sasku,
    Satat and Huutopussi, the picker in Sheepshead."""
    return int(st.picker) if game_name(st) == "sheepshead" else 0


SOLVED = ("sasku", "sheepshead", "satat", "huutopussi")
"""The games whose kernels have a compiled solver."""
EXACT = {"sasku": (3, 60), "sheepshead": (2, 60), "satat": (3, 200), "huutopussi": (2, 160)}
"""Per game: the tricks left and the positions of the check against the plain minimax
(Huutopussi's three-trick minimax, where an Erlangen deal's calls and windows multiply the
tree, runs on fewer positions: :func:`test_the_huutopussi_solver_is_exact_with_every_move`)."""
LONGER = {"sasku": (4, 20), "sheepshead": (3, 20), "satat": (5, 24), "huutopussi": (4, 40)}
"""The same for the check against the scalar solver."""


def test_the_games_with_a_solver() -> None:
    kernels = [(g, kernel_for(g)) for g in TRICK_GAMES]
    assert tuple(g for g, k in kernels if k is not None and k.solver) == SOLVED


def _under_way(states: list[Any], seed: int) -> list[DealState]:
    """Each Satat state with up to three more random actions (none that ends the deal), so
    that tricks are under way: a lead made, the lese signal to give (SAT-16.5); a leader
    who holds the 2♥ leads it, so that the trumps it calls for (SAT-8.3 rule 1, SAT-15.5)
    are met often."""
    rng = random.Random(seed)
    out = []
    for st in states:
        for _ in range(rng.randrange(4)):
            legal = st.legal_actions()
            if st.phase == "play" and not st.trick and st.hands[st.to_act] >> TWO_H & 1:
                legal = [a for a in legal if a.text.startswith(f"play {CARD_NAMES[TWO_H]}")]
            child = st.clone()
            child.apply(rng.choice(legal))
            if child.is_over:
                break
            st = child
        out.append(st)
    return out


def _played_on(states: list[DealState], seed: int) -> list[DealState]:
    """Each state with up to three more random actions (none that ends the deal), so that
    tricks are under way (Huutopussi: a window's attempt, an answer or a call among them)."""
    rng = random.Random(seed)
    out = []
    for st in states:
        for _ in range(rng.randrange(4)):
            child = st.clone()
            child.apply(rng.choice(child.legal_actions()))
            if child.is_over:
                break
            st = child
        out.append(st)
    return out


@pytest.mark.parametrize("game", SOLVED)
def test_the_compiled_solver_is_exact(game: str) -> None:
    k = kernel_for(game)
    assert k is not None
    cards, count = EXACT[game]
    states = [s for s in endgames(game, count, cards, seed=3) if k.solvable(s)]
    if game == "satat":
        states = _under_way(states, seed=3)
    elif game == "huutopussi":
        states = _played_on(states, seed=3)
    got = _kernel_values(game, states, cards)
    for i, st in enumerate(states):
        seat = _side_seat(st)
        want = _minimax(st, seat, allies_of(st, seat))
        assert got[i, seat] == pytest.approx(want, abs=1e-12), i
    seen: Any = states
    if game == "sasku":
        beat = Counter(bool(s.must_beat) for s in seen)
        assert beat[True] and beat[False]  # SAS-17.2 both ways
    elif game == "sheepshead":
        modes = Counter(s.mode for s in seen)
        assert modes["called"] and modes["alone"]
    elif game == "huutopussi":  # HUU-12, HUU-8.1, and some contracts still open either way
        assert any(s.erlangen for s in seen) and any(not s.erlangen for s in seen)
        assert any(s.window for s in seen) and any(s.trick for s in seen)
        assert len({float(x) for x in got[:, 0]}) > 10
    else:  # SAT-15 and SAT-16 both ways, a trick under way, a 2♥ lead, the lese phase
        assert len(states) == count
        assert {bool(s.tk) for s in seen} == {True, False}
        assert {s.sig for s in seen} == {0, 1, 2}
        assert any(s.trick for s in seen) and any(not s.trick for s in seen)
        assert any(s.trick and s.trick[0] == TWO_H for s in seen)
        assert any(s.phase == "lese" for s in seen)


@pytest.mark.parametrize("game", SOLVED)
def test_the_compiled_solver_agrees_with_the_scalar_solver_on_longer_endgames(game: str) -> None:
    """Four Sasku tricks, three Sheepshead ones, five Satat ones (the scalar solver is
    checked above)."""
    k = kernel_for(game)
    assert k is not None
    cards, count = LONGER[game]
    states = [s for s in endgames(game, count, cards, seed=4) if k.solvable(s)]
    got = _kernel_values(game, states, cards)
    for i, st in enumerate(states):
        seat = _side_seat(st)
        want = Solver(seat, allies_of(st, seat)).value(st)
        assert got[i, seat] == pytest.approx(want, abs=1e-12), i


@pytest.mark.parametrize("game", SOLVED)
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
    got = k.utilities(a, states[0].num_seats, k.num_sides(states[0]))
    for i, (st, action) in enumerate(zip(states, chosen, strict=True)):
        after = st.clone()
        after.apply(action)
        seat = _side_seat(st)
        assert got[i, seat] == pytest.approx(Solver(seat, allies_of(st, seat)).value(after))


def test_a_kernel_without_a_solver_refuses_to_stop() -> None:
    k = kernel_for("scopone")
    assert k is not None and not k.solver
    st = positions(GAMES["scopone"], 1, seed=1)
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


def sweeps(n: int, seed: int, ready: Any, cont: bool | None = None) -> list[DealState]:
    """``n`` Satat states in card play where ``ready(state)`` holds and one team has taken
    every trick so far: random deals of random variants in which that team's seats win
    each trick when they can and the other team's seats let them (random among those
    cards), the 7-0 choice (SAT-9.2) ``cont`` or at random; deals in which the other team
    takes a trick are dropped."""
    g = GAMES["satat"]
    k = kernel_for("satat")
    assert k is not None
    rng = random.Random(f"sweeps:{seed}")
    out: list[DealState] = []
    while len(out) < n:
        st: Any = g.random_deal(rng, random_variant(g, rng), dealer=rng.randrange(4))
        team = rng.randrange(2)
        while not st.is_over and not st.tricks[1 - team]:
            if k.accepts(st) and ready(st):
                out.append(st)
                break
            legal = st.legal_actions()
            if st.phase == "play" and st.trick:
                wins = [a for a in legal if st.beats[st.win_card] >> k.action_code(st, a) & 1]
                mine = (st.to_act & 1) == team
                legal = [a for a in legal if (a in wins) == mine] or legal
            elif st.phase == "continue" and cont is not None:
                legal = [a for a in legal if (k.action_code(st, a) == CONTINUE) == cont]
            st.apply(rng.choice(legal))
    return out


def _optimal_end(st: DealState, solver: Solver) -> DealState:
    """``st`` played to its end along an optimal line of the scalar solver (each action one
    whose value is the position's; at the 7-0 choice ``stop`` on a tie, as the compiled
    solver keeps it), the steps the batch leaves out (the lese signal) skipped."""
    k = kernel_for("satat")
    assert k is not None
    st = st.clone()
    while not st.is_over:
        if k.skipped(st):
            st.apply(st.legal_actions()[0])
            continue
        want = solver.value(st)
        legal = sorted(st.legal_actions(), key=lambda a: k.action_code(st, a) != STOP)
        for action in legal:
            child = st.clone()
            child.apply(action)
            if solver.value(child) == pytest.approx(want, abs=1e-12):
                st = child
                break
        else:
            raise AssertionError("no action keeps the solver's value")
    return st


def _check_satat(states: list[DealState], cards: int) -> Any:
    """Solve ``states`` in the kernel; every row's utility must be the scalar solver's and
    its ``tricks`` and ``score`` those of the scalar deal played to the end along an
    optimal line (:func:`_optimal_end`); the solved rows' tricks."""
    k = kernel_for("satat")
    assert k is not None
    a = k.build(k.encode(states), np.arange(len(states)))
    k.play(a, "fast", stop=cards)
    assert not a["over"].any()
    nodes = k.solve(a)
    assert nodes >= len(states) and a["over"].all()
    got = k.utilities(a, 4)
    for i, st in enumerate(states):
        solver = Solver(0, allies_of(st, 0))
        assert got[i, 0] == pytest.approx(solver.value(st), abs=1e-12), i
        end = _optimal_end(st, solver)
        assert not k.mismatches(a, i, end), (i, k.mismatches(a, i, end))
        assert list(a["shaping"][i]) == end.result()["tricks"]
        assert a["continuing"][i] == int(bool(end.continuing))  # type: ignore[attr-defined]
    return a["tricks"]


def test_solved_satat_rows_end_as_an_optimal_line_ends() -> None:
    """Random three-trick endgames (SAT-9.1): the tricks and the winner of the line."""
    _check_satat(endgames("satat", 60, 3, seed=8), 3)


def test_the_satat_solver_makes_the_seven_nil_choice_exactly() -> None:
    """SAT-9.2: at the 7-0 choice (six tricks left) the side that made the seven stops or
    continues as the scalar solver does, and both happen; so too with the last card of
    the seventh trick to play (the choice inside the search)."""
    pending = sweeps(8, 1, lambda s: s.phase == "continue")
    assert len({(s.to_act or 0) & 1 for s in pending}) == 2  # both teams make the seven
    tricks = _check_satat(pending, 6)
    assert {tuple(t) for t in tricks} & {(7, 0), (0, 7)}  # stopped
    assert any(max(t) > 7 for t in tricks)  # continued and won more
    seventh = sweeps(4, 2, lambda s: sum(s.tricks) == 6 and len(s.trick) == 3)
    _check_satat(seventh, 7)


def test_the_satat_solver_plays_a_continuation_exactly() -> None:
    """SAT-9.3: after ``continue`` the deal ends at the other team's first trick or at
    13-0; Trup Kasiet and the main game both."""
    states = sweeps(24, 3, lambda s: s.phase == "play" and max(s.tricks) >= 8, cont=True)
    seen: Any = states
    assert all(s.continuing for s in seen) and {bool(s.tk) for s in seen} == {True, False}
    tricks = _check_satat(states, 5)
    assert any(max(t) == 13 for t in tricks) and any(min(t) == 1 for t in tricks)


def hidden_trumps(n: int, cards: int, seed: int, two_h: bool = False) -> list[DealState]:
    """``n`` Trup Kasiet states in card play with at most ``cards`` cards a hand and the
    trump not yet known to the table (SAT-15.4): random deals (with ``two_h``, only those
    whose trump maker can hide the 2♥, and does, SAT-15.3), every choice random but for
    the plays, which keep the 2♥ and the trump card back while they can, so that the
    endgame still holds them."""
    g = GAMES["satat"]
    k = kernel_for("satat")
    assert k is not None
    rng = random.Random(f"hidden-trumps:{seed}")
    out: list[DealState] = []
    while len(out) < n:
        st: Any = g.random_deal(
            rng, {**random_variant(g, rng), "trup_kasiet": True}, dealer=rng.randrange(4)
        )
        if two_h:
            hide = [a for a in st.legal_actions() if a.text == f"hide {CARD_NAMES[TWO_H]}"]
            if not hide:
                continue
            st.apply(hide[0])
        while not st.is_over and not (k.accepts(st) and _held(st) <= cards):
            legal = st.legal_actions()
            if st.phase == "play":
                back = (TWO_H, st.tcard)
                legal = [a for a in legal if k.action_code(st, a) not in back] or legal
            st.apply(rng.choice(legal))
        if not st.is_over and not st.known:
            out.append(st)
    return out


def _solved(states: list[DealState], **change: int) -> Any:
    """Team 0's utility of each Satat state by the compiled solver, with the row keys of
    ``change`` set first."""
    k = kernel_for("satat")
    assert k is not None
    a = k.build(k.encode(states), np.arange(len(states)))
    for key, value in change.items():
        a[key][:] = value
    k.play(a, "fast", stop=13)
    k.solve(a)
    return k.utilities(a, 4)[:, 0]


def test_the_satat_solver_tracks_the_hidden_trump() -> None:
    """SAT-15.4, SAT-15.5: in Trup Kasiet a led 2♥ calls for trumps only once the trump is
    known, by the trump card's fall (a) or by the tricks leaving one candidate suit (b),
    and a hidden 2♥ led makes it known for its own trick. The positions where the
    solver's value changes when (a) is switched off (no trump card: with the 2♥ as the
    trump card only its own lead can tell) or (b) is (the row not marked Trup Kasiet: no
    deduction) must exist, and there the value must be the scalar solver's."""
    states = hidden_trumps(1000, 5, seed=9)
    got = _solved(states)
    by_card = np.flatnonzero(got != _solved(states, tcard=-1))
    by_tricks = np.flatnonzero(got != _solved(states, tk=0))
    two_h = hidden_trumps(150, 5, seed=10, two_h=True)
    got_two_h = _solved(two_h)
    by_lead = np.flatnonzero(got_two_h != _solved(two_h, tcard=-1))
    assert len(by_card) >= 3 and len(by_tricks) >= 3 and len(by_lead) >= 3
    for i in sorted({*by_card[:3], *by_tricks[:3]}):
        st = states[i]
        assert got[i] == pytest.approx(Solver(0, allies_of(st, 0)).value(st), abs=1e-12), i
    for i in by_lead[:3]:
        st = two_h[i]
        assert got_two_h[i] == pytest.approx(Solver(0, allies_of(st, 0)).value(st), abs=1e-12)


# --- Huutopussi: declarations, asks, answers and calls in the endgame (HUU-8, HUU-12.9) -------

KQ = frozenset(HT.KINGS) | frozenset(HT.QUEENS)
DECLARES = frozenset(range(DECLARE, DECLARE + 4))
ANSWERS = frozenset(range(ANSWER_SUIT, ANSWER_SUIT + 4))
ATTEMPTS = DECLARES | frozenset(range(ASK_HALF, ASK_HALF + 4)) | {ASK_MARRIAGE}


def huu_endgames(
    n: int,
    cards: int,
    seed: int,
    calls: int = 0,
    root: Any = None,
    sweep: bool = False,
    low: bool = True,
) -> list[DealState]:
    """``n`` four-player Huutopussi states in card play with at most ``cards`` cards a hand,
    from random deals of random variants in which the bids and the contract are the lowest
    (or a pass; with ``low`` off, random), the plays keep kings and queens back
    (so that marriages and halves are still held, HUU-8.3 – HUU-8.5), a window's attempt
    is made one time in four, and in Erlangen every call is made while fewer than
    ``calls`` have been (so that the next ones, HUU-12.9, can come in the endgame); every
    other choice uniformly random. With ``sweep`` one team (either) wins each trick when
    it can and the other lets it, and only deals where the other team has taken no trick
    yet are kept (läpäri, Porvoo, HUU-9.4, HUU-11.4, HUU-12.8). Where the endgame's first
    action is an ask, it is made one time in two, so that the partner's answer
    (HUU-8.10) is the first move. With ``root``, only states whose legal action codes
    satisfy it are kept. With ``cards`` 0, finished deals (swept or not)."""
    g = GAMES["huutopussi"]
    k = kernel_for("huutopussi")
    assert k is not None
    rng = random.Random(f"huu-endgames:{seed}")
    out: list[DealState] = []
    while len(out) < n:
        variant = random_variant(g, rng)
        if g.num_seats(g.normalize_variant(variant)) != 4:
            continue
        st: Any = g.random_deal(rng, variant, dealer=rng.randrange(4))
        team = rng.randrange(2)
        while not st.is_over and not (k.accepts(st) and _held(st) <= cards):
            legal = st.legal_actions()
            if low and st.phase in ("bidding", "contract"):  # low contracts: made or not
                legal = [a for a in legal if a.text == "pass"] + list(legal[:1])
            elif st.phase == "play":
                code = {a: k.action_code(st, a) for a in legal}
                call = [a for a in legal if code[a] in (KONTRA, RE)]
                tries = [a for a in legal if code[a] in ATTEMPTS]
                plays = [a for a in legal if code[a] < 64]
                if sweep and st.trick:
                    wins = [a for a in plays if st.beats[st.win_card] >> code[a] & 1]
                    mine = (st.to_act & 1) == team
                    plays = [a for a in plays if (a in wins) == mine] or plays
                if call and st.calls < calls:
                    legal = call
                elif tries and rng.random() < 0.25:
                    legal = tries
                else:
                    legal = [a for a in plays if code[a] not in KQ] or plays
            st.apply(rng.choice(legal))
        if cards == 0 and st.is_over:  # finished deals
            out.append(st)
            continue
        if st.is_over or st.to_act is None or (sweep and st.tricks[1 - team]):
            continue
        asks = [a for a in st.legal_actions() if ASK_HALF <= k.action_code(st, a) <= ASK_MARRIAGE]
        if asks and rng.random() < 0.5:
            st.apply(rng.choice(asks))
        if root is None or root(_codes(st)):
            out.append(st)
    return out


def _codes(st: DealState) -> set[int]:
    k = kernel_for("huutopussi")
    assert k is not None
    return {k.action_code(st, a) for a in st.legal_actions()}


def _margin(state: DealState, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """Team 0's final score margin ``score[0] - score[1]`` (HUU-9, HUU-12) under plain
    alpha-beta over every legal action of the engine, team 0 maximising it: exact, no
    table. The utilities saturate (a margin of thousands, as kontra/re make it, is a
    utility of 1.0 or 0.0 in floating point), so the solver's margin is checked as well."""
    if state.is_over:
        score = state.result()["score"]
        return float(score[0] - score[1])
    ours = state.to_act is not None and state.to_act & 1 == 0
    best = -math.inf if ours else math.inf
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        v = _margin(child, alpha, beta)
        if ours:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def _solved_rows(states: list[DealState], stop: int, **change: int) -> Any:
    """The batch of ``states`` after the compiled solver (the row keys of ``change`` set
    first)."""
    k = kernel_for("huutopussi")
    assert k is not None
    a = k.build(k.encode(states), np.arange(len(states)))
    for key, value in change.items():
        a[key][:] = value
    k.play(a, "fast", stop=stop)
    k.solve(a)
    return a


def test_the_huutopussi_solver_is_exact_with_every_move() -> None:
    """HUU-8.3 – HUU-8.6, HUU-12.6, HUU-12.9, HUU-9.4, HUU-11.4, HUU-12.8: three-trick
    endgames with marriages and halves held (windows open, an answer to give), two-trick
    ones with kontra/re still to call and ones where a team has taken no trick yet,
    against the plain minimax (the utility) and a plain alpha-beta of the score margin
    (the written score's margin must be it); the moves are all there at the root
    somewhere, and where closing the windows (no attempt: the key ``window`` off in the
    batch) changes the value, the solver must have searched the attempts."""
    states = [
        *huu_endgames(1, 3, seed=11, root=lambda c: c & DECLARES),
        *huu_endgames(8, 2, seed=19, root=lambda c: c & DECLARES),
        *huu_endgames(3, 3, seed=20, root=lambda c: c & ANSWERS),
        *huu_endgames(4, 3, seed=21),
        *huu_endgames(6, 2, seed=12, calls=7, root=lambda c: RE in c),
        *huu_endgames(6, 2, seed=18, calls=8, root=lambda c: KONTRA in c),
        *huu_endgames(12, 2, seed=22, sweep=True),
        *huu_endgames(6, 2, seed=23, sweep=True, calls=7),
    ]
    a = _solved_rows(states, 3)
    got = kernel_for("huutopussi").utilities(a, 4, 2)  # type: ignore[union-attr]
    for i, st in enumerate(states):
        want = _minimax(st, 0, allies_of(st, 0))
        assert got[i, 0] == pytest.approx(want, abs=1e-12), i
        assert got[i, 1] == pytest.approx(1 - want, abs=1e-12), i
        assert a["score"][i, 0] - a["score"][i, 1] == _margin(st), i
    calls = huu_endgames(12, 3, seed=25, calls=6, root=lambda c: KONTRA in c)
    b = _solved_rows(calls, 3)  # three tricks with kontra, re, kontra to come: the margin
    for i, st in enumerate(calls):
        assert b["score"][i, 0] - b["score"][i, 1] == _margin(st), i
    roots = [_codes(s) for s in states]
    assert any(c & DECLARES for c in roots)  # HUU-8.3
    assert any(c & set(range(ASK_HALF, ASK_HALF + 4)) for c in roots)  # HUU-8.5
    assert any(ASK_MARRIAGE in c for c in roots)  # HUU-8.4
    assert any(s.phase == "answer" for s in states)  # HUU-8.10
    assert any(c & ANSWERS for c in roots)
    assert any(KONTRA in c for c in roots) and any(RE in c for c in roots)  # HUU-12.9
    seen: Any = states
    assert sum(1 for s in seen if 0 in s.tricks) >= 12  # a team without a trick
    assert {bool(s.erlangen) for s in seen if 0 in s.tricks} == {True, False}
    closed = kernel_for("huutopussi").utilities(  # type: ignore[union-attr]
        _solved_rows(states, 3, window=0), 4, 2
    )[:, 0]
    assert np.count_nonzero(closed != got[:, 0]) >= 3


def _leaf(st: Any) -> list[int]:
    """The scores of a finished four-player deal by the solver's leaf value (``_value``)."""
    t0, t1 = (st.points[j] + st.marriages[j] for j in range(2))
    tk = (1 if st.tricks[0] else 0) | (2 if st.tricks[1] else 0)
    v = int(_value(t0, t1, tk, st.calls, st.declarer, st.contract, st.bid, st.erlangen,
                   st.rules.porvoo))  # fmt: skip
    s0 = (v & ((1 << 21) - 1)) - (1 << 20)
    return [s0, s0 - (v >> 21)]


def test_the_huutopussi_solver_scores_a_finished_deal_as_the_engine() -> None:
    """The solver's leaf value (``_value``) gives the engine's score of a finished deal
    (``scoring.score``) from the teams' totals, who took a trick and the calls: HUU-9.2 –
    HUU-9.4 (läpäri), HUU-11.4 (Porvoo), HUU-12.2 (no contract), HUU-12.7 – HUU-12.9
    (rounding, Porvoo, doubling, the first kontra of a failed sweep). On finished deals
    of random variants, and on a grid of totals, tricks, calls and contracts set on one
    finished deal of each rule set (so that every rule's case comes up)."""
    deals: Any = huu_endgames(60, 0, seed=28, calls=9) + huu_endgames(60, 0, seed=29, low=False)
    for st in deals:
        assert _leaf(st) == st.result()["score"]
    kinds: dict[tuple[bool, bool], Any] = {}
    for st in deals:
        kinds.setdefault((bool(st.erlangen), bool(st.rules.porvoo)), st)
    assert set(kinds) == {(True, False), (False, True), (False, False)}
    cases: Counter[tuple[bool, bool, tuple[int, ...]]] = Counter()
    for (erl, _), base in kinds.items():
        for d, tricks, calls, (p0, p1), (m0, m1), c in itertools.product(
            [-1, 0, 1, 2, 3] if erl else [0, 1, 2, 3],
            [(9, 0), (0, 9), (5, 4), (1, 8)],
            [0, 1, 2, 5, 9] if erl else [0],
            [(160, 0), (0, 160), (101, 59), (58, 102), (72, 68), (123, 17), (115, 45), (45, 115)],
            [(0, 0), (40, 0), (0, 100), (60, 80)],
            [50, 115, 120, 140, 230],
        ):
            st = base.clone()
            st.declarer, st.calls, st.contract = d, calls, 0 if d < 0 else c
            st.bid = 0 if d < 0 else c - 5 * (c % 2 + 1)
            st.tricks, st.points, st.marriages = [*tricks], [p0, p1], [m0, m1]
            want = scoring.score(st)
            assert _leaf(st) == want["score"], (erl, d, tricks, calls, p0, p1, m0, m1, c)
            cases[(erl, want["made"], tuple(want["no_tricks"]))] += 1
    assert len(cases) >= 10


def test_the_huutopussi_solver_chooses_among_answers() -> None:
    """HUU-8.4: a partner asked for a marriage who holds two chooses one; four-trick
    endgames starting with that answer, against the plain alpha-beta of the margin."""
    states = huu_endgames(3, 4, seed=24, root=lambda c: len(c & ANSWERS) >= 2)
    a = _solved_rows(states, 4)
    for i, st in enumerate(states):
        assert a["score"][i, 0] - a["score"][i, 1] == _margin(st), i


def test_the_huutopussi_solver_agrees_with_the_scalar_solver_with_marriages_held() -> None:
    """Four-trick endgames with kings and queens kept back and calls pending (HUU-8,
    HUU-12.9) against the scalar solver; the written score is that of a finished deal:
    its margin is the value's, and the utilities are those of that score."""
    states = huu_endgames(16, 4, seed=13) + huu_endgames(16, 4, seed=14, calls=5)
    k = kernel_for("huutopussi")
    assert k is not None
    a = k.build(k.encode(states), np.arange(len(states)))
    k.play(a, "fast", stop=4)
    nodes = k.solve(a)
    assert nodes > len(states) and (a["tricks_done"] == 9).all()
    got = k.utilities(a, 4, 2)
    for i, st in enumerate(states):
        want = Solver(0, allies_of(st, 0)).value(st)
        assert got[i, 0] == pytest.approx(want, abs=1e-12), i
        result = {"score": [int(x) for x in a["score"][i, :2]]}
        assert utilities("huutopussi", result, 4, st.variant)[0] == pytest.approx(want, abs=1e-12)
    assert any(_codes(s) & ATTEMPTS for s in states)
    seen: Any = states
    assert any(_codes(s) & {KONTRA, RE} for s in states) or any(
        s.erlangen and s.calls >= 5 for s in seen
    )


def test_a_three_player_huutopussi_deal_is_not_solved() -> None:
    """HUU-13.4: with three players each seat scores for itself (the opponents' totals
    count apart, a trickless opponent's penalty is its own), so there is no two-sided
    value: ``solvable`` says no, ``bpimc`` plays those deals out, and ``solve`` refuses."""
    k = kernel_for("huutopussi")
    assert k is not None
    states = endgames("huutopussi", 60, 2, seed=15)
    three = [s for s in states if not k.solvable(s)]
    assert three and all(s.num_seats == 3 for s in three)
    assert all(s.num_seats == 4 for s in states if k.solvable(s))
    a = k.build(k.encode(three[:1]), np.arange(1))
    k.play(a, "fast", stop=2)
    with pytest.raises(ValueError, match="three-player"):
        k.solve(a)


def test_the_huutopussi_solver_runs_alike_without_numba() -> None:
    """FOLKCARDS_NO_NUMBA=1: the same solver as plain Python gives the same scores after
    the same number of positions (HUU-8 endgames, two and three tricks)."""
    pytest.importorskip("numba")
    k = kernel_for("huutopussi")
    assert k is not None
    states = huu_endgames(4, 3, seed=16) + huu_endgames(6, 2, seed=17, calls=7)
    rows = {key: v.tolist() for key, v in k.encode(states).items()}
    code = (
        "import json, sys; import numpy as np; from folkcards.batch import kernel_for, compiled\n"
        "k = kernel_for('huutopussi'); rows = json.loads(sys.stdin.read())\n"
        "base = {key: np.array(v, np.uint64 if key in k.mask_keys else np.int64)"
        " for key, v in rows.items()}\n"
        "a = k.build(base, np.arange(len(rows['hands']))); k.play(a, 'fast', stop=3)\n"
        "nodes = k.solve(a)\n"
        "print(json.dumps([compiled(), nodes, a['score'].tolist()]))"
    )
    out = []
    for plain in (True, False):
        env = {key: v for key, v in os.environ.items() if key != "FOLKCARDS_NO_NUMBA"}
        if plain:
            env["FOLKCARDS_NO_NUMBA"] = "1"
        run = subprocess.run(
            [sys.executable, "-c", code], input=json.dumps(rows), env=env,
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        out.append(json.loads(run.stdout))
    (c0, n0, s0), (c1, n1, s1) = out
    assert c0 is False and c1 is True
    assert n0 == n1 and s0 == s1
    got = _kernel_values("huutopussi", states, 3)
    for i, st in enumerate(states[:3]):
        assert got[i, 0] == pytest.approx(_minimax(st, 0, allies_of(st, 0)), abs=1e-12)


def test_the_satat_solver_tries_one_card_of_each_run() -> None:
    """Cards of one suit that no other unplayed card separates in rank are worth the same
    (no card points, SAT-1.6; the trick's winner by rank, SAT-8.5), so the solver tries the
    highest of each run. The unplayed cards are the hands and the trick on the table: a
    queen of spades on the table keeps A K apart from J T (the king beats it, the jack
    not), one played in an earlier trick does not. The 2♥ (SAT-1.3) and Trup Kasiet's trump
    card (SAT-15.4) are always tried."""
    from folkcards.batch.satat import _distinct
    from folkcards.cards import parse_card

    def mask(*names: str) -> Any:
        out = 0
        for n in names:
            out |= 1 << parse_card(n)
        return np.uint64(out)

    fixed = mask("2H")
    mine = mask("AS", "KS", "JS", "TS", "9C", "7C", "3H", "2H")
    others = mask("QS", "8C", "4H", "AD")
    got = _distinct(mine, mine | others, fixed)
    assert got == mask("AS", "JS", "9C", "7C", "3H", "2H")
    gone = mine | mask("8C", "4H", "AD")  # the queen played in an earlier trick
    assert _distinct(mine, gone, fixed) == mask("AS", "9C", "7C", "3H", "2H")
    tk = mask("2H", "KS")  # Trup Kasiet: the king of spades is the face-down trump card
    assert _distinct(mine, gone, tk) == mask("AS", "KS", "JS", "9C", "7C", "3H", "2H")
