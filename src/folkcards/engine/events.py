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
deal once per call), so recording them costs the hot path nothing. A client that wants
every viewer's events after every action (the web table) keeps a :class:`Narration` per
deal instead: the deal is narrated once per position for all its viewers and each
viewer's list is extended by its new events, as JSON text.

Kinds and their fields are :data:`EVENT_FIELDS` (``docs/engine.md`` explains each):
every event of a kind has exactly these keys, ``None`` where a field does not apply.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from folkcards.engine.actions import Action
    from folkcards.engine.api import DealState

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


class Told(NamedTuple):
    """An event as the referee knows it, with who may see what of it.

    ``seen_by`` None: everyone sees the whole event. Otherwise the seats in ``seen_by``
    see it whole and every other viewer (spectators included) sees ``data`` with the keys
    of ``others`` replaced — or, when ``others`` is None, does not see the event at all.

    (A named tuple: immutable, compared by its fields, and made in a fraction of a frozen
    dataclass's time — a deal's narration makes one per event, each time it is narrated.)
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
        return self.hidden()

    def hidden(self) -> Event | None:
        """The event as a viewer outside ``seen_by`` sees it (None: not at all)."""
        if self.others is None:
            return None
        return Event(self.kind, {**self.data, **self.others})


class Narrator(Protocol):
    """A deal's narration extended action by action, which a game may offer (its states'
    ``_narrator()``) so that a :class:`Narration` need not replay the deal from its set-up
    at every position. ``extend(actions, actors)`` applies the actions in order to the
    narrator's own copy of the deal and returns their events — the first call the deal's
    opening events too, the call that ends the deal its ``deal_end`` — so that all the
    calls' events put together are, at every position, the deal's ``_narrate()``."""

    def extend(self, actions: Sequence[Action], actors: Sequence[int]) -> list[Told]:
        """The events of the next ``actions`` (by ``actors``), in order."""
        ...


class Narration:
    """One deal's events kept up to date as it is played, as JSON text, for any number of
    viewers at once.

    :meth:`DealState.events_for` narrates the whole deal on every call (each game replays
    it from its set-up), so a server sending every viewer its events after every action
    would replay the deal once per viewer per action and serialize every event again. A
    Narration narrates the deal once per new position (``deal._narrate()``, shared by
    every viewer), serializes each new event once per way it can be seen (whole, and as
    the others see it), and extends each viewer's list from where it stopped, so that at
    every point (:func:`event_text` of each event)::

        narration.texts_for(viewer, since) == [event_text(e) for e in deal.events_for(viewer, since)]

    It keeps texts and small integers only, not the events. It relies on the contract that
    the referee's list only grows at its end; should a new narration not extend the last
    one, every viewer's list is rebuilt from it (``restarts`` counts those times). When the
    deal's game offers a :class:`Narrator` (``deal._narrator()``), the deal is not narrated
    again at each position: only the new actions are, by the narrator.
    """

    def __init__(self, deal: DealState) -> None:
        from folkcards.engine.api import SPECTATOR  # here: the API module refers to this one

        self.deal = deal
        self.spectator = SPECTATOR
        self.narrated = 0
        """How many times the deal was narrated (once per position asked about)."""
        self.restarts = 0
        """How many times a narration did not extend the last one (so every viewer's
        list was rebuilt): 0, by the contract."""
        self._at = -1
        self._count = 0
        self._last: Told | None = None
        self._seen: list[int] = []
        """Per event: a bit per viewer (``1 << (viewer - SPECTATOR)``) that sees it whole,
        or -1 when everyone does."""
        self._whole: list[str] = []
        self._others: list[str | None] = []
        """Per event: what the viewers not in ``_seen`` see of it (None: nothing)."""
        self._lists: dict[int, list[str]] = {}
        self._upto: dict[int, int] = {}
        make = getattr(deal, "_narrator", None)
        self.narrator: Narrator | None = make() if callable(make) else None
        """The game's step-by-step narration of the deal, if it offers one."""

    def texts_for(self, viewer: int, since: int = 0) -> list[str]:
        """The events ``viewer`` (a seat, or SPECTATOR) may see now, after its first
        ``since``, each as :func:`event_text`: ``deal.events_for(viewer, since)``, without
        narrating the deal again when it has not moved since the last call."""
        deal = self.deal
        if viewer != self.spectator and not (type(viewer) is int and 0 <= viewer < deal.num_seats):
            raise ValueError(f"no viewer {viewer!r}: a seat 0–{deal.num_seats - 1} or SPECTATOR")
        self.update()
        mine = self._lists.get(viewer)
        if mine is None:
            mine = self._lists[viewer] = []
        bit = 1 << (viewer - self.spectator)
        seen, whole, others = self._seen, self._whole, self._others
        for i in range(self._upto.get(viewer, 0), self._count):
            if seen[i] < 0 or seen[i] & bit:
                mine.append(whole[i])
            else:
                other = others[i]
                if other is not None:
                    mine.append(other)
        self._upto[viewer] = self._count
        return mine[since:] if since else list(mine)

    def update(self) -> None:
        """Narrate the deal if it moved since the last narration (each viewer's list is
        extended when it is next asked for)."""
        deal = self.deal
        at = len(deal.history)
        if at == self._at:
            return
        self.narrated += 1
        if self.narrator is not None:
            done = max(self._at, 0)
            self._add(self.narrator.extend(deal.history[done:at], deal.actors[done:at]))
            self._at = at
            return
        told = deal._narrate()
        k = self._count
        if len(told) < k or (k and told[k - 1] != self._last):
            # not an extension of the last narration (never, by the contract): start over
            self.restarts += 1
            for kept in (self._lists, self._upto):
                kept.clear()
            for per_event in (self._seen, self._whole, self._others):
                per_event.clear()
            self._count = 0
        self._add(told[self._count :])
        self._at = at

    def _add(self, told: Sequence[Told]) -> None:
        """Keep new events: who sees each whole, and its texts."""
        for t in told:
            if t.seen_by is None:
                self._seen.append(-1)
                self._others.append(None)
            else:
                self._seen.append(sum(1 << (v - self.spectator) for v in t.seen_by))
                hidden = t.hidden()
                self._others.append(None if hidden is None else event_text(hidden))
            self._whole.append(event_text(t.full()))
        self._count += len(told)
        if told:
            self._last = told[-1]


def event_text(event: Event) -> str:
    """An event as compact JSON text: ``json.dumps(event.to_dict())`` without spaces,
    non-ASCII characters as they are."""
    return json.dumps(event.to_dict(), separators=(",", ":"), ensure_ascii=False)


_KEYSETS: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in EVENT_FIELDS.items()}
_BLANK: dict[str, dict[str, JSON]] = {k: dict.fromkeys(v) for k, v in EVENT_FIELDS.items()}
"""Per kind: every key in order, None (copied for each event: the cheapest way to start)."""
_told = tuple.__new__


def _data(kind: str, fields: Mapping[str, JSON]) -> dict[str, JSON]:
    data = _BLANK[kind].copy()
    known = len(data)
    data.update(fields)
    if len(data) != known:
        _unknown(kind, fields)
    return data


def _unknown(kind: str, fields: Mapping[str, JSON]) -> None:
    unknown = set(fields) - _KEYSETS[kind]
    raise KeyError(f"event {kind!r} has no field {sorted(unknown)[0]!r}")


def public(kind: str, **fields: JSON) -> Told:
    """An event everyone sees whole (missing fields are None)."""
    # (the hot path of every narration: _data and Told(...) spelled out inline)
    data = _BLANK[kind].copy()
    known = len(data)
    data.update(fields)
    if len(data) != known:
        _unknown(kind, fields)
    return _told(Told, (kind, data, None, None))


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
