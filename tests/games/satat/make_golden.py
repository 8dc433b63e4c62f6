"""Write the golden Satat records ``golden/NAME.json`` and their ``replay`` output ``NAME.out.json``.

Run ``python tests/games/satat/make_golden.py`` to regenerate after a deliberate rules
change; ``test_golden.py`` replays every file and compares. The hand-built deals
(``*_13_0``, ``*_7_0``) are also checked fact by fact in ``test_golden.py``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from satat_helpers import RANKS, suit_cards  # noqa: E402

from folkcards.cards import CARD_NAMES  # noqa: E402
from folkcards.engine import Match, replay  # noqa: E402
from folkcards.games.satat import GAME, deck_from_hands  # noqa: E402


def d1() -> list[list[str]]:
    return [
        suit_cards("C"),
        ["2H", *suit_cards("S")[:12]],
        [*suit_cards("H")[:12], "2S"],
        suit_cards("D"),
    ]


def seven_nil(signals: bool = False) -> list[str]:
    acts = ["trump S", "pass", "announce"] if signals else ["trump S", "pass"]
    seat2 = ["2S", *suit_cards("H")[:6]]
    for i in range(7):
        acts += [
            f"play {'AKQJT98'[i]}S",
            f"play {seat2[i]}",
            f"play {RANKS[i]}D",
            f"play {RANKS[i]}C",
        ]
    return acts


def random_deal(
    seed: int, variant: dict[str, Any], carry: dict[str, Any] | None = None
) -> dict[str, Any]:
    rng = random.Random(seed)
    deck = [CARD_NAMES[c] for c in range(52)]
    rng.shuffle(deck)
    rec: dict[str, Any] = {
        "game": "satat",
        "variant": variant,
        "dealer": seed % 4,
        "deck": deck,
        "actions": [],
    }
    if carry:
        rec.update(carry)
    from folkcards.engine import load_deal

    st = load_deal(rec)
    while not st.is_over:
        legal = [a for a in st.legal_actions() if a.text not in ("redeal", "accept")]
        st.apply(rng.choice(legal))
    return st.record()


def random_match(
    seed: int, variant: dict[str, Any], first: list[str] | None = None
) -> dict[str, Any]:
    rng = random.Random(seed)
    m = Match(GAME, variant, rng=random.Random(seed))
    if first is not None:
        m = Match(GAME, variant, rng=random.Random(seed), dealer=0, match_keys={})
        idx = {n: i for i, n in enumerate(CARD_NAMES)}
        d = m.new_deal(deck_from_hands([[idx[c] for c in h] for h in d1()], 0))
        for a in first:
            d.apply(a)
        m.finish_deal()
    for _ in range(6):
        if m.is_over:
            break
        d = m.new_deal()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        m.finish_deal()
    return m.record()


def main() -> None:
    out = HERE / "golden"
    out.mkdir(exist_ok=True)
    records: dict[str, Any] = {
        "deal_main": random_deal(1, {}),
        "deal_trup_kasiet": random_deal(2, {"trup_kasiet": True}),
        "deal_signals_all": random_deal(3, {"signals": "all"}),
        "deal_passing_two": random_deal(
            4, {"signals": "home"}, {"passing": {"winners": 0, "cards": 2}}
        ),
        "deal_hands_7_0": {
            "game": "satat",
            "dealer": 0,
            "hands": d1(),
            "actions": [*seven_nil(), "stop"],
        },
        "deal_hands_13_0": {
            "game": "satat",
            "dealer": 0,
            "hands": d1(),
            "actions": [
                *seven_nil(),
                "continue",
                *[
                    a
                    for r, h in zip("76543", "87654", strict=True)
                    for a in (f"play {r}S", f"play {h}H", f"play {r}D", f"play {r}C")
                ],
                "play 2H",
                "play 3H",
                "play 2D",
                "play 2C",
            ],
        },
        "match_draw": random_match(5, {}),
        "match_trup_kasiet_target": random_match(6, {"trup_kasiet": True, "match_target": 3}),
        "match_after_7_0": random_match(7, {"signals": "home"}, first=[*seven_nil(True), "stop"]),
    }
    for name, rec in records.items():
        result = replay(json.loads(json.dumps(rec)))
        assert result["ok"], (name, result)
        (out / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
        (out / f"{name}.out.json").write_text(json.dumps(result) + "\n", encoding="utf-8")
        print(name, result.get("result", {}).get("outcome"))


if __name__ == "__main__":
    main()
