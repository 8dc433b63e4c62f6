"""Regenerate the golden corpus of illegal-action messages (run by hand, on purpose only:
``python tests/engine/make_explanations_golden.py``).

The corpus was first written by the engine as it was *before* structured explanations
(``DealState.explain``) existed, so ``test_explain.py`` can check that every message text
stayed exactly what it was: ``explain(a).text``, ``explain_illegal(a)`` and the message of
the ``IllegalAction`` that ``apply`` raises. Deals come from seeded random play over
random variants and carried-over keys; at each position every illegal action is explained
and kept while its *shape* (the text with cards and numbers blanked) is still rare in the
corpus, so every branch of every game's messages is present a few times without the file
growing large. Bad texts (parse errors) are probed at a few positions too.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import DealState, FolkcardsError, Game, MalformedRecord
from folkcards.games import GAMES

OUT = Path(__file__).parent / "golden" / "explanations.json"
CAP = 6
"""Texts kept per message shape and game."""
DEALS = 160
"""Random deals played per game."""

BAD_TEXTS = [
    "",
    "   ",
    "bogus",
    "play",
    "play ZZ",
    "play 5H",
    "play 2C",
    "play AS take",
    "play AS take AS",
    "play AS take KS KS",
    "play AS take 8C",
    "give AH",
    "give 7C",
    "return KC",
    "bid 3",
    "bid 1000",
    "bid 52",
    "deal",
    "deal sevens",
    "trump X",
    "trump",
    "call QC",
    "bury",
    "play AS grate pile",
    "give AS AS",
    "hide",
    "answer",
    "ask",
    "play é",
    "contract 33",
]


def shape(text: str) -> str:
    """The message with cards, numbers and quoted actions blanked."""
    t = re.sub(r"'[^']*'", "'…'", text)
    t = re.sub(r"\b(10|[AKQJT2-9])[CSHD]\b", "#", t)
    return re.sub(r"\d+", "N", t)


def random_variant(game: Game, rng: random.Random) -> dict[str, Any]:
    for _ in range(50):
        v: dict[str, Any] = {}
        for opt in game.variant_options:
            if rng.random() < 0.3:
                continue  # left out: its default (and Erlangen forbids some keys, HUU-11.5)
            if opt.choices:
                v[opt.key] = rng.choice(opt.choices)
            elif isinstance(opt.default, bool):
                v[opt.key] = rng.random() < 0.5
        try:
            game.normalize_variant(v)
        except MalformedRecord:
            continue
        return v
    raise AssertionError(game.name)


def random_carry(game: Game, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Carried-over keys that reach the rarer phases and messages."""
    v = game.normalize_variant(variant)
    r = rng.random()
    if game.name == "sasku" and r < 0.2:
        return {"replay": {"trump": rng.choice("CSHD"), "declarer": rng.randrange(4)}}
    if game.name == "satat" and not v["trup_kasiet"]:
        if r < 0.35:
            return {"passing": {"winners": rng.randrange(2), "cards": rng.choice((1, 2))}}
        if r < 0.5:
            return {"redeals": 2}
    if game.name == "huutopussi" and r < 0.3:
        n = game.num_teams(v)
        return {"totals": [rng.choice((-600, 0, 100)) for _ in range(n)]}
    if game.name == "sheepshead" and v["no_pick"] == "doubler" and r < 0.3:
        return {"stake": 2}
    return {}


def candidates(game: Game, state: DealState, rng: random.Random) -> list[Any]:
    """Illegal actions to explain at ``state``: the whole action space (Scopone: plays of
    every card, with random take sets)."""
    legal = set(state.legal_actions())
    table = game.all_actions(state.variant)
    if table is not None:
        return [a for a in table if a not in legal]
    from folkcards.games.scopone import action_for

    out = []
    deck = list(iter_cards(game.deck))
    for c in deck:
        out.append(action_for(c))
        for _ in range(3):
            k = rng.choice((1, 1, 2, 3))
            take = rng.sample([d for d in deck if d != c], k)
            m = 0
            for t in take:
                m |= 1 << t
            out.append(action_for(c, m))
    return [a for a in out if a not in legal]


def probe(state: DealState, action: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"action": action.text, "text": state.explain_illegal(action)}
    table = state.game.all_actions(state.variant)
    if table is not None:
        entry["code"] = int(action)
    for how, arg in (("apply", action), ("apply_text", action.text)):
        try:
            state.clone().apply(arg)
        except FolkcardsError as exc:
            entry[how] = str(exc)
        # else: the text is a legal spelling (Scopone's lone "play C" names its only capture)
    return entry


def bad_text(state: DealState, text: str) -> dict[str, Any]:
    try:
        state.clone().apply(text)
    except FolkcardsError as exc:
        return {"action": text, "apply_text": str(exc), "error": type(exc).__name__}
    raise LookupError  # the text was legal here: not a probe


def steer(state: DealState, rng: random.Random) -> Any:
    """A random legal action, steered now and then into a rare phase (Satat's partner
    holding no trump, SAT-6.1: the ``propose`` and ``consent`` phases)."""
    legal = state.legal_actions()
    if state.game.name == "satat" and state.phase == "trump" and rng.random() < 0.6:
        partner = state.p  # type: ignore[attr-defined]
        hand = state.hands[partner]  # type: ignore[attr-defined]
        lacking = [
            a
            for a in legal
            if a.text.startswith("trump ") and not hand >> (13 * "CSHD".index(a.text[-1])) & 0x1FFF
        ]
        if lacking:
            return rng.choice(lacking)
    return rng.choice(legal)


def main() -> None:
    corpus: list[dict[str, Any]] = []
    for name, game in GAMES.items():
        seen: Counter[str] = Counter()
        rng = random.Random(f"explain-{name}")
        for _deal in range(DEALS):
            variant = random_variant(game, rng)
            v = game.normalize_variant(variant)
            carry = random_carry(game, variant, rng)
            dealer = rng.randrange(game.num_seats(v))
            try:
                state = game.random_deal(rng, variant, dealer, carry=carry)
            except MalformedRecord:
                continue
            steps: list[tuple[int, dict[str, Any]]] = []
            while True:
                k = len(state.history)
                over = state.is_over
                pool = candidates(game, state, rng)
                rng.shuffle(pool)
                took = 0
                for a in pool:
                    text = state.explain_illegal(a)
                    key = shape(text)
                    if seen[key] >= CAP or took >= 4:
                        continue
                    seen[key] += 1
                    took += 1
                    steps.append((k, probe(state, a)))
                if k == 0 or over or rng.random() < 0.08:
                    for text in BAD_TEXTS:
                        try:
                            entry = bad_text(state, text)
                        except LookupError:
                            continue
                        key = "parse:" + shape(entry["apply_text"])
                        if seen[key] >= CAP:
                            continue
                        seen[key] += 1
                        steps.append((k, entry))
                if over:
                    break
                state.apply(steer(state, rng))
            if steps:
                record = json.loads(json.dumps(state.record()))
                corpus.append({"record": record, "probes": [{"at": k, **e} for k, e in steps]})
        print(f"{name}: {len(seen)} shapes", file=sys.stderr)
    OUT.write_text(json.dumps(corpus, separators=(",", ":")) + "\n")
    n = sum(len(d["probes"]) for d in corpus)
    print(f"{n} probes in {len(corpus)} deals -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
