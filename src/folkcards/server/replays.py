"""Step-by-step views of recorded deals, for the replay viewer.

:func:`replay_frames` replays a deal or match record through the engine and returns,
for every deal and every point of it, each seat's observation (so the viewer can
show one seat's view, or all hands open once the deal is over).
"""

from __future__ import annotations

from typing import Any

from folkcards.engine.api import FolkcardsError
from folkcards.engine.records import RecordError, load_match, play_actions, start_deal
from folkcards.games import GAMES

MAX_STEPS = 5000


class ReplayError(ValueError):
    """A record that cannot be shown (malformed, illegal action, unknown game)."""


def _frames_of(game: Any, deal_obj: dict[str, Any], variant: Any, in_match: bool) -> dict[str, Any]:
    state, actions = start_deal(game, deal_obj, variant, in_match=in_match)
    n = state.num_seats
    steps: list[dict[str, Any]] = []

    def snap() -> None:
        views = []
        for s in range(n):
            d = state.observation(s).to_dict()
            last = d["history"][-1] if d["history"] else None
            del d["history"], d["actors"]
            d["last"] = last
            views.append(d)
        steps.append(
            {
                "k": len(state.history),
                "to_act": state.to_act,
                "actor": state.actors[-1] if state.actors else None,
                "views": views,
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
    return {
        "dealer": state.dealer,
        "num_seats": n,
        "actions": rec["actions"],
        "actors": list(state.actors),
        "over": state.is_over,
        "result": state.result() if state.is_over else None,
        "steps": steps,
    }


def replay_frames(record: object) -> dict[str, Any]:
    """Every deal of a deal or match record as a list of per-seat views."""
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object")
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise ReplayError(f"unknown game (known: {', '.join(GAMES)})")
    game = GAMES[name]
    try:
        if "deals" in record:
            rep = load_match(record)  # validates the whole match first
            deals_raw = record["deals"]
            deals = [_frames_of(game, d, rep.variant, True) for d in deals_raw]
            totals = list(rep.match.totals) if rep.match is not None else None
            variant = dict(rep.variant)
        else:
            variant = game.normalize_variant(record.get("variant", {}))
            state, actions = start_deal(game, record)
            play_actions(state, actions)
            deals = [_frames_of(game, record, None, False)]
            totals = None
    except RecordError as exc:
        where = f" (deal {exc.deal}" if exc.deal is not None else ""
        if exc.index is not None:
            where += f"{', ' if where else ' ('}action {exc.index}"
        raise ReplayError(f"{exc}{where + ')' if where else ''}") from None
    except FolkcardsError as exc:
        raise ReplayError(str(exc)) from None
    return {"game": game.name, "variant": variant, "deals": deals, "totals": totals}
