"""Property tests over random legal Sasku playouts of every variant, and record fuzzing.

Invariants (SAS-6.1, SAS-12.1, SAS-19, SAS-21): 36 cards conserved, 120 points and 9
tricks, legal never empty while a seat acts and equal to the naive referee's set in play,
the record round-trips through ``replay``, an observation holds no hidden card of
another seat, and ``determinize`` rebuilds a state with the very same observation.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sasku_helpers import card_names, naive_legal

from folkcards.cards import CARD_NAMES
from folkcards.engine.match import Match
from folkcards.engine.records import load_deal, replay
from folkcards.games.sasku import DECK, GAME, K_RETURN, KIND, SaskuState

VARIANTS = [
    {},
    {"must_beat": False},
    {"exchange": False},
    {"target": 5},
    {"must_beat": False, "exchange": False, "target": 1},
]

CARD_RE = re.compile(r"\b([AKQJT9876][CSHD])\b")


def known_to(state: SaskuState, seat: int) -> set[str]:
    """Cards the seat may legitimately know (SAS-19.1), computed on the referee's side."""
    known = set(card_names(state.hands[seat]))
    known |= {CARD_NAMES[c] for c in state.face_up}
    for giver, picture, returner, returned in state.exchanges:
        known.add(CARD_NAMES[picture])
        if returned >= 0 and seat in (giver, returner):
            known.add(CARD_NAMES[returned])
    for action, actor in zip(state.history, state.actors, strict=True):
        if KIND[action] != K_RETURN or seat in (actor, (actor + 2) % 4):
            known |= set(CARD_RE.findall(action.text))
    return known


def check_state(state: SaskuState, rng: random.Random, determinize: bool) -> None:
    # 36 cards conserved: hands + completed tricks + current trick, disjoint
    held = [c for seat in range(4) for c in card_names(state.hands[seat])]
    played = [CARD_NAMES[c] for _, cards, _ in state.completed for c in cards]
    played += [CARD_NAMES[c] for c in state.trick]
    if state.phase != "cut":
        assert sorted(held + played) == sorted(card_names(DECK))
    assert sum(state.points) + sum(
        {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(c[0], 0) for c in held
    ) + sum(
        {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(CARD_NAMES[c][0], 0) for c in state.trick
    ) == (120 if state.phase != "cut" else 0)
    if state.to_act is not None:
        legal = state.legal_actions()
        assert legal, "legal is empty while a seat acts"
        assert [int(a) for a in legal] == sorted(int(a) for a in legal)
        if state.phase == "play":
            hand = card_names(state.hands[state.to_act])
            trick = [CARD_NAMES[c] for c in state.trick]
            want = naive_legal(hand, trick, "CSHD"[state.trump], state.variant["must_beat"])
            assert {a.text[5:] for a in legal} == want
            # the inline fast path equals TrumpConfig.follow (the reference path)
            assert state._generate_legal() == legal
    for seat in range(4):
        obs = state.observation(seat)
        view = obs.to_dict()
        # legal actions name cards only as the cutter's 36 choices or from the own hand
        for a in view.pop("legal"):
            if not a.startswith("deal"):
                assert set(CARD_RE.findall(a)) <= set(card_names(state.hands[seat]))
        text = json.dumps(view)
        leaked = set(CARD_RE.findall(text)) - known_to(state, seat)
        assert not leaked, (seat, leaked)
        assert obs.hand == state.hands[seat]
    if determinize:
        seat = rng.randrange(4)
        obs = state.observation(seat)
        sample = GAME.determinize(obs, rng)
        assert sample.observation(seat) == obs
        assert sample.hands[seat] == state.hands[seat]
        assert replay(sample.record())["ok"]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    which=st.integers(0, len(VARIANTS) - 1),
    dealer=st.integers(0, 3),
)
def test_random_playouts_keep_every_invariant(seed: int, which: int, dealer: int) -> None:
    """SAS-6.1, SAS-12.1, SAS-19.1, SAS-21.2 over random deals of every variant."""
    rng = random.Random(seed)
    variant = GAME.normalize_variant(VARIANTS[which])
    carry: dict[str, Any] = {}
    if seed % 5 == 0:  # SAS-15: a replay deal now and then
        carry = {
            "replay": {"trump": "CSHD"[seed % 4], "declarer": None if seed % 4 == 3 else dealer}
        }
    state = GAME.random_deal(rng, variant, dealer, carry=carry)
    step = 0
    while not state.is_over:
        check_state(state, rng, determinize=step % 6 == 0)
        # mid-deal: the record so far replays to the same position
        if step % 9 == 0:
            out = replay(state.record())
            assert out == {
                "ok": True,
                "over": False,
                "to_act": state.to_act,
                "phase": state.phase,
                "legal": state.legal_texts(),
            }
        clone = state.clone()
        state.apply(rng.choice(state.legal_actions()))
        assert len(clone.history) == len(state.history) - 1  # clone is independent
        step += 1
    check_state(state, rng, determinize=False)
    res = state.result()
    assert sum(res["points"]) == 120 and sum(res["tricks"]) == 9
    assert res["lambapea"] == (9 in res["tricks"])
    assert replay(json.loads(json.dumps(state.record()))) == {
        "ok": True,
        "over": True,
        "result": res,
    }


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(VARIANTS) - 1))
def test_random_matches_round_trip(seed: int, which: int) -> None:
    """SAS-16: a random match's record replays to the same totals and winner."""
    m = Match(GAME, VARIANTS[which], rng=random.Random(seed), dealer=seed % 4)
    rng = random.Random(seed ^ 0x5A5A)
    while not m.is_over and len(m.deals) < 40:
        deal = m.new_deal()
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        m.finish_deal()
    out = replay(json.loads(json.dumps(m.record())))
    assert out["ok"] and out["result"]["totals"] == m.state.totals
    assert out["result"]["winner"] == m.state.winner and out["result"]["draw"] is False
    if m.is_over:
        assert max(m.state.totals) >= m.variant["target"] and out["result"]["match_over"]


# --- fuzz: mutated records never crash replay ---------------------------------------------------

_BASE_RECORDS: list[dict[str, Any]] = []


def _base_records() -> list[dict[str, Any]]:
    if not _BASE_RECORDS:
        rng = random.Random(99)
        for k in range(4):
            variant = GAME.normalize_variant(VARIANTS[k])
            state = GAME.random_deal(rng, variant, k)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            _BASE_RECORDS.append(state.record())
        m = Match(GAME, rng=random.Random(5), dealer=1)
        while not m.is_over:
            d = m.new_deal()
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
            m.finish_deal()
        _BASE_RECORDS.append(m.record())
    return _BASE_RECORDS


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 50),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(
        [
            "play AC",
            "pass",
            "bid 9",
            "diamonds",
            "trump D",
            "give KS",
            "return 6H",
            "deal to 6D",
            "keep",
            "play 10h",
            "PLAY 5H",
        ]
    ),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(
        st.sampled_from(["trump", "declarer", "x"]),
        st.sampled_from(["D", "h", None, 1, 9]),
        max_size=3,
    ),
)


def _mutate(obj: Any, rng: random.Random, junk: list[Any]) -> Any:
    """One random mutation somewhere in a JSON value."""
    if isinstance(obj, dict) and obj and rng.random() < 0.7:
        key = rng.choice(sorted(obj))
        r = rng.random()
        if r < 0.15:
            del obj[key]
        elif r < 0.3:
            obj[key] = copy.deepcopy(junk[0])
        else:
            obj[key] = _mutate(obj[key], rng, junk)
        return obj
    if isinstance(obj, dict):
        obj[rng.choice(["replay", "extra", "hands", "deck", "variant", "zzz", "meta"])] = (
            copy.deepcopy(junk[0])
        )
        return obj
    if isinstance(obj, list) and obj:
        i = rng.randrange(len(obj))
        r = rng.random()
        if r < 0.25:
            del obj[i]
        elif r < 0.45:
            j = rng.randrange(len(obj))
            obj[i], obj[j] = obj[j], obj[i]
        elif r < 0.6:
            obj[i] = copy.deepcopy(junk[0])
        elif r < 0.7 and isinstance(obj[i], str):
            s = obj[i]
            k = rng.randrange(len(s) + 1)
            obj[i] = s[:k] + rng.choice(["X", " ", "1", "?", "é", ""]) + s[k + 1 :]
        else:
            obj[i] = _mutate(obj[i], rng, junk)
        return obj
    return copy.deepcopy(junk[0])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    which=st.integers(0, 4),
    n=st.integers(1, 3),
    junk=st.lists(JUNK, min_size=1, max_size=3),
)
def test_fuzz_mutated_records_never_crash_replay(
    seed: int, which: int, n: int, junk: list[Any]
) -> None:
    """SAS-20: every mutated record gives a valid result or the clean error object."""
    rng = random.Random(seed)
    rec = copy.deepcopy(_base_records()[which])
    for _ in range(n):
        rec = _mutate(rec, rng, junk)
        junk = junk[1:] + junk[:1]
    out = replay(rec)
    is_match = isinstance(rec, dict) and "deals" in rec
    if out["ok"]:
        assert set(out) in ({"ok", "over", "result"}, {"ok", "over", "to_act", "phase", "legal"})
        if out["over"]:
            assert sum(out["result"]["points"]) == 120
        else:
            assert out["legal"]
    else:
        keys = {"ok", "index", "action", "error"} | ({"deal"} if is_match else set())
        assert set(out) == keys
        assert isinstance(out["error"], str) and out["error"] and "\n" not in out["error"]


def test_determinize_from_every_phase_and_hidden_return() -> None:
    """SAS-19.1, SAS-7.7: determinize from observations across phases, incl. hidden returns."""
    rng = random.Random(2024)
    seen_phases = set()
    hidden = 0
    for _ in range(120):
        state = GAME.random_deal(rng, GAME.normalize_variant({}), rng.randrange(4))
        while not state.is_over:
            seat = rng.randrange(4)
            obs = state.observation(seat)
            hidden += "return ?" in obs.history
            sample = GAME.determinize(obs, rng)
            assert sample.observation(seat) == obs
            seen_phases.add(state.phase)
            state.apply(rng.choice(state.legal_actions()))
            if state.phase == "play" and len(state.history) > 14:
                break
    assert seen_phases >= {"cut", "exchange", "auction", "play"} and hidden > 0
    done = load_deal(replay_record := _base_records()[0])
    assert replay(replay_record)["ok"] and done.is_over


def test_shuffled_pack_is_a_uniform_permutation() -> None:
    """SAS-6.1: random deals come from a uniformly shuffled pack (chi-square on positions)."""
    from folkcards.games.sasku import shuffled_pack

    rng = random.Random(11)
    n = 3600
    counts = [[0] * 36 for _ in range(36)]
    deck_cards = sorted(shuffled_pack(rng))
    index = {c: i for i, c in enumerate(deck_cards)}
    for _ in range(n):
        for pos, c in enumerate(shuffled_pack(rng)):
            counts[index[c]][pos] += 1
    expected = n / 36
    chi2 = sum((x - expected) ** 2 / expected for row in counts for x in row)
    # 1225 degrees of freedom: mean 1225, sd ≈ 49.5; a biased shuffle lands far above
    assert 1000 < chi2 < 1450
    assert sorted(shuffled_pack(rng)) == deck_cards


def test_determinize_respects_bids_exchange_and_voids() -> None:
    """SAS-8.4, SAS-9.1, SAS-7.1, SAS-10.3: what the observation implies holds in samples."""
    from sasku_helpers import LONE_KS, SUIT_PER_SEAT, apply_all, deal

    from folkcards.games.sasku import PICTURES, SUIT_CARDS_OF, hand_length, potential_trumps

    rng = random.Random(3)
    state = apply_all(deal(SUIT_PER_SEAT), "bid 9; pass; pass; pass; trump S")
    for _ in range(20):
        sample = GAME.determinize(state.observation(0), rng)
        assert hand_length(sample.hands[1]) == 9 and potential_trumps(sample.hands[1], 1) == 9
    kept = apply_all(deal(LONE_KS), "keep")
    for _ in range(20):
        sample = GAME.determinize(kept.observation(2), rng)
        assert (sample.hands[1] & PICTURES).bit_count() == 1  # it was asked: one picture
    played = apply_all(deal(SUIT_PER_SEAT), "pass; pass; pass; pass; play AS; play JH")
    for _ in range(20):
        sample = GAME.determinize(played.observation(0), rng)
        assert not sample.hands[2] & SUIT_CARDS_OF[1]  # seat 2 trumped: void in spades


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), must_beat=st.booleans())
def test_play_exclusions_never_exclude_a_held_card(seed: int, must_beat: bool) -> None:
    """SAS-10.3, SAS-17.2: the voids and failures to beat read from the public play
    exclude no card that the seat holds, at any point of a random deal; and they do read
    something in most deals (a seat that discards is void in the led class and trumps)."""
    from folkcards.games.sasku import TRUMP_CONFIGS, play_exclusions

    rng = random.Random(seed)
    variant = GAME.normalize_variant({"must_beat": must_beat})
    state = GAME.random_deal(rng, variant, rng.randrange(4))
    found = 0
    while not state.is_over:
        if state.phase == "play":
            obs = state.observation(0)
            config = TRUMP_CONFIGS["CSHD".index(obs.info["trump"])]
            excluded = play_exclusions(obs.history, obs.actors, config, must_beat)
            for seat in range(4):
                assert state.hands[seat] & excluded[seat] == 0
            found |= any(excluded)
        state.apply(rng.choice(state.legal_actions()))
    assert found
