"""Satat's results: a deal's result and what it carries to the next deal (SAT-10–SAT-12),
the ``deal_end`` event that explains it, the first-dealer draw (SAT-3) and the match count
(SAT-13).

There are no card points (SAT-1.6): a deal is won by the first side to seven tricks, and a
match counts deals won, with 7-0s and 13-0s beside them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from folkcards.cards import CARD_NAMES, SUITS, Card, CardError, parse_card
from folkcards.engine.api import JSON, MalformedRecord, MatchState, json_repr
from folkcards.engine.events import component, reason

if TYPE_CHECKING:
    from folkcards.engine.api import DealState

    from .deal import SatatState

# --- SAT-10 the deal's result, SAT-12 the next deal ---------------------------------------


def next_dealer(st: SatatState) -> int:
    """SAT-12.1/SAT-12.2: the same dealer after a redeal or a plain win of the trump maker's
    side; his partner after its 7-0 or 13-0; the next seat when the dealer's side won."""
    d = st.dealer
    if st.outcome == "redeal":
        return d
    if st.won_by == st.tm % 2:
        return d if st.outcome == "win" else (d + 2) % 4
    return (d + 1) % 4


def deal_result(st: SatatState) -> dict[str, JSON]:
    """The SAT-10 result object of a finished deal, with the carried state of SAT-12.3 and
    SAT-12.4; ValueError while the deal goes on."""
    if st.to_act is not None:
        raise ValueError("the deal is not over")
    redeal = st.outcome == "redeal"
    score = [0, 0]
    if not redeal:
        score[st.won_by] = 1
    if redeal:
        next_redeals = st.redeals + 1 if st.redeal_reason == "no_pictures" else st.redeals
        next_passing = st.passing
    else:
        next_redeals = 0  # SAT-12.3
        next_passing = None  # SAT-12.4
        if not st.tk and st.outcome in ("7-0", "13-0"):
            next_passing = {"winners": st.won_by, "cards": 1 if st.outcome == "7-0" else 2}
    return {
        "score": score,
        "outcome": st.outcome,
        "won_by": None if redeal else st.won_by,
        "tricks": list(st.tricks),
        "trump": SUITS[st.trump] if st.trump >= 0 else None,
        "redeal": st.redeal_reason,
        "next_dealer": next_dealer(st),
        "next_redeals": next_redeals,
        "next_passing": dict(next_passing) if next_passing else None,
    }


def deal_end(st: SatatState) -> dict[str, JSON]:
    """The ``deal_end`` event's fields: the result with the trick count that decided it
    (SAT-9, SAT-10) or the redeal's rule (SAT-5.4, SAT-6.3)."""
    res = st.result()
    score, outcome = res["score"], res["outcome"]
    if outcome == "redeal":
        rule = "SAT-5.4" if res["redeal"] == "no_pictures" else "SAT-6.3"
        why = None
        parts = [component("redeal", list(score), reason=res["redeal"], rule=rule)]
    else:
        w = res["won_by"]
        op, target, rule = {
            "win": (">=", 7, "SAT-9.1"),
            "7-0": ("=", 7, "SAT-9.2"),
            "13-0": ("=", 13, "SAT-9.3"),
        }[outcome]
        why = reason(f"team {w}", w, "tricks", res["tricks"][w], op, target, rule)
        parts = [component("deal", list(score), outcome=outcome, rule="SAT-10")]
    return {
        "result": res,
        "score": list(score),
        "outcome": outcome,
        "reason": why,
        "components": parts,
        "points_from": None,
    }


# --- SAT-3 the first dealer ---------------------------------------------------------------


def draw_value(c: Card) -> int:
    """SAT-3.1: K highest … 2, then A lowest; suits do not count."""
    r = c % 13
    return 0 if r == 0 else 13 - r


def new_draw(rng: random.Random) -> list[list[str | None]]:
    """SAT-3.1–SAT-3.3: draw cards until one seat has the unique highest."""
    rounds: list[list[str | None]] = []
    seats = [0, 1, 2, 3]
    while True:
        cards = rng.sample(range(52), len(seats))
        row: list[str | None] = [None] * 4
        for s, c in zip(seats, cards, strict=True):
            row[s] = CARD_NAMES[c]
        rounds.append(row)
        best = max(draw_value(c) for c in cards)
        seats = [s for s, c in zip(seats, cards, strict=True) if draw_value(c) == best]
        if len(seats) == 1:
            return rounds


def check_draw(raw: Any) -> list[list[str | None]]:
    """SAT-3.4: a record's ``draw`` in canonical notation, or MalformedRecord."""
    if not isinstance(raw, list) or not raw:
        raise MalformedRecord("'draw' must be a non-empty list of rounds (SAT-3.4)")
    expect = [0, 1, 2, 3]
    out: list[list[str | None]] = []
    for i, rnd in enumerate(raw):
        if len(expect) == 1:
            raise MalformedRecord(f"'draw' round {i + 1} follows a unique highest draw (SAT-3.4)")
        if not isinstance(rnd, list) or len(rnd) != 4:
            raise MalformedRecord(
                f"'draw' round {i + 1} must list 4 entries, one per seat (SAT-3.4)"
            )
        row, vals = _draw_round(i + 1, rnd, expect)
        out.append(row)
        best = max(vals.values())
        expect = [s for s in vals if vals[s] == best]
    if len(expect) != 1:
        raise MalformedRecord("'draw' must end with a unique highest draw (SAT-3.3, SAT-3.4)")
    return out


def _draw_round(
    number: int, rnd: list[Any], expect: list[int]
) -> tuple[list[str | None], dict[int, int]]:
    """One round of a ``draw``: a card for each seat of ``expect``, ``null`` elsewhere, no
    card twice (SAT-3.4); the round in canonical notation and each drawing seat's value."""
    row: list[str | None] = []
    vals: dict[int, int] = {}
    for s, item in enumerate(rnd):
        if item is None:
            if s in expect:
                raise MalformedRecord(f"'draw' round {number}: seat {s} must draw (SAT-3.4)")
            row.append(None)
            continue
        if s not in expect:
            raise MalformedRecord(f"'draw' round {number}: seat {s} does not draw again (SAT-3.4)")
        try:
            c = parse_card(item) if isinstance(item, str) else -1
        except CardError:
            c = -1
        if c < 0:
            raise MalformedRecord(
                f"'draw' round {number}: {json_repr(item)} is not a card (SAT-3.4)"
            )
        if CARD_NAMES[c] in row:
            raise MalformedRecord(f"'draw' round {number}: {CARD_NAMES[c]} drawn twice (SAT-3.4)")
        row.append(CARD_NAMES[c])
        vals[s] = draw_value(c)
    return row, vals


def first_dealer(draw: Sequence[Sequence[Any]]) -> int:
    """SAT-3.2: the first dealer sits on the right of the highest draw of the last round."""
    last = draw[-1]
    top = max(
        (s for s in range(4) if last[s] is not None),
        key=lambda s: draw_value(parse_card(last[s])),
    )
    return (top + 3) % 4


# --- SAT-13 the match ---------------------------------------------------------------------


def start_match(match_keys: Mapping[str, Any]) -> MatchState:
    """A match before its first deal: the dealer from the draw if there is one (SAT-3.2),
    nothing carried yet (SAT-4.6), no deal counted."""
    next_deal = first_dealer(match_keys["draw"]) if "draw" in match_keys else None
    return MatchState(
        totals=[0, 0],
        next_dealer=next_deal,
        carry={"redeals": 0, "passing": None},
        extra={"sevens": [0, 0], "thirteens": [0, 0]},
    )


def count_deal(match: MatchState, deal: DealState) -> MatchState:
    """SAT-12 and SAT-13: count the deal, carry dealer, redeals and passing."""
    res = deal.result()
    totals = [match.totals[i] + res["score"][i] for i in range(2)]
    sevens = list(match.extra.get("sevens", [0, 0]))
    thirteens = list(match.extra.get("thirteens", [0, 0]))
    if res["outcome"] == "7-0":
        sevens[res["won_by"]] += 1
    elif res["outcome"] == "13-0":
        thirteens[res["won_by"]] += 1
    target = deal.variant["match_target"]
    winner = None
    if target > 0:  # SAT-13.3
        winner = next((t for t in range(2) if totals[t] >= target), None)
    return MatchState(
        totals=totals,
        next_dealer=res["next_dealer"],
        carry={"redeals": res["next_redeals"], "passing": res["next_passing"]},
        over=winner is not None,
        winner=winner,
        draw=False,
        deals=match.deals + 1,
        extra={"sevens": sevens, "thirteens": thirteens},
    )
