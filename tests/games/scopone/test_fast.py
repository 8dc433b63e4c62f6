"""Every piece of ``folkcards.games.scopone.fast`` against its plain reference.

The speed work of Scopone — value keys, interned actions, sum templates, half-hand memos,
the table-driven ``legal_actions``, the deal's item getters, the primiera pair table — each
has a plain version written straight from the rules (``*_plain`` in ``fast.py``, or the
rules function it speeds up). Here each is compared with its reference on random and
on hand-built inputs, and the memos are shown to be safe to empty at any point.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
import scopone_reference as ref

from folkcards.cards import BIT, CARD_NAMES, DECK_40, RANK_MASK, cards_list, iter_cards, to_mask
from folkcards.engine.memo import all_memos, clear_all, counting, summary
from folkcards.games.scopone import GAME, ScoponeDeal, ScoponeState, action_for, fast, value_key
from folkcards.games.scopone.actions import lexrank, play_code, play_text
from folkcards.games.scopone.rules import CARDS_40, VALUE, VALUE_CARDS, rules_of
from folkcards.games.scopone.scoring import primiera

CARDS = list(CARDS_40)
KINGS = RANK_MASK[1] & DECK_40
VARIANTS = [GAME.normalize_variant(v) for v in ({}, {"scientifico": True})]


def random_set(rng: random.Random, most: int = 40) -> int:
    return to_mask(rng.sample(CARDS, rng.randint(0, most)))


def position(hand: int, table: int) -> ScoponeDeal:
    """A deal where the eldest holds ``hand`` and ``table`` lies on the table."""
    state = GAME.new_deal(VARIANTS[0], 0, CARDS)
    assert isinstance(state, ScoponeDeal)
    rest = [c for c in CARDS if not (hand | table) >> c & 1]
    state.hands = [0, hand, 0, 0]
    for i, c in enumerate(rest):
        state.hands[(2, 3, 0)[i % 3]] |= BIT[c]
    state.table = table
    state._vkey = value_key(table)
    state._legal = None
    return state


def test_value_key_is_the_sum_of_card_weights() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        cards = random_set(rng)
        assert value_key(cards) == fast.value_key_plain(cards)


def test_three_kings_is_the_least_key_with_three_kings() -> None:
    """SCO-3.4: a table's key reaches THREE_KINGS exactly when it holds 3 or 4 kings."""
    rng = random.Random(2)
    for _ in range(2000):
        table = random_set(rng, 12)
        assert (value_key(table) >= fast.THREE_KINGS) == ((table & KINGS).bit_count() >= 3)


def test_interned_plays_carry_what_apply_reads() -> None:
    rng = random.Random(3)
    plays = [action_for(c) for c in CARDS]
    for _ in range(500):
        c = rng.choice(CARDS)
        take = random_set(rng, 6) & ~BIT[c]
        plays.append(action_for(c, take))
    for a in plays:
        c, take = a.card, a.take
        assert a is action_for(c, take) and a.text == play_text(c, take)
        assert int(a) == play_code(c, take)  # action_for inlines the reference's code
        assert fast.PLAYS(take << 6 | c) is a
        dv = -fast.value_key_plain(take) if take else 5 ** (VALUE[c] - 1)
        assert a.fx == (take, BIT[c], take | BIT[c], dv) == (a.take, a.bit, a.won, a.dv)
        assert fast.decode(int(a)) is a
    # codes sort like legal: by card, then by the take list as a sequence (SCO-4.5)
    assert sorted(plays) == sorted(plays, key=lambda a: (a.card, cards_list(a.take)))
    takes = sorted({a.take for a in plays}, key=cards_list)
    assert [lexrank(t) for t in takes] == sorted(lexrank(t) for t in takes)


def test_sum_options_equal_brute_force() -> None:
    rng = random.Random(4)
    for _ in range(1500):
        table = random_set(rng, 12)
        v = rng.randint(1, 10)
        assert fast.sum_options(v, table) == fast.sum_options_plain(v, table)


def test_no_capture_equals_card_by_card() -> None:
    rng = random.Random(5)
    for _ in range(1000):
        hand = random_set(rng, 10)
        assert fast.no_capture(hand) == fast.no_capture_plain(hand)


def test_no_capture_keeps_the_half_hand_memos_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """no_capture stores into the half-hand memos itself (Memo.store inlined): a full memo
    is emptied before the next entry, as Memo.store would, and the answers stay right."""
    monkeypatch.setattr(fast, "HALF_LIMIT", 3)
    fast.HALF_LOW.clear()
    fast.HALF_HIGH.clear()
    rng = random.Random(15)
    before = fast.HALF_LOW.clears
    for _ in range(200):
        hand = random_set(rng, 10)
        assert fast.no_capture(hand) == fast.no_capture_plain(hand)
        assert len(fast.HALF_LOW) <= 3 and len(fast.HALF_HIGH) <= 3
    assert fast.HALF_LOW.clears > before


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_equal_the_plain_rules(seed: int) -> None:
    """The table-driven legal_actions against legal_plain (and the naive referee) on big
    tables and on tables of few values, where sums take some of several equal cards."""
    rng = random.Random(100 + seed)
    for i in range(150):
        if i % 2:
            ranks = rng.sample("A234567", rng.randint(1, 4))
            pool = [c for c in CARDS if CARD_NAMES[c][0] in ranks]
            table_cards = rng.sample(pool, rng.randint(2, min(10, len(pool))))
        else:
            table_cards = rng.sample(CARDS, rng.choice([0, 1, 2, 3, 4, 6, 8, 12]))
        table = to_mask(table_cards)
        hand = to_mask(rng.sample([c for c in CARDS if c not in table_cards], rng.randint(1, 10)))
        legal = position(hand, table).legal_actions()
        assert legal == fast.legal_plain(hand, table)
        texts = [CARD_NAMES[c] for c in iter_cards(hand)], [CARD_NAMES[c] for c in table_cards]
        assert [a.text for a in legal] == ref.legal(*texts)


def test_partials_cover_every_sum_of_some_equal_cards() -> None:
    """PARTIALS holds each partial sum once; the sums loop never meets one outside it."""
    assert len(set(fast.PARTIALS)) == len(fast.PARTIALS) == 290
    for full, some in fast.PARTIALS:
        assert some and all(1 <= k <= 3 for _, k in some)
        assert not full & sum(VALUE_CARDS[v] for v, _ in some)


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
def test_deal_deck_equals_dealing_position_by_position(vi: int) -> None:
    rules = rules_of(VARIANTS[vi])
    rng = random.Random(6 + vi)
    for i in range(300):
        deck = tuple(rng.sample(CARDS, 40))
        assert fast.deal_deck(deck, i % 4, rules) == fast.deal_deck_plain(deck, i % 4, rules)
    bad: list[tuple[Any, ...]] = [
        (*CARDS[:39], CARDS[0]),  # a card twice
        tuple(CARDS[:39]),  # 39 cards
        (*CARDS[:39], 8),  # a ten (not a Scopone card)
        (*CARDS[:39], -1),
        (*CARDS[:39], 104),
        (*CARDS[:39], "AC"),
    ]
    for deck in bad:
        assert fast.deal_deck(deck, 0, rules) is None
    for deck in bad[:3]:
        assert fast.deal_deck_plain(deck, 0, rules) is None


def test_primiera_of_both_piles_equals_each_pile() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        pile0 = random_set(rng)
        for pictures in ("flat", "graded"):
            want = (primiera(pile0, pictures), primiera(DECK_40 & ~pile0, pictures))
            assert fast.primiera_both(pile0, pictures) == want


def test_every_scopone_memo_counts_and_empties() -> None:
    """Every global memo of Scopone is a named Memo: the hot path's lookups are counted
    while counting is on, and emptying them all mid-deal changes nothing but speed."""
    names = {m.name for m in all_memos("scopone.")}
    assert names == {
        "scopone.half_high", "scopone.half_low", "scopone.plays", "scopone.plays_by_code",
        "scopone.rules", "scopone.sum_options", "scopone.sum_templates", "scopone.table_info",
        "scopone.takes",
    }  # fmt: skip
    rng = random.Random(8)
    with counting("scopone."):
        state = GAME.random_deal(rng, {}, dealer=1)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(20):  # enough deals for sum captures (SCO-4.2.2)
            state = GAME.random_deal(rng, {}, dealer=0)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
    stats = summary("scopone.")
    assert stats["scopone.table_info"].hits is not None
    assert stats["scopone.table_info"].hits + stats["scopone.table_info"].misses >= 36
    assert stats["scopone.takes"].count == 52
    assert stats["scopone.takes"].hits  # the sums loop reads the tables SUM_BY_LENGTH holds
    for c in range(52):  # and holds each card's table again once counting is over
        assert fast.SUM_BY_LENGTH[BIT[c].bit_length()][1] is fast.TAKES[c].table

    rng = random.Random(9)
    for _ in range(3):
        state = GAME.random_deal(rng, {"scientifico": rng.random() < 0.5}, dealer=0)
        record = state.record()
        while not state.is_over:
            if rng.random() < 0.2:
                assert clear_all("scopone.") == 8 + 52  # the takes: one memo per card number
            text = rng.choice(state.legal_texts())
            state.apply(text)
            record["actions"].append(text)
        assert state.result() == ref.replay_deal(record)


def test_a_pickle_of_the_single_module_game_loads() -> None:
    """A deal pickled by ``folkcards/games/scopone.py`` (the module before this package:
    class path ``folkcards.games.scopone.ScoponeState``) loads as a ScoponeDeal that shows
    and plays on as the original did."""
    here = Path(__file__).parent / "pickles"
    old = pickle.loads((here / "single_module_state.pickle").read_bytes())
    assert type(old) is ScoponeDeal is ScoponeState and old.game is GAME
    want = json.loads((here / "single_module_state.json").read_text())
    assert old.record() == want["record"] and old.legal_texts() == want["legal"]
    seen = old.observation(2).to_dict()
    task = old.observation(2).task  # the dict was stored before observations said it
    assert seen.pop("task") == (task.to_dict() if task is not None else None)
    assert seen == want["observation"]
    assert old.rules == rules_of(old.variant)
    while not old.is_over:
        old.apply(old.legal_actions()[0])
        want["record"]["actions"].append(old.history[-1].text)
    assert old.result() == ref.replay_deal(want["record"])
