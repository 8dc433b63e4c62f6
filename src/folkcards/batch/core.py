"""The batch: many determinized deals in card play as arrays, advanced by a game's kernel.

A :class:`GameKernel` knows one game's card play: :meth:`~GameKernel.encode_one` reads a
play-phase :class:`~folkcards.engine.api.DealState` (a determinized world) into plain
numbers — one ``uint64`` card mask per hand, the trick, the counters the rules need —
and :meth:`~GameKernel.run` plays every row of a batch to the end of the deal, each by
the same rules as the scalar engine: first the row's *forced* actions (the action a
search is valuing, or recorded choices), then the policy (``0`` uniform random over the
legal actions, ``1`` the vectorisable fast policy). It writes each row's result — the
``score`` and the finer ``shaping`` key that :func:`folkcards.bots.base.utilities`
reads — and, when asked, the actions it chose (``record``), so the same row can be played
through the scalar engine and compared (``tests/batch``, ``benchmarks/batch_exact.py``).

Actions have small integer *codes* in a batch: the card number for a plain play, and
per game a few more (Huutopussi's declarations, Satat's continue/stop, Scopone's
captures); :meth:`GameKernel.action_code` maps a scalar legal action to its code.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from folkcards.bots.base import shaping_of
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState
from folkcards.engine.tricks import TrumpConfig

Arrays = dict[str, Any]
"""A batch: array name -> numpy array whose first axis is the row."""

RANDOM, FAST, SIMPLE, HEURISTIC = 0, 1, 2, 3
POLICIES = {"random": RANDOM, "fast": FAST, "simple": SIMPLE, "heuristic": HEURISTIC}
"""Policy names and their kernel numbers (``heuristic``: only where a kernel lists it in
:attr:`GameKernel.policies`)."""


def power_table(config: TrumpConfig) -> list[int]:
    """Per card number: its rank by power under ``config`` (0 the weakest card of the deck;
    trumps above every plain card), for the fast policy."""
    order = sorted((c for c in range(52) if config.deck >> c & 1), key=lambda c: config.power[c])
    rank = {c: i for i, c in enumerate(order)}
    return [rank.get(c, 0) for c in range(64)]


class GameKernel:
    """One game's batched card play (subclassed per game)."""

    game: str = ""
    seats: int = 4
    sides: int = 2
    max_steps: int = 64
    """Most actions a row can still take (the size of ``record``)."""
    max_forced: int = 8
    solver: bool = False
    """True when :meth:`solve` can finish rows stopped before the end (``play(stop=)``)."""
    policies: frozenset[str] = frozenset({"random", "fast", "simple"})
    """The playout policies the kernel plays (every game's kernel adds ``heuristic``: the
    bot kit's own card play from each seat's knowledge, not from the open hands)."""
    state_keys: tuple[str, ...] = ()
    mask_keys: frozenset[str] = frozenset({"hands"})
    """State keys held as ``uint64`` card masks (every other key is ``int64``)."""
    result_keys: tuple[tuple[str, str], ...] = (("score", "score"),)
    """(array name, result key) pairs the differential test compares with ``result()``."""

    draws_hands: bool = False
    """True when :meth:`encode_hands` and :meth:`likelihoods_hands` take deals as one whole
    deal and the hands of the others (sampled from one observation, whose rows differ in
    nothing but the hands; the row :meth:`hands_of` gives may add what the reading takes
    besides): a search then draws only the hands (``Game.determinize_hands``)."""

    def hands_of(self, state: DealState) -> list[int]:
        """The row of card masks that ``Game.determinize_hands`` gives for a deal: its hands
        now, one mask per seat (Satat adds the trump maker's first five)."""
        return list(state.hands)  # type: ignore[attr-defined]

    def encode_hands(self, template: DealState, hands: np.ndarray[Any, Any]) -> Arrays:
        """The rows of deals that are ``template`` but for their hands now (a row of card
        masks per deal, as :meth:`hands_of` gives them; columns past the seats' hands are
        what the reading takes besides), where :attr:`draws_hands`: hands are drawn alone
        only where every other key of a row is known to the seat, so one row is encoded and
        repeated."""
        one = self.encode([template])
        d = len(hands)
        out = {key: np.repeat(value, d, axis=0) for key, value in one.items()}
        seats = one["hands"].shape[1]
        out["hands"] = np.ascontiguousarray(np.asarray(hands, np.uint64)[:, :seats])
        return out

    def deal_hands(
        self, template: DealState, seat: int, rng: random.Random, n: int
    ) -> np.ndarray[Any, Any] | None:
        """``n`` rows of :meth:`hands_of` drawn at once, the first ``template``'s own: deals
        that are ``template`` but for the hands of the seats other than ``seat``, where the
        game's ``determinize`` deals the cards unseen by ``seat`` uniformly among them, each
        seat keeping its hand's size (Scopone, SCO-9), so the batch can draw them as arrays;
        None here, where a game's draw has constraints (``Game.determinize_hands`` then
        draws them one by one)."""
        return None

    def likelihoods_hands(
        self,
        template: DealState,
        hands: np.ndarray[Any, Any],
        seat: int,
        miss: float,
        bids: bool = True,
    ) -> np.ndarray[Any, Any]:
        """``likelihoods`` of deals that are ``template`` but for their hands now, where
        :attr:`draws_hands`."""
        raise NotImplementedError

    def reads_before_play(self, state: DealState) -> bool:
        """True when :meth:`likelihoods` weighs ``state``, a deal whose card play has not
        begun, by decisions already made in it (Sasku's bids), so that a decision before
        card play may read them; False here: such a deal is not read."""
        return False

    def encode_one(self, state: DealState) -> dict[str, Any]:
        """The row of one play-phase state (ValueError for a state not in card play)."""
        raise NotImplementedError

    def run(self, a: Arrays, policy: int) -> int:
        """Play every row to the end; the number of actions taken."""
        raise NotImplementedError

    def run_until(self, a: Arrays, policy: int, stop: int) -> int:
        """:meth:`run`, but each row stops once its forced actions are played and at most
        ``stop`` tricks are left, for :meth:`solve` (kernels with a :attr:`solver`)."""
        raise NotImplementedError

    def action_code(self, state: DealState, action: Action) -> int:
        """The batch code of a legal action of ``state`` (-1 if the batch has none)."""
        raise NotImplementedError

    def solve(self, a: Arrays) -> int:
        """Finish, in place, every row that :meth:`play` stopped before the end with its
        double-dummy value (every hand open, each side at its best: the exact minimax of
        the rest of the deal), writing the ``score`` and ``shaping`` that
        :meth:`utilities` reads; the number of positions searched."""
        raise NotImplementedError

    def tricks_left(self, state: DealState) -> int:
        """Tricks still to play in a play-phase state, the current one counted (for
        ``play(stop=)``)."""
        raise NotImplementedError

    def solvable(self, state: DealState) -> bool:
        """True when :meth:`solve` covers this deal (Sheepshead's leaster, a game of every
        seat for itself, is not)."""
        return self.solver

    def accepts(self, state: DealState) -> bool:
        """True when :meth:`encode_one` takes ``state`` (it is in card play)."""
        return not state.is_over and state.phase == "play"

    def skipped(self, state: DealState) -> bool:
        """True where the scalar engine asks for an action the batch leaves out because it
        changes nothing that counts (Satat's ``lese``/``silent`` signals)."""
        return False

    def num_sides(self, state: DealState) -> int:
        """Entries of the deal's ``score`` (3 in three-player Huutopussi, else 2 or 5)."""
        return self.sides

    def shaping_key(self) -> tuple[str, float]:
        """The result key and scale of :func:`folkcards.bots.base.utilities`."""
        return shaping_of(self.game)

    # --- batches -----------------------------------------------------------------------
    def encode(self, states: Sequence[DealState]) -> Arrays:
        """One row per state."""
        rows = [self.encode_one(s) for s in states]
        out: Arrays = {}
        for key in self.state_keys:
            dtype = np.uint64 if key in self.mask_keys else np.int64
            out[key] = np.array([r[key] for r in rows], dtype)
        return out

    def build(
        self,
        base: Arrays,
        rows: np.ndarray[Any, Any],
        forced: np.ndarray[Any, Any] | None = None,
        seed: int = 1,
        record: bool = False,
    ) -> Arrays:
        """A batch of ``len(rows)`` rows copied from ``base`` (row ``rows[i]``), with
        ``forced[i]`` (codes; -1 pads) played first and one generator per row from
        ``seed``; room for the chosen actions when ``record``."""
        n = len(rows)
        out: Arrays = {k: base[k][rows].copy() for k in self.state_keys}
        if forced is None:
            forced = np.full((n, 1), -1, np.int64)
        forced = np.asarray(forced, np.int64)
        out["forced"] = forced
        out["nforced"] = (forced >= 0).sum(axis=1).astype(np.int64)
        out["seeds"] = seeds_for(seed, n)
        out["record"] = np.zeros((n, self.max_steps if record else 0), np.int64)
        out["nrec"] = np.zeros(n, np.int64)
        out["score"] = np.zeros((n, self.sides), np.int64)
        out["shaping"] = np.zeros((n, self.sides), np.int64)
        for name, _ in self.result_keys:
            if name not in out:
                out[name] = np.zeros((n, self.sides), np.int64)
        out["bad"] = np.zeros(n, np.int64)
        return out

    def play(self, a: Arrays, policy: int | str = FAST, noise: int = 0, stop: int = 0) -> int:
        """Run the batch in place (``noise``: the percentage of the policy's moves made
        uniformly at random instead); ValueError when a forced action was not legal.

        With ``stop`` > 0 (kernels with a :attr:`solver` only) a row stops as soon as its
        forced actions are played and at most ``stop`` tricks are left (the current one
        counted), so that :meth:`solve` can value the rest exactly."""
        name = (
            policy
            if isinstance(policy, str)
            else next((k for k, v in POLICIES.items() if v == policy), str(policy))
        )
        if name not in self.policies:
            valid = ", ".join(sorted(self.policies))
            raise ValueError(f"the {self.game} kernel has no policy {name!r} (valid: {valid})")
        p = POLICIES[name]
        if not 0 <= noise <= 100:
            raise ValueError("noise is a percentage (0 to 100)")
        if stop and not self.solver:
            raise ValueError(f"the {self.game} kernel has no endgame solver to stop for")
        done = self.run_until(a, p + 16 * noise, stop) if stop else self.run(a, p + 16 * noise)
        if a["bad"].any():
            row = int(np.flatnonzero(a["bad"])[0])
            raise ValueError(f"row {row}: a forced action is not legal there")
        return done

    def utilities(
        self, a: Arrays, num_seats: int, num_sides: int | None = None
    ) -> np.ndarray[Any, Any]:
        """Every row's utility per seat (:func:`folkcards.bots.base.utilities`, vectorised);
        the rows must share one variant (``num_sides`` entries of ``score``)."""
        k = num_sides or self.sides
        m = self.margins(a, num_seats, k)
        key, scale = self.shaping_key()
        g = m if key == "score" else _margins(a["shaping"][:, :k], num_seats)
        win = np.where(m > 0, 1.0, np.where(m < 0, 0.0, 0.5))
        out: np.ndarray[Any, Any] = 0.75 * win + 0.25 * (0.5 + 0.5 * np.tanh(g / scale))
        return out

    def margins(
        self, a: Arrays, num_seats: int, num_sides: int | None = None
    ) -> np.ndarray[Any, Any]:
        """Every row's score margin per seat: its side's score minus the mean of the other
        sides' (:func:`folkcards.bots.base.margins`, vectorised)."""
        return _margins(a["score"][:, : num_sides or self.sides], num_seats)

    # --- the scalar engine, for the differential tests ---------------------------------
    def replay(self, state: DealState, codes: Sequence[int]) -> DealState:
        """``state`` (a copy) with the actions of ``codes`` applied by the scalar engine,
        each the first legal action with that code (steps the batch leaves out get the
        first legal action)."""
        st = state.clone()
        for code in codes:
            while not st.is_over and self.skipped(st):
                st.apply(st.legal_actions()[0])
            for action in st.legal_actions():
                if self.action_code(st, action) == code:
                    st.apply(action)
                    break
            else:
                raise ValueError(f"no legal action with code {code} at {st.legal_texts()}")
        while not st.is_over and self.skipped(st):
            st.apply(st.legal_actions()[0])
        return st

    def mismatches(self, a: Arrays, row: int, state: DealState) -> list[str]:
        """Where row ``row`` of a played batch differs from the finished scalar ``state``."""
        out = []
        if not state.is_over:
            return [f"the scalar deal is not over after the batch's {a['nrec'][row]} actions"]
        result = state.result()
        for name, key in self.result_keys:
            got = [int(x) for x in a[name][row]]
            want = result[key]
            if got != want:
                out.append(f"{key}: batch {got}, scalar {want}")
        return out


def _margins(score: np.ndarray[Any, Any], num_seats: int) -> np.ndarray[Any, Any]:
    """Per row and seat: the seat's side's entry minus the mean of the other entries
    (seat s is side s with one entry per seat, else side s mod the entries)."""
    k = score.shape[1]
    score = score.astype(np.float64)
    side = [s if k == num_seats else s % k for s in range(num_seats)]
    mine = score[:, side]
    out: np.ndarray[Any, Any] = mine - (score.sum(axis=1)[:, None] - mine) / (k - 1)
    return out


def seeds_for(seed: int, n: int) -> np.ndarray[Any, Any]:
    """``n`` non-zero xorshift states from one seed (splitmix64 of its counter)."""
    golden = np.uint64(0x9E3779B97F4A7C15)
    start = np.uint64((seed * 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
    z = start + golden * np.arange(1, n + 1, dtype=np.uint64)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    z[z == 0] = 1
    return z


def mean_ci95(values: np.ndarray[Any, Any]) -> tuple[float, float]:
    """Mean and normal half-width of a 95 % interval (for benchmark prints)."""
    n = len(values)
    m = float(values.mean())
    if n < 2:
        return m, math.inf
    return m, 1.96 * float(values.std(ddof=1)) / math.sqrt(n)
