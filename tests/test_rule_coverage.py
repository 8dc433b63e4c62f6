"""Every rule ID of every rules file is cited by at least one test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def rule_ids(text: str, prefix: str) -> list[str]:
    """The IDs a rules file defines: those that open a line (a table row, a heading, a bold
    lead-in or a plain paragraph); IDs inside a sentence are references, not definitions."""
    pattern = rf"^(?:\|\s*|\*\*|#+\s*)?({prefix}-\d+\.\d+[a-z]?)(?![\d.]\d)"
    return sorted(set(re.findall(pattern, text, flags=re.M)))


FILES = {"sasku": "SAS", "scopone": "SCO", "sheepshead": "SHP", "satat": "SAT", "huutopussi": "HUU"}


@pytest.mark.parametrize("game", list(FILES))
def test_every_rule_id_is_cited_by_a_test(game: str, rules_path: Path) -> None:
    ids = rule_ids((rules_path / f"{game}.md").read_text(encoding="utf-8"), FILES[game])
    assert len(ids) > 20
    corpus = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("*.py"))
    missing = [i for i in ids if not re.search(re.escape(i) + r"(?![\d.]\d)", corpus)]
    assert missing == [], f"rule IDs of {game}.md that no test cites: {missing}"
