"""Regenerate the Sasku golden records (run by hand: ``python tests/games/sasku/make_golden.py``).

Each golden is a record (``NAME.json``) and the exact ``replay`` output it must give
(``NAME.out.json``). Deals are found by seeded random play so that together they cover
every dealing method, an exchange with a hidden return, the override, ``diamonds`` in
the auction, a passed deal, a lambapea, a 60–60 tie and its replay deal, and a match.
The outputs were checked by hand against the rules (points, strokes) and are also
cross-checked by the naive referee in ``test_golden.py``; regenerate only on purpose.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from folkcards.engine.match import Match
from folkcards.engine.records import replay
from folkcards.games.sasku import GAME, SaskuState

OUT = Path(__file__).parent / "golden"


def playout(seed: int, variant: dict[str, Any], dealer: int, **carry: Any) -> SaskuState:
    rng = random.Random(seed)
    state = GAME.random_deal(rng, GAME.normalize_variant(variant), dealer, carry=carry)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def find(
    want: Callable[[SaskuState], bool],
    variant: dict[str, Any] | None = None,
    dealer: int = 0,
    **carry: Any,
) -> SaskuState:
    for seed in range(200000):
        state = playout(seed, variant or {}, dealer, **carry)
        if want(state):
            return state
    raise SystemExit("no deal found")


def texts(state: SaskuState) -> list[str]:
    return [a.text for a in state.history]


def save(name: str, record: dict[str, Any]) -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
    (OUT / f"{name}.out.json").write_text(json.dumps(replay(record), indent=1) + "\n")
    print(name, json.dumps(replay(record))[:160])


def main() -> None:
    save(
        "deal_threes_override",
        find(
            lambda s: (
                texts(s)[0] == "deal threes"
                and any(a == "diamonds" for a in texts(s))
                and "trump S" in texts(s)
            )
        ).record(),
    )
    save(
        "deal_to_exchange_hidden_return",
        find(
            lambda s: (
                texts(s)[0].startswith("deal to") and any(a.startswith("return") for a in texts(s))
            ),
            dealer=2,
        ).record(),
    )
    save(
        "deal_ones_diamonds_in_auction",
        find(
            lambda s: (
                texts(s)[0] == "deal ones"
                and s.result()["bid"] is not None
                and texts(s).count("diamonds") == 1
                and s.phase == "over"
                and "trump D" not in texts(s)
                and not any(t.startswith("trump") for t in texts(s))
            ),
            dealer=1,
        ).record(),
    )
    save(
        "deal_cover_passed",
        find(lambda s: texts(s)[0] == "deal cover" and s.result()["passed"], dealer=3).record(),
    )
    save(
        "deal_nines_no_must_beat",
        find(
            lambda s: texts(s)[0] == "deal nines" and s.result()["declarer"] is not None,
            variant={"must_beat": False},
        ).record(),
    )
    save(
        "lambapea_target_12",
        find(lambda s: s.result()["lambapea"], variant={"target": 12, "exchange": False}).record(),
    )
    save(
        "named_trump_stands",
        find(
            lambda s: s.result()["trump"] == "H" and s.result()["declarer"] is not None, dealer=1
        ).record(),
    )
    tie = find(lambda s: s.result()["redeal"] and s.result()["declarer"] is not None)
    save("sixty_all", tie.record())
    save("replay_deal", playout(7, {}, tie.dealer, replay=tie.result()["replay"]).record())
    # a match with a 60–60 tie somewhere in it
    for seed in range(100000):
        m = Match(GAME, rng=random.Random(seed), dealer=seed % 4)
        rng = random.Random(seed + 1)
        while not m.is_over:
            d = m.new_deal()
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
            m.finish_deal()
        if any(d.result()["redeal"] for d in m.deals) and len(m.deals) <= 12:
            save("match_with_redeal", m.record())
            rec = m.record()
            rec["deals"][-1]["actions"] = rec["deals"][-1]["actions"][:20]
            save("match_unfinished_last_deal", rec)
            break
    # a deal record in progress (output with legal actions)
    partial = playout(3, {}, 0).record()
    partial["actions"] = partial["actions"][:7]
    save("in_progress", partial)


if __name__ == "__main__":
    sys.exit(main())
