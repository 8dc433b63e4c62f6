"""Copies of a Sasku deal and the spectator's view (SAS-19).

A deal copied by ``pickle`` (every protocol), ``copy.copy``, ``copy.deepcopy`` or
``clone()`` at a random point of a random deal of a random variant must show exactly
what the original shows (legal actions, every seat's observation, the spectator's) and
play on to the same record and result, while the original stays as it was. The
spectator's observation (``public_observation``) holds only what every seat knows:
no hand, no legal actions, every ``return X`` hidden (SAS-7.7, SAS-19.1); a world
determinized from any seat's observation has the very same public observation.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sasku_helpers import LONE_KS, TWO_LONE, deal

from folkcards.cards import CARD_NAMES
from folkcards.engine import SPECTATOR
from folkcards.engine.records import load_deal
from folkcards.games.sasku import GAME, SaskuState, shuffled_pack

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def pickled(protocol: int) -> Callable[[SaskuState], Any]:
    """A copier through ``pickle`` with this protocol."""
    return lambda state: pickle.loads(pickle.dumps(state, protocol=protocol))


COPIES: dict[str, Callable[[SaskuState], Any]] = {
    **{f"pickle{p}": pickled(p) for p in range(pickle.HIGHEST_PROTOCOL + 1)},
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "clone": lambda s: s.clone(),
}


def random_point(seed: int) -> SaskuState:
    """A random deal of a random variant (SAS-17), some started from ``hands`` (SAS-6.6)
    or as a replay deal (SAS-15.2), played with random legal actions to a random point
    (the end included)."""
    rng = random.Random(seed)
    variant = GAME.normalize_variant(
        {
            "must_beat": rng.random() < 0.5,
            "exchange": rng.random() < 0.7,
            "target": rng.choice([1, 12, 16]),
        }
    )
    carry: dict[str, Any] = {}
    if rng.random() < 0.25:
        declarer = rng.choice([None, 0, 1, 2, 3])
        trump = "D" if declarer is None else rng.choice("CSHD")
        carry["replay"] = {"trump": trump, "declarer": declarer}
    dealer = rng.randrange(4)
    pack = shuffled_pack(rng)
    if rng.random() < 0.25:
        hands = [pack[9 * s : 9 * s + 9] for s in range(4)]
        state = GAME.new_deal(variant, dealer, None, hands=hands, carry=carry)
    else:
        state = GAME.new_deal(variant, dealer, pack, carry=carry)
    for _ in range(rng.randrange(56)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def views(state: SaskuState) -> dict[str, Any]:
    """Everything a client can read of a deal, as JSON-ready data, and a snapshot of every
    attribute of the state (the game, trump tables and caches aside), history as texts."""
    inner = {
        name: copy.deepcopy(getattr(state, name))
        for name in SaskuState.__slots__
        if name not in ("game", "history", "_legal", "_result", "config", "beats", "class_of")
    }
    return {
        "inner": inner,
        "history": [a.text for a in state.history],
        "phase": state.phase,
        "to_act": state.to_act,
        "legal": state.legal_texts(),
        "observations": [state.observation(s).to_dict() for s in range(4)],
        "public": state.public_observation().to_dict(),
        "record": state.record(),
        "result": state.result() if state.is_over else None,
    }


@pytest.mark.parametrize("how", list(COPIES))
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_copies_show_and_play_on_exactly_like_the_original(how: str, seed: int) -> None:
    """SAS-21.1, SAS-19: a copy has the same legal texts, observations, record; played on
    with the same random actions it reaches the same record and result (SAS-14.1), and
    playing it leaves the original unchanged."""
    state = random_point(seed)
    before = views(state)
    twin = COPIES[how](state)
    assert type(twin) is SaskuState and twin is not state and twin.game is GAME
    assert views(twin) == before
    rng = random.Random(seed ^ 0x5A5A)
    texts = []
    while not twin.is_over:
        action = rng.choice(twin.legal_actions())
        twin.apply(action)
        texts.append(action.text)
    assert views(state) == before  # the original did not move with its copy
    for text in texts:
        state.apply(text)
    assert views(state) == views(twin) == views(replayed(twin))


def exchange_deal(seed: int) -> SaskuState:
    """A deal that surely has a lone-picture exchange (SAS-7): seat 1 holds only KS, and
    with ``TWO_LONE`` its partner seat 3 only KD (asked after a ``keep``, SAS-7.1)."""
    variant = {"must_beat": seed % 2 == 0}
    carry = {"replay": REPLAY} if seed % 3 else {}
    return deal(TWO_LONE if seed % 2 else LONE_KS, dealer=0, variant=variant, **carry)


def replayed(state: SaskuState) -> SaskuState:
    """A fresh deal from the state's own record: what the state must still agree with."""
    fresh = load_deal(state.record())
    assert isinstance(fresh, SaskuState)
    return fresh


REPLAY = {"trump": "S", "declarer": 1}


@pytest.mark.parametrize("seed", range(6))
def test_copies_at_every_point_of_a_deal_with_an_exchange(seed: int) -> None:
    """At every point of a deal with ``give``/``return`` (SAS-7.3, SAS-7.4: the pending
    return included) every kind of copy shows the same and plays on alone."""
    rng = random.Random(seed)
    state = exchange_deal(seed)
    while True:
        before = views(state)
        assert views(replayed(state)) == before
        for how, make in COPIES.items():
            twin = make(state)
            assert views(twin) == before, how
            while not twin.is_over:
                twin.apply(rng.choice(twin.legal_actions()))
            assert views(state) == before, how
        if state.is_over:
            break
        if not state.history:  # seat 1's lone KS: give it, or keep it (seat 3 is asked)
            state.apply("keep" if seed in (1, 5) else "give KS")
        else:
            state.apply(rng.choice(state.legal_actions()))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_a_copy_of_a_copy_and_the_original_are_independent(seed: int) -> None:
    """Playing the original after copying leaves the pickled, copied and cloned copies
    at the copy point (no list is shared: hands, trick, exchanges, history…)."""
    state = random_point(seed)
    before = views(state)
    copies = [make(state) for make in COPIES.values()]
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert views(state) == views(replayed(state))
    for twin in copies:
        assert views(twin) == before


def public_cards(state: SaskuState) -> set[str]:
    """The cards a spectator may see named: dealt face up (SAS-6.4), given pictures
    (SAS-7.3, SAS-7.7) and played cards (SAS-19.1)."""
    cards = {CARD_NAMES[c] for c in state.face_up}
    cards |= {CARD_NAMES[e[1]] for e in state.exchanges}
    cards |= {CARD_NAMES[c] for _leader, trick, _w in state.completed for c in trick}
    cards |= {CARD_NAMES[c] for c in state.trick}
    return cards


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_sas_19_1_public_observation_is_what_every_seat_shares(seed: int) -> None:
    """SAS-19.1: the spectator sees no hand, no legal action, every return hidden; its
    view has the shape of a seat's; and a world determinized from any seat's observation
    has exactly the same public observation (it depends on no private fact)."""
    state = random_point(seed)
    pub = state.public_observation()
    data = pub.to_dict()
    assert pub.seat == SPECTATOR and data["seat"] is None
    assert pub.hand == 0 and data["hand"] == [] and pub.legal == () and data["legal"] == []
    assert all(t == "return ?" or not t.startswith("return") for t in pub.history)  # SAS-7.7
    assert all(e["returned"] in (None, "?") for e in pub.info["exchanges"])
    named = {tok for tok in json.dumps(data).replace('"', " ").split() if tok in CARD_NAMES}
    assert named <= public_cards(state)  # no card of a hand, unless public
    in_exchange = {s for e in state.exchanges for s in (e[0], e[2])}
    for seat in range(4):
        obs = state.observation(seat)
        assert set(obs.info) == set(pub.info) and obs.actors == pub.actors
        assert (obs.phase, obs.to_act, obs.carry, obs.result) == (
            pub.phase,
            pub.to_act,
            pub.carry,
            pub.result,
        )
        assert all(p in (o, "return ?") for p, o in zip(pub.history, obs.history, strict=True))
        if seat not in in_exchange:  # a seat that took part in no exchange sees the same
            assert obs.history == pub.history and obs.info == pub.info
        world = GAME.determinize(obs, random.Random(seed + seat))
        assert world.public_observation() == pub


def test_sas_7_7_spectator_sees_the_return_happen_but_not_its_card() -> None:
    """SAS-7.7, SAS-19.1: after ``give KS``/``return AD`` the partners see AD, the other
    seats and the spectator see ``return ?``; the picture is public."""
    state = deal(LONE_KS)
    state.apply("give KS")
    pending = state.public_observation()
    assert pending.info["exchanges"] == [
        {"giver": 1, "picture": "KS", "returner": 3, "returned": None}
    ]
    assert pending.to_act == 3 and pending.phase == "exchange" and pending.legal == ()
    state.apply("return AD")
    pub = state.public_observation()
    assert pub.history == ("give KS", "return ?")
    assert pub.info["exchanges"][0]["returned"] == "?"
    assert state.observation(1).history[-1] == "return AD"
    assert state.observation(3).info["exchanges"][0]["returned"] == "AD"
    assert state.observation(0).history == pub.history
    assert state.observation(2).info == pub.info
    assert "AD" not in json.dumps(pub.to_dict())


def test_sas_19_1_spectator_sees_the_face_up_cards_of_deal_to_x() -> None:
    """SAS-6.4, SAS-19.1: the cards dealt face up and their recipients are public."""
    rng = random.Random(3)
    pack = shuffled_pack(rng)
    state = GAME.new_deal(GAME.normalize_variant({}), 0, pack)
    state.apply(f"deal to {CARD_NAMES[pack[4]]}")
    pub = state.public_observation()
    assert pub.info["face_up"] == state.observation(2).info["face_up"]
    assert [c for c, _ in pub.info["face_up"]] == [CARD_NAMES[c] for c in pack[:5]]
    assert {s for _, s in pub.info["face_up"]} == {1}  # deck[0..8] go to eldest (SAS-6.3)


def test_sas_15_2_spectator_sees_the_replay_key_and_the_result() -> None:
    """SAS-15.2: a replay deal's ``replay`` is public carry; at the end the result too."""
    state = deal(LONE_KS, replay={"trump": "H", "declarer": 2})
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    pub = state.public_observation()
    assert pub.carry == {"replay": {"trump": "H", "declarer": 2}}
    assert pub.result == state.result() and pub.to_act is None and pub.phase == "over"


def test_pickled_deal_shares_the_module_tables() -> None:
    """A pickled deal comes back with the registry's game, the ACTIONS table's own actions
    and the trump tables of TRUMP_CONFIGS, and a result a caller edits does not change the
    deal's result (SAS-14.1)."""
    from folkcards.games.sasku import ACTIONS, TRUMP_CONFIGS

    rng = random.Random(11)
    state = GAME.random_deal(rng)
    while state.phase != "play" or len(state.trick) < 2:
        state.apply(rng.choice(state.legal_actions()))
    twin = pickle.loads(pickle.dumps(state))
    assert twin.game is GAME
    assert all(a is ACTIONS.actions[a] for a in twin.history)
    assert twin.config is TRUMP_CONFIGS[twin.trump] and twin.beats is twin.config.beats
    while not twin.is_over:
        twin.apply(rng.choice(twin.legal_actions()))
    res = twin.result()
    res["score"][0] += 100
    res["points"].append(1)
    assert twin.result() != res and twin.clone().result() == twin.result()


OLD_PICKLE = (
    "eNqlU8tu00AUdRJnkig0LY9KUAqksCCFNizYICEkkFhUXKlCBSQWIDO1b2yrfskzLrBACgvUNro7hv9hy1eVO3HT"
    "sscjyzOeOec+zpmp++tPy5k/tDrJkwNfloEahzJFNVZSHVSGem/s9yXKxPw0m9/NNzMi154wdOMCglkYZzguMYyV"
    "Lr8aaoWoGUDtmuaH2TPUOZRlLDM95+illdLePkptjkloWVoAXKIufvEjmYVojqtowFsBh8bSQJN6WZV6ihHKgEsC"
    "kwAVY1ok/Epre6ZBQvo6L5X5aEbQ4NHi4fC3+c+sXjl2hdQuIqm4GLdIJOctdO4xhQ3XiZWXHzLtCbkB+gdzzi5c"
    "g5twFQSjB7AJQ9gGF27BZViHNWZehivQhtvwEB7BHbgPWzCGFXgAdznmBizBCFY5dgepb+vSHpcaKLNLosR5AjxL"
    "UUd5YKipc+7ZRProVcX/Becy60DMMhMrUzF0hjOx4TjT6c5M0HDouO5MPH9xves0kZYXEnj5ZKKsLC4NNMrUW2wE"
    "lujkGGmpwCyIs9ALY9upV6f8UG9xzMarhVixDUdJ3SgOI28/DgwI6i8WgdXOoX4hlcLAS9kydn/Zdr+Mg4s8HGrr"
    "skoLK3qXNUlkaaGtc6htKuvVS3jOu0qZWWfwu/FkeuqQSFCeRWKW+EzQBmwhdT7HWcZlWAf17RzLudHsWVHkcaZr"
    "R61CD9kiFnxuMW5C/cOzAnJrrFP9PC0S1HWjoDXiBqyzKCNmbBzxO2KVNli/NRviyHAGXomqSjQboBPxHcr5Elno"
    "PXgMn+a+fcpjG3bgNXjwHvbgHbyFXXgGHzgjP88mccg3Zn/8F7v/SgA="
)
"""A deal pickled (protocol 4, zlib, base64) by the single-module ``folkcards.games.sasku``
of before the package: its class is named ``folkcards.games.sasku.SaskuDeal``."""
OLD_RECORD = {
    "game": "sasku",
    "variant": {"target": 12},
    "dealer": 2,
    "deck": [
        "6C",
        "7S",
        "KH",
        "8S",
        "8C",
        "AC",
        "KS",
        "QD",
        "8H",
        "8D",
        "TC",
        "JH",
        "TS",
        "QH",
        "AH",
        "KC",
        "QS",
        "9S",
        "9C",
        "TH",
        "TD",
        "6D",
        "9H",
        "AD",
        "9D",
        "7D",
        "JS",
        "JD",
        "6H",
        "QC",
        "7H",
        "AS",
        "KD",
        "6S",
        "JC",
        "7C",
    ],
    "actions": [
        "deal to 6H",
        "give JS",
        "return AC",
        "bid 5",
        "bid 6",
        "pass",
        "pass",
        "diamonds",
        "play JS",
        "play QH",
        "play 6D",
        "play KD",
        "play TH",
        "play 7H",
        "play 8H",
        "play AH",
        "play KC",
        "play 9D",
    ],
}


def test_a_pickle_from_before_the_package_still_loads() -> None:
    """A state pickled by the earlier single-module Sasku (class ``SaskuDeal``, no rules
    slot) loads as a SaskuState with its rules, plays on by the rules (SAS-10.3) and has
    the record it had."""
    import base64
    import zlib

    state = pickle.loads(zlib.decompress(base64.b64decode(OLD_PICKLE)))
    assert type(state) is SaskuState and state.game is GAME
    assert state.rules.target == 12 and state.rules.must_beat
    assert state.record() == OLD_RECORD
    assert state.legal_texts() == ["play QC", "play JC", "play JD"]
    twin = load_deal(OLD_RECORD)
    assert all(state.observation(s) == twin.observation(s) for s in range(4))
