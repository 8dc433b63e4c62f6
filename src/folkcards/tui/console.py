"""The terminal's console: ``rich`` when it is installed, a plain fallback on ASCII terminals.

A terminal whose encoding cannot show ``♥`` or ``—`` (``PYTHONIOENCODING=ascii``, an old
console) gets the same table with ASCII boxes, suit letters and words instead of symbols,
and a few punctuation marks spelt plainly, instead of a ``UnicodeEncodeError``. In a
right-to-left language on a terminal that does no bidi of its own, every line is written in
visual order (:mod:`folkcards.tui.bidi`, ``--bidi``).
"""

from __future__ import annotations

import os
import sys
from typing import IO, Any

from rich.console import Console

from folkcards.tui import bidi, i18n, present

PLAIN = str.maketrans(
    {
        "—": "-",
        "–": "-",
        "…": "...",
        "·": ".",
        "→": "->",
        "←": "<-",
        "★": "*",
        "✓": "v",
        "×": "x",
        "≥": ">=",
        "≤": "<=",
        "♣": "C",
        "♠": "S",
        "♥": "H",
        "♦": "D",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "─": "-",
        "│": "|",
        "╭": "+",
        "╮": "+",
        "╰": "+",
        "╯": "+",
    }
)
"""How the table's non-ASCII marks are spelt on an ASCII terminal."""


def can_show(stream: IO[str], sample: str = "♥—") -> bool:
    """True when ``stream``'s encoding can show ``sample``."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class PlainFile:
    """A text stream that spells non-ASCII marks plainly (and anything else as ``?``)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.encoding = "ascii"

    def write(self, text: str) -> int:
        """Write ``text`` with every mark the stream cannot show replaced."""
        plain = text.translate(PLAIN).encode("ascii", "replace").decode("ascii")
        self.stream.write(plain)
        return len(text)

    def flush(self) -> None:
        """Flush the stream."""
        self.stream.flush()

    def isatty(self) -> bool:
        """Whether the stream is a terminal."""
        return self.stream.isatty()

    def fileno(self) -> int:
        """The stream's file descriptor."""
        return self.stream.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def bidi_mode(mode: str = "auto", stream: IO[str] | None = None) -> str:
    """The order the current language's lines are written in on ``stream`` (default: standard
    output): ``logical`` in a left-to-right language, else :func:`folkcards.tui.bidi.choose`'s
    (``visual`` only when its packages are installed; otherwise a note on standard error)."""
    if not i18n.rtl():
        return "logical"
    chosen = bidi.choose(mode, stream if stream is not None else sys.stdout, os.environ)
    if chosen == "visual" and not bidi.available():
        if mode == "visual":
            print(
                "folkcards: --bidi visual needs python-bidi and arabic-reshaper "
                "(pip install 'folkcards[tui]'); writing in logical order",
                file=sys.stderr,
            )
        return "logical"
    return chosen


def make_console(*, stderr: bool = False, bidi_order: str = "logical") -> Console:
    """The console of the terminal commands; ASCII-safe when the terminal needs it, in visual
    order when ``bidi_order`` is ``visual`` (see :func:`bidi_mode`)."""
    stream = sys.stderr if stderr else sys.stdout
    if not can_show(stream):
        present.ASCII_ONLY = True
        return Console(file=PlainFile(stream), highlight=False, emoji=False)  # type: ignore[arg-type]
    if bidi_order == "visual":
        out = bidi.VisualFile(stream)
        console = Console(file=out, highlight=False)  # type: ignore[arg-type]
        out.width = lambda: console.width
        return console
    return Console(stderr=stderr, highlight=False)


def plain_text(text: str) -> str:
    """``text`` as an ASCII terminal shows it (for messages printed without the console)."""
    return text.translate(PLAIN).encode("ascii", "replace").decode("ascii")
