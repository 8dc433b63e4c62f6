"""Structured events (``DealState.events``, ``events_for``, ``events_since``).

Over random deals of random variants of every game: each event has exactly its kind's
fields and is JSON-ready; a viewer's list only grows at its end; a world determinized from
a seat's observation tells that seat (and a spectator) exactly the same events, so no
event reveals what the observation hides; at the end the trick events agree with the
result and the ``deal_end`` breakdown sums to the score.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from folkcards.engine.api import SPECTATOR, DealState, Game, MalformedRecord
from folkcards.engine.events import EVENT_FIELDS, Event, Told, private, public, secret
from folkcards.games import GAMES

GAME_LIST = [GAMES[name] for name in GAMES]
SEEDS = range(10)


def random_variant(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random valid variant; options are left out now and then (Erlangen needs that)."""
    for _ in range(100):
        v: dict[str, Any] = {}
        for opt in game.variant_options:
            if rng.random() < 0.3:
                continue
            if opt.choices:
                v[opt.key] = rng.choice(opt.choices)
            elif isinstance(opt.default, bool):
                v[opt.key] = rng.random() < 0.5
        try:
            game.normalize_variant(v)
        except MalformedRecord:
            continue
        return v
    raise AssertionError(game.name)


def random_carry(game: Game, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Carried-over keys that reach rarer phases (a replay deal, Satat's card passing)."""
    v = game.normalize_variant(variant)
    if game.name == "sasku" and rng.random() < 0.2:
        return {"replay": {"trump": rng.choice("CSHD"), "declarer": rng.randrange(4)}}
    if game.name == "satat" and not v["trup_kasiet"] and rng.random() < 0.3:
        return {"passing": {"winners": rng.randrange(2), "cards": rng.choice((1, 2))}}
    if game.name == "sheepshead" and v["no_pick"] == "doubler" and rng.random() < 0.3:
        return {"stake": 4}
    return {}


def steer(state: DealState, rng: random.Random) -> Any:
    """A random legal action; Satat's trump maker now and then names a suit his partner
    lacks, so that the private ``propose`` step happens (SAT-6.1)."""
    legal = state.legal_actions()
    if state.game.name == "satat" and state.phase == "trump" and rng.random() < 0.5:
        hand = state.hands[state.p]  # type: ignore[attr-defined]
        lacking = [
            a
            for a in legal
            if a.text.startswith("trump ") and not hand >> (13 * "CSHD".index(a.text[-1])) & 0x1FFF
        ]
        if lacking:
            return rng.choice(lacking)
    return rng.choice(legal)


def playout(game: Game, seed: int, every: float = 0.15) -> tuple[DealState, list[DealState]]:
    rng = random.Random(seed)
    variant = random_variant(game, rng)
    carry = random_carry(game, variant, rng)
    n = game.num_seats(game.normalize_variant(variant))
    state = game.random_deal(rng, variant, dealer=rng.randrange(n), carry=carry)
    snaps = [state.clone()]
    while not state.is_over:
        state.apply(steer(state, rng))
        if rng.random() < every:
            snaps.append(state.clone())
    return state, snaps


def dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def viewers(state: DealState) -> list[int]:
    return [SPECTATOR, *range(state.num_seats)]


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_events_have_their_kinds_fields_and_are_json(game: Game, seed: int) -> None:
    final, _ = playout(game, seed, every=0)
    for v in [None, *viewers(final)]:
        events = final.events() if v is None else final.events_for(v)
        assert events[0].kind == "deal"
        ends = [i for i, e in enumerate(events) if e.kind == "deal_end"]
        assert ends == [len(events) - 1]  # the deal is over: one deal_end, the last event
        for e in events:
            assert e.kind in EVENT_FIELDS
            assert tuple(e.data) == EVENT_FIELDS[e.kind], e
            d = e.to_dict()
            assert json.loads(json.dumps(d)) == d
            assert d["kind"] == e.kind
    # every viewer sees a subsequence of the referee's events (some redacted or left out)
    kinds = [e.kind for e in final.events()]
    for v in viewers(final):
        it = iter(kinds)
        assert all(k in it for k in (e.kind for e in final.events_for(v)))


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_viewers_events_only_grow_at_their_end(game: Game, seed: int) -> None:
    final, snaps = playout(game, seed, every=0.3)
    everything = dicts(final.events())
    for snap in snaps:
        now = dicts(snap.events())
        assert now == everything[: len(now)]
        assert dicts(snap.events_since(2)) == now[2:]
        for v in viewers(snap):
            seen = dicts(snap.events_for(v))
            assert seen == dicts(final.events_for(v))[: len(seen)]
            assert dicts(snap.events_for(v, since=1)) == seen[1:]


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_events_reveal_nothing_the_observation_hides(game: Game, seed: int) -> None:
    final, snaps = playout(game, 1000 + seed)
    for snap in [*snaps, final]:
        spectator = dicts(snap.events_for(SPECTATOR))
        for seat in range(snap.num_seats):
            world = snap.determinize(seat, random.Random(seed * 7 + seat))
            assert world.observation(seat) == snap.observation(seat)
            assert dicts(world.events_for(seat)) == dicts(snap.events_for(seat)), seat
            assert dicts(world.events_for(SPECTATOR)) == spectator


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_trick_events_and_the_breakdown_agree_with_the_result(game: Game, seed: int) -> None:
    final, _ = playout(game, 2000 + seed, every=0)
    res = final.result()
    card = game.card(final.variant)
    k = len(card.sides)
    events = final.events_for(SPECTATOR)  # the public events say it all at the end
    end = events[-1].data
    assert end["result"] == res and end["score"] == res["score"]
    total = [0] * k
    for part in end["components"]:
        assert len(part["points"]) == k
        total = [a + b for a, b in zip(total, part["points"], strict=True)]
    if end["components"] or any(res["score"]):
        assert total == res["score"]
    tricks = [e.data for e in events if e.kind == "trick"]
    if tricks:
        won = [0] * k
        points = [0] * k
        bonus = [0] * k
        for n, t in enumerate(tricks, 1):
            assert t["number"] == n
            assert card.side_of(t["winner"]) == t["side"]
            won[t["side"]] += 1
            if t["points"] is not None:
                points[t["side"]] += t["points"]
                bonus[t["side"]] += t["bonus"]
        assert won == res["tricks"]
        if end["points_from"] is not None and "tricks" in end["points_from"]:
            assert points == end["points_from"]["tricks"]
            assert bonus == end["points_from"].get("last_trick", [0] * k)
    if end["points_from"] is not None and "points" in res:
        summed = [0] * k
        for part in end["points_from"].values():
            summed = [a + b for a, b in zip(summed, part, strict=True)]
        assert summed == res["points"]
    if game.name == "scopone" and not res["redeal"]:
        assert [
            sum(
                1 + len(e.data["cards"])
                for e in events
                if e.kind == "capture" and e.data["side"] == t
            )
            + sum(
                len(e.data["cards"]) for e in events if e.kind == "leftover" and e.data["side"] == t
            )
            for t in (0, 1)
        ] == res["cards"]
        assert [
            sum(1 for e in events if e.kind == "sweep" and e.data["side"] == t) for t in (0, 1)
        ] == res["sweeps"]
    if end["reason"] is not None:
        r = end["reason"]
        assert r["text"] == f"{r['who']} {r['value']} {r['op']} {r['target']}"
        holds = {"<": r["value"] < r["target"], "<=": r["value"] <= r["target"]}
        holds |= {">=": r["value"] >= r["target"], "=": r["value"] == r["target"]}
        holds |= {">": r["value"] > r["target"]}
        assert holds[r["op"]], r


def deal_with(game: Game, want: Any, variant: dict[str, Any] | None = None) -> DealState:
    """The first seeded random deal (played to its end) that ``want`` accepts."""
    for seed in range(400):
        rng = random.Random(seed)
        state = game.random_deal(rng, variant or {})
        while not state.is_over:
            state.apply(steer(state, rng))
        if want(state):
            return state
    raise AssertionError("no such deal")


def kinds_of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.kind == kind]


def test_sasku_a_returned_card_is_seen_by_giver_and_returner_only() -> None:
    game = GAMES["sasku"]
    deal = deal_with(game, lambda s: any(a.text.startswith("return") for a in s.history))
    i = next(i for i, a in enumerate(deal.history) if a.text.startswith("return "))
    returner, card = deal.actors[i], deal.history[i].text.split()[1]
    giver = deal.actors[i - 1]
    for v in viewers(deal):
        passes = kinds_of(deal.events_for(v), "pass_cards")
        back = [p for p in passes if p["from"] == returner and p["to"] == giver]
        assert back[0]["cards"] == ([card] if v in (giver, returner) else None)
        given = [p for p in passes if p["from"] == giver]
        assert given[0]["cards"] is not None  # the picture goes face up (SAS-7.3)


def test_sheepshead_the_partner_is_known_to_itself_until_the_called_card_is_played() -> None:
    game = GAMES["sheepshead"]
    deal = deal_with(game, lambda s: s.result()["mode"] == "called")
    partner = deal.result()["partner"]
    for v in viewers(deal):
        (contract,) = kinds_of(deal.events_for(v), "contract")
        assert contract["partner"] == (partner if v == partner else None)
        blind = [p for p in kinds_of(deal.events_for(v), "pass_cards") if p["from"] == "blind"]
        assert (blind[0]["cards"] is None) == (v != deal.result()["picker"])
    revealed = kinds_of(deal.events_for(SPECTATOR), "partner")
    assert revealed == [{"kind": "partner", "seat": partner, "card": deal.result()["called"]}]


def test_satat_a_private_pass_is_told_to_its_maker_only() -> None:
    game = GAMES["satat"]
    deal = deal_with(game, lambda s: any(a.text == "pass" for a in s.history))
    i = next(i for i, a in enumerate(deal.history) if a.text == "pass")
    partner = deal.actors[i]
    for v in viewers(deal):
        passes = [c for c in kinds_of(deal.events_for(v), "call") if c["call"] == "pass"]
        assert passes == (
            [{"kind": "call", "seat": partner, "call": "pass"}] if v == partner else []
        )


def test_satat_card_passing_shows_the_cards_to_giver_and_receiver() -> None:
    game = GAMES["satat"]
    rng = random.Random(5)
    deal = game.random_deal(rng, {}, carry={"passing": {"winners": 0, "cards": 2}})
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    for v in viewers(deal):
        moved = kinds_of(deal.events_for(v), "pass_cards")
        assert len(moved) == 4
        for m in moved:
            assert (m["cards"] is not None) == (v in (m["from"], m["to"])), (v, m)
        chosen = kinds_of(deal.events_for(v), "pass_chosen")
        assert [c["cards"] is not None for c in chosen] == [c["seat"] == v for c in chosen]


def test_huutopussi_given_cards_are_seen_by_giver_and_declarer() -> None:
    game = GAMES["huutopussi"]
    deal = deal_with(game, lambda s: s.result()["declarer"] is not None)
    d = deal.result()["declarer"]
    partner = (d + 2) % 4
    for v in viewers(deal):
        moved = kinds_of(deal.events_for(v), "pass_cards")
        assert len(moved) == 6
        for m in moved:
            assert {m["from"], m["to"]} == {d, partner}
            assert (m["cards"] is not None) == (v in (d, partner))


def test_scopone_events_are_all_public() -> None:
    deal = deal_with(GAMES["scopone"], lambda s: not s.result()["redeal"])
    assert dicts(deal.events_for(SPECTATOR)) == dicts(deal.events())
    assert any(e.kind == "capture" for e in deal.events())


def test_told_visibility() -> None:
    shown = public("call", seat=1, call="keep")
    assert shown.seen(SPECTATOR) == shown.full() == Event("call", {"seat": 1, "call": "keep"})
    hidden = private("pass_cards", (1, 3), {"cards": None}, count=2, cards=["AS", "KS"])
    assert hidden.seen(3) == hidden.full()
    seen = hidden.seen(0)
    assert seen is not None and seen.data["cards"] is None and seen.data["count"] == 2
    assert secret("call", (2,), seat=2, call="pass").seen(1) is None
    assert isinstance(shown, Told)
    with pytest.raises(KeyError):
        public("call", seat=1, call="keep", bogus=True)


def test_events_for_checks_the_viewer() -> None:
    deal = GAMES["sasku"].random_deal(random.Random(1))
    with pytest.raises(ValueError):
        deal.events_for(4)
    with pytest.raises(ValueError):
        deal.events_for(-2)
