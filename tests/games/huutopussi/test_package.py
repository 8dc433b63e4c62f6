"""The ``folkcards.games.huutopussi`` package: its modules in the shape of the rules file,
the names other code imports from them, the old names kept, and its memos (HUU-11, HUU-16)."""

from __future__ import annotations

import dataclasses
import importlib
import sys

import pytest

import folkcards.games.huutopussi as huutopussi
from folkcards.engine.memo import all_memos
from folkcards.games.huutopussi import GAME, HuutopussiDeal, HuutopussiState
from folkcards.games.huutopussi.rules import RULES, VARIANT_KEYS, Rules, rules_of

MODULES = ("rules", "deal", "scoring", "observe", "explain", "determinize", "fast", "game")

IMPORTED = {
    # the batched kernel (``batch/huutopussi.py``) reads these of ``rules``
    "rules": [
        "ACES", "ARG", "CONFIGS", "DECK", "KIND", "KINGS", "K_ANSWER_NO", "K_ANSWER_SUIT",
        "K_ANSWER_YES", "K_ASK_HALF", "K_ASK_MARRIAGE", "K_DECLARE", "K_KONTRA", "K_PLAY",
        "K_RE", "PAIR", "POINT_SCHEMES", "QUEENS", "SPADES", "SUIT_ORDER_WORDS", "P_ANSWER",
        "P_PLAY",
        # the heuristic bot (``bots/heuristic/huutopussi.py``)
        "MARRIAGE_VALUES", "TRICK_ORDER", "rules_of",
        # the tests
        "PHASES", "NO_TRUMP", "TABLE", "VARIANT_KEYS",
    ],
    "scoring": ["round5"],
}  # fmt: skip


@pytest.mark.parametrize("module", MODULES)
def test_every_module_of_the_shape_is_there(module: str) -> None:
    assert importlib.import_module(f"folkcards.games.huutopussi.{module}").__doc__


@pytest.mark.parametrize("module", list(IMPORTED))
def test_the_modules_keep_every_imported_name(module: str) -> None:
    mod = importlib.import_module(f"folkcards.games.huutopussi.{module}")
    for name in IMPORTED[module]:
        assert getattr(mod, name) is not None, name


def test_the_old_names_stay_importable() -> None:
    """The deal under the other games' name, and the first layout's module of the deal
    (``….huutopussi.state``, what an old pickle names) as :mod:`.deal`."""
    assert HuutopussiDeal is HuutopussiState
    assert sorted(huutopussi.__all__) == [
        "GAME",
        "HuutopussiDeal",
        "HuutopussiGame",
        "HuutopussiInfo",
        "HuutopussiState",
    ]
    old = importlib.import_module("folkcards.games.huutopussi.state")
    assert old is sys.modules["folkcards.games.huutopussi.deal"]
    assert old.HuutopussiState is HuutopussiState


def test_a_variant_s_rules_are_frozen_and_shared() -> None:
    """HUU-11: one frozen Rules per variant, from the memo, whatever the mapping's order."""
    v = GAME.normalize_variant({"erlangen": True})
    r = rules_of(v)
    assert r is rules_of(dict(reversed(list(v.items())))) and isinstance(r, Rules)
    assert r.min_bid == 120 and r.exchange == 4 and r.point_scheme == "11-10-4-3-2"
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.max_bid = 1  # type: ignore[misc]
    assert tuple(v[k] for k in VARIANT_KEYS) in RULES.table


def test_every_memo_is_named_for_the_game_and_bounded() -> None:
    names = {m.name for m in all_memos("huutopussi.")}
    assert names == {
        "huutopussi.bidding",
        "huutopussi.contracts",
        "huutopussi.declarations",
        "huutopussi.rules",
        "huutopussi.variants",
    }
    assert all(m.limit is not None for m in all_memos("huutopussi."))
