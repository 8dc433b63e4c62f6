"""The caches behind the frames serve exactly what a fresh derivation gives, for every
viewer at every point, and never one viewer's view to another.

* :class:`~folkcards.engine.events.Narration` (the deal's events, narrated once per
  position and extended per viewer) equals the engine's ``events_for(viewer, since)`` after
  random play of random variants of every game, with viewers asked at random moments (so a
  viewer's list is extended over several actions at once, or built late), and so does it
  when the game offers a step-by-step :class:`~folkcards.engine.events.Narrator`;
* :class:`~folkcards.server.views.Views` (events and observations serialized once per deal
  position) gives every viewer the same frame as a :class:`Views` that never saw the table
  before, also across a new deal and a deal object put in the place of another.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from folkcards.cards import iter_cards
from folkcards.engine.api import SPECTATOR
from folkcards.engine.events import Narration, Told, event_text, public, secret
from folkcards.games import GAMES
from folkcards.server.views import SeatPresence, Views, dumps, viewer_events

from .test_frames import table_for, variant_for


def fresh_texts(deal: Any, viewer: int, since: int = 0) -> list[str]:
    return [event_text(e) for e in deal.events_for(viewer, since)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_incremental_events_equal_freshly_derived_events(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(f"narration-cache-{name}")
    checked = 0
    for _ in range(8):
        table = table_for(game, variant_for(game, rng), rng)
        deal = table.match.deals[-1]
        viewers = [SPECTATOR, *range(deal.num_seats)]
        narration = Narration(deal)
        while True:
            for v in viewers:
                if rng.random() < 0.6:  # a viewer not asked now is extended later at once
                    since = rng.choice([0, 0, 1, 3])
                    assert narration.texts_for(v, since) == fresh_texts(deal, v, since), (
                        f"{name}: viewer {v} after {len(deal.history)} actions"
                    )
                    checked += 1
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        for v in viewers:  # the whole deal, including the viewers asked least
            assert narration.texts_for(v) == fresh_texts(deal, v)
            assert [json.loads(t) for t in narration.texts_for(v)] == [
                e.to_dict() for e in deal.events_for(v)
            ]
        assert narration.restarts == 0
        assert narration.narrated <= len(deal.history) + 1  # once per position, not per viewer
    assert checked > 200


def test_narration_refuses_a_viewer_that_is_not_one() -> None:
    game = GAMES["sasku"]
    table = table_for(game, game.normalize_variant({}), random.Random(1))
    narration = Narration(table.match.deals[-1])
    for bad in (4, -2, None, "0", True):
        with pytest.raises(ValueError):
            narration.texts_for(bad)  # type: ignore[arg-type]


class Replaced:
    """A deal whose narration changes an event already told (which no game does): the
    narration must notice and start over rather than keep what it told before."""

    num_seats = 2

    def __init__(self) -> None:
        self.history: list[str] = []
        self.told: list[Told] = [public("deal", dealer=0)]

    def _narrate(self) -> list[Told]:
        return list(self.told)


def test_a_narration_that_does_not_extend_the_last_one_starts_over() -> None:
    deal = Replaced()
    narration = Narration(deal)  # type: ignore[arg-type]
    assert [json.loads(t)["kind"] for t in narration.texts_for(0)] == ["deal"]
    deal.history.append("x")
    deal.told.append(secret("call", (1,), seat=1, call="pass"))
    assert narration.texts_for(0) == [event_text(deal.told[0].full())]
    assert len(narration.texts_for(1)) == 2
    deal.history.append("y")
    deal.told[-1] = public("call", seat=1, call="pass")  # an earlier event changed
    assert narration.restarts == 0
    assert [json.loads(t)["kind"] for t in narration.texts_for(0)] == ["deal", "call"]
    assert narration.restarts == 1
    assert [json.loads(t)["kind"] for t in narration.texts_for(1)] == ["deal", "call"]


class Stepped:
    """A game's deal seen through a step-by-step narrator (:class:`Narrator`), the way a game
    may offer one: a copy of the deal from its set-up, the new actions applied to it and
    their events told. (Built here on the game's own narration of that copy, so the
    narration's use of a narrator is checked against every game.)"""

    def __init__(self, deal: Any) -> None:
        self.deal = deal
        self.num_seats = deal.num_seats
        self.made = 0

    @property
    def history(self) -> Any:
        return self.deal.history

    @property
    def actors(self) -> Any:
        return self.deal.actors

    def _narrate(self) -> list[Told]:
        raise AssertionError("a narration with a narrator does not replay the deal")

    def _narrator(self) -> Any:
        self.made += 1
        copy, told = self.deal.fresh(), [0]

        class Steps:
            def extend(self, actions: Any, actors: Any) -> list[Told]:
                for a in actions:
                    copy.apply(a)
                events = copy._narrate()
                new, told[0] = events[told[0] :], len(events)
                return list(new)

        return Steps()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_narration_uses_the_game_narrator_when_it_has_one(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(f"narrator-{name}")
    for _ in range(3):
        table = table_for(game, variant_for(game, rng), rng)
        deal = table.match.deals[-1]
        stepped = Stepped(deal)
        narration = Narration(stepped)  # type: ignore[arg-type]
        viewers = [SPECTATOR, *range(deal.num_seats)]
        while True:
            for v in viewers:
                if rng.random() < 0.5:
                    assert narration.texts_for(v) == fresh_texts(deal, v)
            if deal.is_over:
                break
            for _ in range(rng.choice([1, 1, 2, 3])):  # several actions between two looks
                if not deal.is_over:
                    deal.apply(rng.choice(deal.legal_actions()))
        for v in viewers:
            assert narration.texts_for(v) == fresh_texts(deal, v)
        assert stepped.made == 1


def frame_of(views: Views, table: Any, seat: int | None, presence: list[SeatPresence]) -> str:
    facts = dumps(Views.facts(table.state, presence))[1:-1]
    clock = [True] * table.state.num_seats
    return views.frame(table.state, seat, facts, clock_for=clock, next_deadline=None)[0]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_cached_frames_equal_frames_built_afresh(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(f"frame-cache-{name}")
    for _ in range(4):
        table = table_for(game, variant_for(game, rng), rng)
        views = Views()
        deals = 0
        while deals < 2:
            deal = table.match.deals[-1]
            viewers: list[int | None] = [None, *range(deal.num_seats)]
            n = table.state.num_seats
            presence = [SeatPresence(rng.random() < 0.8, False, False) for _ in range(n)]
            for v in viewers:
                if rng.random() < 0.7:
                    key = frame_of(views, table, v, presence)
                    assert key == frame_of(Views(), table, v, presence), f"{name}: viewer {v}"
                    start, events = viewer_events(deal, v)
                    assert views.events_text(deal, v) == (start, dumps(events))
            if rng.random() < 0.2:  # a deal object put in the place of the real one
                real = table.match.deals[-1]
                world = game.determinize(real.observation(0), random.Random(rng.random()))
                table.match.deals[-1] = world
                for v in viewers:
                    assert frame_of(views, table, v, presence) == frame_of(
                        Views(), table, v, presence
                    )
                table.match.deals[-1] = real
            if deal.is_over:
                deals += 1
                table.match.finish_deal()
                if table.match.is_over:
                    break
                deck = list(iter_cards(game.deck))
                rng.shuffle(deck)
                table.match.new_deal(deck)  # a new deal object: every cache starts afresh
                continue
            deal.apply(rng.choice(deal.legal_actions()))
