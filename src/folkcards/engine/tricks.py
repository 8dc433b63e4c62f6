"""Trick-taking machinery shared by Sasku, Sheepshead, Satat and Huutopussi.

A :class:`TrumpConfig` fixes, for one choice of trump, which cards are trumps, the
*class* of every card (the trump class, or its printed suit), every card's power, and
for every card the set of cards that would beat it when it is winning a trick. From
these precomputed tables two functions serve every game:

* :meth:`TrumpConfig.follow` — the legal cards of a follower under the obligations a
  game imposes (follow the led class; trump when void; beat the winning card), with an
  optional set of *free* cards that are never forced and always allowed (Satat's 2♥);
* :meth:`TrumpConfig.winner` — the winning card of a complete trick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from folkcards.cards import SUIT_MASK, Card, CardSet


class TrumpConfig:
    """Card classes, powers and beat-sets under one trump arrangement.

    ``trump_order`` lists the trumps from highest to lowest (empty for no trump);
    ``plain_ranks`` lists the rank numbers of a plain suit from highest to lowest;
    ``supreme`` names a card that beats every other card whenever it is played.
    Cards outside ``deck`` are ignored.
    """

    __slots__ = ("beats", "class_of", "deck", "power", "trumps")

    def __init__(
        self,
        deck: CardSet,
        trump_order: Sequence[Card],
        plain_ranks: Sequence[int],
        supreme: Card | None = None,
    ) -> None:
        self.deck = deck
        trumps = 0
        for c in trump_order:
            trumps |= 1 << c
        self.trumps: CardSet = trumps
        power = [0] * 52
        for i, c in enumerate(trump_order):
            power[c] = 1000 - i
        plain_pos = {r: len(plain_ranks) - i for i, r in enumerate(plain_ranks)}
        class_of = [0] * 52
        for c in range(52):
            if not deck >> c & 1:
                continue
            if trumps >> c & 1:
                class_of[c] = trumps
            else:
                class_of[c] = SUIT_MASK[c // 13] & deck & ~trumps
                power[c] = plain_pos.get(c % 13, 0)
        self.power: tuple[int, ...] = tuple(power)
        self.class_of: tuple[CardSet, ...] = tuple(class_of)
        beats = [0] * 52
        for c in range(52):
            if not deck >> c & 1:
                continue
            if trumps >> c & 1:
                stronger = [d for d in trump_order if power[d] > power[c]]
            else:
                stronger = [d for d in range(52) if trumps >> d & 1] + [
                    d for d in range(52) if class_of[c] >> d & 1 and power[d] > power[c]
                ]
            m = 0
            for d in stronger:
                m |= 1 << d
            beats[c] = m
        if supreme is not None:
            # A card that beats every other card wherever it is played (Satat's 2♥).
            for c in range(52):
                beats[c] |= 1 << supreme
            beats[supreme] = 0
        self.beats: tuple[CardSet, ...] = tuple(beats)

    def follow(
        self,
        hand: CardSet,
        led: Card,
        winning: Card,
        *,
        must_trump: bool,
        must_beat: bool,
        free: CardSet = 0,
    ) -> CardSet:
        """Legal cards of a follower.

        F = cards of the led class; else trumps when ``must_trump``; else any card. Then,
        with ``must_beat``, those that beat ``winning`` if there are any. Cards in ``free``
        are left out of every obligation and are always allowed.
        """
        bound = hand & ~free
        allowed = bound & self.class_of[led]
        if not allowed:
            allowed = (bound & self.trumps) if must_trump else 0
            if not allowed:
                allowed = bound
        if must_beat:
            better = allowed & self.beats[winning]
            if better:
                allowed = better
        return allowed | (hand & free)

    def follower(
        self, *, must_trump: bool, must_beat: bool, free: CardSet = 0
    ) -> Callable[[CardSet, Card, Card], CardSet]:
        """A fast ``f(hand, led, winning)`` with the same result as :meth:`follow` for fixed
        obligations: the tables are bound as closure locals, so the hot path of legal-move
        generation makes one positional call."""
        class_of, trumps, beats = self.class_of, self.trumps, self.beats
        keep = ~free

        def follow(hand: CardSet, led: Card, winning: Card) -> CardSet:
            bound = hand & keep
            allowed = bound & class_of[led]
            if not allowed:
                allowed = (bound & trumps) if must_trump else 0
                if not allowed:
                    allowed = bound
            if must_beat:
                better = allowed & beats[winning]
                if better:
                    allowed = better
            return allowed | (hand & free)

        return follow

    def winner(self, trick: Sequence[Card]) -> int:
        """Index in ``trick`` of the winning card (highest trump, else highest of the led class)."""
        best = 0
        w = trick[0]
        beats = self.beats
        for i in range(1, len(trick)):
            c = trick[i]
            if beats[w] >> c & 1:
                best, w = i, c
        return best

    def beats_card(self, card: Card, winning: Card) -> bool:
        """True when ``card`` played now would take the lead from ``winning``."""
        return bool(self.beats[winning] >> card & 1)
