"""Scopone: the four-player Italian fishing game (``/work/shared/rules/scopone.md``, prefix SCO).

One phase (``play``): each seat in turn (counter-clockwise = ``seat + 1``) plays one card;
a card equal in value to a table card must take one such card, otherwise it may take any
set of two or more table cards whose values add up to its own, otherwise it lies on the
table. A capture that empties the table is a *sweep* (scopa). At the end the team of the
last capture takes what is left, and the deal scores cards, coins, settebello, primiera
and the sweeps (plus re bello / napola in their variants).

Representation
    Hands, the table and the two team piles are card bitmasks (``folkcards.cards``). Capture
    values per card number are precomputed. The state keeps the table's *value key* (a
    base-5 digit per capture value counting its cards, updated in O(1) per play); which
    cards can capture, and how, depends only on that key and is memoized
    (:func:`_table_info`), so a hand with no capture gets its ``legal`` from two memoized
    half-hand lookups (clubs+spades, hearts+diamonds: half hands recur across deals). A
    capturing card of value ``v`` takes one of ``table & RANK_MASK[rank]`` if that is not
    empty (SCO-4.2.1), else any subset of two or more cards of value < v adding up to v
    (SCO-4.2.2). The sums come from *value templates* memoized by v and the table's counts
    of the values below v (which repeat across deals, unlike exact card sets): a template
    names whole values, so its cards are ``table & template`` (the rare sum that takes only
    some equal cards has a slow path).

Actions
    Scopone's action space is not a small finite table (a card may take any subset of the
    table), so actions are :class:`~folkcards.engine.Action` values with a stable code
    ``card | take_mask << 6`` (``take_mask`` = 0 for a card that captures nothing) and the
    canonical text ``play C`` / ``play C take X Y …`` (SCO-4.5). Actions are interned in a
    module cache, so legal generation allocates only the result tuple. ``legal`` is sorted
    by the played card, then by the take list compared as a sequence in card order.

Observation ``info`` (every key always present)
    ``turn``          turns played so far (0 … 36, or 40 in scientifico)
    ``table``         cards on the table now, in card order (public, SCO-3.3)
    ``initial_table`` the four cards dealt to the table (``[]`` in scientifico)
    ``piles``         ``[team 0 cards, team 1 cards]`` captured so far, in card order (public)
    ``sweeps``        ``[int, int]`` sweeps so far per team
    ``last_capture``  seat of the last capture so far, or ``None``
    ``hand_sizes``    cards in each seat's hand (public)
    ``redeal``        ``True`` for a void deal (SCO-3.4)
    Only the hands are hidden: every play and capture is public (SCO-9), so ``history``
    holds every action's full text, and ``public_observation()`` (``seat`` = SPECTATOR)
    is any seat's observation without its hand and legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_40,
    RANK_MASK,
    SUIT_MASK,
    Card,
    CardError,
    CardSet,
    card,
    cards_list,
    iter_cards,
    mask_text,
    parse_card,
    to_mask,
)
from folkcards.engine.actions import Action, ActionSyntaxError, canonical_tokens
from folkcards.engine.api import (
    JSON,
    SPECTATOR,
    DealState,
    Game,
    IllegalAction,
    MalformedRecord,
    MatchState,
    Observation,
    Variant,
    VariantOption,
)
from folkcards.engine.card import NO_TRUMP, GameCard, suit_run, teams
from folkcards.engine.events import Told, component, only, public
from folkcards.engine.explain import Explanation, explained
from folkcards.engine.registry import register

__all__ = ["GAME", "ScoponeGame", "ScoponeState", "capture_options", "capture_value"]

# --- cards and tables (SCO-1) ---------------------------------------------------------

_RANK_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
_PRIMIERA_FLAT = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12}
_PICTURES = {"flat": {"J": 10, "Q": 10, "K": 10}, "graded": {"J": 8, "Q": 9, "K": 10}}

CARDS_40: tuple[Card, ...] = tuple(iter_cards(DECK_40))
"""The 40 Scopone cards in card order."""

VALUE: list[int] = [0] * 52
"""Capture value of each card number (SCO-1.2); 0 for cards outside the Italian pack."""
for _c in CARDS_40:
    VALUE[_c] = _RANK_VALUE[CARD_NAMES[_c][0]]

_SAME_RANK: list[CardSet] = [RANK_MASK[c % 13] & DECK_40 for c in range(52)]
"""Cards of the same rank (= same capture value, SCO-1.2) as card ``c``, ``c`` included."""

SETTEBELLO: Card = card("7", "D")  # SCO-1.5
RE_BELLO: Card = card("K", "D")  # SCO-1.5 / SCO-8.3
COINS: CardSet = SUIT_MASK[3] & DECK_40
KINGS: CardSet = RANK_MASK[1]
NAPOLA_RUN: tuple[Card, ...] = tuple(card(r, "D") for r in "A234567JQK")  # SCO-8.4 order
NAPOLA_START: CardSet = BIT[NAPOLA_RUN[0]] | BIT[NAPOLA_RUN[1]] | BIT[NAPOLA_RUN[2]]


_M13 = 0x1FFF
_VW: list[int] = [5 ** (VALUE[c] - 1) if VALUE[c] else 0 for c in range(52)]
"""Weight of a card in a table's *value key*: a base-5 digit per value 1..10 counts that
value's cards (at most 4, SCO-1.2). Base 5, not 4-bit fields: the key stays below 5**10 < 2**30,
a one-digit Python int (cheaper to add and hash), and its low bits depend on every value's
count, so dicts keyed by it probe short chains (4-bit fields put only the counts of values
1-3 in a dict's low hash bits)."""
_KW: tuple[int, ...] = tuple(
    sum(_VW[r] for r in range(13) if pattern >> r & 1) for pattern in range(1 << 13)
)
"""Value key of a 13-bit suit pattern (every suit has the same ranks)."""


def value_key(cards: CardSet) -> int:
    """The value key (a base-5 digit per capture value counting its cards) of a set of cards."""
    return _KW[cards & _M13] + _KW[cards >> 13 & _M13] + _KW[cards >> 26 & _M13] + _KW[cards >> 39]


def _primiera_table(pictures: str) -> tuple[int, ...]:
    """Best primiera value (SCO-1.3 / SCO-8.6) of every 13-bit suit pattern (0 = empty)."""
    per_rank = [0] * 13
    values = dict(_PRIMIERA_FLAT, **_PICTURES[pictures])
    for r, letter in enumerate("AKQJT98765432"):
        per_rank[r] = values.get(letter, 0)
    out = []
    for pattern in range(1 << 13):
        best = 0
        for r in range(13):
            if pattern >> r & 1 and per_rank[r] > best:
                best = per_rank[r]
        out.append(best)
    return tuple(out)


PRIMIERA_TABLES: dict[str, tuple[int, ...]] = {p: _primiera_table(p) for p in _PICTURES}
_SUIT40 = DECK_40 & 0x1FFF
_PRIMIERA_PAIRS: dict[str, tuple[tuple[int, int], ...]] = {
    p: tuple((t[x], t[_SUIT40 & ~x]) for x in range(1 << 13)) for p, t in PRIMIERA_TABLES.items()
}
"""Per 13-bit suit pattern ``x`` of one pile: ``(best of x, best of the suit's other cards)``.
When the deal is over the two piles split the pack (SCO-5.3), so the other pile's suit
pattern is the rest of the suit: one lookup per suit gives both piles' primiera cards."""


def primiera(pile: CardSet, pictures: str = "flat") -> int:
    """A pile's primiera (SCO-6.4): sum of the best card per suit, 0 if a suit is missing."""
    table = PRIMIERA_TABLES[pictures]
    total = 0
    for s in range(4):
        best = table[(pile >> (13 * s)) & 0x1FFF]
        if not best:
            return 0
        total += best
    return total


def napola_points(pile: CardSet) -> int:
    """Napola (SCO-8.4): length of the unbroken coin run from A if it reaches 3, else 0."""
    if pile & NAPOLA_START != NAPOLA_START:
        return 0
    n = 3
    while n < 10 and pile >> NAPOLA_RUN[n] & 1:
        n += 1
    return n


def capture_value(c: Card) -> int:
    """The capture value of a Scopone card (SCO-1.2): A=1, 2..7, J=8, Q=9, K=10."""
    return VALUE[c]


def capture_options(c: Card, table: CardSet) -> list[CardSet]:
    """Every option of card ``c`` against ``table`` (SCO-4.2), in ``legal`` order (SCO-4.5)."""
    singles = table & _SAME_RANK[c]
    if singles:  # SCO-4.2.1: one equal card each, never a sum
        return [BIT[t] for t in iter_cards(singles)]
    return list(sum_options(VALUE[c], table))  # SCO-4.2.2 (empty: SCO-4.2.3)


# --- actions (SCO-4.5, SCO-4.6) -------------------------------------------------------

_N = 52  # card numbers 0..51: take sets are subsets of these


class Play(Action):
    """A Scopone action: ``play C`` (``take`` = 0) or ``play C take …`` (SCO-4.5).

    The integer code is ``(card << 52 | lexrank(take)) << 16 | salt``: ``lexrank`` numbers
    the take sets in the lexicographic order of their card sequences (0 for no take), so
    sorting codes numerically gives exactly the order of ``legal`` (SCO-4.5) and every
    action has one stable code; ``salt`` is 16 bits of a fixed hash of (card, take) that
    never affects the order but gives the codes well-spread low bits (Python hashes an int
    by its value, and structured low bits make dicts keyed by actions probe long chains).
    The attributes are precomputed for :meth:`ScoponeState.apply`.
    """

    card: Card
    take: CardSet
    bit: CardSet  # the played card as a set
    won: CardSet  # take | bit: what a capture adds to the team pile
    dv: int  # change of the table's value key when this is played
    fx: tuple[CardSet, CardSet, CardSet, int]  # (take, bit, won, dv) in one attribute load
    _text: str

    def __new__(cls, code: int, text: str | None = None) -> Play:
        obj = int.__new__(cls, code)
        if text is not None:
            obj._text = text
        return obj

    @property
    def text(self) -> str:
        """The canonical text, built on first use (most actions of a playout never print)."""
        try:
            return self._text
        except AttributeError:
            c, take = self.card, self.take
            if take:
                self._text = f"play {CARD_NAMES[c]} take {' '.join(mask_text(take))}"
            else:
                self._text = f"play {CARD_NAMES[c]}"
            return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value


def lexrank(take: CardSet) -> int:
    """1 + the rank of a non-empty card set among all card sets in lexicographic sequence
    order (prefix first); 0 for the empty set. Strictly increasing along that order."""
    if not take:
        return 0
    cards = cards_list(take)
    k = len(cards)
    r = (1 << _N) + (k - 1) - (1 << (_N - cards[-1]))
    for s in cards[:-1]:
        r -= 1 << (_N - 1 - s)
    return r + 1


_PLAYS: dict[int, Play] = {}
_BY_CODE: dict[int, Play] = {}
_ACTION_CACHE_LIMIT = 1 << 19


def action_for(c: Card, take: CardSet = 0) -> Play:
    """The (interned) action ``play c`` or ``play c take …`` of a Scopone card."""
    key = take << 6 | c
    a = _PLAYS.get(key)
    if a is None:
        salt = ((c | take << 6) * 0x9E3779B97F4A7C15 >> 40) & 0xFFFF
        a = Play((c << _N | lexrank(take)) << 16 | salt)
        a.card = c
        a.take = take
        a.bit = BIT[c]
        a.won = take | BIT[c]
        a.dv = -value_key(take) if take else _VW[c]
        a.fx = (take, a.bit, a.won, a.dv)
        if len(_PLAYS) >= _ACTION_CACHE_LIMIT:
            _PLAYS.clear()
            _BY_CODE.clear()
        _PLAYS[key] = a
        _BY_CODE[int(a)] = a
    return a


_NO_CAPTURE: tuple[Play, ...] = tuple(action_for(c) for c in range(52))


_SingleRow = tuple[CardSet, dict[CardSet, tuple[Action, ...]]]


def _single_rows() -> list[_SingleRow]:
    """Per card ``c``: ``(others, row)`` where ``others`` are the other cards of its rank and
    ``row[table & others]`` the actions of ``c`` taking one of those table cards (SCO-4.2.1),
    in ``legal`` order. One mask and one dict lookup per capturing card on the hot path."""
    out: list[_SingleRow] = [(0, {}) for _ in range(52)]
    for c in CARDS_40:
        others = _SAME_RANK[c] & ~BIT[c]
        row: dict[CardSet, tuple[Action, ...]] = {}
        sub = others
        while sub:
            row[sub] = tuple(action_for(c, BIT[t]) for t in iter_cards(sub))
            sub = (sub - 1) & others
        out[c] = (others, row)
    return out


_SINGLE_ROWS = _single_rows()
_TAKES: list[dict[CardSet, Action]] = [{} for _ in range(52)]
"""``_TAKES[c][take]``: the interned action of ``c`` taking ``take`` (filled as sums are met;
bounded: only the finitely many sets adding up to the card's value ever enter)."""


def parse_play(text: str) -> tuple[Card, CardSet | None]:
    """Read ``play C`` / ``play C take X …`` (SCO-4.6): the card and the take set.

    The take set is ``None`` when no ``take`` is given. Raises ActionSyntaxError naming what
    is wrong; legality against a state is not checked here.
    """
    try:
        toks = canonical_tokens(text, DECK_40)
    except ActionSyntaxError as exc:
        raise exc.cited(" (SCO-4.6)") from None
    given = {"action": text.strip()}
    if toks[0] != "play" or len(toks) < 2 or (len(toks) > 2 and toks[2] != "take"):
        raise ActionSyntaxError(
            f"{text.strip()!r}: expected 'play CARD' or 'play CARD take CARD …' (SCO-4.6)",
            "bad_play_syntax",
            given,
        )
    cards: list[Card] = []
    for tok in [toks[1], *toks[3:]]:
        try:
            cards.append(parse_card(tok, DECK_40))
        except CardError:
            raise ActionSyntaxError(
                f"{text.strip()!r}: {tok!r} is not a Scopone card (SCO-1.1, SCO-4.6)",
                "not_a_card",
                {**given, "token": tok},
            ) from None
    if len(toks) == 2:
        return cards[0], None
    take = cards[1:]
    if not take:
        raise ActionSyntaxError(
            f"{text.strip()!r}: 'take' names no card (SCO-4.6)", "empty_take", given
        )
    mask = 0
    for t in take:
        if mask >> t & 1:
            raise ActionSyntaxError(
                f"{text.strip()!r}: {CARD_NAMES[t]} is named twice in the take list (SCO-4.6)",
                "take_twice",
                {**given, "card": CARD_NAMES[t]},
            )
        mask |= BIT[t]
    if mask >> cards[0] & 1:
        raise ActionSyntaxError(
            f"{text.strip()!r}: {CARD_NAMES[cards[0]]} cannot take itself (SCO-4.6)",
            "take_itself",
            {**given, "card": CARD_NAMES[cards[0]]},
        )
    return cards[0], mask


# --- dealing (SCO-3) ------------------------------------------------------------------

_CLASSIC_HANDS = (
    (0, 1, 2, 14, 15, 16, 28, 29, 30),
    (3, 4, 5, 17, 18, 19, 31, 32, 33),
    (6, 7, 8, 20, 21, 22, 34, 35, 36),
    (9, 10, 11, 23, 24, 25, 37, 38, 39),
)  # SCO-3.1: p1 (eldest), p2, p3, p4 (dealer)
_CLASSIC_TABLE = (12, 13, 26, 27)
_CLASSIC_GET = tuple(itemgetter(*idx) for idx in _CLASSIC_HANDS)
_CLASSIC_TABLE_GET = itemgetter(*_CLASSIC_TABLE)
_SCIENTIFICO_HANDS = (
    (0, 1, 2, 3, 4, 20, 21, 22, 23, 24),
    (5, 6, 7, 8, 9, 25, 26, 27, 28, 29),
    (10, 11, 12, 13, 14, 30, 31, 32, 33, 34),
    (15, 16, 17, 18, 19, 35, 36, 37, 38, 39),
)  # SCO-3.2
_SCIENTIFICO_GET = tuple(itemgetter(*idx) for idx in _SCIENTIFICO_HANDS)
_DEAL_ORDER = tuple(tuple((dealer + 1 + i) & 3 for i in range(4)) for dealer in range(4))
"""``_DEAL_ORDER[dealer]``: the seats in dealing order, eldest (``dealer + 1``) first."""
_POISON = 1 << 60
_BIT_OR_POISON: list[CardSet] = [BIT[c] if DECK_40 >> c & 1 else _POISON for c in range(52)]
_BIT_OR_POISON += [_POISON] * 52
"""``BIT`` of each Scopone card; any other index from -104 to 103 gives ``_POISON``, a bit
far above the pack, so a deck with a non-card never adds up to ``DECK_40`` (SCO-10.1)."""


# --- capture tables (SCO-4.2) ------------------------------------------------------------

_VALUE_CARDS: list[CardSet] = [0] * 11
for _c in CARDS_40:
    _VALUE_CARDS[VALUE[_c]] |= BIT[_c]
_BELOW: list[CardSet] = [0] * 11
for _v in range(1, 11):
    _BELOW[_v] = _BELOW[_v - 1] | _VALUE_CARDS[_v - 1]
"""``_BELOW[v]``: every card of value < v (only those can be part of a sum of v, SCO-4.2.2)."""


_SUM_MEMO: dict[int, tuple[CardSet, ...]] = {}
_MEMO_LIMIT = 1 << 19


def sum_options(v: int, table: CardSet) -> tuple[CardSet, ...]:
    """Every subset of ``table`` of two or more cards whose values add up to ``v``.

    Meant for a table with no card of value ``v`` (SCO-4.2.2; with one, only singles count).
    In ``legal`` order (lexicographic by card order, SCO-4.5). Only cards of value < v can
    take part; the answer is memoized by those cards and ``v`` under a bit-folded key
    (``k ^ k >> 21 ^ k >> 42`` is invertible and spreads the structured masks over the
    dict's low hash bits, avoiding long probe chains).
    """
    low = table & _BELOW[v]
    key = low << 4 | v
    key ^= key >> 21 ^ key >> 42
    got = _SUM_MEMO.get(key)
    if got is not None:
        return got
    cards = cards_list(low)
    vals = [VALUE[c] for c in cards]
    n = len(cards)
    out: list[CardSet] = []

    def walk(i: int, mask: CardSet, total: int) -> None:
        # Depth first, smallest card first: a set comes right before its extensions and
        # after every set that starts with a smaller card, i.e. lexicographic order.
        for j in range(i, n):
            s = total + vals[j]
            if s > v:
                continue
            m = mask | BIT[cards[j]]
            if s == v:
                if mask:
                    out.append(m)
            elif j + 1 < n:
                walk(j + 1, m, s)

    walk(0, 0, 0)
    result = tuple(out)
    if len(_SUM_MEMO) >= _MEMO_LIMIT:
        _SUM_MEMO.clear()
    _SUM_MEMO[key] = result
    return result


def _subsets(cards: CardSet) -> list[CardSet]:
    """Every subset of ``cards``, ascending (used to build the partial-take tables)."""
    out = []
    sub = cards
    while True:
        out.append(sub)
        if not sub:
            return sorted(out)
        sub = (sub - 1) & cards


_Partial = tuple[CardSet, tuple[tuple[int, int], ...]]
_PARTIAL: list[_Partial] = []
_PARTIAL_INDEX: dict[_Partial, int] = {}
_SUMS: dict[int, tuple[int, ...]] = {}
_POW5: list[int] = [5 ** (v - 1) if v else 0 for v in range(11)]
"""``vkey // _POW5[v] % 5``: the table's count of value ``v``; ``vkey % _POW5[v]``: the part
of its value key for the values below ``v``."""


def _value_partitions(v: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to write ``v`` as a sum of two or more card values below ``v``, each value
    used at most 4 times (a value has 4 cards, SCO-1.2): tuples of ``(value, count)`` by
    ascending value, enumerated in lexicographic order of the counts (33 of them for 10)."""
    out: list[tuple[tuple[int, int], ...]] = []

    def walk(val: int, left: int, parts: tuple[tuple[int, int], ...], n: int) -> None:
        if not left:
            if n >= 2:
                out.append(parts)
            return
        if val >= v or val > left:
            return
        for k in range(min(4, left // val) + 1):
            walk(val + 1, left - val * k, (*parts, (val, k)) if k else parts, n + k)

    walk(1, v, (), 0)
    return tuple(out)


_PARTITIONS: list[tuple[tuple[tuple[int, int], ...], ...]] = [
    _value_partitions(v) for v in range(11)
]


def _sum_templates(vkl: int) -> tuple[int, ...]:
    """The ways to make a sum from a table's values (SCO-4.2.2), by value, not by card.

    ``vkl`` is ``v | (vkey % _POW5[v]) << 4``: the sum ``v`` and the counts of the
    table's values below ``v`` (only those can be part of the sum). Only counts per value
    matter, so the memo (keyed by ``vkl``) answers for new deals too; turning a template
    into card sets takes one mask operation. Each template is the mask ``full`` of whole
    values: the capture takes ``table & full``, i.e. *every* table card of those values.
    A template that takes ``k`` of the ``m > k`` table cards of some value (two or more
    equal cards on the table, SCO-10.3) is rare; it is stored in ``_PARTIAL`` and given
    here as ``~index`` (a negative number). Options with fewer than two cards are left
    out (SCO-4.2.2: one equal card is a single match, handled before any sum). The
    templates are the partitions of ``v`` (:data:`_PARTITIONS`, precomputed) that the
    table's counts allow: a filter, cheap enough for the new value keys that keep coming.
    """
    v = vkl & 15
    low = vkl >> 4
    counts = [0] + [low // _POW5[val] % 5 for val in range(1, v)]
    out: list[int] = []
    for parts in _PARTITIONS[v]:
        full = 0
        partial: tuple[tuple[int, int], ...] = ()
        for val, k in parts:
            m = counts[val]
            if k > m:
                break
            if k == m:
                full |= _VALUE_CARDS[val]
            else:
                partial += ((val, k),)
        else:
            if not partial:
                out.append(full)
                continue
            template = (full, partial)
            index = _PARTIAL_INDEX.get(template)
            if index is None:
                index = _PARTIAL_INDEX[template] = len(_PARTIAL)
                _PARTIAL.append(template)
            out.append(~index)
    result = tuple(out)
    if len(_SUMS) >= _MEMO_LIMIT:
        _SUMS.clear()
    _SUMS[vkl] = result
    return result


_RANK_SUBSETS: dict[CardSet, tuple[tuple[CardSet, ...], ...]] = {}
for _v in range(1, 11):
    _all = _VALUE_CARDS[_v]
    _sub = _all
    while True:  # every set of cards of one value, the empty set included
        _RANK_SUBSETS[_sub] = tuple(
            tuple(t for t in _subsets(_sub) if t.bit_count() == k) for k in range(5)
        )
        if not _sub:
            break
        _sub = (_sub - 1) & _all
"""``_RANK_SUBSETS[cards][k]``: the ``k``-card subsets of ``cards`` (cards of one value), in
card order: one dict lookup for a partial template's choices (SCO-10.3)."""


def _partial_actions(c: Card, table: CardSet, index: int) -> list[Action]:
    """The actions of ``c`` for a template that takes only some of the equal table cards
    of a value (``_PARTIAL[index]``): every choice of those cards (SCO-10.3). Loops, not
    comprehensions, and the card's :data:`_TAKES` row, not :func:`action_for`: this runs
    about once a deal, at a few thousand instructions less each time."""
    full, partial = _PARTIAL[index]
    masks = [table & full]
    for val, k in partial:
        subs = _RANK_SUBSETS[table & _VALUE_CARDS[val]][k]
        grown = []
        for m in masks:
            for sub in subs:
                grown.append(m | sub)
        masks = grown
    takes = _TAKES[c]
    out: list[Action] = []
    for m in masks:
        try:
            out.append(takes[m])
        except KeyError:
            a = takes[m] = action_for(c, m)
            out.append(a)
    return out


def _suit_tables() -> tuple[list[tuple[Action, ...]], ...]:
    """Per suit, per 13-bit hand pattern: the ``play C`` actions of those cards, in order."""
    out = []
    for s in range(4):
        per: list[tuple[Action, ...]] = [()] * (1 << 13)
        for pattern in range(1 << 13):
            mask = pattern << (13 * s)
            if mask & ~DECK_40:
                continue
            per[pattern] = tuple(_NO_CAPTURE[c] for c in iter_cards(mask))
        out.append(per)
    return tuple(out)


_NOC0, _NOC1, _NOC2, _NOC3 = _suit_tables()


_TableInfo = tuple[CardSet, CardSet, tuple[tuple[int, ...], ...]]
_TABLE_INFO: dict[int, _TableInfo] = {}


def _table_info(vkey: int) -> _TableInfo:
    """What a table with value key ``vkey`` lets each card value do (SCO-4.2).

    ``(capturers, singles, sums)``: the cards that have a capture option; those of them
    whose value is on the table (SCO-4.2.1: they take one equal card, never a sum); and
    per value ``v`` the sum templates of :func:`_sum_templates` (``()`` where there are
    none or where a single match rules sums out). It depends only on the values on the
    table, so it is memoized by the value key and pays on new deals too.
    """
    singles = sum_capt = 0
    sums: list[tuple[int, ...]] = [()] * 11
    for v in range(1, 11):
        if vkey // _POW5[v] % 5:
            singles |= _VALUE_CARDS[v]
            continue
        vkl = (vkey % _POW5[v]) << 4 | v
        templates = _SUMS.get(vkl)
        if templates is None:
            templates = _sum_templates(vkl)
        if templates:
            sum_capt |= _VALUE_CARDS[v]
            sums[v] = templates
    info = (singles | sum_capt, singles, tuple(sums))
    if len(_TABLE_INFO) >= _MEMO_LIMIT:
        _TABLE_INFO.clear()
    _TABLE_INFO[vkey] = info
    return info


_M26 = (1 << 26) - 1
_HALF_LOW: dict[CardSet, tuple[Action, ...]] = {}
_HALF_HIGH: dict[CardSet, tuple[Action, ...]] = {}
_HALF_LIMIT = 1 << 17


def _noc_slow(cards: CardSet) -> tuple[Action, ...]:
    """The ``play C`` actions of ``cards`` in card order (the miss path of the half-hand
    memos): clubs+spades (bits 0-25) and hearts+diamonds (bits 26-51, shifted down) are
    memoized apart, since a half hand holds few of 20 cards and recurs across deals; only
    the half that is missing is built."""
    lo = cards & _M26
    hi = cards >> 26
    low = _HALF_LOW.get(lo)
    if low is None:
        if len(_HALF_LOW) >= _HALF_LIMIT:
            _HALF_LOW.clear()
        low = _HALF_LOW[lo] = _NOC0[lo & _M13] + _NOC1[lo >> 13]
    high = _HALF_HIGH.get(hi)
    if high is None:
        if len(_HALF_HIGH) >= _HALF_LIMIT:
            _HALF_HIGH.clear()
        high = _HALF_HIGH[hi] = _NOC2[hi & _M13] + _NOC3[hi >> 13]
    return low + high


_ROW_BY_LENGTH: list[tuple[CardSet, dict[CardSet, tuple[Action, ...]], CardSet]] = [(0, {}, 0)]
_ROW_BY_LENGTH += [(others, row, BIT[c]) for c, (others, row) in enumerate(_SINGLE_ROWS)]
"""``(others, row, bit)`` of :data:`_SINGLE_ROWS` by ``bit_length()`` of the card's bit (= card
+ 1). The hot loop takes a mask's top card as ``mask.bit_length()`` and drops it with one XOR:
cheaper than isolating the low bit (``m & -m``, two big-int operations) and looking that up
in a dict keyed by powers of two (which all share their low hash bits and probe long)."""
_SUM_BY_LENGTH: list[tuple[Card, dict[CardSet, Action], int, CardSet]] = [(0, {}, 0, 0)]
_SUM_BY_LENGTH += [(c, _TAKES[c], VALUE[c], BIT[c]) for c in range(52)]
"""``(card, its _TAKES, its value, its bit)`` by ``bit_length()``, for the sums loop (SCO-4.2.2)."""


_THREE_KINGS = 3 * 5**9
"""The smallest value key with three kings (SCO-3.4): the kings' value 10 is the top digit."""
_NEXT_SEAT = (1, 2, 3, 0)
"""``_NEXT_SEAT[seat]`` = ``(seat + 1) & 3`` (SCO-2.2), and ``_TEAM[seat]`` = ``seat & 1``:
one tuple index each, cheaper on the hot path than two integer operations."""
_TEAM = (0, 1, 0, 1)


# --- the deal -------------------------------------------------------------------------


class ScoponeState(DealState):
    """A Scopone deal in progress (SCO-3 … SCO-6). ``apply`` works in place."""

    game: ScoponeGame

    def __init__(
        self,
        game: ScoponeGame,
        variant: Variant,
        dealer: int,
        hands: list[CardSet],
        table: CardSet,
        deck: tuple[Card, ...] | None,
        dealt: tuple[tuple[Card, ...], ...] | None,
        table_order: tuple[Card, ...],
    ) -> None:
        """A deal at its start: ``table`` holds the cards of ``table_order`` (the four dealt
        to the table in deal order, SCO-3.1, or none in scientifico). Positional arguments
        only (no keyword dict per deal); the value key and the void check come from
        ``table_order``."""
        self.game = game
        self.variant = variant
        self.dealer = dealer
        self.num_seats = 4
        self.phase = "play"
        self.history = []
        self.actors = []
        self._legal = None
        self.hands = hands
        self.table = table
        self.piles = [0, 0]
        self.sweeps = [0, 0]
        self.last_capture: int | None = None
        self.turn = 0  # turns played so far (SCO-4.1)
        sci = variant["scientifico"]
        self.final_turn = 40 if sci else 36
        self.last_sweep = bool(variant["dealer_last_sweep"])
        self.deck = deck
        self.dealt = dealt  # hands as received, for a hands record
        self.initial_table = table_order
        if table_order:  # value_key(table) from the four table cards: four list lookups
            a, b, c, d = table_order
            vw = _VW
            vkey = self._vkey = vw[a] + vw[b] + vw[c] + vw[d]
        else:
            vkey = self._vkey = 0
        # SCO-3.4: three or four kings on the table void the (classic) deal. Kings have the
        # top value (10), the key's top base-5 digit: three or more of them iff key >= 3 * 5**9.
        self.redeal = vkey >= _THREE_KINGS
        if self.redeal:
            self.to_act: int | None = None
            self.phase = "over"
        else:
            self.to_act = (dealer + 1) & 3  # SCO-2.2: eldest plays first

    # --- legal actions (SCO-4.2, SCO-4.3) --------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in ``legal`` order (SCO-4.3, SCO-4.5).

        Same contract as the base class (computed once per position, then cached); the
        generation is inlined here because it is the hot path of every playout. Cards that
        cannot capture come from the half-hand memos; each capturing card adds its options
        (singles from :data:`_SINGLE_ROWS`, one dict lookup; sums from the value templates
        of :func:`_table_info`, each take's action from :data:`_TAKES`); codes are
        order-preserving, so one sort of the ints gives the ``legal`` order. Capturing cards
        are visited top card first (order does not matter before the sort) via
        ``bit_length()``, and a hand with no capture skips the list and the sort.
        """
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.to_act
        if seat is None:
            self._legal = ()
            return ()
        hand: int = self.hands[seat]
        # Subscripts, not .get(): the memos almost always hit, and a try costs nothing then.
        try:
            capt, singles, sums = _TABLE_INFO[self._vkey]
        except KeyError:
            capt, singles, sums = _table_info(self._vkey)
        capt &= hand
        if not capt:  # SCO-4.2.3: no card can capture, every card lies on the table
            try:
                legal = _HALF_LOW[hand & _M26] + _HALF_HIGH[hand >> 26]
            except KeyError:
                legal = _noc_slow(hand)
            self._legal = legal
            return legal
        hand ^= capt  # SCO-4.2.3: the cards that cannot capture lie on the table
        try:
            out: list[Action] = [*_HALF_LOW[hand & _M26], *_HALF_HIGH[hand >> 26]]
        except KeyError:
            out = [*_noc_slow(hand)]
        table = self.table
        singles &= capt
        if singles:
            capt ^= singles
            while singles:  # SCO-4.2.1: one equal table card each, never a sum
                others, row, bit = _ROW_BY_LENGTH[singles.bit_length()]
                singles ^= bit
                out += row[table & others]
        while capt:  # SCO-4.2.2: the sums, from the templates of the card's value
            c, takes, v, bit = _SUM_BY_LENGTH[capt.bit_length()]
            capt ^= bit
            for full in sums[v]:
                if full < 0:
                    out += _partial_actions(c, table, ~full)
                    continue
                take = table & full
                try:
                    out.append(takes[take])
                except KeyError:
                    a = takes[take] = action_for(c, take)
                    out.append(a)
        out.sort()  # codes are order-preserving (SCO-4.5)
        legal = self._legal = tuple(out)
        return legal

    # --- applying a play (SCO-4.4, SCO-5) --------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its text) for the seat to act, in place.

        The base-class contract (IllegalAction naming the rule, state unchanged on error;
        the action recorded in ``history``/``actors``) with the play itself inlined, since
        this is the hot path of every playout.
        """
        legal = self._legal
        if legal is None or type(action) is not Play or action not in legal:
            play: Play = self._checked(action, self.legal_actions())  # type: ignore[assignment]
        else:
            play = action
        seat: int = self.to_act  # type: ignore[assignment]
        take, bit, won, dv = play.fx
        self.hands[seat] ^= bit
        self._vkey += dv
        turn = self.turn = self.turn + 1
        if take:  # SCO-4.4: the card and its take go to the team pile
            table = self.table = self.table ^ take
            self.piles[_TEAM[seat]] |= won
            self.last_capture = seat
            # SCO-5.1 / SCO-8.2: emptying the table is a sweep, except on the final turn.
            if not table and (turn != self.final_turn or self.last_sweep):
                self.sweeps[_TEAM[seat]] += 1
        else:  # SCO-4.4: the card lies on the table
            self.table |= bit
        if turn == self.final_turn:
            # SCO-5.3: the leftover goes to the team of the last capture (never a sweep).
            lc: int = self.last_capture  # type: ignore[assignment]  # SCO-5.4
            self.piles[lc & 1] |= self.table
            self.table = 0
            self._vkey = 0
            self.to_act = None
            self.phase = "over"
        else:
            self.to_act = _NEXT_SEAT[seat]  # SCO-2.2 / SCO-4.1
        self._legal = None
        self.history.append(play)
        self.actors.append(seat)

    # --- DealState._checked, apply's slow path, in Scopone's words ----------------------------
    not_an_action = "is not an action (SCO-10.2)"

    def _deal_over(self) -> IllegalAction:
        """SCO-10.2, or SCO-3.4 for a void deal (:meth:`explain`'s words)."""
        return self._illegal(_NO_CAPTURE[0])

    def _action_of_code(self, code: int) -> Action:
        """A bare code is the Play with that code (or a placeholder naming the code)."""
        return _decode(code)

    def _illegal(self, action: Action) -> IllegalAction:
        return super()._illegal(_decode(action))

    def parse_action(self, text: str) -> Action:
        """Read an action for this state (SCO-4.6): ``play C`` alone means C's only capture."""
        try:
            c, take = parse_play(text)
        except ActionSyntaxError as exc:
            raise IllegalAction.because(exc.explanation) from None
        if take is not None:
            return action_for(c, take)
        seat = self.to_act
        if seat is None or not self.hands[seat] >> c & 1:
            return action_for(c)  # apply() reports the real fault
        options = capture_options(c, self.table)
        if len(options) == 1:
            return action_for(c, options[0])
        if len(options) > 1:
            raise IllegalAction.because(
                explained(
                    "ambiguous_play",
                    f"'play {CARD_NAMES[c]}' is ambiguous: {CARD_NAMES[c]} has {len(options)} "
                    f"capture options, name the cards with 'take' (SCO-4.6)",
                    card=CARD_NAMES[c],
                    count=len(options),
                )
            )
        return action_for(c)

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, with the rule ID."""
        return self.explain(action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        if self.to_act is None:
            if self.redeal:
                return explained(
                    "deal_void",
                    "the deal is void (3 or 4 kings on the table): no action is allowed (SCO-3.4)",
                )
            return explained("deal_over", "the deal is over: no action is allowed (SCO-10.2)")
        if not isinstance(action, Play):
            return explained(
                "not_an_action",
                f"{action.text!r} is not a Scopone action (SCO-4.5)",
                action=action.text,
            )
        c = action.card
        take = action.take
        name = CARD_NAMES[c]
        if not self.hands[self.to_act] >> c & 1:
            return explained(
                "not_held",
                f"{name} is not in the hand of seat {self.to_act} (SCO-4.6)",
                seat=self.to_act,
                card=name,
            )
        options = capture_options(c, self.table)
        if not take:
            return explained(
                "must_capture",
                f"{name} can capture, so it must capture: say which cards with 'take' (SCO-4.3)",
                card=name,
            )
        off = take & ~self.table
        if off:
            return explained(
                "not_on_table",
                f"{' '.join(mask_text(off))} not on the table (SCO-4.6)",
                cards=mask_text(off),
            )
        if not options:
            return explained(
                "captures_nothing",
                f"{name} captures nothing on this table: play it as 'play {name}' (SCO-4.2)",
                card=name,
            )
        singles = self.table & _SAME_RANK[c]
        if singles:
            return explained(
                "must_take_single",
                f"{name} must take exactly one card of equal rank "
                f"({' or '.join(mask_text(singles))}), never a sum (SCO-4.2)",
                card=name,
                cards=mask_text(singles),
            )
        total = sum(VALUE[t] for t in iter_cards(take))
        if take.bit_count() < 2:
            return explained(
                "no_match",
                f"{' '.join(mask_text(take))} does not match {name} (SCO-4.2)",
                cards=mask_text(take),
                card=name,
            )
        return explained(
            "wrong_sum",
            f"{' '.join(mask_text(take))} add up to {total}, not {VALUE[c]}, "
            f"the value of {name} (SCO-4.2)",
            cards=mask_text(take),
            total=total,
            value=VALUE[c],
            card=name,
        )

    # --- scoring (SCO-6) ---------------------------------------------------------------------
    def result(self) -> dict[str, JSON]:
        """The result object of SCO-6.8 (a void deal: ``{"score": [0, 0], "redeal": true}``)."""
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        if self.redeal:
            return {"score": [0, 0], "redeal": True}
        variant = self.variant
        p0, p1 = self.piles
        c0 = p0.bit_count()  # the piles hold all 40 cards and 10 coins now (SCO-5.3)
        d0 = (p0 & COINS).bit_count()
        cards = [c0, 40 - c0]
        coins = [d0, 10 - d0]
        sette = 0 if p0 >> SETTEBELLO & 1 else 1
        pt = _PRIMIERA_PAIRS[variant["primiera_pictures"]]  # SCO-6.4, inlined primiera()
        (a, e), (b, f), (c, g), (d, h) = (
            pt[p0 & _M13], pt[p0 >> 13 & _M13], pt[p0 >> 26 & _M13], pt[p0 >> 39]
        )  # fmt: skip
        prim0 = a + b + c + d if a and b and c and d else 0
        prim1 = e + f + g + h if e and f and g and h else 0
        prim = [prim0, prim1]
        s0, s1 = self.sweeps
        sweeps = [s0, s1]
        score = [  # SCO-6.1 cards, SCO-6.2 coins, SCO-6.4 primiera, SCO-6.5 sweeps
            s0 + (c0 > 20) + (d0 > 5) + (prim0 > prim1),
            s1 + (c0 < 20) + (d0 < 5) + (prim1 > prim0),
        ]
        score[sette] += 1  # SCO-6.3
        out: dict[str, JSON] = {
            "score": score,
            "redeal": False,
            "cards": cards,
            "coins": coins,
            "settebello": sette,
            "primiera": prim,
            "sweeps": sweeps,
            "last_capture": self.last_capture,
        }
        if variant["re_bello"]:  # SCO-8.3
            rb = 0 if p0 >> RE_BELLO & 1 else 1
            score[rb] += 1
            out["re_bello"] = rb
        if variant["napola"]:  # SCO-8.4
            nap = [napola_points(p0), napola_points(p1)]
            score[0] += nap[0]
            score[1] += nap[1]
            out["napola"] = nap
            out["capotto"] = 0 if coins[0] == 10 else 1 if coins[1] == 10 else None
        return out

    # --- events ----------------------------------------------------------------------------
    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up.
        Every play and capture is public (SCO-9), so every event is."""
        return _narrate(self)

    # --- information (SCO-9) -------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows: its hand, everything played, the table and both piles."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat} in Scopone (seats 0–3)")
        return self._observe(seat)

    def public_observation(self) -> Observation:
        """What a spectator knows (SCO-9): every play and capture, the table, both piles
        and the hand sizes; no hand and no legal actions. Only the hands are hidden, so
        the history is the full text of every action."""
        return self._observe(SPECTATOR)

    def _observe(self, viewer: int) -> Observation:
        """The observation of ``viewer``: a seat 0–3, or SPECTATOR (no seat, no hand)."""
        over = self.to_act is None
        seated = viewer != SPECTATOR
        return Observation(
            game=self.game.name,
            variant=dict(self.variant),
            seat=viewer,
            num_seats=4,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=self.hands[viewer] if seated else 0,
            legal=self.legal_actions() if seated and self.to_act == viewer else (),
            history=tuple(a.text for a in self.history),
            actors=tuple(self.actors),
            info={
                "turn": self.turn,
                "table": mask_text(self.table),
                "initial_table": mask_text(to_mask(self.initial_table)),
                "piles": [mask_text(self.piles[0]), mask_text(self.piles[1])],
                "sweeps": list(self.sweeps),
                "last_capture": self.last_capture,
                "hand_sizes": [h.bit_count() for h in self.hands],
                "redeal": self.redeal,
            },
            result=self.result() if over else None,
        )

    def clone(self) -> ScoponeState:
        """An independent copy (card sets are ints; the per-sum tuples are shared)."""
        new = object.__new__(ScoponeState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.actors = list(self.actors)
        new.hands = list(self.hands)
        new.piles = list(self.piles)
        new.sweeps = list(self.sweeps)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """The pickled state: the attributes, with the history as ``(card, take)`` pairs
        and without the legal cache (the actions are interned again on loading)."""
        state = dict(self.__dict__)
        history: list[Play] = self.history  # type: ignore[assignment]  # only Plays
        state["history"] = [(a.card, a.take) for a in history]
        state["_legal"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled deal by value: the history as this module's interned actions
        (:func:`action_for`), the phase as this module's string."""
        self.__dict__.update(state)
        self.history = [action_for(c, take) for c, take in state["history"]]
        self.phase = _PHASE_OF[state["phase"]]

    def setup_record(self) -> dict[str, JSON]:
        """``dealer`` and ``deck``, or ``hands`` (as received) and ``extra.table``."""
        if self.deck is not None:
            return {"dealer": self.dealer, "deck": [CARD_NAMES[c] for c in self.deck]}
        dealt = self.dealt or ()
        rec: dict[str, JSON] = {
            "dealer": self.dealer,
            "hands": [[CARD_NAMES[c] for c in h] for h in dealt],
        }
        if not self.variant["scientifico"]:
            rec["extra"] = {"table": [CARD_NAMES[c] for c in self.initial_table]}
        return rec


_PHASE_OF = {"play": "play", "over": "over"}
"""The phases (SCO-4: ``play``, then ``over``) by value, as this module's own strings."""


def _narrate(final: ScoponeState) -> list[Told]:
    """The events of ``final``'s deal: the table dealt, each play with its capture and
    sweep, the leftover (SCO-5.3) and the score by its points (SCO-6)."""
    st = final.fresh()
    assert isinstance(st, ScoponeState)
    out = [public("deal", dealer=st.dealer)]
    if st.initial_table:
        out.append(public("table", cards=mask_text(to_mask(st.initial_table))))
    for action, seat in zip(final.history, final.actors, strict=True):
        assert isinstance(action, Play)
        table = st.table
        sweeps = st.sweeps[seat & 1]
        st.apply(action)
        name = CARD_NAMES[action.card]
        out.append(public("play", seat=seat, card=name, take=mask_text(action.take)))
        if action.take:  # SCO-4.4
            out.append(
                public("capture", seat=seat, side=seat & 1, card=name, cards=mask_text(action.take))
            )
            if st.sweeps[seat & 1] > sweeps:  # SCO-5.1
                out.append(public("sweep", seat=seat, side=seat & 1, sweeps=st.sweeps[seat & 1]))
        if st.to_act is None:  # SCO-5.3: what is left goes to the team of the last capture
            left = table & ~action.take if action.take else table | action.bit
            lc = st.last_capture
            if left and lc is not None:
                out.append(public("leftover", seat=lc, side=lc & 1, cards=mask_text(left)))
    if st.to_act is None:
        out.append(public("deal_end", **_deal_end(st, out)))
    return out


def _deal_end(st: ScoponeState, told: list[Told]) -> dict[str, JSON]:
    """The result with its points one by one (SCO-6.7)."""
    res = st.result()
    score = res["score"]
    if res["redeal"]:  # SCO-3.4
        return {
            "result": res,
            "score": list(score),
            "outcome": "void",
            "reason": None,
            "components": [],
            "points_from": None,
        }
    cards, coins, prim, sweeps = res["cards"], res["coins"], res["primiera"], res["sweeps"]
    parts = [
        component("cards", [int(cards[0] > 20), int(cards[1] > 20)], counts=cards, rule="SCO-6.1"),
        component("coins", [int(coins[0] > 5), int(coins[1] > 5)], counts=coins, rule="SCO-6.2"),
        component(
            "settebello", only(res["settebello"], 1, 2), holder=res["settebello"], rule="SCO-6.3"
        ),
        component(
            "primiera",
            [int(prim[0] > prim[1]), int(prim[1] > prim[0])],
            values=prim,
            rule="SCO-6.4",
        ),
        component("sweeps", list(sweeps), counts=sweeps, rule="SCO-6.5"),
    ]
    if "re_bello" in res:
        parts.append(
            component(
                "re_bello", only(res["re_bello"], 1, 2), holder=res["re_bello"], rule="SCO-8.3"
            )
        )
    if "napola" in res:
        parts.append(component("napola", list(res["napola"]), values=res["napola"], rule="SCO-8.4"))
    captured, left = [0, 0], [0, 0]
    for t in told:
        if t.kind == "capture":
            captured[t.data["side"]] += 1 + len(t.data["cards"])
        elif t.kind == "leftover":
            left[t.data["side"]] += len(t.data["cards"])
    return {
        "result": res,
        "score": list(score),
        "outcome": "scored",
        "reason": None,
        "components": parts,
        "points_from": {"captures": captured, "leftover": left},
    }


def _decode(code: int) -> Action:
    """The action of a raw code (for messages about an int that is not a legal action)."""
    if isinstance(code, Play):
        return code
    got = _BY_CODE.get(code)
    return got if got is not None else Action(code, f"action code {code}")


# --- the game ---------------------------------------------------------------------------


class ScoponeGame(Game):
    """Scopone's facts, deals, determinization and match rules (SCO-7)."""

    name = "scopone"
    title = "Scopone"
    deck = DECK_40
    partnership = True
    variant_options = (
        VariantOption("scientifico", False, "10 cards each, none to the table (SCO-8.1)"),
        VariantOption(
            "dealer_last_sweep",
            False,
            "a capture on the final turn that empties the table is a sweep (SCO-8.2)",
        ),
        VariantOption("re_bello", False, "1 point for the team holding KD (SCO-8.3)"),
        VariantOption(
            "napola", False, "napola points for a coin run A-2-3…; capotto wins (SCO-8.4)"
        ),
        VariantOption("target", 11, "score needed to win the match (SCO-8.5)", minimum=1),
        VariantOption(
            "primiera_pictures",
            "flat",
            "primiera value of the pictures: flat (all 10) or graded (K 10, Q 9, J 8) (SCO-8.6)",
            choices=("flat", "graded"),
        ),
    )

    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action a text names, without a state: ``play C`` means no capture."""
        c, take = parse_play(text)
        return action_for(c, take or 0)

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> ScoponeState:
        """Deal from a deck order (SCO-3.1 / SCO-3.2) or take dealt hands + table (SCO-3.5)."""
        sci = variant["scientifico"]
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise MalformedRecord("'dealer' must be an integer seat 0–3")
        masks = [0, 0, 0, 0]
        if deck is not None:
            if hands is not None or extra:
                raise MalformedRecord("a deal needs exactly one of 'deck' or 'hands'")
            deck_t = tuple(deck)
            # 40 powers of two add up to DECK_40 (40 bits) only if no two are equal, so one
            # sum checks the deck; a non-card (negative, off the pack) maps to _POISON.
            try:
                bits = itemgetter(*deck_t)(_BIT_OR_POISON) if len(deck_t) == 40 else None
            except (IndexError, TypeError):
                bits = None
            if bits is None:
                raise MalformedRecord("'deck' must hold the 40 Scopone cards, each once (SCO-10.1)")
            get: tuple[Any, ...]
            if sci:
                get = _SCIENTIFICO_GET
                table_order: tuple[Card, ...] = ()
                table = 0
            else:
                get = _CLASSIC_GET
                table_order = _CLASSIC_TABLE_GET(deck_t)
                table = sum(_CLASSIC_TABLE_GET(bits))
            s0, s1, s2, s3 = _DEAL_ORDER[dealer]  # SCO-3.1: the eldest (dealer + 1) first
            m0 = masks[s0] = sum(get[0](bits))
            m1 = masks[s1] = sum(get[1](bits))
            m2 = masks[s2] = sum(get[2](bits))
            m3 = masks[s3] = sum(get[3](bits))
            if m0 + m1 + m2 + m3 + table != DECK_40:
                raise MalformedRecord("'deck' must hold the 40 Scopone cards, each once (SCO-10.1)")
            return ScoponeState(self, variant, dealer, masks, table, deck_t, None, table_order)
        if hands is None:
            raise MalformedRecord("a deal needs 'deck' or 'hands'")
        size = 10 if sci else 9
        if len(hands) != 4:
            raise MalformedRecord("'hands' must be a list of 4 hands (SCO-3.5)")
        dealt = tuple(tuple(h) for h in hands)
        for s, h in enumerate(dealt):
            if len(h) != size:
                raise MalformedRecord(f"hands[{s}] must hold {size} cards, not {len(h)} (SCO-3.5)")
            masks[s] = to_mask(h)
        extra = dict(extra or {})
        unknown = [k for k in extra if k != "table"]
        if unknown:
            raise MalformedRecord(f"'extra' may hold only 'table', not {unknown[0]!r} (SCO-3.5)")
        table_order = tuple(extra.get("table", ()))
        want = 0 if sci else 4
        if len(table_order) != want:
            raise MalformedRecord(
                f"'extra.table' must hold {want} cards, not {len(table_order)} (SCO-3.5)"
            )
        if to_mask(table_order) | masks[0] | masks[1] | masks[2] | masks[3] != DECK_40 or (
            sum(len(h) for h in dealt) + len(table_order) != 40
        ):
            raise MalformedRecord(
                "'hands' and 'extra.table' must be the 40 Scopone cards (SCO-3.5)"
            )
        return ScoponeState(
            self, variant, dealer, masks, to_mask(table_order), None, dealt, table_order
        )

    def deal_from_record(self, record: Mapping[str, Any], variant: Variant) -> DealState:
        """The generic reader, plus SCO-3.5's shape of ``extra`` (``{}`` is malformed)."""
        if "hands" in record and "deck" not in record:
            if "extra" in record:
                extra = record["extra"]
                if not isinstance(extra, dict) or set(extra) != {"table"}:
                    raise MalformedRecord("'extra' must be exactly {\"table\": [cards]} (SCO-3.5)")
            elif not variant["scientifico"]:
                raise MalformedRecord(
                    "a classic 'hands' record needs 'extra': {\"table\": [4 cards]} (SCO-3.5)"
                )
        return super().deal_from_record(record, variant)

    def determinize(self, obs: Observation, rng: random.Random) -> ScoponeState:
        """A full deal consistent with ``obs``: the other hands drawn from the unseen cards.

        Only hands are hidden (SCO-9) and play reveals nothing about the cards still held
        (no obligation to capture constrains a card that is not played), so the unseen cards
        are dealt uniformly to the other seats in their public hand sizes.
        """
        info = obs.info
        variant = self.normalize_variant(dict(obs.variant))
        table = to_mask([parse_card(t, DECK_40) for t in info["table"]])
        piles = [to_mask([parse_card(t, DECK_40) for t in p]) for p in info["piles"]]
        sizes = list(info["hand_sizes"])
        unseen = list(iter_cards(DECK_40 & ~(obs.hand | table | piles[0] | piles[1])))
        rng.shuffle(unseen)
        hands = [0, 0, 0, 0]
        hands[obs.seat] = obs.hand
        pos = 0
        for s in range(4):
            if s == obs.seat:
                continue
            for c in unseen[pos : pos + sizes[s]]:
                hands[s] |= BIT[c]
            pos += sizes[s]
        if pos != len(unseen):
            raise ValueError("observation is inconsistent: hand sizes do not match unseen cards")
        # Rebuild the deal as it began: each hand plus the cards its seat has played.
        history = [parse_play(t) for t in obs.history]
        played = [0, 0, 0, 0]
        for (c, _), actor in zip(history, obs.actors, strict=True):
            played[actor] |= BIT[c]
        start = [hands[s] | played[s] for s in range(4)]
        init_table = tuple(parse_card(t, DECK_40) for t in info["initial_table"])
        dealt = tuple(tuple(iter_cards(m)) for m in start)
        # Built as the deal began (table = the initial table), then moved to the present.
        state = ScoponeState(
            self,
            variant,
            obs.dealer,
            [h for h in hands],
            to_mask(init_table),
            None,
            dealt,
            init_table,
        )
        state.table = table
        state.piles = piles
        state.sweeps = list(info["sweeps"])
        state.last_capture = info["last_capture"]
        state.turn = info["turn"]
        state._vkey = value_key(table)
        state.history = [action_for(c, take or 0) for c, take in history]
        state.actors = list(obs.actors)
        state.redeal = bool(info["redeal"])  # the table now may hold 3 kings mid-deal
        state.to_act = obs.to_act
        state.phase = obs.phase
        return state

    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Scopone's game card: the Italian pack, no trump, each suit by capture value
        K Q J 7 … A (SCO-1.2); play counter-clockwise (SCO-2.2)."""
        v = self.normalize_variant(variant)
        turns = 20 if v["scientifico"] else 18  # each team's turns in a deal (SCO-4.1)
        most = turns + 4 + (1 if v["re_bello"] else 0) + (10 if v["napola"] else 0)
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="counter-clockwise",
            deck=DECK_40,
            pack="italian",
            phases=("play",),
            utility_bounds=(0, most),
            margin_scale=3.0,
            shaping=None,
            suit_order="CSHD",
            suit_ranks={x: suit_run("KQJ765432A", x) for x in "CSHD"},
            trump_groups={NO_TRUMP: ()},
            table_keys=("table", "piles", "sweeps", "last_capture", "hand_sizes", "turn"),
            rules="SCO",
            notes={
                "utility_bounds": "a bound, not a likely score: cards, coins, settebello and "
                "primiera, a sweep on every turn of one team, re bello and napola (SCO-6.7)",
            },
        )

    def describe(self, state: DealState) -> str:
        """One line: turn, table, and who acts."""
        assert isinstance(state, ScoponeState)
        table = " ".join(mask_text(state.table)) or "-"
        who = "over" if state.to_act is None else f"seat {state.to_act} to play"
        return f"Scopone · turn {state.turn} · table {table} · {who}"

    # --- the match (SCO-7) ---------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0–0; the first dealer is the record's (or drawn by the live table)."""
        return MatchState(totals=[0, 0], next_dealer=None, carry={})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """Add the deal's score, pass the deal (SCO-7.1) and decide the match (SCO-7.3)."""
        assert isinstance(deal, ScoponeState)
        res = deal.result()
        if res["redeal"]:  # SCO-3.4 / SCO-7.1: same dealer, nothing scored
            return MatchState(
                totals=list(match.totals), next_dealer=deal.dealer, carry={}, deals=match.deals + 1
            )
        totals = [match.totals[0] + res["score"][0], match.totals[1] + res["score"][1]]
        over, winner = False, None
        capotto = res.get("capotto")
        if capotto is not None:  # SCO-8.4: all ten coins win at once
            over, winner = True, capotto
        elif max(totals) >= deal.variant["target"] and totals[0] != totals[1]:
            over, winner = True, (0 if totals[0] > totals[1] else 1)
        return MatchState(
            totals=totals,
            next_dealer=(deal.dealer + 1) & 3,
            carry={},
            over=over,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
        )


GAME = register(ScoponeGame())
"""The registry's Scopone instance."""
