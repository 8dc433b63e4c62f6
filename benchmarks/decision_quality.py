"""How good a bot's card is, decision by decision, judged on the true deal.

    python benchmarks/decision_quality.py sasku --deals 60 --seed 90 \
        --bots search:iters=200,bsearch:worlds=850:policy=heuristic

A tournament between two searches that both improve on the same heuristic needs hundreds of
boards to tell two points apart: most deals are won by the cards, and only the few whose
outcome a card decides say anything. This benchmark asks the question where it is decided.
It plays ``--deals`` deals with ``--players`` at every seat (``bsearch`` unless given),
keeps the card-play decisions with a choice, and hands each one's observation to every bot
of ``--bots`` (fair: a bot sees only its seat's observation). Each card is then valued on
the true deal by the judges of ``benchmarks/open_hands.py``'s ``openhands`` (which see
every card and exist only here):

* ``playout``: the heuristic's playouts of the true deal until four tricks are left, the
  rest solved by the kernel's double-dummy solver (``policy=heuristic:solve=0:leaf=4``,
  the valuation that won 63.5 % against ``search:iters=200`` in the open);
* ``solved``: the rest of the deal solved exactly with every hand open, on decisions with
  at most six tricks left (``solve=6``).

A bot's *gain* is the judge's value of its card minus that of the heuristic's card, in the
utility of :func:`folkcards.bots.base.utilities` (0 to 1, three quarters the deal's winner):
the rollout improvement it makes where it leaves the heuristic, and the harm where it
leaves it wrongly. Means carry a 95 % percentile bootstrap over deals (the decisions of a
deal are not independent). Each judge sees every card, so its values are not the truth
of a fair game: a bot that guesses the hidden cards better scores better, and a
difference that both judges show is worth a tournament's time; one that neither shows is
not.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

from folkcards.batch import kernel_for
from folkcards.bots.base import Bot, play_deal
from folkcards.bots.registry import make_bot
from folkcards.bots.search import quick_choice
from folkcards.engine.api import DealState
from folkcards.games import GAMES
from folkcards.rl import register_bots_for

JUDGES = {
    "playout": {"policy": "heuristic", "solve": 0, "leaf": 4, "bridge": 0},
    "solved": {"solve": 6, "bridge": 0},
}
"""The judges: ``openhands`` options (``benchmarks/open_hands.py``)."""
SOLVED_FROM = 6
"""The most tricks left at a decision the ``solved`` judge values (its ``solve``)."""

if str(Path(__file__).parent) not in sys.path:  # run from the tests, not as a script
    sys.path.insert(0, str(Path(__file__).parent))
open_hands = importlib.import_module("open_hands")


class Recorder(Bot):
    """A seat's bot that plays as ``inner`` and keeps a copy of the deal at each card-play
    decision with a choice the kernel can play out."""

    def __init__(self, inner: Bot, kept: list[DealState], truth: list[DealState]) -> None:
        self.inner = inner
        self.kept = kept
        self.truth = truth
        self.name = inner.name

    def evaluate(self, obs: Any, rng: random.Random) -> Any:
        state = self.truth[0]
        kernel = kernel_for(obs.game)
        if (
            kernel is not None
            and obs.phase == "play"
            and len(obs.legal) > 1
            and kernel.accepts(state)
            and min(kernel.action_code(state, a) for a in obs.legal) >= 0
        ):
            self.kept.append(state.clone())
        return self.inner.evaluate(obs, rng)


def collect(game: str, players: str, deals: int, seed: int) -> list[tuple[int, DealState]]:
    """The card-play decisions of ``deals`` deals played by ``players`` at every seat,
    each with the index of its deal."""
    out: list[tuple[int, DealState]] = []
    for d in range(deals):
        rng = random.Random(seed * 100_003 + d)
        state = GAMES[game].random_deal(rng)
        kept: list[DealState] = []
        truth = [state]
        bots = [Recorder(make_bot(players), kept, truth) for _ in range(state.num_seats)]
        play_deal(state, bots, [random.Random(rng.getrandbits(64)) for _ in bots])
        out.extend((d, s) for s in kept)
    return out


_BOTS: dict[str, Bot] = {}
"""The judges and the bots of a process, made once (a bot keeps no state between decisions)."""


def _bot(key: str, make: Any, *args: Any) -> Bot:
    if key not in _BOTS:
        _BOTS[key] = make(*args)
    return _BOTS[key]


def _judge(item: tuple[int, int, DealState, list[str], int]) -> dict[str, Any]:
    """One decision: every judge's value of every legal card, and every bot's card."""
    index, deal, state, specs, seed = item
    obs = state.observation(state.to_act)  # type: ignore[arg-type]
    rng = random.Random(seed * 7_919 + index)
    open_hands.TRUTH[:] = [state]
    tricks_left = kernel_for(obs.game).tricks_left(state)  # type: ignore[union-attr]
    values: dict[str, dict[str, float]] = {}
    for judge, opts in JUDGES.items():
        if judge == "solved" and tricks_left > SOLVED_FROM:
            continue
        bot = _bot(f"judge {judge}", open_hands.make_open_hands, dict(opts), judge)
        values[judge] = dict(bot.evaluate(obs, random.Random(0)).values)
    open_hands.TRUTH.clear()
    heuristic = quick_choice(obs, random.Random(rng.getrandbits(64))).text
    chosen: dict[str, str] = {}
    ms: dict[str, float] = {}
    for spec in specs:
        bot = _bot(spec, make_bot, spec)
        t0 = time.perf_counter()
        chosen[spec] = bot.choose(obs, random.Random(rng.getrandbits(64))).text
        ms[spec] = 1000.0 * (time.perf_counter() - t0)
    return {"deal": deal, "tricks_left": tricks_left, "heuristic": heuristic,
            "values": values, "chosen": chosen, "ms": ms}  # fmt: skip


def bootstrap(by_deal: dict[int, list[float]], reps: int = 2000) -> tuple[float, float, float]:
    """The mean over decisions and its 95 % percentile bootstrap over deals (whole deals
    are drawn, each with all its decisions; ``folkcards.tournament.stats.bootstrap_ci``
    draws single values, which would treat a deal's correlated decisions as independent)."""
    groups = [v for v in by_deal.values() if v]
    n = sum(len(g) for g in groups)
    if not n:
        return 0.0, 0.0, 0.0
    mean = sum(sum(g) for g in groups) / n
    rng = random.Random(1)
    means = []
    for _ in range(reps):
        pick = [groups[rng.randrange(len(groups))] for _ in groups]
        k = sum(len(g) for g in pick)
        means.append(sum(sum(g) for g in pick) / k if k else 0.0)
    means.sort()
    return mean, means[int(0.025 * reps)], means[int(0.975 * reps) - 1]


def summarize(rows: list[dict[str, Any]], specs: list[str]) -> dict[str, Any]:
    """Per bot and judge: the mean gain over the heuristic's card, how often the bot left
    the heuristic's card and how often that was right and wrong, the mean regret (the
    judge's best card's value minus the bot's), and ms per decision."""
    out: dict[str, Any] = {}
    for spec in specs:
        entry: dict[str, Any] = {
            "ms_per_decision": round(sum(r["ms"][spec] for r in rows) / len(rows), 2),
            "left_heuristic": round(
                sum(r["chosen"][spec] != r["heuristic"] for r in rows) / len(rows), 4
            ),
        }
        for judge in JUDGES:
            by_deal: dict[int, list[float]] = {}
            better = worse = 0
            regret = 0.0
            for r in rows:
                v = r["values"].get(judge)
                if v is None:
                    continue
                g = v[r["chosen"][spec]] - v[r["heuristic"]]
                regret += max(v.values()) - v[r["chosen"][spec]]
                by_deal.setdefault(r["deal"], []).append(g)
                better += g > 1e-9
                worse += g < -1e-9
            mean, low, high = bootstrap(by_deal)
            entry[judge] = {
                "decisions": sum(len(g) for g in by_deal.values()),
                "gain": round(mean, 5),
                "low": round(low, 5),
                "high": round(high, 5),
                "better": better,
                "worse": worse,
                "regret": round(regret / max(1, sum(len(g) for g in by_deal.values())), 5),
            }
        out[spec] = entry
    return out


def paired(rows: list[dict[str, Any]], specs: list[str]) -> dict[str, Any]:
    """Each bot's value of its card minus the first bot's, per judge: over every decision
    and over the late, middle and early thirds of the deal (by tricks left), each a mean
    per decision with its 95 % bootstrap over deals. The same decisions, so the deals' luck
    cancels; a difference between two runs of one bot shows the noise of its sampling."""
    ref = specs[0]
    most = max(r["tricks_left"] for r in rows)
    third = -(-most // 3)
    bands = {"all": (1, most), "late": (1, third), "middle": (third + 1, 2 * third),
             "early": (2 * third + 1, most)}  # fmt: skip
    out: dict[str, Any] = {"against": ref, "bands": bands}
    for spec in specs[1:]:
        entry: dict[str, Any] = {}
        for judge in JUDGES:
            for band, (lo, hi) in bands.items():
                by_deal: dict[int, list[float]] = {}
                for r in rows:
                    v = r["values"].get(judge)
                    if v is None or not lo <= r["tricks_left"] <= hi:
                        continue
                    d = v[r["chosen"][spec]] - v[r["chosen"][ref]]
                    by_deal.setdefault(r["deal"], []).append(d)
                if by_deal:
                    mean, low, high = bootstrap(by_deal)
                    n = sum(len(g) for g in by_deal.values())
                    entry[f"{judge} {band}"] = {"decisions": n, "difference": round(mean, 5),
                                                "low": round(low, 5), "high": round(high, 5)}  # fmt: skip
        out[spec] = entry
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--bots", default="search:iters=200,bsearch")
    ap.add_argument("--players", default="bsearch")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=90)
    ap.add_argument("--positions", type=int, default=0, help="keep this many (0: all)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="also write the summary to this file")
    ap.add_argument("--rows", help="and every decision judged to this one")
    args = ap.parse_args(argv)
    specs = args.bots.split(",")
    register_bots_for((*specs, args.players))
    t0 = time.perf_counter()
    found = collect(args.game, args.players, args.deals, args.seed)
    if args.positions and len(found) > args.positions:
        keep = sorted(random.Random(args.seed).sample(range(len(found)), args.positions))
        found = [found[i] for i in keep]
    items = [(i, d, s, specs, args.seed) for i, (d, s) in enumerate(found)]
    print(f"{len(items)} decisions from {args.deals} deals ({time.perf_counter() - t0:.0f} s)",
          file=sys.stderr)  # fmt: skip
    if args.workers <= 1:
        rows = [_judge(item) for item in items]
    else:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            rows = pool.map(_judge, items, chunksize=4)
    summary = summarize(rows, specs)
    pairs = paired(rows, specs) if len(specs) > 1 else {}
    for spec, e in summary.items():
        parts = [f"{spec}: {e['ms_per_decision']:.1f} ms, left the heuristic "
                 f"{e['left_heuristic']:.1%}"]  # fmt: skip
        for judge in JUDGES:
            j = e[judge]
            parts.append(
                f"{judge} ({j['decisions']}) gain {1000 * j['gain']:+.2f} "
                f"[{1000 * j['low']:+.2f}, {1000 * j['high']:+.2f}] per mille, "
                f"{j['better']} better / {j['worse']} worse"
            )
        print("; ".join(parts))
    for spec, entry in pairs.items():
        if spec in ("against", "bands"):
            continue
        for key, e in entry.items():
            if key.endswith(" all"):
                print(f"{spec} - {pairs['against']}: {key} {1000 * e['difference']:+.2f} "
                      f"[{1000 * e['low']:+.2f}, {1000 * e['high']:+.2f}] per mille")  # fmt: skip
    head = {"game": args.game, "players": args.players, "deals": args.deals, "seed": args.seed,
            "decisions": len(rows)}  # fmt: skip
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({**head, "summary": summary, "paired": pairs}, f, indent=1)
    if args.rows:
        with open(args.rows, "w", encoding="utf-8") as f:
            json.dump({**head, "rows": rows}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
