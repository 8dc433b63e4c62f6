"""Input a stranger might send, against a real server on loopback: each gets a clean error,
the connection stays usable and nothing changes (the brief: bad input changes nothing)."""

from __future__ import annotations

import time

from folkcards.games import GAMES
from folkcards.server.app import MAX_RATE_ENTRIES, Server, TokenBucket

from .conftest import STEADY, Client, http
from .harness import ServerThread


def table(server: ServerThread, bot_delay: float = 5) -> dict[str, object]:
    g = GAMES[STEADY]
    n = g.num_seats(g.normalize_variant({}))
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (n - 1)
    body = {"game": STEADY, "name": "A", "seats": seats, "options": {"bot_delay": bot_delay}}
    status, res = http(server.url, "/api/tables", body)
    assert status == 200, res
    return dict(res)


def test_a_json_integer_too_long_to_read_is_bad_json_over_http_and_websocket(
    server: ServerThread,
) -> None:
    huge = "9" * 5000  # over Python's 4,300-digit int conversion limit
    status, res = http(server.url, "/api/tables", raw=f'{{"game": "sasku", "x": {huge}}}'.encode())
    assert status == 400 and res["error"] == "bad_json"
    c = Client(server.ws_url, str(table(server)["id"]), None)
    c.ws.send(f'{{"type": "ping", "ref": {huge}}}')
    assert c.recv_until(lambda m: m["type"] == "error")["error"] == "bad_json"
    c.send({"type": "ping", "ref": 7})
    assert c.recv_until(lambda m: m["type"] == "pong")["ref"] == 7
    c.close()


def test_a_lone_surrogate_or_a_binary_frame_keeps_the_connection_alive(
    server: ServerThread,
) -> None:
    c = Client(server.ws_url, str(table(server)["id"]), None)
    # a JSON escape that decodes to a lone surrogate (no UTF-8 text can carry one)
    c.ws.send('{"type": "ping", "ref": "\\ud800"}')
    assert c.recv_until(lambda m: m["type"] == "pong")["ref"] is None
    c.ws.send('{"type": "explain", "action": "\\udfff"}')
    assert c.recv_until(lambda m: m["type"] == "error")["error"] == "forbidden"
    c.ws.send(b"\x00\x01binary")
    err = c.recv_until(lambda m: m["type"] == "error")
    assert err["error"] == "bad_request" and "text" in err["message"]
    c.send({"type": "ping", "ref": "still here"})
    assert c.recv_until(lambda m: m["type"] == "pong")["ref"] == "still here"
    c.close()


def test_the_ack_comes_before_the_state_that_shows_the_action(server: ServerThread) -> None:
    res = table(server, bot_delay=1)  # the bots wait: the state after the ack is ours
    me = Client(server.ws_url, str(res["id"]), str(res["token"]))
    for _ in range(3):
        st = me.wait_state(lambda s: s["obs"] is not None and bool(s["obs"]["legal"]))
        n = len(st["obs"]["history"])
        me.send({"type": "act", "action": st["obs"]["legal"][0], "ref": n})
        reply = me.recv_until(lambda m: m["type"] in ("ack", "state", "error"))
        assert reply["type"] == "ack" and reply["ref"] == n, reply
        shown = me.recv_until(lambda m: m["type"] == "state")
        assert len(shown["obs"]["history"]) == n + 1
        if shown["obs"]["to_act"] != 0:
            break
    me.close()


def test_forbidden_is_http_403(server: ServerThread) -> None:
    tid = table(server)["id"]
    status, res = http(server.url, f"/api/tables/{tid}/start", {"token": "nobody"})
    assert status == 403 and res["error"] == "forbidden"


def test_the_per_address_rate_table_is_pruned(tmp_path: object) -> None:
    srv = Server(f"sqlite:///{tmp_path}/limits.db", restore=False)
    try:
        busy = TokenBucket(1 / 60, 10)
        busy.level = 0
        for i in range(MAX_RATE_ENTRIES):
            srv.create_limits[f"10.0.{i // 256}.{i % 256}"] = TokenBucket(1 / 60, 10)
        srv.create_limits["busy"] = busy
        srv.prune_limits()
        # the idle addresses are forgotten; the one still limited is remembered
        assert list(srv.create_limits) == ["busy"]
        assert not busy.idle() and busy.at <= time.monotonic()
    finally:
        srv.storage.close()
