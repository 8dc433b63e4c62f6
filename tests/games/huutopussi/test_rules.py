"""Rule-by-rule tests of Huutopussi; each test names the HUU rule IDs it checks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from folkcards.cards import DECK_36, mask_text, parse_card
from folkcards.engine.api import IllegalAction, MalformedRecord, MatchState
from folkcards.engine.records import replay
from folkcards.games import GAMES
from folkcards.games.huutopussi import GAME, HuutopussiState
from folkcards.games.huutopussi.scoring import round5

from .conftest import HANDS4, make_deal

# After this prefix (dealer 3): seat 0 declares with bid 50; partner 2 gives KD QD 7H;
# contract 60; seat 0 returns 6D 6C 7H.  Hands then:
#   0: AH KH QH TH AS KS AC KD QD      1: JH 9H 8H QS JS KC QC AD 7D
#   2: 6H TS 9S TC JC TD 6D 6C 7H      3: 8S 7S 6S 9C 8C 7C JD 9D 8D
P = ["bid 50", "pass", "pass", "pass", "give KD", "give QD", "give 7H", "contract 60"]
P += ["return 6D", "return 6C", "return 7H"]
T1 = ["play AS", "play QS", "play TS", "play 8S"]  # seat 0 leads and wins trick 1
# partner 2 keeps its diamond marriage: gives 7H 6H 9S
P2 = ["bid 50", "pass", "pass", "pass", "give 7H", "give 6H", "give 9S", "contract 60"]
P2 += ["return 6D", "return 6C", "return 7H"]
# seat 0 gets KD QD and returns QD: a half marriage each
P3 = ["bid 50", "pass", "pass", "pass", "give KD", "give QD", "give 7H", "contract 60"]
P3 += ["return QD", "return 6C", "return 6D"]

# One-suit hands: the declarer takes every trick (läpäri, Porvoo, Erlangen calls).
SWEEP = [
    "AS TS KS QS JS 9S 8S 7S 6S",
    "AC TC KC QC JC 9C 8C 7C 6C",
    "AH TH KH QH JH 9H 8H 7H 6H",
    "AD TD KD QD JD 9D 8D 7D 6D",
]


def hand(state: HuutopussiState, seat: int) -> list[str]:
    return mask_text(state.hands[seat])


def sweep_actions(bid: int, contract: int, cards: int = 3) -> list[str]:
    """Bidding and exchange of a SWEEP deal: seat 0 declares, partner 2 gives hearts back and forth."""
    gives = ["give AH", "give TH", "give KH", "give QH"][:cards]
    acts = [f"bid {bid}", "pass", "pass", "pass", *gives, f"contract {contract}"]
    return acts + [g.replace("give", "return") for g in gives]


def finish_sweep(state: HuutopussiState) -> None:
    """Play out a SWEEP deal: the declarer leads its spades, the others play any legal card."""
    while not state.is_over:
        state.apply(state.legal_actions()[-1] if state.phase != "play" else _first_play(state))


def _first_play(state: HuutopussiState) -> Any:
    return next(a for a in state.legal_actions() if a.text.startswith("play"))


# --- HUU-1 deck, ranking, points ----------------------------------------------------------


def test_huu_1_1_the_pack_has_36_cards() -> None:
    """HUU-1.1: 6..A in four suits; a 5 is not a card of the game."""
    assert GAME.deck == DECK_36 and GAME.deck.bit_count() == 36
    s = make_deal(actions=P)
    with pytest.raises(IllegalAction, match="not a card of this deck"):
        s.apply("play 5S")


def test_huu_1_2_ten_beats_king_and_output_uses_plain_order(deal: Any) -> None:
    """HUU-1.2: A > T > K; seat 2 must beat its partner's KS with TS; lists in plain order."""
    s = deal(actions=P)
    s.apply("play KS")
    s.apply("play QS")  # seat 1 cannot beat KS: any spade
    assert s.legal_texts() == ["play TS"]  # the ten beats the king and must be played
    s = deal(actions=P)
    assert s.legal_texts().index("play QH") < s.legal_texts().index("play TH")


def test_huu_1_3_1_4_9_1_card_points_and_last_trick(deal: Any) -> None:
    """HUU-1.3, HUU-1.4, HUU-9.1: the sweep deal gives all 140 card points + 20 to seat 0's team."""
    s = deal(SWEEP, sweep_actions(50, 100))
    finish_sweep(s)
    res = s.result()
    assert res["points"] == [160, 0] and res["tricks"] == [9, 0]
    s = deal(SWEEP, sweep_actions(50, 100), variant={"last_trick": 10})
    finish_sweep(s)
    assert s.result()["points"] == [150, 0]  # HUU-11.2


def test_huu_1_5_11_3_marriage_values(deal: Any) -> None:
    """HUU-1.5 (S 40, C 60, D 80, H 100) and HUU-11.3 bridge (S 100, H 80, D 60, C 40)."""
    for variant, value in (({}, 100), ({"marriage_values": "bridge"}, 80)):
        s = deal(actions=[*P, *T1, "declare H"], variant=variant)
        assert s.marriages == [value, 0]
    s = deal(actions=[*P, *T1, "declare D"], variant={"marriage_values": "bridge"})
    assert s.marriages == [60, 0]


@pytest.mark.parametrize(
    ("variant", "top"),
    [
        ({}, 440),
        ({"card_points": "11-10-4-3-2"}, 420),
        ({"card_points": "11-10-4-3-2", "last_trick": 10}, 410),
        ({"last_trick": 10}, 430),
        ({"erlangen": True}, 420),
    ],
)
def test_huu_1_6_max_bounds_bids(deal: Any, variant: dict[str, Any], top: int) -> None:
    """HUU-1.6, HUU-12.1: MAX = 4 × (A+T+K+Q+J) + last trick + 280."""
    s = deal(variant=variant)
    bids = [t for t in s.legal_texts() if t.startswith("bid")]
    assert bids[-1] == f"bid {top}"
    assert s.rules.max_bid == top


# --- HUU-2 seats, HUU-3 dealing -------------------------------------------------------------


def test_huu_2_1_2_2_teams_and_partners(deal: Any) -> None:
    """HUU-2.1, HUU-2.2: seats 0/2 and 1/3; the partner of the declarer gives."""
    s = deal(actions=["bid 50", "pass", "bid 55", "pass", "pass"])
    assert s.declarer == 2 and s.to_act == 0 and s.phase == "give"
    assert [s.team_of(x) for x in range(4)] == [0, 1, 0, 1]


def test_huu_2_3_three_player_partners() -> None:
    """HUU-2.3: 3 players; the two opponents are partners for asks, the declarer has none."""
    s = GAME.random_deal(random.Random(2), {"players": 3}, dealer=0)
    s.apply("bid 50")
    s.apply("pass")
    s.apply("pass")
    assert s.declarer == 1 and s.partner_of(1) == -1
    assert s.partner_of(0) == 2 and s.partner_of(2) == 0
    assert [s.team_of(x) for x in range(3)] == [0, 1, 2]


def test_huu_3_1_3_2_one_at_a_time_from_eldest() -> None:
    """HUU-3.1, HUU-3.2: deck[i] goes to seat (dealer + 1 + i) mod 4; the record keeps the deck."""
    deck = [c for c in range(52) if DECK_36 >> c & 1]
    random.Random(5).shuffle(deck)
    s = GAME.new_deal(GAME.normalize_variant({}), 2, deck)
    for i, c in enumerate(deck):
        assert s.hands[(2 + 1 + i) % 4] >> c & 1
    assert s.to_act == 3
    assert [parse_card(t) for t in s.record()["deck"]] == deck


def test_huu_3_3_13_1_three_player_deal_and_widow() -> None:
    """HUU-3.3, HUU-13.1: 11 cards each from eldest, the last three cards are the widow."""
    deck = [c for c in range(52) if DECK_36 >> c & 1]
    random.Random(6).shuffle(deck)
    s = GAME.new_deal(GAME.normalize_variant({"players": 3}), 1, deck)
    for i, c in enumerate(deck[:33]):
        assert s.hands[(1 + 1 + i) % 3] >> c & 1
    assert s.widow == tuple(deck[33:])
    assert [h.bit_count() for h in s.hands] == [11, 11, 11]


def test_huu_3_4_hands_keep_record_order(deal: Any) -> None:
    """HUU-3.4: a hands record round-trips in the order given; output lists are sorted."""
    s = deal()
    assert s.record()["hands"] == [h.split() for h in HANDS4]
    assert s.observation(0).to_dict()["hand"] == sorted(HANDS4[0].split(), key=parse_card)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"hands": [h.split() for h in HANDS4[:3]]}, "list of 4 hands"),
        ({"hands": [*[h.split() for h in HANDS4[:3]], HANDS4[3].split()[:8]]}, "pack"),
        ({"extra": {"widow": []}}, "extra"),
        ({"hands": [*[h.split() for h in HANDS4[:3]], [*HANDS4[3].split()[:8], "AH"]]}, "twice"),
    ],
)
def test_huu_3_5_17_1_bad_hands_are_malformed(change: dict[str, Any], fragment: str) -> None:
    """HUU-3.5, HUU-17.1: hands must be exactly the pack, 9 each, no 4-player extra."""
    rec = {"game": "huutopussi", "dealer": 0, "hands": [h.split() for h in HANDS4], "actions": []}
    rec.update(change)
    out = replay(rec)
    assert out["ok"] is False and out["index"] is None and fragment in out["error"]


def test_huu_3_5_three_player_widow_required() -> None:
    """HUU-3.5: a 3-player hands record needs exactly extra.widow of 3 cards."""
    cards = [c for c in range(52) if DECK_36 >> c & 1]
    names = mask_text(sum(1 << c for c in cards))
    rec: dict[str, Any] = {
        "game": "huutopussi",
        "variant": {"players": 3},
        "dealer": 0,
        "hands": [names[0:11], names[11:22], names[22:33]],
        "actions": [],
    }
    assert replay(rec)["ok"] is False
    rec["extra"] = {"widow": names[33:]}
    assert replay(rec)["ok"] is True
    rec["extra"] = {"widow": names[33:], "blind": []}
    assert replay(rec)["ok"] is False


# --- HUU-4 bidding ---------------------------------------------------------------------------


def test_huu_4_1_4_2_4_3_opening_and_steps(deal: Any) -> None:
    """HUU-4.1–4.3: eldest must bid ≥ 50 in fives; then each bid is ≥ previous + 5."""
    s = deal()
    legal = s.legal_texts()
    assert s.to_act == 0 and legal[0] == "bid 50" and "pass" not in legal
    assert all(int(t.split()[1]) % 5 == 0 for t in legal if t.startswith("bid"))
    with pytest.raises(IllegalAction, match=r"HUU-4.3"):
        s.apply("pass")
    s.apply("bid 100")
    assert s.to_act == 1 and s.legal_texts()[0] == "bid 105" and "pass" in s.legal_texts()
    with pytest.raises(IllegalAction, match=r"HUU-4.2"):
        s.apply("bid 100")
    with pytest.raises(IllegalAction, match=r"HUU-4.2"):
        s.apply("bid 52")
    s.apply("bid 105")  # overbid anyone
    s.apply("bid 110")  # even the partner
    assert s.high == 110 and s.high_seat == 2


def test_huu_4_4_4_5_pass_is_final_and_440_waits(deal: Any) -> None:
    """HUU-4.4, HUU-4.5: a passed seat is skipped; at 440 later seats still pass in turn."""
    s = deal(actions=["bid 50", "pass", "bid 60"])
    assert s.to_act == 3
    s.apply("bid 440")
    assert s.to_act == 0 and s.legal_texts() == ["pass"]
    s.apply("pass")
    assert s.to_act == 2  # seat 1 passed before: skipped
    s.apply("pass")
    assert s.declarer == 3 and s.bid == 440 and s.phase == "give" and s.to_act == 1


def test_huu_4_6_redeal_first_turn_only_and_qualifying_hands(deal: Any) -> None:
    """HUU-4.6, HUU-17.3: seat 3 (no card above a jack) may ask at its first turn only."""
    s = deal()
    assert "redeal" not in s.legal_texts()  # seat 0 holds aces
    s = deal(actions=["bid 50", "pass", "pass"])
    assert s.legal_texts()[-1] == "redeal"
    s.apply("redeal")
    res = s.result()
    assert s.is_over and res["redeal"] is True and res["redeal_by"] == 3 and res["score"] == [0, 0]
    assert res["declarer"] is None and res["trumps"] == [] and res["no_tricks"] == []
    s = deal(actions=["bid 50", "pass", "pass", "bid 55", "bid 60"])
    assert s.to_act == 3 and "redeal" not in s.legal_texts()  # its second turn
    sixes = [
        "6S 6H 6D AS KS QS JS TS 9S",
        "AH KH QH JH TH 9H 8H 7H AC",
        "KC QC JC TC 9C 8C 7C 6C AD",
        "KD QD JD TD 9D 8D 7D 8S 7S",
    ]
    s = deal(sixes, dealer=3)
    assert "redeal" in s.legal_texts()  # three sixes


def test_huu_4_7_huutokielto(deal: Any) -> None:
    """HUU-4.7: a side at −500 or below may only make eldest's compulsory bid 50, else pass."""
    s = deal(totals=[-500, 0])
    assert s.legal_texts() == ["bid 50"]
    s.apply("bid 50")
    assert s.legal_texts()[0] == "bid 55"  # seat 1 is not banned
    s.apply("bid 55")
    assert s.legal_texts() == ["pass"]  # seat 2 is banned
    with pytest.raises(IllegalAction, match=r"HUU-4.7"):
        s.apply("bid 60")
    s = deal(totals=[0, -600], actions=["bid 50"])
    assert s.legal_texts() == ["pass"]
    s = deal(totals=[-500, 0], variant={"erlangen": True})
    assert s.legal_texts() == ["pass"]  # HUU-12.10
    s = deal(totals=[0, -500], actions=["bid 50", "pass", "pass"])
    assert s.legal_texts() == ["pass", "redeal"]  # HUU-12.10 / 4.7: redeal still allowed


# --- HUU-5 exchange, HUU-6 widow -------------------------------------------------------------


def test_huu_5_1_to_5_4_exchange(deal: Any) -> None:
    """HUU-5.1, HUU-5.2, HUU-5.3, HUU-5.4, HUU-17.5: give ×3 by the partner, contract ≥ bid, return ×3, then play."""
    s = deal(actions=["bid 50", "pass", "pass", "pass"])
    assert s.phase == "give" and s.to_act == 2
    assert s.legal_texts() == [
        "give JC",
        "give TC",
        "give TS",
        "give 9S",
        "give 7H",
        "give 6H",
        "give KD",
        "give QD",
        "give TD",
    ]
    s.apply("give KD")
    assert s.hands[2].bit_count() == 8 and s.hands[0].bit_count() == 9
    with pytest.raises(IllegalAction, match=r"HUU-5.1"):
        s.apply("give KD")
    s.apply("give QD")
    s.apply("give 7H")
    assert s.phase == "contract" and s.to_act == 0 and s.hands[0].bit_count() == 12
    assert s.legal_texts()[0] == "contract 50" and s.legal_texts()[-1] == "contract 440"
    s.apply("contract 60")
    assert s.phase == "return" and s.to_act == 0
    assert "return KD" in s.legal_texts()  # a card just received may go back
    for c in ("KD", "6C", "6D"):
        s.apply(f"return {c}")
    assert s.phase == "play" and s.to_act == 0
    assert [h.bit_count() for h in s.hands] == [9, 9, 9, 9]
    assert s.hands[2] >> parse_card("KD") & 1


def test_huu_5_2_contract_not_below_final_bid(deal: Any) -> None:
    """HUU-5.2: the contract is a multiple of 5 from the final bid to MAX."""
    s = deal(actions=["bid 50", "bid 80", "pass", "pass", "pass", "give 8S", "give 7S", "give 6S"])
    assert s.legal_texts()[0] == "contract 80"
    with pytest.raises(IllegalAction, match=r"HUU-5.2"):
        s.apply("contract 75")


THREE = [
    "AS TS KS QS JS 9S 8S 7S 6S AH TH",
    "KH QH JH 9H 8H 7H 6H AC TC KC QC",
    "JC 9C 8C 7C 6C AD TD KD QD JD 9D",
]


def test_huu_6_1_to_6_3_13_2_widow_discards_contract() -> None:
    """HUU-6.1, HUU-6.2, HUU-6.3, HUU-13.2: the widow joins the declarer's hand, shown to all; 3 discards
    seen by the declarer only; then the contract; the declarer leads trick 1."""
    s = make_deal(THREE, ["bid 50", "pass", "pass"], {"players": 3}, dealer=2, widow="8D 7D 6D")
    assert s.declarer == 0 and s.phase == "discard" and s.hands[0].bit_count() == 14
    assert s.observation(1).info["widow"] == ["8D", "7D", "6D"]
    for c in ("8D", "7D", "AH"):
        s.apply(f"discard {c}")
    assert s.phase == "contract" and s.hands[0].bit_count() == 11
    assert (
        s.observation(1).history[-1] == "discard ?" and s.observation(0).history[-1] == "discard AH"
    )
    s.apply("contract 100")
    assert s.phase == "play" and s.to_act == 0


# --- HUU-7 play ------------------------------------------------------------------------------


def test_huu_7_1_7_2_declarer_leads_no_trump_at_start(deal: Any) -> None:
    """HUU-7.1, HUU-7.2: the declarer leads trick 1 and there is no trump yet."""
    s = deal(actions=P)
    assert s.to_act == 0 and s.trump == -1 and s.observation(1).info["trump"] is None


UNDER = [
    "KH QH AS KS QS AC KC QC JC",
    "AH TH AD KD QD JD TD 9D 8D",
    "7H 6H TC 9C 8C 7C 6C 7D 6D",
    "JS TS 9S 8S 7S 6S JH 9H 8H",
]
UNDER_P = [
    "bid 50",
    "pass",
    "pass",
    "pass",
    "give TC",
    "give 9C",
    "give 8C",
    "contract 50",
    "return TC",
    "return 9C",
    "return 8C",
]


def test_huu_7_3_follow_trump_beat_and_under_trump(deal: Any) -> None:
    """HUU-7.3: void and no trump → any card; void with trumps → must trump; a trumped
    trick → any card of the led suit; unable to over-trump → under-trump compulsory."""
    s = deal(UNDER, UNDER_P)
    s.apply("play AC")
    assert len(s.legal_texts()) == 9  # seat 1: no clubs, no trump yet: any card
    s.apply("play 8D")
    assert s.legal_texts() == ["play TC", "play 9C", "play 8C", "play 7C", "play 6C"]
    s.apply("play 6C")
    s.apply("play 6S")
    s.apply("declare H")
    s.apply("play AS")
    assert s.legal_texts() == ["play AH", "play TH"]  # must trump
    s.apply("play TH")
    assert s.legal_texts() == ["play 7H", "play 6H"]  # must under-trump
    s.apply("play 6H")
    assert len(s.legal_texts()) == 5  # the trick is trumped: any spade
    s = deal(UNDER, UNDER_P)
    for a in ("play AC", "play 8D", "play 6C", "play 6S", "declare H", "play AS", "play AH"):
        s.apply(a)
    with pytest.raises(IllegalAction, match=r"HUU-7.3"):
        s.apply("play 7C")


def test_huu_7_4_7_5_trick_winner_leads(deal: Any) -> None:
    """HUU-7.4, HUU-7.5: the highest trump wins, else the highest of the led suit."""
    s = deal(UNDER, UNDER_P)
    for a in (
        "play AC",
        "play 8D",
        "play 6C",
        "play 6S",
        "declare H",
        "play AS",
        "play TH",
        "play 6H",
        "play JS",
    ):
        s.apply(a)
    assert s.tricks == [1, 1] and s.to_act == 1  # TH (trump) beat AS
    assert s.points == [10, 25]  # AC; then AS + TH + JS


def test_huu_7_6_declaring_does_not_end_the_turn(deal: Any) -> None:
    """HUU-7.6: after a declaration the same seat acts again and must play."""
    s = deal(actions=[*P, *T1])
    s.apply("declare H")
    assert s.to_act == 0 and s.phase == "play"
    assert all(t.startswith("play") for t in s.legal_texts())


# --- HUU-8 trump declarations ----------------------------------------------------------------


def test_huu_8_1_window_needs_leading_and_winning(deal: Any) -> None:
    """HUU-8.1: the declarer after trick 1; a winner who did not lead gets no window."""
    s = deal(actions=P)
    assert not any(t.startswith(("declare", "ask")) for t in s.legal_texts())  # before trick 1
    s = deal(actions=[*P, *T1])
    assert "declare H" in s.legal_texts() and s.observation(0).info["window"] is True
    s.apply("declare D")
    for a in ("play AH", "play 8H", "play 6H", "play 8D"):  # seat 3 trumps: won, not led
        s.apply(a)
    assert s.to_act == 3 and s.observation(3).info["window"] is False
    assert all(t.startswith("play") for t in s.legal_texts())


def test_huu_8_2_one_attempt_per_window(deal: Any) -> None:
    """HUU-8.2: an attempt closes the window whatever its outcome."""
    s = deal(actions=[*P, *T1, "ask half S"])
    assert s.legal_texts() == ["answer no"]
    s.apply("answer no")
    assert s.to_act == 0 and all(t.startswith("play") for t in s.legal_texts())
    with pytest.raises(IllegalAction, match=r"HUU-8.1"):
        s.apply("declare H")


def test_huu_8_3_own_marriage(deal: Any) -> None:
    """HUU-8.3: KX and QX in hand make X trump; without both, no declare."""
    s = deal(actions=[*P, *T1])
    legal = s.legal_texts()
    assert "declare H" in legal and "declare D" in legal and "declare S" not in legal
    s.apply("declare H")
    assert s.trump == 2 and s.observation(3).info["trump"] == "H"


def test_huu_8_4_ask_partner_for_a_marriage(deal: Any) -> None:
    """HUU-8.4, HUU-8.10: the partner names its marriage; the asker's marriages break."""
    s = deal(actions=[*P2, *T1, "ask marriage"])
    assert s.phase == "answer" and s.to_act == 2 and s.legal_texts() == ["answer D"]
    s.apply("answer D")
    assert s.trump == 3 and s.to_act == 0 and s.phase == "play" and s.marriages == [80, 0]
    assert s.broken == 1  # seat 0 broken, seat 2 not
    s = deal(actions=[*P, *T1, "ask marriage"])
    assert s.legal_texts() == ["answer no"]  # seat 2 gave its marriage away
    s.apply("answer no")
    assert s.trump == -1 and s.broken == 0  # HUU-8.6: an unsuccessful ask breaks nothing


def test_huu_8_5_ask_for_the_other_half(deal: Any) -> None:
    """HUU-8.5: with exactly one of KX/QX; `answer yes` makes X trump and breaks both."""
    s = deal(actions=[*P3, *T1])
    legal = s.legal_texts()
    assert "ask half D" in legal and "ask half S" in legal and "ask half H" not in legal
    s.apply("ask half D")
    assert s.legal_texts() == ["answer yes"]
    s.apply("answer yes")
    assert s.trump == 3 and s.broken == 0b101 and s.marriages == [80, 0]


def test_huu_8_6_broken_marriages(deal: Any) -> None:
    """HUU-8.6: a broken seat cannot declare, its partner cannot ask it for a marriage,
    but half asks remain."""
    s = deal(actions=[*P2, *T1, "ask marriage", "answer D"])
    # seat 0 wins trick 2 as leader: KH QH still in hand but its marriages are broken
    for a in ("play AC", "play KC", "play TC", "play 9C"):
        s.apply(a)
    legal = s.legal_texts()
    assert s.to_act == 0 and "declare H" not in legal and "ask half S" in legal
    assert "ask marriage" in legal  # seat 2 is not broken
    s = deal(actions=[*P3, *T1, "ask half D", "answer yes"])
    for a in ("play AC", "play KC", "play TC", "play 9C"):
        s.apply(a)
    legal = s.legal_texts()
    assert "declare H" not in legal and "ask marriage" not in legal and "ask half S" in legal


def test_huu_8_7_8_8_each_suit_once_and_trump_changes(deal: Any) -> None:
    """HUU-8.7, HUU-8.8: a suit once trump never again; a new declaration replaces the trump."""
    s = deal(actions=[*P, *T1, "declare H", "play AC", "play KC", "play TC", "play 9C"])
    legal = s.legal_texts()
    assert "declare H" not in legal and "declare D" in legal
    s.apply("declare D")
    assert s.trump == 3 and s.used == 0b1100
    res_trumps = [x for _, x, _ in s.declarations]
    assert res_trumps == [2, 3]


def test_huu_8_9_values_go_to_the_attempting_side(deal: Any) -> None:
    """HUU-8.9: every successful declaration counts, for the side of the seat that made it."""
    s = deal(
        actions=[*P, *T1, "declare H", "play AC", "play KC", "play TC", "play 9C", "declare D"]
    )
    assert s.marriages == [180, 0]
    while not s.is_over:
        s.apply(s.legal_actions()[-1] if s.phase == "answer" else _first_play(s))
    res = s.result()
    assert res["marriages"] == [180, 0] and res["trumps"] == ["H", "D"]


# --- HUU-9 scoring -----------------------------------------------------------------------------


def _sweep_result(
    variant: dict[str, Any], bid: int, contract: int, calls: tuple[str, ...] = ()
) -> dict[str, Any]:
    cards = 4 if variant.get("erlangen") else 3
    gives = ["give AH", "give TH", "give KH", "give QH"][:cards]
    acts = [f"bid {bid}", "pass", "pass", "pass", *gives, f"contract {contract}"]
    acts += [g.replace("give", "return") for g in gives]
    s = make_deal(SWEEP, acts, variant)
    s.apply("play AS")
    for call in calls:
        s.apply(call)
        s.apply(_first_play(s))
    finish_sweep(s)
    return s.result()


def test_huu_9_2_9_4_lapari_loses_the_final_bid() -> None:
    """HUU-9.2, HUU-9.4: made → +contract; trickless opponents score −final bid (läpäri)."""
    res = _sweep_result({}, 50, 100)
    assert res["made"] is True and res["score"] == [100, -50] and res["no_tricks"] == [1]
    res = _sweep_result({}, 50, 440)
    assert res["made"] is False and res["score"] == [-440, -50]


def test_huu_9_3_opponents_score_their_total(deal: Any) -> None:
    """HUU-9.3: failed or made, the opponents score points + marriages."""
    s = deal(actions=[*P, *T1, "declare H"])
    while not s.is_over:
        s.apply(_first_play(s) if s.phase == "play" else s.legal_actions()[0])
    res = s.result()
    team = 1
    assert res["score"][team] == res["points"][team] + res["marriages"][team]
    assert res["score"][0] == (60 if res["made"] else -60)
    assert res["made"] == (res["points"][0] + res["marriages"][0] >= 60)


def test_huu_11_4_porvoo() -> None:
    """HUU-11.4: a trickless side scores −contract instead (declarer's side: like failing)."""
    res = _sweep_result({"no_trick_rule": "porvoo"}, 50, 100)
    assert res["score"] == [100, -100]


def test_huu_9_5_result_keys() -> None:
    """HUU-9.5: the result object's keys."""
    res = _sweep_result({}, 50, 100)
    assert set(res) == {
        "score",
        "redeal",
        "redeal_by",
        "declarer",
        "bid",
        "contract",
        "made",
        "tricks",
        "points",
        "marriages",
        "trumps",
        "calls",
        "no_tricks",
    }
    assert (
        res["declarer"] == 0 and res["bid"] == 50 and res["contract"] == 100 and res["calls"] == 0
    )


# --- HUU-10 match ------------------------------------------------------------------------------


def _finished_sweep(variant: dict[str, Any] | None = None) -> HuutopussiState:
    s = make_deal(SWEEP, sweep_actions(50, 100), variant or {})  # +100 / −50
    finish_sweep(s)
    return s


@pytest.mark.parametrize(
    ("before", "tie", "over", "winner", "draw"),
    [
        ([300, 100], "draw", False, None, False),
        ([450, 400], "draw", True, 0, False),
        ([450, 600], "draw", True, None, True),
        ([450, 600], "extra_deal", False, None, False),
        ([-700, 900], "draw", True, 1, False),
        ([450, 560], "draw", True, 0, False),
    ],
)
def test_huu_10_1_10_2_match_end(
    before: list[int], tie: str, over: bool, winner: int | None, draw: bool
) -> None:
    """HUU-10.1, HUU-10.2: the dealer moves left; 500 alone wins; a tie draws or plays on."""
    deal = _finished_sweep({"tie": tie} if tie != "draw" else {})
    ms = MatchState(totals=before, next_dealer=3, carry={"totals": before})
    after = GAME.after_deal(ms, deal)
    assert after.totals == [before[0] + 100, before[1] - 50]
    assert after.next_dealer == 0 and after.carry == {"totals": after.totals}
    assert (after.over, after.winner, after.draw) == (over, winner, draw)


def test_huu_13_5_three_player_tie_plays_on() -> None:
    """HUU-13.5: with 3 players a shared top total ≥ 500 means another deal."""
    s = make_deal(
        THREE,
        ["bid 50", "pass", "pass", "discard 8D", "discard 7D", "discard 6D", "contract 150"],
        {"players": 3},
        dealer=2,
        widow="8D 7D 6D",
    )
    finish_sweep(s)
    res = s.result()
    ms = MatchState(totals=[350, 500, 10], next_dealer=2, carry={})
    after = GAME.after_deal(ms, s)
    assert after.totals == [500, 500 + res["score"][1], 10 + res["score"][2]]
    assert res["score"] == [150, -50, -50]
    ms = MatchState(totals=[350, 550, 0], next_dealer=2, carry={})
    after = GAME.after_deal(ms, s)
    assert after.totals[0] == after.totals[1] == 500 and not after.over


def test_huu_10_3_totals_key(deal: Any) -> None:
    """HUU-10.3: a lone deal's `totals` decide huutokielto; a bad value is malformed."""
    rec = {
        "game": "huutopussi",
        "dealer": 3,
        "hands": [h.split() for h in HANDS4],
        "actions": [],
        "totals": [-500, 10],
    }
    assert replay(rec)["legal"] == ["bid 50"]
    for bad in ([1], [1.0, 2], "x", [True, 0]):
        rec["totals"] = bad
        out = replay(rec)
        assert out["ok"] is False and out["index"] is None and "totals" in out["error"]


def _match_record(deals: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return {"game": "huutopussi", "deals": deals, **top}


def test_huu_10_3_totals_derived_in_a_match() -> None:
    """HUU-10.3, HUU-4.7: a deal in a match that leaves out `totals` gets the derived ones."""
    rec = winning_match()
    last = rec["deals"][-1]
    assert "totals" in last  # the engine writes them when they are not 0
    stripped = [{k: v for k, v in d.items() if k != "totals"} for d in rec["deals"]]
    assert replay({**rec, "deals": stripped}) == replay(rec)
    from folkcards.engine.records import load_match

    deals = load_match({**rec, "deals": stripped}).deals
    assert deals[-1].observation(0).carry == {"totals": [480, -150]}
    assert GAME.all_actions(GAME.normalize_variant({}))[0].text == "answer C"


def test_huu_10_4_match_replay_checks() -> None:
    """HUU-10.4: wrong dealer, an unfinished deal before the last, a variant that differs,
    a present totals that differs → malformed with the deal's index; results add totals."""
    first = _finished_sweep().record()
    del first["game"]
    second = {"dealer": 0, "hands": [h.split() for h in HANDS4], "actions": ["bid 50"]}
    out = replay(_match_record([first, second]))
    assert out == {
        "ok": True,
        "over": False,
        "to_act": 2,
        "phase": "bidding",
        "legal": replay({**second, "game": "huutopussi"})["legal"],
    }
    out = replay(_match_record([first, {**second, "dealer": 2}]))
    assert out["ok"] is False and out["deal"] == 1 and out["index"] is None
    out = replay(_match_record([second, first]))
    assert out["ok"] is False and out["deal"] == 0 and "not finished" in out["error"]
    out = replay(_match_record([first, {**second, "variant": {"tie": "extra_deal"}}]))
    assert out["ok"] is False and out["deal"] == 1
    out = replay(_match_record([first, {**second, "totals": [0, 0]}]))
    assert out["ok"] is False and out["deal"] == 1 and "totals" in out["error"]
    out = replay(_match_record([first, {**second, "totals": [100, -50]}]))
    assert out["ok"] is True
    out = replay(_match_record([first, {**second, "actions": ["bid 50", "bid 52"]}]))
    assert (
        out["ok"] is False and out["deal"] == 1 and out["index"] == 1 and out["action"] == "bid 52"
    )
    out = replay(_match_record([first]))
    assert out["result"]["totals"] == [100, -50] and out["result"]["match_over"] is False
    assert out["result"]["winner"] is None and out["result"]["draw"] is False


SIXES_HAND = [
    "6S 6H 6D AS KS QS JS TS 9S",
    "AH KH QH JH TH 9H 8H 7H AC",
    "KC QC JC TC 9C 8C 7C 6C AD",
    "KD QD JD TD 9D 8D 7D 8S 7S",
]


def winning_match() -> dict[str, Any]:
    """Team 0 sweeps (contract 160 made, läpäri −50) whenever its seat is eldest; a team-1
    eldest holding three sixes asks for a redeal. 4 sweeps: 640 to −200 after 7 deals."""
    from folkcards.engine.match import Match

    m = Match(GAME, {}, dealer=3)
    for k in range(7):
        eldest = k % 4
        layout = SWEEP if k % 2 == 0 else SIXES_HAND
        hands = [layout[(seat - eldest) % 4] for seat in range(4)]
        st = GAME.new_deal(
            m.variant,
            (3 + k) % 4,
            None,
            hands=[[parse_card(c) for c in h.split()] for h in hands],
            carry=dict(m.state.carry),
        )
        m.deals.append(st)
        if k % 2 == 0:
            for a in sweep_actions(50, 160):
                st.apply(a)
            finish_sweep(st)
        else:
            st.apply("redeal")
        m.finish_deal()
    assert m.is_over
    return m.record()


def test_huu_10_2_10_4_a_scripted_match_to_500() -> None:
    """HUU-10.1–10.4, HUU-4.6: sweeps and redeals; the match ends at 640; nothing may follow."""
    rec = winning_match()
    out = replay(rec)
    assert out["ok"] is True and out["result"]["totals"] == [640, -200]
    assert out["result"]["match_over"] is True and out["result"]["winner"] == 0
    assert [d["dealer"] for d in rec["deals"]] == [3, 0, 1, 2, 3, 0, 1]
    extra = {"dealer": 2, "hands": [h.split() for h in HANDS4], "actions": []}
    out = replay({**rec, "deals": [*rec["deals"], extra]})
    assert out["ok"] is False and out["deal"] == 7 and "over" in out["error"]
    assert rec["deals"][2]["totals"] == [160, -50]


# --- HUU-11 variants ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        {"erlangen": True, "players": 3},
        {"erlangen": True, "card_points": "11-10-4-3-2"},
        {"erlangen": True, "last_trick": 20},
        {"erlangen": True, "no_trick_rule": "porvoo"},
        {"players": 3, "tie": "draw"},
        {"players": 3, "no_trick_rule": "lapari"},
        {"players": 5},
        {"card_points": "10-10-10"},
        {"erlangen": 1},
        {"bogus": 1},
    ],
)
def test_huu_11_5_bad_variants(variant: dict[str, Any]) -> None:
    """HUU-11.5, HUU-17.1: forbidden combinations and bad values are malformed."""
    out = replay(
        {
            "game": "huutopussi",
            "variant": variant,
            "dealer": 0,
            "hands": [h.split() for h in HANDS4],
            "actions": [],
        }
    )
    assert out["ok"] is False and out["index"] is None


def test_huu_11_1_11_2_point_schemes() -> None:
    """HUU-11.1, HUU-11.2: 11-10-4-3-2 sums 120; last trick 10."""
    res = _sweep_result({"card_points": "11-10-4-3-2", "last_trick": 10}, 50, 100)
    assert res["points"] == [130, 0]


def test_huu_11_5_a_complete_normalized_variant_is_accepted() -> None:
    """HUU-11.5: a normalized variant (every key, fixed keys at their defaults), or a dict copy
    of it as Match and records hand it back, re-normalizes; a key set by hand is 'given'."""
    for raw in ({"erlangen": True}, {"players": 3}):
        v = GAME.normalize_variant(raw)
        assert GAME.normalize_variant(dict(v)) == v
    with pytest.raises(MalformedRecord):
        GAME.normalize_variant({**GAME.normalize_variant({"erlangen": True}), "last_trick": 10})


# --- HUU-12 Erlangen ------------------------------------------------------------------------------

ERL = {"erlangen": True}


def test_huu_12_1_12_2_min_bid_and_all_pass(deal: Any) -> None:
    """HUU-12.1, HUU-12.2: bids from 120; eldest may pass; all pass → play without contract."""
    s = deal(variant=ERL)
    assert s.legal_texts()[0] == "bid 120" and "pass" in s.legal_texts()
    for _ in range(4):
        s.apply("pass")
    assert s.phase == "play" and s.to_act == 0 and s.declarer == -1
    while not s.is_over:
        s.apply(_first_play(s))
    res = s.result()
    assert res["declarer"] is None and res["contract"] is None and res["made"] is None
    assert res["score"] == [round5(res["points"][t] + res["marriages"][t]) for t in (0, 1)]
    assert sum(res["points"]) == 140


def test_huu_12_3_four_card_exchange(deal: Any) -> None:
    """HUU-12.3: four cards each way."""
    s = deal(variant=ERL, actions=["bid 120", "pass", "pass", "pass"])
    for c in ("KD", "QD", "TD", "7H"):
        s.apply(f"give {c}")
    assert s.phase == "contract" and s.hands[0].bit_count() == 13
    s.apply("contract 120")
    for c in ("6C", "6D", "7H", "TD"):
        s.apply(f"return {c}")
    assert s.phase == "play" and [h.bit_count() for h in s.hands] == [9] * 4


def test_huu_12_4_first_trick_aces_and_spades(deal: Any) -> None:
    """HUU-12.4: lead an ace if any, else a spade; a follower with the led suit's ace plays it."""
    s = deal(variant=ERL, actions=["pass"] * 4)
    assert s.legal_texts() == ["play AC", "play AS", "play AH"]
    no_ace = ["9C KH QH TH 8C KS 7C 6C 6D", *HANDS4[1:3], "8S 7S 6S AH AS AC JD 9D 8D"]
    s = deal(no_ace, variant=ERL, actions=["pass"] * 4)
    assert s.legal_texts() == ["play KS"]  # no ace: a spade
    s.apply("play KS")
    assert s.legal_texts() == ["play QS", "play JS"]
    s.apply("play QS")
    assert s.legal_texts() == ["play TS"]
    s.apply("play TS")
    assert s.legal_texts() == ["play AS"]  # seat 3 must play the ace of the led suit


def test_huu_12_5_any_trick_winner_may_declare(deal: Any) -> None:
    """HUU-12.5: in Erlangen the winner of a trick need not have led it."""
    s = deal(variant=ERL, actions=["pass"] * 4)
    s.apply("play AC")
    s.apply("play KC")
    s.apply("play TC")
    s.apply("play 9C")  # seat 0 led and won
    s.apply("play AH")
    s.apply("play JH")
    s.apply("play 7H")
    s.apply("play 9D")
    assert s.to_act == 0
    s2 = deal(
        variant=ERL,
        actions=["pass"] * 4
        + ["play AS", "play QS", "play TS", "play 8S", "play 6D", "play AD", "play TD", "play 8D"],
    )
    assert s2.to_act == 1 and "declare C" in s2.legal_texts()  # seat 1 won a trick it did not lead
    assert s2.observation(1).info["window"] is True


def test_huu_12_6_bluff_half_ask(deal: Any) -> None:
    """HUU-12.6: asking without KX or QX is legal; a `yes` then makes no trump."""
    s = deal(variant=ERL, actions=["pass"] * 4 + ["play AS", "play QS", "play TS", "play 8S"])
    legal = s.legal_texts()
    assert "ask half C" in legal and "ask half H" not in legal  # holds KH and QH: never
    s.apply("ask half D")
    assert s.legal_texts() == ["answer yes"]  # seat 2 holds KD and QD
    s.apply("answer yes")
    assert s.trump == -1 and s.broken == 0 and s.marriages == [0, 0]
    assert s.observation(1).info["declarations"] == []


def test_huu_12_7_rounding() -> None:
    """HUU-12.7: remainders 1–2 round down, 3–4 up."""
    assert [round5(x) for x in (110, 111, 112, 113, 114)] == [110, 110, 110, 115, 115]


def test_huu_12_8_12_9_porvoo_and_calls() -> None:
    """HUU-12.8, HUU-12.9: sweep made with kontra+re → contract × 4, opponents −2×contract;
    sweep failed → the first kontra does not count and the opponents score 0."""
    res = _sweep_result(ERL, 120, 120, ("kontra", "re"))
    assert res["calls"] == 2 and res["made"] is True and res["score"] == [480, -240]
    res = _sweep_result(ERL, 120, 150, ("kontra", "re"))
    assert res["made"] is False and res["score"] == [-300, 0]
    res = _sweep_result(ERL, 120, 150, ("kontra",))
    assert res["score"] == [-150, 0]


def test_huu_12_9_call_order_and_card_counts() -> None:
    """HUU-12.9: kontra first by an opponent with 9 cards, then re with 8, …"""
    acts = [
        "bid 120",
        "pass",
        "pass",
        "pass",
        "give AH",
        "give TH",
        "give KH",
        "give QH",
        "contract 120",
        "return AH",
        "return TH",
        "return KH",
        "return QH",
    ]
    s = make_deal(SWEEP, acts, ERL)
    assert "kontra" not in s.legal_texts() and "re" not in s.legal_texts()  # declarer's side
    s.apply("play AS")
    assert s.legal_texts()[0] == "kontra"
    s.apply("kontra")
    assert "kontra" not in s.legal_texts()
    s.apply("play 6C")
    assert s.legal_texts()[-1] == "re"
    s.apply("play 6H")
    s.apply("play 6D")
    # trick 2: seat 1 holds 8 cards; the third call needs 7
    s.apply("play TS")
    assert "kontra" not in s.legal_texts()


# --- HUU-13 three players -----------------------------------------------------------------------


def test_huu_13_3_13_4_three_player_scores() -> None:
    """HUU-13.3, HUU-13.4: the declarer only declares; a trickless opponent loses the final
    bid when the contract is made, scores 0 when it fails; discards count for the declarer."""
    base = ["bid 50", "pass", "pass", "discard 8D", "discard 7D", "discard 6D"]
    s = make_deal(THREE, [*base, "contract 100"], {"players": 3}, dealer=2, widow="8D 7D 6D")
    finish_sweep(s)
    res = s.result()
    assert (
        res["points"][0] == 160 and res["score"] == [100, -50, -50] and res["no_tricks"] == [1, 2]
    )
    s = make_deal(THREE, [*base, "contract 440"], {"players": 3}, dealer=2, widow="8D 7D 6D")
    finish_sweep(s)
    assert s.result()["score"] == [-440, 0, 0]
    s = make_deal(
        THREE, [*base[:5], "discard AH", "contract 100"], {"players": 3}, dealer=2, widow="8D 7D 6D"
    )
    finish_sweep(s)  # seat 0 keeps 6D and loses the last trick; its discarded AH counts for it
    res = s.result()
    assert res["tricks"] == [10, 0, 1] and res["points"] == [140, 0, 20]  # 130 in tricks + AH


# --- HUU-14 information, HUU-15, HUU-16, HUU-17 ---------------------------------------------------


def test_huu_14_1_to_14_5_exchange_visibility(deal: Any) -> None:
    """HUU-14.1, HUU-14.2, HUU-14.3, HUU-14.4, HUU-14.5: own hand only; bids public; gives/returns to the two partners only."""
    s = deal(actions=P)
    for seat in range(4):
        obs = s.observation(seat)
        assert obs.hand == s.hands[seat]
        assert obs.history[:4] == ("bid 50", "pass", "pass", "pass")
        hidden = seat in (1, 3)
        assert (obs.history[4] == "give ?") == hidden and (obs.history[8] == "return ?") == hidden
        assert obs.history[7] == "contract 60"
        assert (obs.info["given"] is None) == hidden


def test_huu_14_6_widow_public_discards_private() -> None:
    """HUU-14.6: see test_huu_6_1_to_6_3 — the widow is public once taken, discards private."""
    s = make_deal(THREE, ["bid 50", "pass"], {"players": 3}, dealer=2, widow="8D 7D 6D")
    assert s.observation(1).info["widow"] is None
    s.apply("pass")
    assert all(s.observation(x).info["widow"] == ["8D", "7D", "6D"] for x in range(3))


def test_huu_14_7_14_8_answers_and_tricks_public(deal: Any) -> None:
    """HUU-14.7, HUU-14.8: asks, answers, trumps and tricks are seen by all."""
    s = deal(actions=[*P2, *T1, "ask marriage", "answer D"])
    for seat in range(4):
        obs = s.observation(seat)
        assert obs.history[-2:] == ("ask marriage", "answer D")
        assert obs.info["trump"] == "D" and obs.info["tricks"] == [1, 0]
        assert obs.info["declarations"] == [{"seat": 0, "suit": "D", "at": len(s.history) - 1}]


def test_huu_15_1_no_table_talk() -> None:
    """HUU-15.1: there is no announcement action besides the formal ones."""
    s = make_deal(actions=P)
    for text in ("say hello", "signal H", "announce"):
        with pytest.raises(IllegalAction):
            s.apply(text)


def test_huu_16_1_input_spellings(deal: Any) -> None:
    """HUU-16.1: case-insensitive input, 10 for T, blanks; canonical output."""
    s = deal(actions=["BID  050", "Pass", "pass", "pass", "give 10d", "GIVE kd", "give Qd"])
    assert s.history[0].text == "bid 50" and s.history[4].text == "give TD"
    s = deal(actions=[*P, *T1, "ASK  half s"])
    assert s.history[-1].text == "ask half S"


def test_huu_16_2_phases_and_to_act(deal: Any) -> None:
    """HUU-16.2: phase names and who acts in each."""
    s = deal()
    seen = []
    for a in [*P3, *T1, "ask half D", "answer yes"]:
        seen.append((s.phase, s.to_act))
        s.apply(a)
    assert ("give", 2) in seen and ("contract", 0) in seen and ("return", 0) in seen
    assert ("answer", 2) in seen and ("bidding", 0) in seen and ("play", 3) in seen


def test_huu_16_3_sort_order(deal: Any) -> None:
    """HUU-16.3: verbs alphabetically, cards in card order, suit letters by code point."""
    s = deal(actions=[*P, *T1])
    assert s.legal_texts() == [
        "ask half S",
        "ask marriage",
        "declare D",
        "declare H",
        "play AC",
        "play KS",
        "play AH",
        "play KH",
        "play QH",
        "play TH",
        "play KD",
        "play QD",
    ]
    s = deal(
        [
            "AH KH QH AS KS QS AC KC QC",
            "AD KD QD JD TD 9D 8D 7D 6D",
            "JH TH 9H 8H 7H 6H JS TS 9S",
            "8S 7S 6S JC TC 9C 8C 7C 6C",
        ],
        [
            "bid 50",
            "pass",
            "pass",
            "pass",
            "give JH",
            "give TH",
            "give 9H",
            "contract 50",
            "return JH",
            "return TH",
            "return 9H",
        ],
    )
    for a in ("play AS", "play 6D", "play 9S", "play 6S"):
        s.apply(a)
    assert [t for t in s.legal_texts() if t.startswith("declare")] == [
        "declare C",
        "declare H",
        "declare S",
    ]


def test_huu_17_2_bad_actions(deal: Any) -> None:
    """HUU-17.2: unparsable text, wrong phase, a card not held, after the end → index."""
    rec = {
        "game": "huutopussi",
        "dealer": 3,
        "hands": [h.split() for h in HANDS4],
        "actions": ["bid 50", "pass", "bid 445"],
    }
    out = replay(rec)
    assert out["ok"] is False and out["index"] == 2 and out["action"] == "bid 445"
    assert "multiples of 5" in out["error"]
    for bad in ("play AS", "give 6S", "contract 50", "bid", "play ZZ", "answer no"):
        rec["actions"] = ["bid 50", "pass", "pass", "pass", bad]
        out = replay(rec)
        assert out["ok"] is False and out["index"] == 4 and "\n" not in out["error"]
    rec["actions"] = ["bid 50", "pass", "pass", "redeal", "pass"]
    out = replay(rec)
    assert out["index"] is not None and "over" in out["error"]  # HUU-17.3: nothing after a redeal


def test_huu_17_4_17_5_impossible_states_never_occur() -> None:
    """HUU-17.4, HUU-17.5: over random deals, no all-pass outside Erlangen, no window before
    trick 1, opponents never score marriages without tricks, partner never acts in contract."""
    rng = random.Random(17)
    for i in range(60):
        v = GAME.sample_variant(rng)
        s = GAME.random_deal(rng, v, dealer=i % GAME.num_seats(GAME.normalize_variant(v)))
        while not s.is_over:
            if s.phase in ("contract", "return"):
                assert s.to_act == s.declarer
            if s.phase == "bidding":
                assert not s.passed >> s.to_act & 1
            if s.phase == "play" and s.tricks_done == 0:
                assert not s.window
            s.apply(rng.choice(s.legal_actions()))
        res = s.result()
        if not res["redeal"] and not s.rules.erlangen:
            assert res["declarer"] is not None
        for side, m in enumerate(res["marriages"]):
            if m:
                assert res["tricks"][side] > 0


def test_registry_has_huutopussi() -> None:
    """The game is in the registry as `huutopussi`."""
    assert GAMES["huutopussi"] is GAME
