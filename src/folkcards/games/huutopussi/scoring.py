"""Scoring a Huutopussi deal: the HUU-9.5 result object and its explanation as data.

:func:`score` builds the result by the rules of the variant — a redeal scores nothing
(HUU-4.6), the default rules compare the declarers' total with the contract (HUU-9.2–9.4,
Porvoo HUU-11.4), Erlangen doubles per call and rounds (HUU-12.7–12.9), three players
score per seat (HUU-13.4). :func:`deal_end` says the same as data — each side's score by
the rule that gave it, and where the points came from — for the ``deal_end`` event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from folkcards.cards import SUITS
from folkcards.engine.api import JSON
from folkcards.engine.events import component, only, reason

if TYPE_CHECKING:
    from .deal import HuutopussiState


def round5(total: int) -> int:
    """HUU-12.7: to the nearest multiple of 5, remainders 1–2 down and 3–4 up."""
    r = total % 5
    return total - r if r <= 2 else total + 5 - r


def copy_result(res: dict[str, JSON]) -> dict[str, JSON]:
    """A copy of a result whose lists are new lists too (the caller may change them)."""
    return {k: list(v) if type(v) is list else v for k, v in res.items()}


def _redeal_result(k: int, by: int) -> dict[str, JSON]:
    """HUU-9.5 after a redeal (HUU-4.6): nothing scored."""
    return {
        "score": [0] * k,
        "redeal": True,
        "redeal_by": by,
        "declarer": None,
        "bid": None,
        "contract": None,
        "made": None,
        "tricks": [0] * k,
        "points": [0] * k,
        "marriages": [0] * k,
        "trumps": [],
        "calls": 0,
        "no_tricks": [],
    }


def score(st: HuutopussiState) -> dict[str, JSON]:
    """The result object of HUU-9.5 of a finished deal."""
    k = len(st.tricks)
    if st.redeal_by >= 0:
        return _redeal_result(k, st.redeal_by)
    points = list(st.points)
    tricks = st.tricks
    total = [points[t] + st.marriages[t] for t in range(k)]
    made: bool | None = None
    d = st.declarer
    if d < 0:  # HUU-12.2: Erlangen all-pass, every team its rounded total
        scores = [round5(t) for t in total]
    elif st.rules.players == 3:  # HUU-13.4
        points[d] += sum(st.rules.card_points[c] for c in st.discards)  # HUU-6.2
        total[d] = points[d] + st.marriages[d]
        made, scores = _three_player(st, total)
    elif st.rules.erlangen:
        made, scores = _erlangen(st, total)
    else:
        made, scores = _four_player(st, total)
    return {
        "score": scores,
        "redeal": False,
        "redeal_by": None,
        "declarer": d if d >= 0 else None,
        "bid": st.bid if d >= 0 else None,
        "contract": st.contract if d >= 0 else None,
        "made": made,
        "tricks": list(tricks),
        "points": points,
        "marriages": list(st.marriages),
        "trumps": [SUITS[x] for _, x, _ in st.declarations],
        "calls": st.calls,
        "no_tricks": [t for t in range(k) if not tricks[t]],
    }


def _three_player(st: HuutopussiState, total: list[int]) -> tuple[bool, list[int]]:
    """HUU-13.4: ± the contract for the declarer; a trickless opponent −bid if it is made;
    every other opponent its total."""
    d = st.declarer
    made = total[d] >= st.contract
    scores = [0, 0, 0]
    for s in range(3):
        if s == d:
            scores[s] = st.contract if made else -st.contract
        elif not st.tricks[s]:
            scores[s] = -st.bid if made else 0
        else:
            scores[s] = total[s]
    return made, scores


def _four_player(st: HuutopussiState, total: list[int]) -> tuple[bool, list[int]]:
    """HUU-9.2–9.4: ± the contract for the declarers, the opponents their total; a
    trickless side: läpäri (−bid, opponents only) or Porvoo (−contract, HUU-11.4)."""
    ds = st.sides[st.declarer]
    os = 1 - ds
    c = st.contract
    made = total[ds] >= c  # HUU-9.2
    scores = [0, 0]
    scores[ds] = c if made else -c
    scores[os] = total[os]  # HUU-9.3
    if st.rules.porvoo:  # HUU-11.4
        for t in (0, 1):
            if not st.tricks[t]:
                scores[t] = -c
    elif not st.tricks[os]:  # HUU-9.4 läpäri
        scores[os] = -st.bid
    return made, scores


def _erlangen(st: HuutopussiState, total: list[int]) -> tuple[bool, list[int]]:
    """HUU-12.7–12.9: the contract doubled per call, Porvoo ×2, the rest rounded."""
    ds = st.sides[st.declarer]
    os = 1 - ds
    c = st.contract
    made = total[ds] >= c
    calls = st.calls
    scores = [0, 0]
    if not st.tricks[ds]:  # HUU-12.8
        scores[ds] = -2 * c
    elif made:
        scores[ds] = c << calls  # HUU-12.9
    else:
        kk = calls - 1 if (not st.tricks[os] and calls >= 1) else calls
        scores[ds] = -(c << kk)
    if not st.tricks[os]:
        scores[os] = -2 * c if made else 0
    else:
        scores[os] = round5(total[os])  # HUU-12.7
    return made, scores


# --- the deal_end event ----------------------------------------------------------------------


def deal_end(st: HuutopussiState) -> dict[str, JSON]:
    """The result with each side's score by the rule that gave it (HUU-9, HUU-12, HUU-13)."""
    res = st.result()
    score_ = res["score"]
    if res["redeal"]:  # HUU-4.6
        return {
            "result": res,
            "score": list(score_),
            "outcome": "redeal",
            "reason": None,
            "components": [
                component("redeal", list(score_), seat=res["redeal_by"], rule="HUU-4.6")
            ],
            "points_from": None,
        }
    k = len(score_)
    total = [res["points"][t] + res["marriages"][t] for t in range(k)]
    why = None
    if res["declarer"] is None:  # HUU-12.2: no contract, each team its rounded total
        outcome = "no_contract"
        parts = [
            component(
                "rounded_total",
                only(t, score_[t], k),
                side=t,
                total=total[t],
                marriages=res["marriages"][t],
                rule="HUU-12.2",
            )
            for t in range(k)
        ]
    else:
        made = bool(res["made"])
        outcome = "made" if made else "failed"
        ds = st.sides[res["declarer"]]
        why = reason(
            "declarer" if k == 3 else "declarers",
            ds,
            "total",
            total[ds],
            ">=" if made else "<",
            res["contract"],
            "HUU-13.4" if k == 3 else "HUU-9.2",
        )
        parts = [_side_component(st, res, t, ds, total[t]) for t in range(k)]
    return {
        "result": res,
        "score": list(score_),
        "outcome": outcome,
        "reason": why,
        "components": parts,
        "points_from": _points_from(st, res),
    }


def _side_component(
    st: HuutopussiState, res: dict[str, Any], t: int, ds: int, total: int
) -> dict[str, JSON]:
    """Side ``t``'s score and the rule that gave it, when the declarers are side ``ds``; with
    the side's marriages (HUU-8), which its total adds to its card points."""
    r = st.rules
    k = len(res["score"])
    got = only(t, res["score"][t], k)
    marriages = res["marriages"][t]
    if t == ds:
        if r.erlangen and not res["tricks"][t]:
            name, rule = "porvoo", "HUU-12.8"
        elif r.porvoo and not res["tricks"][t]:
            name, rule = "porvoo", "HUU-11.4"
        else:
            name = "contract_made" if res["made"] else "contract_failed"
            rule = "HUU-12.9" if r.erlangen else "HUU-13.4" if k == 3 else "HUU-9.2"
        extra = {"calls": res["calls"]} if r.erlangen else {}
        return component(
            name, got, side=t, contract=res["contract"], marriages=marriages, **extra, rule=rule
        )
    if not res["tricks"][t]:
        if k == 3:
            rule = "HUU-13.4"
        elif r.erlangen:
            rule = "HUU-12.8"
        else:
            rule = "HUU-11.4" if r.porvoo else "HUU-9.4"
        name = "porvoo" if (k == 3 or r.erlangen or r.porvoo) else "lapari"
        return component(name, got, side=t, bid=res["bid"], marriages=marriages, rule=rule)
    name, rule = ("rounded_total", "HUU-12.7") if r.erlangen else ("total", "HUU-9.3")
    return component(name, got, side=t, total=total, marriages=marriages, rule=rule)


def _points_from(st: HuutopussiState, res: dict[str, Any]) -> dict[str, JSON]:
    """Each side's card points split into tricks, the last trick's bonus (HUU-1.4) and,
    with 3 players, the declarer's discards (HUU-6.2)."""
    r = st.rules
    points = res["points"]
    k = len(points)
    bonus = [0] * k
    if st.last_winner >= 0:
        bonus[st.sides[st.last_winner]] = r.last_trick
    from_tricks = [points[t] - bonus[t] for t in range(k)]
    discards = [0] * k
    d = res["declarer"]
    if k == 3 and d is not None:  # HUU-6.2: the discards count for the declarer
        discards[d] = sum(r.card_points[c] for c in st.discards)
        from_tricks[d] -= discards[d]
    out: dict[str, JSON] = {"tricks": from_tricks, "last_trick": bonus}
    if k == 3:
        out["discards"] = discards
    return out
