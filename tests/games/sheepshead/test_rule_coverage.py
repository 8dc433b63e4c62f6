"""Every rule ID of rules/sheepshead.md is cited by at least one Sheepshead test."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
CANDIDATES = [
    HERE.parents[2] / "rules" / "sheepshead.md",
    HERE.parents[3] / "shared" / "rules" / "sheepshead.md",
    Path("/work/shared/rules/sheepshead.md"),
]

# The rule IDs of the rules file (SHP-n.m), listed so the check works without the file.
SECTIONS = {1: 5, 2: 3, 3: 3, 4: 3, 5: 2, 6: 6, 7: 9, 8: 6, 9: 5, 10: 2, 11: 4, 12: 3, 13: 2,
            14: 4}  # fmt: skip
RULE_IDS = [f"SHP-{n}.{m}" for n, k in SECTIONS.items() for m in range(1, k + 1)]


def cited() -> str:
    text = ""
    for p in HERE.glob("test_*.py"):
        if p.name != "test_rule_coverage.py":
            text += p.read_text()
    return text


def test_rule_ids_match_rules_file() -> None:
    for path in CANDIDATES:
        if path.exists():
            found = sorted(set(re.findall(r"\*\*(SHP-\d+\.\d+)", path.read_text())))
            assert sorted(RULE_IDS) == found
            return


def test_every_rule_id_is_cited() -> None:
    text = cited()
    norm = text.replace("_", "-").upper()
    missing = []
    for rid in RULE_IDS:
        n, m = rid[4:].split(".")
        if rid in text or f"SHP-{n}-{m}-" in norm or f"SHP-{n}-{m}(" in norm:
            continue
        missing.append(rid)
    assert not missing, f"rule IDs not cited by any test: {missing}"
