"""SAT-19: Satat's determinizer on the engine's kit (``folkcards.engine.determinize``).

Random deals of every variant and carried state are played to random points and a world is
determinized from every seat: it shows that seat exactly its observation, and the table
the same public observation. The constraints read from an observation hold for the true
deal (they are necessary, so ``Infeasible`` proves an observation impossible); impossible
observations raise ``Infeasible`` at once; the hidden things a world samples besides the
hands — the Trup Kasiet trump card (a candidate suit drawn alike, on purpose), the other
pair's gives, the first fives before trump — come out as documented.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import pytest
from satat_helpers import ALL_VARIANTS, CARRIES, deal

from folkcards.cards import BIT, SUIT_MASK, SUITS, parse_card
from folkcards.engine.api import Observation
from folkcards.engine.determinize import Infeasible, Reject
from folkcards.games.satat import GAME, SatatState
from folkcards.games.satat import determinize as det
from folkcards.games.satat.determinize import _other_pair_gives, knowledge
from folkcards.games.satat.rules import (
    B2H,
    PICTURES,
    card_subsets,
    loser_gives_ok,
    winner_gives_ok,
)


def _with_info(obs: Observation, **fields: object) -> Observation:
    return dataclasses.replace(obs, info=dataclasses.replace(obs.info, **fields))


def _post_hands(state: SatatState) -> list[int]:
    """Each seat's hand after card passing, cards played included (the kit's places)."""
    hands = list(state.hands)
    for a, s in zip(state.history, state.actors, strict=True):
        if a.text.startswith("play "):
            hands[s] |= BIT[parse_card(a.text.split()[1])]
    return hands


@pytest.mark.parametrize("carry", range(len(CARRIES)))
@pytest.mark.parametrize("variant", range(len(ALL_VARIANTS)))
def test_every_seat_gets_its_own_observation_back(variant: int, carry: int) -> None:
    """SAT-19: from every seat at random points of random deals (and at the end), a world
    with that seat's observation and the table's public observation."""
    rng = random.Random(f"{variant}:{carry}")
    checked = 0
    for _ in range(4):
        state = deal(rng, ALL_VARIANTS[variant], CARRIES[carry])
        while True:
            if state.is_over or rng.random() < 0.12:
                public = state.public_observation()
                for seat in range(4):
                    obs = state.observation(seat)
                    world = GAME.determinize(obs, rng)
                    assert world.observation(seat) == obs, state.record()
                    assert world.public_observation() == public, state.record()
                    checked += 1
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 40


def test_the_constraints_hold_for_the_true_deal() -> None:
    """SAT-19: the constraints an observation puts on the hands (voids, a partner's
    propose, a loser's forced give, the turned card's whereabouts) hold for the deal it
    was taken from, and admit a deal (the kit's exact check)."""
    rng = random.Random(11)
    checked = 0
    for i in range(48):
        state = deal(rng, ALL_VARIANTS[i % len(ALL_VARIANTS)], CARRIES[i // 12])
        while not state.is_over:
            if state.trump >= 0 and state.history and rng.random() < 0.3:
                seat = rng.randrange(4)
                cons = knowledge(state.observation(seat)).constraints()
                assert cons.satisfied_by(_post_hands(state)), state.record()
                assert cons.feasible()
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 200


def _mid_play(variant: dict[str, object], seed: int, plays: int = 6) -> SatatState:
    rng = random.Random(seed)
    state = deal(rng, variant, CARRIES[0], dealer=0)
    while not state.is_over and sum(a.text.startswith("play") for a in state.history) < plays:
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over
    return state


def test_voids_that_leave_a_card_nowhere_are_infeasible() -> None:
    """SAT-8.3: an observation whose voids leave an unseen card no hand to be in is
    impossible: ``Infeasible`` at once, not a long search."""
    state = _mid_play({}, 3)
    obs = state.observation(0)
    voids = [[], list(SUITS), list(SUITS), list(SUITS)]
    with pytest.raises(Infeasible):
        GAME.determinize(_with_info(obs, voids=voids), random.Random(0))


def test_a_trump_card_no_candidate_allows_is_infeasible() -> None:
    """SAT-15.3, SAT-15.4: a hidden trump card must be the trump maker's card of a
    candidate suit; if the only candidate is a suit he has shown he lacks, ``Infeasible``."""
    state = deal(random.Random(5), {"trup_kasiet": True}, dealer=0)
    state.apply(next(a for a in state.legal_actions() if a.text.startswith("hide")))
    obs = state.observation(2)
    assert obs.info["trump_card"] is None and obs.info["trump"] is None
    voids = [[], ["C"], [], []]  # the trump maker (seat 1) holds no club
    with pytest.raises(Infeasible):
        GAME.determinize(_with_info(obs, voids=voids, trump_candidates=["C"]), random.Random(0))


def test_the_hidden_trump_suit_is_drawn_alike_among_the_candidates() -> None:
    """SAT-15.3, SAT-19.3: for a seat that does not know the Trup Kasiet trump card, a
    candidate suit is drawn alike — on purpose, whatever number of deals each admits (here
    the observer holds most of the clubs, yet clubs come out as often as the others)."""
    rng = random.Random(2)
    deck = list(range(52))
    rng.shuffle(deck)
    clubs = [c for c in deck if c < 13]
    others = [c for c in deck if c >= 13]
    hands = [others[0:13], others[13:23] + clubs[10:], clubs[:10] + others[23:26], others[26:]]
    state = GAME.new_deal(GAME.normalize_variant({"trup_kasiet": True}), 0, None, hands=hands)
    state.apply(next(a for a in state.legal_actions() if a.text.startswith("hide")))
    obs = state.observation(2)
    suits = Counter(SUITS[GAME.determinize(obs, rng).trump] for _ in range(800))
    assert set(suits) == set(SUITS)
    assert all(140 < n < 260 for n in suits.values()), suits


def test_the_trump_maker_redealt_without_pictures() -> None:
    """SAT-5.4: after a no-picture redeal every world gives the trump maker a first five
    without K, Q or J; before trump the seat's own five are kept."""
    rng = random.Random(4)
    for _ in range(40):
        state = deal(rng, {}, dealer=0)
        if any(a.text == "redeal" for a in state.legal_actions()):
            break
    else:
        pytest.skip("no deal with a redeal found")
    before = state.observation(3)
    world = GAME.determinize(before, rng)
    assert world.first_five(3) == state.first_five(3)
    state.apply(next(a for a in state.legal_actions() if a.text == "redeal"))
    for seat in (0, 2, 3):
        obs = state.observation(seat)
        for _ in range(20):
            world = GAME.determinize(obs, rng)
            assert world.observation(seat) == obs
            assert not world.first_five(1) & PICTURES


def test_a_partner_who_proposed_holds_no_trump() -> None:
    """SAT-6.1: once the partner has proposed, no world gives him a trump."""
    rng = random.Random(8)
    for _ in range(400):
        state = deal(rng, {}, dealer=0)
        state.apply(rng.choice(state.legal_actions()))
        if state.phase == "propose":
            break
    else:
        pytest.skip("no propose phase found")
    state.apply(next(a for a in state.legal_actions() if a.text == "propose"))
    for seat in (0, 1, 2):
        obs = state.observation(seat)
        for _ in range(10):
            world = GAME.determinize(obs, rng)
            assert world.observation(seat) == obs
            assert not world.hands[3] & SUIT_MASK[world.trump]


def _other_pair_gives_reference(
    post_w: int, post_lo: int, trump: int, k: int, rng: random.Random
) -> tuple[int, int] | None:
    """The plain search the filtered one must match: every pair in the same order."""
    cw = card_subsets(post_lo & ~B2H, k)
    cl = card_subsets(post_w & ~B2H, k)
    rng.shuffle(cw)
    rng.shuffle(cl)
    for gl in cl:
        for gw in cw:
            pw, pl = (post_w & ~gl) | gw, (post_lo & ~gw) | gl
            if winner_gives_ok(pw, gw, k) and loser_gives_ok(pl, gl, trump, k):
                return gw, gl
    return None


def test_the_other_pairs_gives_match_the_plain_search() -> None:
    """SAT-7.6, SAT-7.7: the filtered search for the other passing pair's gives returns
    what the plain search over every pair returns, from the same random order."""
    rng = random.Random(6)
    found = 0
    for i in range(1500):
        k, trump = 1 + i % 2, rng.randrange(4)
        cards = rng.sample(range(52), 26)
        if i % 3 == 0:  # the loser short of trumps, as a forced give often leaves him
            cards.sort(key=lambda c: (c // 13 == trump, rng.random()))
        post_w = sum(1 << c for c in cards[13:])
        post_lo = sum(1 << c for c in cards[:13])
        seed = rng.getrandbits(32)
        want = _other_pair_gives_reference(post_w, post_lo, trump, k, random.Random(seed))
        try:
            got: tuple[int, int] | None = _other_pair_gives(
                post_w, post_lo, trump, k, random.Random(seed)
            )
        except Reject:
            got = None
        assert got == want, (i, k, trump)
        found += got is not None
    assert 100 < found < 1500  # both outcomes come up


def _card_play_observations(seed: int, deals_each: int) -> list[Observation]:
    """Observations of every seat at random points of the card play of random deals of
    every variant and carried state (card passing of one and two cards)."""
    rng = random.Random(seed)
    out = []
    for variant in ALL_VARIANTS:
        for carry in CARRIES:
            for _ in range(deals_each):
                state = deal(rng, variant, carry)
                while not state.is_over:
                    if state.phase in ("play", "lese", "continue") and rng.random() < 0.1:
                        out.extend(state.observation(seat) for seat in range(4))
                    state.apply(rng.choice(state.legal_actions()))
    return out


def test_hands_alone_get_the_verdict_of_the_whole_deal(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    """SAT-19, SAT-8.3, SAT-7.6, SAT-7.7: ``_check`` (the history before the first card
    replayed on the dealt deck, the plays left to the knowledge the draw was made under)
    accepts a draw exactly when ``_build`` (the whole history replayed and the observation
    compared) does, so ``determinize_hands`` draws what ``determinize`` draws; an accepted
    draw's row is the built deal's hands and the trump maker's first five. The comparison
    is the benchmark's (``benchmarks/hands_alone.py``), here on observations of every
    variant, before and after the first card, with and without card passing."""
    observations = [
        o for o in _card_play_observations(8, 3) if GAME.determinize_hands(o, random.Random(0))
    ]
    kinds = {"passing": 0, "first lead": 0, "trup kasiet": 0, "signals": 0}
    for obs in observations:
        prep = det._prepared(obs)
        assert isinstance(prep, det._Prepared)
        kinds["passing"] += prep.kn.exchanged
        kinds["first lead"] += prep.before_play == len(obs.history)
        kinds["trup kasiet"] += prep.kn.tk
        kinds["signals"] += obs.variant["signals"] == "all"
    assert min(kinds.values()) > 0, kinds  # every kind of observation came up
    bench = load_benchmark("hands_alone")
    accepted, rejected = bench.check_verdicts("satat", observations, 20 * len(observations), 11)
    assert accepted > 10_000 and rejected > 20  # both verdicts, many times


def test_hands_alone_are_drawn_as_whole_deals_are(
    hands_drawn_alike: Callable[[Any, Any, Sequence[int]], None],
) -> None:
    """The same distribution, seen from outside: over 1,500 draws each from one mid-play
    observation after card passing, how often each hidden card lies with each seat differs
    between ``determinize`` and ``determinize_hands`` by less than five standard errors."""
    obs = next(
        o
        for o in _card_play_observations(9, 2)
        if o.carry.get("passing") and len(o.history) > 20 and not o.variant["trup_kasiet"]
    )
    hands_drawn_alike(GAME, obs, list(range(52)))


def test_hands_alone_only_where_the_rows_differ_in_hands() -> None:
    """Before card play, and while a Trup Kasiet trump card is hidden from the seat
    (SAT-19.3), the sampled deals differ in more than their hands: None (whole deals)."""
    rng = random.Random(4)
    state = deal(rng, {"trup_kasiet": True}, None)
    assert GAME.determinize_hands(state.observation(state.to_act), rng) is None  # trump
    hidden = known = 0
    while not state.is_over:
        if state.phase == "play":
            for seat in range(4):
                got = GAME.determinize_hands(state.observation(seat), rng)
                if seat != state.tm and not state.known:
                    assert got is None
                    hidden += 1
                else:
                    assert got is not None and got[seat] == state.hands[seat]
                    known += 1
        state.apply(rng.choice(state.legal_actions()))
    assert hidden and known
