"""Shared helpers for the Huutopussi tests (imported as fixtures)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from folkcards.engine.records import load_deal
from folkcards.games.huutopussi import GAME, HuutopussiState

HERE = str(Path(__file__).parent)
if HERE not in sys.path:  # the tests import each other's helpers (--import-mode=importlib)
    sys.path.insert(0, HERE)

# A fixed 4-player layout (dealer 3, so seat 0 is eldest):
#   seat 0: hearts marriage, seat 1: clubs marriage, seat 2: diamonds marriage,
#   seat 3: no card above a jack (may ask for a redeal).
HANDS4 = [
    "AH KH QH TH AS KS AC 6C 6D",
    "JH 9H 8H QS JS KC QC AD 7D",
    "7H 6H TS 9S TC JC KD QD TD",
    "8S 7S 6S 9C 8C 7C JD 9D 8D",
]

Deal = Callable[..., HuutopussiState]


def make_deal(
    hands: list[str] | None = None,
    actions: list[str] | None = None,
    variant: dict[str, Any] | None = None,
    dealer: int = 3,
    widow: str | None = None,
    totals: list[int] | None = None,
) -> HuutopussiState:
    """A state from a hands record, after ``actions``."""
    rec: dict[str, Any] = {
        "game": "huutopussi",
        "variant": variant or {},
        "dealer": dealer,
        "hands": [h.split() for h in (hands or HANDS4)],
        "actions": actions or [],
    }
    if widow is not None:
        rec["extra"] = {"widow": widow.split()}
    if totals is not None:
        rec["totals"] = totals
    state = load_deal(rec)
    assert isinstance(state, HuutopussiState)
    return state


@pytest.fixture
def deal() -> Deal:
    return make_deal


__all__ = ["GAME", "HANDS4", "make_deal"]
