"""The game card (``Game.card``): each game's facts for clients, checked against play.

Over random deals of random variants: seats, sides, pack and table keys agree with the
engine; every phase a deal passes through is on the card, in the card's order; every deal
scores within the card's utility bounds; a hand sorts to the game's display order, trump
group first; the margin scale and shaping are the facts the bots use today.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from folkcards.cards import CARD_NAMES, SUITS, iter_cards
from folkcards.engine.api import Game, MalformedRecord
from folkcards.engine.card import NO_TRUMP, GameCard
from folkcards.games import GAMES

GAME_LIST = [GAMES[name] for name in GAMES]


def random_variant(game: Game, rng: random.Random) -> dict[str, Any]:
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


def names(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def seq(text: str) -> list[str]:
    """Card texts written with spaces: ``seq("AS TS")``."""
    return text.split()


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_the_card_agrees_with_play(game: Game) -> None:
    rng = random.Random(f"card-{game.name}")
    for _ in range(60):
        variant = random_variant(game, rng)
        v = game.normalize_variant(variant)
        card = game.card(variant)
        assert card.name == game.name and card.title == game.title
        assert dict(card.variant) == v
        assert card.seats == game.num_seats(v)
        assert len(card.sides) == game.num_teams(v)
        assert sorted(s for side in card.sides for s in side) == list(range(card.seats))
        assert card.deck == game.deck
        assert card.direction in ("clockwise", "counter-clockwise")
        assert card.pack in ("french", "italian")
        state = game.random_deal(rng, variant, dealer=rng.randrange(card.seats))
        assert set(card.table_keys) <= set(state.public_observation().info)
        seen: list[str] = []
        while not state.is_over:
            if state.phase not in seen:
                seen.append(state.phase)
            state.apply(rng.choice(state.legal_actions()))
        assert state.phase == "over"
        order = iter(card.phases)
        assert all(p in order for p in seen), (seen, card.phases)  # a subsequence, in order
        low, high = card.utility_bounds
        assert all(low <= x <= high for x in state.result()["score"]), state.result()


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_display_orders_are_the_pack_trump_group_first(game: Game) -> None:
    card = game.card()
    deck = sorted(iter_cards(game.deck))
    for trump in (None, *SUITS):
        order = card.display_order(trump)
        assert sorted(order) == deck, trump  # each card once
        group = card.trump_groups.get(trump or NO_TRUMP, card.trump_groups[NO_TRUMP])
        assert tuple(order[: len(group)]) == tuple(group)
    rng = random.Random(game.name)
    for _ in range(20):
        hand = rng.sample(deck, 9)
        mask = sum(1 << c for c in hand)
        trump = rng.choice((None, *SUITS))
        got = card.sort_hand(mask, trump)
        assert got == card.sort_hand(hand, trump)
        assert sorted(got) == sorted(hand)
        order = card.display_order(trump)
        assert got == sorted(hand, key=order.index)


def test_each_games_display_order() -> None:
    sasku = GAMES["sasku"].card()
    assert names(sasku.display_order("H"))[:6] == ["6H", "KC", "KS", "KH", "KD", "QC"]  # SAS-3.1
    assert names(sasku.display_order("H"))[13:20] == ["AH", "TH", "9H", "8H", "7H", "AC", "TC"]
    assert names(sasku.display_order(None))[:3] == ["KC", "KS", "KH"]  # pictures: always trumps
    shp = GAMES["sheepshead"].card()
    assert names(shp.display_order("C"))[:15] == [
        *seq("QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D"),
        "AC",
    ]  # SHP-1.3 whatever is asked
    assert names(shp.display_order(None))[14:20] == ["AC", "TC", "KC", "9C", "8C", "7C"]
    huu = GAMES["huutopussi"].card()
    assert names(huu.display_order("S"))[:10] == [*seq("AS TS KS QS JS 9S 8S 7S 6S"), "AC"]
    assert names(huu.display_order(None))[:3] == ["AC", "TC", "KC"]  # HUU-1.2
    satat = GAMES["satat"].card()
    assert names(satat.display_order("D"))[:2] == ["AD", "KD"]
    assert names(satat.display_order("H"))[:3] == ["2H", "AH", "KH"]  # SAT-1.3
    assert names(satat.display_order(None))[26:28] == ["2H", "AH"]
    sco = GAMES["scopone"].card()
    assert names(sco.display_order(None))[:10] == seq("KC QC JC 7C 6C 5C 4C 3C 2C AC")
    assert sco.pack == "italian" and sco.suit_names["D"] == "coins"
    assert sco.direction == "counter-clockwise"


def test_sort_hand_reads_the_trump_from_an_observation() -> None:
    game = GAMES["huutopussi"]
    rng = random.Random(4)
    for _ in range(300):
        state = game.random_deal(rng)
        while not state.is_over and state.public_observation().info["trump"] is None:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            break
    else:
        raise AssertionError("no trump made")
    card = game.card(state.variant)
    seat = state.to_act
    assert seat is not None
    obs = state.observation(seat)
    trump = obs.info["trump"]
    assert card.sort_hand(obs.hand, obs) == card.sort_hand(obs.hand, trump)
    first = card.sort_hand(obs.hand, obs)[0]
    if obs.hand & (0x1FF << (13 * SUITS.index(trump))):
        assert CARD_NAMES[first][1] == trump


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_to_dict_is_json_and_the_facts_the_bots_use(game: Game) -> None:
    card = game.card()
    d = card.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["deck"] == [CARD_NAMES[c] for c in iter_cards(game.deck)]
    assert set(d["trump_groups"]) >= {NO_TRUMP}
    for seat in range(card.seats):
        assert seat in card.sides[card.side_of(seat)]
    with pytest.raises(ValueError):
        card.side_of(card.seats)
    assert isinstance(card, GameCard)


def test_bounds_follow_the_variant() -> None:
    assert GAMES["sasku"].card({"target": 20}).utility_bounds == (0, 20)
    assert GAMES["sasku"].card({"target": 5}).utility_bounds == (0, 8)
    assert GAMES["sheepshead"].card({"double_on_bump": True}).utility_bounds == (-24, 12)
    assert GAMES["huutopussi"].card().utility_bounds == (-440, 440)
    assert GAMES["huutopussi"].card({"erlangen": True}).utility_bounds == (-420 * 512, 420 * 512)
    three = GAMES["huutopussi"].card({"players": 3})
    assert three.seats == 3 and three.sides == ((0,), (1,), (2,)) and not three.partnership
    assert "give" not in three.phases and "discard" in three.phases
    assert GAMES["satat"].card({"trup_kasiet": True}).phases == ("trump", "play", "continue")
    assert "exchange" not in GAMES["sasku"].card({"exchange": False}).phases
    sco = GAMES["scopone"].card({"napola": True, "re_bello": True, "scientifico": True})
    assert sco.utility_bounds == (0, 20 + 4 + 1 + 10)
