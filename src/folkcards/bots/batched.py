"""PIMC on the batched engine: every sampled deal × every legal action played out at once.

:class:`BatchPIMCBot` samples deals consistent with the seat's observation
(``Game.determinize``, the same sampler as :class:`~folkcards.bots.search.PIMCBot`,
optionally weighted by inference from play: ``infer``, ``pool``), encodes them once into a
batch (:mod:`folkcards.batch`; in card play, where the game draws them alone, one whole
deal and the hands of the others: ``Game.determinize_hands``, or where the kernel deals
them as arrays, ``GameKernel.deal_hands``), and lets the game's kernel play every (deal,
action) pair out ``k`` times — the action forced first, then the kernel's policy (``fast``:
the vectorised playout heuristics; ``random``; or a mix such as ``fast+heuristic``, each
deal played out by every policy named and the values averaged) — with the deal's utilities
computed for the whole batch. The values are compared on the same deals (paired), and with
``keep`` the heuristic's choice stands unless another action's paired gain is significant,
as in ``search``. A decision before card play (a bid, a pick, a bury, a trump) in a phase
that ``only`` names goes through the *bridge*: each of the heuristic's ``wide`` best
actions is applied to every sampled deal, every seat's decisions up to the card play are
the heuristic's, and the batch plays the cards from there (the sampled deals read by the
bids made so far, where the kernel reads them). Positions the batch does not cover (a game
without a kernel, numpy missing) go to :class:`PIMCBot` with the same options.

Where the kernel has an endgame solver (Sasku, Sheepshead, Satat: ``GameKernel.solve``)
the playouts may end in it: with ``leaf=L`` each row stops when L tricks are left and the
rest is valued double dummy (exactly, every hand open) instead of by the policy; with
``root=R`` a decision with at most R tricks left solves each deal right after the valued
card, on at most ``solved`` of the sampled deals. ``hidden=1`` (Sheepshead) keeps the
called partner unknown to the other seats of a playout until the called card falls.
``bsearch`` takes them from the game's ``batch_tuning`` (docs/bots.md, "Batched search").
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from folkcards.batch import kernel_for
from folkcards.bots.base import (
    Bot,
    Evaluation,
    argmax,
    game_of,
    margins,
    seat_sides,
    utilities,
)
from folkcards.bots.kits import find_kit
from folkcards.bots.search import (
    NoSample,
    PIMCBot,
    fallback,
    heuristic_evaluation,
    heuristic_policy,
    quick_choice,
    resample,
    sample,
)
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, FolkcardsError, Observation

BATCH_POLICIES = ("fast", "simple", "random", "heuristic")
"""The playout policies of ``bpimc`` (``heuristic``: the bot kit's card play written into
the kernel, where the kernel has it: :attr:`folkcards.batch.core.GameKernel.policies`)."""


def batch_tuning(game: str) -> dict[str, Any]:
    """The game's own settings for ``bsearch`` (its kit's ``batch_tuning``, e.g.
    ``{"worlds": 80, "leaf": 3}``), or {}."""
    kit = find_kit(game)
    return {} if kit is None else dict(kit.batch_tuning)


class BatchPIMCBot(Bot):
    """Flat Monte Carlo over sampled deals with batched playouts (see the module doc).

    ``worlds`` deals are sampled (or as many as half of ``ms`` allows); each legal action
    is played out ``k`` times on each of them. ``keep=z`` keeps the heuristic's choice
    unless another action's paired mean gain exceeds ``z`` standard errors (None: the best
    mean). ``infer``/``pool`` weight the deals by how well the heuristic explains the
    other seats' decisions (:func:`folkcards.bots.search.resample`); ``read`` does the same
    for the card play in the kernel (``kernel.likelihoods``: every game's kernel),
    at a fraction of the cost, with ``pool`` P sampling P deals for each one kept (a kernel
    without that reading ignores it), and a decision before card play by the bids made
    so far where the kernel reads them (``kernel.reads_before_play``: Sasku's); ``only``
    names the phases searched (the heuristic decides the others; a tuned bot takes the
    game's). ``leaf``, ``root`` (tricks) and ``hidden`` end the playouts in the kernel's
    solver and hide Sheepshead's partner, and ``solved`` caps the deals of a decision that
    ``root`` solves (see the module doc); None takes the game's ``batch_tuning`` for a
    tuned bot (``bsearch``), else 0. ``wide`` is how many actions a decision before card
    play values (the bridge); ``stakes=1`` values them by the seat's score margin (in the
    game card's ``margin_scale``) instead of its win chance, for games where the roles'
    stakes differ.

    The evaluation's ``detail`` gives every action its ``deals``, ``playouts`` and
    ``samples`` (the deals, as hints count them: :func:`folkcards.bots.explain_hint`) and,
    with ``keep``, its paired ``gain`` over the heuristic's choice (marked ``heuristic``)
    with that gain's standard error ``se``.
    """

    name = "bpimc"

    def __init__(
        self,
        worlds: int = 48,
        k: int = 1,
        ms: float | None = None,
        policy: str = "fast",
        keep: float | None = None,
        only: str | None = "play",
        infer: float | None = None,
        pool: int | None = None,
        noise: int = 0,
        leaf: int | None = None,
        root: int | None = None,
        hidden: int | None = None,
        read: float | None = None,
        wide: int = 6,
        stakes: int = 0,
        solved: int | None = None,
        bids: int = 1,
        name: str | None = None,
    ) -> None:
        if wide < 1:
            raise ValueError("wide must be at least 1")
        if stakes not in (0, 1):
            raise ValueError("stakes is 0 (win chance) or 1 (score margin)")
        self.wide = wide
        self.stakes = stakes
        if not 0 <= noise <= 100:
            raise ValueError("noise is a percentage (0 to 100)")
        self.noise = noise
        if worlds < 1 or k < 1:
            raise ValueError("worlds and k must be at least 1")
        for one in policy.split("+"):
            if one not in BATCH_POLICIES:
                valid = ", ".join(BATCH_POLICIES)
                raise ValueError(
                    f"unknown batch policy {one!r} (valid: {valid}, or two joined by +)"
                )
        if keep is not None and keep < 0:
            raise ValueError("keep must be at least 0")
        if infer is not None and not 0 < infer <= 1:
            raise ValueError("infer must be in (0, 1]")
        if pool is not None and pool < 1:
            raise ValueError("pool must be at least 1")
        if read is not None and not 0 < read <= 1:
            raise ValueError("read must be in (0, 1]")
        if bids not in (0, 1):
            raise ValueError("bids is 1 (read the decisions before card play too) or 0")
        self.read = read
        self.bids = bool(bids)
        if (leaf is not None and leaf < 0) or (root is not None and root < 0):
            raise ValueError("leaf and root count tricks: at least 0")
        if solved is not None and solved < 1:
            raise ValueError("solved counts deals: at least 1")
        self.leaf = leaf
        self.root = root
        self.solved = solved
        self.hidden = hidden
        self.worlds = worlds
        self.k = k
        self.ms = ms
        self.policy = policy
        self.keep = keep
        self.only = frozenset(only.split("+")) if only else None
        self.infer = infer
        self.pool = pool
        self.tuned: frozenset[str] = frozenset()
        if name is not None:
            self.name = name

    def settings(self, game: str) -> tuple[float | None, float | None, int, int, str]:
        """``keep``, ``infer``, ``pool``, ``worlds``, ``policy``: the bot's own or, for the
        options in ``tuned``, the game's ``BATCH_TUNING`` (:func:`batch_tuning`)."""
        own = self._own(game)
        pool = own["pool"]
        return (
            own["keep"],
            own["infer"],
            int(pool) if pool else 1,
            int(own["worlds"] or 1),
            str(own["policy"]),
        )

    def _own(self, game: str) -> dict[str, Any]:
        """The bot's options, those in ``tuned`` replaced by the game's tuning."""
        own: dict[str, Any] = {
            "keep": self.keep,
            "infer": self.infer,
            "pool": self.pool,
            "worlds": self.worlds,
            "policy": self.policy,
            "read": self.read,
        }
        if self.tuned:
            tuning = batch_tuning(game)
            own.update((k, tuning[k]) for k in self.tuned & tuning.keys())
        return own

    def phases(self, game: str) -> frozenset[str] | None:
        """``only``: the phases searched (None: all), the bot's own or, when tuned, the
        game's ``batch_tuning``."""
        if "only" in self.tuned:
            only = batch_tuning(game).get("only")
            if only is not None:
                return frozenset(str(only).split("+")) if only else None
        return self.only

    def searches(self, obs: Observation) -> bool:
        """True when this bot searches the phase of ``obs`` (:meth:`phases`; the heuristic
        decides the others), as :meth:`PIMCBot.searches <folkcards.bots.search.PIMCBot.searches>`."""
        phases = self.phases(obs.game)
        return phases is None or obs.phase in phases

    def reading(self, game: str) -> float | None:
        """``read``: the bot's own or, when tuned, the game's ``batch_tuning``."""
        read = self._own(game)["read"]
        return None if read is None else float(read)

    def _setting(self, game: str, key: str) -> int:
        """An endgame option (``leaf``, ``root``, ``solved``, ``hidden``): the bot's own or,
        where it has none and is tuned (``bsearch``), the game's ``batch_tuning``; else 0."""
        own = getattr(self, key)
        if own is not None:
            return int(own)
        return int(batch_tuning(game).get(key, 0)) if self.tuned else 0

    def endgame(self, game: str) -> tuple[int, int]:
        """``leaf`` and ``root`` (:meth:`_setting`): 0 for no solver."""
        return self._setting(game, "leaf"), self._setting(game, "root")

    def _playout(
        self,
        kernel: Any,
        base: Any,
        rows: Any,
        forced: Any,
        policy: str,
        stop: int,
        game: str,
        seed: int,
    ) -> Any:
        """One batch of ``base[rows]`` played out (``forced`` first), ended in the
        kernel's solver when ``stop``."""
        import numpy as np

        a = kernel.build(base, rows, forced, seed=seed)
        hidden = self._setting(game, "hidden")
        if hidden:
            a["hidden"] = np.full(len(rows), hidden, np.int64)
        kernel.play(a, policy, self.noise, stop=stop)
        if stop:
            kernel.solve(a)
        return a

    def _stop(self, kernel: Any, game: str, world: DealState) -> int:
        """Where the playouts stop for the kernel's endgame solver: with ``root`` R, right
        after the valued action when at most R tricks are left; else with ``leaf`` L when
        L tricks are left; 0 (play to the end) without a solver for the deal."""
        if self._rooted(kernel, game, world):
            return int(kernel.tricks_left(world))
        leaf = self._setting(game, "leaf")
        return leaf if leaf and kernel.solver and kernel.solvable(world) else 0

    def _rooted(self, kernel: Any, game: str, world: DealState) -> bool:
        """True when the decision is valued by solving each deal right after the action
        (``root``: at most that many tricks left)."""
        root = self._setting(game, "root")
        return bool(root and kernel.solver and kernel.solvable(world)
                    and kernel.tricks_left(world) <= root)  # fmt: skip

    def _scalar(self, obs: Observation, rng: random.Random, policy: str) -> Evaluation:
        """The same search on the scalar engine (for what the batch does not cover)."""
        iters = max(2 * len(obs.legal), self.worlds * self.k * len(obs.legal))
        bot = PIMCBot(
            iterations=min(iters, 400),
            ms=self.ms,
            policy=next((p for p in policy.split("+") if p in ("random", "heuristic")), "fast"),
            keep=self.keep,
            only=None,
            infer=self.infer,
            pool=self.pool,
        )
        bot.tuned = self.tuned
        return bot.evaluate(obs, rng)

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """Mean utility of each legal action over the sampled deals (batched playouts)."""
        if not self.searches(obs):
            return heuristic_evaluation(obs, rng)
        kernel: Any = kernel_for(obs.game)
        keep, infer, pool, budget, policy = self.settings(obs.game)
        if kernel is None or any(p not in kernel.policies for p in policy.split("+")):
            return self._scalar(obs, rng, policy)
        import numpy as np

        start = time.perf_counter()
        game = game_of(obs)
        worlds: list[DealState] = []
        weights: list[float] = []
        hands: Any = None  # the hands of the deals drawn alone: rows of hands_of
        limit = None if self.ms is None else start + self.ms / 2000.0
        read = self.reading(obs.game)
        reads = read is not None and infer is None and hasattr(kernel, "likelihoods")
        wanted = budget * pool if reads else budget
        bridged = False
        while len(worlds) < wanted and (limit is None or not worlds or time.perf_counter() < limit):
            try:
                if infer is None:
                    world, weight = sample(game, obs, rng), 1.0
                else:
                    world, weight = resample(game, obs, rng, infer, pool)
            except NoSample as exc:
                if not worlds:
                    return fallback(obs, rng, str(exc))
                break
            if not worlds and not kernel.accepts(world):
                # before card play: the bridge plays the heuristic up to it; the pool is
                # read only where the kernel reads the bids made so far
                bridged = True
                reads = reads and self.bids == 1 and kernel.reads_before_play(world)
                wanted = budget * pool if reads else budget
            elif (
                not worlds
                and (cap := self._setting(obs.game, "solved"))
                and self._rooted(kernel, obs.game, world)
            ):  # each deal solved to the end costs far more than a playout
                wanted = min(wanted, cap * (pool if reads else 1))
            worlds.append(world)
            weights.append(weight)
            if len(worlds) == 1 and infer is None and not bridged and kernel.draws_hands:
                hands = kernel.deal_hands(world, obs.seat, rng, wanted)
                if hands is None:
                    hands = self._draw_hands(game, obs, rng, kernel.hands_of(world), wanted, limit)
                if hands is not None:
                    break
        if bridged:
            if reads:
                picked, weights = self._read(
                    rng, kernel.likelihoods(worlds, obs.seat, read, True), pool
                )
                worlds = [worlds[i] for i in picked]
            return self._bridge(obs, rng, kernel, worlds, weights, keep, start, policy)
        codes = [kernel.action_code(worlds[0], a) for a in obs.legal]
        if min(codes) < 0:
            return self._scalar(obs, rng, policy)
        if hands is not None:  # the hands of the deals drawn alone (draws_hands)
            rows = np.array(hands, np.uint64)
            weights = [1.0] * len(rows)
            if reads:
                w = kernel.likelihoods_hands(worlds[0], rows, obs.seat, read, self.bids)
                picked, weights = self._read(rng, w, pool)
                rows = rows[picked]
            base = kernel.encode_hands(worlds[0], rows)
        else:
            if reads:
                w = kernel.likelihoods(worlds, obs.seat, read, self.bids)
                picked, weights = self._read(rng, w, pool)
                worlds = [worlds[i] for i in picked]
            base = kernel.encode(worlds)
        unique = sorted(set(codes))
        return self._search(
            obs, rng, kernel, worlds[0], base, weights, codes, unique, keep, start, policy
        )

    @staticmethod
    def _draw_hands(
        game: Any,
        obs: Observation,
        rng: random.Random,
        first: list[int],
        wanted: int,
        limit: float | None,
    ) -> list[list[int]] | None:
        """The hands now of ``wanted`` deals, ``first`` (a whole deal's,
        ``GameKernel.hands_of``) and then drawn alone by the game
        (``Game.determinize_hands``: the same deals as ``determinize`` draws, without
        building each, which is most of a decision's cost), within the sampling ``limit``;
        None when the game does not draw hands alone. In card play the kernel needs nothing
        else of a sampled deal (``GameKernel.encode_hands``)."""
        hands: list[list[int]] = [first]
        while len(hands) < wanted and (limit is None or time.perf_counter() < limit):
            try:
                one = game.determinize_hands(obs, rng)
            except FolkcardsError:  # as sample() gives up: the deals drawn so far
                break
            if one is None:
                return None
            hands.append(one)
        return hands

    def _candidates(self, obs: Observation, rng: random.Random) -> list[Action]:
        """The actions a bridged decision values: the heuristic's choice first, then its
        next best up to ``wide`` in all (an auction's dozens of bids are not worth a
        playout each; the heuristic's ranking says which are)."""
        base = quick_choice(obs, rng)
        kit = find_kit(obs.game)
        scores = kit.scores(obs) if kit is not None else {}  # none: the legal order
        rest = sorted((a for a in obs.legal if a != base), key=lambda a: -scores.get(a, 0.0))
        return [base, *rest][: self.wide]

    def _bridge(
        self,
        obs: Observation,
        rng: random.Random,
        kernel: Any,
        worlds: list[DealState],
        weights: list[float],
        keep: float | None,
        start: float,
        policy: str,
    ) -> Evaluation:
        """A decision before card play (a bid, a pick, a bury, a trump): each candidate
        action is applied to each sampled deal, every seat's decisions up to the card play
        are the heuristic's (as the playouts' are after it), and the batch plays the
        cards. Deals that end before card play (everyone passed) are valued as they end."""
        import numpy as np

        cands = self._candidates(obs, rng)
        scale = worlds[0].game.card(worlds[0].variant).margin_scale
        c = len(cands)
        values = np.zeros((len(worlds), c))
        groups: dict[tuple[int, bool], list[tuple[int, int, DealState]]] = {}
        # with a time budget, the scalar steps up to the card play may use most of it:
        # the deals bridged by then are the deals searched
        deadline = None if self.ms is None else start + 0.75 * self.ms / 1000.0
        for i, world in enumerate(worlds):
            if deadline is not None and i and time.perf_counter() > deadline:
                weights, values = weights[:i], values[:i]
                break
            for j, action in enumerate(cands):
                st = world.clone()
                st.apply(action)
                while not st.is_over and not kernel.accepts(st):
                    st.apply(heuristic_policy(st, rng))
                if st.is_over:
                    result = st.result()
                    if self.stakes:
                        side = seat_sides(st.game, st.variant)
                        m = margins(result["score"], st.num_seats, side)
                        values[i, j] = m[obs.seat] / scale
                    else:
                        u = utilities(st.game, result, st.num_seats, st.variant)
                        values[i, j] = u[obs.seat]
                    continue
                key = (kernel.num_sides(st), bool(kernel.solver and kernel.solvable(st)))
                groups.setdefault(key, []).append((i, j, st))
        leaf, _ = self.endgame(obs.game)
        runs = max(1, self.k)
        policies = policy.split("+")
        for (sides, solvable), items in groups.items():
            base = kernel.encode([st for _, _, st in items])
            rows = np.arange(len(items))
            sums = np.zeros(len(items))
            stop = leaf if solvable else 0
            for _ in range(runs):
                for one in policies:
                    a = self._playout(
                        kernel, base, rows, None, one, stop, obs.game, rng.getrandbits(62)
                    )
                    if self.stakes:
                        sums += kernel.margins(a, obs.num_seats, sides)[:, obs.seat] / scale
                    else:
                        sums += kernel.utilities(a, obs.num_seats, sides)[:, obs.seat]
            for (i, j, _), total in zip(items, sums / (runs * len(policies)), strict=True):
                values[i, j] = total
        return self._choose(
            obs,
            rng,
            values,
            np.array(weights),
            cands,
            list(range(c)),
            cands[0],
            keep,
            runs,
            "margin" if self.stakes else "win",
        )

    @staticmethod
    def _read(rng: random.Random, likelihoods: Any, pool: int) -> tuple[list[int], list[float]]:
        """Inference from the card play, in the kernel: the sampled deals weighted by the
        ``likelihoods`` the kernel gave them (``kernel.likelihoods``: ``read`` per card of
        another seat that the heuristic would not have played with that deal's hands, and
        with ``bids`` per decision before card play it would not have made); with ``pool``
        P, one deal in P is kept, drawn in proportion to those weights (sampling importance
        resampling), and the kept deals count alike. The deals kept (their indices) and
        their weights."""
        w = [float(x) for x in likelihoods]
        if pool <= 1:
            return list(range(len(w))), w
        k = max(1, len(w) // pool)
        return rng.choices(range(len(w)), weights=w, k=k), [1.0] * k

    def _search(
        self,
        obs: Observation,
        rng: random.Random,
        kernel: Any,
        template: DealState,
        base: Any,
        weights: list[float],
        codes: list[int],
        unique: list[int],
        keep: float | None,
        start: float,
        policy: str,
    ) -> Evaluation:
        """Every encoded deal of ``base`` (one sampled from ``obs``: ``template``) played
        out after each action code of ``unique``; the paired values to :meth:`_choose`."""
        import numpy as np

        d, u = len(weights), len(unique)
        rows = np.repeat(np.arange(d), u)
        forced = np.tile(np.array(unique, np.int64), d)[:, None]
        sums = np.zeros((d, u))
        runs = 0
        stop = self._stop(kernel, obs.game, template)
        deadline = None if self.ms is None else start + self.ms / 1000.0
        policies = policy.split("+")
        while runs < self.k * len(policies) or (
            deadline is not None and time.perf_counter() < deadline
        ):
            for one in policies:  # a mix plays every deal out with each policy
                a = self._playout(kernel, base, rows, forced, one, stop, obs.game,
                                  rng.getrandbits(62))  # fmt: skip
                utils = kernel.utilities(a, obs.num_seats, kernel.num_sides(template))
                sums += utils[:, obs.seat].reshape(d, u)
                runs += 1
            if deadline is not None and (
                runs >= 64 or (policy != "random" and not self.noise and runs >= 4)
            ):
                break
        col = {code: i for i, code in enumerate(unique)}
        cols = [col[code] for code in codes]
        return self._choose(
            obs,
            rng,
            sums / runs,
            np.array(weights),
            list(obs.legal),
            cols,
            None,
            keep,
            runs,
            "win",
        )

    def _choose(
        self,
        obs: Observation,
        rng: random.Random,
        values: Any,
        w: Any,
        actions: list[Action],
        cols: list[int],
        base: Action | None,
        keep: float | None,
        runs: int,
        scale: str,
    ) -> Evaluation:
        """The evaluation of ``actions`` from ``values[deal, cols[i]]`` (each deal weighted
        by ``w``): the best weighted mean or, with ``keep``, the heuristic's choice ``base``
        (asked of the heuristic when None) unless another action's paired gain is clear."""
        mean = (w[:, None] * values).sum(axis=0) / w.sum()
        out = {a: float(mean[col]) for a, col in zip(actions, cols, strict=True)}
        d = len(values)
        detail: dict[str, dict[str, float]] = {
            a.text: {"deals": float(d), "playouts": float(d * runs), "samples": d} for a in actions
        }
        choice = argmax(out, rng)
        if keep is not None:
            anchor = quick_choice(obs, rng) if base is None else base
            choice = self._keep(keep, values, w, actions, cols, anchor, detail)
        return Evaluation(choice, {a.text: v for a, v in out.items()}, scale, detail)

    @staticmethod
    def _keep(
        keep: float,
        values: Any,
        w: Any,
        actions: list[Action],
        cols: list[int],
        base: Action,
        detail: dict[str, dict[str, float]],
    ) -> Action:
        """The heuristic's choice ``base`` unless another action's paired gain over it
        exceeds ``keep`` standard errors (weighted: Kish's effective sample size);
        ``values[:, cols[i]]`` holds ``actions[i]``'s value on each deal."""
        ref = values[:, cols[actions.index(base)]]
        total = float(w.sum())
        ess = total * total / float((w * w).sum())
        choice, best = base, 0.0
        for a, col in zip(actions, cols, strict=True):
            diffs = values[:, col] - ref
            gain = float((w * diffs).sum()) / total
            spread = float((w * (diffs - gain) ** 2).sum()) / total
            detail[a.text]["gain"] = round(gain, 4)
            if a == base or ess <= 1:
                continue
            se = math.sqrt(spread / (ess - 1))
            detail[a.text]["se"] = round(se, 4)
            if gain > best and gain > keep * se:
                choice, best = a, gain
        detail[base.text]["heuristic"] = 1.0
        return choice
