"""The Satat deal: the state machine of one deal, phase by phase in the order of the rules
file — trump making (SAT-5), the partner's no-trump redeal (SAT-6), card passing (SAT-7),
the 2♥ announcement (SAT-16.3), play (SAT-8) with its lese step (SAT-16.5), and the 7-0
continuation (SAT-9).

Hands are bitmasks and actions codes of :data:`.rules.TABLE`; ``apply`` is in place. The
play phase — nearly every action of a deal — is handled inline in ``legal_actions`` and
``apply``; the other phases in ``_generate_legal`` and ``_apply``. Results, explanations and
observations are worked out in :mod:`.scoring`, :mod:`.explain` and :mod:`.observe`.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from folkcards.cards import BIT, CARD_NAMES, SUIT_MASK, Card, CardSet, iter_cards
from folkcards.engine.actions import Action, Step
from folkcards.engine.api import JSON, SPECTATOR, DealState, FolkcardsError, Observation, Variant
from folkcards.engine.events import Told
from folkcards.engine.explain import Explanation
from folkcards.engine.tricks import TrumpConfig

from .explain import explain
from .fast import (
    FOLLOW_OF,
    KEEP_OF,
    P0,
    P1,
    P2,
    P3,
    PLAYS_SEEN,
    PLAYS_SEEN_LIMIT,
    SIGNAL_ROWS,
    TRUMP_LEGAL,
    plays,
)
from .observe import (
    narrate,
    observe,
    public_voids,
    public_voids_reference,
    visible_history,
    visible_history_reference,
)
from .rules import (
    A_ACCEPT,
    A_ANNOUNCE,
    A_CONTINUE,
    A_LESE,
    A_PASS,
    A_PROPOSE,
    A_REDEAL,
    A_REFUSE,
    A_SILENT,
    A_STOP,
    ARG,
    B2H,
    BLIND,
    CONFIGS,
    GIVE,
    HIDE,
    K_ACCEPT,
    K_ANNOUNCE,
    K_BLIND,
    K_CONTINUE,
    K_PROPOSE,
    K_REDEAL,
    K_TRUMP,
    KIND,
    PH_ANNOUNCE,
    PH_CONSENT,
    PH_CONTINUE,
    PH_GIVE,
    PH_LESE,
    PH_OVER,
    PH_PLAY,
    PH_PROPOSE,
    PH_TRUMP,
    PHASES,
    PICTURES,
    TABLE,
    TWO_H,
    give_options,
    rules_of,
)
from .scoring import deal_result, next_dealer

if TYPE_CHECKING:
    from .game import SatatGame

_PLAYS_SEEN: dict[CardSet, tuple[Action, ...]] = PLAYS_SEEN.alias(globals(), "_PLAYS_SEEN")
"""The follower's play memo's table (:data:`.fast.PLAYS_SEEN`) under a module name of its
own: the hot path indexes the dict itself (``Memo.alias`` rebinds it when hits are counted)."""


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
        "exchanged", "give_idx", "ann_idx", "announced",
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
        rules = rules_of(variant)
        self.game = game
        self.variant = variant
        self.dealer = dealer
        self.num_seats = 4
        self.tk: bool = rules.trup_kasiet
        self.sig: int = rules.signals
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

    # --- who is who -----------------------------------------------------------------------
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

    # --- the hot path ---------------------------------------------------------------------
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
                            if legal is None:  # (Memo.miss, inlined)
                                legal = plays(hand)
                                if len(_PLAYS_SEEN) >= PLAYS_SEEN_LIMIT:
                                    PLAYS_SEEN.clear()
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
                legal = P0[hand & 0x1FFF] + P1[hand >> 13 & 0x1FFF] + P2[hand >> 26 & 0x1FFF]
                legal += P3[hand >> 39]
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
        if self.ph != PH_PLAY:
            self._apply(action)  # reads len(history) as this action's index
            self.history.append(action)
            self.actors.append(seat)
            return
        self.history.append(action)
        self.actors.append(seat)
        c = ARG[action]  # only plays are legal in the play phase
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

    # --- the other phases, off the hot path -----------------------------------------------
    def _generate_legal(self) -> tuple[Action, ...]:
        """Legal actions by phase; the play branch is the reference path through
        :meth:`TrumpConfig.follow` (``legal_actions`` applies the same obligations inline
        when there are no signals)."""
        ph = self.ph
        seat = self.to_act
        assert seat is not None
        if ph == PH_PLAY:
            return self._play_legal(seat)
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

    def _apply(self, action: Action) -> None:
        """Every phase but play (``apply`` handles play inline); ``apply`` has checked that
        ``action`` is legal, so the phase tells which step it is."""
        ph = self.ph
        kind = KIND[action]
        seat = self.to_act
        assert seat is not None
        if ph == PH_LESE:  # lese or silent: the second player plays (SAT-16.5)
            self.ph = PH_PLAY
            self.phase = "play"
            self.to_act = (self.leader + 1) % 4
        elif ph == PH_TRUMP:
            self._make_trump(kind, ARG[action])
        elif ph == PH_PROPOSE:
            self._propose_step(kind)
        elif ph == PH_CONSENT:
            self._consent_step(kind)
        elif ph == PH_GIVE:
            self._give(seat, ARG[action])
        elif ph == PH_ANNOUNCE:
            self._announce_step(seat, kind)
        elif ph == PH_CONTINUE:
            self._continue_step(kind)
        else:
            raise AssertionError(action.text)

    # --- SAT-5 trump making ---------------------------------------------------------------
    def _trump_legal(self) -> tuple[Action, ...]:
        """SAT-5.5; Trup Kasiet hides a card of the first five instead (SAT-15.2)."""
        return trump_choices(self.first_five(self.tm), self.redeals, self.tk)

    def _make_trump(self, kind: int, arg: int) -> None:
        """``trump X`` (SAT-5.2), ``blind N`` (SAT-5.3), ``hide C`` (SAT-15.2) or
        ``redeal`` (SAT-5.4)."""
        if kind == K_REDEAL:
            self._finish_redeal("no_pictures")
            return
        if kind == K_TRUMP:
            self.trump = arg
            self.known = True
        elif kind == K_BLIND:  # SAT-5.3, SAT-4.4
            self.blind = arg
            self.turned = self.deck[35 + arg]
            self.trump = self.turned // 13
            self.known = not self.tk
            if self.tk:
                self.tcard = self.turned
        else:  # SAT-15.2
            self.tcard = arg
            self.trump = self.tcard // 13
        if not self.tk:
            self.cands = 1 << self.trump
        self.cfg = CONFIGS[self.trump]
        self.beats = self.cfg.beats
        self._after_trump()

    # --- SAT-6 the partner's no-trump redeal ----------------------------------------------
    def _after_trump(self) -> None:
        # SAT-6.1 / SAT-15.6: the partner may propose only if he holds no trump.
        if not self.tk and not self.hands[self.p] & SUIT_MASK[self.trump]:
            self.ph = PH_PROPOSE
            self.phase = "propose"
            self.to_act = self.p
            return
        self._after_propose()

    def _propose_step(self, kind: int) -> None:
        if kind == K_PROPOSE:  # SAT-6.2
            self.ph = PH_CONSENT
            self.phase = "consent"
            self.to_act = self.tm
            return
        self._after_propose()  # pass: a private step (SAT-19.1)

    def _consent_step(self, kind: int) -> None:
        if kind == K_ACCEPT:  # SAT-6.3
            self._finish_redeal("no_trumps")
            return
        self._after_propose()  # SAT-6.4

    def _after_propose(self) -> None:
        if self.passing is not None:  # SAT-6.4, SAT-7.2
            self.ph = PH_GIVE
            self.phase = "give"
            self.to_act = self.tm
            return
        self._after_give()

    # --- SAT-7 card passing ---------------------------------------------------------------
    def _give_legal(self, seat: int) -> tuple[Action, ...]:
        assert self.passing is not None
        winner = seat % 2 == self.passing["winners"]
        opts = give_options(self.hands[seat], self.trump, winner, self.passing["cards"])
        return tuple(sorted(GIVE[m] for m in opts))

    def _give(self, seat: int, cards: CardSet) -> None:
        """SAT-7.3: the choices are kept apart until all four have chosen, then swapped
        between each winner w and loser w+1 (SAT-7.4)."""
        assert self.passing is not None
        if self.give_idx < 0:
            self.give_idx = len(self.history)
        self.gives[seat] = cards
        if seat != self.dealer:
            self.to_act = (seat + 1) % 4
            return
        g = self.gives
        for w in (self.passing["winners"], self.passing["winners"] + 2):
            loser = (w + 1) % 4
            self.hands[w] = (self.hands[w] & ~g[w]) | g[loser]
            self.hands[loser] = (self.hands[loser] & ~g[loser]) | g[w]
        self.exchanged = True
        self._after_give()

    # --- SAT-16.3 the 2♥ announcement -----------------------------------------------------
    def _after_give(self) -> None:
        if self.sig:
            self.ph = PH_ANNOUNCE
            self.phase = "announce"
            self.to_act = self.holder_2h()
            return
        self._start_play()

    def _announce_step(self, seat: int, kind: int) -> None:
        self.ann_idx = len(self.history)  # a silent here is private (SAT-16.7)
        if kind == K_ANNOUNCE:
            self.announced = seat
        self._start_play()

    # --- SAT-8 play (the moves themselves are on the hot path) ----------------------------
    def _start_play(self) -> None:
        self.ph = PH_PLAY  # SAT-8.1
        self.phase = "play"
        self.to_act = self.tm

    def _play_legal(self, seat: int) -> tuple[Action, ...]:
        """SAT-8.3 through :meth:`TrumpConfig.follow`, the 2♥ free (never forced, always
        allowed): the reference for ``legal_actions``' inline tables."""
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            led = trick[0]
            if led != TWO_H:  # rule 2
                assert self.cfg is not None
                hand = self.cfg.follow(hand, led, led, must_trump=False, must_beat=False, free=B2H)
            elif self.lead_known:  # rule 1
                m = hand & SUIT_MASK[self.trump]
                if m:
                    hand = m
        if self.sig:
            return self._signal_plays(hand)
        return plays(hand)

    def _signal_plays(self, cards: CardSet) -> tuple[Action, ...]:
        """SAT-16.6: each legal card plain, with ``grate``, ``pile`` (not the 2♥), ``vire``."""
        rows = SIGNAL_ROWS[self.sig == 2 and len(self.trick) == 2]
        legal: tuple[Action, ...] = ()
        while cards:
            low = cards & -cards
            legal += rows[low.bit_length() - 1]
            cards ^= low
        return legal

    def _end_trick(self) -> None:
        """SAT-8.5's winner takes the trick; Trup Kasiet's public deduction of the trump
        from a trick not won by the 2♥ narrows the candidates ``P`` (SAT-15.4 b); the end
        of play at seven (SAT-9.1), the 7-0 choice (SAT-9.2), a continuation's
        end (SAT-9.3)."""
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
            if ws != led_suit:  # a trump won: the winner's suit is trump
                self.cands = 1 << ws
            else:  # the led suit won: no other suit played is trump
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

    # --- SAT-9 the 7-0 continuation and the end of the deal -------------------------------
    def _continue_step(self, kind: int) -> None:
        if kind == K_CONTINUE:  # SAT-9.3
            self.continuing = True
            self.ph = PH_PLAY
            self.phase = "play"
            return
        self._finish("7-0")  # SAT-9.2: stop

    def _finish(self, outcome: str) -> None:
        t = self.tricks
        self.won_by = 0 if t[0] > t[1] else 1
        self.outcome = outcome
        self.ph = PH_OVER
        self.phase = "over"
        self.to_act = None
        self.is_over = True

    def _finish_redeal(self, reason: str) -> None:
        """SAT-11.1: a redeal ends the record."""
        self.outcome = "redeal"
        self.redeal_reason = reason
        self.ph = PH_OVER
        self.phase = "over"
        self.to_act = None
        self.is_over = True

    # --- results and explanations (:mod:`.scoring`, :mod:`.explain`) ----------------------
    def next_dealer(self) -> int:
        """The dealer of the next deal record (SAT-12.1/SAT-12.2)."""
        return next_dealer(self)

    def result(self) -> dict[str, JSON]:
        """The SAT-10 result; ValueError while the deal goes on."""
        return deal_result(self)

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, citing the rule."""
        return explain(self, action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        return explain(self, action)

    # --- copies and records ---------------------------------------------------------------
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

    # --- information and events (:mod:`.observe`) -----------------------------------------
    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up,
        hidden as SAT-19 hides them: a partner's ``pass`` and an announce-phase ``silent``
        are seen by their maker only; a give's cards by the giver, and by the receiver once
        the exchange is done; a Trup Kasiet trump by the trump maker until it is known."""
        return narrate(self)

    def visible_history(self, seat: int) -> tuple[list[Step], list[int]]:
        """The history as ``seat`` saw it (SAT-19); ``seat`` = :data:`SPECTATOR` gives the
        public history (every pass and announce-phase silent left out, ``hide ?``,
        ``give ?``). :meth:`visible_history_reference` is the plain version a test
        compares it with."""
        return visible_history(self, seat)

    def visible_history_reference(self, seat: int) -> tuple[list[Step], list[int]]:
        """:meth:`visible_history` step by step over the whole history (the reference)."""
        return visible_history_reference(self, seat)

    def public_voids(self) -> list[CardSet]:
        """Per seat, the cards it has publicly shown it cannot hold (SAT-8.3 inferences),
        worked out once per point of the deal; callers must not change the list."""
        return public_voids(self)

    def public_voids_reference(self) -> list[CardSet]:
        """:meth:`public_voids` worked out from every trick played."""
        return public_voids_reference(self)

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now (SAT-19); see the package docstring for ``info``."""
        if not 0 <= seat < 4:  # a spectator's view is public_observation()
            raise FolkcardsError(f"a Satat seat is 0–3, not {seat!r}")
        return observe(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator may know now (SAT-19.2 public facts only): seat
        :data:`SPECTATOR`, no hand, no legal actions; every pass and announce-phase
        ``silent`` left out of the history and pending ones masked as for an uninvolved
        seat (SAT-16.7, SAT-19.1), gives and a hidden trump card as ``?`` (SAT-19.3);
        ``gave``/``received`` empty, ``known_cards`` only the public ones (the turned card
        until an exchange, an announced 2♥)."""
        return observe(self, SPECTATOR)


_LIST_SLOTS = frozenset({"hands", "gives", "trick", "tricks", "log", "history", "actors"})
_SCALAR_SLOTS: tuple[str, ...] = tuple(n for n in SatatState.__slots__ if n not in _LIST_SLOTS)
_get_scalars = attrgetter(*_SCALAR_SLOTS)
_PICKLED_SLOTS: tuple[str, ...] = tuple(
    n for n in SatatState.__slots__ if n not in ("_legal", "_voids", "phase", "cfg", "beats")
)
"""What ``__getstate__`` keeps: the rest is derived on unpickling."""


def trump_choices(five: CardSet, redeals: int, tk: bool) -> tuple[Action, ...]:
    """The trump maker's legal choices from his first five ``five`` after ``redeals``
    no-picture redeals (SAT-5.5): a trump or a blind position, and a redeal when the five
    hold no picture and fewer than two redeals were made (SAT-5.4); Trup Kasiet hides a card
    of the five instead of naming a trump (SAT-15.2). Also what the batched search's
    reading of a trump choice offers each sampled deal (``SatatKernel.likelihoods``)."""
    redeal = not five & PICTURES and redeals < 2
    if not tk:
        return TRUMP_LEGAL[redeal]
    out = list(BLIND[1:])
    out += [HIDE[c] for c in iter_cards(five)]
    if redeal:
        out.append(A_REDEAL)
    return tuple(sorted(out))
