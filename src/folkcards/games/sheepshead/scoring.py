"""Scoring a finished Sheepshead deal: the result object of SHP-10.1 and, for the
``deal_end`` event, the row of SHP-8 or SHP-9 that scored it.

A picked deal (SHP-8): the picker side's card points (the bury counts for the picker,
SHP-5.2) and tricks decide who won and at which level (SHP-8.2); the score per seat is the
called-game table (SHP-8.3) or the alone table (SHP-8.5), at the unit of SHP-8.6. Nobody
picking (SHP-9): the leaster's fewest-points winners (SHP-9.2–9.4) or a doubler's redeal
(SHP-9.5). Every deal's score sums to 0 (SHP-2.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import JSON
from folkcards.engine.events import component, only, reason

from .rules import (
    ALONE_MODE,
    DOUBLER,
    LEASTER,
    M_ALONE,
    M_CALLED,
    M_DOUBLER,
    M_LEASTER,
    SEATS,
    TRICKS,
    mask_points,
)

if TYPE_CHECKING:
    from .deal import SheepsheadState

_LEVEL_THRESHOLDS = ((91, "picker", 2), (61, "picker", 1), (31, "defenders", 1))


def outcome(picker_points: int, picker_tricks: int) -> tuple[str, int]:
    """``(won_by, level)`` of a picked deal (SHP-8.2, first matching row)."""
    if picker_tricks == TRICKS:
        return "picker", 3
    if picker_tricks == 0:
        return "defenders", 3
    for threshold, side, level in _LEVEL_THRESHOLDS:
        if picker_points >= threshold:
            return side, level
    return "defenders", 2


def result(st: SheepsheadState) -> dict[str, JSON]:
    """The result object of SHP-10.1 (ValueError while the deal goes on)."""
    if st.to_act is not None:
        raise ValueError("the deal is not over")
    stake = st.stake
    md = st._md
    points = list(st.taken)
    if md in (M_CALLED, M_ALONE):
        return _picked_result(st, stake, points)
    res: dict[str, JSON] = {
        "score": [0] * SEATS,
        "mode": st.mode,
        "picker": None,
        "called": None,
        "partner": None,
        "bury": None,
        "tricks": list(st.tricks),
        "points": [0] * SEATS,
        "picker_points": None,
        "picker_tricks": None,
        "won_by": None,
        "level": None,
        "leaster_winners": None,
        "stake": stake,
        "redeal": False,
    }
    if md == M_DOUBLER:  # SHP-9.5
        res["redeal"] = True
        return res
    if md == M_LEASTER:
        # SHP-9.2: the blind goes to the winner of the last trick.
        assert st.last_trick is not None
        points[st.last_trick[2]] += mask_points(st.blind_mask)
        eligible = [s for s in range(SEATS) if st.tricks[s] > 0]  # SHP-9.3
        low = min(points[s] for s in eligible)
        winners = [s for s in eligible if points[s] == low]
        k = len(winners)
        res["score"] = [(5 - k) * stake if s in winners else -k * stake for s in range(SEATS)]
        res["points"] = points  # SHP-9.4
        res["leaster_winners"] = winners
        return res
    raise AssertionError(f"unknown mode {st.mode!r}")


def _picked_result(st: SheepsheadState, stake: int, points: list[int]) -> dict[str, JSON]:
    """:func:`result` of a picked deal (called partner or alone), SHP-8."""
    picker = st.picker
    points[picker] += mask_points(st.bury)  # SHP-5.2, SHP-8.1
    tricks = st.tricks
    alone = st._md == M_ALONE
    partner = st.partner
    if alone:
        p_points, p_tricks = points[picker], tricks[picker]
    else:  # the partner is never the picker (SHP-6.3)
        p_points = points[picker] + points[partner]
        p_tricks = tricks[picker] + tricks[partner]
    won_by, level = outcome(p_points, p_tricks)  # SHP-8.2
    bump = 2 if won_by == "defenders" and st.rules.double_on_bump else 1
    u = stake * bump  # SHP-8.6
    d = level * u if won_by == "picker" else -level * u
    # Built per seat from one unit instead of a loop over seats (the same table).
    if alone:  # SHP-8.5
        score = [-d] * SEATS
        score[picker] = 4 * d
    elif won_by == "defenders" and level == 3:  # SHP-8.3 last row, SHP-8.4
        score = [3 * u] * SEATS
        score[picker] = -9 * u
        score[partner] = 0
    else:  # SHP-8.3
        score = [-d] * SEATS
        score[picker] = 2 * d
        score[partner] = d
    bury = st.bury
    low = bury & -bury
    return {
        "score": score,
        "mode": st.mode,
        "picker": picker,
        "called": None if alone else CARD_NAMES[st.called],
        "partner": None if alone else partner,
        "bury": [CARD_NAMES[low.bit_length() - 1], CARD_NAMES[(bury ^ low).bit_length() - 1]],
        "tricks": list(tricks),
        "points": points,
        "picker_points": p_points,
        "picker_tricks": p_tricks,
        "won_by": won_by,
        "level": level,
        "leaster_winners": None,
        "stake": stake,
        "redeal": False,
    }


def deal_end(st: SheepsheadState) -> dict[str, JSON]:
    """The ``deal_end`` event's fields: the result with the SHP-8/SHP-9 row that scored it,
    and where the points came from (tricks; the bury, or a leaster's blind)."""
    res = st.result()
    score = res["score"]
    points_from: dict[str, JSON] = {"tricks": list(st.taken)}
    if res["mode"] == DOUBLER:  # SHP-9.5
        return {
            "result": res,
            "score": list(score),
            "outcome": "doubler",
            "reason": None,
            "components": [component("doubler", list(score), rule="SHP-9.5")],
            "points_from": points_from,
        }
    if res["mode"] == LEASTER:  # SHP-9.2 – SHP-9.4
        assert st.last_trick is not None
        points_from["blind"] = only(st.last_trick[2], mask_points(st.blind_mask), SEATS)
        winners = res["leaster_winners"]
        low = res["points"][winners[0]]
        return {
            "result": res,
            "score": list(score),
            "outcome": "leaster",
            "reason": None,
            "components": [
                component("leaster", list(score), winners=winners, low=low, rule="SHP-9.4")
            ],
            "points_from": points_from,
        }
    return _picked_end(st, res, points_from)


def _picked_end(
    st: SheepsheadState, res: dict[str, JSON], points_from: dict[str, JSON]
) -> dict[str, JSON]:
    """:func:`deal_end` of a picked deal: the SHP-8.2 comparison that decided it and the
    SHP-8.3 or SHP-8.5 row that scored it."""
    picker = res["picker"]
    points_from["bury"] = only(picker, mask_points(st.bury), SEATS)  # SHP-5.2, SHP-8.1
    p_points, p_tricks = res["picker_points"], res["picker_tricks"]
    who = "picker" if res["mode"] == ALONE_MODE else "picker side"
    if p_tricks in (0, TRICKS):  # SHP-8.2: all tricks or none
        why = reason(who, picker, "tricks", p_tricks, "=", p_tricks, "SHP-8.2")
    else:
        op, target = (
            (">=", 91) if p_points >= 91
            else (">=", 61) if p_points >= 61
            else ("<", 61) if p_points > 30
            else ("<=", 30)
        )  # fmt: skip
        why = reason(who, picker, "points", p_points, op, target, "SHP-8.2")
    bump = 2 if res["won_by"] == "defenders" and st.rules.double_on_bump else 1
    return {
        "result": res,
        "score": list(res["score"]),
        "outcome": res["won_by"],
        "reason": why,
        "components": [
            component(
                "game",
                list(res["score"]),
                won_by=res["won_by"],
                level=res["level"],
                unit=st.stake * bump,
                rule="SHP-8.5" if res["mode"] == ALONE_MODE else "SHP-8.3",
            )
        ],
        "points_from": points_from,
    }
