"""``determinize``: a full Huutopussi deal consistent with one seat's observation (HUU-14).

Built from the :class:`~folkcards.engine.api.Observation` alone, on the engine's kit
(:mod:`folkcards.engine.determinize`):

1. **Facts** (:class:`Facts`, read once per observation): the public history walked to
   learn what every other seat played, holds and cannot hold — a ``declare X`` or
   ``answer X`` shows both KX and QX; every play that did not follow suit, trump or beat
   shows the cards whose presence would have forced another card (HUU-7.3), and so do
   Erlangen's first-trick rules (HUU-12.4) and ``answer no`` to a half-marriage ask
   (HUU-8.5) — and the conditions on a pair K/Q (``answer no`` to a marriage ask, the asker
   of a half marriage, ``answer yes``), which are checked on each drawn world.
2. **Constraints** (:func:`constraints`): the places that hold the cards not played — the
   seats' hands, a packet in transit the observer did not see (HUU-14.3, 14.4), the widow
   before it is shown and the declarer's discards (HUU-14.6) — with the cards known in
   each (the observer's hand, declared marriages, the exchange as the observer saw it) and
   the cards each cannot hold; a redeal requester's hand gets three sixes or no card above
   a jack (HUU-4.6). The kit draws them (Hall's condition: never a dead end).
3. **The rebuild**: the dealt hands from the drawn current ones through the exchange or
   the widow (HUU-5, HUU-6), the history replayed through the rules with the hidden cards
   written in; a world that breaks a pair condition, the declarations or the observation
   itself is drawn again (:func:`~folkcards.engine.determinize.rejection_sample`).

The history is read through its :class:`~folkcards.engine.actions.Step` entries (verb,
cards, suit, whether the card is hidden) and replayed with each visible entry's own
``action``; no history text is parsed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from folkcards.cards import SUITS, CardSet, cards_list, parse_card
from folkcards.engine.actions import Action, Step
from folkcards.engine.api import FolkcardsError, Observation
from folkcards.engine.determinize import Constraints, Infeasible, LastRead, Reject, rejection_sample

from .deal import HuutopussiState
from .rules import (
    ACES,
    ANSWER_NO,
    CONFIGS,
    DECK,
    DISCARD,
    GIVE,
    HIGH,
    NO_TRUMP,
    PAIR,
    RETURN,
    SIXES,
    SPADES,
    can_redeal,
    rules_of,
)

if TYPE_CHECKING:
    from .game import HuutopussiGame

MAX_DRAWS = 2000
"""Draws before giving up on an observation."""

NOT_BOTH, EXACTLY_ONE, AT_LEAST_ONE = 0, 1, 2
"""Pair conditions ``(kind, seat, suit, history index)`` on a seat's K/Q of a suit."""

_PASSED: dict[str, tuple[Action, ...]] = {"give": GIVE, "return": RETURN, "discard": DISCARD}
"""The verbs that pass one card face down, each with its action by card: the entries a
viewer may see as ``give ?``, ``return ?``, ``discard ?`` (HUU-14.3, 14.4, 14.6)."""


def follow_lacks(led: int, win: int, c: int, trump: int) -> CardSet:
    """HUU-7.3 read backwards: the cards whose presence would have made ``c`` illegal when
    ``led`` was led and ``win`` was winning, with ``trump`` (−1: none)."""
    cfg = CONFIGS[trump if trump >= 0 else NO_TRUMP]
    f = cfg.class_of[led]
    if f >> c & 1:
        if cfg.class_of[win] == f and not cfg.beats[win] >> c & 1:
            return f & cfg.beats[win]
        return 0
    z = f
    t = cfg.trumps
    if t:
        if t >> c & 1:
            if t >> win & 1 and not cfg.beats[win] >> c & 1:
                z |= t & cfg.beats[win]
        else:
            z |= t
    return z


@dataclass
class Facts:
    """What the observer learned from the public history (see the module docstring)."""

    n: int
    erlangen: bool
    played: list[CardSet]
    held: list[CardSet]
    lacks: list[CardSet]
    pairs: list[tuple[int, int, int, int]] = field(default_factory=list)
    played_after: list[list[tuple[int, int]]] = field(default_factory=list)
    # the walk's position: trump, suits used, the trick, an ask pending
    trump: int = -1
    used: int = 0
    trick: list[int] = field(default_factory=list)
    win: int = -1
    tricks_done: int = 0
    asker: int = -1
    ask_suit: int = -1

    @classmethod
    def of(cls, obs: Observation, erlangen: bool, n: int) -> Facts:
        """The facts of ``obs``: one walk through its public history."""
        facts = cls(n, erlangen, [0] * n, [0] * n, [0] * n)
        facts.played_after = [[] for _ in range(n)]
        made = {int(d["at"]) for d in obs.info["declarations"]}
        for i, (step, actor) in enumerate(zip(obs.history, obs.actors, strict=True)):
            kind = step.kind
            if kind == "play":
                facts._play(i, actor, step.cards[0])
            elif kind == "declare":  # HUU-8.3: KX and QX shown
                suit = step.suit
                assert suit is not None  # ``declare X`` names its suit (HUU-8.3)
                x = SUITS.index(suit)
                facts.held[actor] |= PAIR[x]
                facts._make_trump(x)
            elif kind == "ask":
                facts._ask(i, actor, step)
            elif kind == "answer":
                facts._answer(i, actor, step, i in made)
        return facts

    def _make_trump(self, x: int) -> None:
        self.trump = x
        self.used |= 1 << x

    def _play(self, i: int, actor: int, c: int) -> None:
        """A card played: what it shows its player lacked (HUU-7.3, HUU-12.4)."""
        self.played[actor] |= 1 << c
        self.played_after[actor].append((i, c))
        trick = self.trick
        first = self.erlangen and not self.tricks_done
        if not trick:
            if first and not ACES >> c & 1:  # HUU-12.4: an ace, else a spade
                self.lacks[actor] |= ACES
                if not SPADES >> c & 1:
                    self.lacks[actor] |= SPADES
            trick.append(c)
            self.win = c
            return
        led = trick[0]
        lack = follow_lacks(led, self.win, c, self.trump)
        if first and led % 13:
            ace = led - led % 13
            if c != ace:  # HUU-12.4: the ace of the led suit
                lack |= 1 << ace
        self.lacks[actor] |= lack
        if CONFIGS[self.trump if self.trump >= 0 else NO_TRUMP].beats[self.win] >> c & 1:
            self.win = c
        trick.append(c)
        if len(trick) == self.n:
            self.trick = []
            self.tricks_done += 1

    def _ask(self, i: int, actor: int, step: Step) -> None:
        """``ask marriage`` or ``ask half X`` (HUU-8.4, HUU-8.5; an Erlangen bluff, HUU-12.6)."""
        self.asker = actor
        suit = step.suit
        if suit is None:  # ``ask marriage``
            self.ask_suit = -1
            return
        x = self.ask_suit = SUITS.index(suit)
        self.pairs.append((NOT_BOTH if self.erlangen else EXACTLY_ONE, actor, x, i))

    def _answer(self, i: int, partner: int, step: Step, made: bool) -> None:
        """The partner's truthful answer (HUU-8.4, HUU-8.5) and what it shows: ``answer
        X`` or ``answer no`` to a marriage ask, ``answer yes`` or ``answer no`` to a half."""
        x = self.ask_suit
        if x < 0:
            suit = step.suit
            if suit is None:  # HUU-8.4: ``answer no``, no unused marriage
                for y in range(4):
                    if not self.used >> y & 1:
                        self.pairs.append((NOT_BOTH, partner, y, i))
            else:
                y = SUITS.index(suit)
                self.held[partner] |= PAIR[y]
                self._make_trump(y)
        elif step.action == ANSWER_NO:
            self.lacks[partner] |= PAIR[x]
        else:
            self.pairs.append((AT_LEAST_ONE, partner, x, i))
            if made:
                self.pairs.append((AT_LEAST_ONE, self.asker, x, i))
                self._make_trump(x)
            else:  # an Erlangen bluff: the asker holds neither (HUU-12.6)
                self.lacks[self.asker] |= PAIR[x]
        self.asker, self.ask_suit = -1, -1

    def pairs_hold(self, hands: list[CardSet]) -> bool:
        """The pair conditions on ``hands`` (current hands; a fact about the hand at a
        history index holds for the hand now plus what the seat played after it)."""
        for kind, seat, x, index in self.pairs:
            h = hands[seat]
            for i, c in self.played_after[seat]:
                if i > index:
                    h |= 1 << c
            h &= PAIR[x]
            if kind == NOT_BOTH:
                if h == PAIR[x]:
                    return False
            elif kind == EXACTLY_ONE:
                if h == 0 or h == PAIR[x]:
                    return False
            elif not h:
                return False
        return True


@dataclass
class Prepared:
    """An observation read for drawing: its facts, the places and their constraints, and
    what the rebuild needs (the exchange as the observer saw it, the public widow)."""

    obs: Observation
    variant: dict[str, Any]
    facts: Facts
    base: Constraints
    extras: list[str]
    """The places after the seats' hands: ``give``, ``return``, ``widow``, ``discards``."""
    declarer: int
    partner: int
    gives: list[Step]
    """The ``give`` entries of the history as the observer saw them (``give ?`` hidden)."""
    returns: list[Step]
    """The ``return`` entries, likewise."""
    widow: list[int]
    redeal_by: int | None
    """A redeal requester other than the observer (HUU-4.6), whose hand the draw steers."""


def prepare(game: HuutopussiGame, obs: Observation) -> Prepared:
    """Read ``obs`` once: facts, places, constraints (see the module docstring)."""
    variant = game.renormalize_variant(obs.variant)  # a normal form, maybe from JSON
    r = rules_of(variant)
    n = r.players
    info = obs.info
    d = info["declarer"] if info["declarer"] is not None else -1
    partner = (d + 2) % 4 if (d >= 0 and n == 4) else -1
    facts = Facts.of(obs, r.erlangen, n)
    gives = [step for step in obs.history if step.kind == "give"]
    returns = [step for step in obs.history if step.kind == "return"]
    widow = [parse_card(x) for x in info["widow"]] if info["widow"] else []
    redeal_by = obs.result["redeal_by"] if obs.result is not None and obs.result["redeal"] else None
    if redeal_by == obs.seat:
        redeal_by = None
    prep = Prepared(
        obs, variant, facts, Constraints(0, []), [], d, partner, gives, returns, widow, redeal_by
    )
    prep.base = constraints(prep, r.exchange)
    if not prep.base.feasible():
        raise Infeasible("no deal holds the cards this observation shows (determinize)")
    return prep


def constraints(prep: Prepared, exchange: int) -> Constraints:
    """The places (every seat, then the hidden piles) and what the observation says of
    them; sets ``prep.extras``."""
    obs, facts, d, partner = prep.obs, prep.facts, prep.declarer, prep.partner
    n, me, info = facts.n, obs.seat, obs.info
    played = 0
    for m in facts.played:
        played |= m
    known = [facts.held[s] & ~played for s in range(n)]
    known[me] = obs.hand
    cards = DECK & ~played
    if me in (d, partner) and d >= 0 and n == 4:  # HUU-14.3, 14.4: the exchange seen
        g = sum(1 << step.cards[0] for step in prep.gives)
        rt = sum(1 << step.cards[0] for step in prep.returns)
        if me == partner and len(prep.gives) == exchange:
            known[d] |= g & ~rt & ~played
        if me == d and len(prep.returns) == exchange:
            known[partner] |= rt & ~played
        if obs.phase == "give":  # a packet in transit that the observer knows
            cards &= ~g
        elif obs.phase == "return":
            cards &= ~rt
    if n == 3 and me == d:  # HUU-14.6: the declarer's own discards
        cards &= ~sum(1 << parse_card(x) for x in info["discards"])
    sizes = list(info["hand_sizes"])
    if n == 4 and d >= 0 and obs.phase in ("give", "return") and me not in (d, partner):
        prep.extras.append(obs.phase)  # the packet in transit
        sizes.append(len(prep.gives if obs.phase == "give" else prep.returns))
    if n == 3 and not prep.widow:
        prep.extras.append("widow")
        sizes.append(3)
    if n == 3 and d >= 0 and me != d:
        prep.extras.append("discards")
        sizes.append(int(info["discard_count"]))
    cons = Constraints(cards, sizes)
    # 3 players, observer not declarer: the shown widow cards lie in the declarer's hand or
    # among its discards; no other place may take them.
    widow_left = 0
    if n == 3 and d >= 0 and me != d:
        widow_left = sum(1 << c for c in prep.widow) & ~played & ~known[d]
    for s in range(n):
        cons.hold(s, known[s])
        if s != me:
            cons.cannot_hold(s, facts.lacks[s] | (0 if s == d else widow_left))
    return cons


def _steer_redeal(prep: Prepared, cons: Constraints, rng: random.Random) -> Constraints:
    """HUU-4.6: the requester's hand holds three sixes, or no card above a jack — one of
    the two the cards allow, chosen at random."""
    seat = prep.redeal_by
    assert seat is not None
    sixes = cons.copy()
    sixes.at_least(seat, SIXES, 3)
    low = cons.copy()
    low.cannot_hold(seat, HIGH)
    modes = [c for c in (sixes, low) if c.feasible()]
    if not modes:
        raise Infeasible("no hand of the redeal's requester may ask for a redeal")
    return rng.choice(modes)


def _undo_exchange(
    prep: Prepared, after: list[CardSet], extras: dict[str, CardSet], rng: random.Random
) -> tuple[list[CardSet], list[int], list[int]]:
    """4 players: the dealt hands from the hands after the exchange, and the given and
    returned cards (drawn where the observer did not see them), HUU-5.1, HUU-5.3."""
    d, partner, me = prep.declarer, prep.partner, prep.obs.seat
    init = list(after)
    knows = me in (d, partner)
    ng, nr = len(prep.gives), len(prep.returns)
    g = [step.cards[0] for step in prep.gives] if knows else []  # HUU-14.3, 14.4: seen
    rt = [step.cards[0] for step in prep.returns] if knows else []
    phase = prep.obs.phase
    if phase == "give":
        if not knows:
            g = cards_list(extras["give"])
            rng.shuffle(g)
        init[partner] = after[partner] | sum(1 << c for c in g)
        return init, g, rt
    if nr < ng or phase == "contract":  # gives delivered, the returns (some) in the packet
        if not knows:
            rt = cards_list(extras.get("return", 0))
            rng.shuffle(rt)
            g = rng.sample(cards_list(after[d] | sum(1 << c for c in rt)), ng)
        rmask, gmask = sum(1 << c for c in rt), sum(1 << c for c in g)
        init[d] = (after[d] | rmask) & ~gmask
        init[partner] = after[partner] | gmask
        return init, g, rt
    if not knows:  # the exchange is complete
        rt = rng.sample(cards_list(after[partner]), nr)
        g = rng.sample(cards_list(after[d]), ng)
    rmask, gmask = sum(1 << c for c in rt), sum(1 << c for c in g)
    init[partner] = (after[partner] & ~rmask) | gmask
    init[d] = (after[d] | rmask) & ~gmask  # a card given and returned began at the partner
    return init, g, rt


def _undo_widow(
    prep: Prepared, after: list[CardSet], extras: dict[str, CardSet], rng: random.Random
) -> tuple[list[CardSet], list[int], list[int]]:
    """3 players: the dealt hands, the widow and the discards (HUU-3.3, HUU-6.1, HUU-6.2)."""
    d, me = prep.declarer, prep.obs.seat
    init = list(after)
    widow = list(prep.widow) if prep.widow else cards_list(extras["widow"])
    disc: list[int] = []
    if d >= 0:
        if me == d:
            disc = [parse_card(x) for x in prep.obs.info["discards"]]
        else:
            disc = cards_list(extras["discards"])
            rng.shuffle(disc)
        init[d] = (after[d] | sum(1 << c for c in disc)) & ~sum(1 << c for c in widow)
    return init, widow, disc


def _replay(
    state: HuutopussiState, history: tuple[Step, ...], hidden: dict[str, Iterator[int]]
) -> None:
    """The history through the rules, each visible step as its own ``action`` and each
    hidden card (``give ?``…) written in from ``hidden`` (its verb's cards in order, seen
    ones included): every condition is checked exactly."""
    try:
        for step in history:
            action = step.action
            by_card = _PASSED.get(step.kind)
            if by_card is not None:
                c = next(hidden[step.kind])
                if action is None:
                    action = by_card[c]
            if action is None:  # only a passed card is ever hidden (HUU-14)
                raise Reject("the history does not replay on this world")
            state.apply(action)
    except (FolkcardsError, StopIteration, KeyError):
        raise Reject("the history does not replay on this world") from None


def _rebuild(
    game: HuutopussiGame,
    prep: Prepared,
    hands: list[CardSet],
    extras: dict[str, CardSet],
    rng: random.Random,
) -> HuutopussiState:
    """The world of the drawn current ``hands`` and hidden piles, replayed to now."""
    obs, facts = prep.obs, prep.facts
    n = facts.n
    after = [hands[s] | facts.played[s] for s in range(n)]  # hands after exchange or widow
    widow: list[int] = []
    if n == 3:
        init, widow, disc = _undo_widow(prep, after, extras, rng)
        hidden = {"discard": iter(disc)}
    elif prep.declarer >= 0:
        init, g, rt = _undo_exchange(prep, after, extras, rng)
        hidden = {"give": iter(g), "return": iter(rt)}
    else:
        init, hidden = after, {}
    try:
        state = game.new_deal(
            prep.variant,
            obs.dealer,
            None,
            hands=[cards_list(h) for h in init],
            extra={"widow": widow} if n == 3 else None,
            carry={"totals": list(obs.carry["totals"])},
        )
    except FolkcardsError:
        raise Reject("the dealt hands are not a deal") from None
    assert isinstance(state, HuutopussiState)
    _replay(state, obs.history, hidden)
    return state


_prepared: LastRead[Prepared] = LastRead(lambda obs, game: prepare(game, obs))
"""The last observation read (``_prepared(obs, game)``): a search bot draws many worlds from one."""


def determinize(game: HuutopussiGame, obs: Observation, rng: random.Random) -> HuutopussiState:
    """A full deal whose ``observation(obs.seat)`` equals ``obs`` (see the module docstring).

    :class:`~folkcards.engine.determinize.DeterminizeError` when no draw succeeds;
    :class:`~folkcards.engine.determinize.Infeasible` at once when the cards the
    observation shows admit no deal at all.
    """
    prep = _prepared(obs, game)
    facts = prep.facts
    n = facts.n

    def attempt(rng: random.Random, k: int) -> HuutopussiState:
        cons = prep.base if prep.redeal_by is None else _steer_redeal(prep, prep.base, rng)
        drawn = cons.draw(rng)
        hands = drawn[:n]
        if not facts.pairs_hold(hands):
            raise Reject("a K/Q pair condition fails")
        extras = {name: drawn[n + j] for j, name in enumerate(prep.extras)}
        state = _rebuild(game, prep, hands, extras, rng)
        res = obs.result
        if res is not None and res["redeal"] and not can_redeal(state.hands[res["redeal_by"]]):
            raise Reject("the redeal's requester may not ask for one")  # HUU-4.6
        if [tuple(x) for x in state.declarations] != [
            (int(e["seat"]), SUITS.index(e["suit"]), int(e["at"])) for e in obs.info["declarations"]
        ]:
            raise Reject("the declarations differ")
        if state.observation(obs.seat) != obs:
            raise Reject("observation differs")
        return state

    return rejection_sample(attempt, rng, MAX_DRAWS, "this Huutopussi observation")


__all__ = ["Facts", "Prepared", "determinize", "follow_lacks", "prepare"]
