"""Reading a person's input and ordering a hand, checked against every registered game's
legal actions and against the rank orders of the rules files."""

from __future__ import annotations

import random

import pytest

from folkcards.cards import CARD_NAMES, parse_card, to_mask
from folkcards.engine.api import DealState, Game
from folkcards.games import GAMES
from folkcards.tui import menu as menus
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
    """Every legal action by its text (any case, blanks around), by its menu position
    (``#n`` always; a bare number only where the menu has no numbers), by its number in a
    numeric menu, and by its card alone where that names one choice."""
    game = GAMES[name]
    rng = random.Random(name)
    for state in states(game, 1):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        legal = list(obs.legal)
        menu = menus.build(obs)
        for i in rng.sample(range(len(legal)), min(6, len(legal))):
            a = legal[i]
            assert resolve(a.text, obs, game).action == a
            assert resolve("  " + a.text.upper() + " ", obs, game).action == a
            words = a.text.split(" ")
            if len(words) == 2 and words[1].isdigit() and menu.numeric_verb == words[0]:
                assert resolve(words[1], obs, game).action == a
            if len(words) >= 2 and words[1] in CARD_NAMES:
                same = [b for b in legal if b.text.split(" ")[1:2] == [words[1]]]
                short = words[1].replace("T", "10").lower()
                if len(same) == 1:
                    assert resolve(short, obs, game).action == a
                elif not any(len(b.text.split(" ")) == 2 for b in same):
                    with pytest.raises(InputError, match="several choices"):
                        resolve(short, obs, game)
        for pos, entry in enumerate(menu.entries, 1):
            got = resolve(f"#{pos}", obs, game)
            if entry.single is not None:
                assert got.action == entry.single
                if menu.numeric_verb is None:
                    assert resolve(str(pos), obs, game).action == entry.single
            else:
                assert got.kind == "entry" and got.entry == entry
        shown = {a for e in menu.entries for a in e.actions}
        decorated = {a for acts in menu.decorations.values() for a in acts}
        assert shown | decorated == set(legal), "an action is not reachable from the menu"
        with pytest.raises(InputError, match="not on the list"):
            resolve(f"#{len(menu.entries) + 1}", obs, game)
        with pytest.raises(InputError, match="Not allowed"):
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


def test_satat_trump_group_first_and_the_game_card_decides() -> None:
    """SAT-1.3/1.8: the trump suit first; the table shows the game card's own order (the 2H,
    which beats every card, at the head of the hearts)."""
    hand = to_mask(parse_card(t) for t in ["AC", "2H", "AH", "3D"])
    shown = names(present.hand_order("satat", hand, "D"))
    assert shown[0] == "3D"
    assert shown.index("2H") < shown.index("AH")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_table_sorts_as_the_game_card_says(name: str) -> None:
    """Hand, choices and logs use ``Game.card(variant).sort_hand`` where the game has one."""
    game = GAMES[name]
    card_of = getattr(game, "card", None)
    if card_of is None:
        pytest.skip("the engine has no game card yet")
    gc = card_of(game.normalize_variant({}))
    rng = random.Random(5)
    for trump in (None, "C", "S", "H", "D"):
        deck = [c for c in range(52) if game.deck >> c & 1]
        hand = to_mask(rng.sample(deck, 9))
        assert present.hand_order(name, hand, trump) == list(gc.sort_hand(hand, trump))
