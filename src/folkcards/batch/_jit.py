"""The compiler shim and the bit-level helpers every batched kernel shares.

With numba installed (``pip install 'folkcards[fast]'``) each kernel is compiled once
(``numba.njit``, cached on disk under ``~/.cache/folkcards/numba/<digest of these
sources>`` unless ``NUMBA_CACHE_DIR`` says otherwise); without it — or with
``FOLKCARDS_NO_NUMBA=1`` in the environment — the very same functions run as plain Python
over numpy arrays: exact, and about a hundred times slower.

Card sets are ``uint64`` masks (bit ``c`` = card ``c``, as in :mod:`folkcards.cards`), card
numbers and counters ``int64``. Every random choice comes from a per-world xorshift64
generator (:func:`xorshift`), so a seed gives the same playouts compiled or not.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def _cache_dir() -> str:
    """Where numba keeps the compiled kernels: a directory named by a digest of this
    package's sources. numba's own cache notices a change of a kernel's file but not of
    the helpers it inlines from another file; a new digest for any change of any file
    here makes a stale kernel impossible."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for f in sorted(here.glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return os.path.join(root, "folkcards", "numba", h.hexdigest()[:16])


_numba: Any = None
if not os.environ.get("FOLKCARDS_NO_NUMBA"):
    os.environ.setdefault("NUMBA_CACHE_DIR", _cache_dir())
    try:
        _numba = importlib.import_module("numba")
    except ImportError:
        _numba = None
NUMBA = _numba is not None
"""True when the kernels are compiled (numba is installed and not switched off)."""


def njit(fn: F) -> F:
    """``numba.njit(cache=True)`` when numba is there, else the function itself."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True)(fn))


ONE = np.uint64(1)
ZERO = np.uint64(0)
LOW16 = np.uint64(0xFFFF)
S16 = np.uint64(16)
S11 = np.uint64(11)
S13 = np.uint64(13)
S7 = np.uint64(7)
S17 = np.uint64(17)


def _ctz16() -> np.ndarray[Any, np.dtype[np.int64]]:
    out = np.zeros(1 << 16, np.int64)
    for x in range(1, 1 << 16):
        out[x] = (x & -x).bit_length() - 1
    out[0] = 16
    return out


CTZ16 = _ctz16()
"""Index of the lowest set bit of every 16-bit pattern (16 for 0)."""


@njit
def bit(c: int) -> np.uint64:
    """The one-card set of card ``c``."""
    return ONE << np.uint64(c)


@njit
def has(m: np.uint64, c: int) -> bool:
    """True when card ``c`` is in set ``m``."""
    return bool((m >> np.uint64(c)) & ONE != ZERO)


@njit
def lowest(m: np.uint64) -> int:
    """The lowest card of a non-empty set."""
    n = 0
    while m & LOW16 == ZERO:
        m = m >> S16
        n += 16
    return n + int(CTZ16[int(m & LOW16)])


@njit
def popcount(m: np.uint64) -> int:
    """How many cards a set holds."""
    n = 0
    while m != ZERO:
        m = m & (m - ONE)
        n += 1
    return n


@njit
def kth(m: np.uint64, k: int) -> int:
    """The ``k``-th lowest card (from 0) of a set holding more than ``k`` cards."""
    for _ in range(k):
        m = m & (m - ONE)
    return lowest(m)


@njit
def xorshift(s: np.uint64) -> np.uint64:
    """The next state of a xorshift64 generator (Marsaglia 2003; never 0 from non-0)."""
    s = s ^ (s << S13)
    s = s ^ (s >> S7)
    s = s ^ (s << S17)
    return s


@njit
def below(s: np.uint64, n: int) -> int:
    """A number in [0, n) from a generator state (its high bits)."""
    return int(np.int64((s >> S11) % np.uint64(n)))


@njit
def min_card(m: np.uint64, cost: np.ndarray) -> int:
    """The card of ``m`` with the lowest ``cost`` (the lowest card number on ties)."""
    best = -1
    bc = 1 << 60
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        if cost[c] < bc:
            bc = cost[c]
            best = c
    return best


@njit
def max_card(m: np.uint64, cost: np.ndarray) -> int:
    """The card of ``m`` with the highest ``cost`` (the lowest card number on ties)."""
    best = -1
    bc = -(1 << 60)
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        if cost[c] > bc:
            bc = cost[c]
            best = c
    return best


@njit
def _best(m: np.uint64, power: np.ndarray, pts: np.ndarray, kind: int) -> int:
    """The card of ``m`` that is best by one of the fast policy's orders: 0 the cheapest to
    throw (points ×4 + power, lowest), 1 the weakest (power, lowest), 2 the richest to give
    (points, then the weakest), 3 the richest and strongest (points, then power)."""
    best = -1
    bk = 1 << 60
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        if kind == 0:
            key = pts[c] * 4 + power[c]
        elif kind == 1:
            key = power[c]
        elif kind == 2:
            key = -pts[c] * 64 + power[c]
        else:
            key = -pts[c] * 64 - power[c]
        if key < bk:
            bk = key
            best = c
    return best


@njit
def trick_choice(
    legal: np.uint64,
    n: int,
    win: int,
    friend_winning: bool,
    after: np.uint64,
    others: np.uint64,
    beats: np.ndarray,
    power: np.ndarray,
    pts: np.ndarray,
    trumps: np.uint64,
    trick_points: int,
) -> int:
    """The fast policy's card in a trick game, from masks alone (the shared tactics of
    :mod:`folkcards.bots.heuristic.common`, in their simplest form).

    Leading (``n == 0``): the richest card no other hand can beat (``others``), else the
    cheapest card. Following: when the seat's side wins the trick and no later hand
    (``after``) can beat it, give it the richest card that is no trump (*schmear*), else
    the cheapest; else win with the weakest card no later hand can beat; else win with
    the weakest winner when the trick holds points; else throw the cheapest card.
    ``power[c]`` ranks the cards (0 the weakest), ``pts[c]`` is the card's points,
    ``beats[c]`` the set of cards that beat ``c``.
    """
    if n == 0:
        boss = ZERO
        m = legal
        while m != ZERO:
            c = lowest(m)
            m = m & (m - ONE)
            if beats[c] & others == ZERO:
                boss = boss | (ONE << np.uint64(c))
        if boss != ZERO:
            return _best(boss, power, pts, 3)
        return _best(legal, power, pts, 0)
    if friend_winning and beats[win] & after == ZERO:
        plain = legal & ~trumps
        if plain != ZERO:
            return _best(plain, power, pts, 2)
        return _best(legal, power, pts, 0)
    winners = legal & beats[win]
    if winners != ZERO:
        safe = ZERO
        m = winners
        while m != ZERO:
            c = lowest(m)
            m = m & (m - ONE)
            if beats[c] & after == ZERO:
                safe = safe | (ONE << np.uint64(c))
        if safe != ZERO:
            return _best(safe, power, pts, 1)
        if trick_points > 0 and not friend_winning:
            return _best(winners, power, pts, 1)
    return _best(legal, power, pts, 0)


@njit
def _legal_follow(
    hand: np.uint64, led_class: np.uint64, trumps: np.uint64, must_trump: bool
) -> np.uint64:
    """A follower's playable cards by the plain duties (follow the led class, else trump
    when ``must_trump``, else anything)."""
    m = hand & led_class
    if m == ZERO and must_trump:
        m = hand & trumps
    if m == ZERO:
        m = hand
    return np.uint64(m)


@njit
def _weakest(m: np.uint64, power: np.ndarray) -> int:
    best = -1
    bk = 1 << 60
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        if power[c] < bk:
            bk = power[c]
            best = c
    return best


@njit
def _holds(
    c: int,
    n: int,
    win: int,
    friend_winning: bool,
    seat: int,
    lead: int,
    nseats: int,
    hands: np.ndarray,
    side: np.ndarray,
    led_class: np.uint64,
    beats: np.ndarray,
    power: np.ndarray,
    trumps: np.uint64,
    must_trump: bool,
) -> bool:
    """Whether the seat's side takes the trick after it plays ``c``, all hands open: each
    later hand beats the winning card with its weakest card that does, when it can and the
    trick is not its side's (a partner over an opponent, an opponent over us)."""
    if n == 0 or has(beats[win], c):
        wc = c
        ours = True
    else:
        wc = win
        ours = friend_winning
    for k in range(n + 1, nseats):
        o = (lead + k) % nseats
        mine = side[o] == side[seat]
        if mine == ours:
            continue
        better = _legal_follow(hands[o], led_class, trumps, must_trump) & beats[wc]
        if better != ZERO:
            wc = _weakest(better, power)
            ours = mine
    return ours


@njit
def swing_choice(
    legal: np.uint64,
    n: int,
    win: int,
    friend_winning: bool,
    seat: int,
    lead: int,
    nseats: int,
    hands: np.ndarray,
    side: np.ndarray,
    led_class: np.uint64,
    klass: np.ndarray,
    beats: np.ndarray,
    power: np.ndarray,
    pts: np.ndarray,
    trumps: np.uint64,
    must_trump: bool,
    declaring: bool,
    trick_points: int,
    trick_bonus: float,
) -> int:
    """The fast policy of the trick games: the heuristics' point-swing rating of every
    legal card (:mod:`folkcards.bots.heuristic.sasku`'s ``_play`` and ``_lead``) with all
    hands open, so every "chance" is a certainty: a card is worth the trick's points
    (plus ``trick_bonus``, the worth of a trick itself) won or lost with it, less what
    keeping it for a later trick is worth; leads prefer sure winners (trumps first when
    the side declares), else low cards of short suits, into a void partner's trumps."""
    opp = ZERO
    partner_hand = ZERO
    for k in range(nseats):
        if k != seat:
            if side[k] != side[seat]:
                opp = opp | hands[k]
            else:
                partner_hand = partner_hand | hands[k]
    rest = float(nseats - 1 - n)
    best = -1
    bv = -1e18
    m = legal
    while m != ZERO:
        c = lowest(m)
        m = m & (m - ONE)
        p = float(pts[c])
        higher = beats[c] & opp
        if trumps & bit(c) != ZERO:
            pw = 0.75 ** popcount(higher)
        else:
            pw = 0.3 * 0.5 ** popcount(higher & ~trumps)
        keep = pw * (15.0 + p) - (1.0 - pw) * p * 0.5
        if n == 0:
            cls = klass[c]
            q = _holds(c, 0, c, True, seat, seat, nseats, hands, side, cls, beats, power,
                       trumps, must_trump)  # fmt: skip
            if trumps & bit(c) != ZERO:
                if q and declaring and opp & trumps != ZERO:
                    v = 30.0 + 0.1 * power[c]
                elif q:
                    v = (8.0 if declaring else -10.0) + 0.01 * power[c]
                else:
                    v = -5.0 - p - 0.05 * power[c]
            elif q:
                v = 15.0 + 0.2 * p
            else:
                ruff = 10.0 if partner_hand & cls == ZERO and partner_hand & trumps else 0.0
                v = ruff - p - 0.02 * power[c] - 0.5 * popcount(hands[seat] & cls)
            v += trick_bonus * (1.0 if q else 0.0)
        else:
            q = _holds(c, n, win, friend_winning, seat, lead, nseats, hands, side, led_class,
                       beats, power, trumps, must_trump)  # fmt: skip
            value = trick_points + p + rest + trick_bonus
            v = (value if q else -value) - keep
        if v > bv:
            bv = v
            best = c
    return best


# --- the endgame solvers' transposition table ------------------------------------------
# A table of ``2 ** k`` slots: ``tt_hands[slot]`` every seat's hand, ``tt_tag[slot]`` what
# else tells positions apart (the leader, a game's flags; -1: empty), ``tt_bounds[slot]``
# a lower and an upper bound of the position's value.


@njit
def tt_same(
    tt_hands: np.ndarray, tt_tag: np.ndarray, slot: np.int64 | int, h: np.ndarray, tag: int
) -> bool:
    """True when table slot ``slot`` holds the position of hands ``h`` and ``tag``."""
    if tt_tag[slot] != tag:
        return False
    for k in range(h.shape[0]):  # noqa: SIM110 (numba compiles loops, not all())
        if tt_hands[slot, k] != h[k]:
            return False
    return True


@njit
def tt_store(
    tt_hands: np.ndarray,
    tt_tag: np.ndarray,
    tt_bounds: np.ndarray,
    slot: np.int64 | int,
    h: np.ndarray,
    tag: int,
    best: int,
    alpha: int,
    beta: int,
    wide: int,
) -> None:
    """Keep what a fail-soft search of window (``alpha``, ``beta``) found, ``best``, for the
    position of hands ``h`` and ``tag`` in slot ``slot`` (taking the slot over, with the
    bounds ±``wide``, when another position held it): an upper bound when it failed low,
    a lower bound when it failed high, else the exact value."""
    if not tt_same(tt_hands, tt_tag, slot, h, tag):
        tt_tag[slot] = tag
        for k in range(h.shape[0]):
            tt_hands[slot, k] = h[k]
        tt_bounds[slot, 0] = -wide
        tt_bounds[slot, 1] = wide
    if best <= alpha:
        tt_bounds[slot, 1] = min(tt_bounds[slot, 1], best)
    elif best >= beta:
        tt_bounds[slot, 0] = max(tt_bounds[slot, 0], best)
    else:
        tt_bounds[slot, 0] = best
        tt_bounds[slot, 1] = best


@njit
def tt_probe(
    tt_hands: np.ndarray,
    tt_tag: np.ndarray,
    tt_bounds: np.ndarray,
    slot: np.int64 | int,
    h: np.ndarray,
    tag: int,
    alpha: int,
    beta: int,
) -> tuple[bool, int, int, int]:
    """What the table knows of the position of hands ``h`` and ``tag`` for a search of
    window (``alpha``, ``beta``): ``(True, value, alpha, beta)`` when its bounds settle it
    (exact, or outside the window), else ``(False, 0, alpha, beta)`` with the window
    narrowed to the bounds."""
    if tt_same(tt_hands, tt_tag, slot, h, tag):
        lo = tt_bounds[slot, 0]
        hi = tt_bounds[slot, 1]
        if lo >= beta or lo == hi:
            return True, lo, alpha, beta
        if hi <= alpha:
            return True, hi, alpha, beta
        return False, 0, max(alpha, lo), min(beta, hi)
    return False, 0, alpha, beta


@njit
def follow_score(
    pts: float,
    pw: float,
    trump: bool,
    friend_safe: bool,
    beats: bool,
    sure: bool,
    partner_to_come: bool,
    tp: float,
) -> float:
    """The shared tactics' rating of a card played to a trick
    (``folkcards.bots.heuristic.common.score_plays``), for the kernels' ``heuristic``
    policies: ``pts`` its card points, ``pw`` its power, ``trump``; ``friend_safe`` when a
    friend wins the trick for sure, ``beats`` when the card takes the lead, ``sure`` when it
    cannot be beaten after it, ``tp`` the points already in the trick."""
    cheap = -0.02 * pw - (0.5 if trump else 0.0)
    if friend_safe:  # schmear, but not a trump that will win tricks later
        return pts - (2.0 + 0.2 * pw if trump else 0.05 * pw)
    if beats:
        value = tp + pts
        if sure:
            return 20 + value + cheap * 3
        if partner_to_come:
            return 2 + 0.3 * value + cheap * 3 - 0.3 * pts
        return 5 + 0.5 * value + cheap * 3 - 0.5 * pts
    return -pts + cheap * 2 - (0.1 * pw if trump else 0.0)  # lose little
