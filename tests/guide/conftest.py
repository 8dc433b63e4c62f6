"""What the registered games actually do, seen by playing random deals and matches.

The guide's tests compare the pages and labels with this, so that a new phase, result key,
action word or variant option of any game fails a test until the guide explains it."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from folkcards.engine.api import DealState, Game, MalformedRecord, VariantOption
from folkcards.engine.match import Match
from folkcards.games import GAMES
from folkcards.guide import action_key, value_key

DEALS_PER_VARIANT = 30
MATCHES_PER_VARIANT = 2
MATCH_DEAL_CAP = 25

CARRIES: dict[str, list[dict[str, Any]]] = {
    "sasku": [
        {"replay": {"trump": "H", "declarer": 1}},
        {"replay": {"trump": "D", "declarer": None}},
    ],
    "satat": [
        {"passing": {"winners": 0, "cards": 1}},
        {"passing": {"winners": 1, "cards": 2}},
        {"redeals": 2},
    ],
    "sheepshead": [{"stake": 2}],
    "huutopussi": [{"totals": [-600, 0]}, {"totals": [-600, 0, 0]}],
}
"""Carried-over deal keys worth playing (a record's game-defined keys), per game; one that a
variant rejects is skipped."""


@dataclass
class Observed:
    """Everything seen of one game."""

    phases: set[str] = field(default_factory=set)
    result_keys: set[str] = field(default_factory=set)
    result_values: dict[str, set[str]] = field(default_factory=dict)
    actions: set[str] = field(default_factory=set)
    """Every legal action's words (its label key), e.g. ``deal to``, ``play take``."""
    action_keys: dict[str, str] = field(default_factory=dict)
    """One example action text per words, with the key :func:`action_key` gave it."""


def option_values(option: VariantOption) -> tuple[Any, ...]:
    """The values of an option worth playing: every choice, both booleans, or for an
    integer its default and minimum."""
    if option.choices is not None:
        return tuple(option.choices)
    if type(option.default) is bool:
        return (False, True)
    values = {option.default}
    if option.minimum is not None:
        values.add(option.minimum)
    return tuple(sorted(values))


def _accepted(game: Game, raw: Mapping[str, Any]) -> bool:
    try:
        game.normalize_variant(dict(raw))
    except MalformedRecord:
        return False
    return True


def variants(game: Game) -> Iterator[dict[str, Any]]:
    """For every value of every option, a variant (raw record form) that plays it."""
    options = game.variant_options
    defaults = {o.key: o.default for o in options}
    values = {o.key: option_values(o) for o in options}
    yield {}
    for o in options:
        for v in values[o.key]:
            raw = {o.key: v} if v != o.default else {}
            if _accepted(game, raw):
                yield raw
                continue
            for combo in itertools.product(*values.values()):
                full = dict(zip(values, combo, strict=True))
                if full[o.key] != v:
                    continue
                raw = {k: x for k, x in full.items() if x != defaults[k]}
                if _accepted(game, raw):
                    yield raw
                    break


def _words(text: str) -> str:
    return " ".join(t for t in text.split() if t.isascii() and t.isalpha() and t.islower())


def _scalar(value: object) -> str | None:
    if value is None or isinstance(value, bool | int | str):
        return value_key(value)
    return None


def _play(deal: DealState, rng: random.Random, seen: Observed) -> None:
    while not deal.is_over:
        seen.phases.add(deal.phase)
        legal = deal.legal_actions()
        for a in legal:
            words = _words(a.text)
            if words not in seen.actions:
                seen.actions.add(words)
                seen.action_keys[a.text] = action_key(deal.game.name, a.text)
        deal.apply(rng.choice(legal))
    seen.phases.add(deal.phase)
    for key, value in deal.result().items():
        seen.result_keys.add(key)
        vk = _scalar(value)
        if vk is not None:
            seen.result_values.setdefault(key, set()).add(vk)


def observe(game: Game) -> Observed:
    seen = Observed()
    rng = random.Random(f"folkcards-guide:{game.name}")
    for raw in variants(game):
        v = game.normalize_variant(raw)
        seats = game.num_seats(v)
        carries: list[Mapping[str, Any] | None] = [None]
        for rec in CARRIES.get(game.name, []):
            try:
                carries.append(game.normalize_carry(rec, v))
            except MalformedRecord:
                continue
        for i in range(DEALS_PER_VARIANT):
            carry = carries[i % len(carries)]
            deal = game.random_deal(rng, raw, dealer=rng.randrange(seats), carry=carry)
            _play(deal, rng, seen)
        for _ in range(MATCHES_PER_VARIANT):
            match = Match(game, raw, rng=rng)
            for _ in range(MATCH_DEAL_CAP):
                if match.is_over:
                    break
                _play(match.new_deal(), rng, seen)
                match.finish_deal()
            seen.result_keys.update(game.match_result(match.state))
    return seen


_CACHE: dict[str, Observed] = {}


@pytest.fixture(scope="session")
def observed() -> dict[str, Observed]:
    """What every registered game was seen to do (played once per test session)."""
    for name, game in GAMES.items():
        if name not in _CACHE:
            _CACHE[name] = observe(game)
    return _CACHE
