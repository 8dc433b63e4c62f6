"""Regenerate the Sheepshead golden records (by hand: ``python tests/games/sheepshead/make_golden.py``).

Each golden is a record (``NAME.json``) and the exact ``replay`` output (``NAME.out.json``).
``deal_called_all_tricks`` was checked by hand (see ``shp_helpers.ACTIONS_A``); every
finished deal is also cross-checked by the naive referee in ``test_golden.py``. The others
are found by seeded random play so that together they cover every mode, a ten call,
double on the bump, a doubler stake, an illegal action, and matches. Regenerate only on
purpose: the outputs are the regression reference.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from shp_helpers import ACTIONS_A, playout, record

from folkcards.engine.match import Match
from folkcards.engine.records import replay
from folkcards.games.sheepshead import GAME, SheepsheadDeal

OUT = Path(__file__).parent / "golden"


def find(
    want: Callable[[SheepsheadDeal], bool], variant: dict[str, Any] | None = None, stake: int = 1
) -> dict[str, Any]:
    for seed in range(100000):
        st = playout(random.Random(seed), variant, seed % 5, stake)
        if want(st):
            return st.record()
    raise SystemExit("no deal found")


def save(name: str, rec: Any) -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n")
    (OUT / f"{name}.out.json").write_text(json.dumps(replay(rec), indent=1) + "\n")
    print(name, json.dumps(replay(rec))[:150])


def match(variant: dict[str, Any], seed: int, pass_out: int, stop: int | None = None) -> Any:
    m = Match(GAME, variant, rng=random.Random(seed), dealer=seed % 5)
    rng = random.Random(seed + 1)
    while not m.is_over:
        st = m.new_deal()
        while not st.is_over:
            if len(m.deals) <= pass_out and st.phase == "pick":
                st.apply("pass")
            elif stop is not None and len(m.deals) == stop and len(st.history) == 12:
                return m.record()
            else:
                st.apply(rng.choice(st.legal_actions()))
        m.finish_deal()
    return m.record()


def main() -> None:
    save("deal_called_all_tricks", record(actions=ACTIONS_A))
    save(
        "deal_called_defenders_win",
        find(lambda s: s.mode == "called" and s.result()["won_by"] == "defenders"),
    )
    save("deal_ten_call", find(lambda s: s.mode == "called" and s.result()["called"][0] == "T"))
    save("deal_alone_schneider", find(lambda s: s.mode == "alone" and s.result()["level"] == 2))
    save(
        "deal_bump_no_trick",
        find(
            lambda s: s.mode == "called" and s.result()["picker_tricks"] == 0,
            {"double_on_bump": True},
        ),
    )
    save(
        "deal_leaster_tie",
        find(lambda s: s.mode == "leaster" and len(s.result()["leaster_winners"]) > 1),
    )
    save("deal_doubler_stake", find(lambda s: s.mode == "called", {"no_pick": "doubler"}, 4))
    save(
        "deal_doubler_pass_out",
        record(actions=["pass"] * 5, variant={"no_pick": "doubler"}, stake=2),
    )
    save("deal_in_progress", record(actions=ACTIONS_A[:12]))
    bad = ["pass", "pass", "pass", "pick", "bury TH", "bury 9H", "call AC"]
    save(
        "deal_hold_rule_breach", record(actions=[*bad, "play KS", "play 7H", "play 9S", "play 8C"])
    )
    save("match_doubler", match({"no_pick": "doubler", "match_deals": 2}, 3, 2))
    save("match_in_progress", match({"match_deals": 3}, 8, 0, stop=2))


if __name__ == "__main__":
    main()
