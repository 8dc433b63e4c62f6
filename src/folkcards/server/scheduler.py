"""A table's timers: its bots' turns, the turn clock, the pause between deals, the grace
period of an absent player.

The :class:`Scheduler` of a table starts at most one bot turn at a time (one decision in
flight per table); the decision itself is made in a worker process
(:meth:`TableManager.decide <folkcards.server.tables.TableManager.decide>`), so no bot, however
slow, runs on the event loop. While the database is refusing writes nothing is scheduled;
:meth:`resume` starts again once a write succeeds.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING

from folkcards.server.state import TableError

if TYPE_CHECKING:
    from folkcards.server.tables import Table


class Scheduler:
    """Bots, clocks and pauses of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.bot_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        self.clock_deadline: float | None = None
        self.next_task: asyncio.Task[None] | None = None
        self.next_deadline: float | None = None
        self.grace_tasks: dict[int, asyncio.Task[None]] = {}

    # --- the seat to act -------------------------------------------------------------------
    def schedule(self, broadcast: bool = True) -> None:
        """Start the bot or the turn clock for the seat to act, if needed."""
        t = self.table
        if t.closed or t.manager.log.trouble is not None:
            return
        self._cancel_clock()
        deal = t.deal
        if deal is None or deal.is_over:
            return
        seat = deal.to_act
        assert seat is not None
        if t.automated(seat):
            if self.bot_task is None or self.bot_task.done():
                self.bot_task = asyncio.get_running_loop().create_task(
                    self._bot_move(seat, len(deal.history))
                )
        elif t.options.turn_clock:
            self.clock_deadline = time.time() + t.options.turn_clock
            self.clock_task = asyncio.get_running_loop().create_task(
                self._clock_expiry(seat, len(deal.history), t.options.turn_clock)
            )
            if broadcast:
                t.broadcast()

    def resume(self) -> None:
        """Start again after storage trouble: the bot or clock, and a due next deal."""
        t = self.table
        deal = t.deal
        if deal is not None and deal.is_over and t.status != "finished" and self.next_task is None:
            self.schedule_next()
        self.schedule()

    def _cancel_clock(self) -> None:
        if self.clock_task is not None and self.clock_task is not asyncio.current_task():
            self.clock_task.cancel()
        self.clock_task = None
        self.clock_deadline = None

    async def _bot_move(self, seat: int, at: int, *, forced: bool = False) -> None:
        t = self.table
        try:
            if t.options.bot_delay and not forced:
                await asyncio.sleep(t.options.bot_delay)
            deal = t.deal
            if deal is None or deal.is_over or deal.to_act != seat or len(deal.history) != at:
                return
            if not forced and not t.automated(seat):
                return
            obs = deal.observation(seat)
            text = await t.manager.decide(t.id, t.seats[seat].level, obs)
            with contextlib.suppress(TableError):  # the table moved on meanwhile
                await t.act(seat, text, at=at)
        finally:
            if asyncio.current_task() is self.bot_task:
                self.bot_task = None
            if not t.closed:
                self.schedule()

    async def _clock_expiry(self, seat: int, at: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self.clock_task = None
        self.clock_deadline = None
        await self._bot_move(seat, at, forced=True)

    # --- between deals -----------------------------------------------------------------------
    def schedule_next(self) -> None:
        """Deal the next deal after the pause (short when no person is at the table)."""
        t = self.table
        self.cancel_next()
        humans = t.humans_present()
        delay = t.options.deal_pause if humans else min(t.options.deal_pause, 1.5)
        if t.options.bot_delay == 0 and not humans:
            delay = 0
        self.next_deadline = time.time() + delay
        self.next_task = asyncio.get_running_loop().create_task(self._next_after(delay))

    async def _next_after(self, delay: float) -> None:
        t = self.table
        await asyncio.sleep(delay)
        self.next_task = None
        with contextlib.suppress(TableError):
            async with t.lock:
                await t.next_deal_now()
        if t.manager.log.trouble is None:
            self.next_deadline = None
        t.broadcast()
        self.schedule()

    def cancel_next(self) -> None:
        """Forget the pending next deal."""
        task = self.next_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.next_task = None
        self.next_deadline = None

    # --- absent players ------------------------------------------------------------------------
    def start_grace(self, seat: int) -> None:
        """A seat's player left: a bot takes over after the grace period."""
        self.cancel_grace(seat)
        self.grace_tasks[seat] = asyncio.get_running_loop().create_task(self._grace(seat))

    def cancel_grace(self, seat: int) -> None:
        """The seat's player is back."""
        task = self.grace_tasks.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _grace(self, seat: int) -> None:
        await asyncio.sleep(self.table.options.grace)
        self.grace_tasks.pop(seat, None)
        with contextlib.suppress(TableError):
            await self.table.take_over(seat)

    def shutdown(self) -> None:
        """Cancel every timer."""
        for task in (self.bot_task, self.clock_task, self.next_task, *self.grace_tasks.values()):
            if task is not None:
                task.cancel()
        self.grace_tasks.clear()
