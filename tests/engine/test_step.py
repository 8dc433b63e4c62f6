"""History entries as structured steps (docs/engine.md §2): an entry is its text and carries
the text's structure, made once per action and shared, and it survives pickling."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from folkcards.cards import CARD_NUMBERS, DECK_52
from folkcards.engine import Step, masked
from folkcards.engine.actions import ActionTable
from folkcards.engine.registry import GAMES

TABLE = ActionTable(
    [
        "play TH",
        "bid 60",
        "trump H",
        "give 7C 8C",
        "pass",
        "play 7C take 3H 4D",
        "deal to AC",
        "play 5D grate",
        "ask half C",
    ],
    DECK_52,
)


def test_an_actions_step_is_its_text_with_its_structure() -> None:
    take = TABLE["play 7C take 3H 4D"].step
    assert take == "play 7C take 3H 4D" and isinstance(take, str)
    assert take.kind == "play" and take.hidden == 0 and take.action is TABLE["play 7C take 3H 4D"]
    assert take.cards == (CARD_NUMBERS["7C"], CARD_NUMBERS["3H"], CARD_NUMBERS["4D"])
    assert take.card_set == (1 << CARD_NUMBERS["7C"]) | (1 << CARD_NUMBERS["3H"]) | (
        1 << CARD_NUMBERS["4D"]
    )
    bid = TABLE["bid 60"].step
    assert (bid.kind, bid.number, bid.suit, bid.cards) == ("bid", 60, None, ())
    trump = TABLE["trump H"].step
    assert (trump.kind, trump.number, trump.suit) == ("trump", None, "H")
    assert TABLE["pass"].step.kind == "pass" and TABLE["pass"].step.cards == ()
    give = TABLE["give 7C 8C"].step
    assert give.cards == (CARD_NUMBERS["7C"], CARD_NUMBERS["8C"])  # the text's order
    assert give.to_dict() == {
        "text": "give 7C 8C",
        "kind": "give",
        "cards": ["7C", "8C"],
        "number": None,
        "suit": None,
        "hidden": 0,
        "words": [],
    }
    # the words a step's other fields do not name, in order (docs/engine.md §2)
    assert take.words == ("take",) and give.words == () and bid.words == ()
    deal_to = TABLE["deal to AC"].step  # SAS-6.4
    assert (deal_to.kind, deal_to.words, deal_to.cards) == ("deal", ("to",), (CARD_NUMBERS["AC"],))
    grate = TABLE["play 5D grate"].step  # SAT-16.2
    assert (grate.words, grate.cards) == (("grate",), (CARD_NUMBERS["5D"],))
    half = TABLE["ask half C"].step
    assert (half.kind, half.words, half.suit) == ("ask", ("half",), "C")


def test_a_masked_step_hides_its_cards_and_has_no_action() -> None:
    two = masked("give ? ?")
    assert two == "give ? ?" and two.kind == "give" and two.hidden == 2
    assert two.action is None and two.cards == () and two.card_set == 0
    assert masked("give ? ?") is two  # one shared constant per text
    assert masked("return ?").hidden == 1
    assert masked("return ?").words == ()


def test_steps_survive_pickle_and_copies() -> None:
    step = TABLE["play TH"].step
    for back in (pickle.loads(pickle.dumps(step)), copy.copy(step), copy.deepcopy(step)):
        assert back == step and isinstance(back, Step)
        assert back.kind == "play" and back.action == TABLE["play TH"]
        assert back.action is not None and back.action.step is back
    hidden = masked("bury ?")
    assert pickle.loads(pickle.dumps(hidden)) is hidden
    action = pickle.loads(pickle.dumps(TABLE["bid 60"]))
    assert "step" not in action.__getstate__()  # an action pickles without its step …
    assert action.step.number == 60 and action.step.action is action  # … and makes it again


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_history_is_steps_whose_action_is_the_one_played(name: str) -> None:
    game = GAMES[name]
    rng = random.Random(5)
    state = game.random_deal(rng)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        for seat in range(state.num_seats):
            history = state.observation(seat).history
            assert all(isinstance(step, Step) for step in history)
            seen = [step.action for step in history if step.action is not None]
            played = set(state.history)
            assert all(a in played for a in seen)
    public = state.public_observation()
    assert [s.kind for s in public.history] == [str(s).split(" ")[0] for s in public.history]
