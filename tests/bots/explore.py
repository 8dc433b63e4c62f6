"""Decision points of every registered game: sample observations of every decision type.

Each game is explored in its default rules and with each variant option changed on its
own, through whole matches (so carried-over state such as Satat's card passing comes up)
with heuristic and random players mixed, and one observation is kept per (variant,
phase, action verbs) seen.
"""

from __future__ import annotations

import random
from typing import Any

from folkcards.bots.base import play_deal
from folkcards.bots.registry import make_bot
from folkcards.engine.api import Game, Observation
from folkcards.engine.match import Match

EXPECTED_PHASES = {
    "sasku": {"cut", "exchange", "auction", "declare", "override", "play"},
    "scopone": {"play"},
    "sheepshead": {"pick", "bury", "call", "play"},
    "satat": {"trump", "propose", "consent", "give", "announce", "play", "lese", "continue"},
    "huutopussi": {"bidding", "give", "contract", "return", "discard", "play", "answer"},
}
"""Every phase in which a seat decides, from each game's rules file."""


def variants(game: Game) -> list[dict[str, Any]]:
    """The default variant and each option alone at each non-default value (ints skipped)."""
    out: list[dict[str, Any]] = [{}]
    for opt in game.variant_options:
        if isinstance(opt.default, bool):
            out.append({opt.key: not opt.default})
        elif opt.choices is not None:
            out.extend({opt.key: c} for c in opt.choices if c != opt.default)
    good = []
    for v in out:
        try:
            game.normalize_variant(v)
            game.new_deal(game.normalize_variant(v), 0, _deck(game, 0))
        except ValueError:
            continue
        good.append(v)
    return good


def _deck(game: Game, seed: int) -> list[int]:
    from folkcards.cards import iter_cards

    deck = list(iter_cards(game.deck))
    random.Random(seed).shuffle(deck)
    return deck


class Recorder:
    """Wraps a bot and keeps one observation per decision type it is asked."""

    def __init__(self, spec: str, seen: dict[tuple[str, str, str], Observation], key: str):
        self.bot = make_bot(spec)
        self.name = spec
        self.seen = seen
        self.key = key

    def choose(self, obs: Observation, rng: random.Random) -> Any:
        verbs = " ".join(sorted({a.text.split(" ")[0] for a in obs.legal}))
        self.seen.setdefault((self.key, obs.phase, verbs), obs)
        return self.bot.choose(obs, rng)


def decision_points(
    game: Game, matches: int = 6, deals_per_match: int = 6
) -> dict[tuple[str, str, str], Observation]:
    """One observation per (variant, phase, verbs) reached in a few mixed matches."""
    seen: dict[tuple[str, str, str], Observation] = {}
    for v in variants(game):
        key = ",".join(f"{k}={val}" for k, val in v.items()) or "default"
        for m in range(matches):
            rng = random.Random(f"explore:{game.name}:{key}:{m}")
            match = Match(game, v, rng=rng, dealer=m % game.num_seats(game.normalize_variant(v)))
            n = game.num_seats(match.variant)
            specs = ["heuristic" if (s + m) % 2 else "random" for s in range(n)]
            if m % 3 == 2:
                specs = ["heuristic"] * n
            bots: list[Any] = [Recorder(s, seen, key) for s in specs]
            rngs = [random.Random(f"{m}:{s}") for s in range(n)]
            for _ in range(deals_per_match):
                if match.is_over:
                    break
                play_deal(match.new_deal(), bots, rngs)
                match.finish_deal()
    return seen
