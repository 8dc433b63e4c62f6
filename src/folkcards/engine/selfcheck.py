"""The engine's self-check: random deals and matches, the contract checked after every action.

:func:`run_selfcheck` plays random deals and matches of each game, cycling through the
variant options so that every value of every option is played (combined with random
values of the others), and after every action checks the invariants of the engine API
and of conventions.md:

* *cheap* checks, at every action: exactly one seat to act; the legal set non-empty,
  unique, in the conventions' order, each text parsing back to its action; every seat's
  observation (legal actions only for the seat to act); the public observation's shape;
  card conservation (each game's ``Game.cards_aside``); an illegal action raising
  :class:`~folkcards.engine.api.IllegalAction` and leaving the state as it was;
* *deep* checks, sampled every ``deep_every``-th action (and at the end of each deal):
  determinization from the seat to act and from a random other seat, the public
  observation of those worlds, a pickle round trip, a clone's independence, a replay of
  the record so far, the full before/after comparison around an illegal action;
* at the end of every deal: its record replays to ``{"ok": true, "over": true, "result":
  …}``; at the end of every match: its record replays to the same totals and winner.

Every deal's randomness comes from the seed, the game and the deal's index only, so the
same seed plays the same deals on one core, on many or on Ray (:func:`run_jobs`). A
failure carries the exact record so far, which ``folkcards replay`` reads as it is (the
self-check's facts are in its ``meta``).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import pickle
import random
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TypeVar

from folkcards.cards import (
    CARD_NAMES,
    CARD_NUMBERS,
    SUITS,
    CardError,
    CardSet,
    iter_cards,
    parse_card,
)
from folkcards.engine import registry
from folkcards.engine.actions import Action, Step, sorted_texts
from folkcards.engine.api import (
    SPECTATOR,
    DealState,
    FolkcardsError,
    Game,
    IllegalAction,
    MalformedRecord,
    Observation,
    VariantOption,
)
from folkcards.engine.conservation import CardView, NotConserved
from folkcards.engine.info import Info
from folkcards.engine.match import Match
from folkcards.engine.records import load_match, replay, start_deal
from folkcards.raycluster import ray_session

DEFAULT_DEEP_EVERY = 8
"""Deep checks (determinize, pickle, clone, replay) at every 8th action by default."""
DEALS_PER_JOB = 50
"""Deals per unit of work. Fixed (not derived from the worker count), so that the digest,
which hashes each job's outcome in job order, is the same on any number of workers."""
MAX_ACTIONS = 5000
"""A deal longer than this is a failure (a loop in the rules)."""
EXHAUSTIVE_VARIANTS = 20000
"""Variant spaces up to this size are searched exhaustively for a valid combination."""


class CheckFailed(Exception):
    """One invariant broken: ``check`` names it (``legal.sorted``, ``replay.end``, …)."""

    def __init__(self, check: str, message: str, detail: str = "") -> None:
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message
        self.detail = detail


def _fail(check: str, message: str) -> CheckFailed:
    return CheckFailed(check, message)


# --- variants ---------------------------------------------------------------------------


def option_values(option: VariantOption) -> tuple[Any, ...]:
    """The values of an option that the self-check plays: both booleans, every choice;
    for an integer range its default, minimum, minimum + 1 and maximum (those that exist)."""
    if option.choices is not None:
        return tuple(option.choices)
    if type(option.default) is bool:
        return (False, True)
    if type(option.default) is int:
        vals = {option.default}
        if option.minimum is not None:
            vals.update((option.minimum, option.minimum + 1))
        if option.maximum is not None:
            vals.add(option.maximum)
        return tuple(sorted(vals))
    return (option.default,)


@dataclass(frozen=True)
class VariantTarget:
    """One option value to play (``key``/``value``; ``key`` None = a fixed variant), with a
    combination the game accepts (``fallback``, a raw record variant)."""

    key: str | None
    value: Any
    fallback: Mapping[str, Any]

    @property
    def label(self) -> str:
        """``key=value`` (or the fixed variant's JSON)."""
        if self.key is None:
            return json.dumps(dict(self.fallback), sort_keys=True)
        return f"{self.key}={json.dumps(self.value)}"


def _raw(game: Game, values: Mapping[str, Any]) -> dict[str, Any]:
    """A record variant: only the options that differ from their defaults."""
    return {o.key: values[o.key] for o in game.variant_options if values[o.key] != o.default}


def _accepts(game: Game, raw: Mapping[str, Any]) -> bool:
    try:
        game.normalize_variant(dict(raw))
    except MalformedRecord:
        return False
    return True


def plan_variants(
    game: Game, fixed: Mapping[str, Any] | None = None, seed: int = 0
) -> tuple[list[VariantTarget], list[str]]:
    """The option values to cycle through and, as messages, the values that no valid
    combination accepts (each one a failure, never silently skipped).

    ``fixed``: a raw variant that every deal plays (validated by the game; MalformedRecord
    if it rejects it)."""
    if fixed is not None:
        game.normalize_variant(dict(fixed))
        return [VariantTarget(None, None, dict(fixed))], []
    options = game.variant_options
    if not options:
        return [VariantTarget(None, None, {})], []
    values = {o.key: option_values(o) for o in options}
    size = 1
    for vs in values.values():
        size *= len(vs)
    rng = random.Random(f"folkcards-selfcheck:{seed}:{game.name}:variants")
    targets: list[VariantTarget] = []
    problems: list[str] = []
    for o in options:
        for value in values[o.key]:
            found: dict[str, Any] | None = None
            defaults = {x.key: x.default for x in options}
            first = _raw(game, {**defaults, o.key: value})
            if _accepts(game, first):
                found = first
            else:
                combos: Iterator[dict[str, Any]]
                if size <= EXHAUSTIVE_VARIANTS:
                    combos = (
                        dict(zip(values, combo, strict=True))
                        for combo in itertools.product(*values.values())
                    )
                else:
                    combos = ({k: rng.choice(vs) for k, vs in values.items()} for _ in range(2000))
                for combo in combos:
                    if combo[o.key] != value:
                        continue
                    raw = _raw(game, combo)
                    if _accepts(game, raw):
                        found = raw
                        break
            if found is None:
                how = "any combination" if size <= EXHAUSTIVE_VARIANTS else "2000 random ones"
                problems.append(
                    f"variant {o.key}={json.dumps(value)} of {game.name} is accepted by no "
                    f"combination of the other options (tried {how})"
                )
            else:
                targets.append(VariantTarget(o.key, value, found))
    return targets, problems


def variant_for(game: Game, target: VariantTarget, rng: random.Random) -> dict[str, Any]:
    """A random raw variant that plays ``target``: random values of the other options,
    reset to their defaults one by one while the game rejects the combination."""
    if target.key is None:
        return dict(target.fallback)
    values = {o.key: rng.choice(option_values(o)) for o in game.variant_options}
    values[target.key] = target.value
    defaults = {o.key: o.default for o in game.variant_options}
    for _ in range(len(values) + 1):
        raw = _raw(game, values)
        if _accepts(game, raw):
            return raw
        others = [k for k in values if k != target.key and values[k] != defaults[k]]
        if not others:
            break
        k = rng.choice(others)
        values[k] = defaults[k]
    return dict(target.fallback)


# --- card conservation --------------------------------------------------------------------


_PACK_CARDS: dict[CardSet, list[int]] = {}


def _pack_cards(deck: CardSet) -> list[int]:
    """The card numbers of a pack, listed once per pack."""
    cards = _PACK_CARDS.get(deck)
    if cards is None:
        cards = _PACK_CARDS[deck] = list(iter_cards(deck))
    return cards


def _play_card(game: Game, action: Action) -> int | None:
    """The card of a ``play C …`` action (the card leaving the actor's hand), else None."""
    text = action.text
    if not text.startswith("play "):
        return None
    token = text.split(" ", 2)[1]
    try:
        return parse_card(token, game.deck)
    except CardError:
        return None


# --- the deal checker ---------------------------------------------------------------------


MEMO_SIZE = 200_000
"""Legal sets (and texts) remembered per game and variant before the memory starts over."""


@dataclass
class _Memo:
    """Per game and variant: legal lists already found sorted, texts already parsed."""

    sorted_ok: set[tuple[str, ...]] = field(default_factory=set)
    parsed: dict[str, int] = field(default_factory=dict)

    def remember_sorted(self, key: tuple[str, ...]) -> None:
        if len(self.sorted_ok) >= MEMO_SIZE:
            self.sorted_ok.clear()
        self.sorted_ok.add(key)

    def remember_parsed(self, text: str, code: int) -> None:
        if len(self.parsed) >= MEMO_SIZE:
            self.parsed.clear()
        self.parsed[text] = code


_MEMOS: dict[tuple[int, int, str], _Memo] = {}


def _memo(game: Game, variant: Mapping[str, Any]) -> _Memo:
    """The memo of a game's variant (a new one when the game's parser is replaced)."""
    parser = getattr(game.parse_action, "__func__", game.parse_action)
    key = (id(game), id(parser), json.dumps(dict(variant), sort_keys=True))
    memo = _MEMOS.get(key)
    if memo is None:
        memo = _MEMOS[key] = _Memo()
    return memo


@dataclass
class Counters:
    """What a run checked."""

    deals: int = 0
    matches: int = 0
    match_deals: int = 0
    actions: int = 0
    deep: int = 0

    def add(self, other: Counters) -> None:
        """Add another run's counts."""
        self.deals += other.deals
        self.matches += other.matches
        self.match_deals += other.match_deals
        self.actions += other.actions
        self.deep += other.deep


def _json_round(value: Any) -> Any:
    return json.loads(json.dumps(value))


_NAMED = frozenset(CARD_NUMBERS) | frozenset(SUITS) | {"?"}
"""The words of an action's text that a Step names in ``cards``, ``suit`` or ``hidden``."""


def _check_step(who: str, index: int, step: object) -> None:
    """A history entry is a :class:`Step` whose structure is its text's (docs/engine.md
    §2): the verb, the cards and ``?`` it names, and its action exactly when it hides none."""
    if not isinstance(step, Step):
        raise _fail(
            "observation.steps",
            f"{who}.history[{index}] is a {type(step).__name__}, not a Step: {step!r}",
        )
    words = step.split(" ")
    hidden = words.count("?")
    cards = tuple(CARD_NUMBERS[w] for w in words[1:] if w in CARD_NUMBERS)
    others = tuple(w for w in words[1:] if w not in _NAMED and not w.isdigit())
    action = step.action
    if (
        step.kind != words[0]
        or step.hidden != hidden
        or step.cards != cards
        or step.words != others
        or (action is None) != (hidden > 0)
        or (action is not None and action.text != step)
    ):
        raise _fail(
            "observation.steps",
            f"{who}.history[{index}] {str(step)!r} carries kind {step.kind!r}, cards "
            f"{[CARD_NAMES[c] for c in step.cards]}, words {list(step.words)}, hidden "
            f"{step.hidden}, action "
            f"{action!r}, which its text does not say",
        )


def _same_legal(a: Sequence[Action], b: Sequence[Action]) -> bool:
    return [(int(x), x.text) for x in a] == [(int(x), x.text) for x in b]


class DealChecker:
    """Plays one deal to its end (or through given actions), checking after every action."""

    def __init__(
        self,
        state: DealState,
        crng: random.Random,
        deep_every: int,
        counters: Counters,
    ) -> None:
        self.state = state
        self.game = state.game
        self.crng = crng
        self.deep_every = deep_every
        self.offset = crng.randrange(deep_every) if deep_every > 0 else 0
        self.counters = counters
        self.played: CardSet = 0
        self.space: tuple[Action, ...] | None = self.game.all_actions(state.variant)
        self.cards = _pack_cards(self.game.deck)
        self.texts: list[str] = []
        self.hands: list[CardSet] = []
        self.pending: str | None = None
        self.memo = _memo(self.game, state.variant)
        """The text of the action being applied (kept when applying it fails)."""

    # the record so far, from the setup and the texts applied (robust if the state breaks)
    def record_so_far(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The deal record of everything applied so far."""
        return {**setup, "actions": list(self.texts)}

    def play(self, choose: Callable[[DealState, tuple[Action, ...]], Action | str]) -> None:
        """Check, choose, apply, until the deal is over; CheckFailed on the first fault."""
        state = self.state
        n = 0
        while not state.is_over:
            if n >= MAX_ACTIONS:
                raise _fail("deal.length", f"the deal is not over after {MAX_ACTIONS} actions")
            deep = self.deep_every > 0 and (n + self.offset) % self.deep_every == 0
            legal = self.check_point(deep)
            action = choose(state, legal)
            self.apply(action, legal)
            n += 1
        self.check_over()

    def apply(self, action: Action | str, legal: tuple[Action, ...]) -> None:
        """Apply one action, checking that a played card leaves the actor's hand."""
        state = self.state
        actor = state.to_act
        assert actor is not None
        self.pending = str(action)
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise _fail("record.action", f"{action!s} was refused: {exc}") from None
        self.pending = None
        applied = state.history[-1]
        self.texts.append(applied.text)
        card = _play_card(self.game, applied)
        if card is not None:
            bit = 1 << card
            if self.played & bit:
                raise _fail("cards.played", f"{CARD_NAMES[card]} is played a second time")
            if self.hands and not self.hands[actor] & bit:
                raise _fail(
                    "cards.played", f"seat {actor} played {CARD_NAMES[card]}, not in its hand"
                )
            self.played |= bit

    # --- at every action ----------------------------------------------------------------
    def check_point(self, deep: bool) -> tuple[Action, ...]:
        """Every check of a state that is not over; returns its legal actions."""
        state = self.state
        self.counters.actions += 1
        seat = state.to_act
        n = state.num_seats
        if type(seat) is not int or not 0 <= seat < n:
            raise _fail("to_act", f"to_act is {seat!r}, not a seat 0–{n - 1}, while not over")
        if not isinstance(state.phase, str) or not state.phase:
            raise _fail("phase", f"phase is {state.phase!r}")
        legal = state.legal_actions()
        self.check_legal(legal)
        observations = [state.observation(s) for s in range(n)]
        for s, obs in enumerate(observations):
            self.check_observation(s, obs, legal)
        public = state.public_observation()
        self.check_public(public)
        self.hands = [obs.hand for obs in observations]
        self.check_cards(observations, public)
        self.check_illegal(legal, observations, public, deep)
        if deep:
            self.counters.deep += 1
            self.check_deep(legal, observations, public)
        return legal

    def check_legal(self, legal: tuple[Action, ...]) -> None:
        """Non-empty, Actions, unique, sorted, each text parsing back to itself.

        What depends only on the texts (their order, each one's parse) is remembered per
        game and variant, so a legal set seen before costs one look-up."""
        if not isinstance(legal, tuple) or not legal:
            raise _fail("legal.nonempty", f"no legal action while seat {self.state.to_act} acts")
        texts = []
        for a in legal:
            if not isinstance(a, Action):
                raise _fail("legal.type", f"{a!r} is not an Action")
            if str(a) != a.text:
                raise _fail("legal.type", f"str({a!r}) is {str(a)!r}")
            texts.append(a.text)
        if len(set(texts)) != len(texts) or len({int(a) for a in legal}) != len(legal):
            raise _fail("legal.unique", f"repeated legal actions: {texts}")
        memo = self.memo
        key = tuple(texts)
        if key not in memo.sorted_ok:
            order = sorted_texts(texts, self.game.deck)
            if order != texts:
                raise _fail(
                    "legal.sorted", f"legal {texts} is not in the conventions' order {order}"
                )
            memo.remember_sorted(key)
        for a in legal:
            code = memo.parsed.get(a.text)
            if code is None:
                try:
                    back = self.game.parse_action(a.text, self.state.variant)
                except FolkcardsError as exc:
                    raise _fail("legal.parse", f"{a.text!r} does not parse: {exc}") from None
                if back.text != a.text:
                    raise _fail("legal.parse", f"{a.text!r} parses to {back!r}, not {a!r}")
                code = int(back)
                memo.remember_parsed(a.text, code)
            if code != int(a):
                raise _fail("legal.parse", f"{a.text!r} parses to code {code}, not {a!r}")

    def check_observation(self, s: int, obs: Observation, legal: tuple[Action, ...]) -> None:
        """A seat's observation: its seat, the game, legal actions only for the seat to act."""
        state = self.state
        if obs.seat != s or obs.num_seats != state.num_seats or obs.game != self.game.name:
            raise _fail(
                "observation.seat",
                f"observation({s}) has seat {obs.seat}, {obs.num_seats} seats, game {obs.game!r}",
            )
        if len(obs.history) != len(obs.actors):
            raise _fail("observation.history", f"observation({s}): history and actors differ")
        if obs.history:
            _check_step(f"observation({s})", len(obs.history) - 1, obs.history[-1])
        if obs.hand & ~self.game.deck:
            raise _fail("cards.pack", f"observation({s}).hand holds cards outside the pack")
        if s == state.to_act:
            if not _same_legal(obs.legal, legal):
                raise _fail(
                    "observation.legal",
                    f"observation({s}).legal {[str(a) for a in obs.legal]} differs from "
                    f"legal_actions() {[str(a) for a in legal]}",
                )
            if obs.to_act != s or obs.phase != state.phase:
                raise _fail(
                    "observation.to_act",
                    f"observation({s}) of the seat to act says to_act {obs.to_act}, phase "
                    f"{obs.phase!r} (state: {s}, {state.phase!r})",
                )
        elif obs.legal:
            raise _fail(
                "observation.legal",
                f"seat {s} is not to act (seat {state.to_act} is) but has legal actions "
                f"{[str(a) for a in obs.legal]}",
            )

    def check_public(self, public: Observation) -> None:
        """A spectator's view: seat SPECTATOR, no hand, no legal actions."""
        state = self.state
        if not isinstance(public, Observation):
            raise _fail("public.shape", f"public_observation() is {type(public).__name__}")
        if public.seat != SPECTATOR or public.hand != 0 or public.legal != ():
            raise _fail(
                "public.shape",
                f"public_observation() has seat {public.seat}, hand {public.hand:#x}, "
                f"{len(public.legal)} legal actions (expected SPECTATOR, none, none)",
            )
        if public.num_seats != state.num_seats or public.game != self.game.name:
            raise _fail("public.shape", "public_observation() names another game or table")
        if public.is_over != state.is_over:
            raise _fail("public.shape", f"public_observation().is_over is {public.is_over}")
        if len(public.history) != len(public.actors):
            raise _fail("public.shape", "public_observation(): history and actors differ")
        if public.history:
            _check_step("public_observation()", len(public.history) - 1, public.history[-1])
        if not isinstance(public.info, Info):  # docs/engine.md §2: a game's typed facts
            raise _fail(
                "info.typed",
                f"public_observation().info is a {type(public.info).__name__}, not the "
                "game's frozen Info dataclass",
            )

    def check_cards(self, observations: list[Observation], public: Observation) -> None:
        """Hands disjoint and within the pack; hand sizes as published; no played card in a
        hand; the rest of the pack where the game says it is (``Game.cards_aside``)."""
        deck = self.game.deck
        union = 0
        for s, h in enumerate(self.hands):
            if h & union:
                dup = [CARD_NAMES[c] for c in iter_cards(h & union)]
                raise _fail("cards.disjoint", f"{dup} in the hand of seat {s} and of another")
            union |= h
        if self.played & union:
            back = [CARD_NAMES[c] for c in iter_cards(self.played & union)]
            raise _fail("cards.played", f"played cards {back} are in a hand again")
        sizes = [h.bit_count() for h in self.hands]
        for who, obs in (("public", public), ("to_act", observations[self.state.to_act or 0])):
            published = obs.info.get("hand_sizes") if isinstance(obs.info, Mapping) else None
            if published is not None and list(published) != sizes:
                raise _fail(
                    "cards.hand_sizes",
                    f"{who} observation shows hand sizes {list(published)}, hands hold {sizes}",
                )
        view = CardView(self.game, self.state, self.hands, self.played, observations)
        try:
            expected = self.game.cards_aside(view)  # the game's own conservation fact
        except NotConserved as exc:
            raise _fail("cards.conserved", str(exc)) from None
        except (KeyError, TypeError, IndexError) as exc:
            raise _fail(
                "cards.conserved", f"the observations lack a pile ({type(exc).__name__}: {exc})"
            ) from None
        if expected is None:
            return
        known, hidden = expected
        off = deck & ~union & ~self.played
        if off & known != known or off.bit_count() != known.bit_count() + hidden:
            raise _fail(
                "cards.conserved",
                f"{off.bit_count()} cards are out of hand and unplayed "
                f"({[CARD_NAMES[c] for c in iter_cards(off)]}); the observations account for "
                f"{[CARD_NAMES[c] for c in iter_cards(known)]} and {hidden} unseen",
            )

    def illegal_candidate(self, legal: tuple[Action, ...]) -> Action | str | None:
        """A random action that is not legal now: from the game's action space (as an
        Action or as its text) or a mutated legal text; None if none was found."""
        rng = self.crng
        codes = {int(a) for a in legal}
        texts = {a.text for a in legal}
        for _ in range(8):
            kind = rng.randrange(4)
            if self.space and kind < 2:
                a = rng.choice(self.space)
                if int(a) in codes:
                    continue
                return a if kind == 0 else a.text
            text = self._mutate(rng.choice(legal).text)
            if text in texts:
                continue
            try:
                parsed = self.state.parse_action(text)
            except IllegalAction:
                return text
            if int(parsed) not in codes:
                return text
        return None

    def _mutate(self, text: str) -> str:
        rng = self.crng
        tokens = text.split(" ")
        cards = self.cards
        how = rng.randrange(7)
        if how == 0 and len(tokens) > 1:
            i = rng.randrange(1, len(tokens))
            tokens[i] = CARD_NAMES[rng.choice(cards)]
        elif how == 1:
            tokens.append(CARD_NAMES[rng.choice(cards)])
        elif how == 2 and len(tokens) > 1:
            tokens.pop()
        elif how == 3:
            nums = [i for i, t in enumerate(tokens) if t.isdigit()]
            if nums:
                i = rng.choice(nums)
                tokens[i] = str(int(tokens[i]) + rng.choice((-5, -1, 1, 5, 1000)))
            else:
                tokens.append(str(rng.randrange(100)))
        elif how == 4:
            tokens[0] = rng.choice(("zap", "play", "bid", "pass", "take", "give"))
        elif how == 5:
            return rng.choice(("", "   ", "play ZZ", "play 1X", "bid -1", "pass pass", "\u00e9"))
        else:
            tokens.insert(1, rng.choice(("X", "H", "99", "take", "no")))
        return " ".join(tokens)

    def _snapshot(self) -> tuple[Any, ...]:
        state = self.state
        return (
            state.record(),
            [state.observation(s) for s in range(state.num_seats)],
            state.public_observation(),
            state.legal_texts(),
        )

    def check_illegal(
        self,
        legal: tuple[Action, ...],
        observations: list[Observation],
        public: Observation,
        deep: bool,
    ) -> None:
        """An illegal action raises IllegalAction and changes nothing."""
        state = self.state
        candidate = self.illegal_candidate(legal)
        if candidate is None:
            return
        before = (len(state.history), state.to_act, state.phase)
        full = self._snapshot() if deep else None
        try:
            state.apply(candidate)
        except IllegalAction:
            pass
        except Exception as exc:
            raise _fail(
                "illegal.error",
                f"apply({candidate!r}) raised {type(exc).__name__}: {exc}, not IllegalAction",
            ) from None
        else:
            raise _fail("illegal.accepted", f"the illegal action {candidate!r} was applied")
        after = (len(state.history), state.to_act, state.phase)
        if after != before or not _same_legal(state.legal_actions(), legal):
            raise _fail("illegal.changed", f"the refused action {candidate!r} changed the state")
        if full is not None and self._snapshot() != full:
            raise _fail(
                "illegal.changed",
                f"the refused action {candidate!r} changed the record or an observation",
            )

    # --- sampled ------------------------------------------------------------------------
    def check_deep(
        self, legal: tuple[Action, ...], observations: list[Observation], public: Observation
    ) -> None:
        """Determinize, public observation of the worlds, pickle, clone, replay, result."""
        state, game, rng = self.state, self.game, self.crng
        for who, obs in [*enumerate(observations), ("public", public)]:
            for i, step in enumerate(obs.history):
                _check_step(f"observation({who})", i, step)
        seat = state.to_act
        assert seat is not None
        others = [s for s in range(state.num_seats) if s != seat]
        for s in [seat, *([rng.choice(others)] if others else [])]:
            try:
                world = game.determinize(observations[s], random.Random(rng.getrandbits(32)))
            except FolkcardsError as exc:
                raise _fail("determinize", f"determinize from seat {s} failed: {exc}") from None
            if world.observation(s) != observations[s]:
                raise _fail(
                    "determinize.observation",
                    f"a world determinized from seat {s}'s observation shows that seat "
                    "another observation",
                )
            if s == seat and not _same_legal(world.legal_actions(), legal):
                raise _fail("determinize.legal", "a determinized world has other legal actions")
            if world.public_observation() != public:
                raise _fail(
                    "public.determinize",
                    f"a world determinized from seat {s}'s view has another public observation",
                )
        record = state.record()
        copy = pickle.loads(pickle.dumps(state))
        if (
            not _same_legal(copy.legal_actions(), legal)
            or [copy.observation(s) for s in range(state.num_seats)] != observations
            or copy.public_observation() != public
            or copy.record() != record
        ):
            raise _fail("pickle", "an unpickled copy has other legal actions or observations")
        clone = state.clone()
        if clone.record() != record or clone.observation(seat) != observations[seat]:
            raise _fail("clone", "a clone differs from its original")
        clone.apply(rng.choice(legal))
        if state.record() != record or not _same_legal(state.legal_actions(), legal):
            raise _fail("clone", "playing on a clone changed the original")
        try:
            state.result()
        except ValueError:
            pass
        else:
            raise _fail("result", "result() answers while the deal goes on")
        try:
            json.dumps(observations[seat].to_dict())
            json.dumps(public.to_dict())
        except (TypeError, ValueError) as exc:
            raise _fail("observation.json", f"an observation is not JSON-ready: {exc}") from None
        expected = {
            "ok": True,
            "over": False,
            "to_act": seat,
            "phase": state.phase,
            "legal": [a.text for a in legal],
        }
        got = replay(_json_round(record))
        if got != expected:
            raise _fail("replay.mid", f"the record so far replays to {json.dumps(got)[:300]}")

    # --- at the end ---------------------------------------------------------------------
    def check_over(self) -> None:
        """The end: nobody to act, no legal action, a result with a score, the record
        replaying to that result; a pickled copy with the same result."""
        state, game = self.state, self.game
        if state.to_act is not None or state.legal_actions() != ():
            raise _fail("over", "the deal is over but a seat acts or has legal actions")
        observations = [state.observation(s) for s in range(state.num_seats)]
        for s, obs in enumerate(observations):
            if obs.legal or obs.to_act is not None:
                raise _fail("over", f"observation({s}) of a finished deal has a seat to act")
        public = state.public_observation()
        self.check_public(public)
        self.hands = [obs.hand for obs in observations]
        self.check_cards(observations, public)
        try:
            state.apply(self.crng.choice(self.space) if self.space else "pass")
        except IllegalAction:
            pass
        else:
            raise _fail("over", "an action was accepted after the end of the deal")
        result = state.result()
        score = result.get("score") if isinstance(result, dict) else None
        teams = game.num_teams(state.variant)
        if not isinstance(score, list) or len(score) != teams:
            raise _fail("result", f"result's score {score!r} is not a list of {teams} numbers")
        expected = {"ok": True, "over": True, "result": _json_round(result)}
        got = replay(_json_round(state.record()))
        if got != expected:
            raise _fail(
                "replay.end",
                f"the finished record replays to {json.dumps(got)[:300]}, not the result "
                f"{json.dumps(expected['result'])[:300]}",
            )
        copy = pickle.loads(pickle.dumps(state))
        if copy.result() != result or copy.public_observation() != public:
            raise _fail("pickle", "an unpickled finished deal has another result")


# --- jobs -----------------------------------------------------------------------------------


@dataclass
class Failure:
    """One failure: where (game, deals or matches, index), which check, and the exact record
    so far (a deal record, or the match record) that reproduces it."""

    game: str
    kind: str
    index: int | None
    check: str
    message: str
    record: dict[str, Any] | None
    action: str | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain data (crosses process and Ray boundaries)."""
        return {
            "game": self.game,
            "kind": self.kind,
            "index": self.index,
            "check": self.check,
            "message": self.message,
            "record": self.record,
            "action": self.action,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Job:
    """A unit of work: ``count`` deals (or matches) of one game from index ``start``."""

    game: str
    kind: str
    start: int
    count: int
    seed: int
    deep_every: int
    targets: tuple[VariantTarget, ...]
    max_match_deals: int = 60
    max_failures: int = 20


@dataclass
class JobResult:
    """What one job checked and found."""

    game: str
    kind: str
    start: int
    count: int
    counters: Counters = field(default_factory=Counters)
    failures: list[dict[str, Any]] = field(default_factory=list)
    failure_count: int = 0
    seconds: float = 0.0
    digest: str = ""


def deal_rngs(seed: int, game: str, kind: str, index: int) -> tuple[random.Random, random.Random]:
    """The two random streams of deal (or match) ``index``: one chooses the variant, the
    dealer, the deck and the actions; the other the checks (so the deals played do not
    depend on how often the deep checks run)."""
    base = f"folkcards-selfcheck:{seed}:{game}:{kind}:{index}"
    return random.Random(base), random.Random(base + ":checks")


def _random_choice(rng: random.Random) -> Callable[[DealState, tuple[Action, ...]], Action]:
    def choose(state: DealState, legal: tuple[Action, ...]) -> Action:
        return rng.choice(legal)

    return choose


def _exception_failure(exc: BaseException) -> CheckFailed:
    """An unexpected exception of the engine as a failure (with the end of its traceback)."""
    tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
    return CheckFailed("exception", f"{type(exc).__name__}: {exc}", "".join(tb[-6:]))


def _failure_of(exc: BaseException, game: str, kind: str, checker: DealChecker | None) -> Failure:
    err = exc if isinstance(exc, CheckFailed) else _exception_failure(exc)
    action = checker.pending if checker is not None else None
    return Failure(game, kind, None, err.check, err.message, None, action, err.detail)


def check_one_deal(
    game: Game,
    raw_variant: Mapping[str, Any],
    rng: random.Random,
    crng: random.Random,
    deep_every: int,
    counters: Counters,
) -> tuple[dict[str, Any], Failure | None]:
    """Play one random deal with every check; its record and the failure, if any."""
    variant = game.normalize_variant(dict(raw_variant))
    dealer = rng.randrange(game.num_seats(variant))
    state = game.random_deal(rng, variant, dealer)
    setup = state.record()
    checker = DealChecker(state, crng, deep_every, counters)
    failure: Failure | None = None
    try:
        checker.play(_random_choice(rng))
    except Exception as exc:
        failure = _failure_of(exc, game.name, "deals", checker)
    record = checker.record_so_far(setup)
    if failure is not None:
        failure.record = record
    counters.deals += 1
    return record, failure


def check_one_match(
    game: Game,
    raw_variant: Mapping[str, Any],
    rng: random.Random,
    crng: random.Random,
    deep_every: int,
    max_deals: int,
    counters: Counters,
) -> tuple[dict[str, Any], Failure | None]:
    """Play one random match (at most ``max_deals`` deals) with every check of each deal;
    then its record must replay to the same totals, end and winner."""
    match = Match(game, dict(raw_variant), rng=rng)
    head: dict[str, Any] = {
        "game": game.name,
        "variant": game.variant_diff(match.variant),
        **match.match_keys,
    }
    deals: list[dict[str, Any]] = []
    failure: Failure | None = None
    checker: DealChecker | None = None
    try:
        while not match.is_over and len(deals) < max_deals:
            state = match.new_deal()
            setup = state.record()
            del setup["game"], setup["variant"]
            checker = DealChecker(state, crng, deep_every, counters)
            deals.append(checker.record_so_far(setup))
            try:
                checker.play(_random_choice(rng))
            finally:
                deals[-1] = checker.record_so_far(setup)
            checker = None
            counters.match_deals += 1
            match.finish_deal()
        record = {**head, "deals": deals}
        if record != match.record():
            raise _fail("match.record", "Match.record() differs from the deals played")
        last = match.deals[-1]
        expected = {
            "ok": True,
            "over": True,
            "result": _json_round({**last.result(), **game.match_result(match.state)}),
        }
        got = replay(_json_round(record))
        if got != expected:
            raise _fail(
                "match.replay",
                f"the match record replays to {json.dumps(got)[:300]}, not "
                f"{json.dumps(expected)[:300]}",
            )
        again = load_match(_json_round(record)).match
        ms = match.state
        if again is None or (again.totals, again.over, again.winner, again.draw) != (
            ms.totals,
            ms.over,
            ms.winner,
            ms.draw,
        ):
            raise _fail("match.totals", "the replayed match has other totals or winner")
    except Exception as exc:
        failure = _failure_of(exc, game.name, "matches", checker)
    record = {**head, "deals": deals}
    if failure is not None:
        failure.record = record
    counters.matches += 1
    return record, failure


def run_job(job: Job) -> JobResult:
    """Run one job (in this process, a pool worker or a Ray task)."""
    game = registry.get(job.game)
    out = JobResult(job.game, job.kind, job.start, job.count)
    digest = hashlib.sha256()
    t0 = time.perf_counter()
    for index in range(job.start, job.start + job.count):
        rng, crng = deal_rngs(job.seed, job.game, job.kind, index)
        target = job.targets[index % len(job.targets)]
        try:
            raw = variant_for(game, target, rng)
        except Exception as exc:
            failure: Failure | None = _failure_of(exc, job.game, job.kind, None)
            record: dict[str, Any] = {"game": job.game, "variant": dict(target.fallback)}
        else:
            if job.kind == "matches":
                record, failure = check_one_match(
                    game, raw, rng, crng, job.deep_every, job.max_match_deals, out.counters
                )
            else:
                record, failure = check_one_deal(game, raw, rng, crng, job.deep_every, out.counters)
        digest.update(json.dumps(record, sort_keys=True).encode())
        if failure is not None:
            failure.index = index
            digest.update(f"{failure.check}\n".encode())
            out.failure_count += 1
            if len(out.failures) < job.max_failures:
                out.failures.append(failure.to_dict())
    out.seconds = time.perf_counter() - t0
    out.digest = digest.hexdigest()
    return out


def jobs_of(
    games: Sequence[str],
    deals: int,
    matches: int,
    seed: int,
    deep_every: int,
    targets: Mapping[str, Sequence[VariantTarget]],
    start: int = 0,
    max_match_deals: int = 60,
    max_failures: int = 20,
) -> list[Job]:
    """Every job, in the order results are reported: per game, its deals then its matches."""
    jobs = []
    for name in games:
        t = tuple(targets[name])
        for kind, count, per in (("deals", deals, DEALS_PER_JOB), ("matches", matches, 1)):
            for first in range(start, start + count, per):
                n = min(per, start + count - first)
                jobs.append(
                    Job(name, kind, first, n, seed, deep_every, t, max_match_deals, max_failures)
                )
    return jobs


# --- running jobs: locally or on Ray ----------------------------------------------------------

J = TypeVar("J")
R = TypeVar("R")


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
) -> Iterator[tuple[int, R]]:
    """``fn`` on every job, yielding ``(index, result)`` as each finishes: in this process
    (``workers`` 1), on local processes (default: all cores; at most two jobs queued per
    worker), or as Ray tasks — on the cluster at ``address`` or an embedded local Ray, as
    :func:`folkcards.tournament.runner.run_ray` starts it."""
    if backend == "ray":
        yield from _run_ray(fn, jobs, address, workers)
        return
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r} (valid: local, ray)")
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            yield i, fn(job)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        pending: dict[Future[R], int] = {}
        queue = iter(enumerate(jobs))
        for i, job in itertools.islice(queue, 2 * workers):
            pending[pool.submit(fn, job)] = i
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                i = pending.pop(fut)
                for j, job in itertools.islice(queue, 1):
                    pending[pool.submit(fn, job)] = j
                yield i, fut.result()


def _run_ray(
    fn: Callable[[J], R], jobs: Sequence[J], address: str | None, num_cpus: int | None
) -> Iterator[tuple[int, R]]:
    with ray_session(address, num_cpus) as ray:
        remote = ray.remote(fn)
        refs = [remote.remote(job) for job in jobs]
        index = {ref: i for i, ref in enumerate(refs)}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield index[ref], ray.get(ref)


# --- the whole run ------------------------------------------------------------------------------


@dataclass
class GameSummary:
    """One game's figures."""

    game: str
    targets: list[str]
    counters: Counters = field(default_factory=Counters)
    failures: int = 0
    deal_seconds: float = 0.0
    match_seconds: float = 0.0
    digests: dict[tuple[str, int], str] = field(default_factory=dict)

    @property
    def seconds(self) -> float:
        """Worker time on this game (deals and matches)."""
        return self.deal_seconds + self.match_seconds

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the JSON summary."""
        c = self.counters
        return {
            "game": self.game,
            "variant_values": self.targets,
            "deals": c.deals,
            "matches": c.matches,
            "match_deals": c.match_deals,
            "actions": c.actions,
            "deep_checks": c.deep,
            "failures": self.failures,
            "deal_seconds": round(self.deal_seconds, 3),
            "match_seconds": round(self.match_seconds, 3),
            "ms_per_deal": round(1000 * self.deal_seconds / c.deals, 3) if c.deals else None,
        }


def summary_digest(games: Mapping[str, GameSummary]) -> str:
    """A SHA-256 over every job's outcome in job order (records and failed checks, no
    timings): equal digests mean the same deals were played with the same findings."""
    h = hashlib.sha256()
    for name in sorted(games):
        for key in sorted(games[name].digests):
            h.update(f"{name}:{key[0]}:{key[1]}:{games[name].digests[key]}\n".encode())
    return h.hexdigest()


def run_selfcheck(
    jobs: Sequence[Job],
    games: Mapping[str, GameSummary],
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_result: Callable[[JobResult], None] | None = None,
) -> str:
    """Run the jobs, adding their figures to ``games``; ``on_result`` sees each job's result
    as it arrives (progress, failure files). Returns the summary digest."""
    for _, res in run_jobs(run_job, jobs, backend=backend, workers=workers, address=address):
        g = games[res.game]
        g.counters.add(res.counters)
        g.failures += res.failure_count
        if res.kind == "matches":
            g.match_seconds += res.seconds
        else:
            g.deal_seconds += res.seconds
        g.digests[(res.kind, res.start)] = res.digest
        if on_result is not None:
            on_result(res)
    return summary_digest(games)


def check_record(obj: object, deep_every: int = 1, seed: int = 0) -> list[Failure]:
    """Re-check a stored deal or match record (a failure file): every check at every
    action of each deal (``deep_every`` 1 = the deep checks too), the action that failed
    (``meta.selfcheck.action``) after the record's own, then the replay of the record."""
    counters = Counters()
    crng = random.Random(f"folkcards-selfcheck:{seed}:record")
    if not isinstance(obj, dict) or not isinstance(obj.get("game"), str):
        return [Failure("?", "record", None, "record", "not a deal or match record", None)]
    games = registry.load_builtin()
    game = games.get(obj["game"])
    if game is None:
        known = ", ".join(games)
        message = f"unknown game {obj['game']!r} (valid: {known})"
        return [Failure(obj["game"], "record", None, "record", message, None)]
    meta = obj.get("meta")
    info = meta.get("selfcheck") if isinstance(meta, dict) else None
    pending = info.get("action") if isinstance(info, dict) else None
    try:
        if "deals" in obj:
            deal_records = [d.record() for d in load_match(obj).deals]
        else:
            deal_records = [{k: v for k, v in obj.items() if k != "meta"}]
    except FolkcardsError as exc:
        return [Failure(game.name, "record", None, "replay", str(exc), dict(obj))]
    failures: list[Failure] = []
    for k, rec in enumerate(deal_records):
        checker: DealChecker | None = None
        try:
            state, actions = start_deal(game, rec)
            checker = DealChecker(state, crng, deep_every, counters)
            texts = [str(a) for a in actions]
            if pending is not None and k == len(deal_records) - 1:
                texts.append(str(pending))
            # a record that ends before its deal does is checked at every point it has
            with contextlib.suppress(_RecordEnd):
                checker.play(_replaying(texts))
        except Exception as exc:
            failure = _failure_of(exc, game.name, "record", checker)
            failure.index, failure.record = k, rec
            failures.append(failure)
    out = replay(_json_round(obj))
    if not failures and not out.get("ok"):
        failures.append(Failure(game.name, "record", None, "replay", str(out), dict(obj)))
    return failures


class _RecordEnd(Exception):
    """The re-checked record has no more actions."""


def _replaying(texts: list[str]) -> Callable[[DealState, tuple[Action, ...]], Action | str]:
    queue = iter(texts)

    def choose(state: DealState, legal: tuple[Action, ...]) -> Action | str:
        text = next(queue, None)
        if text is None:
            raise _RecordEnd
        return text

    return choose
