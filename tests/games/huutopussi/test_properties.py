"""Properties over random legal playouts of every Huutopussi variant, an independent
scorer (HUU-9, HUU-11.4, HUU-12.7–12.9, HUU-13.4), and fuzzing of ``replay``."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkcards.cards import CARD_NAMES, DECK_36, parse_card
from folkcards.engine.actions import sorted_texts
from folkcards.engine.match import Match
from folkcards.engine.records import replay
from folkcards.games.huutopussi import GAME, HuutopussiState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"no_trick_rule": "porvoo"},
    {"card_points": "11-10-4-3-2", "last_trick": 10, "marriage_values": "bridge"},
    {"last_trick": 10, "tie": "extra_deal"},
    {"erlangen": True},
    {"erlangen": True, "marriage_values": "bridge", "tie": "extra_deal"},
    {"players": 3},
    {"players": 3, "card_points": "11-10-4-3-2", "marriage_values": "bridge"},
]
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ORDER = "AT KQJ9876".replace(" ", "")  # HUU-1.2 trick order


def playout(
    variant: dict[str, Any], rng: random.Random, totals: list[int] | None = None, check: bool = True
) -> tuple[HuutopussiState, list[HuutopussiState]]:
    n = GAME.num_seats(GAME.normalize_variant(variant))
    deck = [c for c in range(52) if DECK_36 >> c & 1]
    rng.shuffle(deck)
    carry = {"totals": totals} if totals else None
    s = GAME.new_deal(GAME.normalize_variant(variant), rng.randrange(n), deck, carry=carry)
    assert isinstance(s, HuutopussiState)
    snaps = []
    while not s.is_over:
        legal = s.legal_actions()
        assert legal, f"no legal action in phase {s.phase}"
        if check:
            conserved(s)
            texts = [a.text for a in legal]
            assert texts == sorted_texts(texts, GAME.deck) and len(set(texts)) == len(texts)
        if rng.random() < 0.12:
            snaps.append(s.clone())
        s.apply(rng.choice(legal))
    return s, snaps


def played_cards(s: HuutopussiState) -> int:
    return sum(
        1 << int(a.text.split()[1] and parse_card(a.text.split()[1]))
        for a in s.history
        if a.text.startswith("play ")
    )


def conserved(s: HuutopussiState) -> None:
    """Every card is in exactly one place: a hand, the tricks, a packet, the widow, discards."""
    places = [*s.hands, played_cards(s), s.packet, sum(1 << c for c in s.discards)]
    if s.num_seats == 3 and s.declarer < 0:
        places.append(sum(1 << c for c in s.widow))
    total = 0
    for p in places:
        assert not total & p, "a card is in two places"
        total |= p
    assert total == DECK_36


def oracle_points(s: HuutopussiState) -> list[int]:
    """Card points per side recomputed from the history with an independent trick referee."""
    pts = {"A": 10, "T": 10, "K": 5, "Q": 5, "J": 5}
    if s.rules.point_scheme == "11-10-4-3-2":
        pts = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    made = {i: x for _, x, i in s.declarations}
    trump: str | None = None
    sides = [0] * (3 if s.num_seats == 3 else 2)
    trick: list[tuple[int, str]] = []
    last = -1
    for i, (a, seat) in enumerate(zip(s.history, s.actors, strict=True)):
        if i in made:
            trump = "CSHD"[made[i]]
        if not a.text.startswith("play "):
            continue
        trick.append((seat, a.text.split()[1]))
        if len(trick) == s.num_seats:
            led = trick[0][1][1]
            trumps = [t for t in trick if t[1][1] == trump]
            pool = trumps or [t for t in trick if t[1][1] == led]
            winner = min(pool, key=lambda t: ORDER.index(t[1][0]))[0]
            side = winner if s.num_seats == 3 else winner % 2
            sides[side] += sum(pts.get(c[0], 0) for _, c in trick)
            last = side
            trick = []
    sides[last] += s.rules.last_trick
    if s.num_seats == 3:
        sides[s.declarer] += sum(pts.get(CARD_NAMES[c][0], 0) for c in s.discards)
    return sides


def r5(x: int) -> int:
    return x - x % 5 if x % 5 <= 2 else x + 5 - x % 5


def oracle_score(res: dict[str, Any], variant: dict[str, Any]) -> list[int]:
    """HUU-9.2–9.4, HUU-11.4, HUU-12.7–12.9, HUU-13.4 written out from the rules file."""
    if res["redeal"]:
        return [0] * len(res["score"])
    tot = [p + m for p, m in zip(res["points"], res["marriages"], strict=True)]
    tricks = res["tricks"]
    d, bid, c = res["declarer"], res["bid"], res["contract"]
    if variant.get("players") == 3:
        made = tot[d] >= c
        return [
            (c if made else -c) if s == d else ((-bid if made else 0) if not tricks[s] else tot[s])
            for s in range(3)
        ]
    if d is None:
        return [r5(t) for t in tot]
    ds, os = d % 2, 1 - d % 2
    made = tot[ds] >= c
    out = [0, 0]
    if variant.get("erlangen"):
        k = res["calls"]
        if not tricks[ds]:
            out[ds] = -2 * c
        elif made:
            out[ds] = c * 2**k
        else:
            out[ds] = -c * 2 ** (k - 1 if not tricks[os] and k >= 1 else k)
        out[os] = (-2 * c if made else 0) if not tricks[os] else r5(tot[os])
        return out
    out[ds] = c if made else -c
    out[os] = tot[os]
    if variant.get("no_trick_rule") == "porvoo":
        for t in (0, 1):
            if not tricks[t]:
                out[t] = -c
    elif not tricks[os]:
        out[os] = -bid
    return out


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: json.dumps(v))
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_playouts_conserve_cards_and_score_by_the_rules(variant: dict[str, Any], seed: int) -> None:
    """HUU-1.3, HUU-1.4, HUU-9.1–9.5, HUU-11.1–11.4, HUU-12.7–12.9, HUU-13.4 over random deals."""
    rng = random.Random(seed)
    s, _ = playout(variant, rng)
    res = s.result()
    if res["redeal"]:
        assert res["score"] == [0] * len(res["score"])
        return
    card_total = {"10-10-5-5-5": 140, "11-10-4-3-2": 120}[s.rules.point_scheme]
    assert sum(res["points"]) == card_total + s.rules.last_trick
    assert res["points"] == oracle_points(s)
    assert res["score"] == oracle_score(res, variant)
    assert sum(res["tricks"]) == s.rules.tricks
    assert res["no_tricks"] == [t for t, n in enumerate(res["tricks"]) if not n]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: json.dumps(v))
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_records_round_trip(variant: dict[str, Any], seed: int) -> None:
    """Conventions' replay contract: a record replays to the same result or in-progress state."""
    rng = random.Random(seed)
    s, snaps = playout(variant, rng, totals=None, check=False)
    assert replay(json.loads(json.dumps(s.record()))) == {
        "ok": True,
        "over": True,
        "result": s.result(),
    }
    for snap in snaps[:4]:
        out = replay(json.loads(json.dumps(snap.record())))
        assert out == {
            "ok": True,
            "over": False,
            "to_act": snap.to_act,
            "phase": snap.phase,
            "legal": snap.legal_texts(),
        }


def known_to(s: HuutopussiState, seat: int) -> int:
    """Cards a seat may legitimately see (HUU-14)."""
    k = s.hands[seat] | played_cards(s)
    if s.declarer >= 0 and seat in (s.declarer, s.partner):
        k |= sum(1 << c for c in set(s.given + s.returned))
    if s.num_seats == 3 and s.declarer >= 0:
        k |= sum(1 << c for c in s.widow)
        if seat == s.declarer:
            k |= sum(1 << c for c in s.discards)
    return k


def cards_in(obj: Any) -> int:
    found = 0
    if isinstance(obj, dict):
        for v in obj.values():
            found |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= cards_in(v)
    elif isinstance(obj, str):
        for tok in obj.split():
            if len(tok) == 2 and tok[0] in "AKQJT9876" and tok[1] in "CSHD":
                found |= 1 << parse_card(tok)
    return found


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: json.dumps(v))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_observations_do_not_leak_and_determinize_reproduces_them(
    variant: dict[str, Any], seed: int
) -> None:
    """HUU-14.1–14.8: no seat sees another's hidden cards; determinize matches the observation."""
    rng = random.Random(seed)
    s, snaps = playout(variant, rng, check=False)
    for snap in [*snaps[:3], s]:
        for seat in range(snap.num_seats):
            obs = snap.observation(seat)
            data = obs.to_dict()
            json.dumps(data)
            assert not cards_in(data) & ~known_to(snap, seat), "an observation leaks a hidden card"
            world = GAME.determinize(obs, random.Random(seed + seat))
            assert world.observation(seat) == obs
            if seat == snap.to_act:
                assert world.legal_actions() == snap.legal_actions()


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(range(len(VARIANTS))))
def test_matches_replay_and_carry_totals(seed: int, which: int) -> None:
    """HUU-10.1–10.4: a live match's record replays to the same totals; dealers rotate."""
    rng = random.Random(seed)
    m = Match(GAME, VARIANTS[which], rng=random.Random(seed), dealer=0)
    for _ in range(8):
        if m.is_over:
            break
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    rec = json.loads(json.dumps(m.record()))
    out = replay(rec)
    assert out["ok"] is True and out["result"]["totals"] == m.state.totals
    n = GAME.num_seats(m.variant)
    assert [d["dealer"] for d in rec["deals"]] == [i % n for i in range(len(rec["deals"]))]


def mutate(rec: dict[str, Any], rng: random.Random) -> Any:
    bad = copy.deepcopy(rec)
    acts = bad["actions"]
    kind = rng.randrange(10)
    if kind == 0 and acts:
        del acts[rng.randrange(len(acts))]
    elif kind == 1 and len(acts) > 1:
        i, j = rng.randrange(len(acts)), rng.randrange(len(acts))
        acts[i], acts[j] = acts[j], acts[i]
    elif kind == 2 and acts:
        i = rng.randrange(len(acts))
        acts[i] = acts[i][: rng.randrange(len(acts[i]) + 1)] + rng.choice(
            ["", "x", " 5", "H", "10", "\t"]
        )
    elif kind == 3 and acts:
        acts[rng.randrange(len(acts))] = rng.choice([None, 3, [], "", "answer maybe", "bid 445"])
    elif kind == 4:
        bad[rng.choice([*bad, "bogus"])] = rng.choice([None, -1, 2.0, "x", [], {}, True, [["AS"]]])
    elif kind == 5:
        del bad[rng.choice(list(bad))]
    elif kind == 6 and "deck" in bad:
        bad["deck"][rng.randrange(36)] = rng.choice(["5H", "ZZ", "AS", 7, "10h"])
    elif kind == 7:
        bad["totals"] = rng.choice([[0], [1, 2, 3], [-500, 0], ["0", 0], [0.0, 1], None, {}])
    elif kind == 8:
        bad["variant"] = rng.choice(
            [
                {"players": 3},
                {"erlangen": True, "players": 3},
                {"tie": 1},
                {"card_points": "10-10-5-5-5", "erlangen": True},
                [],
            ]
        )
    else:
        bad["extra"] = rng.choice(
            [{"widow": ["AS", "KS", "QS"]}, {"widow": "x"}, [], {"table": []}]
        )
    return bad


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: json.dumps(v))
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_records_never_crash_replay(variant: dict[str, Any], seed: int) -> None:
    """HUU-17.1, HUU-17.2: any mutation gives a valid result or the clean error object."""
    rng = random.Random(seed)
    s, _ = playout(variant, rng, check=False)
    rec = s.record()
    for _ in range(12):
        bad = mutate(rec, rng)
        out = replay(bad)
        json.dumps(out)
        # exactly one of the replay contract's three shapes (conventions.md)
        if out["ok"] is True:
            if out["over"] is True:
                assert set(out) == {"ok", "over", "result"} and "score" in out["result"]
            else:
                assert out["over"] is False
                assert set(out) == {"ok", "over", "to_act", "phase", "legal"} and out["legal"]
        else:
            assert out["ok"] is False
            assert set(out) == {"ok", "index", "action", "error"}
            assert isinstance(out["error"], str) and "\n" not in out["error"]
            if out["index"] is not None:
                assert out["action"] == bad["actions"][out["index"]]
