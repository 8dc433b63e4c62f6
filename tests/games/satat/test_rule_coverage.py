"""Every rule ID of ``satat.md`` is cited by at least one Satat test."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
RULES_CANDIDATES = [HERE.parents[2] / "rules" / "satat.md", Path("/work/shared/rules/satat.md")]

# Section → number of rules (satat.md); sections 10 and 14 are single tables.
SECTIONS = {1: 8, 2: 3, 3: 5, 4: 7, 5: 6, 6: 5, 7: 8, 8: 5, 9: 4, 11: 2, 12: 4, 13: 5}
SECTIONS |= {15: 7, 16: 8, 17: 3, 18: 7, 19: 3}
RULE_IDS = {f"SAT-{n}.{m}" for n, count in SECTIONS.items() for m in range(1, count + 1)}
RULE_IDS |= {"SAT-10", "SAT-14"}
PATTERN = re.compile(r"\bSAT-\d+(?:\.\d+)?\b")


def cited() -> set[str]:
    texts = [
        p.read_text(encoding="utf-8")
        for p in HERE.glob("test_*.py")
        if p.name != Path(__file__).name
    ]
    return set(PATTERN.findall("\n".join(texts)))


def test_every_rule_id_is_cited() -> None:
    """Each SAT-n.m of the rules file appears in some test's name, docstring or comment."""
    missing = sorted(RULE_IDS - cited())
    assert not missing, f"rule IDs not cited by any test: {missing}"


def test_the_id_list_matches_the_rules_file() -> None:
    """The list above is the rules file's (when the file is at hand)."""
    for path in RULES_CANDIDATES:
        if path.exists():
            ids = set(PATTERN.findall(path.read_text(encoding="utf-8")))
            numbered = {i for i in ids if "." in i}
            assert numbered == {i for i in RULE_IDS if "." in i}
            assert not ids - cited(), sorted(ids - cited())
            break
