"""The Python examples of the README and of every page under ``docs/`` run as written
(each block in a fresh namespace), so no documented example can rot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
BLOCKS = [
    (page.relative_to(REPO).as_posix(), i, block)
    for page in PAGES
    for i, block in enumerate(
        re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
    )
]


def test_the_readme_has_an_example_and_the_docs_have_more() -> None:
    pages = {page for page, _, _ in BLOCKS}
    assert "README.md" in pages
    assert len(BLOCKS) >= 8 and len(pages) >= 4


@pytest.mark.parametrize(("page", "index", "block"), BLOCKS, ids=[f"{p}:{i}" for p, i, _ in BLOCKS])
def test_documented_example_runs(page: str, index: int, block: str) -> None:
    exec(compile(block, f"{page} python block {index}", "exec"), {})
