"""Frames carry the viewer's own events, and illegal moves their structured explanation.

Over real websockets: seat 0 plays a whole deal (the other seats bots) while a spectator
watches; every state frame's ``events`` is the engine's ``events_for`` of that viewer at
that point (it only grows, and ends as the deal's events for that viewer — never an event
or a card the viewer may not see), and ``explain`` answers and ``illegal`` errors carry the
engine's ``{code, params, rules, text}`` (a code of ``MESSAGES``, params matching it)."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

from folkcards.engine.api import SPECTATOR
from folkcards.engine.explain import MESSAGES
from folkcards.engine.records import start_deal
from folkcards.games import GAMES

from .conftest import Client, deal_over, http, my_turn
from .harness import ServerThread
from .test_table_play import create, finished_deal


def placeholders(template: str) -> set[str]:
    return {f[1].split(":")[0] for f in string.Formatter().parse(template) if f[1]}


def check_explanation(ex: Any, message: str) -> None:
    assert isinstance(ex, dict) and set(ex) == {"code", "params", "rules", "text"}, ex
    assert ex["code"] in MESSAGES, ex
    assert set(ex["params"]) == placeholders(MESSAGES[ex["code"]]), ex
    assert ex["text"] == message or message.startswith(ex["text"]), (ex, message)


def engine_events(record: dict[str, Any], viewer: int) -> list[list[dict[str, Any]]]:
    """The viewer's events after each action of the recorded deal."""
    state, actions = start_deal(GAMES[record["game"]], record)
    out = [[e.to_dict() for e in state.events_for(viewer)]]
    for a in actions:
        state.apply(next(x for x in state.legal_actions() if x.text == a))
        out.append([e.to_dict() for e in state.events_for(viewer)])
    return out


@pytest.mark.parametrize("game", ["sheepshead", "huutopussi", "scopone"])
def test_frames_carry_the_viewer_events_and_illegal_moves_their_explanation(
    server: ServerThread, game: str
) -> None:
    res = create(server, game)
    me = Client(server.ws_url, res["id"], res["token"])
    spectator = Client(server.ws_url, res["id"], None)
    rng = random.Random(f"narration-{game}")
    explained = errors = turns = 0
    while True:
        st = me.wait_state(lambda s: deal_over(s) or my_turn(0)(s))
        if deal_over(st):
            break
        obs = st["obs"]
        held = set(obs["hand"])
        turns += 1
        if explained < 2:  # in any phase: a card not held, or a play out of its phase
            illegal = [f"play {c}" for c in held if f"play {c}" not in obs["legal"]]
            if game == "scopone":  # "play C" names C's only capture: that is legal
                illegal = []
            missing = next(c for c in ("AC", "7D", "KH", "9S", "2C", "AD") if c not in held)
            for action in [*illegal[:1], f"play {missing}"]:
                me.send({"type": "explain", "action": action})
                ans = me.recv_until(lambda m: m["type"] == "explain")
                assert ans["legal"] is False, (action, obs["legal"])
                check_explanation(ans["explanation"], ans["message"])
                explained += 1
            me.send({"type": "act", "action": f"play {missing}"})
            err = me.recv_until(lambda m: m["type"] in ("error", "ack"))
            assert err["type"] == "error" and err["error"] == "illegal", err
            check_explanation(err["explanation"], err["message"])
            assert err["explanation"]["code"] != "unexplained"
            assert missing in str(err["explanation"]["params"]) or game == "huutopussi", err
            errors += 1
        before = len(obs["history"])
        me.send({"type": "act", "action": rng.choice(obs["legal"]), "expect": before})
        assert me.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        me.recv_until(lambda m, k=before: m["type"] == "state" and len(m["obs"]["history"]) > k)
    spectator.wait_state(deal_over)
    # (a deal may end before seat 0's first turn: a bot's redeal)
    assert turns == 0 or (explained and errors)
    record = finished_deal(server, res["id"])
    for client, viewer in ((me, 0), (spectator, SPECTATOR)):
        points = engine_events(record, viewer)
        frames = [f for f in client.frames if f["type"] == "state" and f["obs"] is not None]
        k = 0
        last: list[dict[str, Any]] = []
        for f in frames:
            assert f["events_from"] == 0
            events = f["events"]
            assert events[: len(last)] == last, "a viewer's events only grow at their end"
            while k < len(points) and points[k] != events:
                k += 1
            assert k < len(points), f"viewer {viewer}: a frame's events match no point"
            last = events
        assert last == points[-1] and last[-1]["kind"] == "deal_end"
        kinds = {e["kind"] for e in last}
        if any(e["kind"] == "call" and e["call"] == "redeal" for e in last) or (
            last[-1].get("result", {}).get("redeal")
        ):  # HUU-4.6, SCO-3.4: a redeal ends the deal at once, before any card is played
            assert {"deal", "deal_end"} <= kinds and "play" not in kinds, kinds
            continue
        assert {"deal", "play", "deal_end"} <= kinds
        if game != "scopone":
            assert "trick" in kinds
            assert all(isinstance(e["points"], int) for e in last if e["kind"] == "trick")
    # the spectator never sees a face-down pass's cards (Sheepshead: the bury)
    if game == "sheepshead":
        spec_last = [f for f in spectator.frames if f["type"] == "state"][-1]["events"]
        hidden = [e for e in spec_last if e["kind"] == "pass_cards" and e["to"] == "bury"]
        assert all(e["cards"] is None for e in hidden)
    me.close()
    spectator.close()


def test_out_of_turn_has_the_table_explanation(server: ServerThread) -> None:
    n = GAMES["sasku"].num_seats(GAMES["sasku"].normalize_variant({}))
    body = {"game": "sasku", "name": "A", "seats": [{"kind": "human"}] * n}
    status, res = http(server.url, "/api/tables", {**body, "options": {"bot_delay": 0}})
    assert status == 200, res
    tokens = [res["token"]]
    for s in range(1, n):
        status, j = http(server.url, f"/api/tables/{res['id']}/join", {"name": f"P{s}"})
        tokens.append(j["token"])
    clients = [Client(server.ws_url, res["id"], tok) for tok in tokens]
    st = clients[0].wait_state(lambda s: s["obs"] is not None)
    other = clients[(st["obs"]["to_act"] + 1) % n]
    other.send({"type": "explain", "action": "play AC"})
    ans = other.recv_until(lambda m: m["type"] == "explain")
    assert ans["legal"] is False and ans["explanation"]["code"] == "not_your_turn"
    other.send({"type": "act", "action": "play AC"})
    err = other.recv_until(lambda m: m["type"] == "error")
    assert err["error"] == "not_your_turn" and err["explanation"]["code"] == "not_your_turn"
    for c in clients:
        c.close()
