"""What each viewer of a table is sent: one ``state`` frame per viewer, as JSON text.

Each seat's frame is built from its own ``observation(seat)``; spectators share one frame
built from the engine's ``public_observation()``, serialized once for all of them. Every
other field comes from that observation or from public table facts, and :class:`Views`
remembers per viewer the key of its last frame (the frame without its running times), so
a viewer whose view did not change is sent nothing: no frame marks the moment of another
seat's private step (SAT-19.1).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from folkcards.engine.api import Observation
from folkcards.server.state import TableState


def dumps(obj: Any) -> str:
    """Compact JSON text of a message."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class SeatPresence:
    """What the table shows of a seat beyond the log: is somebody there, does a bot play it."""

    connected: bool
    auto: bool
    ready: bool


class Views:
    """The frames of one table's viewers and the key of each viewer's last view."""

    def __init__(self) -> None:
        self._seen: dict[int | None, tuple[str, float]] = {}
        """Per viewer (seat, or None for spectators): the key of its view and since when."""
        self.built = 0
        """Frames built (each serialized once, however many connections it is sent to)."""

    @staticmethod
    def observation(state: TableState, seat: int | None) -> Observation | None:
        """A viewer's observation: its seat's, or the engine's public one for a spectator."""
        deal = state.deal
        if deal is None:
            return None
        return deal.observation(seat) if seat is not None else deal.public_observation()

    @staticmethod
    def facts(
        state: TableState, presence: list[SeatPresence], storage: str = "ok"
    ) -> dict[str, Any]:
        """The public facts of the table that every viewer receives alike."""
        ms = state.match.state
        return {
            "table": {
                "id": state.id,
                "game": state.game.name,
                "title": state.title,
                "status": state.status,
                "ended": state.ended,
                "storage": storage,
                "variant": dict(state.variant),
                "options": state.options.to_dict(),
                "num_seats": state.num_seats,
            },
            "seats": [
                {
                    "name": s.name or None,
                    "kind": s.kind,
                    "level": s.level,
                    "open": s.open,
                    "connected": p.connected or s.kind == "bot",
                    "auto": p.auto,
                    "ready": p.ready,
                }
                for s, p in zip(state.seats, presence, strict=True)
            ],
            "deal_no": len(state.match.deals),
            "match": {
                "totals": list(ms.totals),
                "over": ms.over,
                "winner": ms.winner,
                "draw": ms.draw,
                "results": state.results,
            },
        }

    def frame(
        self,
        state: TableState,
        seat: int | None,
        facts: str,
        *,
        clock_for: list[bool],
        next_deadline: float | None,
    ) -> tuple[str, str]:
        """One viewer's state message as JSON text, and its key: the message without its
        running times, equal for two frames that tell the viewer the same things.

        ``facts`` is :meth:`facts` serialized without its braces; ``clock_for[i]`` says
        whether seat ``i`` runs a turn clock when it is to act (a person at a table with a
        clock). The clock runs from the moment this viewer's view last changed: while
        another seat takes a private step (SAT-19.1) the others see a later seat to act,
        and its clock must not start at a moment they cannot see."""
        self.built += 1
        obs = self.observation(state, seat)
        deal = state.deal
        data = obs.to_dict() if obs is not None else None
        last = (
            {"seat": obs.actors[-1], "n": len(obs.history)}
            if obs is not None and obs.actors
            else None
        )
        reveal = deal.record() if deal is not None and deal.is_over else None
        clock_seat = (
            obs.to_act
            if obs is not None and obs.to_act is not None and clock_for[obs.to_act]
            else None
        )
        body = (
            f'{{"type":"state","you":{dumps(seat)},"obs":{dumps(data)},'
            f'"reveal":{dumps(reveal)},{facts},"last":{dumps(last)}'
        )
        key = f"{body},{clock_seat},{next_deadline is not None}"
        now = time.time()
        seen = self._seen.get(seat)
        if seen is None or seen[0] != key:
            seen = self._seen[seat] = (key, now)
        clock = None
        turn = state.options.turn_clock
        if clock_seat is not None and turn:
            clock = {"seat": clock_seat, "remaining": max(0.0, seen[1] + turn - now)}
        next_in = max(0.0, next_deadline - now) if next_deadline else None
        return key, f'{body},"clock":{dumps(clock)},"next_in":{dumps(next_in)}}}'
