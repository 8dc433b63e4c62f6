"""The game card: one game's facts for clients, declared by the game (``Game.card``).

Like OpenSpiel's ``GameType``/``GameInfo``: who sits where and scores with whom, the
direction of play, the pack and its picture, the phases in order, the bounds and typical
size of a deal's score, how a hand is sorted for display (the trump group first, then the
suits, each by the game's own rank order), which public observation keys a table shows
and hides, whether the deal has tricks, the card points a client may add up, the cards a
phase hands over one by one, how a match ends, and the learning encoding's phase and
scalar blocks — every per-game fact a client would otherwise keep in a table keyed by the
game's name. ``to_dict()`` is the JSON a web client reads from ``/api/games``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from folkcards.cards import CARD_NAMES, SUITS, Card, CardSet, card_of, iter_cards

if TYPE_CHECKING:
    from folkcards.engine.api import Observation

JSON = Any

NO_TRUMP = "none"
"""The ``trump_groups`` key of the trump group before (or without) a trump suit."""

FRENCH_SUITS: dict[str, str] = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
ITALIAN_SUITS: dict[str, str] = {"C": "batons", "S": "swords", "H": "cups", "D": "coins"}


@dataclass(frozen=True)
class GameCard:
    """What a client needs to know of a game under one variant.

    ``sides``: the scoring sides, each a tuple of seats (teams, or one seat each).
    ``utility_bounds``: the least and most one side can score in one deal (``result``'s
    ``score``); ``margin_scale``: a typical size of a deal's margin between sides;
    ``shaping``: a finer result key and its scale (``("points", 15.0)``) that tells by how
    much a side won, or None. ``suit_ranks[s]``: the cards of suit ``s`` from highest to
    lowest in the game's plain order; ``trump_groups[t]``: the trump group when ``t`` is
    trump (:data:`NO_TRUMP` before a trump is named), highest first — the cards sort_hand
    puts before the suits.

    The fields after ``notes`` are what a table and a learning encoding need beyond that,
    declared here so that no client keeps a table keyed by game name; each has a default
    that says "nothing of the kind", for a game that does not declare it.
    """

    name: str
    title: str
    variant: Mapping[str, Any]
    seats: int
    sides: tuple[tuple[int, ...], ...]
    partnership: bool
    direction: str
    deck: CardSet
    pack: str
    phases: tuple[str, ...]
    utility_bounds: tuple[int, int]
    margin_scale: float
    shaping: tuple[str, float] | None
    suit_order: str
    suit_ranks: Mapping[str, tuple[Card, ...]]
    trump_groups: Mapping[str, tuple[Card, ...]]
    table_keys: tuple[str, ...]
    rules: str
    notes: Mapping[str, str] = field(default_factory=dict)
    tricks: bool = True
    """Whether the deal is played in tricks: False for Scopone, whose cards are played to
    the table and captured from it, so a client draws the table instead of a trick and has
    no last trick to show."""
    hidden_keys: tuple[str, ...] = ()
    """Public ``info`` keys a table that lists the ``info`` leaves out: shown another way
    (the leader, by the trick) or bookkeeping (turn and card counters)."""
    fact_keys: tuple[str, ...] = ()
    """The ``info`` keys of a table's side panel of facts, in the order shown."""
    points_key: str | None = None
    """The ``info`` key of the card points each side has taken so far (``points``;
    Sheepshead's ``taken``, per seat), or None where the game counts none."""
    card_points: Mapping[str, int] = field(default_factory=dict)
    """Rank letter → card points, where a side's card points are exactly the sum of its
    cards' values (Sasku, Sheepshead), so a client may add up cards itself (Sheepshead's
    bury, which only the picker sees); empty where it must not (a last-trick bonus, values
    set by the variant: Huutopussi) or there are no card points."""
    tally: bool = False
    """The match score counts strokes, drawn as tally marks (Sasku)."""
    phase_cards: Mapping[str, int] = field(default_factory=dict)
    """Phase → how many cards one seat hands over in it in all, one card per action
    (Sheepshead's bury: 2), for a "1 of 3" prompt."""
    default_actions: Mapping[str, str] = field(default_factory=dict)
    """Phase → the action the rules take when the seat says nothing (Sasku's cut: ``deal
    threes``, SAS-6.2); a person may take it by pressing Enter."""
    choice_notes: tuple[str, ...] = ()
    """Actions (a verb, or a verb and its first word: ``ask marriage``) a beginner cannot
    guess the meaning of; a table explains each in a line while it is on offer."""
    match_target: int | None = None
    """The total that wins a match (Sasku's target strokes, Scopone's target points,
    Satat's deals won, Huutopussi's 500), or None where none does (Satat without a
    target, Sheepshead): for a table's "how the match ends" line."""
    match_deals: int | None = None
    """The deals a match lasts (Sheepshead's ``match_deals``), or None."""
    encoding_phases: tuple[str, ...] = ()
    """The phase one-hot block of the learning encoding (``folkcards.rl.encoding``): fixed,
    the same under every variant, so that a trained agent's input layout never changes; a
    name that is not one of ``phases`` sets no bit."""
    encoding_scalars: tuple[tuple[str, float], ...] = ()
    """The learning encoding's numeric ``info`` keys, each with the divisor that scales it
    to about [0, 1] (Sasku's ``bid`` by 9)."""

    @property
    def suit_names(self) -> dict[str, str]:
        """Suit letter → name in this game's pack (Italian: batons, swords, cups, coins)."""
        return dict(ITALIAN_SUITS if self.pack == "italian" else FRENCH_SUITS)

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat``."""
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(f"no seat {seat} in {self.name}")

    def display_order(self, trump: str | None = None) -> list[Card]:
        """Every card of the pack in display order with ``trump`` trump (a suit letter or
        None): the trump group, then each suit (``suit_order``) by its ranks."""
        key = trump if trump is not None and trump in self.trump_groups else NO_TRUMP
        group = self.trump_groups.get(key, ())
        seen = set(group)
        order = list(group)
        for s in self.suit_order:
            for c in self.suit_ranks.get(s, ()):
                if c not in seen:
                    seen.add(c)
                    order.append(c)
        order += [c for c in iter_cards(self.deck) if c not in seen]  # never: each card listed
        return order

    def sort_hand(
        self, hand: CardSet | Sequence[Card], trump: str | Observation | None = None
    ) -> list[Card]:
        """The cards of ``hand`` (a card set or list) in display order. ``trump`` is the
        trump suit letter, None, or an Observation (its ``info["trump"]``: the trump as that
        seat knows it; Sheepshead's and Sasku's permanent trumps need no trump named)."""
        named = trump.info.get("trump") if not isinstance(trump, str | None) else trump
        suit = named if isinstance(named, str) and len(named) == 1 and named in SUITS else None
        if not isinstance(hand, int):
            mask = 0
            for c in hand:
                mask |= 1 << c
            hand = mask
        return [c for c in self.display_order(suit) if hand >> c & 1]

    def to_dict(self) -> dict[str, JSON]:
        """JSON-ready (cards as canonical text), for ``/api/games``."""
        return {
            "name": self.name,
            "title": self.title,
            "variant": dict(self.variant),
            "seats": self.seats,
            "sides": [list(s) for s in self.sides],
            "partnership": self.partnership,
            "direction": self.direction,
            "pack": self.pack,
            "suit_names": self.suit_names,
            "deck": [CARD_NAMES[c] for c in iter_cards(self.deck)],
            "phases": list(self.phases),
            "utility_bounds": list(self.utility_bounds),
            "margin_scale": self.margin_scale,
            "shaping": (
                None if self.shaping is None else {"key": self.shaping[0], "scale": self.shaping[1]}
            ),
            "suit_order": self.suit_order,
            "suit_ranks": {s: [CARD_NAMES[c] for c in cs] for s, cs in self.suit_ranks.items()},
            "trump_groups": {t: [CARD_NAMES[c] for c in cs] for t, cs in self.trump_groups.items()},
            "table_keys": list(self.table_keys),
            "rules": self.rules,
            "notes": dict(self.notes),
            "tricks": self.tricks,
            "hidden_keys": list(self.hidden_keys),
            "fact_keys": list(self.fact_keys),
            "points_key": self.points_key,
            "card_points": dict(self.card_points),
            "tally": self.tally,
            "phase_cards": dict(self.phase_cards),
            "default_actions": dict(self.default_actions),
            "choice_notes": list(self.choice_notes),
            "match_target": self.match_target,
            "match_deals": self.match_deals,
            "encoding_phases": list(self.encoding_phases),
            "encoding_scalars": [[k, v] for k, v in self.encoding_scalars],
        }


def cards_of(text: str) -> tuple[Card, ...]:
    """Card numbers of a space-separated list of card texts (``"6H KC KS"``)."""
    return tuple(card_of(t) for t in text.split())


def suit_run(ranks: str, suit: str) -> tuple[Card, ...]:
    """The cards of ``suit`` with the rank letters of ``ranks``, in that order."""
    return tuple(card_of(r + suit) for r in ranks)


def teams(seats: int, partnership: bool) -> tuple[tuple[int, ...], ...]:
    """Fixed partnerships (0 and 2, 1 and 3), or one side per seat."""
    if partnership:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(seats))
