"""OpenSpiel registration: every folkcards game as a pyspiel Python game.

``folkcards.rl.openspiel.register()`` registers ``python_folkcards_sasku`` … so that
``pyspiel.load_game("python_folkcards_scopone")`` works. Chance is explicit: the deal is
a sequence of chance nodes, one per card of the pack (top card first, uniform over the
cards not yet drawn), after which the folkcards deal starts with dealer ``dealer``
(a game parameter, default 0). Player actions are the indices of
:mod:`folkcards.rl.encoding`. Information-state and observation strings and tensors come
from the seat's folkcards observation; ``resample_from_infostate`` is ``determinize``.
Returns are the deal's ``score`` for each seat's team (or the seat), within the game
card's ``utility_bounds`` for the variant (``Game.card(variant)``).

Void deals: a deal that is over before its first action (Scopone's three or four kings
on the table, SCO-3.4 — the only such deal of any registered game) is not terminal. The
deal is dealt again as the match would: a new round of chance nodes deals a new pack,
dealt by the dealer the game's match rules name (SCO-7.1: the same dealer) with their
carried-over state, exactly as the PettingZoo and Gymnasium interfaces deal again
(:mod:`folkcards.rl.deals`). The void deals are public history: each seat's information
state string lists its observation of each (``"void_deals"``). Chance nodes are not
counted in ``max_game_length``, so the bound holds.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from folkcards.cards import CARD_NAMES, iter_cards
from folkcards.engine.api import DealState, Game
from folkcards.games import GAMES, get_game
from folkcards.rl.deals import EpisodeDeals
from folkcards.rl.encoding import Encoder

MAX_ACTIONS = 400
"""Upper bound on player actions in one deal (chance nodes come on top)."""


def short_name(game: str) -> str:
    """The pyspiel name of a folkcards game."""
    return f"python_folkcards_{game}"


class FolkcardsSpielState(pyspiel.State):  # type: ignore[misc]
    """Chance nodes deal the pack; then the folkcards deal is played."""

    def __init__(self, game: FolkcardsSpielGame) -> None:
        super().__init__(game)
        self._fg = game.folk
        self._encoder = game.encoder
        self._dealer = game.dealer
        self._remaining = list(iter_cards(self._fg.deck))
        self._deck: list[int] = []
        self._deals: EpisodeDeals | None = None  # made when the first void deal needs it
        self._void: tuple[DealState, ...] = ()
        self.deal: DealState | None = None

    # --- pyspiel API ------------------------------------------------------------------
    def current_player(self) -> int:
        """Chance while dealing, the seat to act, or TERMINAL."""
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.to_act is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.deal.to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        if player != self.deal.to_act:
            return []
        return sorted(self._encoder.legal_indices(self.deal.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the pack: uniform over the cards not yet drawn."""
        p = 1.0 / len(self._remaining)
        return [(c, p) for c in self._remaining]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self._remaining.remove(action)
            self._deck.append(action)
            if not self._remaining:
                self._dealt()
            return
        self.deal.apply(self._encoder.decode(action, self.deal.legal_actions()))

    def _dealt(self) -> None:
        """Start the deal of the drawn pack; a void one (SCO-3.4) starts a new round of
        chance nodes for the deal the match rules give next (SCO-7.1)."""
        if self._deals is None:
            deal = self._fg.new_deal(self._encoder.variant, self._dealer, self._deck)
            if not deal.is_over:
                self.deal = deal
                return
            self._deals = EpisodeDeals(self._fg, self._encoder.variant, self._dealer)
            self._deals.skip(deal)
        else:
            found = self._deals.deal(self._deck)
            if found is not None:
                self.deal = found
                return
        self._void = tuple(self._deals.void)
        self._remaining = list(iter_cards(self._fg.deck))
        self._deck = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deck {CARD_NAMES[action]}"
        if self.deal is not None and self.deal.to_act == player:
            found = self._encoder.legal_indices(self.deal.legal_actions()).get(action)
            if found is not None:
                return found.text
        return self._encoder.describe(action)

    def is_terminal(self) -> bool:
        """True when the deal is over."""
        return self.deal is not None and self.deal.is_over

    def returns(self) -> list[float]:
        """The deal's score for each seat's side (zeros until the end)."""
        n = self._encoder.num_seats
        if self.deal is None or not self.deal.is_over:
            return [0.0] * n
        score = self.deal.result()["score"]
        return [float(score[self.deal.team_of(s)]) for s in range(n)]

    def __str__(self) -> str:
        void = "".join(json.dumps(d.record(), separators=(",", ":")) + "\n" for d in self._void)
        if self.deal is None:
            return f"{void}dealing: {len(self._deck)} cards drawn"
        return void + json.dumps(self.deal.record(), separators=(",", ":"))

    # --- information ------------------------------------------------------------------
    def infostate_text(self, player: int) -> str:
        """Everything ``player`` knows, as text (perfect recall: the visible history)."""
        void = [self._seen(d, player) for d in self._void]
        if self.deal is None:
            return f"seat {player}: {len(void)} void deals {json.dumps(void)}, dealing {len(self._deck)}"
        obs = self._seen(self.deal, player)
        if void:
            obs["void_deals"] = void
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def _seen(deal: DealState, player: int) -> dict[str, Any]:
        obs = deal.observation(player).to_dict()
        obs.pop("legal")
        return obs

    def resample_from_infostate(self, player: int, sampler: Any = None) -> FolkcardsSpielState:
        """A state consistent with ``player``'s information: folkcards ``determinize``."""
        clone = self.clone()
        if self.deal is not None:
            seed = int(sampler() * 2**31) if callable(sampler) else random.getrandbits(31)
            clone.deal = self.deal.determinize(player, random.Random(seed))
        return clone  # type: ignore[no-any-return]


class FolkcardsObserver:
    """pyspiel PyObserver: tensor = the encoding's vector, string = the infostate text."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FolkcardsSpielState, player: int) -> None:
        """Fill the tensor from ``player``'s observation."""
        self.tensor.fill(0.0)
        if state.deal is not None:
            self.tensor[:] = self.encoder.observation_vector(state.deal.observation(player))

    def string_from(self, state: FolkcardsSpielState, player: int) -> str:
        """``player``'s information as text."""
        return state.infostate_text(player)


class FolkcardsSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A folkcards game seen by OpenSpiel (parameters: ``dealer`` and ``variant`` JSON)."""

    folk: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant = json.loads(str(params.get("variant", "{}")))
        self.dealer = int(params.get("dealer", 0))
        self.encoder = Encoder.for_game(self.folk, variant)
        low, high = self.folk.card(variant).utility_bounds  # of this variant's deal score
        n = self.encoder.num_seats
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=self.folk.deck.bit_count() + MAX_ACTIONS,
        )
        super().__init__(
            _game_type(self.folk, n), info, {"dealer": self.dealer, "variant": json.dumps(variant)}
        )

    def new_initial_state(self) -> FolkcardsSpielState:
        """A state before the first card is dealt."""
        return FolkcardsSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FolkcardsObserver:
        """The observer used for observation and information-state strings and tensors."""
        return FolkcardsObserver(self.encoder)


def _game_type(game: Game, num_players: int) -> Any:
    return pyspiel.GameType(
        short_name=short_name(game.name),
        long_name=f"folkcards {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=num_players,
        min_num_players=num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"dealer": 0, "variant": "{}"},
    )


_REGISTERED: set[str] = set()


def register(games: list[str] | None = None) -> list[str]:
    """Register folkcards games with pyspiel (all by default); returns their pyspiel names."""
    names = []
    for name in games or list(GAMES):
        game = get_game(name)
        sn = short_name(name)
        if sn not in _REGISTERED:
            cls = type(f"Folkcards{name.title()}SpielGame", (FolkcardsSpielGame,), {"folk": game})
            n = game.num_seats(game.normalize_variant({}))
            pyspiel.register_game(_game_type(game, n), cls)
            _REGISTERED.add(sn)
        names.append(sn)
    return names
