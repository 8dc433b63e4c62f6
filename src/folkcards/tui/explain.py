"""Why an action is not allowed, in the player's words ("you must follow hearts (SAS-10.3)").

The engine explains every illegal action citing its rule, as a structured explanation
(``DealState.explain(action)``: a message ``code``, its ``params``, the ``rules`` and the
English ``text``). The table says it with the catalogs' template of the code
(``explain.<code>`` of ``folkcards/guide/messages.<lang>.json``, the same templates the web
table fills), from the reader's point of view, its parameters in words: seats by name, cards
as they are typed, suits and phases named, actions as the menu shows them. A code without a
template (``unexplained``) is the engine's line with the seat it is about named as the
person at the table sees it: "you" for their own seat, "your partner", "Seat 3".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.engine.actions import Action
from folkcards.engine.api import DealState
from folkcards.tui import i18n, present

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


def _or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return i18n.t("ui.sep").join(items[:-1]) + i18n.t("narrate.or") + items[-1]


def param_words(key: str, value: Any, code: str, names: Sequence[str], game: str) -> str:
    """One parameter of an explanation in words, as the web table says it (``paramWords``):
    a seat by name, numbers in the language's digits, a suit or phase named, actions as the
    menu shows them, cards as they are typed (kept left to right)."""
    from folkcards.tui.view import action_words, card_of_token

    if value is None:
        return "—"
    if key == "seat" and isinstance(value, int) and not isinstance(value, bool):
        return names[value] if 0 <= value < len(names) else i18n.num(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return i18n.num(value)
    if key == "suit" and isinstance(value, str):
        return i18n.t("narrate.trumps") if value == "trump" else i18n.suit_name(game, value)
    if key == "phase" and isinstance(value, str):
        return i18n.maybe(f"phases.{value}") or value
    if key in ("action", "legal"):
        items = value if isinstance(value, list) else [value]
        return i18n.t("ui.sep").join(action_words(str(a), game) for a in items)
    if key == "expected" and isinstance(value, list):
        return _or([i18n.verb(str(form).split(" ")[0]) for form in value])
    if isinstance(value, list):
        words = [
            i18n.ltr(str(v)) if isinstance(v, str) and card_of_token(v) is not None else str(v)
            for v in value
        ]
        return _or(words) if code == "must_take_single" else i18n.t("ui.sep").join(words)
    if isinstance(value, str) and card_of_token(value) is not None:
        return i18n.ltr(value)
    return str(value)


def render(
    explanation: Any, seat: int, names: Sequence[str], game: str, roles: set[str] | None = None
) -> str | None:
    """A structured explanation (``code``, ``params``) in the reader's words and language,
    from the catalogs' template of its code; None when the code has none (``unexplained``)
    or the explanation is about another seat."""
    code = getattr(explanation, "code", None)
    params = getattr(explanation, "params", None)
    if not isinstance(code, str) or not isinstance(params, Mapping) or code == "unexplained":
        return None
    template = i18n.maybe(f"explain.{code}")
    if template is None:
        return None
    about = params.get("seat")
    if isinstance(about, int) and about != seat:
        return None
    filled = {k: param_words(k, v, code, names, game) for k, v in params.items()}
    return i18n.fill(template, filled)


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
    explain = getattr(deal, "explain", None)
    found = None
    if callable(explain):
        try:
            found = explain(action)
        except (TypeError, ValueError):
            found = None
    text, rules = engine_text(deal, action)
    return reason(found, text, rules, seat, names, deal.game.name, seat_roles(deal, seat))


def reason(
    found: Any,
    text: str,
    rules: Sequence[str],
    seat: int,
    names: Sequence[str],
    game: str,
    roles: set[str] | None = None,
) -> str:
    """An explanation (``found``, else the engine's line ``text``) in the reader's words,
    with the rule IDs it cites: 'you do not hold KH (HUU-5.3)'."""
    words = render(found, seat, names, game, roles)
    if words is None:
        words = player_words(text, seat, names, roles=roles)
        if i18n.lang() != i18n.LANGS[0]:
            words = i18n.t("explain.unexplained", message=words)
    words = words[:1].upper() + words[1:] if words else words
    cited = [r for r in rules if r not in words]
    if cited:
        words = f"{words} ({i18n.t('ui.sep').join(i18n.ltr(r) for r in cited)})"
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


def not_allowed(action: str, why: str, game: str = "") -> str:
    """'Not allowed: play TH — you do not hold TH (…)', without saying the action twice."""
    from folkcards.tui.view import action_words

    if why.lower().startswith(action.lower()):
        return i18n.t("terminal.explain.not_allowed_why", why=why)
    said = why[:1].lower() + why[1:] if why[:2] != why[:2].upper() else why
    return i18n.t("terminal.explain.not_allowed", action=action_words(action, game), why=said)
