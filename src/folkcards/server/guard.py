"""Connection guards below the application: uvicorn's own protocol classes, slightly extended.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) but sets no deadline on
a request's headers, caps no address, and its ``transport.close()`` waits forever to flush to
a client that stopped reading. :class:`ConnectionGuard` makes two subclasses of uvicorn's
classes (httptools HTTP and websockets-sansio) that:

* close a connection whose request headers are not complete ``header_timeout`` seconds after
  the connection opened (or after the previous response), however slowly bytes trickle in;
* refuse (close at once) a connection from an address that already has
  ``max_per_address`` connections open, HTTP and websocket counted together;
* give the application a way to drop a websocket without flushing
  (``scope["extensions"]["folkcards.abort"]``), used when a send times out or a client's
  queue overflows, and drop instead of flushing when uvicorn's keep-alive ping goes
  unanswered.

Pass ``http=guard.http_protocol(), ws=guard.ws_protocol()`` to ``uvicorn.Config``
(:meth:`ConnectionGuard.uvicorn_options` gives them, with :data:`PER_MESSAGE_DEFLATE`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

ABORT = "folkcards.abort"
"""The scope extension holding a websocket's abort function."""

PER_MESSAGE_DEFLATE = False
"""Whether websockets may compress their messages (permessage-deflate, which every browser
asks for and uvicorn grants by default). Not here: the server would compress every frame
for every connection on its own — a frame is serialized once for all the spectators who
share it, but deflate keeps a context per connection — which at 1,000 tables with one
person each cost about 0.15 ms of the event loop's CPU per action (12–15 % of all it did)
and 50 KiB of memory per connection (``folkcards bench server``; docs/performance.md), and
would cost 2,000 spectators of one table 2,000 compressions per change. The price is bandwidth:
a state frame is 3–8 KB as JSON instead of about a sixth of that, some 4 KB/s for a person
at a table of bots, 30 Mbit/s for 1,000 such people."""


class ConnectionGuard:
    """Per-address connection counts and the header deadline, shared by both protocols."""

    def __init__(self, max_per_address: int = 256, header_timeout: float = 10.0) -> None:
        self.max_per_address = max_per_address
        self.header_timeout = header_timeout
        self.open: Counter[str] = Counter()
        self.refused = 0
        self.timed_out = 0

    def admit(self, transport: Any) -> str | None:
        """Count a new connection; None (and the transport closed) when over the cap."""
        peer = transport.get_extra_info("peername")
        addr = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if self.open[addr] >= self.max_per_address:
            self.refused += 1
            transport.abort()
            return None
        self.open[addr] += 1
        return addr

    def release(self, addr: str | None) -> None:
        """Forget a closed connection."""
        if addr is None:
            return
        self.open[addr] -= 1
        if self.open[addr] <= 0:
            del self.open[addr]

    def http_protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's httptools protocol with the header deadline and the address cap."""
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        guard = self

        class GuardedHttp(HttpToolsProtocol):
            _guard_addr: str | None = None
            _header_timer: asyncio.TimerHandle | None = None
            _upgraded = False

            def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
                self._guard_addr = guard.admit(transport)
                super().connection_made(transport)
                if self._guard_addr is not None:
                    self._arm()

            def _arm(self) -> None:
                self._disarm()
                self._header_timer = self.loop.call_later(guard.header_timeout, self._expire)

            def _disarm(self) -> None:
                if self._header_timer is not None:
                    self._header_timer.cancel()
                    self._header_timer = None

            def _expire(self) -> None:
                self._header_timer = None
                if not self.transport.is_closing():
                    guard.timed_out += 1
                    self.transport.abort()

            def on_message_begin(self) -> None:
                super().on_message_begin()
                if self._header_timer is None:
                    self._arm()

            def on_headers_complete(self) -> None:
                self._disarm()
                super().on_headers_complete()

            def on_message_complete(self) -> None:
                super().on_message_complete()
                self._arm()  # the next request's headers get the same deadline

            def handle_websocket_upgrade(self) -> None:
                self._disarm()
                self._upgraded = True
                # the websocket protocol takes over the transport and its count
                GuardedWs.pending_addr = self._guard_addr
                self._guard_addr = None
                super().handle_websocket_upgrade()

            def connection_lost(self, exc: Exception | None) -> None:
                self._disarm()
                guard.release(self._guard_addr)
                self._guard_addr = None
                super().connection_lost(exc)

        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )

        class GuardedWs(WebSocketsSansIOProtocol):
            pending_addr: str | None = None
            _guard_addr: str | None = None

            def connection_made(self, transport: Any) -> None:
                self._guard_addr = GuardedWs.pending_addr
                GuardedWs.pending_addr = None
                super().connection_made(transport)

            def handle_connect(self, event: Any) -> None:
                super().handle_connect(event)
                scope = getattr(self, "scope", None)
                if isinstance(scope, dict):  # the application task has not started yet
                    scope.setdefault("extensions", {})[ABORT] = self.transport.abort

            def keepalive_timeout(self) -> None:
                super().keepalive_timeout()
                self.transport.abort()  # a client that stopped reading cannot be flushed to

            def connection_lost(self, exc: Exception | None) -> None:
                guard.release(self._guard_addr)
                self._guard_addr = None
                super().connection_lost(exc)

        self._ws_class = GuardedWs
        return GuardedHttp

    def ws_protocol(self) -> type[asyncio.Protocol]:
        """The websocket protocol matching :meth:`http_protocol` (call that first)."""
        cls: type[asyncio.Protocol] | None = getattr(self, "_ws_class", None)
        if cls is None:
            self.http_protocol()
            cls = self._ws_class
        return cls

    def uvicorn_options(self) -> dict[str, Any]:
        """The ``uvicorn.Config`` keywords that install this guard (and say whether
        websockets are compressed, :data:`PER_MESSAGE_DEFLATE`)."""
        http = self.http_protocol()
        return {
            "http": http,
            "ws": self.ws_protocol(),
            "ws_per_message_deflate": PER_MESSAGE_DEFLATE,
        }
