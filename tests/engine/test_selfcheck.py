"""``folkcards selfcheck``: a clean run passes, and each kind of broken engine is caught,
written down and reproduced (docs/selfcheck.md)."""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from folkcards.cli import main
from folkcards.engine.api import DealState, MalformedRecord, Observation
from folkcards.engine.records import replay
from folkcards.engine.selfcheck import (
    Counters,
    check_one_deal,
    check_record,
    option_values,
    plan_variants,
    variant_for,
)
from folkcards.games import GAMES
from folkcards.games.sasku import SaskuDeal
from folkcards.games.scopone import ScoponeState

SASKU = GAMES["sasku"]
SCOPONE = GAMES["scopone"]


def selfcheck(*args: str) -> int:
    return main(["selfcheck", *args, "--quiet"])


# --- a clean run ----------------------------------------------------------------------------


def test_a_small_run_of_every_game_passes_with_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "failures"
    code = selfcheck(
        "--deals", "3", "--matches", "1", "--max-match-deals", "3", "--workers", "1",
        "--out", str(out_dir),
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    for name in GAMES:
        row = next(line for line in out.splitlines() if f" {name} " in line)
        cells = [c.strip() for c in row.strip("│┃ ").split("│")]
        assert cells[0] == name and cells[2] == "3" and cells[3] == "1"  # deals, matches
        assert int(cells[5]) > 0 and cells[7] == "0"  # actions checked, failures
    assert "deep checks" in out and "every 8th action" in out and "digest" in out
    assert not out_dir.exists()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_value_of_every_variant_option_is_planned(name: str) -> None:
    game = GAMES[name]
    targets, problems = plan_variants(game)
    assert problems == []
    planned = {(t.key, json.dumps(t.value)) for t in targets}
    for option in game.variant_options:
        for value in option_values(option):
            assert (option.key, json.dumps(value)) in planned
        if type(option.default) is bool:
            assert set(option_values(option)) == {False, True}
        if option.choices is not None:
            assert set(option_values(option)) == set(option.choices)
    rng = random.Random(5)
    for t in targets:
        for _ in range(5):
            raw = variant_for(game, t, rng)
            assert t.key is not None and game.normalize_variant(raw)[t.key] == t.value


def test_an_option_value_no_combination_accepts_is_a_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = GAMES["huutopussi"]
    original = game.normalize_variant

    def rejects_extra_deal(raw: object) -> dict[str, Any]:
        v = original(raw)
        if v["tie"] == "extra_deal":
            raise MalformedRecord("no extra deals today")
        return v

    monkeypatch.setattr(game, "normalize_variant", rejects_extra_deal)
    _, problems = plan_variants(game)
    assert len(problems) == 1 and 'tie="extra_deal"' in problems[0]
    out_dir = tmp_path / "f"
    code = selfcheck(
        "huutopussi", "--deals", "2", "--matches", "0", "--workers", "1", "--out", str(out_dir)
    )
    assert code == 1
    files = list(out_dir.glob("huutopussi-variants-*variant.coverage.json"))
    assert len(files) == 1
    info = json.loads(files[0].read_text())["meta"]["selfcheck"]
    assert "extra_deal" in info["message"]
    assert info["reproduce"] == ["folkcards selfcheck huutopussi --seed 0 --deals 1 --matches 0"]
    assert "variant.coverage" in capsys.readouterr().out


# --- bad input --------------------------------------------------------------------------------


def test_an_unknown_game_exits_2_naming_the_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert selfcheck("sasku", "bridge", "--deals", "1") == 2
    err = capsys.readouterr().err
    assert "'bridge'" in err
    for name in GAMES:
        assert name in err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["huutopussi", "--variant", '{"players": 5}'], "must be one of 4, 3"),
        (["huutopussi", "--variant", '{"player": 3}'], "options: players"),
        (["huutopussi", "--variant", '{"erlangen": true, "players": 3}'], "4 players only"),
        (["huutopussi", "--variant", "{oops"], "not JSON"),
        (["sasku", "satat", "--variant", "{}"], "exactly one GAME"),
        (["sasku", "--deals", "-1"], "--deals"),
        (["sasku", "--deals", "0", "--matches", "0"], "nothing to check"),
    ],
)
def test_a_bad_variant_or_count_exits_2(
    args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert selfcheck(*args) == 2
    assert fragment in capsys.readouterr().err


def test_a_fixed_variant_plays_only_that_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code = selfcheck(
        "huutopussi", "--variant", '{"players": 3}', "--deals", "2", "--matches", "0",
        "--workers", "1", "--json",
    )  # fmt: skip
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["failures"] == 0
    assert summary["games"][0]["variant_values"] == ['{"players": 3}']


# --- determinism ------------------------------------------------------------------------------


def _digest(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert selfcheck(*args, "--json") == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["failures"] == 0
    digest: str = summary["digest"]
    return digest


def test_the_same_seed_checks_the_same_deals_on_one_or_two_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = ["sasku", "sheepshead", "--deals", "101", "--matches", "2", "--max-match-deals", "2"]
    one = _digest(capsys, *run, "--workers", "1", "--seed", "3")
    two = _digest(capsys, *run, "--workers", "2", "--seed", "3")
    other = _digest(capsys, *run, "--workers", "2", "--seed", "4")
    assert one == two != other


# --- a broken engine is caught, written and reproduced ----------------------------------------


def test_an_unsorted_legal_list_is_caught_written_and_reproduced(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = SaskuDeal._generate_legal

    def unsorted(self: SaskuDeal) -> Any:
        legal = original(self)
        return tuple(reversed(legal)) if len(self.history) == 5 and len(legal) > 1 else legal

    monkeypatch.setattr(SaskuDeal, "_generate_legal", unsorted)
    out_dir = tmp_path / "failures"
    code = selfcheck(
        "sasku", "--deals", "8", "--matches", "0", "--workers", "1", "--out", str(out_dir)
    )
    out = capsys.readouterr().out
    assert code == 1
    files = sorted(out_dir.glob("sasku-deals-*-legal.sorted.json"))
    assert files, out
    stored = json.loads(files[0].read_text())
    info = stored["meta"]["selfcheck"]
    assert info["check"] == "legal.sorted" and info["seed"] == 0
    assert len(stored["actions"]) == 5  # the record up to the state whose legal list is wrong
    assert f"folkcards replay {files[0]}" in out

    # the record replays to the unsorted list while the engine is broken
    got = replay(stored)
    assert got["ok"] and got["legal"] != sorted(got["legal"], key=lambda t: t != "diamonds")
    assert selfcheck("--record", str(files[0])) == 1
    assert "legal.sorted" in capsys.readouterr().out

    # the printed command plays the same deal again and fails the same way
    command = shlex.split(info["reproduce"][2])
    assert command[:3] == ["folkcards", "selfcheck", "sasku"]
    again = tmp_path / "again"
    assert main([*command[1:], "--quiet", "--out", str(again)]) == 1
    assert [p.name for p in again.iterdir()] == [files[0].name]
    assert json.loads((again / files[0].name).read_text())["actions"] == stored["actions"]

    # with the engine repaired the same record passes every check
    monkeypatch.undo()
    capsys.readouterr()
    assert selfcheck("--record", str(files[0])) == 0


def test_failures_are_all_counted_but_only_the_first_ones_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    generate = SaskuDeal._generate_legal
    monkeypatch.setattr(SaskuDeal, "_generate_legal", lambda self: tuple(reversed(generate(self))))
    out_dir = tmp_path / "f"
    args = ["sasku", "--deals", "6", "--matches", "1", "--workers", "1", "--out", str(out_dir)]
    assert selfcheck(*args, "--max-failures", "2", "--json") == 1
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["failures"] == 7  # every deal and the match fail at their first auction
    assert len(list(out_dir.iterdir())) == 2
    assert "7 failures; 2 records written" in captured.err


def _obs_patch(change: Callable[[DealState, int, Observation], Observation]) -> Any:
    original = SaskuDeal.observation

    def observation(self: SaskuDeal, seat: int) -> Observation:
        return change(self, seat, original(self, seat))

    return observation


def _legal_to_all(state: DealState, seat: int, obs: Observation) -> Observation:
    if state.to_act is not None and seat != state.to_act:
        return replace(obs, legal=state.legal_actions())
    return obs


def _shared_card(state: DealState, seat: int, obs: Observation) -> Observation:
    if seat == 1 and state.history:
        return replace(obs, hand=obs.hand | SaskuDeal.observation(state, 0).hand)  # type: ignore[arg-type]
    return obs


def _scopone_table_short(state: DealState, seat: int, obs: Observation) -> Observation:
    table = list(obs.info["table"])
    return replace(obs, info={**obs.info, "table": table[1:]}) if table else obs


def _break(monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    if fault == "observation.legal":
        monkeypatch.setattr(SaskuDeal, "observation", _obs_patch(_legal_to_all))
    elif fault == "cards.disjoint":
        monkeypatch.setattr(SaskuDeal, "observation", _obs_patch(_shared_card))
    elif fault == "cards.conserved":
        original = ScoponeState.observation

        def observation(self: ScoponeState, seat: int) -> Observation:
            return _scopone_table_short(self, seat, original(self, seat))

        monkeypatch.setattr(ScoponeState, "observation", observation)
    elif fault == "legal.unique":
        generate = SaskuDeal._generate_legal
        monkeypatch.setattr(SaskuDeal, "_generate_legal", lambda self: (*generate(self),) * 2)
    elif fault == "legal.parse":
        parse = SASKU.parse_action
        table = SASKU.all_actions({})
        assert table is not None

        def misparse(text: str, variant: Any) -> Any:
            a = parse(text, variant)
            return table[(int(a) + 1) % len(table)] if text.startswith("play") else a

        monkeypatch.setattr(SASKU, "parse_action", misparse)
    elif fault == "illegal.accepted":
        # Sasku's own apply checks an action that is not a legal Action with _checked
        monkeypatch.setattr(SaskuDeal, "_checked", lambda self, action, legal: legal[0])
    elif fault == "illegal.changed":

        def explain(self: SaskuDeal, action: Any) -> str:
            self.actors.append(0)
            self.history.append(action)
            return "not now"

        monkeypatch.setattr(SaskuDeal, "explain_illegal", explain)
    elif fault == "determinize.observation":
        monkeypatch.setattr(
            SASKU, "determinize", lambda obs, rng: SASKU.random_deal(rng, obs.variant, obs.dealer)
        )
    elif fault == "public.shape":
        monkeypatch.setattr(SaskuDeal, "public_observation", lambda self: self.observation(0))
    elif fault == "public.determinize":
        public = SaskuDeal.public_observation

        def leaky(self: SaskuDeal) -> Observation:
            obs = public(self)
            return replace(obs, info=replace(obs.info, passed=[self.observation(0).hand]))

        monkeypatch.setattr(SaskuDeal, "public_observation", leaky)
    elif fault == "info.typed":
        public = SaskuDeal.public_observation

        def untyped(self: SaskuDeal) -> Observation:
            obs = public(self)
            return replace(obs, info=dict(obs.info))

        monkeypatch.setattr(SaskuDeal, "public_observation", untyped)
    elif fault == "observation.steps":
        observation = SaskuDeal.observation

        def textual(self: SaskuDeal, seat: int) -> Observation:  # history as bare text
            obs = observation(self, seat)
            return replace(obs, history=tuple(str(t) for t in obs.history))

        monkeypatch.setattr(SaskuDeal, "observation", textual)
    elif fault == "replay.end":
        result = SaskuDeal.result
        monkeypatch.setattr(SaskuDeal, "result", lambda self: {**result(self), "id": id(self)})
    elif fault == "exception":
        apply = SaskuDeal.apply

        def crash(self: SaskuDeal, action: Any) -> None:
            if len(self.history) == 7 and action in self.legal_actions():  # a legal one
                raise RuntimeError("boom")
            apply(self, action)

        monkeypatch.setattr(SaskuDeal, "apply", crash)
    else:
        assert fault == "none"


FAULTS = [
    "none",
    "observation.legal",
    "cards.disjoint",
    "cards.conserved",
    "legal.unique",
    "legal.parse",
    "illegal.accepted",
    "illegal.changed",
    "determinize.observation",
    "public.shape",
    "public.determinize",
    "info.typed",
    "observation.steps",
    "replay.end",
    "exception",
]


@pytest.mark.parametrize("fault", FAULTS)
def test_each_kind_of_broken_engine_is_caught(monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    game = SCOPONE if fault == "cards.conserved" else SASKU
    _break(monkeypatch, fault)
    deep_every = 0 if fault == "exception" else 1  # a crash in play, not in a deep check's clone
    found = set()
    for seed in range(3):
        rng, crng = random.Random(seed), random.Random(100 + seed)
        record, failure = check_one_deal(game, {}, rng, crng, deep_every, Counters())
        if failure is not None:
            found.add(failure.check)
            assert failure.record == record and record["actions"] is not None
            if fault == "exception":
                assert "boom" in failure.message and failure.action is not None
                assert len(record["actions"]) == 7  # the record before the action that crashed
                assert "RuntimeError" in failure.detail
    assert found == (set() if fault == "none" else {fault})


def test_a_clean_record_passes_the_record_check(tmp_path: Path) -> None:
    state = SASKU.random_deal(random.Random(9), {}, 2)
    rng = random.Random(9)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert check_record(state.record()) == []
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**state.record(), "meta": {"event": "test"}}))
    assert selfcheck("--record", str(path)) == 0
    broken = {**state.record(), "actions": [*state.record()["actions"][:3], "play ZZ"]}
    assert [f.check for f in check_record(broken)] == ["record.action"]
