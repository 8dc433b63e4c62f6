"""What the web table needs for clubs that come back: pieces for the lead to wire in.

* :func:`game_extras` — extra fields of ``GET /api/games`` per game (the engine's game card,
  the hand order from it, whether the rules guide is served);
* :data:`GUIDE_DIR` — the rules guide package (``folkcards.guide``), served at ``/guide``;
* :class:`SharedRecords` and :func:`record_routes` — ``POST /api/records`` stores an uploaded
  record and answers ``{ok, id}``; ``GET /api/records/{id}`` gives it back, so an uploaded
  replay gets a link (``/replay?record=ID&step=K``);
* :data:`CHAT_PHRASES` and :class:`ChatGate` — preset chat phrases and short free text with
  a per-seat rate limit, as the websocket's ``{type: "chat", phrase | text}``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Float, MetaData, String, Table, Text, insert, select
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from folkcards.server.limits import AddressLimits, TokenBucket
from folkcards.server.replays import ReplayError, replay_frames
from folkcards.server.state import TableError, clean_text

GUIDE_DIR = Path(__file__).resolve().parent.parent / "guide"
"""The rules guide's files (``labels.<lang>.json``, ``<game>.<lang>.md``), served at /guide."""


def game_extras(game: Any) -> dict[str, Any]:
    """Fields of one game in ``/api/games`` that the client reads when present: ``card``
    (the game card of the default variant, ``GameCard.to_dict()``: every per-game fact the
    client draws by), ``variant_cards`` (the card under each one-option variant whose card
    a table draws differently — 3-player Huutopussi, Sasku without the exchange — keyed
    ``option=json`` as ``seats_by_variant`` is), ``hand_orders`` (every card of the pack in
    the order the game's card displays a hand, per trump: key ``""`` before a trump is
    named, else the trump suit letter; from the engine's ``Game.card(variant).
    display_order``) and ``guide`` (whether a rules page of the game is served at /guide)."""
    out: dict[str, Any] = {"guide": any(GUIDE_DIR.glob(f"{game.name}.*.md"))}
    card_of = getattr(game, "card", None)
    if callable(card_of):
        try:
            from folkcards.cards import CARD_NAMES, SUITS

            card = card_of(game.normalize_variant({}))
            out["card"] = card.to_dict()
            out["variant_cards"] = _variant_cards(game, out["card"])
            out["hand_orders"] = {
                (trump or ""): [CARD_NAMES[c] for c in card.display_order(trump)]
                for trump in (None, *SUITS)
            }
        except Exception:  # an engine without these facts yet: the client's fallbacks
            pass
    return out


_SCORE_ONLY = frozenset({"variant", "utility_bounds", "margin_scale", "shaping", "notes"})
"""Card fields no table draws by (a variant that changes only these needs no card of its own)."""


def _variant_cards(game: Any, default: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card of each variant that sets one option to one of its choices (a switch: to
    the other value), where the card differs from ``default`` in a field a table draws by."""
    out: dict[str, dict[str, Any]] = {}
    for o in game.variant_options:
        flip = (not o.default,) if isinstance(o.default, bool) else ()
        for c in o.choices or flip:
            try:
                d = game.card(game.normalize_variant({o.key: c})).to_dict()
            except Exception:  # a choice that needs other options: no card of its own
                continue
            if any(d[k] != default.get(k) for k in d if k not in _SCORE_ONLY):
                out[f"{o.key}={json.dumps(c)}"] = d
    return out


# ---------------------------------------------------------------------- shared replays
MAX_RECORD_BYTES = 512 * 1024
SHARES_PER_MINUTE = 6
READS_PER_MINUTE = 120

_meta = MetaData()
shared_t = Table(
    "shared_records",
    _meta,
    Column("id", String(24), primary_key=True),
    Column("created", Float, nullable=False),
    Column("game", String(32), nullable=False),
    Column("body", Text, nullable=False),
)


class SharedRecords:
    """Uploaded deal and match records kept under a random id (in the server's database)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        _meta.create_all(engine)

    def put(self, record: dict[str, Any]) -> str:
        """Store a record already checked by :func:`replay_frames`; its new id."""
        rid = secrets.token_urlsafe(9)
        with self.engine.begin() as conn:
            conn.execute(
                insert(shared_t).values(
                    id=rid,
                    created=time.time(),
                    game=str(record.get("game", ""))[:32],
                    body=json.dumps(record, separators=(",", ":")),
                )
            )
        return rid

    def get(self, rid: str) -> dict[str, Any] | None:
        """The record stored under ``rid``, or None."""
        if not rid or len(rid) > 24:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(shared_t.c.body).where(shared_t.c.id == rid)).first()
        if row is None:
            return None
        value: dict[str, Any] = json.loads(row[0])
        return value


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": code, "message": message, "rule": None}, status)


def record_routes(
    store: SharedRecords, limits: AddressLimits | None = None, reads: AddressLimits | None = None
) -> list[Route]:
    """The two routes of shared records, for the application's route list: ``limits`` caps
    the uploads per address (:data:`SHARES_PER_MINUTE`), ``reads`` the records read
    (:data:`READS_PER_MINUTE`)."""
    gate = limits or AddressLimits(SHARES_PER_MINUTE, SHARES_PER_MINUTE)
    read_gate = reads or AddressLimits(READS_PER_MINUTE, READS_PER_MINUTE / 4)

    async def share(request: Request) -> Response:
        ip = request.client.host if request.client else "?"
        if not gate.take(ip):
            return _error("rate_limited", "too many shared records; wait a little", 429)
        body = await request.body()
        if len(body) > MAX_RECORD_BYTES:
            return _error("too_large", "record too large", 413)
        try:
            record = json.loads(body)
        except (ValueError, RecursionError):
            return _error("bad_json", "the request body is not JSON", 400)
        try:
            await asyncio.to_thread(replay_frames, record)  # only replayable records are kept
        except ReplayError as exc:
            return _error("bad_record", str(exc), 400)
        rid = await asyncio.to_thread(store.put, record)
        return JSONResponse({"ok": True, "id": rid})

    async def fetch(request: Request) -> Response:
        if not read_gate.take(request.client.host if request.client else "?"):
            return _error("rate_limited", "too many shared records asked for; wait a little", 429)
        rec = await asyncio.to_thread(store.get, request.path_params["rid"])
        if rec is None:
            return _error("not_found", "no such shared record", 404)
        return JSONResponse({"ok": True, "record": rec, "meta": rec.get("meta")})

    return [
        Route("/api/records", share, methods=["POST"]),
        Route("/api/records/{rid}", fetch, methods=["GET"]),
    ]


# ---------------------------------------------------------------------- chat
CHAT_PHRASES = ("hello", "good_game", "well_played", "thanks", "oops", "one_moment", "again")
"""The preset phrases (the client translates them: lang ``chat.<phrase>``)."""
MAX_CHAT_TEXT = 200
"""Characters of one free-text chat line at most (the client escapes it)."""


class ChatGate:
    """Per-seat chat limit: one line every ``every`` seconds, bursts of ``burst``."""

    def __init__(self, every: float = 3.0, burst: float = 3.0) -> None:
        self.every = every
        self.burst = burst
        self.buckets: dict[int, TokenBucket] = {}

    def line(self, seat: int, phrase: object = None, text: object = None) -> dict[str, Any]:
        """The ``chat`` event's data for a preset ``phrase`` or a free ``text`` (printable,
        white space collapsed, 1–:data:`MAX_CHAT_TEXT` characters); TableError
        ``bad_request`` for anything else and ``rate_limited`` when the seat is over its
        limit (nothing is said then)."""
        if phrase is not None:
            if not isinstance(phrase, str) or phrase not in CHAT_PHRASES:
                raise TableError("bad_request", f"phrase must be one of {', '.join(CHAT_PHRASES)}")
            data: dict[str, Any] = {"seat": seat, "phrase": phrase}
        else:
            if not isinstance(text, str):
                raise TableError("bad_request", "chat needs a phrase or a text")
            if len(text) > MAX_CHAT_TEXT:
                raise TableError("too_large", f"a chat line is at most {MAX_CHAT_TEXT} characters")
            clean = clean_text(text, MAX_CHAT_TEXT)
            if not clean:
                raise TableError("bad_request", "an empty chat line")
            data = {"seat": seat, "text": clean}
        bucket = self.buckets.setdefault(seat, TokenBucket(1 / self.every, self.burst))
        if not bucket.take():
            raise TableError("rate_limited", "you are chatting too fast; wait a moment")
        return data

    def message(self, seat: int, phrase: object) -> dict[str, Any] | None:
        """The ``chat`` message for a preset phrase, or None (not a preset, or over the
        limit)."""
        try:
            return {"type": "chat", **self.line(seat, phrase=phrase)}
        except TableError:
            return None


Broadcast = Callable[[dict[str, Any]], None]
