"""A Gymnasium single-agent environment: one seat learns, folkcards bots play the others.

``FolkcardsGym("scopone", seat=0, opponents="heuristic")``: each episode is one deal.
Observations are the Dict of :mod:`folkcards.rl.pettingzoo_env` (``observation`` and
``action_mask``); the reward at the end is the deal's ``score`` for the learner's team or
seat (``reward="score"``), or that minus the best other side's (``reward="margin"``). The
bots decide from their own seats' observations only.

Void deals: a deal over before the learner's first decision — Scopone's void deal
(SCO-3.4), the one deal of any registered game that is over before any action, or a deal
the bots end by a redeal — is not an episode: ``reset`` deals again as the match would
(SCO-7.1: the same dealer; in general the game's match rules), from the same RNG, as the
PettingZoo and OpenSpiel interfaces do (:mod:`folkcards.rl.deals`).

Illegal actions (an index whose mask bit is 0): with ``illegal="terminate"`` (default, the
PettingZoo ``TerminateIllegalWrapper`` convention, so any sample of the action space is a
valid step) the episode ends with reward ``illegal_reward`` (-1) and ``info["illegal"]``;
with ``illegal="raise"`` the step raises :class:`~folkcards.rl.encoding.EncodingError` and
changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from folkcards.bots.base import Bot
from folkcards.bots.registry import make_bot
from folkcards.engine.api import DealState
from folkcards.games import get_game
from folkcards.rl.deals import EpisodeDeals
from folkcards.rl.encoding import Encoder, EncodingError


class FolkcardsGym(gymnasium.Env[dict[str, Any], np.int64]):
    """One deal per episode for the learner's ``seat``; the other seats are bots."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str = "random",
        render_mode: str | None = None,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        reward: str = "score",
        **variant: Any,
    ) -> None:
        if reward not in ("score", "margin"):
            raise ValueError(f"reward must be 'score' or 'margin', not {reward!r}")
        self.reward_kind = reward
        if illegal not in ("raise", "terminate"):
            raise ValueError(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self._ended_illegally = False
        self.game = get_game(game)
        self.encoder = Encoder.for_game(self.game, variant)
        if not 0 <= seat < self.encoder.num_seats:
            raise ValueError(f"seat must be 0..{self.encoder.num_seats - 1}")
        self.seat = seat
        self.bots: list[Bot] = [make_bot(opponents) for _ in range(self.encoder.num_seats)]
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        self.render_mode = render_mode
        self._rng = random.Random()
        self.state_: DealState | None = None
        self.void_deals: list[DealState] = []

    def _advance(self) -> None:
        s = self.state_
        assert s is not None
        while s.to_act is not None and s.to_act != self.seat:
            obs = s.observation(s.to_act)
            s.apply(self.bots[s.to_act].choose(obs, self._rng))

    def _obs(self) -> dict[str, np.ndarray[Any, Any]]:
        s = self.state_
        assert s is not None
        obs = s.observation(self.seat)
        return {
            "observation": np.asarray(self.encoder.observation_vector(obs), dtype=np.float32),
            "action_mask": np.asarray(self.encoder.action_mask(obs), dtype=np.int8),
        }

    def _reward(self) -> float:
        s = self.state_
        assert s is not None
        if not s.is_over:
            return 0.0
        score = s.result()["score"]
        mine = float(score[s.team_of(self.seat)])
        if self.reward_kind == "score":
            return mine
        others = [float(x) for i, x in enumerate(score) if i != s.team_of(self.seat)]
        return mine - max(others)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """A new deal; bots act until the learner must.

        Every episode has at least one step: a deal that is over before the learner has
        a decision is dealt again as the match would deal the next one (the dealer and
        carried-over state of the game's match rules), from the same RNG. That is a void
        deal (Scopone's three or four kings on the table, SCO-3.4: the same dealer deals
        again, SCO-7.1) — exactly as in the PettingZoo and OpenSpiel interfaces — or a
        deal that the bots end before the learner's turn (Huutopussi's ``redeal``, HUU-4.6:
        the next dealer deals; Satat's ``redeal``, SAT-5.4: the same dealer, one redeal
        counted). Those deals are in ``void_deals`` and counted in ``info["void_deals"]``."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.encoder.num_seats
        self._ended_illegally = False
        deals = EpisodeDeals(self.game, self.encoder.variant, self._rng.randrange(n))
        while True:
            self.state_ = deals.playable(self._rng)
            self._advance()
            if self.state_.to_act == self.seat:
                break
            deals.skip(self.state_)  # over before the learner's turn: the match goes on
        self.void_deals = deals.void
        return self._obs(), {"legal": self.state_.legal_texts(), "void_deals": len(deals.void)}

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray[Any, Any]], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner acts again."""
        s = self.state_
        assert s is not None, "call reset() first"
        if s.is_over or self._ended_illegally:
            raise gymnasium.error.ResetNeeded("the deal is over: call reset()")
        try:
            chosen = self.encoder.decode(int(action), s.legal_actions())
        except EncodingError as exc:
            if self.illegal == "raise":
                raise
            self._ended_illegally = True
            return self._obs(), self.illegal_reward, True, False, {"illegal": str(exc)}
        s.apply(chosen)
        self._advance()
        info: dict[str, Any] = {"result": s.result()} if s.is_over else {"legal": s.legal_texts()}
        return self._obs(), self._reward(), s.is_over, False, info

    def render(self) -> str | None:
        """Text picture of the learner's view."""
        s = self.state_
        if s is None:
            return None
        obs = s.observation(self.seat).to_dict()
        return f"{self.game.title} phase {obs['phase']} hand {' '.join(obs['hand'])} last {obs['history'][-4:]}"
