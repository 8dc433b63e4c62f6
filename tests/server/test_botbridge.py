"""The web table's bots (``folkcards.server.botbridge``): the ``search`` level and the hint
play the batched search when its kernels run compiled, the scalar ``search`` without them
(or while a game's kernels are still warming), and every bot sees only the seat's
observation and answers one of its legal actions."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from folkcards.bots.base import Evaluation
from folkcards.bots.batched import BatchPIMCBot
from folkcards.bots.heuristic import sasku
from folkcards.bots.positions import card_play_position
from folkcards.bots.search import PIMCBot
from folkcards.engine.api import DealState, Observation
from folkcards.games import GAMES
from folkcards.server import botbridge

GAME_NAMES = ("sasku", "scopone", "sheepshead", "satat", "huutopussi")


def _compiled() -> bool:
    try:
        from folkcards.batch import compiled
    except ImportError:
        return False
    return compiled()


needs_batch = pytest.mark.skipif(not _compiled(), reason="the batch extra (numpy, numba)")


def play_position(game: str, seed: int) -> Observation:
    """The observation of the seat to act in card play, with a choice to make."""
    state = card_play_position(GAMES[game], random.Random(seed))
    assert state is not None and state.to_act is not None
    return state.observation(state.to_act)


class Spy:
    """Wraps a bot class's ``evaluate``: every observation it was given, checked to be a
    plain :class:`Observation` of the seat to act, and its answer one of ``obs.legal``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type[Any]) -> None:
        self.seen: list[Observation] = []
        real = cls.evaluate

        def evaluate(bot: Any, obs: Any, rng: random.Random) -> Evaluation:
            assert type(obs) is Observation and not isinstance(obs, DealState)
            assert obs.to_act == obs.seat
            self.seen.append(obs)
            ev: Evaluation = real(bot, obs, rng)
            assert ev.choice in obs.legal
            return ev

        monkeypatch.setattr(cls, "evaluate", evaluate)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A process where no game's kernels are warm yet and no warming has started.

    A warming thread an earlier test started for real (the first ``search`` decision of a
    process starts one) is waited for first: on a cold numba cache it is still compiling,
    and a game it then loads would set this test's ``_loading`` and call its ``warm_game``."""
    for thread in threading.enumerate():
        if thread.name == "folkcards-warm":
            thread.join(600)
    monkeypatch.setattr(botbridge, "_ready", set())
    monkeypatch.setattr(botbridge, "_cached", set())
    monkeypatch.setattr(botbridge, "_failed", set())
    monkeypatch.setattr(botbridge, "_started", False)
    monkeypatch.setattr(botbridge, "_loading", False)
    monkeypatch.setattr(botbridge, "_counts", {"decisions": 0, "beside": 0})
    monkeypatch.setattr(botbridge, "_max_wait", 0.0)
    yield


@needs_batch
def test_search_level_and_hint_use_the_batched_search(monkeypatch: pytest.MonkeyPatch) -> None:
    assert botbridge.batched()
    assert botbridge.spec_for("search") == "bsearch" and botbridge.hint_spec() == "bsearch"
    assert botbridge.spec_for("heuristic") == "heuristic"
    assert botbridge.warm_game("sasku") and botbridge.kernels_ready("sasku")
    seat = botbridge.SeatBot("search", 1)
    assert seat.spec == "bsearch" and isinstance(seat.impl, BatchPIMCBot)
    batched, scalar = Spy(monkeypatch, BatchPIMCBot), Spy(monkeypatch, PIMCBot)
    obs = play_position("sasku", 3)
    action = seat.choose(obs)
    assert action in [a.text for a in obs.legal]
    assert batched.seen == [obs] and scalar.seen == []
    out = botbridge.hint(obs, seed=5)
    assert batched.seen == [obs, obs] and scalar.seen == []
    h = out["hint"]
    assert out["action"] == h["choice"] == h["rows"][0]["action"]
    assert h["scale"] == "win_chance" and h["samples"] == sasku.BATCH_TUNING["worlds"]
    assert {r["action"] for r in h["rows"]} == {a.text for a in obs.legal}
    assert all(0.0 <= r["value"] <= 1.0 for r in h["rows"])
    assert h["warming"] is False


@needs_batch
def test_a_hint_the_search_would_value_says_so_while_its_kernels_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HUU-5.1: while Huutopussi's kernels load, a gift's hint is the heuristic's ranking
    (the scalar search leaves gifts to it); the hint says the search is loading
    (``warming``), not that gifts are never searched. A phase no search values (Sasku's
    cut, SAS-6) is not "warming"."""
    from folkcards.bots.positions import phase_position

    monkeypatch.setattr(botbridge, "_use_batched", lambda spec, obs, searched: False)
    state = phase_position(GAMES["huutopussi"], random.Random(6), "give")
    assert state is not None
    gift = botbridge.hint(state.observation(state.to_act), seed=1)["hint"]
    assert gift["scale"] == "rank" and gift["warming"] is True
    deal = GAMES["sasku"].random_deal(random.Random(3))
    assert deal.to_act is not None and deal.phase == "cut"
    cut = botbridge.hint(deal.observation(deal.to_act), seed=1)["hint"]
    assert cut["scale"] in ("rank", "none") and cut["warming"] is False


def _no_batch(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The batch extra made unusable: its import fails, numba's does, or it is switched off."""
    monkeypatch.setitem(sys.modules, "folkcards.batch._jit", None)
    if how == "batch":
        monkeypatch.setitem(sys.modules, "folkcards.batch", None)
    elif how == "numba":
        monkeypatch.setitem(sys.modules, "numba", None)
    else:
        monkeypatch.setenv("FOLKCARDS_NO_NUMBA", "1")


@pytest.mark.parametrize("how", ["batch", "numba", "switched_off"])
@pytest.mark.usefixtures("fresh")
def test_without_the_batch_the_search_level_and_hint_are_the_scalar_search(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _no_batch(monkeypatch, how)
    assert not botbridge.batched()
    assert botbridge.spec_for("search") == "search" and botbridge.hint_spec() == "search"
    seat = botbridge.SeatBot("search", 1)
    assert seat.spec == "search" and isinstance(seat.impl, PIMCBot) and seat.scalar is None
    batched, scalar = Spy(monkeypatch, BatchPIMCBot), Spy(monkeypatch, PIMCBot)
    obs = play_position("scopone", 2)
    assert seat.choose(obs) in [a.text for a in obs.legal]
    h = botbridge.hint(obs, seed=3)["hint"]
    assert scalar.seen == [obs, obs] and batched.seen == []
    assert h["scale"] == "win_chance" and isinstance(h["samples"], int)
    assert {r["action"] for r in h["rows"]} == {a.text for a in obs.legal}
    botbridge.start_warming("scopone")  # nothing to warm
    assert not botbridge._started and not botbridge.warm_game("scopone")


@needs_batch
@pytest.mark.usefixtures("fresh")
def test_a_game_whose_kernels_are_not_warm_is_searched_by_the_scalar_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[str | None] = []
    monkeypatch.setattr(botbridge, "in_disk_cache", lambda game: False)
    monkeypatch.setattr(botbridge, "start_warming", lambda first=None: started.append(first))
    batched, scalar = Spy(monkeypatch, BatchPIMCBot), Spy(monkeypatch, PIMCBot)
    seat = botbridge.SeatBot("search", 1)
    obs = play_position("satat", 4)
    assert seat.spec == "bsearch" and seat.choose(obs) in [a.text for a in obs.legal]
    botbridge.hint(obs, seed=1)
    assert scalar.seen == [obs, obs] and batched.seen == [] and started == ["satat"] * 2
    # once the kernels are in numba's disk cache, a decision loads them and searches batched
    monkeypatch.setattr(botbridge, "in_disk_cache", lambda game: True)
    assert seat.choose(obs) in [a.text for a in obs.legal]
    assert botbridge.kernels_ready("satat") and batched.seen[-1] is obs  # after the warming's
    # a game whose warming failed stays scalar
    botbridge._failed.add("huutopussi")
    other = play_position("huutopussi", 1)
    seat.choose(other)
    assert scalar.seen[-1] is other and batched.seen[-1] is obs


@needs_batch
@pytest.mark.usefixtures("fresh")
def test_the_warming_compiles_in_a_process_of_its_own_and_loads_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole warming: nothing marked as cached, so a compiling process is started; it
    reports each game, and each is loaded here between decisions."""
    monkeypatch.setattr(botbridge, "in_disk_cache", lambda game: False)
    seat = botbridge.SeatBot("search", 1)
    obs = play_position("scopone", 5)
    assert seat.choose(obs) in [a.text for a in obs.legal]  # scalar; starts the warming
    assert botbridge._started
    deadline = time.monotonic() + 300
    while len(botbridge._ready) < len(GAME_NAMES) and time.monotonic() < deadline:
        assert not botbridge._failed
        time.sleep(0.2)
    assert botbridge._ready == set(GAME_NAMES)
    assert seat.bot_for(obs) is seat.impl


@needs_batch
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_whole_deal_of_search_seats_sees_only_observations(
    monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    assert botbridge.warm_game(game)
    batched = Spy(monkeypatch, BatchPIMCBot)
    g = GAMES[game]
    state = g.random_deal(random.Random(9))
    seats = [botbridge.SeatBot("search", s) for s in range(state.num_seats)]
    while not state.is_over:
        assert state.to_act is not None
        obs = state.observation(state.to_act)
        action = seats[state.to_act].choose(obs)
        assert action in [a.text for a in obs.legal]
        state.apply(action)
    assert batched.seen  # card play was searched by the batched search


@needs_batch
@pytest.mark.usefixtures("fresh")
def test_a_decision_during_a_load_of_the_warming_runs_beside_it_scalar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A load that does not end (a stand-in for numba's import, 3–4 s under load, or a
    compile the cache did not spare) holds the run lock: a decision the heuristic makes
    (not card play) does not wait for it; a card-play decision and a hint wait at most
    WARM_WAIT, then are searched beside it by the scalar search within BESIDE_MS, and
    neither loads nor waits for anything of the batch; a game already warm is searched
    batched beside it."""
    release = threading.Event()
    loads: list[str] = []

    def endless_load(game: str) -> bool:
        loads.append(game)
        release.wait(60)
        return False

    monkeypatch.setattr(botbridge, "in_disk_cache", lambda game: True)
    monkeypatch.setattr(botbridge, "warm_game", endless_load)
    batched, scalar = Spy(monkeypatch, BatchPIMCBot), Spy(monkeypatch, PIMCBot)
    seat = botbridge.SeatBot("search", 1)
    obs, warm_obs = play_position("satat", 4), play_position("scopone", 2)
    deal = GAMES["sasku"].random_deal(random.Random(3))
    assert deal.to_act is not None
    first = deal.observation(deal.to_act)  # not card play: the heuristic's, no wait
    assert first.phase != "play" and first.legal
    assert botbridge.start_warming()
    thread = next(t for t in threading.enumerate() if t.name == "folkcards-warm")
    try:
        deadline = time.monotonic() + 30
        while not botbridge._loading and time.monotonic() < deadline:
            time.sleep(0.01)
        assert botbridge._loading and botbridge._run_lock.locked()
        assert seat.choose(first) in [a.text for a in first.legal]
        assert botbridge.status()["max_wait_s"] < botbridge.WARM_WAIT / 2
        assert seat.choose(obs) in [a.text for a in obs.legal]
        out = botbridge.hint(obs, seed=2)
        assert out["action"] in [a.text for a in obs.legal]
        botbridge._ready.add("scopone")  # as if loaded before: batched beside the load
        assert seat.choose(warm_obs) in [a.text for a in warm_obs.legal]
        assert botbridge._loading and len(loads) == 1  # the load never ended meanwhile
        assert [o for o in scalar.seen if o is not first] == [obs, obs]
        assert [o for o in batched.seen if o is not first] == [warm_obs]
        assert botbridge._beside_search().ms == botbridge.BESIDE_MS  # time-bounded
        st = botbridge.status()
        assert st["decisions"] == 4 and st["beside"] == 4
        # the bound: each waited WARM_WAIT (0.2 s) for the load, plus the scheduler's delay
        assert st["max_wait_s"] <= botbridge.WARM_WAIT + 0.3, st
    finally:
        release.set()
        thread.join(30)
    assert not thread.is_alive() and not botbridge._loading


def test_the_bridge_asks_the_bot_which_phases_it_searches() -> None:
    """A tuned ``bsearch`` searches Huutopussi's gift (HUU-5.1), which its ``only`` (card
    play) does not name: the server must ask the bot's ``searches``, or it would treat
    the gift as the heuristic's and never wait for the kernels that search it."""
    rng = random.Random(6)
    state = GAMES["huutopussi"].random_deal(rng)
    h = PIMCBot(iterations=2, only="play")
    while state.phase not in ("give", "play"):
        state.apply(h.choose(state.observation(state.to_act), rng))
        if state.is_over or state.phase == "play":
            state = GAMES["huutopussi"].random_deal(rng)
    obs = state.observation(state.to_act)
    assert botbridge._searches(BatchPIMCBot(only="play"), obs) is False
    tuned = botbridge._bots().make_bot("bsearch")
    assert botbridge._searches(tuned, obs) is True
    assert botbridge._searches(PIMCBot(only="play"), obs) is False
    assert botbridge._searches(object(), obs) is True
