"""Huutopussi's fixed facts: the pack, its orders and points, the phases, the one action
table every other module of the game reads, and a variant's frozen rules.

* HUU-1: 36 cards, A T K Q J 9 8 7 6 in every suit (trump or not), the point schemes, the
  marriage values and MAX; one :class:`~folkcards.engine.tricks.TrumpConfig` per trump
  suit and one for no trump (HUU-7.2, HUU-8.8).
* HUU-4.6: the hands that may ask for a redeal.
* HUU-16.1–16.3: every action of every variant in one
  :class:`~folkcards.engine.actions.ActionTable` whose codes follow the conventions' sort
  order, with each code's verb (``KIND``) and argument (``ARG``: a card, a suit or a
  number), and the action of each card, suit and number; HUU-16.2: the phases, as texts
  and as the numbers the rules compare.
* HUU-11, HUU-12, HUU-13: :class:`Rules`, what one normalized variant sets, from
  :func:`rules_of`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
    CardSet,
    iter_cards,
)
from folkcards.engine.actions import Action, ActionTable
from folkcards.engine.memo import Memo
from folkcards.engine.tricks import TrumpConfig

# --- HUU-1 the pack --------------------------------------------------------------------------

DECK: CardSet = DECK_36
CARDS36: tuple[int, ...] = tuple(iter_cards(DECK))

# HUU-1.2: A > T > K > Q > J > 9 > 8 > 7 > 6 in every suit, trump or not.
TRICK_ORDER: tuple[int, ...] = (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN, SIX)

NO_TRUMP = 4
CONFIGS: tuple[TrumpConfig, ...] = (
    *tuple(TrumpConfig(DECK, [s * 13 + r for r in TRICK_ORDER], TRICK_ORDER) for s in range(4)),
    TrumpConfig(DECK, [], TRICK_ORDER),
)
"""``CONFIGS[x]``: trick tables with suit ``x`` trump (HUU-7.2, 8.8); ``CONFIGS[4]``: no trump."""

ACES: CardSet = RANK_MASK[ACE] & DECK
SIXES: CardSet = RANK_MASK[SIX] & DECK
HIGH: CardSet = (RANK_MASK[ACE] | RANK_MASK[TEN] | RANK_MASK[KING] | RANK_MASK[QUEEN]) & DECK
SPADES: CardSet = SUIT_MASK[1] & DECK
KINGS: tuple[int, ...] = tuple(s * 13 + KING for s in range(4))
QUEENS: tuple[int, ...] = tuple(s * 13 + QUEEN for s in range(4))
PAIR: tuple[CardSet, ...] = tuple((1 << KINGS[s]) | (1 << QUEENS[s]) for s in range(4))
"""``PAIR[x]``: the marriage K+Q of suit ``x``."""
KQ_MASK: CardSet = sum(PAIR)
"""Every king and queen: what decides a seat's declaration attempts (HUU-8.3–8.5)."""

SUIT_ORDER_WORDS: tuple[int, ...] = (0, 3, 2, 1)
"""Suits in code-point order of their letters (C D H S): the order of ``declare X`` etc."""

POINT_SCHEMES: Mapping[str, Mapping[int, int]] = {
    "10-10-5-5-5": {ACE: 10, TEN: 10, KING: 5, QUEEN: 5, JACK: 5},
    "11-10-4-3-2": {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2},
}
MARRIAGE_VALUES: Mapping[str, tuple[int, int, int, int]] = {
    # values of C, S, H, D
    "hearts-high": (60, 40, 100, 80),  # HUU-1.5: S 40, C 60, D 80, H 100
    "bridge": (40, 100, 80, 60),  # HUU-11.3: S 100, H 80, D 60, C 40
}


def can_redeal(hand: CardSet) -> bool:
    """HUU-4.6: at least three sixes, or no card above a jack (no A, T, K, Q)."""
    return (hand & SIXES).bit_count() >= 3 or not hand & HIGH


# --- HUU-16.2 phases ---------------------------------------------------------------------------

P_BIDDING, P_GIVE, P_CONTRACT, P_RETURN, P_DISCARD, P_PLAY, P_ANSWER, P_OVER = range(8)
PHASES: tuple[str, ...] = (
    "bidding",
    "give",
    "contract",
    "return",
    "discard",
    "play",
    "answer",
    "over",
)
"""``PHASES[code]``: the public ``phase`` text (HUU-16.2) of an internal phase code ``P_…``.

The state tests its phase by the int code ``ph``, never by the identity of the text: a
state that went through ``pickle`` holds equal but different string objects."""

# --- HUU-16.1 the action space -----------------------------------------------------------------

BID_VALUES: tuple[int, ...] = tuple(range(50, 445, 5))

K_BID, K_PASS, K_REDEAL, K_GIVE, K_CONTRACT, K_RETURN, K_DISCARD, K_PLAY = range(8)
K_DECLARE, K_ASK_MARRIAGE, K_ASK_HALF, K_ANSWER_SUIT, K_ANSWER_NO, K_ANSWER_YES = range(8, 14)
K_KONTRA, K_RE = 14, 15


def _texts() -> list[tuple[str, int, int]]:
    """Every action text of every variant with its verb and argument (HUU-16.1)."""
    out: list[tuple[str, int, int]] = []
    for n in BID_VALUES:
        out.append((f"bid {n}", K_BID, n))
        out.append((f"contract {n}", K_CONTRACT, n))
    out += [("pass", K_PASS, 0), ("redeal", K_REDEAL, 0), ("ask marriage", K_ASK_MARRIAGE, 0)]
    out += [("answer no", K_ANSWER_NO, 0), ("answer yes", K_ANSWER_YES, 0)]
    out += [("kontra", K_KONTRA, 0), ("re", K_RE, 0)]
    verbs = (("give", K_GIVE), ("return", K_RETURN), ("discard", K_DISCARD), ("play", K_PLAY))
    for c in CARDS36:
        for verb, kind in verbs:
            out.append((f"{verb} {CARD_NAMES[c]}", kind, c))
    for x, letter in enumerate(SUITS):
        out.append((f"declare {letter}", K_DECLARE, x))
        out.append((f"ask half {letter}", K_ASK_HALF, x))
        out.append((f"answer {letter}", K_ANSWER_SUIT, x))
    return out


_TEXTS = _texts()
TABLE = ActionTable((t for t, _, _ in _TEXTS), DECK)
"""Every action text of every variant; codes follow the conventions' sort order (HUU-16.3)."""


def _kinds_and_args() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``KIND`` and ``ARG`` by action code."""
    kinds = [0] * len(TABLE)
    args = [0] * len(TABLE)
    for text, kind, arg in _TEXTS:
        kinds[TABLE[text]] = kind
        args[TABLE[text]] = arg
    return tuple(kinds), tuple(args)


_KA = _kinds_and_args()
KIND: tuple[int, ...] = _KA[0]
"""``KIND[code]``: the verb of an action (``K_PLAY`` …)."""
ARG: tuple[int, ...] = _KA[1]
"""``ARG[code]``: its argument (card, suit or number)."""


def _by_card(verb: str) -> tuple[Action, ...]:
    """``verb C`` for every card number of the pack (another action elsewhere)."""
    out = [TABLE.actions[0]] * 52
    for c in CARDS36:
        out[c] = TABLE[f"{verb} {CARD_NAMES[c]}"]
    return tuple(out)


PLAY = _by_card("play")
GIVE = _by_card("give")
RETURN = _by_card("return")
DISCARD = _by_card("discard")
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

# --- HUU-11, HUU-12, HUU-13 a variant's rules -------------------------------------------------


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


VARIANT_KEYS = (
    "players",
    "card_points",
    "last_trick",
    "marriage_values",
    "no_trick_rule",
    "erlangen",
    "tie",
)
"""The variant options in the order :func:`rules_of` reads them (its memo's key)."""


def _make_rules(key: tuple[Any, ...]) -> Rules:
    """The :class:`Rules` of the option values ``key`` (in ``VARIANT_KEYS`` order)."""
    variant = dict(zip(VARIANT_KEYS, key, strict=True))
    erlangen = bool(variant["erlangen"])
    players = int(variant["players"])
    scheme = "11-10-4-3-2" if erlangen else str(variant["card_points"])  # HUU-12.1
    last = 20 if erlangen else int(variant["last_trick"])
    values = POINT_SCHEMES[scheme]
    pts = [0] * 52
    for c in CARDS36:
        pts[c] = values.get(c % 13, 0)
    return Rules(
        players=players,
        erlangen=erlangen,
        porvoo=(not erlangen and players == 4 and variant["no_trick_rule"] == "porvoo"),
        tie_draw=(players == 4 and variant["tie"] == "draw"),
        point_scheme=scheme,
        last_trick=last,
        marriage_values=MARRIAGE_VALUES[str(variant["marriage_values"])],
        max_bid=4 * sum(values.values()) + last + 280,  # HUU-1.6: MAX
        min_bid=120 if erlangen else 50,  # HUU-4.2, HUU-12.2
        exchange=4 if erlangen else 3,  # HUU-5.1, HUU-12.3
        tricks=11 if players == 3 else 9,  # HUU-7.1
        card_points=tuple(pts),
        sides=(0, 1, 2) if players == 3 else (0, 1, 0, 1),
        next_seat=tuple((s + 1) % players for s in range(players)),
    )


RULES: Memo[tuple[Any, ...], Rules] = Memo("huutopussi.rules", _make_rules, limit=1 << 10)
"""The rules of each variant met, by the values of its seven options."""


def rules_of(variant: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` of a normalized variant (by the options' values, read in one
    fixed order whatever the mapping's own order)."""
    key = tuple([variant[k] for k in VARIANT_KEYS])
    got = RULES.table.get(key)
    return RULES.miss(key) if got is None else got
