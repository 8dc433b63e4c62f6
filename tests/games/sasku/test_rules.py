"""Sasku rule tests: each test names the SAS rule IDs it checks."""

from __future__ import annotations

import itertools

import pytest
from sasku_helpers import (
    LONE_KS,
    MIXED,
    NINE_PICTURES,
    PARTNER_BARE,
    SUIT_PER_SEAT,
    TWO_LONE,
    apply_all,
    cards,
    deal,
    legal,
    texts,
)

from folkcards.cards import CARD_NAMES, DECK_36, cards_list, parse_card
from folkcards.engine.api import IllegalAction
from folkcards.games.sasku import (
    ACTIONS,
    CARD_POINTS,
    DEAL_SLOTS,
    DECK,
    GAME,
    PICTURES,
    SUIT_CARDS,
    SUIT_CARDS_OF,
    TRUMP_CONFIGS,
    TRUMPS_OF,
    hand_length,
    potential_trumps,
)


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


@pytest.mark.parametrize(
    "layout", [SUIT_PER_SEAT, LONE_KS, TWO_LONE, PARTNER_BARE, NINE_PICTURES, MIXED]
)
def test_fixture_layouts_are_whole_packs(layout: list[str]) -> None:
    """SAS-6.1: the fixed layouts used below are four 9-card hands of the 36-card pack."""
    all_cards = [c for h in layout for c in cards(h)]
    assert len(all_cards) == 36 and sum(1 << c for c in all_cards) == DECK_36
    assert all(len(cards(h)) == 9 for h in layout)


# --- SAS-1, SAS-2, SAS-3, SAS-4: cards ---------------------------------------------------


def test_sas_1_1_four_seats_two_teams_and_a_match_to_16() -> None:
    """SAS-1.1: 4 seats, fixed teams, 16 strokes by default."""
    state = deal(SUIT_PER_SEAT)
    assert state.num_seats == 4 and [state.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert GAME.normalize_variant({})["target"] == 16


def test_sas_1_2_pictures_are_permanent_trumps_and_six_of_trump_is_highest() -> None:
    """SAS-1.2."""
    for t in range(4):
        config = TRUMP_CONFIGS[t]
        assert PICTURES & config.trumps == PICTURES
        six = 13 * t + 8
        assert all(config.beats[c] >> six & 1 for c in cards_list(config.trumps) if c != six)


def test_sas_2_1_2_2_2_3_deck_pictures_suit_cards_trumps() -> None:
    """SAS-2.1 (36 cards), SAS-2.2 (12 pictures, 24 suit cards), SAS-2.3 (18 trumps)."""
    assert DECK.bit_count() == 36
    assert {CARD_NAMES[c][0] for c in cards_list(DECK)} == set("AKQJT9876")
    assert PICTURES.bit_count() == 12 and SUIT_CARDS.bit_count() == 24
    for t in range(4):
        assert TRUMPS_OF[t].bit_count() == 18 == TRUMP_CONFIGS[t].trumps.bit_count()


def test_sas_2_4_class_of_a_picture_is_trump_never_its_printed_suit() -> None:
    """SAS-2.4: KC is a trump whatever the trump; plain suits have exactly 6 cards."""
    for t in range(4):
        config = TRUMP_CONFIGS[t]
        kc = parse_card("KC")
        assert config.class_of[kc] == config.trumps
        for s in range(4):
            if s != t:
                ace = 13 * s
                assert config.class_of[ace] == SUIT_CARDS_OF[s]
                assert config.class_of[ace].bit_count() == 6


SAS_3_3_TABLE = {
    "C": "6C KC KS KH KD QC QS QH QD JC JS JH JD AC TC 9C 8C 7C",
    "S": "6S KC KS KH KD QC QS QH QD JC JS JH JD AS TS 9S 8S 7S",
    "H": "6H KC KS KH KD QC QS QH QD JC JS JH JD AH TH 9H 8H 7H",
    "D": "6D KC KS KH KD QC QS QH QD JC JS JH JD AD TD 9D 8D 7D",
}


@pytest.mark.parametrize("trump", "CSHD")
def test_sas_3_1_3_3_trump_order_table(trump: str) -> None:
    """SAS-3.1, SAS-3.3: the trump row of each trump suit, highest first."""
    config = TRUMP_CONFIGS["CSHD".index(trump)]
    by_power = sorted(cards_list(config.trumps), key=lambda c: -config.power[c])
    assert " ".join(CARD_NAMES[c] for c in by_power) == SAS_3_3_TABLE[trump]
    jd, ace = parse_card("JD"), parse_card("A" + trump)
    assert config.beats[ace] >> jd & 1  # JD beats the Ace of trumps
    six, kc = parse_card("6" + trump), parse_card("KC")
    assert config.beats[kc] >> six & 1  # the 6 of trumps beats KC


def test_sas_3_2_plain_suit_order() -> None:
    """SAS-3.2: A T 9 8 7 6 in a plain suit (hearts, trump clubs)."""
    config = TRUMP_CONFIGS[0]
    order = cards("AH TH 9H 8H 7H 6H")
    for hi, lo in itertools.pairwise(order):
        assert config.beats[lo] >> hi & 1 and not config.beats[hi] >> lo & 1


def test_sas_4_1_card_points_total_120_and_six_of_trump_is_zero() -> None:
    """SAS-4.1."""
    assert sum(CARD_POINTS[c] for c in cards_list(DECK)) == 120
    for name, pts in {"AS": 11, "TS": 10, "KS": 4, "QS": 3, "JS": 2, "9S": 0, "6D": 0}.items():
        assert CARD_POINTS[parse_card(name)] == pts


# --- SAS-5: seats and roles --------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_sas_5_1_5_2_5_3_roles_from_the_dealer(dealer: int) -> None:
    """SAS-5.1 next = +1, SAS-5.2 teams, SAS-5.3 eldest d+1, cutter d+3."""
    state = GAME.new_deal(GAME.normalize_variant({}), dealer, cards_list(DECK))
    assert state.eldest == (dealer + 1) % 4 and state.cutter == (dealer + 3) % 4
    assert state.to_act == state.cutter and state.phase == "cut"
    obs = state.observation(0)
    assert obs.info["cutter"] == state.cutter and obs.info["eldest"] == state.eldest


# --- SAS-6: dealing ------------------------------------------------------------------------


def _deck_state(dealer: int = 0, variant: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    # deck[i] = card number of the i-th card in card order, so positions are easy to read
    return GAME.new_deal(GAME.normalize_variant(variant or {}), dealer, cards_list(DECK))


def test_sas_6_2_cut_legal_actions_are_the_40_dealing_choices() -> None:
    """SAS-6.2, SAS-21.2: 40 actions in the conventions' order."""
    state = _deck_state()
    texts = legal(state)
    assert len(texts) == 40
    assert texts[:5] == ["deal cover", "deal nines", "deal ones", "deal threes", "deal to AC"]
    assert texts[5] == "deal to KC" and texts[-1] == "deal to 6D"


def test_sas_6_1_6_3_deal_threes_example_of_the_rules() -> None:
    """SAS-6.1, SAS-6.3 example: d = 0, deal threes."""
    deck = cards_list(DECK)
    state = _deck_state(0)
    state.apply("deal threes")
    want = {
        1: [0, 1, 2, 12, 13, 14, 24, 25, 26],
        2: [3, 4, 5, 15, 16, 17, 27, 28, 29],
        3: [6, 7, 8, 18, 19, 20, 30, 31, 32],
        0: [9, 10, 11, 21, 22, 23, 33, 34, 35],
    }
    for seat, idx in want.items():
        assert state.hand_order(seat) == [deck[i] for i in idx]  # SAS-6.7: order received


def test_sas_6_3_deal_ones_example_of_the_rules() -> None:
    """SAS-6.3 example: deal ones, d = 0: seat 1 gets deck[0,4,…,32], seat 0 deck[3,7,…,35]."""
    deck = cards_list(DECK)
    state = _deck_state(0)
    state.apply("deal ones")
    assert state.hand_order(1) == [deck[i] for i in range(0, 36, 4)]
    assert state.hand_order(0) == [deck[i] for i in range(3, 36, 4)]


@pytest.mark.parametrize("dealer", range(4))
def test_sas_6_3_nines_and_cover_blocks(dealer: int) -> None:
    """SAS-6.3: nines d+1, d+2, cutter, dealer; cover d+1, d+2, dealer, cutter."""
    deck = cards_list(DECK)
    for method, order in (("nines", (1, 2, 3, 0)), ("cover", (1, 2, 0, 3))):
        state = _deck_state(dealer, {"exchange": False})
        state.apply(f"deal {method}")
        for block, off in enumerate(order):
            seat = (dealer + off) % 4
            assert state.hand_order(seat) == deck[9 * block : 9 * block + 9]
    assert DEAL_SLOTS["threes"][1] == (0, 1, 2, 12, 13, 14, 24, 25, 26)


def test_sas_6_4_deal_to_x_exposes_cards_up_to_x_to_everyone() -> None:
    """SAS-6.4: same mapping as nines; deck[0..k] face up with their recipients."""
    deck = cards_list(DECK)
    state = _deck_state(2, {"exchange": False})
    x = deck[10]
    state.apply(f"deal to {CARD_NAMES[x]}")
    assert state.hand_order(3) == deck[0:9]  # like nines: d+1 gets deck[0..8]
    for seat in range(4):
        face_up = state.observation(seat).info["face_up"]
        assert [c for c, _ in face_up] == [CARD_NAMES[c] for c in deck[:11]]
        assert [s for _, s in face_up] == [3] * 9 + [0, 0]
    assert state.observation(0).info["deal"] == "to"


def test_sas_6_5_6_6_hands_record_starts_at_exchange_and_deck_record_after_cut() -> None:
    """SAS-6.5 (after the deal: exchange), SAS-6.6 (hands record starts there, no deal action)."""
    state = deal(LONE_KS)
    assert state.phase == "exchange" and state.to_act == 1
    with pytest.raises(IllegalAction):
        state.apply("deal threes")
    st2 = _deck_state(0)
    st2.apply("deal threes")
    assert st2.phase in ("exchange", "auction")


def test_sas_6_7_exchanged_card_is_appended_to_the_hand_order() -> None:
    """SAS-6.7: the received card goes to the end of the received order."""
    state = apply_all(deal(LONE_KS), "give KS; return 8D")
    assert state.hand_order(1) == cards("AS TS 9S 8S 7S 6S AC TC 8D")
    assert state.hand_order(3) == cards("KD QD JD QS JS AD TD 9D KS")
    assert state.observation(1).hand == mask("AS TS 9S 8S 7S 6S AC TC 8D")


# --- SAS-7: lone-picture exchange --------------------------------------------------------


def test_sas_7_1_7_3_lone_picture_holder_is_asked_give_or_keep() -> None:
    """SAS-7.1 eligibility, SAS-7.3 give P or keep, SAS-21.2 order."""
    state = deal(LONE_KS)
    assert state.phase == "exchange" and state.to_act == 1
    assert legal(state) == ["give KS", "keep"]


def test_sas_7_4_partner_returns_any_suit_card_then_play_goes_on_after_the_giver() -> None:
    """SAS-7.4: the partner returns a suit card (never a picture); next seat after giver."""
    state = apply_all(deal(LONE_KS), "give KS")
    assert state.to_act == 3 and state.phase == "exchange"
    assert legal(state) == ["return AD", "return TD", "return 9D", "return 8D"]
    with pytest.raises(IllegalAction, match=r"SAS-7\.4"):
        state.apply("return QD")
    state.apply("return 9D")
    # seat 2 (3 pictures), seat 3 (team exchanged), seat 0 (3 pictures): nobody else
    assert state.phase == "auction" and state.to_act == 1


def test_sas_7_1_keep_does_not_use_up_the_team_exchange() -> None:
    """SAS-7.1: after a keep, the partner may still be asked; SAS-7.2 order e, e+1, …"""
    state = apply_all(deal(TWO_LONE), "keep")
    assert state.to_act == 3 and legal(state) == ["give KD", "keep"]
    state.apply("give KD")
    assert state.to_act == 1
    assert legal(state) == texts("return", "AC TC AS TS 9S 8S 7S 6S")
    state.apply("return AC")
    assert state.phase == "auction" and state.to_act == 1  # dealer (7 pictures) skipped


def test_sas_7_1_one_exchange_per_team() -> None:
    """SAS-7.1: after seat 1 gives, its partner seat 3 (one picture after) is not asked."""
    state = apply_all(deal(TWO_LONE), "give KS; return 9D")
    assert state.phase == "auction"
    assert not state.is_eligible(3)


def test_sas_7_5_receiving_the_only_picture_does_not_make_a_seat_eligible() -> None:
    """SAS-7.5: seat 3 had no picture, received KS (its only one) — its team has exchanged."""
    state = apply_all(deal(PARTNER_BARE), "give KS")
    assert legal(state)[0] == "return 9C"
    state.apply("return 7C")
    assert (state.hands[3] & PICTURES).bit_count() == 1
    assert state.phase == "auction"


def test_sas_7_1_partner_without_suit_cards_and_sas_22_4_no_exchange_at_all() -> None:
    """SAS-7.1 last condition, SAS-19.2, SAS-22.4: nobody is eligible → straight to the auction."""
    state = deal(NINE_PICTURES)
    assert state.phase == "auction" and state.to_act == 1
    assert state.history == []
    assert legal(state)[-2:] == ["diamonds", "pass"]


def test_sas_7_2_skipped_seats_send_no_action() -> None:
    """SAS-7.2: a keep of seat 1, no eligible seat left → the auction, no further action."""
    state = apply_all(deal(LONE_KS), "keep")
    assert state.phase == "auction" and [a.text for a in state.history] == ["keep"]


def test_sas_7_6_exchange_then_play_in_a_replay_deal() -> None:
    """SAS-7.6, SAS-15.2: after the exchange a replay deal goes straight to play."""
    state = apply_all(deal(LONE_KS, replay={"trump": "H", "declarer": 2}), "keep")
    assert state.phase == "play" and state.to_act == 1
    assert state.trump == 2 and state.declarer == 2


def test_sas_7_7_and_19_1_return_is_seen_only_by_the_partners() -> None:
    """SAS-7.7, SAS-19.1: the given picture is public, the returned card is not."""
    state = apply_all(deal(LONE_KS), "give KS; return 9D")
    for seat in range(4):
        obs = state.observation(seat)
        ex = obs.info["exchanges"][0]
        assert ex["picture"] == "KS" and obs.history[0] == "give KS"
        if seat in (1, 3):
            assert obs.history[1] == "return 9D" and ex["returned"] == "9D"
        else:
            assert obs.history[1] == "return ?" and ex["returned"] == "?"
            assert "9D" not in repr(obs.to_dict())


# --- SAS-8: auction ---------------------------------------------------------------------------


def test_sas_8_1_potential_trumps_and_length() -> None:
    """SAS-8.1."""
    hand = mask("KS AS TS 9S 8S 7S 6S AC TC")
    assert potential_trumps(hand, 1) == 7 and potential_trumps(hand, 0) == 3
    assert hand_length(hand) == 7
    assert hand_length(mask("KC QC JC 9C 8C 7C 6C 7D 6D")) == 7


def test_sas_8_2_8_3_8_4_bids_turns_and_length_limit() -> None:
    """SAS-8.2 eldest first, clockwise, skipping passes; SAS-8.3 actions; SAS-8.4 limits."""
    state = deal(LONE_KS, variant={"exchange": False})
    assert state.phase == "auction" and state.to_act == 1
    assert legal(state) == ["bid 5", "bid 6", "bid 7", "diamonds", "pass"]  # length 7
    with pytest.raises(IllegalAction, match=r"SAS-8\.4"):
        state.apply("bid 8")
    state.apply("bid 5")
    assert state.to_act == 2 and legal(state)[0] == "bid 6"
    with pytest.raises(IllegalAction, match="higher than the current bid 5"):
        state.apply("bid 5")
    apply_all(state, "pass; bid 6; pass")
    assert state.to_act == 1  # seat 2 passed and is skipped
    assert legal(state) == ["bid 7", "diamonds", "pass"]


def test_sas_8_4_a_seat_may_bid_less_than_its_length() -> None:
    """SAS-8.4."""
    state = deal(SUIT_PER_SEAT, variant={"exchange": False})
    state.apply("bid 5")
    assert state.high_bid == 5


def test_sas_8_5_8_7b_three_passes_end_the_auction_at_the_final_bidder() -> None:
    """SAS-8.5 a passed seat never acts again; SAS-8.7b declare phase for the high bidder."""
    state = apply_all(deal(LONE_KS, variant={"exchange": False}), "pass; bid 6; pass; pass")
    assert state.phase == "declare" and state.to_act == 2


def test_sas_8_6_diamonds_ends_the_auction_at_once() -> None:
    """SAS-8.6: over a higher bid, with few diamonds; declarer = that seat."""
    state = apply_all(deal(LONE_KS, variant={"exchange": False}), "bid 7; diamonds")
    assert state.phase == "play" and state.trump == 3 and state.declarer == 2
    assert state.to_act == 1  # SAS-10.1: eldest leads whoever declared
    obs = state.observation(0)
    assert obs.info["trump"] == "D" and obs.info["declarer"] == 2 and obs.info["bid"] == 7


def test_sas_8_7a_four_passes_make_a_passed_deal_in_diamonds() -> None:
    """SAS-8.7a, SAS-9.5: trump D, no declarer, play."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass")
    assert state.phase == "play" and state.trump == 3
    assert state.declarer is None and state.passed_deal


def test_sas_8_8_diamonds_only_on_own_turn_and_not_as_a_word_in_declare() -> None:
    """SAS-8.8: in phase declare the final bidder uses 'trump D'; passed seats act in override."""
    state = apply_all(deal(LONE_KS, variant={"exchange": False}), "bid 7; pass; pass; pass")
    assert state.phase == "declare"
    with pytest.raises(IllegalAction, match="trump D"):
        state.apply("diamonds")
    state.apply("trump S")
    assert state.phase == "override" and state.to_act == 2  # seat 2 had passed
    assert legal(state) == ["diamonds", "pass"]


def test_sas_22_1_everyone_may_pass() -> None:
    """SAS-22.1: no special case — four passes are always possible."""
    state = deal(NINE_PICTURES)
    for _ in range(4):
        assert "pass" in legal(state)
        state.apply("pass")
    assert state.passed_deal


def test_sas_22_2_bid_of_nine_keeps_the_auction_open() -> None:
    """SAS-22.2."""
    state = apply_all(deal(SUIT_PER_SEAT), "bid 9")
    assert state.phase == "auction" and legal(state) == ["diamonds", "pass"]
    state.apply("diamonds")
    assert state.declarer == 2 and state.trump == 3


# --- SAS-9: trump declaration and override ---------------------------------------------------


def test_sas_9_1_trump_choices_by_potential_trumps() -> None:
    """SAS-9.1, SAS-21.2: C/S/H need potential ≥ bid; D always."""
    state = apply_all(deal(LONE_KS, variant={"exchange": False}), "bid 7; pass; pass; pass")
    assert legal(state) == ["trump D", "trump S"]
    with pytest.raises(IllegalAction, match=r"SAS-9\.1"):
        state.apply("trump C")
    state2 = apply_all(deal(LONE_KS, variant={"exchange": False}), "pass; pass; bid 5; pass")
    assert legal(state2) == ["trump C", "trump D", "trump H", "trump S"]  # 5 pictures


def test_sas_22_3_final_bidder_long_only_in_diamonds() -> None:
    """SAS-22.3: seat 3 (5 pictures + 4 diamonds) bids 6 → only 'trump D'."""
    state = apply_all(deal(LONE_KS, variant={"exchange": False}), "pass; pass; bid 6; pass")
    assert state.to_act == 3 and legal(state) == ["trump D"]


def test_sas_9_2_trump_d_goes_straight_to_play() -> None:
    """SAS-9.2."""
    state = apply_all(
        deal(LONE_KS, variant={"exchange": False}), "pass; pass; bid 6; pass; trump D"
    )
    assert state.phase == "play" and state.declarer == 3 and state.trump == 3


def test_sas_9_3_9_4_override_order_and_first_diamonds_wins() -> None:
    """SAS-9.3 asked clockwise from declarer+1, any seat; SAS-9.4 first diamonds ends it."""
    base = "bid 7; pass; pass; pass; trump S"
    state = apply_all(deal(LONE_KS, variant={"exchange": False}), base)
    assert state.to_act == 2
    state.apply("pass")
    assert state.to_act == 3  # the declarer's partner may override too
    state.apply("diamonds")
    assert state.phase == "play" and state.trump == 3 and state.declarer == 3
    state2 = apply_all(deal(LONE_KS, variant={"exchange": False}), base + "; pass; pass; pass")
    assert state2.phase == "play" and state2.trump == 1 and state2.declarer == 1


def test_sas_9_5_declarer_and_declaring_team_in_the_result() -> None:
    """SAS-9.5: the overriding seat's team becomes the declaring team."""
    state = apply_all(
        deal(LONE_KS, variant={"exchange": False}), "bid 7; pass; pass; pass; trump S; diamonds"
    )
    _play_out(state)
    res = state.result()
    assert res["declarer"] == 2 and res["declarer_team"] == 0 and res["trump"] == "D"
    assert res["bid"] == 7


def _play_out(state) -> None:  # type: ignore[no-untyped-def]
    while not state.is_over:
        state.apply(state.legal_actions()[0])


# --- SAS-10, SAS-11: play ------------------------------------------------------------------------


def _mixed_passed():  # type: ignore[no-untyped-def]
    """MIXED hands, exchange off, all pass → trump D; seat 1 leads."""
    return apply_all(deal(MIXED, variant={"exchange": False}), "pass; pass; pass; pass")


def test_sas_10_1_10_2_eldest_leads_any_card() -> None:
    """SAS-10.1, SAS-10.2."""
    state = _mixed_passed()
    assert state.to_act == 1
    assert legal(state) == texts("play", "AC 6C AS KS TS 9S 8S 7S 6S")


def test_sas_10_3_void_must_trump_and_beat_then_may_follow_low() -> None:
    """SAS-10.3 steps 1–4; SAS-10.5: after a plain trick is trumped, any card of the suit."""
    state = _mixed_passed()
    state.apply("play 6C")
    assert legal(state) == ["play KH", "play QH", "play JH", "play 7D"]  # void: trump
    state.apply("play 7D")
    assert legal(state) == ["play 8C", "play 7C"]  # follow clubs, cannot beat a trump
    state.apply("play 7C")
    assert legal(state) == ["play TC", "play 9C"]
    state.apply("play 9C")
    assert state.to_act == 2 and state.tricks == [1, 0]  # seat 2's 7D took the trick


def test_sas_10_4_must_beat_within_the_led_suit_and_cannot_beat_still_follows() -> None:
    """SAS-10.3, SAS-10.4, SAS-10.5: must beat if possible; if not, still follow suit."""
    state = _mixed_passed()
    state.apply("play AC")
    assert legal(state) == ["play KH", "play QH", "play JH", "play 7D"]
    state.apply("play KH")
    assert legal(state) == ["play 8C", "play 7C"]
    state.apply("play 8C")
    with pytest.raises(IllegalAction, match=r"SAS-10\.3"):
        state.apply("play KC")  # seat 0 holds clubs: must follow
    state.apply("play TC")


def test_sas_10_5_picture_led_is_a_trump_lead() -> None:
    """SAS-10.5: KS led → followers play trumps, never spades; must beat if possible."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass")  # trump D
    state.apply("play KS")
    assert legal(state) == ["play KH", "play QH", "play JH"]  # none beats KS: any trump
    state.apply("play JH")
    assert legal(state) == ["play 6D"]  # only the 6 of trumps beats KS
    state.apply("play 6D")
    assert legal(state) == ["play KC", "play QC", "play JC"]  # trumps that cannot beat 6D
    with pytest.raises(IllegalAction, match=r"SAS-10\.3"):
        state.apply("play AC")


def test_sas_10_5_void_must_trump_even_when_partner_wins() -> None:
    """SAS-10.5: seat 3 is void in spades; its partner seat 1 is winning with AS."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass")
    state.apply("play AS")
    state.apply("play JH")  # seat 2 trumps
    assert set(legal(state)) == {"play KD", "play QD", "play 6D"}  # must beat JH
    state2 = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass; play 9S; play JH; play QD")
    assert legal(state2) == ["play KC", "play QC"]  # seat 0 must overtrump QD


def test_sas_17_2_without_must_beat_any_card_of_the_class() -> None:
    """SAS-17.2: must_beat false → Legal = C."""
    state = apply_all(
        deal(SUIT_PER_SEAT, variant={"must_beat": False}), "pass; pass; pass; pass; play AS"
    )
    assert legal(state) == ["play KH", "play QH", "play JH"]
    state.apply("play JH")
    assert len(legal(state)) == 9  # all of seat 3's trumps, beating or not
    state3 = apply_all(deal(MIXED, variant={"exchange": False, "must_beat": False}), "pass;" * 4)
    state3.apply("play 6C")
    state3.apply("play 7D")
    state3.apply("play 8C")
    assert legal(state3) == ["play TC", "play 9C"]


def test_sas_11_1_11_2_trick_winner_and_points_to_the_team() -> None:
    """SAS-11.1 highest trump wins; SAS-11.2 its points go to the winner's team."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass")
    apply_all(state, "play AS; play JH; play 6D; play KC")
    assert state.to_act == 3 and state.points == [0, 11 + 2 + 0 + 4]
    assert state.tricks == [0, 1]
    assert state.completed[0] == (1, tuple(cards("AS JH 6D KC")), 3)
    # no trump played: highest card of the led suit
    state2 = apply_all(deal(MIXED, variant={"exchange": False}), "pass; pass; pass; pass")
    apply_all(state2, "play 6C; play 7D; play 8C; play TC")
    assert state2.completed[0][2] == 2


def test_sas_12_1_nine_tricks_then_over() -> None:
    """SAS-12.1: the deal ends after the 9th trick with 120 points."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass")
    _play_out(state)
    assert state.is_over and state.tricks_played == 9
    assert sum(state.points) == 120 and sum(state.tricks) == 9
    with pytest.raises(IllegalAction, match="over"):
        state.apply("play AS")


# --- SAS-13, SAS-14: scoring ----------------------------------------------------------------


def _finished(points: list[int], tricks: list[int], trump: int, declarer: int | None):  # type: ignore[no-untyped-def]
    """A deal with its totals set directly, to check the stroke table row by row."""
    state = deal(SUIT_PER_SEAT)
    state.to_act = None
    state.phase = "over"
    state.points, state.tricks = points, tricks
    state.trump, state.declarer = trump, declarer
    state.passed_deal = declarer is None
    return state.result()


@pytest.mark.parametrize(
    ("pd", "tricks_d", "winner_is_declarer", "d_strokes", "other_strokes"),
    [
        (120, 8, True, 6, 4),  # SAS-22.5: 120 points without all tricks → 91–120 row
        (91, 7, True, 6, 4),
        (90, 6, True, 4, 2),
        (61, 5, True, 4, 2),
        (59, 4, False, 6, 4),
        (30, 3, False, 6, 4),
        (29, 2, False, 8, 6),
        (0, 1, False, 8, 6),  # SAS-22.6: a trick but 0 points
    ],
)
def test_sas_13_4_13_5_stroke_table(
    pd: int, tricks_d: int, winner_is_declarer: bool, d_strokes: int, other_strokes: int
) -> None:
    """SAS-13.4 table; SAS-13.5 the diamonds column; SAS-13.6 one team scores."""
    for trump, strokes in ((3, d_strokes), (1, other_strokes)):
        res = _finished([120 - pd, pd], [9 - tricks_d, tricks_d], trump, 3)
        winner = 1 if winner_is_declarer else 0
        assert res["won_by"] == winner and res["declarer_team"] == 1
        assert res["score"][winner] == strokes and res["score"][1 - winner] == 0


def test_sas_13_1_22_5_lambapea_scores_target_for_any_team() -> None:
    """SAS-13.1, SAS-22.5: all 9 tricks → target strokes, also for defenders or a passed deal."""
    assert _finished([0, 120], [0, 9], 1, 3)["score"] == [0, 16]
    assert _finished([120, 0], [9, 0], 1, 3)["score"] == [16, 0]
    res = _finished([120, 0], [9, 0], 3, None)
    assert res["score"] == [16, 0] and res["lambapea"] and res["passed"]
    st = deal(SUIT_PER_SEAT, variant={"target": 12})
    st.to_act, st.points, st.tricks, st.trump, st.declarer = None, [120, 0], [9, 0], 2, 0
    assert st.result()["score"] == [12, 0]


def test_sas_13_2_14_1_sixty_all_is_a_redeal_with_the_replay_key() -> None:
    """SAS-13.2, SAS-14.1: no score, redeal, replay = trump and declarer."""
    res = _finished([60, 60], [4, 5], 2, 1)
    assert res["score"] == [0, 0] and res["won_by"] is None and res["redeal"]
    assert res["replay"] == {"trump": "H", "declarer": 1}
    res2 = _finished([60, 60], [5, 4], 3, None)
    assert res2["replay"] == {"trump": "D", "declarer": None}
    assert set(res) == {
        "score", "won_by", "points", "tricks", "trump", "declarer", "declarer_team",
        "passed", "bid", "lambapea", "redeal", "replay",
    }  # fmt: skip
    assert "replay" not in _finished([61, 59], [4, 5], 2, 1)


def test_sas_13_3_passed_deal_one_stroke_to_the_team_over_60() -> None:
    """SAS-13.3: even with > 90 points, 1 stroke."""
    assert _finished([95, 25], [8, 1], 3, None)["score"] == [1, 0]
    assert _finished([40, 80], [3, 6], 3, None)["score"] == [0, 1]


def test_sas_13_6_exactly_one_team_scores() -> None:
    """SAS-13.6 over many random deals."""
    import random

    from sasku_helpers import random_playout

    rng = random.Random(13)
    for _ in range(200):
        res = random_playout(rng).result()
        assert (res["score"].count(0) == 2) == res["redeal"]
        assert res["score"].count(0) >= 1


# --- SAS-15: replay deals -------------------------------------------------------------------


def test_sas_15_1_15_2_15_3_replay_deal_has_no_auction_and_scores_normally() -> None:
    """SAS-15.1, SAS-15.2, SAS-15.3."""
    state = deal(SUIT_PER_SEAT, replay={"trump": "S", "declarer": 0})
    assert state.phase == "play" and state.trump == 1 and state.declarer == 0
    _play_out(state)
    res = state.result()
    assert res["bid"] is None and res["trump"] == "S" and res["declarer"] == 0
    assert not res["passed"]
    passed = deal(SUIT_PER_SEAT, replay={"trump": "D", "declarer": None})
    _play_out(passed)
    assert passed.result()["passed"] and passed.result()["declarer"] is None
    rec = passed.record()
    assert rec["replay"] == {"trump": "D", "declarer": None}


def test_sas_22_7_tied_replay_deal_is_replayed_again() -> None:
    """SAS-22.7: a tie in a replay deal gives the same replay key again."""
    state = deal(SUIT_PER_SEAT, replay={"trump": "C", "declarer": 1})
    state.to_act, state.points, state.tricks = None, [60, 60], [4, 5]
    assert state.result()["replay"] == {"trump": "C", "declarer": 1}


# --- SAS-17, SAS-18, SAS-19, SAS-21 ---------------------------------------------------------


def test_sas_17_1_17_4_variants_defaults_and_exchange_off() -> None:
    """SAS-17.1 three options with defaults; SAS-17.4 exchange false → auction."""
    assert GAME.normalize_variant({}) == {"must_beat": True, "target": 16, "exchange": True}
    state = deal(LONE_KS, variant={"exchange": False})
    assert state.phase == "auction"
    replayed = deal(LONE_KS, variant={"exchange": False}, replay={"trump": "D", "declarer": 2})
    assert replayed.phase == "play"


def test_sas_17_5_18_1_18_2_no_signal_actions() -> None:
    """SAS-17.5, SAS-18.1, SAS-18.2: roof, blink and häda are not actions."""
    texts = {a.text.split()[0] for a in ACTIONS.actions}
    assert texts == {"deal", "give", "keep", "return", "bid", "pass", "diamonds", "trump", "play"}
    for word in ("roof", "blink", "hada"):
        with pytest.raises(IllegalAction):
            deal(SUIT_PER_SEAT).apply(word)


def test_sas_19_1_observation_contents() -> None:
    """SAS-19.1: own hand, bids, passes, trump, declarer and played cards are visible."""
    state = apply_all(
        deal(LONE_KS, variant={"exchange": False}),
        "bid 7; pass; pass; pass; trump S; pass; pass; pass; play AS",
    )
    obs = state.observation(0)
    assert obs.hand == state.hands[0]
    assert list(obs.history) == [a.text for a in state.history]
    assert obs.info["trick"] == [[1, "AS"]] and obs.info["trump"] == "S"
    assert obs.info["declarer"] == 1 and obs.info["bid"] == 7 and obs.info["passed"] == [0, 2, 3]
    assert obs.legal == () and state.observation(2).legal == state.legal_actions()
    assert obs.info["hand_sizes"] == [9, 8, 9, 9]


def test_sas_21_1_phases_and_seat_to_act() -> None:
    """SAS-21.1: the phase names and who acts in each."""
    seen = []
    st = GAME.new_deal(GAME.normalize_variant({}), 0, cards_list(DECK))
    seen.append((st.phase, st.to_act))
    st.apply("deal nines")  # seat 1 gets AC KC QC JC TC 9C 8C 7C 6C: 3 pictures
    seen.append((st.phase, st.to_act))
    apply_all(st, "bid 5; pass; pass; pass")
    seen.append((st.phase, st.to_act))
    st.apply("trump C")
    seen.append((st.phase, st.to_act))
    apply_all(st, "pass; pass; pass")
    seen.append((st.phase, st.to_act))
    assert seen == [("cut", 3), ("auction", 1), ("declare", 1), ("override", 2), ("play", 1)]


def test_sas_21_2_legal_lists_are_sorted_by_the_token_rule() -> None:
    """SAS-21.2: plays in card order (not trump order), bids numerically."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass")
    assert legal(state) == texts("play", "AS KS QS JS TS 9S 8S 7S 6S")
    codes = [int(a) for a in ACTIONS.actions]
    assert codes == sorted(codes)


def test_sas_20_2_actions_by_integer_code_and_rejected_non_actions() -> None:
    """SAS-20.2, SAS-21.2: an integer code names the action of the table; other values are bad."""
    state = _deck_state()
    code = int(ACTIONS["deal threes"])
    state.apply(code)  # type: ignore[arg-type]
    assert state.history == [ACTIONS["deal threes"]] and state.record()["actions"] == [
        "deal threes"
    ]
    for bad in (True, 3.5, len(ACTIONS), -1, None):
        with pytest.raises(IllegalAction, match=r"SAS-20\.3"):
            state.apply(bad)  # type: ignore[arg-type]


def test_describe_shows_phase_trump_hands_and_trick() -> None:
    """str(state): a readable picture of the deal (SAS-21.1 phase names)."""
    state = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass; play AS")
    text = str(state)
    assert "phase play" in text and "trump D" in text and "trick: AS" in text
    assert "seat 2: AH KH QH JH TH 9H 8H 7H 6H" in text


def test_pickled_deal_plays_on_identically() -> None:
    """SAS-21.1: a pickled deal (tournament workers, storage) keeps phase, legal and game."""
    import pickle
    import random

    rng = random.Random(8)
    state = GAME.random_deal(rng)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.game is GAME and copy.phase == state.phase
    assert copy.legal_texts() == state.legal_texts() and copy.record() == state.record()
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        copy.apply(action.text)
    assert copy.result() == state.result()
