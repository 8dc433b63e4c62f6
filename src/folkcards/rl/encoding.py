"""Fixed-size numeric encodings of observations and actions, for learning environments.

Everything here is computed from an :class:`~folkcards.engine.api.Observation` only, so
an agent sees exactly what its seat may know.

**Actions.** Where a game has a finite action table (``Game.all_actions``), action
``i`` is that table's action with code ``i`` — the same integer in every deal. Scopone,
whose captures do not form a small table, uses ``card_index * CAPTURE_SLOTS + k``: the
card played (its index in the 40-card deck, in card order) and ``k``, the rank of the
capture among that card's legal options in the conventions' order (``k = 0`` is the only
option in most positions). Rank ``k ≥ CAPTURE_SLOTS`` cannot be chosen (never seen in
random play).

**Observation vector** (float32, layout for ``N`` seats; seats are counted relative to
the observer, 0 = itself):

====================  =======  =====================================================
block                 size     meaning
====================  =======  =====================================================
hand                  52       1 for each card in the observer's hand
played[i]             N × 52   cards seat i has played with a ``play`` action
seen                  52       every other card named in the visible history
recent[k]             N × 52   the k-th most recent card played (the current trick)
phase                 P        one-hot of the game card's ``encoding_phases``
to_act                N        one-hot of the seat to act (all 0 when over)
dealer                N        one-hot of the dealer
trump                 5        C, S, H, D, none (from ``info["trump"]`` when present)
scalars               S        the card's ``encoding_scalars``: numeric ``info`` facts
                               divided by their scale
====================  =======  =====================================================

The phase and scalar blocks are the game's own declaration (``Game.card(variant)``,
:class:`~folkcards.engine.card.GameCard`), the same under every variant; a phase the
block does not name sets no bit (documented, never an error), and a game without a card
has neither block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from folkcards.cards import CARD_NAMES, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.api import FolkcardsError, Game, Observation, Variant

CAPTURE_SLOTS = 32


class EncodingError(FolkcardsError):
    """An action index outside the space or not legal now."""


@dataclass(frozen=True)
class Encoder:
    """The action space and observation layout of one game and variant."""

    game: Game
    variant: Variant
    num_seats: int
    table: tuple[Action, ...] | None
    deck_cards: tuple[int, ...]
    phases: tuple[str, ...] = ()
    """The phase names of the one-hot block (the card's ``encoding_phases``)."""
    scalars: tuple[tuple[str, float], ...] = ()
    """The scaled numeric info keys (the card's ``encoding_scalars``)."""

    @classmethod
    def for_game(cls, game: Game, variant: Variant) -> Encoder:
        """The encoder of ``game`` under ``variant`` (normalized), its phase and scalar
        blocks from the game card."""
        v = game.normalize_variant(dict(variant))
        try:
            card = game.card(v)
            phases, scalars = tuple(card.encoding_phases), tuple(card.encoding_scalars)
        except NotImplementedError:  # a game without a card: no phase or scalar block
            phases, scalars = (), ()
        return cls(
            game,
            v,
            game.num_seats(v),
            game.all_actions(v),
            tuple(iter_cards(game.deck)),
            phases,
            scalars,
        )

    # --- actions -------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        """Size of the fixed action space."""
        if self.table is not None:
            return len(self.table)
        return len(self.deck_cards) * CAPTURE_SLOTS

    def _card_slots(self, legal: Sequence[Action]) -> dict[int, Action]:
        out: dict[int, Action] = {}
        rank: dict[int, int] = {}
        card_pos = {c: i for i, c in enumerate(self.deck_cards)}
        for a in legal:
            c = a.step.cards[0]  # the card played (Scopone: ``play C take …``)
            k = rank.get(c, 0)
            rank[c] = k + 1
            if k < CAPTURE_SLOTS:
                out[card_pos[c] * CAPTURE_SLOTS + k] = a
        return out

    def legal_indices(self, legal: Sequence[Action]) -> dict[int, Action]:
        """Map from action index to the legal action it stands for."""
        if self.table is not None:
            return {int(a): a for a in legal}
        return self._card_slots(legal)

    def action_mask(self, obs: Observation) -> list[int]:
        """1 for each index that is a legal action of ``obs`` (all 0 when not to act)."""
        mask = [0] * self.num_actions
        for i in self.legal_indices(obs.legal):
            mask[i] = 1
        return mask

    def decode(self, index: int, legal: Sequence[Action]) -> Action:
        """The legal action at ``index``; EncodingError naming the problem otherwise."""
        if not 0 <= index < self.num_actions:
            raise EncodingError(
                f"action {index} is outside the action space 0..{self.num_actions - 1}"
            )
        found = self.legal_indices(legal).get(index)
        if found is None:
            raise EncodingError(
                f"action {index} ({self.describe(index)}) is not legal now (see action_mask)"
            )
        return found

    def encode(self, action: Action, legal: Sequence[Action]) -> int:
        """The index of a legal action."""
        for i, a in self.legal_indices(legal).items():
            if a == action and a.text == action.text:
                return i
        raise EncodingError(f"{action.text!r} is not legal now")

    def describe(self, index: int) -> str:
        """Human-readable meaning of an action index."""
        if self.table is not None:
            return self.table[index].text
        card, k = divmod(index, CAPTURE_SLOTS)
        return f"play {CARD_NAMES[self.deck_cards[card]]} (option {k})"

    # --- observations --------------------------------------------------------------
    @property
    def size(self) -> int:
        """Length of the observation vector."""
        n = self.num_seats
        return 52 + n * 52 + 52 + n * 52 + len(self.phases) + n + n + 5 + len(self.scalars)

    def observation_vector(self, obs: Observation) -> list[float]:
        """The observation vector of the layout above."""
        n = self.num_seats
        me = obs.seat
        vec = [0.0] * self.size
        for c in iter_cards(obs.hand):
            vec[c] = 1.0
        played_base = 52
        seen_base = played_base + n * 52
        recent_base = seen_base + 52
        plays: list[int] = []
        for step, actor in zip(obs.history, obs.actors, strict=True):
            cards = list(step.cards)
            if not cards:
                continue
            if step.kind == "play":
                rel = (actor - me) % n
                vec[played_base + rel * 52 + cards[0]] = 1.0
                plays.append(cards[0])
                cards = cards[1:]
            for c in cards:
                vec[seen_base + c] = 1.0
        for k, c in enumerate(reversed(plays[-n:])):
            vec[recent_base + k * 52 + c] = 1.0
        pos = recent_base + n * 52
        if obs.phase in self.phases:
            vec[pos + self.phases.index(obs.phase)] = 1.0
        pos += len(self.phases)
        if obs.to_act is not None:
            vec[pos + (obs.to_act - me) % n] = 1.0
        pos += n
        vec[pos + (obs.dealer - me) % n] = 1.0
        pos += n
        trump = obs.info.get("trump")
        vec[
            pos
            + ("CSHD".index(trump) if isinstance(trump, str) and trump in "CSHD" and trump else 4)
        ] = 1.0
        pos += 5
        for i, (key, scale) in enumerate(self.scalars):
            value: Any = obs.info.get(key)
            if isinstance(value, bool):
                vec[pos + i] = float(value)
            elif isinstance(value, int | float):
                vec[pos + i] = float(value) / scale
        return vec
