"""Properties every registered game must have, through the public engine API only.

These run over random legal playouts of random variants of each game in ``GAMES``:
legal actions sorted, unique, parseable back; illegal actions change nothing; records
replay to the same result; observations are per seat and ``determinize`` reproduces
them; matches replay to the same totals; mutated records never crash ``replay``.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.engine.actions import sorted_texts
from folkcards.engine.api import DealState, Game, IllegalAction, MalformedRecord
from folkcards.engine.match import Match
from folkcards.engine.records import replay
from folkcards.games import GAMES

GAME_LIST = [GAMES[name] for name in GAMES]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_variant(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random valid variant: a random choice among each option's listed values (bool
    options: both), drawn again when the game rejects the combination."""
    for _ in range(50):
        v: dict[str, Any] = {}
        for opt in game.variant_options:
            if opt.choices:
                v[opt.key] = rng.choice(opt.choices)
            elif isinstance(opt.default, bool):
                v[opt.key] = rng.random() < 0.5
        try:
            game.normalize_variant(v)
        except MalformedRecord:
            continue
        return v
    return {}


def playout(
    game: Game, rng: random.Random, variant: dict[str, Any]
) -> tuple[DealState, list[DealState]]:
    state = game.random_deal(
        rng, variant, dealer=rng.randrange(game.num_seats(game.normalize_variant(variant)))
    )
    snapshots = []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"{game.name}: no legal action in phase {state.phase}"
        if rng.random() < 0.15:
            snapshots.append(state.clone())
        state.apply(rng.choice(legal))
    return state, snapshots


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_sorted_unique_and_parse_back(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state = game.random_deal(rng, random_variant(game, rng))
    while not state.is_over:
        legal = state.legal_actions()
        texts = [a.text for a in legal]
        assert texts == sorted_texts(texts, game.deck)
        assert len(set(texts)) == len(texts)
        a = rng.choice(legal)
        assert state.parse_action(a.text) == a
        assert state.parse_action(a.text.upper()) == a
        state.apply(a.text)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_records_replay_to_the_same_result(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state, snapshots = playout(game, rng, random_variant(game, rng))
    record = json.loads(json.dumps(state.record()))
    assert replay(record) == {"ok": True, "over": True, "result": state.result()}
    for snap in snapshots:
        out = replay(json.loads(json.dumps(snap.record())))
        assert out == {
            "ok": True,
            "over": False,
            "to_act": snap.to_act,
            "phase": snap.phase,
            "legal": snap.legal_texts(),
        }


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_an_illegal_action_raises_and_changes_nothing(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state, snapshots = playout(game, rng, random_variant(game, rng))
    # the deal is over (a void deal, e.g. Scopone's three kings on the table, SCO-3.4, is
    # over before any action: then any action is refused)
    last = state.history[-1].text if state.history else "pass"
    with pytest.raises(IllegalAction):
        state.apply(last)
    for snap in snapshots:
        before = snap.record()
        legal_list = snap.legal_texts()
        candidates = ["pass", "play AS", "play 7D", "bid 5", "bogus word", "play"]
        for text in candidates:
            try:
                if snap.parse_action(text) in snap.legal_actions():
                    continue  # legal in some accepted spelling (Scopone's lone 'play C')
            except IllegalAction:
                pass
            with pytest.raises(IllegalAction):
                snap.apply(text)
            assert snap.record() == before
            assert snap.legal_texts() == legal_list


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_observations_are_per_seat_and_determinize_reproduces_them(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    _, snapshots = playout(game, rng, random_variant(game, rng))
    for snap in snapshots:
        for seat in range(snap.num_seats):
            obs = snap.observation(seat)
            assert obs.seat == seat
            if seat == snap.to_act:
                assert obs.to_act == seat and obs.phase == snap.phase
                assert obs.legal == snap.legal_actions()
            else:
                # A seat may not learn that another seat faces a private choice (Satat's
                # SAT-19.1 masks a pending partner 'pass'), so only legal is fixed here.
                assert obs.legal == ()
            json.dumps(obs.to_dict())  # JSON-ready for clients
            world = snap.determinize(seat, random.Random(seed + seat))
            assert world.observation(seat) == obs
            assert world.legal_actions() == snap.legal_actions() or seat != snap.to_act


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_matches_replay_to_the_same_totals(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(game, random_variant(game, rng), rng=random.Random(seed))
    for _ in range(12):
        if match.is_over:
            break
        deal = match.new_deal()
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        match.finish_deal()
    out = replay(json.loads(json.dumps(match.record())))
    assert out["ok"] is True and out["over"] is True
    assert out["result"]["totals"] == match.state.totals
    assert out["result"]["match_over"] == match.is_over


def mutate(record: dict[str, Any], rng: random.Random) -> Any:
    rec = copy.deepcopy(record)
    acts = rec["actions"]
    kind = rng.randrange(9)
    if kind == 0 and acts:
        del acts[rng.randrange(len(acts))]
    elif kind == 1 and len(acts) > 1:
        i, j = rng.randrange(len(acts)), rng.randrange(len(acts))
        acts[i], acts[j] = acts[j], acts[i]
    elif kind == 2 and acts:
        i = rng.randrange(len(acts))
        s = acts[i]
        acts[i] = s[: rng.randrange(len(s) + 1)] + rng.choice(["", "x", " 5", "H", "10", "\t", "é"])
    elif kind == 3 and acts:
        acts[rng.randrange(len(acts))] = rng.choice([None, 3, [], {"a": 1}, True, ""])
    elif kind == 4:
        key = rng.choice([*rec.keys(), "bogus"])
        rec[key] = rng.choice([None, -1, 2.0, "x", [], {}, True, [["AS"]]])
    elif kind == 5:
        key = rng.choice(list(rec.keys()))
        del rec[key]
    elif kind == 6 and "deck" in rec:
        d = rec["deck"]
        d[rng.randrange(len(d))] = rng.choice(["5H", "ZZ", "AS", 7, "10h"])
    elif kind == 7:
        rec["variant"] = {
            rng.choice(["target", "bogus", "must_beat"]): rng.choice([1, "x", None, 2.5])
        }
    else:
        return rng.choice(
            [[], "text", 5, None, {"deals": [rec]}, {"game": rec.get("game"), "deals": []}]
        )
    return rec


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_records_never_crash_replay(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state, _ = playout(game, rng, random_variant(game, rng))
    record = state.record()
    for _ in range(10):
        bad = mutate(record, rng)
        out = replay(bad)
        assert out["ok"] in (True, False)
        if out["ok"] is False:
            assert set(out) >= {"index", "action", "error"} and isinstance(out["error"], str)
            assert "\n" not in out["error"]
            if out["index"] is not None:
                assert out["action"] == bad["actions"][out["index"]]
        json.dumps(out)


def test_every_game_is_registered() -> None:
    assert list(GAMES) == ["sasku", "scopone", "sheepshead", "satat", "huutopussi"]
