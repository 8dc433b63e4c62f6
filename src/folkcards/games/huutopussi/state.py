"""The Huutopussi deal state: bidding, exchange or widow, play with trump declarations, scoring.

Hands are bitmasks, actions are codes of :data:`.tables.TABLE`; ``apply`` is in place. The
phase is one of ``bidding give contract return discard play answer`` (HUU-16.2) and ``over``
once the deal has ended. The trump can change between tricks (HUU-7.2, HUU-8.8): the state
holds the :class:`~folkcards.engine.tricks.TrumpConfig` of the current trump (or of no trump)
and switches it when a declaration succeeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from folkcards.cards import CARD_NAMES, SUIT_MASK, SUITS
from folkcards.engine.actions import Action
from folkcards.engine.api import JSON, SPECTATOR, DealState, Observation
from folkcards.engine.events import Told, component, only, private, public, reason
from folkcards.engine.explain import Explanation, explained
from folkcards.engine.tricks import TrumpConfig

from .tables import (
    ACES,
    ANSWER_NO,
    ANSWER_SUIT,
    ANSWER_YES,
    ARG,
    ASK_HALF,
    ASK_MARRIAGE,
    CONFIGS,
    DECLARE,
    DISCARD_TABS,
    GIVE_TABS,
    HIGH,
    K_ANSWER_NO,
    K_ANSWER_SUIT,
    K_ANSWER_YES,
    K_ASK_HALF,
    K_ASK_MARRIAGE,
    K_BID,
    K_CONTRACT,
    K_DECLARE,
    K_DISCARD,
    K_GIVE,
    K_KONTRA,
    K_PASS,
    K_PLAY,
    K_RE,
    K_REDEAL,
    K_RETURN,
    KIND,
    KINGS,
    KONTRA,
    NO_TRUMP,
    PAIR,
    PLAY_TABS,
    QUEENS,
    RE,
    RETURN_TABS,
    SIXES,
    SPADES,
    SUIT_ORDER_WORDS,
    TABLE,
    Rules,
    mask_actions,
    rules_of,
)

if TYPE_CHECKING:
    from .game import HuutopussiGame

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


KQ_MASK = sum(PAIR)
_PLAY_C, _PLAY_S, _PLAY_H, _PLAY_D = PLAY_TABS
_ONE_SUIT_PLAYS: dict[int, tuple[Action, ...]] = {
    bits << (13 * suit): PLAY_TABS[suit][bits] for suit in range(4) for bits in range(1, 512)
}
"""The ``play`` actions of every non-empty set of cards of one suit (2,044 sets)."""
_TEXT = attrgetter("text")  # an action's text, for copying the public part of a history
_HIDES_CARD = frozenset((K_GIVE, K_RETURN, K_DISCARD))  # HUU-14.3, 14.4, 14.6
PLAY_CARD: tuple[int, ...] = tuple(ARG[a] if KIND[a] == K_PLAY else -1 for a in range(len(KIND)))
"""``PLAY_CARD[code]``: the card of a ``play`` action, −1 for every other action."""
_DECLARATION_CACHE: dict[tuple[int, int, int, int, bool], tuple[Action, ...]] = {}


def can_redeal(hand: int) -> bool:
    """HUU-4.6: at least three sixes, or no card above a jack (no A, T, K, Q)."""
    return (hand & SIXES).bit_count() >= 3 or not hand & HIGH


def round5(total: int) -> int:
    """HUU-12.7: to the nearest multiple of 5, remainders 1–2 down and 3–4 up."""
    r = total % 5
    return total - r if r <= 2 else total + 5 - r


class HuutopussiState(DealState):
    """One deal of Huutopussi (4 players, 3 players or Erlangen, per the variant)."""

    deal_over_rule = "HUU-17.2"  # DealState._checked's error after the deal

    # Slots: fixed-offset attribute access on the hot path; the base class's attributes too
    # (``to_act``, ``phase``, ``_legal``, ``history`` are read at every step).
    __slots__ = (
        "_legal",
        "_result",
        "acted",
        "actors",
        "ask_suit",
        "asker",
        "banned",
        "beats",
        "bid",
        "broken",
        "calls",
        "cfg",
        "class_of",
        "contract",
        "dealer",
        "deck",
        "declarations",
        "declarer",
        "discards",
        "erlangen",
        "game",
        "given",
        "hands",
        "hands_rec",
        "high",
        "high_seat",
        "history",
        "is_over",
        "last_winner",
        "leader",
        "led_class",
        "marriages",
        "next_seat",
        "num_seats",
        "packet",
        "partner",
        "passed",
        "ph",
        "phase",
        "points",
        "redeal_by",
        "returned",
        "rules",
        "sides",
        "to_act",
        "totals",
        "trick",
        "tricks",
        "tricks_done",
        "trump",
        "trumps",
        "used",
        "variant",
        "widow",
        "win_card",
        "win_seat",
        "window",
    )

    game: HuutopussiGame
    variant: dict[str, Any]
    is_over: bool  # an attribute kept with ``to_act``, faster than the base property
    ph: int
    rules: Rules
    hands: list[int]
    trick: list[int]
    cfg: TrumpConfig
    # the deal's set-up, never changed after __init__: tuples, so copies may share them
    deck: tuple[int, ...] | None
    hands_rec: tuple[tuple[int, ...], ...] | None
    widow: tuple[int, ...]
    totals: tuple[int, ...]

    def __init__(
        self,
        game: HuutopussiGame,
        variant: dict[str, Any],
        rules: Rules,
        dealer: int,
        hands: list[int],
        hands_rec: Sequence[Sequence[int]] | None,
        widow: Sequence[int],
        deck: Sequence[int] | None,
        totals: Sequence[int],
    ) -> None:
        """``hands``: each seat's dealt cards as a set; ``hands_rec``: the record's hand lists
        (None for a deal from a ``deck``)."""
        n = rules.players
        self.game = game
        self.variant = variant
        self.rules = rules
        self.erlangen = rules.erlangen
        self.next_seat = rules.next_seat
        self.dealer = dealer
        self.num_seats = n
        self.sides = rules.sides
        self.deck = None if deck is None else tuple(deck)
        self.hands_rec = None if hands_rec is None else tuple(map(tuple, hands_rec))
        self.widow = tuple(widow)
        self.totals = tuple(totals)
        self.hands = hands
        # HUU-4.7: huutokielto for a seat whose side's total is ≤ −500 before the deal.
        self.banned = 0
        if min(totals) <= -500:
            for s in range(n):
                if totals[self.sides[s]] <= -500:
                    self.banned |= 1 << s
        self.history = []
        self.actors = []
        self._legal = None
        self._result: dict[str, JSON] | None = None
        self.ph = P_BIDDING  # the phase code; ``phase`` is its public text (``_enter``)
        self.phase = PHASES[P_BIDDING]
        self.to_act = (dealer + 1) % n  # HUU-4.1: eldest first
        self.is_over = False
        self.high = 0
        self.high_seat = -1
        self.passed = 0
        self.acted = 0
        self.redeal_by = -1
        self.declarer = -1
        self.partner = -1
        self.bid = 0
        self.contract = 0
        self.given: list[int] = []
        self.returned: list[int] = []
        self.discards: list[int] = []
        self.packet = 0
        self.leader = -1
        self.trick = []
        self.win_card = -1
        self.win_seat = -1
        self.led_class = 0  # class of the card led to this trick (bound at the lead)
        self.tricks_done = 0
        self.trump = -1
        self.cfg = cfg = CONFIGS[NO_TRUMP]
        # the current trump's tables, bound for the play hot path (HUU-7.2)
        self.class_of: tuple[int, ...] = cfg.class_of
        self.beats: tuple[int, ...] = cfg.beats
        self.trumps: int = cfg.trumps
        self.used = 0
        self.broken = 0
        self.window = False
        self.asker = -1
        self.ask_suit = -1
        k = 3 if n == 3 else 2
        self.tricks = [0] * k
        self.points = [0] * k
        self.marriages = [0] * k
        self.calls = 0
        self.last_winner = -1
        self.declarations: list[tuple[int, int, int]] = []

    # --- small helpers ----------------------------------------------------------------------
    def team_of(self, seat: int) -> int:
        """The scoring side of a seat: its team with 4 players, the seat itself with 3."""
        return self.sides[seat]

    def partner_of(self, seat: int) -> int:
        """HUU-2.1/2.3: the seat's partner for declarations, or −1 (the 3-player declarer)."""
        if self.num_seats == 4:
            return (seat + 2) & 3
        if self.declarer < 0 or seat == self.declarer:
            return -1
        return 3 - seat - self.declarer

    # --- legal actions -----------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in the conventions' order; () when over.

        The common case (a plain play outside Erlangen, no declaration window) is inlined:
        this is the hot path of every playout."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.to_act
        if seat is None:
            legal = ()
        elif (
            self.ph == P_PLAY
            and not self.window
            and (not self.erlangen or self._plain_erlangen_turn(seat))
        ):
            m = self.hands[seat]
            if self.trick:
                # HUU-7.3 — TrumpConfig.follow(must_trump, must_beat) spelt out on the bound
                # tables (``_legal_play`` is the reference path through follow()): the led
                # class, else trumps, else anything; then those that beat W if any.
                m = m & self.led_class or m & self.trumps or m
                m = m & self.beats[self.win_card] or m
            legal = _ONE_SUIT_PLAYS.get(m)  # most followers: cards of one suit
            if legal is None:  # a lead or a void follower (too varied to memoize with profit)
                legal = _PLAY_C[m & 511] + _PLAY_S[m >> 13 & 511] + _PLAY_H[m >> 26 & 511]
                legal += _PLAY_D[m >> 39]
        elif self.ph == P_PLAY:
            legal = self._legal_play()
        elif self.ph == P_BIDDING:
            legal = self._legal_bidding()
        else:
            legal = self._generate_legal()
        self._legal = legal
        return legal

    def _plain_erlangen_turn(self, seat: int) -> bool:
        """Erlangen, past trick 1, and no kontra/re possible now (HUU-12.4, HUU-12.9)."""
        return bool(self.tricks_done) and (
            self.declarer < 0 or self.calls >= 9 or self.hands[seat].bit_count() < 9 - self.calls
        )

    def _generate_legal(self) -> tuple[Action, ...]:
        ph = self.ph
        if ph == P_PLAY:
            return self._legal_play()
        if ph == P_BIDDING:
            return self._legal_bidding()
        if ph == P_GIVE:  # HUU-5.1
            return mask_actions(self.hands[self.partner], GIVE_TABS)
        if ph == P_RETURN:  # HUU-5.3
            return mask_actions(self.hands[self.declarer], RETURN_TABS)
        if ph == P_DISCARD:  # HUU-6.2
            return mask_actions(self.hands[self.declarer], DISCARD_TABS)
        if ph == P_CONTRACT:  # HUU-5.2, HUU-6.3
            return self.rules.contract_actions(self.bid)
        return self._legal_answer()

    def _legal_bidding(self) -> tuple[Action, ...]:
        seat = self.to_act
        assert seat is not None
        r = self.rules
        hand = self.hands[seat]
        # HUU-4.6: on the seat's first turn (``can_redeal`` spelt out)
        redeal = not self.acted >> seat & 1 and ((hand & SIXES).bit_count() >= 3 or not hand & HIGH)
        compulsory = not self.history and not r.erlangen  # HUU-4.3 (not HUU-12.2)
        if self.banned >> seat & 1:  # HUU-4.7
            if compulsory:
                return r.bidding_actions(50, True, False, redeal)
            return r.bidding_actions(1000, False, True, redeal)
        lowest = self.high + 5  # HUU-4.2
        if lowest < r.min_bid:
            lowest = r.min_bid
        out = r.bid_cache.get((lowest, False, not compulsory, redeal))
        if out is None:
            out = r.bidding_actions(lowest, False, not compulsory, redeal)
        return out

    def _legal_play(self) -> tuple[Action, ...]:
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        trick = self.trick
        r = self.rules
        if not trick:
            if r.erlangen and not self.tricks_done:  # HUU-12.4: an ace, else a spade
                m = hand & ACES or hand & SPADES or hand
            else:
                m = hand
        else:
            led = trick[0]
            if r.erlangen and not self.tricks_done and led % 13 and hand >> (led - led % 13) & 1:
                m = 1 << (led - led % 13)  # HUU-12.4: the ace of the led suit
            else:  # HUU-7.3
                m = self.cfg.follow(hand, led, self.win_card, must_trump=True, must_beat=True)
        plays = mask_actions(m, PLAY_TABS)
        if self.window:
            plays = self._declaration_actions(seat, hand) + plays
        if r.erlangen and self.declarer >= 0 and self.calls < 9:
            nth = self.calls + 1  # HUU-12.9
            if hand.bit_count() >= 10 - nth:
                ours = self.sides[seat] == self.sides[self.declarer]
                if nth & 1 and not ours:
                    i = 0
                    while i < len(plays) and KIND[plays[i]] != K_PLAY:
                        i += 1
                    plays = (*plays[:i], KONTRA, *plays[i:])
                elif not nth & 1 and ours:
                    plays = (*plays, RE)
        return plays

    def _declaration_actions(self, seat: int, hand: int) -> tuple[Action, ...]:
        """HUU-8.3–8.5 (HUU-12.6): the attempts open to ``seat`` in its window (cached by
        the seat's kings and queens, the suits used and who is broken)."""
        partner = self.partner_of(seat)
        own_broken = self.broken >> seat & 1
        partner_state = -1 if partner < 0 else self.broken >> partner & 1
        erl = self.rules.erlangen
        key = (hand & KQ_MASK, self.used, own_broken, partner_state, erl)
        out = _DECLARATION_CACHE.get(key)
        if out is None:
            out = _DECLARATION_CACHE[key] = self._declarations(hand, own_broken, partner_state, erl)
        return out

    def _declarations(
        self, hand: int, own_broken: int, partner_state: int, erl: bool
    ) -> tuple[Action, ...]:
        asks: list[Action] = []
        declares: list[Action] = []
        partner = -1 if partner_state < 0 else 0
        for x in SUIT_ORDER_WORDS:
            if self.used >> x & 1:  # HUU-8.7
                continue
            k = hand >> KINGS[x] & 1
            q = hand >> QUEENS[x] & 1
            if k and q and not own_broken:
                declares.append(DECLARE[x])
            if partner >= 0 and ((k ^ q) or (erl and not (k and q))):
                asks.append(ASK_HALF[x])
        if partner_state == 0:
            asks.append(ASK_MARRIAGE)
        return (*asks, *declares)

    def _legal_answer(self) -> tuple[Action, ...]:
        partner = self.to_act
        assert partner is not None
        hand = self.hands[partner]
        x = self.ask_suit
        if x >= 0:  # HUU-8.5: yes iff it holds KX or QX
            return (ANSWER_YES,) if hand & PAIR[x] else (ANSWER_NO,)
        out = tuple(
            ANSWER_SUIT[y]
            for y in SUIT_ORDER_WORDS
            if not self.used >> y & 1 and hand & PAIR[y] == PAIR[y]
        )  # HUU-8.4
        return out or (ANSWER_NO,)

    # --- applying actions ----------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its text) for the seat to act; IllegalAction naming the
        rule, and nothing changed, when it is not legal now (the base contract, inlined for speed)."""
        legal = self._legal
        if legal is None or action.__class__ is not Action or action not in legal:
            action = self._checked(action, self.legal_actions())  # DealState's slow path
        seat = self.to_act
        assert seat is not None
        self._legal = None
        c = PLAY_CARD[action]
        if c < 0:
            self._apply(action)  # reads len(history) as this action's index
            self.history.append(action)
            self.actors.append(seat)
            return
        self.history.append(action)
        self.actors.append(seat)
        # --- play C (inlined ``_play``: the hot path) ---
        self.hands[seat] ^= 1 << c
        trick = self.trick
        before = len(trick)
        trick.append(c)
        if not before:  # the lead; no declaration can come before the trick's end
            self.window = False  # a window is only ever open to the leader (HUU-8.1)
            self.led_class = self.class_of[c]
            self.win_card = c
            self.win_seat = seat
        elif self.beats[self.win_card] >> c & 1:
            self.win_card = c
            self.win_seat = seat
        if before + 1 < self.num_seats:
            self.to_act = self.next_seat[seat]
        else:
            self._end_trick()

    def _apply(self, action: Action) -> None:
        kind = KIND[action]
        if kind == K_PLAY:
            self._play(ARG[action])
            return
        seat = self.to_act
        assert seat is not None
        if kind == K_BID:
            self.high = ARG[action]
            self.high_seat = seat
            self.acted |= 1 << seat
            self._after_bid(seat)
        elif kind == K_PASS:
            self.passed |= 1 << seat  # HUU-4.4
            self.acted |= 1 << seat
            self._after_bid(seat)
        elif kind == K_REDEAL:
            self.redeal_by = seat  # HUU-4.6, HUU-17.3
            self._finish()
        elif kind == K_GIVE:
            c = ARG[action]
            self.hands[seat] ^= 1 << c
            self.packet |= 1 << c
            self.given.append(c)
            if len(self.given) == self.rules.exchange:
                self.hands[self.declarer] |= self.packet
                self.packet = 0
                self._enter(P_CONTRACT)
                self.to_act = self.declarer
        elif kind == K_CONTRACT:
            self.contract = ARG[action]
            if self.rules.players == 3:
                self._start_play(self.declarer)  # HUU-13.2
            else:
                self._enter(P_RETURN)
        elif kind == K_RETURN:
            c = ARG[action]
            self.hands[seat] ^= 1 << c
            self.packet |= 1 << c
            self.returned.append(c)
            if len(self.returned) == self.rules.exchange:
                self.hands[self.partner] |= self.packet
                self.packet = 0
                self._start_play(self.declarer)  # HUU-7.1
        elif kind == K_DISCARD:
            c = ARG[action]
            self.hands[seat] ^= 1 << c
            self.discards.append(c)
            if len(self.discards) == 3:
                self._enter(P_CONTRACT)
        elif kind == K_DECLARE:
            self.window = False  # HUU-8.2
            self._make_trump(seat, ARG[action])
        elif kind in (K_ASK_MARRIAGE, K_ASK_HALF):
            self.window = False  # HUU-8.2, HUU-8.10
            self.asker = seat
            self.ask_suit = ARG[action] if kind == K_ASK_HALF else -1
            self._enter(P_ANSWER)
            self.to_act = self.partner_of(seat)
        elif kind == K_ANSWER_SUIT:
            asker = self.asker
            self._make_trump(asker, ARG[action])
            self.broken |= 1 << asker  # HUU-8.4, HUU-8.6
            self._back_to_asker()
        elif kind == K_ANSWER_YES:
            asker = self.asker
            x = self.ask_suit
            if self.hands[asker] & PAIR[x]:  # HUU-8.5 (an Erlangen bluff makes nothing, HUU-12.6)
                self._make_trump(asker, x)
                self.broken |= (1 << asker) | (1 << seat)
            self._back_to_asker()
        elif kind == K_ANSWER_NO:
            self._back_to_asker()
        elif kind in (K_KONTRA, K_RE):
            self.calls += 1  # HUU-12.9

    def _back_to_asker(self) -> None:
        self._enter(P_PLAY)
        self.to_act = self.asker
        self.asker = -1
        self.ask_suit = -1

    def _make_trump(self, seat: int, x: int) -> None:
        """HUU-8.7–8.9: ``x`` becomes trump; its marriage value goes to ``seat``'s side."""
        self.trump = x
        self.used |= 1 << x
        self.cfg = cfg = CONFIGS[x]
        self.class_of = cfg.class_of
        self.beats = cfg.beats
        self.trumps = cfg.trumps
        self.marriages[self.sides[seat]] += self.rules.marriage_values[x]
        self.declarations.append((seat, x, len(self.history)))

    def _after_bid(self, seat: int) -> None:
        n = self.num_seats
        npassed = self.passed.bit_count()
        if npassed == n:  # HUU-12.2: all passed (Erlangen only)
            self._start_play((self.dealer + 1) % n)
        elif npassed == n - 1 and self.high_seat >= 0:  # HUU-4.5
            d = self.declarer = self.high_seat
            self.bid = self.high
            if n == 3:  # HUU-6.1: the declarer takes the widow
                for c in self.widow:
                    self.hands[d] |= 1 << c
                self._enter(P_DISCARD)
                self.to_act = d
            else:
                self.partner = (d + 2) & 3
                self._enter(P_GIVE)
                self.to_act = self.partner
        else:
            s = (seat + 1) % n
            while self.passed >> s & 1:
                s = (s + 1) % n
            self.to_act = s

    def _enter(self, ph: int) -> None:
        """Enter phase ``ph`` (a ``P_…`` code): the code that the state tests and the public
        text ``phase`` (HUU-16.2), always set together."""
        self.ph = ph
        self.phase = PHASES[ph]

    def _start_play(self, leader: int) -> None:
        self._enter(P_PLAY)
        self.to_act = leader
        self.leader = leader

    def _play(self, c: int) -> None:
        """``play c`` for the seat to act (the same steps as the inlined path of ``apply``)."""
        seat: int = self.to_act  # type: ignore[assignment]
        self.hands[seat] ^= 1 << c
        self.window = False
        trick = self.trick
        trick.append(c)
        if len(trick) == 1:
            self.led_class = self.class_of[c]
            self.win_card = c
            self.win_seat = seat
        elif self.beats[self.win_card] >> c & 1:
            self.win_card = c
            self.win_seat = seat
        if len(trick) < self.num_seats:
            self.to_act = self.next_seat[seat]
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        """Score a complete trick; the winner leads next, with its window (HUU-7.5, HUU-8.1)."""
        r = self.rules
        w = self.win_seat
        side = self.sides[w]
        self.tricks[side] += 1
        total = sum(map(r.card_points.__getitem__, self.trick))  # once, at the trick's close
        self.trick = []
        done = self.tricks_done = self.tricks_done + 1
        if done == r.tricks:
            self.points[side] += total + r.last_trick  # HUU-1.4
            self.last_winner = w
            self._finish()
            return
        self.points[side] += total
        # HUU-7.5: the winner leads; HUU-8.1 (HUU-12.5): its declaration window.
        self.window = r.erlangen or self.leader == w
        self.leader = w
        self.to_act = w

    def _finish(self) -> None:
        self.to_act = None
        self.is_over = True
        self._enter(P_OVER)

    # --- results ----------------------------------------------------------------------------
    def result(self) -> dict[str, JSON]:
        """The result object of HUU-9.5 (ValueError while the deal goes on)."""
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        if self._result is None:
            self._result = self._score()
        return _copy_result(self._result)

    def _score(self) -> dict[str, JSON]:
        r = self.rules
        k = len(self.tricks)
        if self.redeal_by >= 0:  # HUU-9.5 after a redeal
            return {
                "score": [0] * k,
                "redeal": True,
                "redeal_by": self.redeal_by,
                "declarer": None,
                "bid": None,
                "contract": None,
                "made": None,
                "tricks": [0] * k,
                "points": [0] * k,
                "marriages": [0] * k,
                "trumps": [],
                "calls": 0,
                "no_tricks": [],
            }
        points = list(self.points)
        tricks = self.tricks
        marr = self.marriages
        no_tricks = [t for t in range(k) if not tricks[t]]
        total = [points[t] + marr[t] for t in range(k)]
        score = [0] * k
        made: bool | None = None
        d = self.declarer
        if d < 0:  # HUU-12.2: Erlangen all-pass, every team its rounded total
            score = [round5(t) for t in total]
        elif r.players == 3:  # HUU-13.4
            points[d] += sum(r.card_points[c] for c in self.discards)  # HUU-6.2
            total[d] = points[d] + marr[d]
            made = total[d] >= self.contract
            for s in range(3):
                if s == d:
                    score[s] = self.contract if made else -self.contract
                elif not tricks[s]:
                    score[s] = -self.bid if made else 0
                else:
                    score[s] = total[s]
        else:
            ds = self.sides[d]
            os = 1 - ds
            made = total[ds] >= self.contract  # HUU-9.2
            c = self.contract
            if r.erlangen:
                calls = self.calls
                if not tricks[ds]:  # HUU-12.8
                    score[ds] = -2 * c
                elif made:
                    score[ds] = c << calls  # HUU-12.9
                else:
                    kk = calls - 1 if (not tricks[os] and calls >= 1) else calls
                    score[ds] = -(c << kk)
                if not tricks[os]:
                    score[os] = -2 * c if made else 0
                else:
                    score[os] = round5(total[os])  # HUU-12.7
            else:
                score[ds] = c if made else -c
                score[os] = total[os]  # HUU-9.3
                if r.porvoo:  # HUU-11.4
                    for t in no_tricks:
                        score[t] = -c
                elif not tricks[os]:  # HUU-9.4 läpäri
                    score[os] = -self.bid
        return {
            "score": score,
            "redeal": False,
            "redeal_by": None,
            "declarer": d if d >= 0 else None,
            "bid": self.bid if d >= 0 else None,
            "contract": self.contract if d >= 0 else None,
            "made": made,
            "tricks": list(tricks),
            "points": points,
            "marriages": list(marr),
            "trumps": [SUITS[x] for _, x, _ in self.declarations],
            "calls": self.calls,
            "no_tricks": no_tricks,
        }

    # --- information --------------------------------------------------------------------------
    def visible_text(self, index: int, seat: int) -> str:
        """HUU-14: the text of history entry ``index`` as ``seat`` saw it (``give ?``…);
        ``seat`` may be :data:`SPECTATOR`, who sees no hidden card."""
        a = self.history[index]
        kind = KIND[a]
        if kind == K_GIVE:  # HUU-14.3: the card is seen by the giver and the declarer
            return a.text if seat >= 0 and seat in (self.declarer, self.actors[index]) else "give ?"
        if kind == K_RETURN:  # HUU-14.4: by the declarer and its partner
            return a.text if seat >= 0 and seat in (self.declarer, self.partner) else "return ?"
        if kind == K_DISCARD:  # HUU-14.6: by the declarer only
            return a.text if seat >= 0 and seat == self.declarer else "discard ?"
        return a.text

    def visible_history(self, viewer: int) -> tuple[str, ...]:
        """Every history entry as ``viewer`` saw it (:meth:`visible_text` of each).

        Only steps before the first card is played can hide a card (gives, returns,
        discards: HUU-5, HUU-6), so from the first ``play`` on the texts are copied as
        they are. A test compares it with :meth:`visible_text` entry by entry."""
        history = self.history
        n = len(history)
        i = 0
        out: list[str] = []
        while i < n:
            a = history[i]
            kind = KIND[a]
            if kind == K_PLAY:
                out += map(_TEXT, history[i:])
                break
            out.append(self.visible_text(i, viewer) if kind in _HIDES_CARD else a.text)
            i += 1
        return tuple(out)

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know (HUU-14); ``info`` is documented in the package.
        ``seat`` :data:`SPECTATOR` gives :meth:`public_observation`."""
        if seat == SPECTATOR:
            return self._observe(SPECTATOR)
        if not 0 <= seat < self.num_seats:
            raise ValueError(f"seat {seat!r} is not a seat of this deal (0–{self.num_seats - 1})")
        return self._observe(seat)

    def public_observation(self) -> Observation:
        """What a spectator may know (HUU-14): every public action and fact, no hand, no legal
        actions, every exchanged or discarded card hidden (``give ?``, ``return ?``,
        ``discard ?``, HUU-14.3, 14.4, 14.6) and the private ``info`` keys ``given``,
        ``returned`` and ``discards`` null, as for a seat that took no part in them."""
        return self._observe(SPECTATOR)

    def _observe(self, viewer: int) -> Observation:
        """The observation of seat ``viewer``, or of a spectator (``viewer`` = SPECTATOR, who
        holds no hand and took no part in the exchange or the discard)."""
        n = self.num_seats
        d = self.declarer
        seated = viewer >= 0
        # HUU-14.3, 14.4: the exchanged cards (declarer and partner; with 3 players the
        # declarer sees the empty lists); HUU-14.6: the discards (the declarer only)
        knows_given = seated and d >= 0 and viewer in (d, self.partner)
        knows_discards = seated and n == 3 and viewer == d
        info: dict[str, Any] = {
            "players": n,
            "banned": [s for s in range(n) if self.banned >> s & 1],
            "high_bid": self.high or None,
            "high_bidder": self.high_seat if self.high_seat >= 0 else None,
            "passed": [s for s in range(n) if self.passed >> s & 1],
            "declarer": d if d >= 0 else None,
            "bid": self.bid or None,
            "contract": self.contract or None,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "given": [CARD_NAMES[c] for c in self.given] if knows_given else None,
            "given_count": len(self.given),
            "returned": [CARD_NAMES[c] for c in self.returned] if knows_given else None,
            "returned_count": len(self.returned),
            "widow": [CARD_NAMES[c] for c in self.widow] if n == 3 and d >= 0 else None,
            "discards": [CARD_NAMES[c] for c in self.discards] if knows_discards else None,
            "discard_count": len(self.discards),
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "declarations": [
                {"seat": s, "suit": SUITS[x], "at": i} for s, x, i in self.declarations
            ],
            "broken": [s for s in range(n) if self.broken >> s & 1],
            "leader": self.leader if self.leader >= 0 else None,
            "trick": [CARD_NAMES[c] for c in self.trick],
            "tricks_played": self.tricks_done,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "marriages": list(self.marriages),
            "window": self.window,
            "asker": self.asker if self.asker >= 0 else None,
            "ask": (
                None
                if self.asker < 0
                else ("marriage" if self.ask_suit < 0 else f"half {SUITS[self.ask_suit]}")
            ),
            "calls": self.calls,
        }
        over = self.to_act is None
        return Observation(
            game=self.game.name,
            variant=dict(self.variant),
            seat=viewer,
            num_seats=n,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=self.hands[viewer] if seated else 0,
            legal=self.legal_actions() if seated and viewer == self.to_act else (),
            history=self.visible_history(viewer),
            actors=tuple(self.actors),
            info=info,
            carry={"totals": list(self.totals)},
            result=self.result() if over else None,
        )

    # --- copies and records -----------------------------------------------------------------
    def clone(self) -> HuutopussiState:
        """An independent copy: every mutable field is copied; the set-up tuples, the rules
        and the trick tables (never changed) are shared."""
        new = object.__new__(HuutopussiState)
        # every slot, in the order of ``__slots__`` (one unpacking: twice as fast as setattr
        # in a loop; a test checks that each slot is copied)
        (
            new._legal,
            new._result,
            new.acted,
            new.actors,
            new.ask_suit,
            new.asker,
            new.banned,
            new.beats,
            new.bid,
            new.broken,
            new.calls,
            new.cfg,
            new.class_of,
            new.contract,
            new.dealer,
            new.deck,
            new.declarations,
            new.declarer,
            new.discards,
            new.erlangen,
            new.game,
            new.given,
            new.hands,
            new.hands_rec,
            new.high,
            new.high_seat,
            new.history,
            new.is_over,
            new.last_winner,
            new.leader,
            new.led_class,
            new.marriages,
            new.next_seat,
            new.num_seats,
            new.packet,
            new.partner,
            new.passed,
            new.ph,
            new.phase,
            new.points,
            new.redeal_by,
            new.returned,
            new.rules,
            new.sides,
            new.to_act,
            new.totals,
            new.trick,
            new.tricks,
            new.tricks_done,
            new.trump,
            new.trumps,
            new.used,
            new.variant,
            new.widow,
            new.win_card,
            new.win_seat,
            new.window,
        ) = _get_slots(self)
        new.variant = dict(self.variant)
        new.history = list(self.history)
        new.actors = list(self.actors)
        new.hands = list(self.hands)
        new.trick = list(self.trick)
        new.given = list(self.given)
        new.returned = list(self.returned)
        new.discards = list(self.discards)
        new.tricks = list(self.tricks)
        new.points = list(self.points)
        new.marriages = list(self.marriages)
        new.declarations = list(self.declarations)
        new._result = None if self._result is None else _copy_result(self._result)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """For ``pickle``: the deal's own data, without the tables derived from the variant and
        the trump (rebuilt by ``__setstate__``, so an unpickled state shares them again)."""
        return {k: v for k, v in zip(_SLOTS, _get_slots(self), strict=True) if k not in _DERIVED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        r = self.rules = rules_of(self.variant)
        self.erlangen = r.erlangen
        self.next_seat = r.next_seat
        self.sides = r.sides
        cfg = self.cfg = CONFIGS[self.trump if self.trump >= 0 else NO_TRUMP]
        self.class_of = cfg.class_of
        self.beats = cfg.beats
        self.trumps = cfg.trumps
        self.phase = PHASES[self.ph]
        actions = TABLE.actions
        self.history = [actions[a] for a in self.history]  # the canonical Action objects
        self._legal = None

    def setup_record(self) -> dict[str, JSON]:
        """``dealer``, then ``deck`` or ``hands`` (+ ``extra.widow``), and ``totals`` if not 0."""
        rec: dict[str, JSON] = {"dealer": self.dealer}
        if self.deck is not None:
            rec["deck"] = [CARD_NAMES[c] for c in self.deck]
        else:
            assert self.hands_rec is not None
            rec["hands"] = [[CARD_NAMES[c] for c in h] for h in self.hands_rec]
            if self.num_seats == 3:
                rec["extra"] = {"widow": [CARD_NAMES[c] for c in self.widow]}
        if any(self.totals):
            rec["totals"] = list(self.totals)
        return rec

    # --- events -----------------------------------------------------------------------------
    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up,
        hidden as HUU-14 hides them: a given card is seen by its giver and the declarer,
        a returned card by the declarer and its partner, a discard by the declarer."""
        return narrate(self)

    # --- explanations -----------------------------------------------------------------------
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, citing the rule (HUU-17.2)."""
        return explain(self, action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        return explain(self, action)


_PHASE_ACTIONS: dict[int, list[str]] = {
    P_BIDDING: ["bid N", "pass", "redeal"],
    P_GIVE: ["give C"],
    P_CONTRACT: ["contract N"],
    P_RETURN: ["return C"],
    P_DISCARD: ["discard C"],
    P_ANSWER: ["answer X", "answer no", "answer yes"],
    P_PLAY: ["play C", "declare X", "ask marriage", "ask half X", "kontra", "re"],
}
"""The action forms of each phase (HUU-16.1), named by a wrong-phase explanation."""


def explain(st: HuutopussiState, action: Action) -> Explanation:
    """A one-line reason, naming the rule, why ``action`` is illegal in ``st``."""
    text = action.text
    kind = KIND[action]
    ph = st.ph
    seat = st.to_act
    r = st.rules
    if seat is None:
        return explained("deal_over", "the deal is over: no action is allowed (HUU-17.2)")
    wanted = {
        P_BIDDING: (K_BID, K_PASS, K_REDEAL),
        P_GIVE: (K_GIVE,),
        P_CONTRACT: (K_CONTRACT,),
        P_RETURN: (K_RETURN,),
        P_DISCARD: (K_DISCARD,),
        P_ANSWER: (K_ANSWER_SUIT, K_ANSWER_NO, K_ANSWER_YES),
        P_PLAY: (K_PLAY, K_DECLARE, K_ASK_HALF, K_ASK_MARRIAGE, K_KONTRA, K_RE),
    }[ph]
    if kind not in wanted:
        return explained(
            "wrong_phase",
            f"{text!r} is not an action of phase {PHASES[ph]} (seat {seat} to act) (HUU-16.2)",
            action=text,
            phase=PHASES[ph],
            seat=seat,
            expected=_PHASE_ACTIONS[ph],
        )
    hand = st.hands[seat]
    arg = ARG[action]
    if kind in (K_GIVE, K_RETURN, K_DISCARD) or (kind == K_PLAY and not hand >> arg & 1):
        rule = {K_GIVE: "HUU-5.1", K_RETURN: "HUU-5.3", K_DISCARD: "HUU-6.2", K_PLAY: "HUU-7.3"}[
            kind
        ]
        return explained(
            "not_held",
            f"{text!r}: seat {seat} does not hold {CARD_NAMES[arg]} ({rule})",
            seat=seat,
            card=CARD_NAMES[arg],
        )
    if ph == P_BIDDING:
        if kind == K_REDEAL:
            if st.acted >> seat & 1:
                return explained(
                    "redeal_first_turn",
                    "a redeal may be asked only at a seat's first bidding turn (HUU-4.6)",
                )
            return explained(
                "redeal_needs_weak_hand",
                "a redeal needs three sixes or no card above a jack (HUU-4.6)",
            )
        compulsory = not st.history and not r.erlangen
        if kind == K_PASS:
            return explained(
                "must_open",
                f"eldest must open the bidding, {text!r} is not allowed (HUU-4.3)",
                action=text,
            )
        if st.banned >> seat & 1:
            if compulsory:
                return explained(
                    "banned_compulsory",
                    "huutokielto: this seat's only bid is the compulsory bid 50 (HUU-4.7)",
                    bid=50,
                )
            return explained(
                "banned",
                f"huutokielto: seat {seat}'s side is at −500 or below and may not bid (HUU-4.7)",
                seat=seat,
                limit=-500,
            )
        if arg > r.max_bid:
            return explained(
                "bid_too_high",
                f"{text!r}: the highest bid is {r.max_bid} (HUU-1.6, HUU-4.2)",
                bid=arg,
                maximum=r.max_bid,
            )
        lowest = max(r.min_bid, st.high + 5)
        return explained(
            "bid_too_low",
            f"{text!r}: a bid must be at least {lowest} (HUU-4.2"
            + (", HUU-12.2)" if r.erlangen else ")"),
            bid=arg,
            minimum=lowest,
        )
    if ph == P_CONTRACT:
        return explained(
            "contract_range",
            f"{text!r}: the contract must be from {st.bid} to {r.max_bid} (HUU-5.2)",
            contract=arg,
            minimum=st.bid,
            maximum=r.max_bid,
        )
    if ph == P_ANSWER:
        legal = st.legal_texts()
        return explained(
            "untruthful_answer",
            f"{text!r} is not the truthful answer; the only legal: {', '.join(legal)} (HUU-8.4, HUU-8.5)",
            action=text,
            legal=legal,
        )
    # phase play
    if kind == K_PLAY:
        if r.erlangen and not st.tricks_done:
            return explained(
                "first_trick_ace",
                f"{text!r}: trick 1 must be led with an ace, else a spade; an ace of the led suit must be played (HUU-12.4)",
                action=text,
            )
        if st.trick:
            led = st.trick[0]
            if hand & SUIT_MASK[led // 13]:
                return explained(
                    "must_follow_and_beat",
                    f"{text!r}: seat {seat} must follow suit and beat the highest card if it can (HUU-7.3)",
                    seat=seat,
                    suit=SUITS[led // 13],
                )
            return explained(
                "must_trump_and_beat",
                f"{text!r}: seat {seat} must trump, and beat the highest trump if it can (HUU-7.3)",
                seat=seat,
            )
        return explained("not_legal_now", f"{text!r} is not legal now (HUU-7.3)", action=text)
    if kind in (K_KONTRA, K_RE):
        return explained(
            "bad_call",
            f"{text!r}: calls alternate kontra then re, need enough cards, Erlangen only (HUU-12.9)",
            action=text,
        )
    if not st.window:
        return explained(
            "no_window",
            f"{text!r}: no declaration window: it opens after winning a trick one led (HUU-8.1, HUU-8.2)",
            action=text,
        )
    if kind == K_DECLARE:
        return explained(
            "cannot_declare",
            f"{text!r}: needs KX and QX in hand, a suit not yet trump and unbroken marriages (HUU-8.3, HUU-8.6, HUU-8.7)",
            action=text,
            suit=SUITS[arg],
        )
    if kind == K_ASK_MARRIAGE:
        return explained(
            "cannot_ask_marriage",
            f"{text!r}: needs a partner whose marriages are not broken (HUU-8.4, HUU-8.6)",
            action=text,
        )
    return explained(
        "cannot_ask_half",
        f"{text!r}: needs exactly one of KX, QX and a suit not yet trump (HUU-8.5, HUU-8.7)",
        action=text,
        suit=SUITS[arg],
    )


def narrate(final: HuutopussiState) -> list[Told]:
    """The events of ``final``'s deal so far (see ``HuutopussiState._narrate``)."""
    st = final.fresh()
    assert isinstance(st, HuutopussiState)
    r = st.rules
    out = [public("deal", dealer=st.dealer)]
    for action, seat in zip(final.history, final.actors, strict=True):
        kind, arg = KIND[action], ARG[action]
        ph = st.ph
        declarer = st.declarer
        trick, leader, done = list(st.trick), st.leader, st.tricks_done
        made = len(st.declarations)
        st.apply(action)
        if kind == K_PLAY:
            out.append(public("play", seat=seat, card=CARD_NAMES[arg]))
            if st.tricks_done > done:  # HUU-7.4, HUU-7.5
                cards = [*trick, arg]
                w = st.win_seat
                last = st.tricks_done == r.tricks
                out.append(
                    public(
                        "trick",
                        number=st.tricks_done,
                        leader=leader,
                        cards=[CARD_NAMES[c] for c in cards],
                        winner=w,
                        side=st.sides[w],
                        points=sum(r.card_points[c] for c in cards),
                        bonus=r.last_trick if last else 0,  # HUU-1.4
                    )
                )
        elif kind in (K_BID, K_PASS):  # HUU-4
            out.append(
                public(
                    "bid",
                    seat=seat,
                    action=action.text.split()[0],
                    value=arg if kind == K_BID else None,
                )
            )
        elif kind == K_GIVE:  # HUU-5.1, HUU-14.3
            out.append(
                private(
                    "pass_cards",
                    (seat, st.declarer),
                    {"cards": None},
                    **{"from": seat, "to": st.declarer},
                    count=1,
                    cards=[CARD_NAMES[arg]],
                )
            )
        elif kind == K_RETURN:  # HUU-5.3, HUU-14.4
            out.append(
                private(
                    "pass_cards",
                    (seat, st.partner),
                    {"cards": None},
                    **{"from": seat, "to": st.partner},
                    count=1,
                    cards=[CARD_NAMES[arg]],
                )
            )
        elif kind == K_DISCARD:  # HUU-6.2, HUU-14.6
            out.append(
                private(
                    "pass_cards",
                    (seat,),
                    {"cards": None},
                    **{"from": seat, "to": "discards"},
                    count=1,
                    cards=[CARD_NAMES[arg]],
                )
            )
        elif kind == K_CONTRACT:  # HUU-5.2, HUU-6.3
            out.append(public("contract", declarer=seat, bid=st.bid, contract=arg))
        elif kind in (K_ASK_MARRIAGE, K_ASK_HALF):  # HUU-8.4, HUU-8.5
            out.append(
                public(
                    "ask",
                    seat=seat,
                    ask="marriage" if kind == K_ASK_MARRIAGE else "half",
                    suit=SUITS[arg] if kind == K_ASK_HALF else None,
                )
            )
        elif kind in (K_ANSWER_SUIT, K_ANSWER_NO, K_ANSWER_YES):
            out.append(public("answer", seat=seat, answer=action.text.split()[1]))
        elif kind != K_DECLARE:  # redeal, kontra, re (HUU-4.6, HUU-12.9)
            out.append(public("call", seat=seat, call=action.text))
        if len(st.declarations) > made:  # HUU-8.7 – HUU-8.9: a trump is made
            credited, x, _ = st.declarations[-1]
            how = {K_DECLARE: "declare", K_ANSWER_SUIT: "marriage", K_ANSWER_YES: "half"}[kind]
            out.append(
                public("trump", seat=credited, suit=SUITS[x], how=how, value=r.marriage_values[x])
            )
        if ph == P_BIDDING and st.ph != P_BIDDING and st.redeal_by < 0:  # HUU-4.5, HUU-12.2
            if st.declarer >= 0 and declarer < 0:
                out.append(public("contract", declarer=st.declarer, bid=st.bid))
                if st.num_seats == 3:  # HUU-6.1: the widow, shown to all
                    out.append(
                        public(
                            "pass_cards",
                            **{"from": "widow", "to": st.declarer},
                            count=3,
                            cards=[CARD_NAMES[c] for c in st.widow],
                        )
                    )
            else:
                out.append(public("contract", mode="all_pass"))
    if st.to_act is None:
        out.append(public("deal_end", **_deal_end(st)))
    return out


def _deal_end(st: HuutopussiState) -> dict[str, JSON]:
    """The result with each side's score by the rule that gave it (HUU-9, HUU-12, HUU-13)."""
    res = st.result()
    r = st.rules
    score = res["score"]
    k = len(score)
    if res["redeal"]:  # HUU-4.6
        return {
            "result": res,
            "score": list(score),
            "outcome": "redeal",
            "reason": None,
            "components": [component("redeal", list(score), seat=res["redeal_by"], rule="HUU-4.6")],
            "points_from": None,
        }
    points, marr, tricks = res["points"], res["marriages"], res["tricks"]
    total = [points[t] + marr[t] for t in range(k)]
    parts = []
    d = res["declarer"]
    why = None
    if d is None:  # HUU-12.2: no contract, each team its rounded total
        outcome = "no_contract"
        for t in range(k):
            parts.append(
                component(
                    "rounded_total", only(t, score[t], k), side=t, total=total[t], rule="HUU-12.2"
                )
            )
    else:
        ds = st.sides[d]
        made = bool(res["made"])
        outcome = "made" if made else "failed"
        c = res["contract"]
        who = "declarer" if k == 3 else "declarers"
        why = reason(
            who,
            ds,
            "total",
            total[ds],
            ">=" if made else "<",
            c,
            "HUU-13.4" if k == 3 else "HUU-9.2",
        )
        for t in range(k):
            if t == ds:
                if r.erlangen and not tricks[t]:
                    name, rule = "porvoo", "HUU-12.8"
                elif r.porvoo and not tricks[t]:
                    name, rule = "porvoo", "HUU-11.4"
                else:
                    name = "contract_made" if made else "contract_failed"
                    rule = "HUU-12.9" if r.erlangen else "HUU-13.4" if k == 3 else "HUU-9.2"
                extra = {"calls": res["calls"]} if r.erlangen else {}
                parts.append(
                    component(name, only(t, score[t], k), side=t, contract=c, **extra, rule=rule)
                )
            elif not tricks[t]:
                rule = (
                    "HUU-13.4"
                    if k == 3
                    else "HUU-12.8"
                    if r.erlangen
                    else "HUU-11.4"
                    if r.porvoo
                    else "HUU-9.4"
                )
                name = "porvoo" if (k == 3 or r.erlangen or r.porvoo) else "lapari"
                parts.append(
                    component(name, only(t, score[t], k), side=t, bid=res["bid"], rule=rule)
                )
            else:
                name, rule = ("rounded_total", "HUU-12.7") if r.erlangen else ("total", "HUU-9.3")
                parts.append(
                    component(name, only(t, score[t], k), side=t, total=total[t], rule=rule)
                )
    from_tricks, bonus = [0] * k, [0] * k
    if st.last_winner >= 0:
        bonus[st.sides[st.last_winner]] = r.last_trick
    for t in range(k):
        from_tricks[t] = points[t] - bonus[t]
    discards = [0] * k
    if k == 3 and d is not None:  # HUU-6.2: the discards count for the declarer
        discards[d] = sum(r.card_points[c] for c in st.discards)
        from_tricks[d] -= discards[d]
    points_from: dict[str, JSON] = {"tricks": from_tricks, "last_trick": bonus}
    if k == 3:
        points_from["discards"] = discards
    return {
        "result": res,
        "score": list(score),
        "outcome": outcome,
        "reason": why,
        "components": parts,
        "points_from": points_from,
    }


def _copy_result(res: dict[str, JSON]) -> dict[str, JSON]:
    """A copy of a result whose lists are new lists too (the caller may change them)."""
    return {k: list(v) if type(v) is list else v for k, v in res.items()}


_SLOTS: tuple[str, ...] = HuutopussiState.__slots__
_get_slots = attrgetter(*_SLOTS)
_DERIVED = frozenset(
    ("rules", "erlangen", "next_seat", "sides", "cfg", "class_of", "beats", "trumps", "_legal")
)
"""Slots that ``__setstate__`` rebuilds from the variant and the trump instead of unpickling."""
