"""Test infrastructure: the web table served by uvicorn in a background thread of the test
process, on a free loopback port, with the same connection guard as ``folkcards serve``.

Bot decisions run in worker processes; the servers of one test process share one executor
(started once), each with its own fair scheduler. Tests get ``min_bot_delay=0`` unless they
ask otherwise."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from folkcards.server.guard import ConnectionGuard
from folkcards.server.launch import free_port, free_socket, http_json, server_process
from folkcards.server.workers import WorkerPool, new_executor

__all__ = ["ServerThread", "free_port", "http_json", "server_process"]

_EXECUTOR: ProcessPoolExecutor | None = None


def shared_executor() -> ProcessPoolExecutor:
    """The worker processes every test server of this process uses."""
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = new_executor(1)
    return _EXECUTOR


class ServerThread:
    """The app served by uvicorn in a background thread (its own event loop)."""

    def __init__(
        self,
        db_url: str,
        *,
        restore: bool = True,
        guard: ConnectionGuard | None = None,
        uvicorn_options: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        import uvicorn

        from folkcards.server.app import create_app

        options.setdefault("min_bot_delay", 0.0)
        options.setdefault("tune_process", False)  # the test process's interpreter is its own
        if "pool" not in options and "bot_workers" not in options:
            options["pool"] = WorkerPool(1, executor=shared_executor())
        self.app = create_app(db_url, restore=restore, **options)
        self.server_state = self.app.state.server
        self.guard = guard or ConnectionGuard()
        self.sock = free_socket()
        self.port: int = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            ws_max_size=65536,
            lifespan="on",
            **self.guard.uvicorn_options(),
            **(uvicorn_options or {}),
        )
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=[self.sock]))

    def start(self) -> ServerThread:
        """Start and wait until the server answers."""
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """Stop the server and wait for its thread."""
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.sock.close()

    def call(self, coro: Any) -> Any:
        """Run a coroutine on the server's loop and return its result (for tests)."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=30)

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
