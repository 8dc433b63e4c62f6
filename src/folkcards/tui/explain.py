"""Why an action is not allowed, in the player's words ("You must follow hearts (SAS-10.3)").

The engine explains every illegal action citing its rule. When it offers a structured
explanation (``DealState.explain(action)`` with ``code``, ``params``, ``rules`` and
``text``) that is used; otherwise its one-line text (``explain_illegal``). Either way
the seat the message is about is named as the person at the table sees it: "you" for
their own seat, "your partner", "Seat 3" — not "seat 0".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.engine.actions import Action
from folkcards.engine.api import DealState
from folkcards.tui import present

ROLES = ("picker", "declarer", "trump maker", "dealer", "cutter", "partner", "asker")
"""Roles an engine message may name a seat by."""

_VERB_FORMS = {
    "does": "do",
    "has": "have",
    "holds": "hold",
    "is": "are",
    "was": "were",
    "needs": "need",
    "gave": "gave",
    "leads": "lead",
    "plays": "play",
    "passed": "passed",
    "may": "may",
    "must": "must",
    "can": "can",
    "cannot": "cannot",
}


YOU: dict[str, str] = {
    "not_held": "you do not hold {card}",
    "must_follow": "you must follow {suit}",
    "must_trump": "you have no card of the led suit, so you must play a trump",
    "must_beat": "{card} does not beat {winning}; you hold a card that does and must play one",
    "bid_over_length": "bid {bid} is more than your length {length} (your pictures + "
    "the cards of your longest suit)",
    "trump_too_short": "trump {suit} needs at least {needed} potential trumps (pictures + "
    "{suit}); you have {count}",
    "give_lone_picture": "you can only give your lone picture {picture}, not {card}",
    "two_hearts_led": "the 2H was led: you must play a trump ({suit})",
    "give_not_held": "you do not hold every card given ({cards})",
    "must_follow_and_beat": "you must follow {suit} and beat the highest card if you can",
    "must_trump_and_beat": "you must trump, and beat the highest trump if you can",
    "wrong_phase": "'{action}' is not allowed now ({phase}): you must send {expected:qor}",
    "banned": "huutokielto: your side is at {limit} or below and may not bid",
}
"""Second-person templates of the engine's message codes whose ``seat`` is the reader's
(``folkcards.engine.explain.MESSAGES`` holds the third-person English ones)."""

ROLE_YOU: dict[str, str] = {
    "call_own_card": "'{action}': you hold {card} yourself",
    "call_needs_hold_card": "'{action}': you have no {suit} card in hand to hold",
    "picker_keeps_hold": "'{action}': you must keep your last card of the called suit until it is led",
}
"""Templates for messages that name the reader by role (the picker)."""


def _personal(found: Any, seat: int, names: Sequence[str], roles: set[str]) -> str | None:
    """The engine's structured explanation in the reader's words, when a template fits."""
    code = getattr(found, "code", None)
    params = getattr(found, "params", None)
    if not isinstance(code, str) or not isinstance(params, Mapping):
        return None
    template = None
    if code in YOU and params.get("seat") == seat:
        template = YOU[code]
    elif code in ROLE_YOU and "picker" in roles:
        template = ROLE_YOU[code]
    if template is None:
        return None
    filled = dict(params)
    if isinstance(filled.get("suit"), str):
        filled["suit"] = present.SUIT_NAME.get(filled["suit"], filled["suit"])
    try:
        from folkcards.engine.explain import render

        return render(code, filled, {code: template})
    except (ImportError, KeyError, ValueError, IndexError):
        return None


def engine_text(deal: DealState, action: Action) -> tuple[str, tuple[str, ...]]:
    """The engine's explanation of ``action``: its text and the rule IDs it cites."""
    explain = getattr(deal, "explain", None)
    if callable(explain):
        try:
            found = explain(action)
        except (TypeError, ValueError):
            found = None
        text = getattr(found, "text", None)
        if isinstance(text, str) and text:
            rules = getattr(found, "rules", ()) or ()
            return text, tuple(str(r) for r in rules)
    text = deal.explain_illegal(action)
    return text, tuple(re.findall(r"\b[A-Z]{3}-\d+(?:\.\d+)?", text))


def refusal(deal: DealState, action: Action, seat: int, names: Sequence[str]) -> str:
    """Why ``action`` typed by ``seat`` is not allowed, in that seat's words."""
    text, rules = engine_text(deal, action)
    roles = seat_roles(deal, seat)
    words = None
    explain = getattr(deal, "explain", None)
    if callable(explain):
        try:
            words = _personal(explain(action), seat, names, roles)
        except (TypeError, ValueError):
            words = None
    if words is not None:
        words = player_words(words, seat, names, roles=roles)
    else:
        words = player_words(text, seat, names, roles=roles)
    if rules and not any(r in words for r in rules):
        words = f"{words} ({', '.join(rules)})"
    return words


def seat_roles(deal: DealState, seat: int) -> set[str]:
    """The roles the person's seat holds now (so 'the picker' reads 'you')."""
    info = deal.observation(seat).info
    held = set()
    for role in ROLES:
        key = role.replace(" ", "_")
        if info.get(key) == seat:
            held.add(role)
    return held


def player_words(text: str, seat: int, names: Sequence[str], roles: set[str] | None = None) -> str:
    """``text`` with ``seat`` (and the roles it holds) as 'you', other seats by name."""
    out = re.sub(r"^'[^']*': ", "", text.strip())
    subjects = [rf"seat {seat}\b"] + [rf"the {re.escape(r)}\b" for r in sorted(roles or ())]
    for subject in subjects:
        out = re.sub(rf"(?i)\b(?:in )?the hand of {subject}", "in your hand", out)
        out = re.sub(rf"(?i){subject}'s\b", "your", out)
        out = re.sub(
            rf"(?i){subject} (\w+)",
            lambda m: "you " + _VERB_FORMS.get(m.group(1).lower(), m.group(1)),
            out,
        )
        out = re.sub(rf"(?i){subject}", "you", out)
    if re.search(r"(?i)\byour?\b", out):
        out = re.sub(r"\bitself\b", "yourself", out)
        out = re.sub(
            r"\bits\b(?= (?:own|only|lone|partner|hand|bid|length|longest|first))", "your", out
        )

    out = re.sub(r"\bsuit ([CSHD])\b", lambda m: present.SUIT_NAME[m.group(1)], out)
    out = re.sub(
        r"\bfollow the led class \((\w+)\)",
        lambda m: "follow " + present.SUIT_NAME.get(m.group(1), m.group(1)),
        out,
    )
    out = re.sub(r"\bin phase (\w+)", lambda m: f"now ({m.group(1)})", out)

    def seat_name(m: re.Match[str]) -> str:
        s = int(m.group(1))
        return names[s] if 0 <= s < len(names) else m.group(0)

    out = re.sub(r"\bseat (\d)\b", seat_name, out)
    return out[:1].upper() + out[1:] if out else out


def not_allowed(action: str, why: str) -> str:
    """'Not allowed: play TH — you do not hold TH (…)', without saying the action twice."""
    if why.lower().startswith(action.lower()):
        return f"Not allowed: {why}"
    return f"Not allowed: {action} — {why[:1].lower() + why[1:] if why[:2] != why[:2].upper() else why}"
