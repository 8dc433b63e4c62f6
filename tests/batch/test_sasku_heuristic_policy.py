"""Sasku's ``heuristic`` playout policy: the heuristic bot's card play written into the
batched kernel, each seat deciding from what it may know (SAS-19), not from open hands.

The kernel's card must be one the heuristic's playout scorer rates best at every step of
a playout (SAS-10.3 legal plays, the exclusions of SAS-10.3 and SAS-17.2 carried along as
cards fall, the face-up deal of SAS-6.4 and the given pictures of SAS-7.7 located), and the
rows must still play exactly as the scalar engine does."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch import sasku as K  # noqa: E402
from folkcards.batch.exact import check, positions  # noqa: E402
from folkcards.bots.heuristic import sasku as HEUR  # noqa: E402
from folkcards.bots.kits import find_kit  # noqa: E402
from folkcards.bots.registry import make_bot  # noqa: E402
from folkcards.bots.search import sample  # noqa: E402
from folkcards.engine.api import DealState  # noqa: E402
from folkcards.games import GAMES  # noqa: E402
from folkcards.games import sasku as S  # noqa: E402

POSITIONS = 300


@pytest.fixture(scope="module")
def states() -> list[DealState]:
    return positions(GAMES["sasku"], POSITIONS, seed=11)


def test_the_heuristic_policy_plays_exactly_by_the_rules(states: list[DealState]) -> None:
    report = check(GAMES["sasku"], states, "heuristic", seed=4)
    assert report.positions == POSITIONS and report.actions > POSITIONS
    assert not report.failures, "\n".join(report.failures)


def _insider(state: Any, seat: int) -> bool:
    """A seat that saw a returned card (SAS-7.7): its knowledge holds one card more than
    the kernel's public one."""
    return any(seat in (giver, returner) and back >= 0 for giver, _, returner, back in
               state.exchanges)  # fmt: skip


def test_every_card_of_a_playout_is_one_the_heuristic_rates_best(
    states: list[DealState], heuristic_playouts: Any
) -> None:
    """Each row is played out by the kernel's ``heuristic`` policy; the recorded cards
    are then replayed through the scalar engine, and at each step the heuristic's playout
    scorer, from that seat's own observation, must rate the kernel's card among its best
    (seats that saw a returned card aside)."""
    checked, misses = heuristic_playouts(
        "sasku",
        states,
        HEUR.playout_evaluate,
        lambda st, obs: None if _insider(st, obs.seat) else "play",
    )
    assert checked["play"] > 2 * POSITIONS
    assert not misses, misses[:10]


def test_the_public_knowledge_is_the_heuristics() -> None:
    """``located`` and the public exclusions give every seat outside an exchange the very
    sets of possible cards and the densities the heuristic's ``Knowledge`` builds (SAS-6.4,
    SAS-7.7, SAS-10.3, SAS-17.2), in deals cut ``deal to X`` and with exchanges."""
    game = GAMES["sasku"]
    rng = random.Random(5)
    heuristic = make_bot("heuristic")
    poss = np.zeros(4, np.uint64)
    definite = np.zeros(4, np.uint64)
    dens = np.zeros(4)
    up = given = compared = 0
    for d in range(40):
        deal: Any = game.random_deal(random.Random(d), dealer=d % 4)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and not _insider(deal, obs.seat):
                t = deal.trump
                config = S.TRUMP_CONFIGS[t]
                know = HEUR.Knowledge(obs, config)
                excl = S.play_exclusions(
                    [x.step for x in deal.history], deal.actors, config, bool(deal.must_beat)
                )
                legal = 0
                for x in obs.legal:
                    legal |= 1 << x.step.cards[0]
                K._mimic(np.uint64(legal), 0, 0, obs.seat, obs.seat, np.uint64(0), 0, False,
                         np.array(list(deal.hands), np.uint64), np.array(excl, np.uint64),
                         np.array(K.located(deal), np.uint64), K.BEATS[t], K.CLASS[t],
                         K.TRUMPS[t], K.H_POWER[t], poss, definite, dens, -1, np.zeros(2))  # fmt: skip
                assert [int(x) for x in poss] == know.possible
                assert [int(x) for x in definite] == know.definite
                assert list(dens) == pytest.approx(know.density)
                compared += 1
                up += bool(deal.face_up)
                given += bool(deal.exchanges)
            if deal.phase == "play":
                deal.apply(heuristic.evaluate(obs, rng).choice)
            else:  # random cuts (mostly ``deal to X``) and exchanges
                deal.apply(rng.choice(obs.legal))
    assert compared > 500 and up > 200 and given > 50


def test_a_kernel_without_the_policy_refuses_it_and_bpimc_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every kernel plays the heuristic now: one (Satat's) is made to lack it. It refuses
    the policy, and ``bpimc`` asked for it searches on the scalar engine instead (its
    evaluation counts scalar ``samples``, not batched ``deals``)."""
    other = kernel_for("satat")
    assert other is not None and "heuristic" in other.policies
    state = positions(GAMES["satat"], 1, seed=2)[0]
    obs = state.observation(state.to_act)
    assert obs.phase == "play" and len(obs.legal) > 1
    bot = make_bot("bpimc:policy=heuristic:worlds=4")
    batched = bot.evaluate(obs, random.Random(1))
    assert all("deals" in d for d in batched.detail.values())
    monkeypatch.setattr(other, "policies", other.policies - {"heuristic"})
    a = other.build(other.encode([state]), np.arange(1))
    with pytest.raises(ValueError, match="no policy 'heuristic'"):
        other.play(a, "heuristic")
    ev = bot.evaluate(obs, random.Random(1))
    assert ev.choice in obs.legal
    assert all("deals" not in d and d["samples"] > 0 for d in ev.detail.values())


def test_the_kernels_reading_of_the_play_is_the_searchs_likelihood() -> None:
    """``SaskuKernel.likelihoods`` weights sampled deals exactly as the scalar search's
    inference from play (:func:`folkcards.bots.search.likelihood`) weights their bids,
    trump, override and card play: ``miss`` per bid, pass or ``diamonds`` (SAS-8.3), trump
    named (SAS-9.1), override answer (SAS-9.3) or card of another seat the heuristic's
    playout scorer would not have made, nothing for single legal actions (SAS-10.3) or the
    heuristic's solved endgame, also before card play (the bids made so far). Without the
    bids read the kernel weights many of the same deals otherwise: the auction tells
    something."""
    game = GAMES["sasku"]
    kernel = kernel_for("sasku")
    assert kernel is not None
    kit = find_kit("sasku")
    assert kit is not None
    rng = random.Random(3)
    heuristic = make_bot("heuristic")

    def card_play_likelihood(world: Any, seat: int, miss: float) -> float:
        fresh = game.deal_from_record(world.setup_record(), world.variant)
        weight = 1.0
        for action, actor in zip(world.history, world.actors, strict=True):
            if (
                fresh.phase in ("auction", "declare", "override", "play")
                and actor != seat
                and len(fresh.legal_actions()) > 1
                and kit.explains(fresh.observation(actor), action) is False
            ):
                weight *= miss
            fresh.apply(action)
        return weight

    compared = missed = by_bids = before = 0
    for d in range(12):
        deal: Any = game.random_deal(random.Random(d), dealer=d % 4)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase in ("auction", "declare", "override") and kernel.reads_before_play(deal):
                # a decision before card play reads the bids made so far (the bridge)
                worlds = [sample(game, obs, rng) for _ in range(6)]
                got = kernel.likelihoods(worlds, obs.seat, 0.25)
                for world, w in zip(worlds, got, strict=True):
                    assert w == pytest.approx(card_play_likelihood(world, obs.seat, 0.25))
                    before += 1
            if deal.phase == "play" and len(deal.history) % 3 == 0 and not deal.exchanges:
                worlds = [sample(game, obs, rng) for _ in range(6)]
                got = kernel.likelihoods(worlds, obs.seat, 0.25)
                for world, w in zip(worlds, got, strict=True):
                    want = card_play_likelihood(world, obs.seat, 0.25)
                    assert w == pytest.approx(want, rel=1e-12)
                    compared += 1
                    missed += want < 1
                plays_only = kernel.likelihoods(worlds, obs.seat, 0.25, bids=False)
                by_bids += int((plays_only != got).sum())
            deal.apply(heuristic.evaluate(obs, rng).choice)
    assert compared > 300 and missed > compared // 3 and by_bids > compared // 10
    assert before > 50


def test_bpimc_reads_the_play_and_keeps_one_deal_in_pool(
    kernel_reads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``read=M:pool=P`` samples P times the deals, weights them in the kernel and plays
    out the ``worlds`` drawn by those weights; decisions stay legal and reproducible. In
    card play the deals after the first are drawn by their hands alone
    (``Game.determinize_hands``, SAS-19.1) and read as such."""
    game = GAMES["sasku"]
    drawn = {"whole": 0, "hands": 0}
    determinize, determinize_hands = game.determinize, game.determinize_hands

    def count(kind: str, draw: Any) -> Any:
        def counted(obs: Any, rng: random.Random) -> Any:
            drawn[kind] += 1
            return draw(obs, rng)

        return counted

    rng = random.Random(8)
    heuristic = make_bot("heuristic")
    deal: Any = game.random_deal(random.Random(2), dealer=0)
    while not (deal.phase == "play" and len(deal.history) > 20 and len(deal.legal_actions()) > 1):
        deal.apply(heuristic.evaluate(deal.observation(deal.to_act), rng).choice)
    obs = deal.observation(deal.to_act)
    monkeypatch.setattr(game, "determinize", count("whole", determinize))
    monkeypatch.setattr(game, "determinize_hands", count("hands", determinize_hands))
    calls = kernel_reads("sasku")
    bot = make_bot("bpimc:read=0.25:pool=3:worlds=8:keep=1")
    first = bot.evaluate(obs, random.Random(4))
    again = bot.evaluate(obs, random.Random(4))
    assert first.choice in obs.legal and first.choice == again.choice
    assert first.values == again.values
    assert {d["deals"] for d in first.detail.values()} == {8.0}
    assert drawn == {"whole": 2, "hands": 2 * 23}  # 24 deals a decision, the first whole
    assert calls == [(24, True), (24, True)]
