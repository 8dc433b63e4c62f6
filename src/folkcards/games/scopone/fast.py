"""Scopone's speed work: precomputed tables, the global memos, the hot ``legal_actions``.

What a card may capture (SCO-4.2) depends on the *values* on the table, not on which
cards they are, and those recur from deal to deal. So the table carries a **value key**
(a base-5 digit per capture value counting its cards, updated in O(1) by ``apply``) and
:data:`TABLE_INFO` remembers, per key, which cards capture, which of them take a single
equal card (SCO-4.2.1) and which sums each value can make (SCO-4.2.2), as *templates* of
whole values; the cards that capture nothing come from two memos of half hands
(:data:`HALF_LOW`, :data:`HALF_HIGH`), and every action is an interned :class:`.Play`
with what ``apply`` needs precomputed. :func:`legal_actions` puts it together.

Every piece here stands beside a plain reference implementation — ``*_plain`` in this
module, or the rules function it speeds up (named in its docstring) — and
``tests/games/scopone/test_fast.py`` checks each against its reference; the legal actions
are also checked against the naive referee ``scopone_reference.py``. Every memo is an
:class:`~folkcards.engine.memo.Memo` named ``scopone.…`` (``all_memos("scopone.")``),
bounded or finite by construction, and nothing is keyed by one particular deal.

What remains is interpreter cost: card sets are 52-bit masks, which CPython stores as
two-digit integers (a bit operation costs about as much as a dict lookup).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from operator import itemgetter
from typing import Any, Protocol

from folkcards.cards import BIT, DECK_40, Card, CardSet, cards_list, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.memo import Memo

from .actions import Play, lexrank
from .rules import (
    CARDS_40,
    CLASSIC_HANDS,
    CLASSIC_TABLE,
    DEAL_ORDER,
    PRIMIERA_TABLES,
    SAME_RANK,
    SCIENTIFICO_HANDS,
    VALUE,
    VALUE_CARDS,
    ScoponeRules,
)

M13 = 0x1FFF
M26 = (1 << 26) - 1
_SUIT40 = DECK_40 & M13  # the ranks of one suit in the pack (SCO-1.1)

# --- the value key ----------------------------------------------------------------------------

VW: tuple[int, ...] = tuple(5 ** (VALUE[c] - 1) if VALUE[c] else 0 for c in range(52))
"""A card's weight in a table's *value key*: a base-5 digit per value 1..10 counts that
value's cards (at most 4, SCO-1.2). Base 5, not 4-bit fields: the key stays below
5**10 < 2**30, a one-digit Python int (cheap to add and hash), and its low bits depend on
every value's count, so dicts keyed by it probe short chains."""


def _pattern_keys() -> tuple[int, ...]:
    keys = [0] * (1 << 13)
    for pattern in range(1, 1 << 13):  # a pattern's key: its lowest card's plus the rest's
        low = pattern & -pattern
        keys[pattern] = VW[low.bit_length() - 1] + keys[pattern ^ low]
    return tuple(keys)


_KW: tuple[int, ...] = _pattern_keys()
"""The value key of a 13-bit suit pattern (every suit has the same ranks)."""
POW5: tuple[int, ...] = tuple(5 ** (v - 1) if v else 0 for v in range(11))
"""``vkey // POW5[v] % 5``: the table's count of value ``v``; ``vkey % POW5[v]``: the part
of its value key for the values below ``v``."""
THREE_KINGS = 3 * POW5[10]
"""The least value key with three kings (SCO-3.4): kings, value 10, are the top digit."""


def value_key(cards: CardSet) -> int:
    """The value key of a set of cards, one lookup per suit (reference: :func:`value_key_plain`)."""
    return _KW[cards & M13] + _KW[cards >> 13 & M13] + _KW[cards >> 26 & M13] + _KW[cards >> 39]


def value_key_plain(cards: CardSet) -> int:
    """The value key card by card: the sum of ``5 ** (value - 1)``."""
    return sum(5 ** (VALUE[c] - 1) for c in iter_cards(cards))


# --- interned actions (SCO-4.5) ----------------------------------------------------------------


PLAY_LIMIT = 1 << 19
"""The most Plays :data:`PLAYS` and :data:`BY_CODE` hold (full, both are emptied)."""


def action_for(c: Card, take: CardSet = 0) -> Play:
    """The interned action ``play c`` (``take`` = 0) or ``play c take …``, made once with
    what ``apply`` reads precomputed and stored in :data:`PLAYS` and :data:`BY_CODE`.

    A new capture appears about twice a deal, so its making is inlined here: the code of
    :func:`.actions.play_code` (the reference; a test compares them) and the memos'
    stores."""
    key = take << 6 | c
    a = _PLAYS.get(key)
    if a is None:
        salt = ((c | take << 6) * 0x9E3779B97F4A7C15 >> 40) & 0xFFFF
        a = Play((c << 52 | lexrank(take)) << 16 | salt)
        a.card = c
        a.take = take
        a.bit = BIT[c]
        a.won = take | BIT[c]
        a.dv = -value_key(take) if take else VW[c]  # a capture removes ``take``, else adds c
        a.fx = (take, a.bit, a.won, a.dv)
        if len(_PLAYS) >= PLAY_LIMIT or len(_BY_CODE) >= PLAY_LIMIT:
            PLAYS.clear()
            BY_CODE.clear()
        _PLAYS[key] = a
        _BY_CODE[int(a)] = a
    return a


def _make_play(key: int) -> Play:
    """The Play of ``key = take << 6 | card`` (the compute of :data:`PLAYS`)."""
    return action_for(key & 63, key >> 6)


PLAYS: Memo[int, Play] = Memo("scopone.plays", _make_play, limit=PLAY_LIMIT)
"""Every Play made, by ``take << 6 | card``: one object per action."""
_PLAYS: dict[int, Play] = PLAYS.alias(globals(), "_PLAYS")
BY_CODE: Memo[int, Play] = Memo("scopone.plays_by_code", limit=PLAY_LIMIT)
"""The same Plays by their code (an index :func:`action_for` fills), for a bare int code."""
_BY_CODE: dict[int, Play] = BY_CODE.alias(globals(), "_BY_CODE")


def decode(code: int) -> Play | None:
    """The interned Play with this code, or None (no such action was ever made)."""
    return BY_CODE.table.get(code)


NO_CAPTURE: tuple[Play, ...] = tuple(action_for(c) for c in range(52))
"""``play C`` of every card number (those outside the pack are never legal)."""

# --- single matches (SCO-4.2.1) ------------------------------------------------------------------

_SingleRow = tuple[CardSet, dict[CardSet, tuple[Play, ...]], CardSet]


def _single_row(c: Card) -> _SingleRow:
    """``(others, row, bit)``: the other cards of ``c``'s rank, and ``row[table & others]``
    the actions of ``c`` taking one of them each (SCO-4.2.1), in ``legal`` order."""
    others = SAME_RANK[c] & ~BIT[c]
    row: dict[CardSet, tuple[Play, ...]] = {}
    sub = others
    while sub:
        row[sub] = tuple(action_for(c, BIT[t]) for t in iter_cards(sub))
        sub = (sub - 1) & others
    return others, row, BIT[c]


ROW_BY_LENGTH: tuple[_SingleRow, ...] = ((0, {}, 0), *(_single_row(c) for c in range(52)))
"""The single-match row of each card by ``bit_length()`` of its bit (= card + 1): the hot
loop takes a mask's top card by ``bit_length()`` and drops it with one XOR — cheaper than
isolating the low bit (two big-int operations) and a dict keyed by powers of two."""

# --- sums (SCO-4.2.2) ---------------------------------------------------------------------------

BELOW: tuple[CardSet, ...] = tuple(sum(VALUE_CARDS[:v]) for v in range(11))
"""``BELOW[v]``: every card of value < v (only those can be part of a sum of v)."""


def _sum_walk(key: int) -> tuple[CardSet, ...]:
    """:func:`sum_options` of ``key = low << 4 | v``: a depth-first walk, smallest card
    first, so a set comes right before its extensions and after every set that starts
    with a smaller card — lexicographic order (SCO-4.5)."""
    v, cards = key & 15, cards_list(key >> 4)
    vals = [VALUE[c] for c in cards]
    n = len(cards)
    out: list[CardSet] = []

    def walk(i: int, mask: CardSet, total: int) -> None:
        for j in range(i, n):
            s = total + vals[j]
            if s > v:
                continue
            m = mask | BIT[cards[j]]
            if s == v:
                if mask:  # two or more cards (SCO-4.2.2)
                    out.append(m)
            elif j + 1 < n:
                walk(j + 1, m, s)

    walk(0, 0, 0)
    return tuple(out)


SUM_OPTIONS: Memo[int, tuple[CardSet, ...]] = Memo("scopone.sum_options", _sum_walk, limit=1 << 19)
"""The sums of :func:`sum_options`, by ``(table & BELOW[v]) << 4 | v``."""


def sum_options(v: int, table: CardSet) -> tuple[CardSet, ...]:
    """Every subset of ``table`` of two or more cards whose values add up to ``v``, in
    ``legal`` order (SCO-4.2.2, SCO-4.5). Meant for a table with no card of value ``v``
    (with one, only singles count). Reference: :func:`sum_options_plain`."""
    return SUM_OPTIONS((table & BELOW[v]) << 4 | v)


def sum_options_plain(v: int, table: CardSet) -> tuple[CardSet, ...]:
    """:func:`sum_options` by brute force over every subset of two or more cards."""
    cards = cards_list(table)
    found = [
        sum(BIT[c] for c in combo)
        for k in range(2, len(cards) + 1)
        for combo in combinations(cards, k)
        if sum(VALUE[c] for c in combo) == v
    ]
    return tuple(sorted(found, key=cards_list))


def _value_partitions(v: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to write ``v`` as a sum of two or more values below ``v``, each used at
    most 4 times (a value has 4 cards, SCO-1.2): ``(value, count)`` pairs by ascending
    value, in lexicographic order of the counts (33 of them for 10)."""
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


PARTITIONS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    _value_partitions(v) for v in range(11)
)
"""``PARTITIONS[v]``: :func:`_value_partitions` of each value."""


Partial = tuple[CardSet, tuple[tuple[int, int], ...]]
"""A sum that takes only some of several equal table cards: ``(full, ((value, k), …))``
— every table card of the values in ``full``, and ``k`` of the table's cards of each
``value`` (fewer than the table holds, SCO-10.3)."""


def _all_partials() -> tuple[Partial, ...]:
    """Every :data:`Partial` a sum can be: a partition of a value with some of its parts
    (``k`` ≤ 3 cards of a value, so a table can hold more) taken in part — 290 in all."""
    out: list[Partial] = []
    for v in range(11):
        for parts in PARTITIONS[v]:
            n = len(parts)
            for choice in range(1, 1 << n):
                some = tuple(p for i, p in enumerate(parts) if choice >> i & 1)
                if all(k <= 3 for _, k in some):
                    whole = [val for i, (val, _) in enumerate(parts) if not choice >> i & 1]
                    out.append((sum(VALUE_CARDS[val] for val in whole), some))
    return tuple(dict.fromkeys(out))  # partitions of different values may share one


PARTIALS: tuple[Partial, ...] = _all_partials()
"""Every partial sum, precomputed: a sum template ``~i`` names ``PARTIALS[i]``."""
_PARTIAL_INDEX: dict[Partial, int] = {p: i for i, p in enumerate(PARTIALS)}


def _sum_templates(vkl: int) -> tuple[int, ...]:
    """The ways to make a sum from a table's values (SCO-4.2.2), by value, not by card.

    ``vkl`` is ``v | (vkey % POW5[v]) << 4``: the sum and the table's counts of the values
    below it — all a sum depends on, so the memo answers for new deals too. A template
    ``full >= 0`` names whole values: the capture takes ``table & full``, *every* table
    card of them. A template ``~i`` is the rare sum that takes only some of several equal
    table cards (SCO-10.3): ``PARTIALS[i]``, expanded by :func:`_partial_plays`. The
    templates are the partitions of ``v`` that the table's counts allow.
    """
    v, low = vkl & 15, vkl >> 4
    counts = [0] + [low // POW5[val] % 5 for val in range(1, v)]
    out: list[int] = []
    for parts in PARTITIONS[v]:
        full = 0
        some: tuple[tuple[int, int], ...] = ()
        for val, k in parts:
            m = counts[val]
            if k > m:
                break
            if k == m:
                full |= VALUE_CARDS[val]
            else:
                some += ((val, k),)
        else:
            out.append(~_PARTIAL_INDEX[full, some] if some else full)
    return tuple(out)


MEMO_LIMIT = 1 << 19
"""The most entries :data:`SUM_TEMPLATES` and :data:`TABLE_INFO` hold."""
SUM_TEMPLATES: Memo[int, tuple[int, ...]] = Memo(
    "scopone.sum_templates", _sum_templates, limit=MEMO_LIMIT
)
"""The templates of :func:`_sum_templates` by ``vkl``."""
_SUMS: dict[int, tuple[int, ...]] = SUM_TEMPLATES.alias(globals(), "_SUMS")


def _rank_subsets() -> dict[CardSet, tuple[tuple[CardSet, ...], ...]]:
    """For every set of cards of one value (the empty set included): its subsets by size."""
    out: dict[CardSet, tuple[tuple[CardSet, ...], ...]] = {}
    for v in range(1, 11):
        for n in range(5):
            for cards in combinations(cards_list(VALUE_CARDS[v]), n):
                out[sum(BIT[c] for c in cards)] = tuple(
                    tuple(sum(BIT[c] for c in combo) for combo in combinations(cards, k))
                    for k in range(5)
                )
    return out


RANK_SUBSETS: dict[CardSet, tuple[tuple[CardSet, ...], ...]] = _rank_subsets()
"""``RANK_SUBSETS[cards][k]``: the ``k``-card subsets of ``cards`` (cards of one value),
in card order: one lookup for the choices of a partial sum (SCO-10.3)."""


def _captures_of(c: Card) -> Callable[[CardSet], Play]:
    """``take ↦ action_for(c, take)``: a Python function, not a ``functools.partial``, so
    a miss calls it inside the running interpreter frame instead of through C (CPython
    3.11 runs a Python function called from C in a new, nested evaluation loop)."""

    def capture(take: CardSet) -> Play:
        return action_for(c, take)

    return capture


TAKES: tuple[Memo[CardSet, Play], ...] = tuple(
    Memo("scopone.takes", _captures_of(c)) for c in range(52)
)
"""``TAKES[c]``: the interned sum captures of card ``c`` by take set — one dict lookup on
the hot path, no key to build (finite: only sets adding up to ``c``'s value enter, so the
memos have no limit)."""
SUM_BY_LENGTH: list[tuple[Card, dict[CardSet, Play], int, CardSet]] = [(0, {}, 0, 0)] * 53
"""``(card, TAKES[card].table, value, bit)`` by ``bit_length()`` of the card's bit, for
the sums loop: the table itself, kept current by :meth:`Memo.follow
<folkcards.engine.memo.Memo.follow>` (counting hits swaps it)."""


def _follow_takes(c: Card) -> None:
    def put(table: dict[CardSet, Play]) -> None:
        SUM_BY_LENGTH[BIT[c].bit_length()] = (c, table, VALUE[c], BIT[c])

    TAKES[c].follow(put)


for _c in range(52):
    _follow_takes(_c)


def _partial_plays(c: Card, table: CardSet, partial: Partial) -> list[Play]:
    """The plays of ``c`` for a sum that takes only some of the equal table cards of a
    value: every choice of those cards (SCO-10.3). Loops, not comprehensions (each a call
    in CPython 3.11): this runs about once a deal."""
    full, some = partial
    masks = [table & full]
    for val, k in some:
        subs = RANK_SUBSETS[table & VALUE_CARDS[val]][k]
        grown = []
        for m in masks:
            for sub in subs:
                grown.append(m | sub)
        masks = grown
    takes = TAKES[c]
    row = takes.table
    out: list[Play] = []
    for m in masks:
        try:
            out.append(row[m])
        except KeyError:
            out.append(takes.miss(m))
    return out


# --- what a table allows (SCO-4.2) ------------------------------------------------------------

_TableInfo = tuple[CardSet, CardSet, tuple[tuple[int, ...], ...]]


def _table_info(vkey: int) -> _TableInfo:
    """``(capturers, singles, sums)`` of a table with value key ``vkey``: the cards with
    a capture option; those whose value is on the table (SCO-4.2.1: one equal card, never
    a sum); per value the templates of its sums (:func:`_sum_templates`; ``()`` where
    none, or where a single match rules sums out). What it computes it stores in
    :data:`TABLE_INFO`, and the templates in :data:`SUM_TEMPLATES` (the memos' stores
    inlined: :func:`legal_actions` calls this on a miss, about once a deal)."""
    singles = sum_capt = 0
    sums: list[tuple[int, ...]] = [()] * 11
    for v in range(1, 11):
        if vkey // POW5[v] % 5:
            singles |= VALUE_CARDS[v]
            continue
        vkl = (vkey % POW5[v]) << 4 | v
        templates = _SUMS.get(vkl)
        if templates is None:
            templates = _sum_templates(vkl)
            if len(_SUMS) >= MEMO_LIMIT:
                SUM_TEMPLATES.clear()
            _SUMS[vkl] = templates
        if templates:
            sum_capt |= VALUE_CARDS[v]
            sums[v] = templates
    info = (singles | sum_capt, singles, tuple(sums))
    if len(_TABLE_INFO) >= MEMO_LIMIT:
        TABLE_INFO.clear()
    _TABLE_INFO[vkey] = info
    return info


TABLE_INFO: Memo[int, _TableInfo] = Memo("scopone.table_info", _table_info, limit=MEMO_LIMIT)
"""What each value key lets each card do (:func:`_table_info`)."""
_TABLE_INFO: dict[int, _TableInfo] = TABLE_INFO.alias(globals(), "_TABLE_INFO")

# --- cards that capture nothing (SCO-4.2.3) -------------------------------------------------


def _suit_plays(s: int) -> list[tuple[Play, ...]]:
    """Per 13-bit hand pattern of suit ``s``: the ``play C`` actions of its cards, in order
    (patterns with a card outside the pack, SCO-1.1, stay empty: no hand holds one)."""
    per: list[tuple[Play, ...]] = [()] * (1 << 13)
    for pattern in range(1, 1 << 13):
        if pattern & ~_SUIT40:
            continue
        low = pattern & -pattern  # its lowest card's play, then the rest's
        per[pattern] = (NO_CAPTURE[13 * s + low.bit_length() - 1], *per[pattern ^ low])
    return per


_NOC = tuple(_suit_plays(s) for s in range(4))
_NOC0, _NOC1, _NOC2, _NOC3 = _NOC


def _low_plays(half: CardSet) -> tuple[Play, ...]:
    return _NOC[0][half & M13] + _NOC[1][half >> 13]


def _high_plays(half: CardSet) -> tuple[Play, ...]:
    return _NOC[2][half & M13] + _NOC[3][half >> 13]


HALF_LIMIT = 1 << 17
HALF_LOW: Memo[CardSet, tuple[Play, ...]] = Memo("scopone.half_low", _low_plays, limit=HALF_LIMIT)
"""``play C`` of the clubs and spades of a hand (bits 0–25): half hands hold few of 20
cards and recur across deals, where whole hands do not."""
_HALF_LOW: dict[CardSet, tuple[Play, ...]] = HALF_LOW.alias(globals(), "_HALF_LOW")
HALF_HIGH: Memo[CardSet, tuple[Play, ...]] = Memo(
    "scopone.half_high", _high_plays, limit=HALF_LIMIT
)
"""``play C`` of the hearts and diamonds of a hand (bits 26–51, shifted down)."""
_HALF_HIGH: dict[CardSet, tuple[Play, ...]] = HALF_HIGH.alias(globals(), "_HALF_HIGH")


def no_capture(cards: CardSet) -> tuple[Play, ...]:
    """``play C`` of every card of ``cards``, in card order, from the two half-hand memos;
    only a missing half is built (:func:`_low_plays`, :func:`_high_plays` and
    :meth:`Memo.store <folkcards.engine.memo.Memo.store>` inlined: misses are frequent
    here). Reference: :func:`no_capture_plain`."""
    lo, hi = cards & M26, cards >> 26
    low = _HALF_LOW.get(lo)
    if low is None:
        low = _NOC0[lo & M13] + _NOC1[lo >> 13]
        if len(_HALF_LOW) >= HALF_LIMIT:
            HALF_LOW.clear()
        _HALF_LOW[lo] = low
    high = _HALF_HIGH.get(hi)
    if high is None:
        high = _NOC2[hi & M13] + _NOC3[hi >> 13]
        if len(_HALF_HIGH) >= HALF_LIMIT:
            HALF_HIGH.clear()
        _HALF_HIGH[hi] = high
    return low + high


def no_capture_plain(cards: CardSet) -> tuple[Play, ...]:
    """``play C`` of every card of ``cards``, card by card."""
    return tuple(action_for(c) for c in iter_cards(cards))


# --- the legal actions (SCO-4.3) ---------------------------------------------------------------


class Position(Protocol):
    """What :func:`legal_actions` reads of a deal (:class:`.deal.ScoponeDeal`)."""

    _legal: tuple[Action, ...] | None
    to_act: int | None
    hands: list[CardSet]
    table: CardSet
    _vkey: int


def legal_actions(deal: Position) -> tuple[Action, ...]:
    """``ScoponeDeal.legal_actions`` itself (the class assigns this function, so the hot
    path costs no call more): the legal plays of the seat to act in ``legal`` order
    (SCO-4.3, SCO-4.5), computed once per position and cached in ``_legal``; ``()`` when
    the deal is over. Reference: :func:`legal_plain`.

    Cards that cannot capture come from the half-hand memos; each capturing card adds its
    options (singles from :data:`ROW_BY_LENGTH`, sums from the templates of
    :data:`TABLE_INFO`); codes are order-preserving, so one sort gives the ``legal`` order,
    and a hand with no capture skips the list and the sort.
    """
    legal = deal._legal
    if legal is not None:
        return legal
    seat = deal.to_act
    if seat is None:
        deal._legal = ()
        return ()
    hand = deal.hands[seat]
    try:  # subscripts, not .get(): the memos almost always hit, and a try is free then
        capt, singles, sums = _TABLE_INFO[deal._vkey]
    except KeyError:
        capt, singles, sums = _table_info(deal._vkey)
    capt &= hand
    if not capt:  # SCO-4.2.3: no card can capture, every card lies on the table
        try:
            legal = _HALF_LOW[hand & M26] + _HALF_HIGH[hand >> 26]
        except KeyError:
            legal = no_capture(hand)
        deal._legal = legal
        return legal
    hand ^= capt  # SCO-4.2.3: the cards that cannot capture lie on the table
    try:
        out: list[Play] = [*_HALF_LOW[hand & M26], *_HALF_HIGH[hand >> 26]]
    except KeyError:
        out = [*no_capture(hand)]
    table = deal.table
    singles &= capt
    if singles:
        capt ^= singles
        while singles:  # SCO-4.2.1: one equal table card each, never a sum
            others, row, bit = ROW_BY_LENGTH[singles.bit_length()]
            singles ^= bit
            out += row[table & others]
    while capt:  # SCO-4.2.2: the sums, from the templates of the card's value
        c, takes, v, bit = SUM_BY_LENGTH[capt.bit_length()]
        capt ^= bit
        for full in sums[v]:
            if full < 0:
                out += _partial_plays(c, table, PARTIALS[~full])
                continue
            take = table & full
            try:
                out.append(takes[take])
            except KeyError:  # TAKES[c].miss inlined (no limit to check): a call less
                takes[take] = a = action_for(c, take)
                out.append(a)
    out.sort()  # codes are order-preserving (SCO-4.5)
    legal = deal._legal = tuple(out)
    return legal


def legal_plain(hand: CardSet, table: CardSet) -> tuple[Play, ...]:
    """The legal plays of ``hand`` against ``table`` card by card, straight from SCO-4.2
    and SCO-4.3 (the reference of :func:`legal_actions`): a card with equal table cards
    takes one of them; else each set of two or more adding up to its value; else it is
    played to the table."""
    out: list[Play] = []
    for c in iter_cards(hand):
        singles = table & SAME_RANK[c]
        options = [BIT[t] for t in iter_cards(singles)] or sum_options_plain(VALUE[c], table)
        out += [action_for(c, take) for take in options] or [action_for(c)]
    return tuple(sorted(out, key=lambda a: (a.card, cards_list(a.take))))


# --- dealing (SCO-3.1, SCO-3.2) -----------------------------------------------------------------

_POISON = 1 << 60
_BIT_OR_POISON: list[CardSet] = [BIT[c] if DECK_40 >> c & 1 else _POISON for c in range(52)]
_BIT_OR_POISON += [_POISON] * 52
"""``BIT`` of each Scopone card; any other index from -104 to 103 gives ``_POISON``, a bit
far above the pack, so a deck holding a non-card never adds up to ``DECK_40``."""


def _getters(hands: tuple[tuple[int, ...], ...], table: tuple[int, ...]) -> tuple[Any, ...]:
    """Item getters of the four hands' deck positions (p1 … p4) and of the table's."""
    return (*(itemgetter(*idx) for idx in hands), itemgetter(*table) if table else None)


_GETTERS: dict[bool, tuple[Any, ...]] = {
    False: _getters(CLASSIC_HANDS, CLASSIC_TABLE),  # SCO-3.1
    True: _getters(SCIENTIFICO_HANDS, ()),  # SCO-3.2
}
"""The item getters of each deal, by ``scientifico``."""


Dealt = tuple[list[CardSet], CardSet, tuple[Card, ...]]


def deal_deck(deck: tuple[Card, ...], dealer: int, rules: ScoponeRules) -> Dealt | None:
    """``(hands by seat, table, table cards in deal order)`` of a deck dealt by SCO-3.1 or
    SCO-3.2, or None when ``deck`` is not the 40 cards each once. Reference:
    :func:`deal_deck_plain`. Forty distinct powers of two add up to ``DECK_40`` only if
    no two are equal, so one sum checks the deck."""
    try:
        bits = itemgetter(*deck)(_BIT_OR_POISON) if len(deck) == 40 else None
    except (IndexError, TypeError):
        return None
    if bits is None:
        return None
    g0, g1, g2, g3, get_table = _GETTERS[rules.scientifico]
    s0, s1, s2, s3 = DEAL_ORDER[dealer]  # SCO-3.1: p1 = the eldest (dealer + 1) first
    hands = [0, 0, 0, 0]
    m0 = hands[s0] = sum(g0(bits))
    m1 = hands[s1] = sum(g1(bits))
    m2 = hands[s2] = sum(g2(bits))
    m3 = hands[s3] = sum(g3(bits))
    if get_table is None:
        return (hands, 0, ()) if m0 + m1 + m2 + m3 == DECK_40 else None
    table = sum(get_table(bits))
    if m0 + m1 + m2 + m3 + table != DECK_40:
        return None
    return hands, table, get_table(deck)


def deal_deck_plain(deck: tuple[Card, ...], dealer: int, rules: ScoponeRules) -> Dealt | None:
    """:func:`deal_deck` position by position."""
    if sorted(deck) != list(CARDS_40):
        return None
    hands = [0, 0, 0, 0]
    for p, positions in enumerate(rules.hands):
        hands[(dealer + 1 + p) % 4] = sum(BIT[deck[i]] for i in positions)
    order = tuple(deck[i] for i in rules.table)
    return hands, sum(BIT[c] for c in order), order


# --- scoring (SCO-6.4) -------------------------------------------------------------------------

PRIMIERA_PAIRS: dict[str, tuple[tuple[int, int], ...]] = {
    p: tuple((t[x], t[_SUIT40 & ~x]) for x in range(1 << 13)) for p, t in PRIMIERA_TABLES.items()
}
"""Per 13-bit suit pattern ``x`` of one pile: ``(best of x, best of the suit's other
cards)``. When the deal is over the two piles split the pack (SCO-5.3), so the other
pile's suit is the rest of the suit: one lookup per suit gives both piles' primiera."""


def primiera_both(pile0: CardSet, pictures: str) -> tuple[int, int]:
    """Both teams' primiera (SCO-6.4) when team 0 holds ``pile0`` and team 1 the rest of
    the pack. Reference: :func:`.scoring.primiera` of each pile."""
    pt = PRIMIERA_PAIRS[pictures]
    (a, e), (b, f), (c, g), (d, h) = (
        pt[pile0 & M13], pt[pile0 >> 13 & M13], pt[pile0 >> 26 & M13], pt[pile0 >> 39]
    )  # fmt: skip
    prim0 = a + b + c + d if a and b and c and d else 0  # 0: a suit is missing
    prim1 = e + f + g + h if e and f and g and h else 0
    return prim0, prim1
