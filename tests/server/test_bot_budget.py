"""Bots cannot starve the server: decisions run in worker processes under a per-table and a
global budget, bot delays have a floor, matches end, tables of bots nobody watches end.

The finding: two all-``search`` Satat tables with ``bot_delay: 0`` pinned the event loop (an
honest table's ack went from 2 ms to 131 ms). Speed is the benchmark's business; here the
counts are asserted: no search decision is made on the server's thread, the server's thread
spends a small fraction of a search decision per bot action, one job per table at a time.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from folkcards.bots.hint import REASONS
from folkcards.server.workers import WorkerPool

from .conftest import Client, deal_over, http, my_turn
from .harness import ServerThread

SEARCH = [{"kind": "bot", "level": "search"}] * 4
RANDOM = [{"kind": "bot", "level": "random"}] * 4


def _thread_cpu(native_id: int) -> float:
    """CPU seconds (user + system) of one thread of this process, from /proc."""
    with open(f"/proc/self/task/{native_id}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    import os

    return ticks / os.sysconf("SC_CLK_TCK")


def _server_thread_id(server: ServerThread) -> int:
    tid = server.thread.native_id
    assert tid is not None
    return tid


def _actions(server: ServerThread, tid: str) -> int:
    t = server.server_state.tables.tables[tid]
    n: int = t.state.actions_applied
    return n


def test_search_bots_decide_in_worker_processes_and_the_honest_table_is_served(
    tmp_path: Path,
) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'b.db'}", create_rate=10_000) as server:
        opts = {"bot_delay": 0, "deal_pause": 0}
        heavy = []
        for _ in range(2):  # the attacker's two tables, watched so that they play on
            status, res = http(
                server.url, "/api/tables", {"game": "satat", "seats": SEARCH, "options": opts}
            )
            assert status == 200, res
            heavy.append(res["id"])
        watchers = [Client(server.ws_url, tid, None) for tid in heavy]
        status, honest = http(
            server.url,
            "/api/tables",
            {
                "game": "sasku",
                "name": "H",
                "seats": [{"kind": "human"}, *RANDOM[:3]],
                "options": opts,
            },
        )
        assert status == 200
        cpu0 = _thread_cpu(_server_thread_id(server))
        acted0 = sum(_actions(server, t) for t in heavy)
        me = Client(server.ws_url, honest["id"], honest["token"])
        acks = 0
        deadline = time.time() + 60
        while acks < 3 and time.time() < deadline:
            st = me.wait_state(lambda s: deal_over(s) or my_turn(0)(s))
            if deal_over(st):
                break
            me.act(st["obs"]["legal"][0])  # asserts the ack came
            acks += 1
        # the search tables keep deciding meanwhile (in the workers)
        while sum(_actions(server, t) for t in heavy) - acted0 < 6:
            assert time.time() < deadline, "the search tables did not play"
            time.sleep(0.05)
        acted = sum(_actions(server, t) for t in heavy) - acted0
        cpu = _thread_cpu(_server_thread_id(server)) - cpu0
        pool = server.server_state.pool.stats()
        manager = server.server_state.tables
        assert acks >= 1
        assert pool["jobs"] >= acted  # every search decision ran in a worker process
        assert manager.inline_decisions["search"] == 0
        assert pool["max_running"] <= pool["workers"]
        # a search decision costs ~140 ms of CPU; the server's thread spends a small part of
        # that per action (the old server spent all of it there, or fought it for the GIL)
        assert cpu / acted < 0.03, f"{cpu:.2f} s of server-thread CPU for {acted} bot actions"
        for c in [*watchers, me]:
            c.close()


def test_the_bot_delay_has_a_floor_and_bots_act_no_faster(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'd.db'}", min_bot_delay=0.3) as server:
        status, res = http(
            server.url,
            "/api/tables",
            {"game": "satat", "seats": RANDOM, "options": {"bot_delay": 0}},
        )
        assert status == 200
        watcher = Client(server.ws_url, res["id"], None)
        st = watcher.wait_state(lambda s: s["obs"] is not None)
        assert st["table"]["options"]["bot_delay"] == 0.3
        start = _actions(server, res["id"])
        time.sleep(1.5)
        acted = _actions(server, res["id"]) - start
        assert acted <= 1.5 / 0.3 + 2, f"{acted} bot actions in 1.5 s with a 0.3 s floor"
        watcher.close()


def test_a_match_without_end_stops_at_max_deals(tmp_path: Path) -> None:
    """Satat's default match_target 0 sets no end (SAT-13.3): the table ends as 'limit'."""
    with ServerThread(f"sqlite:///{tmp_path / 'm.db'}") as server:
        for bad in (0, 1001, "3", 2.5, True):
            status, err = http(
                server.url,
                "/api/tables",
                {"game": "satat", "seats": RANDOM, "options": {"max_deals": bad}},
            )
            assert status == 400 and "max_deals" in err["message"], (bad, err)
        assert not server.server_state.tables.tables  # nothing was created
        opts = {"bot_delay": 0, "deal_pause": 0, "max_deals": 2}
        status, res = http(
            server.url, "/api/tables", {"game": "satat", "seats": RANDOM, "options": opts}
        )
        assert status == 200
        watcher = Client(server.ws_url, res["id"], None)
        end = watcher.wait_state(lambda s: s["table"]["status"] == "finished")
        assert end["table"]["ended"] == "limit" and end["deal_no"] == 2
        assert end["match"]["over"] is False  # the rules' match goes on; the table does not
        status, row = http(server.url, f"/api/tables/{res['id']}")
        assert row["table"]["status"] == "finished" and row["table"]["ended"] == "limit"
        watcher.close()


def test_a_table_of_bots_nobody_watches_ends_soon(tmp_path: Path) -> None:
    with ServerThread(
        f"sqlite:///{tmp_path / 'i.db'}", idle_after=900, bots_idle_after=0.5
    ) as server:
        _, bots = http(
            server.url,
            "/api/tables",
            {"game": "sasku", "seats": RANDOM, "options": {"bot_delay": 0.2}},
        )
        _, people = http(server.url, "/api/tables", {"game": "sasku", "name": "A"})
        deadline = time.time() + 15
        while True:
            _, row = http(server.url, f"/api/tables/{bots['id']}")
            if row["table"]["status"] == "finished":
                break
            assert time.time() < deadline, "the unwatched bot table played on"
            time.sleep(0.1)
        assert row["table"]["ended"] == "abandoned"
        _, row = http(server.url, f"/api/tables/{people['id']}")
        assert row["table"]["status"] != "finished"  # a person's table waits for idle_after


def _sasku_against_random_bots(server: ServerThread) -> dict[str, Any]:
    """A Sasku table where seat 0 is a person and the others ``random`` bots (they move on
    the server's loop, so the pool runs only the hints): the creation's reply."""
    body = {
        "game": "sasku",
        "name": "A",
        "seats": [{"kind": "human"}, *RANDOM[:3]],
        "options": {"bot_delay": 0},
    }
    status, res = http(server.url, "/api/tables", body)
    assert status == 200, res
    return dict(res)


def test_hints_are_computed_in_the_workers(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'h.db'}") as server:
        res = _sasku_against_random_bots(server)
        me = Client(server.ws_url, res["id"], res["token"])
        st = me.wait_state(my_turn(0))
        jobs = server.server_state.pool.stats()["jobs"]
        me.send({"type": "hint"})
        hint = me.recv_until(lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["action"] in st["obs"]["legal"]
        assert server.server_state.pool.stats()["jobs"] == jobs + 1
        # beside the action, the hint as the terminal explains it (folkcards.bots.explain_hint)
        h = hint["hint"]
        assert h["choice"] == hint["action"] and h["scale"] in ("win_chance", "rank", "none")
        assert h["rows"][0]["action"] == hint["action"]
        assert {r["action"] for r in h["rows"]} == set(st["obs"]["legal"])
        numbered = h["scale"] == "win_chance"
        for r in h["rows"]:
            assert set(r) >= {"action", "value", "diff", "reason"}
            assert (r["value"] is not None) == numbered and (r["diff"] is not None) == numbered
        assert h["reason"] is None or h["reason"] in REASONS
        me.close()


def test_a_hint_is_searched_once_a_turn_and_the_next_turn_gets_its_own_at_once(
    tmp_path: Path,
) -> None:
    """Asking again at the same turn, from a second tab of the same seat too, waits for the
    same search (one job); the next turn's hint is answered at once, however soon it comes
    (a player giving Huutopussi's three cards asks at each of them)."""
    with ServerThread(f"sqlite:///{tmp_path / 'h.db'}") as server:
        res = _sasku_against_random_bots(server)
        me = Client(server.ws_url, res["id"], res["token"])
        tab = Client(server.ws_url, res["id"], res["token"])
        st = me.wait_state(my_turn(0))
        jobs = server.server_state.pool.stats()["jobs"]
        me.send({"type": "hint"})
        tab.send({"type": "hint"})
        first = me.recv_until(lambda m: m["type"] in ("hint", "error"))
        second = tab.recv_until(lambda m: m["type"] in ("hint", "error"))
        assert first["type"] == second["type"] == "hint", (first, second)
        assert first["action"] == second["action"] and first["hint"] == second["hint"]
        me.send({"type": "hint"})  # once more, after the answer: no new search either
        again = me.recv_until(lambda m: m["type"] in ("hint", "error"))
        assert again["type"] == "hint" and again["action"] == first["action"]
        assert server.server_state.pool.stats()["jobs"] == jobs + 1
        k = len(st["obs"]["history"])
        me.act(first["action"])
        nxt = me.wait_state(
            lambda s: my_turn(0)(s) and (len(s["obs"]["history"]) > k or s["obs"]["history"] == [])
        )
        me.send({"type": "hint"})
        hint = me.recv_until(lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint", hint
        assert hint["action"] in nxt["obs"]["legal"]
        assert server.server_state.pool.stats()["jobs"] == jobs + 2
        me.close()
        tab.close()


class _CostPool(WorkerPool):
    """The scheduler with the worker replaced by a fixed CPU charge per job."""

    def __init__(self, cost: dict[str, float], **kw: Any) -> None:
        super().__init__(1, start_workers=False, **kw)  # no process: jobs never reach one
        self.cost = cost
        self.order: list[str] = []

    async def _submit(self, fn: Any, *args: Any) -> Any:
        (jobs,) = args
        keys = [job_args[0] for _fn, job_args in jobs]
        self.order += keys
        await asyncio.sleep(0.001 * len(keys))
        return [(True, None, self.cost[k]) for k in keys]


def test_a_table_over_its_cpu_budget_waits_and_the_others_go_on() -> None:
    """A table whose decisions cost 50 times more is held to its share of worker CPU (0.1
    CPU-second per second here) while a quick table goes on at full speed."""
    pool = _CostPool({"heavy": 0.05, "quick": 0.001}, table_share=0.1, table_burst=0.1)

    async def table(key: str, until: float) -> None:
        while time.monotonic() < until:
            await pool.run(key, lambda k: None, key)

    async def main() -> None:
        until = time.monotonic() + 1.0
        await asyncio.gather(table("heavy", until), table("quick", until))

    asyncio.run(main())
    heavy, quick = pool.order.count("heavy"), pool.order.count("quick")
    # 0.1 s of burst + 0.1 CPU-s/s for ~1 s = about 0.2 s = 4 jobs of 0.05 s (+1 in flight)
    assert heavy <= 6, f"the heavy table ran {heavy} jobs"
    assert quick >= 10 * heavy, (quick, heavy)
    assert pool.throttled > 0 and pool.max_running == 1


def test_jobs_of_waiting_tables_go_least_charged_first_and_the_queue_is_bounded() -> None:
    pool = _CostPool({"a": 1.0, "b": 0.0, "c": 0.0}, table_share=1e9, table_burst=1e9)

    async def main() -> None:
        await pool.run("a", lambda k: None, "a")  # a is charged 1 s
        pool.order.clear()
        # all three want the (single) worker at once: the uncharged ones go first
        await asyncio.gather(*(pool.run(k, lambda k: None, k) for k in ("a", "b", "c")))

    asyncio.run(main())
    assert pool.order[0] == "a" or pool.order.index("a") == 2
    refused = WorkerPool(1, max_waiting=0, start_workers=False)

    async def over() -> Exception | None:
        try:
            await refused.run("t", int, "1")
        except Exception as exc:
            return exc
        return None

    err = asyncio.run(over())
    assert err is not None and type(err).__name__ == "PoolBusy"


def test_thread_cpu_reader_sees_this_thread() -> None:
    tid = threading.get_native_id()
    before = _thread_cpu(tid)
    sum(i * i for i in range(2_000_000))
    assert _thread_cpu(tid) > before


def test_a_job_is_charged_its_own_cpu_not_a_busy_thread_beside_it() -> None:
    """A worker's warming thread (numba's import, kernel loads) may run beside a decision:
    the decision is charged the CPU of its own thread only, else its table would wait for
    a budget the warming used (run_batch measures each job in the worker)."""
    from folkcards.server.workers import run_batch

    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            sum(i * i for i in range(10_000))

    beside = threading.Thread(target=busy)
    beside.start()
    try:
        ((ok, _, sleeping), (_, _, working)) = run_batch(
            [(time.sleep, (0.4,)), (sum, ((i * i for i in range(3_000_000)),))]
        )
    finally:
        stop.set()
        beside.join()
    assert ok
    assert sleeping < 0.1, f"a job that slept was charged {sleeping:.3f} CPU-s"
    assert working > 0.05, f"a job that computed was charged only {working:.3f} CPU-s"
