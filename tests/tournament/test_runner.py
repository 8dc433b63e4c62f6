"""Runners (one process, many processes, Ray), the summary, and the command line."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
import toygame

from folkcards.cli import main
from folkcards.engine.records import load_deal
from folkcards.games import GAMES
from folkcards.tournament import TournamentConfig, run_tournament
from folkcards.tournament.stats import FEW_BOARDS, bootstrap_ci

TOY = TournamentConfig(toygame.GAME, ("heuristic", "random", "pimc:iters=8"), 5, 42)


def without_timings(summary: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(summary))
    for m in out["matchups"]:
        del m["ms_per_decision"]
    return out


def test_same_seed_same_results_on_one_and_many_processes() -> None:
    one, r1 = run_tournament(TOY, workers=1)
    many, r2 = run_tournament(TOY, workers=2)
    assert one["digest"] == many["digest"]
    assert without_timings(one) == without_timings(many)
    assert [(r["pair"], r["board"]) for r in r1] == [(r["pair"], r["board"]) for r in r2]
    other, _ = run_tournament(TournamentConfig(toygame.GAME, TOY.bots, 5, 43), workers=1)
    assert other["digest"] != one["digest"]


def test_summary_arithmetic() -> None:
    summary, results = run_tournament(TOY, workers=1)
    assert [(m["a"], m["b"]) for m in summary["matchups"]] == [
        ("heuristic", "random"),
        ("heuristic", "pimc:iters=8"),
        ("random", "pimc:iters=8"),
    ]
    m = summary["matchups"][0]
    boards = [r for r in results if r["pair"] == [0, 1]]
    assert m["boards"] == 5 and m["plays"] == 10 and len(boards) == 5

    def point(x: float) -> float:
        return 1.0 if x > 0 else 0.0 if x < 0 else 0.5

    per_board = [sum(point(p["margin"]) for p in r["plays"]) / 2 for r in boards]
    expected = bootstrap_ci(per_board)
    assert m["win_rate"]["method"] == "bootstrap" and m["too_few_boards"] == (FEW_BOARDS > 5)
    assert 0.0 <= m["win_rate"]["low"] <= m["win_rate"]["mean"] <= m["win_rate"]["high"] <= 1.0
    assert m["win_rate"]["mean"] == round(expected.mean, 4)
    assert (m["win_rate"]["low"], m["win_rate"]["high"]) == (
        round(expected.low, 4),
        round(expected.high, 4),
    )
    margins = [p["margin"] for r in boards for p in r["plays"]]
    assert m["wins_ties_losses"] == [
        sum(x > 0 for x in margins),
        sum(x == 0 for x in margins),
        sum(x < 0 for x in margins),
    ]
    # paired: heuristic and pimc both met random on the same five boards
    paired = {(p["a"], p["b"], p["against"]): p for p in summary["paired"]}
    vs_random = paired["heuristic", "pimc:iters=8", "random"]
    h = {r["board"]: per_board[i] for i, r in enumerate(boards)}
    pimc_boards = [r for r in results if r["pair"] == [1, 2]]  # random (A) vs pimc (B)
    p_share = {r["board"]: 1 - sum(point(p["margin"]) for p in r["plays"]) / 2 for r in pimc_boards}
    diffs = [h[k] - p_share[k] for k in sorted(h)]
    assert vs_random["boards"] == 5
    assert vs_random["difference"] == bootstrap_ci(diffs).to_dict()
    assert len(summary["paired"]) == 3  # one pair of bots per opponent
    # duplicate: in each board the two plays are the same deck with the seats swapped
    for r in boards:
        assert [p["arrangement"] for p in r["plays"]] == [[0, 1, 0, 1], [1, 0, 1, 0]]
    # decisions: every action of the records, counted for the side whose bot took it
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    for r in boards:
        for p in r["plays"]:
            actors = _actors(p["record"])
            assert p["decisions"] == [
                sum(p["arrangement"][s] == side for s in actors) for side in (0, 1)
            ]
            decisions = [decisions[i] + p["decisions"][i] for i in (0, 1)]
            seconds = [seconds[i] + p["seconds"][i] for i in (0, 1)]
    assert m["decisions"] == decisions and min(decisions) > 0
    assert m["ms_per_decision"] == [round(1000.0 * seconds[i] / decisions[i], 3) for i in (0, 1)]
    assert min(seconds) > 0  # every decision takes some time
    assert m["ms_per_decision"][0] > 0  # the heuristic's (a random pick may round to 0)
    # a search bot (8 sampled worlds per decision) thinks longer than a random pick
    random_vs_pimc = summary["matchups"][2]
    assert random_vs_pimc["ms_per_decision"][1] > random_vs_pimc["ms_per_decision"][0]


def _actors(record: dict[str, Any]) -> list[int]:
    """The seat of each action of a toy-game deal record."""
    game = toygame.GAME
    state = game.deal_from_record(record, game.normalize_variant(record.get("variant", {})))
    for action in record["actions"]:
        state.apply(action)
    assert state.is_over
    return state.actors


def _first_game() -> str:
    return "sasku"


def test_local_and_ray_give_identical_results() -> None:
    ray = pytest.importorskip("ray")
    config = TournamentConfig(_first_game(), ("heuristic", "random"), 3, 7)
    local, _ = run_tournament(config, workers=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote, _ = run_tournament(config, backend="ray")
    finally:
        ray.shutdown()
    assert remote["digest"] == local["digest"]
    assert without_timings(remote) == without_timings(local)


def test_cli_runs_writes_records_and_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _first_game()
    out = tmp_path / "t"
    code = main(
        ["tournament", game, "--bots", "heuristic,random", "--deals", "3", "--seed", "2",
         "--workers", "1", "--out", str(out), "--json", "--quiet"]
    )  # fmt: skip
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary == json.loads((out / "summary.json").read_text())
    lines = (out / "records.jsonl").read_text().splitlines()
    plays = summary["matchups"][0]["plays"]
    assert len(lines) == plays
    for line in lines:
        rec = json.loads(line)
        assert rec["meta"]["players"]
        assert load_deal(rec).is_over
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert rows[0]["a"] == "heuristic" and float(rows[0]["win_rate"]) == pytest.approx(
        summary["matchups"][0]["win_rate"]["mean"]
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuchgame", "--bots", "random,random"], "unknown game 'nosuchgame' (valid: "),
        (["GAME", "--bots", "random,oracle"], "unknown bot 'oracle' (valid: random, heuristic"),
        (["GAME", "--bots", "random"], "at least two bot specs"),
        (["GAME", "--bots", "random,random", "--variant", "nosuch=1"], "unknown variant key"),
        (["GAME", "--bots", "random,pimc:depth=2"], "valid options: iters"),
        (["GAME", "--bots", "random,random", "--deals", "0"], "at least 1"),
    ],
)
def test_cli_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [_first_game() if a == "GAME" else a for a in argv]
    assert main(["tournament", *argv, "--out", str(tmp_path / "x"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err
    if "unknown game" in message:
        for name in GAMES:
            assert name in err
    assert not (tmp_path / "x").exists()


def test_text_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _first_game()
    argv = ["tournament", game, "--bots", "heuristic,random", "--matches", "1", "--seed", "1",
            "--workers", "1", "--out", str(tmp_path / "m"), "--quiet", "--max-match-deals", "3"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert f"{game} · 1 duplicate boards of matches" in text
    assert "heuristic" in text and "records and summary in" in text
    assert "percentile" in text and "bootstrap over boards" in text
    assert "too few boards" in text  # one board: the interval is flagged


def test_text_table_fits_80_columns_and_names_the_interval() -> None:
    from folkcards.commands.tournament import format_table

    summary, _ = run_tournament(
        TournamentConfig(toygame.GAME, ("search:iters=4:keep=0.5", "random", "heuristic"), 3, 1),
        workers=1,
    )
    text = format_table(summary)
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "95% CI" in text and "bootstrap" in text
    assert "paired" in text and "against" in text
    for m in summary["matchups"]:
        assert 0.0 <= m["win_rate"]["low"] <= m["win_rate"]["high"] <= 1.0


def test_help_says_95_percent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = capsys.readouterr().out
    assert "95%" in text and "95%%" not in text


def test_many_boards_are_not_flagged() -> None:
    from folkcards.commands.tournament import format_table

    config = TournamentConfig(toygame.GAME, ("heuristic", "random"), FEW_BOARDS, 3, records=False)
    summary, _ = run_tournament(config, workers=1)
    assert summary["matchups"][0]["too_few_boards"] is False
    assert "too few boards" not in format_table(summary)
