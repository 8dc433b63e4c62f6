"""PettingZoo AEC environments: one deal of any folkcards game per episode.

``folkcards.rl.env("sasku", must_beat=False)`` returns an AEC environment whose agents
are ``seat_0`` … ``seat_{N-1}``. ``observe(agent)`` gives ``{"observation": float32
vector, "action_mask": int8 vector}`` built from that seat's observation only (layout:
:mod:`folkcards.rl.encoding`). When the deal ends every agent is terminated and each
receives the deal's ``score`` for its team (partnership games) or seat.

Void deals: a deal that is over before its first action (Scopone's three or four kings
on the table, SCO-3.4 — the only such deal of any registered game) is never handed to
the agents. ``reset`` deals again as the match would: the same dealer (SCO-7.1; in
general the dealer and carried-over state of the game's match rules) deals the next
shuffle of the same RNG, until a deal has a seat to act (:mod:`folkcards.rl.deals`). The
void deals are kept in ``void_deals`` and counted in every agent's ``infos`` at reset
(``"void_deals"``). The Gymnasium and OpenSpiel interfaces do the same.

Illegal actions: ``step`` with an index whose mask bit is 0 raises
:class:`~folkcards.rl.encoding.EncodingError` and changes nothing — an agent must use the
mask. Pass ``illegal="terminate"`` to use PettingZoo's ``TerminateIllegalWrapper``
convention instead (the offender gets -1, the episode ends).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from folkcards.engine.api import DealState, Game
from folkcards.games import get_game
from folkcards.rl.deals import EpisodeDeals
from folkcards.rl.encoding import Encoder


class FolkcardsAEC(AECEnv):  # type: ignore[misc]
    """One deal of ``game`` per episode, one agent per seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "folkcards_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: Game, variant: dict[str, Any] | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.encoder = Encoder.for_game(game, variant or {})
        n = self.encoder.num_seats
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.encoder.num_actions) for a in self.possible_agents
        }
        self.render_mode = render_mode
        self._rng = random.Random()
        self.state_: DealState | None = None
        self.void_deals: list[DealState] = []
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The Discrete action space (same for every agent and deal)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal (shuffled by an RNG seeded with ``seed``; dealer from it too).

        A void deal (over before its first action, SCO-3.4) is dealt again by the dealer
        the match rules name (SCO-7.1: the same one) from the same RNG; see the module
        docstring."""
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.encoder.num_seats
        deals = EpisodeDeals(self.game, self.encoder.variant, self._rng.randrange(n))
        self.state_ = deals.playable(self._rng)
        self.void_deals = deals.void
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"void_deals": len(self.void_deals)} for a in self.agents}
        self._select()

    def _select(self) -> None:
        s = self.state_
        assert s is not None
        if s.to_act is not None:
            self.agent_selection = f"seat_{s.to_act}"
            self.infos[self.agent_selection]["legal"] = s.legal_texts()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The observation of ``agent``'s seat (mask all 0 unless it is to act)."""
        s = self.state_
        assert s is not None, "call reset() first"
        obs = s.observation(self.possible_agents.index(agent))
        return {
            "observation": np.asarray(self.encoder.observation_vector(obs), dtype=np.float32),
            "action_mask": np.asarray(self.encoder.action_mask(obs), dtype=np.int8),
        }

    def step(self, action: int | None) -> None:
        """Play action index ``action`` for the selected agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state_
        assert s is not None, "call reset() first"
        if action is None:
            raise ValueError(f"{agent} must act: None is only for terminated agents")
        chosen = self.encoder.decode(int(action), s.legal_actions())
        s.apply(chosen)
        self._cumulative_rewards[agent] = 0.0
        if s.is_over:
            score = s.result()["score"]
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(score[s.team_of(i)])
                self.terminations[a] = True
            self.infos = {a: {"result": s.result()} for a in self.agents}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._select()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        """A text picture of the deal from the selected agent's seat (``render_mode="ansi"``)."""
        s = self.state_
        if s is None:
            return "(no deal: call reset())"
        seat = self.possible_agents.index(self.agent_selection)
        obs = s.observation(seat)
        d = obs.to_dict()
        lines = [
            f"{self.game.title} — seat {seat} — phase {obs.phase} — to act {obs.to_act}",
            "hand:  " + " ".join(d["hand"]),
            "last:  "
            + " | ".join(
                f"{a}:{h}" for a, h in zip(d["actors"][-8:], d["history"][-8:], strict=True)
            ),
        ]
        if obs.result is not None:
            lines.append(f"score: {obs.result.get('score')}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str, render_mode: str | None = None, **variant: Any) -> FolkcardsAEC:
    """The environment without wrappers."""
    return FolkcardsAEC(get_game(game), variant, render_mode)


def env(
    game: str, render_mode: str | None = None, illegal: str = "raise", **variant: Any
) -> AECEnv:
    """A PettingZoo AEC environment for ``game`` (any folkcards game) and its variant options.

    ``illegal="raise"`` (default): an unmasked action raises EncodingError;
    ``illegal="terminate"``: PettingZoo's TerminateIllegalWrapper (-1 to the offender).
    """
    if illegal not in ("raise", "terminate"):
        raise ValueError(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
    e: AECEnv = raw_env(game, render_mode, **variant)
    if illegal == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(e)
