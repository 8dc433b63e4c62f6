"""Exact endgames of the trick games over the scalar engine: alpha-beta with a
transposition table, every hand open.

:func:`solve` values a determinized deal in card play (Sasku, Sheepshead, Satat,
Huutopussi: any game whose deal the engine plays through ``legal_actions``/``apply``)
by the minimax of one seat's utility (:func:`folkcards.bots.base.utilities`): the seat's
allies (:func:`allies_of`: its partnership, Sheepshead's picker side) take the line that is
best for it, everyone else the line that is worst. In a game of two sides the utilities
of the sides add up to one, so this is the deal's exact double-dummy value for both;
where every seat plays for itself (Sheepshead's leaster, three-player Huutopussi) it is
the seat's guaranteed value against a coalition of the others (the "paranoid" value).

It knows no rule of its own — every legal move, trick winner and score comes from the
engine — so it serves every trick game, and the tests use it (and a plain minimax
without pruning) to check the fast solvers of the batch (``GameKernel.solve``: Sasku's,
Sheepshead's and Satat's, compiled by numba). It is about a thousand times slower than
those: a few tricks, for tests and analysis rather than inside a search's budget.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from folkcards.batch import kernel_for
from folkcards.bots.base import utilities
from folkcards.engine.api import DealState

Key = Callable[[DealState], Hashable | None]
"""A position's transposition key (None: not stored)."""


def game_name(state: DealState) -> str:
    """The name of the game a state is a deal of."""
    game: Any = state.game
    return game if isinstance(game, str) else str(game.name)


def allies_of(state: DealState, seat: int) -> frozenset[int]:
    """The seats that play for ``seat``'s side, ``seat`` included: Sheepshead's picker and
    partner (SHP-6; the picker alone when going alone, SHP-8.5; each seat for itself in a
    leaster, SHP-9), Huutopussi's team (HUU-2; each seat for itself with three players),
    else the partnership of opposite seats in a four-seat game."""
    st: Any = state
    seats = len(st.hands)
    if game_name(state) == "sheepshead":
        mode = st.mode
        if mode == "leaster":
            return frozenset({seat})
        side = {st.picker} | ({st.partner} if mode == "called" and st.partner >= 0 else set())
        return frozenset(side) if seat in side else frozenset(range(seats)) - side
    if game_name(state) == "huutopussi":
        if seats == 3:
            return frozenset({seat})
        return frozenset(s for s in range(seats) if st.team_of(s) == st.team_of(seat))
    if seats == 4:
        return frozenset(s for s in range(4) if s % 2 == seat % 2)
    return frozenset({seat})


def kernel_key(state: DealState) -> Hashable | None:
    """The batch encoding of a play-phase state (hands, trick, counters: everything its
    card play depends on) as a key; None where the game has no kernel or the state is not
    in its card play."""
    kernel = kernel_for(game_name(state))
    if kernel is None or not kernel.accepts(state):
        return None
    row = kernel.encode_one(state)
    return tuple(
        (k, tuple(v) if isinstance(v, list | tuple) else v) for k, v in sorted(row.items())
    )


class Solver:
    """Alpha-beta over the scalar engine for one seat's utility (see the module doc),
    with a transposition table of positions (``key``) holding a lower and an upper bound
    of the value. One solver may serve many positions of the same seat and allies."""

    def __init__(self, seat: int, allies: frozenset[int], key: Key | None = kernel_key) -> None:
        self.seat = seat
        self.allies = allies
        self.key = key
        self.table: dict[Hashable, tuple[float, float]] = {}
        self.nodes = 0

    def value(self, state: DealState, alpha: float = -1.0, beta: float = 2.0) -> float:
        """The minimax utility of ``self.seat`` from ``state`` (which is not changed)."""
        self.nodes += 1
        if state.is_over:
            st: Any = state
            return utilities(st.game, st.result(), len(st.hands), st.variant)[self.seat]
        key = self.key(state) if self.key is not None else None
        if key is not None:
            known = self.table.get(key)
            if known is not None:
                lo, hi = known
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        seat = state.to_act
        ours = seat in self.allies
        best = -1.0 if ours else 2.0
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            v = self.value(child, alpha, beta)
            if ours:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = self.table.get(key, (-1.0, 2.0))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi)
        return best


def solve(state: DealState, seat: int | None = None) -> float:
    """``seat``'s (default: the seat to act) exact utility of ``state`` with every hand
    open (:class:`Solver`, its allies by :func:`allies_of`)."""
    me = state.to_act if seat is None else seat
    if me is None:
        raise ValueError("a finished deal has no seat to act: name the seat")
    return Solver(me, allies_of(state, me)).value(state)
