"""Every field of every frame is per viewer: nothing in it depends on what the viewer may
not know (SAT-16.7, SAT-19.1 and every game's information section).

The check, at random points of random deals of random variants of every game: replace the
table's deal by a world determinized from a viewer's own observation (for the spectator:
from any seat's). Such a world differs from the real deal only in what that viewer cannot
know, so the viewer's frame (its key: everything but the running times) must be the same —
its ``events`` (the viewer's own ``events_for``) included, checked apart as well.
A second check plays whole deals through a table and counts the frames each viewer would
be sent: one is sent only when the viewer's view changed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from folkcards.cards import iter_cards
from folkcards.engine.api import Game, MalformedRecord
from folkcards.engine.match import Match
from folkcards.games import GAMES
from folkcards.server.state import SeatState, TableOptions, TableState
from folkcards.server.tables import SHUFFLER
from folkcards.server.views import SeatPresence, Views, dumps


class Table:
    """A table's state and frames without a server: every seat a person with a clock."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.views = Views()
        self.match = state.match

    def frame(self, seat: int | None) -> tuple[str, str]:
        presence = [SeatPresence(True, False, False) for _ in self.state.seats]
        facts = dumps(Views.facts(self.state, presence))[1:-1]
        clock = [True] * self.state.num_seats
        return self.views.frame(self.state, seat, facts, clock_for=clock, next_deadline=None)

    def _observation(self, seat: int | None) -> Any:
        return Views.observation(self.state, seat)


def variant_for(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random valid variant (each option's listed values, booleans both ways)."""
    for _ in range(200):
        raw: dict[str, Any] = {}
        for opt in game.variant_options:
            if opt.choices:
                raw[opt.key] = rng.choice(opt.choices)
            elif isinstance(opt.default, bool):
                raw[opt.key] = rng.random() < 0.5
        try:
            return game.normalize_variant(raw)
        except MalformedRecord:
            continue
    raise AssertionError(f"{game.name}: no valid random variant in 200 draws")


def table_for(game: Game, variant: dict[str, Any], rng: random.Random) -> Table:
    """A table of claimed human seats with a turn clock (so clocks show in frames), its
    first deal dealt from an ``rng`` shuffle; no server, no log."""
    n = game.num_seats(variant)
    seats = [
        SeatState(kind="human", level="random", name=f"P{i}", token_hash=f"h{i}") for i in range(n)
    ]
    options = TableOptions(turn_clock=30.0)
    match_keys = game.new_match_keys(variant, rng)
    dealer = rng.randrange(n)
    match = Match(game, variant, dealer=dealer, match_keys=match_keys)
    table = Table(TableState("t", game, dict(variant), seats, options, "", dealer, match))
    deck = list(iter_cards(game.deck))
    rng.shuffle(deck)
    table.match.new_deal(deck)
    return table


def key_in_world(table: Table, viewer: int | None, world: Any) -> str:
    real = table.match.deals[-1]
    table.match.deals[-1] = world
    try:
        return table.frame(viewer)[0]
    finally:
        table.match.deals[-1] = real


def events_of(table: Table, viewer: int | None, world: Any = None) -> Any:
    """The ``events`` field of the viewer's frame (in ``world`` when given)."""
    real = table.match.deals[-1]
    if world is not None:
        table.match.deals[-1] = world
    try:
        return json.loads(table.frame(viewer)[1])["events"]
    finally:
        table.match.deals[-1] = real


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_frame_field_depends_on_what_its_viewer_cannot_know(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(f"frames-{name}")
    checked = 0
    for _ in range(6):
        variant = variant_for(game, rng)
        table = table_for(game, variant, rng)
        deal = table.match.deals[-1]
        n = deal.num_seats
        while not deal.is_over:
            if rng.random() < 0.3:
                for seat in range(n):
                    obs = deal.observation(seat)
                    world = game.determinize(obs, random.Random(rng.random()))
                    assert key_in_world(table, seat, world) == table.frame(seat)[0], (
                        f"{name}: seat {seat}'s frame depends on a hidden fact"
                    )
                    assert key_in_world(table, None, world) == table.frame(None)[0], (
                        f"{name}: the spectator's frame depends on what seat {seat} cannot see"
                    )
                    mine = events_of(table, seat)
                    assert mine and events_of(table, seat, world) == mine, (
                        f"{name}: seat {seat}'s events depend on a hidden fact"
                    )
                    assert events_of(table, None, world) == events_of(table, None), (
                        f"{name}: the spectator's events depend on what seat {seat} cannot see"
                    )
                    checked += 1
            deal.apply(rng.choice(deal.legal_actions()))
    assert checked > 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_frame_is_sent_only_when_the_viewer_view_changed(name: str) -> None:
    """After each action, a viewer is sent a frame exactly when its observation changed
    (the table facts stay the same here), and its frame then differs from the last."""
    game = GAMES[name]
    rng = random.Random(f"sent-{name}")
    quiet = 0
    for _ in range(4):
        table = table_for(game, variant_for(game, rng), rng)
        deal = table.match.deals[-1]
        viewers: list[int | None] = [*range(deal.num_seats), None]
        last = {v: table.frame(v)[0] for v in viewers}
        seen = {v: table._observation(v) for v in viewers}
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
            for v in viewers:
                key = table.frame(v)[0]
                obs = table._observation(v)
                assert (key != last[v]) == (obs != seen[v]), f"{name}: viewer {v}"
                quiet += key == last[v]
                last[v], seen[v] = key, obs
    if name == "satat":
        # Satat's private steps (SAT-19.1) leave the other seats' views unchanged
        assert quiet > 0


def test_live_shuffles_come_from_the_secure_source() -> None:
    """The live tables' shuffles and draws use the operating system's source, which keeps
    no state to reseed: no table can deal a deck again after a restart."""
    import secrets

    assert isinstance(SHUFFLER, secrets.SystemRandom)


def test_bot_seeds_come_from_the_secure_source_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot and hint seeds are read from the operating system's source, many per read."""
    import secrets

    from folkcards.server import tables

    reads: list[int] = []
    real = secrets.token_bytes

    def counted(n: int) -> bytes:
        reads.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "token_bytes", counted)
    seeds = tables.Seeds()
    drawn = [seeds.next() for _ in range(3 * tables.Seeds.BATCH)]
    assert reads == [8 * tables.Seeds.BATCH] * 3
    assert all(0 <= s < 1 << 62 for s in drawn) and len(set(drawn)) == len(drawn)
