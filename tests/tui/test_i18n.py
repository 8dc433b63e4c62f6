"""The terminal's language layer without a terminal: digits, what a Persian speaker types,
the catalogs' fallbacks, and right-to-left text in visual order (``--bidi visual``) checked
against the bidi algorithm of ``python-bidi`` itself."""

from __future__ import annotations

import io
import re

import pytest

from folkcards.tui import bidi, i18n


def test_numbers_in_persian_digits() -> None:
    with i18n.using("fa"):
        assert i18n.num(1234) == "۱۲۳۴"
        assert i18n.num("+12.5") == "+۱۲٫۵"
        assert i18n.signed(-3) == "−۳"
        assert i18n.t("terminal.table.trick", n=3) == "تریک ۳:"
    assert i18n.num(12) == "12" and i18n.lang() == "en"


def test_what_a_persian_speaker_types_is_read_as_the_english_action() -> None:
    with i18n.using("fa"):
        assert i18n.english_words("بازی KS") == "play KS"
        assert i18n.english_words("پاس") == "pass"
        assert i18n.english_words("دفن کن 9h") == "bury 9h"
        assert i18n.english_words("بخوان ۷۰") == "bid 70"
        assert i18n.english_words("  ۱۲ ") == "12"
        assert i18n.action_words("trump H") == "حکم دل ♥"
        assert i18n.action_words("play TH") == "بازی \u2066TH\u2069"
    assert i18n.english_words("play ks") == "play ks"


def test_the_catalogs_fall_back_to_english_then_to_the_key() -> None:
    with i18n.using("fa"):
        assert i18n.t("terminal.names.seat", n=2) == "جایگاه ۲"
        assert i18n.t("no.such.key") == "key"
        assert i18n.maybe("no.such.key") is None
        assert i18n.ltr("KS") == "\u2066KS\u2069"
        assert i18n.game_title("sasku", "Sasku") == "ساسکو"
        assert i18n.bot_level("heuristic") == "قاعده‌مند"
    assert i18n.ltr("KS") == "KS" and i18n.game_title("sasku", "Sasku") == "Sasku"
    assert i18n.set_lang("xx") == "en"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("environ", "tty", "expected"),
    [
        ({}, False, "logical"),  # a file or a pipe: the text as it is read
        ({}, True, "visual"),  # a terminal not known to do bidi (xterm)
        ({"VTE_VERSION": "7600"}, True, "logical"),  # GNOME Terminal
        ({"VTE_VERSION": "5200"}, True, "visual"),  # a VTE older than 0.58
        ({"KONSOLE_VERSION": "230800"}, True, "logical"),
        ({"VTE_VERSION": "7600", "TMUX": "/tmp/tmux-0/default,1,0"}, True, "visual"),
        ({"FOLKCARDS_BIDI": "logical", "TMUX": "x"}, True, "logical"),
        ({"FOLKCARDS_BIDI": "visual"}, False, "visual"),
    ],
)
def test_auto_chooses_the_order_from_the_terminal(
    environ: dict[str, str], tty: bool, expected: str
) -> None:
    stream = Tty() if tty else io.StringIO()
    assert bidi.choose("auto", stream, environ) == expected
    assert bidi.choose("logical", stream, {"TMUX": "x"}) == "logical"
    with pytest.raises(ValueError):
        bidi.choose("sideways", stream, {})


SAMPLES = [
    "شما (جایگاه ۰) · ساسکو · دست ۱",
    "مجاز نیست: بازی \u2066TH\u2069 — \u2066TH\u2069 در دست شما نیست (\u2066SAS-10.1\u2069)",
    "امتیاز کارت‌ها ما ۰ · آن‌ها ۲۳ (۶۱ می‌برد) · تریک‌ها ما ۰ · آن‌ها ۱",
    "دست شما: \u2066KS QD JH 9D  TC 9C\u2069  [۴ بازی‌شدنی]",
    "  تریک ۱: یار \u2066QC\u2069  جایگاه ۳ \u2066JC\u2069 ← جایگاه ۳ +۲۳ · تریک آخر",
    "Hint: play KS",
]


@pytest.mark.skipif(not bidi.available(), reason="python-bidi / arabic-reshaper not installed")
@pytest.mark.parametrize("text", SAMPLES)
def test_visual_order_is_the_bidi_algorithms(text: str) -> None:
    """Reordering with the levels, character by character (so every character keeps its
    colour), gives python-bidi's own display of the line — which leaves mirroring (rule L4)
    to the renderer: here brackets are mirrored too, as a terminal without bidi needs."""
    import bidi as engine

    brackets = str.maketrans(dict.fromkeys("()[]{}<>«»", "|"))
    ours = "".join(ch for ch, _ in bidi.visual([(ch, "") for ch in text]))
    theirs = str(engine.get_display(text, base_dir="R"))
    theirs = "".join(ch for ch in theirs if ch not in bidi.ZERO_WIDTH)
    assert ours.translate(brackets) == theirs.translate(brackets)
    if "(" in text and re.search("[\u0600-\u06ff]", text):
        assert ours != theirs, "a bracket in right-to-left text is mirrored"


@pytest.mark.skipif(not bidi.available(), reason="python-bidi / arabic-reshaper not installed")
def test_a_visual_line_keeps_colours_width_and_the_prompt() -> None:
    red = "\x1b[1;31m"
    line = f"│ دست شما: {red}\u2066KH\u2069\x1b[0m QS │"
    out = bidi.visual_line(line)
    assert out.count(red) == 1 and f"{red}KH\x1b[0m" in out  # the card whole, in its colour
    plain_out = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert i18n.width(plain_out) == i18n.width(re.sub(r"\x1b\[[0-9;]*m", "", line))
    assert re.search("[\ufb50-\ufeff]", plain_out), "letters joined"
    short = bidi.visual_line("  جایگاه ۱: بازی KS", width=30)
    assert i18n.width(short) == 30 and short.startswith(" ")  # ends at the right margin
    prompt = bidi.visual_line("شما (جایگاه ۰) > ", prompt=True)
    assert prompt.endswith(" > ") or prompt.endswith("> ")
    top = bidi.visual_line("╭─ شما ─╮")
    assert top.startswith("╭") and top.endswith("╮")  # the box mirrored with its text


@pytest.mark.skipif(not bidi.available(), reason="python-bidi / arabic-reshaper not installed")
def test_visual_file_writes_lines_and_the_prompt_on_flush() -> None:
    out = io.StringIO()
    f = bidi.VisualFile(out, width=lambda: 20)
    f.write("سلام\nشما > ")
    assert out.getvalue().count("\n") == 1
    f.flush()
    assert out.getvalue().endswith("> ")
    assert "سلام" not in out.getvalue()  # reordered and joined


@pytest.mark.skipif(not bidi.available(), reason="python-bidi / arabic-reshaper not installed")
def test_combining_marks_stay_on_their_letter_in_visual_order() -> None:
    """Rule L3: «نتیجهٔ» keeps its hamza after the heh it sits on (a terminal puts a mark on
    the character before it)."""
    out = bidi.visual_line("نتیجهٔ دست:")
    k = out.index("\u0654")
    assert out[k - 1] in ("\ufeea", "\ufeeb", "\ufeec", "\ufee9", "\u0647"), [
        hex(ord(c)) for c in out
    ]
