"""``folkcards bench bots``: a web table of bots timed from a spectator's frames."""

from __future__ import annotations

import pytest

from folkcards.cli import main
from folkcards.server.bench import run_bot_table_bench


def test_a_table_of_heuristic_bots_is_timed_per_decision() -> None:
    res = run_bot_table_bench("sheepshead", "heuristic", 12, warmup=2)
    assert res["decisions"] == 12 and res["bots"] == "5 × heuristic"
    assert 0 <= res["ms_per_decision_p50"] <= res["ms_per_decision_p90"]
    assert res["ms_per_decision_p90"] <= res["ms_per_decision_max"]
    assert res["ms_per_decision_mean"] > 0 and res["worker_cpu_ms_per_decision"] > 0


def test_a_match_that_ends_early_is_followed_by_another_table() -> None:
    """A Scopone match to 11 (SCO-7.3) is over in a few deals of 36 cards: the bench
    watches another table of the same bots instead of waiting for frames that never
    come."""
    res = run_bot_table_bench("scopone", "heuristic", 600, warmup=2, timeout=120)
    assert res["decisions"] == 600 and res["tables"] >= 2


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["bench", "bots", "chess"], "unknown game 'chess'"),
        (["bench", "bots", "sasku", "--level", "oracle"], "'oracle' is no level of the web table"),
        (["bench", "bots", "sasku", "--decisions", "0"], "--decisions must be"),
    ],
)
def test_bad_arguments_are_named(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert says in capsys.readouterr().out
