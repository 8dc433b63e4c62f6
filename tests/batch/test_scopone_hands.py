"""Scopone's deals given by their hands alone, dealt as arrays (``ScoponeKernel.deal_hands``).

SCO-9: in Scopone only the hands are hidden, and a card a seat has not played tells
nothing, so ``determinize`` deals the cards a seat has not seen uniformly among the
other three hands. The kernel draws a whole batch of such deals at once; they must be
deals of the observation (each hand its size, the seat's own hand kept, the unseen
cards and no others), drawn as ``determinize`` draws them, and encoded and read exactly
as whole deals are."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.bots.registry import make_bot  # noqa: E402
from folkcards.bots.search import quick_choice, sample  # noqa: E402
from folkcards.engine.api import Observation  # noqa: E402
from folkcards.games import GAMES  # noqa: E402

VARIANTS = ({}, {"scientifico": True}, {"re_bello": True, "napola": True})


def card_play_observations(deals: int, seed: int) -> list[Observation]:
    """Observations of a seat to play with a choice at every stage of heuristic deals,
    every dealer and the variants that change the deal or the reading (SCO-3.1, SCO-8)."""
    game = GAMES["scopone"]
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        deal: Any = game.random_deal(rng, VARIANTS[d % len(VARIANTS)], dealer=d % 4)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if len(obs.legal) > 1 and deal.turn % 3 == d % 3:
                out.append(obs)
            deal.apply(quick_choice(obs, rng))
    return out


def test_dealt_rows_are_deals_of_the_observation() -> None:
    """SCO-9: every row keeps the seat's hand and each other hand's size, and deals
    exactly the cards the seat has not seen; the first row is the whole deal's own."""
    game = GAMES["scopone"]
    kernel: Any = kernel_for("scopone")
    assert kernel is not None and kernel.draws_hands
    rng = random.Random(5)
    checked = moved = 0
    for obs in card_play_observations(6, 11):
        world: Any = sample(game, obs, rng)
        rows = kernel.deal_hands(world, obs.seat, rng, 40)
        assert rows.shape == (40, 4) and rows.dtype == np.uint64
        assert [int(h) for h in rows[0]] == list(world.hands)
        unseen = sum(int(h) for s, h in enumerate(world.hands) if s != obs.seat)
        sizes = [h.bit_count() for h in world.hands]
        for row in rows:
            hands = [int(h) for h in row]
            assert hands[obs.seat] == obs.hand
            assert [h.bit_count() for h in hands] == sizes
            others = [h for s, h in enumerate(hands) if s != obs.seat]
            assert sum(others) == unseen and others[0] | others[1] | others[2] == unseen
            moved += hands != list(world.hands)
            checked += 1
    assert checked > 1000 and moved > checked // 2


def test_dealt_rows_are_drawn_as_determinize_draws(hands_drawn_alike: Any) -> None:
    """SCO-9: how often each hidden card lies with each seat is the same in the kernel's
    rows as in ``determinize``'s deals (a uniform deal of the unseen cards)."""
    game = GAMES["scopone"]
    kernel: Any = kernel_for("scopone")
    early = [o for o in card_play_observations(3, 4) if len(o.history) < 16]
    for obs in early[::2][:3]:
        world: Any = sample(game, obs, random.Random(1))
        unseen = [c for c in range(64) if (sum(world.hands) & ~obs.hand) >> c & 1]

        def alone(rng: random.Random, n: int, world: Any = world, obs: Any = obs) -> Any:
            return kernel.deal_hands(world, obs.seat, rng, n)

        hands_drawn_alike(game, obs, unseen[:12], alone)


def test_hands_alone_encode_and_read_as_whole_deals(read_as_whole: Any) -> None:
    """SCO-9: rows built from one whole deal and the others' hands equal the rows of the
    whole deals, key by key, and so do the weights of the reading (SCO-4.2: the plays
    read)."""
    game = GAMES["scopone"]
    kernel: Any = kernel_for("scopone")
    rng = random.Random(3)
    read = 0
    for obs in card_play_observations(6, 7):
        worlds = [sample(game, obs, rng) for _ in range(5)]
        (want,) = read_as_whole(kernel, worlds, obs.seat)
        read += bool((want < 1).any())
    assert read > 10


def test_bsearch_draws_one_whole_deal_and_deals_the_rest(
    kernel_reads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Scopone card decision of the batched search samples one whole deal
    (``determinize``) and has the kernel deal the others' hands of the rest, reads all
    of them (``read=M:pool=P``) and stays reproducible."""
    game = GAMES["scopone"]
    whole = {"n": 0}
    determinize = game.determinize

    def counted(obs: Any, rng: random.Random) -> Any:
        whole["n"] += 1
        return determinize(obs, rng)

    obs = next(o for o in card_play_observations(2, 9) if len(o.history) > 12)
    monkeypatch.setattr(game, "determinize", counted)
    calls = kernel_reads("scopone")
    bot = make_bot("bpimc:policy=heuristic:read=0.25:pool=3:worlds=50:keep=1")
    first = bot.evaluate(obs, random.Random(4))
    again = bot.evaluate(obs, random.Random(4))
    assert first.choice in obs.legal and first.choice == again.choice
    assert first.values == again.values
    assert {d["deals"] for d in first.detail.values()} == {50.0}
    assert whole["n"] == 2
    assert calls == [(150, True), (150, True)]
