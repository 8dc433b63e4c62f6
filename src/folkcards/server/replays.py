"""Step-by-step views of recorded deals, for the replay viewer.

:func:`replay_frames` replays a deal or match record through the engine and returns,
for every deal and every point of it, each seat's observation (so the viewer can
show one seat's view, or all hands open once the deal is over), and the deal's events as
a spectator — the public viewer — sees them (``events_for(SPECTATOR)``, what the live
table's spectators are sent): the deal's list once, and at each point how many of them had
happened (a viewer's events only grow at their end), so the viewer narrates each step as
the live table does ("Seat 2 wins the trick, +21", "Scopa!", a trump named).
"""

from __future__ import annotations

import json
from typing import Any

from folkcards.engine.api import SPECTATOR, DealState, FolkcardsError
from folkcards.engine.records import RecordError, load_match, play_actions, start_deal
from folkcards.games import GAMES

MAX_STEPS = 5000
"""Points of one deal at most."""
MAX_RECORD_DEALS = 1000
"""Deals of a record at most (the web table's ``max_deals`` cap)."""
MAX_ANSWER_STEPS = 2000
"""Points (of every deal together) one answer holds at most: a longer record is asked for
one deal at a time (``deal=k``)."""
MAX_ANSWER_BYTES = 8 * 1024 * 1024
"""An answer's JSON size at most."""
MAX_NARRATED_STEPS = 400
"""Points of a deal at most for which each step's count of events is computed (the engine
replays the deal for each count, so the cost grows with the square of a deal's length; the
longest deals of the five games have well under 100 actions). A longer deal is shown with
its events but no count per step."""


class ReplayError(ValueError):
    """A record that cannot be shown (malformed, illegal action, unknown game)."""


class ReplayTooLarge(ReplayError):
    """A record (or its answer) past the caps."""


def public_events(state: DealState) -> list[Any] | None:
    """The deal's events so far as a spectator sees them, or None for a game that does not
    narrate its deals."""
    try:
        return state.events_for(SPECTATOR)
    except NotImplementedError:
        return None


def _frames_of(game: Any, deal_obj: dict[str, Any], variant: Any, in_match: bool) -> dict[str, Any]:
    state, actions = start_deal(game, deal_obj, variant, in_match=in_match)
    n = state.num_seats
    steps: list[dict[str, Any]] = []
    narrated = public_events(state) is not None and len(actions) < MAX_NARRATED_STEPS

    def snap() -> None:
        views = []
        for s in range(n):
            d = state.observation(s).to_dict()
            last = d["history"][-1] if d["history"] else None
            del d["history"], d["actors"]
            d["last"] = last
            views.append(d)
        told = public_events(state) if narrated else None
        steps.append(
            {
                "k": len(state.history),
                "to_act": state.to_act,
                "actor": state.actors[-1] if state.actors else None,
                "views": views,
                "events": len(told) if told is not None else None,
            }
        )

    snap()
    for i, text in enumerate(actions):
        if len(steps) > MAX_STEPS:
            raise ReplayError("the record is too long to show")
        if not isinstance(text, str):
            raise ReplayError(f"action {i} is not a text")
        try:
            state.apply(text)
        except FolkcardsError as exc:
            raise ReplayError(f"action {i} ({text!r}): {exc}") from None
        snap()
    rec = state.record()
    events = public_events(state)
    return {
        "dealer": state.dealer,
        "num_seats": n,
        "actions": rec["actions"],
        "actors": list(state.actors),
        "over": state.is_over,
        "result": state.result() if state.is_over else None,
        "steps": steps,
        "events": [e.to_dict() for e in events] if events is not None else None,
    }


def _points(deal_obj: object) -> int:
    actions = deal_obj.get("actions") if isinstance(deal_obj, dict) else None
    return (len(actions) if isinstance(actions, list) else 0) + 1


def _check_size(record: dict[str, Any], deal: int | None) -> None:
    deals_raw = record.get("deals")
    if not isinstance(deals_raw, list):
        if deal not in (None, 0):
            raise ReplayError("a deal record has one deal: deal=0")
        points = _points(record)
        if points > MAX_STEPS:
            raise ReplayTooLarge(f"the record is too long to show (over {MAX_STEPS} actions)")
        return
    if len(deals_raw) > MAX_RECORD_DEALS:
        raise ReplayTooLarge(
            f"the record has {len(deals_raw)} deals; at most {MAX_RECORD_DEALS} can be shown"
        )
    if deal is not None:
        if not 0 <= deal < len(deals_raw):
            raise ReplayError(f"deal must be 0–{len(deals_raw) - 1} for this record")
        if _points(deals_raw[deal]) > MAX_STEPS:
            raise ReplayTooLarge(f"deal {deal} is too long to show (over {MAX_STEPS} actions)")
        return
    points = sum(_points(d) for d in deals_raw)
    if points > MAX_ANSWER_STEPS:
        raise ReplayTooLarge(
            f"the record has {len(deals_raw)} deals and {points} points to show, more than "
            f"{MAX_ANSWER_STEPS} in one answer: ask for one deal at a time (deal=k, "
            f"0–{len(deals_raw) - 1})"
        )


def replay_frames(record: object, deal: int | None = None) -> dict[str, Any]:
    """Every deal of a deal or match record (or only deal ``deal`` of it) as a list of
    per-seat views, within the caps (:class:`ReplayTooLarge` past them). The answer says
    how many deals the record has (``num_deals``) and which one it holds (``deal``)."""
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object")
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise ReplayError(f"unknown game (known: {', '.join(GAMES)})")
    game = GAMES[name]
    _check_size(record, deal)
    try:
        if "deals" in record:
            rep = load_match(record)  # validates the whole match first
            deals_raw = record["deals"]
            chosen = deals_raw if deal is None else [deals_raw[deal]]
            deals = [_frames_of(game, d, rep.variant, True) for d in chosen]
            totals = list(rep.match.totals) if rep.match is not None else None
            variant = dict(rep.variant)
            num_deals = len(deals_raw)
        else:
            variant = game.normalize_variant(record.get("variant", {}))
            state, actions = start_deal(game, record)
            play_actions(state, actions)
            deals = [_frames_of(game, record, None, False)]
            totals = None
            num_deals = 1
    except RecordError as exc:
        where = f" (deal {exc.deal}" if exc.deal is not None else ""
        if exc.index is not None:
            where += f"{', ' if where else ' ('}action {exc.index}"
        raise ReplayError(f"{exc}{where + ')' if where else ''}") from None
    except FolkcardsError as exc:
        raise ReplayError(str(exc)) from None
    return {
        "game": game.name,
        "variant": variant,
        "deals": deals,
        "totals": totals,
        "num_deals": num_deals,
        "deal": deal,
    }


def replay_text(
    record: object, deal: int | None = None, extra: dict[str, Any] | None = None
) -> str:
    """:func:`replay_frames` (plus ``extra`` keys) as JSON text of at most
    :data:`MAX_ANSWER_BYTES` (serialized once, where it is computed)."""
    out = replay_frames(record, deal)
    out.update(extra or {})
    text = json.dumps(out, separators=(",", ":"))
    if len(text) > MAX_ANSWER_BYTES:
        raise ReplayTooLarge(
            f"the answer would be {len(text) // 1024} KiB, over {MAX_ANSWER_BYTES // 1024} "
            "KiB: ask for one deal at a time (deal=k)"
        )
    return text
