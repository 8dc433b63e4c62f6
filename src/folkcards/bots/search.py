"""Search bots over determinizations: PIMC (flat Monte Carlo) and IS-MCTS.

Both see only the seat's observation: each iteration samples one full deal consistent
with it through ``Game.determinize(obs, rng)`` — the game module's sampler, which
applies what play revealed (voids, exchanged and passed cards, the blind a picker saw) —
and plays it out. The budget is a number of playouts (``iterations``; reproducible with
a seeded RNG) or a time limit (``ms``; not reproducible, since it depends on the
machine). Playouts follow the ``random`` policy, the game's ``fast`` rollout policy (its
bot kit's ``rollout``, reading only action texts; random where there is none), or the
full ``heuristic`` (slow: it builds an observation per step).

* :class:`PIMCBot` — Perfect-Information Monte Carlo: for each sampled deal, every legal
  action is tried and played out; values are mean utilities over the samples. Two
  refinements: *double-dummy leaves* (``dd``, on by default) — a playout stops where the
  game's bot kit can solve the rest with open hands (:func:`leaf_for`; Sasku's last
  three tricks); and *inference from play* (``infer``) — each sampled deal is
  weighted down for every decision of another seat that the heuristic would not have
  made in it (:func:`likelihood`), so deals that explain the bids and cards seen count
  more.
* :class:`ISMCTSBot` — Single-Observer Information-Set MCTS (Cowling, Powley & Whitehouse
  2012): one tree over the actions seen from this seat, a new determinization per
  iteration, UCB with availability counts for every seat's decisions, each seat's nodes
  scored with that seat's utility.

docs/bots.md has the measurement of which one is stronger at equal budget.

The ``heuristic`` bot (:class:`HeuristicBot`) is here too, since the two lean on each
other: it plays its game kit's choice, and for a game without a kit it is a small PIMC
search; the search bots leave the phases they do not search to it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from folkcards.bots.base import Bot, Evaluation, argmax, game_of, make_evaluation, utilities
from folkcards.bots.kits import LeafSolver, find_kit
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, FolkcardsError, Game, Observation

Policy = Callable[[DealState, random.Random], Action]


def random_policy(state: DealState, rng: random.Random) -> Action:
    """A uniformly random legal action of the seat to act (fast playouts)."""
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def heuristic_policy(state: DealState, rng: random.Random) -> Action:
    """The heuristic's playout choice for the seat to act, from that seat's observation,
    by the game kit's playout scorer (:func:`quick_choice`)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_act
    assert seat is not None
    return quick_choice(state.observation(seat), rng, playout=True)


def fast_policy(state: DealState, rng: random.Random) -> Action:
    """The game's fast playout policy (its kit's ``rollout(legal, rng)``, which reads only
    the action texts), or a random action for a game without one."""
    legal = state.legal_actions()
    kit = find_kit(state.game.name)
    if kit is None or kit.rollout is None:
        return legal[rng.randrange(len(legal))]
    return kit.rollout(legal, rng)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "fast": fast_policy,
    "heuristic": heuristic_policy,
}


def leaf_for(game: str) -> LeafSolver | None:
    """The game's exact endgame valuation for playouts (its kit's ``leaf_solver``: every
    seat's utility once the deal is small enough to solve, else None), or None for a game
    without one."""
    kit = find_kit(game)
    return None if kit is None else kit.leaf_solver


def search_tuning(game: str) -> dict[str, float]:
    """The game's own settings for ``search`` (its kit's ``search_tuning``, e.g.
    ``{"keep": 0.5, "infer": 0.25}``: measured for that game), or {}."""
    kit = find_kit(game)
    return {} if kit is None else dict(kit.search_tuning)


def playout(
    state: DealState, rng: random.Random, policy: Policy, leaf: LeafSolver | None = None
) -> list[float]:
    """Play ``state`` (a determinized copy) to its end, or until ``leaf`` values it;
    every seat's utility."""
    while not state.is_over:
        if leaf is not None:
            values = leaf(state)
            if values is not None:
                return values
        state.apply(policy(state, rng))
    return utilities(state.game, state.result(), state.num_seats, state.variant)


class NoSample(Exception):
    """The game's determinizer found no deal consistent with the observation."""


def sample(game: Game, obs: Observation, rng: random.Random, tries: int = 3) -> DealState:
    """``game.determinize(obs, rng)``, retried a few times; NoSample if it keeps failing."""
    error: FolkcardsError | None = None
    for _ in range(tries):
        try:
            return game.determinize(obs, rng)
        except FolkcardsError as exc:
            error = exc
    raise NoSample(str(error))


def likelihood(world: DealState, seat: int, miss: float) -> float:
    """How well the heuristic explains the other seats' decisions in ``world``: the
    deal is replayed from its start, and each decision of another seat that the heuristic
    would not have made (:meth:`BotKit.explains <folkcards.bots.kits.BotKit.explains>`)
    multiplies the weight by ``miss``. A sampled deal in which the rivals' bids, passes and
    cards are what the heuristic plays with those hands is the likelier one: this is
    inference from play beyond the hard facts the determinizer already applies (voids,
    bid lengths). A game without a kit has no heuristic to explain anything: weight 1."""
    kit = find_kit(world.game.name)
    fresh = world.game.deal_from_record(world.setup_record(), world.variant)
    weight = 1.0
    for action, actor in zip(world.history, world.actors, strict=True):
        if (
            kit is not None
            and actor != seat
            and len(fresh.legal_actions()) > 1
            and kit.explains(fresh.observation(actor), action) is False
        ):
            weight *= miss
        fresh.apply(action)
    return weight


def resample(
    game: Game, obs: Observation, rng: random.Random, miss: float, pool: int
) -> tuple[DealState, float]:
    """One deal for the playouts and its weight, by sampling importance resampling: ``pool``
    deals are sampled and weighted by :func:`likelihood`; one is drawn in proportion to its
    weight and carries the pool's mean weight (so weighted means over such draws estimate
    the same expectations as plain importance weights, Rubin 1988). With ``pool=1`` this is
    plain weighting; a larger pool spends the dear playouts on the deals that explain the
    play, where most sampled deals explain it badly (their weights ∝ ``miss`` per stray
    decision)."""
    worlds = [sample(game, obs, rng) for _ in range(pool)]
    weights = [likelihood(w, obs.seat, miss) for w in worlds]
    total = sum(weights)
    if pool == 1:
        return worlds[0], total
    return rng.choices(worlds, weights)[0], total / pool


def fallback(obs: Observation, rng: random.Random, reason: str) -> Evaluation:
    """The heuristic's evaluation, for a position the search could not sample."""
    kit = find_kit(obs.game)
    if kit is None:  # no heuristic either: a uniform choice
        choice = obs.legal[rng.randrange(len(obs.legal))]
        values = {a.text: 1.0 / len(obs.legal) for a in obs.legal}
        return Evaluation(choice, values, "uniform", {"fallback": reason})
    ev = make_evaluation(kit.scores(obs), rng, "heuristic")
    return Evaluation(ev.choice, ev.values, ev.scale, {"fallback": reason})


FALLBACK_PLAYOUTS = 4
"""For a game without a bot kit, the heuristic is a PIMC search of this many random
playouts per legal action."""


def heuristic_evaluation(
    obs: Observation, rng: random.Random, fallback_playouts: int = FALLBACK_PLAYOUTS
) -> Evaluation:
    """The heuristic's evaluation (its game kit's scores), for the ``heuristic`` bot and
    the phases a search bot leaves to it; for a game without a kit, a small PIMC search
    (``fallback_playouts`` random playouts per legal action over determinizations), which
    is still far better than random and uses the same observation."""
    kit = find_kit(obs.game)
    if kit is None:
        return PIMCBot(iterations=fallback_playouts * len(obs.legal)).evaluate(obs, rng)
    return make_evaluation(kit.scores(obs), rng, "heuristic")


def quick_choice(obs: Observation, rng: random.Random, playout: bool = False) -> Action:
    """The heuristic's choice without the fallback search (random for a game without a
    kit), by its kit's ``evaluate`` or, for the playouts of the search bots, by the
    cheaper ``playout_evaluate``."""
    kit = find_kit(obs.game)
    if kit is None:
        return obs.legal[rng.randrange(len(obs.legal))]
    return kit.choice(obs, rng, playout)


def heuristic_prior(obs: Observation) -> dict[Action, float]:
    """The heuristic's ranking of the legal actions as a prior in [0, 1] (1 = its choice,
    0 = its last), or {} when the game has no heuristic."""
    kit = find_kit(obs.game)
    if kit is None:
        return {}
    scores = kit.scores(obs)
    values = sorted(set(scores.values()))
    if len(values) < 2:
        return dict.fromkeys(obs.legal, 1.0)
    rank = {v: i / (len(values) - 1) for i, v in enumerate(values)}
    return {a: rank[scores[a]] for a in obs.legal}


class HeuristicBot(Bot):
    """The ``heuristic`` bot: plays the best action of its game kit's ``evaluate``; for a
    game without a kit, a small PIMC search (:func:`heuristic_evaluation`)."""

    name = "heuristic"

    def __init__(self, fallback_playouts: int = FALLBACK_PLAYOUTS) -> None:
        self.fallback_playouts = fallback_playouts

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """The kit's scores (or the fallback search's values)."""
        return heuristic_evaluation(obs, rng, self.fallback_playouts)

    def quick_choice(self, obs: Observation, rng: random.Random, playout: bool = False) -> Action:
        """The heuristic's choice without the fallback search (:func:`quick_choice`)."""
        return quick_choice(obs, rng, playout)


class SearchBot(Bot):
    """Common budget handling of the search bots. When the game's determinizer cannot
    sample the position, the bot plays the heuristic's choice instead (and says so in
    the evaluation's ``detail``) rather than failing the game."""

    def __init__(
        self,
        iterations: int = 200,
        ms: float | None = None,
        policy: str = "random",
        name: str | None = None,
        prior: float = 0.0,
        only: str | None = None,
        keep: float | None = None,
        dd: bool = True,
        infer: float | None = None,
        pool: int | None = None,
    ) -> None:
        if prior < 0:
            raise ValueError("prior must be at least 0")
        if keep is not None and keep < 0:
            raise ValueError("keep must be at least 0")
        if infer is not None and not 0 < infer <= 1:
            raise ValueError("infer must be in (0, 1]")
        if pool is not None and pool < 1:
            raise ValueError("pool must be at least 1")
        self.prior = prior
        self.pool = pool
        self.keep = keep
        self.dd = dd
        self.infer = infer
        self.only = frozenset(only.split("+")) if only else None
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r} (valid: {', '.join(POLICIES)})")
        self.iterations = iterations
        self.ms = ms
        self.policy_name = policy
        self.policy = POLICIES[policy]
        if name is not None:
            self.name = name

    tuned: frozenset[str] = frozenset()
    """The options that each game's own tuning may set (``search`` sets those its spec
    leaves out; ``pimc`` and ``ismcts`` take their spec as it is)."""

    def settings(self, game: str) -> tuple[float | None, float | None, int]:
        """``keep``, ``infer`` and ``pool`` for ``game``: the bot's own, or the game's
        tuning (its kit's ``search_tuning``) for the options in :attr:`tuned`."""
        own: dict[str, float | None] = {"keep": self.keep, "infer": self.infer, "pool": self.pool}
        if self.tuned:
            tuning = search_tuning(game)
            own.update((k, tuning[k]) for k in self.tuned & tuning.keys())
        pool = own["pool"]
        return own["keep"], own["infer"], int(pool) if pool else 1

    def leaf(self, game: str) -> LeafSolver | None:
        """The exact endgame valuation that ends this bot's playouts (``dd``: the game's
        double-dummy leaf, where its kit has one), or None."""
        return leaf_for(game) if self.dd else None

    def searches(self, obs: Observation) -> bool:
        """True when this bot searches the phase of ``obs`` (``only`` names the phases it
        searches; the heuristic decides the others)."""
        return self.only is None or obs.phase in self.only

    def _budget(self) -> Callable[[int], bool]:
        """A test ``more(done)``: True while playouts may go on."""
        if self.ms is None:
            limit = self.iterations
            return lambda done: done < limit
        deadline = time.perf_counter() + self.ms / 1000.0
        return lambda done: done == 0 or time.perf_counter() < deadline


CONTENDERS = 3
"""With ``keep``: how many actions besides the heuristic's choice stay in the search
after its first half."""


class PIMCBot(SearchBot):
    """Perfect-Information Monte Carlo over determinizations (flat: no tree).

    Every sampled deal is played out once after each legal action, so the actions are
    compared on the same deals (paired samples: the luck of the sample cancels in their
    differences). With ``keep=z`` the bot is a *rollout improvement* of the heuristic
    (Tesauro & Galperin 1996): it plays the heuristic's choice unless another action's
    paired mean gain over it exceeds ``z`` standard errors — so noise in a small budget
    cannot make it play worse than the heuristic, only real differences move it. Halfway
    through an iteration budget it drops all but the best :data:`CONTENDERS` actions (and
    the heuristic's choice), so the second half sharpens the comparisons that matter.
    """

    name = "pimc"

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """Mean utility of each legal action over sampled deals; the best is chosen."""
        if not self.searches(obs):
            return heuristic_evaluation(obs, rng)
        game = game_of(obs)
        legal = obs.legal
        seat = obs.seat
        samples: dict[Action, list[float]] = {a: [] for a in legal}
        keep, infer, pool = self.settings(obs.game)
        base = quick_choice(obs, rng) if keep is not None else None
        active = list(legal)
        prune_after = max(4 * len(legal), self.iterations // 2) if self.ms is None else None
        more = self._budget()
        leaf = self.leaf(obs.game)
        weights: list[float] = []  # per sampled deal (all 1 without ``infer``)
        done = 0
        while more(done):
            try:
                if infer is None:
                    world, weight = sample(game, obs, rng), 1.0
                else:
                    world, weight = resample(game, obs, rng, infer, pool)
            except NoSample as exc:
                if done == 0:
                    return fallback(obs, rng, str(exc))
                break
            weights.append(weight)
            for i, action in enumerate(active):
                state = world if i == len(active) - 1 else world.clone()
                state.apply(action)
                samples[action].append(playout(state, rng, self.policy, leaf)[seat])
                done += 1
            if (
                base is not None
                and len(active) > CONTENDERS + 1
                and (prune_after is None or done >= prune_after)
            ):
                active = self._contenders(base, active, samples, weights)
        counts = {a: len(samples[a]) for a in legal}
        values = {a: _mean(samples[a], weights) for a in legal}
        detail: dict[str, dict[str, float]] = {a.text: {"samples": counts[a]} for a in legal}
        if base is not None:
            assert keep is not None
            return self._keep_heuristic(obs, base, keep, samples, weights, values, detail)
        if self.prior:
            prior = heuristic_prior(obs)
            for a in legal:
                detail[a.text]["mean"] = round(values[a], 4)
                values[a] += self.prior * prior.get(a, 0.0) / math.sqrt(1.0 + counts[a] / 10.0)
        return Evaluation(
            argmax(values, rng), {a.text: v for a, v in values.items()}, "win", detail
        )

    @staticmethod
    def _contenders(
        base: Action,
        active: list[Action],
        samples: dict[Action, list[float]],
        weights: list[float],
    ) -> list[Action]:
        """Halfway through the budget: the heuristic's choice and the CONTENDERS actions
        of best mean so far; the rest of the budget sharpens only their comparison."""
        ranked = sorted((a for a in active if a != base), key=lambda a: -_mean(samples[a], weights))
        keep = set(ranked[:CONTENDERS]) | {base}
        return [a for a in active if a in keep]

    def _keep_heuristic(
        self,
        obs: Observation,
        base: Action,
        keep: float,
        samples: dict[Action, list[float]],
        weights: list[float],
        values: dict[Action, float],
        detail: dict[str, dict[str, float]],
    ) -> Evaluation:
        """The heuristic's choice, or the action whose paired gain over it is significant
        (paired over the deals both were played out on). The values are put on one
        footing: the heuristic choice's mean plus each action's paired gain (plain means
        would compare actions over different deals once some were dropped). With
        ``infer`` the deals are weighted and the standard error is that of a weighted
        mean (Kish's effective sample size)."""
        ref = samples[base]
        base_mean = values[base]
        choice, best_gain = base, 0.0
        for a in obs.legal:
            n = min(len(samples[a]), len(ref))
            if a == base or n < 2:
                continue
            w = weights[:n]
            total = sum(w)
            diffs = [x - y for x, y in zip(samples[a][:n], ref[:n], strict=True)]
            mean = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
            spread = sum(wi * (d - mean) ** 2 for wi, d in zip(w, diffs, strict=True)) / total
            ess = total * total / sum(wi * wi for wi in w)
            detail[a.text]["gain"] = round(mean, 4)
            values[a] = base_mean + mean
            if ess > 1 and mean > best_gain and mean > keep * math.sqrt(spread / (ess - 1)):
                choice, best_gain = a, mean
        detail[base.text]["heuristic"] = 1.0
        return Evaluation(choice, {a.text: v for a, v in values.items()}, "win", detail)


def _mean(values: list[float], weights: list[float]) -> float:
    """The mean of ``values`` weighted by the first ``len(values)`` weights (0 if none)."""
    if not values:
        return 0.0
    w = weights[: len(values)]
    return sum(wi * v for wi, v in zip(w, values, strict=True)) / sum(w)


class _Node:
    """A node of the IS-MCTS tree: reached by an action of ``actor``. Children are keyed
    by ``action * 8 + actor`` (who acts at a history can depend on hidden cards)."""

    __slots__ = ("actor", "avail", "children", "reward", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSBot(SearchBot):
    """Single-Observer Information-Set Monte Carlo Tree Search."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 200,
        ms: float | None = None,
        policy: str = "random",
        exploration: float = 0.7,
        name: str | None = None,
        prior: float = 0.0,
        only: str | None = None,
        keep: float | None = None,
        dd: bool = True,
        infer: float | None = None,
        pool: int | None = None,
    ) -> None:
        for option, value in (("keep", keep), ("infer", infer), ("pool", pool)):
            if value is not None:
                raise ValueError(f"{option} is an option of pimc (flat search), not of IS-MCTS")
        super().__init__(iterations, ms, policy, name, prior, only, dd=dd)
        self.exploration = exploration

    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """Visits and mean utility of each root action after the search; the most visited
        action is chosen."""
        if not self.searches(obs):
            return heuristic_evaluation(obs, rng)
        game = game_of(obs)
        root = _Node(obs.seat)
        more = self._budget()
        done = 0
        c = self.exploration
        policy = self.policy
        leaf = self.leaf(obs.game)
        prior = heuristic_prior(obs) if self.prior else {}
        bias = {a * 8 + obs.seat: self.prior * p for a, p in prior.items()}
        while more(done):
            try:
                state = sample(game, obs, rng)
            except NoSample as exc:
                if done == 0:
                    return fallback(obs, rng, str(exc))
                break
            node = root
            path = [root]
            while not state.is_over:
                legal = state.legal_actions()
                actor = state.to_act
                assert actor is not None
                children = node.children
                untried = []
                for a in legal:
                    child = children.get(a * 8 + actor)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = _Node(actor)
                    child.avail = 1
                    children[action * 8 + actor] = child
                    state.apply(action)
                    path.append(child)
                    break
                best = -1.0
                action = legal[0]
                for a in legal:
                    kid = children[a * 8 + actor]
                    score = kid.reward / kid.visits + c * math.sqrt(
                        math.log(kid.avail) / kid.visits
                    )
                    if node is root and bias:  # progressive bias toward the heuristic
                        score += bias.get(a * 8 + actor, 0.0) / kid.visits
                    if score > best:
                        best, action = score, a
                node = children[action * 8 + actor]
                state.apply(action)
                path.append(node)
            result = playout(state, rng, policy, leaf)
            for n in path[1:]:
                n.visits += 1
                n.reward += result[n.actor]
            done += 1
        values: dict[Action, float] = {}
        visits: dict[Action, int] = {}
        for a in obs.legal:
            ch: _Node | None = root.children.get(a * 8 + obs.seat)
            visits[a] = ch.visits if ch else 0
            values[a] = ch.reward / ch.visits if ch and ch.visits else 0.0
        most = max(visits.values())
        top = {a: values[a] for a in obs.legal if visits[a] == most}
        choice = argmax(top, rng)
        detail = {a.text: {"visits": visits[a]} for a in obs.legal}
        return Evaluation(choice, {a.text: v for a, v in values.items()}, "win", detail)


HEURISTIC = HeuristicBot()
"""A shared ``heuristic`` bot (it keeps no state between decisions)."""
