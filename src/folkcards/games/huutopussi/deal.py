"""The Huutopussi deal: its state machine, phases in the order of the rules file.

Bidding (HUU-4), the exchange and the contract with 4 players (HUU-5), the widow with 3
(HUU-6), play (HUU-7) with its trump declarations (HUU-8), and the deal's end. Hands are
bitmasks, actions are codes of :data:`.rules.TABLE`; ``apply`` is in place. The phase is
one of ``bidding give contract return discard play answer`` (HUU-16.2) and ``over`` once
the deal has ended. The trump can change between tricks (HUU-7.2, HUU-8.8): the state holds
the :class:`~folkcards.engine.tricks.TrumpConfig` of the current trump (or of no trump) and
switches it when a declaration succeeds.

Scoring is :mod:`.scoring`, observations and events :mod:`.observe`, explanations
:mod:`.explain`; the hot path's tables and memos are :mod:`.fast`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from folkcards.cards import CARD_NAMES
from folkcards.engine.actions import Action, Step
from folkcards.engine.api import JSON, SPECTATOR, DealState, Observation
from folkcards.engine.events import Told
from folkcards.engine.explain import Explanation
from folkcards.engine.tricks import TrumpConfig

from . import explain as _explain
from . import observe as _observe
from . import scoring as _scoring
from .fast import (
    BIDDING,
    CONTRACTS,
    DECLARATIONS,
    DISCARD_TABS,
    GIVE_TABS,
    ONE_SUIT_PLAYS,
    PLAY_CARD,
    PLAY_TABS,
    RETURN_TABS,
    mask_actions,
)
from .rules import (
    ACES,
    ANSWER_NO,
    ANSWER_SUIT,
    ANSWER_YES,
    ARG,
    CONFIGS,
    HIGH,
    K_PLAY,
    KIND,
    KONTRA,
    KQ_MASK,
    NO_TRUMP,
    P_ANSWER,
    P_BIDDING,
    P_CONTRACT,
    P_DISCARD,
    P_GIVE,
    P_OVER,
    P_PLAY,
    P_RETURN,
    PAIR,
    PHASES,
    RE,
    SIXES,
    SPADES,
    SUIT_ORDER_WORDS,
    TABLE,
    Rules,
    rules_of,
)

if TYPE_CHECKING:
    from .game import HuutopussiGame

_PLAY_C, _PLAY_S, _PLAY_H, _PLAY_D = PLAY_TABS
_ONE_SUIT_PLAYS = ONE_SUIT_PLAYS
_BIDDING: dict[Any, tuple[Action, ...]] = BIDDING.alias(globals(), "_BIDDING")
_DECLARATIONS: dict[Any, tuple[Action, ...]] = DECLARATIONS.alias(globals(), "_DECLARATIONS")
_CONTRACTS: dict[Any, tuple[Action, ...]] = CONTRACTS.alias(globals(), "_CONTRACTS")


class HuutopussiState(DealState):
    """One deal of Huutopussi (4 players, 3 players or Erlangen, per the variant)."""

    deal_over_rule = "HUU-17.2"  # DealState._checked's error after the deal

    __slots__ = (  # sorted: ``clone`` unpacks them in this order
        "_legal", "_result", "acted", "actors", "ask_suit", "asker", "banned", "beats", "bid",
        "broken", "calls", "cfg", "class_of", "contract", "dealer", "deck", "declarations",
        "declarer", "discards", "erlangen", "game", "given", "hands", "hands_rec", "high",
        "high_seat", "history", "is_over", "last_winner", "leader", "led_class", "marriages",
        "next_seat", "num_seats", "packet", "partner", "passed", "ph", "phase", "points",
        "redeal_by", "returned", "rules", "sides", "to_act", "totals", "trick", "tricks",
        "tricks_done", "trump", "trumps", "used", "variant", "widow", "win_card", "win_seat",
        "window",
    )  # fmt: skip

    game: HuutopussiGame
    variant: dict[str, Any]
    is_over: bool  # an attribute kept with ``to_act``, faster than the base property
    ph: int
    rules: Rules
    hands: list[int]
    trick: list[int]
    cfg: TrumpConfig
    class_of: tuple[int, ...]  # the bound tables of ``cfg`` (``_bind_trump``)
    beats: tuple[int, ...]
    trumps: int
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
        self._start_values(3 if n == 3 else 2)

    def _start_values(self, sides: int) -> None:
        """Every field that the deal changes, at its value before the first bid."""
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
        self.cfg = cfg = CONFIGS[NO_TRUMP]  # ``_bind_trump(NO_TRUMP)``, spelt out
        self.class_of = cfg.class_of
        self.beats = cfg.beats
        self.trumps = cfg.trumps
        self.used = 0
        self.broken = 0
        self.window = False
        self.asker = -1
        self.ask_suit = -1
        self.tricks = [0] * sides
        self.points = [0] * sides
        self.marriages = [0] * sides
        self.calls = 0
        self.last_winner = -1
        self.declarations: list[tuple[int, int, int]] = []

    def _bind_trump(self, x: int) -> None:
        """The trick tables of trump ``x`` (``NO_TRUMP``: none), bound for the play hot
        path (HUU-7.2, HUU-8.8)."""
        self.cfg = cfg = CONFIGS[x]
        self.class_of = cfg.class_of
        self.beats = cfg.beats
        self.trumps = cfg.trumps

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

    def _enter(self, ph: int) -> None:
        """Enter phase ``ph`` (a ``P_…`` code): the code that the state tests and the public
        text ``phase`` (HUU-16.2), always set together."""
        self.ph = ph
        self.phase = PHASES[ph]

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
        """The legal actions by the phase's own rule (every phase; no inlined path)."""
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
            key = (self.bid, self.rules.max_bid)
            return _CONTRACTS.get(key) or CONTRACTS.miss(key)
        return self._legal_answer()

    def _legal_bidding(self) -> tuple[Action, ...]:
        """HUU-4.2–4.7 (HUU-12.2): the bids from the lowest allowed, pass, redeal."""
        seat = self.to_act
        assert seat is not None
        r = self.rules
        hand = self.hands[seat]
        # HUU-4.6: on the seat's first turn (``can_redeal`` spelt out)
        redeal = not self.acted >> seat & 1 and ((hand & SIXES).bit_count() >= 3 or not hand & HIGH)
        compulsory = not self.history and not r.erlangen  # HUU-4.3 (not HUU-12.2)
        if self.banned >> seat & 1:  # HUU-4.7
            if compulsory:
                return BIDDING((r.max_bid, 50, True, False, redeal))
            return BIDDING((r.max_bid, 1000, False, True, redeal))
        lowest = self.high + 5  # HUU-4.2
        if lowest < r.min_bid:
            lowest = r.min_bid
        key = (r.max_bid, lowest, False, not compulsory, redeal)
        out = _BIDDING.get(key)
        if out is None:
            out = BIDDING.miss(key)
        return out

    def _legal_play(self) -> tuple[Action, ...]:
        """HUU-7.3 through ``TrumpConfig.follow`` (the reference of the inlined path),
        HUU-12.4's first trick, the declaration window's attempts (HUU-8) and the Erlangen
        calls (HUU-12.9)."""
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
            plays = self._with_calls(seat, hand, plays)
        return plays

    def _with_calls(self, seat: int, hand: int, plays: tuple[Action, ...]) -> tuple[Action, ...]:
        """HUU-12.9: the next kontra (opponents, before the first play) or re (declarers,
        after the plays), while the seat holds enough cards."""
        nth = self.calls + 1
        if hand.bit_count() < 10 - nth:
            return plays
        ours = self.sides[seat] == self.sides[self.declarer]
        if nth & 1 and not ours:
            i = 0
            while i < len(plays) and KIND[plays[i]] != K_PLAY:
                i += 1
            return (*plays[:i], KONTRA, *plays[i:])
        if not nth & 1 and ours:
            return (*plays, RE)
        return plays

    def _declaration_actions(self, seat: int, hand: int) -> tuple[Action, ...]:
        """HUU-8.3–8.5 (HUU-12.6): the attempts open to ``seat`` in its window (a memo by
        the seat's kings and queens, the suits used and who is broken)."""
        partner = self.partner_of(seat)
        own_broken = self.broken >> seat & 1
        partner_state = -1 if partner < 0 else self.broken >> partner & 1
        key = (hand & KQ_MASK, self.used, own_broken, partner_state, self.rules.erlangen)
        out = _DECLARATIONS.get(key)
        if out is None:
            out = DECLARATIONS.miss(key)
        return out

    def _legal_answer(self) -> tuple[Action, ...]:
        """The one truthful answer (HUU-8.4, HUU-8.5)."""
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
        # a seat is to act: an action was legal (no assert on the hot path)
        seat: int = self.to_act  # type: ignore[assignment]
        self._legal = None
        c = PLAY_CARD[action]
        if c < 0:  # the verb's step; it reads len(history) as this action's index
            _STEPS[KIND[action]](self, seat, ARG[action])
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
        """Any action, by its verb's step (``apply`` calls the steps itself)."""
        seat = self.to_act
        assert seat is not None
        _STEPS[KIND[action]](self, seat, ARG[action])

    # --- HUU-4 bidding ------------------------------------------------------------------------
    def _bid(self, seat: int, n: int) -> None:
        """``bid N`` (HUU-4.2)."""
        self.high = n
        self.high_seat = seat
        self.acted |= 1 << seat
        self._after_bid(seat)

    def _pass(self, seat: int, _: int) -> None:
        """``pass``: out of the bidding for good (HUU-4.4)."""
        self.passed |= 1 << seat
        self.acted |= 1 << seat
        self._after_bid(seat)

    def _redeal(self, seat: int, _: int) -> None:
        """``redeal``: the deal ends, scoring nothing (HUU-4.6, HUU-17.3)."""
        self.redeal_by = seat
        self._finish()

    def _after_bid(self, seat: int) -> None:
        """The next bidder, or the end of the bidding (HUU-4.5, HUU-12.2)."""
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

    # --- HUU-5 exchange and contract (4 players), HUU-6 widow (3 players) ----------------------
    def _into_packet(self, seat: int, c: int, sent: list[int], receiver: int) -> bool:
        """Card ``c`` from ``seat``'s hand into the face-down packet, logged in ``sent``; a
        full packet goes to ``receiver`` (True then): the give and the return alike."""
        self.hands[seat] ^= 1 << c
        self.packet |= 1 << c
        sent.append(c)
        if len(sent) < self.rules.exchange:
            return False
        self.hands[receiver] |= self.packet
        self.packet = 0
        return True

    def _give(self, seat: int, c: int) -> None:
        """``give C`` into the packet; the last one delivers it to the declarer (HUU-5.1)."""
        if self._into_packet(seat, c, self.given, self.declarer):
            self._enter(P_CONTRACT)
            self.to_act = self.declarer

    def _contract(self, seat: int, contract: int) -> None:
        """``contract N`` (HUU-5.2, HUU-6.3): then the return, or play with 3 players."""
        self.contract = contract
        if self.rules.players == 3:
            self._start_play(self.declarer)  # HUU-13.2
        else:
            self._enter(P_RETURN)

    def _return(self, seat: int, c: int) -> None:
        """``return C``; the last one delivers the packet to the partner (HUU-5.3)."""
        if self._into_packet(seat, c, self.returned, self.partner):
            self._start_play(self.declarer)  # HUU-7.1

    def _discard(self, seat: int, c: int) -> None:
        """``discard C`` (HUU-6.2): three cards, then the contract."""
        self.hands[seat] ^= 1 << c
        self.discards.append(c)
        if len(self.discards) == 3:
            self._enter(P_CONTRACT)

    # --- HUU-7 play ---------------------------------------------------------------------------
    def _start_play(self, leader: int) -> None:
        self._enter(P_PLAY)
        self.to_act = leader
        self.leader = leader

    def _play(self, seat: int, c: int) -> None:
        """``play C`` (the same steps as the inlined path of ``apply``)."""
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

    # --- HUU-8 trump declarations ---------------------------------------------------------------
    def _declare(self, seat: int, x: int) -> None:
        """``declare X`` (HUU-8.3): the window closes (HUU-8.2) and X is trump."""
        self.window = False
        self._make_trump(seat, x)

    def _ask_marriage(self, seat: int, _: int) -> None:
        """``ask marriage`` (HUU-8.4)."""
        self._ask(seat, -1)

    def _ask(self, seat: int, x: int) -> None:
        """``ask half X`` (HUU-8.5; −1: a marriage): the window closes (HUU-8.2, HUU-8.10)
        and the partner answers."""
        self.window = False
        self.asker = seat
        self.ask_suit = x
        self._enter(P_ANSWER)
        self.to_act = self.partner_of(seat)

    def _answer_suit(self, seat: int, x: int) -> None:
        """``answer X``: the partner's marriage is trump for the asker (HUU-8.4, HUU-8.6)."""
        asker = self.asker
        self._make_trump(asker, x)
        self.broken |= 1 << asker
        self._back_to_asker()

    def _answer_yes(self, seat: int, _: int) -> None:
        """``answer yes`` (HUU-8.5): the half marriage is trump if the asker holds the other
        half (an Erlangen bluff makes nothing, HUU-12.6)."""
        asker = self.asker
        x = self.ask_suit
        if self.hands[asker] & PAIR[x]:
            self._make_trump(asker, x)
            self.broken |= (1 << asker) | (1 << seat)
        self._back_to_asker()

    def _answer_no(self, seat: int, _: int) -> None:
        """``answer no`` (HUU-8.4, HUU-8.5)."""
        self._back_to_asker()

    def _back_to_asker(self) -> None:
        self._enter(P_PLAY)
        self.to_act = self.asker
        self.asker = -1
        self.ask_suit = -1

    def _call(self, seat: int, _: int) -> None:
        """``kontra`` or ``re`` (HUU-12.9)."""
        self.calls += 1

    def _make_trump(self, seat: int, x: int) -> None:
        """HUU-8.7–8.9: ``x`` becomes trump; its marriage value goes to ``seat``'s side."""
        self.trump = x
        self.used |= 1 << x
        self._bind_trump(x)
        self.marriages[self.sides[seat]] += self.rules.marriage_values[x]
        self.declarations.append((seat, x, len(self.history)))

    # --- the end ----------------------------------------------------------------------------
    def _finish(self) -> None:
        self.to_act = None
        self.is_over = True
        self._enter(P_OVER)

    def result(self) -> dict[str, JSON]:
        """The result object of HUU-9.5 (ValueError while the deal goes on; :mod:`.scoring`)."""
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        if self._result is None:
            self._result = _scoring.score(self)
        return _scoring.copy_result(self._result)

    # --- information (:mod:`.observe`) ----------------------------------------------------------
    def visible_text(self, index: int, seat: int) -> Step:
        """HUU-14: history entry ``index`` as ``seat`` saw it (``give ?``…);
        ``seat`` may be :data:`~folkcards.engine.api.SPECTATOR`, who sees no hidden card."""
        return _observe.visible_text(self, index, seat)

    def visible_history(self, viewer: int) -> tuple[Step, ...]:
        """Every history entry as ``viewer`` saw it (:meth:`visible_text` of each)."""
        return _observe.visible_history(self, viewer)

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know (HUU-14); ``info`` is documented in the package.
        ``seat`` :data:`~folkcards.engine.api.SPECTATOR` gives :meth:`public_observation`."""
        return _observe.observation(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator may know (HUU-14): every public action and fact, no hand, no legal
        actions, every exchanged or discarded card hidden (``give ?``, ``return ?``,
        ``discard ?``, HUU-14.3, 14.4, 14.6) and the private ``info`` keys ``given``,
        ``returned`` and ``discards`` null, as for a seat that took no part in them."""
        return _observe.observe(self, SPECTATOR)

    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`), replayed from its set-up,
        hidden as HUU-14 hides them: a given card is seen by its giver and the declarer,
        a returned card by the declarer and its partner, a discard by the declarer."""
        return _observe.narrate(self)

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, citing the rule (HUU-17.2)."""
        return _explain.explain(self, action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal` (:mod:`.explain`)."""
        return _explain.explain(self, action)

    # --- copies and records -----------------------------------------------------------------
    def clone(self) -> HuutopussiState:
        """An independent copy: every mutable field is copied; the set-up tuples, the rules
        and the trick tables (never changed) are shared."""
        new = object.__new__(HuutopussiState)
        # every slot, in the order of ``__slots__`` (one unpacking: twice as fast as setattr
        # in a loop; a test checks that each slot is copied)
        # fmt: off
        (
            new._legal, new._result, new.acted, new.actors, new.ask_suit, new.asker,
            new.banned, new.beats, new.bid, new.broken, new.calls, new.cfg, new.class_of,
            new.contract, new.dealer, new.deck, new.declarations, new.declarer, new.discards,
            new.erlangen, new.game, new.given, new.hands, new.hands_rec, new.high,
            new.high_seat, new.history, new.is_over, new.last_winner, new.leader,
            new.led_class, new.marriages, new.next_seat, new.num_seats, new.packet,
            new.partner, new.passed, new.ph, new.phase, new.points, new.redeal_by,
            new.returned, new.rules, new.sides, new.to_act, new.totals, new.trick,
            new.tricks, new.tricks_done, new.trump, new.trumps, new.used, new.variant,
            new.widow, new.win_card, new.win_seat, new.window,
        ) = _get_slots(self)
        # fmt: on
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
        new._result = None if self._result is None else _scoring.copy_result(self._result)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """For ``pickle``: the deal's own data, without the tables derived from the variant and
        the trump (rebuilt by ``__setstate__``, so an unpickled state shares them again)."""
        return {k: v for k, v in zip(_SLOTS, _get_slots(self), strict=True) if k not in _DERIVED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A pickled deal as the rules left it: the rules from the variant, the trick tables
        of its trump, the phase text of its code and the table's own actions (also a pickle
        of the package's first layout, whose state held the same keys)."""
        for name, value in state.items():
            setattr(self, name, value)
        r = self.rules = rules_of(self.variant)
        self.erlangen = r.erlangen
        self.next_seat = r.next_seat
        self.sides = r.sides
        self._bind_trump(self.trump if self.trump >= 0 else NO_TRUMP)
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


HuutopussiDeal = HuutopussiState
"""The deal's name in the shape of the other games' packages (``SaskuDeal``, ``ScoponeDeal``)."""

_STEPS: tuple[Callable[[HuutopussiState, int, int], None], ...] = (
    HuutopussiState._bid,  # K_BID
    HuutopussiState._pass,  # K_PASS
    HuutopussiState._redeal,  # K_REDEAL
    HuutopussiState._give,  # K_GIVE
    HuutopussiState._contract,  # K_CONTRACT
    HuutopussiState._return,  # K_RETURN
    HuutopussiState._discard,  # K_DISCARD
    HuutopussiState._play,  # K_PLAY
    HuutopussiState._declare,  # K_DECLARE
    HuutopussiState._ask_marriage,  # K_ASK_MARRIAGE
    HuutopussiState._ask,  # K_ASK_HALF
    HuutopussiState._answer_suit,  # K_ANSWER_SUIT
    HuutopussiState._answer_no,  # K_ANSWER_NO
    HuutopussiState._answer_yes,  # K_ANSWER_YES
    HuutopussiState._call,  # K_KONTRA
    HuutopussiState._call,  # K_RE
)
"""``_STEPS[kind](state, seat, arg)``: the step of each verb (``KIND``/``ARG`` of its action)."""

_SLOTS: tuple[str, ...] = HuutopussiState.__slots__
_get_slots = attrgetter(*_SLOTS)
_DERIVED = frozenset(
    ("rules", "erlangen", "next_seat", "sides", "cfg", "class_of", "beats", "trumps", "_legal")
)
"""Slots that ``__setstate__`` rebuilds from the variant and the trump instead of unpickling."""
