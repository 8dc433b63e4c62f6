"""Every rule ID of rules/sasku.md is cited by at least one Sasku test (issue point 7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent

# Section → number of rules in it (rules/sasku.md); SAS-n.1 … SAS-n.m.
SECTIONS = {
    1: 2,
    2: 4,
    3: 3,
    4: 1,
    5: 3,
    6: 7,
    7: 7,
    8: 8,
    9: 5,
    10: 5,
    11: 2,
    12: 1,
    13: 6,
    14: 2,
    15: 3,
    16: 5,
    17: 5,
    18: 2,
    19: 2,
    20: 3,
    21: 2,
    22: 7,
}
RULE_IDS = [f"SAS-{n}.{m}" for n, count in SECTIONS.items() for m in range(1, count + 1)]

RULES_FILE_CANDIDATES = [
    HERE.parents[2] / "rules" / "sasku.md",
    HERE.parents[3] / "shared" / "rules" / "sasku.md",
]


def test_rule_id_list_matches_the_rules_file() -> None:
    """The list above is the rules file's list (checked when the file is at hand)."""
    found = [p for p in RULES_FILE_CANDIDATES if p.exists()]
    if not found:
        pytest.skip("rules/sasku.md is not in this checkout")
    text = found[0].read_text(encoding="utf-8")
    in_file = sorted(
        set(re.findall(r"SAS-\d+\.\d+", text)), key=lambda s: tuple(map(int, s[4:].split(".")))
    )
    assert in_file == RULE_IDS


def test_every_rule_id_is_cited_by_a_test() -> None:
    """Each SAS-n.m appears in a test name, docstring or comment of tests/games/sasku."""
    cited: set[str] = set()
    for path in HERE.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        cited |= set(re.findall(r"SAS-\d+\.\d+", path.read_text(encoding="utf-8")))
        cited |= {
            "SAS-" + a + "." + b
            for a, b in re.findall(r"test_sas_(\d+)_(\d+)", path.read_text(encoding="utf-8"))
        }
    missing = [i for i in RULE_IDS if i not in cited]
    assert not missing, f"rules without a test: {missing}"
