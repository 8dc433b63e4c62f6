"""The terminal table's words in the player's language, from the catalogs the web table reads.

One catalog per language, ``folkcards/guide/messages.<lang>.json`` (:func:`folkcards.guide.
messages`): the web client imports it as its language module (``web/js/lang/<code>.js``)
and the terminal reads it here. The keys both clients say alike — explanation codes
(``explain.*``), verbs and words of actions, suits, phases, the hint's scale and reasons
(``hint_panel.*``), the deal's outcomes (``narrate.outcome_*``) — are shared; what only a
terminal says (its prompts, its menus, its narration lines with the reader as "you") is
under ``terminal.*``. The guide's ``labels.<lang>.json`` names the games, options and
result fields (:func:`folkcards.guide.label`).

The language is set once per command (:func:`set_lang`), as the web client sets its own;
everything that draws text asks :func:`t` (plain text) or :func:`tx` (a ``rich`` Text whose
parameters may be styled Texts). Numbers are written in the language's digits (:func:`num`;
Persian digits in ``fa``) and card codes, rule IDs and other left-to-right runs inside a
right-to-left text are wrapped in the Unicode isolates LRI … PDI (:func:`ltr`). What a
person types is read back with :func:`ascii_digits` and :func:`english_words`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from folkcards.guide import label as guide_label
from folkcards.guide import messages

if TYPE_CHECKING:
    from rich.text import Text

LANGS: tuple[str, ...] = ("en", "fa")
"""The terminal's languages (the catalogs' languages); the first is the fallback."""

RTL_LANGS = frozenset({"fa"})
"""Languages written right to left."""

LRI, PDI = "\u2066", "\u2069"
"""The Unicode isolates that keep a left-to-right run (a card code) whole inside
right-to-left text."""

_DIGITS = {"fa": "۰۱۲۳۴۵۶۷۸۹"}
_TO_ASCII = str.maketrans(
    {
        **{c: str(i) for i, c in enumerate("۰۱۲۳۴۵۶۷۸۹")},
        **{c: str(i) for i, c in enumerate("٠١٢٣٤٥٦٧٨٩")},
    }
)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

_current = "en"


def set_lang(code: str) -> str:
    """Make ``code`` the language of everything drawn from now on (an unknown code: English);
    returns the language set."""
    global _current
    _current = code if code in LANGS else LANGS[0]
    return _current


def lang() -> str:
    """The current language."""
    return _current


def rtl() -> bool:
    """True when the current language is written right to left."""
    return _current in RTL_LANGS


@contextmanager
def using(code: str) -> Iterator[str]:
    """The language ``code`` inside a ``with`` block (tests, one-off renderings)."""
    before = _current
    set_lang(code)
    try:
        yield _current
    finally:
        set_lang(before)


@cache
def _catalog(code: str) -> dict[str, Any]:
    return messages(code)


def _lookup(data: Mapping[str, Any], key: str) -> Any:
    value: Any = data
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def maybe(key: str) -> str | None:
    """The text of ``key`` in the current language (else English), or None when neither has it."""
    for code in dict.fromkeys((_current, LANGS[0])):
        value = _lookup(_catalog(code), key)
        if isinstance(value, str):
            return value
    return None


def num(value: Any) -> str:
    """A number (or a text of digits, such as ``+3`` or ``41.0``) in the current language's
    digits: Persian digits, minus sign and decimal separator in ``fa``."""
    text = str(value)
    digits = _DIGITS.get(_current)
    if digits is None:
        return text
    out = re.sub(r"[0-9]", lambda m: digits[int(m.group(0))], text)
    return out.replace("-", "−").replace(".", "٫")


def signed(value: int) -> str:
    """``+3``, ``-2``, ``+0`` in the current language's digits."""
    return num(f"{value:+d}")


def ltr(text: str) -> str:
    """``text`` kept left to right inside right-to-left text (wrapped in LRI … PDI); as it is
    in a left-to-right language."""
    return f"{LRI}{text}{PDI}" if rtl() and text else text


def width(text: str) -> int:
    """The cells ``text`` takes on a terminal (format characters such as the isolates and
    combining marks none, wide characters two)."""
    cells = 0
    for ch in text:
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        cells += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return cells


def pad(text: str, cells: int) -> str:
    """``text`` followed by spaces up to ``cells`` cells."""
    return text + " " * max(0, cells - width(text))


def ltr_text(text: Text) -> Text:
    """A styled ``text`` wrapped in the isolates in a right-to-left language."""
    from rich.text import Text

    if not rtl() or not text.plain:
        return text
    out = Text(LRI)
    out.append_text(text)
    out.append(PDI)
    return out


def _value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int | float):
        return num(value)
    return str(value)


def fill(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with each ``{name}`` replaced by its parameter (numbers in the language's
    digits); an unknown name is left as it is."""

    def repl(m: re.Match[str]) -> str:
        name = m.group(1)
        return _value(params[name]) if name in params else m.group(0)

    return _PLACEHOLDER.sub(repl, template)


def t(key: str, /, **params: Any) -> str:
    """The text of ``key`` with its parameters, in the current language (English when the
    language lacks it; the key's last part when no language has it)."""
    template = maybe(key)
    if template is None:
        return key.rsplit(".", 1)[-1]
    return fill(template, params)


def tx(key: str, /, style: str = "", **params: Any) -> Text:
    """Like :func:`t`, as a ``rich`` Text in ``style``: a parameter that is a Text keeps its
    own styles (a card in its suit's colour)."""
    from rich.text import Text

    template = maybe(key)
    if template is None:
        return Text(key.rsplit(".", 1)[-1], style=style)
    out = Text(style=style)
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        out.append(template[pos : m.start()])
        name = m.group(1)
        value = params.get(name, m.group(0)) if name in params else m.group(0)
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(_value(value))
        pos = m.end()
    out.append(template[pos:])
    return out


def plural(key: str, count: int, /, **params: Any) -> str:
    """``key`` + ``_one`` when ``count`` is 1 and the language has that form, else ``key``."""
    one = f"{key}_one"
    if count == 1 and maybe(one) is not None:
        return t(one, count=count, **params)
    return t(key, count=count, **params)


# --- the games' own words ------------------------------------------------------------------


def game_title(game: str, english: str) -> str:
    """A game's name in the current language (the guide's label; ``english`` where it has none)."""
    if _current == LANGS[0]:
        return english
    found = guide_label(_current, game, "game", "title")
    return found if found != "title" else english


def result_label(game: str, key: str) -> str:
    """A result field's name: the guide's label in a translated language; in English the key
    itself in words (``won_by`` → ``won by``), as the terminal has always written it."""
    if _current == LANGS[0]:
        return key.replace("_", " ")
    found = guide_label(_current, game, "results", key)
    return found if found != key else t(f"result.{key}")


def bot_level(spec: str) -> str:
    """A bot spec for a person: its level's name in a translated language (``heuristic`` →
    «قاعده‌مند»), the spec's options kept; English: the spec as typed."""
    if _current == LANGS[0]:
        return spec
    level, sep, options = spec.partition(":")
    named = maybe(f"ui.level_{level}")
    if named is None:
        return spec
    return f"{named.split(' (')[0]} ({ltr(options)})" if sep else named


def suit_name(game: str, suit: str) -> str:
    """A suit in words (``hearts``, «دل»; the Italian pack's suits ``cups``, «جام»)."""
    from folkcards.tui.present import pack  # present reads this module's catalogs

    group = "suits_italian" if pack(game) == "italian" else "suits"
    return maybe(f"{group}.{suit}") or suit


def verb(word: str) -> str:
    """An action's verb in words (``pass``, «پاس»); English: the verb as typed."""
    if _current == LANGS[0]:
        return word
    return maybe(f"verbs.{word}") or word


def word(token: str) -> str:
    """A word of an action (``threes``, ``take``) in the current language; English: as typed."""
    if _current == LANGS[0]:
        return token
    return maybe(f"words.{token}") or token


_CARD = re.compile(r"^(?:[AKQJT98765432][CSHD])$")


def token_words(tok: str, *, first: bool = False, game: str = "") -> str:
    """One word of an action in the current language: the verb, a number in its digits, a
    suit letter as the suit's name, any other word of the actions (``threes``, ``take``); a
    card as it is typed (kept left to right). English: the word as typed."""
    if _current == LANGS[0]:
        return tok
    if _CARD.match(tok):
        return ltr(tok)
    if first:
        return verb(tok)
    if tok.isdigit():
        return num(tok)
    if tok in ("C", "S", "H", "D"):
        from folkcards.tui import present

        return present.suit_words(game, tok)
    return word(tok)


def action_words(text: str, game: str = "") -> str:
    """An action in the current language (``play KS`` → «بازی KS»; English: as typed)."""
    tokens = text.split(" ")
    return " ".join(token_words(tok, first=i == 0, game=game) for i, tok in enumerate(tokens))


def ascii_digits(text: str) -> str:
    """``text`` with Persian and Arabic-Indic digits as ASCII digits (what a person types on a
    Persian keyboard means the same number)."""
    return text.translate(_TO_ASCII)


@cache
def _typed_words(code: str) -> list[tuple[str, str]]:
    """(localized phrase, English token) pairs of the verbs and words, longest first."""
    data = _catalog(code)
    pairs: list[tuple[str, str]] = []
    for group in ("verbs", "words"):
        table = data.get(group, {})
        if isinstance(table, Mapping):
            for token, text in table.items():
                if isinstance(text, str) and text.strip():
                    pairs.append((text.strip(" !+").strip(), token))
    pairs.sort(key=lambda p: -len(p[0]))
    return [p for p in pairs if p[0]]


def english_words(text: str) -> str:
    """What a person typed with the current language's verbs and words of actions said in
    English (``بازی KS`` → ``play KS``, ``پاس`` → ``pass``) and its digits in ASCII."""
    out = ascii_digits(text).strip()
    if _current == LANGS[0] or out.isascii():
        return out
    words: list[str] = []
    rest = out
    while rest:
        rest = rest.lstrip()
        if not rest:
            break
        for phrase, token in _typed_words(_current):
            if rest.startswith(phrase) and (len(rest) == len(phrase) or rest[len(phrase)] == " "):
                words.append(token)
                rest = rest[len(phrase) :]
                break
        else:
            head, _, rest = rest.partition(" ")
            words.append(head)
    return " ".join(words)
