"""Why an action is illegal in a Huutopussi deal: one line naming the rule (HUU-17.2).

:func:`explain` is only asked about an action that is not legal now (the engine's slow path,
``DealState._checked``); it names the first rule the action breaks, with the facts as data
(:class:`~folkcards.engine.explain.Explanation`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES, SUIT_MASK, SUITS
from folkcards.engine.actions import Action
from folkcards.engine.explain import Explanation, explained

from .rules import (
    ARG,
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
    P_ANSWER,
    P_BIDDING,
    P_CONTRACT,
    P_DISCARD,
    P_GIVE,
    P_PLAY,
    P_RETURN,
    PHASES,
)

if TYPE_CHECKING:
    from .deal import HuutopussiState

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
_PHASE_KINDS: dict[int, tuple[int, ...]] = {
    P_BIDDING: (K_BID, K_PASS, K_REDEAL),
    P_GIVE: (K_GIVE,),
    P_CONTRACT: (K_CONTRACT,),
    P_RETURN: (K_RETURN,),
    P_DISCARD: (K_DISCARD,),
    P_ANSWER: (K_ANSWER_SUIT, K_ANSWER_NO, K_ANSWER_YES),
    P_PLAY: (K_PLAY, K_DECLARE, K_ASK_HALF, K_ASK_MARRIAGE, K_KONTRA, K_RE),
}
"""The verbs of each phase (HUU-16.2)."""
_NOT_HELD_RULE = {K_GIVE: "HUU-5.1", K_RETURN: "HUU-5.3", K_DISCARD: "HUU-6.2", K_PLAY: "HUU-7.3"}


def explain(st: HuutopussiState, action: Action) -> Explanation:
    """A one-line reason, naming the rule, why ``action`` is illegal in ``st``."""
    text = action.text
    kind = KIND[action]
    ph = st.ph
    seat = st.to_act
    if seat is None:
        return explained("deal_over", "the deal is over: no action is allowed (HUU-17.2)")
    if kind not in _PHASE_KINDS[ph]:
        return explained(
            "wrong_phase",
            f"{text!r} is not an action of phase {PHASES[ph]} (seat {seat} to act) (HUU-16.2)",
            action=text,
            phase=PHASES[ph],
            seat=seat,
            expected=_PHASE_ACTIONS[ph],
        )
    arg = ARG[action]
    if kind in (K_GIVE, K_RETURN, K_DISCARD) or (kind == K_PLAY and not st.hands[seat] >> arg & 1):
        return explained(
            "not_held",
            f"{text!r}: seat {seat} does not hold {CARD_NAMES[arg]} ({_NOT_HELD_RULE[kind]})",
            seat=seat,
            card=CARD_NAMES[arg],
        )
    if ph == P_BIDDING:
        return _bidding(st, seat, action)
    if ph == P_CONTRACT:
        r = st.rules
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
    if kind == K_PLAY:
        return _play(st, seat, action)
    return _attempt(st, action)


def _bidding(st: HuutopussiState, seat: int, action: Action) -> Explanation:
    """HUU-4.2–4.7 (HUU-12.2): a redeal, pass or bid the seat may not make."""
    text, kind, arg = action.text, KIND[action], ARG[action]
    r = st.rules
    if kind == K_REDEAL:
        if st.acted >> seat & 1:
            return explained(
                "redeal_first_turn",
                "a redeal may be asked only at a seat's first bidding turn (HUU-4.6)",
            )
        return explained(
            "redeal_needs_weak_hand", "a redeal needs three sixes or no card above a jack (HUU-4.6)"
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


def _play(st: HuutopussiState, seat: int, action: Action) -> Explanation:
    """HUU-7.3 (HUU-12.4): a card held that the seat may not play now."""
    text = action.text
    if st.rules.erlangen and not st.tricks_done:
        return explained(
            "first_trick_ace",
            f"{text!r}: trick 1 must be led with an ace, else a spade; an ace of the led suit must be played (HUU-12.4)",
            action=text,
        )
    if st.trick:
        led = st.trick[0]
        if st.hands[seat] & SUIT_MASK[led // 13]:
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


def _attempt(st: HuutopussiState, action: Action) -> Explanation:
    """HUU-8 (HUU-12.9): a call, declaration or ask that is not open now."""
    text, kind, arg = action.text, KIND[action], ARG[action]
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
