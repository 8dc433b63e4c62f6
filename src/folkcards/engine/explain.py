"""Structured explanations of illegal actions: a stable code, parameters and rule IDs.

Every game explains an illegal action twice over: :meth:`DealState.explain_illegal` gives
one English line citing the rule (``"seat 2 must follow suit H (SAT-8.3)"``) and
:meth:`DealState.explain` gives the same line as an :class:`Explanation` — a message
``code`` shared by all games (``"must_follow"``), its ``params`` (``{"seat": 2, "suit":
"H"}``), the ``rules`` it cites and that very ``text``. A client that speaks another
language renders ``code`` and ``params`` with its own template; :data:`MESSAGES` is the
English table it translates from (``docs/engine.md`` lists every code with its parameters).

Parameter conventions (every value JSON-ready):

* ``seat``, ``holder`` … : a seat number (int);
* ``card``, ``picture``, ``winning`` … : a card's canonical text (``"TH"``);
* ``cards``, ``legal``, ``expected`` : lists of card texts or action texts;
* ``suit``: a suit letter ``C S H D`` or ``"trump"`` (a class of its own);
* ``action``: the action's text as given; ``phase``: the phase name;
* numbers (``bid``, ``minimum``, ``count`` …) are ints.

In a template, ``{name}`` renders a value as text and a list as its items joined by spaces;
``{name:or}`` joins a list as ``a, b or c``; ``{name:qor}`` quotes each item first
(``'pick' or 'pass'``). :func:`render` applies a template; the English rendering of a code
is close to every game's ``text`` and equal to one game's wherever the wordings agree.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

JSON = Any

RULE_ID = re.compile(r"\b(?:SAS|SCO|SHP|SAT|HUU)-\d+(?:\.\d+)*\b")
"""A rule ID as the rules files write it (``SAS-10.3``; a section alone: ``SAT-8``)."""


def rule_ids(text: str) -> tuple[str, ...]:
    """The rule IDs that ``text`` cites, in order, each once."""
    return tuple(dict.fromkeys(RULE_ID.findall(text)))


@dataclass(frozen=True)
class Message:
    """What the engine says to a client in any language: a stable ``code``, its JSON-ready
    ``params``, the ``rules`` it concerns and ``text``, its English line. An
    :class:`Explanation` and a :class:`~folkcards.engine.task.Task` are messages."""

    code: str
    params: Mapping[str, JSON] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    text: str = ""

    def to_dict(self) -> dict[str, JSON]:
        """JSON-ready: ``{"code", "params", "rules", "text"}``."""
        return {
            "code": self.code,
            "params": _copy(self.params),
            "rules": list(self.rules),
            "text": self.text,
        }


@dataclass(frozen=True)
class Explanation(Message):
    """Why an action is illegal: ``code`` and ``params`` for any language, the ``rules``
    cited, and ``text``, the game's English line (``explain_illegal`` says exactly this)."""

    def render(self, templates: Mapping[str, str] | None = None) -> str:
        """The message from ``templates`` (default: :data:`MESSAGES`, English), with the
        rule IDs appended as the games write them: ``"… (SAS-10.3, SAS-10.5)"``."""
        body = render(self.code, self.params, templates)
        return f"{body} ({', '.join(self.rules)})" if self.rules else body


def explained(code: str, text: str, /, **params: JSON) -> Explanation:
    """An explanation whose rules are the rule IDs that ``text`` cites (the games' helper)."""
    return Explanation(code, params, rule_ids(text), text)


def unexplained(text: str) -> Explanation:
    """The explanation of a message that carries no code of its own (code ``unexplained``,
    the message itself as its only parameter)."""
    return Explanation("unexplained", {"message": text}, rule_ids(text), text)


def _copy(value: JSON) -> JSON:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


class _Formatter(string.Formatter):
    """``str.format`` with the list specs of this module (``""``, ``or``, ``qor``)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, list | tuple):
            items = [str(v) for v in value]
            if format_spec in ("or", "qor"):
                if format_spec == "qor":
                    items = [f"'{v}'" for v in items]
                if len(items) <= 1:
                    return "".join(items)
                return ", ".join(items[:-1]) + " or " + items[-1]
            if format_spec == ",":
                return ", ".join(items)
            return " ".join(items)
        if value is None:
            return "none"
        return str(super().format_field(value, format_spec))


_FORMATTER = _Formatter()


def render(
    code: str, params: Mapping[str, JSON], templates: Mapping[str, str] | None = None
) -> str:
    """The template of ``code`` (from ``templates``, default :data:`MESSAGES`) filled with
    ``params``; KeyError for an unknown code or a missing parameter."""
    table = MESSAGES if templates is None else templates
    return _FORMATTER.vformat(table[code], (), dict(params))


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}


MESSAGES: dict[str, str] = {
    # --- every game ------------------------------------------------------------------------
    "deal_over": "the deal is over: no action is allowed",
    "not_an_action": "'{action}' is not an action of this game",
    "no_such_code": "no legal action has the code {code}",
    "not_text": "an action must be a text",
    "not_ascii": "'{action}': actions are ASCII text",
    "empty_action": "empty action",
    "card_not_in_deck": "{card} is not a card of this deck",
    "wrong_phase": "'{action}' is not allowed in phase {phase}: seat {seat} must send {expected:qor}",
    "not_held": "seat {seat} does not hold {card}",
    "must_follow": "seat {seat} must follow {suit}",
    "must_trump": "seat {seat} is void in the led suit and must play a trump",
    "must_beat": "{card} does not beat {winning}; seat {seat} holds a card that does and must play one",
    "bid_too_low": "bid {bid} is too low: the lowest bid now is {minimum}",
    "bid_too_high": "bid {bid} is too high: the highest bid is {maximum}",
    "bid_out_of_range": "bids are {minimum} to {maximum}, not {bid}",
    "unexplained": "{message}",
    # --- Sasku -----------------------------------------------------------------------------
    "bad_deal_choice": "the dealing choices are 'deal threes|ones|nines|cover' and 'deal to X'",
    "give_lone_picture": "seat {seat} can only give its lone picture {picture}, not {card}",
    "give_not_picture": "{card} is not a picture: only a lone K, Q or J is given",
    "return_picture": "{card} is a picture: only a suit card is returned",
    "bid_over_length": "bid {bid} is more than seat {seat}'s length {length} (pictures + cards of its longest suit)",
    "trump_too_short": "trump {suit} needs at least {needed} potential trumps; seat {seat} has {count}",
    "diamonds_as_trump_d": "the final bidder names diamonds with 'trump D', not 'diamonds'",
    "bad_trump_suit": "'trump' takes a suit letter C, S, H or D",
    # --- Scopone ---------------------------------------------------------------------------
    "deal_void": "the deal is void (3 or 4 kings on the table): no action is allowed",
    "must_capture": "{card} can capture, so it must capture: say which cards with 'take'",
    "not_on_table": "{cards} not on the table",
    "captures_nothing": "{card} captures nothing on this table: play it as 'play {card}'",
    "must_take_single": "{card} must take exactly one card of equal rank ({cards:or}), never a sum",
    "no_match": "{cards} does not match {card}",
    "wrong_sum": "{cards} add up to {total}, not {value}, the value of {card}",
    "bad_play_syntax": "'{action}': expected 'play CARD' or 'play CARD take CARD …'",
    "not_a_card": "'{action}': '{token}' is not a card of this game",
    "empty_take": "'{action}': 'take' names no card",
    "take_twice": "'{action}': {card} is named twice in the take list",
    "take_itself": "'{action}': {card} cannot take itself",
    "ambiguous_play": "'play {card}' is ambiguous: {card} has {count} capture options, name the cards with 'take'",
    # --- Sheepshead ------------------------------------------------------------------------
    "call_ten_needs_aces": "'{action}': a ten may be called only when holding all three fail aces",
    "call_ten_not_ace": "'{action}': holding all three fail aces, the picker calls a ten",
    "call_own_card": "'{action}': the picker holds {card} itself",
    "call_needs_hold_card": "'{action}': the picker has no {suit} card in hand to hold",
    "must_play_called": "'{action}': the holder of {card} must play it when the called suit is led",
    "called_card_kept": "'{action}': {card} may not be thrown off before the called suit is led",
    "picker_keeps_hold": "'{action}': the picker must keep its last card of the called suit until it is led",
    "partner_leads_called": "'{action}': the partner may lead the called suit only with {card}",
    # --- Satat -----------------------------------------------------------------------------
    "signal_not_enabled": "'{action}': this signal is not enabled by this variant",
    "no_pile_on_two": "pile may not be signalled with the 2H",
    "vire_not_third": "vire is only for the partner of the trick's leader",
    "two_hearts_led": "the 2H was led: seat {seat} must play a trump {suit}",
    "redeal_limit": "no third no-picture redeal: two have been made",
    "redeal_needs_no_pictures": "redeal needs a first five without K, Q or J",
    "hide_instead_of_trump": "Trup Kasiet: hide a trump card instead of naming trump",
    "hide_only_trup_kasiet": "hide is only for Trup Kasiet",
    "not_in_first_five": "{card} is not among the first five",
    "give_count": "give exactly {count} card(s)",
    "give_not_held": "seat {seat} does not hold every card given ({cards})",
    "never_give_two": "the 2H is never given",
    "winner_keeps_suits": "a winner must keep a card of every suit he held",
    "loser_gives_high": "a loser gives his trumps, else his highest cards",
    # --- Huutopussi ------------------------------------------------------------------------
    "redeal_first_turn": "a redeal may be asked only at a seat's first bidding turn",
    "redeal_needs_weak_hand": "a redeal needs three sixes or no card above a jack",
    "must_open": "eldest must open the bidding, '{action}' is not allowed",
    "banned_compulsory": "huutokielto: this seat's only bid is the compulsory bid {bid}",
    "banned": "huutokielto: seat {seat}'s side is at {limit} or below and may not bid",
    "contract_range": "contract {contract}: the contract must be from {minimum} to {maximum}",
    "bad_number": "'{action}': bids and contracts are multiples of {step} from {minimum} to {maximum}",
    "untruthful_answer": "'{action}' is not the truthful answer; the only legal: {legal:,}",
    "first_trick_ace": "'{action}': trick 1 must be led with an ace, else a spade; an ace of the led suit must be played",
    "must_follow_and_beat": "seat {seat} must follow suit {suit} and beat the highest card if it can",
    "must_trump_and_beat": "seat {seat} must trump, and beat the highest trump if it can",
    "not_legal_now": "'{action}' is not legal now",
    "bad_call": "'{action}': calls alternate kontra then re, need enough cards, Erlangen only",
    "no_window": "'{action}': no declaration window: it opens after winning a trick one led",
    "cannot_declare": "'{action}': needs K{suit} and Q{suit} in hand, a suit not yet trump and unbroken marriages",
    "cannot_ask_marriage": "'{action}': needs a partner whose marriages are not broken",
    "cannot_ask_half": "'{action}': needs exactly one of K{suit}, Q{suit} and a suit not yet trump",
}
"""Every message code with its English template (``{param}`` placeholders; see the module
docstring for the list specs). The keys of an explanation's ``params`` are exactly the
placeholders of its code's template."""
