"""The labels (``labels.<lang>.json``): the same keys in every language, Persian texts that
are translations, and a label for everything the games have."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from folkcards.games import GAMES
from folkcards.guide import (
    CARD_CODE,
    LANGS,
    action_key,
    explain,
    label,
    labels,
    ltr,
    page_title,
    value_key,
)

GAME_NAMES = sorted(GAMES)
SAME_IN_EVERY_LANGUAGE = {"common.values.null"}
"""Key paths whose value may be the same in Persian as in English: symbols and proper names
(the dash shown for "none")."""
ISOLATED = re.compile("\u2066[^\u2066\u2069]*\u2069")


def flatten(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(v, f"{path}.{k}" if path else k)
    else:
        yield path, value


def test_label_files_have_exactly_the_same_keys() -> None:
    flat = {lang: dict(flatten(labels(lang))) for lang in LANGS}
    en = set(flat["en"])
    for lang, values in flat.items():
        assert set(values) == en, (
            f"labels.{lang}.json: missing {sorted(en - set(values))}, extra "
            f"{sorted(set(values) - en)}"
        )


def test_persian_values_are_translations() -> None:
    en = dict(flatten(labels("en")))
    fa = dict(flatten(labels("fa")))
    for path, text in fa.items():
        assert isinstance(text, str) and text.strip(), f"labels.fa.json {path} is empty"
        if path not in SAME_IN_EVERY_LANGUAGE:
            assert text != en[path], f"labels.fa.json {path} is not translated: {text!r}"
        if path.endswith(".help") or path.endswith(".description"):
            assert re.search("[\u0600-\u06ff]", text), f"labels.fa.json {path}: not Persian"


def test_card_codes_in_persian_labels_are_isolated_left_to_right() -> None:
    for path, text in flatten(labels("fa")):
        outside = ISOLATED.sub(" ", text)
        assert CARD_CODE.findall(outside) == [], f"labels.fa.json {path}: wrap card codes in ltr()"
        assert "`" not in text, f"labels.fa.json {path}: labels are plain text, not markdown"
    assert ltr("K♠") == "\u2066K♠\u2069"
    assert CARD_CODE.findall(f"شاه {ltr('K♠')} و `10♥`") == ["K♠", "10♥"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_has_a_title_and_description(game: str) -> None:
    for lang in LANGS:
        g = labels(lang)["games"][game]
        assert g["title"] == page_title(game, lang)
        assert len(g["description"]) > 80
        assert label(lang, game, "game", "title") == g["title"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_variant_option_and_choice_has_a_label(game: str) -> None:
    options = GAMES[game].variant_options
    for lang in LANGS:
        labelled = labels(lang)["games"][game]["options"]
        assert set(labelled) == {o.key for o in options}, f"labels.{lang}.json {game} options"
        for o in options:
            entry = labelled[o.key]
            assert entry["label"] and entry["help"]
            values: tuple[Any, ...] = ()
            if o.choices is not None:
                values = tuple(o.choices)
            elif type(o.default) is bool:
                values = (False, True)
            if values:
                choices = entry.get("choices", {})
                assert set(choices) == {value_key(v) for v in values}, (
                    f"labels.{lang}.json {game}.{o.key}: choices {sorted(choices)}"
                )
                for v in values:
                    assert label(lang, game, "options", o.key, v) == choices[value_key(v)]
            else:
                assert "choices" not in entry, f"{game}.{o.key} has no fixed choices"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_result_key_has_a_label(game: str, observed: dict) -> None:
    seen = observed[game]
    for lang in LANGS:
        results = labels(lang)["games"][game]["results"]
        assert set(results) == seen.result_keys, (
            f"labels.{lang}.json {game} results: missing "
            f"{sorted(seen.result_keys - set(results))}, never seen "
            f"{sorted(set(results) - seen.result_keys)}"
        )
        common = labels(lang)["common"]["values"]
        for key, entry in results.items():
            assert entry["label"] and entry["help"]
            table = entry.get("values")
            if table is None:
                continue
            for v in seen.result_values.get(key, ()):
                assert v in table or v in common, f"{game} result {key}={v} has no label"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_phase_has_a_label_and_a_prompt(game: str, observed: dict) -> None:
    for lang in LANGS:
        phases = labels(lang)["games"][game]["phases"]
        assert set(phases) == observed[game].phases, f"labels.{lang}.json {game} phases"
        for phase, entry in phases.items():
            assert entry["label"] and entry["help"]
            assert explain(lang, game, "phases", phase) == entry["help"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_action_word_has_a_label(game: str, observed: dict) -> None:
    seen = observed[game]
    for text, key in seen.action_keys.items():
        words = " ".join(t for t in text.split() if t.isascii() and t.isalpha() and t.islower())
        assert key == words, f"{game}: action {text!r} has no label of its own ({key!r})"
    for lang in LANGS:
        actions = labels(lang)["games"][game]["actions"]
        assert set(actions) == seen.actions, (
            f"labels.{lang}.json {game} actions: missing {sorted(seen.actions - set(actions))},"
            f" never seen {sorted(set(actions) - seen.actions)}"
        )
        for entry in actions.values():
            assert entry["label"] and entry["help"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_explains_its_own_words(game: str) -> None:
    for lang in LANGS:
        terms = labels(lang)["games"][game]["terms"]
        assert len(terms) >= 5
        for entry in terms.values():
            assert entry["label"] and entry["help"]


def test_label_lookup_falls_back_to_english_then_to_the_key() -> None:
    assert label("fa", "sheepshead", "options", "no_pick", "leaster") != label(
        "en", "sheepshead", "options", "no_pick", "leaster"
    )
    assert label("fa-IR", "sasku", "phases", "auction") == label("fa", "sasku", "phases", "auction")
    assert label("de", "sasku", "phases", "auction") == label("en", "sasku", "phases", "auction")
    assert (
        label("fa", "sasku", "results", "passed", True) == labels("fa")["common"]["values"]["true"]
    )
    assert label("en", "satat", "results", "outcome", "7-0") == "won 7–0"
    assert label("en", "huutopussi", "options", "players", 3) == "three (declarer alone)"
    assert label("en", None, "suits", "H") == "hearts"
    assert (
        label("fa", "scopone", "suits_italian", "D") == labels("fa")["common"]["suits_italian"]["D"]
    )
    assert label("fa", "sasku", "options", "a_new_option") == "a_new_option"
    assert label("fa", "sasku", "options", "target", 12) == "12"
    assert explain("fa", "sasku", "options", "a_new_option") == ""
    assert explain("xx", "sasku", "options", "target") == explain(
        "en", "sasku", "options", "target"
    )
    data = labels("en")
    data["games"].clear()  # a copy: the guide's own data is untouched
    assert labels("en")["games"]


def test_action_keys() -> None:
    assert action_key("sasku", "deal to AC") == "deal to"
    assert action_key("sasku", "deal threes") == "deal threes"
    assert action_key("scopone", "play KC take 5S 5H") == "play take"
    assert action_key("scopone", "play 7D") == "play"
    assert action_key("satat", "play AS pile") == "play pile"
    assert action_key("huutopussi", "ask half C") == "ask half"
    assert action_key("huutopussi", "answer H") == "answer"
    assert action_key("huutopussi", "answer no") == "answer no"
    assert action_key("sheepshead", "play qc") == "play"  # input spelling: falls back
