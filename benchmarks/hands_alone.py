"""Sampled deals by their hands alone: as exact as the whole deals, and what they save.

    python benchmarks/hands_alone.py sasku --positions 40 --check 100000
    python benchmarks/hands_alone.py satat --positions 40 --check 100000 \
        --bots bsearch,bsearch:worlds=1100:read=0.5

A batched search in card play needs nothing of a sampled deal but its hands (and, in
Satat, the trump maker's first five: ``GameKernel.encode_hands``), so a game that can draw them alone
(``Game.determinize_hands``) skips rebuilding and replaying each deal. On ``--positions``
card-play observations of seeded deals played by the heuristic (every dealer; Sasku's
``must_beat`` on and off; Satat's variants, with and without card passing), this prints:

* the verdicts compared: ``--check`` draws, each judged both by the whole deal replayed
  through the rules (``_build``) and by the hands alone (``_check``); any disagreement is
  printed and the run fails;
* deals drawn per second, whole and by their hands alone, timed in turns on the same
  observations (the ratio is from one run);
* ms per decision of ``--bots`` (default ``bsearch``, ``bsearch:worlds=850:policy=heuristic``)
  with the kernel taking hands alone and taking whole deals, in turns on the same
  observations and seeds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from folkcards.batch import kernel_for
from folkcards.bots.registry import make_bot
from folkcards.bots.search import quick_choice
from folkcards.engine.api import Observation
from folkcards.engine.determinize import Infeasible, Reject
from folkcards.games import GAMES

SATAT_VARIANTS: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
    ({}, None),
    ({"signals": "all"}, {"redeals": 0, "passing": {"winners": 0, "cards": 1}}),
    ({"signals": "home"}, {"redeals": 1, "passing": {"winners": 1, "cards": 2}}),
    ({"trup_kasiet": True, "signals": "all"}, None),
]
"""Satat's main game with and without card passing and signals, and Trup Kasiet."""


def _new_deal(game: str, rng: random.Random, d: int) -> Any:
    """Deal ``d`` of the positions: every dealer; Sasku's ``must_beat`` on and off;
    Satat's variants and card passing (:data:`SATAT_VARIANTS`)."""
    g = GAMES[game]
    if game == "satat":
        variant, carry = SATAT_VARIANTS[d % len(SATAT_VARIANTS)]
        deck = list(range(52))
        rng.shuffle(deck)
        return g.new_deal(g.normalize_variant(variant), d % 4, deck, carry=carry)
    variant = {"must_beat": d % 2 == 0} if game == "sasku" else {}
    return g.random_deal(rng, variant, dealer=d % 4)


def observations(game: str, count: int) -> list[Observation]:
    """``count`` card-play observations of a seat with a choice from which the game draws
    hands alone, from seeded heuristic deals (:func:`_new_deal`), a few per deal."""
    g = GAMES[game]
    out: list[Observation] = []
    d = 0
    while len(out) < count:
        rng = random.Random(f"hands-alone:{game}:{d}")
        state: Any = _new_deal(game, rng, d)
        while not state.is_over and len(out) < count:
            obs = state.observation(state.to_act)
            if (
                state.phase == "play"
                and len(obs.legal) > 1
                and rng.random() < 0.25
                and g.determinize_hands(obs, random.Random(0)) is not None
            ):
                out.append(obs)
            state.apply(quick_choice(obs, rng))
        d += 1
    return out


class _Judges:
    """One game's draw of an observation and its two judges: the whole deal built and
    replayed (``_build``), and the hands alone (``_check``)."""

    def __init__(self, game: str) -> None:
        self.game = GAMES[game]
        if game == "sasku":
            from folkcards.games.sasku import determinize as det
        elif game == "satat":
            from folkcards.games.satat import determinize as det  # type: ignore[no-redef]
        else:
            raise SystemExit(f"{game} has no hands-alone judge")
        self.det: Any = det
        self.sasku = game == "sasku"
        self.kernel: Any = kernel_for(game)

    def draw(self, obs: Observation, rng: random.Random, k: int) -> tuple[Any, Any]:
        prepared = self.det._prepared(obs)
        if self.sasku:
            return prepared, self.det._draw(prepared, rng, k % 4)
        return prepared, self.det._draw(prepared, rng)

    def build(self, obs: Observation, prepared: Any, draw: Any, k: int) -> Any:
        return self.det._build(self.game, obs, prepared, draw, random.Random(k))

    def check(self, obs: Observation, prepared: Any, draw: Any, k: int) -> None:
        if self.sasku:
            self.det._check(self.game, obs, prepared, draw)
        else:
            self.det._check(self.game, obs, prepared, draw, random.Random(k))

    def row(self, obs: Observation, prepared: Any, draw: Any) -> list[int]:
        """The row ``determinize_hands`` gives for an accepted draw."""
        if self.sasku:
            return list(draw.hands)
        return list(self.det._hands_row(obs, prepared, draw))


def check_verdicts(
    game: str, obs_list: list[Observation], draws: int, seed: int = 1
) -> tuple[int, int]:
    """Draws judged by the whole deal and by the hands alone (the game's ``_build`` and
    ``_check``), the observations taken in turn: (accepted, rejected). SystemExit on the
    first draw they judge apart, or where the built deal's row (``hands_of``) is not the
    one the hands alone give."""
    judges = _Judges(game)
    rng = random.Random(seed)
    accepted = rejected = 0
    k = 0
    while accepted + rejected < draws:
        obs = obs_list[k % len(obs_list)]
        try:
            prepared, draw = judges.draw(obs, rng, k)
        except (Reject, Infeasible):
            k += 1
            continue
        verdicts: list[str | None] = []
        try:
            world = judges.build(obs, prepared, draw, k)
            verdicts.append(None)
        except Reject as exc:
            verdicts.append(str(exc))
        try:
            judges.check(obs, prepared, draw, k)
            verdicts.append(None)
        except Reject as exc:
            verdicts.append(str(exc))
        if (verdicts[0] is None) != (verdicts[1] is None):
            sys.exit(f"verdicts differ: {verdicts} on {list(obs.history)}")
        if verdicts[0] is None and judges.kernel.hands_of(world) != judges.row(obs, prepared, draw):
            sys.exit(f"the built deal's hands are not the draw's on {list(obs.history)}")
        accepted += verdicts[0] is None
        rejected += verdicts[0] is not None
        k += 1
    return accepted, rejected


def draws_per_second(game: str, obs_list: list[Observation], per: int) -> tuple[float, float]:
    """Deals drawn per second, whole (``determinize``) and hands alone, in turns."""
    g = GAMES[game]
    spent = [0.0, 0.0]
    for i, obs in enumerate(obs_list):
        for which in (0, 1) if i % 2 else (1, 0):
            rng = random.Random(i)
            draw = g.determinize if which == 0 else g.determinize_hands
            t = time.perf_counter()
            for _ in range(per):
                draw(obs, rng)
            spent[which] += time.perf_counter() - t
    n = per * len(obs_list)
    return n / spent[0], n / spent[1]


def decision_ms(game: str, obs_list: list[Observation], spec: str) -> tuple[float, float]:
    """ms per decision of ``spec`` with whole deals and with hands alone, in turns."""
    kernel: Any = kernel_for(game)
    bot = make_bot(spec)
    bot.evaluate(obs_list[0], random.Random(0))  # compile and warm
    spent = [0.0, 0.0]
    drawing = kernel.draws_hands
    try:
        for i, obs in enumerate(obs_list):
            for which in (0, 1) if i % 2 else (1, 0):
                kernel.draws_hands = bool(which) and drawing
                t = time.perf_counter()
                bot.evaluate(obs, random.Random(i))
                spent[which] += time.perf_counter() - t
    finally:
        kernel.draws_hands = drawing
    return spent[0] * 1000 / len(obs_list), spent[1] * 1000 / len(obs_list)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--check", type=int, default=10_000, help="draws whose verdicts to compare")
    ap.add_argument("--per", type=int, default=50, help="deals drawn per position when timed")
    ap.add_argument("--bots", default="bsearch,bsearch:worlds=850:policy=heuristic")
    args = ap.parse_args()
    console = Console()
    kernel: Any = kernel_for(args.game)
    if kernel is None or not kernel.draws_hands:
        sys.exit(f"{args.game} draws no hands alone (Game.determinize_hands)")
    obs_list = observations(args.game, args.positions)
    accepted, rejected = check_verdicts(args.game, obs_list, args.check)
    console.print(
        f"verdicts: {accepted + rejected:,} draws, {accepted:,} accepted and {rejected:,} "
        "rejected by both, none apart"
    )
    whole, alone = draws_per_second(args.game, obs_list, args.per)
    table = Table(title=f"{args.game}: {len(obs_list)} card-play positions")
    table.add_column("measure")
    table.add_column("whole deals", justify="right")
    table.add_column("hands alone", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row(
        "deals drawn per second", f"{whole:,.0f}", f"{alone:,.0f}", f"{alone / whole:.2f}"
    )
    for spec in args.bots.split(","):
        old, new = decision_ms(args.game, obs_list, spec)
        table.add_row(f"ms a decision, {spec}", f"{old:.1f}", f"{new:.1f}", f"{old / new:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
