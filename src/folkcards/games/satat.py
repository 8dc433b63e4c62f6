"""Satat (Mauritius): four players in fixed partnerships race to seven of thirteen tricks.

Implements ``/work/shared/rules/satat.md`` (rule prefix ``SAT``) on the engine API:
the 52-card pack, the trump maker's choice from his first five cards or blind from his
last four (SAT-5), the no-picture redeal and the partner's no-trump redeal (SAT-5.4,
SAT-6), card passing after a 7-0 or 13-0 (SAT-7), play where the 2♥ is free and
supreme (SAT-8), the 7-0 continuation (SAT-9), dealer rotation and carried state
(SAT-12), the first-dealer draw and match counting (SAT-3, SAT-13), and the variants
Trup Kasiet (hidden trump, SAT-15) and table signals (SAT-16).

Hot path: hands are bitmasks; actions come from one :class:`ActionTable` whose codes
index precomputed ``_KIND``/``_ARG`` tables; follow-suit and trick winners come from a
:class:`TrumpConfig` per trump suit built once with the 2♥ as ``supreme`` card and as a
``free`` card of ``follow``; legal play tuples are built from lazily filled per-suit
tables, so a legal list costs a few index operations.

``Observation.info`` layout (JSON-able; cards as canonical text, seats as ints):

* ``trump_maker``, ``partner``: seats (SAT-2.2).
* ``trump``: trump suit letter as this seat knows it, else ``None`` (Trup Kasiet: only
  the trump maker until the table knows it, SAT-19.3).
* ``trump_known``: the table knows the trump (main game: once made; SAT-15.4).
* ``trump_candidates``: suits the public deduction of SAT-15.4 still allows.
* ``blind``: the position N of ``blind N`` or ``None``.
* ``turned``: main game, the card turned by ``blind N`` (public) or ``None``.
* ``trump_card``: Trup Kasiet, the face-down trump card: the trump maker's own knowledge,
  everyone's once it is played; else ``None``.
* ``gave``/``received``: the cards this seat gave / received in card passing (received
  only once the exchange is done).
* ``known_cards``: per seat, cards this seat knows to be in that seat's hand now (the
  turned card, cards it gave away, an announced 2♥); its own entry is ``[]``.
* ``voids``: per seat, suits that seat has publicly shown to hold no card of (the 2♥
  excepted: a void in hearts means no heart other than the 2♥).
* ``announced``: the seat that announced the 2♥ (SAT-16.3) or ``None``.
* ``tricks``: tricks taken ``[team 0, team 1]``; ``trick``: the current trick as
  ``[[seat, card], …]``; ``leader``: its leader or ``None``; ``won``: completed tricks as
  ``[leader, [cards], winner]``; ``continuing``: a 7-0 continuation is on (SAT-9.3).

Private steps (SAT-19.1): a partner's ``pass`` and an announce-phase ``silent`` do not
appear in other seats' histories; while such a step is pending, the other seats see the
phase and seat that follow if it is declined (with an empty ``legal``), so that waiting
reveals nothing. A give is shown to others as ``give ?`` (``give ? ?``) and, once the
exchange is done, in full to its receiver; ``hide C`` is ``hide ?`` to all but its maker.

``public_observation()`` is the same view for a viewer at no seat (``SPECTATOR``): no hand,
no legal actions, every pass and announce-phase ``silent`` left out and pending ones masked
as for an uninvolved seat, every give ``give ?``, ``gave``/``received`` empty and
``known_cards`` only the public ones (SAT-19.2): the turned card while it is known to be in
the trump maker's hand (until a card-passing exchange) and an announced 2♥.

A state pickles by value (``__getstate__``): phases are compared as numbers (``ph``), never
by identity, so an unpickled state plays on exactly like the original.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from operator import attrgetter, itemgetter
from typing import Any

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_52,
    RANKS,
    SUIT_MASK,
    SUITS,
    Card,
    CardError,
    CardSet,
    iter_cards,
    mask_text,
    parse_card,
    ranks_mask,
)
from folkcards.engine.actions import Action, ActionSyntaxError, ActionTable, canonical_tokens
from folkcards.engine.api import (
    JSON,
    SPECTATOR,
    DealState,
    FolkcardsError,
    Game,
    MalformedRecord,
    MatchState,
    Observation,
    Variant,
    VariantOption,
    json_repr,
)
from folkcards.engine.card import NO_TRUMP, GameCard, suit_run, teams
from folkcards.engine.events import Told, component, private, public, reason, secret
from folkcards.engine.explain import Explanation, explained
from folkcards.engine.registry import register
from folkcards.engine.tricks import TrumpConfig

TWO_H: Card = 2 * 13 + 12
"""The 2♥, the highest card of the pack (SAT-1.3)."""
B2H: CardSet = 1 << TWO_H
HEARTS = 2
PICTURES: CardSet = ranks_mask("KQJ")  # SAT-1.5
NOT_2H: tuple[CardSet, ...] = tuple(m & ~B2H for m in SUIT_MASK)
"""Each suit without the 2♥ (the cards one must follow with, SAT-8.3)."""

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
# The state keeps its phase twice: ``ph``, the number that every rule compares (by value:
# a phase string compared by identity would break once a state is pickled, its strings
# then being new objects), and ``phase``, the public name ``PHASES[ph]``. Both are
# assigned together at every change of phase.

# Action kinds (index into _KIND by action code).
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
_VERBS = {
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
SUFFIXES = ("", "grate", "pile", "vire")  # SAT-16.6 order
_PHASE_ACTIONS: dict[str, list[str]] = {
    "propose": ["pass", "propose"],
    "consent": ["accept", "refuse"],
    "announce": ["announce", "silent"],
    "lese": ["lese", "silent"],
    "continue": ["continue", "stop"],
}
"""The actions of the phases that ``explain`` names only by their phase (SAT-17)."""
SIGNAL_LEVELS = ("none", "home", "all")


def _all_texts() -> list[str]:
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
_KIND = [0] * _N
_ARG = [0] * _N  # card, blind position, suit, or (give) card mask
_TEXT = attrgetter("text")  # an action's text, for copying the public part of a history
_SUF = [0] * _N
PLAY: list[list[Action]] = [[TABLE.actions[0]] * 4 for _ in range(52)]
"""``PLAY[c][s]``: ``play C`` with suffix ``SUFFIXES[s]``."""
GIVE: dict[CardSet, Action] = {}
HIDE: list[Action] = [TABLE.actions[0]] * 52
BLIND: list[Action] = [TABLE.actions[0]] * 5
TRUMP: list[Action] = [TABLE.actions[0]] * 4
for _a in TABLE.actions:
    _tok = _a.text.split(" ")
    _k = _VERBS[_tok[0]]
    _KIND[_a] = _k
    if _k == K_PLAY:
        _c = parse_card(_tok[1])
        _ARG[_a] = _c
        _SUF[_a] = SUFFIXES.index(_tok[2]) if len(_tok) > 2 else 0
        PLAY[_c][_SUF[_a]] = _a
    elif _k == K_GIVE:
        _m = 0
        for _t in _tok[1:]:
            _m |= BIT[parse_card(_t)]
        _ARG[_a] = _m
        GIVE[_m] = _a
    elif _k == K_HIDE:
        _ARG[_a] = parse_card(_tok[1])
        HIDE[_ARG[_a]] = _a
    elif _k == K_BLIND:
        _ARG[_a] = int(_tok[1])
        BLIND[_ARG[_a]] = _a
    elif _k == K_TRUMP:
        _ARG[_a] = SUITS.index(_tok[1])
        TRUMP[_ARG[_a]] = _a
A_ACCEPT, A_ANNOUNCE, A_CONTINUE, A_LESE = (
    TABLE[t] for t in ("accept", "announce", "continue", "lese")
)
A_PASS, A_PROPOSE, A_REDEAL, A_REFUSE = (TABLE[t] for t in ("pass", "propose", "redeal", "refuse"))
A_SILENT, A_STOP = TABLE["silent"], TABLE["stop"]

_TRUMP_LEGAL: tuple[tuple[Action, ...], tuple[Action, ...]] = (
    tuple(sorted([*BLIND[1:], *TRUMP])),
    tuple(sorted([*BLIND[1:], *TRUMP, A_REDEAL])),
)
"""Main game trump-making choices (SAT-5.5), without and with ``redeal`` (SAT-5.4)."""

CONFIGS: tuple[TrumpConfig, ...] = tuple(
    TrumpConfig(DECK_52, list(range(13 * t, 13 * t + 13)), list(range(13)), supreme=TWO_H)
    for t in range(4)
)
"""One trick configuration per trump suit; the 2♥ beats everything (SAT-1.3, SAT-1.8)."""

# Relative seat (0 = trump maker … 3 = dealer) of each deck index (SAT-4.2).
_DECK_REL: tuple[int, ...] = tuple((i // 5) if i < 20 else ((i - 20) // 4) % 4 for i in range(52))


def _suit_plays(suit: int) -> tuple[tuple[Action, ...], ...]:
    """``play C`` tuples for every 13-bit pattern of one suit, in card order."""
    table: list[tuple[Action, ...]] = [()] * 8192
    for bits in range(1, 8192):
        low = bits & -bits
        table[bits] = (PLAY[13 * suit + low.bit_length() - 1][0], *table[bits ^ low])
    return tuple(table)


_P0, _P1, _P2, _P3 = (_suit_plays(s) for s in range(4))


def _plays(mask: CardSet) -> tuple[Action, ...]:
    """``play C`` for every card of ``mask`` in card order (no suffixes)."""
    return (
        _P0[mask & 0x1FFF]
        + _P1[(mask >> 13) & 0x1FFF]
        + _P2[(mask >> 26) & 0x1FFF]
        + _P3[mask >> 39]
    )


_PLAYS_SEEN: dict[CardSet, tuple[Action, ...]] = {}
"""Memo of a follower's card set (cards of the led suit, maybe with the 2♥) → plain
``play`` actions: these sets repeat a lot across deals; the memo stops growing at
``_PLAYS_SEEN_LIMIT`` entries (a few MB), keeping what it has."""
_PLAYS_SEEN_LIMIT = 1 << 15


def _signal_row(c: Card, vire: bool) -> tuple[Action, ...]:
    row = PLAY[c]
    return (row[0], row[1], *(() if c == TWO_H else (row[2],)), *((row[3],) if vire else ()))


_SIGNAL_ROWS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(_signal_row(c, vire) for c in range(52)) for vire in (False, True)
)
"""``_SIGNAL_ROWS[vire][c]``: ``play C`` plain, ``grate``, ``pile`` (not for the 2♥) and,
when ``vire`` is open, ``vire`` (SAT-16.6 order)."""

FOLLOW_OF: tuple[CardSet, ...] = tuple(NOT_2H[c // 13] for c in range(52))
"""``FOLLOW_OF[led]``: the cards that follow ``led`` (its suit without the 2♥, SAT-8.3)."""
KEEP_OF: tuple[CardSet, ...] = tuple(SUIT_MASK[c // 13] | B2H for c in range(52))
"""``KEEP_OF[led]``: what a follower who can follow ``led`` may play: the suit and the 2♥."""

_REL_CARDS = tuple(tuple(i for i in range(52) if _DECK_REL[i] == r) for r in range(4))
_DEAL_GET: tuple[tuple[Any, ...], ...] = tuple(
    tuple(itemgetter(*_REL_CARDS[(s - dealer - 1) % 4]) for s in range(4)) for dealer in range(4)
)
"""``_DEAL_GET[dealer][seat]``: picks the deck positions dealt to ``seat`` (SAT-4.2), so a
hand is one ``sum`` of the picked card bits."""


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


def give_options(pre: CardSet, trump: int, winner: bool, k: int) -> list[CardSet]:
    """Every legal give (as card masks) of a seat holding ``pre`` (SAT-7.5–SAT-7.8)."""
    cards = [c for c in iter_cards(pre & ~B2H)]
    out = []
    for combo in combinations(cards, k):
        m = 0
        for c in combo:
            m |= BIT[c]
        ok = winner_gives_ok(pre, m, k) if winner else loser_gives_ok(pre, m, trump, k)
        if ok:
            out.append(m)
    return out


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


class SatatState(DealState):
    """One Satat deal (the referee's full view)."""

    game: SatatGame

    # Slots: fixed-offset attribute access on the hot path (~40 attributes, more than
    # CPython's shared instance dictionaries keep fast).
    __slots__ = (  # noqa: RUF023 - grouped by role, not sorted
        "game", "variant", "dealer", "num_seats", "tk", "sig", "deck", "hands_record",
        "redeals", "passing", "tm", "p", "history", "actors", "_legal", "ph", "phase",
        "to_act", "is_over", "hands", "gives", "trick", "tricks", "log",
        "trump", "cfg", "beats", "blind", "turned", "tcard", "known", "cands",
        "exchanged", "give_idx", "pass_idx", "ann_idx", "announced",
        "leader", "win_card", "win_seat", "lead_known", "continuing",
        "outcome", "won_by", "redeal_reason", "_voids",
    )  # fmt: skip

    def __init__(
        self,
        game: SatatGame,
        variant: Variant,
        dealer: int,
        deck: list[Card],
        hands: list[CardSet],
        hands_record: list[list[Card]] | None,
        redeals: int,
        passing: dict[str, int] | None,
    ) -> None:
        """``hands``: each seat's 13 cards as a set (new_deal has them from validation)."""
        self.game = game
        self.variant = variant
        self.dealer = dealer
        self.num_seats = 4
        self.tk: bool = variant["trup_kasiet"]
        self.sig: int = SIGNAL_LEVELS.index(variant["signals"])
        self.deck = deck
        self.hands_record = hands_record
        self.redeals = redeals
        self.passing = passing
        self.tm = (dealer + 1) & 3  # SAT-2.2
        self.p = (dealer + 3) & 3
        self.hands = hands
        self.gives: list[CardSet] = [0, 0, 0, 0]
        self.trick: list[Card] = []
        self.tricks = [0, 0]
        self.log: list[tuple[int, list[Card], bool, int]] = []
        self.history = []
        self.actors = []
        self._legal = None
        self._voids: tuple[tuple[int, int, int], list[CardSet]] | None = None
        self.ph = PH_TRUMP
        self.phase = "trump"
        self.to_act = self.tm  # SAT-5.1
        self.is_over: bool = False  # an attribute, not a property: read at every step
        self.trump = -1
        self.cfg: TrumpConfig | None = None
        self.beats: tuple[CardSet, ...] = ()  # the trump's TrumpConfig.beats once made
        self.blind = 0
        self.turned = -1
        self.tcard = -1  # Trup Kasiet: the face-down trump card (SAT-15.2)
        self.known = False  # trump known to the table (SAT-15.4)
        self.cands = 0b1111  # SAT-15.4 set P, as a suit bitmask
        self.exchanged = False
        self.give_idx = -1
        self.pass_idx = -1
        self.ann_idx = -1
        self.announced = -1
        self.leader = -1
        self.win_card = -1
        self.win_seat = -1
        self.lead_known = False
        self.continuing = False
        self.outcome = ""
        self.won_by = -1
        self.redeal_reason: str | None = None

    # --- helpers --------------------------------------------------------------------
    def first_five(self, seat: int) -> CardSet:
        """The first five cards dealt to ``seat`` (SAT-4.2)."""
        i = (seat - self.dealer - 1) % 4
        m = 0
        for c in self.deck[5 * i : 5 * i + 5]:
            m |= BIT[c]
        return m

    def receiver(self, seat: int) -> int:
        """Whom ``seat`` gives to in card passing (SAT-7.4)."""
        assert self.passing is not None
        return (seat + 1) % 4 if seat % 2 == self.passing["winners"] else (seat + 3) % 4

    def holder_2h(self) -> int:
        """The seat holding the 2♥ (before any play it is always held)."""
        return next(s for s in range(4) if self.hands[s] & B2H)

    # --- the hot path ------------------------------------------------------------------
    # DealState's contract (docs/engine.md): ``legal_actions`` caches its tuple, ``apply``
    # hands all but a legal Action to DealState._checked and records the history; both
    # handle the play phase inline (nearly every action of a deal) and the other phases in
    # ``_generate_legal``/``_apply``.
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in the conventions' order; () when over."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.to_act
        if seat is None:
            legal = ()
        elif self.ph == PH_PLAY:
            hand = self.hands[seat]
            trick = self.trick
            if trick:
                led = trick[0]
                if led != TWO_H:
                    # SAT-8.3 rule 2 — TrumpConfig.follow(free=2♥) spelt out on two tables
                    # (``_generate_legal`` is the reference path through follow()).
                    if hand & FOLLOW_OF[led]:
                        hand &= KEEP_OF[led]
                        if self.sig:
                            legal = self._signal_plays(hand)
                        else:  # a few cards of one suit: these sets repeat across deals
                            legal = _PLAYS_SEEN.get(hand)
                            if legal is None:
                                legal = _plays(hand)
                                if len(_PLAYS_SEEN) < _PLAYS_SEEN_LIMIT:
                                    _PLAYS_SEEN[hand] = legal
                        self._legal = legal
                        return legal
                elif self.lead_known:  # SAT-8.3 rule 1
                    m = hand & SUIT_MASK[self.trump]
                    if m:
                        hand = m
            if self.sig:
                legal = self._signal_plays(hand)
            else:  # a lead or a void follower: the whole hand (rarely seen twice)
                legal = _P0[hand & 0x1FFF] + _P1[hand >> 13 & 0x1FFF] + _P2[hand >> 26 & 0x1FFF]
                legal += _P3[hand >> 39]
        else:
            legal = self._generate_legal()
        self._legal = legal
        return legal

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its text) for the seat to act, in place.

        Raises :class:`IllegalAction` naming the rule when it is not legal now; the state
        is then unchanged.
        """
        legal = self._legal
        if legal is None or type(action) is not Action or action not in legal:
            action = self._checked(action, self.legal_actions())  # DealState's slow path
        seat = self.to_act
        assert seat is not None
        self._legal = None
        if self.ph != PH_PLAY:
            self._apply(action)  # reads len(history) as this action's index
            self.history.append(action)
            self.actors.append(seat)
            return
        self.history.append(action)
        self.actors.append(seat)
        c = _ARG[action]  # only plays are legal in the play phase
        self.hands[seat] ^= BIT[c]
        if c == self.tcard:
            self.known = True  # SAT-15.4 (a)
        trick = self.trick
        before = len(trick)
        trick.append(c)
        if before:
            if self.beats[self.win_card] >> c & 1:  # SAT-8.5
                self.win_card = c
                self.win_seat = seat
            if before == 3:
                self._end_trick()
            else:
                self.to_act = (seat + 1) & 3
            return
        self.leader = self.win_seat = seat
        self.win_card = c
        self.lead_known = self.known  # SAT-15.5: judged at the lead, led card included
        if self.sig == 2:  # SAT-16.5
            self.ph = PH_LESE
            self.phase = "lese"
            self.to_act = (seat + 3) & 3
        else:
            self.to_act = (seat + 1) & 3

    # --- legal actions ---------------------------------------------------------------
    def _generate_legal(self) -> tuple[Action, ...]:
        """Legal actions by phase; the play branch is the reference path through
        :meth:`TrumpConfig.follow` (``legal_actions`` applies the same obligations inline
        when there are no signals)."""
        ph = self.ph
        if ph == PH_PLAY:
            hand = self.hands[self.to_act]  # type: ignore[index]
            trick = self.trick
            if trick:
                led = trick[0]
                if led != TWO_H:  # SAT-8.3 rule 2: the 2♥ is free (never forced, always allowed)
                    assert self.cfg is not None
                    hand = self.cfg.follow(
                        hand, led, led, must_trump=False, must_beat=False, free=B2H
                    )
                elif self.lead_known:  # SAT-8.3 rule 1
                    m = hand & SUIT_MASK[self.trump]
                    if m:
                        hand = m
            if self.sig:
                return self._signal_plays(hand)
            return _plays(hand)
        seat = self.to_act
        assert seat is not None
        if ph == PH_TRUMP:
            return self._trump_legal()
        if ph == PH_LESE:
            return (A_LESE, A_SILENT)
        if ph == PH_CONTINUE:
            return (A_CONTINUE, A_STOP)
        if ph == PH_PROPOSE:
            return (A_PASS, A_PROPOSE)
        if ph == PH_CONSENT:
            return (A_ACCEPT, A_REFUSE)
        if ph == PH_ANNOUNCE:
            return (A_ANNOUNCE, A_SILENT)
        if ph == PH_GIVE:
            return self._give_legal(seat)
        raise AssertionError(self.phase)

    def _signal_plays(self, cards: CardSet) -> tuple[Action, ...]:
        """SAT-16.6: each legal card plain, with ``grate``, ``pile`` (not the 2♥), ``vire``."""
        rows = _SIGNAL_ROWS[self.sig == 2 and len(self.trick) == 2]
        legal: tuple[Action, ...] = ()
        while cards:
            low = cards & -cards
            legal += rows[low.bit_length() - 1]
            cards ^= low
        return legal

    def _redeal_allowed(self) -> bool:
        return not self.first_five(self.tm) & PICTURES and self.redeals < 2  # SAT-5.4

    def _trump_legal(self) -> tuple[Action, ...]:
        if not self.tk:
            return _TRUMP_LEGAL[self._redeal_allowed()]
        out = list(BLIND[1:])
        if self.tk:  # SAT-15.2
            out += [HIDE[c] for c in iter_cards(self.first_five(self.tm))]
        else:
            out += TRUMP
        if self._redeal_allowed():
            out.append(A_REDEAL)
        return tuple(sorted(out))

    def _give_legal(self, seat: int) -> tuple[Action, ...]:
        assert self.passing is not None
        winner = seat % 2 == self.passing["winners"]
        opts = give_options(self.hands[seat], self.trump, winner, self.passing["cards"])
        return tuple(sorted(GIVE[m] for m in opts))

    # --- applying ----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        """Every phase but play (``apply`` handles play inline)."""
        kind = _KIND[action]
        seat = self.to_act
        assert seat is not None
        if kind == K_LESE or (kind == K_SILENT and self.ph == PH_LESE):
            self.ph = PH_PLAY
            self.phase = "play"
            self.to_act = (self.leader + 1) % 4
            return
        if kind in (K_TRUMP, K_BLIND, K_HIDE):
            if kind == K_TRUMP:
                self.trump = _ARG[action]
                self.known = True
            elif kind == K_BLIND:  # SAT-5.3, SAT-4.4
                n = _ARG[action]
                self.blind = n
                self.turned = self.deck[35 + n]
                self.trump = self.turned // 13
                self.known = not self.tk
                if self.tk:
                    self.tcard = self.turned
            else:  # SAT-15.2
                self.tcard = _ARG[action]
                self.trump = self.tcard // 13
            if not self.tk:
                self.cands = 1 << self.trump
            self.cfg = CONFIGS[self.trump]
            self.beats = self.cfg.beats
            self._after_trump()
            return
        if kind == K_REDEAL:  # SAT-5.4
            self._finish_redeal("no_pictures")
            return
        if kind == K_PASS:
            self.pass_idx = len(self.history)
            self._after_propose()
            return
        if kind == K_PROPOSE:  # SAT-6.2
            self.ph = PH_CONSENT
            self.phase = "consent"
            self.to_act = self.tm
            return
        if kind == K_ACCEPT:  # SAT-6.3
            self._finish_redeal("no_trumps")
            return
        if kind == K_REFUSE:
            self._after_propose()
            return
        if kind == K_GIVE:  # SAT-7.3: choices kept apart until all four have chosen
            if self.give_idx < 0:
                self.give_idx = len(self.history)
            self.gives[seat] = _ARG[action]
            if seat != self.dealer:
                self.to_act = (seat + 1) % 4
                return
            assert self.passing is not None
            g = self.gives
            for w in (self.passing["winners"], self.passing["winners"] + 2):
                loser = (w + 1) % 4  # SAT-7.4: winner w and loser w+1 swap
                self.hands[w] = (self.hands[w] & ~g[w]) | g[loser]
                self.hands[loser] = (self.hands[loser] & ~g[loser]) | g[w]
            self.exchanged = True
            self._after_give()
            return
        if kind in (K_ANNOUNCE, K_SILENT):  # SAT-16.3
            self.ann_idx = len(self.history)
            if kind == K_ANNOUNCE:
                self.announced = seat
            self._start_play()
            return
        if kind == K_CONTINUE:  # SAT-9.3
            self.continuing = True
            self.ph = PH_PLAY
            self.phase = "play"
            return
        if kind == K_STOP:  # SAT-9.2
            self._finish("7-0")
            return
        raise AssertionError(action.text)

    def _after_trump(self) -> None:
        # SAT-6.1 / SAT-15.6: the partner may propose only if he holds no trump.
        if not self.tk and not self.hands[self.p] & SUIT_MASK[self.trump]:
            self.ph = PH_PROPOSE
            self.phase = "propose"
            self.to_act = self.p
            return
        self._after_propose()

    def _after_propose(self) -> None:
        if self.passing is not None:  # SAT-6.4, SAT-7.2
            self.ph = PH_GIVE
            self.phase = "give"
            self.to_act = self.tm
            return
        self._after_give()

    def _after_give(self) -> None:
        if self.sig:  # SAT-16.3
            self.ph = PH_ANNOUNCE
            self.phase = "announce"
            self.to_act = self.holder_2h()
            return
        self._start_play()

    def _start_play(self) -> None:
        self.ph = PH_PLAY  # SAT-8.1
        self.phase = "play"
        self.to_act = self.tm

    def _end_trick(self) -> None:
        w = self.win_seat
        team = w & 1
        trick = self.trick
        self.log.append((self.leader, trick, self.lead_known, w))  # the list is not reused
        self.trick = []
        t = self.tricks
        t[team] += 1
        if self.tk and not self.known and self.win_card != TWO_H:  # SAT-15.4 (b)
            led_suit = trick[0] // 13
            ws = self.win_card // 13
            if ws != led_suit:
                self.cands = 1 << ws
            else:
                for c in trick:
                    if c // 13 != led_suit:
                        self.cands &= ~(1 << (c // 13))
            if self.cands.bit_count() == 1:
                self.known = True
        if self.continuing:  # SAT-9.3
            if t[0] and t[1]:
                self._finish("7-0")
            elif t[team] == 13:
                self._finish("13-0")
            else:
                self.to_act = w
            return
        if t[team] == 7:
            if t[1 - team]:
                self._finish("win")  # SAT-9.1
            else:
                self.ph = PH_CONTINUE  # SAT-9.2
                self.phase = "continue"
                self.to_act = w
            return
        self.to_act = w

    def _finish(self, outcome: str) -> None:
        t = self.tricks
        self.won_by = 0 if t[0] > t[1] else 1
        self.outcome = outcome
        self.ph = PH_OVER
        self.phase = "over"
        self.to_act = None
        self.is_over = True

    def _finish_redeal(self, reason: str) -> None:
        self.outcome = "redeal"
        self.redeal_reason = reason
        self.ph = PH_OVER
        self.phase = "over"
        self.to_act = None
        self.is_over = True

    # --- results ---------------------------------------------------------------------
    def next_dealer(self) -> int:
        """SAT-12.1/SAT-12.2."""
        d = self.dealer
        if self.outcome == "redeal":
            return d
        if self.won_by == self.tm % 2:
            return d if self.outcome == "win" else (d + 2) % 4
        return (d + 1) % 4

    def result(self) -> dict[str, JSON]:
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        redeal = self.outcome == "redeal"
        score = [0, 0]
        if not redeal:
            score[self.won_by] = 1
        if redeal:
            next_redeals = self.redeals + 1 if self.redeal_reason == "no_pictures" else self.redeals
            next_passing = self.passing
        else:
            next_redeals = 0  # SAT-12.3
            next_passing = None  # SAT-12.4
            if not self.tk and self.outcome in ("7-0", "13-0"):
                next_passing = {"winners": self.won_by, "cards": 1 if self.outcome == "7-0" else 2}
        return {
            "score": score,
            "outcome": self.outcome,
            "won_by": None if redeal else self.won_by,
            "tricks": list(self.tricks),
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "redeal": self.redeal_reason,
            "next_dealer": self.next_dealer(),
            "next_redeals": next_redeals,
            "next_passing": dict(next_passing) if next_passing else None,
        }

    # --- errors ----------------------------------------------------------------------
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, citing the rule."""
        return self.explain(action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        kind = _KIND[action]
        ph, phase = self.ph, self.phase
        text = action.text
        if self.to_act is None:
            return explained("deal_over", "the deal is over: no action is allowed (SAT-18.2)")
        seat = self.to_act
        if (kind in (K_LESE, K_ANNOUNCE) or _SUF[action]) and (
            not self.sig or (self.sig < 2 and (kind == K_LESE or _SUF[action] == 3))
        ):
            return explained(
                "signal_not_enabled",
                f"{text!r}: this signal is not enabled by this variant (SAT-16.8)",
                action=text,
            )

        def wrong_phase(message: str, expected: list[str]) -> Explanation:
            return explained(
                "wrong_phase", message, action=text, phase=phase, seat=seat, expected=expected
            )

        if ph == PH_PLAY:
            if kind != K_PLAY:
                return wrong_phase(
                    f"{text!r} is not allowed now: seat {seat} must play a card (SAT-8, SAT-17.3)",
                    ["play C"],
                )
            c = _ARG[action]
            suf = _SUF[action]
            if not self.hands[seat] >> c & 1:
                return explained(
                    "not_held",
                    f"seat {seat} does not hold {CARD_NAMES[c]} (SAT-17.3)",
                    seat=seat,
                    card=CARD_NAMES[c],
                )
            if suf:
                if suf == 2 and c == TWO_H:
                    return explained(
                        "no_pile_on_two", "pile may not be signalled with the 2H (SAT-16.1)"
                    )
                if suf == 3:
                    return explained(
                        "vire_not_third",
                        "vire is only for the partner of the trick's leader (SAT-16.4)",
                    )
            led = self.trick[0]
            if led == TWO_H:
                return explained(
                    "two_hearts_led",
                    f"the 2H was led: seat {seat} must play a trump {SUITS[self.trump]} (SAT-8.3)",
                    seat=seat,
                    suit=SUITS[self.trump],
                )
            return explained(
                "must_follow",
                f"seat {seat} must follow suit {SUITS[led // 13]} (SAT-8.3)",
                seat=seat,
                suit=SUITS[led // 13],
            )
        if ph == PH_TRUMP:
            if kind == K_REDEAL:
                if self.redeals >= 2:
                    return explained(
                        "redeal_limit",
                        "no third no-picture redeal: two have been made (SAT-5.4, SAT-18.3)",
                    )
                return explained(
                    "redeal_needs_no_pictures",
                    "redeal needs a first five without K, Q or J (SAT-5.4, SAT-18.3)",
                )
            if kind == K_TRUMP and self.tk:
                return explained(
                    "hide_instead_of_trump",
                    "Trup Kasiet: hide a trump card instead of naming trump (SAT-15.2)",
                )
            if kind == K_HIDE:
                if not self.tk:
                    return explained(
                        "hide_only_trup_kasiet", "hide is only for Trup Kasiet (SAT-5.5)"
                    )
                card = CARD_NAMES[_ARG[action]]
                return explained(
                    "not_in_first_five",
                    f"{card} is not among the first five (SAT-15.2)",
                    card=card,
                )
            return wrong_phase(
                f"{text!r} is not allowed now: the trump maker must make trump (SAT-5.5)",
                ["blind N", "hide C" if self.tk else "trump X"],
            )
        if ph == PH_GIVE:
            assert self.passing is not None
            k = self.passing["cards"]
            if kind != K_GIVE:
                return wrong_phase(
                    f"{text!r} is not allowed now: seat {seat} must give cards (SAT-7.3)",
                    ["give C" if k == 1 else "give C1 C2"],
                )
            m = _ARG[action]
            if m.bit_count() != k:
                return explained(
                    "give_count",
                    f"give exactly {k} card{'s' if k > 1 else ''} (SAT-7.1, SAT-7.3)",
                    count=k,
                )
            if m & ~self.hands[seat]:
                return explained(
                    "give_not_held",
                    f"seat {seat} does not hold every card given (SAT-17.3)",
                    seat=seat,
                    cards=mask_text(m),
                )
            if m & B2H:
                return explained("never_give_two", "the 2H is never given (SAT-7.5)")
            if seat % 2 == self.passing["winners"]:
                return explained(
                    "winner_keeps_suits",
                    "a winner must keep a card of every suit he held (SAT-7.7)",
                )
            return explained(
                "loser_gives_high", "a loser gives his trumps, else his highest cards (SAT-7.6)"
            )
        return wrong_phase(
            f"{text!r} is not allowed in phase {phase} (SAT-17.3)", _PHASE_ACTIONS[phase]
        )

    # --- copies and records --------------------------------------------------------------
    def clone(self) -> SatatState:
        """An independent copy (lists copied, immutable parts shared)."""
        new = object.__new__(SatatState)
        for name, value in zip(_SCALAR_SLOTS, _get_scalars(self), strict=True):
            setattr(new, name, value)
        new.hands = list(self.hands)
        new.gives = list(self.gives)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.log = list(self.log)
        new.history = list(self.history)
        new.actors = list(self.actors)
        return new

    def __getstate__(self) -> dict[str, Any]:
        # Pickle by value: actions as their codes (restored to the table's own Action
        # objects), no trick tables (rebuilt from the trump, shared with every state) and
        # no legal cache. Nothing in a state is compared by identity, so the unpickled
        # copy behaves exactly as the original.
        state = {name: getattr(self, name) for name in _PICKLED_SLOTS}
        state["history"] = [int(a) for a in self.history]
        return state

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        for name in _PICKLED_SLOTS:
            setattr(self, name, state[name])
        actions = TABLE.actions
        self.history = [actions[code] for code in state["history"]]
        self.phase = PHASES[self.ph]
        self._legal = None
        self._voids = None
        self.cfg = CONFIGS[self.trump] if self.trump >= 0 else None
        self.beats = self.cfg.beats if self.cfg is not None else ()

    def setup_record(self) -> dict[str, JSON]:
        rec: dict[str, JSON] = {"dealer": self.dealer}
        if self.hands_record is not None:
            rec["hands"] = [[CARD_NAMES[c] for c in h] for h in self.hands_record]
        else:
            rec["deck"] = [CARD_NAMES[c] for c in self.deck]
        if self.redeals:
            rec["redeals"] = self.redeals
        if self.passing is not None:
            rec["passing"] = dict(self.passing)
        return rec

    def carry(self) -> dict[str, Any]:
        """The carried-over keys this deal was dealt with (SAT-4.6)."""
        return {"redeals": self.redeals, "passing": dict(self.passing) if self.passing else None}

    # --- events -----------------------------------------------------------------------
    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up,
        hidden as SAT-19 hides them: a partner's ``pass`` and an announce-phase ``silent``
        are seen by their maker only; a give's cards by the giver, and by the receiver once
        the exchange is done; a Trup Kasiet trump by the trump maker until it is known."""
        return _narrate(self)

    # --- information ------------------------------------------------------------------
    def _masked_step(self, seat: int) -> tuple[str, int | None]:
        """Phase and seat to act as ``seat`` sees them (private pending steps, SAT-19.1,
        SAT-16.7): what follows if the pending step is declined. ``seat`` may be
        :data:`SPECTATOR`, who holds no 2♥ and so sees what any uninvolved seat sees."""
        ph, to_act = self.ph, self.to_act
        if ph == PH_PROPOSE and seat != to_act:
            if self.passing is not None:
                return "give", self.tm
            if self.sig and self.holder_2h() == seat:
                return "announce", seat
            return "play", self.tm
        if ph == PH_ANNOUNCE and seat != to_act:
            return "play", self.tm
        return self.phase, to_act

    def visible_history(self, seat: int) -> tuple[list[str], list[int]]:
        """The history as ``seat`` saw it (SAT-19); ``seat`` = :data:`SPECTATOR` gives the
        public history (every pass and announce-phase silent left out, ``hide ?``,
        ``give ?``).

        Only steps before the first card is played can be private (pass, the announce
        phase's silent, hide, give); from the first ``play`` on every step is public, so
        the rest of the history is copied as it is.
        :meth:`visible_history_reference` is the plain version a test compares it with."""
        history, actors = self.history, self.actors
        texts: list[str] = []
        seen: list[int] = []
        n = len(history)
        i = 0
        while i < n:
            a = history[i]
            kind = _KIND[a]
            if kind == K_PLAY:
                break
            s = actors[i]
            text = a.text
            if s != seat:
                if kind == K_PASS or (kind == K_SILENT and i == self.ann_idx):
                    i += 1
                    continue  # SAT-19.1: others do not see the phase happened
                if kind == K_HIDE:
                    text = "hide ?"  # SAT-19.3
                elif kind == K_GIVE and not (self.exchanged and self.receiver(s) == seat):
                    text = "give ?" if _ARG[a].bit_count() == 1 else "give ? ?"
            texts.append(text)
            seen.append(s)
            i += 1
        if i < n:
            texts += map(_TEXT, history[i:])
            seen += actors[i:]
        return texts, seen

    def visible_history_reference(self, seat: int) -> tuple[list[str], list[int]]:
        """:meth:`visible_history` step by step over the whole history (the reference)."""
        texts: list[str] = []
        actors: list[int] = []
        for i, (a, s) in enumerate(zip(self.history, self.actors, strict=True)):
            kind = _KIND[a]
            text = a.text
            if s != seat:
                if kind == K_PASS or (kind == K_SILENT and i == self.ann_idx):
                    continue  # SAT-19.1: others do not see the phase happened
                if kind == K_HIDE:
                    text = "hide ?"  # SAT-19.3
                elif kind == K_GIVE and not (self.exchanged and self.receiver(s) == seat):
                    text = "give ?" if _ARG[a].bit_count() == 1 else "give ? ?"
            texts.append(text)
            actors.append(s)
        return texts, actors

    def public_voids(self) -> list[CardSet]:
        """Per seat, the cards it has publicly shown it cannot hold (SAT-8.3 inferences).

        The same for every viewer, so it is worked out once per point of the deal (kept
        with the number of steps, tricks and trick cards it was worked out at) and shared
        by the observations built there; callers must not change the list."""
        key = (len(self.history), len(self.log), len(self.trick))
        cached = self._voids
        if cached is not None and cached[0] == key:
            return cached[1]
        voids = self.public_voids_reference()
        self._voids = (key, voids)
        return voids

    def public_voids_reference(self) -> list[CardSet]:
        """:meth:`public_voids` worked out from every trick played."""
        voids = [0, 0, 0, 0]
        tricks = [(ld, cards, lk) for ld, cards, lk, _ in self.log]
        if self.trick:
            tricks.append((self.leader, self.trick, self.lead_known))
        for leader, cards, lk in tricks:
            led = cards[0]
            for i in range(1, len(cards)):
                f = (leader + i) % 4
                c = cards[i]
                if led == TWO_H:
                    if lk and c // 13 != self.trump:
                        voids[f] |= NOT_2H[self.trump]
                elif c != TWO_H and c // 13 != led // 13:
                    voids[f] |= NOT_2H[led // 13]
        return voids

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now (SAT-19); see the module docstring for ``info``."""
        if not 0 <= seat < 4:  # a spectator's view is public_observation()
            raise FolkcardsError(f"a Satat seat is 0–3, not {seat!r}")
        return self._observe(seat)

    def public_observation(self) -> Observation:
        """What a spectator may know now (SAT-19.2 public facts only): seat
        :data:`SPECTATOR`, no hand, no legal actions; every pass and announce-phase
        ``silent`` left out of the history and pending ones masked as for an uninvolved
        seat (SAT-16.7, SAT-19.1), gives and a hidden trump card as ``?`` (SAT-19.3);
        ``gave``/``received`` empty, ``known_cards`` only the public ones (the turned card
        until an exchange, an announced 2♥)."""
        return self._observe(SPECTATOR)

    def _observe(self, seat: int) -> Observation:
        """The observation of ``seat`` (0–3) or of a viewer at no seat (``SPECTATOR``):
        every private fact below is tied to the viewer's seat, so a spectator gets only
        the public ones."""
        phase, to_act = self._masked_step(seat)
        texts, actors = self.visible_history(seat)
        dealt = self.trump >= 0
        spectator = seat < 0
        hand = 0 if spectator else self.hands[seat] if dealt else self.first_five(seat)
        sees_trump = dealt and (not self.tk or self.known or seat == self.tm)
        tcard = -1
        if (
            self.tk
            and self.tcard >= 0
            and (seat == self.tm or not self.hands[self.tm] >> self.tcard & 1)
        ):
            tcard = self.tcard
        known: list[list[str]] = [[], [], [], []]
        gave: list[str] = []
        received: list[str] = []
        if (
            not self.tk
            and self.turned >= 0
            and seat != self.tm
            and self.hands[self.tm] >> self.turned & 1
        ) and (not self.exchanged or self.receiver(self.tm) == seat):
            known[self.tm].append(CARD_NAMES[self.turned])  # SAT-19.2
        if not spectator and self.passing is not None and self.give_idx >= 0 and self.gives[seat]:
            gave = mask_text(self.gives[seat])
            if self.exchanged:
                r = self.receiver(seat)
                known[r] += mask_text(self.gives[seat] & self.hands[r])
                giver = next(s for s in range(4) if s != seat and self.receiver(s) == seat)
                received = mask_text(self.gives[giver])
        if self.announced >= 0 and self.announced != seat and self.hands[self.announced] & B2H:
            known[self.announced].append("2H")
        for lst in known:
            lst.sort(key=lambda t: parse_card(t))
        voids = self.public_voids()
        return Observation(
            game=self.game.name,
            variant=dict(self.variant),
            seat=seat,
            num_seats=4,
            dealer=self.dealer,
            phase=phase,
            to_act=to_act,
            hand=hand,
            legal=self.legal_actions() if seat == self.to_act else (),
            history=tuple(texts),
            actors=tuple(actors),
            info={
                "trump_maker": self.tm,
                "partner": self.p,
                "trump": SUITS[self.trump] if sees_trump else None,
                "trump_known": dealt and self.known,
                "trump_candidates": [SUITS[s] for s in range(4) if self.cands >> s & 1],
                "blind": self.blind or None,
                "turned": CARD_NAMES[self.turned] if self.turned >= 0 and not self.tk else None,
                "trump_card": CARD_NAMES[tcard] if tcard >= 0 else None,
                "gave": gave,
                "received": received,
                "known_cards": known,
                "voids": [[SUITS[s] for s in range(4) if v & NOT_2H[s]] for v in voids],
                "announced": self.announced if self.announced >= 0 else None,
                "tricks": list(self.tricks),
                "trick": [[(self.leader + i) % 4, CARD_NAMES[c]] for i, c in enumerate(self.trick)],
                "leader": self.leader if self.trick else None,
                "won": [[ld, [CARD_NAMES[c] for c in cs], w] for ld, cs, _, w in self.log],
                "continuing": self.continuing,
            },
            carry=self.carry(),
            result=self.result() if self.to_act is None else None,
        )


_LIST_SLOTS = frozenset({"hands", "gives", "trick", "tricks", "log", "history", "actors"})
_SCALAR_SLOTS: tuple[str, ...] = tuple(n for n in SatatState.__slots__ if n not in _LIST_SLOTS)
_get_scalars = attrgetter(*_SCALAR_SLOTS)
_PICKLED_SLOTS: tuple[str, ...] = tuple(
    n for n in SatatState.__slots__ if n not in ("_legal", "_voids", "phase", "cfg", "beats")
)
"""What ``__getstate__`` keeps: the rest is derived on unpickling."""


def _narrate(final: SatatState) -> list[Told]:
    """The events of ``final``'s deal so far (see ``SatatState._narrate``)."""
    st = final.fresh()
    assert isinstance(st, SatatState)
    out = [public("deal", dealer=st.dealer)]
    for action, seat in zip(final.history, final.actors, strict=True):
        kind, arg = _KIND[action], _ARG[action]
        ph = st.ph
        known = st.known
        done = len(st.log)
        exchanged = st.exchanged
        st.apply(action)
        if kind == K_PLAY:
            out.append(
                public(
                    "play", seat=seat, card=CARD_NAMES[arg], signal=SUFFIXES[_SUF[action]] or None
                )
            )
            if len(st.log) > done:
                leader, cards, _, winner = st.log[-1]
                out.append(
                    public(
                        "trick",
                        number=len(st.log),
                        leader=leader,
                        cards=[CARD_NAMES[c] for c in cards],
                        winner=winner,
                        side=winner & 1,
                    )
                )
        elif kind == K_TRUMP:  # SAT-5.2
            out.append(public("trump", seat=seat, suit=SUITS[arg], how="named"))
        elif kind == K_BLIND:  # SAT-5.3; Trup Kasiet: the card lies face down (SAT-15.2)
            fields = {"seat": seat, "how": "blind", "position": arg}
            turned = {"suit": SUITS[st.trump], "card": CARD_NAMES[st.turned]}
            if st.tk:
                out.append(
                    private("trump", (seat,), {"suit": None, "card": None}, **fields, **turned)
                )
            else:
                out.append(public("trump", **fields, **turned))
        elif kind == K_HIDE:  # SAT-15.2
            out.append(
                private(
                    "trump",
                    (seat,),
                    {"suit": None, "card": None},
                    seat=seat,
                    how="hidden",
                    suit=SUITS[st.trump],
                    card=CARD_NAMES[arg],
                )
            )
        elif kind == K_GIVE:  # SAT-7.3: each choice is private until the exchange
            assert st.passing is not None
            out.append(
                private(
                    "pass_chosen",
                    (seat,),
                    {"cards": None},
                    seat=seat,
                    to=st.receiver(seat),
                    count=st.passing["cards"],
                    cards=mask_text(arg),
                )
            )
            if st.exchanged and not exchanged:  # SAT-7.4: the exchange is done
                for i in range(1, 5):
                    g = (st.dealer + i) & 3
                    r = st.receiver(g)
                    out.append(
                        private(
                            "pass_cards",
                            (g, r),
                            {"cards": None},
                            **{"from": g, "to": r},
                            count=st.passing["cards"],
                            cards=mask_text(st.gives[g]),
                        )
                    )
        elif kind == K_PASS or (kind == K_SILENT and ph == PH_ANNOUNCE):  # SAT-19.1
            out.append(secret("call", (seat,), seat=seat, call=action.text))
        else:  # redeal, propose, accept, refuse, announce, lese, silent, continue, stop
            out.append(public("call", seat=seat, call=action.text))
        if st.known and not known and st.tk:  # SAT-15.4: the table knows the trump now
            played = kind == K_PLAY and arg == st.tcard
            out.append(
                public(
                    "trump",
                    suit=SUITS[st.trump],
                    how="revealed" if played else "deduced",
                    card=CARD_NAMES[st.tcard] if played else None,
                )
            )
    if st.to_act is None:
        out.append(public("deal_end", **_deal_end(st)))
    return out


def _deal_end(st: SatatState) -> dict[str, JSON]:
    """The result with the trick count that decided it (SAT-9, SAT-10)."""
    res = st.result()
    score, outcome = res["score"], res["outcome"]
    if outcome == "redeal":
        rule = "SAT-5.4" if res["redeal"] == "no_pictures" else "SAT-6.3"
        why = None
        parts = [component("redeal", list(score), reason=res["redeal"], rule=rule)]
    else:
        w = res["won_by"]
        op, target, rule = {
            "win": (">=", 7, "SAT-9.1"),
            "7-0": ("=", 7, "SAT-9.2"),
            "13-0": ("=", 13, "SAT-9.3"),
        }[outcome]
        why = reason(f"team {w}", w, "tricks", res["tricks"][w], op, target, rule)
        parts = [component("deal", list(score), outcome=outcome, rule="SAT-10")]
    return {
        "result": res,
        "score": list(score),
        "outcome": outcome,
        "reason": why,
        "components": parts,
        "points_from": None,
    }


class SatatGame(Game):
    """Satat's facts, records, matches and determinization."""

    name = "satat"
    title = "Satat"
    deck = DECK_52
    partnership = True
    variant_options = (
        VariantOption("trup_kasiet", False, "hidden-trump variant Trup Kasiet (SAT-15)"),
        VariantOption(
            "signals", "none", "table signals as actions (SAT-16)", choices=SIGNAL_LEVELS
        ),
        VariantOption(
            "match_target", 0, "deals to win the match, 0 = unlimited (SAT-13.3)", minimum=0
        ),
    )
    deal_keys = ("redeals", "passing")
    derived_deal_keys = ("redeals", "passing")  # SAT-4.6: derived in a match
    match_keys = ("draw",)

    # --- actions ---------------------------------------------------------------------
    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Satat's game card: the trump suit sorts first once it is known; hearts start
        with the 2H, the highest card (SAT-1.3); plain order A … 2 (SAT-1.2)."""
        v = self.normalize_variant(variant)
        tk, signals = v["trup_kasiet"], v["signals"]
        phases = [p for p in PHASES if p != "over"]
        if tk:  # SAT-15.6, SAT-15.7
            phases = [p for p in phases if p not in ("propose", "consent", "give")]
        if signals == "none":
            phases = [p for p in phases if p not in ("announce", "lese")]
        elif signals == "home":
            phases.remove("lese")
        ranks = {x: suit_run("AKQJT98765432", x) for x in SUITS}
        ranks["H"] = (TWO_H, *ranks["H"][:-1])
        groups = {NO_TRUMP: ()} | {x: ranks[x] for x in SUITS}
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="clockwise",
            deck=DECK_52,
            pack="french",
            phases=tuple(phases),
            utility_bounds=(0, 1),  # a deal won scores 1 (SAT-10)
            margin_scale=1.0,
            shaping=("tricks", 2.0),
            suit_order=SUITS,
            suit_ranks=ranks,
            trump_groups=groups,
            table_keys=(
                "trump_maker",
                "trump",
                "trump_known",
                "blind",
                "turned",
                "announced",
                "leader",
                "trick",
                "tricks",
                "continuing",
            ),
            rules="SAT",
            notes={
                "phases": "propose, consent and give happen only when their rule calls for them"
            },
        )

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """Every Satat action, codes 0..n-1 in the conventions' order (learning envs)."""
        return TABLE.actions

    def parse_action(self, text: str, variant: Variant) -> Action:
        """SAT-17.2: any accepted spelling; ``give`` cards may come in either order."""
        if not isinstance(text, str):
            raise ActionSyntaxError("an action must be a text", "not_text")
        tokens = canonical_tokens(text, DECK_52)  # its errors carry their codes
        if tokens[0] == "give" and len(tokens) == 3 and tokens[1] != tokens[2]:
            try:
                a, b = parse_card(tokens[1]), parse_card(tokens[2])
            except CardError:
                pass
            else:
                tokens[1:] = [CARD_NAMES[min(a, b)], CARD_NAMES[max(a, b)]]
        try:
            return TABLE.by_text[" ".join(tokens)]
        except KeyError:
            raise ActionSyntaxError(
                f"{text.strip()!r} is not a Satat action (SAT-17.3)",
                "not_an_action",
                {"action": text.strip()},
            ) from None

    # --- deals -----------------------------------------------------------------------
    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> SatatState:
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise MalformedRecord("'dealer' must be an integer seat 0–3")
        if extra:
            raise MalformedRecord(
                "Satat deals no extra piles: 'extra' must be absent or {} (SAT-4.5)"
            )
        hands_record: list[list[Card]] | None = None
        if hands is not None:
            if len(hands) != 4 or any(len(h) != 13 for h in hands):
                raise MalformedRecord("'hands' must be 4 lists of 13 cards (SAT-4.5)")
            hands_record = [list(h) for h in hands]
            deck_list = deck_from_hands(hands_record, dealer)
        elif deck is not None:
            deck_list = list(deck)
        else:
            raise MalformedRecord("a deal needs a deck or hands")
        hand_sets: list[CardSet] = []
        if len(deck_list) == 52:
            try:  # SAT-4.2: fives, then fours twice — each seat's positions picked at once
                hand_sets = [
                    sum(map(BIT.__getitem__, pick(deck_list))) for pick in _DEAL_GET[dealer]
                ]
            except (IndexError, TypeError):
                hand_sets = []
        # 52 one-card sets summing to the pack are 52 different cards (no carries); a
        # negative number would index BIT from the end, hence the min().
        if not hand_sets or sum(hand_sets) != DECK_52 or min(deck_list) < 0:
            raise MalformedRecord("'deck' must hold the 52 cards of the pack, each once (SAT-1.1)")
        # SAT-4.6: the carried keys checked as a record's are (absent = start of a match;
        # ``passing`` with Trup Kasiet is malformed), whoever passes them in
        c = self.normalize_carry(carry or {}, variant)
        redeals, passing = c["redeals"], c["passing"]
        return SatatState(
            self, variant, dealer, deck_list, hand_sets, hands_record, redeals, passing
        )

    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """SAT-4.6: ``redeals`` (0–2) and ``passing`` (null or winners/cards)."""
        redeals = record.get("redeals", 0)
        if type(redeals) is not int or not 0 <= redeals <= 2:
            raise MalformedRecord(f"'redeals' must be an integer 0–2, not {json_repr(redeals)}")
        passing = record.get("passing")
        if passing is not None:
            ok = (
                isinstance(passing, Mapping)
                and set(passing) == {"winners", "cards"}
                and type(passing["winners"]) is int
                and passing["winners"] in (0, 1)
                and type(passing["cards"]) is int
                and passing["cards"] in (1, 2)
            )
            if not ok:
                raise MalformedRecord(
                    '\'passing\' must be null or {"winners": 0|1, "cards": 1|2}, '
                    f"not {json_repr(passing)}"
                )
            if variant["trup_kasiet"]:
                raise MalformedRecord("'passing' is not allowed in Trup Kasiet (SAT-4.6, SAT-15.7)")
            passing = {"winners": passing["winners"], "cards": passing["cards"]}
        return {"redeals": redeals, "passing": passing}

    def determinize(self, obs: Observation, rng: random.Random) -> SatatState:
        """A full deal consistent with ``obs``, built from ``obs`` alone (see ``_sample``)."""
        if not 0 <= obs.seat < 4:
            raise FolkcardsError("only a seat's observation can be determinized, not a spectator's")
        for _ in range(500):
            state = _sample(self, obs, rng)
            if state is not None and state.observation(obs.seat) == obs:
                return state
        raise FolkcardsError("no deal consistent with this observation was found")

    # --- matches ---------------------------------------------------------------------
    def new_match_keys(self, variant: Variant, rng: random.Random) -> dict[str, Any]:
        """SAT-3.1–SAT-3.3: draw cards until one seat has the unique highest."""
        rounds: list[list[str | None]] = []
        seats = [0, 1, 2, 3]
        while True:
            cards = rng.sample(range(52), len(seats))
            row: list[str | None] = [None] * 4
            for s, c in zip(seats, cards, strict=True):
                row[s] = CARD_NAMES[c]
            rounds.append(row)
            best = max(_draw_value(c) for c in cards)
            seats = [s for s, c in zip(seats, cards, strict=True) if _draw_value(c) == best]
            if len(seats) == 1:
                return {"draw": rounds}

    def check_match_keys(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """SAT-3.4/SAT-3.5: validate ``draw``; returns it in canonical notation."""
        if "draw" not in record:
            return {}
        raw = record["draw"]
        if not isinstance(raw, list) or not raw:
            raise MalformedRecord("'draw' must be a non-empty list of rounds (SAT-3.4)")
        expect = [0, 1, 2, 3]
        out: list[list[str | None]] = []
        for i, rnd in enumerate(raw):
            if len(expect) == 1:
                raise MalformedRecord(
                    f"'draw' round {i + 1} follows a unique highest draw (SAT-3.4)"
                )
            if not isinstance(rnd, list) or len(rnd) != 4:
                raise MalformedRecord(
                    f"'draw' round {i + 1} must list 4 entries, one per seat (SAT-3.4)"
                )
            row: list[str | None] = []
            vals: dict[int, int] = {}
            for s, item in enumerate(rnd):
                if item is None:
                    if s in expect:
                        raise MalformedRecord(f"'draw' round {i + 1}: seat {s} must draw (SAT-3.4)")
                    row.append(None)
                    continue
                if s not in expect:
                    raise MalformedRecord(
                        f"'draw' round {i + 1}: seat {s} does not draw again (SAT-3.4)"
                    )
                try:
                    c = parse_card(item) if isinstance(item, str) else -1
                except CardError:
                    c = -1
                if c < 0:
                    raise MalformedRecord(
                        f"'draw' round {i + 1}: {json_repr(item)} is not a card (SAT-3.4)"
                    )
                if CARD_NAMES[c] in row:
                    raise MalformedRecord(
                        f"'draw' round {i + 1}: {CARD_NAMES[c]} drawn twice (SAT-3.4)"
                    )
                row.append(CARD_NAMES[c])
                vals[s] = _draw_value(c)
            out.append(row)
            best = max(vals.values())
            expect = [s for s in vals if vals[s] == best]
        if len(expect) != 1:
            raise MalformedRecord("'draw' must end with a unique highest draw (SAT-3.3, SAT-3.4)")
        return {"draw": out}

    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """SAT-3.2: the first dealer sits on the right of the highest draw."""
        next_dealer = None
        if "draw" in match_keys:
            last = match_keys["draw"][-1]
            top = max(
                (s for s in range(4) if last[s] is not None),
                key=lambda s: _draw_value(parse_card(last[s])),
            )
            next_dealer = (top + 3) % 4
        return MatchState(
            totals=[0, 0],
            next_dealer=next_dealer,
            carry={"redeals": 0, "passing": None},
            extra={"sevens": [0, 0], "thirteens": [0, 0]},
        )

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """SAT-12 and SAT-13: count the deal, carry dealer, redeals and passing."""
        res = deal.result()
        totals = [match.totals[i] + res["score"][i] for i in range(2)]
        sevens = list(match.extra.get("sevens", [0, 0]))
        thirteens = list(match.extra.get("thirteens", [0, 0]))
        if res["outcome"] == "7-0":
            sevens[res["won_by"]] += 1
        elif res["outcome"] == "13-0":
            thirteens[res["won_by"]] += 1
        target = deal.variant["match_target"]
        winner = None
        if target > 0:  # SAT-13.3
            winner = next((t for t in range(2) if totals[t] >= target), None)
        return MatchState(
            totals=totals,
            next_dealer=res["next_dealer"],
            carry={"redeals": res["next_redeals"], "passing": res["next_passing"]},
            over=winner is not None,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
            extra={"sevens": sevens, "thirteens": thirteens},
        )

    def match_result(self, match: MatchState) -> dict[str, JSON]:
        """SAT-13.4: totals, sevens, thirteens, match_over, winner, draw."""
        out = super().match_result(match)
        out["sevens"] = list(match.extra.get("sevens", [0, 0]))
        out["thirteens"] = list(match.extra.get("thirteens", [0, 0]))
        return out


def _draw_value(c: Card) -> int:
    """SAT-3.1: K highest … 2, then A lowest; suits do not count."""
    r = c % 13
    return 0 if r == 0 else 13 - r


# --- determinization -------------------------------------------------------------------


def _cards_of(texts: Sequence[str]) -> CardSet:
    m = 0
    for t in texts:
        m |= BIT[parse_card(t)]
    return m


def _assign(
    pool: CardSet, need: list[int], allowed: list[CardSet], rng: random.Random
) -> list[CardSet] | None:
    """Deal ``pool`` to seats with ``need[s]`` cards each, card c only where allowed."""
    cards = list(iter_cards(pool))
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for s in range(4) if need[s] and allowed[s] >> c & 1))
    left = list(need)
    out = [0, 0, 0, 0]
    for c in cards:
        seats = [s for s in range(4) if left[s] and allowed[s] >> c & 1]
        if not seats:
            return None
        s = rng.choices(seats, weights=[left[x] for x in seats])[0]
        out[s] |= BIT[c]
        left[s] -= 1
    return out if not any(left) else None


def _sample(game: SatatGame, obs: Observation, rng: random.Random) -> SatatState | None:
    """One attempt at a full deal consistent with ``obs`` (None if this attempt failed).

    Cards the seat knows (own cards, played cards, the turned card, cards it gave, an
    announced 2♥, the Trup Kasiet trump card it may know) are placed; the rest are dealt
    at random respecting public voids, the partner's announced lack of trumps, a loser's
    give rule, and (Trup Kasiet) a trump suit from the public candidates with a card of
    it in the trump maker's hand. The pre-exchange hands of a card-passing pair the seat
    was not part of are reconstructed by choosing gifts that the rules allow. The visible
    history is then replayed, filling hidden steps; the caller checks the observation.
    """
    me, d, info = obs.seat, obs.dealer, obs.info
    tm, p = (d + 1) % 4, (d + 3) % 4
    variant = obs.variant
    tk = bool(variant["trup_kasiet"])
    carry = dict(obs.carry)
    passing = carry.get("passing")
    hist = list(zip(obs.history, obs.actors, strict=True))
    first = hist[0][0] if hist else None
    all_cards = (1 << 52) - 1
    if first is None or first == "redeal":
        # Trump not made: each seat holds only its first five so far.
        pool = all_cards & ~obs.hand
        rest = list(iter_cards(pool))
        rng.shuffle(rest)
        hands: list[list[Card]] = [[] for _ in range(4)]
        hands[me] = list(iter_cards(obs.hand))
        if first == "redeal" and tm != me:
            plain = [c for c in rest if not PICTURES >> c & 1][:5]
            if len(plain) < 5:
                return None
            hands[tm] = plain
            rest = [c for c in rest if c not in plain]
        for s in range(4):
            while len(hands[s]) < 5:
                hands[s].append(rest.pop())
        for s in range(4):
            hands[s] += [rest.pop() for _ in range(8)]
        return _replay(game, obs, deck_from_hands(hands, d), {}, -1, rng)

    played = [0, 0, 0, 0]
    for text, s in hist:
        if text.startswith("play "):
            played[s] |= BIT[parse_card(text.split(" ")[1])]
    trump_letter = info["trump"]
    trump = SUITS.index(trump_letter) if trump_letter is not None else -1
    known = [_cards_of(k) for k in info["known_cards"]]
    voids = [0, 0, 0, 0]
    for s, vs in enumerate(info["voids"]):
        for v in vs:
            voids[s] |= NOT_2H[SUITS.index(v)]
    gave = _cards_of(info["gave"])
    received = _cards_of(info["received"])
    exchanged = bool(info["received"])
    mine_post = obs.hand | played[me]
    located = mine_post | gave
    post_known = [played[s] | known[s] for s in range(4)]
    post_known[me] = mine_post
    for s in range(4):
        located |= post_known[s]
    allowed = [all_cards & ~voids[s] for s in range(4)]
    turned = parse_card(info["turned"]) if info["turned"] else -1
    tcard = parse_card(info["trump_card"]) if info["trump_card"] else -1
    k = passing["cards"] if passing else 0
    winners = passing["winners"] if passing else -1

    def recv_of(s: int) -> int:
        return (s + 1) % 4 if s % 2 == winners else (s + 3) % 4

    proposed = any(t == "propose" for t, _ in hist)
    # A seat shown to act with nothing legal in the give or announce phase waits for the
    # partner's private propose step (SAT-19.1 masks it as what follows a pass): the partner
    # holds no trump then, as in every world that shows this seat the same.
    waits = obs.to_act == me and not obs.legal and obs.phase in ("give", "announce")
    if not tk and (proposed or waits) and not exchanged and trump >= 0:
        allowed[p] &= ~SUIT_MASK[trump]  # SAT-6.1: the partner held no trump
    q = -1
    if exchanged:
        q = next(s for s in range(4) if s != me and recv_of(s) == me)  # gave to me
        if q % 2 != winners:  # a loser's gift says which cards he could not have held
            tr = received & NOT_2H[trump]
            odd = received & ~tr
            if odd:
                low = max(c % 13 for c in iter_cards(odd))
                higher = 0
                for r in range(low):
                    higher |= ranks_mask(RANKS[r])
                allowed[q] &= ~((NOT_2H[trump]) | (higher & ~SUIT_MASK[trump])) | B2H
        if turned >= 0 and not located >> turned & 1:
            r = recv_of(tm)
            for s in range(4):
                if s not in (tm, r):
                    allowed[s] &= ~BIT[turned]
    pool = all_cards & ~located
    need = [13 - post_known[s].bit_count() for s in range(4)]
    need[me] = 0
    if tk and tm != me and tcard < 0:
        # SAT-15.3: the trump card is one of the trump maker's cards still in his hand; it
        # may be one this seat knows he holds (an announced 2H, SAT-16.3: hearts trump)
        held = post_known[tm] & ~played[tm]
        cands = [SUITS.index(x) for x in info["trump_candidates"]]
        rng.shuffle(cands)
        for t in cands:
            fresh = pool & SUIT_MASK[t] & allowed[tm] if need[tm] else 0
            options = list(iter_cards(fresh | held & SUIT_MASK[t]))
            if options:
                tcard = rng.choice(options)
                break
        else:
            return None
        if not held >> tcard & 1:
            pool &= ~BIT[tcard]
            post_known[tm] |= BIT[tcard]
            need[tm] -= 1
    dealt = _assign(pool, need, allowed, rng)
    if dealt is None:
        return None
    post = [post_known[s] | dealt[s] for s in range(4)]
    pre = list(post)
    gifts: dict[int, CardSet] = {}
    if exchanged:
        pre[me] = (post[me] & ~received) | gave
        pre[q] = (post[q] & ~gave) | received
        gifts[me], gifts[q] = gave, received
        a = next(s for s in range(4) if s not in (me, q))
        w = a if a % 2 == winners else (a + 3) % 4
        lo = (w + 1) % 4
        cw = [m for m in _subsets(post[lo] & ~B2H, k)]
        cl = [m for m in _subsets(post[w] & ~B2H, k)]
        rng.shuffle(cw)
        rng.shuffle(cl)
        found = False
        for gl in cl:
            for gw in cw:
                pw = (post[w] & ~gl) | gw
                pl = (post[lo] & ~gw) | gl
                if winner_gives_ok(pw, gw, k) and loser_gives_ok(pl, gl, trump, k):
                    pre[w], pre[lo] = pw, pl
                    gifts[w], gifts[lo] = gw, gl
                    found = True
                    break
            if found:
                break
        if not found:
            return None
    if turned >= 0 and not pre[tm] >> turned & 1:
        return None
    hand_lists: list[list[Card]] = []
    for s in range(4):
        cards = list(iter_cards(pre[s]))
        rng.shuffle(cards)
        hand_lists.append(cards)
    special = turned if turned >= 0 else tcard
    if first is not None and first.startswith("blind"):
        n = int(first.split(" ")[1])
        lst = hand_lists[tm]
        if special < 0 or special not in lst:
            return None
        lst.remove(special)
        lst.insert(8 + n, special)
    elif first is not None and first.startswith("hide") and tcard >= 0:
        lst = hand_lists[tm]
        if tcard not in lst:
            return None
        lst.remove(tcard)
        lst.insert(rng.randrange(5), tcard)
    return _replay(game, obs, deck_from_hands(hand_lists, d), gifts, tcard, rng)


def _subsets(cards: CardSet, k: int) -> list[CardSet]:
    out = []
    for combo in combinations(list(iter_cards(cards)), k):
        m = 0
        for c in combo:
            m |= BIT[c]
        out.append(m)
    return out


def _replay(
    game: SatatGame,
    obs: Observation,
    deck: list[Card],
    gifts: Mapping[int, CardSet],
    tcard: int,
    rng: random.Random,
) -> SatatState | None:
    """Replay the visible history on ``deck``, filling the hidden steps."""
    me = obs.seat
    try:
        st = game.new_deal(game.normalize_variant(obs.variant), obs.dealer, deck, carry=obs.carry)
        for text, actor in zip(obs.history, obs.actors, strict=True):
            while st.to_act is not None and st.to_act != me:
                if st.ph == PH_PROPOSE and text != "propose":
                    st.apply(A_PASS)
                elif st.ph == PH_ANNOUNCE and text != "announce":
                    st.apply(A_SILENT)
                else:
                    break
            if st.to_act != actor:
                return None
            if "?" in text:
                if text.startswith("hide"):
                    if tcard < 0:
                        return None
                    act = HIDE[tcard]
                elif actor in gifts:
                    act = GIVE[gifts[actor]]
                else:
                    act = rng.choice(st.legal_actions())
            else:
                act = TABLE.by_text[text]
            if act not in st.legal_actions():
                return None
            st.apply(act)
        if obs.legal:
            while st.to_act is not None and st.to_act != me and st.ph in (PH_PROPOSE, PH_ANNOUNCE):
                st.apply(A_PASS if st.ph == PH_PROPOSE else A_SILENT)
    except FolkcardsError:
        return None
    return st


GAME = register(SatatGame())
"""The registry's Satat instance."""
