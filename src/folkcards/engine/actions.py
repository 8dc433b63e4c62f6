"""Actions and their canonical text (conventions.md, "Actions" and "Text input").

An :class:`Action` is an ``int`` — its code is stable within a game, so it doubles
as an index into a fixed action space — that also carries its canonical text.
Games precompute their actions once, so legal-move generation allocates nothing.

A :class:`Step` is one entry of an observation's ``history``: the action's text as one
viewer saw it (a ``str``), with its structure — verb, cards, number, suit, what was
hidden — read once, so that no client parses history text again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from folkcards.cards import CARD_NAMES, CARD_NUMBERS, SUITS, Card, CardError, CardSet, parse_card
from folkcards.engine.explain import Explanation, explained, unexplained


class Step(str):
    """One entry of an observation's ``history``: an action as one viewer saw it.

    A step *is* its canonical text (``"play TH"``, ``"bid 60"``, ``"give ?"``), so records,
    screens and code that compare history entries with text are unchanged; and it carries
    the structure of that text, read once when the game's actions are made:

    - ``kind`` — the action's verb, its first word (``play``, ``bid``, ``pass``, ``give``…);
    - ``cards`` — the cards it names, in the order the text names them (for Scopone's
      ``play 7C take 3H 4D`` the card played first); empty where they are hidden;
    - ``number`` — the number it names (a bid, a count of cards), else ``None``;
    - ``suit`` — the suit letter it names (``trump H``), else ``None``;
    - ``hidden`` — how many cards of it this viewer did not see (``give ? ?`` → 2); 0 when
      the viewer saw it whole;
    - ``words`` — its other words, in order: neither a card, a ``?``, a number nor a suit
      (``take`` of Scopone's ``play 7C take 3H``, ``to`` of Sasku's ``deal to AC``,
      ``threes`` of ``deal threes``, Satat's signal ``grate`` of ``play 5D grate``);
    - ``action`` — the :class:`Action` itself when the viewer saw it whole, else ``None``.

    A game's observation puts ``action.step`` in the history for an action the viewer saw,
    and :func:`masked` (``masked("give ?")``) for one whose cards it did not: both are made
    once and shared, so a history costs no more than its texts did.
    """

    kind: str
    cards: tuple[Card, ...]
    number: int | None
    suit: str | None
    hidden: int
    words: tuple[str, ...]
    action: Action | None

    @property
    def card_set(self) -> CardSet:
        """``cards`` as a card set."""
        out = 0
        for c in self.cards:
            out |= 1 << c
        return out

    def to_dict(self) -> dict[str, Any]:
        """The step as JSON-ready data: its text and structure (cards as canonical text)."""
        return {
            "text": str(self),
            "kind": self.kind,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "number": self.number,
            "suit": self.suit,
            "hidden": self.hidden,
            "words": list(self.words),
        }

    def __reduce__(self) -> tuple[Any, ...]:
        if self.action is not None:
            return (_step_of_action, (self.action,))
        return (masked, (str(self),))


def _read_step(text: str, action: Action | None) -> Step:
    """The :class:`Step` of canonical action text (``?`` tokens count as hidden cards)."""
    step = Step(text)
    tokens = text.split(" ")
    step.kind = tokens[0]
    cards: list[Card] = []
    step.number = None
    step.suit = None
    hidden = 0
    words: list[str] = []
    for tok in tokens[1:]:
        c = CARD_NUMBERS.get(tok)
        if c is not None:
            cards.append(c)
        elif tok == "?":
            hidden += 1
        elif tok.isdigit():
            if step.number is None:
                step.number = int(tok)
        elif len(tok) == 1 and tok in SUITS:
            if step.suit is None:
                step.suit = tok
        else:
            words.append(tok)
    step.cards = tuple(cards)
    step.words = tuple(words)
    step.hidden = hidden
    step.action = action if hidden == 0 else None
    return step


_MASKED: dict[str, Step] = {}


def masked(text: str) -> Step:
    """The shared :class:`Step` of a history entry with hidden cards, such as ``give ?``
    or ``bury ?`` (each ``?`` one card the viewer did not see; ``action`` is ``None``)."""
    step = _MASKED.get(text)
    if step is None:
        step = _MASKED[text] = _read_step(text, None)
        step.action = None
    return step


def _step_of_action(action: Action) -> Step:
    return action.step


class Action(int):
    """One action of a game: an integer code with its canonical text (``str(action)``).

    ``step`` is the action as a history entry (a :class:`Step`), made on first use and kept.
    """

    text: str

    def __new__(cls, code: int, text: str) -> Action:
        obj = int.__new__(cls, code)
        obj.text = text
        return obj

    @cached_property
    def step(self) -> Step:
        """The action as a history entry. An :class:`ActionTable` sets it when it makes the
        action; a game that makes its actions lazily (Scopone), or an unpickled action,
        reads it here once and keeps it. (A cached property, not ``__getattr__``: a class
        with ``__getattr__`` makes every attribute read of its instances slower, and
        ``apply`` reads an action's attributes on every play.)"""
        return _read_step(self.text, self)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__
        if "step" in state:  # made again on first use after unpickling
            state = {k: v for k, v in state.items() if k != "step"}
        return state

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({int(self)}, {self.text!r})"

    def __getnewargs__(self) -> tuple[int, str]:  # type: ignore[override]
        return (int(self), self.text)


class ActionSyntaxError(ValueError):
    """Action text that does not parse (before any question of legality).

    ``code`` and ``params`` name the message for :class:`~folkcards.engine.explain.Explanation`
    (``explanation``); the message text itself is unchanged by them."""

    def __init__(
        self, message: str, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    @property
    def explanation(self) -> Explanation:
        """The structured form of this error (code ``unexplained`` when it has no code)."""
        text = str(self)
        if self.code is None:
            return unexplained(text)
        return explained(self.code, text, **self.params)

    def cited(self, suffix: str) -> ActionSyntaxError:
        """The same error with ``suffix`` appended to its message (a rule citation)."""
        return ActionSyntaxError(f"{self}{suffix}", self.code, self.params)


def canonical_tokens(text: str, deck: CardSet, suit_letters: str = "CSHD") -> list[str]:
    """Split action text into canonical tokens (conventions.md, "Text input, everywhere").

    Case-insensitive; ``10`` reads as ``T``; runs of blanks separate tokens; numbers are
    read by value; card tokens must belong to ``deck`` (a card outside it is an error).
    """
    if not isinstance(text, str):
        raise ActionSyntaxError("an action must be a text", "not_text")
    if not text.isascii():
        raise ActionSyntaxError(f"{text!r}: actions are ASCII text", "not_ascii", {"action": text})
    parts = text.split()
    if not parts:
        raise ActionSyntaxError("empty action", "empty_action")
    out: list[str] = [parts[0].lower()]
    for tok in parts[1:]:
        if tok.isdigit():
            out.append(str(int(tok)))
            continue
        up = tok.upper()
        if len(up) == 1 and up in suit_letters:
            out.append(up)
            continue
        if (
            len(up) in (2, 3)
            and up[-1] in "CSHD"
            and (up[:-1] in "AKQJT98765432" or up[:-1] == "10")
        ):
            try:
                c = parse_card(up, deck)
            except CardError as exc:
                card = "T" + up[-1] if up[:-1] == "10" else up
                raise ActionSyntaxError(str(exc), "card_not_in_deck", {"card": card}) from None
            out.append(CARD_NAMES[c])
            continue
        out.append(tok.lower())
    return out


def sort_key(text: str, deck: CardSet) -> tuple[tuple[int, int, str], ...]:
    """The conventions' sort key of an action text: token by token; numbers < cards < words."""
    key = []
    for tok in text.split(" "):
        if tok.isdigit():
            key.append((0, int(tok), ""))
            continue
        if len(tok) == 2:
            try:
                c = parse_card(tok, deck)
            except CardError:
                pass
            else:
                if CARD_NAMES[c] == tok:
                    key.append((1, c, ""))
                    continue
        key.append((2, 0, tok))
    return tuple(key)


def sorted_texts(texts: Iterable[str], deck: CardSet) -> list[str]:
    """Action texts in the conventions' order (used for ``legal``)."""
    return sorted(texts, key=lambda t: sort_key(t, deck))


class ActionTable:
    """A game's finite action space: every action text with a code in canonical order.

    Codes follow the conventions' sort order of the texts, so any list of codes sorted
    numerically is also in the order ``legal`` must print.
    """

    def __init__(self, texts: Iterable[str], deck: CardSet) -> None:
        ordered = sorted_texts(set(texts), deck)
        self.deck = deck
        self.actions: tuple[Action, ...] = tuple(Action(i, t) for i, t in enumerate(ordered))
        for a in self.actions:
            a.step = _read_step(a.text, a)
        self.by_text: dict[str, Action] = {a.text: a for a in self.actions}

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, text: str) -> Action:
        return self.by_text[text]

    def parse(self, text: str, suit_letters: str = "CSHD") -> Action:
        """The action named by ``text`` in any accepted spelling, or ActionSyntaxError."""
        canon = " ".join(canonical_tokens(text, self.deck, suit_letters))
        try:
            return self.by_text[canon]
        except KeyError:
            raise ActionSyntaxError(
                f"{text.strip()!r} is not an action of this game",
                "not_an_action",
                {"action": text.strip()},
            ) from None
