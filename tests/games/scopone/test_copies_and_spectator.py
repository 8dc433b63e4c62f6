"""Copies of a Scopone deal and the spectator's view (SCO-9).

A deal copied by ``pickle`` (every protocol), ``copy.copy``, ``copy.deepcopy`` or
``clone()`` at a random point of a random deal of a random variant must show exactly
what the original shows (legal actions, every seat's observation, the spectator's) and
play on to the same record and result, while the original stays as it was. Only the
hands are hidden in Scopone (SCO-9), so the spectator sees every play and capture, the
table, both piles and the hand sizes: exactly what any seat sees but its hand, and a
world determinized from any seat's observation has the same public observation.
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

from folkcards.cards import CARD_NAMES, DECK_40, card, iter_cards, mask_text
from folkcards.engine import SPECTATOR
from folkcards.engine.records import load_deal
from folkcards.games.scopone import GAME, ScoponeState, action_for

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def pickled(protocol: int) -> Callable[[ScoponeState], Any]:
    """A copier through ``pickle`` with this protocol."""
    return lambda state: pickle.loads(pickle.dumps(state, protocol=protocol))


COPIES: dict[str, Callable[[ScoponeState], Any]] = {
    **{f"pickle{p}": pickled(p) for p in range(pickle.HIGHEST_PROTOCOL + 1)},
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "clone": lambda s: s.clone(),
}
CARDS = list(iter_cards(DECK_40))
KINGS = [card("K", s) for s in "CSHD"]


def random_variant(rng: random.Random) -> dict[str, Any]:
    """Any combination of the SCO-8 options (none is forbidden, SCO-8.2)."""
    return GAME.normalize_variant(
        {
            "scientifico": rng.random() < 0.4,
            "dealer_last_sweep": rng.random() < 0.5,
            "re_bello": rng.random() < 0.5,
            "napola": rng.random() < 0.5,
            "target": rng.choice([1, 11, 21]),
            "primiera_pictures": rng.choice(["flat", "graded"]),
        }
    )


def random_point(seed: int) -> ScoponeState:
    """A random deal of a random variant, some from ``hands`` (SCO-3.5), a few void (three
    kings on the table, SCO-3.4), played with random legal actions to a random point."""
    rng = random.Random(seed)
    variant = random_variant(rng)
    dealer = rng.randrange(4)
    deck = CARDS.copy()
    rng.shuffle(deck)
    if not variant["scientifico"] and rng.random() < 0.08:  # SCO-3.4: 3 kings to the table
        for pos, king in zip((12, 13, 26), KINGS, strict=False):
            j = deck.index(king)
            deck[pos], deck[j] = deck[j], deck[pos]
    if rng.random() < 0.25:
        size = 10 if variant["scientifico"] else 9
        hands = [deck[size * s : size * s + size] for s in range(4)]
        state = GAME.new_deal(variant, dealer, None, hands=hands, extra={"table": deck[4 * size :]})
    else:
        state = GAME.new_deal(variant, dealer, deck)
    for _ in range(rng.randrange(42)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def views(state: ScoponeState) -> dict[str, Any]:
    """Everything a client can read of a deal, as JSON-ready data, and a snapshot of every
    attribute of the state (the game and the legal cache aside), history as texts."""
    inner = {
        name: copy.deepcopy(value)
        for name, value in vars(state).items()
        if name not in ("game", "history", "_legal")
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


def replayed(state: ScoponeState) -> ScoponeState:
    """A fresh deal from the state's own record: what the state must still agree with."""
    fresh = load_deal(state.record())
    assert isinstance(fresh, ScoponeState)
    return fresh


@pytest.mark.parametrize("how", list(COPIES))
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_copies_show_and_play_on_exactly_like_the_original(how: str, seed: int) -> None:
    """SCO-4, SCO-9: a copy has the same legal texts, observations, record; played on with
    the same random actions it reaches the same record and result (SCO-6.8), and playing
    it leaves the original unchanged."""
    state = random_point(seed)
    before = views(state)
    twin = COPIES[how](state)
    assert type(twin) is ScoponeState and twin is not state and twin.game is GAME
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


@pytest.mark.parametrize("seed", range(4))
def test_copies_at_every_point_of_a_deal(seed: int) -> None:
    """At every turn of a deal (SCO-4.1) every kind of copy shows the same and plays on
    alone; the original always agrees with a fresh replay of its record."""
    rng = random.Random(seed)
    state = GAME.new_deal(random_variant(rng), seed, rng.sample(CARDS, 40))
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
        state.apply(rng.choice(state.legal_actions()))


def test_pickled_deal_uses_the_interned_actions() -> None:
    """A pickled deal comes back with the registry's game and this module's interned
    actions (``action_for``), and its legal actions are recomputed, not carried."""
    rng = random.Random(2)
    state = GAME.random_deal(rng)
    for _ in range(13):
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    twin = pickle.loads(pickle.dumps(state))
    assert twin.game is GAME and twin._legal is None
    assert all(a is action_for(a.card, a.take) for a in twin.history)
    assert twin.legal_actions() == legal and [a.text for a in twin.legal_actions()] == [
        a.text for a in legal
    ]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_sco_9_public_observation_is_what_every_seat_shares(seed: int) -> None:
    """SCO-9: the spectator sees no hand and no legal action, and everything else a seat
    sees (every play and capture in full, table, piles, hand sizes); a world determinized
    from any seat's observation has exactly the same public observation."""
    state = random_point(seed)
    pub = state.public_observation()
    data = pub.to_dict()
    assert pub.seat == SPECTATOR and data["seat"] is None
    assert pub.hand == 0 and data["hand"] == [] and pub.legal == () and data["legal"] == []
    assert pub.history == tuple(a.text for a in state.history)  # every play is public
    held = {CARD_NAMES[c] for h in state.hands for c in iter_cards(h)}
    named = {tok for tok in json.dumps(data).replace('"', " ").split() if tok in CARD_NAMES}
    assert not named & held  # no card still in a hand
    assert pub.info["table"] == mask_text(state.table)
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.info == pub.info and obs.history == pub.history and obs.actors == pub.actors
        assert (obs.phase, obs.to_act, obs.carry, obs.result) == (
            pub.phase,
            pub.to_act,
            pub.carry,
            pub.result,
        )
        world = GAME.determinize(obs, random.Random(seed + seat))
        assert world.public_observation() == pub


def test_sco_3_4_spectator_of_a_void_deal() -> None:
    """SCO-3.4: a void deal is over at once; the spectator sees the table and the result."""
    deck = CARDS.copy()
    for pos, king in zip((12, 13, 26), KINGS, strict=False):
        j = deck.index(king)
        deck[pos], deck[j] = deck[j], deck[pos]
    state = GAME.new_deal(GAME.normalize_variant({}), 1, deck)
    pub = state.public_observation()
    assert pub.is_over and pub.result == {"score": [0, 0], "redeal": True}
    assert pub.info["redeal"] is True and len(pub.info["initial_table"]) == 4
    assert pub.history == () and pub.hand == 0
