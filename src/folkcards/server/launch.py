"""``folkcards serve`` as a subprocess on a free loopback port (the benchmark and tests)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


def free_socket(host: str = "127.0.0.1") -> socket.socket:
    """A listening TCP socket on a free port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(2048)
    return sock


def free_port() -> int:
    """A port that was free a moment ago."""
    with contextlib.closing(free_socket()) as s:
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def server_process(
    db_url: str, port: int | None = None, extra: list[str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``folkcards serve`` as a subprocess; yields (process, base URL) once it answers."""
    port = port or free_port()
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "folkcards.cli", "serve", "--port", str(port), "--db", db_url]
        + (extra or []),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, proc)
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_until_up(
    url: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30
) -> None:
    """Poll ``url``/api/games until it answers (RuntimeError if the process dies first)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"the server exited with {proc.returncode}: {err[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer in time")


def http_json(base: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    """GET ``base + path`` (POST JSON when ``body`` or ``raw`` is given): (status, parsed JSON)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")
