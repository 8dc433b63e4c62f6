"""``public_observation()``: what a spectator may know (SHP-13.1) — the public actions and
facts only, as a seat that is neither picker nor partner sees them."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shp_helpers import ACTIONS_A
from shp_helpers import state as make
from test_copies import random_deal

from folkcards.cards import CARD_NAMES, mask_text, parse_card
from folkcards.engine.api import SPECTATOR, Observation
from folkcards.games.sheepshead import GAME, SheepsheadDeal

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def hidden_from_spectator(state: SheepsheadDeal) -> set[str]:
    """Cards a spectator must not see now (SHP-13.1): every card still in a hand, the blind
    and the bury unless a played-out deal is over — except cards already played."""
    hidden = 0
    for h in state.hands:
        hidden |= h
    if not (state.is_over and state.mode != "doubler"):
        hidden |= state.blind_mask | state.bury
    if state.called >= 0:
        hidden &= ~(1 << state.called)  # the call itself is public (SHP-6.6)
    for a in state.history:
        if a.text.startswith("play "):  # played cards are public, blind cards too (SHP-7.9)
            hidden &= ~(1 << parse_card(a.text[5:]))
    return set(mask_text(hidden))


def uninvolved_seats(state: SheepsheadDeal) -> list[int]:
    """Seats that took no private part: neither the picker nor the partner."""
    return [s for s in range(5) if s != state.picker and s != state.partner]


def as_spectator(obs: Observation) -> Observation:
    return dataclasses.replace(obs, seat=SPECTATOR, hand=0, legal=())


def check_public(state: SheepsheadDeal, rng: random.Random) -> None:
    pub = state.public_observation()
    # The shape: no seat, no hand, no legal actions; phase and seat to act are public.
    assert pub.seat == SPECTATOR and pub.hand == 0 and pub.legal == ()
    assert pub.phase == state.phase and pub.to_act == state.to_act
    assert pub.num_seats == 5 and pub.dealer == state.dealer
    d = pub.to_dict()
    assert d["seat"] is None and d["hand"] == [] and d["legal"] == []
    assert set(pub.info) == set(state.observation(0).info)  # same keys as a seat's view
    assert pub.carry == state.observation(0).carry
    assert pub.result == (state.result() if state.is_over else None)
    # SHP-5.1/13.1: every bury is hidden, every other action public.
    assert len(pub.history) == len(state.history) and pub.actors == tuple(state.actors)
    for text, a in zip(pub.history, state.history, strict=True):
        assert text == ("bury ?" if a.text.startswith("bury ") else a.text)
    # No hidden card named anywhere (the call names its card publicly).
    d["history"] = [a for a in d["history"] if not a.startswith("call ")]
    d["info"].pop("called")
    text = json.dumps(d)
    for card in hidden_from_spectator(state):
        assert f'"{card}"' not in text and f' {card}"' not in text, card
    # SHP-13.1: the partner is secret until the called card falls or the deal ends.
    if state.mode == "called":
        fallen = any(a.text == f"play {CARD_NAMES[state.called]}" for a in state.history)
        assert (pub.info["partner"] is not None) == (fallen or state.is_over)
    # Exactly what a seat that took no private part sees, minus its hand and legal list.
    seats = uninvolved_seats(state)
    assert seats
    for s in seats:
        assert as_spectator(state.observation(s)) == pub, s
    # The strong check: a world determinized from any seat's view (or from the spectator's
    # own) has exactly this public observation.
    for s in range(5):
        world = GAME.determinize(state.observation(s), rng)
        assert world.public_observation() == pub, s
    assert GAME.determinize(pub, rng).public_observation() == pub
    assert state.observation(SPECTATOR) == pub


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_public_observation_is_public_and_the_same_in_every_world(seed: int) -> None:
    """SHP-13.1 at every point of random deals of random variants: empty hand and legal,
    hidden buries/blind/partner, equal to an uninvolved seat's view, and equal in every
    world determinized from any seat's observation."""
    rng = random.Random(seed)
    state = random_deal(rng)
    while True:
        check_public(state, rng)
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))


def test_public_observation_of_the_hand_checked_deal() -> None:
    """SHP-5.2, SHP-6.6, SHP-13.1 on the deal of shp_helpers: the bury is hidden as
    ``bury ?``, the call public, the partner (seat 2, holder of AC) secret until AC is
    played; blind and bury shown when the deal is over."""
    st0 = make(ACTIONS_A[:8])  # four cards of the first trick; AC not played yet
    pub = st0.public_observation()
    assert pub.history[:4] == ("pick", "bury ?", "bury ?", "call AC")
    info: dict[str, Any] = dict(pub.info)
    assert info["picker"] == 1 and info["called"] == "AC" and info["mode"] == "called"
    assert info["partner"] is None and info["blind"] is None and info["bury"] is None
    assert info["hand_sizes"] == [6, 5, 5, 5, 5] and info["trick"] == ["QC", "JS", "7D", "KD"]
    assert st0.observation(2).info["partner"] == 2  # the partner knows; the public does not
    st0.apply("play JD")  # seat 0 completes trick 1; seat 1 leads 7C, then AC falls
    st0.apply("play 7C")
    assert st0.public_observation().info["partner"] is None
    st0.apply("play AC")
    assert st0.public_observation().info["partner"] == 2
    done = make(ACTIONS_A)
    info = dict(done.public_observation().info)
    assert info["blind"] == ["AD", "TD"] and info["bury"] == ["KS", "TD"]
    assert done.public_observation().result == done.result()


def test_public_observation_hides_the_blind_in_a_leaster_and_a_pass_out() -> None:
    """SHP-9.1/9.2/9.5, SHP-13.1: nobody sees the blind during a leaster (shown at its end);
    a doubler pass-out never shows it."""
    leaster = make(["pass"] * 5)
    assert leaster.public_observation().info["blind"] is None
    assert leaster.public_observation().phase == "play"
    out = make(["pass"] * 5, variant={"no_pick": "doubler"})
    pub = out.public_observation()
    assert pub.is_over and pub.info["blind"] is None and pub.info["mode"] == "doubler"
    assert pub.result is not None and pub.result["redeal"] is True


def test_observation_rejects_seats_that_do_not_exist() -> None:
    """SHP-2.1: seats are 0–4; SPECTATOR is the only other viewer."""
    st0 = make([])
    for bad in (5, -2, 99):
        with pytest.raises(ValueError):
            st0.observation(bad)
