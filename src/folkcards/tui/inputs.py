"""Reading what a person types at a prompt: an action, a short form, or a table command.

Accepted for an action: the number from the list of legal choices; the canonical text in
any spelling the engine accepts (``play 10h``); a card alone (``10h``) or several cards
(``5c 5s``) when they pick out one legal action; a suit letter alone (``h``) for an
action whose only argument is that suit; a unique start of an action (``pa`` → ``pass``).
Commands: ``?``/``hint``, ``why CARD``, ``history``, ``help``, ``save [FILE]``, ``quit``.
"""

from __future__ import annotations

from dataclasses import dataclass

from folkcards.cards import CARD_NAMES, CardError, parse_card
from folkcards.engine.actions import Action, ActionSyntaxError
from folkcards.engine.api import FolkcardsError, Game, Observation
from folkcards.tui import present

HELP = (
    "Type the number of a choice, an action (e.g. 'play TH', 'bid 6', 'pass'), or a card "
    "alone (e.g. 10h). Commands: ? or hint (a suggestion), why CARD (why a card is not "
    "legal), history (the deal so far), table (draw the table again), save [FILE], "
    "quit (end the match, offering to save)."
)

COMMAND_WORDS = {
    "?": "hint",
    "hint": "hint",
    "why": "why",
    "history": "history",
    "hist": "history",
    "help": "help",
    "table": "table",
    "look": "table",
    "save": "save",
    "quit": "quit",
    "exit": "quit",
}


class InputError(Exception):
    """Input that names no legal action; the message says what is allowed."""


@dataclass(frozen=True)
class Command:
    """What a person asked for: ``kind`` is ``action``, ``illegal`` (a well-formed action
    that is not legal now) or a command word; ``arg`` holds the rest of the line."""

    kind: str
    action: Action | None = None
    arg: str = ""


def _normalize(token: str, game: Game) -> str:
    try:
        return CARD_NAMES[parse_card(token, game.deck)]
    except CardError:
        pass
    if token.isdigit():
        return str(int(token))
    if len(token) == 1 and token.upper() in game.suit_letters:
        return token.upper()
    return token.lower()


def _is_card(token: str) -> bool:
    return token in CARD_NAMES


def resolve(text: str, obs: Observation, game: Game) -> Command:
    """The command or legal action that ``text`` names for the seat to act (InputError if none)."""
    line = text.strip()
    legal = list(obs.legal)
    if not line:
        default = present.DEFAULT_ACTION.get((obs.game, obs.phase))
        for a in legal:
            if a.text == default:
                return Command("action", a)
        raise InputError(
            f"Type a choice (1–{len(legal)}), an action or a card; 'help' lists commands."
        )
    words = line.split()
    head = words[0].lower()
    if head in COMMAND_WORDS and not (head == "?" and len(words) > 1):
        return Command(COMMAND_WORDS[head], arg=" ".join(words[1:]))
    if line.isdigit():
        n = int(line)
        if 1 <= n <= len(legal):
            return Command("action", legal[n - 1])
        raise InputError(f"{line} is not on the list: choose a number from 1 to {len(legal)}.")
    if line.isascii():
        try:
            action = game.parse_action(line, obs.variant)
        except (ActionSyntaxError, FolkcardsError):
            action = None
        if action is not None:
            for a in legal:
                if a == action:
                    return Command("action", a)
            return Command("illegal", action)
    tokens = [_normalize(t, game) for t in words]
    found = _short_form(tokens, legal)
    if found is not None:
        return Command("action", found)
    raise InputError(
        f"{line!r} is not a choice here. Allowed: a number 1–{len(legal)}, one of the listed "
        "actions, a card of your hand (e.g. 10h), or a command (help lists them)."
    )


def _short_form(tokens: list[str], legal: list[Action]) -> Action | None:
    """The one legal action a short form names; InputError when it names several."""
    if all(_is_card(t) for t in tokens):
        wanted = set(tokens)
        exact = [a for a in legal if {t for t in a.text.split()[1:] if _is_card(t)} == wanted]
        if len(exact) == 1:
            return exact[0]
        if len(tokens) == 1:
            first = [a for a in legal if a.text.split()[1:2] == tokens]
            plain = [a for a in first if len(a.text.split()) == 2]
            if len(first) == 1:
                return first[0]
            if len(plain) == 1:
                return plain[0]
            if first:
                _ambiguous(first, legal)
        if exact:
            _ambiguous(exact, legal)
        return None
    if len(tokens) == 1 and len(tokens[0]) == 1 and tokens[0].isupper():
        suit = [a for a in legal if a.text.split()[1:] == tokens]
        if len(suit) == 1:
            return suit[0]
        if suit:
            _ambiguous(suit, legal)
    typed = " ".join(tokens)
    starts = [a for a in legal if a.text.startswith(typed)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        _ambiguous(starts, legal)
    return None


def _ambiguous(options: list[Action], legal: list[Action]) -> None:
    listed = ", ".join(f"{legal.index(a) + 1}) {a.text}" for a in options[:8])
    more = " …" if len(options) > 8 else ""
    raise InputError(
        f"That could mean several choices: {listed}{more}. Type its number or full text."
    )


def why_action(arg: str, obs: Observation, game: Game) -> Action | str:
    """The action ``why ARG`` asks about (a card becomes the phase's card verb + card),
    or a message when ARG names none."""
    arg = arg.strip()
    if not arg:
        return "Say which card or action: why 10h, or why play 10h."
    verbs = [a.text.split()[0] for a in obs.legal if len(a.text.split()) >= 2]
    words = arg.split()
    if len(words) == 1:
        try:
            name = CARD_NAMES[parse_card(words[0], game.deck)]
        except CardError as exc:
            return str(exc)
        for a in obs.legal:
            if name in a.text.split()[1:]:
                return a
        verb = max(set(verbs), key=verbs.count) if verbs else "play"
        arg = f"{verb} {name}"
    try:
        return game.parse_action(arg, obs.variant)
    except (ActionSyntaxError, FolkcardsError) as exc:
        return str(exc)
