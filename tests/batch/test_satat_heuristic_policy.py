"""Satat's ``heuristic`` playout policy and its reading of the play: the heuristic bot's
card play written into the batched kernel, each seat knowing what SAT-19 lets it know
(its hand, the played cards, the trump only once Trup Kasiet's table knows it or when it
made it, SAT-15.4, SAT-19.3), the 2♥ kept for a key trick (SAT-1.3, SAT-9), the 7-0
always continued (SAT-9.2), and signals (SAT-16) rated below the plain play."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch.exact import check, positions, random_variant  # noqa: E402
from folkcards.bots.batched import batch_tuning  # noqa: E402
from folkcards.bots.heuristic import satat as HEUR  # noqa: E402
from folkcards.bots.kits import find_kit  # noqa: E402
from folkcards.bots.registry import make_bot  # noqa: E402
from folkcards.bots.search import sample  # noqa: E402
from folkcards.engine.api import DealState, Observation  # noqa: E402
from folkcards.games import GAMES  # noqa: E402
from folkcards.games.satat import TWO_H  # noqa: E402
from folkcards.games.satat.rules import SUF  # noqa: E402

POSITIONS = 300


@pytest.fixture(scope="module")
def states() -> list[DealState]:
    return positions(GAMES["satat"], POSITIONS, seed=14)


def test_the_positions_cover_the_variants(states: list[DealState]) -> None:
    seen: Any = states
    assert {bool(s.tk) for s in seen} == {True, False}  # SAT-15
    assert {s.sig for s in seen} == {0, 1, 2}  # SAT-16
    assert any(s.tk and not s.known for s in seen)


def test_the_heuristic_policy_plays_exactly_by_the_rules(states: list[DealState]) -> None:
    report = check(GAMES["satat"], states, "heuristic", seed=4)
    assert report.positions == POSITIONS and report.actions > POSITIONS
    assert not report.failures, "\n".join(report.failures)


class _Unsignalled:
    """A Satat deal that takes each lese step (SAT-16.5) as soon as it comes, as the batch
    leaves it out (``SatatKernel.skipped``): the shared fixture then replays the
    kernel's record one scalar action per recorded code."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self._skip()

    def _skip(self) -> None:
        kernel = kernel_for("satat")
        assert kernel is not None
        st = self._state
        while not st.is_over and kernel.skipped(st):
            st.apply(st.legal_actions()[0])

    def clone(self) -> _Unsignalled:
        return _Unsignalled(self._state.clone())

    def apply(self, action: Any) -> None:
        self._state.apply(action)
        self._skip()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def test_every_action_of_a_playout_is_one_the_heuristic_rates_best(
    states: list[DealState], heuristic_playouts: Any
) -> None:
    """Each row is played out by the kernel's ``heuristic`` policy; replayed through the
    scalar engine, every recorded card (and 7-0 choice) must be one of the best by the
    heuristic's ``evaluate`` from that seat's observation: leads and follows, with the
    2♥ among the legal cards or not, with and without the trump known (Trup Kasiet), in
    key tricks and not."""
    also: Counter[str] = Counter()

    def counted(st: Any, obs: Observation) -> str | None:
        if obs.phase == "continue":
            return "continue"
        assert obs.phase == "play"
        label = "follow" if obs.info["trick"] else "lead"
        if any(x.step.cards[0] == TWO_H for x in obs.legal):
            label += " with the 2H"
            key = max(obs.info["tricks"]) >= 6 or obs.info["continuing"]
            also["2H key" if key else "2H kept"] += 1
        if obs.info["trump"] is None:
            also["trump unknown"] += 1
        if st.sig:
            also["signals"] += 1
        return label

    checked, misses = heuristic_playouts(
        "satat", [_Unsignalled(s) for s in states], HEUR.evaluate, counted
    )
    assert checked["lead"] > 800 and checked["follow"] > 3000, checked
    assert checked["lead with the 2H"] > 100 and checked["follow with the 2H"] > 300, checked
    assert checked["continue"] > 3, checked
    assert also["2H key"] > 50 and also["2H kept"] > 300, also
    assert also["trump unknown"] > 300 and also["signals"] > 2000, also
    assert not misses, misses[:10]


def test_the_kernels_reading_of_the_play_is_the_searchs_likelihood() -> None:
    """``SatatKernel.likelihoods`` weights sampled deals exactly as the scalar search's
    inference from play weights their trump choice and card play: ``miss`` for another
    seat's trump or blind (SAT-5.2, SAT-5.3) that the heuristic would not have made from
    that deal's first five, and per play of another seat it would not have made with that
    deal's hands, trump and hidden trump card (Trup Kasiet, SAT-15, whose hidden card is
    not read), a signalled play (SAT-16.6) always one, nothing for a seat with one legal
    action; with ``bids=False``, the card play alone."""
    game = GAMES["satat"]
    kernel = kernel_for("satat")
    kit = find_kit("satat")
    assert kernel is not None and kit is not None
    rng = random.Random(3)
    heuristic = make_bot("heuristic")

    def card_play_likelihood(world: Any, seat: int, miss: float, bids: bool = True) -> float:
        fresh = game.deal_from_record(world.setup_record(), world.variant)
        weight = 1.0
        for action, actor in zip(world.history, world.actors, strict=True):
            if (
                (fresh.phase == "play" or (bids and fresh.phase == "trump" and not world.tk))
                and actor != seat
                and len(fresh.legal_actions()) > 1
                and kit.explains(fresh.observation(actor), action) is False
            ):
                weight *= miss
            fresh.apply(action)
        return weight

    compared: Counter[str] = Counter()
    missed = varied = 0
    for d in range(40):
        deal: Any = game.random_deal(random.Random(d), random_variant(game, rng), dealer=d % 4)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and len(deal.history) % 5 == 0 and deal.log:
                worlds = [sample(game, obs, rng) for _ in range(3)]
                got = kernel.likelihoods(worlds, obs.seat, 0.25)
                varied += len(set(got)) > 1  # the reading tells the deals apart
                for world, w in zip(worlds, got, strict=True):
                    want = card_play_likelihood(world, obs.seat, 0.25)
                    assert w == pytest.approx(want, rel=1e-12)
                    compared["deals"] += 1
                    compared["trump unknown"] += obs.info["trump"] is None
                    compared["signals"] += any(SUF[a] for a in world.history)
                    missed += want < 1
                    compared["trump read"] += obs.seat != world.tm and not world.tk
                plays_only = kernel.likelihoods(worlds, obs.seat, 0.25, bids=False)
                for world, w in zip(worlds, plays_only, strict=True):
                    want = card_play_likelihood(world, obs.seat, 0.25, bids=False)
                    assert w == pytest.approx(want, rel=1e-12)
            if rng.random() < 0.1:  # now and then a stray action: signals, a stop, a lese
                deal.apply(rng.choice(obs.legal))
            else:
                deal.apply(heuristic.evaluate(obs, rng).choice)
    assert compared["deals"] > 300 and compared["trump unknown"] > 30, compared
    assert compared["signals"] > 30 and compared["trump read"] > 100, compared
    assert missed > compared["deals"] // 5 and varied > compared["deals"] // 6


def _positions_to_decide(n: int) -> list[Observation]:
    """Play-phase observations of heuristic deals with a choice to make."""
    game = GAMES["satat"]
    rng = random.Random(6)
    heuristic = make_bot("heuristic")
    out: list[Observation] = []
    d = 0
    while len(out) < n:
        deal: Any = game.random_deal(random.Random(100 + d), dealer=d % 4)
        d += 1
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and len(obs.legal) > 1 and len(deal.history) > 12:
                out.append(obs)
                break
            deal.apply(heuristic.evaluate(obs, rng).choice)
    return out


def test_the_batched_searches_play_the_heuristic_and_read_the_play(kernel_reads: Any) -> None:
    """``bpimc:policy=heuristic`` and ``bsearch:policy=heuristic:read=0.25:pool=2`` decide
    Satat positions in the kernel (not the scalar fallback), the second weighting its
    sampled deals by the kernel's reading of the play and keeping one deal in two."""
    read = kernel_reads("satat")
    worlds = int(batch_tuning("satat")["worlds"])
    for obs in _positions_to_decide(3):
        ev = make_bot("bpimc:policy=heuristic:worlds=8").evaluate(obs, random.Random(1))
        assert ev.choice in obs.legal
        assert {d["deals"] for d in ev.detail.values()} == {8.0}
        assert not read
        bot = make_bot("bsearch:policy=heuristic:read=0.25:pool=2")
        ev = bot.evaluate(obs, random.Random(1))
        assert ev.choice in obs.legal
        assert read == [(2 * worlds, True)]
        assert {d["deals"] for d in ev.detail.values()} == {float(worlds)}
        read.clear()
