"""Sheepshead for five players, called ace (``/work/shared/rules/sheepshead.md``, prefix SHP).

A deal goes through four phases: ``pick`` (each seat from eldest may take the two-card
blind), ``bury`` (the picker lays two cards away; they count for it), ``call`` (the picker
names the ace — or ten — whose holder becomes its secret partner, or goes ``alone``) and
``play`` (six tricks; trump is a suit of its own: all queens, all jacks, all diamonds).
Nobody picking gives a *leaster* or, in the ``doubler`` variant, a redeal at double stake.

Hands, the blind and the bury are bitmasks over the engine's card numbers; actions come
from one :class:`~folkcards.engine.actions.ActionTable` whose codes follow the canonical
order, so a legal tuple is built from precomputed per-suit slices and never sorted.
Following suit and trick winners use the shared :class:`~folkcards.engine.tricks.TrumpConfig`
tables (SHP-1.3, SHP-1.4, SHP-7.3, SHP-7.7); only the call-an-ace duties (SHP-7.5, SHP-7.6)
are written here.

``Observation.info`` (all values JSON-able; cards as canonical text):

=================  ==============================================================
key                value
=================  ==============================================================
``stake``          this deal's stake (SHP-11.2)
``mode``           ``null`` while picking, then ``"called"``, ``"alone"``, ``"leaster"``,
                   ``"doubler"``; ``null`` also during bury/call (not decided yet)
``picker``         seat or ``null``
``called``         called card (``"AH"``, ``"TS"``) or ``null``
``partner``        the partner's seat if *this seat* may know it (it is the partner, or
                   the called card has been played, or the deal is over), else ``null``
``blind``          the two blind cards: to the picker once it picked; to everyone when
                   a picked deal or a leaster is over; else ``null`` (SHP-13.1)
``bury``           the buried cards (sorted): to the picker; to everyone when the deal
                   is over; else ``null``
``trick``          cards of the trick in progress, in play order
``leader``         seat that led the trick in progress (``null`` outside play)
``trick_number``   1–6 during play (the trick in progress), else ``null``
``called_suit_led``  true once a trick has been led with a card of the called suit
``tricks``         tricks won per seat (5 ints)
``taken``          card points in each seat's won tricks (5 ints; public, no bury/blind)
``hand_sizes``     cards in each seat's hand (5 ints)
``last_trick``     ``{"leader", "cards", "winner"}`` of the last complete trick, or ``null``
=================  ==============================================================

History: every action is public except ``bury C``, which other seats see as ``bury ?``.

``public_observation()`` (a spectator, SHP-13.1) has the same keys, as a seat that is neither
picker nor partner sees them: ``bury ?`` for both buries, ``blind``/``bury`` null until a
played-out deal ends, ``partner`` null until the called card is played; no hand, no legal.

Phases and modes are int codes inside a state (``PH_*``, ``M_*``), compared by value, so a
pickled or copied state behaves exactly like the original; ``phase`` and ``mode`` give
their public names.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_32,
    SUIT_MASK,
    Card,
    CardSet,
    cards_list,
    iter_cards,
    mask_text,
    parse_card,
    sum_over,
    to_mask,
)
from folkcards.engine.actions import Action, ActionTable
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
from folkcards.engine.events import Told, component, only, private, public, reason
from folkcards.engine.explain import Explanation, explained
from folkcards.engine.registry import register
from folkcards.engine.tricks import TrumpConfig

__all__ = ["ACTIONS", "GAME", "TRUMP", "SheepsheadDeal", "SheepsheadGame"]

# --- cards (SHP-1) ------------------------------------------------------------------------


def _c(text: str) -> Card:
    return parse_card(text, DECK_32)


_TRUMP_TEXT = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"
TRUMP_ORDER: tuple[Card, ...] = tuple(_c(t) for t in _TRUMP_TEXT.split(" "))  # SHP-1.3
FAIL_RANKS: tuple[int, ...] = tuple("AKQJT98765432".index(r) for r in "ATK987")  # SHP-1.4
TRUMP = TrumpConfig(DECK_32, TRUMP_ORDER, FAIL_RANKS)
"""The shared follow/winner tables: trump is one class of 14 cards (SHP-1.2)."""

TRUMPS: CardSet = TRUMP.trumps
FAIL: tuple[CardSet, CardSet, CardSet] = (
    SUIT_MASK[0] & DECK_32 & ~TRUMPS,
    SUIT_MASK[1] & DECK_32 & ~TRUMPS,
    SUIT_MASK[2] & DECK_32 & ~TRUMPS,
)
"""The six cards of each fail suit C, S, H (SHP-1.2)."""
CLASS: tuple[CardSet, ...] = TRUMP.class_of
"""``CLASS[c]``: the effective suit of card ``c`` as a set (trump or its fail suit)."""
BEATS: tuple[CardSet, ...] = TRUMP.beats
"""``BEATS[c]``: the cards that take a trick from ``c`` when ``c`` is winning it (SHP-7.7)."""
"""``CLASS[c]``: the effective suit of card ``c`` as a set (trump or its fail suit)."""

_POINTS_BY_RANK = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
POINTS: tuple[int, ...] = tuple(
    _POINTS_BY_RANK.get(CARD_NAMES[c][0], 0) if DECK_32 >> c & 1 else 0 for c in range(52)
)  # SHP-1.5
FAIL_ACES: tuple[Card, Card, Card] = (_c("AC"), _c("AS"), _c("AH"))
FAIL_TENS: tuple[Card, Card, Card] = (_c("TC"), _c("TS"), _c("TH"))
ALL_FAIL_ACES: CardSet = BIT[FAIL_ACES[0]] | BIT[FAIL_ACES[1]] | BIT[FAIL_ACES[2]]
CALLABLE: tuple[Card, ...] = FAIL_ACES + FAIL_TENS
"""``CALLABLE[c]`` fail suit index (0 C, 1 S, 2 H) of a callable card."""
SUIT_INDEX: dict[Card, int] = {c: c // 13 for c in CALLABLE}

SEATS = 5
HAND_SIZE = 6
TRICKS = 6
NEXT: tuple[int, ...] = (1, 2, 3, 4, 0)
SEAT_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple((lead + i) % 5 for i in range(5)) for lead in range(5)
)
"""``SEAT_AT[leader][i]``: the seat that played the ``i``-th card of a trick."""
"""``NEXT[s]``: the seat after ``s`` clockwise (SHP-2.1)."""


def mask_points(cards: CardSet) -> int:
    """Card points of a set (SHP-1.5)."""
    return sum_over(cards, POINTS)


# --- actions (SHP-14.1, SHP-10.2) ----------------------------------------------------------

_CARDS_32: tuple[Card, ...] = tuple(iter_cards(DECK_32))
DECK_SET: frozenset[Card] = frozenset(_CARDS_32)
ACTIONS = ActionTable(
    ["pick", "pass", "alone"]
    + [f"bury {CARD_NAMES[c]}" for c in _CARDS_32]
    + [f"call {CARD_NAMES[c]}" for c in CALLABLE]
    + [f"play {CARD_NAMES[c]}" for c in _CARDS_32],
    DECK_32,
)
PICK = ACTIONS["pick"]
PASS = ACTIONS["pass"]
ALONE = ACTIONS["alone"]

K_PICK, K_PASS, K_ALONE, K_BURY, K_CALL, K_PLAY = range(6)
_KIND_OF_VERB = {"pick": K_PICK, "pass": K_PASS, "alone": K_ALONE, "bury": K_BURY}
_KIND_OF_VERB.update({"call": K_CALL, "play": K_PLAY})
KIND: tuple[int, ...] = tuple(_KIND_OF_VERB[a.text.split()[0]] for a in ACTIONS.actions)
CARD_OF: tuple[Card, ...] = tuple(
    parse_card(a.text.split()[1], DECK_32) if " " in a.text else -1 for a in ACTIONS.actions
)
PLAY: tuple[Action | None, ...] = tuple(
    ACTIONS.by_text.get(f"play {CARD_NAMES[c]}") for c in range(52)
)
BURY: tuple[Action | None, ...] = tuple(
    ACTIONS.by_text.get(f"bury {CARD_NAMES[c]}") for c in range(52)
)
CALL: dict[Card, Action] = {c: ACTIONS[f"call {CARD_NAMES[c]}"] for c in CALLABLE}
_PICK_LEGAL = (PASS, PICK)


def _slices(table: tuple[Action | None, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """Per suit, per 8-bit pattern of ranks A..7, the actions of those cards in order."""
    out = []
    for s in range(4):
        row = []
        for pattern in range(256):
            acts = []
            for r in range(8):
                if pattern >> r & 1:
                    a = table[s * 13 + r]
                    assert a is not None
                    acts.append(a)
            row.append(tuple(acts))
        out.append(tuple(row))
    return tuple(out)


_PLAY_SLICES = _slices(PLAY)
_BURY_SLICES = _slices(BURY)
_PS0, _PS1, _PS2, _PS3 = _PLAY_SLICES
_PLAY_CS: list[tuple[Action, ...] | None] = [None] * 65536
"""Lazily filled: ``play`` actions of the clubs+spades part of a set, by 16-bit pattern."""
_PLAY_HD: list[tuple[Action, ...] | None] = [None] * 65536
"""Lazily filled: ``play`` actions of the hearts+diamonds part of a set."""


_PLAY_CACHE: dict[CardSet, tuple[Action, ...]] = {}
"""Recently used ``play`` tuples by card set (bounded: cleared when it grows too big)."""
_PLAY_CACHE_LIMIT = 1 << 16


def _play_miss(cards: CardSet) -> tuple[Action, ...]:
    """Fill :data:`_PLAY_CACHE` for ``cards``."""
    if len(_PLAY_CACHE) >= _PLAY_CACHE_LIMIT:
        _PLAY_CACHE.clear()
    legal = _PLAY_CACHE[cards] = play_actions_of(cards)
    return legal


def play_actions_of(cards: CardSet) -> tuple[Action, ...]:
    """The ``play`` actions of a set of cards, in canonical order (no sorting needed).

    Two table look-ups (clubs+spades, hearts+diamonds, each a 16-bit pattern of ranks
    A..7) and one concatenation: this is the hot path of legal-move generation.
    """
    i = cards & 0xFF | cards >> 5 & 0xFF00
    a = _PLAY_CS[i]
    if a is None:
        a = _PLAY_CS[i] = _PS0[i & 0xFF] + _PS1[i >> 8]
    j = cards >> 26 & 0xFF | cards >> 31 & 0xFF00
    b = _PLAY_HD[j]
    if b is None:
        b = _PLAY_HD[j] = _PS2[j & 0xFF] + _PS3[j >> 8]
    return a + b


def bury_actions_of(cards: CardSet) -> tuple[Action, ...]:
    """The ``bury`` actions of a set of cards, in canonical order."""
    b = _BURY_SLICES
    return (
        b[0][cards & 0xFF]
        + b[1][cards >> 13 & 0xFF]
        + b[2][cards >> 26 & 0xFF]
        + b[3][cards >> 39 & 0xFF]
    )


# --- modes and phases -------------------------------------------------------------------

CALLED, ALONE_MODE, LEASTER, DOUBLER = "called", "alone", "leaster", "doubler"
P_PICK, P_BURY, P_CALL, P_PLAY, P_OVER = "pick", "bury", "call", "play", "over"
"""The public names of the phases (``state.phase``, observations, ``replay``; SHP-10.2)."""

# A state keeps its phase and mode as small int codes and every test of them compares by
# value: a copied state (pickle, copy) holds equal but not identical strings and actions,
# so nothing here may compare them by identity.
PH_PICK, PH_BURY, PH_CALL, PH_PLAY, PH_OVER = range(5)
PHASE_NAMES: tuple[str, ...] = (P_PICK, P_BURY, P_CALL, P_PLAY, P_OVER)
PHASE_CODE: dict[str, int] = {name: code for code, name in enumerate(PHASE_NAMES)}
M_NONE, M_CALLED, M_ALONE, M_LEASTER, M_DOUBLER = range(5)
MODE_NAMES: tuple[str | None, ...] = (None, CALLED, ALONE_MODE, LEASTER, DOUBLER)
"""``MODE_NAMES[code]``: the public ``mode`` (SHP-10.1); ``None`` until it is decided."""

_LEVEL_THRESHOLDS = ((91, "picker", 2), (61, "picker", 1), (31, "defenders", 1))


def outcome(picker_points: int, picker_tricks: int) -> tuple[str, int]:
    """``(won_by, level)`` of a picked deal (SHP-8.2, first matching row)."""
    if picker_tricks == TRICKS:
        return "picker", 3
    if picker_tricks == 0:
        return "defenders", 3
    for threshold, side, level in _LEVEL_THRESHOLDS:
        if picker_points >= threshold:
            return side, level
    return "defenders", 2


def carry_of(variant: Variant, stake: int) -> dict[str, Any]:
    """The carried-over deal keys (SHP-11.2): ``{"stake": n}`` under ``doubler``, else none
    (under ``leaster`` the stake is always 1 and the key is not allowed)."""
    return {"stake": stake} if variant["no_pick"] == DOUBLER else {}


def is_stake(value: object) -> bool:
    """True for a JSON integer power of two ≥ 1 (SHP-11.2)."""
    return type(value) is int and value >= 1 and value & (value - 1) == 0


class SheepsheadDeal(DealState):
    """One deal of Sheepshead: picking, burying, calling, six tricks, scoring."""

    action_table = ACTIONS  # a bare integer code is the table's action (SHP-14.1)
    not_an_action = "is not a Sheepshead action (SHP-14.1)"
    deal_over_rule = "SHP-14.2"

    # The base class's attributes too, as slots: fast access in the hot path.
    __slots__ = (
        "_deck",
        "_hands0",
        "_legal",
        "_md",
        "_ph",
        "actors",
        "blind",
        "blind_mask",
        "bury",
        "bury_count",
        "called",
        "dealer",
        "game",
        "hands",
        "history",
        "is_over",
        "last_trick",
        "leader",
        "num_seats",
        "partner",
        "passes",
        "picker",
        "stake",
        "taken",
        "to_act",
        "trick",
        "trick_no",
        "tricks",
        "variant",
        "x_led",
        "x_mask",
    )

    game: SheepsheadGame
    is_over: bool  # a plain attribute here (not the base property): the hot loop reads it

    def __init__(
        self,
        game: SheepsheadGame,
        variant: Variant,
        dealer: int,
        hands: list[CardSet],
        blind: tuple[Card, Card],
        stake: int,
        deck: tuple[Card, ...] | None,
        hands0: tuple[tuple[Card, ...], ...] | None,
    ) -> None:
        self.game = game
        self.variant = variant
        self.dealer = dealer
        self.num_seats = SEATS
        self.history = []
        self.actors = []
        self._legal = None
        self._deck = deck
        self._hands0 = hands0
        self.hands = hands
        self.blind = blind
        self.blind_mask: CardSet = BIT[blind[0]] | BIT[blind[1]]
        self.stake = stake
        self.to_act: int | None = NEXT[dealer]  # SHP-4.1: eldest first
        self.is_over = False
        self._ph = PH_PICK
        self.passes = 0
        self.picker = -1
        self.bury: CardSet = 0
        self.bury_count = 0
        self._md = M_NONE
        self.called = -1
        self.x_mask: CardSet = 0
        self.partner = -1
        self.x_led = False
        self.trick: list[Card] = []
        self.leader = -1
        self.trick_no = 0  # completed tricks
        self.tricks = [0] * SEATS
        self.taken = [0] * SEATS
        self.last_trick: tuple[int, tuple[Card, ...], int] | None = None

    @property
    def phase(self) -> str:
        """The phase's public name: ``pick``, ``bury``, ``call``, ``play``, or ``over``
        (SHP-10.2); kept as a code, so a copied state is in the same phase."""
        return PHASE_NAMES[self._ph]

    @phase.setter
    def phase(self, name: str) -> None:
        self._ph = PHASE_CODE[name]

    @property
    def mode(self) -> str | None:
        """``called``, ``alone``, ``leaster``, ``doubler`` (SHP-10.1), or None until decided."""
        return MODE_NAMES[self._md]

    def initial_hand(self, seat: int) -> list[Card]:
        """``seat``'s six dealt cards in the order received (SHP-3.2)."""
        if self._hands0 is not None:
            return list(self._hands0[seat])
        assert self._deck is not None
        i = (seat - self.dealer - 1) % SEATS
        return list(self._deck[3 * i : 3 * i + 3] + self._deck[17 + 3 * i : 20 + 3 * i])

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in canonical order; () when over."""
        legal = self._legal
        if legal is not None:
            return legal
        if self._ph == PH_PLAY:
            # SHP-7.8, inlined for speed (the same algorithm as _legal_cards; tested equal).
            seat: int = self.to_act  # type: ignore[assignment]
            hand = self.hands[seat]
            trick = self.trick
            if trick:
                cls = CLASS[trick[0]]
                cards = hand & cls or hand  # SHP-7.3 via the TrumpConfig class table
                if self._md == M_CALLED:
                    c = self.called
                    if hand >> c & 1:
                        if cls == self.x_mask:
                            cards = BIT[c]  # SHP-7.6.1
                        elif not self.x_led and self.trick_no < 5:
                            cards &= ~BIT[c]  # SHP-7.6.2
                    elif (
                        seat == self.picker
                        and not self.x_led
                        and self.trick_no < 5
                        and not hand & cls
                    ):
                        xs = hand & self.x_mask
                        if xs and not xs & (xs - 1):
                            cards &= ~xs  # SHP-7.5
            else:
                cards = hand
                if (
                    self._md == M_CALLED
                    and hand >> self.called & 1
                    and not self.x_led
                    and self.trick_no < 5
                ):
                    cards = hand & ~(self.x_mask & ~BIT[self.called])  # SHP-7.6.3
            legal = _PLAY_CACHE.get(cards)
            if legal is None:
                legal = _play_miss(cards)
            self._legal = legal
            return legal
        if self._ph == PH_PICK:
            legal = _PICK_LEGAL  # SHP-4.1
        elif self.to_act is None:
            legal = ()
        else:
            legal = self._generate_legal()
        self._legal = legal
        return legal

    def _generate_legal(self) -> tuple[Action, ...]:
        ph = self._ph
        if ph == PH_PLAY:
            return play_actions_of(self._legal_cards(self.to_act))  # type: ignore[arg-type]
        if ph == PH_PICK:
            return (PASS, PICK)  # SHP-4.1
        if ph == PH_BURY:
            return bury_actions_of(self.hands[self.picker])  # SHP-5.1: no restriction
        return self._legal_calls()

    def _legal_calls(self) -> tuple[Action, ...]:
        """``alone`` plus every ace (or ten) call of SHP-6.2–6.5, in canonical order."""
        hand = self.hands[self.picker]
        held = hand | self.bury  # SHP-6.3
        out = [ALONE]  # SHP-6.5: always legal
        # SHP-6.4: tens only when all three fail aces are held; else aces (SHP-6.2).
        cards = FAIL_TENS if held & ALL_FAIL_ACES == ALL_FAIL_ACES else FAIL_ACES
        for x in range(3):
            c = cards[x]
            if not held >> c & 1 and hand & FAIL[x]:
                out.append(CALL[c])
        return tuple(out)

    def _legal_cards(self, seat: int) -> CardSet:
        """The cards ``seat`` may play now: the algorithm of SHP-7.8, literally (the
        reference for :meth:`legal_actions`' inlined copy; the tests compare the two)."""
        hand = self.hands[seat]
        trick = self.trick
        if self._md != M_CALLED:
            if not trick:
                return hand  # SHP-7.2: any lead
            # SHP-7.3/7.4: follow the led effective suit if possible, else anything.
            return TRUMP.follow(hand, trick[0], trick[0], must_trump=False, must_beat=False)
        c = self.called
        restrict = not self.x_led and self.trick_no < TRICKS - 1
        is_partner = hand >> c & 1
        if not trick:
            if restrict and is_partner:
                return hand & ~(self.x_mask & ~BIT[c])  # SHP-7.6.3
            return hand
        led = trick[0]
        legal = TRUMP.follow(hand, led, led, must_trump=False, must_beat=False)
        if is_partner and CLASS[led] == self.x_mask:
            return BIT[c]  # SHP-7.6.1
        if restrict:
            if is_partner:
                legal &= ~BIT[c]  # SHP-7.6.2
            elif seat == self.picker and not hand & CLASS[led]:
                xs = hand & self.x_mask
                if xs and not xs & (xs - 1):
                    legal &= ~xs  # SHP-7.5: keep the last card of the called suit
        return legal

    # --- applying -----------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its text) for the seat to act; IllegalAction if not
        legal now, the state then unchanged. Same contract as :meth:`DealState.apply`."""
        legal = self._legal
        if legal is None or type(action) is not Action or action not in legal:
            action = self._checked(action, self.legal_actions())  # DealState's slow path
        seat: int = self.to_act  # type: ignore[assignment]
        self._legal = None
        self.history.append(action)
        self.actors.append(seat)
        if self._ph != PH_PLAY:
            self._apply(action)
            return
        # SHP-7.2 / SHP-7.7 / SHP-7.9, inlined: the hot path of every playout.
        card = CARD_OF[action]
        self.hands[seat] ^= BIT[card]
        trick = self.trick
        trick.append(card)
        n = len(trick)
        if n == 1:
            if self.x_mask >> card & 1:
                self.x_led = True  # SHP-7.8: x_led once a card of X is led
            self.to_act = NEXT[seat]
        elif n < SEATS:
            self.to_act = NEXT[seat]
        else:
            self._finish_trick()

    def _apply(self, action: Action) -> None:
        kind = KIND[action]
        seat: int = self.to_act  # type: ignore[assignment]
        if kind == K_PLAY:
            self._play(seat, CARD_OF[action])
        elif kind == K_PASS:
            self.passes += 1
            if self.passes == SEATS:  # SHP-4.3
                if self.variant["no_pick"] == DOUBLER:  # SHP-9.5
                    self._md = M_DOUBLER
                    self._end()
                else:  # SHP-9.1
                    self._md = M_LEASTER
                    self._start_play()
            else:
                self.to_act = NEXT[seat]
        elif kind == K_PICK:  # SHP-4.2
            self.picker = seat
            self.hands[seat] |= self.blind_mask
            self._ph = PH_BURY
        elif kind == K_BURY:  # SHP-5.1
            c = CARD_OF[action]
            self.hands[seat] &= ~BIT[c]
            self.bury |= BIT[c]
            self.bury_count += 1
            if self.bury_count == 2:
                self._ph = PH_CALL
        elif kind == K_CALL:  # SHP-6.2/6.4/6.6
            c = CARD_OF[action]
            self._md = M_CALLED
            self.called = c
            self.x_mask = CLASS[c]
            hands = self.hands
            for s in range(SEATS):
                if hands[s] >> c & 1:
                    self.partner = s  # SHP-6.6
            self._start_play()
        else:  # K_ALONE, SHP-6.5
            self._md = M_ALONE
            self._start_play()

    def _start_play(self) -> None:
        self._ph = PH_PLAY
        self.to_act = self.leader = NEXT[self.dealer]  # SHP-7.1

    def _end(self) -> None:
        self._ph = PH_OVER
        self.to_act = None
        self.is_over = True
        self.leader = -1

    def _play(self, seat: int, card: Card) -> None:
        self.hands[seat] &= ~BIT[card]
        trick = self.trick
        if not trick and self.x_mask >> card & 1:
            self.x_led = True  # SHP-7.8: x_led once a card of X is led
        trick.append(card)
        if len(trick) < SEATS:
            self.to_act = NEXT[seat]  # SHP-7.2
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        """SHP-7.7 / SHP-7.9: the trick goes to its winner, who leads the next one."""
        trick = self.trick
        leader = self.leader
        # TrumpConfig.winner, unrolled over the shared beat table (tested equal).
        beats = BEATS
        w = trick[0]
        wi = 0
        if beats[w] >> trick[1] & 1:
            w, wi = trick[1], 1
        if beats[w] >> trick[2] & 1:
            w, wi = trick[2], 2
        if beats[w] >> trick[3] & 1:
            w, wi = trick[3], 3
        if beats[w] >> trick[4] & 1:
            wi = 4
        winner = SEAT_AT[leader][wi]
        self.tricks[winner] += 1
        p = POINTS
        self.taken[winner] += p[trick[0]] + p[trick[1]] + p[trick[2]] + p[trick[3]] + p[trick[4]]
        self.last_trick = (leader, tuple(trick), winner)
        self.trick = []
        n = self.trick_no = self.trick_no + 1
        if n == TRICKS:
            self._ph = PH_OVER
            self.to_act = None
            self.is_over = True
            self.leader = -1
        else:
            self.to_act = self.leader = winner

    # --- errors ----------------------------------------------------------------------------
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, with the rule ID."""
        return self.explain(action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        if self.to_act is None:
            return explained("deal_over", "the deal is over: no action is allowed (SHP-14.2)")
        code = int(action)
        if not 0 <= code < len(ACTIONS) or ACTIONS.actions[code].text != str(action):
            return explained(
                "not_an_action",
                f"{str(action)!r} is not a Sheepshead action (SHP-14.1)",
                action=str(action),
            )
        kind, card = KIND[code], CARD_OF[code]
        text = str(action)
        phase = self.phase
        seat = self.to_act
        need, forms = {
            P_PICK: ("'pick' or 'pass' (SHP-4.1)", ["pick", "pass"]),
            P_BURY: ("'bury C' (SHP-5.1)", ["bury C"]),
            P_CALL: ("'call C' or 'alone' (SHP-6.1)", ["call C", "alone"]),
            P_PLAY: ("'play C' (SHP-7.2)", ["play C"]),
        }[phase]
        wanted = {P_PICK: (K_PICK, K_PASS), P_BURY: (K_BURY,), P_CALL: (K_CALL, K_ALONE)}
        if kind not in wanted.get(phase, (K_PLAY,)):
            return explained(
                "wrong_phase",
                f"{text!r}: in the {phase} phase seat {seat} must make {need}",
                action=text,
                phase=phase,
                seat=seat,
                expected=forms,
            )
        hand = self.hands[seat]
        name = CARD_NAMES[card]
        if kind == K_BURY:
            return explained(
                "not_held",
                f"{text!r}: the picker does not hold {name} (SHP-5.1)",
                seat=seat,
                card=name,
            )
        if kind == K_CALL:
            held = hand | self.bury
            x = SUIT_INDEX[card]
            suit = "CSH"[x]
            if card in FAIL_TENS and held & ALL_FAIL_ACES != ALL_FAIL_ACES:
                return explained(
                    "call_ten_needs_aces",
                    f"{text!r}: a ten may be called only when holding all three fail aces (SHP-6.4)",
                    action=text,
                )
            if card in FAIL_ACES and held & ALL_FAIL_ACES == ALL_FAIL_ACES:
                return explained(
                    "call_ten_not_ace",
                    f"{text!r}: holding all three fail aces, the picker calls a ten (SHP-6.4)",
                    action=text,
                )
            if held >> card & 1:
                return explained(
                    "call_own_card",
                    f"{text!r}: the picker holds {name} itself (SHP-6.3)",
                    action=text,
                    card=name,
                )
            return explained(
                "call_needs_hold_card",
                f"{text!r}: the picker has no {suit} card in hand to hold (SHP-6.2)",
                action=text,
                suit=suit,
            )
        # play
        if not hand >> card & 1:
            return explained(
                "not_held",
                f"{text!r}: seat {seat} does not hold {name} (SHP-7.2)",
                seat=seat,
                card=name,
            )
        trick = self.trick
        x_name = "the called suit"
        c = self.called
        called = CARD_NAMES[c]  # the called card (these duties exist only in a called game)
        if trick:
            led = trick[0]
            if hand & CLASS[led] and not CLASS[led] >> card & 1:
                led_name = "trump" if CLASS[led] == TRUMPS else "CSH"[led // 13]
                return explained(
                    "must_follow",
                    f"{text!r}: seat {seat} must follow {led_name} (SHP-7.3)",
                    seat=seat,
                    suit=led_name,
                )
            if self._md == M_CALLED and hand >> c & 1 and CLASS[led] == self.x_mask:
                return explained(
                    "must_play_called",
                    f"{text!r}: the holder of {called} must play it when {x_name} is led (SHP-7.6)",
                    action=text,
                    card=called,
                )
            if card == c:
                return explained(
                    "called_card_kept",
                    f"{text!r}: {called} may not be thrown off before {x_name} is led (SHP-7.6)",
                    action=text,
                    card=called,
                )
            return explained(
                "picker_keeps_hold",
                f"{text!r}: the picker must keep its last card of {x_name} until it is led "
                "(SHP-7.5)",
                action=text,
            )
        return explained(
            "partner_leads_called",
            f"{text!r}: the partner may lead {x_name} only with {called} (SHP-7.6)",
            action=text,
            card=called,
        )

    # --- results ---------------------------------------------------------------------------
    def result(self) -> dict[str, JSON]:
        """The result object of SHP-10.1 (ValueError while the deal goes on)."""
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        stake = self.stake
        md = self._md
        points = list(self.taken)
        if md in (M_CALLED, M_ALONE):
            return self._picked_result(stake, points)
        res: dict[str, JSON] = {
            "score": [0] * SEATS,
            "mode": self.mode,
            "picker": None,
            "called": None,
            "partner": None,
            "bury": None,
            "tricks": list(self.tricks),
            "points": [0] * SEATS,
            "picker_points": None,
            "picker_tricks": None,
            "won_by": None,
            "level": None,
            "leaster_winners": None,
            "stake": stake,
            "redeal": False,
        }
        if md == M_DOUBLER:  # SHP-9.5
            res["redeal"] = True
            return res
        if md == M_LEASTER:
            # SHP-9.2: the blind goes to the winner of the last trick.
            assert self.last_trick is not None
            points[self.last_trick[2]] += mask_points(self.blind_mask)
            eligible = [s for s in range(SEATS) if self.tricks[s] > 0]  # SHP-9.3
            low = min(points[s] for s in eligible)
            winners = [s for s in eligible if points[s] == low]
            k = len(winners)
            res["score"] = [(5 - k) * stake if s in winners else -k * stake for s in range(SEATS)]
            res["points"] = points
            res["leaster_winners"] = winners
            return res
        raise AssertionError(f"unknown mode {self.mode!r}")

    def _picked_result(self, stake: int, points: list[int]) -> dict[str, JSON]:
        """:meth:`result` of a picked deal (called partner or alone), SHP-8."""
        picker = self.picker
        points[picker] += mask_points(self.bury)  # SHP-5.2, SHP-8.1
        tricks = self.tricks
        alone = self._md == M_ALONE
        partner = self.partner
        if alone:
            p_points, p_tricks = points[picker], tricks[picker]
        else:  # the partner is never the picker (SHP-6.3)
            p_points = points[picker] + points[partner]
            p_tricks = tricks[picker] + tricks[partner]
        won_by, level = outcome(p_points, p_tricks)  # SHP-8.2
        bump = 2 if won_by == "defenders" and self.variant["double_on_bump"] else 1
        u = stake * bump  # SHP-8.6
        d = level * u if won_by == "picker" else -level * u
        # Built per seat from one unit instead of a loop over seats (the same table).
        if alone:  # SHP-8.5
            score = [-d] * SEATS
            score[picker] = 4 * d
        elif won_by == "defenders" and level == 3:  # SHP-8.3 last row, SHP-8.4
            score = [3 * u] * SEATS
            score[picker] = -9 * u
            score[partner] = 0
        else:  # SHP-8.3
            score = [-d] * SEATS
            score[picker] = 2 * d
            score[partner] = d
        bury = self.bury
        low = bury & -bury
        return {
            "score": score,
            "mode": self.mode,
            "picker": picker,
            "called": None if alone else CARD_NAMES[self.called],
            "partner": None if alone else partner,
            "bury": [CARD_NAMES[low.bit_length() - 1], CARD_NAMES[(bury ^ low).bit_length() - 1]],
            "tricks": list(tricks),
            "points": points,
            "picker_points": p_points,
            "picker_tricks": p_tricks,
            "won_by": won_by,
            "level": level,
            "leaster_winners": None,
            "stake": stake,
            "redeal": False,
        }

    # --- events ------------------------------------------------------------------------------
    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up. The
        blind is seen by the picker only, the bury likewise (SHP-13.1), and who the partner
        is by the partner alone until the called card is played (a ``partner`` event)."""
        return _narrate(self)

    # --- information (SHP-13) ---------------------------------------------------------------
    def partner_known_to(self, seat: int) -> bool:
        """True when ``seat`` (or :data:`SPECTATOR`) may know who the partner is (SHP-13.1):
        the partner itself; everyone once the called card is played or the deal is over."""
        if self._md != M_CALLED:
            return False
        if self.to_act is None or seat == self.partner:
            return True
        return not any(self.hands[s] >> self.called & 1 for s in range(SEATS))

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (SHP-13): its hand, public actions, its own secrets.
        ``seat`` may also be :data:`SPECTATOR` (= :meth:`public_observation`)."""
        if not 0 <= seat < SEATS and seat != SPECTATOR:
            raise ValueError(f"no seat {seat!r} in Sheepshead (seats 0–4, or SPECTATOR)")
        return self._observe(seat)

    def public_observation(self) -> Observation:
        """What a spectator may know now (SHP-13.1): only the public facts, as a seat that is
        neither picker nor partner sees them — every ``bury C`` as ``bury ?``, the blind and
        the bury hidden until a played-out deal ends, the partner until the called card is
        played; no hand, no legal actions; the info keys of a seat's observation."""
        return self._observe(SPECTATOR)

    def _observe(self, viewer: int) -> Observation:
        """The observation of seat ``viewer``, or of a spectator when it is SPECTATOR."""
        over = self.to_act is None
        seated = viewer >= 0
        picker = self.picker
        is_picker = seated and viewer == picker  # no picker is -1, like SPECTATOR
        history = tuple(
            "bury ?" if KIND[a] == K_BURY and who != viewer else a.text
            for a, who in zip(self.history, self.actors, strict=True)
        )
        played_out = over and self._md != M_DOUBLER
        show_blind = is_picker or played_out  # SHP-13.1; a leaster shows it only at the end
        show_bury = picker >= 0 and (is_picker or played_out)  # SHP-5.2
        in_play = self._ph == PH_PLAY
        last = self.last_trick
        info: dict[str, JSON] = {
            "stake": self.stake,
            "mode": MODE_NAMES[self._md],
            "picker": picker if picker >= 0 else None,
            "called": CARD_NAMES[self.called] if self.called >= 0 else None,
            "partner": self.partner if self.partner_known_to(viewer) else None,
            "blind": [CARD_NAMES[c] for c in self.blind] if show_blind else None,
            "bury": mask_text(self.bury) if show_bury else None,
            "trick": [CARD_NAMES[c] for c in self.trick],
            "leader": self.leader if in_play else None,
            "trick_number": self.trick_no + 1 if in_play else None,
            "called_suit_led": self.x_led,
            "tricks": list(self.tricks),
            "taken": list(self.taken),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "last_trick": None
            if last is None
            else {"leader": last[0], "cards": [CARD_NAMES[c] for c in last[1]], "winner": last[2]},
        }
        return Observation(
            game=self.game.name,
            variant=dict(self.variant),
            seat=viewer,
            num_seats=SEATS,
            dealer=self.dealer,
            phase=PHASE_NAMES[self._ph],  # public: every seat sees the phase and who acts
            to_act=self.to_act,
            hand=self.hands[viewer] if seated else 0,
            legal=self.legal_actions() if seated and viewer == self.to_act else (),
            history=history,
            actors=tuple(self.actors),
            info=info,
            carry=carry_of(self.variant, self.stake),
            result=self.result() if over else None,
        )

    # --- copies and records ---------------------------------------------------------------
    def clone(self) -> SheepsheadDeal:
        """An independent copy: every slot, the mutable lists copied (hands, history, actors,
        the trick, tricks, taken); the rest is immutable and shared (variant, deck, blind…)."""
        cls = type(self)
        new = cls.__new__(cls)
        new.game = self.game
        new.variant = self.variant
        new.dealer = self.dealer
        new.num_seats = SEATS
        new.to_act = self.to_act
        new.is_over = self.is_over
        new._ph = self._ph
        new._legal = self._legal
        new.history = self.history[:]
        new.actors = self.actors[:]
        new._deck = self._deck
        new._hands0 = self._hands0
        new.hands = self.hands[:]
        new.blind = self.blind
        new.blind_mask = self.blind_mask
        new.stake = self.stake
        new.passes = self.passes
        new.picker = self.picker
        new.bury = self.bury
        new.bury_count = self.bury_count
        new._md = self._md
        new.called = self.called
        new.x_mask = self.x_mask
        new.partner = self.partner
        new.x_led = self.x_led
        new.trick = self.trick[:]
        new.leader = self.leader
        new.trick_no = self.trick_no
        new.tricks = self.tricks[:]
        new.taken = self.taken[:]
        new.last_trick = self.last_trick
        return new

    def __getstate__(self) -> dict[str, Any]:
        """Pickle state (every protocol): the slots, the history as action codes, no cached
        legal tuple (the game itself pickles by name, :meth:`Game.__reduce__`)."""
        state = {name: getattr(self, name) for name in SheepsheadDeal.__slots__}
        state["history"] = [int(a) for a in self.history]
        state["_legal"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore :meth:`__getstate__`: the history becomes this module's own actions again."""
        for name, value in state.items():
            setattr(self, name, value)
        actions = ACTIONS.actions
        self.history = [actions[code] for code in state["history"]]

    def setup_record(self) -> dict[str, JSON]:
        """``dealer``, ``deck`` (or ``hands`` + ``extra.blind``) and ``stake`` when not 1."""
        rec: dict[str, JSON] = {"dealer": self.dealer}
        if self._deck is not None:
            rec["deck"] = [CARD_NAMES[c] for c in self._deck]
        else:
            rec["hands"] = [[CARD_NAMES[c] for c in self.initial_hand(s)] for s in range(SEATS)]
            rec["extra"] = {"blind": [CARD_NAMES[c] for c in self.blind]}
        if self.stake != 1:
            rec["stake"] = self.stake
        return rec

    def hand_in_order(self, seat: int) -> list[Card]:
        """``seat``'s current hand in the order received (SHP-3.2)."""
        order = self.initial_hand(seat)
        if seat == self.picker:
            order += [self.blind[0], self.blind[1]]
        return [c for c in order if self.hands[seat] >> c & 1]


def _narrate(final: SheepsheadDeal) -> list[Told]:
    """The events of ``final``'s deal so far (see ``SheepsheadDeal._narrate``)."""
    st = final.fresh()
    assert isinstance(st, SheepsheadDeal)
    out = [public("deal", dealer=st.dealer)]
    for action, seat in zip(final.history, final.actors, strict=True):
        kind, card = KIND[action], CARD_OF[action]
        done = st.trick_no
        st.apply(action)
        if kind == K_PLAY:
            out.append(public("play", seat=seat, card=CARD_NAMES[card]))
            if st._md == M_CALLED and card == st.called:  # SHP-13.1: the partner is known
                out.append(public("partner", seat=seat, card=CARD_NAMES[card]))
            if st.trick_no > done:
                assert st.last_trick is not None
                leader, cards, winner = st.last_trick
                out.append(
                    public(
                        "trick",
                        number=st.trick_no,
                        leader=leader,
                        cards=[CARD_NAMES[c] for c in cards],
                        winner=winner,
                        side=winner,
                        points=sum(POINTS[c] for c in cards),
                        bonus=0,
                    )
                )
        elif kind in (K_PICK, K_PASS):  # SHP-4
            out.append(public("bid", seat=seat, action=action.text))
            if kind == K_PICK:  # SHP-4.2: the blind, face down, to the picker
                out.append(
                    private(
                        "pass_cards",
                        (seat,),
                        {"cards": None},
                        **{"from": "blind", "to": seat},
                        count=2,
                        cards=[CARD_NAMES[c] for c in st.blind],
                    )
                )
            elif st._md in (M_LEASTER, M_DOUBLER):  # SHP-9: nobody picked
                out.append(public("contract", mode=st.mode))
        elif kind == K_BURY:  # SHP-5.1
            out.append(
                private(
                    "pass_cards",
                    (seat,),
                    {"cards": None},
                    **{"from": seat, "to": "bury"},
                    count=1,
                    cards=[CARD_NAMES[card]],
                )
            )
        elif kind == K_CALL:  # SHP-6.6: only the partner knows it is the partner
            out.append(
                private(
                    "contract",
                    (st.partner,),
                    {"partner": None},
                    declarer=seat,
                    mode=st.mode,
                    called=CARD_NAMES[card],
                    partner=st.partner,
                )
            )
        else:  # alone, SHP-6.5
            out.append(public("contract", declarer=seat, mode=st.mode))
    if st.to_act is None:
        if st._md == M_LEASTER and st.last_trick is not None:  # SHP-9.2
            out.append(
                public(
                    "pass_cards",
                    **{"from": "blind", "to": st.last_trick[2]},
                    count=2,
                    cards=[CARD_NAMES[c] for c in st.blind],
                )
            )
        out.append(public("deal_end", **_deal_end(st)))
    return out


def _deal_end(st: SheepsheadDeal) -> dict[str, JSON]:
    """The result with the SHP-8/SHP-9 row that scored it, and where the points came from."""
    res = st.result()
    score = res["score"]
    points_from: dict[str, JSON] = {"tricks": list(st.taken)}
    if res["mode"] == DOUBLER:  # SHP-9.5
        return {
            "result": res,
            "score": list(score),
            "outcome": "doubler",
            "reason": None,
            "components": [component("doubler", list(score), rule="SHP-9.5")],
            "points_from": points_from,
        }
    if res["mode"] == LEASTER:  # SHP-9.2 – SHP-9.4
        assert st.last_trick is not None
        points_from["blind"] = only(st.last_trick[2], mask_points(st.blind_mask), SEATS)
        winners = res["leaster_winners"]
        return {
            "result": res,
            "score": list(score),
            "outcome": "leaster",
            "reason": None,
            "components": [
                component(
                    "leaster",
                    list(score),
                    winners=winners,
                    low=res["points"][winners[0]],
                    rule="SHP-9.4",
                )
            ],
            "points_from": points_from,
        }
    picker = res["picker"]
    points_from["bury"] = only(picker, mask_points(st.bury), SEATS)  # SHP-5.2, SHP-8.1
    p_points, p_tricks = res["picker_points"], res["picker_tricks"]
    who = "picker" if res["mode"] == ALONE_MODE else "picker side"
    if p_tricks in (0, TRICKS):  # SHP-8.2: all tricks or none
        why = reason(who, picker, "tricks", p_tricks, "=", p_tricks, "SHP-8.2")
    else:
        op, target = (
            (">=", 91) if p_points >= 91
            else (">=", 61) if p_points >= 61
            else ("<", 61) if p_points > 30
            else ("<=", 30)
        )  # fmt: skip
        why = reason(who, picker, "points", p_points, op, target, "SHP-8.2")
    bump = 2 if res["won_by"] == "defenders" and st.variant["double_on_bump"] else 1
    return {
        "result": res,
        "score": list(score),
        "outcome": res["won_by"],
        "reason": why,
        "components": [
            component(
                "game",
                list(score),
                won_by=res["won_by"],
                level=res["level"],
                unit=st.stake * bump,
                rule="SHP-8.5" if res["mode"] == ALONE_MODE else "SHP-8.3",
            )
        ],
        "points_from": points_from,
    }


class SheepsheadGame(Game):
    """Sheepshead, five players, called ace: the facts, variants, deals and matches."""

    name = "sheepshead"
    title = "Sheepshead"
    deck = DECK_32
    partnership = False
    variant_options = (
        VariantOption(
            "no_pick", "leaster", "nobody picks: leaster or doubler (SHP-9)", ("leaster", "doubler")
        ),
        VariantOption("double_on_bump", False, "picker-side losses count double (SHP-8.6)"),
        VariantOption(
            "match_deals", 5, "played-out deals before a match may end (SHP-11.3)", None, 1
        ),
    )
    deal_keys = ("stake",)
    derived_deal_keys = ("stake",)
    """SHP-11.2: a deal inside a match may leave ``stake`` out; it is then the stake the deals
    before give (2^k after k doubler pass-outs). A ``stake`` it gives must equal it."""

    def num_seats(self, variant: Variant) -> int:
        """Always five (SHP-2.1)."""
        return SEATS

    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action named by ``text`` (SHP-14.1), or ActionSyntaxError."""
        return ACTIONS.parse(text)

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """The 73 actions in canonical order, codes 0..72 (a fixed action space)."""
        return ACTIONS.actions

    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """The record's ``stake`` (SHP-11.2): a power of two, only under ``doubler``."""
        if "stake" not in record:
            return carry_of(variant, 1)
        stake = record["stake"]
        if variant["no_pick"] != DOUBLER:
            raise MalformedRecord(
                "'stake' is allowed only with variant no_pick \"doubler\" (SHP-11.2)"
            )
        if not is_stake(stake):
            raise MalformedRecord(
                f"'stake' must be an integer power of two ≥ 1, not {json_repr(stake)} (SHP-11.2)"
            )
        return {"stake": stake}

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> SheepsheadDeal:
        """A deal from a deck (top card first, dealt by SHP-3.1) or from hands + blind (SHP-3.3)."""
        if type(dealer) is not int or not 0 <= dealer < SEATS:
            raise MalformedRecord("'dealer' must be an integer seat 0–4")
        stake = 1
        if carry:
            stake = carry.get("stake", 1)
            if not is_stake(stake):
                raise MalformedRecord(
                    f"'stake' must be an integer power of two ≥ 1, not {json_repr(stake)} "
                    "(SHP-11.2)"
                )
            if stake != 1 and variant["no_pick"] != DOUBLER:
                raise MalformedRecord('the stake is always 1 under no_pick "leaster" (SHP-11.2)')
        if deck is not None:
            if hands is not None or extra is not None:
                raise MalformedRecord("a deal record needs exactly one of 'deck' or 'hands'")
            deck = cards = tuple(deck)  # immutable: clones share it
            b = BIT
            # SHP-3.1: 3 each from eldest, 2 to the blind, 3 each again.
            masks = [0] * SEATS
            seat = dealer
            try:
                for i in range(0, 15, 3):
                    seat = NEXT[seat]
                    j = i + 17
                    masks[seat] = (
                        b[deck[i]]
                        | b[deck[i + 1]]
                        | b[deck[i + 2]]
                        | b[deck[j]]
                        | b[deck[j + 1]]
                        | b[deck[j + 2]]
                    )
                everything = masks[0] | masks[1] | masks[2] | masks[3] | masks[4]
                everything |= b[deck[15]] | b[deck[16]]
            except (IndexError, TypeError):
                everything = -1
            # 32 entries whose union is the pack: each card exactly once.
            if len(deck) != 32 or everything != DECK_32:
                raise MalformedRecord(
                    "'deck' must hold the 32 cards of the Sheepshead pack, each once"
                )
            return SheepsheadDeal(
                self, variant, dealer, masks, (deck[15], deck[16]), stake, cards, None
            )
        if hands is None:
            raise MalformedRecord("a deal record needs exactly one of 'deck' or 'hands'")
        if len(hands) != SEATS or any(len(h) != HAND_SIZE for h in hands):
            raise MalformedRecord("'hands' must be 5 lists of 6 cards (SHP-3.3)")
        extra = extra or {}
        if set(extra) != {"blind"}:
            raise MalformedRecord("'extra' must be exactly {\"blind\": [2 cards]} (SHP-3.3)")
        blind_cards = list(extra["blind"])
        if len(blind_cards) != 2:
            raise MalformedRecord("'extra.blind' must hold 2 cards (SHP-3.3)")
        seen = [c for h in hands for c in h] + blind_cards
        if len(seen) != 32 or to_mask(seen) != DECK_32:
            raise MalformedRecord(
                "'hands' and 'extra.blind' together must be the 32 cards (SHP-3.3)"
            )
        hands0 = tuple(tuple(h) for h in hands)  # immutable: clones share it
        masks = [to_mask(h) for h in hands0]
        return SheepsheadDeal(
            self, variant, dealer, masks, (blind_cards[0], blind_cards[1]), stake, None, hands0
        )

    # --- determinization (bots see observations only) -----------------------------------------
    def determinize(self, obs: Observation, rng: random.Random) -> SheepsheadDeal:
        """A full deal consistent with ``obs``: hidden cards sampled under every inference the
        rules allow (revealed voids, the called card's possible holders, the picker's call and
        hold-rule duties, the aces a ten call implies)."""
        return _determinize(self, obs, rng)

    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Sheepshead's game card: five seats scoring alone; the fourteen trumps (queens,
        jacks, diamonds, SHP-1.3) sort first, then the fail suits A T K 9 8 7 (SHP-1.4)."""
        v = self.normalize_variant(variant)
        bump = 2 if v["double_on_bump"] else 1
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=SEATS,
            sides=teams(SEATS, False),
            partnership=False,
            direction="clockwise",
            deck=DECK_32,
            pack="french",
            phases=(P_PICK, P_BURY, P_CALL, P_PLAY),
            utility_bounds=(-12 * bump, 12),  # alone: ±4 × level 3 (SHP-8.5), at stake 1
            margin_scale=3.0,
            shaping=None,
            suit_order="CSHD",
            suit_ranks={x: suit_run("ATK987", x) for x in "CSH"},
            trump_groups={NO_TRUMP: TRUMP_ORDER},
            table_keys=(
                "picker",
                "called",
                "partner",
                "mode",
                "stake",
                "leader",
                "trick",
                "trick_number",
                "tricks",
                "taken",
                "hand_sizes",
            ),
            rules="SHP",
            notes={
                "utility_bounds": "at stake 1: a doubler stake multiplies them (SHP-8.6, SHP-11.2)",
                "phases": "nobody picking skips bury and call (leaster) or ends the deal "
                "(doubler, SHP-9)",
            },
        )

    def describe(self, state: DealState) -> str:
        """One line: phase, seat to act, picker and call."""
        assert isinstance(state, SheepsheadDeal)
        parts = [f"Sheepshead · dealer {state.dealer} · phase {state.phase}"]
        if state.picker >= 0:
            parts.append(f"picker {state.picker}")
        if state.mode is not None:
            parts.append(state.mode + (f" {CARD_NAMES[state.called]}" if state.called >= 0 else ""))
        if state.to_act is not None:
            parts.append(f"to act {state.to_act}")
        return " · ".join(parts)

    # --- matches (SHP-11) ---------------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0, any first dealer, stake 1."""
        return MatchState(
            totals=[0] * SEATS,
            next_dealer=None,
            carry=carry_of(variant, 1),
            extra={"played": 0},
        )

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """Add the deal's score; next dealer; doubler stake; end with a single top total."""
        assert isinstance(deal, SheepsheadDeal)
        res = deal.result()
        totals = [t + s for t, s in zip(match.totals, res["score"], strict=True)]
        played = match.extra.get("played", 0)
        if res["redeal"]:  # SHP-9.5, SHP-11.2: the next deal is played at double stake
            carry = {"stake": deal.stake * 2}
        else:
            carry = carry_of(deal.variant, 1)
            played += 1
        over, winner = False, None
        top = max(totals)
        if not res["redeal"] and played >= deal.variant["match_deals"] and totals.count(top) == 1:
            over, winner = True, totals.index(top)  # SHP-11.3
        return MatchState(
            totals=totals,
            next_dealer=(deal.dealer + 1) % SEATS,  # SHP-11.1
            carry=carry,
            over=over,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
            extra={"played": played},
        )


# --- determinization ------------------------------------------------------------------------


class _Piles:
    """Sampling hidden cards into piles of fixed sizes, each card allowed in some piles.

    Feasibility is Hall's condition over pile subsets (at most six piles), checked on the
    counts of cards per allowed-pile signature, so every step keeps a completion possible.
    """

    def __init__(self, caps: list[int]) -> None:
        self.caps = caps
        self.n = len(caps)

    def feasible(self, caps: list[int], sig_counts: dict[int, int]) -> bool:
        n = self.n
        cap_of = [0] * (1 << n)
        for q in range(1, 1 << n):
            low = q & -q
            cap_of[q] = cap_of[q ^ low] + caps[low.bit_length() - 1]
        total = sum(sig_counts.values())
        if total != cap_of[(1 << n) - 1]:
            return False
        for q in range(1, 1 << n):
            need = 0
            for sig, k in sig_counts.items():
                if sig & ~q == 0:
                    need += k
            if need > cap_of[q]:
                return False
        return True

    def sample(self, allowed: dict[Card, int], rng: random.Random) -> list[list[Card]] | None:
        caps = list(self.caps)
        counts: dict[int, int] = {}
        for sig in allowed.values():
            counts[sig] = counts.get(sig, 0) + 1
        if not self.feasible(caps, counts):
            return None
        out: list[list[Card]] = [[] for _ in range(self.n)]
        cards = sorted(allowed)
        rng.shuffle(cards)
        for c in cards:
            sig = allowed[c]
            counts[sig] -= 1
            if not counts[sig]:
                del counts[sig]
            options = [p for p in range(self.n) if sig >> p & 1 and caps[p] > 0]
            rng.shuffle(options)
            for p in options:
                caps[p] -= 1
                if self.feasible(caps, counts):
                    out[p].append(c)
                    break
                caps[p] += 1
            else:  # pragma: no cover - excluded by the feasibility invariant
                return None
        return out


def _determinize(game: SheepsheadGame, obs: Observation, rng: random.Random) -> SheepsheadDeal:
    seat = obs.seat
    info = obs.info
    dealer = obs.dealer
    variant = dict(obs.variant)
    picker = info["picker"] if info["picker"] is not None else -1
    called = parse_card(info["called"], DECK_32) if info["called"] is not None else -1
    x_mask = CLASS[called] if called >= 0 else 0

    # Walk the public history: who played what, revealed voids, the called card's fate.
    played = [0] * SEATS
    played_seq: list[list[Card]] = [[] for _ in range(SEATS)]
    voids = [0] * SEATS
    bury_known: list[Card] = []
    bury_hidden = 0
    trick: list[Card] = []
    trick_seats: list[int] = []
    x_led = False
    called_played = False
    picker_x_after: list[int] = []  # picker's restricted discards of X: index in its plays
    trick_no = 0
    for text, who in zip(obs.history, obs.actors, strict=True):
        verb, _, arg = text.partition(" ")
        if verb == "bury":
            if arg == "?":
                bury_hidden += 1
            else:
                bury_known.append(parse_card(arg, DECK_32))
            continue
        if verb != "play":
            continue
        c = parse_card(arg, DECK_32)
        if trick:
            led_class = CLASS[trick[0]]
            if not led_class >> c & 1:
                voids[who] |= led_class
                if (
                    who == picker
                    and called >= 0
                    and not x_led
                    and trick_no < TRICKS - 1
                    and x_mask >> c & 1
                ):
                    picker_x_after.append(len(played_seq[who]))
        elif x_mask >> c & 1:
            x_led = True
        if c == called:
            called_played = True
        played[who] |= BIT[c]
        played_seq[who].append(c)
        trick.append(c)
        trick_seats.append(who)
        if len(trick) == SEATS:
            trick, trick_seats = [], []
            trick_no += 1

    # Cards the observer knows where they are.
    own = obs.hand
    known = own
    for s in range(SEATS):
        known |= played[s]
    blind_known: list[Card] | None = None
    if info["blind"] is not None:
        blind_known = [parse_card(t, DECK_32) for t in info["blind"]]
    bury_mask_known = 0
    if info["bury"] is not None:
        for t in info["bury"]:
            bury_mask_known |= BIT[parse_card(t, DECK_32)]
    for c in bury_known:
        bury_mask_known |= BIT[c]
    sizes = info["hand_sizes"]
    known |= bury_mask_known
    picked = picker >= 0
    picker_hidden = picked and picker != seat
    # The blind is a separate hidden pile only when nobody has taken it yet (or a leaster).
    blind_pile = not picked and blind_known is None
    if blind_known is not None and not picked:
        for c in blind_known:
            known |= BIT[c]
    if picked and picker == seat:
        assert blind_known is not None
    pool = DECK_32 & ~known

    # Piles: the other seats' hands, then the bury (if hidden), then the blind (if hidden).
    piles: list[tuple[str, int]] = [("hand", s) for s in range(SEATS) if s != seat]
    caps = [sizes[s] for s in range(SEATS) if s != seat]
    bury_missing = 0
    if picker_hidden and info["bury"] is None:
        bury_missing = bury_hidden
        if bury_missing:
            piles.append(("bury", picker))
            caps.append(bury_missing)
    if blind_pile:
        piles.append(("blind", -1))
        caps.append(2)
    index_of_hand = {s: i for i, (kind, s) in enumerate(piles) if kind == "hand"}
    bury_index = next((i for i, (kind, _) in enumerate(piles) if kind == "bury"), -1)
    full = (1 << len(piles)) - 1

    allowed: dict[Card, int] = {}
    for c in iter_cards(pool):
        sig = full
        for s, i in index_of_hand.items():
            if voids[s] >> c & 1:
                sig &= ~(1 << i)
        allowed[c] = sig
    picker_bits = 0
    if picker_hidden:
        picker_bits = 1 << index_of_hand[picker]
        if bury_index >= 0:
            picker_bits |= 1 << bury_index
    if called >= 0 and picker_hidden:
        # SHP-6.2/6.3/6.4: the picker does not hold the called card; a ten call means it
        # holds all three fail aces (hand or bury).
        for c in list(allowed):
            if c == called:
                allowed[c] &= ~picker_bits
            elif called in FAIL_TENS and c in FAIL_ACES:
                allowed[c] &= picker_bits
    if called >= 0 and not called_played and called in allowed:
        # SHP-6.6: the called card is in a defender-or-partner hand, never in the bury;
        # SHP-7.6.1/7.6.3: not with a seat that already played to the current trick led in X.
        sig = allowed[called]
        if bury_index >= 0:
            sig &= ~(1 << bury_index)
        if trick and CLASS[trick[0]] == x_mask:
            for s in trick_seats:
                if s in index_of_hand:
                    sig &= ~(1 << index_of_hand[s])
        allowed[called] = sig

    sampler = _Piles(caps)
    forced: list[Card] = [-1]
    if called >= 0 and picker_hidden:
        # SHP-6.2 and SHP-7.5: how many cards of X the picker must still hold.
        seq = played_seq[picker]
        total_x = sum(1 for c in seq if x_mask >> c & 1)
        need = 1 - total_x
        for i in picker_x_after:
            need = max(need, 2 - sum(1 for c in seq[i:] if x_mask >> c & 1))
        if need > 0:
            hand_bit = 1 << index_of_hand[picker]
            candidates = [c for c in allowed if x_mask >> c & 1 and allowed[c] & hand_bit]
            rng.shuffle(candidates)
            forced = candidates
    result = None
    for f in forced:
        trial = dict(allowed)
        if f >= 0:
            trial[f] = 1 << index_of_hand[picker]
        result = sampler.sample(trial, rng)
        if result is not None:
            break
    if result is None:
        raise FolkcardsError("no deal is consistent with this observation")

    remaining = [0] * SEATS
    if seat != SPECTATOR:  # a spectator's observation (no hand) determinizes too
        remaining[seat] = own
    bury_cards = list(bury_known)
    blind: list[Card] = list(blind_known) if blind_known is not None else []
    for (kind, s), cards in zip(piles, result, strict=True):
        if kind == "hand":
            for c in cards:
                remaining[s] |= BIT[c]
        elif kind == "bury":
            bury_cards += cards
        else:
            blind = list(cards)
    if info["bury"] is not None and not bury_known:
        bury_cards = cards_list(bury_mask_known)
    hands0: list[list[Card]] = []
    for s in range(SEATS):
        hands0.append(cards_list(remaining[s] | played[s]))
    if picked:
        full8 = remaining[picker] | played[picker] | to_mask(bury_cards)
        if not blind:
            blind = rng.sample(cards_list(full8), 2)
        hands0[picker] = cards_list(full8 & ~to_mask(blind))
    state = game.new_deal(variant, dealer, hands=hands0, extra={"blind": blind}, carry=obs.carry)
    buries = iter(bury_cards)
    for text in obs.history:
        if text == "bury ?":
            c = next(buries)
            state.apply(BURY[c])  # type: ignore[arg-type]
        elif text.startswith("bury "):
            next(buries)
            state.apply(text)
        else:
            state.apply(text)
    return state


GAME = register(SheepsheadGame())
"""The registry's Sheepshead."""
