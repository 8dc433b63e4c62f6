"""Reading a person's input and ordering a hand, checked against every registered game's
legal actions and against the rank orders of the rules files."""

from __future__ import annotations

import random

import pytest

from folkcards.cards import CARD_NAMES, parse_card, to_mask
from folkcards.engine.api import DealState, Game
from folkcards.games import GAMES
from folkcards.tui import present
from folkcards.tui.inputs import Command, InputError, resolve, why_action


def states(game: Game, seed: int, limit: int = 80) -> list[DealState]:
    """Snapshots of a random playout of one deal (each a clone)."""
    rng = random.Random(seed)
    state = game.random_deal(rng)
    out = []
    while not state.is_over and len(out) < limit:
        out.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legal_action_can_be_typed(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(name)
    for state in states(game, 1):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        legal = list(obs.legal)
        for i in rng.sample(range(len(legal)), min(6, len(legal))):
            a = legal[i]
            assert resolve(str(i + 1), obs, game) == Command("action", a)
            assert resolve(a.text, obs, game).action == a
            assert resolve("  " + a.text.upper() + " ", obs, game).action == a
            words = a.text.split(" ")
            if len(words) >= 2 and words[1] in CARD_NAMES:
                same = [b for b in legal if b.text.split(" ")[1:2] == [words[1]]]
                short = words[1].replace("T", "10").lower()
                if len(same) == 1:
                    assert resolve(short, obs, game).action == a
                elif not any(len(b.text.split(" ")) == 2 for b in same):
                    with pytest.raises(InputError, match="several choices"):
                        resolve(short, obs, game)
        with pytest.raises(InputError, match="not on the list"):
            resolve(str(len(legal) + 1), obs, game)
        with pytest.raises(InputError, match="not a choice here"):
            resolve("frobnicate wildly", obs, game)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_why_cites_a_rule_for_a_card_not_held(name: str) -> None:
    game = GAMES[name]
    for state in states(game, 2):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        if not obs.legal or not all(len(a.text.split()) == 2 for a in obs.legal):
            continue
        if not all(a.text.split()[1] in CARD_NAMES for a in obs.legal):
            continue
        named = {a.text.split()[1] for a in obs.legal}
        card = next(c for c in ("AC", "KS", "QH", "JD", "AD", "KH") if c not in named)
        if obs.hand >> parse_card(card) & 1:
            continue
        target = why_action(card.lower(), obs, game)
        assert not isinstance(target, str)
        explanation = state.explain_illegal(target)
        assert any(ch.isdigit() for ch in explanation) and "-" in explanation, explanation
        return
    pytest.fail(f"{name}: no one-card phase reached: the test checked nothing")


def test_commands_are_recognised() -> None:
    assert GAMES, "no game registered"
    game = next(iter(GAMES.values()))
    state = game.random_deal(random.Random(0))
    obs = state.observation(state.to_act or 0)
    assert resolve("?", obs, game).kind == "hint"
    assert resolve("hint", obs, game).kind == "hint"
    assert resolve("why 10h", obs, game) == Command("why", arg="10h")
    assert resolve("history", obs, game).kind == "history"
    assert resolve("quit", obs, game).kind == "quit"
    assert resolve("save x.json", obs, game) == Command("save", arg="x.json")


def names(cards: list[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def test_sasku_hand_in_trump_order() -> None:
    """SAS-3.1: 6 of trumps, pictures K Q J by C S H D, then A T 9 8 7 of trumps; plain A T 9 8 7 6."""
    hand = to_mask(parse_card(t) for t in ["AH", "6H", "KC", "QD", "JD", "AS", "TS", "6S", "KH"])
    assert names(present.hand_order("sasku", hand, "H")) == [
        "6H",
        "KC",
        "KH",
        "QD",
        "JD",
        "AH",
        "AS",
        "TS",
        "6S",
    ]


def test_sheepshead_hand_in_trump_order() -> None:
    """SHP-1.3/1.4: QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D, then fail A T K 9 8 7."""
    hand = to_mask(parse_card(t) for t in ["AD", "QH", "JC", "KC", "TC", "7H", "QC"])
    assert names(present.hand_order("sheepshead", hand, None)) == [
        "QC",
        "QH",
        "JC",
        "AD",
        "TC",
        "KC",
        "7H",
    ]


def test_huutopussi_ten_ranks_second_and_trump_first() -> None:
    """HUU-1.2: A T K Q J 9 8 7 6 in every suit; the trump suit is drawn first."""
    hand = to_mask(parse_card(t) for t in ["KC", "TC", "AC", "9S", "QS", "TS"])
    assert names(present.hand_order("huutopussi", hand, "S")) == [
        "TS",
        "QS",
        "9S",
        "AC",
        "TC",
        "KC",
    ]


def test_satat_two_of_hearts_is_highest() -> None:
    """SAT-1.3: the 2H beats every card."""
    hand = to_mask(parse_card(t) for t in ["AC", "2H", "AH", "3D"])
    assert names(present.hand_order("satat", hand, "D")) == ["2H", "3D", "AC", "AH"]
