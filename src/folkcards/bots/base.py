"""The bot contract: a bot decides for one seat from that seat's observation alone.

A :class:`Bot` receives an :class:`~folkcards.engine.api.Observation` (a frozen record of
plain data: the seat's hand, the legal actions, the history as that seat saw it, the
game's public facts) and an RNG, and returns one of ``obs.legal``. It is never handed a
:class:`~folkcards.engine.api.DealState`, so it has no path to other seats' hidden cards;
search bots build full states only through ``Game.determinize(obs, rng)``, which samples
the hidden cards from the observation. :func:`play_deal` is the one driver that turns a
state into observations for bots; tournaments, hints and tests all go through it.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from folkcards.engine import registry
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, FolkcardsError, Game, Observation


class BotError(FolkcardsError):
    """A bot that returned something other than one of its legal actions, or a bad bot spec."""


@dataclass(frozen=True)
class Evaluation:
    """A bot's view of one decision: its choice and a value for every legal action.

    ``values`` maps each legal action's text to a number where higher is better for the
    deciding seat (a batched search before card play values only the heuristic's best
    few); ``scale`` says what the numbers are (``"win"``: expected deal utility in [0, 1]
    from search, ``"margin"``: expected score margin in the game card's margin scale,
    ``"heuristic"``: a rule-based score, ``"uniform"``: none).
    ``detail`` holds per-action extras (search visits, the tactic that scored it).
    """

    choice: Action
    values: Mapping[str, float]
    scale: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, actions ordered best first."""
        ranked = sorted(self.values.items(), key=lambda kv: -kv[1])
        return {
            "choice": self.choice.text,
            "scale": self.scale,
            "actions": [
                {"action": text, "value": round(v, 4), **dict(self.detail.get(text, {}))}
                for text, v in ranked
            ],
        }


class Bot(ABC):
    """A player for one seat. Subclasses implement :meth:`evaluate`; :meth:`choose` takes
    its choice. Both receive only the observation and an RNG (all randomness comes from
    it, so a seeded RNG makes a bot reproducible)."""

    name: str = "bot"

    @abstractmethod
    def evaluate(self, obs: Observation, rng: random.Random) -> Evaluation:
        """The choice and a value per legal action for the seat of ``obs`` (which must act)."""

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        """One of ``obs.legal``."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.evaluate(obs, rng).choice

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def argmax(values: Mapping[Action, float], rng: random.Random) -> Action:
    """The action with the highest value; ties broken by ``rng`` (reproducibly)."""
    best = max(values.values())
    top = [a for a, v in values.items() if v >= best - 1e-12]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


def make_evaluation(
    values: Mapping[Action, float],
    rng: random.Random,
    scale: str,
    detail: Mapping[str, Any] | None = None,
) -> Evaluation:
    """An :class:`Evaluation` choosing the best of ``values`` (ties broken by ``rng``)."""
    choice = argmax(values, rng)
    return Evaluation(choice, {a.text: float(v) for a, v in values.items()}, scale, detail or {})


# --- outcomes -------------------------------------------------------------------------


def sides(num_seats: int, score_len: int) -> list[int]:
    """The scoring side of each seat guessed from the length of ``score``: the team (seat
    mod 2) when it has one entry per team, the seat itself when it has one per seat. For a
    caller without the game; with it, :func:`seat_sides` reads the game card's ``sides``."""
    if score_len == num_seats:
        return list(range(num_seats))
    return [s % score_len for s in range(num_seats)]


def seat_sides(game: str | Game, variant: Mapping[str, Any] | None = None) -> tuple[int, ...]:
    """The scoring side of each seat (index into ``score``), from the game card's
    ``sides`` (``Game.card(variant)``; cached)."""
    return _scales(registry.get(game) if isinstance(game, str) else game, variant)[3]


def margins(
    score: Sequence[float], num_seats: int, side: Sequence[int] | None = None
) -> list[float]:
    """Each seat's margin in a result: its side's score minus the mean of the other sides'.
    ``side[s]`` is seat s's side (:func:`seat_sides`); without it, guessed from the score's
    length (:func:`sides`)."""
    n = len(score)
    if side is None:
        side = sides(num_seats, n)
    total = sum(score)
    out = []
    for s in range(num_seats):
        mine = score[side[s]]
        out.append(mine - (total - mine) / (n - 1))
    return out


_Scales = tuple[str, float, float, tuple[int, ...]]
_SCALES: dict[tuple[Game, tuple[tuple[str, Any], ...]], _Scales] = {}


def _scales(game: Game, variant: Mapping[str, Any] | None) -> _Scales:
    """The game card's shaping key and scale, its margin scale and each seat's side
    (cached: a card is built afresh on every call, and every playout asks)."""
    key = (game, tuple(sorted(variant.items())) if variant else ())
    out = _SCALES.get(key)
    if out is None:
        card = game.card(variant)
        shaping, scale = card.shaping or ("score", card.margin_scale)
        side = tuple(card.side_of(s) for s in range(card.seats))
        out = _SCALES[key] = (shaping, scale, card.margin_scale, side)
    return out


def shaping_of(game: str | Game, variant: Mapping[str, Any] | None = None) -> tuple[str, float]:
    """The result key whose margin says by how much a side won a deal, and a typical size
    of that margin, from the game card (``Game.card(variant)``): its ``shaping`` (Sasku's
    card points, Satat's tricks), else the ``score`` with the card's ``margin_scale``."""
    shaping, scale, _, _ = _scales(registry.get(game) if isinstance(game, str) else game, variant)
    return shaping, scale


def utilities(
    game: str | Game,
    result: Mapping[str, Any],
    num_seats: int,
    variant: Mapping[str, Any] | None = None,
) -> list[float]:
    """Each seat's utility of a finished deal in [0, 1]: mostly whether its side won the
    deal (1 win, ½ tie, 0 loss), partly by how much (so search prefers bigger wins and
    closer losses, and small budgets get a smoother signal than win or loss). "How much"
    is the margin of the game card's shaping key (:func:`shaping_of`) on its scale, or of
    the score on the card's ``margin_scale`` where the result lacks that key."""
    key, scale, margin_scale, side = _scales(
        registry.get(game) if isinstance(game, str) else game, variant
    )
    by = result.get(key)
    if not isinstance(by, Sequence) or len(by) != len(result["score"]):
        by, scale = result["score"], margin_scale
    if len(side) != num_seats:  # a caller's seat count the card does not know: guess
        side = tuple(sides(num_seats, len(result["score"])))
    out = []
    mine, by_side = margins(result["score"], num_seats, side), margins(by, num_seats, side)
    for m, k in zip(mine, by_side, strict=True):
        win = 1.0 if m > 0 else 0.0 if m < 0 else 0.5
        out.append(0.75 * win + 0.25 * (0.5 + 0.5 * math.tanh(k / scale)))
    return out


# --- the driver -------------------------------------------------------------------------


@dataclass
class SeatClock:
    """Decisions made and seconds spent by one seat's bot in a deal."""

    decisions: int = 0
    seconds: float = 0.0


def decide(bot: Bot, obs: Observation, rng: random.Random) -> Action:
    """The bot's action for ``obs``, checked to be one of ``obs.legal``."""
    action = bot.choose(obs, rng)
    if action not in obs.legal:
        legal = ", ".join(a.text for a in obs.legal)
        raise BotError(f"bot {bot.name} chose {action!r}, not one of the legal actions ({legal})")
    for a in obs.legal:  # hand back the engine's own Action object
        if a == action:
            return a
    return action


def play_deal(
    state: DealState,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    clocks: Sequence[SeatClock] | None = None,
) -> DealState:
    """Play ``state`` to its end, each seat's bot deciding from ``state.observation(seat)``.

    Only observations cross to the bots. ``clocks`` (one per seat) collect the number of
    decisions and the thinking time. Returns the finished state.
    """
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        t0 = time.perf_counter()
        action = decide(bots[seat], obs, rngs[seat])
        if clocks is not None:
            clocks[seat].decisions += 1
            clocks[seat].seconds += time.perf_counter() - t0
        state.apply(action)
    return state


def game_of(obs: Observation) -> Game:
    """The game an observation belongs to, from the engine's registry (where a test
    registers its toy game too)."""
    return registry.get(obs.game)
