"""The benchmark scripts behind Sheepshead's goals: ``sheepshead_roles.py`` (a tournament's
plays by the lone bot's role), ``sheepshead_pick.py`` (the heuristic with its picking
moved) and ``open_hands.py`` (a player who sees every card, in Sheepshead and Sasku)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from folkcards.bots.base import play_deal
from folkcards.games import GAMES
from folkcards.tournament import TournamentConfig, run_tournament


def test_every_play_is_grouped_and_the_wins_are_the_tournaments(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    """Two boards of heuristic against random: each of the 20 plays (a lone bot in each of
    five seats, SHP-2) lands in one role; the lone seats' wins add up to the summary's."""
    summary, results = run_tournament(
        TournamentConfig("sheepshead", ("heuristic", "random"), 2, 5), workers=1
    )
    lines = [json.dumps(p["record"]) for r in results for p in r["plays"]]
    found = load_benchmark("sheepshead_roles").roles(lines)
    assert sum(v[0] for v in found.values()) == len(lines) == 20
    assert {role for _, _, role in found} <= {"picker", "partner", "defender", "leaster"}
    won = sum(v[1] for (lone, _, _), v in found.items() if lone == "heuristic")
    lost = sum(v[0] - v[1] for (lone, _, _), v in found.items() if lone == "random")
    m = summary["matchups"][0]
    wins, ties, _ = m["wins_ties_losses"]
    assert won + lost == wins + ties / 2


def test_roles_come_from_the_result(load_benchmark: Callable[[str], ModuleType]) -> None:
    role_of = load_benchmark("sheepshead_roles").role_of
    assert role_of({"picker": None, "partner": None}, 3) == "leaster"  # SHP-9.1
    assert role_of({"picker": 2, "partner": 4}, 2) == "picker"
    assert role_of({"picker": 2, "partner": 4}, 4) == "partner"  # SHP-6
    assert role_of({"picker": 2, "partner": None}, 4) == "defender"  # alone, SHP-6.5


def test_a_moved_threshold_picks_more_or_less_and_plays_as_the_heuristic(
    load_benchmark: Callable[[str], ModuleType],
) -> None:
    """``pickshift:t=100`` never picks (SHP-4), ``t=-100`` always does, ``t=0`` picks as
    the heuristic; after the picking every choice is the heuristic's."""
    from folkcards.bots.search import HeuristicBot

    shift = load_benchmark("sheepshead_pick").PickShift
    never, always, same = shift(100.0, "never"), shift(-100.0, "always"), shift(0.0, "same")
    heuristic, game = HeuristicBot(), GAMES["sheepshead"]
    picks = {"never": 0, "always": 0, "same": 0, "heuristic": 0}
    for d in range(30):
        deal = game.random_deal(random.Random(d))
        obs = deal.observation(deal.to_act)
        assert obs.phase == "pick"
        for name, bot in (
            ("never", never),
            ("always", always),
            ("same", same),
            ("heuristic", heuristic),
        ):
            choice = bot.evaluate(obs, random.Random(0)).choice
            picks[name] += choice.step.kind == "pick"
        while deal.to_act is not None and deal.observation(deal.to_act).phase == "pick":
            deal.apply(heuristic.evaluate(deal.observation(deal.to_act), random.Random(0)).choice)
        if deal.to_act is not None:
            later = deal.observation(deal.to_act)
            assert same.evaluate(later, random.Random(1)) == heuristic.evaluate(
                later, random.Random(1)
            )
    assert picks["never"] == 0 and picks["always"] == 30
    assert 0 < picks["same"] == picks["heuristic"] < 30


def test_open_hands_plays_a_board_from_the_whole_deal(
    tmp_path: Path, load_benchmark: Callable[[str], ModuleType]
) -> None:
    """``open_hands.py``'s ``openhands`` (a yardstick, not a fair bot) plays a board of a
    duplicate tournament (SHP-2: ten plays, a lone bot in each seat) from the deal it is
    handed before each decision, and refuses to decide without it."""
    import pytest

    pytest.importorskip("numpy")
    module = load_benchmark("open_hands")
    out = tmp_path / "summary.json"
    argv = ["sheepshead", "--bots", "openhands,heuristic", "--deals", "1", "--seed", "5"]
    assert module.main([*argv, "--workers", "1", "--json", str(out)]) == 0
    m = json.loads(out.read_text())["matchups"][0]
    assert m["a"] == "openhands" and m["plays"] == 10 and sum(m["wins_ties_losses"]) == 10
    bot = module.make_open_hands({}, "openhands")
    deal = GAMES["sheepshead"].random_deal(random.Random(1))
    obs = deal.observation(deal.to_act)
    module.TRUTH.clear()
    with pytest.raises(IndexError):
        bot.evaluate(obs, random.Random(0))
    module.TRUTH[:] = [deal.clone()]
    assert bot.evaluate(obs, random.Random(0)).choice in obs.legal
    deal.apply(obs.legal[0])
    with pytest.raises(ValueError, match="not the observation's"):
        bot.evaluate(deal.observation(deal.to_act), random.Random(0))
    assert module.duplicate.play_deal is play_deal  # the fair one is back


def test_open_hands_can_leave_the_auction_to_the_heuristic(
    monkeypatch: Any, load_benchmark: Callable[[str], ModuleType]
) -> None:
    """``openhands:bridge=0`` bids as the heuristic does, from its own cards only (SAS-8:
    a Sasku auction), while the default values each bid on the true deal; with
    ``policy=heuristic`` a card is valued by the heuristic's playouts of the true deal,
    ``k`` of them with ``k``."""
    import pytest

    pytest.importorskip("numpy")
    from folkcards.batch import kernel_for
    from folkcards.bots.search import heuristic_evaluation

    kernel = kernel_for("sasku")
    assert kernel is not None
    played: list[object] = []
    play = kernel.play

    def watch(a: Any, policy: Any = "fast", *args: Any, **kwargs: Any) -> Any:
        played.append(policy)
        return play(a, policy, *args, **kwargs)

    monkeypatch.setattr(kernel, "play", watch)
    module = load_benchmark("open_hands")
    rng = random.Random(3)
    deal = GAMES["sasku"].random_deal(rng)
    while deal.phase != "auction":
        deal.apply(heuristic_evaluation(deal.observation(deal.to_act), rng).choice)
    obs = deal.observation(deal.to_act)
    module.TRUTH[:] = [deal]
    try:
        fair = module.make_open_hands({"bridge": 0}, "openhands")
        assert fair.evaluate(obs, random.Random(0)) == heuristic_evaluation(obs, random.Random(0))
        assert played == []  # nothing played out: the heuristic's bid
        open_bids = module.make_open_hands({}, "openhands").evaluate(obs, random.Random(0))
        assert open_bids.detail and all(d["deals"] == 1 for d in open_bids.detail.values())
        assert played and set(played) == {"fast"}
        played.clear()
        while deal.phase != "play" or len(deal.legal_actions()) < 2:
            deal.apply(heuristic_evaluation(deal.observation(deal.to_act), rng).choice)
        bot = module.make_open_hands({"policy": "heuristic", "solve": 0, "leaf": 3}, "oh")
        card = bot.evaluate(deal.observation(deal.to_act), random.Random(0))
        assert card.detail and all(d["deals"] == 1 for d in card.detail.values())
        assert played and set(played) == {"heuristic"}
        once = len(played)
        played.clear()
        options = {"policy": "heuristic", "solve": 0, "leaf": 3, "k": 4}
        module.make_open_hands(options, "oh").evaluate(deal.observation(deal.to_act), rng)
        assert len(played) == 4 * once  # k playouts of the true deal, averaged
    finally:
        module.TRUTH.clear()
