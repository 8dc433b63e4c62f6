"""The ``replay`` contract's error objects for records no game can read (conventions.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from folkcards.engine.records import replay, replay_text


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('"sasku"', "JSON object"),
        ('{"actions": []}', "no 'game'"),
        ('{"game": "bridge", "actions": []}', "unknown game"),
        ('{"game": 7, "actions": []}', "unknown game"),
        ('{"game": "SASKU", "actions": []}', "unknown game"),
    ],
)
def test_unreadable_records_give_the_clean_error_object(text: str, fragment: str) -> None:
    out = replay_text(text)
    assert out["ok"] is False and out["index"] is None and out["action"] is None
    assert fragment in out["error"]


def test_a_match_record_error_names_the_deal() -> None:
    out = replay({"game": "bridge", "deals": []})
    assert out["ok"] is False and "deal" in out and out["deal"] is None


def run_cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "folkcards.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_replay_missing_file_prints_the_error_object_and_exits_1(tmp_path: Path) -> None:
    proc = run_cli(["replay", str(tmp_path / "nope.json")])
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["index"] is None and "cannot read" in out["error"]
    assert "Traceback" not in proc.stderr


def test_cli_replay_reads_standard_input() -> None:
    proc = run_cli(["replay", "-"], stdin="garbage")
    assert proc.returncode == 1 and json.loads(proc.stdout)["error"].startswith("not JSON")


def test_apply_never_records_a_bare_code_and_rejects_other_types() -> None:
    import random

    from folkcards.engine.actions import Action
    from folkcards.engine.api import IllegalAction
    from folkcards.games import GAMES

    for game in GAMES.values():
        deal = game.random_deal(random.Random(2))
        first = deal.legal_actions()[0]
        for bad in (True, 3.0, None, [first.text]):
            with pytest.raises(IllegalAction):
                deal.apply(bad)  # type: ignore[arg-type]
        try:
            deal.apply(int(first))  # a game may take a bare code, or refuse it cleanly
        except IllegalAction:
            assert deal.history == []
            continue
        assert isinstance(deal.history[-1], Action) and deal.history[-1].text == first.text
        assert deal.record()["actions"] == [first.text]
