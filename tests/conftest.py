"""Shared test fixtures: where the normative rules live."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def rules_dir() -> Path:
    """``../shared/rules`` beside the repository (as laid out for developers and CI)."""
    for candidate in (REPO.parent / "shared" / "rules", Path("/work/shared/rules")):
        if candidate.is_dir():
            return candidate
    pytest.skip("the normative rules (../shared/rules) are not beside this checkout")


@pytest.fixture
def rules_path() -> Path:
    """The folder of the normative rules files."""
    return rules_dir()
