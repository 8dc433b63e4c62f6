"""Satat's fixed facts: the pack and its 2♥, the trump suits, the deal, the variants, the
phases and the one action table that every other module of the game reads.

* SAT-1: 52 cards, plain order A … 2, the 2♥ the highest card of the pack and still a
  heart; one :class:`~folkcards.engine.tricks.TrumpConfig` per trump suit (SAT-1.8).
* SAT-4.2: which deck positions go to which seat; SAT-7.5–7.8: who may give what when
  cards are passed after a 7-0 or 13-0.
* SAT-14: the variant keys and :class:`SatatRules`, what one normalized variant sets.
* SAT-4.7: the phases of a deal, in order, as names and as the numbers the rules compare.
* SAT-17: every action of the game in one :class:`~folkcards.engine.actions.ActionTable`
  whose codes follow the conventions' sort order, with each code's kind (``KIND``), its
  argument (``ARG``: a card, a blind position, a suit, or a give's card mask) and its
  signal suffix (``SUF``), and the action of each card, position and suit by number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_52,
    SUIT_MASK,
    SUITS,
    Card,
    CardSet,
    iter_cards,
    ranks_mask,
)
from folkcards.engine.actions import Action, ActionTable
from folkcards.engine.api import VariantOption
from folkcards.engine.memo import Memo
from folkcards.engine.tricks import TrumpConfig

# --- SAT-1 cards --------------------------------------------------------------------------

TWO_H: Card = 2 * 13 + 12
"""The 2♥, the highest card of the pack (SAT-1.3)."""
B2H: CardSet = 1 << TWO_H
"""The 2♥ as a card set."""
PICTURES: CardSet = ranks_mask("KQJ")
"""K, Q and J of every suit: the pictures whose absence allows a redeal (SAT-1.5, SAT-5.4)."""
NOT_2H: tuple[CardSet, ...] = tuple(m & ~B2H for m in SUIT_MASK)
"""Each suit without the 2♥ (the cards one must follow with, SAT-8.3)."""

CONFIGS: tuple[TrumpConfig, ...] = tuple(
    TrumpConfig(DECK_52, list(range(13 * t, 13 * t + 13)), list(range(13)), supreme=TWO_H)
    for t in range(4)
)
"""One trick configuration per trump suit; the 2♥ beats everything (SAT-1.3, SAT-1.8)."""


def card_subsets(cards: CardSet, k: int) -> list[CardSet]:
    """Every set of ``k`` cards of ``cards``, as masks, in the order of
    :func:`itertools.combinations` over the cards in card order."""
    out = []
    for combo in combinations(list(iter_cards(cards)), k):
        m = 0
        for c in combo:
            m |= BIT[c]
        out.append(m)
    return out


# --- SAT-4 dealing ------------------------------------------------------------------------


def deck_from_hands(hands: Sequence[Sequence[Card]], dealer: int) -> list[Card]:
    """The deck order that deals ``hands`` (each in the order received; SAT-4.2/SAT-4.3)."""
    deck: list[Card] = []
    for lo, hi in ((0, 5), (5, 9), (9, 13)):
        for i in range(1, 5):
            deck.extend(hands[(dealer + i) % 4][lo:hi])
    return deck


def hands_from_deck(deck: Sequence[Card], dealer: int) -> list[list[Card]]:
    """Each seat's cards in the order received (SAT-4.2)."""
    hands: list[list[Card]] = [[] for _ in range(4)]
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        hands[seat].extend(deck[5 * i : 5 * i + 5])
    for rnd in range(2):
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            base = 20 + 16 * rnd + 4 * i
            hands[seat].extend(deck[base : base + 4])
    return hands


# --- SAT-4.7 phases -----------------------------------------------------------------------

PHASES = ("trump", "propose", "consent", "give", "announce", "play", "lese", "continue", "over")
"""The public phase names (``state.phase``, SAT-4.7, SAT-17), indexed by phase number."""
(
    PH_TRUMP,
    PH_PROPOSE,
    PH_CONSENT,
    PH_GIVE,
    PH_ANNOUNCE,
    PH_PLAY,
    PH_LESE,
    PH_CONTINUE,
    PH_OVER,
) = range(9)
# A state keeps its phase twice: ``ph``, the number that every rule compares (by value:
# a phase string compared by identity would break once a state is pickled, its strings
# then being new objects), and ``phase``, the public name ``PHASES[ph]``. Both are
# assigned together at every change of phase.

# --- SAT-7 card passing: who may give what ------------------------------------------------


def _ranks_desc(cards: CardSet) -> list[int]:
    """Rank numbers of a set, high first (rank 0 = ace is highest)."""
    return sorted(c % 13 for c in iter_cards(cards))


def loser_gives_ok(pre: CardSet, give: CardSet, trump: int, k: int) -> bool:
    """SAT-7.5/SAT-7.6: may a loser holding ``pre`` give ``give`` (``k`` cards)?"""
    if give & B2H or give & ~pre or give.bit_count() != k:
        return False
    tr = pre & NOT_2H[trump]
    if tr.bit_count() >= k:
        return not give & ~tr
    if tr & ~give:
        return False
    other = pre & ~SUIT_MASK[trump] & ~B2H
    rest = give & ~tr
    if rest & ~other:
        return False
    n = k - tr.bit_count()
    return _ranks_desc(rest) == _ranks_desc(other)[:n]


def winner_gives_ok(pre: CardSet, give: CardSet, k: int) -> bool:
    """SAT-7.5/SAT-7.7: may a winner holding ``pre`` give ``give`` (``k`` cards)?"""
    if give & B2H or give & ~pre or give.bit_count() != k:
        return False
    after = pre & ~give
    return all(not pre & NOT_2H[s] or after & NOT_2H[s] for s in range(4))


def give_options_plain(pre: CardSet, trump: int, winner: bool, k: int) -> list[CardSet]:
    """Every legal give (as card masks) of a seat holding ``pre`` (SAT-7.5–SAT-7.8): each
    set of ``k`` cards checked by the rules' own tests. The reference of
    :func:`give_options`."""
    if winner:
        return [m for m in card_subsets(pre & ~B2H, k) if winner_gives_ok(pre, m, k)]
    return [m for m in card_subsets(pre & ~B2H, k) if loser_gives_ok(pre, m, trump, k)]


def give_options(pre: CardSet, trump: int, winner: bool, k: int) -> list[CardSet]:
    """Every legal give (as card masks) of a seat holding ``pre`` (SAT-7.5–SAT-7.8), in
    the order of :func:`give_options_plain`, built from what the rules allow instead of
    checking every set of ``k`` cards: a winner gives no card that is the last of its suit
    in his hand, nor the whole of a suit (SAT-7.7); a loser gives only trumps while he has
    ``k`` of them, else all his trumps and his highest plain cards, choosing among the cards
    of the lowest rank he must give (SAT-7.6). The 2♥ is never given (SAT-7.5). A card
    sampler replays the gives of many deals, so this is on its path."""
    cards = pre & ~B2H
    if winner:
        whole = 0  # suits the give might empty: their cards all go only if they are k or fewer
        free = cards
        for s in range(4):
            held = cards & SUIT_MASK[s]
            if held and held.bit_count() <= k:
                if held.bit_count() == 1:
                    free &= ~held  # his last card of the suit
                else:
                    whole |= 1 << s
        out = card_subsets(free, k)
        if whole:
            out = [m for m in out if winner_gives_ok(pre, m, k)]
        return out
    tr = cards & SUIT_MASK[trump]
    if tr.bit_count() >= k:
        return card_subsets(tr, k)
    n = k - tr.bit_count()
    other = cards & ~SUIT_MASK[trump]
    if other.bit_count() < n:
        return []
    by_rank = [0] * 13  # the plain cards of each rank index, 0 the ace
    for c in iter_cards(other):
        by_rank[c % 13] |= BIT[c]
    must = 0
    for r in range(13):
        here = by_rank[r]
        if not here:
            continue
        left = n - must.bit_count()
        if here.bit_count() >= left:  # the lowest rank he must give: choose among it
            return [tr | must | m for m in card_subsets(here, left)]
        must |= here
    return []  # not reached: other holds n cards


# --- SAT-14 variants ----------------------------------------------------------------------

SIGNAL_LEVELS = ("none", "home", "all")
"""The ``signals`` levels (SAT-16), in the order of their numbers 0, 1, 2."""

VARIANT_OPTIONS = (
    VariantOption("trup_kasiet", False, "hidden-trump variant Trup Kasiet (SAT-15)"),
    VariantOption("signals", "none", "table signals as actions (SAT-16)", choices=SIGNAL_LEVELS),
    VariantOption("match_target", 0, "deals to win the match, 0 = unlimited (SAT-13.3)", minimum=0),
)
"""The ``variant`` keys of SAT-14, with their defaults (the main game, tournament rules)."""


@dataclass(frozen=True)
class SatatRules:
    """What one normalized variant sets (SAT-14), derived once.

    ``signals`` is the level's number (0 none, 1 home, 2 all; SAT-16); ``phases`` the phases
    a deal can pass through under these rules, in order (SAT-4.7): Trup Kasiet has no
    partner's redeal and no card passing (SAT-15.6, SAT-15.7), the announce phase needs
    signals (SAT-16.3) and the lese phase the level ``all`` (SAT-16.5).
    """

    trup_kasiet: bool
    signals: int
    match_target: int
    phases: tuple[str, ...]


RULES: Memo[tuple[Any, ...], SatatRules] = Memo("satat.rules", limit=1 << 10)
"""One :class:`SatatRules` per variant met (a few in practice; match targets are unbounded)."""


def rules_of(variant: Mapping[str, Any]) -> SatatRules:
    """The :class:`SatatRules` of a normalized variant (every SAT-14 key present); one
    dictionary look-up for a variant met before (a deal reads it when it is dealt)."""
    key = (variant["trup_kasiet"], variant["signals"], variant["match_target"])
    try:
        return RULES.table[key]
    except KeyError:
        return _new_rules(key)


def _new_rules(key: tuple[Any, ...]) -> SatatRules:
    tk, signals, target = bool(key[0]), str(key[1]), int(key[2])
    level = SIGNAL_LEVELS.index(signals)
    skip = {"over"}
    if tk:  # SAT-15.6, SAT-15.7
        skip |= {"propose", "consent", "give"}
    if level < 1:  # SAT-16.3
        skip.add("announce")
    if level < 2:  # SAT-16.5
        skip.add("lese")
    phases = tuple(p for p in PHASES if p not in skip)
    rules = SatatRules(trup_kasiet=tk, signals=level, match_target=target, phases=phases)
    return RULES.store(key, rules)


# --- SAT-17 actions -----------------------------------------------------------------------

(
    K_ACCEPT,
    K_ANNOUNCE,
    K_BLIND,
    K_CONTINUE,
    K_GIVE,
    K_HIDE,
    K_LESE,
    K_PASS,
    K_PLAY,
    K_PROPOSE,
    K_REDEAL,
    K_REFUSE,
    K_SILENT,
    K_STOP,
    K_TRUMP,
) = range(15)
"""Action kinds, one per verb (``KIND[code]``)."""
VERBS = {
    "accept": K_ACCEPT,
    "announce": K_ANNOUNCE,
    "blind": K_BLIND,
    "continue": K_CONTINUE,
    "give": K_GIVE,
    "hide": K_HIDE,
    "lese": K_LESE,
    "pass": K_PASS,
    "play": K_PLAY,
    "propose": K_PROPOSE,
    "redeal": K_REDEAL,
    "refuse": K_REFUSE,
    "silent": K_SILENT,
    "stop": K_STOP,
    "trump": K_TRUMP,
}
SUFFIXES = ("", "grate", "pile", "vire")
"""The signal suffixes of a ``play``, in SAT-16.6's order (``SUF[code]`` indexes it)."""
PHASE_ACTIONS: dict[str, list[str]] = {
    "propose": ["pass", "propose"],
    "consent": ["accept", "refuse"],
    "announce": ["announce", "silent"],
    "lese": ["lese", "silent"],
    "continue": ["continue", "stop"],
}
"""The actions of the phases that an explanation names only by their phase (SAT-17)."""


def _all_texts() -> list[str]:
    """Every action text of SAT-17, in no particular order (the table sorts them)."""
    texts = ["accept", "announce", "continue", "lese", "pass", "propose", "redeal", "refuse"]
    texts += ["silent", "stop"]
    texts += [f"blind {n}" for n in range(1, 5)]
    texts += [f"trump {s}" for s in SUITS]
    for c in range(52):
        name = CARD_NAMES[c]
        texts += [f"give {name}", f"hide {name}", f"play {name}"]
        texts += [f"play {name} {s}" for s in SUFFIXES[1:]]
    for a, b in combinations(range(52), 2):
        texts.append(f"give {CARD_NAMES[a]} {CARD_NAMES[b]}")
    return texts


TABLE = ActionTable(_all_texts(), DECK_52)
"""Every Satat action; codes follow the conventions' sort order (SAT-17.1)."""
_N = len(TABLE)
KIND = [0] * _N
"""``KIND[code]``: the action's kind (``K_ACCEPT`` … ``K_TRUMP``)."""
ARG = [0] * _N
"""``ARG[code]``: the card of a ``play``/``hide``, the position of a ``blind``, the suit of a
``trump``, the card mask of a ``give``; 0 for the rest."""
SUF = [0] * _N
"""``SUF[code]``: a ``play``'s suffix as an index of :data:`SUFFIXES` (0: none)."""
PLAY: list[list[Action]] = [[TABLE.actions[0]] * 4 for _ in range(52)]
"""``PLAY[c][s]``: ``play C`` with suffix ``SUFFIXES[s]``."""
GIVE: dict[CardSet, Action] = {}
"""``GIVE[mask]``: the ``give`` of those one or two cards."""
HIDE: list[Action] = [TABLE.actions[0]] * 52
"""``HIDE[c]``: ``hide C`` (Trup Kasiet, SAT-15.2)."""
BLIND: list[Action] = [TABLE.actions[0]] * 5
"""``BLIND[n]``: ``blind N`` for N = 1…4 (SAT-5.3)."""
TRUMP: list[Action] = [TABLE.actions[0]] * 4
"""``TRUMP[suit]``: ``trump X`` (SAT-5.2)."""


def _index_table() -> None:
    """Fill ``KIND``, ``ARG``, ``SUF`` and the per-card, per-position and per-suit actions,
    from each action's structure (its :class:`~folkcards.engine.actions.Step`: verb, cards,
    number, suit); a play's signal suffix (SAT-16.6) is the one word a step does not carry,
    so it is its text's last word."""
    for a in TABLE.actions:
        st = a.step
        k = VERBS[st.kind]
        KIND[a] = k
        if k == K_PLAY:
            c = st.cards[0]
            ARG[a] = c
            last = a.text.rpartition(" ")[2]
            SUF[a] = SUFFIXES.index(last) if last in SUFFIXES[1:] else 0
            PLAY[c][SUF[a]] = a
        elif k == K_GIVE:
            ARG[a] = st.card_set
            GIVE[ARG[a]] = a
        elif k == K_HIDE:
            ARG[a] = st.cards[0]
            HIDE[ARG[a]] = a
        elif k == K_BLIND:
            assert st.number is not None
            ARG[a] = st.number
            BLIND[ARG[a]] = a
        elif k == K_TRUMP:
            assert st.suit is not None
            ARG[a] = SUITS.index(st.suit)
            TRUMP[ARG[a]] = a


_index_table()

A_ACCEPT, A_ANNOUNCE, A_CONTINUE, A_LESE = (
    TABLE[t] for t in ("accept", "announce", "continue", "lese")
)
A_PASS, A_PROPOSE, A_REDEAL, A_REFUSE = (TABLE[t] for t in ("pass", "propose", "redeal", "refuse"))
A_SILENT, A_STOP = TABLE["silent"], TABLE["stop"]
