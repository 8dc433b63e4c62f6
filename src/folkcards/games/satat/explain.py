"""Why a Satat action is not legal now (SAT-17.3, SAT-18): the explanation's code, params,
the rules it cites and the English line that ``explain_illegal`` returns.

Only the slow path asks for it (an illegal action, a client's question); the phase decides
which rule the action breaks: a signal the variant does not enable (SAT-16.8), a card not
held or not following (SAT-8.3), a trump-making choice (SAT-5, SAT-15.2), a give (SAT-7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES, SUITS, mask_text
from folkcards.engine.actions import Action
from folkcards.engine.explain import Explanation, explained

from .rules import (
    ARG,
    B2H,
    K_ANNOUNCE,
    K_GIVE,
    K_HIDE,
    K_LESE,
    K_PLAY,
    K_REDEAL,
    K_TRUMP,
    KIND,
    PH_GIVE,
    PH_PLAY,
    PH_TRUMP,
    PHASE_ACTIONS,
    SUF,
    TWO_H,
)

if TYPE_CHECKING:
    from .deal import SatatState


def explain(st: SatatState, action: Action) -> Explanation:
    """Why ``action`` is not legal in ``st`` now (``SatatState.explain``)."""
    kind = KIND[action]
    if st.to_act is None:
        return explained("deal_over", "the deal is over: no action is allowed (SAT-18.2)")
    if (kind in (K_LESE, K_ANNOUNCE) or SUF[action]) and (
        not st.sig or (st.sig < 2 and (kind == K_LESE or SUF[action] == 3))
    ):
        return explained(
            "signal_not_enabled",
            f"{action.text!r}: this signal is not enabled by this variant (SAT-16.8)",
            action=action.text,
        )
    ph = st.ph
    if ph == PH_PLAY:
        return _explain_play(st, action)
    if ph == PH_TRUMP:
        return _explain_trump(st, action)
    if ph == PH_GIVE:
        return _explain_give(st, action)
    return _wrong_phase(
        st,
        action,
        f"{action.text!r} is not allowed in phase {st.phase} (SAT-17.3)",
        PHASE_ACTIONS[st.phase],
    )


def _wrong_phase(st: SatatState, action: Action, message: str, expected: list[str]) -> Explanation:
    """An action of another phase than the one the deal is in (SAT-17.3)."""
    return explained(
        "wrong_phase",
        message,
        action=action.text,
        phase=st.phase,
        seat=st.to_act,
        expected=expected,
    )


def _explain_play(st: SatatState, action: Action) -> Explanation:
    """A card not held, a signal misplaced (SAT-16.1, SAT-16.4) or a revoke (SAT-8.3)."""
    seat = st.to_act
    assert seat is not None
    if KIND[action] != K_PLAY:
        return _wrong_phase(
            st,
            action,
            f"{action.text!r} is not allowed now: seat {seat} must play a card (SAT-8, SAT-17.3)",
            ["play C"],
        )
    c = ARG[action]
    suf = SUF[action]
    if not st.hands[seat] >> c & 1:
        return explained(
            "not_held",
            f"seat {seat} does not hold {CARD_NAMES[c]} (SAT-17.3)",
            seat=seat,
            card=CARD_NAMES[c],
        )
    if suf == 2 and c == TWO_H:
        return explained("no_pile_on_two", "pile may not be signalled with the 2H (SAT-16.1)")
    if suf == 3:
        return explained(
            "vire_not_third", "vire is only for the partner of the trick's leader (SAT-16.4)"
        )
    led = st.trick[0]
    if led == TWO_H:
        return explained(
            "two_hearts_led",
            f"the 2H was led: seat {seat} must play a trump {SUITS[st.trump]} (SAT-8.3)",
            seat=seat,
            suit=SUITS[st.trump],
        )
    return explained(
        "must_follow",
        f"seat {seat} must follow suit {SUITS[led // 13]} (SAT-8.3)",
        seat=seat,
        suit=SUITS[led // 13],
    )


def _explain_trump(st: SatatState, action: Action) -> Explanation:
    """A redeal not allowed (SAT-5.4, SAT-18.3), or the wrong way of making trump for the
    variant (SAT-5.5, SAT-15.2)."""
    kind = KIND[action]
    if kind == K_REDEAL:
        if st.redeals >= 2:
            return explained(
                "redeal_limit", "no third no-picture redeal: two have been made (SAT-5.4, SAT-18.3)"
            )
        return explained(
            "redeal_needs_no_pictures",
            "redeal needs a first five without K, Q or J (SAT-5.4, SAT-18.3)",
        )
    if kind == K_TRUMP and st.tk:
        return explained(
            "hide_instead_of_trump",
            "Trup Kasiet: hide a trump card instead of naming trump (SAT-15.2)",
        )
    if kind == K_HIDE:
        if not st.tk:
            return explained("hide_only_trup_kasiet", "hide is only for Trup Kasiet (SAT-5.5)")
        card = CARD_NAMES[ARG[action]]
        return explained(
            "not_in_first_five", f"{card} is not among the first five (SAT-15.2)", card=card
        )
    return _wrong_phase(
        st,
        action,
        f"{action.text!r} is not allowed now: the trump maker must make trump (SAT-5.5)",
        ["blind N", "hide C" if st.tk else "trump X"],
    )


def _explain_give(st: SatatState, action: Action) -> Explanation:
    """A give of the wrong count or of cards not held, the 2♥ (SAT-7.5), or against the
    winner's or the loser's rule (SAT-7.6, SAT-7.7)."""
    seat = st.to_act
    assert seat is not None and st.passing is not None
    k = st.passing["cards"]
    if KIND[action] != K_GIVE:
        return _wrong_phase(
            st,
            action,
            f"{action.text!r} is not allowed now: seat {seat} must give cards (SAT-7.3)",
            ["give C" if k == 1 else "give C1 C2"],
        )
    m = ARG[action]
    if m.bit_count() != k:
        return explained(
            "give_count", f"give exactly {k} card{'s' if k > 1 else ''} (SAT-7.1, SAT-7.3)", count=k
        )
    if m & ~st.hands[seat]:
        return explained(
            "give_not_held",
            f"seat {seat} does not hold every card given (SAT-17.3)",
            seat=seat,
            cards=mask_text(m),
        )
    if m & B2H:
        return explained("never_give_two", "the 2H is never given (SAT-7.5)")
    if seat % 2 == st.passing["winners"]:
        return explained(
            "winner_keeps_suits", "a winner must keep a card of every suit he held (SAT-7.7)"
        )
    return explained(
        "loser_gives_high", "a loser gives his trumps, else his highest cards (SAT-7.6)"
    )
