"""Structured events: what happened in a deal, as data a client can narrate.

Every state change of a deal yields :class:`Event` values (``kind`` and JSON-ready
``data``): a bid, a trump named, cards passed, a card played, a trick won, the deal's
score with its breakdown. :meth:`DealState.events` lists them as the referee knows them;
:meth:`DealState.events_for` lists them as one viewer — a seat, or :data:`SPECTATOR` —
may see them: a card passed face down is there with ``"cards": None``, a private step
that others must not learn of (Satat's partner passing in ``propose``) is not there at
all. A viewer's list only ever grows at its end, so a client can keep a count and ask for
``events_for(viewer, since=count)``.

Events are computed lazily, from the deal's set-up and history (each game replays its
deal once per call), so recording them costs the hot path nothing.

Kinds and their fields are :data:`EVENT_FIELDS` (``docs/engine.md`` explains each):
every event of a kind has exactly these keys, ``None`` where a field does not apply.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

JSON = Any

EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("dealer",),
    "cut": ("seat", "method", "face_up"),
    "table": ("cards",),
    "bid": ("seat", "action", "value"),
    "call": ("seat", "call"),
    "trump": ("seat", "suit", "how", "card", "position", "value"),
    "contract": ("declarer", "mode", "bid", "contract", "trump", "called", "partner"),
    "pass_chosen": ("seat", "to", "count", "cards"),
    "pass_cards": ("from", "to", "count", "cards"),
    "partner": ("seat", "card"),
    "ask": ("seat", "ask", "suit"),
    "answer": ("seat", "answer"),
    "play": ("seat", "card", "take", "signal"),
    "capture": ("seat", "side", "card", "cards"),
    "sweep": ("seat", "side", "sweeps"),
    "leftover": ("seat", "side", "cards"),
    "trick": ("number", "leader", "cards", "winner", "side", "points", "bonus"),
    "deal_end": ("result", "score", "outcome", "reason", "components", "points_from"),
}
"""Every event kind with the keys of its ``data``, in order."""


@dataclass(frozen=True)
class Event:
    """One thing that happened, as a viewer sees it: ``kind`` and ``data`` (JSON-ready)."""

    kind: str
    data: Mapping[str, JSON]

    def to_dict(self) -> dict[str, JSON]:
        """``{"kind": …, **data}``, a fresh JSON-ready dict."""
        return {"kind": self.kind, **_copy(self.data)}


def _copy(value: JSON) -> JSON:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


@dataclass(frozen=True)
class Told:
    """An event as the referee knows it, with who may see what of it.

    ``seen_by`` None: everyone sees the whole event. Otherwise the seats in ``seen_by``
    see it whole and every other viewer (spectators included) sees ``data`` with the keys
    of ``others`` replaced — or, when ``others`` is None, does not see the event at all.
    """

    kind: str
    data: Mapping[str, JSON]
    seen_by: frozenset[int] | None = None
    others: Mapping[str, JSON] | None = None

    def full(self) -> Event:
        """The whole event (the referee's view)."""
        return Event(self.kind, self.data)

    def seen(self, viewer: int) -> Event | None:
        """The event as ``viewer`` (a seat or SPECTATOR) sees it; None if it does not."""
        if self.seen_by is None or viewer in self.seen_by:
            return Event(self.kind, self.data)
        if self.others is None:
            return None
        return Event(self.kind, {**self.data, **self.others})


def _data(kind: str, fields: Mapping[str, JSON]) -> dict[str, JSON]:
    keys = EVENT_FIELDS[kind]
    unknown = set(fields) - set(keys)
    if unknown:
        raise KeyError(f"event {kind!r} has no field {sorted(unknown)[0]!r}")
    return {k: fields.get(k) for k in keys}


def public(kind: str, **fields: JSON) -> Told:
    """An event everyone sees whole (missing fields are None)."""
    return Told(kind, _data(kind, fields))


def private(kind: str, seen_by: Iterable[int], hidden: Mapping[str, JSON], **fields: JSON) -> Told:
    """An event whose ``hidden`` keys only ``seen_by`` see; others see those keys replaced
    by the values of ``hidden`` (``{"cards": None}``)."""
    return Told(kind, _data(kind, fields), frozenset(seen_by), dict(hidden))


def secret(kind: str, seen_by: Iterable[int], **fields: JSON) -> Told:
    """An event only ``seen_by`` see at all."""
    return Told(kind, _data(kind, fields), frozenset(seen_by), None)


def reason(
    who: str,
    side: int | None,
    measure: str,
    value: int,
    op: str,
    target: int,
    rule: str,
) -> dict[str, JSON]:
    """A deal's deciding comparison as data, with its English line:
    ``{"who": "declarers", "side": 1, "measure": "points", "value": 52, "op": "<",
    "target": 61, "rule": "SAS-13.4", "text": "declarers 52 < 61"}``."""
    return {
        "who": who,
        "side": side,
        "measure": measure,
        "value": value,
        "op": op,
        "target": target,
        "rule": rule,
        "text": f"{who} {value} {op} {target}",
    }


def component(name: str, points: list[int], **details: JSON) -> dict[str, JSON]:
    """One part of a deal's score: ``points`` per side (they sum to the score) and the
    facts that earned them."""
    return {"name": name, "points": list(points), **details}


def only(side: int, value: int, sides: int) -> list[int]:
    """A per-side list with ``value`` at ``side`` and 0 elsewhere."""
    out = [0] * sides
    out[side] = value
    return out
