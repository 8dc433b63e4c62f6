"""Satat rules, one test (or more) per rule ID of ``satat.md``, through ``replay``/the API.

Hand-built deals (``hands`` records, dealer 0 unless said: trump maker 1, partner 3):

* ``suit_deal()``: seat 0 all clubs, 1 all spades, 2 all hearts (with the 2H), 3 diamonds.
* ``D1``: seat 1 holds the 2H and AS..3S, seat 2 holds AH..3H and the 2S.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from satat_helpers import RANKS, rec, run, suit_cards, suit_deal

from folkcards.cards import CARD_NAMES, iter_cards
from folkcards.engine import IllegalAction, MalformedRecord, replay
from folkcards.games.satat import CONFIGS, GAME, TWO_H, SatatState, hands_from_deck

SPADES_7 = [f"play {r}S" for r in "AKQJT98"]


def d1() -> list[list[str]]:
    return [
        suit_cards("C"),
        ["2H", *suit_cards("S")[:12]],
        [*suit_cards("H")[:12], "2S"],
        suit_cards("D"),
    ]


def d1_mixed() -> list[list[str]]:
    """D1 with AC and AD swapped: seat 0 holds AD, seat 3 holds AC."""
    h = d1()
    h[0][0], h[3][0] = "AD", "AC"
    return h


def state_of(record: dict[str, Any]) -> SatatState:
    from folkcards.engine import load_deal

    st = load_deal(record)
    assert isinstance(st, SatatState)
    return st


def seven_spade_tricks() -> list[str]:
    """D1, trump S: seat 1 leads AS..8S; others play their top cards (2S first for seat 2)."""
    acts: list[str] = []
    seat2 = ["2S", *suit_cards("H")[:6]]
    for i in range(7):
        acts += [SPADES_7[i], f"play {seat2[i]}", f"play {RANKS[i]}D", f"play {RANKS[i]}C"]
    return acts


# --- SAT-1 cards ---------------------------------------------------------------------


def test_sat_1_1_pack_of_52_and_bad_deck() -> None:
    """SAT-1.1: 52 cards, C S H D, A..2; a 51-card deck is malformed (SAT-18.1)."""
    deck = [CARD_NAMES[c] for c in range(52)]
    assert run({"game": "satat", "dealer": 0, "deck": deck, "actions": []})["ok"]
    out = run({"game": "satat", "dealer": 0, "deck": deck[:51], "actions": []})
    assert out["ok"] is False and out["index"] is None and "52" in out["error"]


def test_sat_1_2_1_4_1_8_power_order() -> None:
    """SAT-1.2, SAT-1.4, SAT-1.8, SAT-8.5: 2H, then trumps A..2, then led suit A..2."""
    spades = CONFIGS[1]
    names = {n: i for i, n in enumerate(CARD_NAMES)}

    def win(*cards: str) -> str:
        return cards[spades.winner([names[c] for c in cards])]

    assert win("5D", "AD", "KD", "4D") == "AD"
    assert win("5D", "AD", "2S", "KD") == "2S"
    assert win("5D", "3S", "2H", "AS") == "2H"
    assert win("AH", "KH", "2H", "QH") == "2H"  # SAT-1.3: the 2H beats the hearts led too
    assert win("3H", "AC", "AD", "4H") == "4H"  # other suits never win
    hearts = CONFIGS[2]
    assert hearts.winner([names[c] for c in ("AS", "3H", "2H", "AH")]) == 2
    assert hearts.winner([names[c] for c in ("AS", "3H", "KS", "AH")]) == 3


def test_sat_1_3_2h_is_a_heart_and_a_trump_when_hearts_are_trump() -> None:
    """SAT-1.3/SAT-6.1: a partner whose only heart is the 2H holds a trump (hearts)."""
    h = suit_deal()
    h[2][12], h[3][12] = "2D", "2H"  # partner (3) holds 2H and no other heart
    assert run(rec(h, ["trump H"]))["phase"] == "play"  # no propose: he has a trump
    assert run(rec(h, ["trump S"]))["phase"] == "propose"


def test_sat_1_5_pictures_and_sat_5_4_redeal() -> None:
    """SAT-1.5, SAT-5.4, SAT-11, SAT-11.1, SAT-11.2, SAT-12.1, SAT-12.3: aces are no pictures."""
    h = suit_deal()
    h[1] = ["AS", "TS", "9S", "8S", "7S", "KS", "QS", "JS", "6S", "5S", "4S", "3S", "2S"]
    out = run(rec(h, []))
    assert "redeal" in out["legal"]
    res = run(rec(h, ["redeal"]))["result"]
    assert res == {
        "score": [0, 0],
        "outcome": "redeal",
        "won_by": None,
        "tricks": [0, 0],
        "trump": None,
        "redeal": "no_pictures",
        "next_dealer": 0,
        "next_redeals": 1,
        "next_passing": None,
    }
    assert run(rec(h, [], redeals=1))["legal"][4] == "redeal"  # SAT-5.5 order
    bad = run(rec(h, ["redeal", "trump S"]))  # SAT-11.1, SAT-18.2
    assert bad["ok"] is False and bad["index"] == 1


def test_sat_5_4_third_deal_is_forced_and_sat_18_3() -> None:
    """SAT-5.4, SAT-18.3, SAT-18.5: with redeals=2, or with a picture, redeal is illegal."""
    h = suit_deal()
    h[1] = ["AS", "TS", "9S", "8S", "7S", "KS", "QS", "JS", "6S", "5S", "4S", "3S", "2S"]
    out = run(rec(h, ["redeal"], redeals=2))
    assert out["ok"] is False and out["index"] == 0 and "SAT-5.4" in out["error"]
    out = run(rec(suit_deal(), ["redeal"]))
    assert out["ok"] is False and "SAT-5.4" in out["error"]
    assert "redeal" not in run(rec(h, [], redeals=2))["legal"]


def test_sat_1_6_no_card_points_sat_10_result_keys() -> None:
    """SAT-1.6 (no card points) and SAT-10: the result has exactly its nine keys."""
    res = run(rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"]))["result"]
    assert set(res) == {
        "score",
        "outcome",
        "won_by",
        "tricks",
        "trump",
        "redeal",
        "next_dealer",
        "next_redeals",
        "next_passing",
    }


def test_sat_1_7_machine_order_2h_last_of_hearts() -> None:
    """SAT-1.7, SAT-17.1: the 2H sorts as an ordinary 2, last of the hearts."""
    h = suit_deal()
    out = run(rec(h, ["trump D", "play AS"]))
    assert out["to_act"] == 2
    assert out["legal"] == [f"play {c}" for c in suit_cards("H")]


# --- SAT-2 seats and roles -----------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_sat_2_roles_follow_the_dealer(dealer: int) -> None:
    """SAT-2.1, SAT-2.2, SAT-2.3, SAT-5.1: trump maker d+1 acts first, partner d+3."""
    rng = random.Random(dealer)
    deck = [CARD_NAMES[c] for c in range(52)]
    rng.shuffle(deck)
    st = state_of({"game": "satat", "dealer": dealer, "deck": deck, "actions": []})
    assert st.to_act == (dealer + 1) % 4 and st.phase == "trump"
    obs = st.observation(st.tm)
    assert obs.info["trump_maker"] == (dealer + 1) % 4 and obs.info["partner"] == (dealer + 3) % 4
    assert st.team_of(0) == st.team_of(2) == 0 and st.team_of(1) == st.team_of(3) == 1
    # SAT-5.1: he has seen only his first five.
    assert obs.hand.bit_count() == 5


# --- SAT-4 dealing ---------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_sat_4_1_4_2_4_3_deck_mapping(dealer: int) -> None:
    """SAT-4.1, SAT-4.2, SAT-4.3: the exact deck slices; a hands record deals the same."""
    rng = random.Random(10 + dealer)
    deck = [CARD_NAMES[c] for c in range(52)]
    rng.shuffle(deck)
    table = [(0, 5, 1), (5, 10, 2), (10, 15, 3), (15, 20, 0)]
    table += [(20 + 4 * i, 24 + 4 * i, (i + 1) % 4) for i in range(4)]
    table += [(36 + 4 * i, 40 + 4 * i, (i + 1) % 4) for i in range(4)]
    hands: list[list[str]] = [[], [], [], []]
    for lo, hi, rel in table:
        hands[(dealer + rel) % 4] += deck[lo:hi]
    idx = {n: i for i, n in enumerate(CARD_NAMES)}
    assert hands_from_deck([idx[c] for c in deck], dealer) == [[idx[c] for c in h] for h in hands]
    a = state_of({"game": "satat", "dealer": dealer, "deck": deck, "actions": ["trump C"]})
    b = state_of({"game": "satat", "dealer": dealer, "hands": hands, "actions": ["trump C"]})
    assert a.hands == b.hands
    for s in range(4):
        assert sorted(CARD_NAMES[c] for c in iter_cards(a.hands[s])) == sorted(hands[s])
    # SAT-4.3: before trump each seat holds its first five.
    st = state_of({"game": "satat", "dealer": dealer, "hands": hands, "actions": []})
    for s in range(4):
        assert sorted(CARD_NAMES[c] for c in iter_cards(st.observation(s).hand)) == sorted(
            hands[s][:5]
        )
    assert b.record()["hands"] == hands


@pytest.mark.parametrize("n", range(1, 5))
def test_sat_4_4_5_3_blind_position(n: int) -> None:
    """SAT-4.4, SAT-5.3, SAT-5.6, SAT-19.2: blind N turns hands[tm][8+N], public, kept."""
    h = suit_deal()
    st = state_of(rec(h, [f"blind {n}"]))
    card = h[1][8 + n]
    assert st.trump == 1 and CARD_NAMES[st.turned] == card
    assert all(x.bit_count() == 13 for x in st.hands)
    obs = st.observation(0)
    assert obs.info["turned"] == card and obs.info["blind"] == n and obs.info["trump"] == "S"
    assert obs.info["known_cards"][1] == [card]


def test_sat_4_5_hands_record_checks() -> None:
    """SAT-4.5, SAT-18.1: 4×13 cards covering the pack, extra absent or {}."""
    h = suit_deal()
    assert run(rec(h, [], extra={}))["ok"]
    bad = [
        rec([x[:12] for x in h], []),
        rec(h, [], extra={"widow": ["AS"]}),
        {**rec(h, []), "deck": [CARD_NAMES[c] for c in range(52)]},
        {"game": "satat", "dealer": 0, "actions": []},
        {
            "game": "satat",
            "dealer": 0,
            "deck": [CARD_NAMES[c] for c in range(52)],
            "extra": {},
            "actions": [],
        },
        rec([h[0], h[0], h[2], h[3]], []),
    ]
    for r in bad:
        out = run(r)
        assert out["ok"] is False and out["index"] is None, r


def test_sat_4_6_carried_keys() -> None:
    """SAT-4.6, SAT-18.1: redeals 0–2 and passing null|{winners, cards}; not with Trup Kasiet."""
    h = suit_deal()
    for good in ({"redeals": 2}, {"passing": None}, {"passing": {"winners": 1, "cards": 2}}):
        assert run(rec(h, [], **good))["ok"], good
    for bad in (
        {"redeals": 3},
        {"redeals": True},
        {"redeals": 1.0},
        {"passing": {"winners": 2, "cards": 1}},
        {"passing": {"winners": 0, "cards": 3}},
        {"passing": {"winners": 0}},
        {"passing": 1},
    ):
        out = run(rec(h, [], **bad))
        assert out["ok"] is False and out["index"] is None, bad
    out = run(rec(h, [], passing={"winners": 0, "cards": 1}, variant={"trup_kasiet": True}))
    assert out["ok"] is False and "Trup Kasiet" in out["error"]


def test_sat_4_7_phase_order() -> None:
    """SAT-4.7, SAT-6.4, SAT-7.2: trump, propose/consent, give ×4, announce, play, lese."""
    h = suit_deal()
    r = rec(h, [], passing={"winners": 1, "cards": 1}, variant={"signals": "all"})
    phases = []
    acts = [
        "trump S",
        "propose",
        "refuse",
        "give AS",
        "give AH",
        "give AD",
        "give AC",
        "announce",
        "play KS",
        "lese",
    ]
    for i in range(len(acts) + 1):
        r["actions"] = acts[:i]
        phases.append(run(r)["phase"])
    assert phases == [
        "trump",
        "propose",
        "consent",
        "give",
        "give",
        "give",
        "give",
        "announce",
        "play",
        "lese",
        "play",
    ]


# --- SAT-5 trump making ----------------------------------------------------------------


def test_sat_5_2_5_5_legal_list_any_suit() -> None:
    """SAT-5.2, SAT-5.5: blind 1..4 and trump C D H S, any suit even if not held."""
    out = run(rec(suit_deal(), []))
    assert out["to_act"] == 1 and out["phase"] == "trump"
    assert out["legal"] == [f"blind {n}" for n in range(1, 5)] + [f"trump {s}" for s in "CDHS"]
    assert run(rec(suit_deal(), ["trump H"]))["ok"]  # he holds no heart


# --- SAT-6 partner's no-trump redeal ---------------------------------------------------


def test_sat_6_1_6_2_6_3_propose_and_accept() -> None:
    """SAT-6.1, SAT-6.2, SAT-6.3, SAT-12.3, SAT-12.4: no trumps → propose → accept ends the deal."""
    h = suit_deal()
    out = run(rec(h, ["trump S"]))
    assert out["phase"] == "propose" and out["to_act"] == 3 and out["legal"] == ["pass", "propose"]
    out = run(rec(h, ["trump S", "propose"]))
    assert out["phase"] == "consent" and out["to_act"] == 1 and out["legal"] == ["accept", "refuse"]
    passing = {"winners": 0, "cards": 2}
    res = run(rec(h, ["trump S", "propose", "accept"], redeals=1, passing=passing))["result"]
    assert res["outcome"] == "redeal" and res["redeal"] == "no_trumps" and res["trump"] == "S"
    assert res["next_redeals"] == 1 and res["next_dealer"] == 0  # unchanged, same dealer
    assert res["next_passing"] == passing  # SAT-7.1: carried by a redeal


def test_sat_6_4_18_4_pass_or_refuse_goes_on() -> None:
    """SAT-6.4, SAT-18.4: pass or refuse → play normally; a partner with trumps is skipped."""
    h = suit_deal()
    for acts in (["trump S", "pass"], ["trump S", "propose", "refuse"], ["trump D"]):
        out = run(rec(h, acts))
        assert out["phase"] == "play" and out["to_act"] == 1, acts


def test_sat_6_5_15_6_no_propose_in_trup_kasiet() -> None:
    """SAT-6.5, SAT-15.6: the partner has no trump, but Trup Kasiet has no propose phase."""
    out = run(rec(suit_deal(), ["hide KS"], variant={"trup_kasiet": True}))
    assert out["phase"] == "play" and out["to_act"] == 1


# --- SAT-7 card passing ------------------------------------------------------------------


def test_sat_7_passing_one_card() -> None:
    """SAT-7.1, SAT-7.2, SAT-7.3, SAT-7.4, SAT-7.8: order d+1..d, directions, exchange."""
    h = suit_deal()
    r = rec(h, ["trump D"], passing={"winners": 1, "cards": 1})
    out = run(r)
    assert out["phase"] == "give" and out["to_act"] == 1
    assert out["legal"] == [f"give {c}" for c in suit_cards("S")]  # winner keeps a spade
    r["actions"] += ["give 5S"]
    out = run(r)
    assert out["to_act"] == 2 and out["legal"] == ["give AH"]  # loser: highest, never the 2H
    r["actions"] += ["give AH"]
    assert run(r)["to_act"] == 3
    r["actions"] += ["give 2D"]
    out = run(r)
    assert out["to_act"] == 0 and out["legal"] == ["give AC"]
    st = state_of(r)
    assert st.hands[1] == st.hands[1]  # not exchanged yet
    assert "5S" in [CARD_NAMES[c] for c in iter_cards(st.hands[1])]
    r["actions"] += ["give AC"]
    st = state_of(r)
    hand = {s: {CARD_NAMES[c] for c in iter_cards(st.hands[s])} for s in range(4)}
    # winners give left (1→2, 3→0), losers right (2→1, 0→3)
    assert "5S" in hand[2] and "AH" in hand[1] and "2D" in hand[0] and "AC" in hand[3]
    assert "5S" not in hand[1] and "AH" not in hand[2]
    assert st.phase == "play" and st.to_act == 1


def test_sat_7_6_loser_gives_trumps_first_and_7_5_never_2h() -> None:
    """SAT-7.5, SAT-7.6: a loser with trumps gives trumps (any), never the 2H."""
    h = suit_deal()
    out = run(rec(h, ["trump H", "pass", "give AS"], passing={"winners": 1, "cards": 1}))
    assert out["to_act"] == 2
    assert out["legal"] == [f"give {c}" for c in suit_cards("H")[:12]]
    out = run(rec(h, ["trump H", "pass", "give AS", "give 2H"], passing={"winners": 1, "cards": 1}))
    assert out["ok"] is False and out["index"] == 3 and "SAT-7.5" in out["error"]


def test_sat_7_6_loser_two_cards_and_7_8_either_order() -> None:
    """SAT-7.6, SAT-7.8, SAT-17.2: K=2, a loser gives his two highest; input in either order."""
    h = suit_deal()
    r = rec(h, ["trump D"], passing={"winners": 0, "cards": 2})
    out = run(r)
    assert out["to_act"] == 1 and out["legal"] == ["give AS KS"]
    r["actions"].append("GIVE ks  as")
    st = state_of(r)
    assert st.record()["actions"][-1] == "give AS KS"
    assert st.to_act == 2
    assert len(st.legal_actions()) == 66  # winner: any two hearts but the 2H (12 choose 2)


def test_sat_7_6_loser_ties_and_partial_trumps() -> None:
    """SAT-7.6: one trump plus the highest other card; ties of rank give a choice."""
    h = suit_deal()
    # seat 2 (loser when team 1 won): hearts but AH, KH swapped for AC, AD... build:
    h[2] = ["AC", "AD", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]
    h[0] = ["AH", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"]
    h[3] = ["KH", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2D"]
    st = state_of(rec(h, ["trump S", "pass", "give 2S"], passing={"winners": 1, "cards": 1}))
    assert st.to_act == 2 and st.legal_texts() == ["give AC", "give AD"]  # two aces tie
    st = state_of(rec(h, ["trump D", "give 3S 2S"], passing={"winners": 1, "cards": 2}))
    assert st.legal_texts() == ["give AC AD"]  # the one trump AD + highest other AC
    st = state_of(rec(h, ["trump C", "pass", "give 3S 2S"], passing={"winners": 1, "cards": 2}))
    assert st.legal_texts() == ["give AC AD"]


def test_sat_7_7_winner_keeps_every_suit() -> None:
    """SAT-7.7: a winner may not give away his last card of a suit (the 2H does not count)."""
    h = suit_deal()
    h[1] = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "AH", "2H"]
    h[2] = ["3S", "2S", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]
    st = state_of(rec(h, ["trump D"], passing={"winners": 1, "cards": 1}))
    assert st.to_act == 1
    assert st.legal_texts() == [f"give {r}S" for r in "AKQJT98765" + "4"]  # not AH, not 2H
    with pytest.raises(IllegalAction, match=r"SAT-7\.7"):
        st.apply("give AH")


def test_sat_7_6_and_7_7_give_options_are_the_plain_filter() -> None:
    """SAT-7.5, SAT-7.6, SAT-7.7: the gives built from what the rules allow are, in the same
    order, every set of K cards that the rules' own checks accept, for winners and losers,
    K = 1 and 2, on random hands and on hands short of trumps, rich in one rank, or with
    one- and two-card suits."""
    from folkcards.games.satat.rules import B2H, give_options, give_options_plain

    rng = random.Random(76)
    seen = {"winner": 0, "loser": 0, "tie": 0, "suit emptied": 0}
    for i in range(3000):
        k, trump, winner = 1 + i % 2, rng.randrange(4), i % 4 < 2
        if i % 3 == 0:  # few suits: one- and two-card suits, few or no trumps
            suits = rng.sample(range(4), 2)
            pool = [c for c in range(52) if c // 13 in suits or rng.random() < 0.08]
        elif i % 3 == 1:  # low ranks: ties of rank among the highest plain cards
            pool = [c for c in range(52) if c % 13 > 6 or c == 0]
        else:
            pool = list(range(52))
        if len(pool) < 13:
            continue
        hand = sum(1 << c for c in rng.sample(pool, 13))
        want = give_options_plain(hand, trump, winner, k)
        assert give_options(hand, trump, winner, k) == want, (i, hand, trump, winner, k)
        seen["winner" if winner else "loser"] += bool(want)
        short = (hand & ~B2H & (0x1FFF << 13 * trump)).bit_count() < k
        seen["tie"] += not winner and short and len(want) > 1  # a choice within a rank
        two = [(hand & ~B2H) >> 13 * s & 0x1FFF for s in range(4)]  # the 2H does not count
        seen["suit emptied"] += winner and k == 2 and any(x.bit_count() == 2 for x in two)
    assert min(seen.values()) > 0, seen


def thirteen_nil() -> list[str]:
    """D1, trump S: the trump maker takes all 13 tricks (continuing after 7-0)."""
    acts = ["trump S", "pass", *seven_spade_tricks(), "continue"]
    for r, hh in zip("76543", "87654", strict=True):
        acts += [f"play {r}S", f"play {hh}H", f"play {r}D", f"play {r}C"]
    return [*acts, "play 2H", "play 3H", "play 2D", "play 2C"]


def test_sat_7_1_passing_only_after_seven_nil_and_12_4() -> None:
    """SAT-7.1, SAT-12.4: 7-0 → one card next deal, 13-0 → two; a plain win → none."""
    stop = run(rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"]))["result"]
    assert stop["next_passing"] == {"winners": 1, "cards": 1}
    full = run(rec(d1(), thirteen_nil()))["result"]
    assert full["next_passing"] == {"winners": 1, "cards": 2}
    h = suit_deal()
    acts = ["trump S", "pass", "play AS", "play 2H", "play AD", "play AC"]
    st = state_of(rec(h, acts))
    rng = random.Random(0)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    assert st.result()["outcome"] == "win" and st.result()["next_passing"] is None


# --- SAT-8 play --------------------------------------------------------------------------


def test_sat_8_1_8_2_trump_maker_leads_anything() -> None:
    """SAT-8.1, SAT-8.2: the trump maker leads, any card; the trick winner leads next."""
    out = run(rec(suit_deal(), ["trump D"]))
    assert out["to_act"] == 1 and out["legal"] == [f"play {c}" for c in suit_cards("S")]
    out = run(rec(suit_deal(), ["trump D", "play AS", "play 3H", "play 2D", "play AC"]))
    assert out["to_act"] == 3  # the 2D trumped (SAT-8.5)


def test_sat_8_3_2h_free_never_forced() -> None:
    """SAT-8.3 rule 2, SAT-8.4: F plus the 2H; a player whose only heart is the 2H is void."""
    h = [
        ["2H", *suit_cards("C")[:12]],
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "AS", "KS", "QS", "JS", "TS", "9S"],
        ["7H", "6H", "5H", "4H", "3H", "2C", "8S", "7S", "6S", "5S", "4S", "3S", "2S"],
        suit_cards("D"),
    ]
    out = run(rec(h, ["trump D", "play AH"]))
    assert out["legal"] == ["play 7H", "play 6H", "play 5H", "play 4H", "play 3H"]
    out = run(rec(h, ["trump D", "play AH", "play 3H", "play 2D"]))
    assert out["to_act"] == 0 and len(out["legal"]) == 13  # only heart is the 2H: void
    h[0][0], h[2][5] = "2C", "2H"
    out = run(rec(h, ["trump D", "play AH"]))
    assert out["legal"] == ["play 7H", "play 6H", "play 5H", "play 4H", "play 3H", "play 2H"]
    bad = run(rec(h, ["trump D", "play AH", "play 2S"]))
    assert bad["ok"] is False and bad["index"] == 2 and "SAT-8.3" in bad["error"]


def test_sat_8_3_2h_lead_obliges_trumps() -> None:
    """SAT-8.3 rule 1a: after a 2H lead a player with trumps must play a trump."""
    h = d1_mixed()
    out = run(rec(h, ["trump D", "play 2H"]))
    assert out["to_act"] == 2 and len(out["legal"]) == 13  # seat 2 holds no diamond
    out = run(rec(h, ["trump D", "play 2H", "play AH"]))
    assert out["legal"] == [f"play {r}D" for r in RANKS[1:]]  # not the AC
    out = run(rec(h, ["trump D", "play 2H", "play AH", "play KD"]))
    assert out["legal"] == ["play AD"]
    out = run(rec(h, ["trump D", "play 2H", "play AH", "play KD", "play AD"]))
    assert out["to_act"] == 1  # SAT-8.5: the 2H wins
    out = run(rec(h, ["trump S", "pass", "play 2H"]))
    assert out["legal"] == ["play 2S"]


# --- SAT-9 end of play ---------------------------------------------------------------------


def test_sat_9_2_seven_nil_stop() -> None:
    """SAT-9.2, SAT-12.2: 7-0 → continue/stop by trick 7's winner; stop ends 7-0."""
    out = run(rec(d1(), ["trump S", "pass", *seven_spade_tricks()]))
    assert (
        out["phase"] == "continue" and out["to_act"] == 1 and out["legal"] == ["continue", "stop"]
    )
    res = run(rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"]))["result"]
    assert res["outcome"] == "7-0" and res["won_by"] == 1 and res["score"] == [0, 1]
    assert res["tricks"] == [0, 7] and res["next_dealer"] == 2 and res["next_redeals"] == 0


def test_sat_9_3_thirteen_nil() -> None:
    """SAT-9.3, SAT-12.4: continuing and winning all 13 → 13-0, two cards passed next."""
    res = run(rec(d1(), thirteen_nil()))["result"]
    assert res["outcome"] == "13-0" and res["tricks"] == [0, 13] and res["won_by"] == 1
    assert res["next_passing"] == {"winners": 1, "cards": 2} and res["next_dealer"] == 2


def test_sat_9_3_continuation_broken_and_9_4() -> None:
    """SAT-9.3, SAT-9.4: the other side takes a trick → ends at once, still 7-0."""
    h = suit_deal()
    acts = ["trump S", "pass"]
    for i in range(7):
        r = RANKS[i]
        acts += [f"play {r}S", f"play {r}H", f"play {r}D", f"play {r}C"]
    acts += ["continue", "play 6S", "play 2H", "play 6D", "play 6C"]
    res = run(rec(h, acts))["result"]
    assert res["outcome"] == "7-0" and res["tricks"] == [1, 7] and res["won_by"] == 1
    assert res["next_passing"] == {"winners": 1, "cards": 1}
    more = run(rec(h, [*acts, "play 5S"]))
    assert more["ok"] is False and more["index"] == len(acts)  # SAT-18.2


def test_sat_9_1_first_to_seven_wins() -> None:
    """SAT-9.1, SAT-12.2: 7 tricks with the other side on ≥1 ends the deal (outcome win)."""
    h = suit_deal()
    acts = ["trump S", "pass", "play AS", "play 2H", "play AD", "play AC"]  # team 0 wins trick 1
    out = run(rec(h, acts[:6]))
    assert out["to_act"] == 2
    st = state_of(rec(h, acts[:6]))
    rng = random.Random(3)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    res = st.result()
    assert res["outcome"] == "win" and max(res["tricks"]) == 7 and min(res["tricks"]) >= 1
    w = res["won_by"]
    assert res["next_dealer"] == (0 if w == 1 else 1)  # maker's side keeps; else passes left


# --- SAT-12 rotation ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_sat_12_2_rotation_table(seed: int) -> None:
    """SAT-12.2, SAT-12.3, SAT-12.4: next dealer by who won and how; redeals reset."""
    rng = random.Random(seed)
    deck = [CARD_NAMES[c] for c in range(52)]
    rng.shuffle(deck)
    d = seed % 4
    st = state_of({"game": "satat", "dealer": d, "deck": deck, "actions": [], "redeals": 1})
    while not st.is_over:
        legal = [a for a in st.legal_actions() if a.text not in ("redeal", "accept")]
        st.apply(rng.choice(legal))
    res = st.result()
    w, tm_team = res["won_by"], (d + 1) % 2
    expect = {True: d if res["outcome"] == "win" else (d + 2) % 4, False: (d + 1) % 4}[w == tm_team]
    assert res["next_dealer"] == expect and res["next_redeals"] == 0
    assert (res["next_dealer"] % 2) != w  # the new dealer is on the losing side


# --- SAT-13 matches and SAT-3 the draw -------------------------------------------------------------


def _match(deals: list[dict[str, Any]], **keys: Any) -> dict[str, Any]:
    for dl in deals:
        dl.pop("game", None)
    return {"game": "satat", "deals": deals, **keys}


def test_sat_3_draw_picks_first_dealer() -> None:
    """SAT-3.1, SAT-3.2, SAT-3.4: K highest, A lowest; dealer = highest − 1."""
    first = rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"], dealer=0)
    draw = [["AS", "KD", "QH", "2H"]]  # seat 1's K is highest (the A is lowest)
    out = run(_match([dict(first)], draw=draw))
    assert out["ok"] and out["result"]["totals"] == [0, 1]
    bad = run(_match([dict(first)], draw=[["KS", "QD", "AH", "2H"]]))
    assert bad["ok"] is False and bad["deal"] == 0 and bad["index"] is None


def test_sat_3_3_ties_redraw() -> None:
    """SAT-3.3, SAT-3.4: tied seats draw again, others null; the card may reappear."""
    first = rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"], dealer=0)
    draw = [["5S", "KD", "KH", "2H"], [None, "QC", "KD", None]]  # seat 2 wins → dealer 1
    assert run(_match([dict(first)], draw=draw))["deal"] == 0
    draw = [["5S", "KD", "KH", "2H"], [None, "kc", "QD", None]]  # seat 1 wins → dealer 0
    assert run(_match([dict(first)], draw=draw))["ok"]


@pytest.mark.parametrize(
    "draw",
    [
        [],
        "KS",
        [["KS", "QS", "JS"]],
        [["KS", "KS", "JS", "2C"]],
        [["KS", "KD", "JS", "2C"]],  # unresolved tie
        [["KS", "KD", "JS", "2C"], ["QS", "QD", None, None]],  # still tied
        [["KS", "KD", "JS", "2C"], ["QS", "JD", "5C", None]],  # seat 2 not tied
        [["KS", "KD", "JS", "2C"], [None, "JD", None, None]],  # seat 0 missing
        [["KS", "QD", "JS", "2C"], [None, None, None, None]],  # follows a unique highest
        [["KS", "XD", "JS", "2C"]],
        [["KS", 5, "JS", "2C"]],
        [["KS", None, "JS", "2C"]],
    ],
)
def test_sat_3_4_3_5_malformed_draws(draw: Any) -> None:
    """SAT-3.4, SAT-3.5, SAT-13.5: any fault of the draw → malformed match, deal null."""
    first = rec(d1(), [], dealer=3)
    out = run(_match([first], draw=draw))
    assert out["ok"] is False and out["index"] is None and out["deal"] is None


def test_sat_3_5_no_draw_and_draw_in_a_deal() -> None:
    """SAT-3.5: without draw the first dealer is as given; draw in a deal is malformed."""
    for d in range(4):
        assert run(_match([rec(d1(), [], dealer=d)]))["ok"]
    assert run(rec(d1(), [], draw=[["KS", "QD", "JS", "2C"]]))["ok"] is False
    out = run(_match([rec(d1(), [], draw=[["KS", "QD", "JS", "2C"]])]))
    assert out["ok"] is False and out["deal"] == 0


def test_sat_3_new_match_keys_are_valid() -> None:
    """SAT-3.3: generated draws redraw among ties and validate."""
    for seed in range(40):
        keys = GAME.new_match_keys(GAME.normalize_variant({}), random.Random(seed))
        assert GAME.check_match_keys(keys, GAME.normalize_variant({})) == keys


def test_sat_13_match_counting_and_carried_state() -> None:
    """SAT-13.1, SAT-13.2, SAT-13.4, SAT-12.1, SAT-7.1: totals, sevens, thirteens, carry."""
    a = rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"], dealer=0)
    h = suit_deal()
    h[3] = ["AD", "TD", "9D", "8D", "7D", "KD", "QD", "JD", "6D", "5D", "4D", "3D", "2D"]
    b = rec(h, ["redeal"], dealer=2, passing={"winners": 1, "cards": 1})  # tm = 3: no pictures
    c = rec(suit_deal(), ["trump S"], dealer=2, redeals=1, passing={"winners": 1, "cards": 1})
    out = run(_match([a, b, c]))
    assert out["ok"] and out["over"] is False and out["phase"] == "give" and out["to_act"] == 3
    out = run(_match([dict(a), dict(b)]))
    res = out["result"]
    assert res["totals"] == [0, 1] and res["sevens"] == [0, 1] and res["thirteens"] == [0, 0]
    assert res["match_over"] is False and res["winner"] is None and res["draw"] is False
    assert res["outcome"] == "redeal" and res["next_redeals"] == 1


def test_sat_13_1_18_7_match_faults() -> None:
    """SAT-13.1, SAT-13.5, SAT-18.7: wrong dealer, wrong carry, unfinished deal, other variant."""
    a = rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"], dealer=0)
    nxt = rec(suit_deal(), [], dealer=2, passing={"winners": 1, "cards": 1})
    assert run(_match([dict(a), dict(nxt)]))["ok"]
    cases = [
        [dict(a), {**nxt, "dealer": 1}],
        [
            dict(a),
            {k: v for k, v in nxt.items() if k != "passing"}
            | {"passing": {"winners": 0, "cards": 1}},
        ],
        [dict(a), {**nxt, "redeals": 1}],
        [rec(d1(), ["trump S"], dealer=0), dict(nxt)],
        [dict(a), {**nxt, "variant": {"signals": "home"}}],
    ]
    for deals in cases:
        out = run(_match(deals))
        assert out["ok"] is False and out["index"] is None and out["deal"] in (0, 1), deals
    out = run(_match([dict(a), {**nxt, "actions": ["trump C", "give 2S"]}]))
    assert out["ok"] is False and out["deal"] == 1 and out["index"] == 1  # SAT-13.5


def test_sat_4_6_absent_keys_in_a_match_take_the_derived_value() -> None:
    """SAT-4.6: in a match an absent ``passing`` takes the derived value; a given one must
    equal it."""
    a = rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"], dealer=0)
    absent = run(_match([dict(a), rec(suit_deal(), [], dealer=2)]))
    given = run(
        _match([dict(a), rec(suit_deal(), [], dealer=2, passing={"winners": 1, "cards": 1})])
    )
    assert absent["ok"] is True and absent == given
    wrong = run(_match([dict(a), rec(suit_deal(), [], dealer=2, passing=None)]))
    assert wrong["ok"] is False and wrong["deal"] == 1 and wrong["index"] is None


def test_sat_13_3_match_target() -> None:
    """SAT-13.3, SAT-14: match_target 1: the first deal won ends the match; no deal after."""
    a = rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"], dealer=0)
    out = run(_match([dict(a)], variant={"match_target": 1}))
    assert out["result"]["match_over"] is True and out["result"]["winner"] == 1
    nxt = rec(suit_deal(), [], dealer=2, passing={"winners": 1, "cards": 1})
    out = run(_match([dict(a), nxt], variant={"match_target": 1}))
    assert out["ok"] is False and out["deal"] == 1 and out["index"] is None


# --- SAT-14 variants ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        {"signals": "some"},
        {"trup_kasiet": "yes"},
        {"match_target": -1},
        {"match_target": 2.0},
        {"colour": 1},
    ],
)
def test_sat_14_bad_variants(variant: dict[str, Any]) -> None:
    """SAT-14, SAT-18.1: unknown key or bad value → malformed."""
    out = run(rec(suit_deal(), [], variant=variant))
    assert out["ok"] is False and out["index"] is None


# --- SAT-15 Trup Kasiet --------------------------------------------------------------------------


TK = {"trup_kasiet": True}


def test_sat_15_2_trump_phase_and_19_3_privacy() -> None:
    """SAT-15.2, SAT-15.3, SAT-19.3: hide C of the first five; trump private to the maker."""
    h = suit_deal()
    out = run(rec(h, [], variant=TK))
    assert out["legal"] == [f"blind {n}" for n in range(1, 5)] + [
        f"hide {c}" for c in suit_cards("S")[:5]
    ]
    assert run(rec(h, ["trump S"], variant=TK))["ok"] is False
    st = state_of(rec(h, ["hide KS"], variant=TK))
    o0, o1 = st.observation(0), st.observation(1)
    assert o0.history == ("hide ?",) and o0.info["trump"] is None and o0.info["trump_card"] is None
    assert o1.history == ("hide KS",) and o1.info["trump"] == "S" and o1.info["trump_card"] == "KS"
    assert st.hands[1] >> CARD_NAMES.index("KS") & 1  # SAT-15.3: still in his hand
    st = state_of(rec(h, ["blind 3"], variant=TK))
    assert st.observation(0).info["blind"] == 3 and st.observation(0).info["turned"] is None
    assert st.observation(1).info["trump_card"] == "3S"


def test_sat_15_4_known_by_deduction_and_by_the_trump_card() -> None:
    """SAT-15.4: (b) a trick won by the led suit removes other suits; (a) trump card played."""
    h = suit_deal()
    st = state_of(rec(h, ["hide KS", "play AS", "play AH", "play AD"], variant=TK))
    assert st.observation(0).info["trump"] is None
    st.apply("play AC")
    obs = st.observation(0)
    assert (
        obs.info["trump_known"]
        and obs.info["trump"] == "S"
        and obs.info["trump_candidates"] == ["S"]
    )
    st = state_of(rec(h, ["hide KS", "play KS"], variant=TK))
    assert st.observation(2).info["trump"] == "S" and st.observation(2).info["trump_card"] == "KS"
    # a trick won by the 2H teaches nothing
    st = state_of(rec(h, ["hide KS", "play AS", "play 2H", "play AD", "play AC"], variant=TK))
    assert st.observation(0).info["trump_candidates"] == ["C", "S", "H", "D"]
    assert not st.observation(0).info["trump_known"]


def test_sat_15_5_2h_lead_before_known_obliges_nothing() -> None:
    """SAT-15.5: an unknown trump → free play after a 2H lead; known → rule 1a."""
    h = d1_mixed()
    out = run(rec(h, ["hide AS", "play 2H"], variant=TK))
    assert len(out["legal"]) == 13  # seat 2 may keep its 2S
    out = run(rec(h, ["blind 4", "play 2H"], variant=TK))
    assert len(out["legal"]) == 13
    out = run(rec(h, ["hide 2H", "play 2H"], variant=TK))  # leading the trump card itself
    assert out["legal"] == [f"play {r}H" for r in RANKS[:12]]


def test_sat_15_7_no_passing_after_seven_nil() -> None:
    """SAT-15.7, SAT-15.1: 7-0 in Trup Kasiet → next_passing null, rotation unchanged."""
    res = run(rec(d1(), ["hide AS", *seven_spade_tricks(), "stop"], variant=TK))["result"]
    assert res["outcome"] == "7-0" and res["next_passing"] is None and res["next_dealer"] == 2


# --- SAT-16 signals --------------------------------------------------------------------------


def test_sat_16_3_16_7_announce_phase() -> None:
    """SAT-16.3, SAT-16.7, SAT-19.1: the 2H holder may announce; silent stays private."""
    h = suit_deal()
    v = {"signals": "home"}
    st = state_of(rec(h, ["trump D"], variant=v))
    assert st.phase == "announce" and st.to_act == 2 and st.legal_texts() == ["announce", "silent"]
    o0 = st.observation(0)
    assert o0.phase == "play" and o0.to_act == 1 and o0.legal == ()
    st.apply("silent")
    assert st.observation(0).history == ("trump D",)
    assert st.observation(2).history == ("trump D", "silent")
    st = state_of(rec(h, ["trump D", "announce"], variant=v))
    assert st.observation(0).info["announced"] == 2 and st.observation(0).info["known_cards"][
        2
    ] == ["2H"]


def test_sat_16_1_16_2_16_6_play_suffixes() -> None:
    """SAT-16.1, SAT-16.2, SAT-16.6: grate on any card, pile on any but the 2H."""
    h = suit_deal()
    out = run(rec(h, ["trump D", "silent"], variant={"signals": "home"}))
    assert out["legal"][:4] == ["play AS", "play AS grate", "play AS pile", "play KS"]
    out = run(rec(h, ["trump D", "silent", "play AS pile"], variant={"signals": "home"}))
    assert out["legal"][-2:] == ["play 2H", "play 2H grate"]
    bad = run(rec(h, ["trump D", "silent", "play AS", "play 2H pile"], variant={"signals": "home"}))
    assert bad["ok"] is False and "SAT-16.1" in bad["error"]


def test_sat_16_4_16_5_vire_and_lese() -> None:
    """SAT-16.4, SAT-16.5: lese asked of leader − 1 after each lead; vire for the third player."""
    h = suit_deal()
    v = {"signals": "all"}
    out = run(rec(h, ["trump D", "silent", "play AS"], variant=v))
    assert out["phase"] == "lese" and out["to_act"] == 0 and out["legal"] == ["lese", "silent"]
    out = run(rec(h, ["trump D", "silent", "play AS", "lese"], variant=v))
    assert out["to_act"] == 2 and "play AH vire" not in out["legal"]
    out = run(rec(h, ["trump D", "silent", "play AS", "lese", "play AH"], variant=v))
    assert out["to_act"] == 3 and out["legal"][:4] == [
        "play AD",
        "play AD grate",
        "play AD pile",
        "play AD vire",
    ]
    st = state_of(rec(h, ["trump D", "silent", "play AS", "silent"], variant=v))
    assert "silent" in st.observation(2).history[-1:]  # the lese answer is public


def test_sat_16_8_disabled_signals_are_illegal() -> None:
    """SAT-16.8: suffixes and phases not enabled by the variant are illegal."""
    h = suit_deal()
    out = run(rec(h, ["trump D", "play AS grate"]))
    assert out["ok"] is False and out["index"] == 1 and "SAT-16.8" in out["error"]
    out = run(rec(h, ["trump D", "silent", "play AS", "play AH vire"], variant={"signals": "home"}))
    assert out["ok"] is False and out["index"] == 3 and "SAT-16.8" in out["error"]
    out = run(rec(h, ["trump D", "announce"]))
    assert out["ok"] is False and "SAT-16.8" in out["error"]


# --- SAT-17 actions ------------------------------------------------------------------------


def test_sat_17_1_17_2_text_input() -> None:
    """SAT-17.1, SAT-17.2: case, blanks, 10 for T, canonical output."""
    st = state_of(rec(suit_deal(), ["  TRUMP\td ", "Play 10s"]))
    assert st.record()["actions"] == ["trump D", "play TS"]
    st = state_of(rec(suit_deal(), ["blind 04"]))
    assert st.record()["actions"] == ["blind 4"]


@pytest.mark.parametrize(
    "action", ["bid 5", "pass now", "trump X", "play 2S", "play AS", "blind 5", 7, ""]
)
def test_sat_17_3_illegal_actions(action: Any) -> None:
    """SAT-17.3: unknown word, extra argument, card not held, wrong phase → illegal index."""
    out = run(rec(suit_deal(), [action]))
    assert out["ok"] is False and out["index"] == 0 and out["action"] == action


def test_sat_17_3_revoke() -> None:
    """SAT-17.3, SAT-8.3: a revoke is illegal at its index, nothing after is applied."""
    h = d1()
    out = run(rec(h, ["trump D", "play AS", "play AH"]))
    assert out["ok"] is False and out["index"] == 2 and "follow suit S" in out["error"]


def test_sat_18_2_action_after_stop() -> None:
    """SAT-18.2: any action after the deal ended is illegal at its index."""
    acts = ["trump S", "pass", *seven_spade_tricks(), "stop", "play 7S"]
    out = run(rec(d1(), acts))
    assert out["ok"] is False and out["index"] == len(acts) - 1


def test_sat_18_6_no_ties_in_a_deal() -> None:
    """SAT-18.6: 13 tricks, first to 7: a finished played deal always has a single winner."""
    rng = random.Random(5)
    for _ in range(30):
        deck = [CARD_NAMES[c] for c in range(52)]
        rng.shuffle(deck)
        st = state_of({"game": "satat", "dealer": 0, "deck": deck, "actions": []})
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        res = st.result()
        if res["outcome"] != "redeal":
            assert res["tricks"][0] != res["tricks"][1]


def test_sat_18_1_new_deal_checks() -> None:
    """SAT-18, SAT-18.1: the Python API rejects a bad dealer or deck with MalformedRecord."""
    v = GAME.normalize_variant({})
    with pytest.raises(MalformedRecord):
        GAME.new_deal(v, 4, list(range(52)))
    with pytest.raises(MalformedRecord):
        GAME.new_deal(v, 0, [0] * 52)


# --- SAT-19 information ----------------------------------------------------------------------


def test_sat_19_1_private_pass_and_gives() -> None:
    """SAT-19.1: the pass is unseen by others; a give is seen by its receiver after the exchange."""
    h = suit_deal()
    st = state_of(rec(h, ["trump S"]))
    o0 = st.observation(0)
    assert o0.phase == "play" and o0.to_act == 1 and o0.legal == ()  # waiting reveals nothing
    st.apply("pass")
    assert st.observation(0).history == ("trump S",) and st.observation(3).history == (
        "trump S",
        "pass",
    )
    st = state_of(
        rec(h, ["trump D", "give 5S", "give AH", "give 2D"], passing={"winners": 1, "cards": 1})
    )
    assert st.observation(2).history[1:] == ("give ?", "give AH", "give ?")
    st.apply("give AC")
    assert st.observation(2).history[1:] == ("give 5S", "give AH", "give ?", "give ?")
    assert st.observation(2).info["received"] == ["5S"] and st.observation(2).info["gave"] == ["AH"]
    assert st.observation(1).info["known_cards"][2] == ["5S"]
    assert st.observation(0).history[1:] == ("give ?", "give ?", "give 2D", "give AC")


def test_sat_19_2_turned_card_public_until_passed() -> None:
    """SAT-19.2: the turned card is known in the maker's hand until a passing exchange."""
    h = suit_deal()
    r = rec(h, ["blind 1"], passing={"winners": 1, "cards": 1})  # turned 5S, trump S
    st = state_of(r)
    assert st.observation(0).info["known_cards"][1] == ["5S"]
    while not st.exchanged:
        st.apply(st.legal_actions()[0])
    assert st.record()["actions"][2] == "give AS"  # the maker kept the turned 5S
    seen = {s: st.observation(s).info["known_cards"][1] for s in (0, 2, 3)}
    assert seen[0] == [] and seen[3] == []  # no longer known where it is
    # seat 2 received the maker's give (AS), so it knows the 5S stayed; and it gave him AH
    assert seen[2] == ["5S", "AH"]


def test_sat_19_determinize_example() -> None:
    """SAT-19: determinize keeps the seat's hand and the public facts, samples the rest."""
    st = state_of(rec(d1_mixed(), ["trump D", "play 2H", "play AH", "play KD", "play AD"]))
    rng = random.Random(1)
    for seat in range(4):
        obs = st.observation(seat)
        for _ in range(5):
            det = st.determinize(seat, rng)
            assert det.observation(seat) == obs
            assert det.hands[seat] == st.hands[seat]
            # seat 2 showed a diamond void on the 2H lead (SAT-8.3 rule 1a)
            assert not det.hands[2] & (0x1FFF << 39)


def test_sat_1_8_2h_index() -> None:
    """SAT-1.8: the engine's 2H is card 38 (hearts, rank 2)."""
    assert CARD_NAMES[TWO_H] == "2H"


def test_replay_of_a_lone_deal_matches_the_state() -> None:
    """SAT-10, SAT-17.2: the CLI contract through ``replay`` on the state's own record."""
    st = state_of(rec(d1(), ["trump S", "pass", *seven_spade_tricks(), "stop"]))
    assert replay(st.record()) == {"ok": True, "over": True, "result": st.result()}
