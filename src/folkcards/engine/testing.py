"""The conformance kit: ``check_game(game)`` checks a game against the engine contract.

It is to folkcards what PettingZoo's ``api_test`` and OpenSpiel's ``basic_tests`` are to
theirs: a game's author runs it on a new game (or a new variant) and gets either silence or
an :class:`AssertionError` naming the check that failed, the variant, and a record that
reproduces it (``folkcards replay``). The test suite runs it on every registered game.

The checks are those of ``folkcards selfcheck`` (:mod:`folkcards.engine.selfcheck`), run
here in one process on a few seeded deals and matches of every variant option value, with
the deep checks (determinization from every viewpoint, the public view, pickling, cloning,
replaying the record so far) at every action unless told otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from folkcards.engine.actions import Step, masked
from folkcards.engine.api import SPECTATOR, DealState, Game, Observation
from folkcards.engine.selfcheck import (
    Counters,
    Failure,
    check_one_deal,
    check_one_match,
    deal_rngs,
    plan_variants,
    variant_for,
)


def check_game(
    game: Game,
    *,
    deals: int = 12,
    matches: int = 2,
    seed: int = 0,
    deep_every: int = 1,
    max_match_deals: int = 8,
    variant: Mapping[str, Any] | None = None,
) -> Counters:
    """Play ``deals`` random deals and ``matches`` random matches of ``game`` — cycling
    through every value of every variant option, or only ``variant`` — checking the
    contract after every action. Returns what was checked (deals, actions…); raises
    AssertionError at the first failure, with the check's name and a reproducing record.

    A variant option value that no combination of the game's options accepts is a failure
    too: every option a game declares must be playable.
    """
    counters = Counters()
    if variant is not None:
        targets = None
    else:
        targets, missing = plan_variants(game)
        if missing:
            raise AssertionError(
                f"{game.name}: variant option values no combination accepts: {missing}"
            )
    for kind, count in (("deals", deals), ("matches", matches)):
        for i in range(count):
            rng, crng = deal_rngs(seed, game.name, kind, i)
            if variant is not None:
                raw = dict(variant)
            else:
                assert targets is not None
                raw = variant_for(game, targets[i % len(targets)], rng)
            if kind == "deals":
                _, failure = check_one_deal(game, raw, rng, crng, deep_every, counters)
            else:
                _, failure = check_one_match(
                    game, raw, rng, crng, deep_every, max_match_deals, counters
                )
            if failure is not None:
                raise AssertionError(_describe(failure, raw, seed, kind, i))
    return counters


def _describe(failure: Failure, variant: Mapping[str, Any], seed: int, kind: str, i: int) -> str:
    record = json.dumps(failure.record, separators=(",", ":"))
    if len(record) > 4000:
        record = record[:4000] + "…"
    return (
        f"{failure.game}: check {failure.check} failed in {kind[:-1]} {i} (seed {seed}, "
        f"variant {json.dumps(dict(variant))}): {failure.message}\n"
        f"reproduce with: folkcards selfcheck {failure.game} --{kind} 1 --start {i} "
        f"--seed {seed}\nrecord: {record}"
    )


def check_history_steps(state: DealState, hidden_as: Callable[[int, int], str | None]) -> int:
    """Check every viewer's history of ``state`` — each seat's and the spectator's —
    against where the rules hide an entry; returns how many masked entries were seen.

    ``hidden_as(viewer, i)`` is the masked text entry ``i`` of ``state.history`` must read
    for ``viewer`` (a seat, or :data:`SPECTATOR`) — ``"return ?"`` — or None where that
    viewer sees it whole. For a game whose every history keeps one entry per action (a
    game that leaves private steps out, as Satat does, checks its own way): a masked entry
    must be the shared :func:`~folkcards.engine.actions.masked` step (its verb, a hidden
    card per ``?``, no cards, no action), any other the played action's own step.
    """
    seen = 0
    for viewer in (*range(state.num_seats), SPECTATOR):
        obs = state.public_observation() if viewer == SPECTATOR else state.observation(viewer)
        where = f"{obs.game} seat {viewer}" if viewer != SPECTATOR else f"{obs.game} spectator"
        assert len(obs.history) == len(state.history), f"{where}: history of another length"
        for i, step in enumerate(obs.history):
            action = state.history[i]
            assert isinstance(step, Step), f"{where}: history[{i}] is not a Step: {step!r}"
            text = hidden_as(viewer, i)
            if text is not None:
                assert step is masked(text), f"{where}: history[{i}] is {str(step)!r}, not {text!r}"
                assert step.kind == text.split(" ")[0] and step.hidden == text.count("?")
                assert step.action is None and step.cards == ()
                seen += 1
            else:
                assert step.hidden == 0 and step.action is action, (
                    f"{where}: history[{i}] {str(step)!r} is not the action played, {action.text!r}"
                )
                assert step == action.text and step.kind == action.text.split(" ")[0]
    return seen


def check_world_history(obs: Observation, world: DealState) -> int:
    """Check that ``world``, determinized from ``obs``, replays its history: each step the
    viewer saw whole is the very action of the world's history, each masked one an action
    of the same verb (``return ?`` a ``return``); returns how many masked entries there
    were. For a game whose histories keep one entry per action, as
    :func:`check_history_steps`."""
    assert world.observation(obs.seat) == obs, "the world shows the seat another observation"
    masked_steps = 0
    for i, step in enumerate(obs.history):
        action = world.history[i]
        if step.action is not None:
            assert action is step.action, f"history[{i}]: {action.text!r}, not {str(step)!r}"
        else:
            assert action.step.kind == step.kind, f"history[{i}]: {action.text!r} for {step!r}"
            masked_steps += 1
    return masked_steps
