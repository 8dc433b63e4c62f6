"""The determinization kit (``folkcards.engine.determinize``): constraints, draws, rejection.

On small cases every deal of the hidden cards is enumerated by brute force, so the kit is
checked against the truth: a draw satisfies every constraint; every deal that satisfies
them comes out (on a seeded run long enough to see each); ``feasible`` and ``Infeasible``
agree exactly with whether any deal exists; and with no constraint that binds, or one
void, the draw is the uniform deal.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from folkcards.cards import CardSet, cards_list
from folkcards.engine.api import FolkcardsError
from folkcards.engine.determinize import (
    Constraints,
    DeterminizeError,
    Infeasible,
    Reject,
    deal_hidden,
    hall_feasible,
    rejection_sample,
)

SETTINGS = settings(max_examples=60, deadline=None)


def every_deal(cons: Constraints) -> set[tuple[CardSet, ...]]:
    """Every holding of the places that satisfies ``cons``, by brute force."""
    cards = cards_list(cons.cards)
    out = set()
    for owners in itertools.product(range(cons.places), repeat=len(cards)):
        hands = [0] * cons.places
        for c, p in zip(cards, owners, strict=True):
            hands[p] |= 1 << c
        if cons.satisfied_by(hands):
            out.add(tuple(hands))
    return out


def random_problem(seed: int) -> Constraints:
    """Up to 4 places and 7 cards, with known cards, cards a place cannot hold and counted
    kinds. The constraints are read off a random deal, so most cases are feasible; about
    one in four is spoilt (any sizes, a mask or a count that ignores the deal)."""
    rng = random.Random(seed)
    places = rng.choice([1, 2, 3, 3, 4, 4])
    chosen = rng.sample(range(13), rng.choice([0, 2, 4, 5, 6, 6, 7, 7]))
    cards = sum(1 << c for c in chosen)
    owners = {c: rng.randrange(places) for c in chosen}
    holding = [sum(1 << c for c, q in owners.items() if q == p) for p in range(places)]
    spoil = rng.random() < 0.25
    sizes = [h.bit_count() for h in holding]
    if spoil and rng.random() < 0.3:
        sizes = [rng.randrange(5) for _ in range(places)]
    cons = Constraints(cards, sizes)
    for p in range(places):
        if rng.random() < 0.4:
            cons.hold(p, rng.getrandbits(13) & holding[p])
        if rng.random() < 0.6:
            may = cards if spoil and rng.random() < 0.3 else cards & ~holding[p]
            cons.cannot_hold(p, rng.getrandbits(13) & rng.getrandbits(13) & may)
        if rng.random() < 0.4:
            kind = rng.getrandbits(13) & cards
            have = (holding[p] & kind).bit_count()
            count = rng.randrange(4) if spoil and rng.random() < 0.5 else have
            if rng.random() < 0.5:
                cons.exactly(p, kind, count)
            else:
                cons.at_least(p, kind, rng.randint(0, count))
    return cons


problems = st.integers(0, 2**32 - 1).map(random_problem)


@SETTINGS
@given(cons=problems, seed=st.integers(0, 2**32 - 1))
def test_draws_satisfy_every_constraint_and_reach_every_deal(cons: Constraints, seed: int) -> None:
    truth = every_deal(cons)
    assert cons.feasible() == bool(truth)
    rng = random.Random(seed)
    if not truth:
        with pytest.raises(Infeasible):
            cons.draw(rng)
        return
    seen: Counter[tuple[CardSet, ...]] = Counter()
    for _ in range(60 * len(truth) + 20):
        hands = cons.draw(rng)
        assert cons.satisfied_by(hands)
        seen[tuple(hands)] += 1
    assert set(seen) == truth  # every deal that satisfies the constraints comes out


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_hall_feasible_is_exact(seed: int) -> None:
    """Hall's condition against brute force, for the plain transportation problem (needs
    from a random deal, masks that keep it or not)."""
    rng = random.Random(seed)
    n, places = rng.randint(0, 7), rng.randint(1, 4)
    pool = (1 << n) - 1
    deal = [rng.randrange(places) for _ in range(n)]
    needs = [deal.count(j) for j in range(places)]
    allowed = [rng.getrandbits(n) | rng.getrandbits(n) for _ in range(places)]
    if rng.random() < 0.5:
        allowed = [a | sum(1 << c for c in range(n) if deal[c] == j) for j, a in enumerate(allowed)]
    exists = any(
        all(o.count(j) == needs[j] for j in range(places))
        and all(allowed[p] >> c & 1 for c, p in enumerate(o))
        for o in itertools.product(range(places), repeat=n)
    )
    assert hall_feasible(pool, needs, allowed) == exists
    if exists:
        got = deal_hidden(pool, needs, allowed, rng)
        assert [g.bit_count() for g in got] == needs
        assert all(g & ~a == 0 for g, a in zip(got, allowed, strict=True))
        assert sum(got) == pool
    else:
        with pytest.raises(Infeasible):
            deal_hidden(pool, needs, allowed, rng)


def _chi_square(counts: Counter[tuple[int, ...]], outcomes: int, draws: int) -> float:
    expected = draws / outcomes
    assert len(counts) == outcomes
    return sum((x - expected) ** 2 / expected for x in counts.values())


def test_unconstrained_draw_is_uniform() -> None:
    """No mask that binds: every deal of 6 cards into 2 + 2 + 2 (90 deals) equally likely."""
    rng = random.Random(5)
    counts: Counter[tuple[int, ...]] = Counter()
    draws = 18000
    for _ in range(draws):
        counts[tuple(deal_hidden(0b111111, [2, 2, 2], [-1, -1, -1], rng))] += 1
    # 89 degrees of freedom: mean 89, sd ≈ 13.3
    assert _chi_square(counts, 90, draws) < 150


def test_one_void_is_uniform() -> None:
    """A void leaves the deal uniform over the deals that respect it (place 0 holds none of
    cards 0–2: 6 cards into 2 + 2 + 2, place 0 two of cards 3–5, 3 · 6 = 18 deals)."""
    cons = Constraints(0b111111, [2, 2, 2])
    cons.cannot_hold(0, 0b000111)
    truth = every_deal(cons)
    rng = random.Random(9)
    counts: Counter[tuple[int, ...]] = Counter()
    draws = 18 * 400
    for _ in range(draws):
        counts[tuple(cons.draw(rng))] += 1
    assert set(counts) == truth and len(truth) == 18
    assert _chi_square(counts, 18, draws) < 45  # 17 degrees of freedom: sd ≈ 5.8


def test_a_tight_deal_is_found_without_dead_ends() -> None:
    """Each place may take only the cards that fit it exactly: the one deal, every time."""
    cons = Constraints(0b1111_1111, [3, 3, 2])
    cons.cannot_hold(0, 0b1111_1000)
    cons.cannot_hold(1, 0b1100_0111)
    rng = random.Random(1)
    for _ in range(50):
        assert cons.draw(rng) == [0b0000_0111, 0b0011_1000, 0b1100_0000]


def test_exact_counts_and_known_cards() -> None:
    """A place with an exact count of a kind gets exactly that many; known cards stay."""
    kind = 0b0000_1111
    cons = Constraints(0b1111_1111, [4, 4])
    cons.hold(1, 0b1000_0000)
    cons.exactly(0, kind, 3)
    rng = random.Random(3)
    for _ in range(100):
        hands = cons.draw(rng)
        assert (hands[0] & kind).bit_count() == 3 and hands[1] >> 7 & 1
    assert cons.pool == 0b0111_1111


@pytest.mark.parametrize(
    "build",
    [
        lambda c: c.hold(0, 0b1) or c.hold(1, 0b1),  # a card in two places
        lambda c: c.hold(0, 0b1) or c.cannot_hold(0, 0b1),  # known and excluded
        lambda c: c.exactly(0, 0b111, 3) or c.exactly(1, 0b111, 1),  # four of a kind of three
        lambda c: c.cannot_hold(0, 0b1111) or c.cannot_hold(1, 0b1111),  # a card for nobody
        lambda c: c.hold(0, 0b111),  # three known cards in a hand of two
    ],
)
def test_infeasible_constraints_are_found_at_once(build: object) -> None:
    cons = Constraints(0b1111, [2, 2])
    build(cons)  # type: ignore[operator]
    assert not cons.feasible()
    with pytest.raises(Infeasible) as err:
        cons.draw(random.Random(0))
    assert isinstance(err.value, DeterminizeError) and isinstance(err.value, FolkcardsError)
    assert Constraints(0b111, [2, 2]).feasible() is False  # sizes that do not add up


def test_overlapping_kinds_are_a_programming_error() -> None:
    cons = Constraints(0b1111, [2, 2])
    cons.exactly(0, 0b0011, 1)
    cons.at_least(0, 0b0110, 1)
    with pytest.raises(ValueError, match="overlap"):
        cons.draw(random.Random(0))


def test_copy_is_independent() -> None:
    cons = Constraints(0b1111, [2, 2])
    twin = cons.copy()
    twin.hold(0, 0b1)
    twin.exactly(1, 0b10, 1)
    assert cons.known == [0, 0] and cons.counts == [[], []]
    twin.release(0, 0b1)
    assert twin.known == [0, 0]


def test_satisfied_by_checks_each_constraint() -> None:
    cons = Constraints(0b1111, [2, 2])
    cons.hold(0, 0b0001)
    cons.cannot_hold(1, 0b0010)
    cons.at_least(1, 0b1100, 2)
    assert cons.satisfied_by([0b0011, 0b1100])
    assert not cons.satisfied_by([0b0011])  # one place missing
    assert not cons.satisfied_by([0b0110, 0b1001])  # the known card elsewhere
    assert not cons.satisfied_by([0b0101, 0b1010])  # a card place 1 cannot hold
    assert not cons.satisfied_by([0b0011, 0b0100])  # sizes; a card left over
    assert not cons.satisfied_by([0b0111, 0b1100])  # a card twice


def test_rejection_sample_retries_and_reports() -> None:
    calls: list[int] = []

    def attempt(rng: random.Random, k: int) -> str:
        calls.append(k)
        if k < 3:
            raise Reject("not yet")
        if k == 3:
            raise Infeasible("steered too far")
        return "world"

    assert rejection_sample(attempt, random.Random(0), 10, "a test") == "world"
    assert calls == [0, 1, 2, 3, 4]

    def never(rng: random.Random, k: int) -> str:
        raise Reject("the bid does not fit")

    with pytest.raises(DeterminizeError, match=r"a test .*the bid does not fit; 7 draws"):
        rejection_sample(never, random.Random(0), 7, "a test")


def test_the_last_reading_is_kept_by_identity_and_a_failed_one_is_not() -> None:
    from folkcards.engine.determinize import Infeasible, LastRead

    calls: list[object] = []

    def read(obs: object, *context: object) -> tuple[object, ...]:
        calls.append(obs)
        if obs == "impossible":
            raise Infeasible("no deal")
        return (obs, *context)

    last = LastRead(read)
    a, b = ["obs"], ["obs"]  # equal, not the same observation
    assert last(a, "game") == (a, "game") and last(a, "game") == (a, "game")
    assert calls == [a]
    assert last(b) == (b,) and calls == [a, b]
    with pytest.raises(Infeasible):
        last("impossible")
    assert last(b) == (b,) and calls == [a, b, "impossible"]  # b still kept: nothing replaced it
