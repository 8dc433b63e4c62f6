"""One Sasku deal as a state machine: its phases in the order of ``rules/sasku.md``.

``cut`` (SAS-6) → ``exchange`` (SAS-7) → ``auction`` (SAS-8) → ``declare`` and ``override``
(SAS-9) → ``play`` (SAS-10, SAS-11) → ``over`` (SAS-12); a replay deal after 60–60 goes
from the exchange straight to play (SAS-15.2). ``legal_actions`` and ``apply`` keep the
engine's deal-state contract (``docs/engine.md`` §1) with the play phase inline — about
nine actions in ten of a deal — and the other phases in ``_generate_legal``/``_apply``.
Scoring, views, events and explanations live in their own modules and are reached through
the methods at the end of the class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from folkcards.cards import BIT, CARD_NAMES, SUITS, Card, CardSet, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.api import JSON, SPECTATOR, DealState, IllegalAction, Observation, Variant
from folkcards.engine.events import Told
from folkcards.engine.explain import Explanation, explained
from folkcards.engine.tricks import TrumpConfig

from . import explain as _explain
from . import observe as _observe
from . import scoring as _scoring
from .actions import (
    ACTIONS,
    ARG,
    DEAL_ACTIONS,
    GIVE,
    K_BID,
    K_DIAMONDS,
    K_GIVE,
    K_RETURN,
    KEEP,
    KIND,
    RETURN,
    TRUMP_IN_ORDER,
)
from .fast import (
    AUCTION_LEGAL,
    BIT_OF,
    CARD_OF_PLAY,
    DEAL_GETTERS,
    OVERRIDE_LEGAL,
    PLAY_C,
    PLAY_D,
    PLAY_H,
    PLAY_S,
    PLAYS_SEEN,
    PLAYS_SEEN_LIMIT,
    play_actions,
)
from .rules import (
    AUCTION,
    CARD_POINTS,
    CUT,
    DEAL_METHODS,
    DEAL_SLOTS,
    DECLARE,
    DIAMONDS_SUIT,
    EXCHANGE,
    OVER,
    OVERRIDE,
    PHASES,
    PICTURES,
    PLAY_PHASE,
    SUIT_CARDS,
    TRUMP_CONFIGS,
    hand_length,
    potential_trumps,
    rules_of,
)

if TYPE_CHECKING:
    from .game import SaskuGame

_PLAYS_SEEN: dict[CardSet, tuple[Action, ...]] = PLAYS_SEEN.alias(globals(), "_PLAYS_SEEN")
"""The play memo's table (:data:`.fast.PLAYS_SEEN`) under a module name of its own: the hot
path indexes the dict itself (``Memo.alias`` rebinds the name when hits are counted)."""


class SaskuState(DealState):
    """One Sasku deal. ``apply`` works in place; ``clone`` copies.

    Public attributes in the game's words: ``cutter``, ``eldest``, ``hands`` (bitmask per
    seat), ``trump`` (suit number or -1), ``declarer``, ``high_bid``/``high_bidder``,
    ``points``/``tricks`` per team, ``trick`` (cards of the current trick, from ``leader``),
    ``rules`` (the variant's :class:`~.rules.SaskuRules`).
    """

    game: SaskuGame

    # Slots: fixed-offset attribute access on the hot path (a deal has ~45 attributes,
    # more than CPython's shared instance dictionaries keep fast).
    __slots__ = (  # noqa: RUF023 - grouped by phase, not sorted
        "game", "variant", "rules", "must_beat", "dealer", "num_seats", "eldest", "cutter",
        "history", "actors", "_legal", "phase", "to_act", "is_over",
        "deck", "dealt_hands", "replay", "method", "face_up", "hands",
        "exchange_offset", "team_exchanged", "pending_giver", "exchanges",
        "high_bid", "high_bidder", "passed_mask", "override_offset",
        "trump", "declarer", "passed_deal",
        "config", "beats", "class_of", "trumps", "led_class",
        "leader", "trick", "winning", "winner_seat",
        "points", "tricks", "tricks_played", "completed", "_result",
    )  # fmt: skip

    def __init__(
        self,
        game: SaskuGame,
        variant: Variant,
        dealer: int,
        deck: list[Card] | None,
        hands: list[list[Card]] | None,
        replay: dict[str, Any] | None,
    ) -> None:
        self.game = game
        self.variant = variant
        self.rules = rules_of(variant)
        self.must_beat: bool = self.rules.must_beat
        self.dealer = dealer
        self.num_seats = 4
        self.eldest = (dealer + 1) & 3  # SAS-5.3
        self.cutter = (dealer + 3) & 3
        self.history = []
        self.actors = []
        self._legal = None
        self.phase = CUT  # SAS-6.2
        self.to_act = self.cutter
        self.is_over: bool = False  # an attribute, not a property: read at every step
        self.deck = deck
        self.dealt_hands = hands
        self.replay = replay
        self.method: str | None = None  # dealing method once the cutter has chosen
        self.face_up: Sequence[Card] = ()  # deck[0..k] of ``deal to X`` (SAS-6.4)
        self.hands: list[CardSet] = [0, 0, 0, 0]
        # exchange (SAS-7)
        self.exchange_offset = 0  # seats considered so far (SAS-7.2)
        self.team_exchanged = [False, False]
        self.pending_giver = -1  # seat waiting for its partner's return (SAS-7.4)
        self.exchanges: list[list[int]] = []  # [giver, picture, returner, returned or -1]
        # auction, declaration, override (SAS-8, SAS-9)
        self.high_bid = 0  # 0 = no bid yet
        self.high_bidder = -1
        self.passed_mask = 0  # bit s: seat s passed (SAS-8.5)
        self.override_offset = 0  # seats asked so far (SAS-9.3)
        self.trump = -1  # suit number once fixed
        self.declarer: int | None = None
        self.passed_deal = False
        # play (SAS-10, SAS-11): the trump's TrumpConfig and its tables, bound at play
        self.config: TrumpConfig | None = None
        self.beats: tuple[CardSet, ...] = ()
        self.class_of: tuple[CardSet, ...] = ()
        self.trumps: CardSet = 0
        self.led_class: CardSet = 0  # class of the card led to this trick (SAS-2.4)
        self.leader = -1
        self.trick: list[Card] = []
        self.winning = -1  # the card now winning the trick (SAS-10.3's W)
        self.winner_seat = -1
        self.points = [0, 0]
        self.tricks = [0, 0]
        self.tricks_played = 0
        self.completed: list[tuple[int, tuple[Card, ...], int]] = []  # (leader, cards, winner)
        self._result: dict[str, JSON] | None = None
        if replay is not None:
            self._set_replay(replay)
        if hands is not None:
            self._deal_hands(hands)

    @classmethod
    def from_dealt(
        cls,
        game: SaskuGame,
        variant: Variant,
        dealer: int,
        dealt: Sequence[CardSet],
        replay: dict[str, Any] | None,
    ) -> SaskuState:
        """A deal at the exchange with the hands ``dealt`` (card masks per seat), as a
        record with hands starts (SAS-6.6) but with no record of its own (``deck`` and
        ``dealt_hands`` are None): for checking decisions before card play on a sampled
        deal (the determinizer's :func:`~.determinize.determinize_hands`) without laying
        its cards out as a record would."""
        state = cls(game, variant, dealer, None, None, replay)
        state.hands = list(dealt)
        state._start_exchange()
        return state

    def _set_replay(self, replay: dict[str, Any]) -> None:
        """SAS-15.1, SAS-15.2: a replay deal keeps the tied deal's trump and declarer."""
        self.trump = SUITS.index(replay["trump"])
        self.declarer = replay["declarer"]
        self.passed_deal = replay["declarer"] is None

    def _deal_hands(self, hands: list[list[Card]]) -> None:
        """SAS-6.6: a record with hands starts at the exchange."""
        for seat, cards in enumerate(hands):
            m = 0
            for c in cards:
                m |= BIT[c]
            self.hands[seat] = m
        self._start_exchange()

    # --- the hot path ------------------------------------------------------------------
    # DealState's contract (docs/engine.md): ``legal_actions`` caches its tuple, ``apply``
    # hands all but a legal Action to DealState._checked and records the history; both
    # handle the play phase inline (~90% of all actions of a deal) and the other phases in
    # ``_generate_legal``/``_apply``.
    action_table = ACTIONS  # a bare integer code is the table's action (SAS-20.3)
    not_an_action = "is not a Sasku action (SAS-20.3)"

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in the conventions' order; () when over."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.to_act
        if seat is None:
            legal = ()
        elif self.phase == PLAY_PHASE:
            cards = self.hands[seat]
            trick = self.trick
            if trick:
                # SAS-10.3 — TrumpConfig.follow with Sasku's fixed options (must trump, no
                # free cards) spelt out on its tables; tests check it against follow().
                cards = cards & self.led_class or cards & self.trumps or cards
                if self.must_beat:  # SAS-17.2
                    cards = cards & self.beats[self.winning] or cards
            legal = _PLAYS_SEEN.get(cards)
            if legal is None:
                legal = (
                    PLAY_C[cards & 0x1FF]
                    + PLAY_S[cards >> 13 & 0x1FF]
                    + PLAY_H[cards >> 26 & 0x1FF]
                    + PLAY_D[cards >> 39]
                )
                if len(_PLAYS_SEEN) >= PLAYS_SEEN_LIMIT:  # (Memo.store, inlined)
                    PLAYS_SEEN.clear()
                _PLAYS_SEEN[cards] = legal
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
        # a seat is to act: an action was legal (no assert on the hot path)
        seat: int = self.to_act  # type: ignore[assignment]
        self._legal = None
        self.history.append(action)
        self.actors.append(seat)
        if self.phase != PLAY_PHASE:
            self._apply(action)
            return
        card = CARD_OF_PLAY[action]
        self.hands[seat] ^= BIT[card]
        trick = self.trick
        played_before = len(trick)
        trick.append(card)
        if not played_before:  # SAS-10.2: the lead
            self.led_class = self.class_of[card]
            self.winning = card
            self.winner_seat = seat
            self.to_act = (seat + 1) & 3
            return
        if self.beats[self.winning] >> card & 1:  # SAS-10.4
            self.winning = card
            self.winner_seat = seat
        if played_before == 3:
            self._close_trick()
        else:
            self.to_act = (seat + 1) & 3

    def _deal_over(self) -> IllegalAction:
        """SAS-12.1, also as the error's ``rule``."""
        text = "the deal is over: no action is allowed"
        return IllegalAction(
            text, "SAS-12.1", explanation=explained("deal_over", f"{text} (SAS-12.1)")
        )

    # --- every phase but play's inline path ------------------------------------------
    def _generate_legal(self) -> tuple[Action, ...]:
        """Legal actions by phase; the play branch is the reference path through
        :meth:`TrumpConfig.follow` (``legal_actions`` applies the same obligations inline,
        and the tests compare the two)."""
        phase = self.phase
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        if phase == PLAY_PHASE:
            if not self.trick:
                return play_actions(hand)  # SAS-10.2
            config = self.config
            assert config is not None
            # SAS-10.3: follow the led class, else trump, else anything; then beat W
            return play_actions(
                config.follow(
                    hand, self.trick[0], self.winning, must_trump=True, must_beat=self.must_beat
                )
            )
        if phase == AUCTION:  # SAS-8.3, SAS-8.4
            lowest = self.high_bid + 1 if self.high_bid else 5
            return AUCTION_LEGAL[lowest, hand_length(hand)]
        if phase == CUT:  # SAS-6.2
            return DEAL_ACTIONS
        if phase == EXCHANGE:
            if self.pending_giver >= 0:  # SAS-7.4: return a suit card
                return tuple(RETURN[c] for c in iter_cards(hand & SUIT_CARDS))
            return (GIVE[(hand & PICTURES).bit_length() - 1], KEEP)  # SAS-7.3
        if phase == DECLARE:  # SAS-9.1
            bid = self.high_bid
            return tuple(
                a for a in TRUMP_IN_ORDER if ARG[a] == 3 or potential_trumps(hand, ARG[a]) >= bid
            )
        return OVERRIDE_LEGAL  # SAS-9.3

    def _apply(self, action: Action) -> None:
        """Every phase but play (``apply`` handles play inline)."""
        seat = self.to_act
        assert seat is not None
        phase, kind, arg = self.phase, KIND[action], ARG[action]
        if phase == AUCTION:
            self._auction(seat, kind, arg)
        elif phase == CUT:
            self._deal(arg)
        elif phase == EXCHANGE:
            self._exchange(seat, kind, arg)
        elif phase == DECLARE:
            self._declare(seat, arg)
        else:
            self._override(seat, kind)

    # --- SAS-6 dealing -----------------------------------------------------------------
    def _deal(self, arg: int) -> None:
        """The cutter's choice: deal the deck by the SAS-6.3 mapping (SAS-6.4 exposure)."""
        deck = self.deck
        assert deck is not None
        if arg >= 100:
            self.method = "to"
            k = deck.index(arg - 100)
            self.face_up = deck[: k + 1]  # SAS-6.4: deck[0..k] face up
        else:
            self.method = DEAL_METHODS[arg]
        getters = DEAL_GETTERS[self.method]
        dealer = self.dealer
        hands = self.hands
        for offset in range(4):  # distinct cards: the sum of their bits is their set
            hands[(dealer + offset) & 3] = sum(map(BIT_OF, getters[offset](deck)))
        self._start_exchange()  # SAS-6.5

    # --- SAS-7 the lone-picture exchange -----------------------------------------------
    def _start_exchange(self) -> None:
        if not self.rules.exchange:  # SAS-17.4
            self._after_exchange()
            return
        self.phase = EXCHANGE
        self.exchange_offset = 0
        self._advance_exchange()

    def is_eligible(self, seat: int) -> bool:
        """SAS-7.1: exactly one picture, team has not exchanged, partner holds a suit card."""
        hands = self.hands
        return (
            (hands[seat] & PICTURES).bit_count() == 1
            and not self.team_exchanged[seat & 1]
            and bool(hands[(seat + 2) & 3] & SUIT_CARDS)
        )

    def _advance_exchange(self) -> None:
        """SAS-7.2, SAS-7.5: ask the next eligible seat in order e..dealer, skipping others."""
        hands = self.hands
        while self.exchange_offset < 4:
            seat = (self.eldest + self.exchange_offset) & 3
            # the picture count first: it rules out most seats without a method call
            if (hands[seat] & PICTURES).bit_count() == 1 and self.is_eligible(seat):
                self.to_act = seat
                return
            self.exchange_offset += 1
        self._after_exchange()

    def _exchange(self, seat: int, kind: int, card: Card) -> None:
        if kind == K_GIVE:  # SAS-7.3: the lone picture goes face up to the partner
            partner = (seat + 2) & 3
            self.hands[seat] ^= BIT[card]
            self.hands[partner] |= BIT[card]
            self.team_exchanged[seat & 1] = True
            self.exchanges.append([seat, card, partner, -1])
            self.pending_giver = seat
            self.to_act = partner
            return
        if kind == K_RETURN:  # SAS-7.4: a suit card goes face down to the giver
            giver = self.pending_giver
            self.hands[seat] ^= BIT[card]
            self.hands[giver] |= BIT[card]
            self.exchanges[-1][3] = card
            self.pending_giver = -1
        self.exchange_offset += 1  # after a return or a keep: the seat after the asked one
        self._advance_exchange()

    def _after_exchange(self) -> None:
        """SAS-7.6: to the auction, or straight to play in a replay deal (SAS-15.2)."""
        if self.replay is not None:
            self._start_play()
        else:
            self.phase = AUCTION  # SAS-8.2: eldest first
            self.to_act = self.eldest

    # --- SAS-8 the auction -------------------------------------------------------------
    def _auction(self, seat: int, kind: int, arg: int) -> None:
        """``bid N``, ``pass`` or ``diamonds`` (SAS-8.3) and the end of the auction (SAS-8.7)."""
        if kind == K_DIAMONDS:  # SAS-8.6: the auction ends at once
            self.trump = DIAMONDS_SUIT
            self.declarer = seat
            self._start_play()
            return
        if kind == K_BID:  # SAS-8.4
            self.high_bid = arg
            self.high_bidder = seat
        else:  # SAS-8.5
            self.passed_mask |= 1 << seat
        passes = self.passed_mask.bit_count()
        if passes == 4:  # SAS-8.7a: passed deal, diamonds, no declarer
            self.trump = DIAMONDS_SUIT
            self.passed_deal = True
            self._start_play()
        elif passes == 3 and self.high_bid:  # SAS-8.7b
            self.phase = DECLARE
            self.to_act = self.high_bidder
        else:  # SAS-8.2: clockwise, skipping seats that passed
            nxt = (seat + 1) & 3
            while self.passed_mask >> nxt & 1:
                nxt = (nxt + 1) & 3
            self.to_act = nxt

    # --- SAS-9 the trump and the diamonds override -------------------------------------
    def _declare(self, seat: int, suit: int) -> None:
        """SAS-9.2: trump D stands at once; C, S or H goes to the diamonds override."""
        self.trump = suit
        self.declarer = seat
        if suit == DIAMONDS_SUIT:
            self._start_play()
        else:
            self.phase = OVERRIDE
            self.override_offset = 1
            self.to_act = (seat + 1) & 3  # SAS-9.3: clockwise from the declarer's left

    def _override(self, seat: int, kind: int) -> None:
        """SAS-9.4: the first ``diamonds`` takes over; three passes let the trump stand."""
        if kind == K_DIAMONDS:
            self.trump = DIAMONDS_SUIT
            self.declarer = seat
            self._start_play()
        elif self.override_offset == 3:
            self._start_play()
        else:
            self.override_offset += 1
            self.to_act = (seat + 1) & 3

    # --- SAS-10, SAS-11, SAS-12 play, tricks, the end of the deal ----------------------
    def _start_play(self) -> None:
        self.config = TRUMP_CONFIGS[self.trump]
        self.trumps = self.config.trumps
        self.class_of = self.config.class_of
        self.beats = self.config.beats
        self.phase = PLAY_PHASE
        self.to_act = self.leader = self.eldest  # SAS-10.1

    def _close_trick(self) -> None:
        """The 4th card is down: the winner's team takes the points (SAS-11.1, SAS-11.2)."""
        winner = self.winner_seat
        team = winner & 1
        trick = self.trick
        self.points[team] += (
            CARD_POINTS[trick[0]]
            + CARD_POINTS[trick[1]]
            + CARD_POINTS[trick[2]]
            + CARD_POINTS[trick[3]]
        )
        self.tricks[team] += 1
        self.completed.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.tricks_played += 1
        if self.tricks_played == 9:  # SAS-12.1
            self.to_act = None
            self.phase = OVER
            self.is_over = True
        else:
            self.to_act = self.leader = winner

    # --- errors, results, views (in their own modules) --------------------------------
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, naming the rule."""
        return self.explain(action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and text (the same line as
        :meth:`explain_illegal`; :mod:`.explain`)."""
        return _explain.explain(self, action)

    def result(self) -> dict[str, JSON]:
        """The SAS-14.1 result object of the finished deal (:mod:`.scoring`)."""
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        if self._result is None:
            self._result = _scoring.score(self)
        return _scoring.copy_result(self._result)

    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up
        (:func:`.observe.narrate`)."""
        return _observe.narrate(self)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (SAS-19): its hand, public facts, hidden returns as ``?``."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat} in Sasku (seats 0–3)")
        return _observe.observe(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator may know now (SAS-19.1): the public facts only.

        As a seat that took part in no exchange sees the deal: every ``return X`` is
        ``return ?`` and its card ``"?"`` in ``info.exchanges`` (SAS-7.7); the cards dealt
        face up by ``deal to X``, the given pictures, bids, trump, declarer and plays are
        public. No hand and no legal actions.
        """
        return _observe.observe(self, SPECTATOR)

    def hand_order(self, seat: int) -> list[Card]:
        """``seat``'s cards in the order received (SAS-6.7): dealt order, minus cards given
        or played, exchange cards appended at the end."""
        if self.dealt_hands is not None:
            order = list(self.dealt_hands[seat])
        elif self.method is not None and self.deck is not None:
            order = [self.deck[i] for i in DEAL_SLOTS[self.method][(seat - self.dealer) & 3]]
        else:
            return []
        for giver, picture, returner, returned in self.exchanges:
            if seat == giver:
                order.remove(picture)
                if returned >= 0:
                    order.append(returned)
            elif seat == returner:
                order.append(picture)
                if returned >= 0:
                    order.remove(returned)
        return [c for c in order if self.hands[seat] >> c & 1]

    # --- copies and records ------------------------------------------------------------
    def clone(self) -> SaskuState:
        """An independent copy (lists copied, immutable parts shared)."""
        new = object.__new__(SaskuState)
        for name in _SCALAR_SLOTS:
            setattr(new, name, getattr(self, name))
        new.history = self.history.copy()
        new.actors = self.actors.copy()
        new.hands = self.hands.copy()
        new.team_exchanged = self.team_exchanged.copy()
        new.exchanges = [e.copy() for e in self.exchanges]
        new.trick = self.trick.copy()
        new.points = self.points.copy()
        new.tricks = self.tricks.copy()
        new.completed = self.completed.copy()
        return new

    def __getstate__(self) -> dict[str, Any]:
        """The pickled state: every slot but the trump tables, the rules and the legal
        cache, with the history as action codes (pickle protocols 0–5; see
        :meth:`__setstate__`)."""
        state = {name: getattr(self, name) for name in _PICKLED_SLOTS}
        state["history"] = [int(a) for a in self.history]
        state["config"] = self.config is not None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled deal exactly as the rules left it, by value: the phase and
        method as this package's strings, the history as the ``ACTIONS`` table's own
        actions, the rules from the variant, and the trump tables rebound from
        ``TRUMP_CONFIGS`` (SAS-10.3, SAS-11)."""
        for name in _PICKLED_SLOTS:
            setattr(self, name, state[name])
        self.rules = rules_of(self.variant)
        self.history = [ACTIONS.actions[code] for code in state["history"]]
        self.phase = _PHASE_OF[state["phase"]]
        if self.method is not None:
            self.method = _METHOD_OF[self.method]
        self._legal = None
        if state["config"]:
            config = self.config = TRUMP_CONFIGS[self.trump]
            self.trumps = config.trumps
            self.class_of = config.class_of
            self.beats = config.beats
        else:
            self.config = None
            self.trumps = 0
            self.class_of = self.beats = ()

    def setup_record(self) -> dict[str, JSON]:
        """``dealer``, ``deck`` or ``hands``, and ``replay`` when this is a replay deal."""
        rec: dict[str, JSON] = {"dealer": self.dealer}
        if self.deck is not None:
            rec["deck"] = [CARD_NAMES[c] for c in self.deck]
        else:
            assert self.dealt_hands is not None
            rec["hands"] = [[CARD_NAMES[c] for c in h] for h in self.dealt_hands]
        if self.replay is not None:
            rec["replay"] = dict(self.replay)
        return rec


SaskuDeal = SaskuState
"""The state's earlier name, kept for the callers that import it."""

_LIST_SLOTS = frozenset(
    {
        "history",
        "actors",
        "hands",
        "team_exchanged",
        "exchanges",
        "trick",
        "points",
        "tricks",
        "completed",
    }
)
_SCALAR_SLOTS: tuple[str, ...] = tuple(n for n in SaskuState.__slots__ if n not in _LIST_SLOTS)
_PICKLED_SLOTS: tuple[str, ...] = tuple(
    n
    for n in SaskuState.__slots__
    if n not in {"history", "_legal", "rules", "config", "trumps", "class_of", "beats"}
)
"""The slots a pickle stores as they are (:meth:`SaskuState.__getstate__`): the same keys
as before the rules had a slot of their own, so earlier pickles still load."""
_PHASE_OF: dict[str, str] = {p: p for p in PHASES}
_METHOD_OF: dict[str, str] = {m: m for m in DEAL_METHODS}
