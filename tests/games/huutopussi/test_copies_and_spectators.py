"""Copies of a deal (``pickle``, ``copy.copy``, ``copy.deepcopy``, ``clone``) and the
spectator's view (``public_observation``, HUU-14) at random points of random deals.

A copy must behave exactly as the original — the same ``legal`` (HUU-16.2, 16.3), the same
observation for every seat and for a spectator, the same record — and play on to the same
result (HUU-9.5) without changing the original. The spectator sees only what HUU-14 makes
public: exactly what a seat that took no part in the exchange or the discard sees, without
its hand, and nothing that a world determinized from any seat's observation would change.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import DECK_36, parse_card
from folkcards.engine.actions import Action
from folkcards.engine.api import SPECTATOR, Observation
from folkcards.games.huutopussi import GAME, HuutopussiState
from folkcards.games.huutopussi.rules import CONFIGS, NO_TRUMP, PHASES, TABLE, rules_of

VARIANTS: list[dict[str, Any]] = [
    {},
    {"no_trick_rule": "porvoo", "tie": "extra_deal"},
    {"card_points": "11-10-4-3-2", "last_trick": 10, "marriage_values": "bridge"},
    {"erlangen": True},
    {"erlangen": True, "marriage_values": "bridge", "tie": "extra_deal"},
    {"players": 3},
    {"players": 3, "card_points": "11-10-4-3-2", "last_trick": 10, "marriage_values": "bridge"},
]
IDS = [json.dumps(v) for v in VARIANTS]
ATTEMPTS = ("declare", "ask", "kontra", "re")
PRIVATE = ("given", "returned", "discards")  # the per-seat keys of ``info`` (HUU-14.3/4/6)
HIDDEN = ("give", "return", "discard")  # actions whose card a spectator never sees


def choose(state: HuutopussiState, rng: random.Random) -> Action:
    """A random legal action, biased towards declaration attempts, asks and calls (so that
    phases ``answer`` and the Erlangen calls come up) and against redeals and long bidding."""
    legal = state.legal_actions()
    attempts = [a for a in legal if a.text.split()[0] in ATTEMPTS]
    if attempts and rng.random() < 0.6:
        return rng.choice(attempts)
    rest = [a for a in legal if a.text != "redeal"] if rng.random() < 0.9 else list(legal)
    passes = [a for a in rest if a.text == "pass"]
    if passes and rng.random() < 0.5:
        return passes[0]
    return rng.choice(rest or list(legal))


def new_deal(variant: dict[str, Any], rng: random.Random) -> HuutopussiState:
    """A random deal; sometimes with match totals that put a side under huutokielto (HUU-4.7)."""
    v = GAME.normalize_variant(variant)
    k = GAME.num_teams(v)
    carry = None
    if rng.random() < 0.3:
        carry = {"totals": [rng.choice((0, -500, -620, 480)) for _ in range(k)]}
    deck = [c for c in range(52) if DECK_36 >> c & 1]
    rng.shuffle(deck)
    s = GAME.new_deal(v, rng.randrange(GAME.num_seats(v)), deck, carry=carry)
    assert isinstance(s, HuutopussiState)
    return s


def play_on(state: HuutopussiState, rng: random.Random) -> list[str]:
    """Play ``state`` to its end with ``choose``; the texts of the actions played."""
    texts = []
    while not state.is_over:
        a = choose(state, rng)
        texts.append(a.text)
        state.apply(a)
    return texts


def snapshot(s: HuutopussiState) -> tuple[Any, ...]:
    """Everything a client can ask of a state."""
    return (
        s.phase,
        s.to_act,
        s.is_over,
        s.legal_texts(),
        [s.observation(seat) for seat in range(s.num_seats)],
        s.public_observation(),
        s.record(),
        s.result() if s.is_over else None,
    )


COPIES: dict[str, Callable[[HuutopussiState], object]] = {
    "pickle": lambda s: pickle.loads(pickle.dumps(s)),
    "pickle protocol 0": lambda s: pickle.loads(pickle.dumps(s, 0)),
    "pickle protocol 2": lambda s: pickle.loads(pickle.dumps(s, 2)),
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "clone": lambda s: s.clone(),
}


def check_copies(s: HuutopussiState, seed: int, play_original: bool) -> None:
    """Every kind of copy of ``s`` equals it, and played on with the same random actions
    gives the same actions, record and result; playing a copy leaves ``s`` unchanged."""
    before = snapshot(s)
    copies = {name: make(s) for name, make in COPIES.items()}
    for name, c in copies.items():
        assert type(c) is HuutopussiState and c is not s, name
        assert snapshot(c) == before, f"{name}: the copy differs from the original"
    outcomes = {}
    for name, c in copies.items():
        assert isinstance(c, HuutopussiState)
        texts = play_on(c, random.Random(seed))
        assert snapshot(s) == before, f"playing a {name} copy changed the original"
        outcomes[name] = (texts, c.record(), c.result())
    if play_original:
        outcomes["original"] = (play_on(s, random.Random(seed)), s.record(), s.result())
    first = next(iter(outcomes.values()))
    for name, outcome in outcomes.items():
        assert outcome == first, f"{name} played on differently"


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_copies_behave_and_play_on_like_the_original(variant: dict[str, Any], seed: int) -> None:
    """HUU-16.2, HUU-16.3, HUU-14, HUU-9.5: pickle / copy / deepcopy / clone at random points
    (every phase: bidding, give, contract, return, discard, play, answer, and the end)."""
    rng = random.Random(seed)
    s = new_deal(variant, rng)
    stop = rng.randrange(80)  # where the original itself is played on as well
    step = 0
    while not s.is_over:
        if step == stop:
            check_copies(s, rng.randrange(2**32), play_original=True)
            return
        if rng.random() < 0.2:
            check_copies(s, rng.randrange(2**32), play_original=False)
        s.apply(choose(s, rng))
        step += 1
    check_copies(s, 0, play_original=False)


EXPECTED_PHASES = {
    4: {"bidding", "give", "contract", "return", "play", "answer", "over"},
    3: {"bidding", "discard", "contract", "play", "answer", "over"},
}


@pytest.mark.parametrize("variant", [{}, {"erlangen": True}, {"players": 3}], ids=json.dumps)
def test_a_pickled_state_acts_in_its_phase(variant: dict[str, Any]) -> None:
    """HUU-16.2: after a pickle round trip, a state in each phase offers that phase's actions
    (the phase was tested by the identity of its text: in ``play`` the unpickled state
    offered ``answer no``); the tables it shares are the canonical ones again."""
    n = GAME.num_seats(GAME.normalize_variant(variant))
    seen: set[str] = set()
    for seed in range(200):
        rng = random.Random(seed)
        s = new_deal(variant, rng)
        while True:
            for proto in range(pickle.HIGHEST_PROTOCOL + 1):
                t = pickle.loads(pickle.dumps(s, proto))
                assert isinstance(t, HuutopussiState)
                assert (t.phase, t.to_act, t.legal_texts()) == (s.phase, s.to_act, s.legal_texts())
                assert t.rules is rules_of(t.variant) and t.game is GAME
                assert t.cfg is CONFIGS[t.trump if t.trump >= 0 else NO_TRUMP]
                assert all(a is TABLE.actions[a] for a in t.history)
            seen.add(s.phase)
            if s.is_over:
                break
            s.apply(choose(s, rng))
        if seen >= EXPECTED_PHASES[n]:
            break
    assert seen >= EXPECTED_PHASES[n]


def test_the_phase_code_and_text_agree_at_every_step() -> None:
    """HUU-16.2: the internal phase code and the public ``phase`` text never disagree."""
    for seed, variant in enumerate(VARIANTS * 6):
        rng = random.Random(seed)
        s = new_deal(variant, rng)
        while True:
            assert PHASES[s.ph] == s.phase
            if s.is_over:
                assert s.phase == "over"
                break
            s.apply(choose(s, rng))


def test_clone_copies_every_slot_and_shares_no_mutable_one() -> None:
    """``clone`` sets every slot from the same slot (marked values, one per slot), and no
    list or dict of a copy is the original's: playing one never changes the other."""
    marked = object.__new__(HuutopussiState)
    for name in HuutopussiState.__slots__:
        setattr(marked, name, {name: 0})  # survives list(), dict() and the result copy
    c = marked.clone()
    for name in HuutopussiState.__slots__:
        assert getattr(c, name) in ({name: 0}, [name]), f"slot {name} copied from another"
    for seed, variant in enumerate(VARIANTS * 3):
        rng = random.Random(seed)
        s = new_deal(variant, rng)
        while True:
            if rng.random() < 0.1 or s.is_over:
                for make in COPIES.values():
                    c = make(s)
                    for name in HuutopussiState.__slots__:
                        value = getattr(s, name)
                        if isinstance(value, (list, dict, set)):
                            assert getattr(c, name) is not value, f"{name} is shared"
                            assert getattr(c, name) == value
                        elif name != "_legal":  # the legal cache may be left to rebuild
                            assert getattr(c, name) == value, f"{name} differs"
            if s.is_over:
                break
            s.apply(choose(s, rng))


def test_a_copy_owns_its_variant_and_a_result_is_a_fresh_copy() -> None:
    """HUU-9.5: changing a result's lists, or a copy's variant, changes nothing else."""
    rng = random.Random(5)
    s = new_deal({}, rng)
    c = s.clone()
    c.variant["tie"] = "extra_deal"
    assert s.variant["tie"] == "draw"
    play_on(s, rng)
    res = s.result()
    res["score"].append(1)
    res["tricks"][0] = 99
    res["trumps"].append("X")
    d = s.clone()
    assert s.result() != res and d.result() == s.result()
    d.result()["points"].clear()
    assert s.result()["points"] == d.result()["points"] != []


# --- the spectator (HUU-14) ------------------------------------------------------------------


def cards_in(obj: Any) -> int:
    """Every card named anywhere in a JSON value."""
    found = 0
    if isinstance(obj, dict):
        for v in obj.values():
            found |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= cards_in(v)
    elif isinstance(obj, str):
        for tok in obj.split():
            if len(tok) == 2 and tok[0] in "AKQJT9876" and tok[1] in "CSHD":
                found |= 1 << parse_card(tok)
    return found


def public_cards(s: HuutopussiState) -> int:
    """The cards everyone has seen (HUU-14.6, 14.7, 14.8): played cards, the widow once taken."""
    seen = sum(1 << parse_card(a.text[5:]) for a in s.history if a.text.startswith("play "))
    if s.num_seats == 3 and s.declarer >= 0:
        seen |= sum(1 << c for c in s.widow)
    return seen


def involved(s: HuutopussiState, seat: int) -> bool:
    """A seat that took part in the exchange (HUU-14.3/14.4) or made the discard (HUU-14.6)."""
    if s.declarer < 0:
        return False
    return seat == s.declarer or (s.num_seats == 4 and seat == s.partner)


def snapshots(variant: dict[str, Any], seed: int) -> list[HuutopussiState]:
    rng = random.Random(seed)
    s = new_deal(variant, rng)
    snaps = []
    while not s.is_over:
        if rng.random() < 0.1:
            snaps.append(s.clone())
        s.apply(choose(s, rng))
    rng.shuffle(snaps)
    return [*snaps[:4], s]


def check_public(s: HuutopussiState) -> Observation:
    """The shape and content of the spectator's observation of ``s`` (HUU-14)."""
    pub = s.public_observation()
    assert pub.seat == SPECTATOR and pub.hand == 0 and pub.legal == ()
    assert s.observation(SPECTATOR) == pub
    data = pub.to_dict()
    json.dumps(data)
    assert data["seat"] is None and data["hand"] == [] and data["legal"] == []
    assert not cards_in(data) & ~public_cards(s), "the spectator sees a hidden card"
    # HUU-14.3, 14.4, 14.6 hidden; HUU-14.2, 14.5, 14.7 shown
    texts = [a.text for a in s.history]
    assert list(pub.history) == [
        f"{t.split()[0]} ?" if t.split()[0] in HIDDEN else t for t in texts
    ]
    assert list(pub.actors) == s.actors
    assert all(pub.info[k] is None for k in PRIVATE)
    assert (pub.phase, pub.to_act, pub.dealer, pub.num_seats) == (
        s.phase,
        s.to_act,
        s.dealer,
        s.num_seats,
    )
    assert pub.result == (s.result() if s.is_over else None)
    assert pub.carry == {"totals": list(s.totals)}
    for seat in range(s.num_seats):
        obs = s.observation(seat)
        assert set(obs.info) == set(pub.info), "the spectator's info has another shape"
        assert {k: v for k, v in obs.info.items() if k not in PRIVATE} == {
            k: v for k, v in pub.info.items() if k not in PRIVATE
        }
        assert (obs.phase, obs.to_act, obs.actors, obs.carry, obs.result, obs.variant) == (
            pub.phase,
            pub.to_act,
            pub.actors,
            pub.carry,
            pub.result,
            pub.variant,
        )
        if not involved(s, seat):  # exactly an uninvolved seat's view, without its hand
            assert dataclasses.replace(obs, seat=SPECTATOR, hand=0, legal=()) == pub
    return pub


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_public_observation_is_public_and_every_world_agrees(
    variant: dict[str, Any], seed: int
) -> None:
    """HUU-14.1–14.8: the spectator sees the public facts only; a world determinized from
    any seat's observation (also one whose variant went through JSON) has the same
    public observation as the real deal."""
    for k, s in enumerate(snapshots(variant, seed)):
        pub = check_public(s)
        for seat in range(s.num_seats):
            obs = s.observation(seat)
            world = GAME.determinize(obs, random.Random(seed + 7 * k + seat))
            assert world.public_observation() == pub, f"seat {seat}'s world differs"
            assert world.observation(seat) == obs
        sent = dataclasses.replace(
            s.observation(k % s.num_seats), variant=json.loads(json.dumps(dict(s.variant)))
        )  # an observation that went to a client and back
        assert GAME.determinize(sent, random.Random(seed)).public_observation() == pub


def test_public_observation_hides_the_exchange_and_the_discard(deal: Any) -> None:
    """HUU-14.3, HUU-14.4, HUU-14.6: the spectator sees that cards were exchanged or
    discarded, and how many, not which; the widow once taken (HUU-6.1)."""
    s = deal(actions=["bid 50", "pass", "pass", "pass", "give KD", "give QD"])
    pub = s.public_observation()
    assert pub.history[-2:] == ("give ?", "give ?") and pub.info["given_count"] == 2
    assert s.observation(0).history[-2:] == ("give KD", "give QD")  # the declarer
    assert s.observation(2).info["given"] == ["KD", "QD"]  # the giver
    assert pub.info["given"] is None and pub.info["returned"] is None
    assert pub.info["hand_sizes"] == [9, 9, 7, 9]
    widow = "AS KS AC"
    hands3 = ["AH KH QH TH 6S 6C 6D 9S 8S 7S 9C", "JH 9H 8H QS JS KC QC AD 7D JD 9D"]
    hands3 += ["7H 6H TS TC JC KD QD TD 8C 7C 8D"]
    s3 = deal(hands=hands3, widow=widow, variant={"players": 3}, dealer=2)
    assert s3.public_observation().info["widow"] is None  # not yet taken
    for a in ["bid 50", "pass", "pass", "discard AH", "discard 9S"]:
        s3.apply(a)
    pub3 = s3.public_observation()
    assert pub3.history[-2:] == ("discard ?", "discard ?") and pub3.info["discard_count"] == 2
    assert pub3.info["widow"] == ["AS", "KS", "AC"] and pub3.info["discards"] is None
    assert s3.observation(0).info["discards"] == ["AH", "9S"]  # the declarer only
    assert s3.observation(1).info["discards"] is None


def test_observation_of_a_seat_outside_the_deal_is_refused(deal: Any) -> None:
    """HUU-14.1: no seat number reveals a hand that is not its own (``-2`` would have
    read the last seat's hand); SPECTATOR is the public observation."""
    s = deal()
    for seat in (-2, 4, 7):
        with pytest.raises(ValueError):
            s.observation(seat)
    assert s.observation(SPECTATOR).hand == 0
