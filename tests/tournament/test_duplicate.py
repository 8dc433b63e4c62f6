"""Duplicate pairing and seat rotation."""

from __future__ import annotations

from collections import Counter

import pytest
import toygame

from folkcards.engine.records import load_deal
from folkcards.games import GAMES
from folkcards.tournament.duplicate import (
    TournamentConfig,
    arrangements,
    board_deck,
    per_seat_scoring,
    play_board,
    side_means,
)


def test_team_arrangements_swap_the_partnerships() -> None:
    assert arrangements(4, per_seat=False) == [(0, 1, 0, 1), (1, 0, 1, 0)]


@pytest.mark.parametrize("n", [3, 5])
def test_per_seat_arrangements_rotate_every_seat(n: int) -> None:
    arrs = arrangements(n, per_seat=True)
    assert len(arrs) == 2 * n
    for seat in range(n):  # each bot holds each seat equally often
        assert Counter(a[seat] for a in arrs) == {0: n, 1: n}
    lone = [a.index(0) for a in arrs[:n]]  # A alone: in every seat once
    assert sorted(lone) == list(range(n))
    assert sorted(a.index(1) for a in arrs[n:]) == list(range(n))


def test_scoring_kind_of_every_game() -> None:
    kinds = {name: per_seat_scoring(g, {}) for name, g in GAMES.items()}
    expected = {"sasku": False, "scopone": False, "satat": False, "huutopussi": False,
                "sheepshead": True}  # fmt: skip
    for name, kind in expected.items():
        if name in kinds:
            assert kinds[name] is kind
    assert per_seat_scoring(GAMES["huutopussi"], {"players": 3}) is True


def test_side_means() -> None:
    assert side_means([4, 0], (0, 1, 0, 1)) == (4, 0)
    assert side_means([4, 0], (1, 0, 1, 0)) == (0, 4)
    assert side_means([4, -1, -1, -1, -1], (0, 1, 1, 1, 1)) == (4, -1)
    assert side_means([4, -1, -1, -1, -1], (1, 0, 0, 0, 0)) == (-1, 4)


def _check_board(config: TournamentConfig) -> None:
    game = config.game_obj
    out = play_board(config, (0, 1), 3)
    plays = out["plays"]
    n = game.num_seats(game.normalize_variant(dict(config.variant)))
    assert [tuple(p["arrangement"]) for p in plays] == arrangements(
        n, per_seat_scoring(game, config.variant)
    )
    records = [p["record"] for p in plays]
    # the same deck and dealer in every arrangement: the luck of the deal is shared
    assert len({str(r.get("deck", r.get("hands"))) for r in records}) == 1
    assert len({r["dealer"] for r in records}) == 1
    deck = [toygame.CARD_NAMES[c] for c in board_deck(game, 5, 3)]
    if "deck" in records[0]:
        assert records[0]["deck"] == deck
    else:  # the toy game records the hands it dealt: four cards each from the deck
        hands = records[0]["hands"]
        assert [set(h) for h in hands] == [set(deck[4 * i : 4 * i + 4]) for i in range(4)]
    for p, r in zip(plays, records, strict=True):
        assert r["meta"]["players"] == [config.bots[i] for i in p["arrangement"]]
        if game.name != "toy":
            state = load_deal(r)  # every record replays to the same score
            assert state.result()["score"] == p["score"]
        a, b = side_means(p["score"], p["arrangement"])
        assert p["margin"] == a - b


def test_board_of_the_toy_game() -> None:
    _check_board(TournamentConfig(toygame.GAME, ("heuristic", "random"), 4, 5))


@pytest.mark.parametrize("game", list(GAMES))
def test_board_of_every_game(game: str) -> None:
    _check_board(TournamentConfig(game, ("heuristic", "random"), 4, 5))


def test_matches_mode_plays_whole_matches() -> None:
    config = TournamentConfig(toygame.GAME, ("heuristic", "random"), 2, 1, mode="matches")
    out = play_board(config, (0, 1), 0)
    for p in out["plays"]:
        rec = p["record"]
        assert len(rec["deals"]) == p["deals"] >= 3  # first to 3 wins, ties count nothing
        assert max(p["score"]) >= 3
    first = [d["hands"] for d in out["plays"][0]["record"]["deals"]]
    second = [d["hands"] for d in out["plays"][1]["record"]["deals"]]
    n = min(len(first), len(second))
    assert first[:n] == second[:n]  # deck k of the match is the same in both seatings
