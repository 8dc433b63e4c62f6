"""Scopone rule tests: each test names the SCO rule IDs it checks."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import scopone_reference as ref

from folkcards.cards import BIT, CARD_NAMES, DECK_40, iter_cards, parse_card
from folkcards.engine import Match, replay
from folkcards.engine.api import IllegalAction, MalformedRecord
from folkcards.games import GAMES
from folkcards.games.scopone import (
    GAME,
    ScoponeState,
    capture_options,
    capture_value,
    napola_points,
    primiera,
)

ALL = ref.DECK


def mask(*cards: str) -> int:
    m = 0
    for c in cards:
        m |= BIT[parse_card(c, DECK_40)]
    return m


def hands_record(
    table: list[str],
    fixed: dict[int, list[str]],
    dealer: int = 0,
    actions: list[str] | None = None,
    variant: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A classic ``hands`` record: the given cards where named, the rest in card order."""
    used = set(table) | {c for h in fixed.values() for c in h}
    rest = [c for c in ALL if c not in used]
    hands = []
    for s in range(4):
        h = list(fixed.get(s, []))
        while len(h) < 9:
            h.append(rest.pop(0))
        hands.append(h)
    assert not rest
    rec: dict[str, Any] = {
        "game": "scopone",
        "dealer": dealer,
        "hands": hands,
        "extra": {"table": table},
        "actions": actions or [],
    }
    if variant:
        rec["variant"] = variant
    return rec


def state_of(rec: dict[str, Any]) -> ScoponeState:
    from folkcards.engine import load_deal

    st = load_deal(rec)
    assert isinstance(st, ScoponeState)
    return st


def finished(piles: tuple[list[str], list[str]], variant: dict[str, Any] | None = None,
             sweeps: tuple[int, int] = (0, 0), last: int = 0) -> dict[str, Any]:  # fmt: skip
    """The result of a deal whose team piles are given (scoring tests, SCO-6)."""
    v = GAME.normalize_variant(variant or {})
    st = GAME.new_deal(v, 0, [parse_card(c, DECK_40) for c in ALL])
    st.piles = [mask(*piles[0]), mask(*piles[1])]
    st.sweeps = list(sweeps)
    st.last_capture = last
    st.to_act = None
    return st.result()


def split_piles(team0: list[str]) -> tuple[list[str], list[str]]:
    return team0, [c for c in ALL if c not in team0]


# --- SCO-1 cards ------------------------------------------------------------------------


def test_sco_1_1_deck_is_40_italian_cards() -> None:
    """SCO-1.1: A 2..7 J Q K in C S H D; no T, 8, 9 (in a deck or in an action)."""
    assert GAMES["scopone"] is GAME
    assert GAME.deck == DECK_40 and DECK_40.bit_count() == 40
    assert {CARD_NAMES[c][0] for c in iter_cards(DECK_40)} == set("A234567JQK")
    deck = list(ALL)
    deck[0] = "TC"
    out = replay({"game": "scopone", "dealer": 0, "deck": deck, "actions": []})
    assert out["ok"] is False and out["index"] is None
    rec = hands_record(["AC", "2C", "3C", "4C"], {1: ["5C"]})
    for bad in ("play 10D", "play 9C", "play 8S", "play 5C take 9D"):
        res = replay(dict(rec, actions=[bad]))
        assert res["ok"] is False and res["index"] == 0, bad


def test_sco_1_2_capture_values() -> None:
    """SCO-1.2: A=1, 2..7 face value, J=8, Q=9, K=10."""
    want = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
    for c in iter_cards(DECK_40):
        assert capture_value(c) == want[CARD_NAMES[c][0]]


def test_sco_1_3_primiera_values() -> None:
    """SCO-1.3: 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, pictures 10 (flat)."""
    for rank, val in {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12}.items():
        assert primiera(mask(*(rank + s for s in "CSHD"))) == 4 * val
    for rank in "JQK":
        assert primiera(mask(*(rank + s for s in "CSHD"))) == 40


def test_sco_1_4_no_trumps_sorting_in_card_order() -> None:
    """SCO-1.4: output cards in card order C S H D, A K Q J 7 … 2; captures belong to the capturer."""
    st = state_of(hands_record(["3C", "5S", "5H", "JD"], {1: ["KC", "5C", "JS", "2C"]}))
    hand_cards = [t.split()[1] for t in st.legal_texts()]
    assert hand_cards == sorted(hand_cards, key=ref.order)
    obs = st.observation(0)
    assert obs.info["table"] == ["3C", "5S", "5H", "JD"]


def test_sco_1_5_settebello_and_re_bello() -> None:
    """SCO-1.5: settebello is 7D (SCO-6.3); re bello is KD (variant SCO-8.3)."""
    res = finished(split_piles(["7D"]))
    assert res["settebello"] == 0
    res = finished(split_piles(["KD"]), {"re_bello": True})
    assert res["re_bello"] == 0 and res["settebello"] == 1


# --- SCO-2 seats ------------------------------------------------------------------------


def test_sco_2_1_teams_and_sco_2_4_team_piles() -> None:
    """SCO-2.1 / SCO-2.4: seats 0, 2 are team 0; a capture goes to the capturer's team pile."""
    rec = hands_record(["3C", "5S", "5H", "JD"], {1: ["KC"], 2: ["3S"]}, dealer=0)
    st = state_of(dict(rec, actions=["play KC take 5S 5H", "play 3S take 3C"]))
    assert st.team_of(1) == 1 and st.team_of(2) == 0 and st.team_of(3) == 1
    assert st.observation(0).info["piles"] == [["3C", "3S"], ["KC", "5S", "5H"]]


def test_sco_2_2_counter_clockwise_order() -> None:
    """SCO-2.2: eldest = dealer+1 plays first, then seat+1; the dealer plays last."""
    for dealer in range(4):
        st = GAME.random_deal(random.Random(dealer), {}, dealer=dealer)
        while st.redeal:
            st = GAME.random_deal(random.Random(dealer + 100), {}, dealer=dealer)
        seen = []
        rng = random.Random(1)
        while not st.is_over:
            seen.append(st.to_act)
            st.apply(rng.choice(st.legal_actions()))
        assert seen == [(dealer + n) % 4 for n in range(1, 37)]
        assert seen[-1] == dealer and seen[0] == (dealer + 1) % 4


def test_sco_2_3_deck_order_is_after_the_cut() -> None:
    """SCO-2.3: no cut action: the deck is dealt as given and the first action is a play."""
    deck = list(ALL)
    rec = {"game": "scopone", "dealer": 3, "deck": deck, "actions": []}
    out = replay(rec)
    assert out["to_act"] == 0 and all(t.startswith("play ") for t in out["legal"])
    assert replay(dict(rec, actions=["cut 5"]))["ok"] is False


# --- SCO-3 dealing ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_sco_3_1_classic_deal_mapping(dealer: int) -> None:
    """SCO-3.1: 3 each, 2 table, 3 each, 2 table, 3 each from the dealer's right."""
    deck = list(ALL)
    random.Random(dealer).shuffle(deck)
    st = GAME.new_deal(GAME.normalize_variant({}), dealer, [parse_card(c, DECK_40) for c in deck])
    table = {1: (0, 1, 2, 14, 15, 16, 28, 29, 30), 2: (3, 4, 5, 17, 18, 19, 31, 32, 33),
             3: (6, 7, 8, 20, 21, 22, 34, 35, 36), 4: (9, 10, 11, 23, 24, 25, 37, 38, 39)}  # fmt: skip
    for p, idx in table.items():
        assert st.hands[(dealer + p) % 4] == mask(*(deck[i] for i in idx))
    assert st.table == mask(deck[12], deck[13], deck[26], deck[27])
    hands, tbl = ref.deal(deck, dealer, False)  # the seed's procedure, written out
    assert [st.hands[s] for s in range(4)] == [mask(*h) for h in hands]
    assert list(st.initial_table) == [parse_card(c, DECK_40) for c in tbl]


def test_sco_3_2_scientifico_deal_mapping() -> None:
    """SCO-3.2: two rounds of five from the dealer's right, nothing to the table."""
    deck = list(ALL)
    random.Random(9).shuffle(deck)
    v = GAME.normalize_variant({"scientifico": True})
    st = GAME.new_deal(v, 2, [parse_card(c, DECK_40) for c in deck])
    assert st.hands[3] == mask(*(deck[0:5] + deck[20:25]))
    assert st.hands[2] == mask(*(deck[15:20] + deck[35:40]))
    assert st.table == 0 and st.to_act == 3
    hands, tbl = ref.deal(deck, 2, True)
    assert [st.hands[s] for s in range(4)] == [mask(*h) for h in hands] and tbl == []


def test_sco_3_3_hand_and_table_order_kept_in_record() -> None:
    """SCO-3.3: a hands record keeps each hand's and the table's order (order has no effect)."""
    rec = hands_record(["5S", "3C", "JD", "5H"], {1: ["JS", "KC", "2C", "5C"]})
    st = state_of(rec)
    out = st.record()
    assert out["hands"] == rec["hands"] and out["extra"] == {"table": ["5S", "3C", "JD", "5H"]}
    rec2 = hands_record(["3C", "5S", "5H", "JD"], {1: ["KC", "5C", "JS", "2C"]})
    assert replay(rec)["legal"] == replay(rec2)["legal"]


def test_sco_3_4_redeal_on_three_or_four_kings() -> None:
    """SCO-3.4: 3 or 4 kings on the table void the deal; 2 do not; hands records too."""
    for n_kings, void in ((2, False), (3, True), (4, True)):
        kings = ["KC", "KS", "KH", "KD"][:n_kings]
        table = kings + ["AC", "2C", "3C", "4C"][: 4 - n_kings]
        rec = hands_record(table, {})
        out = replay(rec)
        if void:
            assert out == {"ok": True, "over": True, "result": {"score": [0, 0], "redeal": True}}
            bad = replay(dict(rec, actions=[rec["hands"][1][0].join(["play ", ""])]))
            assert bad["ok"] is False and bad["index"] == 0
        else:
            assert out["over"] is False
    rec = hands_record(["KC", "KS", "AC", "2C"], {1: ["KH"], 2: ["KD"]})  # kings in hands
    assert replay(rec)["over"] is False
    sci = {
        "game": "scopone",
        "variant": {"scientifico": True},
        "dealer": 0,
        "deck": ALL,
        "actions": [],
    }
    assert replay(sci)["over"] is False  # SCO-8.1: no redeal check


def test_sco_3_5_hands_record_shapes() -> None:
    """SCO-3.5: 4 hands of 9 (10) cards + extra.table of 4 (none), exactly the 40 cards."""
    rec = hands_record(["AC", "2C", "3C", "4C"], {})
    assert replay(rec)["ok"]
    bad: list[dict[str, Any]] = []
    r = dict(rec, hands=[h[:] for h in rec["hands"]])
    r["hands"][0] = r["hands"][0][:8]
    r["extra"] = {"table": ["AC", "2C", "3C", "4C", rec["hands"][0][8]]}
    bad.append(r)
    bad.append(dict(rec, extra={"table": ["AC", "2C", "3C"]}))
    bad.append(dict(rec, extra={"table": ["AC", "2C", "3C", "4C"], "blind": []}))
    bad.append({k: v for k, v in rec.items() if k != "extra"})
    bad.append(dict(rec, extra={}))
    bad.append(dict(rec, extra={"table": ["AC", "2C", "3C", "9C"]}))
    for b in bad:
        out = replay(b)
        assert out["ok"] is False and out["index"] is None, b.get("extra")
    hands = [ALL[i * 10 : i * 10 + 10] for i in range(4)]
    sci: dict[str, Any] = {"game": "scopone", "variant": {"scientifico": True}, "dealer": 1,
                           "hands": hands, "actions": []}  # fmt: skip
    assert replay(sci)["ok"]
    assert replay(dict(sci, extra={"table": []}))["ok"]
    assert replay(dict(sci, extra={}))["ok"] is False
    assert replay(dict(sci, extra={"table": ["AC"]}))["ok"] is False


# --- SCO-4 play -------------------------------------------------------------------------


def test_sco_4_1_turns_and_no_other_action() -> None:
    """SCO-4.1: 36 turns (40 scientifico), turn n by seat dealer+n; only `play` exists."""
    for variant, turns in (({}, 36), ({"scientifico": True}, 40)):
        st = GAME.random_deal(random.Random(3), variant, dealer=1)
        rng = random.Random(4)
        n = 0
        while not st.is_over:
            n += 1
            assert st.to_act == (1 + n) % 4 and st.phase == "play"
            assert all(t.startswith("play ") for t in st.legal_texts())
            st.apply(rng.choice(st.legal_actions()))
        assert n == turns and st.turn == turns
    rec = hands_record(["AC", "2C", "3C", "4C"], {})
    for word in ("pass", "bid 3", "take AC"):
        assert replay(dict(rec, actions=[word]))["ok"] is False


def test_sco_4_2_capture_options() -> None:
    """SCO-4.2: singles only when one exists (each equal card), else every ≥2 subset of the sum."""
    t = mask("3C", "5S", "5H", "JD")
    c = parse_card
    assert capture_options(c("JS"), t) == [mask("JD")]  # never 3+5 when a J is there
    assert capture_options(c("5C"), t) == [mask("5S"), mask("5H")]  # one of two equal cards
    assert capture_options(c("KC"), t) == [mask("5S", "5H")]  # a sum of equal cards
    assert capture_options(c("2C"), t) == []  # SCO-4.2.3
    t2 = mask("AC", "2S", "3H", "4D", "6C")
    got = capture_options(c("7S"), t2)
    assert got == [mask("AC", "6C"), mask("AC", "2S", "4D"), mask("3H", "4D")]  # lexicographic
    assert got == [mask(*o) for o in ref.options("7S", ["AC", "2S", "3H", "4D", "6C"])]


def test_sco_4_3_must_capture_but_may_play_a_non_capturing_card() -> None:
    """SCO-4.3: a capturing card has no bare `play C`; a non-capturing card is always legal."""
    rec = hands_record(["3C", "5S", "5H", "JD"], {1: ["KC", "5C", "JS", "2C"]})
    legal = replay(rec)["legal"]
    assert "play 2C" in legal and "play KC" not in legal and "play JS" not in legal
    st = state_of(rec)
    with pytest.raises(IllegalAction, match=r"SCO-4\.3"):
        st.apply(GAME.parse_action("play JS", st.variant))  # the bare no-capture action
    assert st.turn == 0
    assert replay(dict(rec, actions=["play 2C"]))["ok"]


def test_sco_4_4_effect_of_a_play() -> None:
    """SCO-4.4: a capture moves card + take to the team pile; otherwise the card joins the table."""
    rec = hands_record(["3C", "5S", "5H", "JD"], {1: ["KC", "2C"], 2: ["AS"]})
    st = state_of(dict(rec, actions=["play KC take 5S 5H", "play AS"]))
    info = st.observation(3).info
    assert info["table"] == ["3C", "AS", "JD"] and info["piles"][1] == ["KC", "5S", "5H"]
    assert info["last_capture"] == 1 and st.to_act == 3


def test_sco_4_5_canonical_text_and_order() -> None:
    """SCO-4.5: the rules file's example, exactly."""
    rec = hands_record(["3C", "5S", "5H", "JD"], {1: ["KC", "5C", "JS", "2C"]})
    st = state_of(rec)
    st.hands[1] = mask("KC", "5C", "JS", "2C")  # exactly the example's hand
    st._legal = None
    assert st.legal_texts() == [
        "play KC take 5S 5H",
        "play 5C take 5S",
        "play 5C take 5H",
        "play 2C",
        "play JS take JD",
    ]
    codes = [int(a) for a in st.legal_actions()]
    assert codes == sorted(codes)  # codes follow the legal order (stable, SCO-4.5)
    for a in st.legal_actions():
        again = GAME.parse_action(a.text, st.variant)
        assert again == a and again.text == a.text
        assert a.card == parse_card(a.text.split()[1], DECK_40)
        assert a.take == mask(*a.text.split()[3:])


def test_sco_4_6_action_input() -> None:
    """SCO-4.6: any case, blanks, any take order; `play C` = the only option; errors listed."""
    rec = hands_record(["3C", "5S", "5H", "JD"], {1: ["KC", "5C", "JS", "2C"]})
    ok = ["  PLAY   kc   TAKE 5h\t5s ", "play js", "play JS take jd", "play 2c"]
    for text in ok:
        out = state_of(dict(rec, actions=[text])).record()
        assert out["actions"][0] in {"play KC take 5S 5H", "play JS take JD", "play 2C"}
    assert state_of(dict(rec, actions=["play js"])).record()["actions"] == ["play JS take JD"]
    bad = {
        "play 5C": "ambiguous",
        "play 5C take": "no card",
        "play KC take 5S 5S": "twice",
        "play KC take 5S": "add up|match",
        "play JS take 3C 5S": "one card",
        "play 2C take 3C": "nothing",
        "play KC take 5S 5H 2D": "not on the table",
        "play AD": "not in the hand",
        "play XX": "not a Scopone card|expected",
        "drop KC": "expected",
        "play": "expected",
        "play KC with 5S": "expected",
        "play 10C": "not a card",
    }
    for text, why in bad.items():
        out = replay(dict(rec, actions=[text]))
        assert out["ok"] is False and out["index"] == 0 and out["action"] == text, text
        assert re.search(why, out["error"]), (text, out["error"])
    out = replay(dict(rec, actions=[5]))
    assert out["ok"] is False and out["index"] == 0  # SCO-10.2: non-string action


# --- SCO-5 sweeps -----------------------------------------------------------------------


def test_sco_5_1_sweep_and_sco_5_2_empty_table() -> None:
    """SCO-5.1: a capture emptying the table is a sweep; SCO-5.2: then only `play C`."""
    rec = hands_record(["AC", "2S", "3H", "4D"], {1: ["KC"]}, dealer=0)  # SCO-10.4
    st = state_of(dict(rec, actions=["play KC take AC 2S 3H 4D"]))
    assert st.sweeps == [0, 1] and st.table == 0
    assert all(" take " not in t for t in st.legal_texts())
    assert len(st.legal_texts()) == 9


def test_sco_5_3_leftover_and_sco_5_4_last_capture() -> None:
    """SCO-5.3: the leftover goes to the last capturer's team; SCO-5.4: someone always captured."""
    for seed in range(30):
        rng = random.Random(seed)
        st = GAME.random_deal(rng, {}, dealer=seed % 4)
        if st.redeal:
            continue
        while not st.is_over:
            before_last = st.turn == 35
            table_before = st.table
            st.apply(rng.choice(st.legal_actions()))
            if before_last:
                last = st.history[-1]
                res = st.result()
                leftover = table_before & ~(last.take)
                if not last.take:
                    leftover |= BIT[last.card]
                assert st.piles[res["last_capture"] % 2] & leftover == leftover
                assert res["last_capture"] is not None


# --- SCO-6 scoring ----------------------------------------------------------------------


def test_sco_6_1_cards_point_and_tie() -> None:
    """SCO-6.1 / SCO-10.7: more than 20 cards scores; 20–20 scores nothing."""
    team0 = [c for c in ALL if c[1] in "CSH"][:21]
    assert finished(split_piles(team0))["cards"] == [21, 19]
    even = [c for c in ALL if c[1] in "CS"]
    r = finished(split_piles(even))
    assert r["cards"] == [20, 20] and r["score"][0] == 0  # cards tie; 0 coins, no 7D
    assert r["score"][1] == 1 + 1  # coins, settebello; primiera 0–0 (each misses two suits)
    assert r["primiera"] == [0, 0]


def test_sco_6_2_coins_point_and_tie() -> None:
    """SCO-6.2: more than 5 coins scores; 5–5 scores nothing."""
    coins = [c for c in ALL if c[1] == "D"]
    r = finished(split_piles(coins[:5]))
    assert r["coins"] == [5, 5]
    r2 = finished(split_piles(coins[:6]))
    assert r2["coins"] == [6, 4]
    assert r2["score"][0] - r["score"][0] == 1 + (r2["settebello"] != r["settebello"])


def test_sco_6_3_settebello() -> None:
    """SCO-6.3: one point to the team holding 7D."""
    a = finished(split_piles(["7D", "AC"]))
    b = finished(split_piles(["6D", "AC"]))
    assert a["settebello"] == 0 and b["settebello"] == 1
    assert a["score"][0] == b["score"][0] + 1


def test_sco_6_4_primiera_four_suit_rule() -> None:
    """SCO-6.4: a suit missing gives 0; any four-suit primiera beats it; ties score nothing."""
    assert primiera(mask("JC", "JS", "JH", "7D")) == 51  # the seed's example
    assert primiera(mask("7C", "7S", "7H")) == 0
    r = finished(split_piles(["JC", "JS", "JH", "7D"]))
    assert r["primiera"][0] == 51 and r["primiera"][1] == 21 * 3 + 18  # 7C 7S 7H 6D
    r = finished(split_piles(["7C", "6C", "AC"]))  # team 1: 7S 7H 7D, best club 5C
    assert r["primiera"][0] == 0 and r["primiera"][1] == 21 + 21 + 21 + 15
    r = finished(split_piles([c for c in ALL if c[1] in "CS"]))
    assert r["primiera"] == [0, 0]  # both miss a suit: nobody scores (SCO-10.7)
    team0 = ["7C", "7S", "6H", "6D"]
    team1_best = ["7H", "7D", "6C", "6S"]
    team0 += [c for c in ALL if c not in team0 + team1_best and c[1] in "CS"][:16]
    r = finished((team0, [c for c in ALL if c not in team0]))
    assert r["primiera"] == [78, 78] and r["cards"] == [20, 20]


def test_sco_6_5_sweeps_and_sco_6_7_score_sum() -> None:
    """SCO-6.5 / SCO-6.7: each sweep is a point; score is the sum of the points."""
    team0 = [*[c for c in ALL if c[1] in "CSH"][:21], "7D", "6D", "5D", "4D", "3D", "2D"]
    r = finished(split_piles(team0), sweeps=(3, 2))
    assert r["sweeps"] == [3, 2]
    assert r["score"] == [3 + 1 + 1 + 1 + int(r["primiera"][0] > r["primiera"][1]),
                          2 + int(r["primiera"][1] > r["primiera"][0])]  # fmt: skip


def test_sco_6_6_variant_points() -> None:
    """SCO-6.6: re bello and napola add to the score only with their variants."""
    team0 = ["KD", "AD", "2D", "3D", "4D"]
    plain = finished(split_piles(team0))
    both = finished(split_piles(team0), {"re_bello": True, "napola": True})
    assert "re_bello" not in plain and "napola" not in plain and "capotto" not in plain
    assert both["score"][0] == plain["score"][0] + 1 + 4


def test_sco_6_8_result_keys() -> None:
    """SCO-6.8: exactly the keys, in order; variant keys only with their variants."""
    base = ["score", "redeal", "cards", "coins", "settebello", "primiera", "sweeps", "last_capture"]
    assert list(finished(split_piles(["AC"]))) == base
    assert list(finished(split_piles(["AC"]), {"re_bello": True})) == [*base, "re_bello"]
    assert list(finished(split_piles(["AC"]), {"napola": True})) == [*base, "napola", "capotto"]
    r = finished(split_piles(["AC"]), {"napola": True, "re_bello": True})
    assert r["redeal"] is False and sum(r["cards"]) == 40 and sum(r["coins"]) == 10


# --- SCO-7 match ------------------------------------------------------------------------


def play_match(variant: dict[str, Any], seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(GAME, variant, rng=rng, dealer=seed % 4)
    while not m.is_over:
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    return m


def test_sco_7_1_and_7_2_dealer_passes_right_and_totals_add() -> None:
    """SCO-7.1: next dealer = dealer+1 (same after a redeal); SCO-7.2: totals are sums."""
    m = play_match({}, 5)
    totals = [0, 0]
    for prev, deal in zip(m.deals, m.deals[1:], strict=False):
        assert deal.dealer == (prev.dealer if prev.result()["redeal"] else (prev.dealer + 1) % 4)
    for deal in m.deals:
        r = deal.result()
        totals = [totals[0] + r["score"][0], totals[1] + r["score"][1]]
    assert totals == m.state.totals


def test_sco_7_3_end_of_match() -> None:
    """SCO-7.3: ends when a total ≥ target and the totals differ; the higher total wins."""
    for seed in range(6):
        m = play_match({"target": 4}, seed)
        t = m.state.totals
        assert max(t) >= 4 and t[0] != t[1] and t[m.state.winner] > t[1 - m.state.winner]  # type: ignore[index]
        running = [0, 0]
        for deal in m.deals[:-1]:
            r = deal.result()
            running = [running[0] + r["score"][0], running[1] + r["score"][1]]
            assert max(running) < 4 or running[0] == running[1]


def test_sco_7_4_match_record_checks() -> None:
    """SCO-7.4: dealer sequence, unfinished deals, deals after the end, variant mismatch."""
    m = play_match({}, 7)
    rec = m.record()
    assert replay(rec)["result"]["match_over"] is True
    bad = [
        dict(rec, deals=[*rec["deals"], rec["deals"][-1]]),  # a deal after the end
        dict(
            rec,
            deals=[
                dict(rec["deals"][0], dealer=(rec["deals"][0]["dealer"] + 2) % 4),
                *rec["deals"][1:],
            ],
        ),
        dict(
            rec,
            deals=[
                dict(rec["deals"][0], actions=rec["deals"][0]["actions"][:5]),
                *rec["deals"][1:],
            ],
        ),
        dict(rec, deals=[dict(rec["deals"][0], variant={"target": 5}), *rec["deals"][1:]]),
    ]
    for b in bad:
        out = replay(b)
        assert out["ok"] is False and out["index"] is None and "deal" in out
    firsts = set()
    for seed in range(4):  # deal 0's dealer may be any seat
        r = play_match({"target": 1}, seed).record()
        firsts.add(r["deals"][0]["dealer"])
        assert replay(r)["ok"] is True
    assert firsts == {0, 1, 2, 3}


def test_sco_7_5_match_replay_output() -> None:
    """SCO-7.5: a finished last deal adds totals, match_over, winner, draw (always false)."""
    m = play_match({}, 8)
    rec = m.record()
    out = replay(rec)["result"]
    assert out["totals"] == m.state.totals and out["match_over"] is True
    assert out["winner"] in (0, 1) and out["draw"] is False
    part = dict(rec, deals=rec["deals"][:1])
    out = replay(part)["result"]
    assert out["match_over"] is (len(rec["deals"]) == 1) and out["draw"] is False


def test_sco_7_6_errors_name_the_deal() -> None:
    """SCO-7.6: an error in a match record adds the 0-based deal index."""
    m = play_match({}, 9)
    rec = m.record()
    deals = [dict(d) for d in rec["deals"]]
    deals[1] = dict(deals[1], actions=["play XX"])
    out = replay(dict(rec, deals=deals[:2]))
    assert out["ok"] is False and out["deal"] == 1 and out["index"] == 0
    out = replay(dict(rec, deals=[]))
    assert out["ok"] is False and out["deal"] is None


# --- SCO-8 variants ---------------------------------------------------------------------


def test_sco_8_1_scientifico() -> None:
    """SCO-8.1: 10 each, none to the table, first play to an empty table, 40 turns."""
    st = GAME.random_deal(random.Random(2), {"scientifico": True}, dealer=0)
    assert st.table == 0 and all(h.bit_count() == 10 for h in st.hands)
    assert all(" take " not in t for t in st.legal_texts())


def test_sco_8_2_dealer_last_sweep() -> None:
    """SCO-8.2: a final capture that empties the table counts as a sweep with the variant."""
    seen = 0
    for seed in range(60):
        for last_sweep in (False, True):
            rng = random.Random(seed)
            st = GAME.random_deal(rng, {"dealer_last_sweep": last_sweep}, dealer=seed % 4)
            if st.redeal:
                break
            while st.turn < 35:
                st.apply(rng.choice(st.legal_actions()))
            table, before = st.table, list(st.sweeps)
            a = st.legal_actions()[0]
            st.apply(a)
            clears = bool(a.take) and a.take == table
            team = st.dealer % 2
            assert st.sweeps[team] - before[team] == int(clears and last_sweep)
            seen += clears
    assert seen > 0


def test_sco_8_3_re_bello() -> None:
    """SCO-8.3: one point for the team holding KD, only with the variant."""
    a = finished(split_piles(["KD"]), {"re_bello": True})
    b = finished(split_piles(["KD"]))
    assert a["re_bello"] == 0 and a["score"][0] == b["score"][0] + 1


def test_sco_8_4_napola_and_capotto() -> None:
    """SCO-8.4: run from A through the coins in order A 2 3 4 5 6 7 J Q K (3..10); capotto."""
    assert napola_points(mask("AD", "2D")) == 0
    assert napola_points(mask("AD", "2D", "3D")) == 3
    assert napola_points(mask("AD", "2D", "3D", "4D", "5D", "6D")) == 6
    assert napola_points(mask("AD", "2D", "3D", "4D", "5D", "JD")) == 5
    assert napola_points(mask(*(r + "D" for r in "A234567JQ"))) == 9
    coins = [c for c in ALL if c[1] == "D"]
    r = finished(split_piles(coins), {"napola": True})
    assert r["napola"] == [10, 0] and r["capotto"] == 0
    r = finished(split_piles(coins[1:]), {"napola": True})
    assert r["capotto"] is None and r["napola"] == [0, 0]


def test_sco_8_5_target() -> None:
    """SCO-8.5: target is an integer ≥ 1 (default 11)."""
    assert GAME.normalize_variant({})["target"] == 11
    m = play_match({"target": 1}, 3)
    assert max(m.state.totals) >= 1


def test_sco_8_6_primiera_pictures() -> None:
    """SCO-8.6: graded pictures K 10, Q 9, J 8; flat all 10."""
    pile = mask("JC", "QS", "KH", "JD")
    assert primiera(pile) == 40 and primiera(pile, "graded") == 8 + 9 + 10 + 8
    r = finished(split_piles(["JC", "QS", "KH", "JD"]), {"primiera_pictures": "graded"})
    assert r["primiera"][0] == 35


def test_sco_8_7_bad_variants() -> None:
    """SCO-8.7: unknown key, wrong type, target < 1 or not an integer, other strings."""
    base = {"game": "scopone", "dealer": 0, "deck": ALL, "actions": []}
    for v in ({"nope": True}, {"scientifico": 1}, {"target": 0}, {"target": 11.0},
              {"target": True}, {"target": "11"}, {"primiera_pictures": "Graded"},
              {"napola": None}, []):  # fmt: skip
        out = replay(dict(base, variant=v))
        assert out["ok"] is False and out["index"] is None, v
    with pytest.raises(MalformedRecord):
        GAME.normalize_variant({"re_bello": "yes"})


# --- SCO-9 information ------------------------------------------------------------------


def test_sco_9_observation_hides_only_hands() -> None:
    """SCO-9: table, piles, counts and every play are public; other hands are not shown."""
    rng = random.Random(11)
    st = GAME.random_deal(rng, {}, dealer=0)
    for _ in range(10):
        st.apply(rng.choice(st.legal_actions()))
    for seat in range(4):
        obs = st.observation(seat)
        assert obs.hand == st.hands[seat]
        text = repr(obs.to_dict())
        others = [CARD_NAMES[c] for s in range(4) if s != seat for c in iter_cards(st.hands[s])]
        shown = set(re.findall(r"'([A2-7JQK][CSHD])'", text))
        assert not shown & set(others)
        assert list(obs.history) == [a.text for a in st.history]
        assert obs.info["hand_sizes"] == [h.bit_count() for h in st.hands]


# --- SCO-10 edge cases ------------------------------------------------------------------


def test_sco_10_1_malformed_records() -> None:
    """SCO-10.1: bad game, dealer, deck, both/neither deck and hands, actions not a list."""
    base: dict[str, Any] = {"game": "scopone", "dealer": 0, "deck": ALL, "actions": []}
    bad = [
        dict(base, game="scopa"),
        dict(base, dealer=4),
        dict(base, dealer=True),
        dict(base, dealer=1.0),
        dict(base, deck=ALL[:-1]),
        dict(base, deck=[*ALL[:-1], ALL[0]]),
        dict(base, deck=[*ALL[:-1], "9D"]),
        dict(base, hands=[ALL[:9]] * 4),
        {k: v for k, v in base.items() if k != "deck"},
        dict(base, actions="play AC"),
        dict(base, extra={"table": []}),
        dict(base, stake=2),
    ]
    for b in bad:
        out = replay(b)
        assert out["ok"] is False and out["index"] is None and out["action"] is None


def test_sco_10_2_illegal_action_and_action_after_the_end() -> None:
    """SCO-10.2: the first bad action's index; nothing after it; no action after the end."""
    rng = random.Random(12)
    st = GAME.random_deal(rng, {}, dealer=2)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    rec = st.record()
    assert replay(rec)["ok"]
    out = replay(dict(rec, actions=[*rec["actions"], "play AC"]))
    assert out["ok"] is False and out["index"] == 36
    acts = list(rec["actions"])
    acts[3] = "play AC take"
    out = replay(dict(rec, actions=acts))
    assert out["index"] == 3 and out["action"] == "play AC take"
    with pytest.raises(IllegalAction):
        st.apply(rec["actions"][0])


def test_sco_10_3_equal_cards_on_the_table() -> None:
    """SCO-10.3: a 5 takes one of two 5s (choice); a K may take both; never two as singles."""
    rec = hands_record(["5S", "5H", "AC", "7C"], {1: ["5C", "KC"]})
    legal = replay(rec)["legal"]
    assert "play 5C take 5S" in legal and "play 5C take 5H" in legal
    assert "play 5C take 5S 5H" not in legal
    assert "play KC take 5S 5H" in legal


def test_sco_10_4_first_card_takes_all_four() -> None:
    """SCO-10.4: eldest's card equal to the sum of the table takes all four: a sweep."""
    rec = hands_record(["AC", "2S", "3H", "4D"], {1: ["KC"]}, dealer=0)
    assert "play KC take AC 2S 3H 4D" in replay(rec)["legal"]
    st = state_of(dict(rec, actions=["play KC take AC 2S 3H 4D"]))
    assert st.sweeps == [0, 1]


def test_sco_10_5_to_10_8_whole_deal_edges() -> None:
    """SCO-10.5 / 10.6 (goldens), SCO-10.7 ties (scoring tests) and SCO-10.8: a capture always."""
    for seed in range(40):
        rng = random.Random(seed)
        st = GAME.random_deal(rng, {"scientifico": seed % 2 == 0}, dealer=seed % 4)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        if not st.redeal:
            assert st.result()["last_capture"] is not None  # SCO-10.8


def test_sco_9_determinize_mid_deal_plays_on() -> None:
    """SCO-9: determinize after captures keeps piles, table, turn and the seat to act."""
    rec = hands_record(["KC", "AC", "2C", "3S"], {1: ["4C"], 2: ["KS"], 3: ["5C"], 0: ["KH"]})
    st = state_of(dict(rec, actions=["play 4C", "play KS take KC", "play 5C"]))
    rng = random.Random(2)
    obs = st.observation(0)
    world = GAME.determinize(obs, rng)
    assert world.observation(0) == obs and world.to_act == 0 and world.redeal is False
    assert world.piles == st.piles and world.table == st.table and world.turn == 3
    world.apply(world.legal_actions()[0])
