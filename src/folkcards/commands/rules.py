"""``folkcards rules GAME [--lang en|fa] [--section ID]``: the rules of a game, as a player reads them.

The pages come from :mod:`folkcards.guide` (one page per game and language, in sections
such as ``bidding`` or ``play``); at the table, ``rules`` opens the section of the phase
being played. Without the guide package the command says so and points to the
normative rules.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from dataclasses import dataclass
from importlib import resources
from typing import Any

LANGS = ("en", "fa")


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "rules",
        help="the rules of a game for players (English or Persian)",
        description="Print the players' guide to a game's rules; --section shows one part "
        "(e.g. bidding, play, scoring).",
    )
    p.add_argument("game", help="sasku, scopone, sheepshead, satat or huutopussi")
    p.add_argument("--lang", default="en", choices=LANGS, help="language (default en)")
    p.add_argument(
        "--bidi",
        default="auto",
        choices=("auto", "logical", "visual"),
        help="how Persian is written to the terminal (see folkcards play --help)",
    )
    p.add_argument("--section", default=None, metavar="ID", help="one section, e.g. play")
    p.add_argument("--phase", default=None, help="the section that explains this phase")


@dataclass(frozen=True)
class Section:
    """One section of a rules page: its id (``{#id}``), title and text (Markdown)."""

    id: str
    title: str
    text: str
    phases: tuple[str, ...] = ()


def _guide() -> Any | None:
    try:
        return importlib.import_module("folkcards.guide")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("folkcards.guide"):
            return None
        raise


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    for attr in ("markdown", "text", "body", "source"):
        got = getattr(value, attr, None)
        if isinstance(got, str):
            return got
    return None


def page_text(game: str, lang: str) -> str | None:
    """The game's rules page as Markdown: ``folkcards.guide.rules_page`` when the guide
    offers it, else the guide's page file; None when there is no guide."""
    guide = _guide()
    if guide is None:
        return None
    make = getattr(guide, "rules_page", None)
    if callable(make):
        try:
            text = _as_text(make(game, lang))
        except (KeyError, ValueError, LookupError):
            text = None
        if text:
            return text
    try:
        return resources.files("folkcards.guide").joinpath(f"{game}.{lang}.md").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return None


def sections(text: str) -> list[Section]:
    """The ``## Title {#id}`` sections of a page, with the phases each names in its
    ``<!-- rules: …; phases: … -->`` comment."""
    out = []
    parts = re.split(r"(?m)^## ", text)
    for part in parts[1:]:
        head, _, body = part.partition("\n")
        m = re.search(r"\{#([\w-]+)\}\s*$", head)
        ident = m.group(1) if m else head.strip().lower()
        title = re.sub(r"\s*\{#[\w-]+\}\s*$", "", head).strip()
        phases: tuple[str, ...] = ()
        pm = re.search(r"<!--[^>]*phases:\s*([\w ,]+?)\s*-->", body)
        if pm:
            phases = tuple(p.strip() for p in re.split(r"[ ,]+", pm.group(1)) if p.strip())
        body = re.sub(r"<!--.*?-->\n?", "", body, flags=re.S)
        out.append(Section(ident, title, body.strip(), phases))
    return out


def _guide_sections(game: str, lang: str) -> list[Section]:
    """``folkcards.guide.sections(game, lang)`` as this module's sections, when offered."""
    guide = _guide()
    listing = getattr(guide, "sections", None)
    if not callable(listing):
        return []
    try:
        found = listing(game, lang)
    except (KeyError, ValueError, LookupError):
        return []
    out = []
    for s in found:
        body = getattr(s, "markdown", None)
        ident, title = getattr(s, "id", None), getattr(s, "title", None)
        if isinstance(body, str) and isinstance(ident, str) and isinstance(title, str):
            out.append(Section(ident, title, body.strip(), tuple(getattr(s, "phases", ()))))
    return out


def section_for(game: str, lang: str, phase: str | None, topic: str = "") -> Section | None:
    """The section about ``topic`` (an id or a word of its title) or, without one, the
    section that explains ``phase`` (``folkcards.guide.section_for_phase`` when offered)."""
    text = page_text(game, lang)
    if text is None:
        return None
    found = _guide_sections(game, lang) or sections(text)
    if topic:
        t = topic.strip().lower()
        for s in found:
            if s.id == t or t in s.title.lower():
                return s
        return None
    guide = _guide()
    pick = getattr(guide, "section_for_phase", None)
    if phase and callable(pick):
        try:
            got = pick(game, phase)
        except (KeyError, ValueError, LookupError, TypeError):
            got = None
        ident = got if isinstance(got, str) else getattr(got, "id", None)
        for s in found:
            if s.id == ident:
                return s
    for s in found:
        if phase and phase in s.phases:
            return s
    return found[0] if found else None


def print_rules(
    console: Any, game: str, lang: str, *, phase: str | None = None, topic: str = ""
) -> bool:
    """Print the section for ``phase`` (or ``topic``) at the table; False without a guide."""
    from rich.markdown import Markdown

    from folkcards.tui import i18n

    sec = section_for(game, lang, phase, topic)
    if sec is None:
        if page_text(game, lang) is None:
            console.print(missing(game))
        else:
            ids = i18n.t("ui.sep").join(
                i18n.ltr(s.id) for s in sections(page_text(game, lang) or "")
            )
            console.print(i18n.t("terminal.rules.no_section", topic=topic, ids=ids))
        return False
    console.print(Markdown(f"## {sec.title}\n\n{sec.text}"))
    command = f"folkcards rules {game}{'' if lang == 'en' else ' --lang ' + lang}"
    console.print(i18n.t("terminal.rules.whole_page", command=i18n.ltr(command)))
    return True


def missing(game: str) -> str:
    """What to say when this checkout has no players' guide."""
    return (
        f"The players' guide (folkcards.guide) is not in this installation, so there is no "
        f"rules page for {game} here; the normative rules are rules/{game}.md of the project."
    )


def run(args: argparse.Namespace) -> int:
    """Print the page (or one section); 2 for an unknown game, 1 without a guide."""
    try:
        from folkcards.tui.console import make_console
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "rich":
            text = page_text(args.game, args.lang)
            if text is None:
                print(missing(args.game), file=sys.stderr)
                return 1
            print(text)
            return 0
        raise
    from folkcards.games import GAMES

    if args.game not in GAMES:
        print(
            f"folkcards rules: unknown game {args.game!r} (known: {', '.join(sorted(GAMES))})",
            file=sys.stderr,
        )
        return 2
    from folkcards.tui import i18n
    from folkcards.tui.console import bidi_mode

    i18n.set_lang(args.lang)
    console = make_console(bidi_order=bidi_mode(getattr(args, "bidi", "auto") or "auto"))
    if args.section or args.phase:
        return (
            0
            if print_rules(
                console, args.game, args.lang, phase=args.phase, topic=args.section or ""
            )
            else 1
        )
    text = page_text(args.game, args.lang)
    if text is None:
        console.print(missing(args.game))
        return 1
    from rich.markdown import Markdown

    console.print(Markdown(re.sub(r"<!--.*?-->\n?", "", text, flags=re.S)))
    return 0
