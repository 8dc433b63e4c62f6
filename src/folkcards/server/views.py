"""What each viewer of a table is sent: one ``state`` frame per viewer, as JSON text.

Each seat's frame is built from its own ``observation(seat)``; spectators share one frame
built from the engine's ``public_observation()``, serialized once for all of them. Every
other field comes from that observation or from public table facts, and :class:`Views`
remembers per viewer the key of its last frame (the frame without its running times), so
a viewer whose view did not change is sent nothing: no frame marks the moment of another
seat's private step (SAT-19.1).

A frame also carries the viewer's own events of the current deal (``events``: the
engine's ``events_for(viewer)``, never an event or a card the viewer may not see), from
which the client narrates. They are kept per table (a
:class:`~folkcards.engine.events.Narration`: the deal narrated once per position for all
its viewers, each viewer's events extended by its new ones), as is each viewer's
serialized observation, so a frame is assembled rather than derived again (tested equal
to a frame built afresh, ``tests/server/test_view_caches.py``). :func:`explanation` is the
structured reason (code, params, rules) an action is illegal, for ``explain`` answers and
``illegal`` errors.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from folkcards.engine.api import SPECTATOR, DealState, IllegalAction, Observation
from folkcards.engine.events import Narration
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


EVENTS_MAX = 500
"""The most events one frame carries: a deal's events for one viewer are far fewer (a
Satat deal, the longest, has about 120); a frame carries the last ones and
``events_from``, the index of its first, should a variant ever exceed this."""


def viewer_events(deal: DealState | None, seat: int | None) -> tuple[int, list[Any]]:
    """The current deal's events as ``seat`` (None: a spectator) may see them, as JSON
    data: (index of the first one sent, the events), at most :data:`EVENTS_MAX`. Derived
    afresh from the deal (the frames use :class:`Views`' incremental copy of the same)."""
    if deal is None:
        return 0, []
    events = deal.events_for(SPECTATOR if seat is None else seat)
    start = max(0, len(events) - EVENTS_MAX)
    return start, [e.to_dict() for e in events[start:]]


def explanation(deal: DealState | None, text: str) -> dict[str, Any] | None:
    """Why ``text`` is not legal now in ``deal``, as the engine's structured explanation
    (``{"code", "params", "rules", "text"}``); None when it is legal or there is no deal."""
    if deal is None:
        return None
    try:
        action = deal.parse_action(text)
    except IllegalAction as exc:
        return exc.explanation.to_dict()
    if action in deal.legal_actions():
        return None
    return deal.explain(action).to_dict()


NOT_YOUR_TURN: dict[str, Any] = {
    "code": "not_your_turn",
    "params": {},
    "rules": [],
    "text": "it is not your turn",
}
"""The table's own explanation (no engine code) of an action sent out of turn."""


class Views:
    """The frames of one table's viewers and the key of each viewer's last view.

    What a frame is made of is kept per table and extended, never rebuilt for each frame:

    * the deal's events: one :class:`~folkcards.engine.events.Narration` per deal narrates
      it once per position for every viewer and keeps each viewer's events as JSON texts,
      extended by the new ones only, each event serialized once however many viewers see
      it (a public event once for all of them);
    * each viewer's observation, serialized once per deal position (a frame sent because
      the seats' presence or the clock changed reuses it), and the deal record once it is
      over.

    Every cache is keyed by the deal object and its history length, the only way a deal
    changes (``apply``); a new deal, or another deal object put in its place, starts afresh.
    """

    def __init__(self) -> None:
        self._seen: dict[int | None, tuple[str, float]] = {}
        """Per viewer (seat, or None for spectators): the key of its view and since when."""
        self.built = 0
        """Frames built (each serialized once, however many connections it is sent to)."""
        self.narration: Narration | None = None
        """The current deal's events, shared by its viewers."""
        self._obs: dict[int | None, tuple[DealState, int, tuple[str, str, int | None]]] = {}
        """Per viewer: the deal and history length of its serialized view (observation,
        ``last``, and the seat it sees to act)."""
        self._reveal: tuple[DealState, int, str] | None = None

    def events_text(self, deal: DealState | None, seat: int | None) -> tuple[int, str]:
        """The viewer's events of ``deal`` as (``events_from``, JSON text): exactly
        :func:`viewer_events` serialized, computed incrementally."""
        if deal is None:
            return 0, "[]"
        nar = self.narration
        if nar is None or nar.deal is not deal:
            nar = self.narration = Narration(deal)
        mine = nar.texts_for(SPECTATOR if seat is None else seat)
        start = max(0, len(mine) - EVENTS_MAX)
        return start, "[" + ",".join(mine[start:]) + "]"

    def _view(self, state: TableState, seat: int | None) -> tuple[str, str, int | None]:
        """The viewer's observation and ``last`` as JSON texts, and the seat it sees to
        act: serialized once per deal position."""
        deal = state.deal
        if deal is None:
            return "null", "null", None
        at = len(deal.history)
        cached = self._obs.get(seat)
        if cached is not None and cached[0] is deal and cached[1] == at:
            return cached[2]
        obs = self.observation(state, seat)
        assert obs is not None
        last = {"seat": obs.actors[-1], "n": len(obs.history)} if obs.actors else None
        view = (dumps(obs.to_dict()), dumps(last), obs.to_act)
        self._obs[seat] = (deal, at, view)
        return view

    def _reveal_text(self, deal: DealState | None) -> str:
        """The deal record once the deal is over (``null`` before), serialized once."""
        if deal is None or not deal.is_over:
            return "null"
        at = len(deal.history)
        cached = self._reveal
        if cached is None or cached[0] is not deal or cached[1] != at:
            cached = self._reveal = (deal, at, dumps(deal.record()))
        return cached[2]

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
        deal = state.deal
        obs, last, to_act = self._view(state, seat)
        reveal = self._reveal_text(deal)
        events_from, events = self.events_text(deal, seat)
        clock_seat = to_act if to_act is not None and clock_for[to_act] else None
        body = (
            f'{{"type":"state","you":{dumps(seat)},"obs":{obs},'
            f'"reveal":{reveal},{facts},"last":{last},'
            f'"events_from":{events_from},"events":{events}'
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
