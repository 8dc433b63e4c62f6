"""Reading what a person types at a prompt: an action, a short form, or a table command.

Accepted for an action: the canonical text in any spelling the engine accepts
(``play 10h``); a card alone (``10h``) or several cards (``5c 5s``) when they pick out one
legal action; a suit letter alone (``h``) for an action whose only argument is that suit;
a unique start of an action (``pa`` → ``pass``); a number — in a menu with numbers (bids,
contracts, blind positions) the number's action (``70`` = ``bid 70``), elsewhere the menu
position; ``#3`` is always menu position 3. Several cards after a one-card verb that the
phase repeats (``bury tc 8h``) are that many actions in a row.

Whatever names an action that is not legal now is answered with the engine's own
explanation (citing the rule), in the player's words: never a generic "not a choice".
Commands: ``?``/``hint``, ``why CARD``, ``history``, ``rules``, ``explain on|off``,
``help``, ``table``, ``save [FILE]``, ``quit`` — and their words in the table's language
(``terminal.commands``). Persian digits, and the language's verbs and words of actions
(«پاس», «بازی KS»), are read as the English ones.

What a person types is read as text; the legal actions it is matched against are read by
their structure (``a.step``: verb, cards, number, suit, and the menu's few questions of
shape, :func:`~folkcards.tui.menu.bare`, :func:`~folkcards.tui.menu.lead_card`,
:func:`~folkcards.tui.menu.signal`), never by splitting their text.
"""

from __future__ import annotations

from dataclasses import dataclass

from folkcards.cards import CARD_NAMES, CARD_NUMBERS, CardError, parse_card
from folkcards.engine.actions import Action, ActionSyntaxError, Step
from folkcards.engine.api import FolkcardsError, Game, Observation
from folkcards.tui import i18n, present
from folkcards.tui import menu as menus


def help_text() -> str:
    """What may be typed at a prompt, in the table's language."""
    return i18n.t("terminal.input.help")


COMMAND_WORDS = {
    "?": "hint",
    "hint": "hint",
    "why": "why",
    "history": "history",
    "hist": "history",
    "help": "help",
    "rules": "rules",
    "explain": "explain",
    "table": "table",
    "look": "table",
    "save": "save",
    "quit": "quit",
    "exit": "quit",
}


class InputError(Exception):
    """Input that names no legal action; the message says what is allowed."""


def command_word(word: str) -> str | None:
    """The table command a word names (``?``, ``hint``, or its word in the table's language)."""
    low = word.lower()
    if low in COMMAND_WORDS:
        return COMMAND_WORDS[low]
    if i18n.lang() != i18n.LANGS[0]:
        for command in dict.fromkeys(COMMAND_WORDS.values()):
            said = i18n.maybe(f"terminal.commands.{command}") or ""
            if low in [w.strip() for w in said.split("|") if w.strip()]:
                return command
    return None


@dataclass(frozen=True)
class Command:
    """What a person asked for.

    ``kind`` is ``action`` (``action`` legal now; ``more`` legal actions to follow in the
    same phase; ``confirm`` a question to ask first), ``illegal`` (a well-formed action
    that is not legal now: the engine explains it), ``refused`` (text the engine cannot
    read as an action: ``message`` is its reason, ``explanation`` the engine's structured
    one), ``entry`` (a menu family to complete by typing) or a command word with ``arg``
    the rest of the line."""

    kind: str
    action: Action | None = None
    arg: str = ""
    message: str = ""
    more: tuple[Action, ...] = ()
    confirm: str = ""
    entry: menus.Entry | None = None
    explanation: object = None


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


def _find(action: Action, legal: list[Action]) -> Action | None:
    for a in legal:
        if a == action:
            return a
    return None


def _parse(text: str, obs: Observation, game: Game) -> tuple[Action | None, str]:
    """The action ``text`` names (legal or not) and, when none, the engine's reason."""
    action, reason, _ = _parse_explained(text, obs, game)
    return action, reason


def _parse_explained(text: str, obs: Observation, game: Game) -> tuple[Action | None, str, object]:
    """:func:`_parse`, with the engine's structured reason (None when there is none)."""
    if not text.isascii():
        return None, "", None
    try:
        return game.parse_action(text, obs.variant), "", None
    except (ActionSyntaxError, FolkcardsError) as exc:
        return None, str(exc), getattr(exc, "explanation", None)


def _refused(reason: str, explanation: object) -> Command:
    return Command("refused", message=reason, explanation=explanation)


def resolve(text: str, obs: Observation, game: Game, menu: menus.Menu | None = None) -> Command:
    """The command or action that ``text`` names for the seat to act; InputError when it
    names nothing at all (the message says what is allowed)."""
    raw = i18n.ascii_digits(text).strip()
    legal = list(obs.legal)
    menu = menu if menu is not None else menus.build(obs)
    if not raw:
        default = present.default_action(obs)
        for a in legal:
            if a.text == default:
                return Command("action", a)
        raise InputError(i18n.t("terminal.input.empty"))
    words = raw.split()
    head = command_word(words[0].replace("؟", "?"))
    if head is not None and not (words[0] in ("?", "؟") and len(words) > 1):
        return Command(head, arg=" ".join(words[1:]))
    line = i18n.english_words(raw)
    words = line.split()
    if line.startswith("#") and line[1:].isdigit():
        return _position(int(line[1:]), menu)
    if line.isdigit():
        if menu.numeric_verb is not None:
            return _checked(f"{menu.numeric_verb} {int(line)}", obs, game, menu)
        return _position(int(line), menu)
    action, reason, explained = _parse_explained(line, obs, game)
    if action is not None:
        found = _find(action, legal)
        if found is not None:
            return _with_confirm(found, menu)
        sole = _sole_option(action, legal)
        if sole is not None:
            return Command("action", sole)
        return Command("illegal", action)
    tokens = [_normalize(t, game) for t in words]
    found = _short_form(tokens, legal)
    if found is not None:
        return _with_confirm(found, menu)
    several = _several(tokens, obs, game)
    if several is not None:
        return several
    signal = _signal(tokens, menu)
    if signal is not None:
        return Command("action", signal)
    implied = _implied(tokens, obs, game)
    if implied is not None:
        return Command("illegal", implied)
    if reason and tokens[0] in _verbs(obs, game):
        return _refused(reason, explained)
    raise InputError(
        i18n.t("terminal.input.not_allowed", said=_unread(raw, reason, explained, obs, game))
    )


def _unread(raw: str, reason: str, explained: object, obs: Observation, game: Game) -> str:
    """Why ``raw`` names no action: the engine's reason (in the table's language when the
    catalogs have its code), else that it is not an action of the game."""
    from folkcards.tui.explain import render

    if reason and i18n.lang() == i18n.LANGS[0]:
        return reason.rstrip(".")
    said = render(explained, obs.seat, [], game.name) if reason else None
    if said is not None:
        return said
    return i18n.t(
        "terminal.input.not_an_action", text=raw, game=i18n.game_title(game.name, game.title)
    )


def _position(n: int, menu: menus.Menu) -> Command:
    entry = menu.position(n)
    if entry is None:
        raise InputError(i18n.t("terminal.input.position", n=n, count=len(menu.entries)))
    if entry.single is not None:
        return _with_confirm(entry.single, menu)
    return Command("entry", entry=entry)


def _checked(text: str, obs: Observation, game: Game, menu: menus.Menu) -> Command:
    action, reason, explained = _parse_explained(text, obs, game)
    if action is None:
        return _refused(reason or i18n.t("terminal.input.not_here", text=text), explained)
    found = _find(action, list(obs.legal))
    if found is None:
        return Command("illegal", action)
    return _with_confirm(found, menu)


def _with_confirm(action: Action, menu: menus.Menu) -> Command:
    """The action, with a question first when it is a jump bid: more than one step above
    the lowest bid allowed now."""
    said = action.step
    n = said.number
    if said.kind != "bid" or n is None or menu.numeric_verb != "bid" or len(menu.numbers) < 2:
        return Command("action", action)
    low = menu.numbers[0]
    step = min(b - a for a, b in zip(menu.numbers, menu.numbers[1:], strict=False))
    if n - low > step:
        steps = (n - low) // step
        return Command(
            "action",
            action,
            confirm=i18n.t("terminal.input.jump", n=n, steps=steps, low=low),
        )
    return Command("action", action)


def _sole_option(action: Action, legal: list[Action]) -> Action | None:
    """``play 5S`` for the one legal ``play 5S take …`` (Scopone's SCO-4.6 short form): the
    one legal action of the same verb that names these cards and more after them."""
    step = action.step
    kind, cards, n = step.kind, step.cards, len(step.cards)
    starts = [
        a
        for a in legal
        if a.step.kind == kind and len(a.step.cards) > n and a.step.cards[:n] == cards
    ]
    if len(starts) == 1 and menus.signal(starts[0].step) is None:
        return starts[0]
    return None


def _short_form(tokens: list[str], legal: list[Action]) -> Action | None:
    """The one legal action a short form names; InputError when it names several."""
    if all(_is_card(t) for t in tokens):
        wanted = {CARD_NUMBERS[t] for t in tokens}
        exact = [a for a in legal if set(a.step.cards) == wanted]
        plain_exact = [a for a in exact if menus.signal(a.step) is None]
        if len(exact) == 1:
            return exact[0]
        if len(plain_exact) == 1:
            return plain_exact[0]
        if len(tokens) == 1:
            card = CARD_NUMBERS[tokens[0]]
            first = [a for a in legal if menus.lead_card(a.step) == card]
            plain = [a for a in first if len(a.step.cards) == 1 and menus.bare(a.step)]
            if len(first) == 1:
                return first[0]
            if len(plain) == 1:
                return plain[0]
            if first:
                _ambiguous(first)
        if exact:
            _ambiguous(exact)
        return None
    if len(tokens) == 1 and len(tokens[0]) == 1 and tokens[0].isupper():
        suit = [a for a in legal if _names_suit(a.step) == tokens[0]]
        if len(suit) == 1:
            return suit[0]
        if suit:
            _ambiguous(suit)
        return None
    typed = " ".join(tokens)
    starts = [a for a in legal if a.text.startswith(typed)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        _ambiguous(starts)
    return None


def _ambiguous(options: list[Action]) -> None:
    from folkcards.tui.view import action_words

    listed = i18n.t("ui.sep").join(action_words(a.text) for a in options[:8])
    more = " …" if len(options) > 8 else ""
    raise InputError(i18n.t("terminal.input.ambiguous", listed=listed + more))


def _names_suit(step: Step) -> str | None:
    """The suit of a ``VERB S`` action (``trump H``, ``answer S``), else None."""
    if step.suit is not None and not step.cards and step.number is None and menus.bare(step):
        return step.suit
    return None


def _verbs(obs: Observation, game: Game) -> set[str]:
    """The action words of this phase (and of the game's usual actions)."""
    verbs = {a.step.kind for a in obs.legal}
    return verbs | {"play", "bid", "pass", "give", "return", "bury", "discard", "call"}


def _card_verb(obs: Observation) -> str | None:
    """The verb of this phase's one-card actions (``play``, ``bury``, ``return`` …)."""
    verbs = [a.step.kind for a in obs.legal if menus.lead_card(a.step) is not None]
    # the commonest; a tie goes to the first in legal order (a set's order would vary
    # with the hash seed from run to run)
    return max(dict.fromkeys(verbs), key=verbs.count) if verbs else None


def _several(tokens: list[str], obs: Observation, game: Game) -> Command | None:
    """``bury TC 8H`` (or ``tc 8h`` where the phase's verb takes one card and repeats):
    the first card's action now, the others next, each checked by the engine."""
    verb = tokens[0] if not _is_card(tokens[0]) else _card_verb(obs)
    cards = tokens[1:] if not _is_card(tokens[0]) else tokens
    if verb is None or len(cards) < 2 or not all(_is_card(c) for c in cards):
        return None
    if len(set(cards)) != len(cards):
        raise InputError(i18n.t("terminal.input.twice"))
    actions = []
    for c in cards:
        action, reason, explained = _parse_explained(f"{verb} {c}", obs, game)
        if action is None:
            return _refused(reason, explained) if reason else None
        actions.append(action)
    first = _find(actions[0], list(obs.legal))
    if first is None:
        return Command("illegal", actions[0])
    return Command("action", first, more=tuple(actions[1:]))


def _signal(tokens: list[str], menu: menus.Menu) -> Action | None:
    """``th g`` / ``play th grate``: a play with its signal (Satat), the word shortened."""
    if tokens and tokens[0] == "play":
        tokens = tokens[1:]
    if len(tokens) != 2 or not _is_card(tokens[0]):
        return None
    for a in menu.decorations.get(f"play {tokens[0]}", []):
        word = menus.signal(a.step)
        if word is not None and word.startswith(tokens[1]):
            return a
    return None


def _implied(tokens: list[str], obs: Observation, game: Game) -> Action | None:
    """The action a short form would name if it were legal: a card alone with the phase's
    card verb (``10h`` → ``play TH``), a suit letter with the phase's suit verb (``s`` →
    ``trump S``) — so that the engine can say why it is not allowed."""
    if len(tokens) != 1:
        return None
    token = tokens[0]
    if _is_card(token):
        verb = _card_verb(obs) or "play"
        return _parse(f"{verb} {token}", obs, game)[0]
    if len(token) == 1 and token.isupper():
        verbs = [a.step.kind for a in obs.legal if _names_suit(a.step) is not None]
        if verbs:
            return _parse(f"{verbs[0]} {token}", obs, game)[0]
    return None


def why_action(arg: str, obs: Observation, game: Game) -> Action | str:
    """The action ``why ARG`` asks about (a card becomes the phase's card verb + card),
    or a message when ARG names none."""
    arg = i18n.english_words(arg)
    if not arg:
        return i18n.t("terminal.input.why_what")
    # the verbs of the actions that name something (more than their verb alone)
    verbs = [a.step.kind for a in obs.legal if a.step != a.step.kind]
    words = arg.split()
    if len(words) == 1:
        try:
            card = parse_card(words[0], game.deck)
        except CardError as exc:
            if i18n.lang() != i18n.LANGS[0]:
                return i18n.t("terminal.input.not_a_card", text=words[0])
            return str(exc)
        name = CARD_NAMES[card]
        for a in obs.legal:
            if card in a.step.cards:
                return a
        verb = max(dict.fromkeys(verbs), key=verbs.count) if verbs else "play"
        arg = f"{verb} {name}"
    try:
        return game.parse_action(arg, obs.variant)
    except (ActionSyntaxError, FolkcardsError) as exc:
        if i18n.lang() != i18n.LANGS[0]:
            return i18n.t(
                "terminal.input.not_an_action",
                text=arg,
                game=i18n.game_title(game.name, game.title),
            )
        return str(exc)
