"""Shared test fixtures: where the normative rules live."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run and every machine (the brief: tests
# are deterministic); no example database carries failures between runs; and no example
# fails for its time (hypothesis's default 200 ms deadline): speed is measured by the
# benchmarks, and a slow or loaded CI machine must not fail a correct engine.
settings.register_profile("folkcards", derandomize=True, database=None, deadline=None)
settings.load_profile("folkcards")

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
