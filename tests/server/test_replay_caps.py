"""``POST /api/replay`` cannot be made to amplify: the caps, the pages, the rate limit, and
finished tables rebuilt once however many ask for them.

The finding: one 510 KB record (974 deals) cost 7.1 s of CPU and a 97.5 MB answer."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

from folkcards.engine.match import Match
from folkcards.games import GAMES
from folkcards.server.replays import MAX_ANSWER_BYTES, MAX_ANSWER_STEPS, MAX_RECORD_DEALS

from .conftest import Client, deal_over, http, my_turn
from .harness import ServerThread


def satat_match(deals: int, seed: int = 1) -> dict[str, Any]:
    """A Satat match record of ``deals`` deals played by uniformly random actions."""
    rng = random.Random(seed)
    m = Match(GAMES["satat"], {}, rng=rng, dealer=0)
    for _ in range(deals):
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    return m.record()


def test_a_long_record_is_refused_whole_and_served_one_deal_at_a_time(tmp_path: Path) -> None:
    rec = satat_match(60)
    points = sum(len(d["actions"]) + 1 for d in rec["deals"])
    assert points > MAX_ANSWER_STEPS  # the whole answer would be past the cap
    with ServerThread(f"sqlite:///{tmp_path / 'r.db'}", replay_rate=10_000) as server:
        status, err = http(server.url, "/api/replay", rec)
        assert status == 413 and err["error"] == "too_large", err
        assert "deal=k" in err["message"] and "60 deals" in err["message"]
        status, page = http(server.url, "/api/replay?deal=37", rec)
        assert status == 200, page
        assert page["num_deals"] == 60 and page["deal"] == 37 and len(page["deals"]) == 1
        d = page["deals"][0]
        assert d["actions"] == rec["deals"][37]["actions"]
        assert len(d["steps"]) == len(d["actions"]) + 1
        assert len(json.dumps(page)) < MAX_ANSWER_BYTES
        for bad in ("60", "-1", "x", "9999999"):
            status, err = http(server.url, f"/api/replay?deal={bad}", rec)
            assert status == 400 and "deal" in err["message"], (bad, err)
        # more deals than any table may play: refused before anything is replayed
        short = {k: v for k, v in rec["deals"][0].items() if k != "actions"}
        huge = dict(rec, deals=[short] * (MAX_RECORD_DEALS + 1))
        status, err = http(server.url, "/api/replay?deal=0", huge)
        assert status in (413,) and err["error"] == "too_large", err
        pool = server.server_state.pool.stats()
        assert pool["jobs"] >= 1  # the page was replayed in a worker process


def test_replays_are_rate_limited_per_address(tmp_path: Path) -> None:
    rec = satat_match(1)
    with ServerThread(f"sqlite:///{tmp_path / 'l.db'}", replay_rate=6) as server:
        codes = [http(server.url, "/api/replay", rec)[0] for _ in range(14)]
        assert codes[0] == 200 and 429 in codes
        assert codes.count(200) <= 11  # a burst of 10, plus what refilled meanwhile


def test_a_finished_table_is_rebuilt_once_for_many_readers(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'f.db'}", replay_rate=10_000) as server:
        manager = server.server_state.tables
        manager.RETIRE_AFTER = 0.0  # finished tables leave memory at once
        body = {"game": "sasku", "name": "A", "options": {"mode": "deal", "bot_delay": 0}}
        body["seats"] = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        _, res = http(server.url, "/api/tables", body)
        me = Client(server.ws_url, res["id"], res["token"])
        while True:
            st = me.wait_state(lambda s: deal_over(s) or my_turn(0)(s))
            if deal_over(st):
                break
            me.act(st["obs"]["legal"][0])
        me.close()
        tid = res["id"]
        for _ in range(200):
            if tid not in manager.tables:
                break
            threading.Event().wait(0.02)
        assert tid not in manager.tables
        results: list[int] = []

        def read(path: str) -> None:
            results.append(http(server.url, path)[0])

        paths = [f"/api/tables/{tid}/record", f"/api/tables/{tid}/replay/0", f"/api/tables/{tid}"]
        threads = [threading.Thread(target=read, args=(paths[i % 3],)) for i in range(24)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        spectators = [Client(server.ws_url, tid, None) for _ in range(4)]
        for s in spectators:
            assert s.wait_state(deal_over)["table"]["status"] == "finished"
            s.close()
        assert results == [200] * 24
        assert manager.rebuilds == 1  # 28 readers, one rebuild
