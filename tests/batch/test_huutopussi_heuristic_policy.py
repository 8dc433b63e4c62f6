"""Huutopussi's ``heuristic`` playout policy and its reading of the play: the heuristic
bot's play phase written into the batched kernel — the cards by the shared tactics, the
declarations, asks, answers, kontra and re by its own scores (HUU-8, HUU-12.9) — each seat
knowing what HUU-14 lets it know (its hand, the played cards, a three-player declarer its
discards), with four players, three (HUU-13) and the Erlangen rules (HUU-12), and the
declarer's läpäri bonus when the opponents near 500 (HUU-9.4, HUU-10)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from folkcards.batch import huutopussi as K  # noqa: E402
from folkcards.batch import kernel_for  # noqa: E402
from folkcards.batch.exact import check, positions, random_variant  # noqa: E402
from folkcards.bots.heuristic import huutopussi as HEUR  # noqa: E402
from folkcards.bots.kits import find_kit  # noqa: E402
from folkcards.bots.registry import make_bot  # noqa: E402
from folkcards.bots.search import sample  # noqa: E402
from folkcards.engine.api import DealState, Observation  # noqa: E402
from folkcards.games import GAMES  # noqa: E402
from folkcards.games.huutopussi import rules as HT  # noqa: E402

POSITIONS = 300
TOTALS = (0, 150, 390, 410, 480)
"""Match totals carried into a deal (HUU-10.3): about half the declarers meet opponents
with 400 or more, where the heuristic's declarer plays for läpäri."""


def _lapari(st: Any) -> bool:
    """The heuristic's läpäri condition for the declarer of ``st``, from the totals."""
    d = st.declarer
    if d < 0:
        return False
    own = d % 2 if st.num_seats == 4 else d
    return max(x for i, x in enumerate(st.totals) if i != own) >= 400


def _positions_with_totals(n: int, seed: int) -> list[DealState]:
    """``n`` play-phase states (as :func:`folkcards.batch.exact.positions`: random
    variants, random choices) of deals carrying random match totals."""
    game = GAMES["huutopussi"]
    kernel = kernel_for("huutopussi")
    assert kernel is not None
    rng = random.Random(seed)
    out: list[DealState] = []
    while len(out) < n:
        variant = random_variant(game, rng)
        v = game.normalize_variant(variant)
        seats, sides = game.num_seats(v), game.num_teams(v)  # HUU-2.3, HUU-13.4
        carry = {"totals": [rng.choice(TOTALS) for _ in range(sides)]}
        st = game.random_deal(rng, variant, dealer=rng.randrange(seats), carry=carry)
        candidates = []
        while not st.is_over:
            if kernel.accepts(st):
                candidates.append(st.clone())
            st.apply(rng.choice(st.legal_actions()))
        if candidates:
            out.append(rng.choice(candidates))
    return out


@pytest.fixture(scope="module")
def states() -> list[DealState]:
    return positions(GAMES["huutopussi"], POSITIONS, seed=14)


@pytest.fixture(scope="module")
def matched() -> list[DealState]:
    return _positions_with_totals(POSITIONS, seed=15)


def test_the_positions_reach_every_kind_of_deal(
    states: list[DealState], matched: list[DealState]
) -> None:
    """Three and four players, the Erlangen rules, and läpäri declarers."""
    every: list[Any] = [*states, *matched]
    assert Counter(s.num_seats for s in every)[3] > 100
    assert sum(s.erlangen for s in every) > 100
    assert sum(_lapari(s) for s in matched) > 50


def test_the_heuristic_policy_plays_exactly_by_the_rules(
    states: list[DealState], matched: list[DealState]
) -> None:
    for group, seed in ((states, 4), (matched, 5)):
        report = check(GAMES["huutopussi"], group, "heuristic", seed=seed)
        assert report.positions == POSITIONS and report.actions > POSITIONS
        assert not report.failures, "\n".join(report.failures)


def _label(st: Any, obs: Observation) -> str:
    """A decision's kind: ``card`` (only cards to choose among), ``call`` (a declaration,
    an ask, kontra or re among the choices) or ``answer``; by 3 or 4 players; ``lapari``
    for a card of a declarer playing for läpäri."""
    if obs.phase == "answer":
        return "answer"
    if any(a.step.kind != "play" for a in obs.legal):
        return f"call{obs.num_seats}"
    if obs.seat == st.declarer and _lapari(st):
        return "lapari"
    return f"card{obs.num_seats}"


def test_every_action_of_a_playout_is_one_the_heuristic_rates_best(
    states: list[DealState], matched: list[DealState], heuristic_playouts: Any
) -> None:
    """Each row is played out by the kernel's ``heuristic`` policy; replayed through the
    scalar engine, every recorded action with a choice — card, declaration, ask, answer,
    kontra, re — must be one of the best by the heuristic's ``evaluate`` from that seat's
    observation."""
    checked: Counter[str] = Counter()
    for group in (states, matched):
        got, misses = heuristic_playouts("huutopussi", group, HEUR.evaluate, _label)
        assert not misses, misses[:10]
        checked += got
    for label in ("card4", "card3", "call4"):
        assert checked[label] > 300, checked
    assert checked["call3"] > 50 and checked["lapari"] > 100, checked


def _card_play_likelihood(world: Any, seat: int, miss: float) -> float:
    """:func:`folkcards.bots.search.likelihood` over the phase ``play`` only: ``miss`` per
    action there of a seat other than ``seat`` that the heuristic would not have chosen."""
    game = GAMES["huutopussi"]
    kit = find_kit("huutopussi")
    assert kit is not None
    fresh = game.deal_from_record(world.setup_record(), world.variant)
    weight = 1.0
    for action, actor in zip(world.history, world.actors, strict=True):
        if (
            fresh.phase == "play"
            and actor != seat
            and len(fresh.legal_actions()) > 1
            and kit.explains(fresh.observation(actor), action) is False
        ):
            weight *= miss
        fresh.apply(action)
    return weight


def test_the_kernels_reading_of_the_play_is_the_searchs_likelihood() -> None:
    """``HuutopussiKernel.likelihoods`` weights sampled deals exactly as the scalar
    search's inference from play (:func:`folkcards.bots.search.likelihood`) weights their
    card play: ``miss`` per action of phase ``play`` of another seat that the heuristic
    would not have chosen, with each deal's own hands and three-player discards; nothing
    for a single legal action or an answer (phase ``answer``)."""
    game = GAMES["huutopussi"]
    kernel = kernel_for("huutopussi")
    assert kernel is not None
    rng = random.Random(3)
    heuristic = make_bot("heuristic")
    variants: tuple[dict[str, Any], ...] = ({}, {"players": 3}, {"erlangen": True})
    compared: Counter[str] = Counter()
    missed = 0
    for d in range(18):
        variant = variants[d % 3]
        seats = 3 if variant.get("players") == 3 else 4
        carry = {"totals": [rng.choice(TOTALS) for _ in range(3 if seats == 3 else 2)]}
        deal: Any = game.random_deal(random.Random(d), variant, dealer=d % seats, carry=carry)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase == "play" and len(deal.history) % 3 == 0:
                worlds = [sample(game, obs, rng) for _ in range(4)]
                got = kernel.likelihoods(worlds, obs.seat, 0.25)
                for world, w in zip(worlds, got, strict=True):
                    want = _card_play_likelihood(world, obs.seat, 0.25)
                    assert w == pytest.approx(want, rel=1e-12)
                    kind = "erlangen" if deal.erlangen else f"players{seats}"
                    compared[kind] += 1
                    compared["lapari"] += _lapari(deal)
                    missed += want < 1
            deal.apply(heuristic.evaluate(obs, rng).choice)
    total = sum(compared[k] for k in ("players4", "players3", "erlangen"))
    assert total > 300 and all(compared[k] > 50 for k in compared), compared
    assert missed > total // 4


def _kernel_values(deal: Any, kernel: Any) -> dict[int, float]:
    """The kernel's value (:func:`folkcards.batch.huutopussi._mimic`'s ``vals[1]``) of
    every legal action of ``deal``'s seat to act, by code; its options must be the scalar
    legal actions."""
    row = kernel.encode_one(deal)
    n, lead, ns, cur = row["ntrick"], row["leader"], row["nseats"], row["to_act"]
    t = row["trump"] if row["trump"] >= 0 else 4
    pts = K.POINTS[row["scheme"]]
    win, wseat, tp = 0, lead, 0
    for i, c in enumerate(row["trick"][:n]):  # HUU-7.4
        tp += int(pts[c])
        if i == 0 or K.BEATS[t, win] >> np.uint64(c) & np.uint64(1):
            win, wseat = c, (lead + i) % ns
    h = np.array(row["hands"], np.uint64)
    opts = np.zeros(40, np.int64)
    no, _ = K._options(h[cur], ns, cur, row["declarer"], bool(row["erlangen"]),
                       bool(row["answering"]), row["ask_suit"], row["used"], row["broken"],
                       bool(row["window"]), row["calls"], n, row["trick"][0] if n else 0, win,
                       t, row["tricks_done"] == 0, opts)  # fmt: skip
    codes = sorted(int(x) for x in opts[:no])
    assert codes == sorted(kernel.action_code(deal, a) for a in deal.legal_actions())
    vals = np.zeros(2)
    out = {}
    for code in codes:
        K._mimic(opts, no, h, ns, cur, row["declarer"], n, lead, win, wseat, tp, t, pts,
                 np.uint64(row["discards"]), bool(row["lapari"]),
                 np.array(row["marriage_values"], np.int64), code, vals)  # fmt: skip
        out[code] = float(vals[1])
    return out


def test_the_kernels_values_are_the_heuristics() -> None:
    """At every decision of the play and answer phases of heuristic deals (a share of
    the actions random, to reach more positions), with match totals for läpäri, the
    kernel's options are the legal actions and its value of each is the heuristic's
    ``evaluate`` score — not just its choice: the läpäri bonus (HUU-9.4) never changes
    a choice (it only lifts the scores above 15), the values show it."""
    game = GAMES["huutopussi"]
    kernel = kernel_for("huutopussi")
    assert kernel is not None
    rng = random.Random(5)
    heuristic = make_bot("heuristic")
    seen: Counter[str] = Counter()
    for d in range(60):
        variant = ({}, {"players": 3}, {"erlangen": True})[d % 3]
        seats = 3 if variant.get("players") == 3 else 4
        carry = {"totals": [rng.choice(TOTALS) for _ in range(3 if seats == 3 else 2)]}
        deal: Any = game.random_deal(random.Random(d), variant, dealer=d % seats, carry=carry)
        while not deal.is_over:
            obs = deal.observation(deal.to_act)
            if deal.phase in ("play", "answer"):
                want = HEUR.evaluate(obs)
                got = _kernel_values(deal, kernel)
                for a in obs.legal:
                    assert got[kernel.action_code(deal, a)] == pytest.approx(want[a], rel=1e-12)
                seen[_label(deal, obs)] += 1
                seen["lapari bonus"] += (
                    any(v > 15 for v in want.values()) and _label(deal, obs) == "lapari"
                )
            if deal.phase == "play" and rng.random() < 0.3:
                deal.apply(rng.choice(obs.legal))
            else:
                deal.apply(heuristic.evaluate(obs, rng).choice)
    assert all(seen[k] > 30 for k in ("card4", "card3", "call4", "call3", "lapari")), seen
    assert seen["lapari bonus"] > 10, seen


def test_an_answer_tells_nothing() -> None:
    """An answer (HUU-8.4: phase ``answer``) is not weighted by the reading of the play,
    as the scalar likelihood over the phase ``play`` does not weight it: a partner asked
    for a marriage that answers with its poorer one of two counts nothing against it.
    (Rare in play: the deals ask for a marriage wherever they may.)"""
    game = GAMES["huutopussi"]
    kernel = kernel_for("huutopussi")
    assert kernel is not None
    rng = random.Random(7)
    found = 0
    for d in range(4000):
        variant = ({}, {"players": 3}, {"erlangen": True})[d % 3]
        deal: Any = game.random_deal(random.Random(d), variant, dealer=0)
        asker = -1
        while not deal.is_over and asker < 0:
            legal = deal.legal_actions()
            if deal.phase == "answer" and len(legal) > 1:  # the poorest marriage
                asker = deal.asker
                scores = HEUR.evaluate(deal.observation(deal.to_act))
                deal.apply(min(legal, key=scores.__getitem__))
            elif HT.ASK_MARRIAGE in legal:
                deal.apply(HT.ASK_MARRIAGE)
            else:
                deal.apply(rng.choice(legal))
        for _ in range(3):
            if not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))
        if asker < 0 or deal.is_over:
            continue
        got = kernel.likelihoods([deal], asker, 0.25)
        assert got[0] == pytest.approx(_card_play_likelihood(deal, asker, 0.25), rel=1e-12)
        found += 1
        if found == 12:
            break
    assert found == 12


@pytest.mark.parametrize(
    "spec", ["bpimc:policy=heuristic:worlds=8", "bsearch:policy=heuristic:read=0.25:pool=2"]
)
def test_the_batched_bots_decide_with_the_heuristic_policy(spec: str) -> None:
    """``bpimc`` and ``bsearch`` play out with the kernel's ``heuristic`` policy (and
    ``read``: its reading of the play) and choose a legal action, the same one again
    from the same seed, with three and four players."""
    game = GAMES["huutopussi"]
    bot = make_bot(spec)
    heuristic = make_bot("heuristic")
    rng = random.Random(6)
    for variant in ({}, {"players": 3}):
        deal: Any = None
        for d in range(20):  # a deal that reaches its third trick (not redealt, HUU-4.6)
            deal = game.random_deal(random.Random(d), variant, dealer=1)
            while not deal.is_over and not (
                deal.phase == "play" and deal.tricks_done >= 2 and len(deal.legal_actions()) > 1
            ):
                deal.apply(heuristic.evaluate(deal.observation(deal.to_act), rng).choice)
            if not deal.is_over:
                break
        assert deal is not None and not deal.is_over
        obs = deal.observation(deal.to_act)
        first = bot.evaluate(obs, random.Random(4))
        again = bot.evaluate(obs, random.Random(4))
        assert first.choice in obs.legal and first.choice == again.choice
        assert first.values == again.values
