"""Where the cards are: the card-conservation fact each game declares for the self-check.

At every point of a deal every card of the pack is in a hand, played, or somewhere the
game's rules put it — buried, on the table, in transit between two seats, in a face-down
widow. The self-check (``folkcards selfcheck``, docs/selfcheck.md) checks the generic part
itself (hands disjoint and within the pack, a played card in no hand); the rest is a rule
fact of each game, which it declares as ``Game.cards_aside(view)``: from what the seats'
observations show, which cards are out of hand and unplayed, and how many more no seat
sees. The self-check then requires the cards neither in a hand nor played to be exactly
those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from folkcards.cards import CardError, CardSet, parse_card

if TYPE_CHECKING:
    from folkcards.engine.api import DealState, Game, Observation

Aside = tuple[CardSet, int] | None
"""``(known, hidden)``: the cards the observations show out of hand and unplayed, and how
many more no seat sees; None: no constraint at this point."""


class NotConserved(ValueError):
    """The observations contradict one another about where the cards are."""


@dataclass
class CardView:
    """What the conservation check sees: each seat's hand (from its observation), the cards
    played (the record's ``play C`` actions), each seat's observation, and the state (for
    its phase and number of seats only)."""

    game: Game
    state: DealState
    hands: list[CardSet]
    played: CardSet
    observations: list[Observation]

    @property
    def in_hands(self) -> CardSet:
        """The union of the hands."""
        out = 0
        for h in self.hands:
            out |= h
        return out

    def cards(self, texts: object) -> CardSet:
        """The card set of a list of card texts in an observation's ``info`` (0 for None);
        NotConserved when it is not a list of cards of this game's pack."""
        return cards_in(texts, self.game.deck)


_CARD_BITS: dict[tuple[CardSet, str], CardSet] = {}
"""(pack, card text) -> the card's bit, for texts already parsed."""


def cards_in(texts: object, deck: CardSet) -> CardSet:
    """The card set of a list of card texts (0 for None); NotConserved for anything else."""
    if texts is None:
        return 0
    if not isinstance(texts, list | tuple):
        raise NotConserved(f"expected a list of cards in the info, not {texts!r}")
    out = 0
    for text in texts:
        bit = _CARD_BITS.get((deck, text)) if isinstance(text, str) else None
        if bit is None:
            try:
                bit = 1 << parse_card(str(text), deck)
            except CardError as exc:
                raise NotConserved(f"{text!r} in the info is not a card: {exc}") from None
            if isinstance(text, str) and len(_CARD_BITS) < 4096:
                _CARD_BITS[deck, text] = bit
        out |= bit
    return out
