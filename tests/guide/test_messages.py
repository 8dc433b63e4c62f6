"""The tables' catalogs (``messages.<lang>.json``), read as the terminal reads them: the same
keys in every language, each Persian text a translation with the same placeholders, card
codes and typed words kept left to right, and every key the terminal asks for present.
(``tests/browser/test_i18n.py`` checks the same files through the web client's modules.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from folkcards.guide import CARD_CODE, LANGS, messages

SRC = Path(__file__).resolve().parents[2] / "src" / "folkcards"
ISOLATED = re.compile("\u2066[^\u2066\u2069]*\u2069")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SAME = {"dir"}
"""Keys whose value is a code, not a text."""


def flatten(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(v, f"{path}.{k}" if path else k)
    else:
        yield path, value


def only_placeholders(text: str) -> bool:
    return not re.search(r"[^\W\d_]", PLACEHOLDER.sub("", text))


def test_every_language_has_the_same_keys() -> None:
    flat = {lang: dict(flatten(messages(lang))) for lang in LANGS}
    en = set(flat["en"])
    for lang, values in flat.items():
        assert set(values) == en, (
            f"messages.{lang}.json: missing {sorted(en - set(values))}, "
            f"extra {sorted(set(values) - en)}"
        )


def test_persian_texts_are_translations_with_the_same_placeholders() -> None:
    en = dict(flatten(messages("en")))
    fa = dict(flatten(messages("fa")))
    same, lost = [], []
    for key, text in en.items():
        if key in SAME:
            continue
        if fa[key] == text and text.strip() and not only_placeholders(text):
            same.append(key)
        # the terminal's templates: every parameter said in both languages
        if key.startswith("terminal.") and set(PLACEHOLDER.findall(text)) != set(
            PLACEHOLDER.findall(fa[key])
        ):
            lost.append(key)
    assert same == [], f"untranslated in messages.fa.json: {same}"
    assert lost == [], f"placeholders differ between en and fa: {lost}"


def test_card_codes_in_persian_terminal_texts_stay_left_to_right() -> None:
    for key, text in flatten(messages("fa")["terminal"]):
        outside = ISOLATED.sub(" ", text)
        assert CARD_CODE.findall(outside) == [], f"terminal.{key}: isolate card codes"
        assert not re.search(r"\b[A-Z]{3}-\d", outside), f"terminal.{key}: isolate rule IDs"


def keys_asked_for() -> set[str]:
    """The catalog keys the terminal's code names literally (``"terminal.…"``, and the
    prefixes its modules add to short names)."""
    prefixes = {
        "narrate.py": {"N": "terminal.narrate.", "B": "terminal.breakdown."},
        "prompts.py": {"k": "terminal.task."},
    }
    found: set[str] = set()
    files = [*(SRC / "tui").glob("*.py"), *(SRC / "commands").glob("*.py")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        found |= {k for k in re.findall(r'"(terminal\.[a-z_.]+[a-z_])"', text)}
        for name, prefix in prefixes.get(path.name, {}).items():
            found |= {prefix + k for k in re.findall(rf'\b{name} \+ "(\w+)"', text)}
    return found


def test_every_key_the_terminal_asks_for_is_in_the_catalogs() -> None:
    en = dict(flatten(messages("en")))
    asked = keys_asked_for()
    assert len(asked) > 150
    missing = sorted(k for k in asked if k not in en)
    assert missing == [], f"the terminal names keys the catalogs lack: {missing}"
