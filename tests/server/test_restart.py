"""The server killed with SIGKILL mid-deal restarts with the table exactly as acknowledged.

Every seat is a human driven by this test, so nothing moves while the server is down: after
the restart each seat's observation must equal the last one it saw, and the deal finishes.
"""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

from folkcards.games import GAMES

from .conftest import STEADY, Client, at_len, deal_over, http, step
from .harness import free_port, server_process


def play_until(clients: dict[int, Client], rng: random.Random, stop_after: int | None) -> None:
    """Play random legal actions for the seats to act, ``stop_after`` of them or to the end."""
    done = 0
    while (stop_after is None or done < stop_after) and step(clients, rng):
        done += 1


def test_sigkill_mid_deal_then_restart_and_finish(tmp_path: Path) -> None:
    game = STEADY
    g = GAMES[game]
    n = g.num_seats(g.normalize_variant({}))
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    rng = random.Random(11)
    with server_process(db, free_port()) as (proc, url):
        ws = url.replace("http", "ws") + "/ws"
        status, res = http(
            url, "/api/tables", {"game": game, "name": "P0", "seats": [{"kind": "human"}] * n}
        )
        assert status == 200
        tid, tokens = res["id"], {0: res["token"]}
        for s in range(1, n):
            tokens[s] = http(url, f"/api/tables/{tid}/join", {"name": f"P{s}"})[1]["token"]
        clients = {s: Client(ws, tid, tokens[s]) for s in range(n)}
        play_until(clients, rng, 12)
        seen = {}
        for s, c in clients.items():
            st = c.wait_state(at_len(12))
            seen[s] = st["obs"]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for c in clients.values():
            c.ws.close()
    with server_process(db, free_port()) as (proc, url):
        ws = url.replace("http", "ws") + "/ws"
        clients = {s: Client(ws, tid, tokens[s]) for s in range(n)}
        for s, c in clients.items():
            assert c.seat == s
            st = c.wait_state(lambda x: x["obs"] is not None)
            assert st["obs"] == seen[s], f"seat {s} sees a different table after the restart"
        play_until(clients, rng, None)
        end = clients[0].wait_state(deal_over)
        assert end["obs"]["result"] is not None
        status, rec = http(url, f"/api/tables/{tid}/record")
        assert status == 200 and rec["deals"][0]["actions"][:12] == seen[0]["history"]
        for c in clients.values():
            c.close()


def _deals(url: str, tid: str) -> int:
    status, res = http(url, f"/api/tables/{tid}")
    assert status == 200, res
    n: int = res["table"]["deals"]
    return n


def _wait_deals(url: str, tid: str, k: int, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while _deals(url, tid) < k:
        assert time.time() < deadline, f"the table did not reach {k} deals"
        time.sleep(0.05)


def test_no_deck_is_dealt_again_after_a_sigkill_and_restart(tmp_path: Path) -> None:
    """Decks come from the secure source, not from a seed replayed at restore: deals after
    the restart are new decks (before the fix deal 3 had deal 0's deck, in every game)."""
    db = f"sqlite:///{tmp_path / 'decks.db'}"
    bots = [{"kind": "bot", "level": "random"}] * 4
    options = {"bot_delay": 0, "deal_pause": 0}
    fast = ["--min-bot-delay", "0"]  # the server's floor for bot delays (0.3 s) is lifted
    with server_process(db, free_port(), fast) as (proc, url):
        status, res = http(
            url, "/api/tables", {"game": "satat", "name": "P", "seats": bots, "options": options}
        )
        assert status == 200, res
        tid = res["id"]
        _wait_deals(url, tid, 2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with server_process(db, free_port(), fast) as (proc, url):
        before = _deals(url, tid)
        _wait_deals(url, tid, before + 3)
        status, rec = http(url, f"/api/tables/{tid}/record")
        assert status == 200
    decks = [tuple(d["deck"]) for d in rec["deals"]]
    assert len(decks) >= before + 2  # the record holds the finished deals
    assert len(set(decks)) == len(decks), "a deck was dealt twice"
