"""One deal of Sheepshead as a state machine: :class:`SheepsheadState`.

The phases follow the rules file's sections: picking from eldest (SHP-4), the picker's
burying (SHP-5), its call or going alone (SHP-6), then six tricks (SHP-7) — or, when all
five pass, a leaster's six tricks or a doubler's redeal (SHP-9). Hands, the blind and the
bury are bitmasks over the engine's card numbers; ``legal_actions`` and ``apply`` run the
play phase inline (SHP-7.8 and the trick's winner over the shared
:class:`~folkcards.engine.tricks.TrumpConfig` tables), the other phases in ``_apply``.

The result (SHP-8, SHP-9), the observations and events (SHP-13) and the explanations of
illegal actions (SHP-14.2) are built only when asked for, in :mod:`.scoring`,
:mod:`.observe` and :mod:`.explain`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from folkcards.cards import BIT, CARD_NAMES, Card, CardSet
from folkcards.engine.actions import Action
from folkcards.engine.api import JSON, SPECTATOR, DealState, Observation, Variant
from folkcards.engine.events import Told
from folkcards.engine.explain import Explanation

from . import explain as _explain
from . import observe as _observe
from . import scoring as _scoring
from .fast import PICK_LEGAL, PLAY_CACHE, bury_actions_of, play_miss
from .rules import (
    ACTIONS,
    ALL_FAIL_ACES,
    ALONE,
    BEATS,
    CALL,
    CARD_OF,
    CLASS,
    FAIL,
    FAIL_ACES,
    FAIL_TENS,
    K_BURY,
    K_CALL,
    K_PASS,
    K_PICK,
    KIND,
    M_ALONE,
    M_CALLED,
    M_DOUBLER,
    M_LEASTER,
    M_NONE,
    MODE_NAMES,
    NEXT,
    PH_BURY,
    PH_CALL,
    PH_OVER,
    PH_PICK,
    PH_PLAY,
    PHASE_CODE,
    PHASE_NAMES,
    POINTS,
    SEAT_AT,
    SEATS,
    TRICKS,
    TRUMP,
    SheepsheadRules,
    rules_of,
)

if TYPE_CHECKING:
    from .game import SheepsheadGame

_PLAY_CACHE: dict[CardSet, tuple[Action, ...]] = PLAY_CACHE.alias(globals(), "_PLAY_CACHE")
"""The play memo's table (:data:`.fast.PLAY_CACHE`) under a module name of its own: the hot
path indexes the dict itself (``Memo.alias`` rebinds it when hits are counted)."""


class SheepsheadState(DealState):
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
        "rules",
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
        self.rules: SheepsheadRules = rules_of(variant)
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
        self.x_mask: CardSet = 0  # the called card's suit as a set: the cards of X
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

    # --- SHP-3 the deal -----------------------------------------------------------------------
    def initial_hand(self, seat: int) -> list[Card]:
        """``seat``'s six dealt cards in the order received (SHP-3.1, SHP-3.2)."""
        if self._hands0 is not None:
            return list(self._hands0[seat])
        assert self._deck is not None
        i = (seat - self.dealer - 1) % SEATS
        return list(self._deck[3 * i : 3 * i + 3] + self._deck[17 + 3 * i : 20 + 3 * i])

    def hand_in_order(self, seat: int) -> list[Card]:
        """``seat``'s current hand in the order received; the picker's blind last (SHP-3.2)."""
        order = self.initial_hand(seat)
        if seat == self.picker:
            order += [self.blind[0], self.blind[1]]
        return [c for c in order if self.hands[seat] >> c & 1]

    # --- legal actions ------------------------------------------------------------------------
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
                legal = play_miss(cards)
            self._legal = legal
            return legal
        if self._ph == PH_PICK:
            legal = PICK_LEGAL  # SHP-4.1
        elif self.to_act is None:
            legal = ()
        else:
            legal = self._generate_legal()
        self._legal = legal
        return legal

    def _generate_legal(self) -> tuple[Action, ...]:
        """The legal actions of the burying and calling phases (picking and play are
        inline in :meth:`legal_actions`)."""
        if self._ph == PH_BURY:
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

    # --- applying -----------------------------------------------------------------------------
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
        """A picking, burying or calling action (play is inline in :meth:`apply`)."""
        kind = KIND[action]
        seat: int = self.to_act  # type: ignore[assignment]
        if kind == K_PASS:
            self.passes += 1
            if self.passes < SEATS:
                self.to_act = NEXT[seat]  # SHP-4.1
            elif self.rules.doubler:  # SHP-4.3, SHP-9.5: a redeal at double stake
                self._md = M_DOUBLER
                self._ph = PH_OVER
                self.to_act = None
                self.is_over = True
            else:  # SHP-4.3, SHP-9.1: a leaster
                self._md = M_LEASTER
                self._start_play()
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

    # --- SHP-14.2 errors ----------------------------------------------------------------------
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, with the rule ID."""
        return _explain.explain(self, action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        return _explain.explain(self, action)

    # --- SHP-8, SHP-9 results -----------------------------------------------------------------
    def result(self) -> dict[str, JSON]:
        """The result object of SHP-10.1 (ValueError while the deal goes on)."""
        return _scoring.result(self)

    # --- SHP-13 information -------------------------------------------------------------------
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
        return _observe.observe(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator may know now (SHP-13.1): only the public facts, as a seat that is
        neither picker nor partner sees them — every ``bury C`` as ``bury ?``, the blind and
        the bury hidden until a played-out deal ends, the partner until the called card is
        played; no hand, no legal actions; the info keys of a seat's observation."""
        return _observe.observe(self, SPECTATOR)

    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up. The
        blind is seen by the picker only, the bury likewise (SHP-13.1), and who the partner
        is by the partner alone until the called card is played (a ``partner`` event)."""
        replay = self.fresh()
        assert isinstance(replay, SheepsheadState)
        return _observe.narrate(self, replay)

    # --- copies and records -------------------------------------------------------------------
    def clone(self) -> SheepsheadState:
        """An independent copy: every slot, the mutable lists copied (hands, history, actors,
        the trick, tricks, taken); the rest is immutable and shared (variant, deck, blind…)."""
        cls = type(self)
        new = cls.__new__(cls)
        new.game = self.game
        new.variant = self.variant
        new.rules = self.rules
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
        legal tuple, no rules (derived from the variant again); the game itself pickles by
        name (:meth:`Game.__reduce__`)."""
        state = {name: getattr(self, name) for name in SheepsheadState.__slots__}
        del state["rules"]
        state["history"] = [int(a) for a in self.history]
        state["_legal"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore :meth:`__getstate__`: the history becomes the table's own actions again."""
        for name, value in state.items():
            setattr(self, name, value)
        self.rules = rules_of(self.variant)
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


SheepsheadDeal = SheepsheadState
"""The deal state's earlier name, kept: the tests and pickles made by the single-module
``folkcards.games.sheepshead`` name it."""
