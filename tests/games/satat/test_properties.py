"""Property tests over random legal playouts of every Satat variant (and carried states).

Each playout is checked against the rules file directly: SAT-8.3 legal cards and
SAT-8.5 trick winners against naive oracles, SAT-7.6/SAT-7.7 gives likewise, cards
conserved (SAT-1.1), records round-trip (SAT-4.2, SAT-17.2), observations hide what
SAT-19 hides, and ``determinize`` reproduces the observation it was built from.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from satat_helpers import (
    CARRIES,
    VARIANTS,
    deal,
    names,
    oracle_gives,
    oracle_legal_cards,
    oracle_winner,
    playout,
)

from folkcards.cards import CARD_NAMES, DECK_52, SUITS, iter_cards
from folkcards.engine import IllegalAction, replay
from folkcards.engine.actions import sorted_texts
from folkcards.games.satat import SatatState

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)


def check_rules(state: SatatState) -> None:
    """Compare the engine's legal list with the oracles (SAT-8.3, SAT-7.6, SAT-7.7)."""
    seat = state.to_act
    assert seat is not None
    legal = state.legal_texts()
    assert legal == sorted_texts(legal, DECK_52)  # SAT-17.1
    assert len(set(legal)) == len(legal)
    if state.phase == "play":
        hand = names(state.hands[seat])
        cards = sorted({t.split(" ")[1] for t in legal}, key=hand.index)
        if state.trick:
            led = CARD_NAMES[state.trick[0]]
            expect = oracle_legal_cards(hand, led, SUITS[state.trump], state.lead_known)
            expect.sort(key=hand.index)
        else:
            expect = hand  # SAT-8.2
        assert cards == expect
        assert "2H" not in hand or "play 2H" in legal  # SAT-8.4
    elif state.phase == "give":
        assert state.passing is not None
        winner = seat % 2 == state.passing["winners"]
        expect = oracle_gives(
            names(state.hands[seat]), SUITS[state.trump], winner, state.passing["cards"]
        )
        assert legal == ["give " + " ".join(t) for t in expect]
        assert legal, "SAT-7.8: a legal give always exists"


def check_tricks(state: SatatState) -> None:
    """SAT-8.5 and SAT-8.1: winners and leaders of every completed trick."""
    for i, (leader, cards, _known, winner) in enumerate(state.log):
        texts = [CARD_NAMES[c] for c in cards]
        assert winner == (leader + oracle_winner(texts, SUITS[state.trump])) % 4
        if i + 1 < len(state.log):
            assert state.log[i + 1][0] == winner
    if state.log:
        assert state.log[0][0] == state.tm


def hidden_ok(state: SatatState, seat: int) -> None:
    """SAT-19: no other seat's unknown card and no hidden trump appear in an observation."""
    obs = state.observation(seat)
    data = obs.to_dict()
    text = json.dumps(data)
    for other in range(4):
        if other == seat:
            continue
        known = set(data["info"]["known_cards"][other])
        for c in iter_cards(state.hands[other]):
            name = CARD_NAMES[c]
            if c == state.turned and not state.tk:
                continue  # SAT-19.2: the turned card's identity is public, not its place
            if name not in known:
                assert (
                    f'"{name}"' not in text and f"{name} " not in text and f" {name}" not in text
                ), f"seat {seat} sees {name} of seat {other}"
    if state.tk and seat != state.tm and not state.known:
        assert data["info"]["trump"] is None
    if seat != state.to_act:
        assert data["legal"] == []


def check_all(state: SatatState, rng: random.Random) -> None:
    check_rules(state)
    if rng.random() < 0.25:
        seat = rng.randrange(4)
        hidden_ok(state, seat)
        obs = state.observation(seat)
        det = state.determinize(seat, rng)
        assert det.observation(seat) == obs
        twin = state.clone()
        twin.apply(rng.choice(twin.legal_actions()))
        assert state.observation(seat) == obs, "clone is independent"


def play_one(seed: int, variant: dict[str, Any], carry: dict[str, Any]) -> SatatState:
    rng = random.Random(seed)
    state = deal(rng, variant, carry)
    playout(state, rng, lambda s: check_all(s, rng))
    res = state.result()
    check_tricks(state)
    # SAT-1.1: the 52 cards are conserved (hands + played).
    total = sum(h.bit_count() for h in state.hands) + sum(len(t[1]) for t in state.log)
    assert total + len(state.trick) == 52
    if res["outcome"] != "redeal":
        assert sum(res["tricks"]) == len(state.log)
        assert res["score"][res["won_by"]] == 1 and sum(res["score"]) == 1
        assert res["tricks"][res["won_by"]] >= 7
    else:
        assert res["score"] == [0, 0] and res["tricks"] == [0, 0]
    out = replay(json.loads(json.dumps(state.record())))
    assert out == {"ok": True, "over": True, "result": res}
    rng = random.Random(seed + 1)
    for seat in range(4):
        hidden_ok(state, seat)
        assert state.determinize(seat, rng).observation(seat) == state.observation(seat)
    return state


@FAST
@given(seed=SEEDS)
def test_playouts_main_game(seed: int) -> None:
    """SAT-8.3, SAT-8.5, SAT-9.1, SAT-19 over random main-game deals."""
    play_one(seed, VARIANTS[0], CARRIES[seed % 2])


@FAST
@given(seed=SEEDS)
def test_playouts_with_card_passing(seed: int) -> None:
    """SAT-7 gives against the oracle, exchange, then play; determinize after an exchange."""
    play_one(seed, VARIANTS[seed % 4], CARRIES[2 + seed % 2])


@FAST
@given(seed=SEEDS)
def test_playouts_trup_kasiet(seed: int) -> None:
    """SAT-15 over random deals: hidden trump, deduction, 2H leads before it is known."""
    play_one(seed, VARIANTS[1 + 3 * (seed % 2)], CARRIES[seed % 2])


@FAST
@given(seed=SEEDS)
def test_playouts_signals(seed: int) -> None:
    """SAT-16 over random deals at both signal levels, with and without Trup Kasiet."""
    play_one(seed, VARIANTS[2 + seed % 4], CARRIES[seed % 4])


@FAST
@given(seed=SEEDS)
def test_partial_records_replay_to_the_same_state(seed: int) -> None:
    """SAT-17.2: any prefix of a record replays to the same legal list."""
    rng = random.Random(seed)
    state = deal(rng, rng.choice(VARIANTS), rng.choice(CARRIES))
    while not state.is_over and rng.random() < 0.95:
        state.apply(rng.choice(state.legal_actions()))
        out = replay(state.record())
        if state.is_over:
            assert out["result"] == state.result()
        else:
            assert out["legal"] == state.legal_texts()
            assert out["to_act"] == state.to_act and out["phase"] == state.phase


@FAST
@given(seed=SEEDS)
def test_illegal_actions_change_nothing(seed: int) -> None:
    """SAT-17.3: a non-legal action raises and leaves the state as it was."""
    rng = random.Random(seed)
    state = deal(rng, rng.choice(VARIANTS), rng.choice(CARRIES))
    from folkcards.games.satat import TABLE

    while not state.is_over:
        legal = set(state.legal_actions())
        before = (state.record(), state.phase, state.to_act, list(state.hands))
        for a in rng.sample(TABLE.actions, 20):
            if a not in legal:
                try:
                    state.apply(a)
                except IllegalAction as exc:
                    assert "SAT-" in str(exc)
                else:
                    raise AssertionError(f"{a} was accepted")
        assert (state.record(), state.phase, state.to_act, list(state.hands)) == before
        state.apply(rng.choice(sorted(legal)))


def _mutate(obj: Any, rng: random.Random) -> Any:
    """One random structural mutation of a JSON value."""
    if isinstance(obj, dict) and obj and rng.random() < 0.7:
        key = rng.choice(sorted(obj))
        choice = rng.random()
        if choice < 0.2:
            del obj[key]
        elif choice < 0.6:
            obj[key] = _mutate(obj[key], rng)
        else:
            obj[key] = rng.choice([None, 0, -1, 2, 3, "x", [], {}, True, 2.0, "2H", [None]])
        return obj
    if isinstance(obj, list) and obj and rng.random() < 0.8:
        i = rng.randrange(len(obj))
        choice = rng.random()
        if choice < 0.25:
            del obj[i]
        elif choice < 0.5:
            obj.insert(i, copy.deepcopy(obj[rng.randrange(len(obj))]))
        elif choice < 0.75:
            obj[i], obj[-1] = obj[-1], obj[i]
        else:
            obj[i] = _mutate(obj[i], rng)
        return obj
    if isinstance(obj, str):
        return rng.choice(
            [obj.upper(), obj + " x", obj[:-1], "play 2H", "give 2H", "10h", "", "  "]
        )
    return rng.choice([None, 1, "play AS", ["AS"], {"a": 1}, -5, 99])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_fuzzed_records_never_crash_replay(seed: int) -> None:
    """SAT-18.1: mutated deal and match records give a result or the clean error object."""
    from folkcards.engine import Match
    from folkcards.games.satat import GAME

    rng = random.Random(seed)
    variant = rng.choice(VARIANTS)
    match = Match(GAME, variant, rng=random.Random(seed))
    for _ in range(rng.randrange(1, 4)):
        if match.is_over:
            break
        d = match.new_deal()
        playout(d, rng)
        match.finish_deal()
    records: list[Any] = [match.record(), match.deals[-1].record()]
    for base in records:
        for _ in range(5):
            obj = json.loads(json.dumps(base))
            for _ in range(rng.randrange(1, 4)):
                obj = _mutate(obj, rng)
            out = replay(obj)
            assert isinstance(out, dict) and isinstance(out.get("ok"), bool)
            if out["ok"]:
                assert "result" in out or "legal" in out
            else:
                assert set(out) >= {"index", "action", "error"}
                assert isinstance(out["error"], str) and "\n" not in out["error"]
                json.dumps(out)
