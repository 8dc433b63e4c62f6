"""The rules for players, in the product: one page per game and language, and labels.

Data files (package data of ``folkcards.guide``):

* ``<game>.<lang>.md`` — the rules page of a game for players, written from the normative
  rules files. A page is ``# Title`` followed by sections, each opened by a heading with a
  stable id and, on the next line, an HTML comment naming the rule IDs it summarizes and the
  engine phases it explains::

      ## Bidding {#bidding}
      <!-- rules: SAS-8 SAS-22.1; phases: auction -->

  A rule ID may name a whole group (``SAS-8`` covers ``SAS-8.1`` … ``SAS-8.8``); an exact ID
  listed elsewhere wins over its group. Both languages have the same sections in the same
  order with the same rules and phases, so a client can open either page at the same id.
  Card codes are written in code spans (`` `K♠` `` ``10♥``) so that right-to-left text keeps
  them left-to-right; :data:`CARD_CODE` matches them.
* ``labels.<lang>.json`` — the same keys in every language::

      {"common": {"values": {...}, "suits": {...}, "suits_italian": {...}, "words": {...}},
       "games": {GAME: {"title": ..., "description": ...,
                        "options": {KEY: {"label", "help", "choices"?: {VALUE: label}}},
                        "results": {KEY: {"label", "help", "values"?: {VALUE: label}}},
                        "phases":  {PHASE: {"label", "help"}},   # help = a prompt line
                        "actions": {KEY: {"label", "help"}},     # KEY = action_key(...)
                        "terms":   {KEY: {"label", "help"}}}}}

  Values are plain text (no markup); a card code in a Persian value, if any, is wrapped in
  the Unicode isolates U+2066 … U+2069 (:func:`ltr`).

* ``messages.<lang>.json`` — every text of the two tables, the same keys in every language:
  the web client's language modules (``web/js/lang/<code>.js``) import it and the terminal
  reads it (:func:`messages`, :mod:`folkcards.tui.i18n`). Sections: ``ui``, ``prompts``,
  ``verbs``, ``words``, ``explain`` (a template per explanation code), ``narrate`` (the
  events in words), ``hint_panel``, ``result`` … shared by both tables, and ``terminal``
  (what only the terminal says). Templates name their parameters ``{name}``.
* ``index.json`` — the pages' structure as data (:func:`build_index`), for clients that
  read the files rather than call this module: ``python -m folkcards.guide`` prints it.

The API: :func:`rules_page`, :func:`sections`, :func:`section`, :func:`section_for_phase`,
:func:`section_for_rule`, :func:`section_for_text`, :func:`labels`, :func:`label`,
:func:`explain`, :func:`action_key`, :func:`page_title`, :func:`messages`, :data:`LANGS`, :data:`GAMES`.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = [
    "CARD_CODE",
    "GAMES",
    "LANGS",
    "RULE_PREFIX",
    "Section",
    "action_key",
    "build_index",
    "explain",
    "index",
    "label",
    "labels",
    "ltr",
    "messages",
    "page_title",
    "rules_page",
    "section",
    "section_for_phase",
    "section_for_rule",
    "section_for_text",
    "sections",
    "value_key",
]

LANGS: tuple[str, ...] = ("en", "fa")
"""The languages of the guide; the first is the fallback."""

GAMES: tuple[str, ...] = ("sasku", "scopone", "sheepshead", "satat", "huutopussi")
"""The games the guide has pages for."""

RULE_PREFIX: dict[str, str] = {
    "sasku": "SAS",
    "scopone": "SCO",
    "sheepshead": "SHP",
    "satat": "SAT",
    "huutopussi": "HUU",
}
"""The rule-ID prefix of each game's rules file."""

CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AKQJT])(?:[♠♥♦♣]|[CSHD](?![A-Za-z0-9]))")
"""A card code in guide text: a display code such as ``K♠`` or ``10♥``, or a machine code
such as ``KS`` or ``TH``."""

_HEADING = re.compile(r"^## (?P<title>.+?) \{#(?P<id>[a-z0-9][a-z0-9-]*)\}\s*$")
_ANCHORS = re.compile(r"^<!--\s*rules:(?P<rules>[^;]*?)(?:;\s*phases:(?P<phases>.*?))?\s*-->\s*$")
_RULE_ID = re.compile(r"^(?P<prefix>[A-Z]{3})-(?P<number>\d+(?:\.\d+)*)[a-z]?$")
_RULE_IN_TEXT = re.compile(r"\b([A-Z]{3}-\d+(?:\.\d+)*)")
_COMMON_KINDS = ("values", "suits", "suits_italian", "words")


@dataclass(frozen=True)
class Section:
    """One section of a rules page."""

    id: str
    """Stable id, the same in every language (``bidding``)."""
    title: str
    """The heading text in the page's language."""
    rules: tuple[str, ...]
    """The rule IDs it summarizes, as listed (``SAS-8`` stands for the whole group)."""
    phases: tuple[str, ...]
    """The engine phases it explains (``auction``)."""
    markdown: str
    """The section's body (markdown, without its heading and anchor comment)."""


# --- loading --------------------------------------------------------------------------------


def _lang(lang: str) -> str:
    """``lang`` as one of :data:`LANGS`: ``fa-IR`` → ``fa``; an unknown language → ``en``."""
    base = re.split(r"[-_]", lang.strip().lower(), maxsplit=1)[0] if lang else ""
    return base if base in LANGS else LANGS[0]


def _game(game: str) -> str:
    if game not in GAMES:
        raise KeyError(f"the guide has no game {game!r} (valid: {', '.join(GAMES)})")
    return game


def _read(name: str) -> str:
    return files(__name__).joinpath(name).read_text(encoding="utf-8")


@cache
def _page(game: str, lang: str) -> str:
    return _read(f"{game}.{lang}.md")


@cache
def _parsed(game: str, lang: str) -> tuple[Section, ...]:
    lines = _page(game, lang).splitlines()
    found: list[tuple[str, str, tuple[str, ...], tuple[str, ...], list[str]]] = []
    i = 0
    while i < len(lines):
        m = _HEADING.match(lines[i])
        if m is None:
            if found:
                found[-1][4].append(lines[i])
            i += 1
            continue
        rules: tuple[str, ...] = ()
        phases: tuple[str, ...] = ()
        if i + 1 < len(lines) and (a := _ANCHORS.match(lines[i + 1])) is not None:
            rules = tuple(a["rules"].split())
            phases = tuple((a["phases"] or "").split())
            i += 1
        found.append((m["id"], m["title"], rules, phases, []))
        i += 1
    return tuple(
        Section(sid, title, rules, phases, "\n".join(body).strip() + "\n")
        for sid, title, rules, phases, body in found
    )


@cache
def _messages(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_read(f"messages.{lang}.json"))
    return data


@cache
def _labels(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_read(f"labels.{lang}.json"))
    return data


# --- pages and sections ---------------------------------------------------------------------


def rules_page(game: str, lang: str, *, anchors: bool = True) -> str:
    """The rules page of ``game`` in ``lang`` (markdown). With ``anchors=False`` the section
    ids (``{#bidding}``) and the rule/phase comments are left out, for renderers that do not
    understand them."""
    text = _page(_game(game), _lang(lang))
    if anchors:
        return text
    out = []
    for line in text.splitlines():
        if _ANCHORS.match(line):
            continue
        m = _HEADING.match(line)
        out.append(f"## {m['title']}" if m else line)
    return "\n".join(out) + "\n"


def sections(game: str, lang: str) -> list[Section]:
    """The sections of the rules page, in order."""
    return list(_parsed(_game(game), _lang(lang)))


def section(game: str, lang: str, section_id: str) -> Section:
    """The section ``section_id`` of the rules page (KeyError if there is none)."""
    for s in _parsed(_game(game), _lang(lang)):
        if s.id == section_id:
            return s
    raise KeyError(f"the {game} rules page has no section {section_id!r}")


def page_title(game: str, lang: str) -> str:
    """The page title (its ``#`` heading)."""
    for line in _page(_game(game), _lang(lang)).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return game


@cache
def _phase_index(game: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in _parsed(game, LANGS[0]):
        for p in s.phases:
            out.setdefault(p, s.id)
    return out


@cache
def _rule_index(game: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in _parsed(game, LANGS[0]):
        for r in s.rules:
            out.setdefault(r, s.id)
    return out


def section_for_phase(game: str, phase: str) -> str:
    """The id of the section that explains the engine phase ``phase`` of ``game``
    (``over`` → the scoring section). KeyError for a phase the page does not name."""
    index = _phase_index(_game(game))
    try:
        return index[phase]
    except KeyError:
        raise KeyError(f"no section of the {game} rules page explains phase {phase!r}") from None


def section_for_rule(game: str, rule_id: str) -> str:
    """The id of the section that summarizes the rule ``rule_id`` (``SAS-10.3``, ``SAS-10``,
    ``sas-10.3``; a trailing letter such as ``SAT-8.3a`` is ignored). An exact ID listed by a
    section wins, then the nearest enclosing group (``SAS-10.3`` → ``SAS-10``); for a group
    that no section lists, the first section listing one of its rules. KeyError if the ID is
    not one of ``game``'s or no section covers it."""
    game = _game(game)
    m = _RULE_ID.match(_normal_rule(rule_id))
    if m is None or m["prefix"] != RULE_PREFIX[game]:
        raise KeyError(f"{rule_id!r} is not a rule ID of {game} ({RULE_PREFIX[game]}-n.m)")
    index = _rule_index(game)
    parts = m["number"].split(".")
    for n in range(len(parts), 0, -1):
        key = f"{m['prefix']}-{'.'.join(parts[:n])}"
        if key in index:
            return index[key]
    whole = f"{m['prefix']}-{m['number']}."
    for key, sid in index.items():
        if key.startswith(whole):
            return sid
    raise KeyError(f"no section of the {game} rules page covers {rule_id!r}")


def _normal_rule(rule_id: str) -> str:
    """``sas-10.3a`` → ``SAS-10.3``."""
    head, sep, tail = rule_id.strip().partition("-")
    return head.upper() + sep + tail.rstrip("abcdefghijklmnopqrstuvwxyz") if sep else rule_id


def section_for_text(game: str, text: str) -> str | None:
    """The section of the first rule ID of ``game`` that ``text`` cites (an illegal-move
    explanation such as ``"... must follow the led class (SAS-10.3, SAS-10.5)"``), or None."""
    prefix = RULE_PREFIX[_game(game)]
    for rule in _RULE_IN_TEXT.findall(text):
        if rule.startswith(prefix + "-"):
            try:
                return section_for_rule(game, rule)
            except KeyError:
                continue
    return None


def build_index() -> dict[str, Any]:
    """The pages' structure as data, for clients that read the files (``index.json``):
    per game its rule prefix, its sections (id, title per language, rules, phases), and the
    maps phase → section id and listed rule ID → section id. To find the section of a rule
    ID, look it up, then its enclosing groups (``SAS-10.3`` → ``SAS-10``), as
    :func:`section_for_rule` does."""
    games: dict[str, Any] = {}
    for game in GAMES:
        secs = [
            {
                "id": s.id,
                "titles": {lang: section(game, lang, s.id).title for lang in LANGS},
                "rules": list(s.rules),
                "phases": list(s.phases),
            }
            for s in _parsed(game, LANGS[0])
        ]
        games[game] = {
            "prefix": RULE_PREFIX[game],
            "titles": {lang: page_title(game, lang) for lang in LANGS},
            "sections": secs,
            "phases": dict(_phase_index(game)),
            "rules": dict(_rule_index(game)),
        }
    return {"langs": list(LANGS), "games": games}


def index() -> dict[str, Any]:
    """The stored ``index.json`` (equal to :func:`build_index`; a test keeps them so)."""
    data: dict[str, Any] = json.loads(_read("index.json"))
    return data


# --- labels ---------------------------------------------------------------------------------


def messages(lang: str) -> dict[str, Any]:
    """The texts of both tables in ``lang`` (a copy of ``messages.<lang>.json``; an unknown
    language: English)."""
    return copy.deepcopy(_messages(_lang(lang)))


def labels(lang: str) -> dict[str, Any]:
    """All labels of ``lang`` (a copy of ``labels.<lang>.json``)."""
    return copy.deepcopy(_labels(_lang(lang)))


def value_key(value: object) -> str:
    """How a value is written as a key of ``choices``/``values``: ``true``, ``false``,
    ``null``, numbers and strings as text."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def _entry(data: dict[str, Any], game: str | None, kind: str, key: str) -> Any:
    if game is None or kind in _COMMON_KINDS:
        return data.get("common", {}).get(kind, {}).get(key)
    g = data.get("games", {}).get(game, {})
    if kind == "game":
        return g.get(key)
    return g.get(kind, {}).get(key)


def _lookup(
    data: dict[str, Any], game: str | None, kind: str, key: str, value: object, field: str
) -> str | None:
    entry = _entry(data, game, kind, key)
    if isinstance(entry, str):
        return entry if value is None and field == "label" else None
    if not isinstance(entry, dict):
        return None
    if value is None:
        text = entry.get(field)
        return text if isinstance(text, str) else None
    vk = value_key(value)
    for group in ("choices", "values"):
        table = entry.get(group)
        if isinstance(table, dict) and isinstance(table.get(vk), str):
            return str(table[vk])
    common = data.get("common", {}).get("values", {})
    text = common.get(vk)
    return text if isinstance(text, str) else None


def label(lang: str, game: str | None, kind: str, key: str, value: object = None) -> str:
    """A human label, in ``lang`` with an English fallback (and, last, the key or value
    itself, so a client never fails on a new key).

    ``kind``: ``game`` (key ``title`` or ``description``), ``options``, ``results``,
    ``phases``, ``actions``, ``terms``; with ``game=None`` (or these kinds) the common ones:
    ``values``, ``suits``, ``suits_italian``, ``words``. With ``value``, the label of that
    value of the key: an option's choice (``label("fa", "sheepshead", "options", "no_pick",
    "leaster")``) or a result value (``label("en", "satat", "results", "outcome", "7-0")``);
    booleans and null fall back to the common values."""
    for lg in dict.fromkeys((_lang(lang), LANGS[0])):
        text = _lookup(_labels(lg), game, kind, key, value, "label")
        if text is not None:
            return text
    return key if value is None else value_key(value)


def explain(lang: str, game: str | None, kind: str, key: str) -> str:
    """The one-line explanation of a key (an option's help, a result key's meaning, a phase's
    prompt, an action's or term's explanation), in ``lang`` with an English fallback; ``""``
    when there is none."""
    for lg in dict.fromkeys((_lang(lang), LANGS[0])):
        text = _lookup(_labels(lg), game, kind, key, None, "help")
        if text is not None:
            return text
    return ""


def action_key(game: str, action: str) -> str:
    """The ``actions`` key that labels an action text: its lower-case words without the
    arguments (``"deal to AC"`` → ``deal to``, ``"ask half C"`` → ``ask half``, ``"play KC
    take 5S 5H"`` → ``play take``, ``"play AS pile"`` → ``play pile``), shortened word by
    word until a key of ``game`` matches (the bare verb otherwise)."""
    words = [t for t in str(action).split() if re.fullmatch(r"[a-z]+", t)]
    known = _labels(LANGS[0]).get("games", {}).get(_game(game), {}).get("actions", {})
    for n in range(len(words), 0, -1):
        key = " ".join(words[:n])
        if key in known:
            return key
    return words[0] if words else str(action).strip()


def ltr(text: str) -> str:
    """``text`` wrapped in the Unicode isolates LRI … PDI, to keep a card code left-to-right
    inside right-to-left plain text."""
    return f"\u2066{text}\u2069"
