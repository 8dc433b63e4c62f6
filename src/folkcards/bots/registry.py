"""Bot names and specs: ``make_bot("ismcts:iters=400:policy=heuristic")``.

A spec is a registered name, optionally followed by ``:key=value`` options (colons, not
commas, so that a list of specs can be comma-separated on the command line):

* ``random`` — uniform over the legal actions;
* ``heuristic`` — the per-game rule-based player;
* ``pimc`` — flat Monte Carlo over determinizations;
* ``ismcts`` — information-set MCTS;
* ``bpimc`` — PIMC on the batched engine (:mod:`folkcards.batch`): every sampled deal ×
  every legal card played out at once by the kernel's fast policy;
* ``bsearch`` — ``bpimc:keep=1:worlds=64``, the batched search measured against
  ``heuristic`` at 10–25 ms a decision (docs/bots.md, "Measured strength");
* ``search`` — the heuristic improved by rollouts: flat Monte Carlo (PIMC) over card
  play, every legal card played out on the same sampled deals by the heuristic itself,
  keeping the heuristic's card unless another one's paired gain is significant
  (``pimc:policy=heuristic:keep=1:only=play``; the heuristic makes the other
  decisions): the configuration measured strongest (docs/bots.md, "Measured strength"),
  with a game's own ``keep``, ``infer`` and ``pool`` where its bot kit measured better
  ones (``search_tuning``; options given in the spec win).

Search options: ``iters=N`` playouts per decision (default 200), ``ms=T`` a time budget
per decision instead (not reproducible), ``policy=random|heuristic`` for playouts,
``prior=W`` the weight of the heuristic's ranking as a prior (PIMC: a bonus that fades
with samples; IS-MCTS: progressive bias at the root), ``only=P1+P2`` the phases to
search (the heuristic decides the others; empty = all),
``keep=Z`` (pimc) play the heuristic's choice unless another action's paired mean gain
over it exceeds Z standard errors, ``c=X`` the IS-MCTS exploration constant.
Batched options (``bpimc``, ``bsearch``): ``worlds=D`` sampled deals, ``k=K`` playouts per
deal and action, ``policy=fast|simple|random|heuristic`` (``heuristic``: the heuristic's
card play in the kernel, from each seat's knowledge; two joined by ``+``, e.g.
``fast+heuristic``: every deal played out by each, their values averaged), ``noise=P`` a
percentage of random moves in the playouts, ``read=M`` inference from the card play in
the kernel (with ``pool=P``: resampling; ``bids=0`` leaves out the decisions before card
play that it reads too: Sasku's bids, Satat's trump, Sheepshead's picks), ``ms``,
``keep``, ``only``, ``infer``, ``pool`` as above; a phase before card play that ``only`` names is searched through the bridge (the
heuristic's ``wide=W`` best actions, default 6, each applied to every sampled deal, the
heuristic deciding up to the card play, the kernel playing the cards; ``stakes=1`` values
them by the seat's score margin instead of its win chance).
Where the game's kernel has an endgame solver: ``leaf=L`` stops each playout with L
tricks left and values the rest double dummy, ``root=R`` solves each deal right after the
valued card when at most R tricks are left, with ``solved=N`` on at most N of the sampled
deals (a solve costs far more than a playout), and ``hidden=1`` keeps Sheepshead's called
partner unknown in the playouts.

Bots that need more than the core package register themselves with :func:`register_bot`
when their module is imported: ``openspiel`` (OpenSpiel's IS-MCTS) is registered by
``folkcards.rl.openspiel_bot``, which needs the ``rl`` extra; this module imports nothing
of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from folkcards.bots.base import Bot, BotError
from folkcards.bots.batched import BatchPIMCBot
from folkcards.bots.random import RandomBot
from folkcards.bots.search import HeuristicBot, ISMCTSBot, PIMCBot

Factory = Callable[[dict[str, Any], str], Bot]
"""Makes a bot from its spec's options (parsed to their types) and the spec itself."""

SEARCH_DEFAULT = "pimc"
"""What ``search`` means: the algorithm that measured stronger (docs/bots.md, "Measured strength")."""

_SEARCH_OPTIONS = {
    "iters": int,
    "ms": float,
    "policy": str,
    "prior": float,
    "only": str,
    "keep": float,
    "dd": int,
    "infer": float,
    "pool": int,
}


def _search(cls: type[PIMCBot] | type[ISMCTSBot], opts: dict[str, Any], name: str) -> Bot:
    kwargs: dict[str, Any] = {"name": name}
    if "iters" in opts:
        kwargs["iterations"] = opts["iters"]
    if "ms" in opts:
        kwargs["ms"] = opts["ms"]
    if "policy" in opts:
        kwargs["policy"] = opts["policy"]
    if "prior" in opts:
        kwargs["prior"] = opts["prior"]
    if "only" in opts:
        kwargs["only"] = opts["only"] or None
    if "keep" in opts:
        kwargs["keep"] = opts["keep"]
    if "dd" in opts:
        kwargs["dd"] = bool(opts["dd"])
    if "infer" in opts:
        kwargs["infer"] = opts["infer"]
    if "pool" in opts:
        kwargs["pool"] = opts["pool"]
    if "c" in opts:
        kwargs["exploration"] = opts["c"]
    return cls(**kwargs)


def _random(opts: dict[str, Any], name: str) -> Bot:
    return RandomBot()


def _heuristic(opts: dict[str, Any], name: str) -> Bot:
    return HeuristicBot()


def _pimc(opts: dict[str, Any], name: str) -> Bot:
    if "pool" in opts and "infer" not in opts:
        raise ValueError("pool resamples the deals that infer weights: give infer=M with it")
    return _search(PIMCBot, opts, name)


def _ismcts(opts: dict[str, Any], name: str) -> Bot:
    return _search(ISMCTSBot, opts, name)


SEARCH_ONLY = "play"
"""The phases ``search`` searches (card play); the heuristic bids, exchanges and declares.
``only=`` (empty) searches every phase."""
SEARCH_KEEP = 1.0
"""``search`` keeps the heuristic's choice unless another action gains by more than this
many standard errors (``pimc`` and ``ismcts`` have no such anchor unless asked)."""


def _default_search(opts: dict[str, Any], name: str) -> Bot:
    given = set(opts)
    opts = {"keep": SEARCH_KEEP, "only": SEARCH_ONLY, "policy": "heuristic", **opts}
    bot = _search(ISMCTSBot if SEARCH_DEFAULT == "ismcts" else PIMCBot, opts, name)
    assert isinstance(bot, PIMCBot | ISMCTSBot)
    bot.tuned = frozenset({"keep", "infer", "pool"} - given)  # each game kit's search_tuning
    return bot


_BATCH_OPTIONS = {
    "worlds": int,
    "k": int,
    "ms": float,
    "policy": str,
    "keep": float,
    "only": str,
    "infer": float,
    "pool": int,
    "noise": int,
    "leaf": int,
    "root": int,
    "hidden": int,
    "read": float,
    "wide": int,
    "stakes": int,
    "solved": int,
    "bids": int,
}


def _bpimc(opts: dict[str, Any], name: str) -> Bot:
    kwargs = dict(opts)
    if "only" in kwargs:
        kwargs["only"] = kwargs["only"] or None
    if "pool" in kwargs and "infer" not in kwargs and "read" not in kwargs:
        raise ValueError(
            "pool resamples the deals that infer or read weights: give infer=M or read=M"
        )
    return BatchPIMCBot(name=name, **kwargs)


BSEARCH_DEFAULTS: dict[str, Any] = {"keep": 1.0, "worlds": 64}
"""What ``bsearch`` adds to ``bpimc``: the heuristic's card kept unless another card's
paired gain exceeds one standard error, over 64 sampled deals (docs/bots.md, "Measured
strength": about 10–25 ms a decision)."""


def _bsearch(opts: dict[str, Any], name: str) -> Bot:
    bot = _bpimc({**BSEARCH_DEFAULTS, **opts}, name)
    assert isinstance(bot, BatchPIMCBot)
    bot.tuned = frozenset({"keep", "infer", "pool", "worlds", "policy", "read", "only"} - set(opts))
    return bot


BOTS: dict[str, tuple[Factory, dict[str, type]]] = {
    "random": (_random, {}),
    "heuristic": (_heuristic, {}),
    "search": (_default_search, _SEARCH_OPTIONS),
    "pimc": (_pimc, _SEARCH_OPTIONS),
    "ismcts": (_ismcts, dict(_SEARCH_OPTIONS, c=float)),
    "bpimc": (_bpimc, _BATCH_OPTIONS),
    "bsearch": (_bsearch, _BATCH_OPTIONS),
}
"""Every bot name with its factory and its options' types: the core package's, then those
registered by :func:`register_bot`."""

BOT_NAMES = tuple(BOTS)
"""The names of the core package's bots (:data:`BOTS` holds those registered since)."""


def register_bot(name: str, factory: Factory, options: dict[str, type]) -> None:
    """Make ``name`` a bot spec: ``factory(opts, spec)`` builds the bot from the spec's
    options, each parsed by its type in ``options``. ValueError if a different factory
    already holds the name (registering the same one again is allowed)."""
    held = BOTS.get(name)
    if held is not None and held[0] is not factory:
        raise ValueError(f"a different bot is already registered as {name!r}")
    BOTS[name] = (factory, dict(options))


def make_bot(spec: str) -> Bot:
    """The bot a spec names; BotError (listing the valid names or options) if it names none.

    The bot's ``name`` is the spec itself, so results say exactly which bot played.
    """
    name, *parts = spec.strip().split(":")
    if name not in BOTS:
        raise BotError(f"unknown bot {name!r} (valid: {', '.join(BOTS)})")
    factory, types = BOTS[name]
    opts: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if key not in types or not eq:
            valid = ", ".join(f"{k}=…" for k in types) or "none"
            raise BotError(f"bad option {part!r} for bot {name!r} (valid options: {valid})")
        try:
            opts[key] = types[key](raw)
        except ValueError:
            raise BotError(f"bot option {key} needs a {types[key].__name__}, not {raw!r}") from None
    try:
        bot = factory(opts, spec.strip())
    except ValueError as exc:
        raise BotError(f"bad bot spec {spec!r}: {exc}") from None
    bot.name = spec.strip()
    return bot
