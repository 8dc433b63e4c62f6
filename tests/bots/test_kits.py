"""The bot kits: one typed kit per game in one registry, the game card's scales, no import
cycle, and bots that need extras registering themselves."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator, Mapping

import pytest
import toygame

from folkcards.bots import BotError, make_bot
from folkcards.bots.base import shaping_of, utilities
from folkcards.bots.heuristic import sasku, scopone
from folkcards.bots.kits import KITS, BotKit, find_kit, get_kit, register_kit, unregister_kit
from folkcards.bots.registry import BOTS, register_bot
from folkcards.bots.search import heuristic_prior, quick_choice
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation
from folkcards.games import GAMES

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_every_game_has_one_kit_and_an_unknown_one_is_named() -> None:
    builtin = [name for name in GAMES if name != "toy"]
    assert list(KITS) == builtin  # the built-in kits, in the order of the games
    for name, kit in KITS.items():
        assert isinstance(kit, BotKit) and kit.game == name and get_kit(name) is kit
    assert get_kit("sasku").leaf_solver is sasku.leaf
    assert get_kit("scopone").rollout is scopone.rollout
    assert dict(get_kit("sasku").search_tuning) == sasku.SEARCH_TUNING
    assert find_kit("toy") is None
    with pytest.raises(BotError, match=r"no bot kit for game 'toy' \(games with one: sasku, "):
        get_kit("toy")


def test_a_kits_tunings_cannot_be_changed_through_it() -> None:
    kit = get_kit("sasku")
    with pytest.raises(TypeError):
        kit.search_tuning["keep"] = 3.0  # type: ignore[index]
    assert sasku.SEARCH_TUNING["keep"] == 0.5


def test_another_kit_for_a_game_is_refused() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_kit(BotKit("sasku", evaluate=sasku.evaluate))
    assert register_kit(KITS["sasku"]) is KITS["sasku"]  # the same kit again is fine


def _last_legal(obs: Observation) -> Mapping[Action, float]:
    """A toy heuristic: the last legal action, always."""
    return {a: float(i) for i, a in enumerate(obs.legal)}


@pytest.fixture
def toy_kit() -> Iterator[BotKit]:
    """A kit for the toy game through the public registry, taken away after the test."""
    kit = register_kit(BotKit("toy", evaluate=_last_legal))
    yield kit
    unregister_kit("toy")
    assert find_kit("toy") is None


def test_a_toy_game_gets_a_kit_through_the_registry(toy_kit: BotKit) -> None:
    """With a kit, the toy's heuristic plays the kit's choice (not the small search a game
    without one gets), and the search bots read the same kit."""
    state = toygame.GAME.random_deal(random.Random(3))
    obs = state.observation(state.to_act)
    ev = make_bot("heuristic").evaluate(obs, random.Random(0))
    assert ev.scale == "heuristic" and ev.choice == obs.legal[-1]
    assert quick_choice(obs, random.Random(0), playout=True) == obs.legal[-1]
    assert heuristic_prior(obs)[obs.legal[-1]] == 1.0
    assert toy_kit.explains(obs, obs.legal[-1]) is True
    assert toy_kit.explains(obs, obs.legal[0]) is False
    keep = make_bot("pimc:iters=8:keep=1000").evaluate(obs, random.Random(1))
    assert keep.choice == obs.legal[-1]


def test_without_a_kit_the_heuristic_is_a_small_search() -> None:
    state = toygame.GAME.random_deal(random.Random(3))
    obs = state.observation(state.to_act)
    assert make_bot("heuristic").evaluate(obs, random.Random(0)).scale == "win"


def test_utilities_take_their_scales_from_the_game_card() -> None:
    for game in [*GAMES.values(), toygame.GAME]:
        card = game.card()
        assert shaping_of(game) == (card.shaping or ("score", card.margin_scale))
        assert shaping_of(game.name) == shaping_of(game)
    # the toy's card has no shaping key: its tricks do not count, only its score
    by_score = utilities(toygame.GAME, {"score": [1, 0], "tricks": [3, 1]}, 4)
    assert by_score == utilities(toygame.GAME, {"score": [1, 0], "tricks": [4, 0]}, 4)
    assert by_score[0] == pytest.approx(0.75 + 0.25 * (0.5 + 0.5 * 0.197375320224904))


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.strip()


def test_no_import_cycle_and_no_rl_in_the_bot_registry() -> None:
    """Each bot module imports first on its own; the bot registry (every bot) loads none
    of ``folkcards.rl`` or its dependencies."""
    for module in ("search", "kits", "heuristic.sasku", "batched", "registry", "hint"):
        assert _fresh(f"import folkcards.bots.{module}; print('ok')") == "ok"
    loaded = _fresh(
        "import sys, folkcards.bots.registry\n"
        "print(sorted(m for m in sys.modules if m.startswith(('folkcards.rl', 'pyspiel',"
        " 'open_spiel', 'gymnasium', 'pettingzoo'))))"
    )
    assert loaded == "[]"


def test_a_bot_registers_its_own_spec_name() -> None:
    def factory(opts: dict[str, object], name: str) -> object:
        raise AssertionError("not built here")

    register_bot("alpha-test", factory, {"depth": int})  # type: ignore[arg-type]
    try:
        assert BOTS["alpha-test"] == (factory, {"depth": int})
        with pytest.raises(ValueError, match="already registered"):
            register_bot("alpha-test", lambda opts, name: make_bot("random"), {})
        with pytest.raises(BotError, match="valid options: depth"):
            make_bot("alpha-test:width=2")
    finally:
        del BOTS["alpha-test"]


def test_the_rl_bots_register_when_a_spec_names_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from folkcards.rl import register_bots_for

    register_bots_for(["heuristic", "search:iters=4"])  # nothing to do
    monkeypatch.setitem(sys.modules, "folkcards.rl.openspiel_bot", None)  # as without the extra
    with pytest.raises(BotError, match=r"needs the rl extra"):
        register_bots_for(["heuristic", "openspiel:iters=10"])
