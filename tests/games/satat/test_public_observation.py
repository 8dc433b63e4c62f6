"""``public_observation()``: what a spectator may know (SAT-19.2), and nothing private.

SAT-16.7 and SAT-19.1 make a partner's ``pass`` (propose) and the 2♥ holder's ``silent``
(announce) private: no other seat learns that the phase happened. A spectator sees the deal
as a seat that took no part in any private step: no hand, no legal actions, every pass and
announce-phase silent left out, gives and a hidden trump card as ``?`` (SAT-19.3), pending
private steps masked, ``known_cards`` only the public ones.

The strong check: a world determinized from any seat's observation has exactly the same
public observation as the real deal, so the public view depends on nothing that some seat
does not know.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from satat_helpers import ALL_VARIANTS, CARRIES, deal, rec, suit_deal

from folkcards.cards import CARD_NAMES, SUITS, iter_cards
from folkcards.engine import SPECTATOR, Observation, load_deal
from folkcards.games.satat import (
    _KIND,
    B2H,
    GAME,
    K_GIVE,
    K_HIDE,
    K_PASS,
    SatatState,
    hands_from_deck,
)

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)


def state_of(record: dict[str, Any]) -> SatatState:
    state = load_deal(record)
    assert isinstance(state, SatatState)
    return state


def check_public(state: SatatState, rng: random.Random, worlds: bool) -> None:
    """The public observation's shape and contents at one point of a deal."""
    pub = state.public_observation()
    assert isinstance(pub, Observation)
    assert pub.seat == SPECTATOR and pub.hand == 0 and pub.legal == ()
    data = pub.to_dict()
    assert data["seat"] is None and data["hand"] == [] and data["legal"] == []
    obs = [state.observation(s) for s in range(4)]
    # the same shape as a seat's view; the private keys empty
    assert set(pub.info) == set(obs[0].info)
    assert pub.info["gave"] == [] and pub.info["received"] == []
    assert len(pub.info["known_cards"]) == 4
    assert pub.carry == obs[0].carry and pub.result == obs[0].result
    assert pub.dealer == state.dealer and pub.variant == obs[0].variant
    # SAT-19.1, SAT-16.7: phase and seat to act as an uninvolved seat sees them
    holder = state.holder_2h() if state.phase in ("propose", "announce") else -1
    for s in range(4):
        if s != state.to_act and s != holder:
            assert (pub.phase, pub.to_act) == (obs[s].phase, obs[s].to_act)
    if state.phase not in ("propose", "announce"):
        assert (pub.phase, pub.to_act) == (state.phase, state.to_act)
    # the history: passes and the announce-phase silent left out, gives and hide masked
    expect: list[tuple[str, int]] = []
    for i, (a, s) in enumerate(zip(state.history, state.actors, strict=True)):
        kind = _KIND[a]
        if kind == K_PASS or (i == state.ann_idx and a.text == "silent"):
            continue
        text = a.text
        if kind == K_GIVE:
            text = " ".join(["give"] + ["?"] * (len(text.split()) - 1))
        elif kind == K_HIDE:
            text = "hide ?"
        expect.append((text, s))
    assert list(zip(pub.history, pub.actors, strict=True)) == expect
    # SAT-19.2: no card of any hand appears unless public (the turned card, an announced 2H)
    text = json.dumps(data)
    for seat in range(4):
        public = set(pub.info["known_cards"][seat])
        for c in iter_cards(state.hands[seat]):
            name = CARD_NAMES[c]
            if name in public or (c == state.turned and not state.tk):
                continue
            assert f'"{name}"' not in text and f"{name} " not in text and f" {name}" not in text, (
                f"the spectator sees {name} of seat {seat}"
            )
    # the known cards: a subset of what every other seat knows about that seat
    for seat in range(4):
        for other in range(4):
            if other != seat:
                known = set(obs[other].info["known_cards"][seat])
                assert set(pub.info["known_cards"][seat]) <= known
    if state.tk and not state.known:  # SAT-19.3
        assert pub.info["trump"] is None and pub.info["trump_card"] is None
    if worlds:  # the strong check
        for s in range(4):
            world = GAME.determinize(obs[s], rng)
            assert world.observation(s) == obs[s]
            assert world.public_observation() == pub, f"a world of seat {s} differs"


@FAST
@given(seed=SEEDS)
def test_public_observation_at_random_points(seed: int) -> None:
    """SAT-19.1, SAT-19.2, SAT-19.3, SAT-16.7 over random deals of every variant and carry;
    every seat's determinized world has the same public observation."""
    rng = random.Random(seed)
    state = deal(rng, rng.choice(ALL_VARIANTS), rng.choice(CARRIES))
    while not state.is_over:
        check_public(state, rng, worlds=rng.random() < 0.1)
        state.apply(rng.choice(state.legal_actions()))
    check_public(state, rng, worlds=True)


def void_partner_deal(rng: random.Random, signals: str, carry: dict[str, Any]) -> SatatState:
    """A random main-game deal whose partner holds no card of a random suit, trump made in
    that suit (a blind pick otherwise): the propose phase of SAT-6.1 is then due."""
    dealer = rng.randrange(4)
    p = (dealer + 3) % 4
    hands = hands_from_deck(rng.sample(range(52), 52), dealer)
    suit = rng.randrange(4)
    for i, c in enumerate(hands[p]):
        if c // 13 == suit:
            while True:  # swap it for a card of another suit held by another seat
                s = rng.choice([x for x in range(4) if x != p])
                j = rng.randrange(13)
                if hands[s][j] // 13 != suit:
                    hands[p][i], hands[s][j] = hands[s][j], c
                    break
    state = GAME.new_deal(
        GAME.normalize_variant({"signals": signals}),
        dealer,
        hands=hands,
        carry=carry,
    )
    state.apply(f"trump {SUITS[suit]}" if rng.random() < 0.9 else "blind 1")
    return state


@FAST
@given(seed=SEEDS)
def test_public_observation_around_private_steps(seed: int) -> None:
    """SAT-19.1, SAT-16.7: every state with a pending propose or announce, and the one after
    it, passes the strong check (card passing carried in half the deals)."""
    rng = random.Random(seed)
    carry = CARRIES[2 + seed % 2] if seed % 2 else CARRIES[0]
    state = void_partner_deal(rng, rng.choice(["none", "home", "all"]), carry)
    while not state.is_over and state.phase != "play":
        pending = state.phase in ("propose", "announce")
        check_public(state, rng, worlds=pending or rng.random() < 0.3)
        state.apply(rng.choice(state.legal_actions()))
        if pending:
            check_public(state, rng, worlds=True)


# --- targeted: the public view is the same whoever holds the 2H and whatever was chosen


def swap(hands: list[list[str]], a: str, b: str) -> list[list[str]]:
    """The hands with cards ``a`` and ``b`` exchanged (wherever they are)."""
    out = [list(h) for h in hands]
    for h in out:
        for i, c in enumerate(h):
            if c == a:
                h[i] = b
            elif c == b:
                h[i] = a
    return out


# dealer 0: trump maker 1, partner 3. suit_deal(): 0 clubs, 1 spades, 2 hearts, 3 diamonds.
HOLDER_SWAPS = {0: "2C", 1: "3S", 2: "2H", 3: "3D"}
"""The card of each seat that the 2H is swapped with, to give that seat the 2H."""


def with_2h_at(seat: int, hands: list[list[str]] | None = None) -> list[list[str]]:
    return swap(hands or suit_deal(), "2H", HOLDER_SWAPS[seat])


@pytest.mark.parametrize("signals", ["home", "all"])
def test_sat_16_7_silent_announce_is_not_public(signals: str) -> None:
    """SAT-16.3, SAT-16.7, SAT-19.1: while the 2H holder's choice is pending and right after
    ``silent``, the public observation is the same whichever seat holds the 2H; an
    ``announce`` is public (SAT-19.2)."""
    v = {"signals": signals}
    seen: list[Observation] = []
    for holder in range(4):
        state = state_of(rec(with_2h_at(holder), ["trump D"], variant=v))  # partner holds D
        assert state.phase == "announce" and state.to_act == holder
        seen.append(state.public_observation())
        after = state.clone()
        after.apply("silent")
        assert after.phase == "play" and after.to_act == 1
        seen.append(after.public_observation())
        told = state.clone()
        told.apply("announce")
        pub = told.public_observation()
        assert pub.history == ("trump D", "announce") and pub.info["announced"] == holder
        assert pub.info["known_cards"][holder] == ["2H"]
    assert all(p == seen[0] for p in seen), "the public view shows who holds the 2H"
    assert seen[0].phase == "play" and seen[0].to_act == 1 and seen[0].history == ("trump D",)
    assert seen[0].info["announced"] is None


@pytest.mark.parametrize("signals", ["none", "home"])
@pytest.mark.parametrize("passing", [None, {"winners": 0, "cards": 1}])
def test_sat_19_1_partner_pass_is_not_public(signals: str, passing: Any) -> None:
    """SAT-6.1, SAT-19.1, SAT-16.7: a pending propose, the partner's ``pass`` and a deal where
    he holds a trump (no propose phase at all) look the same to a spectator, whoever holds
    the 2H; ``propose`` is public (SAT-19.2)."""
    v = {"signals": signals}
    keys = {"passing": passing} if passing else {}
    seen: list[Observation] = []
    for holder in range(4):
        void = with_2h_at(holder)  # the partner (seat 3) holds only diamonds (and maybe 2H)
        state = state_of(rec(void, ["trump S"], variant=v, **keys))
        assert state.phase == "propose" and state.to_act == 3
        seen.append(state.public_observation())
        after = state.clone()
        after.apply("pass")
        seen.append(after.public_observation())
        if after.phase == "announce":
            after.apply("silent")
            seen.append(after.public_observation())
        proposed = state.clone()
        proposed.apply("propose")
        pub = proposed.public_observation()
        assert (pub.phase, pub.to_act, pub.history) == ("consent", 1, ("trump S", "propose"))
        holds = state_of(rec(swap(void, "2S", "2D"), ["trump S"], variant=v, **keys))
        assert holds.phase != "propose"  # the partner holds the 2S: no propose phase
        seen.append(holds.public_observation())
    assert all(p == seen[0] for p in seen), "the public view shows a private step"
    assert (seen[0].phase, seen[0].to_act) == ("give" if passing else "play", 1)
    assert seen[0].history == ("trump S",)


def test_sat_19_1_gives_are_not_public() -> None:
    """SAT-7.3, SAT-19.1: whatever each seat gives, the public view is the same at every step,
    before and after the exchange; the turned card's place is public only before it
    (SAT-19.2)."""
    views: list[list[Observation]] = []
    for pick in (0, -1):
        state = state_of(rec(suit_deal(), ["blind 1", "pass"], passing={"winners": 1, "cards": 1}))
        assert state.public_observation().info["known_cards"][1] == ["5S"]
        seq = []
        while state.phase == "give":
            state.apply(state.legal_actions()[pick])
            seq.append(state.public_observation())
        assert state.exchanged
        views.append(seq)
    assert views[0] == views[1]
    assert views[0][-1].history == ("blind 1",) + ("give ?",) * 4
    assert views[0][-1].info["known_cards"] == [[], [], [], []]


def test_sat_19_3_hidden_trump_card_is_not_public() -> None:
    """SAT-15.2, SAT-19.3: in Trup Kasiet the spectator sees ``hide ?`` and no trump, whatever
    card was hidden, until the trump is known; the trump maker's own view has both."""
    tk = {"trup_kasiet": True}
    mixed = swap(swap(suit_deal(), "AS", "AC"), "KS", "AD")  # seat 1's first five: AC AD QS JS TS
    seen = []
    for hide in ("hide AC", "hide AD", "hide QS"):
        state = state_of(rec(mixed, [hide], variant=tk))
        pub = state.public_observation()
        assert pub.history == ("hide ?",) and pub.info["trump"] is None
        assert state.observation(1).info["trump_card"] == hide.split()[1]
        seen.append(pub)
    assert seen[0] == seen[1] == seen[2]


def test_public_observation_has_no_seat_and_determinize_refuses_it() -> None:
    """SAT-19: the spectator is no seat: ``observation`` takes seats 0–3 only, and a public
    observation cannot be determinized as if it were a seat's."""
    from folkcards.engine import FolkcardsError

    state = state_of(rec(suit_deal(), ["trump D"]))
    pub = state.public_observation()
    assert pub.to_dict()["seat"] is None
    with pytest.raises(FolkcardsError):
        state.observation(SPECTATOR)
    with pytest.raises(FolkcardsError):
        GAME.determinize(pub, random.Random(0))
    assert not pub.hand & B2H
