"""Why a Sasku action is not legal now: the rule it breaks, as an Explanation (SAS-20.2).

``SaskuState.explain`` lands here. Each phase has its reason: the wrong kind of action for
the phase (``wrong_phase``), a card not held, a picture that is not the lone one (SAS-7.3),
a bid too low or over the hand's length (SAS-8.4), a trump too short (SAS-9.1), a card
that does not follow, trump or beat (SAS-10.3). The English ``text`` of each is the line
``explain_illegal`` has always returned (a golden corpus checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES, SUITS
from folkcards.engine.actions import Action
from folkcards.engine.explain import Explanation, explained

from .actions import ARG, K_BID, K_DIAMONDS, K_GIVE, K_PLAY, K_RETURN, K_TRUMP, KIND
from .rules import (
    AUCTION,
    CUT,
    DECLARE,
    EXCHANGE,
    OVERRIDE,
    PICTURES,
    PLAY_PHASE,
    hand_length,
    potential_trumps,
)

if TYPE_CHECKING:
    from .deal import SaskuState

_EXPECTED: dict[str, tuple[str, list[str]]] = {
    CUT: ("the cutter's dealing choice 'deal …' (SAS-6.2)", ["deal …"]),
    AUCTION: ("'bid N', 'pass' or 'diamonds' (SAS-8.3)", ["bid N", "pass", "diamonds"]),
    DECLARE: ("'trump S' (SAS-9.1)", ["trump S"]),
    OVERRIDE: ("'diamonds' or 'pass' (SAS-9.3)", ["diamonds", "pass"]),
    PLAY_PHASE: ("'play X' (SAS-10.1)", ["play X"]),
}
"""What each phase expects, as words and as action forms (the exchange's depends on
whether a return is pending)."""


def explain(state: SaskuState, action: Action) -> Explanation:
    """Why ``action`` is not legal in ``state`` now: code, params, rules and text."""
    seat = state.to_act
    if seat is None:
        return explained("deal_over", "the deal is over: no action is allowed (SAS-12.1)")
    phase = state.phase
    if phase == EXCHANGE:
        return _exchange(state, seat, action)
    if phase == AUCTION and KIND[action] == K_BID:
        return _bid(state, seat, ARG[action])
    if phase == DECLARE:
        return _declare(state, seat, action)
    if phase == PLAY_PHASE and KIND[action] == K_PLAY:
        return _play(state, seat, ARG[action])
    return _wrong_phase(state, seat, action)


def _wrong_phase(state: SaskuState, seat: int, action: Action) -> Explanation:
    """``action`` is not an action of this phase at all."""
    phase = state.phase
    if phase == EXCHANGE:
        expected, forms = (
            ("'return X' (SAS-7.4)", ["return X"])
            if state.pending_giver >= 0
            else ("'give P' or 'keep' (SAS-7.3)", ["give P", "keep"])
        )
    else:
        expected, forms = _EXPECTED[phase]
    return explained(
        "wrong_phase",
        f"{action.text!r} is not allowed in phase {phase}: seat {seat} must send {expected}",
        action=action.text,
        phase=phase,
        seat=seat,
        expected=forms,
    )


def _exchange(state: SaskuState, seat: int, action: Action) -> Explanation:
    """SAS-7.3: only the lone picture is given; SAS-7.4: only a held suit card returned."""
    kind, arg = KIND[action], ARG[action]
    if state.pending_giver >= 0:
        if kind != K_RETURN:
            return _wrong_phase(state, seat, action)
        return explained(
            "not_held",
            f"{CARD_NAMES[arg]} is not in seat {seat}'s hand (SAS-7.4)",
            seat=seat,
            card=CARD_NAMES[arg],
        )
    if kind != K_GIVE:
        return _wrong_phase(state, seat, action)
    lone = CARD_NAMES[(state.hands[seat] & PICTURES).bit_length() - 1]
    return explained(
        "give_lone_picture",
        f"seat {seat} can only give its lone picture {lone}, not {CARD_NAMES[arg]} (SAS-7.3)",
        seat=seat,
        picture=lone,
        card=CARD_NAMES[arg],
    )


def _bid(state: SaskuState, seat: int, bid: int) -> Explanation:
    """SAS-8.4: a bid above the current one and at most the hand's length (SAS-8.1)."""
    if bid <= state.high_bid:
        return explained(
            "bid_too_low",
            f"bid {bid} must be higher than the current bid {state.high_bid} (SAS-8.4)",
            bid=bid,
            minimum=state.high_bid + 1,
        )
    length = hand_length(state.hands[seat])
    return explained(
        "bid_over_length",
        f"bid {bid} is more than seat {seat}'s length {length} "
        "(pictures + cards of its longest suit) (SAS-8.4, SAS-8.1)",
        bid=bid,
        seat=seat,
        length=length,
    )


def _declare(state: SaskuState, seat: int, action: Action) -> Explanation:
    """SAS-9.1: a named trump needs potential trumps ≥ the bid; diamonds is ``trump D``."""
    kind, suit = KIND[action], ARG[action]
    if kind == K_DIAMONDS:
        return explained(
            "diamonds_as_trump_d",
            "the final bidder names diamonds with 'trump D', not 'diamonds' (SAS-8.8, SAS-9.1)",
        )
    if kind != K_TRUMP:
        return _wrong_phase(state, seat, action)
    count = potential_trumps(state.hands[seat], suit)
    return explained(
        "trump_too_short",
        f"trump {SUITS[suit]} needs at least {state.high_bid} potential trumps; "
        f"seat {seat} has {count} (SAS-9.1)",
        suit=SUITS[suit],
        needed=state.high_bid,
        seat=seat,
        count=count,
    )


def _play(state: SaskuState, seat: int, card: int) -> Explanation:
    """SAS-10.1: a held card; SAS-10.3: follow the led class, else trump, else beat."""
    hand = state.hands[seat]
    if not hand >> card & 1:
        return explained(
            "not_held",
            f"{CARD_NAMES[card]} is not in seat {seat}'s hand (SAS-10.1)",
            seat=seat,
            card=CARD_NAMES[card],
        )
    config = state.config
    assert config is not None
    led_class = config.class_of[state.trick[0]]
    if hand & led_class:
        if not led_class >> card & 1:
            what = "trumps" if led_class == config.trumps else f"{SUITS[state.trick[0] // 13]}"
            return explained(
                "must_follow",
                f"seat {seat} must follow the led class ({what}) (SAS-10.3, SAS-10.5)",
                seat=seat,
                suit="trump" if what == "trumps" else what,
            )
    elif hand & config.trumps and not config.trumps >> card & 1:
        return explained(
            "must_trump",
            f"seat {seat} is void in the led suit and must play a trump (SAS-10.3, SAS-10.5)",
            seat=seat,
        )
    return explained(
        "must_beat",
        f"{CARD_NAMES[card]} does not beat {CARD_NAMES[state.winning]}; seat {seat} holds a card "
        "that does and must play one (SAS-10.3, SAS-10.4, SAS-17.2)",
        card=CARD_NAMES[card],
        winning=CARD_NAMES[state.winning],
        seat=seat,
    )
