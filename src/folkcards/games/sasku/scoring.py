"""Scoring a finished Sasku deal in strokes (SAS-12 … SAS-14), and the ``deal_end`` event.

:func:`score` builds the SAS-14.1 result object by the first row of SAS-13 that applies:
lambapea, 60–60, a passed deal, or the stroke table by the declaring team's points.
:func:`deal_end` says the same as data — which row scored and by what comparison — for the
last event of a deal (``docs/engine.md`` §5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import SUITS
from folkcards.engine.api import JSON
from folkcards.engine.events import component, reason

from .rules import DIAMONDS_SUIT

if TYPE_CHECKING:
    from .deal import SaskuState


def strokes(declarers_points: int, diamonds: bool) -> tuple[bool, int]:
    """SAS-13.4, SAS-13.5: (did the declaring team win, strokes) for its card points — the
    "trump D" column when the final trump is diamonds (SAS-22.6: 0 points is the 0–29 row)."""
    if declarers_points >= 91:
        return True, 6 if diamonds else 4
    if declarers_points >= 61:
        return True, 4 if diamonds else 2
    if declarers_points >= 30:
        return False, 6 if diamonds else 4
    return False, 8 if diamonds else 6


def score(state: SaskuState) -> dict[str, JSON]:
    """The SAS-14.1 result of a finished deal (the first matching row of SAS-13)."""
    points, tricks = state.points, state.tricks
    score = [0, 0]
    won_by: int | None = None
    lambapea = 9 in tricks
    redeal = False
    declarer_team = None if state.declarer is None else state.declarer & 1
    if lambapea:  # SAS-13.1 (also SAS-22.5)
        won_by = tricks.index(9)
        score[won_by] = state.rules.target
    elif points[0] == 60:  # SAS-13.2
        redeal = True
    elif state.passed_deal or declarer_team is None:  # SAS-13.3
        won_by = 0 if points[0] > 60 else 1
        score[won_by] = 1
    else:  # SAS-13.4, SAS-13.5
        made, strokes_won = strokes(points[declarer_team], state.trump == DIAMONDS_SUIT)
        won_by = declarer_team if made else 1 - declarer_team
        score[won_by] = strokes_won
    out: dict[str, JSON] = {
        "score": score,
        "won_by": won_by,
        "points": list(points),
        "tricks": list(tricks),
        "trump": SUITS[state.trump],
        "declarer": state.declarer,
        "declarer_team": declarer_team,
        "passed": state.passed_deal,
        "bid": state.high_bid or None,
        "lambapea": lambapea,
        "redeal": redeal,
    }
    if redeal:  # SAS-14.1, SAS-15.2
        out["replay"] = {"trump": SUITS[state.trump], "declarer": state.declarer}
    return out


def copy_result(result: dict[str, JSON]) -> dict[str, JSON]:
    """A caller's own copy of a cached result: fresh lists, so that editing it cannot
    change the cache (clones share it); copied key by key, since search playouts read a
    result at every leaf."""
    out = dict(result)
    out["score"] = out["score"].copy()
    out["points"] = out["points"].copy()
    out["tricks"] = out["tricks"].copy()
    if "replay" in out:
        out["replay"] = dict(out["replay"])
    return out


def deal_end(state: SaskuState) -> dict[str, JSON]:
    """The ``deal_end`` event's data: the result with the row of SAS-13 that scored it."""
    res = state.result()
    points, score = res["points"], res["score"]
    won_by = res["won_by"]
    if res["lambapea"]:  # SAS-13.1
        outcome = "lambapea"
        why = reason(f"team {won_by}", won_by, "tricks", 9, "=", 9, "SAS-13.1")
    elif res["redeal"]:  # SAS-13.2
        outcome = "redeal"
        why = reason("each team", None, "points", 60, "=", 60, "SAS-13.2")
    elif res["passed"] or res["declarer_team"] is None:  # SAS-13.3
        outcome = "passed"
        why = reason(f"team {won_by}", won_by, "points", points[won_by], ">", 60, "SAS-13.3")
    else:  # SAS-13.4
        dt = res["declarer_team"]
        pd = points[dt]
        op, target = (
            (">=", 91)
            if pd >= 91
            else (">=", 61)
            if pd >= 61
            else ("<", 61)
            if pd >= 30
            else ("<", 30)
        )
        outcome = "declarers_won" if won_by == dt else "declarers_lost"
        why = reason("declarers", dt, "points", pd, op, target, "SAS-13.4")
    return {
        "result": res,
        "score": list(score),
        "outcome": outcome,
        "reason": why,
        "components": [component("strokes", score, trump=res["trump"], rule=why["rule"])],
        "points_from": {"tricks": list(points)},
    }
