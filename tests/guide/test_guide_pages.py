"""The rules pages for players (``folkcards.guide``): both languages, sections, anchors.

No rule ID is written in this file: the IDs come from the rules files, so these tests
never count as a test citing a rule (``tests/test_rule_coverage.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import folkcards.guide as guide
from folkcards.games import GAMES
from folkcards.guide import (
    CARD_CODE,
    LANGS,
    RULE_PREFIX,
    page_title,
    rules_page,
    section,
    section_for_phase,
    section_for_rule,
    section_for_text,
    sections,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "folkcards"
GAME_NAMES = sorted(GAMES)
REQUIRED_SECTIONS = ("aim", "players", "cards", "deal", "play", "scoring", "match", "variants")
"""Every page explains these (the brief's list: aim, players and teams, the pack, the deal,
card play, scoring with an example, the match, the variant options)."""
CODE_SPAN = re.compile(r"`[^`\n]*`")


def mentioned_rule_ids(text: str, prefix: str) -> set[str]:
    """Every rule ID of ``prefix`` that ``text`` mentions: definitions, group headings and
    references alike (``X-8``, ``X-8.4``)."""
    return set(re.findall(rf"\b{prefix}-\d+(?:\.\d+)*\b", text))


def test_the_guide_covers_every_registered_game() -> None:
    assert set(GAMES) <= set(guide.GAMES)
    assert LANGS[0] == "en" and "fa" in LANGS


@pytest.mark.parametrize("game", GAME_NAMES)
def test_both_pages_have_the_same_sections_in_the_same_order(game: str) -> None:
    pages = {lang: sections(game, lang) for lang in LANGS}
    en = pages["en"]
    ids = [s.id for s in en]
    assert ids, f"{game}: no sections"
    assert len(ids) == len(set(ids)), f"{game}: duplicate section ids {ids}"
    for lang, secs in pages.items():
        assert [s.id for s in secs] == ids, f"{game}.{lang}.md sections differ from English"
        for s, e in zip(secs, en, strict=True):
            assert s.rules == e.rules, f"{game}.{lang}.md #{s.id}: rule anchors differ"
            assert s.phases == e.phases, f"{game}.{lang}.md #{s.id}: phase anchors differ"
            assert s.title.strip(), f"{game}.{lang}.md #{s.id}: empty title"
            assert len(s.markdown.strip()) > 40, f"{game}.{lang}.md #{s.id}: empty section"
            assert "{#" not in s.markdown and "<!--" not in s.markdown
    for required in REQUIRED_SECTIONS:
        assert required in ids, f"{game}: no section #{required}"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_pages_are_titled_and_read_in_either_form(game: str) -> None:
    for lang in LANGS:
        page = rules_page(game, lang)
        assert page.startswith("# ")
        assert page_title(game, lang) == page.splitlines()[0][2:].strip()
        plain = rules_page(game, lang, anchors=False)
        assert "{#" not in plain and "<!--" not in plain
        for s in sections(game, lang):
            assert f"## {s.title}" in plain
            assert section(game, lang, s.id) == s
    assert rules_page(game, "fa-IR") == rules_page(game, "fa")
    assert rules_page(game, "de") == rules_page(game, "en")
    with pytest.raises(KeyError):
        section(game, "en", "no-such-section")


def test_unknown_games_are_refused() -> None:
    with pytest.raises(KeyError):
        rules_page("poker", "en")
    with pytest.raises(KeyError):
        section_for_phase("poker", "play")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_phase_of_the_game_maps_to_a_section(game: str, observed: dict) -> None:
    seen = observed[game].phases
    assert "play" in seen and "over" in seen
    ids = {s.id for s in sections(game, "en")}
    for phase in sorted(seen):
        assert section_for_phase(game, phase) in ids, f"{game}: phase {phase!r} has no section"
    named = {p for s in sections(game, "en") for p in s.phases}
    assert named <= seen, f"{game}: the page names phases the engine never has: {named - seen}"
    with pytest.raises(KeyError):
        section_for_phase(game, "no-such-phase")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_rule_id_of_the_rules_file_maps_to_a_section(game: str, rules_path: Path) -> None:
    prefix = RULE_PREFIX[game]
    ids = mentioned_rule_ids((rules_path / f"{game}.md").read_text(encoding="utf-8"), prefix)
    assert len(ids) > 20
    sids = {s.id for s in sections(game, "en")}
    missing = []
    for rule in sorted(ids):
        try:
            assert section_for_rule(game, rule) in sids
        except KeyError:
            missing.append(rule)
    assert missing == [], f"rule IDs of {game}.md that no section of the page covers: {missing}"
    listed = {r for s in sections(game, "en") for r in s.rules}
    unknown = sorted(listed - ids)
    assert unknown == [], f"{game} page anchors name rule IDs the rules file lacks: {unknown}"
    explicit = [r for s in sections(game, "en") for r in s.rules]
    assert len(explicit) == len(set(explicit)), f"{game}: a rule ID is anchored twice"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_rule_id_the_engine_cites_maps_to_a_section(game: str) -> None:
    prefix = RULE_PREFIX[game]
    paths = [SRC / "games" / f"{game}.py", *sorted((SRC / "games" / game).glob("*.py"))]
    text = "\n".join(p.read_text(encoding="utf-8") for p in paths if p.is_file())
    cited = mentioned_rule_ids(text, prefix)
    assert cited, f"{game}: no rule IDs found in the engine source"
    for rule in sorted(cited):
        section_for_rule(game, rule)  # KeyError names the rule


@pytest.mark.parametrize("game", GAME_NAMES)
def test_rule_lookup_accepts_any_spelling_and_refuses_others(game: str) -> None:
    prefix = RULE_PREFIX[game]
    s = next(s for s in sections(game, "en") if s.rules)
    rule = s.rules[0]
    group = rule.split(".")[0]
    number = group.split("-")[1]
    assert section_for_rule(game, rule) == s.id
    assert section_for_rule(game, rule.lower()) == s.id
    assert section_for_rule(game, f" {rule} ") == s.id
    sub = f"{group}.99"  # not a rule, but inside a group: the group's section
    assert section_for_rule(game, sub) == section_for_rule(game, group)
    assert section_for_rule(game, f"{group}.1a") == section_for_rule(game, f"{group}.1")
    other = next(p for p in RULE_PREFIX.values() if p != prefix)
    with pytest.raises(KeyError):
        section_for_rule(game, f"{other}-{number}.1")
    with pytest.raises(KeyError):
        section_for_rule(game, "not a rule")
    with pytest.raises(KeyError):
        section_for_rule(game, f"{prefix}-999.1")
    message = f"seat 2 may not do that ({rule}, {other}-1.1)"
    assert section_for_text(game, message) == s.id
    assert section_for_text(game, "no rule cited") is None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_card_codes_are_in_code_spans(game: str, lang: str) -> None:
    for s in sections(game, lang):
        outside = CODE_SPAN.sub(" ", s.markdown)
        bare = CARD_CODE.findall(outside)
        assert bare == [], f"{game}.{lang}.md #{s.id}: card codes outside `code`: {bare}"
        for span in CODE_SPAN.findall(s.markdown):
            assert "\n" not in span


@pytest.mark.parametrize("game", GAME_NAMES)
def test_persian_pages_are_persian(game: str) -> None:
    """Prose in Persian script, Persian digits in running text, Latin lists (``1.``) only as
    markdown list markers."""
    for s in sections(game, "fa"):
        prose = CODE_SPAN.sub(" ", s.markdown)
        letters = re.findall(r"[A-Za-z\u0600-\u06FF]", prose)
        persian = [c for c in letters if "\u0600" <= c <= "\u06ff"]
        assert len(persian) > 0.8 * len(letters), f"{game}.fa.md #{s.id} is not mostly Persian"
        body = re.sub(r"^\s*\d+\. ", "", prose, flags=re.M)
        assert not re.search(r"(?<![A-Za-z])[0-9]+(?![A-Za-z])", body), (
            f"{game}.fa.md #{s.id}: Latin digits in Persian text"
        )


def test_the_stored_index_matches_the_pages() -> None:
    """``index.json`` (for clients that read the files) is what the pages say; after editing
    a page, regenerate it: ``python -m folkcards.guide > src/folkcards/guide/index.json``."""
    assert guide.index() == guide.build_index()
    for game, data in guide.index()["games"].items():
        assert [s["id"] for s in data["sections"]] == [s.id for s in sections(game, "en")]
        for phase, sid in data["phases"].items():
            assert section_for_phase(game, phase) == sid
