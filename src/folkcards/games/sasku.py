"""Sasku (Saskop, Lambapea): the Estonian four-player partnership trump game.

Normative rules: ``rules/sasku.md`` (rule IDs ``SAS-n.m``, cited in comments where a
rule is implemented). One deal runs through the phases

``cut`` → ``exchange`` → ``auction`` → ``declare`` → ``override`` → ``play``

(a replay deal after 60–60 skips the auction: ``cut`` → ``exchange`` → ``play``), and
a match adds deals until a team reaches ``target`` strokes.

Representation
    Cards are the engine's ints (``suit * 13 + rank``); hands are bitmasks. All twelve
    Kings, Queens and Jacks — the *pictures* — are permanent trumps (SAS-1.2), so every
    trump suit gets its own precomputed :class:`~folkcards.engine.tricks.TrumpConfig`
    (``TRUMP_CONFIGS``); the whole action space is one :class:`ActionTable` (``ACTIONS``)
    whose codes follow the conventions' sort order, so legal lists are built from
    precomputed tuples without sorting.

Observation ``info`` (all JSON values; cards as canonical text)
    ``cutter``, ``eldest``       seats (SAS-5.3)
    ``deal``                     ``"threes" | "ones" | "nines" | "cover" | "to"`` or null
                                 (before the cut, or a record that gave ``hands``)
    ``face_up``                  ``[[card, seat], …]`` the cards dealt face up by
                                 ``deal to X``, in deck order (SAS-6.4)
    ``exchanges``                ``[{"giver", "picture", "returner", "returned"}, …]``;
                                 ``returned`` is the card, ``"?"`` when hidden from this
                                 seat (SAS-7.7), or null while the return is pending
    ``bid``, ``bidder``          highest bid so far and its seat, or null
    ``passed``                   seats that passed in the auction, ascending
    ``trump``                    ``"C" | "S" | "H" | "D"`` or null while undecided
    ``declarer``                 seat whose trump stands (SAS-9.5) or null
    ``passed_deal``              true when all four passed (or a replay of such a deal)
    ``leader``                   seat that led the current trick (null before play)
    ``trick``                    ``[[seat, card], …]`` cards of the current trick
    ``tricks_played``            completed tricks, 0–9
    ``points``, ``tricks``       per team, from completed tricks
    ``hand_sizes``               cards held by each seat now

A record's carried-over key ``replay`` (SAS-15.2) appears as ``Observation.carry``.
``public_observation()`` is the view of a seat that took part in no exchange, with no
hand and no legal actions (``seat`` = SPECTATOR): every returned card is ``?``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    CARD_NUMBERS,
    DECK_36,
    SUIT_MASK,
    SUITS,
    Card,
    CardSet,
    card_of,
    cards_list,
    iter_cards,
    mask_text,
    ranks_mask,
)
from folkcards.engine.actions import Action, ActionSyntaxError, ActionTable, canonical_tokens
from folkcards.engine.api import (
    JSON,
    SPECTATOR,
    DealState,
    FolkcardsError,
    Game,
    IllegalAction,
    MalformedRecord,
    MatchState,
    Observation,
    Variant,
    VariantOption,
)
from folkcards.engine.card import NO_TRUMP, GameCard, cards_of, suit_run, teams
from folkcards.engine.events import Told, component, private, public, reason
from folkcards.engine.explain import Explanation, explained
from folkcards.engine.registry import register
from folkcards.engine.tricks import TrumpConfig

# ----------------------------------------------------------------------------------------
# Cards: pictures, suit cards, points, orders (SAS-2, SAS-3, SAS-4)
# ----------------------------------------------------------------------------------------

DECK: CardSet = DECK_36
"""The 36-card pack, ``A K Q J T 9 8 7 6`` in ``C S H D`` (SAS-2.1)."""

PICTURES: CardSet = ranks_mask("KQJ")
"""The twelve Kings, Queens and Jacks — permanent trumps (SAS-2.2, SAS-1.2)."""

SUIT_CARDS: CardSet = DECK & ~PICTURES
"""The 24 A T 9 8 7 6 cards (SAS-2.2)."""

SUIT_CARDS_OF: tuple[CardSet, ...] = tuple(SUIT_MASK[s] & SUIT_CARDS for s in range(4))
"""``SUIT_CARDS_OF[s]``: the six suit cards of suit ``s`` — a plain suit's whole class (SAS-2.4)."""

TRUMPS_OF: tuple[CardSet, ...] = tuple(PICTURES | SUIT_CARDS_OF[s] for s in range(4))
"""``TRUMPS_OF[s]``: the 18 trumps when ``s`` is trump (SAS-2.3)."""

CARD_POINTS: tuple[int, ...] = tuple(
    {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(name[0], 0) for name in CARD_NAMES
)
"""Card points by card number (SAS-4.1); the pack totals 120."""

PLAIN_RANKS: tuple[int, ...] = tuple("AKQJT98765432".index(r) for r in "AT9876")
"""Rank numbers of a plain suit, highest first (SAS-3.2)."""


def trump_order(trump: int) -> list[Card]:
    """The 18 trumps, highest first, when suit ``trump`` is trump (SAS-3.1, SAS-3.3)."""
    letter = SUITS[trump]
    names = [f"6{letter}"]
    names += [r + s for r in "KQJ" for s in SUITS]  # pictures: K > Q > J, then C > S > H > D
    names += [r + letter for r in "AT987"]
    return [CARD_NUMBERS[n] for n in names]


TRUMP_CONFIGS: tuple[TrumpConfig, ...] = tuple(
    TrumpConfig(DECK, trump_order(t), PLAIN_RANKS) for t in range(4)
)
"""The precomputed classes, powers and beat-sets for each trump suit (SAS-10.4, SAS-11)."""

DIAMONDS_SUIT = 3


def potential_trumps(hand: CardSet, suit: int) -> int:
    """Pictures plus suit cards of ``suit`` in ``hand`` (SAS-8.1)."""
    return (hand & TRUMPS_OF[suit]).bit_count()


def hand_length(hand: CardSet) -> int:
    """The hand's *length*: its largest potential trumps over the four suits (SAS-8.1)."""
    return (hand & PICTURES).bit_count() + max(
        (hand & SUIT_CARDS_OF[0]).bit_count(),
        (hand & SUIT_CARDS_OF[1]).bit_count(),
        (hand & SUIT_CARDS_OF[2]).bit_count(),
        (hand & SUIT_CARDS_OF[3]).bit_count(),
    )


def play_exclusions(
    history: Sequence[str], actors: Sequence[int], config: TrumpConfig, must_beat: bool
) -> list[CardSet]:
    """Per seat, the cards its public plays show it does not hold (now or later).

    A follower who did not follow the led class is void in it, and void in trumps too when
    it did not trump (SAS-10.3); with ``must_beat`` (SAS-17.2) a follower whose card did
    not beat the winning card holds no card of the class it played that would have. The
    determinizer and the heuristic bot's inference both read the play this way.
    """
    out = [0, 0, 0, 0]
    trick: list[Card] = []
    winning = -1
    for text, actor in zip(history, actors, strict=True):
        if not text.startswith("play "):
            continue
        c = card_of(text[5:])
        if not trick:
            winning = c
        else:
            led_class = config.class_of[trick[0]]
            if not led_class >> c & 1:
                out[actor] |= led_class  # void in the led class
                if not config.trumps >> c & 1:
                    out[actor] |= config.trumps  # ... and in trumps
            beaten = config.beats[winning]
            if beaten >> c & 1:
                winning = c
            elif must_beat:  # it had no card of the class it played that beats
                if led_class >> c & 1:
                    out[actor] |= led_class & beaten
                elif config.trumps >> c & 1:
                    out[actor] |= config.trumps & beaten
        trick.append(c)
        if len(trick) == 4:
            trick = []
    return out


# ----------------------------------------------------------------------------------------
# Dealing (SAS-6)
# ----------------------------------------------------------------------------------------

DEAL_METHODS: tuple[str, ...] = ("threes", "ones", "nines", "cover", "to")
"""Dealing methods; ``to`` is ``deal to X`` (SAS-6.2)."""


def deal_layout(method: str) -> tuple[tuple[int, int], ...]:
    """For each deck index i: (seat offset from the dealer, position p) — the SAS-6.3 table."""
    out = []
    for i in range(36):
        if method == "threes":
            out.append(((1 + i // 3) % 4, 3 * (i // 12) + i % 3))
        elif method == "ones":
            out.append(((1 + i) % 4, i // 4))
        elif method in ("nines", "to"):
            out.append(((1, 2, 3, 0)[i // 9], i % 9))
        elif method == "cover":
            out.append(((1, 2, 0, 3)[i // 9], i % 9))
        else:
            raise ValueError(f"unknown dealing method {method!r}")
    return tuple(out)


DEAL_LAYOUTS: dict[str, tuple[tuple[int, int], ...]] = {m: deal_layout(m) for m in DEAL_METHODS}

DEAL_SLOTS: dict[str, tuple[tuple[int, ...], ...]] = {
    m: tuple(
        tuple(i for p in range(9) for i in range(36) if lay[i] == (off, p)) for off in range(4)
    )
    for m, lay in DEAL_LAYOUTS.items()
}
"""``DEAL_SLOTS[method][offset]``: the deck indices the seat ``dealer + offset`` receives,
in the order it receives them (SAS-6.3, SAS-6.7)."""

DEAL_GETTERS: dict[str, tuple[Callable[[Sequence[Card]], tuple[Card, ...]], ...]] = {
    m: tuple(itemgetter(*slots[off]) for off in range(4)) for m, slots in DEAL_SLOTS.items()
}
"""``DEAL_GETTERS[method][offset](deck)``: that seat's nine cards, in one C call."""

_BIT_OF = BIT.__getitem__

# ----------------------------------------------------------------------------------------
# Actions (SAS-20.3, SAS-21.2)
# ----------------------------------------------------------------------------------------

_PICTURE_LIST = cards_list(PICTURES)
_SUIT_CARD_LIST = cards_list(SUIT_CARDS)
_DECK_LIST = cards_list(DECK)

ACTIONS = ActionTable(
    [f"deal {m}" for m in DEAL_METHODS[:4]]
    + [f"deal to {CARD_NAMES[c]}" for c in _DECK_LIST]
    + [f"give {CARD_NAMES[c]}" for c in _PICTURE_LIST]
    + ["keep"]
    + [f"return {CARD_NAMES[c]}" for c in _SUIT_CARD_LIST]
    + [f"bid {n}" for n in range(5, 10)]
    + ["pass", "diamonds"]
    + [f"trump {s}" for s in SUITS]
    + [f"play {CARD_NAMES[c]}" for c in _DECK_LIST],
    DECK,
)
"""Every Sasku action, coded in the conventions' sort order."""

# Action kinds, and each code's kind and argument (method index, card, number or suit).
K_DEAL, K_GIVE, K_KEEP, K_RETURN, K_BID, K_PASS, K_DIAMONDS, K_TRUMP, K_PLAY = range(9)
_KIND_OF_VERB = {
    "deal": K_DEAL,
    "give": K_GIVE,
    "keep": K_KEEP,
    "return": K_RETURN,
    "bid": K_BID,
    "pass": K_PASS,
    "diamonds": K_DIAMONDS,
    "trump": K_TRUMP,
    "play": K_PLAY,
}


def _kind_and_arg(text: str) -> tuple[int, int]:
    words = text.split(" ")
    kind = _KIND_OF_VERB[words[0]]
    if kind == K_DEAL:
        if words[1] == "to":
            return kind, 100 + CARD_NUMBERS[words[2]]
        return kind, DEAL_METHODS.index(words[1])
    if kind in (K_GIVE, K_RETURN, K_PLAY):
        return kind, CARD_NUMBERS[words[1]]
    if kind == K_BID:
        return kind, int(words[1])
    if kind == K_TRUMP:
        return kind, SUITS.index(words[1])
    return kind, -1


_KA = [_kind_and_arg(a.text) for a in ACTIONS.actions]
KIND: tuple[int, ...] = tuple(k for k, _ in _KA)
"""``KIND[code]``: the action's kind (``K_DEAL`` … ``K_PLAY``)."""
ARG: tuple[int, ...] = tuple(a for _, a in _KA)
"""``ARG[code]``: a card, bid, suit, or dealing method (``100 + X`` for ``deal to X``)."""

DEAL_ACTIONS: tuple[Action, ...] = tuple(a for a in ACTIONS.actions if KIND[a] == K_DEAL)
KEEP = ACTIONS["keep"]
PASS = ACTIONS["pass"]
DIAMONDS = ACTIONS["diamonds"]
GIVE: dict[Card, Action] = {c: ACTIONS[f"give {CARD_NAMES[c]}"] for c in _PICTURE_LIST}
RETURN: dict[Card, Action] = {c: ACTIONS[f"return {CARD_NAMES[c]}"] for c in _SUIT_CARD_LIST}
BID: dict[int, Action] = {n: ACTIONS[f"bid {n}"] for n in range(5, 10)}
TRUMP: tuple[Action, ...] = tuple(ACTIONS[f"trump {s}"] for s in SUITS)
TRUMP_IN_ORDER: tuple[Action, ...] = tuple(sorted(TRUMP))
PLAY: dict[Card, Action] = {c: ACTIONS[f"play {CARD_NAMES[c]}"] for c in _DECK_LIST}

AUCTION_LEGAL: dict[tuple[int, int], tuple[Action, ...]] = {
    (lo, hi): (*(BID[n] for n in range(lo, hi + 1)), DIAMONDS, PASS)
    for lo in range(5, 11)
    for hi in range(0, 10)
}
"""Auction legal tuples: bids ``lo..hi`` (empty when ``lo > hi``), then diamonds, pass."""

OVERRIDE_LEGAL: tuple[Action, ...] = (DIAMONDS, PASS)


def _play_table(suit: int) -> tuple[tuple[Action, ...], ...]:
    out = []
    for bits in range(512):
        out.append(tuple(PLAY[suit * 13 + r] for r in range(9) if bits >> r & 1))
    return tuple(out)


PLAY_BY_SUIT: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(_play_table(s) for s in range(4))
_PLAY_C, _PLAY_S, _PLAY_H, _PLAY_D = PLAY_BY_SUIT

_PLAYS_SEEN: dict[CardSet, tuple[Action, ...]] = {}
"""Memo of card set → ``play`` actions. Legal sets repeat a lot across deals (most are a
few cards of one class), so about three lookups in four are one dict hit; it stops
growing at ``_PLAYS_SEEN_LIMIT`` entries (a few MB), keeping what it has."""
_PLAYS_SEEN_LIMIT = 1 << 15
"""``PLAY_BY_SUIT[s][bits]``: the ``play`` actions of suit ``s`` for the 9-bit rank pattern
``bits`` (A..6), in card order — so legal plays are four lookups, no sorting."""


def play_actions(cards: CardSet) -> tuple[Action, ...]:
    """The ``play X`` actions of a card set, in card order."""
    return (
        PLAY_BY_SUIT[0][cards & 0x1FF]
        + PLAY_BY_SUIT[1][cards >> 13 & 0x1FF]
        + PLAY_BY_SUIT[2][cards >> 26 & 0x1FF]
        + PLAY_BY_SUIT[3][cards >> 39 & 0x1FF]
    )


# Phases (SAS-21.1)
CUT, EXCHANGE, AUCTION, DECLARE, OVERRIDE, PLAY_PHASE, OVER = (
    "cut",
    "exchange",
    "auction",
    "declare",
    "override",
    "play",
    "over",
)


def read_replay_key(value: object) -> dict[str, Any]:
    """The ``replay`` deal-record key, validated and canonical (SAS-15.2)."""
    if not isinstance(value, dict) or set(value) != {"trump", "declarer"}:
        raise MalformedRecord("'replay' must be an object with exactly 'trump' and 'declarer'")
    trump = value["trump"]
    if not isinstance(trump, str) or trump.upper() not in ("C", "S", "H", "D"):
        raise MalformedRecord('\'replay.trump\' must be one of "C", "S", "H", "D"')
    trump = trump.upper()
    declarer = value["declarer"]
    if declarer is not None and (type(declarer) is not int or not 0 <= declarer <= 3):
        raise MalformedRecord("'replay.declarer' must be a seat 0–3 or null")
    if declarer is None and trump != "D":
        raise MalformedRecord("'replay' of a passed deal (declarer null) needs trump \"D\"")
    return {"trump": trump, "declarer": declarer}


# ----------------------------------------------------------------------------------------
# The deal
# ----------------------------------------------------------------------------------------


class SaskuDeal(DealState):
    """One Sasku deal. ``apply`` works in place; ``clone`` copies.

    Public attributes in the game's words: ``cutter``, ``eldest``, ``hands`` (bitmask per
    seat), ``trump`` (suit number or -1), ``declarer``, ``high_bid``/``high_bidder``,
    ``points``/``tricks`` per team, ``trick`` (cards of the current trick, from ``leader``).
    """

    game: Sasku

    # Slots: fixed-offset attribute access on the hot path (a deal has ~45 attributes,
    # more than CPython's shared instance dictionaries keep fast).
    __slots__ = (  # noqa: RUF023 - grouped by phase, not sorted
        "game", "variant", "must_beat", "dealer", "num_seats", "eldest", "cutter",
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
        game: Sasku,
        variant: Variant,
        dealer: int,
        deck: list[Card] | None,
        hands: list[list[Card]] | None,
        replay: dict[str, Any] | None,
    ) -> None:
        self.game = game
        self.variant = variant
        self.must_beat: bool = variant["must_beat"]
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
            self.trump = SUITS.index(replay["trump"])
            self.declarer = replay["declarer"]
            self.passed_deal = replay["declarer"] is None
        if hands is not None:  # SAS-6.6: a record with hands starts at the exchange
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
                    _PLAY_C[cards & 0x1FF]
                    + _PLAY_S[cards >> 13 & 0x1FF]
                    + _PLAY_H[cards >> 26 & 0x1FF]
                    + _PLAY_D[cards >> 39]
                )
                if len(_PLAYS_SEEN) < _PLAYS_SEEN_LIMIT:
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
        seat = self.to_act
        assert seat is not None
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

    # --- legal actions --------------------------------------------------------------
    def _generate_legal(self) -> tuple[Action, ...]:
        """Legal actions by phase; the play branch is the reference path through
        :meth:`TrumpConfig.follow` (``legal_actions`` applies the same obligations inline)."""
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

    # --- applying actions ------------------------------------------------------------
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
            hands[(dealer + offset) & 3] = sum(map(_BIT_OF, getters[offset](deck)))
        self._start_exchange()  # SAS-6.5

    def _start_exchange(self) -> None:
        if not self.variant["exchange"]:  # SAS-17.4
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

    def _after_exchange(self) -> None:
        """SAS-7.6: to the auction, or straight to play in a replay deal (SAS-15.2)."""
        if self.replay is not None:
            self._start_play()
        else:
            self.phase = AUCTION  # SAS-8.2: eldest first
            self.to_act = self.eldest

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

    # --- errors ------------------------------------------------------------------------
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, naming the rule."""
        return self.explain(action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and text (the same line as
        :meth:`explain_illegal`)."""
        seat = self.to_act
        if seat is None:
            return explained("deal_over", "the deal is over: no action is allowed (SAS-12.1)")
        kind, arg = KIND[action], ARG[action]
        phase = self.phase
        hand = self.hands[seat]
        text = action.text
        expected, forms = {
            CUT: ("the cutter's dealing choice 'deal …' (SAS-6.2)", ["deal …"]),
            EXCHANGE: (
                ("'return X' (SAS-7.4)", ["return X"])
                if self.pending_giver >= 0
                else ("'give P' or 'keep' (SAS-7.3)", ["give P", "keep"])
            ),
            AUCTION: ("'bid N', 'pass' or 'diamonds' (SAS-8.3)", ["bid N", "pass", "diamonds"]),
            DECLARE: ("'trump S' (SAS-9.1)", ["trump S"]),
            OVERRIDE: ("'diamonds' or 'pass' (SAS-9.3)", ["diamonds", "pass"]),
            PLAY_PHASE: ("'play X' (SAS-10.1)", ["play X"]),
        }[phase]
        wrong_phase = explained(
            "wrong_phase",
            f"{text!r} is not allowed in phase {phase}: seat {seat} must send {expected}",
            action=text,
            phase=phase,
            seat=seat,
            expected=forms,
        )
        if phase == CUT:
            return wrong_phase
        if phase == EXCHANGE:
            if self.pending_giver >= 0:
                if kind != K_RETURN:
                    return wrong_phase
                return explained(
                    "not_held",
                    f"{CARD_NAMES[arg]} is not in seat {seat}'s hand (SAS-7.4)",
                    seat=seat,
                    card=CARD_NAMES[arg],
                )
            if kind == K_GIVE:
                lone = CARD_NAMES[(hand & PICTURES).bit_length() - 1]
                return explained(
                    "give_lone_picture",
                    f"seat {seat} can only give its lone picture {lone}, not {CARD_NAMES[arg]} (SAS-7.3)",
                    seat=seat,
                    picture=lone,
                    card=CARD_NAMES[arg],
                )
            return wrong_phase
        if phase == AUCTION:
            if kind != K_BID:
                return wrong_phase
            if arg <= self.high_bid:
                return explained(
                    "bid_too_low",
                    f"bid {arg} must be higher than the current bid {self.high_bid} (SAS-8.4)",
                    bid=arg,
                    minimum=self.high_bid + 1,
                )
            length = hand_length(hand)
            return explained(
                "bid_over_length",
                f"bid {arg} is more than seat {seat}'s length {length} "
                "(pictures + cards of its longest suit) (SAS-8.4, SAS-8.1)",
                bid=arg,
                seat=seat,
                length=length,
            )
        if phase == DECLARE:
            if kind != K_TRUMP:
                if kind == K_DIAMONDS:
                    return explained(
                        "diamonds_as_trump_d",
                        "the final bidder names diamonds with 'trump D', not 'diamonds' (SAS-8.8, SAS-9.1)",
                    )
                return wrong_phase
            count = potential_trumps(hand, arg)
            return explained(
                "trump_too_short",
                f"trump {SUITS[arg]} needs at least {self.high_bid} potential trumps; "
                f"seat {seat} has {count} (SAS-9.1)",
                suit=SUITS[arg],
                needed=self.high_bid,
                seat=seat,
                count=count,
            )
        if phase == OVERRIDE:
            return wrong_phase
        if kind != K_PLAY:
            return wrong_phase
        if not hand >> arg & 1:
            return explained(
                "not_held",
                f"{CARD_NAMES[arg]} is not in seat {seat}'s hand (SAS-10.1)",
                seat=seat,
                card=CARD_NAMES[arg],
            )
        config = self.config
        assert config is not None
        led_class = config.class_of[self.trick[0]]
        if hand & led_class:
            if not led_class >> arg & 1:
                what = "trumps" if led_class == config.trumps else f"{SUITS[self.trick[0] // 13]}"
                return explained(
                    "must_follow",
                    f"seat {seat} must follow the led class ({what}) (SAS-10.3, SAS-10.5)",
                    seat=seat,
                    suit="trump" if what == "trumps" else what,
                )
        elif hand & config.trumps and not config.trumps >> arg & 1:
            return explained(
                "must_trump",
                f"seat {seat} is void in the led suit and must play a trump (SAS-10.3, SAS-10.5)",
                seat=seat,
            )
        return explained(
            "must_beat",
            f"{CARD_NAMES[arg]} does not beat {CARD_NAMES[self.winning]}; seat {seat} holds a card "
            "that does and must play one (SAS-10.3, SAS-10.4, SAS-17.2)",
            card=CARD_NAMES[arg],
            winning=CARD_NAMES[self.winning],
            seat=seat,
        )

    # --- results -----------------------------------------------------------------------
    def result(self) -> dict[str, JSON]:
        """The SAS-14.1 result object of the finished deal."""
        if self.to_act is not None:
            raise ValueError("the deal is not over")
        if self._result is None:
            self._result = self._score()
        # fresh lists: a caller that edits its result cannot change the cache (clones share
        # it); copied key by key, since search playouts read a result at every leaf
        out = dict(self._result)
        out["score"] = out["score"].copy()
        out["points"] = out["points"].copy()
        out["tricks"] = out["tricks"].copy()
        if "replay" in out:
            out["replay"] = dict(out["replay"])
        return out

    def _score(self) -> dict[str, JSON]:
        points, tricks = self.points, self.tricks
        target: int = self.variant["target"]
        score = [0, 0]
        won_by: int | None = None
        lambapea = 9 in tricks
        redeal = False
        declarer_team = None if self.declarer is None else self.declarer & 1
        if lambapea:  # SAS-13.1 (also SAS-22.5)
            won_by = tricks.index(9)
            score[won_by] = target
        elif points[0] == 60:  # SAS-13.2
            redeal = True
        elif self.passed_deal or declarer_team is None:  # SAS-13.3
            won_by = 0 if points[0] > 60 else 1
            score[won_by] = 1
        else:  # SAS-13.4, SAS-13.5
            pd = points[declarer_team]
            diamonds = self.trump == DIAMONDS_SUIT
            if pd >= 91:
                won_by, strokes = declarer_team, (6 if diamonds else 4)
            elif pd >= 61:
                won_by, strokes = declarer_team, (4 if diamonds else 2)
            elif pd >= 30:
                won_by, strokes = 1 - declarer_team, (6 if diamonds else 4)
            else:  # SAS-22.6
                won_by, strokes = 1 - declarer_team, (8 if diamonds else 6)
            score[won_by] = strokes
        out: dict[str, JSON] = {
            "score": score,
            "won_by": won_by,
            "points": list(points),
            "tricks": list(tricks),
            "trump": SUITS[self.trump],
            "declarer": self.declarer,
            "declarer_team": declarer_team,
            "passed": self.passed_deal,
            "bid": self.high_bid or None,
            "lambapea": lambapea,
            "redeal": redeal,
        }
        if redeal:  # SAS-14.1, SAS-15.2
            out["replay"] = {"trump": SUITS[self.trump], "declarer": self.declarer}
        return out

    # --- events ------------------------------------------------------------------------
    def _narrate(self) -> list[Told]:
        """The deal's events (:mod:`folkcards.engine.events`): replayed from its set-up,
        each action read for what it changed. A returned card is seen by its giver and
        returner only (SAS-7.7, SAS-19.1); everything else is public."""
        return _narrate(self)

    # --- views -------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (SAS-19): its hand, public facts, hidden returns as ``?``."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat} in Sasku (seats 0–3)")
        return self._observe(seat)

    def public_observation(self) -> Observation:
        """What a spectator may know now (SAS-19.1): the public facts only.

        As a seat that took part in no exchange sees the deal: every ``return X`` is
        ``return ?`` and its card ``"?"`` in ``info.exchanges`` (SAS-7.7); the cards dealt
        face up by ``deal to X``, the given pictures, bids, trump, declarer and plays are
        public. No hand and no legal actions.
        """
        return self._observe(SPECTATOR)

    def _observe(self, viewer: int) -> Observation:
        """The observation of ``viewer``: a seat 0–3, or SPECTATOR (no seat, no hand)."""
        history = []
        for action, actor in zip(self.history, self.actors, strict=True):
            if KIND[action] == K_RETURN and viewer != actor and viewer != (actor + 2) & 3:
                history.append("return ?")  # SAS-7.7, SAS-19.1
            else:
                history.append(action.text)
        exchanges = []
        for giver, picture, returner, returned in self.exchanges:
            if returned < 0:
                shown: str | None = None
            elif viewer in (giver, returner):
                shown = CARD_NAMES[returned]
            else:
                shown = "?"
            exchanges.append(
                {
                    "giver": giver,
                    "picture": CARD_NAMES[picture],
                    "returner": returner,
                    "returned": shown,
                }
            )
        face_up_seat = {}
        if self.face_up:
            assert self.deck is not None
            layout = DEAL_LAYOUTS["to"]
            for i, c in enumerate(self.face_up):
                face_up_seat[c] = (self.dealer + layout[i][0]) & 3
        leader = self.leader if self.phase in (PLAY_PHASE, OVER) else None
        info: dict[str, JSON] = {
            "cutter": self.cutter,
            "eldest": self.eldest,
            "deal": self.method,
            "face_up": [[CARD_NAMES[c], face_up_seat[c]] for c in self.face_up],
            "exchanges": exchanges,
            "bid": self.high_bid or None,
            "bidder": self.high_bidder if self.high_bid else None,
            "passed": [s for s in range(4) if self.passed_mask >> s & 1],
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "declarer": self.declarer,
            "passed_deal": self.passed_deal,
            "leader": leader,
            "trick": [[(self.leader + i) & 3, CARD_NAMES[c]] for i, c in enumerate(self.trick)],
            "tricks_played": self.tricks_played,
            "points": list(self.points),
            "tricks": list(self.tricks),
            "hand_sizes": [h.bit_count() for h in self.hands],
        }
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
            legal=self.legal_actions() if seated and viewer == self.to_act else (),
            history=tuple(history),
            actors=tuple(self.actors),
            info=info,
            carry={"replay": dict(self.replay)} if self.replay is not None else {},
            result=self.result() if self.to_act is None else None,
        )

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

    def clone(self) -> SaskuDeal:
        """An independent copy (lists copied, immutable parts shared)."""
        new = object.__new__(SaskuDeal)
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
        """The pickled state: every slot but the trump tables and the legal cache, with the
        history as action codes (pickle protocols 0–5; see :meth:`__setstate__`)."""
        state = {name: getattr(self, name) for name in _PICKLED_SLOTS}
        state["history"] = [int(a) for a in self.history]
        state["config"] = self.config is not None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled deal exactly as the rules left it, by value: the phase and
        method as this module's strings, the history as the ``ACTIONS`` table's own
        actions, and the trump tables rebound from ``TRUMP_CONFIGS`` (SAS-10.3, SAS-11)."""
        for name in _PICKLED_SLOTS:
            setattr(self, name, state[name])
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
_SCALAR_SLOTS: tuple[str, ...] = tuple(n for n in SaskuDeal.__slots__ if n not in _LIST_SLOTS)
_PICKLED_SLOTS: tuple[str, ...] = tuple(
    n
    for n in SaskuDeal.__slots__
    if n not in {"history", "_legal", "config", "trumps", "class_of", "beats"}
)
"""The slots a pickle stores as they are (:meth:`SaskuDeal.__getstate__`)."""
_PHASE_OF: dict[str, str] = {
    p: p for p in (CUT, EXCHANGE, AUCTION, DECLARE, OVERRIDE, PLAY_PHASE, OVER)
}
_METHOD_OF: dict[str, str] = {m: m for m in DEAL_METHODS}

CARD_OF_PLAY: tuple[int, ...] = tuple(ARG[a] if KIND[a] == K_PLAY else -1 for a in ACTIONS.actions)
"""``CARD_OF_PLAY[code]``: the card of a ``play`` action."""


# ----------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------


class Sasku(Game):
    """Sasku's facts, variants, records, determinization and match rules."""

    name = "sasku"
    title = "Sasku"
    deck = DECK
    partnership = True
    variant_options = (
        VariantOption(
            "must_beat", True, "a follower who can beat the winning card must (SAS-17.2)"
        ),
        VariantOption(
            "target", 16, "strokes that win the match; lambapea scores it (SAS-17.3)", minimum=1
        ),
        VariantOption("exchange", True, "the lone-picture exchange takes place (SAS-17.4)"),
    )
    deal_keys = ("replay",)
    # SAS-14.1: ``replay`` is "exactly what the next deal record must carry", and SAS-16.3
    # checks it against SAS-16.2: a deal of a match may not leave it out (it is no derived
    # key); absent, it is an ordinary deal's, which disagrees with a 60-60 before it.
    derived_deal_keys = ()

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """Every Sasku action, codes 0..123 in the conventions' order (learning envs)."""
        return ACTIONS.actions

    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action ``text`` names (SAS-20.3), with a specific message when it names none."""
        try:
            return ACTIONS.parse(text)
        except ActionSyntaxError:
            pass
        tokens = canonical_tokens(text, DECK)  # raises for a card outside the deck (SAS-20.2)
        verb, args = tokens[0], tokens[1:]
        if verb == "give" and len(args) == 1 and args[0] in CARD_NAMES:
            raise ActionSyntaxError(
                f"{args[0]} is not a picture: only a lone K, Q or J is given (SAS-7.3)",
                "give_not_picture",
                {"card": args[0]},
            )
        if verb == "return" and len(args) == 1 and args[0] in CARD_NAMES:
            raise ActionSyntaxError(
                f"{args[0]} is a picture: only a suit card is returned (SAS-7.4)",
                "return_picture",
                {"card": args[0]},
            )
        if verb == "bid" and len(args) == 1 and args[0].isdigit():
            raise ActionSyntaxError(
                f"bids are 5 to 9, not {args[0]} (SAS-8.4)",
                "bid_out_of_range",
                {"bid": int(args[0]), "minimum": 5, "maximum": 9},
            )
        if verb == "deal":
            raise ActionSyntaxError(
                "the dealing choices are 'deal threes|ones|nines|cover' and 'deal to X' (SAS-6.2)",
                "bad_deal_choice",
            )
        if verb == "trump":
            raise ActionSyntaxError(
                "'trump' takes a suit letter C, S, H or D (SAS-9.1)", "bad_trump_suit"
            )
        raise ActionSyntaxError(
            f"{text.strip()!r} is not a Sasku action (SAS-20.3)",
            "not_an_action",
            {"action": text.strip()},
        )

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> SaskuDeal:
        """A deal from a deck (top card first; the cutter chooses how it is dealt) or from
        dealt hands (SAS-6.6). ``carry`` may hold ``replay`` (SAS-15.2)."""
        if type(dealer) is not int or not 0 <= dealer <= 3:
            raise MalformedRecord("'dealer' must be an integer seat 0–3")
        if extra:
            raise MalformedRecord(
                "Sasku deals no extra piles: 'extra' must be absent or {} (SAS-6.6)"
            )
        replay = None
        if carry and carry.get("replay") is not None:
            replay = read_replay_key(carry["replay"])
        if (deck is None) == (hands is None):
            raise MalformedRecord("a Sasku deal needs exactly one of a deck or hands")
        if deck is not None:
            deck_list = list(deck)
            if len(deck_list) != 36 or set(deck_list) != _DECK_SET:
                raise MalformedRecord("'deck' must hold the 36 Sasku cards, each once (SAS-2.1)")
            return SaskuDeal(self, variant, dealer, deck_list, None, replay)
        assert hands is not None
        hand_lists = [list(h) for h in hands]
        if len(hand_lists) != 4 or any(len(h) != 9 for h in hand_lists):
            raise MalformedRecord("'hands' must be 4 lists of 9 cards (SAS-6.6)")
        if {c for h in hand_lists for c in h} != _DECK_SET:
            raise MalformedRecord("'hands' must together be the 36 Sasku cards (SAS-6.6)")
        return SaskuDeal(self, variant, dealer, None, hand_lists, replay)

    def random_deal(
        self,
        rng: random.Random,
        variant: Variant | None = None,
        dealer: int = 0,
        carry: Mapping[str, Any] | None = None,
    ) -> SaskuDeal:
        """A new deal from a deck shuffled by ``rng`` (the cutter still chooses the method).

        Every order of the pack is equally likely (:func:`shuffled_pack`); the pack it
        has just shuffled is not validated again, since every random playout starts here.
        """
        v = _DEFAULT_VARIANT if not variant else self.normalize_variant(variant)
        if type(dealer) is not int or not 0 <= dealer <= 3:
            raise MalformedRecord("'dealer' must be an integer seat 0–3")
        replay = None
        if carry and carry.get("replay") is not None:
            replay = read_replay_key(carry["replay"])
        return SaskuDeal(self, v, dealer, shuffled_pack(rng), None, replay)

    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """The ``replay`` key (SAS-15.2), validated; ``{}`` for an ordinary deal."""
        if "replay" not in record:
            return {}
        return {"replay": read_replay_key(record["replay"])}

    # --- matches (SAS-16) ------------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0–0; the first dealer is any seat (SAS-16.1, SAS-16.2)."""
        return MatchState(totals=[0, 0], next_dealer=None, carry={})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """Add the deal's strokes; next dealer and ``replay`` by SAS-16.2; winner by SAS-16.1."""
        res = deal.result()
        score = res["score"]
        totals = [match.totals[0] + score[0], match.totals[1] + score[1]]
        target = deal.variant["target"]
        if res["redeal"]:
            next_dealer, carry = deal.dealer, {"replay": dict(res["replay"])}
        else:
            next_dealer, carry = (deal.dealer + 1) % 4, {}
        winner = None
        for team in (0, 1):
            if totals[team] >= target:
                winner = team
        return MatchState(
            totals=totals,
            next_dealer=next_dealer,
            carry=carry,
            over=winner is not None,
            winner=winner,
            draw=False,
            deals=match.deals + 1,
        )

    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Sasku's game card: pictures are the trump group before the trump is named
        (SAS-1.2), then the SAS-3.1 trump order; plain suits A T 9 8 7 6 (SAS-3.2)."""
        v = self.normalize_variant(variant)
        groups = {NO_TRUMP: cards_of(" ".join(r + x for r in "KQJ" for x in SUITS))}
        for t in range(4):
            groups[SUITS[t]] = tuple(trump_order(t))
        phases = [CUT, EXCHANGE, AUCTION, DECLARE, OVERRIDE, PLAY_PHASE]
        if not v["exchange"]:
            phases.remove(EXCHANGE)
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=4,
            sides=teams(4, True),
            partnership=True,
            direction="clockwise",
            deck=DECK,
            pack="french",
            phases=tuple(phases),
            utility_bounds=(0, max(v["target"], 8)),  # lambapea scores the target (SAS-13.1)
            margin_scale=4.0,
            shaping=("points", 15.0),
            suit_order=SUITS,
            suit_ranks={x: suit_run("AT9876", x) for x in SUITS},
            trump_groups=groups,
            table_keys=(
                "trump",
                "declarer",
                "bid",
                "bidder",
                "passed",
                "leader",
                "trick",
                "points",
                "tricks",
                "hand_sizes",
                "face_up",
            ),
            rules="SAS",
            notes={
                "phases": "a replay deal after 60–60 skips the auction, declare and "
                "override (SAS-15.2); a record with hands starts at the exchange",
                "utility_bounds": "strokes per team and deal: 8 at most, the target on a "
                "lambapea (SAS-13)",
            },
        )

    def describe(self, state: DealState) -> str:
        """A few lines: phase, seat to act, trump, hands and the current trick."""
        assert isinstance(state, SaskuDeal)
        lines = [f"Sasku · dealer {state.dealer} · phase {state.phase} · to act {state.to_act}"]
        if state.trump >= 0:
            lines.append(f"trump {SUITS[state.trump]} · declarer {state.declarer}")
        for seat in range(4):
            lines.append(f"  seat {seat}: {' '.join(mask_text(state.hands[seat]))}")
        if state.trick:
            lines.append("  trick: " + " ".join(CARD_NAMES[c] for c in state.trick))
        lines.append(f"  points {state.points} · tricks {state.tricks}")
        return "\n".join(lines)

    # --- determinization -------------------------------------------------------------------
    def determinize(self, obs: Observation, rng: random.Random) -> SaskuDeal:
        """A full deal consistent with ``obs``, built from ``obs`` alone.

        Hidden cards are sampled under the constraints the observation implies: the known
        cards (own hand, played cards, cards dealt face up, the given picture, a return
        the seat saw), revealed voids and must-beat failures in play, exact picture counts
        of seats asked in the exchange, bid lengths and trump lengths. The sample is then
        replayed through the rules from its reconstructed deal, so every remaining
        condition (exchange eligibility of skipped seats…) is checked exactly; samples
        that fail are drawn again.
        """
        return _Determinizer(self, obs).sample(rng)


_DECK_SET = frozenset(_DECK_LIST)
_ORDERS_OF_THE_PACK = math.factorial(36)
_SWAP_BOUNDS = tuple((i, i + 1) for i in range(35, 0, -1))


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 36 cards in a uniformly random order, drawn with one ``rng.randrange`` call.

    A uniform number below 36! read as mixed-radix digits gives exactly the independent
    uniform swap positions of a Fisher–Yates shuffle; one big draw instead of 35 small
    ones halves the cost of ``rng.shuffle``, which matters in random playouts.
    """
    n = rng.randrange(_ORDERS_OF_THE_PACK)
    deck = _DECK_LIST.copy()
    for i, bound in _SWAP_BOUNDS:
        j = n % bound
        n //= bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class _Determinizer:
    """Constraint extraction from one Observation, then sample-and-verify (see determinize)."""

    MAX_TRIES = 3000

    def __init__(self, game: Sasku, obs: Observation) -> None:
        self.game = game
        self.obs = obs
        self.variant = dict(obs.variant)
        info = obs.info
        self.method: str | None = info["deal"]
        self.face_up = [(card_of(c), s) for c, s in info["face_up"]]
        self.from_hands = obs.phase != CUT and self.method is None
        me = obs.seat
        self.me = me
        self.carry = dict(obs.carry)
        # Follow the public history: who holds which known card now, and what each seat
        # cannot hold (voids, must-beat failures), and per-seat auction facts.
        owner: dict[Card, int] = {c: s for c, s in self.face_up}
        self.face_up_of = [0, 0, 0, 0]
        for c, s in self.face_up:
            self.face_up_of[s] |= BIT[c]
        played = [0, 0, 0, 0]
        forbidden = [0, 0, 0, 0]
        sizes = [9, 9, 9, 9] if obs.phase != CUT else [0, 0, 0, 0]
        max_bid = [0, 0, 0, 0]
        trump_claim: tuple[int, int, int] | None = None  # (seat, suit, bid)
        self.exchanges: list[tuple[int, Card, int, Card | None, bool]] = []
        kept = [False] * 4
        received_later = [False] * 4
        # cards are played only once the trump is fixed, so the final trump rules every trick
        config = TRUMP_CONFIGS[SUITS.index(info["trump"])] if info["trump"] is not None else None
        high_bid = 0
        for text, actor in zip(obs.history, obs.actors, strict=True):
            words = text.split(" ")
            verb = words[0]
            if verb == "give":
                p = card_of(words[1])
                owner[p] = (actor + 2) & 3
                sizes[actor] -= 1
                sizes[(actor + 2) & 3] += 1
                self.exchanges.append((actor, p, (actor + 2) & 3, None, False))
                if kept[(actor + 2) & 3]:
                    received_later[(actor + 2) & 3] = True
            elif verb == "return":
                g, p, r, _, _ = self.exchanges[-1]
                sizes[actor] -= 1
                sizes[g] += 1
                if words[1] == "?":
                    self.exchanges[-1] = (g, p, r, None, True)
                else:
                    x = card_of(words[1])
                    owner[x] = g
                    self.exchanges[-1] = (g, p, r, x, True)
            elif verb == "keep":
                kept[actor] = True
            elif verb == "bid":
                high_bid = int(words[1])
                max_bid[actor] = max(max_bid[actor], high_bid)
            elif verb == "trump":
                suit = SUITS.index(words[1])
                if suit != DIAMONDS_SUIT:
                    trump_claim = (actor, suit, high_bid)  # SAS-9.1: potential ≥ bid
            elif verb == "play":
                c = card_of(words[1])
                assert config is not None
                played[actor] |= BIT[c]
                owner.pop(c, None)
                sizes[actor] -= 1
        if config is not None:  # voids and failures to beat (SAS-10.3, SAS-17.2)
            forbidden = play_exclusions(obs.history, obs.actors, config, self.variant["must_beat"])
        for c in list(owner):
            if owner[c] == me:
                del owner[c]
        self.owner = owner
        self.played = played
        self.forbidden = forbidden
        self.sizes = sizes
        self.max_bid = max_bid
        self.trump_claim = trump_claim
        # exact picture counts of seats whose hand at the exchange is pinned by their turn
        self.pictures_exact: list[int | None] = [None] * 4
        for g, _p, _r, _x, _done in self.exchanges:
            self.pictures_exact[g] = 0  # gave its only picture, got a suit card (or nothing yet)
        for s in range(4):
            if kept[s]:
                self.pictures_exact[s] = 2 if received_later[s] else 1

    def sample(self, rng: random.Random) -> SaskuDeal:
        obs = self.obs
        if obs.phase == CUT and not obs.history:
            deck = list(_DECK_LIST)
            rng.shuffle(deck)
            return self.game.new_deal(self.variant, obs.dealer, deck, carry=self.carry)
        last_error = "no sample"
        for _ in range(self.MAX_TRIES):
            try:
                state = self._attempt(rng)
            except _Reject as exc:
                last_error = str(exc)
                continue
            if state.observation(self.me) == obs:
                return state
            last_error = "observation differs"
        raise FolkcardsError(f"cannot determinize this observation ({last_error})")

    def _seat_fits(self, seat: int, after_exchange: CardSet) -> bool:
        """The seat's own facts: picture count at the exchange (SAS-7.1), bid length
        (SAS-8.4) and the named trump's length (SAS-9.1), on its hand after the exchange."""
        exact = self.pictures_exact[seat]
        if exact is not None and (after_exchange & PICTURES).bit_count() != exact:
            return False
        if self.max_bid[seat] and hand_length(after_exchange) < self.max_bid[seat]:
            return False
        claim = self.trump_claim
        return not (
            claim is not None
            and claim[0] == seat
            and potential_trumps(after_exchange, claim[1]) < claim[2]
        )

    def _draw_seat(
        self, seat: int, allowed: CardSet, need: int, known: CardSet, rng: random.Random
    ) -> CardSet:
        """``need`` hidden cards for ``seat`` from ``allowed`` that fit its own facts.

        Plain uniform draws first; when the seat's facts are narrow (a long bid, an exact
        picture count) the draw is steered: the required pictures, or enough potential
        trumps of a suit, are drawn first and the rest uniformly.
        """
        cards = cards_list(allowed)
        if need > len(cards):
            raise _Reject("not enough cards")
        base = known | self.played[seat]
        exact = self.pictures_exact[seat]
        pics = cards_list(allowed & PICTURES)
        rest = cards_list(allowed & ~PICTURES)
        for attempt in range(40):
            if exact is not None:  # the exact number of hidden pictures
                q = exact - (base & PICTURES).bit_count()
                if q < 0 or q > need or q > len(pics) or need - q > len(rest):
                    raise _Reject("picture count")
                chosen = rng.sample(pics, q) + rng.sample(rest, need - q)
            elif attempt < 10 or not (self.max_bid[seat] or self.trump_claim):
                chosen = rng.sample(cards, need)
            else:  # enough potential trumps in one suit for the bid or the named trump
                claim = self.trump_claim
                if claim is not None and claim[0] == seat:
                    suit, length = claim[1], max(claim[2], self.max_bid[seat])
                else:
                    suit, length = rng.randrange(4), self.max_bid[seat]
                long_suit = cards_list(allowed & TRUMPS_OF[suit])
                t = max(0, length - (base & TRUMPS_OF[suit]).bit_count())
                if t > need or t > len(long_suit):
                    continue
                first = rng.sample(long_suit, t)
                others = [c for c in cards if c not in first]
                chosen = first + rng.sample(others, need - t)
            m = 0
            for c in chosen:
                m |= BIT[c]
            if self._seat_fits(seat, base | m):
                return m
        raise _Reject("no hand fits this seat's bids and exchange")

    def _attempt(self, rng: random.Random) -> SaskuDeal:
        me, obs = self.me, self.obs
        known = [0, 0, 0, 0]
        for c, s in self.owner.items():
            known[s] |= BIT[c]
        known[me] = obs.hand
        # choose the hidden returned cards first (they fix a known card in the giver's hand)
        returned: dict[int, Card] = {}
        all_played = self.played[0] | self.played[1] | self.played[2] | self.played[3]
        pool = DECK & ~all_played & ~(known[0] | known[1] | known[2] | known[3])
        for idx, (g, _p, r, x, done) in enumerate(self.exchanges):
            if not done or x is not None:
                continue
            fu_r = self.face_up_of[r] & SUIT_CARDS
            candidates = (
                (self.played[g] & SUIT_CARDS & ~self.face_up_of[g])
                | (pool & SUIT_CARDS & ~self.forbidden[g])
                | (fu_r & known[r] & ~self.forbidden[g])
            )
            forced = self.played[g] & fu_r
            if forced:
                candidates = forced
            if not candidates:
                raise _Reject("no card can have been returned")
            x = rng.choice(cards_list(candidates))
            returned[idx] = x
            if pool >> x & 1:
                pool &= ~BIT[x]
                known[g] |= BIT[x]
            elif known[r] >> x & 1:
                known[r] &= ~BIT[x]
                known[g] |= BIT[x]
        # sample the hidden part of each other seat's current hand, most constrained first
        need = [self.sizes[s] - known[s].bit_count() for s in range(4)]
        need[me] = 0
        others = [s for s in range(4) if s != me]
        if rng.random() < 0.25:  # now and then another order, in case greed paints a corner
            rng.shuffle(others)
            order = others
        else:  # exact picture counts first, then the least slack, then the longest bid
            order = sorted(
                others,
                key=lambda s: (
                    self.pictures_exact[s] is None,
                    (pool & ~self.forbidden[s]).bit_count() - need[s],
                    -self.max_bid[s],
                ),
            )
        hands = list(known)
        for s in order:
            if need[s] < 0:
                raise _Reject("hand sizes")
            chosen = self._draw_seat(s, pool & ~self.forbidden[s], need[s], known[s], rng)
            hands[s] |= chosen
            pool &= ~chosen
        if pool:
            raise _Reject("cards left over")
        after_exchange = [hands[s] | self.played[s] for s in range(4)]
        # undo the exchanges to get the dealt hands
        dealt = after_exchange.copy()
        actions = list(obs.history)
        return_idx = [i for i, t in enumerate(actions) if t.startswith("return")]
        for idx, (g, p, r, x, done) in enumerate(self.exchanges):
            if done:
                if x is None:
                    x = returned[idx]
                    actions[return_idx[idx]] = f"return {CARD_NAMES[x]}"
                dealt[g] = dealt[g] & ~BIT[x] | BIT[p]
                dealt[r] = dealt[r] & ~BIT[p] | BIT[x]
            else:
                dealt[g] |= BIT[p]
                dealt[r] &= ~BIT[p]
        if any(h.bit_count() != 9 for h in dealt):
            raise _Reject("dealt hands")
        if self.from_hands:
            lists = []
            for s in range(4):
                cards = cards_list(dealt[s])
                rng.shuffle(cards)
                lists.append(cards)
            state = self.game.new_deal(
                self.variant, obs.dealer, None, hands=lists, carry=self.carry
            )
        else:
            assert self.method is not None
            deck: list[Card] = [-1] * 36
            for i, (c, _s) in enumerate(self.face_up):
                deck[i] = c
            slots = DEAL_SLOTS[self.method]
            for s in range(4):
                free = [i for i in slots[(s - obs.dealer) & 3] if deck[i] < 0]
                cards = cards_list(dealt[s] & ~self.face_up_of[s])
                if len(cards) != len(free):
                    raise _Reject("face-up cards")
                rng.shuffle(cards)
                for i, c in zip(free, cards, strict=True):
                    deck[i] = c
            state = self.game.new_deal(self.variant, obs.dealer, deck, carry=self.carry)
        try:
            for text in actions:
                state.apply(text)
        except IllegalAction as exc:
            raise _Reject(str(exc)) from None
        return state


class _Reject(Exception):
    """A determinization sample that contradicts the observation."""


# ----------------------------------------------------------------------------------------
# Events
# ----------------------------------------------------------------------------------------


def _narrate(final: SaskuDeal) -> list[Told]:
    """The events of ``final``'s deal so far, replayed from its set-up (see ``_narrate``)."""
    st = final.fresh()
    assert isinstance(st, SaskuDeal)
    out = [public("deal", dealer=st.dealer)]
    if st.replay is not None:  # SAS-15.2: trump and declarer of the tied deal
        out.append(public("trump", seat=st.declarer, suit=SUITS[st.trump], how="replay"))
    if st.phase == PLAY_PHASE:
        out.append(_contract(st))
    for action, seat in zip(final.history, final.actors, strict=True):
        kind, arg = KIND[action], ARG[action]
        phase = st.phase
        giver = st.pending_giver
        done = st.tricks_played
        st.apply(action)
        if kind == K_PLAY:
            out.append(public("play", seat=seat, card=CARD_NAMES[arg]))
            if st.tricks_played > done:
                leader, cards, winner = st.completed[-1]
                out.append(
                    public(
                        "trick",
                        number=st.tricks_played,
                        leader=leader,
                        cards=[CARD_NAMES[c] for c in cards],
                        winner=winner,
                        side=winner & 1,
                        points=sum(CARD_POINTS[c] for c in cards),
                        bonus=0,
                    )
                )
        elif kind == K_DEAL:
            layout = DEAL_LAYOUTS["to"]
            face_up = [
                [CARD_NAMES[c], (st.dealer + layout[i][0]) & 3] for i, c in enumerate(st.face_up)
            ]
            out.append(public("cut", seat=seat, method=st.method, face_up=face_up))
        elif kind == K_GIVE:  # SAS-7.3: face up
            out.append(
                public(
                    "pass_cards",
                    **{"from": seat, "to": (seat + 2) & 3},
                    count=1,
                    cards=[CARD_NAMES[arg]],
                )
            )
        elif kind == K_RETURN:  # SAS-7.4, SAS-7.7: face down
            out.append(
                private(
                    "pass_cards",
                    (seat, giver),
                    {"cards": None},
                    **{"from": seat, "to": giver},
                    count=1,
                    cards=[CARD_NAMES[arg]],
                )
            )
        elif kind == K_KEEP:
            out.append(public("call", seat=seat, call="keep"))
        elif phase == AUCTION:
            word = "bid" if kind == K_BID else action.text
            out.append(public("bid", seat=seat, action=word, value=arg if kind == K_BID else None))
            if kind == K_DIAMONDS:  # SAS-8.6
                out.append(public("trump", seat=seat, suit="D", how="diamonds"))
            elif st.passed_deal:  # SAS-8.7a
                out.append(public("trump", seat=None, suit="D", how="passed"))
        elif phase == DECLARE:  # SAS-9.1
            out.append(public("trump", seat=seat, suit=SUITS[arg], how="named"))
        elif phase == OVERRIDE:  # SAS-9.3, SAS-9.4
            out.append(public("call", seat=seat, call=action.text))
            if kind == K_DIAMONDS:
                out.append(public("trump", seat=seat, suit="D", how="override"))
        if phase != PLAY_PHASE and st.phase == PLAY_PHASE:
            out.append(_contract(st))
    if st.is_over:
        out.append(public("deal_end", **_deal_end(st)))
    return out


def _contract(st: SaskuDeal) -> Told:
    """The trump that stands and its declarer as play begins (SAS-9.5)."""
    return public(
        "contract",
        declarer=st.declarer,
        mode="passed" if st.passed_deal else ("replay" if st.replay is not None else "bid"),
        bid=st.high_bid or None,
        trump=SUITS[st.trump],
    )


def _deal_end(st: SaskuDeal) -> dict[str, JSON]:
    """The result with the row of SAS-13 that scored it, as data."""
    res = st.result()
    points, score = res["points"], res["score"]
    won_by = res["won_by"]
    if res["lambapea"]:  # SAS-13.1
        outcome = "lambapea"
        why = reason(f"team {won_by}", won_by, "tricks", 9, "=", 9, "SAS-13.1")
    elif res["redeal"]:  # SAS-13.2
        outcome = "redeal"
        why = reason("each team", None, "points", 60, "=", 60, "SAS-13.2")
    elif res["passed"] or res["declarer_team"] is None:  # SAS-13.3
        outcome = "passed"
        why = reason(f"team {won_by}", won_by, "points", points[won_by], ">", 60, "SAS-13.3")
    else:  # SAS-13.4
        dt = res["declarer_team"]
        pd = points[dt]
        op, target = (
            (">=", 91)
            if pd >= 91
            else (">=", 61)
            if pd >= 61
            else ("<", 61)
            if pd >= 30
            else ("<", 30)
        )
        outcome = "declarers_won" if won_by == dt else "declarers_lost"
        why = reason("declarers", dt, "points", pd, op, target, "SAS-13.4")
    return {
        "result": res,
        "score": list(score),
        "outcome": outcome,
        "reason": why,
        "components": [component("strokes", score, trump=res["trump"], rule=why["rule"])],
        "points_from": {"tricks": list(points)},
    }


GAME = register(Sasku())
"""The registry's Sasku instance."""

_DEFAULT_VARIANT: Variant = GAME.normalize_variant({})
