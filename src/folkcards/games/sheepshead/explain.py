"""Why a Sheepshead action is illegal (SHP-14.2): the message code, its parameters, the
rules cited and the English line, for :meth:`SheepsheadState.explain`.

Only called off the hot path, for an action that is not in ``legal_actions()``: the deal
is over, the text names no action, the verb is not the phase's (SHP-4.1, 5.1, 6.1, 7.2),
or the card breaks a rule of its phase — burying or playing a card not held (SHP-5.1,
SHP-7.2), an illegal call (SHP-6.2–6.4), a revoke (SHP-7.3), the picker's hold rule
(SHP-7.5) or the partner's duties with the called card (SHP-7.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES, Card
from folkcards.engine.actions import Action
from folkcards.engine.explain import Explanation, explained

from .rules import (
    ACTIONS,
    ALL_FAIL_ACES,
    CARD_OF,
    CLASS,
    FAIL_ACES,
    FAIL_TENS,
    K_ALONE,
    K_BURY,
    K_CALL,
    K_PASS,
    K_PICK,
    K_PLAY,
    KIND,
    M_CALLED,
    P_BURY,
    P_CALL,
    P_PICK,
    P_PLAY,
    SUIT_INDEX,
    TRUMPS,
)

if TYPE_CHECKING:
    from .deal import SheepsheadState

_NEED = {
    P_PICK: ("'pick' or 'pass' (SHP-4.1)", ["pick", "pass"]),
    P_BURY: ("'bury C' (SHP-5.1)", ["bury C"]),
    P_CALL: ("'call C' or 'alone' (SHP-6.1)", ["call C", "alone"]),
    P_PLAY: ("'play C' (SHP-7.2)", ["play C"]),
}
"""Per phase: what the seat to act must send, as a phrase and as action forms."""
_WANTED = {P_PICK: (K_PICK, K_PASS), P_BURY: (K_BURY,), P_CALL: (K_CALL, K_ALONE)}
"""The verbs of each phase before play (every other phase wants ``play``)."""


def explain(st: SheepsheadState, action: Action) -> Explanation:
    """Why ``action`` is not legal in ``st`` now (it is not in ``st.legal_actions()``)."""
    if st.to_act is None:
        return explained("deal_over", "the deal is over: no action is allowed (SHP-14.2)")
    code = int(action)
    text = str(action)
    if not 0 <= code < len(ACTIONS) or ACTIONS.actions[code].text != text:
        return explained(
            "not_an_action", f"{text!r} is not a Sheepshead action (SHP-14.1)", action=text
        )
    kind, card = KIND[code], CARD_OF[code]
    phase = st.phase
    seat = st.to_act
    if kind not in _WANTED.get(phase, (K_PLAY,)):
        need, forms = _NEED[phase]
        return explained(
            "wrong_phase",
            f"{text!r}: in the {phase} phase seat {seat} must make {need}",
            action=text,
            phase=phase,
            seat=seat,
            expected=forms,
        )
    if kind == K_BURY:
        name = CARD_NAMES[card]
        return explained(
            "not_held",
            f"{text!r}: the picker does not hold {name} (SHP-5.1)",
            seat=seat,
            card=name,
        )
    if kind == K_CALL:
        return _bad_call(st, text, seat, card)
    return _bad_play(st, text, seat, card)


def _bad_call(st: SheepsheadState, text: str, picker: int, card: Card) -> Explanation:
    """Why the picker may not call ``card`` (SHP-6.2–6.4)."""
    held = st.hands[picker] | st.bury  # SHP-6.3
    name = CARD_NAMES[card]
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
    suit = "CSH"[SUIT_INDEX[card]]
    return explained(
        "call_needs_hold_card",
        f"{text!r}: the picker has no {suit} card in hand to hold (SHP-6.2)",
        action=text,
        suit=suit,
    )


def _bad_play(st: SheepsheadState, text: str, seat: int, card: Card) -> Explanation:
    """Why ``seat`` may not play ``card``: not held (SHP-7.2), a revoke (SHP-7.3), or a
    duty of the called game (SHP-7.5, SHP-7.6 — only a called game restricts more)."""
    hand = st.hands[seat]
    name = CARD_NAMES[card]
    if not hand >> card & 1:
        return explained(
            "not_held",
            f"{text!r}: seat {seat} does not hold {name} (SHP-7.2)",
            seat=seat,
            card=name,
        )
    trick = st.trick
    x_name = "the called suit"
    c = st.called
    called = CARD_NAMES[c]
    if not trick:
        return explained(
            "partner_leads_called",
            f"{text!r}: the partner may lead {x_name} only with {called} (SHP-7.6)",
            action=text,
            card=called,
        )
    led = CLASS[trick[0]]
    if hand & led and not led >> card & 1:
        led_name = "trump" if led == TRUMPS else "CSH"[trick[0] // 13]
        return explained(
            "must_follow",
            f"{text!r}: seat {seat} must follow {led_name} (SHP-7.3)",
            seat=seat,
            suit=led_name,
        )
    if st._md == M_CALLED and hand >> c & 1 and led == st.x_mask:
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
        f"{text!r}: the picker must keep its last card of {x_name} until it is led (SHP-7.5)",
        action=text,
    )
