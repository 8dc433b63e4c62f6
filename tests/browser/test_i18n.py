"""The languages of the web client: Persian has every English text, translated (a text
equal to the English one is a bug unless it is a proper name listed here, or a pattern of
placeholders and punctuation), and the suit colours of both packs read against the card at
WCAG AA contrast. Runs with node (no browser): the language files are ES modules, which
import the catalogs ``folkcards/guide/messages.<lang>.json`` that the terminal table reads
too (its own texts under ``terminal.*`` are checked here with the rest)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "folkcards" / "web"

SAME_IN_FA = {
    "dir",  # the direction code, not a text
    "ui.card_name",  # a pattern of placeholders (its order differs: "{rank} {suit}")
    "ui.deal_n_score",
    "values.null",
    "ui.stop",  # the full stop
    "choices.card_points.10-10-5-5-5",  # digits (shown in Persian digits by num())
    "choices.card_points.11-10-4-3-2",
}
"""Keys whose Persian text may equal the English one."""


LATIN_ALLOWED = re.compile(r"\{\w+\}|QR|Home|End|Enter|\.json|\u2066[^\u2069]*\u2069")
"""What a Persian text may hold in Latin letters: placeholders, key names, and runs kept
left to right in the isolates LRI … PDI (what a person types: ``play TH``, ``help``; rule
IDs)."""


def only_placeholders(text: str) -> bool:
    """True for a text of placeholders and punctuation alone ("{name}: {who}")."""
    return not re.search(r"[^\W\d_]", re.sub(r"\{\w+\}", "", text))


def flat(d: object, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(flat(v, f"{prefix}{k}."))
    else:
        out[prefix[:-1]] = str(d)
    return out


def load(code: str) -> dict[str, str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    src = f"import('{(WEB / 'js' / 'lang' / f'{code}.js').as_uri()}')"
    out = subprocess.run(
        [node, "-e", f"{src}.then((m) => console.log(JSON.stringify(m.default)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return flat(json.loads(out.stdout))


def test_persian_has_every_english_text_translated() -> None:
    en, fa = load("en"), load("fa")
    missing = sorted(k for k in en if k not in fa)
    assert missing == [], f"keys of en.js missing in fa.js: {missing}"
    extra = sorted(k for k in fa if k not in en)
    assert extra == [], f"keys of fa.js that en.js does not have: {extra}"
    same = sorted(
        k
        for k in en
        if fa[k] == en[k] and k not in SAME_IN_FA and en[k].strip() and not only_placeholders(en[k])
    )
    assert same == [], f"untranslated (identical to English) in fa.js: {same}"
    latin = sorted(
        k
        for k, v in fa.items()
        if k not in SAME_IN_FA and re.search(r"[A-Za-z]{3,}", LATIN_ALLOWED.sub("", v))
    )
    assert latin == [], f"Latin words left in Persian texts: {latin}"


def test_persian_terms_deal_trick_bidding() -> None:
    fa = load("fa")
    # a deal and a trick are different words; bidding is «خواندن», never «مناقصه»
    assert fa["ui.deal_n"].split()[0] != fa["ui.trick"]
    assert fa["ui.deal_over"].split()[-1] != fa["ui.trick"]
    assert "خواندن" in fa["phases.auction"] and "خواندن" in fa["phases.bidding"]
    assert not [k for k, v in fa.items() if "مناقصه" in v]
    assert fa["ui.card_name"].format(rank=fa["ranks.K"], suit=fa["suits.S"]) == "شاه پیک"


def luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    rgb = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted([luminance(a), luminance(b)], reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_suit_colours_contrast_with_the_card() -> None:
    js = (WEB / "js" / "cards.js").read_text()
    colours = re.findall(r'\b([CSHD]): \{ color: "(#[0-9a-fA-F]{6})"', js)
    four = re.search(r"FOUR_COLOUR = \{([^}]*)\}", js)
    assert len(colours) == 8 and four, "cards.js no longer has the colour tables this reads"
    colours += re.findall(r'([CSHD]): "(#[0-9a-fA-F]{6})"', four.group(1))
    for suit, colour in colours:
        for ground in ("#ffffff", "#fffaf0"):  # the French and the Italian card
            assert contrast(colour, ground) >= 4.5, f"{suit} {colour} on {ground}"
