"""Actions and their canonical text (conventions.md, "Actions" and "Text input").

An :class:`Action` is an ``int`` — its code is stable within a game, so it doubles
as an index into a fixed action space — that also carries its canonical text.
Games precompute their actions once, so legal-move generation allocates nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from folkcards.cards import CARD_NAMES, CardError, CardSet, parse_card
from folkcards.engine.explain import Explanation, explained, unexplained


class Action(int):
    """One action of a game: an integer code with its canonical text (``str(action)``)."""

    text: str

    def __new__(cls, code: int, text: str) -> Action:
        obj = int.__new__(cls, code)
        obj.text = text
        return obj

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
