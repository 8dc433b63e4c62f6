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


# --- the table's and the encoding's facts (tricks, hidden and panel keys, points, …) ----


def played_deal(game: Game, variant: dict[str, Any], rng: random.Random) -> list[Any]:
    """A random deal under ``variant``: every (observation of the seat to act, action) pair,
    then the finished state."""
    seats = game.num_seats(game.normalize_variant(variant))
    state = game.random_deal(rng, variant, dealer=rng.randrange(seats))
    steps: list[Any] = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        action = rng.choice(state.legal_actions())
        steps.append((obs, action))
        state.apply(action)
    return [*steps, state]


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.name)
def test_the_table_facts_agree_with_play(game: Game) -> None:
    """Over random deals of random variants: a phase of ``phase_cards`` hands over exactly
    that many cards per seat, one an action; a ``default_actions`` action is legal whenever
    its phase is to be decided; the panel's keys and the points key are ``info`` keys; a
    game with ``card_points`` scores exactly its cards' values; ``tricks`` says whether the
    deal has tricks; the encoding's blocks are the same under every variant."""
    rng = random.Random(f"table-{game.name}")
    default = game.card()
    for _ in range(40):
        variant = random_variant(game, rng)
        card = game.card(variant)
        assert set(card.phase_cards) <= set(card.phases)
        assert set(card.default_actions) <= set(card.phases)
        assert card.encoding_phases == default.encoding_phases
        assert card.encoding_scalars == default.encoding_scalars
        *steps, state = played_deal(game, variant, rng)
        handed: dict[tuple[str, int], int] = {}
        info_keys: set[str] = set()
        for obs, action in steps:
            info_keys |= set(obs.info)
            if obs.phase in card.default_actions:
                assert card.default_actions[obs.phase] in [a.text for a in obs.legal]
            if obs.phase in card.phase_cards:
                assert len(action.text.split(" ")) == 2  # one card an action
                handed[(obs.phase, obs.seat)] = handed.get((obs.phase, obs.seat), 0) + 1
        for (phase, _), count in handed.items():
            assert count == card.phase_cards[phase], (phase, count)
        info_keys |= set(state.observation(0).info)
        assert set(card.fact_keys) <= info_keys | {"trump"}, set(card.fact_keys) - info_keys
        if card.points_key is not None:
            assert card.points_key in info_keys
        result = state.result()
        if card.card_points and not result.get("redeal"):
            worth = sum(card.card_points.get(CARD_NAMES[c][0], 0) for c in iter_cards(card.deck))
            assert sum(result["points"]) == worth
        tricks = [e for e in state.events() if e.kind == "trick"]
        played = sum(1 for _, a in steps if a.text.startswith("play "))
        if not card.tricks:
            assert not tricks
        elif played >= card.seats:  # a trick's worth of cards: a trick was taken
            assert tricks


def test_each_games_table_facts() -> None:
    sasku, sco = GAMES["sasku"].card(), GAMES["scopone"].card()
    shp, satat, huu = GAMES["sheepshead"].card(), GAMES["satat"].card(), GAMES["huutopussi"].card()
    assert not sco.tricks and all(c.tricks for c in (sasku, shp, satat, huu))
    assert sasku.default_actions == {"cut": "deal threes"}  # SAS-6.2
    assert sasku.tally and not any(c.tally for c in (sco, shp, satat, huu))
    assert sasku.card_points == shp.card_points == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    assert not huu.card_points and huu.points_key == "points" and shp.points_key == "taken"
    assert shp.phase_cards == {"bury": 2}  # SHP-5.1
    assert huu.phase_cards == {"give": 3, "return": 3}  # HUU-5.1, HUU-5.3
    assert GAMES["huutopussi"].card({"erlangen": True}).phase_cards == {"give": 4, "return": 4}
    assert GAMES["huutopussi"].card({"players": 3}).phase_cards == {"discard": 3}  # HUU-6.2
    assert (sasku.match_target, sco.match_target, huu.match_target) == (16, 11, 500)
    assert shp.match_deals == 5 and shp.match_target is None
    assert satat.match_target is None and GAMES["satat"].card({"match_target": 7}).match_target == 7
    assert "ask marriage" in huu.choice_notes and "cut" not in sasku.choice_notes
    # the learning encoding's blocks, as first laid out (the vectors must not change)
    assert sasku.encoding_scalars == (("bid", 9.0), ("declarer", 4.0))
    assert huu.encoding_scalars == (("bid", 440.0), ("contract", 440.0))
    assert satat.encoding_phases == ("trump", "redeal", "blind", "pass", "play", "continue")
    assert huu.encoding_phases[:3] == ("bid", "exchange", "contract")
    d = huu.to_dict()
    assert d["phase_cards"] == {"give": 3, "return": 3} and d["tricks"] is True
    assert d["encoding_scalars"] == [["bid", 440.0], ["contract", 440.0]]


def test_no_client_keeps_a_table_of_games() -> None:
    """The clients read the game card: no game's name in the web client's code, the
    terminal's presentation and table, the learning encoding or the bots' sides."""
    from pathlib import Path

    import folkcards

    root = Path(folkcards.__file__).parent
    files = [*sorted((root / "web" / "js").glob("*.js"))]
    tui = ("present.py", "view.py", "demo.py", "menu.py", "inputs.py", "i18n.py")
    files += [root / "tui" / f for f in tui]
    files += [root / "rl" / "encoding.py", root / "bots" / "base.py"]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for name in GAMES:
            if name == "toy":
                continue
            for quoted in (f'"{name}"', f"'{name}'", f"{name}:"):
                assert quoted not in text, (path.name, quoted)
