"""Scopone heuristic (rules/scopone.md and the seed's strategy notes).

Every action is ``play C`` or ``play C take …``; each is scored by

* what it captures: every card counts toward *cards*, coins toward *coins*, sevens,
  sixes and aces toward *primiera*, and the **settebello** (7♦) above all (SCO-6);
* a **sweep** when it empties the table (SCO-5.1) — and, for a card that stays on the
  table, the risk it leaves: the next player is an opponent, so **avoid leaving a table
  that adds up to 10 or less** when an opponent may hold that value, and avoid laying
  down a card an opponent can take by a match;
* **anchors and pairing**: lay down preferably a card whose rank is *dead* (the other
  cards of its rank are already seen, so no opponent can take it by a match), and a
  card that pairs with a rank that the partner may still take; never lay down a seven
  (least of all the settebello) while another seven is unseen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from folkcards.bots.heuristic.common import card_of
from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_40,
    RANK_MASK,
    Card,
    CardSet,
    iter_cards,
    sum_over,
)
from folkcards.engine.actions import Action
from folkcards.engine.api import Observation
from folkcards.games.scopone import COINS, RE_BELLO, SETTEBELLO, VALUE, Play, capture_value

DECK: CardSet = DECK_40
"""The Italian pack of 40 (SCO-1.1); capture values, coins, the settebello and the re
bello are the game module's own (SCO-1.2, SCO-1.5)."""
PRIMIERA_BONUS = {"7": 2.0, "6": 1.2, "A": 0.8, "5": 0.4}
"""What a card of each rank adds to a team's primiera chances, in the heuristic's own
rough points: the best ranks of the primiera (SCO-1.3, SCO-6.4: 7, 6, A, 5 count most),
not the rule's primiera values."""


def value(c: Card) -> int:
    """Capture value (SCO-1.2)."""
    return capture_value(c)


def worth(c: Card, re_bello: bool = False) -> float:
    """What holding card ``c`` at the end is worth to a team, roughly in points."""
    name = CARD_NAMES[c]
    w = 0.25 + PRIMIERA_BONUS.get(name[0], 0.0) * 0.5
    if COINS >> c & 1:
        w += 0.6
    if c == SETTEBELLO:
        w += 5.0
    if re_bello and c == RE_BELLO:
        w += 4.0
    return w


WORTH: tuple[tuple[float, ...], tuple[float, ...]] = (
    tuple(worth(c, False) if DECK >> c & 1 else 0.0 for c in range(52)),
    tuple(worth(c, True) if DECK >> c & 1 else 0.0 for c in range(52)),
)
"""``worth`` per card number, without and with ``re_bello`` (the playout hot path)."""
VALUE_OF: tuple[int, ...] = tuple(VALUE)
"""Capture value per card number (0 outside the pack), the game's own (SCO-1.2)."""
VALUE_MASK: tuple[CardSet, ...] = tuple(
    sum(BIT[c] for c in iter_cards(DECK) if value(c) == v) for v in range(11)
)
"""The cards of each capture value 1..10."""


def _worth_of(cards: CardSet, worths: tuple[float, ...]) -> float:
    return sum_over(cards, worths)


def _value_of(cards: CardSet) -> int:
    return sum_over(cards, VALUE_OF)


def evaluate(obs: Observation) -> dict[Action, float]:
    """A score per legal play (higher is better for the seat's team)."""
    info = obs.info
    re_bello = bool(obs.variant.get("re_bello", False))
    table = 0
    for t in info["table"]:
        table |= BIT[card_of(t)]
    seen = obs.hand | table
    for pile in info["piles"]:
        for t in pile:
            seen |= BIT[card_of(t)]
    unseen = DECK & ~seen
    sizes = info["hand_sizes"]
    total_turns = sum(sizes)  # cards still to be played, mine included
    last_turn = total_turns == 1
    worths = WORTH[re_bello]
    out: dict[Action, float] = {}
    for a in cast("Sequence[Play]", obs.legal):  # every Scopone action is a Play (SCO-4.5)
        c, taken = a.card, a.take
        if taken:
            gain = worths[c] + _worth_of(taken, worths)
            after = table & ~taken
            if not after and not last_turn:
                gain += 6.0  # a sweep is a point
            score = gain - _risk(after, unseen, re_bello, total_turns)
        else:
            after = table | BIT[c]
            score = -_exposure(c, unseen, re_bello) - _risk(after, unseen, re_bello, total_turns)
            score -= 0.3 * worths[c]
        out[a] = score
    return out


def _unseen_of_value(unseen: CardSet, v: int) -> int:
    return (unseen & VALUE_MASK[v]).bit_count() if 0 < v <= 10 else 0


def _risk(table: CardSet, unseen: CardSet, re_bello: bool, remaining: int) -> float:
    """Expected loss from the next (opposing) player's capture on ``table``: a sweep when
    the table adds up to 10 or less and that value is unseen, else its best single take."""
    if not table or remaining <= 1:
        return 0.0
    worths = WORTH[re_bello]
    total = _value_of(table)
    risk = 0.0
    if total <= 10:
        n = _unseen_of_value(unseen, total)
        if n:
            p = min(1.0, 0.35 * n)
            risk += p * (6.0 + _worth_of(table, worths))
    best = 0.0
    rest = table
    while rest:
        low = rest & -rest
        t = low.bit_length() - 1
        rest ^= low
        n = (unseen & RANK_MASK[t % 13]).bit_count()
        if n:
            best = max(best, min(1.0, 0.3 * n) * (worths[t] * 2))
    return risk + best


def _exposure(c: Card, unseen: CardSet, re_bello: bool) -> float:
    """Penalty for laying down ``c``: an unseen card of its rank can take it (sevens hurt
    most); a dead rank is an anchor and costs nothing."""
    n = (unseen & RANK_MASK[c % 13]).bit_count()
    if n == 0:
        return 0.0
    return WORTH[re_bello][c] * (1.0 if n % 2 == 1 else 0.6) * 1.5


def rollout(legal: tuple[Action, ...], rng: random.Random) -> Action:
    """A fast playout policy from the actions alone (each Play's card and take set):
    mostly the most valuable capture (or the cheapest card to lay down), sometimes a random
    action for variety."""
    if len(legal) == 1 or rng.random() < 0.15:
        return legal[rng.randrange(len(legal))]
    best = legal[0]
    best_value = -1e9
    worths = WORTH[False]
    for a in cast("tuple[Play, ...]", legal):
        c = worths[a.card]
        v = c + sum_over(a.take, worths) if a.take else -c
        if v > best_value:
            best, best_value = a, v
    return best


BATCH_TUNING = {"policy": "heuristic", "read": 0.25, "pool": 4, "worlds": 256}
"""Scopone's settings for ``bsearch`` (``folkcards.bots.batched.batch_tuning``): the
playouts played by this heuristic itself in the kernel (``folkcards.batch.scopone._mimic``)
instead of the greedy-capture rollout, and inference from the play: four deals sampled for
each one kept, drawn by how well this heuristic explains the other seats' plays in them
(``read=0.25``). Against ``heuristic`` on 300 fresh boards: 67.8 % with the policy alone and
71.1 % with the reading too (seed 43), where the previous tuning won 60.4 % (seed 42);
docs/bots.md, "The heuristic in the kernel". 256 deals since the kernel deals the hands
(``ScoponeKernel.deal_hands``): 78.7 % against ``heuristic`` where 64 won 71.1 % on the
same 400 fresh boards (seed 113), in 12 ms a decision; docs/bots.md, "Scopone's hands dealt
as arrays"."""
