"""Precomputed tables of Huutopussi: the action space, card points, trick configurations.

Everything here is built once at import. The hot path (legal generation and ``apply`` in
:mod:`.state`) only indexes these tuples: an action's kind and argument, the play actions of
one suit's cards as a ready-made tuple, the trick tables of the current trump.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from folkcards.cards import (
    ACE,
    CARD_NAMES,
    DECK_36,
    EIGHT,
    JACK,
    KING,
    NINE,
    QUEEN,
    RANK_MASK,
    SEVEN,
    SIX,
    SUIT_MASK,
    SUITS,
    TEN,
    iter_cards,
)
from folkcards.engine.actions import Action, ActionTable
from folkcards.engine.tricks import TrumpConfig

DECK: int = DECK_36
CARDS36: tuple[int, ...] = tuple(iter_cards(DECK))

# HUU-1.2: A > T > K > Q > J > 9 > 8 > 7 > 6 in every suit, trump or not.
TRICK_ORDER: tuple[int, ...] = (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN, SIX)

NO_TRUMP = 4
CONFIGS: tuple[TrumpConfig, ...] = (
    *tuple(TrumpConfig(DECK, [s * 13 + r for r in TRICK_ORDER], TRICK_ORDER) for s in range(4)),
    TrumpConfig(DECK, [], TRICK_ORDER),
)
"""``CONFIGS[x]``: trick tables with suit ``x`` trump (HUU-7.2, 8.8); ``CONFIGS[4]``: no trump."""

ACES: int = RANK_MASK[ACE] & DECK
SIXES: int = RANK_MASK[SIX] & DECK
HIGH: int = (RANK_MASK[ACE] | RANK_MASK[TEN] | RANK_MASK[KING] | RANK_MASK[QUEEN]) & DECK
SPADES: int = SUIT_MASK[1] & DECK
KINGS: tuple[int, ...] = tuple(s * 13 + KING for s in range(4))
QUEENS: tuple[int, ...] = tuple(s * 13 + QUEEN for s in range(4))
PAIR: tuple[int, ...] = tuple((1 << KINGS[s]) | (1 << QUEENS[s]) for s in range(4))
"""``PAIR[x]``: the marriage K+Q of suit ``x``."""

SUIT_ORDER_WORDS: tuple[int, ...] = (0, 3, 2, 1)
"""Suits in code-point order of their letters (C D H S): the order of ``declare X`` etc."""

BID_VALUES: tuple[int, ...] = tuple(range(50, 445, 5))

# --- the action space (HUU-16.1) -----------------------------------------------------------
K_BID, K_PASS, K_REDEAL, K_GIVE, K_CONTRACT, K_RETURN, K_DISCARD, K_PLAY = range(8)
K_DECLARE, K_ASK_MARRIAGE, K_ASK_HALF, K_ANSWER_SUIT, K_ANSWER_NO, K_ANSWER_YES = range(8, 14)
K_KONTRA, K_RE = 14, 15

_TEXTS: list[tuple[str, int, int]] = []
for _n in BID_VALUES:
    _TEXTS.append((f"bid {_n}", K_BID, _n))
    _TEXTS.append((f"contract {_n}", K_CONTRACT, _n))
_TEXTS += [("pass", K_PASS, 0), ("redeal", K_REDEAL, 0), ("ask marriage", K_ASK_MARRIAGE, 0)]
_TEXTS += [("answer no", K_ANSWER_NO, 0), ("answer yes", K_ANSWER_YES, 0)]
_TEXTS += [("kontra", K_KONTRA, 0), ("re", K_RE, 0)]
for _c in CARDS36:
    for _verb, _kind in (
        ("give", K_GIVE),
        ("return", K_RETURN),
        ("discard", K_DISCARD),
        ("play", K_PLAY),
    ):
        _TEXTS.append((f"{_verb} {CARD_NAMES[_c]}", _kind, _c))
for _x, _letter in enumerate(SUITS):
    _TEXTS.append((f"declare {_letter}", K_DECLARE, _x))
    _TEXTS.append((f"ask half {_letter}", K_ASK_HALF, _x))
    _TEXTS.append((f"answer {_letter}", K_ANSWER_SUIT, _x))

TABLE = ActionTable((t for t, _, _ in _TEXTS), DECK)
"""Every action text of every variant; codes follow the conventions' sort order (HUU-16.3)."""

_KIND = [0] * len(TABLE)
_ARG = [0] * len(TABLE)
for _t, _k, _a in _TEXTS:
    _KIND[TABLE[_t]] = _k
    _ARG[TABLE[_t]] = _a
KIND: tuple[int, ...] = tuple(_KIND)
"""``KIND[code]``: the verb of an action (``K_PLAY`` …)."""
ARG: tuple[int, ...] = tuple(_ARG)
"""``ARG[code]``: its argument (card, suit or number)."""


def _by_card(verb: str) -> tuple[Action, ...]:
    out = [TABLE.actions[0]] * 52
    for c in CARDS36:
        out[c] = TABLE[f"{verb} {CARD_NAMES[c]}"]
    return tuple(out)


def _suit_tables(by_card: tuple[Action, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """For each suit, the action tuple of every 9-bit pattern of its cards (ranks A..6)."""
    return tuple(
        tuple(tuple(by_card[s * 13 + r] for r in range(9) if m >> r & 1) for m in range(512))
        for s in range(4)
    )


PLAY = _by_card("play")
GIVE = _by_card("give")
RETURN = _by_card("return")
DISCARD = _by_card("discard")
PLAY_TABS = _suit_tables(PLAY)
GIVE_TABS = _suit_tables(GIVE)
RETURN_TABS = _suit_tables(RETURN)
DISCARD_TABS = _suit_tables(DISCARD)
BID: dict[int, Action] = {n: TABLE[f"bid {n}"] for n in BID_VALUES}
CONTRACT: dict[int, Action] = {n: TABLE[f"contract {n}"] for n in BID_VALUES}
DECLARE: tuple[Action, ...] = tuple(TABLE[f"declare {x}"] for x in SUITS)
ASK_HALF: tuple[Action, ...] = tuple(TABLE[f"ask half {x}"] for x in SUITS)
ANSWER_SUIT: tuple[Action, ...] = tuple(TABLE[f"answer {x}"] for x in SUITS)
PASS = TABLE["pass"]
REDEAL = TABLE["redeal"]
ASK_MARRIAGE = TABLE["ask marriage"]
ANSWER_NO = TABLE["answer no"]
ANSWER_YES = TABLE["answer yes"]
KONTRA = TABLE["kontra"]
RE = TABLE["re"]


def mask_actions(mask: int, tabs: tuple[tuple[tuple[Action, ...], ...], ...]) -> tuple[Action, ...]:
    """The actions of a card set (one verb), in card order, from the per-suit tables."""
    if not mask:
        return ()
    suit = ((mask & -mask).bit_length() - 1) // 13
    rest = mask >> (13 * suit)
    if rest < 512:  # all in one suit: one lookup (the common case when following)
        return tabs[suit][rest]
    return (
        tabs[0][mask & 511]
        + tabs[1][(mask >> 13) & 511]
        + tabs[2][(mask >> 26) & 511]
        + tabs[3][(mask >> 39) & 511]
    )


# --- variant-dependent numbers (HUU-1, HUU-11, HUU-12) ---------------------------------------
POINT_SCHEMES: Mapping[str, Mapping[int, int]] = {
    "10-10-5-5-5": {ACE: 10, TEN: 10, KING: 5, QUEEN: 5, JACK: 5},
    "11-10-4-3-2": {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2},
}
MARRIAGE_VALUES: Mapping[str, tuple[int, int, int, int]] = {
    # values of C, S, H, D
    "hearts-high": (60, 40, 100, 80),  # HUU-1.5: S 40, C 60, D 80, H 100
    "bridge": (40, 100, 80, 60),  # HUU-11.3: S 100, H 80, D 60, C 40
}


@dataclass(frozen=True)
class Rules:
    """The numbers and switches of one normalized variant, derived once (HUU-11)."""

    players: int
    erlangen: bool
    porvoo: bool
    tie_draw: bool
    point_scheme: str
    last_trick: int
    marriage_values: tuple[int, int, int, int]
    max_bid: int
    min_bid: int
    exchange: int
    tricks: int
    card_points: tuple[int, ...]
    sides: tuple[int, ...]
    next_seat: tuple[int, ...]
    bid_cache: dict[tuple[int, bool, bool, bool], tuple[Action, ...]] = field(
        default_factory=dict, compare=False, hash=False
    )
    contract_cache: dict[int, tuple[Action, ...]] = field(
        default_factory=dict, compare=False, hash=False
    )

    def bidding_actions(
        self, lowest: int, banned_only50: bool, can_pass: bool, can_redeal: bool
    ) -> tuple[Action, ...]:
        """``bid N`` for ``lowest ≤ N ≤ MAX`` (or only ``bid 50``), then ``pass``/``redeal``."""
        key = (lowest, banned_only50, can_pass, can_redeal)
        out = self.bid_cache.get(key)
        if out is None:
            if banned_only50:
                bids: tuple[Action, ...] = (BID[50],)
            else:
                bids = tuple(BID[n] for n in BID_VALUES if lowest <= n <= self.max_bid)
            out = bids + ((PASS,) if can_pass else ()) + ((REDEAL,) if can_redeal else ())
            self.bid_cache[key] = out
        return out

    def contract_actions(self, bid: int) -> tuple[Action, ...]:
        """``contract N`` for ``bid ≤ N ≤ MAX`` (HUU-5.2)."""
        out = self.contract_cache.get(bid)
        if out is None:
            out = tuple(CONTRACT[n] for n in BID_VALUES if bid <= n <= self.max_bid)
            self.contract_cache[bid] = out
        return out


_RULES: dict[tuple[Any, ...], Rules] = {}
VARIANT_KEYS = (
    "players",
    "card_points",
    "last_trick",
    "marriage_values",
    "no_trick_rule",
    "erlangen",
    "tie",
)


def rules_of(variant: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` of a normalized variant (cached by the options' values, read in
    one fixed order whatever the mapping's own order)."""
    key = tuple([variant[k] for k in VARIANT_KEYS])
    r = _RULES.get(key)
    if r is not None:
        return r
    erlangen = bool(variant["erlangen"])
    players = int(variant["players"])
    scheme = "11-10-4-3-2" if erlangen else str(variant["card_points"])
    last = 20 if erlangen else int(variant["last_trick"])
    values = POINT_SCHEMES[scheme]
    pts = [0] * 52
    for c in CARDS36:
        pts[c] = values.get(c % 13, 0)
    # HUU-1.6: MAX = 4 × (A+T+K+Q+J) + last trick + 280.
    max_bid = 4 * sum(values.values()) + last + 280
    r = Rules(
        players=players,
        erlangen=erlangen,
        porvoo=(not erlangen and players == 4 and variant["no_trick_rule"] == "porvoo"),
        tie_draw=(players == 4 and variant["tie"] == "draw"),
        point_scheme=scheme,
        last_trick=last,
        marriage_values=MARRIAGE_VALUES[str(variant["marriage_values"])],
        max_bid=max_bid,
        min_bid=120 if erlangen else 50,  # HUU-4.2, HUU-12.2
        exchange=4 if erlangen else 3,  # HUU-5.1, HUU-12.3
        tricks=11 if players == 3 else 9,  # HUU-7.1
        card_points=tuple(pts),
        sides=(0, 1, 2) if players == 3 else (0, 1, 0, 1),
        next_seat=tuple((s + 1) % players for s in range(players)),
    )
    _RULES[key] = r
    return r
