"""Duplicate play: every board (one deck) is played once per seat arrangement.

For a matchup of bots A and B:

* in a game scored by two teams (4-seat Sasku, Scopone, Satat, Huutopussi) the board is
  played twice — A holding seats 0 and 2, then B holding them — so each bot plays each
  hand of the deck once and the luck of the cards cancels;
* in a game scored per seat (Sheepshead, 3-player Huutopussi) the board is played 2·N
  times: A alone in each seat against B in the others, then B alone in each seat.

Each play's outcome for a bot is its seats' mean score minus the other bot's seats' mean
score (its *margin*); it wins the play when the margin is positive (a tie scores ½).
In ``matches`` mode each play is a whole match (deck *k* of every arrangement is the
same deck), scored by the match totals.

Everything here is plain data in and out, so the same function runs in a local process
or on a Ray worker, and the same seed gives the same results on both.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from folkcards.bots.base import SeatClock, play_deal, seat_sides, sides
from folkcards.bots.registry import make_bot
from folkcards.cards import iter_cards
from folkcards.engine.api import Game
from folkcards.engine.match import Match
from folkcards.rl import register_bots_for


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: game, variant, bots, boards, seed, mode."""

    game: str | Game
    bots: tuple[str, ...]
    boards: int
    seed: int
    variant: Mapping[str, Any] = field(default_factory=dict)
    mode: str = "deals"
    max_match_deals: int = 60
    records: bool = True

    @property
    def game_obj(self) -> Game:
        """The game (resolved through the registry when given by name)."""
        if isinstance(self.game, str):
            from folkcards.games import get_game

            return get_game(self.game)
        return self.game

    @property
    def game_name(self) -> str:
        """The game's registry name."""
        return self.game if isinstance(self.game, str) else self.game.name

    def matchups(self) -> list[tuple[int, int]]:
        """Every pair of distinct bots, in order (A, B) with A listed first."""
        n = len(self.bots)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]


def per_seat_scoring(game: Game, variant: Mapping[str, Any]) -> bool:
    """True when a deal's ``score`` has one entry per seat (no fixed teams)."""
    v = game.normalize_variant(dict(variant))
    return game.num_teams(v) == game.num_seats(v) or not game.partnership


def arrangements(num_seats: int, per_seat: bool) -> list[tuple[int, ...]]:
    """Seat arrangements of a duplicate board: entry s is 0 (bot A) or 1 (bot B) at seat s.

    Teams (seats s and s+2 together): A on the even seats, then on the odd ones. Per seat:
    A alone in each seat in turn, then B alone in each seat in turn. Every seat is held by
    each bot equally often, so seat advantages (eldest, dealer) cancel too.
    """
    if not per_seat:
        return [
            tuple(s % 2 for s in range(num_seats)),
            tuple(1 - s % 2 for s in range(num_seats)),
        ]
    out = []
    for lone in (0, 1):
        for s in range(num_seats):
            out.append(tuple(lone if t == s else 1 - lone for t in range(num_seats)))
    return out


def board_deck(game: Game, seed: int, board: int) -> list[int]:
    """The deck of a board: the game's pack shuffled by an RNG seeded with (seed, board)."""
    deck = list(iter_cards(game.deck))
    random.Random(f"folkcards-board:{seed}:{board}").shuffle(deck)
    return deck


def side_means(
    score: Sequence[float], arrangement: Sequence[int], side: Sequence[int] | None = None
) -> tuple[float, float]:
    """Mean score of bot A's seats and of bot B's seats in one play. ``side[s]`` is seat
    s's scoring side (the game card's, :func:`~folkcards.bots.base.seat_sides`); without
    it, guessed from the score's length."""
    n = len(arrangement)
    if side is None:
        side = sides(n, len(score))
    a = [score[side[s]] for s in range(n) if arrangement[s] == 0]
    b = [score[side[s]] for s in range(n) if arrangement[s] == 1]
    return sum(a) / len(a), sum(b) / len(b)


def play_board(config: TournamentConfig, pair: tuple[int, int], board: int) -> dict[str, Any]:
    """Play one board of one matchup in every arrangement; plain-data results."""
    game = config.game_obj
    variant = game.normalize_variant(dict(config.variant))
    n = game.num_seats(variant)
    specs = (config.bots[pair[0]], config.bots[pair[1]])
    register_bots_for(specs)  # a Ray worker has not run the command's registration
    dealer = board % n
    deck = board_deck(game, config.seed, board)
    try:
        side: tuple[int, ...] | None = seat_sides(game, variant)
    except NotImplementedError:  # a game without a card: sides guessed from the score
        side = None
    plays = []
    for k, arr in enumerate(arrangements(n, per_seat_scoring(game, variant))):
        bots = [make_bot(specs[arr[s]]) for s in range(n)]
        rngs = [
            random.Random(f"folkcards-seat:{config.seed}:{board}:{pair}:{k}:{s}") for s in range(n)
        ]
        clocks = [SeatClock() for _ in range(n)]
        meta = {
            "event": "folkcards tournament",
            "seed": config.seed,
            "board": board,
            "arrangement": k,
            "players": [specs[arr[s]] for s in range(n)],
        }
        t0 = time.perf_counter()
        if config.mode == "matches":
            match = Match(
                game,
                variant,
                rng=random.Random(f"folkcards-match:{config.seed}:{board}"),
                dealer=dealer,
            )
            while not match.is_over and match.state.deals < config.max_match_deals:
                play_deal(match.new_deal(), bots, rngs, clocks)
                match.finish_deal()
            score: list[float] = list(match.state.totals)
            deals = match.state.deals
            record = match.record()
        else:
            state = game.new_deal(variant, dealer, list(deck))
            play_deal(state, bots, rngs, clocks)
            score = list(state.result()["score"])
            deals = 1
            record = state.record()
        record["meta"] = meta
        a_mean, b_mean = side_means(score, arr, side)
        plays.append(
            {
                "arrangement": list(arr),
                "score": score,
                "deals": deals,
                "means": [a_mean, b_mean],
                "margin": a_mean - b_mean,
                "decisions": [
                    sum(c.decisions for s, c in enumerate(clocks) if arr[s] == side)
                    for side in (0, 1)
                ],
                "seconds": [
                    sum(c.seconds for s, c in enumerate(clocks) if arr[s] == side)
                    for side in (0, 1)
                ],
                "wall": time.perf_counter() - t0,
                "record": record if config.records else None,
            }
        )
    return {"pair": list(pair), "board": board, "plays": plays}
