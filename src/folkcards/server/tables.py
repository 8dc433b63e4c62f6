"""Live tables: a :class:`~folkcards.server.state.TableState`, the people at it, its timers.

A :class:`Table` changes only by committing an event to the log and then applying it to
its state (:meth:`Table._commit`): nothing anybody is shown, and nothing in memory, is ever
ahead of the log. While the database refuses writes (a lock held past the busy timeout, a
full disk) the event log retries with backoff and every viewer is told (an ``error`` frame
``storage`` and ``table.storage: "trouble"`` in the state); the table carries on once a
write succeeds, without a restart.

Each connection receives only its seat's frame (:mod:`folkcards.server.views`); bots and
clocks run from :mod:`folkcards.server.scheduler`, bot decisions in worker processes
(:mod:`folkcards.server.workers`).

Shuffles come from the operating system's secure source (:data:`SHUFFLER`), one fresh deck
per deal: the decks are in the event log, so a restored table needs no seed and never deals
a deck again. Public draws (Satat's first-dealer draw) are drawn from the same source.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import DealState, FolkcardsError, IllegalAction
from folkcards.games import GAMES
from folkcards.server import botbridge
from folkcards.server.club import ChatGate
from folkcards.server.scheduler import Scheduler
from folkcards.server.state import (
    FINAL_KINDS,
    MAX_TITLE,
    CorruptLog,
    SeatState,
    TableError,
    TableOptions,
    TableState,
    clean_name,
    clean_text,
    hash_token,
    required_name,
)
from folkcards.server.storage import EventLog, StorageError
from folkcards.server.views import SeatPresence, Views, dumps
from folkcards.server.workers import WorkerPool

__all__ = [
    "SHUFFLER",
    "Connection",
    "Table",
    "TableError",
    "TableManager",
    "TableOptions",
    "clean_name",
    "hash_token",
]

log = logging.getLogger("folkcards.server")

SHUFFLER: random.Random = secrets.SystemRandom()
"""Every live table's randomness: deck shuffles, public draws, and (through
:class:`Seeds`) bot and hint seeds."""


class Seeds:
    """Seeds for the bots' and hints' randomness from the same secure source as
    :data:`SHUFFLER`, read from the operating system 256 at a time (one system call for
    many decisions, not one each). One per :class:`TableManager`, used on its loop."""

    BATCH = 256

    def __init__(self) -> None:
        self._bytes = b""
        self._at = 0

    def next(self) -> int:
        """A fresh 62-bit seed."""
        if self._at >= len(self._bytes):
            self._bytes, self._at = secrets.token_bytes(8 * self.BATCH), 0
        at = self._at
        self._at = at + 8
        return int.from_bytes(self._bytes[at : at + 8], "little") >> 2


SEND_TIMEOUT = 10.0
"""Seconds one websocket send may take before the connection is dropped."""

FEATURES = ("chat", "leave", "resign", "close", "offer_seat", "again", "invite")
"""What this server's tables support (``state.table.features``): the client shows these
controls only when they are listed."""


class Connection:
    """One websocket viewer: sends are queued so a slow client never blocks a table.

    A client that falls ``MAX_QUEUE`` messages behind, or whose socket accepts nothing for
    ``send_timeout`` seconds, is dropped with ``abort`` (no flush: a client that stopped
    reading could otherwise hold the close forever)."""

    MAX_QUEUE = 512

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        abort: Callable[[], None] | None = None,
        send_timeout: float = SEND_TIMEOUT,
    ) -> None:
        self._send = send
        self._close = close
        self._abort = abort
        self.send_timeout = send_timeout
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None
        self.task = asyncio.get_running_loop().create_task(self._pump())
        self.closed = False
        self.dropped = False
        self.last_key: str | None = None
        """The key of the last state frame sent (see :meth:`Views.frame`)."""
        self.pending: int | None = None
        """The offered seat this spectator claimed: it becomes the seat's at the next deal."""
        self.creator = False
        """True when the connection proved the table creator's token."""

    def push(self, msg: dict[str, Any]) -> None:
        """Queue a message; a client that falls too far behind is disconnected.

        Replies may echo client text, so they are ASCII JSON: a lone surrogate a client
        sent is escaped, never a text the socket cannot encode."""
        self.push_text(json.dumps(msg, separators=(",", ":")))

    def push_text(self, text: str) -> None:
        """Queue a message already serialized as JSON text."""
        if self.closed:
            return
        if self.queue.qsize() >= self.MAX_QUEUE:
            self.drop()
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Disconnect now, without flushing what is queued."""
        if self.dropped:
            return
        self.closed = self.dropped = True
        if self._abort is not None:
            self._abort()
        else:  # no transport to abort: close politely, in the pump
            self.queue.put_nowait(None)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                # (a deadline on this task, not a task per message as wait_for makes)
                async with asyncio.timeout(self.send_timeout):
                    if text is None:
                        await self._close()
                        return
                    await self._send(text)
        except TimeoutError:
            self.closed = True
            if self._abort is not None:
                self._abort()
                self.dropped = True
        except Exception:  # the socket went away; the reader side cleans up
            self.closed = True

    def stop(self) -> None:
        """End the sender task."""
        self.closed = True
        self.task.cancel()


@dataclass
class LiveSeat:
    """What the server knows of a seat beyond its log: who is connected, who plays it."""

    conns: set[Connection] = field(default_factory=set)
    away_since: float | None = None
    takeover: bool = False
    ready: bool = False


def bot_name(level: str, seat: int) -> str:
    """A bot's display name (its level is shown beside it, as ``label`` in the lobby)."""
    return f"Bot {seat + 1}"


def generated_title(host: str, game_title: str) -> str:
    """The title of a table created without one: "Sasku · Anna", or "Sasku" — no English
    grammar around the host's name, which may be in any script (the client isolates it)."""
    return (f"{game_title} · {host}" if host else game_title)[:MAX_TITLE]


def _rule_of(message: str) -> str | None:
    """The rule ID cited at the end of an engine message ("… (SAS-10.3)")."""
    if message.endswith(")") and "(" in message:
        inner = message[message.rindex("(") + 1 : -1]
        if "-" in inner and " " not in inner and len(inner) <= 20:
            return inner
    return None


def _line(exc: BaseException) -> str:
    """The first line of an error's message (a database driver's, when it has one)."""
    orig = getattr(exc, "orig", None)
    lines = str(orig if orig is not None else exc).splitlines()
    return (lines[0] if lines else type(exc).__name__)[:300]


STORAGE_TROUBLE = (
    "the database is not accepting writes just now; the server is retrying "
    "(nothing you did since is lost or shown to anyone before it is stored)"
)


class Table:
    """One live table: its state, the people at it, its scheduler and its frames."""

    def __init__(self, manager: TableManager, state: TableState) -> None:
        self.manager = manager
        self.state = state
        self.id = state.id
        self.live = [LiveSeat() for _ in state.seats]
        self.lock = asyncio.Lock()
        self.spectators: set[Connection] = set()
        self.views = Views()
        self.scheduler = Scheduler(self)
        self.closed = False
        self.hints: dict[int, tuple[tuple[int, int], asyncio.Future[dict[str, Any]]]] = {}
        """Per seat, the position of its last hint and that hint (running or done)."""
        self.watched_at = time.monotonic()
        """When a viewer was last attached (creation and restore count as watched)."""
        self.creator: str | None = None
        """The address that created the table (for the per-address cap; not stored)."""
        self.chat_gate = ChatGate()
        self._facts_cache: tuple[tuple[Any, ...], str] | None = None

    # --- facts -------------------------------------------------------------------------
    @property
    def seats(self) -> list[SeatState]:
        """The seats as the log has them."""
        return self.state.seats

    @property
    def status(self) -> str:
        """open | playing | finished."""
        return self.state.status

    @property
    def options(self) -> TableOptions:
        """The table's options."""
        return self.state.options

    @property
    def match(self) -> Any:
        """The table's match (:class:`~folkcards.engine.match.Match`)."""
        return self.state.match

    @property
    def deal(self) -> DealState | None:
        """The current (or last) deal state, or None before the first deal."""
        return self.state.deal

    @property
    def num_seats(self) -> int:
        """Seats at this table."""
        return self.state.num_seats

    def automated(self, seat: int) -> bool:
        """True when a bot acts for this seat now."""
        return self.seats[seat].kind == "bot" or self.live[seat].takeover

    @property
    def bots_only(self) -> bool:
        """True when no person plays at this table now (every seat a bot or taken over)."""
        return all(self.automated(i) for i in range(self.num_seats))

    def summary(self) -> dict[str, Any]:
        """The lobby's view of the table."""
        return self.state.summary()

    def open_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return self.state.open_seats()

    def seat_of_token(self, token: object) -> int | None:
        """The seat whose secret token this is, or None."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def claim_of_token(self, token: object) -> int | None:
        """The offered seat this token claimed (it is the claimer's from the next deal)."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.claim is not None and secrets.compare_digest(s.claim[1], h):
                return i
        return None

    def is_creator(self, token: object) -> bool:
        """True when ``token`` is the secret of whoever created the table."""
        want = self.state.creator_hash
        if want is None or not isinstance(token, str) or not token or len(token) > 200:
            return False
        return secrets.compare_digest(want, hash_token(token))

    # --- event log ----------------------------------------------------------------------
    async def _commit(
        self, kind: str, data: dict[str, Any], on_commit: Callable[[], None] | None = None
    ) -> None:
        """Log an event, then apply it: nothing in memory or on a screen is ever ahead of
        the log. The lobby row written in the same transaction is computed from the event
        (:meth:`TableState.summary_after`), not from a state changed beforehand.
        ``on_commit`` is called as soon as the event is committed (an acknowledgement)."""
        if self.closed and kind not in FINAL_KINDS:
            raise TableError("closed", "this table is closed")
        if self.state.status == "finished" and kind not in FINAL_KINDS:
            raise TableError("finished", "this table has finished")
        seq = self.state.seq
        row = self.state.summary_after(kind, data)
        try:
            await self.manager.log.append(
                self.id,
                seq,
                kind,
                data,
                (row["status"], row) if row is not None else None,
                on_commit,
            )
        except StorageError as exc:
            raise TableError("storage", f"the event was not stored: {exc}") from None
        self.state.apply(kind, data)

    def _check_storage(self) -> None:
        if self.manager.log.trouble is not None:
            raise TableError("storage", STORAGE_TROUBLE)

    # --- joining ------------------------------------------------------------------------
    async def join(
        self, name: object, seat: object = None, token: str | None = None
    ) -> tuple[int, str]:
        """Take an open human seat (a given one or the first) or, when none is open, a bot
        seat on offer (the ``claim`` event: it is the claimer's from the next deal, and the
        bot plays until then); returns (seat, token). A name is required."""
        nm = required_name(name)
        self._check_storage()
        async with self.lock:
            if self.status == "finished":
                raise TableError("finished", "this table has finished")
            free = self.open_seats()
            kind = "join"
            if not free and self.state.offered_seats():
                free, kind = self.state.offered_seats(), "claim"
            if not free:
                raise TableError("full", "no open seat at this table")
            if seat is None:
                s = free[0]
            elif isinstance(seat, int) and not isinstance(seat, bool) and seat in free:
                s = seat
            else:
                raise TableError("seat_taken", "that seat is not open")
            token = token or secrets.token_urlsafe(18)
            await self._commit(kind, {"seat": s, "name": nm, "token_hash": hash_token(token)})
            await self._maybe_start()
        self.scheduler.schedule(broadcast=False)
        self.broadcast()
        return s, token

    async def fill_with_bots(self) -> None:
        """Seat a bot in every open human seat and start (the host's "start now")."""
        self._check_storage()
        async with self.lock:
            if self.status != "open":
                raise TableError("started", "this table has already started")
            for s in self.open_seats():
                level = botbridge.default_level()
                await self._commit("fill", {"seat": s, "level": level, "name": bot_name(level, s)})
            await self._maybe_start()
        self.scheduler.schedule(broadcast=False)
        self.broadcast()

    async def _maybe_start(self) -> None:
        if self.status == "open" and not self.open_seats() and not self.match.deals:
            await self._start_deal()

    async def _start_deal(self) -> None:
        deck = list(iter_cards(self.state.game.deck))
        SHUFFLER.shuffle(deck)
        claimed = [i for i, s in enumerate(self.seats) if s.claim is not None]
        await self._commit("deal", {"deck": deck})
        for s in self.live:
            s.ready = False
        self.scheduler.cancel_next()
        for i in claimed:  # the claimers' connections now sit at their seats
            lv = self.live[i] = LiveSeat()
            for c in [c for c in self.spectators if c.pending == i]:
                self.spectators.discard(c)
                c.seat, c.pending = i, None
                lv.conns.add(c)
            if not lv.conns:  # away: a bot plays the seat after the grace period
                lv.away_since = time.time()
                self.scheduler.start_grace(i)

    # --- acting -------------------------------------------------------------------------
    async def act(
        self,
        seat: int,
        text: object,
        *,
        expect: int | None = None,
        at: int | None = None,
        acknowledge: Callable[[], None] | None = None,
    ) -> None:
        """Validate and apply ``text`` for ``seat``: logged before it is acknowledged.

        ``acknowledge`` is called as soon as the action is stored — by the event log, in
        the callback that learns of the commit — before any viewer is sent the state that
        shows it (the protocol's order: ``ack``, then ``state``)."""
        if not isinstance(text, str) or len(text) > 100:
            raise TableError("bad_request", "an action is a short text")
        self._check_storage()
        async with self.lock:
            deal = self.deal
            if self.closed:
                raise TableError("closed", "this table is closed")
            if deal is None or deal.is_over:
                raise TableError("no_deal", "no deal is in progress")
            if deal.to_act != seat:
                raise TableError("not_your_turn", "it is not your turn")
            # ``expect`` counts the actions in this seat's own view of the history (a game may
            # leave other seats' private actions out of it)
            stale = at is not None and at != len(deal.history)
            if stale or (
                expect is not None
                and expect != len(deal.history)  # the common case, without an observation
                and expect != len(deal.observation(seat).history)
            ):
                raise TableError("stale", "the table moved on; your view was out of date")
            try:
                action = deal.parse_action(text)
            except IllegalAction as exc:
                raise TableError("illegal", str(exc), exc.rule) from None
            if action not in deal.legal_actions():
                msg = deal.explain_illegal(action)
                raise TableError("illegal", msg, _rule_of(msg))
            await self._commit("act", {"seat": seat, "action": action.text}, acknowledge)
            await self._after_deal()
        self.scheduler.schedule(broadcast=False)
        self.broadcast()

    async def _after_deal(self) -> None:
        """When the deal just ended: end the table (its match is over, or ``max_deals``)
        or schedule the next deal."""
        deal = self.deal
        if deal is None or not deal.is_over or self.status == "finished":
            return
        reason = self.state.should_end
        if reason is not None:
            await self._commit("end", {"reason": reason})
            self.manager.retire_later(self)
        else:
            self.scheduler.schedule_next()

    # --- a table's life -------------------------------------------------------------------
    def _seat_number(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_seats:
            raise TableError("bad_request", f"seat must be a seat number 0–{self.num_seats - 1}")
        return seat

    async def offer(self, seat: object) -> None:
        """Offer a bot's seat to a friend (who takes it by joining: :meth:`join`)."""
        s = self._seat_number(seat)
        self._check_storage()
        async with self.lock:
            if self.seats[s].kind != "bot":
                raise TableError("not_a_bot", "only a bot's seat can be offered")
            if self.seats[s].offered:
                raise TableError("offered", "that seat is already on offer")
            await self._commit("offer", {"seat": s})
        self.broadcast()

    async def leave(self, seat: int) -> None:
        """A player leaves for good: a bot takes the seat at once (the ``leave`` event); the
        player's connections watch on as spectators."""
        self._check_storage()
        async with self.lock:
            if self.seats[seat].kind != "human":
                raise TableError("forbidden", "you do not sit at this table")
            await self._commit("leave", {"seat": seat, "name": bot_name("", seat)})
            old = self.live[seat]
            self.live[seat] = LiveSeat()
            self.scheduler.cancel_grace(seat)
            for c in old.conns:
                c.seat = None
                self.spectators.add(c)
            await self._maybe_start()
        self.scheduler.schedule(broadcast=False)
        self.broadcast()

    async def end_now(self, reason: str, seat: int | None = None) -> None:
        """End the match for everybody: ``resigned`` (by ``seat``) or ``closed`` (by the
        creator). The table leaves the lobby; its bots and clocks stop."""
        self._check_storage()
        async with self.lock:
            data: dict[str, Any] = {"reason": reason}
            if seat is not None:
                data["seat"] = seat
            await self._commit("end", data)
        self.scheduler.shutdown()
        self.manager.retire_later(self)
        self.broadcast()

    async def chat(self, seat: int, phrase: object = None, text: object = None) -> None:
        """A seat says a preset phrase or a short text (rate-limited per seat): a ``chat``
        event, then ``{type: "chat", seat, name, phrase | text}`` to this table's viewers."""
        data = self.chat_gate.line(seat, phrase, text)
        data["name"] = self.seats[seat].name
        self._check_storage()
        async with self.lock:
            await self._commit("chat", data)
        self.tell_all({"type": "chat", **data})

    async def mark_again(self, table_id: str) -> None:
        """Link this finished table to the one "play again" created (the ``again`` event)."""
        await self._commit("again", {"table": table_id})
        self._facts_cache = None
        self.tell_all({"type": "again", "table": table_id})
        self.broadcast()

    def explain(self, seat: int, text: object) -> dict[str, Any]:
        """Why an action would be illegal for ``seat`` now (or that it is legal)."""
        deal = self.deal
        if not isinstance(text, str) or len(text) > 100:
            raise TableError("bad_request", "an action is a short text")
        if deal is None or deal.is_over:
            raise TableError("no_deal", "no deal is in progress")
        if deal.to_act != seat:
            return {"legal": False, "message": "it is not your turn", "rule": None}
        try:
            action = deal.parse_action(text)
        except IllegalAction as exc:
            return {"legal": False, "message": str(exc), "rule": exc.rule}
        if action in deal.legal_actions():
            return {"legal": True, "message": "", "rule": None}
        msg = deal.explain_illegal(action)
        return {"legal": False, "message": msg, "rule": _rule_of(msg)}

    async def hint(self, seat: int) -> dict[str, Any]:
        """The strongest bot's suggestion for ``seat`` (only when it is to act), computed
        in a worker process under the table's budget: ``{"action", "hint"}``, the hint
        as :func:`folkcards.bots.explain_hint` explains it.

        One search per seat and position: asking again at the same turn (a second press,
        a second tab of the same seat) waits for the same answer instead of searching
        again, so a seat's hints cost at most one search per decision it makes. A new
        turn's hint waits only for the previous turn's, if that one is still running."""
        deal = self.deal
        if deal is None or deal.is_over or deal.to_act != seat:
            raise TableError("not_your_turn", "a hint is given only on your turn")
        key = (self.state.actions_applied, len(self.state.results))
        held = self.hints.get(seat)
        if held is not None and held[0] == key:
            return dict(await asyncio.shield(held[1]))
        if held is not None and not held[1].done():
            raise TableError("rate_limited", "the hint for your last turn is still running")
        task = asyncio.ensure_future(self.manager.hint(self.id, deal.observation(seat)))
        # its failure is read here even when every asker has gone (no "never retrieved")
        task.add_done_callback(lambda t: None if t.cancelled() else t.exception())
        self.hints[seat] = (key, task)
        try:
            return dict(await asyncio.shield(task))
        except Exception:
            if seat in self.hints and self.hints[seat][1] is task:
                del self.hints[seat]  # a busy pool or a failure: the next ask tries again
            raise

    async def ready(self, seat: int) -> None:
        """A player is ready for the next deal; it starts when every present human is."""
        self.live[seat].ready = True
        async with self.lock:
            if self._all_ready():
                await self.next_deal_now()
        self.broadcast()
        self.scheduler.schedule()

    def _all_ready(self) -> bool:
        return all(lv.ready or self.automated(i) or not lv.conns for i, lv in enumerate(self.live))

    def humans_present(self) -> bool:
        """True when a person sits at the table now (connected, not taken over)."""
        return any(
            s.kind == "human" and lv.conns and not lv.takeover
            for s, lv in zip(self.seats, self.live, strict=True)
        )

    async def next_deal_now(self) -> None:
        """Deal the next deal if the last one is over (call with the lock held)."""
        deal = self.deal
        if deal is None or not deal.is_over or self.status == "finished":
            return
        if self.manager.log.trouble is not None:
            return
        await self._start_deal()

    async def take_over(self, seat: int) -> None:
        """The grace period of an absent player ran out: a bot plays the seat."""
        if self.live[seat].conns or self.seats[seat].kind != "human":
            return
        self.live[seat].takeover = True
        self.broadcast()
        self.scheduler.schedule()
        async with self.lock:
            if self.deal is not None and self.deal.is_over and self._all_ready():
                await self.next_deal_now()
        self.broadcast()
        self.scheduler.schedule()

    # --- connections --------------------------------------------------------------------
    def attach(self, conn: Connection, seat: int | None, pending: int | None = None) -> None:
        """A viewer arrives (as a seat when it proved the token, else as a spectator;
        ``pending``: the offered seat it claimed, its own from the next deal)."""
        conn.table = self
        conn.seat = seat
        conn.pending = pending if seat is None else None
        self.watched_at = time.monotonic()
        if seat is None:
            self.spectators.add(conn)
            # a spectator changes nothing anybody else sees: only the newcomer needs a frame
            self._send_to([(None, [conn])])
            return
        lv = self.live[seat]
        lv.conns.add(conn)
        lv.away_since = None
        self.scheduler.cancel_grace(seat)
        lv.takeover = False
        self.scheduler.schedule(broadcast=False)
        self.broadcast()

    @property
    def watched(self) -> bool:
        """True while any person (a seat's connection or a spectator) is attached."""
        return bool(self.spectators) or any(lv.conns for lv in self.live)

    def detach(self, conn: Connection) -> None:
        """A viewer leaves; a seat left empty is handed to a bot after the grace period."""
        self.watched_at = time.monotonic()
        if conn.seat is None:
            self.spectators.discard(conn)
            return
        lv = self.live[conn.seat]
        lv.conns.discard(conn)
        if not lv.conns and self.seats[conn.seat].kind == "human" and not self.closed:
            lv.away_since = time.time()
            self.scheduler.start_grace(conn.seat)
        self.broadcast()

    # --- what viewers see ----------------------------------------------------------------
    def _presence(self) -> list[SeatPresence]:
        return [
            SeatPresence(bool(lv.conns), self.automated(i), lv.ready)
            for i, lv in enumerate(self.live)
        ]

    def _facts_text(self) -> str:
        """The public facts serialized; reused while nothing in them changed (an action in
        the middle of a deal changes none of them)."""
        storage = "trouble" if self.manager.log.trouble is not None else "ok"
        presence = self._presence()
        st = self.state
        key = (
            st.status,
            st.ended,
            len(st.match.deals),
            len(st.results),
            storage,
            tuple((p.connected, p.auto, p.ready) for p in presence),
            tuple((s.kind, s.name, s.token_hash is None, s.offered, s.claim) for s in st.seats),
            st.again,
        )
        if self._facts_cache is None or self._facts_cache[0] != key:
            facts = Views.facts(st, presence, storage)
            self._club_facts(facts)
            self._facts_cache = (key, dumps(facts)[1:-1])
        return self._facts_cache[1]

    def _club_facts(self, facts: dict[str, Any]) -> None:
        """The table's life in its public facts: what the server supports, seats on offer
        (and the name of whoever takes one at the next deal), the next match."""
        st = self.state
        facts["table"].update(
            features=list(FEATURES), again=st.again, previous=st.previous, resigned=st.resigned
        )
        for seat, s in zip(facts["seats"], st.seats, strict=True):
            seat["offered"] = s.offered and s.claim is None
            seat["incoming"] = s.claim[0] if s.claim is not None else None

    def _clock_for(self) -> list[bool]:
        clock = bool(self.options.turn_clock)
        return [clock and not self.automated(i) for i in range(self.num_seats)]

    def frame(self, seat: int | None, facts: str | None = None) -> tuple[str, str]:
        """One viewer's state message as JSON text, and its key (:meth:`Views.frame`)."""
        return self.views.frame(
            self.state,
            seat,
            facts if facts is not None else self._facts_text(),
            clock_for=self._clock_for(),
            next_deadline=self.scheduler.next_deadline,
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """The full state message for one viewer (as a dict)."""
        msg: dict[str, Any] = json.loads(self.frame(seat)[1])
        return msg

    def broadcast(self) -> None:
        """Send every viewer its own view; a viewer whose view is the same as in the last
        frame it was sent gets no frame, so no frame marks a step it may not see. The
        spectators' frame is built and serialized once for all of them."""
        viewers: list[tuple[int | None, list[Connection]]] = [
            (i, list(lv.conns)) for i, lv in enumerate(self.live) if lv.conns
        ]
        if self.spectators:
            viewers.append((None, list(self.spectators)))
        self._send_to(viewers)

    def _send_to(self, viewers: list[tuple[int | None, list[Connection]]]) -> None:
        if not viewers:
            return
        facts = self._facts_text()
        clock_for = self._clock_for()
        for seat, conns in viewers:
            key, text = self.views.frame(
                self.state,
                seat,
                facts,
                clock_for=clock_for,
                next_deadline=self.scheduler.next_deadline,
            )
            for c in conns:
                if c.last_key != key:
                    c.last_key = key
                    c.push_text(text)

    def tell_all(self, msg: dict[str, Any]) -> None:
        """Send one message to every viewer of the table."""
        text = json.dumps(msg, separators=(",", ":"))
        for lv in self.live:
            for c in lv.conns:
                c.push_text(text)
        for c in self.spectators:
            c.push_text(text)

    def shutdown(self) -> None:
        """Cancel the table's timers and tasks."""
        self.closed = True
        self.scheduler.shutdown()


class TableManager:
    """Every live table of a server, created from the lobby or restored from the log."""

    MAX_LIVE = 2000
    MAX_LIVE_PER_ADDRESS = 20
    """Live tables one address may have created (since this server started)."""
    FINISHED_CACHE = 32
    """Finished tables kept rebuilt (an LRU): asked for again, they are not rebuilt."""

    def __init__(
        self,
        log: EventLog,
        idle_after: float = 900.0,
        *,
        bots_idle_after: float = 60.0,
        min_bot_delay: float = 0.0,
        pool: WorkerPool | None = None,
    ) -> None:
        self.log = log
        self.idle_after = idle_after
        """Seconds a live table may go with nobody attached before it ends as abandoned."""
        self.bots_idle_after = bots_idle_after
        """The same for a table where only bots play: it ends soon."""
        self.min_bot_delay = min_bot_delay
        self.pool = pool if pool is not None else WorkerPool()
        self.tables: dict[str, Table] = {}
        self.quarantined: dict[str, str] = {}
        """Tables whose log could not be restored, and why (they are not served)."""
        self.finished: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.rebuilds = 0
        """Finished tables rebuilt from the log (each once while it stays cached)."""
        self._retiring: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.seeds = Seeds()
        """Bot and hint seeds (the secure source, in batches)."""
        self.inline_decisions: Counter[str] = Counter()
        """Bot decisions made on the event loop, per level asked (only ``random``, or a job
        the saturated pool refused, which gets a random action)."""
        log.on_trouble = self._storage_changed

    # --- bots -----------------------------------------------------------------------------
    async def decide(self, table_id: str, level: str, obs: Any) -> str:
        """A bot's (or, for ``level="hint"``, the hint's) action for ``obs``, computed in a
        worker process under the table's and the server's budgets. The ``random`` level is
        a single draw and stays on the loop."""
        from folkcards.server import workers

        seed = self.seeds.next()
        if level == "random":
            self.inline_decisions[level] += 1
            return str(obs.legal[random.Random(seed).randrange(len(obs.legal))])
        try:
            if level == "hint":
                return str((await self.hint(table_id, obs))["action"])
            out = await self.pool.run(table_id, workers.decide, level, obs, seed)
        except workers.PoolBusy:
            self.inline_decisions[level] += 1
            return str(obs.legal[random.Random(seed).randrange(len(obs.legal))])
        return str(out)

    async def hint(self, table_id: str, obs: Any) -> dict[str, Any]:
        """The hint for ``obs`` (the seat to act's view), computed in a worker process
        under the table's and the server's budgets: ``{"action", "hint"}``."""
        from folkcards.server import workers

        seed = self.seeds.next()
        try:
            out = await self.pool.run(table_id, workers.hint, obs, seed)
        except workers.PoolBusy:
            raise TableError("busy", "the bots are busy; ask again in a moment") from None
        return dict(out)

    # --- storage trouble ------------------------------------------------------------------
    def _storage_changed(self, trouble: str | None) -> None:
        if trouble is not None:
            log.error("storage trouble: %s", trouble)
        else:
            log.warning("storage recovered")
        for t in list(self.tables.values()):
            if trouble is not None:
                t.tell_all({"type": "error", "error": "storage", "message": STORAGE_TROUBLE})
            t.broadcast()
            if trouble is None:
                t.scheduler.resume()

    # --- sweeping -------------------------------------------------------------------------
    def start_sweeping(self) -> None:
        """Start the task that ends abandoned tables (every live table, from creation)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            shortest = min(self.idle_after, self.bots_idle_after)
            await asyncio.sleep(min(30.0, max(0.05, shortest / 4)))
            with contextlib.suppress(Exception):
                await self.sweep()

    async def sweep(self) -> int:
        """End every live table nobody has watched for ``idle_after`` seconds, or for
        ``bots_idle_after`` when only bots play at it (an ``end`` event with reason
        ``abandoned``): it leaves the lobby and its bots stop. A table nobody ever
        connected to counts from its creation, so tables created and left can never fill
        the live-table cap. Returns how many ended."""
        if self.log.trouble is not None:
            return 0  # nothing can be stored now; the next sweep tries again
        now = time.monotonic()
        ended = 0
        for t in list(self.tables.values()):
            if t.status == "finished" or t.closed or t.watched:
                continue
            limit = min(self.bots_idle_after, self.idle_after) if t.bots_only else self.idle_after
            if now - t.watched_at < limit:
                continue
            try:
                async with t.lock:
                    if t.status == "finished" or t.watched:
                        continue
                    await t._commit("end", {"reason": "abandoned"})
            except TableError:
                continue  # storage trouble: the next sweep tries again
            t.shutdown()
            self.tables.pop(t.id, None)
            self.pool.forget(t.id)
            ended += 1
        return ended

    # --- creating and restoring -------------------------------------------------------------
    async def create(
        self,
        game_name: object,
        variant: object,
        seats: object,
        options: object,
        title: object,
        host_name: object,
        address: str | None = None,
        *,
        reserved: dict[int, tuple[str, str]] | None = None,
        creator_hash: str | None = None,
        previous: str | None = None,
    ) -> tuple[Table, int | None, str]:
        """Create a table; the host takes the first human seat (a name is then required).
        Returns (table, seat, token): the token is the host's seat token, which is also the
        creator's (it may offer seats and close the table); at a table of bots only, it is
        the creator's token alone and the seat is None.

        ``address`` is the creator's client address: it may have at most
        :attr:`MAX_LIVE_PER_ADDRESS` live tables. ``reserved`` (play again) seats the
        people of the previous match by their token hashes: seat -> (name, token hash)."""
        if not isinstance(game_name, str) or game_name not in GAMES:
            raise TableError("bad_request", f"unknown game (known: {', '.join(GAMES)})")
        if self.log.trouble is not None:
            raise TableError("storage", STORAGE_TROUBLE)
        live = [t for t in self.tables.values() if t.status != "finished"]
        if len(live) >= self.MAX_LIVE:
            raise TableError("busy", "the server has too many live tables; try later")
        if address is not None:
            mine = sum(1 for t in live if t.creator == address)
            if mine >= self.MAX_LIVE_PER_ADDRESS:
                raise TableError(
                    "rate_limited",
                    f"you have {mine} live tables; finish or leave one before creating more",
                )
        game = GAMES[game_name]
        try:
            v = game.normalize_variant(variant if variant is not None else {})
        except FolkcardsError as exc:
            raise TableError("bad_request", str(exc)) from None
        n = game.num_seats(v)
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot"}] * (n - 1)
        if not isinstance(seats, list) or len(seats) != n:
            raise TableError("bad_request", f"{game.title} with these options has {n} seats")
        levels = botbridge.levels()
        seat_objs = []
        for i, raw in enumerate(seats):
            if not isinstance(raw, dict) or raw.get("kind") not in ("human", "bot"):
                raise TableError("bad_request", "each seat is {kind: human|bot, level}")
            level = raw.get("level", botbridge.default_level())
            if level not in levels:
                raise TableError("bad_request", f"bot level must be one of {', '.join(levels)}")
            seat = SeatState(kind=raw["kind"], level=level)
            if seat.kind == "bot":
                seat.name = bot_name(level, i)
            elif reserved and i in reserved:
                seat.name, seat.token_hash = reserved[i]
            seat_objs.append(seat)
        host = any(s.open for s in seat_objs)
        host_nm = required_name(host_name) if host else clean_name(host_name, "")
        opts = TableOptions.parse(options, self.min_bot_delay)
        # public draws, from the secure source like the shuffles (no generator is shared
        # between a draw everyone sees and a deck nobody may predict)
        match_keys = game.new_match_keys(v, SHUFFLER)
        first_dealer = SHUFFLER.randrange(n)
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        ttl = clean_text(title, MAX_TITLE) or generated_title(host_nm, game.title)
        token = secrets.token_urlsafe(18)
        create: dict[str, Any] = {
            "game": game.name,
            "variant": game.variant_diff(v),
            "seats": [
                {"kind": s.kind, "level": s.level, "name": s.name}
                | ({"token_hash": s.token_hash} if s.token_hash is not None else {})
                for s in seat_objs
            ],
            "options": opts.to_dict(),
            "title": ttl,
            "first_dealer": first_dealer,
            "match_keys": match_keys,
            "creator_hash": creator_hash or hash_token(token),
        }
        if previous is not None:
            create["previous"] = previous
        table = Table(self, TableState.from_create(table_id, create))
        table.creator = address
        try:
            await asyncio.to_thread(
                self.log.storage.create_table, table_id, game.name, ttl, table.summary()
            )
            await self.log.append(table_id, 0, "create", create)
        except Exception as exc:
            raise TableError("storage", f"the table was not stored: {exc}") from None
        self.tables[table_id] = table
        host_seat: int | None = None
        for i, s in enumerate(table.seats):  # reserved seats: away until their people come
            if s.kind == "human" and s.token_hash is not None:
                table.live[i].away_since = time.time()
                table.scheduler.start_grace(i)
        if table.open_seats():
            host_seat, token = await table.join(host_nm, token=token)
        else:
            async with table.lock:
                await table._maybe_start()
            table.scheduler.schedule()
        return table, host_seat, token

    async def again(self, old: Table, token: object, address: str | None = None) -> Table:
        """Play again: a new table with ``old``'s game, variant, options, title and seats,
        its people seated by the tokens they already hold (they open the new table with
        them), its bots the same levels. Asked again (by anyone of the table), the same
        new table. Only once the old table has finished; only a seated player or the
        creator may ask."""
        if old.seat_of_token(token) is None and not old.is_creator(token):
            raise TableError("forbidden", "only a player of this table can ask to play again")
        if old.status != "finished":
            raise TableError("not_over", "play again is offered once the match has ended")
        async with old.lock:
            if old.state.again is not None:
                nxt = self.tables.get(old.state.again)
                if nxt is not None:
                    return nxt
                raise TableError("finished", "the next match of this table has finished too")
            st = old.state
            seats: list[dict[str, Any]] = []
            reserved: dict[int, tuple[str, str]] = {}
            for i, s in enumerate(st.seats):
                seats.append({"kind": s.kind, "level": s.level})
                if s.kind == "human" and s.token_hash is not None:
                    reserved[i] = (s.name, s.token_hash)
            opts = st.options.to_dict()
            new, _, _ = await self.create(
                st.game.name,
                st.game.variant_diff(st.variant),
                seats,
                opts,
                st.title,
                None,
                address,
                reserved=reserved,
                creator_hash=st.creator_hash,
                previous=old.id,
            )
            await old.mark_again(new.id)
        return new

    async def restore(self) -> int:
        """Rebuild every unfinished table from the log (at server start); returns how many.

        Each table is restored on its own: one whose log cannot be read or replayed is
        quarantined (logged, its row marked ``quarantined`` with the reason) and the others
        are served."""
        storage = self.log.storage
        ids = await asyncio.to_thread(storage.table_ids, ["open", "playing"])
        count = 0
        for tid in ids:
            try:
                events = await asyncio.to_thread(storage.events, tid)
                state = TableState.from_events(tid, events)
            except (CorruptLog, Exception) as exc:
                reason = str(exc) if isinstance(exc, CorruptLog) else f"unreadable: {_line(exc)}"
                await self._quarantine(tid, reason)
                continue
            # the server's floor holds for tables stored before it was raised
            state.options.bot_delay = max(state.options.bot_delay, self.min_bot_delay)
            table = Table(self, state)
            self.tables[tid] = table
            count += 1
            deal = table.deal
            if state.should_end is not None:
                with contextlib.suppress(TableError):
                    await table._commit("end", {"reason": state.should_end})
                self.retire_later(table)
                continue
            if deal is not None and deal.is_over:
                table.scheduler.schedule_next()
            # the players were away while the server was down: their seats count as absent
            for i, s in enumerate(table.seats):
                if s.kind == "human" and s.token_hash is not None:
                    table.live[i].away_since = time.time()
                    table.scheduler.start_grace(i)
            table.scheduler.schedule()
        return count

    async def _quarantine(self, tid: str, reason: str) -> None:
        log.error("table %s quarantined: %s", tid, reason)
        self.quarantined[tid] = reason
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.log.storage.quarantine, tid, reason)

    # --- finished tables ------------------------------------------------------------------
    async def load_finished(self, table_id: str) -> Table | None:
        """A table that is not live (finished earlier), rebuilt read-only from its log.

        The last :attr:`FINISHED_CACHE` are kept (an LRU), and requests that arrive while
        one is being rebuilt share that rebuild: a finished table is rebuilt once, however
        many ask for it. The replay itself runs in a worker process."""
        t = self.finished.get(table_id)
        if t is not None:
            self.finished.move_to_end(table_id)
            return t
        if table_id in self.quarantined:
            raise TableError(
                "quarantined", f"this table is quarantined: {self.quarantined[table_id]}"
            )
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            table = await self._rebuild(table_id)
            fut.set_result(table)
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: waiters re-raise it
            raise
        finally:
            del self._loading[table_id]
        return table

    async def _rebuild(self, table_id: str) -> Table | None:
        from folkcards.server import workers

        events = await asyncio.to_thread(self.log.storage.events, table_id)
        if not events or events[0].kind != "create":
            return None
        if events[0].data.get("game") not in GAMES:
            return None
        try:
            state = await self.pool.run(f"rebuild:{table_id}", workers.rebuild, table_id, events)
        except CorruptLog as exc:
            raise TableError("quarantined", f"this table's log is damaged: {exc}") from None
        except workers.PoolBusy:
            raise TableError("busy", "the server is busy; try again in a moment") from None
        self.rebuilds += 1
        table = Table(self, state)
        table.closed = True
        self.finished[table_id] = table
        while len(self.finished) > self.FINISHED_CACHE:
            self.finished.popitem(last=False)
        return table

    RETIRE_AFTER = 600.0
    """Seconds a finished table stays in memory (afterwards it is rebuilt from the log on
    demand, for replays and downloads)."""

    def retire_later(self, table: Table) -> None:
        """Drop a finished table from memory after a while, keeping memory bounded."""

        async def retire() -> None:
            await asyncio.sleep(self.RETIRE_AFTER)
            if self.tables.get(table.id) is table and table.status == "finished":
                table.shutdown()
                del self.tables[table.id]
                self.pool.forget(table.id)

        self._retiring.add(asyncio.get_running_loop().create_task(retire()))
        self._retiring = {t for t in self._retiring if not t.done()}

    def lobby(self) -> list[dict[str, Any]]:
        """Tables people can join or watch, newest first."""
        out = [t.summary() for t in self.tables.values() if t.status != "finished" and not t.closed]
        out.reverse()
        return out[:200]

    async def shutdown(self) -> None:
        """Stop every table's timers and flush the log."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for t in self.tables.values():
            t.shutdown()
        for task in self._retiring:
            task.cancel()
        await self.log.close()
