"""SIGKILL while actions are in flight loses no acknowledged action and shows none it lost.

The event log acknowledges an action from the callback that learns of its commit (a writer
thread commits, the loop hears of it): this is the attack on that path. Four people play one
Sasku deal as fast as the server acknowledges; the server is killed a few actions in, an
action in flight, restarted on the same database, and each seat's observation must hold every action that
seat was acknowledged, at its place, and nothing beyond what was stored may ever have been
shown to anyone. Then play goes on and the server is killed again, a few times.
"""

from __future__ import annotations

import contextlib
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from folkcards.games import GAMES

from .conftest import STEADY, Client, at_len, deal_over, http, past_len
from .harness import free_port, server_process

KILLS = 4


def _play_then_kill(
    clients: dict[int, Client],
    rng: random.Random,
    acked: dict[int, str],
    shown: list[int],
    kill: Callable[[], None],
    after: int,
) -> None:
    """Play random legal actions as fast as they are acknowledged, recording each
    acknowledged one (index → text) and the longest history any state frame showed; after
    ``after`` of them send one more and kill the server a moment later (0–4 ms: the action
    in flight, perhaps committed, never acknowledged to us)."""
    try:
        while True:
            st = clients[0].wait_state(lambda s: s["obs"] is not None, timeout=10)
            shown[0] = max(shown[0], len(st["obs"]["history"]))
            if deal_over(st):
                kill()
                return
            seat, k = st["obs"]["to_act"], len(st["obs"]["history"])
            mine = clients[seat].wait_state(at_len(k), timeout=10)
            legal = mine["obs"]["legal"]
            # never pass when there is anything else: a deal all four pass ends at once, and
            # the test wants one long deal to kill the server in, KILLS times
            action = rng.choice([a for a in legal if a != "pass"] or legal)
            clients[seat].send({"type": "act", "action": action, "expect": k})
            if after == 0:
                time.sleep(rng.uniform(0, 0.004))
                kill()
                return
            reply = clients[seat].recv_until(lambda m: m["type"] in ("ack", "error"), timeout=10)
            assert reply["type"] == "ack", reply
            acked[k] = action
            after -= 1
            clients[0].wait_state(past_len(k), timeout=10)
            for c in clients.values():
                for f in c.frames:
                    if f["type"] == "state" and f["obs"] is not None:
                        shown[0] = max(shown[0], len(f["obs"]["history"]))
    except (ConnectionClosed, TimeoutError, OSError):  # the server died under us
        kill()


def test_sigkill_under_play_loses_no_acknowledged_action(tmp_path: Path) -> None:
    g = GAMES[STEADY]
    n = g.num_seats(g.normalize_variant({}))
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    rng = random.Random(2026)
    acked: dict[int, str] = {}
    actor: dict[int, int] = {}
    tid: str | None = None
    tokens: dict[int, str] = {}
    kills = 0
    for round_ in range(KILLS):
        with server_process(db, free_port()) as (proc, url):
            ws = url.replace("http", "ws") + "/ws"
            if tid is None:
                status, res = http(
                    url,
                    "/api/tables",
                    {"game": STEADY, "name": "P0", "seats": [{"kind": "human"}] * n},
                )
                assert status == 200, res
                tid, tokens = res["id"], {0: res["token"]}
                for s in range(1, n):
                    tokens[s] = http(url, f"/api/tables/{tid}/join", {"name": f"P{s}"})[1]["token"]
            clients = {s: Client(ws, tid, tokens[s]) for s in range(n)}
            views: dict[int, Any] = {
                s: c.wait_state(lambda x: x["obs"] is not None)["obs"] for s, c in clients.items()
            }
            stored = len(views[0]["history"])
            assert all(len(v["history"]) == stored for v in views.values())
            # every action acknowledged before the kill is there, at its place, as its seat
            # sees it (a seat sees its own actions whole)
            for k, action in acked.items():
                assert k < stored, f"round {round_}: acknowledged action {k} was lost"
                seat = views[0]["actors"][k]
                actor[k] = seat
                assert views[seat]["history"][k] == action, f"round {round_}: action {k}"
            if deal_over(clients[0].state or {"obs": None}):
                break
            shown = [stored]
            _play_then_kill(
                clients,
                rng,
                acked,
                shown,
                lambda: proc.send_signal(signal.SIGKILL),
                rng.randint(2, 7),
            )
            kills += 1
            proc.wait(timeout=30)
            for c in clients.values():
                with contextlib.suppress(ConnectionClosed, OSError):
                    c.close()
        # after the kill, the next round checks `acked`; here: nothing shown was unstored
        with server_process(db, free_port()) as (proc, url):
            ws = url.replace("http", "ws") + "/ws"
            viewer = Client(ws, tid, tokens[0])
            after = viewer.wait_state(lambda x: x["obs"] is not None)["obs"]
            assert shown[0] <= len(after["history"]), (
                f"round {round_}: a frame showed {shown[0]} actions, {len(after['history'])} stored"
            )
            viewer.close()
    assert kills == KILLS and len(acked) >= 2 * KILLS  # killed mid-deal, each time in flight
