"""Rule tests for Sheepshead: each test names the SHP rule IDs it checks."""

from __future__ import annotations

import json
import random

import pytest
from shp_helpers import ACTIONS_A, BLIND_A, HANDS_A, legal, out, playout, record, referee, state

from folkcards.cards import CARD_NAMES, DECK_32, mask_text, parse_card
from folkcards.engine.api import IllegalAction, MalformedRecord
from folkcards.engine.match import Match
from folkcards.engine.records import load_deal, replay
from folkcards.games.sheepshead import (
    GAME,
    POINTS,
    TRUMP,
    SheepsheadDeal,
    outcome,
)

PICK_A = ["pick", "bury KS", "bury TD", "call AC"]


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# --- SHP-1 cards -----------------------------------------------------------------------


def test_shp_1_1_deck_is_32_cards() -> None:
    """SHP-1.1: A K Q J T 9 8 7 in four suits."""
    assert DECK_32.bit_count() == 32
    assert GAME.deck == DECK_32
    assert {CARD_NAMES[c][0] for c in cards(" ".join(mask_text(DECK_32)))} == set("AKQJT987")


def test_shp_1_2_effective_suits() -> None:
    """SHP-1.2: queens, jacks and diamonds are trump (14); QC is not a club."""
    trumps = TRUMP.trumps
    assert trumps.bit_count() == 14
    for t in ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D"]:
        assert trumps >> parse_card(t) & 1
    assert TRUMP.class_of[parse_card("QC")] == trumps
    assert TRUMP.class_of[parse_card("7C")] != trumps
    assert mask_text(TRUMP.class_of[parse_card("7C")]) == ["AC", "KC", "TC", "9C", "8C", "7C"]


def test_shp_1_3_trump_ranking() -> None:
    """SHP-1.3: QC > QS > … > 7D; every higher trump beats every lower one."""
    order = cards("QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D")
    for i, hi in enumerate(order):
        for lo in order[i + 1 :]:
            assert TRUMP.beats_card(hi, lo) and not TRUMP.beats_card(lo, hi)


def test_shp_1_4_fail_ranking_and_no_cross_suit() -> None:
    """SHP-1.4: A T K 9 8 7 in a fail suit; different fail suits never compare."""
    order = cards("AH TH KH 9H 8H 7H")
    for i, hi in enumerate(order):
        for lo in order[i + 1 :]:
            assert TRUMP.beats_card(hi, lo)
    assert not TRUMP.beats_card(parse_card("AS"), parse_card("7H"))
    assert TRUMP.beats_card(parse_card("7D"), parse_card("AH"))  # any trump beats fail


def test_shp_1_5_card_points_total_120() -> None:
    """SHP-1.5: A 11, T 10, K 4, Q 3, J 2, 9 8 7 nothing; 120 in the deck."""
    assert [POINTS[parse_card(t)] for t in ["AC", "TC", "KC", "QC", "JC", "9C", "8C", "7C"]] == [
        11, 10, 4, 3, 2, 0, 0, 0,
    ]  # fmt: skip
    assert sum(POINTS[c] for c in range(52) if DECK_32 >> c & 1) == 120


# --- SHP-2 seats and roles ----------------------------------------------------------------


def test_shp_2_1_five_seats_clockwise_eldest_first() -> None:
    """SHP-2.1: five seats; eldest = dealer + 1 acts first."""
    assert GAME.num_seats(GAME.normalize_variant({})) == 5
    for dealer in range(5):
        o = replay(record(dealer=dealer))
        assert o["to_act"] == (dealer + 1) % 5


def test_shp_2_2_roles_picker_partner_defenders() -> None:
    """SHP-2.2: picker + holder of the called card against three; alone against four."""
    r = out(ACTIONS_A)["result"]
    assert (r["picker"], r["partner"]) == (1, 2)
    alone = state(["pick", "bury KS", "bury TD", "alone"])
    assert alone.mode == "alone" and alone.partner == -1


def test_shp_2_3_scores_are_per_seat() -> None:
    """SHP-2.3: score has five entries; the game is not a partnership game."""
    assert GAME.partnership is False
    assert len(out(ACTIONS_A)["result"]["score"]) == 5


# --- SHP-3 dealing --------------------------------------------------------------------------


def test_shp_3_1_deck_mapping() -> None:
    """SHP-3.1: 3 each from eldest, 2 to the blind, 3 each again."""
    deck = mask_text(DECK_32)
    random.Random(3).shuffle(deck)
    for dealer in range(5):
        st = GAME.new_deal(GAME.normalize_variant({}), dealer, [parse_card(t) for t in deck])
        eldest = (dealer + 1) % 5
        assert [CARD_NAMES[c] for c in st.initial_hand(eldest)] == deck[0:3] + deck[17:20]
        assert [CARD_NAMES[c] for c in st.initial_hand(dealer)] == deck[12:15] + deck[29:32]
        assert [CARD_NAMES[c] for c in st.blind] == deck[15:17]
        for i in range(5):
            seat = (dealer + 1 + i) % 5
            want = set(deck[3 * i : 3 * i + 3] + deck[17 + 3 * i : 20 + 3 * i])
            assert set(mask_text(st.hands[seat])) == want


def test_shp_3_2_hand_order_and_sorted_output() -> None:
    """SHP-3.2: order received, blind appended after a pick; output sorted by card order."""
    st = state(["pick"])
    order = [CARD_NAMES[c] for c in st.hand_in_order(1)]
    assert order == HANDS_A[1].split() + BLIND_A.split()
    o = replay(record(actions=["pick"]))
    assert o["legal"] == [  # card order: QC sorts with the clubs
        f"bury {t}" for t in ["QC", "JC", "7C", "KS", "QS", "QH", "AD", "TD"]
    ]


def test_shp_3_3_hands_record_and_first_action_is_picking() -> None:
    """SHP-3.3: hands + extra.blind; no dealing action: the first action picks or passes."""
    o = replay(record())
    assert o == {"ok": True, "over": False, "to_act": 1, "phase": "pick", "legal": ["pass", "pick"]}
    bad = record()
    bad["extra"] = {"blind": ["AD", "TD"], "widow": []}
    assert replay(bad)["ok"] is False and replay(bad)["index"] is None


# --- SHP-4 picking ------------------------------------------------------------------------


def test_shp_4_1_picking_in_turn_from_eldest() -> None:
    """SHP-4.1: eldest, d+2, d+3, d+4, dealer; actions pick/pass."""
    st = state([])
    seen = []
    for _ in range(4):
        seen.append(st.to_act)
        assert st.legal_texts() == ["pass", "pick"]
        st.apply("pass")
    seen.append(st.to_act)
    assert seen == [1, 2, 3, 4, 0]


def test_shp_4_2_pick_takes_blind_and_dealer_may_pick_last() -> None:
    """SHP-4.2: the picker gets 8 cards, phase bury; the dealer may pick after 4 passes."""
    st = state(["pass"] * 4 + ["pick"])
    assert st.picker == 0 and st.phase == "bury" and st.hands[0].bit_count() == 8
    assert mask_text(st.hands[0]) == sorted(mask_text(st.hands[0]), key=lambda t: parse_card(t))
    assert set(BLIND_A.split()) <= set(mask_text(st.hands[0]))


def test_shp_4_3_five_passes_no_picker() -> None:
    """SHP-4.3: five passes: no picker; leaster by default."""
    st = state(["pass"] * 5)
    assert st.picker == -1 and st.mode == "leaster" and st.phase == "play"


# --- SHP-5 burying ------------------------------------------------------------------------


def test_shp_5_1_bury_any_two_cards_then_call() -> None:
    """SHP-5.1: two bury actions of any held card (trump and counters included)."""
    assert legal(["pick"]) == [
        f"bury {t}" for t in ["QC", "JC", "7C", "KS", "QS", "QH", "AD", "TD"]
    ]
    o = out(["pick", "bury QC", "bury AD"])
    assert o["phase"] == "call"
    assert out(["pick", "bury AC"])["ok"] is False  # not held


def test_shp_5_2_bury_counts_for_picker_and_is_hidden() -> None:
    """SHP-5.2: bury points go to the picker; only the picker sees the bury during play."""
    r = out(ACTIONS_A)["result"]
    assert r["points"][1] == 91 + 14
    st = state(PICK_A)
    assert st.observation(1).info["bury"] == ["KS", "TD"]
    for s in (0, 2, 3, 4):
        obs = st.observation(s)
        assert obs.info["bury"] is None
        assert "bury ?" in obs.history and "bury KS" not in obs.history


# --- SHP-6 calling ------------------------------------------------------------------------


def test_shp_6_1_call_or_alone_then_play() -> None:
    """SHP-6.1: exactly one call/alone action, then the play phase."""
    assert legal(["pick", "bury KS", "bury TD"]) == ["alone", "call AC"]
    assert out(PICK_A)["phase"] == "play"


def test_shp_6_2_ace_call_needs_a_hold_card_and_not_the_ace() -> None:
    """SHP-6.2: call AX only without AX and with a card of X in hand; AD never."""
    # Burying 7C leaves no club in hand: AC cannot be called; KS kept: AS can.
    assert legal(["pick", "bury 7C", "bury TD"]) == ["alone", "call AS"]
    o = out(["pick", "bury 7C", "bury TD", "call AC"])
    assert o["ok"] is False and "SHP-6.2" in o["error"]
    assert out(["pick", "bury KS", "bury TD", "call AD"])["ok"] is False


def test_shp_6_3_buried_card_is_held_but_not_a_hold_card() -> None:
    """SHP-6.3: an ace in the bury is held (cannot be called); a buried fail card is no
    hold card; queens and jacks are not fail cards."""
    hands = [
        "JD KC 8S 7S KH 8H",
        "QC QS QH JC 7C AS",  # seat 1 picks, buries AS: AS held, no spade in hand
        "AC TC 9C QD JS 7H",
        "KS TS 9S JH 8D 7D",
        "AH TH 9H KD 9D 8C",
    ]
    assert legal(["pick", "bury AS", "bury TD"], hands=hands) == ["alone", "call AC"]
    o = out(["pick", "bury AS", "bury TD", "call AS"], hands=hands)
    assert o["ok"] is False and "SHP-6.3" in o["error"]
    # Burying 7C as well: only QC (a trump) remains of the clubs' printed suit.
    assert legal(["pick", "bury AS", "bury 7C"], hands=hands) == ["alone"]


HANDS_TEN = [
    "JD KC 8S 7S KH 8H",
    "AC AS AH 7C QC QS",  # seat 1 holds all three fail aces
    "TC TH 9C QD JS 7H",
    "KS TS 9S JH 8D 7D",
    "QH 9H JC AD 8C 9D",
]
BLIND_TEN = "TD KD"


def test_shp_6_4_ten_call_with_all_three_aces() -> None:
    """SHP-6.4: holding AC AS AH (hand or bury): call a ten of a suit held in hand."""
    kw = {"hands": HANDS_TEN, "blind": BLIND_TEN}
    assert legal(["pick", "bury TD", "bury KD"], **kw) == [
        "alone", "call TC", "call TS", "call TH",
    ]  # fmt: skip
    # AH buried: still held (tens only) but no heart in hand.
    assert legal(["pick", "bury AH", "bury KD"], **kw) == ["alone", "call TC", "call TS"]
    o = out(["pick", "bury TD", "bury KD", "call AC"], **kw)
    assert o["ok"] is False and "SHP-6.4" in o["error"]
    st = state(["pick", "bury TD", "bury KD", "call TH"], **kw)
    assert st.partner == 2


def test_shp_6_5_alone_always_legal_and_forced() -> None:
    """SHP-6.5: alone is always legal, and the only action when nothing can be called."""
    # Seat 2 picks holding AC and only clubs as fail: nothing to call.
    acts = ["pass", "pick", "bury 7H", "bury TD"]
    assert legal(acts) == ["alone"]
    st = state([*acts, "alone"])
    assert st.mode == "alone" and st.partner == -1


def test_shp_6_6_partner_is_holder_and_secret() -> None:
    """SHP-6.6: the holder of the called card is the partner; the call is public."""
    st = state(PICK_A)
    assert st.partner == 2
    assert st.observation(2).info["partner"] == 2
    for s in (0, 1, 3, 4):
        assert st.observation(s).info["partner"] is None
        assert st.observation(s).info["called"] == "AC"


# --- SHP-7 play ---------------------------------------------------------------------------


def test_shp_7_1_eldest_leads_whoever_picked() -> None:
    """SHP-7.1: eldest leads the first trick, also when another seat picked or in a leaster."""
    assert out(["pass", "pick", "bury 7H", "bury TD", "alone"])["to_act"] == 1
    assert out(["pass"] * 5)["to_act"] == 1


def test_shp_7_2_tricks_clockwise_winner_leads() -> None:
    """SHP-7.2: leader then four clockwise; the winner leads the next trick."""
    st = state(PICK_A + ACTIONS_A[4:9])
    assert st.actors[-5:] == [1, 2, 3, 4, 0]
    assert st.to_act == 1  # QC won
    st = state(PICK_A + ACTIONS_A[4:14])
    assert st.to_act == 2  # AC won the second trick


def test_shp_7_3_follow_effective_suit() -> None:
    """SHP-7.3: a queen lead asks for trump; a club lead is not answered by QC."""
    st = state([*PICK_A, "play QC"])
    assert st.legal_texts() == ["play JS", "play QD"]  # seat 2's trumps only
    o = out([*PICK_A, "play QC", "play 7H"])
    assert o["ok"] is False and "SHP-7.3" in o["error"]


def test_shp_7_4_no_duty_to_trump_or_beat() -> None:
    """SHP-7.4: void in the led suit, any card (no trumping duty); no duty to head."""
    # Trick 3 of ACTIONS_A: TC led, seat 3 is void in clubs and may throw anything.
    st = state(ACTIONS_A[:15])
    assert st.to_act == 3
    assert st.legal_texts() == ["play AS", "play TS", "play JH", "play 8D"]
    # Seat 4 follows KD/9D to QC freely: both lower, both legal.
    st = state([*PICK_A, "play QC", "play JS", "play 7D"])
    assert st.legal_texts() == ["play KD", "play 9D"]


def test_shp_7_5_picker_hold_rule() -> None:
    """SHP-7.5: the picker may not throw its last card of the called suit until X is led,
    except on the sixth trick; it may lead it and follow with it."""
    # Seat 4 picks, buries TH 9H, calls AC with 8C as its only club.
    acts = ["pass", "pass", "pass", "pick", "bury TH", "bury 9H"]
    assert legal(acts) == ["alone", "call AC"]
    acts += ["call AC", "play KS", "play 7H", "play 9S"]
    assert legal(acts) == ["play AH", "play AD", "play KD", "play TD", "play 9D"]
    o = out([*acts, "play 8C"])
    assert o["ok"] is False and "SHP-7.5" in o["error"]


def test_shp_7_5_hold_rule_lifted_on_last_trick_and_after_lead() -> None:
    """SHP-7.5: nothing restricted on trick 6; after X is led the picker is free."""
    rng = random.Random(11)
    checked_last = checked_led = 0
    for _ in range(400):
        st = playout(rng)
        if st.mode != "called":
            continue
        # Replay and look at each picker decision.
        rec = st.record()
        again = GAME.deal_from_record(rec, GAME.normalize_variant(rec["variant"]))
        for a in rec["actions"]:
            s = again
            if (
                s.phase == "play"
                and s.to_act == s.picker
                and s.trick
                and not s.hands[s.picker] & TRUMP.class_of[s.trick[0]]
            ):
                hand = s.hands[s.picker]
                legal_cards = {parse_card(t.split()[1]) for t in s.legal_texts()}
                xs = hand & s.x_mask
                if s.trick_no == 5:
                    assert legal_cards == {c for c in range(52) if hand >> c & 1}
                    checked_last += 1
                elif s.x_led and xs.bit_count() == 1:
                    assert (xs.bit_length() - 1) in legal_cards
                    checked_led += 1
            again.apply(a)
    assert checked_last and checked_led


def test_shp_7_6_partner_duties() -> None:
    """SHP-7.6: 1 play the called card when X is led; 2 no throwing it off before;
    3 lead X only with the called card."""
    # 1: AC is the only legal card of seat 2 when 7C is led (it holds TC 9C too).
    assert legal(ACTIONS_A[:10]) == ["play AC"]
    # 2: a spade led, seat 2 void in spades: AC may not be thrown off.
    acts = ["pass", "pass", "pass", "pick", "bury TH", "bury 9H", "call AC", "play KS"]
    assert legal(acts) == ["play TC", "play 9C", "play JS", "play 7H", "play QD"]
    o = out([*acts, "play AC"])
    assert o["ok"] is False and "SHP-7.6" in o["error"]
    # 3: seat 2 wins trick 1 with QC and is on lead before clubs were led: AC, not TC/9C.
    hands2 = [
        "JD KC 8S 7S KH 8H",
        "9D QS QH JC 7C KS",
        "AC TC 9C QD 7H QC",  # seat 2 wins trick 1 with QC
        "AS TS 9S JH 8D 7D",
        "AH TH 9H KD AD 8C",
    ]
    kw = {"hands": hands2, "blind": "JS TD"}
    acts = ["pick", "bury KS", "bury TD", "call AC"]
    acts += ["play 9D", "play QC", "play 8D", "play KD", "play JD"]
    st = state(acts, **kw)
    assert st.to_act == 2
    assert st.legal_texts() == ["play AC", "play 7H", "play QD"]
    o = out([*acts, "play TC"], **kw)
    assert o["ok"] is False and "SHP-7.6" in o["error"]


def test_shp_7_7_trick_winner() -> None:
    """SHP-7.7: highest trump wins, else highest card of the led suit."""
    # Trick 3 of ACTIONS_A: TC AS 9D 8H AD -> AD (seat 1).
    st = state(ACTIONS_A[:19])
    assert st.last_trick is not None and st.last_trick[2] == 1
    st = state(ACTIONS_A[:14])
    assert st.last_trick is not None and st.last_trick[2] == 2  # AC over 7C 8C KC


def test_shp_7_8_legal_algorithm_matches_reference() -> None:
    """SHP-7.8: the inlined legal generator equals the literal algorithm on random play."""
    rng = random.Random(5)
    n = 0
    for _ in range(300):
        st = GAME.random_deal(rng, GAME.normalize_variant({}), rng.randrange(5))
        while not st.is_over:
            if st.phase == "play":
                want = st._legal_cards(st.to_act)  # type: ignore[arg-type]
                got = {parse_card(t.split()[1]) for t in st.legal_texts()}
                assert got == {c for c in range(52) if want >> c & 1}
                assert got
                n += 1
            st.apply(rng.choice(st.legal_actions()))
    assert n > 1000


def test_shp_7_9_piles_and_points() -> None:
    """SHP-7.9: trick cards go to the winner's pile; piles only count for scoring."""
    st = state(ACTIONS_A)
    assert st.taken == [0, 91, 15, 0, 0]
    assert st.tricks == [0, 5, 1, 0, 0]


# --- SHP-8 scoring ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "t", "want"),
    [
        (120, 6, ("picker", 3)),
        (14, 0, ("defenders", 3)),
        (120, 5, ("picker", 2)),
        (91, 3, ("picker", 2)),
        (90, 3, ("picker", 1)),
        (61, 2, ("picker", 1)),
        (60, 2, ("defenders", 1)),
        (31, 1, ("defenders", 1)),
        (30, 1, ("defenders", 2)),
    ],
)
def test_shp_8_2_outcome_table(p: int, t: int, want: tuple[str, int]) -> None:
    """SHP-8.2: win at 61, schneider at 91 / 30, tricks decide 6 and 0."""
    assert outcome(p, t) == want


def test_shp_8_1_and_8_3_called_game_all_tricks() -> None:
    """SHP-8.1 (P incl. bury, T) and SHP-8.3 (+6/+3/−3) on the hand-checked deal."""
    r = out(ACTIONS_A)["result"]
    assert r == {
        "score": [-3, 6, 3, -3, -3],
        "mode": "called",
        "picker": 1,
        "called": "AC",
        "partner": 2,
        "bury": ["KS", "TD"],
        "tricks": [0, 5, 1, 0, 0],
        "points": [0, 105, 15, 0, 0],
        "picker_points": 120,
        "picker_tricks": 6,
        "won_by": "picker",
        "level": 3,
        "leaster_winners": None,
        "stake": 1,
        "redeal": False,
    }


def _find(rng: random.Random, pred, variant=None, tries=20000):  # type: ignore[no-untyped-def]
    for _ in range(tries):
        st = playout(rng, variant)
        if pred(st.result()):
            return st
    raise AssertionError("no such deal found")


@pytest.mark.parametrize(
    ("won", "level", "row"),
    [
        ("picker", 1, (2, 1, -1)),
        ("picker", 2, (4, 2, -2)),
        ("defenders", 1, (-2, -1, 1)),
        ("defenders", 2, (-4, -2, 2)),
        ("defenders", 3, (-9, 0, 3)),
    ],
)
def test_shp_8_3_and_8_4_called_rows(won: str, level: int, row: tuple[int, int, int]) -> None:
    """SHP-8.3 rows; SHP-8.4 T = 0 is −9/0/+3 whatever the bury holds."""
    st = _find(
        random.Random(level * 7 + len(won)),
        lambda r: r["mode"] == "called" and r["won_by"] == won and r["level"] == level,
    )
    r = st.result()
    ref = referee(st.record())
    assert {k: r[k] for k in ref} == ref
    pk, pt = r["picker"], r["partner"]
    for s in range(5):
        want = row[0] if s == pk else row[1] if s == pt else row[2]
        assert r["score"][s] == want
    if level == 3 and won == "defenders":
        assert r["picker_tricks"] == 0


@pytest.mark.parametrize(("won", "level"), [("picker", 1), ("picker", 2), ("defenders", 1),
                                             ("defenders", 2), ("defenders", 3)])  # fmt: skip
def test_shp_8_5_alone(won: str, level: int) -> None:
    """SHP-8.5: alone: the picker gets or pays the level from each of the four (×4)."""
    st = _find(
        random.Random(level * 13 + len(won)),
        lambda r: r["mode"] == "alone" and r["won_by"] == won and r["level"] == level,
    )
    r = st.result()
    sign = 1 if won == "picker" else -1
    assert r["score"][r["picker"]] == 4 * level * sign
    assert r["partner"] is None and r["called"] is None
    assert sorted(r["score"]).count(-level * sign) == 4


def test_shp_8_6_and_12_2_double_on_bump() -> None:
    """SHP-8.6 / SHP-12.2: losses ×2 with double_on_bump (T = 0: −18/0/+6); wins unchanged."""
    v = {"double_on_bump": True}
    rng = random.Random(4)
    st = _find(rng, lambda r: r["mode"] == "called" and r["picker_tricks"] == 0, v)
    r = st.result()
    assert r["score"][r["picker"]] == -18 and r["score"][r["partner"]] == 0
    assert sorted(r["score"]) == [-18, 0, 6, 6, 6]
    st = _find(
        rng, lambda r: r["mode"] == "alone" and r["won_by"] == "defenders" and r["level"] == 3, v
    )
    assert sorted(st.result()["score"]) == [-24, 6, 6, 6, 6]
    st = _find(
        rng, lambda r: r["mode"] == "called" and r["won_by"] == "picker" and r["level"] == 1, v
    )
    assert sorted(st.result()["score"]) == [-1, -1, -1, 1, 2]
    # Stake and bump multiply.
    rec = st.record()
    rec["variant"] = {"double_on_bump": True, "no_pick": "doubler"}
    rec["stake"] = 4
    assert replay(rec)["result"]["score"] == [4 * x for x in st.result()["score"]]


# --- SHP-9 nobody picks ----------------------------------------------------------------------


def test_shp_9_1_leaster_play() -> None:
    """SHP-9.1: after five passes, eldest leads at once; no bury, call or hold duties."""
    o = out(["pass"] * 5)
    assert o["phase"] == "play" and o["to_act"] == 1
    assert o["legal"] == [f"play {t}" for t in ["QC", "JC", "7C", "KS", "QS", "QH"]]


def test_shp_9_2_to_9_4_leaster_scoring() -> None:
    """SHP-9.2 blind to the last trick; SHP-9.3 fewest points among trick takers;
    SHP-9.4 winners +(5−k), others −k."""
    rng = random.Random(9)
    shapes = set()
    for _ in range(3000):
        st = playout(rng)
        r = st.result()
        if r["mode"] != "leaster":
            continue
        ref = referee(st.record())
        assert {k: r[k] for k in ref} == ref
        assert sum(r["points"]) == 120
        assert st.last_trick is not None
        k = len(r["leaster_winners"])
        shapes.add(k)
        for s in range(5):
            assert r["score"][s] == (5 - k if s in r["leaster_winners"] else -k)
            if r["tricks"][s] == 0:
                assert s not in r["leaster_winners"]
    assert 1 in shapes and 2 in shapes


def test_shp_9_5_doubler_pass_out() -> None:
    """SHP-9.5: doubler: five passes end the deal, score 0, redeal true."""
    o = out(["pass"] * 5, variant={"no_pick": "doubler"})
    r = o["result"]
    assert r["mode"] == "doubler" and r["redeal"] is True and r["score"] == [0] * 5
    assert r["tricks"] == [0] * 5 and r["points"] == [0] * 5 and r["stake"] == 1


# --- SHP-10 results ---------------------------------------------------------------------------

RESULT_KEYS = {
    "score", "mode", "picker", "called", "partner", "bury", "tricks", "points",
    "picker_points", "picker_tricks", "won_by", "level", "leaster_winners", "stake", "redeal",
}  # fmt: skip


def test_shp_10_1_result_keys_always_present() -> None:
    """SHP-10.1: every key in every mode."""
    rng = random.Random(2)
    modes = set()
    for variant in ({}, {"no_pick": "doubler"}):
        for _ in range(300):
            r = playout(rng, variant).result()
            assert set(r) == RESULT_KEYS
            modes.add(r["mode"])
    assert modes == {"called", "alone", "leaster", "doubler"}


def test_shp_10_2_legal_sorted_by_verb_then_card() -> None:
    """SHP-10.2: legal is sorted by verb, then card order (QC sorts with clubs)."""
    assert legal([]) == ["pass", "pick"]
    assert legal(["pick", "bury KS", "bury TD"]) == ["alone", "call AC"]
    assert legal(["pick", "bury KS", "bury TD", "call AC"]) == [
        "play QC", "play JC", "play 7C", "play QS", "play QH", "play AD",
    ]  # fmt: skip


# --- SHP-11 matches ---------------------------------------------------------------------------


def _match(
    variant: dict[str, object], seed: int, deals: int = 40, pass_out: int = 0
) -> dict[str, object]:
    """A random match; its first ``pass_out`` deals are passed out by everyone."""
    m = Match(GAME, variant, rng=random.Random(seed), dealer=2)
    rng = random.Random(seed + 1)
    while not m.is_over and len(m.deals) < deals:
        st = m.new_deal()
        while not st.is_over:
            if len(m.deals) <= pass_out and st.phase == "pick":
                st.apply("pass")
            else:
                st.apply(rng.choice(st.legal_actions()))
        m.finish_deal()
    return m.record()


def test_shp_11_1_dealer_rotates_also_after_pass_out() -> None:
    """SHP-11.1: each deal's dealer is the previous dealer + 1."""
    rec = _match({"no_pick": "doubler", "match_deals": 12}, 3)
    dealers = [d["dealer"] for d in rec["deals"]]  # type: ignore[index, union-attr]
    assert dealers == [(2 + i) % 5 for i in range(len(dealers))]


def test_shp_11_2_stake_doubles_and_compounds() -> None:
    """SHP-11.2: stake 2^k after k pass-outs; a record's stake must match."""
    rec = _match({"no_pick": "doubler", "match_deals": 3}, 7, pass_out=3)
    stakes = [d.get("stake", 1) for d in rec["deals"]]  # type: ignore[union-attr]
    assert stakes[:4] == [1, 2, 4, 8]
    r = replay(rec)["result"]
    assert r["stake"] == stakes[-1]
    first_played = replay({**rec, "deals": rec["deals"][:4]})["result"]  # type: ignore[index]
    assert first_played["stake"] == 8 and first_played["redeal"] is False
    assert all(abs(x) % 8 == 0 for x in first_played["score"])
    k = 0
    for d, s in zip(rec["deals"], stakes, strict=True):  # type: ignore[arg-type]
        assert s == 2**k
        passed = d["actions"] == ["pass"] * 5
        k = k + 1 if passed else 0
    assert replay(rec)["ok"] is True
    bad = json.loads(json.dumps(rec))
    i = stakes.index(4)
    bad["deals"][i]["stake"] = 2
    o = replay(bad)
    assert o["ok"] is False and o["deal"] == i and o["index"] is None
    # Under leaster the key is never allowed, not even in a match (the stake is always 1).
    lm = _match({"match_deals": 1}, 2)
    assert replay(lm)["ok"] is True
    lm["deals"][0]["stake"] = 1  # type: ignore[index]
    o = replay(lm)
    assert o["ok"] is False and o["deal"] == 0 and "SHP-11.2" in o["error"]
    # Standalone: stake only with doubler; a power of two.
    assert replay(record(stake=2, variant={"no_pick": "doubler"}))["ok"] is True
    assert replay(record(stake=1))["ok"] is False
    assert replay(record(stake=3, variant={"no_pick": "doubler"}))["ok"] is False
    assert replay(record(stake=True, variant={"no_pick": "doubler"}))["ok"] is False
    assert replay(record(stake=2.0, variant={"no_pick": "doubler"}))["ok"] is False


def test_shp_11_3_match_end_and_tie_break() -> None:
    """SHP-11.3: the match ends after match_deals played-out deals with one top total;
    a tie at the top plays on; pass-outs do not count."""
    found_tie = False
    for seed in range(60):
        rec = _match({"match_deals": 1}, seed)
        o = replay(rec)
        assert o["ok"] is True and o["result"]["match_over"] is True
        totals = o["result"]["totals"]
        assert totals.count(max(totals)) == 1
        assert o["result"]["winner"] == totals.index(max(totals))
        assert o["result"]["draw"] is False
        if len(rec["deals"]) > 1:  # type: ignore[arg-type]
            found_tie = True
            first = dict(rec)
            first["deals"] = rec["deals"][:1]  # type: ignore[index]
            r1 = replay(first)["result"]
            assert r1["match_over"] is False and r1["winner"] is None
            t1 = r1["totals"]
            assert t1.count(max(t1)) > 1
    assert found_tie
    rec = _match({"no_pick": "doubler", "match_deals": 2}, 5)
    played = [d for d in rec["deals"] if d["actions"] != ["pass"] * 5]  # type: ignore[union-attr]
    assert len(played) >= 2


def test_shp_11_4_match_record_faults() -> None:
    """SHP-11.4: wrong dealer, unfinished deal followed by another, deal after the end,
    differing variant → malformed with the deal index."""
    rec = _match({"match_deals": 2}, 1)
    n = len(rec["deals"])  # type: ignore[arg-type]
    bad = json.loads(json.dumps(rec))
    bad["deals"][1]["dealer"] = 0  # must be 3 after dealer 2
    o = replay(bad)
    assert o["ok"] is False and o["index"] is None and o["deal"] == 1
    bad = json.loads(json.dumps(rec))
    bad["deals"].append(dict(bad["deals"][-1], dealer=(bad["deals"][-1]["dealer"] + 1) % 5))
    o = replay(bad)
    assert o["ok"] is False and o["deal"] == n and "over" in o["error"]
    bad = json.loads(json.dumps(rec))
    bad["deals"][0]["actions"] = bad["deals"][0]["actions"][:3]
    o = replay(bad)
    assert o["ok"] is False and o["deal"] == 0 and o["index"] is None
    bad = json.loads(json.dumps(rec))
    bad["deals"][0]["variant"] = {"no_pick": "doubler"}
    o = replay(bad)
    assert o["ok"] is False and o["deal"] == 0
    # A match ending between deals prints the last deal's result with the match keys.
    o = replay(rec)
    assert o["over"] is True and {"totals", "match_over", "winner", "draw"} <= set(o["result"])
    # Last deal in progress: that deal's in-progress object.
    part = json.loads(json.dumps(rec))
    part["deals"][-1]["actions"] = part["deals"][-1]["actions"][:2]
    o = replay(part)
    assert o["ok"] is True and o["over"] is False and "legal" in o


# --- SHP-12 variants -------------------------------------------------------------------------


def test_shp_12_1_variant_keys_and_defaults() -> None:
    """SHP-12.1: defaults; unknown key or bad value is malformed."""
    assert GAME.normalize_variant({}) == {
        "no_pick": "leaster", "double_on_bump": False, "match_deals": 5,
    }  # fmt: skip
    for bad in (
        {"no_pick": "redeal"},
        {"double_on_bump": 1},
        {"match_deals": 0},
        {"match_deals": 2.0},
        {"match_deals": True},
        {"schneider": True},
    ):
        o = replay(record(variant=bad))
        assert o["ok"] is False and o["index"] is None


def test_shp_12_3_no_pick_irrelevant_once_picked() -> None:
    """SHP-12.3: with someone picking, leaster and doubler give the same deal."""
    a = out(ACTIONS_A)["result"]
    b = out(ACTIONS_A, variant={"no_pick": "doubler"})["result"]
    assert a == b


# --- SHP-13 information -----------------------------------------------------------------------


def test_shp_13_1_observation_hides_blind_bury_partner() -> None:
    """SHP-13.1: blind and bury only to the picker; partner only to itself until AC falls."""
    st = state(PICK_A + ACTIONS_A[4:10])  # 7C led, AC not yet played
    for s in range(5):
        info = st.observation(s).info
        assert (info["blind"] is not None) == (s == 1)
        assert (info["bury"] is not None) == (s == 1)
        assert (info["partner"] is not None) == (s == 2)
    st.apply("play AC")
    for s in range(5):
        assert st.observation(s).info["partner"] == 2
    # Before any pick, nobody sees the blind; in a leaster not until the deal ends.
    st = state(["pass"] * 5)
    assert all(st.observation(s).info["blind"] is None for s in range(5))
    done = state(ACTIONS_A)
    assert all(done.observation(s).info["bury"] == ["KS", "TD"] for s in range(5))


def test_shp_13_2_no_signal_actions() -> None:
    """SHP-13.2: the only announcements are pick, pass, call, alone: no reveal action."""
    from folkcards.games.sheepshead import ACTIONS

    verbs = {a.text.split()[0] for a in ACTIONS.actions}
    assert verbs == {"pick", "pass", "bury", "call", "alone", "play"}


# --- SHP-14 input and errors --------------------------------------------------------------------


def test_shp_14_1_text_input_forms() -> None:
    """SHP-14.1: case-insensitive, 10 for T, blanks tolerated; canonical output."""
    acts = ["PICK", "  bury   ks ", "Bury 10d", "CALL ac"]
    st = state(acts)
    assert [a.text for a in st.history] == ["pick", "bury KS", "bury TD", "call AC"]
    assert st.record()["actions"] == ["pick", "bury KS", "bury TD", "call AC"]


@pytest.mark.parametrize(
    ("actions", "index"),
    [
        (["take"], 0),
        (["pick", "bury"], 1),
        (["pick", "bury 6C"], 1),
        (["play QC"], 0),
        (["pick", "pick"], 1),
        (["pick", "bury KS", "bury TD", "call AC", "play AC"], 4),
        ([*ACTIONS_A, "pass"], 34),
        (["pass", 3], 1),
    ],
)
def test_shp_14_2_illegal_actions(actions: list[object], index: int) -> None:
    """SHP-14.2: unparseable, not legal, after the end → ok:false at that index."""
    rec = record()
    rec["actions"] = actions
    o = replay(rec)
    assert o["ok"] is False and o["index"] == index and o["action"] == actions[index]
    assert isinstance(o["error"], str) and "\n" not in o["error"]


def test_shp_14_2_state_unchanged_after_illegal() -> None:
    """SHP-14.2: an illegal apply raises and changes nothing."""
    st = state(PICK_A)
    before = st.record(), st.observation(2)
    with pytest.raises(IllegalAction):
        st.apply("play AC")
    with pytest.raises(IllegalAction):
        st.apply("bogus")
    assert (st.record(), st.observation(2)) == before


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r.update(game="sasku"),
        lambda r: r.update(dealer=5),
        lambda r: r.update(dealer=True),
        lambda r: r.update(deck=mask_text(DECK_32)),
        lambda r: r.pop("hands"),
        lambda r: r["hands"][0].append("7C"),
        lambda r: r["hands"][0].pop(),
        lambda r: r.update(extra={"blind": ["AD"]}),
        lambda r: r.update(extra={"blind": ["AD", "6D"]}),
        lambda r: r["hands"][0].__setitem__(0, "XX"),
        lambda r: r.pop("actions"),
        lambda r: r.update(actions="pick"),
        lambda r: r.update(stake=2),
        lambda r: r.update(variant=[]),
        lambda r: r.update(colour="red"),
    ],
)
def test_shp_14_3_malformed_records(mutate) -> None:  # type: ignore[no-untyped-def]
    """SHP-14.3: malformed records give index null and a one-line error."""
    rec = record()
    mutate(rec)
    o = replay(rec)
    assert o["ok"] is False and o["index"] is None and o["action"] is None
    assert "\n" not in o["error"]


def test_shp_14_3_deck_records() -> None:
    """SHP-14.3: a deck must be the 32 distinct cards."""
    deck = mask_text(DECK_32)
    good = {"game": "sheepshead", "dealer": 0, "deck": deck, "actions": []}
    assert replay(good)["ok"] is True
    for bad_deck in (deck[:-1], [*deck[:-1], deck[0]], [*deck[:-1], "6C"], "QC"):
        o = replay({**good, "deck": bad_deck})
        assert o["ok"] is False and o["index"] is None
    with pytest.raises(MalformedRecord):
        GAME.new_deal(GAME.normalize_variant({}), 0, [0] * 32)


def test_shp_14_4_edge_cases() -> None:
    """SHP-14.4: the edge-case table: pass-out, forced alone, ten call, P = 120 without six
    tricks is level 2, repeated pass-outs, leaster sweep."""
    assert out(["pass"] * 5)["phase"] == "play"
    assert legal(["pass", "pick", "bury 7H", "bury TD"]) == ["alone"]
    assert outcome(120, 5) == ("picker", 2)
    rng = random.Random(21)
    for _ in range(20000):
        st = playout(rng)
        r = st.result()
        if r["mode"] == "leaster" and max(r["tricks"]) == 6:
            assert r["leaster_winners"] == [r["tricks"].index(6)]
            break
    else:
        pytest.fail("no leaster sweep in 20000 playouts (seed 21): the test checked nothing")


def test_result_raises_while_in_progress() -> None:
    """SHP-10.1: result exists only when the deal is over."""
    with pytest.raises(ValueError):
        state([]).result()


def test_load_and_continue_deal() -> None:
    """Records round-trip through load_deal and the fast apply path (SHP-10.2)."""
    st = load_deal(record(actions=ACTIONS_A[:20]))
    for a in ACTIONS_A[20:]:
        st.apply(a)
    assert st.result() == out(ACTIONS_A)["result"]
    assert isinstance(st, SheepsheadDeal)
    assert st.record()["hands"] == [h.split() for h in HANDS_A]
