"""Regenerate the Scopone golden records: ``python tests/games/scopone/make_golden.py``.

Each golden is a deal or match record plus the ``replay`` output expected for it. Deals
are found by seeded searches (so this script is deterministic); ``test_golden.py``
checks the engine against every file and the naive reference referee against every
complete deal, so a golden is never just "what the engine printed".
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from folkcards.cards import BIT, CARD_NAMES, DECK_40, iter_cards
from folkcards.engine import Action, replay
from folkcards.games.scopone import COINS, GAME, ScoponeState

HERE = Path(__file__).parent / "golden"
Policy = Callable[[ScoponeState, random.Random], Action]


def rand_policy(state: ScoponeState, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def playout(state: ScoponeState, rng: random.Random, policy: Policy = rand_policy) -> None:
    while not state.is_over:
        state.apply(policy(state, rng))


def deck_of(rng: random.Random) -> list[int]:
    deck = list(iter_cards(DECK_40))
    rng.shuffle(deck)
    return deck


def save(name: str, record: dict[str, Any], note: str) -> None:
    out = replay(record)
    HERE.mkdir(exist_ok=True)
    record = dict(record)
    record["meta"] = {"note": note}
    (HERE / f"{name}.json").write_text(
        json.dumps({"record": record, "expected": out}, indent=1) + "\n", encoding="utf-8"
    )
    print(name, json.dumps(out)[:150])


def random_deal(seed: int, variant: dict[str, Any], dealer: int) -> dict[str, Any]:
    rng = random.Random(seed)
    v = GAME.normalize_variant(variant)
    while True:
        st = GAME.new_deal(v, dealer, deck_of(rng))
        if not st.is_over:
            break
    playout(st, rng)
    return st.record()


def find(
    variant: dict[str, Any], pred: Callable[[ScoponeState], bool], seed: int = 0
) -> dict[str, Any]:
    v = GAME.normalize_variant(variant)
    rng = random.Random(seed)
    for i in range(200000):
        st = GAME.new_deal(v, i % 4, deck_of(rng))
        playout(st, rng)
        if not st.redeal and pred(st):
            return st.record()
    raise RuntimeError("not found")


def sweep_on(turn: int) -> Callable[[ScoponeState], bool]:
    """A sweep was made on ``turn`` (replayed turn by turn)."""

    def pred(st: ScoponeState) -> bool:
        rec = st.record()
        s2 = GAME.new_deal(st.variant, st.dealer, list(st.deck or ()))
        for i, a in enumerate(rec["actions"]):
            before = list(s2.sweeps)
            s2.apply(a)
            if i + 1 == turn:
                return s2.sweeps != before
        return False

    return pred


def final_clears(st: ScoponeState) -> bool:
    """The dealer's last card captured everything left on the table."""
    last = st.history[-1]
    if not last.take:
        return False
    s2 = GAME.new_deal(st.variant, st.dealer, list(st.deck or ()))
    for a in st.history[:-1]:
        s2.apply(a)
    return int(last.take) == s2.table


def capotto_deal(seed: int, variant: dict[str, Any]) -> dict[str, Any]:
    """A deal where team 0 takes all ten coins (seats 0 and 2 hold them all)."""
    rng = random.Random(seed)
    v = GAME.normalize_variant(variant)
    coins = [c for c in iter_cards(DECK_40) if CARD_NAMES[c][1] == "D"]
    for _ in range(5000):
        rest = [c for c in iter_cards(DECK_40) if CARD_NAMES[c][1] != "D"]
        rng.shuffle(rest)
        team0 = coins + rest[:8]
        rng.shuffle(team0)
        others = rest[8:]
        hands = [team0[:9], others[:9], team0[9:], others[9:18]]
        table = others[18:22]
        st = GAME.new_deal(v, 3, None, hands=hands, extra={"table": table})
        if st.is_over:
            continue

        def policy(s: ScoponeState, r: random.Random) -> Action:
            legal = s.legal_actions()
            if s.to_act in (0, 2):
                coin = [a for a in legal if a.take and (a.take | BIT[a.card]) & COINS]
                take = [a for a in legal if a.take]
                plain = [a for a in legal if not BIT[a.card] & COINS]
                return r.choice(coin or take or plain or legal)
            return r.choice([a for a in legal if not a.take & COINS] or legal)

        playout(st, rng, policy)
        if st.result().get("capotto") == 0:
            return st.record()
    raise RuntimeError("no capotto found")


def match(
    variant: dict[str, Any],
    first_dealer: int,
    seed: int,
    deals_hook: Callable[[int, int], list[int] | None] | None = None,
) -> dict[str, Any]:
    """A complete match of random deals (``deals_hook(k, dealer)`` may force a deck)."""
    from folkcards.engine import Match

    rng = random.Random(seed)
    m = Match(GAME, variant, rng=rng, dealer=first_dealer)
    k = 0
    while not m.is_over:
        deck = deals_hook(k, m.next_dealer()) if deals_hook else None
        d = m.new_deal(deck)
        playout(d, rng)  # type: ignore[arg-type]
        m.finish_deal()
        k += 1
    return m.record()


def kings_deck(rng: random.Random, n: int) -> list[int]:
    """A deck with ``n`` kings among the classic table positions 12, 13, 26, 27."""
    kings = [c for c in iter_cards(DECK_40) if CARD_NAMES[c][0] == "K"]
    rest = [c for c in iter_cards(DECK_40) if CARD_NAMES[c][0] != "K"]
    rng.shuffle(rest)
    deck = rest[:]
    for pos, kc in zip([12, 13, 26, 27][:n], kings[:n], strict=True):
        deck.insert(pos, kc)
    deck += kings[n:]
    return deck


def main() -> None:
    save("classic_deal", random_deal(1, {}, 0), "a complete classic deal, dealer 0")
    save("classic_deal_dealer2", random_deal(2, {}, 2), "a complete classic deal, dealer 2")
    save("scientifico_deal", random_deal(3, {"scientifico": True}, 1), "SCO-8.1 deal")
    allv = {
        "re_bello": True,
        "napola": True,
        "primiera_pictures": "graded",
        "dealer_last_sweep": True,
    }
    save("all_variants_deal", random_deal(4, allv, 3), "re bello, napola, graded, last sweep")
    rng = random.Random(5)
    save(
        "redeal_three_kings",
        {
            "game": "scopone",
            "dealer": 1,
            "deck": [CARD_NAMES[c] for c in kings_deck(rng, 3)],
            "actions": [],
        },
        "SCO-3.4: three kings on the table",
    )
    save(
        "redeal_with_action",
        {
            "game": "scopone",
            "dealer": 2,
            "deck": [CARD_NAMES[c] for c in kings_deck(rng, 4)],
            "actions": ["play AC"],
        },
        "SCO-3.4 / SCO-10.2: no action after a void deal",
    )
    rec = find({}, sweep_on(1), seed=6)
    save("turn1_sweep", rec, "SCO-10.4: eldest sweeps on turn 1")
    rec = find({}, sweep_on(35), seed=7)
    save("turn35_sweep", rec, "SCO-10.5: sweep on turn 35, dealer's last card is leftover")
    rec = find({}, final_clears, seed=8)
    save("final_turn_clear", rec, "SCO-10.6: last card clears the table, no sweep")
    rec2 = dict(rec, variant={"dealer_last_sweep": True})
    save("final_turn_clear_last_sweep", rec2, "SCO-8.2: same deal, the final capture is a sweep")
    rec = find({"scientifico": True}, sweep_on(2), seed=9)
    save("scientifico_turn2_sweep", rec, "SCO-5.1: scientifico sweep on turn 2")
    save("capotto_deal", capotto_deal(10, {"napola": True}), "SCO-8.4: capotto, napola 10")
    save("match_classic", match({}, 2, 11), "a complete match to 11")

    def redeal_second(k: int, dealer: int) -> list[int] | None:
        return kings_deck(random.Random(k), 3) if k == 1 else None

    save(
        "match_with_redeal",
        match({"target": 5}, 0, 12, redeal_second),
        "SCO-7.1: redeal keeps dealer",
    )
    # SCO-7.3: equal totals at or above the target go on.
    for seed in range(13, 400):
        rec = match({"target": 2}, 1, seed)
        totals = [0, 0]
        tie = False
        for d in rec["deals"]:
            r = replay(dict(d, game="scopone", variant={"target": 2}))["result"]
            totals = [totals[0] + r["score"][0], totals[1] + r["score"][1]]
            if totals[0] == totals[1] and totals[0] >= 2:
                tie = True
        if tie:
            save("match_tie_over_target", rec, "SCO-7.3 / SCO-10.7: equal totals over target go on")
            break
    # SCO-8.4: capotto ends the match at once whatever the totals.
    cap = capotto_deal(14, {"napola": True, "target": 21})
    del cap["game"], cap["variant"]
    save(
        "match_capotto",
        {"game": "scopone", "variant": {"napola": True, "target": 21}, "deals": [cap]},
        "SCO-7.3: capotto wins the match below the target",
    )
    full = match({}, 0, 15)
    part = json.loads(json.dumps(full))
    part["deals"][-1]["actions"] = part["deals"][-1]["actions"][:7]
    save("match_unfinished", part, "SCO-7.5: last deal in progress")


if __name__ == "__main__":
    sys.exit(main())
