"""Right-to-left text on a terminal: logical order, or visual order for terminals without bidi.

A program writes text in *logical* order (the order it is read and typed). Terminals that
apply the Unicode bidirectional algorithm themselves and join Arabic-script letters —
GNOME Terminal and every VTE terminal (Tilix, Terminator, xfce4-terminal …), Konsole,
mlterm — show such text right to left and shaped. Most others — xterm, tmux and screen
(which draw the screen themselves), the Linux console, Windows Terminal — show every line
left to right exactly as written, so Persian reads backwards with unjoined letters.

For those, :class:`VisualFile` writes each line in *visual* order: letters joined
(``arabic-reshaper``: each letter in its positional form, no ligatures, so no line changes
its width), the line reordered by the bidirectional algorithm with a right-to-left base
direction (levels from ``python-bidi``, rules L1–L2 and mirroring applied here so that every
character keeps its colour), padded so it ends at the right margin, and written with its
styles. The table's boxes are mirrored with it, so the whole screen reads right to left;
card codes, rule IDs and numbers stay left to right inside it.

:func:`choose` picks the order: ``--bidi logical|visual``, else ``FOLKCARDS_BIDI``, else
(``auto``) logical when the output is not a terminal or is a terminal known to do its own
bidi (and not inside tmux or screen), visual otherwise. Both packages are in the ``tui``
extra; without them visual order falls back to logical with a note.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Callable, Mapping
from functools import cache
from typing import IO, Any

from folkcards.tui.i18n import width as cell_len

MODES = ("auto", "logical", "visual")
"""The values of ``--bidi``."""

BIDI_TERMINALS = ("VTE_VERSION", "KONSOLE_VERSION", "MLTERM")
"""Environment variables set by terminals that apply the bidi algorithm and shape Arabic
script themselves (VTE ≥ 0.58 — GNOME Terminal and the other VTE terminals — Konsole,
mlterm)."""

MULTIPLEXERS = ("TMUX", "STY")
"""Environment variables set inside tmux and GNU screen, which draw the screen themselves
and apply no bidi, whatever the terminal around them does."""

ZERO_WIDTH = frozenset(
    "\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200c\u200d\u202a\u202b\u202c\u202d\u202e"
)
"""Format characters dropped from a line once it is in visual order (isolates, marks,
joiners, embeddings): their work is done, and some terminals would draw them."""

ISOLATE_CLASSES = frozenset({"LRI", "RLI", "FSI", "PDI"})
WHITESPACE_CLASSES = frozenset({"WS", "BN", "LRE", "RLE", "LRO", "RLO", "PDF"}) | ISOLATE_CLASSES

BOX_MIRROR = dict(zip("╭╮╰╯┌┐└┘├┤╔╗╚╝╠╣┏┓┗┛┣┫", "╮╭╯╰┐┌┘└┤├╗╔╝╚╣╠┓┏┛┗┫┣", strict=True))
"""Box-drawing characters that turn into their mirror image in a right-to-left line (the
bidi algorithm mirrors brackets; a table's corners are mirrored here too)."""

_CSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?"
)
_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def _module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def available() -> bool:
    """True when the packages for visual order (``python-bidi``, ``arabic-reshaper``) are
    installed."""
    return _module("bidi") is not None and _module("arabic_reshaper") is not None


def choose(mode: str, stream: IO[str] | None, environ: Mapping[str, str]) -> str:
    """``logical`` or ``visual`` for ``--bidi MODE`` (``auto``: ``FOLKCARDS_BIDI``, else
    visual on a terminal not known to do its own bidi, or inside tmux/screen; logical when
    the output is a file or a pipe). Visual needs :func:`available`."""
    if mode not in MODES:
        raise ValueError(f"--bidi is one of {', '.join(MODES)}, not {mode!r}")
    if mode == "auto":
        preset = environ.get("FOLKCARDS_BIDI", "").strip().lower()
        if preset in ("logical", "visual"):
            mode = preset
        elif stream is None or not _isatty(stream):
            mode = "logical"
        elif any(environ.get(k) for k in MULTIPLEXERS):
            mode = "visual"
        elif any(environ.get(k) for k in BIDI_TERMINALS) and _vte_bidi(environ):
            mode = "logical"
        else:
            mode = "visual"
    return mode


def _isatty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _vte_bidi(environ: Mapping[str, str]) -> bool:
    """VTE applies bidi from version 0.58 (``VTE_VERSION`` 5800); other listed terminals do."""
    vte = environ.get("VTE_VERSION", "")
    if vte and not environ.get("KONSOLE_VERSION") and not environ.get("MLTERM"):
        return not vte.isdigit() or int(vte) >= 5800
    return True


# --- the algorithm's last steps -------------------------------------------------------------


@cache
def _reshaper() -> Any:
    shaping = importlib.import_module("arabic_reshaper")
    return shaping.ArabicReshaper(
        configuration={"support_ligatures": False, "delete_harakat": False}
    )


@cache
def _mirrors() -> Mapping[str, str]:
    mirror = _module("bidi.mirror")
    found = getattr(mirror, "MIRRORED", None)
    table: dict[str, str] = dict(found) if isinstance(found, Mapping) else {}
    for a, b in ("()", "[]", "{}", "<>", "«»", "‹›"):
        table.setdefault(a, b)
        table.setdefault(b, a)
    table.update(BOX_MIRROR)
    return table


def shape(text: str) -> str:
    """Arabic-script letters in their joined (positional) forms, one character for one."""
    if not any("\u0600" <= ch <= "\u06ff" for ch in text):
        return text
    out: str = _reshaper().reshape(text)
    return out if len(out) == len(text) else text


def levels(text: str) -> tuple[list[int], list[str]] | None:
    """The resolved embedding level and the bidi class of each character of ``text`` (one
    line), with a right-to-left paragraph direction: from ``python-bidi``'s levels
    (``get_display(debug=True)``, one per UTF-8 byte). None when they cannot be read."""
    engine = _module("bidi")
    if engine is None or not text:
        return None
    try:
        info = str(engine.get_display(text, base_dir="R", debug=True))
    except Exception:
        return None
    head, sep, rest = info.partition("levels:")
    if not sep or "original_classes:" not in head:
        return None
    classes_part = head.split("original_classes:", 1)[1]
    classes = re.findall(r"\b([A-Z]{1,3})\b", classes_part)
    byte_levels = [int(x) for x in _LEVEL.findall(rest.split("paragraphs:", 1)[0])]
    sizes = [len(ch.encode("utf-8")) for ch in text]
    if len(byte_levels) != sum(sizes) or len(classes) != sum(sizes):
        return None
    out_levels, out_classes, pos = [], [], 0
    for size in sizes:
        out_levels.append(byte_levels[pos])
        out_classes.append(classes[pos])
        pos += size
    return out_levels, out_classes


def visual_order(text: str) -> tuple[list[int], list[int]] | None:
    """For each visual position of the line ``text`` (right-to-left paragraph), the index of
    the character shown there (rules L1 and L2 of the bidi algorithm), and each character's
    level after L1; None without levels."""
    found = levels(text)
    if found is None:
        return None
    lv, classes = found
    base = 1
    # L1: trailing white space (and isolates), and white space before a segment separator,
    # go to the paragraph level
    i = len(lv) - 1
    while i >= 0 and classes[i] in WHITESPACE_CLASSES:
        lv[i] = base
        i -= 1
    for j, cls in enumerate(classes):
        if cls in ("S", "B"):
            lv[j] = base
            k = j - 1
            while k >= 0 and classes[k] in WHITESPACE_CLASSES:
                lv[k] = base
                k -= 1
    order = list(range(len(lv)))
    if not lv:
        return order, lv
    # L2: from the highest level down to the lowest odd one, reverse every run at that
    # level or higher
    top = max(lv)
    lowest_odd = min((x for x in lv if x % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        k = 0
        while k < len(order):
            if lv[order[k]] >= level:
                end = k
                while end < len(order) and lv[order[end]] >= level:
                    end += 1
                order[k:end] = reversed(order[k:end])
                k = end
            else:
                k += 1
    return order, lv


def visual(cells: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A line given as (character, style) pairs, in visual order with mirrored characters;
    as it is when the levels cannot be found."""
    text = "".join(ch for ch, _ in cells)
    found = visual_order(text)
    if found is None:
        return cells
    order, lv = found
    order = _marks_after_base(order, lv, text)
    mirrors = _mirrors()
    out = []
    for i in order:
        ch, style = cells[i]
        if lv[i] % 2:
            ch = mirrors.get(ch, ch)
        if ch not in ZERO_WIDTH:
            out.append((ch, style))
    return out


def _marks_after_base(order: list[int], lv: list[int], text: str) -> list[int]:
    """Rule L3: in a reversed (right-to-left) run a combining mark comes before its base;
    a terminal draws a mark over the character before it, so each mark is put back after
    its base («نتیجهٔ» keeps its hamza on the heh)."""
    out = list(order)
    k = 0
    while k < len(out):
        i = out[k]
        if lv[i] % 2 and unicodedata.category(text[i]) in ("Mn", "Me"):
            end = k
            while end < len(out) and unicodedata.category(text[out[end]]) in ("Mn", "Me"):
                end += 1
            if end < len(out):  # marks, then their base: the base first
                out[k : end + 1] = [out[end], *out[k:end]]
            k = end + 1
        else:
            k += 1
    return out


def split_ansi(line: str) -> tuple[str, list[tuple[str, str]]]:
    """A written line as its control sequences that are not colours (kept in front) and
    its characters, each with the colour sequences in force (``\\x1b[1;31m`` …)."""
    controls: list[str] = []
    cells: list[tuple[str, str]] = []
    style = ""
    pos = 0
    for m in _CSI.finditer(line):
        for ch in line[pos : m.start()]:
            cells.append((ch, style))
        seq = m.group(0)
        if seq.startswith("\x1b[") and seq.endswith("m"):
            style = "" if seq in ("\x1b[0m", "\x1b[m") else style + seq
        else:
            controls.append(seq)
        pos = m.end()
    for ch in line[pos:]:
        cells.append((ch, style))
    return "".join(controls), cells


def join_ansi(cells: list[tuple[str, str]]) -> str:
    """Characters with their colour sequences as text to write (one reset after each run)."""
    out: list[str] = []
    run_style: str | None = None
    for ch, style in cells:
        if style != run_style:
            if run_style:
                out.append("\x1b[0m")
            if style:
                out.append(style)
            run_style = style
        out.append(ch)
    if run_style:
        out.append("\x1b[0m")
    return "".join(out)


def shaped_cells(cells: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each run of one style with its Arabic-script letters joined."""
    out: list[tuple[str, str]] = []
    k = 0
    while k < len(cells):
        style = cells[k][1]
        end = k
        while end < len(cells) and cells[end][1] == style:
            end += 1
        run = shape("".join(ch for ch, _ in cells[k:end]))
        out.extend((ch, style) for ch in run)
        k = end
    return out


def visual_line(line: str, width: int | None = None, prompt: bool = False) -> str:
    """One written line (with its colour sequences) in visual order; a line of ``width`` or
    fewer cells is padded so that it ends at the right margin. A ``prompt`` keeps its
    closing ``"> "`` at its end, where the person types."""
    controls, cells = split_ansi(line)
    if not any(ch.strip() for ch, _ in cells):
        return line
    tail: list[tuple[str, str]] = []
    if prompt:
        while cells and cells[-1][0] in " >":
            tail.insert(0, cells.pop())
    elif width is not None:
        used = cell_len("".join(ch for ch, _ in cells))
        if used < width:
            cells = cells + [(" ", "")] * (width - used)
    cells = visual(shaped_cells(cells))
    return controls + join_ansi(cells + tail)


class VisualFile:
    """A text stream that writes every line in visual order (see the module's docstring);
    the line written last without its end (a prompt) is written when the stream is flushed."""

    def __init__(self, stream: IO[str], width: Callable[[], int] | None = None) -> None:
        self.stream = stream
        self.width = width
        self.pending = ""

    @property
    def encoding(self) -> str:
        """The stream's encoding."""
        return str(getattr(self.stream, "encoding", "utf-8") or "utf-8")

    def write(self, text: str) -> int:
        """Write the complete lines of ``text`` in visual order; keep a partial last line."""
        data = self.pending + text
        lines = data.split("\n")
        self.pending = lines.pop()
        width = self.width() if self.width is not None else None
        for line in lines:
            self.stream.write(visual_line(line, width) + "\n")
        return len(text)

    def flush(self) -> None:
        """Write the partial line (a prompt) in visual order, then flush the stream."""
        if self.pending:
            self.stream.write(visual_line(self.pending, prompt=True))
            self.pending = ""
        self.stream.flush()

    def isatty(self) -> bool:
        """Whether the stream is a terminal."""
        return self.stream.isatty()

    def fileno(self) -> int:
        """The stream's file descriptor."""
        return self.stream.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
