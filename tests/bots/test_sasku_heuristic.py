"""Concrete tactical choices of the Sasku heuristic from hand-made positions."""

from __future__ import annotations

from folkcards.bots.heuristic import sasku
from folkcards.bots.heuristic.common import card_of
from folkcards.cards import BIT
from folkcards.engine.api import DealState
from folkcards.games import GAMES

NO_EXCHANGE = {"exchange": False}


def _hand(text: str) -> int:
    m = 0
    for name in text.split():
        m |= BIT[card_of(name)]
    return m


def _deal(hands: list[str], trump: str, declarer: int, plays: list[str]) -> DealState:
    """A replay deal (SAS-15.2: no auction) with dealer 3, so seat 0 leads (SAS-10.1)."""
    game = GAMES["sasku"]
    variant = game.normalize_variant(NO_EXCHANGE)
    state = game.new_deal(
        variant,
        3,
        hands=[[card_of(c) for c in h.split()] for h in hands],
        carry={"replay": {"trump": trump, "declarer": declarer}},
    )
    for p in plays:
        state.apply(f"play {p}")
    return state


def _choice(state: DealState) -> str:
    seat = state.to_act
    assert seat is not None
    scores = sasku.evaluate(state.observation(seat))
    return max(scores, key=lambda a: scores[a]).text


HANDS = [
    "6D KC AH 7H 8S 9S AC 7C 8C",  # seat 0
    "KS QC JD TH 9H 6S 7S 9C 6C",  # seat 1
    "AD TD QS QH 8H 6H AS TS TC",  # seat 2
    "KH KD JC JS JH QD 9D 8D 7D",  # seat 3
]


def test_declarer_draws_trumps_with_the_boss_trump() -> None:
    # SAS-3.1: the 6 of trumps beats every card; declaring, seat 0 leads it first.
    assert _choice(_deal(HANDS, "D", 0, [])) == "play 6D"


def test_last_hand_wins_with_a_weak_trump() -> None:
    # 7H led, 9H beats it, 8H cannot; seat 3 has no heart and must trump (SAS-10.3,
    # SAS-10.5). Playing last, any trump wins: it banks the points of its weakest picture
    # (QD, 3 points, almost no later value) and keeps the kings.
    state = _deal(HANDS, "D", 0, ["7H", "9H", "8H"])
    assert _choice(state) == "play QD"


def test_schmear_to_a_partner_with_the_boss_trump() -> None:
    # Seat 0 leads 6D, the highest trump (SAS-3.1). Seat 2 must play a trump and cannot
    # beat it: the ace of trumps (11 points, a weak trump) goes to the partner's trick.
    state = _deal(HANDS, "D", 0, ["6D", "KS"])
    assert _choice(state) == "play AD"


def test_knowledge_reads_voids_and_the_duty_to_beat() -> None:
    state = _deal(HANDS, "D", 0, ["7H", "9H", "8H", "7D"])
    know = sasku.Knowledge(state.observation(0), sasku.CONFIGS[3])
    hearts = _hand("AH TH 9H 8H 7H 6H")
    # seat 3 trumped a heart: void in hearts (SAS-10.3 step 2)
    assert not know.possible[3] & hearts
    # seat 2 followed with 8H under 9H: it holds no heart that beats 9H (SAS-10.3 step 3)
    assert not know.possible[2] & _hand("TH")
    # seat 1 may still hold TH
    assert know.possible[1] & _hand("TH")


def test_override_only_with_a_clearly_better_diamond_hand() -> None:
    strong_d = _hand("6D AD TD KC KS QD 9D AH 8D")
    weak_d = _hand("6C AC TC 9C 8C 7C AS 7H 8H")
    assert sasku.win_chance(strong_d, 3) > 0.9
    assert sasku.win_chance(weak_d, 3) < sasku.win_chance(weak_d, 0)


def test_endgame_solver_cashes_the_ace_before_the_rival_trumps() -> None:
    # Trump D. Seat 0 (our team, 40 points) holds AS 7S; seat 1 TS KD. Leading AS takes
    # TS with it (seat 1 must follow, SAS-10.3): 21 points, 61 > 60 wins the deal (SAS-13).
    # Leading 7S lets TS win (seat 1 must beat), KD then draws the AS: 0 points.
    cfg = sasku.CONFIGS[3]
    hands = [_hand("7S"), _hand("TS KD"), _hand("8S 9S"), _hand("6S 7C")]
    ace = sasku._Solver(cfg, True, 0).solve(hands, [(0, card_of("AS"))], 1, 40, -1e9, 1e9)
    hands = [_hand("AS"), _hand("TS KD"), _hand("8S 9S"), _hand("6S 7C")]
    low = sasku._Solver(cfg, True, 0).solve(hands, [(0, card_of("7S"))], 1, 40, -1e9, 1e9)
    assert ace == 1000 + 61
    assert low == 40


def test_endgame_worlds_agree_with_knowledge() -> None:
    import random

    state = _deal(HANDS, "D", 0, ["7H", "9H", "8H", "7D"])
    know = sasku.Knowledge(state.observation(0), sasku.CONFIGS[3])
    rng = random.Random(1)
    for _ in range(20):
        world = sasku._sample_world(know, rng)
        assert world is not None
        for seat in (1, 2, 3):
            assert world[seat] & ~know.possible[seat] == 0
            assert world[seat].bit_count() == know.sizes[seat]
        assert world[1] | world[2] | world[3] == know.unseen


def test_search_playouts_leave_the_endgame_solver_out(monkeypatch: object) -> None:
    import random

    import pytest

    from folkcards.bots.search import heuristic_policy

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    state = _deal(HANDS, "D", 0, [])
    while True:  # lowest cards until a seat with at most 3 cards has a choice
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        if state.observation(seat).hand.bit_count() <= sasku.ENDGAME_CARDS and len(legal) > 1:
            break
        state.apply(legal[-1])
    calls: list[int] = []

    def solver(*args: object) -> None:
        calls.append(1)
        return None

    monkeypatch.setattr(sasku, "_endgame", solver)
    heuristic_policy(state, random.Random(1))
    assert calls == []  # the playout policy: no solver
    sasku.evaluate(state.observation(seat))
    assert calls == [1]  # the bot's own decision: the solver


def test_no_cash_of_a_plain_ace_the_rivals_will_trump() -> None:
    # Seat 0 holds all six spades: every other seat is void in spades and must trump an
    # ace led there (SAS-10.3), so the ace is no sure trick (TOP_Q) and is not led.
    hands = [
        "AS TS 9S 8S 7S 6S 9H 7H 6C",
        "KC QC JC TC 9C 8C 7C AC KS",
        "QS JS AH KH QH JH TH 8H 6H",
        "AD KD QD JD TD 9D 8D 7D 6D",
    ]
    state = _deal(hands, "D", 1, [])
    assert _choice(state) != "play AS"
