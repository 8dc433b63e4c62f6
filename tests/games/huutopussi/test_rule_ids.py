"""Every rule ID of the Huutopussi rules file is cited by at least one test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path("/work/shared/rules/huutopussi.md")
HERE = Path(__file__).parent


def _ids_in_rules() -> set[str]:
    return set(re.findall(r"\| (HUU-\d+\.\d+) \|", RULES.read_text())) | set(
        re.findall(r"^(HUU-\d+\.\d+):", RULES.read_text(), re.M)
    )


def _cited() -> set[str]:
    cited: set[str] = set()
    for path in HERE.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text()
        cited |= set(re.findall(r"HUU-\d+\.\d+", text))
        # test names spell IDs as huu_9_2_9_4
        for m in re.finditer(r"huu((?:_\d+_\d+)+)", text):
            nums = m.group(1).strip("_").split("_")
            cited |= {f"HUU-{a}.{b}" for a, b in zip(nums[::2], nums[1::2], strict=False)}
    return cited


def test_every_rule_id_is_cited() -> None:
    if not RULES.exists():  # the rules folder lives outside the repository
        pytest.skip("the rules file is not available here")
    ids = _ids_in_rules()
    assert len(ids) == 90
    missing = sorted(ids - _cited(), key=lambda s: [int(x) for x in s[4:].split(".")])
    assert not missing, f"rule IDs without a test: {missing}"
