"""Satat's deals given by their hands alone (``SatatKernel.draws_hands``).

In card play a batched search needs of a sampled deal its hands now and, to read the trump
maker's choice (SAT-5.2, SAT-5.3), his first five (SAT-4.2): the trick, the tricks, the
trump and a Trup Kasiet trump card the seat knows are the same in every deal sampled from
one observation (SAT-19). ``hands_of``, ``encode_hands`` and ``likelihoods_hands`` must give
exactly what ``encode`` and ``likelihoods`` give for the whole deals; a search draws the
hands alone only where ``Game.determinize_hands`` does (not while a Trup Kasiet trump card
is hidden from the seat, SAT-19.3)."""

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

VARIANTS: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
    ({}, None),
    ({"signals": "all"}, {"redeals": 0, "passing": {"winners": 0, "cards": 1}}),
    ({"signals": "home"}, {"redeals": 1, "passing": {"winners": 1, "cards": 2}}),
    ({"trup_kasiet": True, "signals": "all"}, None),
]
"""The main game with and without card passing (SAT-7) and signals (SAT-16), and Trup
Kasiet (SAT-15)."""


def card_play_observations(deals: int, seed: int) -> list[Observation]:
    """Observations of seats with a choice in card play, heuristic deals of every variant
    above and every dealer."""
    game = GAMES["satat"]
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        variant, carry = VARIANTS[d % len(VARIANTS)]
        deck = list(range(52))
        rng.shuffle(deck)
        deal: Any = game.new_deal(game.normalize_variant(variant), d % 4, deck, carry=carry)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and len(obs.legal) > 1 and len(deal.history) % 3 == d % 3:
                out.append(obs)
            deal.apply(quick_choice(obs, rng))
    return out


def test_hands_alone_encode_and_read_as_whole_deals() -> None:
    """SAT-19: rows built from one whole deal and the others' hands (with the trump
    maker's first five) equal the rows of the whole deals, key by key, and so do the
    weights of the reading (SAT-8.3: the play; SAT-5.2, SAT-5.3: the trump choice)."""
    game = GAMES["satat"]
    kernel: Any = kernel_for("satat")
    assert kernel is not None and kernel.draws_hands
    rng = random.Random(3)
    compared = weighted = hidden = 0
    for obs in card_play_observations(16, 7):
        if game.determinize_hands(obs, random.Random(0)) is None:
            hidden += 1  # a Trup Kasiet trump card this seat does not know
            continue
        worlds = [sample(game, obs, rng) for _ in range(5)]
        hands = np.array([kernel.hands_of(w) for w in worlds], np.uint64)
        whole = kernel.encode(worlds)
        alone = kernel.encode_hands(worlds[0], hands)
        assert set(alone) == set(whole)
        for key, value in whole.items():
            assert alone[key].dtype == value.dtype and np.array_equal(alone[key], value), key
        for bids in (True, False):
            want = kernel.likelihoods(worlds, obs.seat, 0.25, bids)
            got = kernel.likelihoods_hands(worlds[0], hands, obs.seat, 0.25, bids)
            assert np.array_equal(got, want)
            weighted += int((want < 1).sum())
        compared += 1
    assert compared > 50 and weighted > 20 and hidden > 0


def test_the_rows_drawn_alone_are_those_of_the_built_deals() -> None:
    """SAT-4.2: ``determinize_hands`` gives the row ``hands_of`` gives for the deal that
    ``determinize`` builds from the same draws."""
    game = GAMES["satat"]
    kernel: Any = kernel_for("satat")
    checked = 0
    for obs in card_play_observations(8, 11)[::3]:
        alone = game.determinize_hands(obs, random.Random(5))
        if alone is None:
            continue
        assert alone == kernel.hands_of(game.determinize(obs, random.Random(5)))
        checked += 1
    assert checked > 10


def test_bsearch_draws_one_whole_deal_then_hands(monkeypatch: Any, kernel_reads: Any) -> None:
    """In card play ``bsearch`` draws one whole deal and then the hands of the others
    (``Game.determinize_hands``), reads them as such and decides as before; while a Trup
    Kasiet trump card is hidden from the seat (SAT-19.3) it draws whole deals."""
    game = GAMES["satat"]
    drawn = {"whole": 0, "hands": 0}
    determinize, determinize_hands = game.determinize, game.determinize_hands

    def count(kind: str, draw: Any) -> Any:
        def counted(obs: Any, rng: random.Random) -> Any:
            drawn[kind] += 1
            return draw(obs, rng)

        return counted

    monkeypatch.setattr(game, "determinize", count("whole", determinize))
    monkeypatch.setattr(game, "determinize_hands", count("hands", determinize_hands))
    calls = kernel_reads("satat")
    bot = make_bot("bpimc:read=0.25:pool=3:worlds=8:keep=1")
    obs_list = card_play_observations(8, 11)
    known = next(o for o in obs_list if determinize_hands(o, random.Random(0)) is not None)
    hidden = next(o for o in obs_list if determinize_hands(o, random.Random(0)) is None)
    first = bot.evaluate(known, random.Random(4))
    again = bot.evaluate(known, random.Random(4))
    assert first.choice in known.legal and first.choice == again.choice
    assert first.values == again.values
    assert drawn == {"whole": 2, "hands": 2 * 23}  # 24 deals a decision, the first whole
    assert calls == [(24, True), (24, True)]
    drawn.update(whole=0, hands=0)
    assert bot.evaluate(hidden, random.Random(4)).choice in hidden.legal
    assert drawn == {"whole": 24, "hands": 1}  # asked once, None: whole deals


def test_the_trump_choice_is_read_from_each_deals_own_choices() -> None:
    """SAT-5.2, SAT-5.4, SAT-5.5: each sampled deal's trump maker is read from his own first
    five with the choices that five offered him (a redeal only without pictures), exactly
    as the heuristic would have chosen in that deal (``SatatState._trump_legal``)."""
    from folkcards.bots.heuristic import satat as HEUR
    from folkcards.games.satat.rules import K_BLIND, K_TRUMP, KIND

    game = GAMES["satat"]
    kernel: Any = kernel_for("satat")
    rng = random.Random(12)
    read = offered_redeal = 0
    for obs in card_play_observations(16, 5):
        if obs.seat == (obs.dealer + 1) % 4 or obs.variant["trup_kasiet"]:
            continue  # the trump maker's own choice, and Trup Kasiet's, are not read
        worlds: list[Any] = [sample(game, obs, rng) for _ in range(12)]
        made = next(a for a in worlds[0].history if KIND[a] in (K_TRUMP, K_BLIND))
        want = kernel.likelihoods(worlds, obs.seat, 0.25, False)
        for i, w in enumerate(worlds):
            legal = w._trump_legal()
            offered_redeal += any(a.text == "redeal" for a in legal)
            scores = HEUR.trump_scores(w.first_five(w.tm), legal)
            if scores.get(made, -1.0) < max(scores.values()) - 1e-9:
                want[i] *= 0.25
        got = kernel.likelihoods(worlds, obs.seat, 0.25, True)
        assert np.array_equal(got, want)
        rows = np.array([kernel.hands_of(w) for w in worlds], np.uint64)
        assert np.array_equal(kernel.likelihoods_hands(worlds[0], rows, obs.seat, 0.25), want)
        read += 1
    assert read > 20 and offered_redeal > 5
