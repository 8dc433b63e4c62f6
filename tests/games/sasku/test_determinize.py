"""Sasku's determinizer on the engine's kit (``folkcards.games.sasku.determinize``).

What an observation says is read into facts — known cards, cards played, voids, exact
picture counts of the seats in the exchange (SAS-7.1), bids (SAS-8.4) and the named trump
(SAS-9.1) — and every sampled world keeps them, besides having the very observation it
was drawn from (SAS-19.1). An observation that no deal can match fails at once, and one
that no draw matches fails with a clear error.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sasku_helpers import LONE_KS, TWO_LONE, apply_all, cards, deal

import folkcards.games.sasku.determinize as det
from folkcards.cards import parse_card
from folkcards.engine.api import FolkcardsError, Observation
from folkcards.engine.determinize import DeterminizeError, Infeasible
from folkcards.games.sasku import GAME, PICTURES, SUIT_CARDS, SaskuDeal, SaskuState
from folkcards.games.sasku.determinize import Exchange, Facts
from folkcards.games.sasku.rules import DECK


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


def test_the_old_state_name_is_the_state() -> None:
    assert SaskuDeal is SaskuState


def test_facts_of_an_exchange_with_a_hidden_return() -> None:
    """SAS-7.1, SAS-7.3, SAS-7.7: seat 1 kept its lone KS, seat 3 gave its lone KD to it
    and got a suit card back face down; seat 0 sees the KD move but not the return."""
    state = apply_all(deal(TWO_LONE), "keep; give KD; return 9S")
    obs = state.observation(0)
    assert "return ?" in obs.history
    facts = Facts.of(obs)
    assert facts.exchanges == [Exchange(3, parse_card("KD"), 1, None, True)]
    assert facts.pictures == [None, 2, None, 0]  # kept, then received; gave its only one
    assert facts.known[1] == mask("KD") and facts.known[0] == state.hands[0]
    rng = random.Random(4)
    for _ in range(30):
        world = GAME.determinize(obs, rng)
        assert world.observation(0) == obs
        held = world.hands[1] & PICTURES  # its own lone picture (any) and the KD
        assert held.bit_count() == 2 and held & mask("KD")
        assert not world.hands[3] & PICTURES
        returned = world.exchanges[0][3]
        assert SUIT_CARDS >> returned & 1 and world.hands[3] >> returned & 1


def test_the_seat_asked_now_holds_one_picture() -> None:
    """SAS-7.1, SAS-7.2: seat 3 is asked after seat 1 kept, so it holds exactly one
    picture in every world — a fact of the observation's ``to_act`` alone."""
    obs = apply_all(deal(TWO_LONE), "keep").observation(0)
    assert obs.phase == "exchange" and obs.to_act == 3
    assert Facts.of(obs).pictures == [None, 1, None, 1]
    rng = random.Random(2)
    for _ in range(30):
        world = GAME.determinize(obs, rng)
        assert (world.hands[3] & PICTURES).bit_count() == 1
        assert (world.hands[1] & PICTURES).bit_count() == 1


def test_facts_of_the_auction_and_the_trump() -> None:
    """SAS-8.4, SAS-9.1: each seat's highest bid, and the declarer's named trump."""
    state = apply_all(deal(LONE_KS), "keep; bid 5; bid 6; pass; pass; pass; trump H")
    facts = Facts.of(state.observation(1))
    assert facts.max_bid == [0, 5, 6, 0] and facts.claim == (2, 2, 6)
    assert facts.pictures[1] == 1  # seat 1 kept its lone picture
    for world in (GAME.determinize(state.observation(0), random.Random(s)) for s in range(20)):
        assert det.potential_trumps(world.hands[2], 2) >= 6


def _observations(seed: int) -> list[tuple[SaskuState, int]]:
    rng = random.Random(seed)
    variant = GAME.normalize_variant(rng.choice([{}, {"must_beat": False}, {"exchange": False}]))
    state = GAME.random_deal(rng, variant, rng.randrange(4))
    out = []
    while not state.is_over:
        if rng.random() < 0.15:
            out.append((state.clone(), rng.randrange(4)))
        state.apply(rng.choice(state.legal_actions()))
    return [*out, (state, rng.randrange(4))]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_world_keeps_the_facts_of_its_observation(seed: int) -> None:
    """SAS-19.1, SAS-10.3: a world drawn from an observation has that observation, and its
    hands keep the facts read from it: known cards, sizes, voids and failures to beat,
    exact pictures, bid lengths (a hidden return may move a face-up card: not checked)."""
    for state, seat in _observations(seed):
        obs = state.observation(seat)
        world = GAME.determinize(obs, random.Random(seed))
        assert world.observation(seat) == obs
        if obs.phase == "cut":  # nothing dealt: any pack
            continue
        facts = Facts.of(obs)
        if any(ex.done and ex.returned is None for ex in facts.exchanges):
            continue
        assert facts.constraints().satisfied_by(world.hands)
        after = [h | p for h, p in zip(world.hands, facts.played, strict=True)]
        assert all(facts.fits(s, after[s]) for s in range(4))


def test_an_observation_no_deal_matches_fails_at_once() -> None:
    """Sizes that cannot hold the unplayed cards: Infeasible before any draw."""
    obs = apply_all(deal(LONE_KS), "keep; bid 5").observation(0)
    broken = dataclasses.replace(obs, info={**obs.info, "hand_sizes": [9, 9, 9, 8]})
    with pytest.raises(Infeasible) as err:
        GAME.determinize(broken, random.Random(0))
    assert isinstance(err.value, FolkcardsError)


def test_an_observation_no_draw_matches_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """An observation whose facts admit deals but whose history no deal replays to: a
    DeterminizeError naming the last reason, after the allowed draws."""
    monkeypatch.setattr(det, "MAX_DRAWS", 5)
    obs = apply_all(deal(LONE_KS), "keep; bid 5").observation(0)
    broken = dataclasses.replace(obs, info={**obs.info, "tricks_played": 3})
    with pytest.raises(DeterminizeError, match="observation differs; 5 draws"):
        GAME.determinize(broken, random.Random(0))


def test_facts_are_read_once_per_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search bot draws many worlds from one observation: its facts are read once."""
    calls = []
    original = Facts.of.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Facts], obs: object) -> Facts:
        calls.append(obs)
        return original(cls, obs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Facts, "of", classmethod(counting))
    state = apply_all(deal(LONE_KS), "keep; bid 5; bid 6")
    obs = state.observation(3)
    rng = random.Random(1)
    for _ in range(10):
        GAME.determinize(obs, rng)
    assert len(calls) == 1
    GAME.determinize(state.observation(3), rng)  # an equal observation, another object
    assert len(calls) == 2


DECK_CARDS = sorted(c for c in range(64) if DECK >> c & 1)
"""The 36 Sasku cards' numbers (SAS-2.1)."""


# --- hands alone (determinize_hands): the same draws, the same verdicts -------------------


def _card_play_observations(seed: int, deals: int) -> list[Observation]:
    """Card-play observations (a seat with a choice) of random deals: every variant that
    changes what the determinizer checks (must_beat SAS-17.2, no exchange SAS-17.4, a replay
    deal SAS-15.2), every dealer, the decisions random or the heuristic's, so that cuts
    ``deal to X`` (SAS-6.4), exchanges with hidden returns (SAS-7.7), bids (SAS-8.4), trumps
    (SAS-9.1) and overrides all come up."""
    from folkcards.bots.search import quick_choice

    rng = random.Random(seed)
    variants: list[dict[str, object]] = [{}, {"must_beat": False}, {"exchange": False}]
    out = []
    for d in range(deals):
        carry = {"replay": {"trump": "H", "declarer": 1}} if d % 7 == 6 else None
        state = GAME.random_deal(rng, variants[d % 3], dealer=d % 4, carry=carry)
        while not state.is_over:
            legal = state.legal_actions()
            if state.phase == "play" and len(legal) > 1 and rng.random() < 0.3:
                out.append(state.observation(state.to_act))
            if d % 2:
                state.apply(legal[rng.randrange(len(legal))])
            else:
                state.apply(quick_choice(state.observation(state.to_act), rng))
    return out


def test_hands_alone_get_the_verdict_of_the_whole_deal(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    """SAS-19.1, SAS-10.3, SAS-17.2: ``_check`` (the dealing positions and the decisions
    before card play replayed from the dealt hands, the plays left to the facts) accepts
    a draw exactly when ``_build`` (the whole deal replayed through the rules and its
    observation compared) does, so ``determinize_hands`` draws what ``determinize`` draws;
    an accepted draw's hands are the built deal's. The comparison is the benchmark's
    (``benchmarks/hands_alone.py``), here on observations of every kind."""
    observations = _card_play_observations(3, 120)
    kinds = {"hidden return": 0, "deal to": 0, "replay": 0}
    for obs in observations:
        prepared = det._prepared(obs)
        kinds["hidden return"] += prepared.hidden_return
        kinds["deal to"] += prepared.facts.method == "to"
        kinds["replay"] += prepared.replay is not None
    assert min(kinds.values()) > 0, kinds  # every kind of observation came up
    bench = load_benchmark("hands_alone")
    accepted, rejected = bench.check_verdicts("sasku", observations, 24 * len(observations), 11)
    assert accepted > 10_000 and rejected > 500  # both verdicts, many times


def test_hands_alone_are_drawn_as_whole_deals_are(
    hands_drawn_alike: Callable[[Any, Any, Sequence[int]], None],
) -> None:
    """The same distribution, seen from outside: over 1,500 draws each from one mid-play
    observation with an exchange, how often each hidden card lies with each seat differs
    between ``determinize`` and ``determinize_hands`` by less than five standard errors."""
    obs = next(
        o
        for o in _card_play_observations(5, 40)
        if det._prepared(o).facts.exchanges and len(o.history) > 14
    )
    hands_drawn_alike(GAME, obs, list(DECK_CARDS))


def test_hands_alone_only_in_card_play() -> None:
    """Before card play the hands alone would not do (a search bridges whole deals):
    the game says None, the module says why."""
    state = apply_all(deal(TWO_LONE), "keep")
    obs = state.observation(0)
    assert GAME.determinize_hands(obs, random.Random(1)) is None
    with pytest.raises(ValueError, match="card play"):
        det.determinize_hands(GAME, obs, random.Random(1))
