"""Properties every registered game must have, through the public engine API only.

These run over random legal playouts of random variants of each game in ``GAMES``:
legal actions sorted, unique, parseable back; illegal actions change nothing; records
replay to the same result; observations are per seat and ``determinize`` reproduces
them; matches replay to the same totals; mutated records never crash ``replay``.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, iter_cards
from folkcards.engine.actions import sorted_texts
from folkcards.engine.api import SPECTATOR, DealState, Game, IllegalAction, MalformedRecord
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
    raise AssertionError(
        f"{game.name}: 50 random variants in a row were rejected; teach random_variant "
        "which option values go together"
    )


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
        if not state.history or rng.random() < 0.15:  # the first position always
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
        check_replay_contract(game, bad, replay(bad))


def check_replay_contract(game: Game, record: Any, out: dict[str, Any]) -> None:
    """``out`` has exactly one of the three shapes of the ``replay`` contract
    (conventions.md), each with exactly its keys and value types."""
    json.dumps(out)
    is_match = isinstance(record, dict) and "deals" in record
    if out["ok"] is True and out.get("over") is True:
        assert set(out) == {"ok", "over", "result"}
        score = out["result"]["score"]
        assert isinstance(score, list) and score
        assert all(type(x) in (int, float) for x in score)
        if is_match:
            assert {"totals", "match_over", "winner", "draw"} <= set(out["result"])
    elif out["ok"] is True:
        assert out["over"] is False
        assert set(out) == {"ok", "over", "to_act", "phase", "legal"}
        assert type(out["to_act"]) is int and isinstance(out["phase"], str)
        legal = out["legal"]
        assert legal and all(isinstance(a, str) for a in legal)
        assert legal == sorted_texts(legal, game.deck)
    else:
        assert out["ok"] is False
        assert set(out) == {"ok", "index", "action", "error"} | ({"deal"} if is_match else set())
        error = out["error"]
        assert isinstance(error, str) and error and "\n" not in error
        index = out["index"]
        if index is None:
            assert out["action"] is None
        else:
            assert type(index) is int and index >= 0
            if is_match:
                assert type(out["deal"]) is int
            deal = record["deals"][out["deal"]] if is_match else record
            assert out["action"] == deal["actions"][index]
        if is_match:
            assert out["deal"] is None or type(out["deal"]) is int


# --- copies, pickles and the public observation ------------------------------------------

COPIES: dict[str, Callable[[DealState], DealState]] = {
    "pickle": lambda s: pickle.loads(pickle.dumps(s)),
    "pickle5": lambda s: pickle.loads(pickle.dumps(s, protocol=5)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "clone": lambda s: s.clone(),
}
"""Every way a client copies a state: each must give an independent, equal state."""

CONTRACT = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def views(state: DealState) -> tuple[Any, ...]:
    """Everything a client can read of a state through the API (for equality checks)."""
    return (
        state.legal_texts(),
        [state.observation(seat) for seat in range(state.num_seats)],
        state.public_observation(),
        state.record(),
        state.result() if state.is_over else None,
    )


def sample_states(game: Game, seed: int) -> list[DealState]:
    """A few states at random points of a random deal of a random variant (the first
    position and the finished deal among them)."""
    rng = random.Random(seed)
    final, snapshots = playout(game, rng, random_variant(game, rng))
    picks = rng.sample(snapshots, min(3, len(snapshots))) if snapshots else []
    return [*picks, final]


def play_on(state: DealState, actions: list[str]) -> DealState:
    for text in actions:
        state.apply(text)
    assert state.is_over
    return state


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@CONTRACT
@given(seed=st.integers(0, 2**32 - 1))
def test_states_survive_pickle_copy_deepcopy_and_clone(game: Game, seed: int) -> None:
    """Each copy of a state reads the same (legal actions, every seat's observation, the
    public observation, record, result), plays on to the same result and record with the
    same actions, and playing it leaves the original unchanged."""
    rng = random.Random(seed)
    for state in sample_states(game, seed):
        before = views(state)
        rest: list[str] = []
        probe = state.clone()
        while not probe.is_over:
            action = rng.choice(probe.legal_actions())
            rest.append(action.text)
            probe.apply(action)
        for how, make in COPIES.items():
            other = make(state)
            assert other is not state, how
            assert type(other) is type(state) and other.game is game, how
            assert views(other) == before, how
            play_on(other, rest)
            assert views(state) == before, f"playing a {how} changed the original"
            assert other.record()["actions"] == [*before[3]["actions"], *rest], how
            assert (other.result(), other.record()) == (probe.result(), probe.record()), how
        play_on(state, rest)
        assert (state.result(), state.record()) == (probe.result(), probe.record())


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@CONTRACT
@given(seed=st.integers(0, 2**32 - 1))
def test_public_observation_is_a_spectators_view_every_seat_agrees_on(
    game: Game, seed: int
) -> None:
    """``public_observation()``: seat SPECTATOR, no hand, no legal actions, JSON-ready; and
    a world determinized from any seat's observation has the same public observation (it
    never depends on a fact that some seat does not know)."""
    for state in sample_states(game, seed):
        pub = state.public_observation()
        assert pub.seat == SPECTATOR and pub.hand == 0 and pub.legal == ()
        assert (pub.game, pub.num_seats, pub.dealer) == (game.name, state.num_seats, state.dealer)
        assert dict(pub.variant) == dict(state.variant)
        assert pub.is_over == state.is_over
        assert len(pub.history) == len(pub.actors)
        data = pub.to_dict()
        assert data["seat"] is None and data["hand"] == [] and data["legal"] == []
        json.dumps(data)
        for seat in range(state.num_seats):
            world = game.determinize(state.observation(seat), random.Random(seed + seat))
            assert world.public_observation() == pub, seat


def test_only_a_classic_scopone_deal_can_be_over_before_its_first_action() -> None:
    """The one deal of any game that is over before anyone acts is Scopone's void deal:
    three or four kings among the classic deal's table cards, deck positions 12, 13, 26,
    27 (SCO-3.1, SCO-3.4); scientifico deals no table and has no such check (SCO-8.1).
    Every other game's deal starts with a seat to act in every variant, also inside
    matches (carried-over state). The learning environments rely on this
    (folkcards.rl.deals)."""
    scopone = GAMES.get("scopone")
    if scopone is not None:  # the check below must be able to see a void deal
        kings = [c for c in iter_cards(scopone.deck) if CARD_NAMES[c][0] == "K"]
        rest = [c for c in iter_cards(scopone.deck) if c not in kings]
        deck = rest[:12] + kings[:2] + rest[12:24] + kings[2:3] + rest[24:] + kings[3:]
        assert is_void_scopone(scopone, scopone.normalize_variant({}), deck)
        assert scopone.new_deal(scopone.normalize_variant({}), 0, deck).is_over
        sci = scopone.normalize_variant({"scientifico": True})
        assert not scopone.new_deal(sci, 0, deck).is_over
    for game in GAME_LIST:
        rng = random.Random(f"void:{game.name}")
        for _ in range(150):
            v = game.normalize_variant(random_variant(game, rng))
            deck = list(iter_cards(game.deck))
            rng.shuffle(deck)
            state = game.new_deal(v, rng.randrange(game.num_seats(v)), deck)
            assert state.is_over == is_void_scopone(game, v, deck), state.record()
        match = Match(game, random_variant(game, rng), rng=rng)
        for _ in range(8):
            if match.is_over:
                break
            deal = match.new_deal()
            assert deal.is_over == is_void_scopone(game, match.variant, deal.record()["deck"])
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))
            match.finish_deal()


def is_void_scopone(game: Game, variant: Mapping[str, Any], deck: list[Any]) -> bool:
    """True for a classic Scopone deck with 3+ kings on the table (SCO-3.4)."""
    if game.name != "scopone" or variant["scientifico"]:
        return False
    names = [c if isinstance(c, str) else CARD_NAMES[c] for c in deck]
    return sum(names[i][0] == "K" for i in (12, 13, 26, 27)) >= 3


def test_every_game_is_registered() -> None:
    assert list(GAMES) == ["sasku", "scopone", "sheepshead", "satat", "huutopussi"]
