"""Live tables: the authoritative game state, seats, bots, clocks and what each viewer sees.

A :class:`Table` owns one :class:`~folkcards.engine.match.Match`. Every change is first
appended to the event log (:mod:`folkcards.server.storage`) and only then applied and
broadcast, so the log is always at least as far as anything a player was told. A
table is rebuilt from its events by :meth:`Table.restore`.

Each connection receives only its seat's ``observation(seat)``; spectators receive the
engine's ``public_observation()``. Every field of a frame is computed per viewer from what
that viewer may know (who acted last, whose clock runs), and a viewer whose view did not
change is sent nothing, so the moment of another seat's private step (Satat's ``silent``
and ``pass``, SAT-19.1) shows in no frame.

Shuffles come from the operating system's secure source (:data:`SHUFFLER`), one fresh deck
per deal: the decks are in the event log, so a restored table needs no seed and never deals
a deck again. Public draws (Satat's first-dealer draw) are drawn from the same source, which
keeps no state that one draw could reveal about another.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import DealState, FolkcardsError, Game, IllegalAction, Observation
from folkcards.engine.match import Match
from folkcards.games import GAMES
from folkcards.server import botbridge
from folkcards.server.storage import Event, EventLog

MAX_NAME = 32
MAX_TITLE = 80

SHUFFLER: random.Random = secrets.SystemRandom()
"""Every live table's randomness: deck shuffles, public draws, bot and hint seeds."""


class TableError(Exception):
    """A request the table refuses; ``code`` is a stable machine word for clients."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, trimmed, at most MAX_NAME characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]
    return text or fallback


@dataclass
class TableOptions:
    """How a table runs, beyond the game's variant."""

    mode: str = "match"  # "match" (until the game's end) or "deal" (one deal)
    turn_clock: float | None = None  # seconds per action for humans; None = no clock
    grace: float = 30.0  # seconds before a bot takes over a disconnected seat
    bot_delay: float = 0.7  # seconds a bot waits before acting (lets people follow)
    deal_pause: float = 12.0  # seconds between deals unless every human is ready

    @classmethod
    def parse(cls, raw: object) -> TableOptions:
        """Options from a client request; TableError for a bad value."""
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise TableError("bad_request", "options must be an object")
        o = cls()
        mode = raw.get("mode", "match")
        if mode not in ("match", "deal"):
            raise TableError("bad_request", "mode must be 'match' or 'deal'")
        o.mode = mode
        clock = raw.get("turn_clock")
        if clock is not None:
            if (
                not isinstance(clock, int | float)
                or isinstance(clock, bool)
                or not 1 <= clock <= 600
            ):
                raise TableError("bad_request", "turn_clock must be 1–600 seconds or null")
            o.turn_clock = float(clock)
        for key, lo, hi in (("grace", 0, 3600), ("bot_delay", 0, 5), ("deal_pause", 0, 120)):
            if key in raw:
                v = raw[key]
                if not isinstance(v, int | float) or isinstance(v, bool) or not lo <= v <= hi:
                    raise TableError("bad_request", f"{key} must be a number {lo}–{hi}")
                setattr(o, key, float(v))
        return o

    def to_dict(self) -> dict[str, Any]:
        """JSON form (stored in the create event)."""
        return {
            "mode": self.mode,
            "turn_clock": self.turn_clock,
            "grace": self.grace,
            "bot_delay": self.bot_delay,
            "deal_pause": self.deal_pause,
        }


@dataclass
class Seat:
    """One seat: a bot, an open human seat, or a claimed human seat."""

    kind: str  # "human" or "bot"
    level: str  # bot level (also the level that plays for an absent human)
    name: str = ""
    token_hash: str | None = None
    conns: set[Connection] = field(default_factory=set)
    away_since: float | None = None
    takeover: bool = False
    ready: bool = False
    grace_task: asyncio.Task[None] | None = None

    @property
    def automated(self) -> bool:
        """True when a bot acts for this seat now."""
        return self.kind == "bot" or self.takeover

    @property
    def claimed(self) -> bool:
        """True for a bot or a human seat somebody has taken."""
        return self.kind == "bot" or self.token_hash is not None


class Connection:
    """One websocket viewer: sends are queued so a slow client never blocks a table."""

    MAX_QUEUE = 512

    def __init__(
        self, send: Callable[[str], Awaitable[None]], close: Callable[[], Awaitable[None]]
    ) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None
        self.task = asyncio.get_running_loop().create_task(self._pump())
        self.closed = False
        self.last_key: str | None = None
        """The key of the last state frame sent (see :meth:`Table.frame`)."""

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
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await self._close()
                    return
                await self._send(text)
        except Exception:  # the socket went away; the reader side cleans up
            self.closed = True

    def stop(self) -> None:
        """End the sender task."""
        self.closed = True
        self.task.cancel()


def _dumps(obj: Any) -> str:
    """Compact JSON text of a message."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Table:
    """One table: its match, seats, connections and timers."""

    def __init__(
        self,
        manager: TableManager,
        table_id: str,
        game: Game,
        variant: dict[str, Any],
        seats: list[Seat],
        options: TableOptions,
        title: str,
        first_dealer: int,
        match_keys: dict[str, Any],
    ) -> None:
        self.manager = manager
        self.id = table_id
        self.game = game
        self.variant = variant
        self.seats = seats
        self.options = options
        self.title = title
        self.match = Match(game, variant, rng=SHUFFLER, dealer=first_dealer, match_keys=match_keys)
        self.first_dealer = first_dealer
        self.seq = 0
        self.lock = asyncio.Lock()
        self.spectators: set[Connection] = set()
        self.status = "open"
        self.bots: dict[int, botbridge.SeatBot] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        self.clock_deadline: float | None = None
        self.next_task: asyncio.Task[None] | None = None
        self.next_deadline: float | None = None
        self.results: list[dict[str, Any]] = []
        self.closed = False
        self.actions_applied = 0
        self._committing = 0
        self.hinted: dict[int, float] = {}
        self.watched_at = time.monotonic()
        """When a viewer was last attached (creation and restore count as watched)."""
        self.creator: str | None = None
        """The address that created the table (for the per-address cap; not stored)."""
        self._seen: dict[int | None, tuple[str, float]] = {}
        """Per viewer (seat, or None for spectators): the key of its view and since when."""

    # --- facts -------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        """Seats at this table."""
        return len(self.seats)

    @property
    def deal(self) -> DealState | None:
        """The current (or last) deal state, or None before the first deal."""
        return self.match.deals[-1] if self.match.deals else None

    def summary(self) -> dict[str, Any]:
        """The lobby's view of the table."""
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.title,
            "status": self.status,
            "variant": self.game.variant_diff(self.variant),
            "mode": self.options.mode,
            "turn_clock": self.options.turn_clock,
            "seats": [
                {
                    "kind": s.kind,
                    "level": s.level if s.kind == "bot" else None,
                    "name": s.name if s.claimed else None,
                    "open": s.kind == "human" and s.token_hash is None,
                }
                for s in self.seats
            ],
            "deals": len(self.match.deals),
            "totals": list(self.match.state.totals),
        }

    def open_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is None]

    def seat_of_token(self, token: object) -> int | None:
        """The seat whose secret token this is, or None."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    # --- event log ----------------------------------------------------------------------
    async def _log(self, kind: str, data: dict[str, Any]) -> None:
        seq = self.seq
        self.seq += 1
        await self.manager.log.append(self.id, seq, kind, data, (self.status, self.summary()))

    def _apply_event(self, ev: Event) -> None:
        """Apply one stored event to the in-memory table (used for live changes and restore)."""
        d = ev.data
        if ev.kind == "join":
            seat = self.seats[d["seat"]]
            seat.name = d["name"]
            seat.token_hash = d["token_hash"]
        elif ev.kind == "fill":
            seat = self.seats[d["seat"]]
            seat.kind = "bot"
            seat.level = d["level"]
            seat.name = d["name"]
        elif ev.kind == "deal":
            self.match.new_deal(list(d["deck"]))
            self.status = "playing"
            for s in self.seats:
                s.ready = False
        elif ev.kind == "act":
            deal = self.deal
            assert deal is not None and deal.to_act == d["seat"]
            deal.apply(d["action"])
            self.actions_applied += 1
            if deal.is_over:
                self.match.finish_deal()
                self._record_result()
        elif ev.kind == "end":
            self.status = "finished"
        self.seq = ev.seq + 1

    def _record_result(self) -> None:
        deal = self.match.deals[-1]
        res = dict(deal.result())
        self.results.append(
            {"deal": len(self.match.deals) - 1, "dealer": deal.dealer, "result": res}
        )
        if self.match.is_over or self.options.mode == "deal":
            self.status = "finished"

    async def _commit(self, kind: str, data: dict[str, Any]) -> None:
        """Apply an event and log it; nobody is told of it before the log has it.

        The event is applied in memory first only so that the lobby row written in the
        same transaction describes the table after it; broadcasts are held back until
        the commit is done (the order that makes the server SIGKILL-safe).
        """
        seq = self.seq
        self._committing += 1
        try:
            self._apply_event(Event(seq, kind, data, time.time()))
            # the lobby row changes only when seats, status or the deal count change
            row = (self.status, self.summary()) if kind != "act" else None
            await self.manager.log.append(self.id, seq, kind, data, row)
        except Exception:
            # the in-memory table may be ahead of the log: close it; a restart
            # rebuilds it from what was stored.
            self.closed = True
            raise
        finally:
            self._committing -= 1

    # --- joining ------------------------------------------------------------------------
    async def join(self, name: object, seat: object = None) -> tuple[int, str]:
        """Claim an open human seat (a given one or the first); returns (seat, token)."""
        async with self.lock:
            if self.status == "finished":
                raise TableError("finished", "this table has finished")
            free = self.open_seats()
            if not free:
                raise TableError("full", "no open seat at this table")
            if seat is None:
                s = free[0]
            elif isinstance(seat, int) and not isinstance(seat, bool) and seat in free:
                s = seat
            else:
                raise TableError("seat_taken", "that seat is not open")
            token = secrets.token_urlsafe(18)
            nm = clean_name(name, f"Player {s + 1}")
            await self._commit("join", {"seat": s, "name": nm, "token_hash": hash_token(token)})
            await self._maybe_start()
        self.schedule(broadcast=False)
        self.broadcast()
        return s, token

    async def fill_with_bots(self) -> None:
        """Seat a bot in every open human seat and start (the host's "start now")."""
        async with self.lock:
            if self.status != "open":
                raise TableError("started", "this table has already started")
            for s in self.open_seats():
                level = botbridge.default_level()
                await self._commit("fill", {"seat": s, "level": level, "name": bot_name(level, s)})
            await self._maybe_start()
        self.schedule(broadcast=False)
        self.broadcast()

    async def _maybe_start(self) -> None:
        if self.status == "open" and not self.open_seats() and not self.match.deals:
            await self._start_deal()

    async def _start_deal(self) -> None:
        deck = list(iter_cards(self.game.deck))
        SHUFFLER.shuffle(deck)
        await self._commit("deal", {"deck": deck})
        self._cancel_next()

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

        ``acknowledge`` is called once the action is stored, before any viewer is sent the
        state that shows it (the protocol's order: ``ack``, then ``state``)."""
        if not isinstance(text, str) or len(text) > 100:
            raise TableError("bad_request", "an action is a short text")
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
            await self._commit("act", {"seat": seat, "action": action.text})
            if acknowledge is not None:
                acknowledge()
            if self.deal is not None and self.deal.is_over:
                if self.status == "finished":
                    await self._commit("end", {"reason": "over"})
                    self.manager.retire_later(self)
                else:
                    self._schedule_next()
        self.schedule(broadcast=False)
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

    HINT_EVERY = 1.0
    """Seconds between two hints for one seat (a hint runs the search bot)."""

    async def hint(self, seat: int) -> str:
        """The strongest bot's suggestion for ``seat`` (only when it is to act)."""
        deal = self.deal
        if deal is None or deal.is_over or deal.to_act != seat:
            raise TableError("not_your_turn", "a hint is given only on your turn")
        now = time.monotonic()
        if now - self.hinted.get(seat, -1e9) < self.HINT_EVERY:
            raise TableError("rate_limited", "one hint at a time, please")
        self.hinted[seat] = now
        obs = deal.observation(seat)
        return await asyncio.to_thread(botbridge.hint, obs, SHUFFLER.randrange(1 << 30))

    async def ready(self, seat: int) -> None:
        """A player is ready for the next deal; it starts when every present human is."""
        self.seats[seat].ready = True
        async with self.lock:
            if self._all_ready():
                await self._next_deal_now()
        self.broadcast()
        self.schedule()

    def _all_ready(self) -> bool:
        return all(s.ready or s.automated or not s.conns for s in self.seats)

    async def _next_deal_now(self) -> None:
        deal = self.deal
        if deal is None or not deal.is_over or self.status == "finished":
            return
        await self._start_deal()

    def _schedule_next(self) -> None:
        self._cancel_next()
        humans_present = any(s.kind == "human" and s.conns and not s.takeover for s in self.seats)
        delay = self.options.deal_pause if humans_present else min(self.options.deal_pause, 1.5)
        if self.options.bot_delay == 0 and not humans_present:
            delay = 0
        self.next_deadline = time.time() + delay
        self.next_task = asyncio.get_running_loop().create_task(self._next_after(delay))

    async def _next_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.next_task = None
        async with self.lock:
            await self._next_deal_now()
        self.next_deadline = None
        self.broadcast()
        self.schedule()

    def _cancel_next(self) -> None:
        task = self.next_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.next_task = None
        self.next_deadline = None

    # --- bots and clocks ----------------------------------------------------------------
    def schedule(self, broadcast: bool = True) -> None:
        """Start the bot or the turn clock for the seat to act, if needed."""
        if self.closed:
            return
        self._cancel_clock()
        deal = self.deal
        if deal is None or deal.is_over:
            return
        seat = deal.to_act
        assert seat is not None
        if self.seats[seat].automated:
            if self.bot_task is None or self.bot_task.done():
                self.bot_task = asyncio.get_running_loop().create_task(
                    self._bot_move(seat, len(deal.history))
                )
        elif self.options.turn_clock:
            self.clock_deadline = time.time() + self.options.turn_clock
            self.clock_task = asyncio.get_running_loop().create_task(
                self._clock_expiry(seat, len(deal.history), self.options.turn_clock)
            )
            if broadcast:
                self.broadcast()

    def _cancel_clock(self) -> None:
        if self.clock_task is not None and self.clock_task is not asyncio.current_task():
            self.clock_task.cancel()
        self.clock_task = None
        self.clock_deadline = None

    def _bot(self, seat: int) -> botbridge.SeatBot:
        s = self.seats[seat]
        bot = self.bots.get(seat)
        if bot is None or bot.level != s.level:
            bot = self.bots[seat] = botbridge.SeatBot(s.level, SHUFFLER.randrange(1 << 62))
        return bot

    async def _bot_move(self, seat: int, at: int, *, forced: bool = False) -> None:
        if self.options.bot_delay and not forced:
            await asyncio.sleep(self.options.bot_delay)
        deal = self.deal
        if deal is None or deal.is_over or deal.to_act != seat or len(deal.history) != at:
            return
        if not forced and not self.seats[seat].automated:
            return
        obs = deal.observation(seat)
        bot = self._bot(seat)
        text = await asyncio.to_thread(bot.choose, obs) if bot.slow else bot.choose(obs)
        try:
            await self.act(seat, text, at=at)
        except TableError:
            pass  # the table moved on meanwhile
        finally:
            if asyncio.current_task() is self.bot_task:
                self.bot_task = None
            self.schedule()

    async def _clock_expiry(self, seat: int, at: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self.clock_task = None
        self.clock_deadline = None
        await self._bot_move(seat, at, forced=True)

    # --- connections --------------------------------------------------------------------
    def attach(self, conn: Connection, seat: int | None) -> None:
        """A viewer arrives (as a seat when it proved the token, else as a spectator)."""
        conn.table = self
        conn.seat = seat
        self.watched_at = time.monotonic()
        if seat is None:
            self.spectators.add(conn)
        else:
            s = self.seats[seat]
            s.conns.add(conn)
            s.away_since = None
            if s.grace_task is not None:
                s.grace_task.cancel()
                s.grace_task = None
            if s.takeover:
                s.takeover = False
        self.schedule(broadcast=False)
        self.broadcast()

    @property
    def watched(self) -> bool:
        """True while any person (a seat's connection or a spectator) is attached."""
        return bool(self.spectators) or any(s.conns for s in self.seats)

    def detach(self, conn: Connection) -> None:
        """A viewer leaves; a seat left empty is handed to a bot after the grace period."""
        self.watched_at = time.monotonic()
        if conn.seat is None:
            self.spectators.discard(conn)
            return
        s = self.seats[conn.seat]
        s.conns.discard(conn)
        if not s.conns and s.kind == "human" and not self.closed:
            s.away_since = time.time()
            s.grace_task = asyncio.get_running_loop().create_task(self._grace(conn.seat))
        self.broadcast()

    async def _grace(self, seat: int) -> None:
        await asyncio.sleep(self.options.grace)
        s = self.seats[seat]
        if not s.conns:
            s.takeover = True
            s.grace_task = None
            self.broadcast()
            self.schedule()
            async with self.lock:
                if self.deal is not None and self.deal.is_over and self._all_ready():
                    await self._next_deal_now()
            self.broadcast()
            self.schedule()

    # --- what viewers see ----------------------------------------------------------------
    def _observation(self, seat: int | None) -> Observation | None:
        """A viewer's observation: its seat's, or the engine's public one for a spectator."""
        deal = self.deal
        if deal is None:
            return None
        return deal.observation(seat) if seat is not None else deal.public_observation()

    def _table_facts(self) -> dict[str, Any]:
        """The public facts of the table that every viewer receives alike."""
        ms = self.match.state
        return {
            "table": {
                "id": self.id,
                "game": self.game.name,
                "title": self.title,
                "status": self.status,
                "variant": dict(self.variant),
                "options": self.options.to_dict(),
                "num_seats": self.num_seats,
            },
            "seats": [
                {
                    "name": s.name or None,
                    "kind": s.kind,
                    "level": s.level,
                    "open": s.kind == "human" and s.token_hash is None,
                    "connected": bool(s.conns) or s.kind == "bot",
                    "auto": s.automated,
                    "ready": s.ready,
                }
                for s in self.seats
            ],
            "deal_no": len(self.match.deals),
            "match": {
                "totals": list(ms.totals),
                "over": ms.over,
                "winner": ms.winner,
                "draw": ms.draw,
                "results": self.results,
            },
        }

    def _clock_seat(self, obs: Observation | None) -> int | None:
        """Whose turn clock this viewer sees running: the seat its observation shows to act,
        when that seat is a person and the table has a clock."""
        if obs is None or obs.to_act is None or not self.options.turn_clock:
            return None
        return None if self.seats[obs.to_act].automated else obs.to_act

    def frame(self, seat: int | None, facts: str | None = None) -> tuple[str, str]:
        """One viewer's state message as JSON text, and its key: the message without its
        running times, equal for two frames that tell the viewer the same things.

        Every field comes from the viewer's own observation or from public table facts.
        The clock runs from the moment this viewer's view last changed: while another seat
        takes a private step (SAT-19.1) the others see a later seat to act, and its clock
        must not start at a moment they cannot see."""
        obs = self._observation(seat)
        deal = self.deal
        data = obs.to_dict() if obs is not None else None
        last = (
            {"seat": obs.actors[-1], "n": len(obs.history)}
            if obs is not None and obs.actors
            else None
        )
        reveal = deal.record() if deal is not None and deal.is_over else None
        clock_seat = self._clock_seat(obs)
        if facts is None:
            facts = _dumps(self._table_facts())[1:-1]
        body = (
            f'{{"type":"state","you":{_dumps(seat)},"obs":{_dumps(data)},'
            f'"reveal":{_dumps(reveal)},{facts},"last":{_dumps(last)}'
        )
        key = f"{body},{clock_seat},{self.next_deadline is not None}"
        now = time.time()
        seen = self._seen.get(seat)
        if seen is None or seen[0] != key:
            seen = self._seen[seat] = (key, now)
        clock = None
        if clock_seat is not None and self.options.turn_clock:
            remaining = max(0.0, seen[1] + self.options.turn_clock - now)
            clock = {"seat": clock_seat, "remaining": remaining}
        next_in = max(0.0, self.next_deadline - now) if self.next_deadline else None
        return key, f'{body},"clock":{_dumps(clock)},"next_in":{_dumps(next_in)}}}'

    def view(self, seat: int | None) -> dict[str, Any]:
        """The full state message for one viewer (as a dict)."""
        msg: dict[str, Any] = json.loads(self.frame(seat)[1])
        return msg

    def broadcast(self) -> None:
        """Send every viewer its own view (held back while an event is being committed).

        A viewer whose view is the same as in the last frame it was sent gets no frame, so
        that no frame marks the moment of a step it may not see."""
        if self._committing:
            return
        facts: str | None = None
        viewers: list[tuple[int | None, list[Connection]]] = [
            (i, list(s.conns)) for i, s in enumerate(self.seats) if s.conns
        ]
        if self.spectators:
            viewers.append((None, list(self.spectators)))
        for seat, conns in viewers:
            if facts is None:
                facts = _dumps(self._table_facts())[1:-1]
            key, text = self.frame(seat, facts)
            for c in conns:
                if c.last_key != key:
                    c.last_key = key
                    c.push_text(text)

    def shutdown(self) -> None:
        """Cancel the table's timers and tasks."""
        self.closed = True
        for task in (self.bot_task, self.clock_task, self.next_task):
            if task is not None:
                task.cancel()
        for s in self.seats:
            if s.grace_task is not None:
                s.grace_task.cancel()


def bot_name(level: str, seat: int) -> str:
    """A bot's display name."""
    return f"Bot {seat + 1}"


def _rule_of(message: str) -> str | None:
    """The rule ID cited at the end of an engine message ("… (SAS-10.3)")."""
    if message.endswith(")") and "(" in message:
        inner = message[message.rindex("(") + 1 : -1]
        if "-" in inner and " " not in inner and len(inner) <= 20:
            return inner
    return None


class TableManager:
    """Every live table of a server, created from the lobby or restored from the log."""

    MAX_LIVE = 2000
    MAX_LIVE_PER_ADDRESS = 20
    """Live tables one address may have created (since this server started)."""

    def __init__(self, log: EventLog, idle_after: float = 900.0) -> None:
        self.log = log
        self.idle_after = idle_after
        """Seconds a live table may go with nobody attached before it ends as abandoned."""
        self.tables: dict[str, Table] = {}
        self._retiring: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def start_sweeping(self) -> None:
        """Start the task that ends abandoned tables (every live table, from creation)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(30.0, max(0.05, self.idle_after / 4)))
            await self.sweep()

    async def sweep(self) -> int:
        """End every live table nobody has watched for ``idle_after`` seconds (an ``end``
        event with reason ``abandoned``): it leaves the lobby and its bots stop. A table
        nobody ever connected to counts from its creation, so tables created and left can
        never fill the live-table cap. Returns how many ended."""
        now = time.monotonic()
        ended = 0
        for t in list(self.tables.values()):
            if t.status == "finished" or t.closed or t.watched:
                continue
            if now - t.watched_at < self.idle_after:
                continue
            async with t.lock:
                if t.status == "finished" or t.watched:
                    continue
                await t._commit("end", {"reason": "abandoned"})
            t.shutdown()
            self.tables.pop(t.id, None)
            ended += 1
        return ended

    async def create(
        self,
        game_name: object,
        variant: object,
        seats: object,
        options: object,
        title: object,
        host_name: object,
        address: str | None = None,
    ) -> tuple[Table, int | None, str | None]:
        """Create a table; the host takes the first human seat. Returns (table, seat, token).

        ``address`` is the creator's client address: it may have at most
        :attr:`MAX_LIVE_PER_ADDRESS` live tables."""
        if not isinstance(game_name, str) or game_name not in GAMES:
            raise TableError("bad_request", f"unknown game (known: {', '.join(GAMES)})")
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
            seat = Seat(kind=raw["kind"], level=level)
            if seat.kind == "bot":
                seat.name = bot_name(level, i)
            seat_objs.append(seat)
        opts = TableOptions.parse(options)
        # public draws, from the secure source like the shuffles (no generator is shared
        # between a draw everyone sees and a deck nobody may predict)
        match_keys = game.new_match_keys(v, SHUFFLER)
        first_dealer = SHUFFLER.randrange(n)
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        ttl = clean_name(title, "") if isinstance(title, str) else ""
        ttl = ttl[:MAX_TITLE]
        create = {
            "game": game.name,
            "variant": game.variant_diff(v),
            "seats": [{"kind": s.kind, "level": s.level, "name": s.name} for s in seat_objs],
            "options": opts.to_dict(),
            "title": ttl,
            "first_dealer": first_dealer,
            "match_keys": match_keys,
        }
        table = self._build(table_id, create)
        table.creator = address
        await asyncio.to_thread(
            self.log.storage.create_table, table_id, game.name, ttl, table.summary()
        )
        await table._log("create", create)
        self.tables[table_id] = table
        host_seat: int | None = None
        token: str | None = None
        if table.open_seats():
            host_seat, token = await table.join(host_name)
        else:
            async with table.lock:
                await table._maybe_start()
            table.schedule()
        return table, host_seat, token

    def _build(self, table_id: str, create: dict[str, Any]) -> Table:
        game = GAMES[create["game"]]
        v = game.normalize_variant(create["variant"])
        seats = [
            Seat(kind=s["kind"], level=s["level"], name=s.get("name", "")) for s in create["seats"]
        ]
        opts = TableOptions.parse(create["options"])
        return Table(
            self,
            table_id,
            game,
            v,
            seats,
            opts,
            create["title"],
            create["first_dealer"],
            create["match_keys"],
        )

    async def restore(self) -> int:
        """Rebuild every unfinished table from the log (at server start); returns how many."""
        storage = self.log.storage
        ids = await asyncio.to_thread(storage.table_ids, ["open", "playing"])
        count = 0
        for tid in ids:
            events = await asyncio.to_thread(storage.events, tid)
            if not events or events[0].kind != "create" or events[0].data["game"] not in GAMES:
                continue
            table = self._build(tid, events[0].data)
            table.seq = 1
            for ev in events[1:]:
                table._apply_event(ev)
            self.tables[tid] = table
            count += 1
            deal = table.deal
            if deal is not None and deal.is_over and table.status != "finished":
                table._schedule_next()
            elif table.status == "finished" and events[-1].kind != "end":
                await table._commit("end", {"reason": "over"})
            # the players were away while the server was down: their seats count as absent
            for i, s in enumerate(table.seats):
                if s.kind == "human" and s.token_hash is not None:
                    s.away_since = time.time()
                    s.grace_task = asyncio.get_running_loop().create_task(table._grace(i))
            table.schedule()
        return count

    async def load_finished(self, table_id: str) -> Table | None:
        """A table that is not live (finished earlier), rebuilt read-only for replays."""
        storage = self.log.storage
        events = await asyncio.to_thread(storage.events, table_id)
        if not events or events[0].kind != "create" or events[0].data["game"] not in GAMES:
            return None
        table = self._build(table_id, events[0].data)
        table.seq = 1
        for ev in events[1:]:
            table._apply_event(ev)
        table.closed = True
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

        self._retiring.add(asyncio.get_running_loop().create_task(retire()))
        self._retiring = {t for t in self._retiring if not t.done()}

    def lobby(self) -> list[dict[str, Any]]:
        """Tables people can join or watch, newest first."""
        out = [t.summary() for t in self.tables.values() if t.status != "finished"]
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
