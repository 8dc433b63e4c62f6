"""The choices of a turn as a short menu that fits an 80×24 terminal.

The engine lists every legal action (Huutopussi's 79 bids, Sasku's 40 cut methods,
Satat's 39 signal variants of a play). A person needs fewer lines: a run of numeric
actions is one range (``bid 65–440 in steps of 5``), a long family of ``VERB to CARD``
or two-card actions is one entry answered by typing, and optional decorations of a play
(Satat's signals) are asked as one small follow-up question after the card is chosen.
Card actions are listed in the hand's order (the game's own rank order).

A menu is numeric when its actions include numbers (bids, contracts, blind positions):
a number typed there is that number's action, and menu positions are typed ``#3``.

Actions are sorted into these families by their structure (``a.step``: verb, cards,
number, suit — :class:`~folkcards.engine.actions.Step`), not by reading their text again;
:func:`bare`, :func:`lead_card` and :func:`signal` are the few questions of shape the
structure leaves open, shared with the input reader.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from folkcards.cards import CARD_NAMES, Card
from folkcards.engine.actions import Action, Step
from folkcards.engine.api import Observation
from folkcards.tui import i18n, present

SUFFIXES = ("grate", "pile", "vire")
"""Satat's signal words: an optional decoration of a ``play`` (SAT-16)."""

SHORT_RANGE = 5
"""Up to this many numeric actions of one verb are listed one by one (Sasku's bids)."""

LONG_FAMILY = 8
"""A family of ``VERB to CARD`` actions at least this long is one typed entry."""


def bare(step: Step) -> bool:
    """True when the step says nothing but its verb and what it names — its cards, its
    number, its suit (``play TH``, ``give AC KC``, ``bid 60``, ``trump H``) — and no other
    word (not ``play TH grate``, ``play 7C take 7H``, ``deal to AC``, ``ask half C``)."""
    return not step.words


def lead_card(step: Step) -> Card | None:
    """The card named right after the verb (``play TH``, ``give AC KC``, ``play 7C take …``),
    or None when the step does not begin with one (``pass``, ``deal to AC``)."""
    if not step.cards:
        return None
    c = step.cards[0]
    return c if step.startswith(CARD_NAMES[c], len(step.kind) + 1) else None


def signal(step: Step) -> str | None:
    """Satat's signal word of a play, ``grate``/``pile``/``vire`` of ``play TH grate``
    (SAT-16.6), else None."""
    if step.kind != "play" or len(step.cards) != 1 or len(step.words) != 1:
        return None
    return step.words[0] if step.words[0] in SUFFIXES else None


def _to_card(step: Step) -> bool:
    """True for a ``VERB to CARD`` action (Sasku's ``deal to AC``)."""
    return len(step.cards) == 1 and step.words == ("to",) and step.number is None


@dataclass(frozen=True)
class Entry:
    """One line item of a menu: a single action, or a family the person completes by typing.

    ``actions`` are the legal actions the entry stands for; ``label`` is how it is drawn;
    ``typing`` says how to name one of a family (empty for a single action)."""

    label: str
    actions: tuple[Action, ...]
    typing: str = ""

    @property
    def single(self) -> Action | None:
        """The entry's action when it stands for exactly one."""
        return self.actions[0] if len(self.actions) == 1 and not self.typing else None


@dataclass
class Menu:
    """The entries of a turn, the numeric verb (if a number names an action) and the
    signal variants of each plain play."""

    entries: list[Entry]
    numeric_verb: str | None = None
    numbers: tuple[int, ...] = ()
    decorations: dict[str, list[Action]] = field(default_factory=dict)

    def position(self, n: int) -> Entry | None:
        """The entry at menu position ``n`` (1-based), or None."""
        return self.entries[n - 1] if 1 <= n <= len(self.entries) else None

    def shown(self) -> list[Action]:
        """The single actions drawn, in menu order."""
        return [a for e in self.entries for a in ([e.single] if e.single is not None else [])]


def _number(step: Step) -> int | None:
    """The number of a ``VERB N`` action (``bid 60``, ``blind 3``), else None."""
    if step.number is not None and not step.cards and step.suit is None and bare(step):
        return step.number
    return None


def range_text(numbers: Sequence[int], *, localized: bool = True) -> str:
    """``65–440 in steps of 5``, ``5–7``, or a short list when the steps differ; in the
    current language (``localized``), else in the canonical English of menu labels."""
    ns = sorted(numbers)
    if not localized:
        with i18n.using(i18n.LANGS[0]):
            return range_text(ns)
    if len(ns) == 1:
        return i18n.num(ns[0])
    steps = {b - a for a, b in itertools.pairwise(ns)}
    if len(steps) == 1:
        step = steps.pop()
        text = f"{i18n.num(ns[0])}–{i18n.num(ns[-1])}"
        return text if step == 1 else i18n.t("terminal.menu.steps", range=text, step=step)
    return i18n.t("ui.sep").join(map(i18n.num, ns))


def build(obs: Observation) -> Menu:
    """The menu of ``obs.legal`` for the seat to act."""
    legal = list(obs.legal)
    menu = Menu(entries=[])
    order = _card_positions(obs)
    numeric: dict[str, list[tuple[Action, int]]] = {}
    families: dict[str, list[Action]] = {}
    pairs: dict[str, list[Action]] = {}
    decorated: dict[str, list[Action]] = {}
    plain: list[Action] = []
    for a in legal:
        st = a.step
        n = _number(st)
        if n is not None:
            numeric.setdefault(st.kind, []).append((a, n))
        elif _to_card(st):
            families.setdefault(f"{st.kind} to", []).append(a)
        elif signal(st) is not None:
            decorated.setdefault(f"play {CARD_NAMES[st.cards[0]]}", []).append(a)
        elif len(st.cards) == 2 and bare(st):
            pairs.setdefault(st.kind, []).append(a)
        else:
            plain.append(a)
    entries: list[tuple[tuple[int, int, str], Entry]] = []
    for verb, numbered in numeric.items():
        acts = [a for a, _ in numbered]
        nums = [n for _, n in numbered]
        if len(acts) > SHORT_RANGE:
            label = f"{verb} {range_text(nums, localized=False)}"
            entries.append(((0, 0, verb), Entry(label, tuple(acts), typing="number")))
        else:
            entries += [
                ((0, n, verb), Entry(a.text, (a,))) for a, n in zip(acts, nums, strict=True)
            ]
        if menu.numeric_verb is None:
            menu.numeric_verb, menu.numbers = verb, tuple(sorted(nums))
    for prefix, acts in families.items():
        if len(acts) >= LONG_FAMILY:
            label = f"{prefix} CARD"
            entries.append(((4, 0, prefix), Entry(label, tuple(acts), typing="card")))
        else:
            plain += acts
    for verb, acts in pairs.items():
        if len(acts) > LONG_FAMILY:
            label = f"{verb} CARD CARD"
            entries.append(((1, 0, verb), Entry(label, tuple(acts), typing="cards")))
        else:
            plain += acts
    default = present.default_action(obs)
    for a in plain:
        cards = a.step.cards
        key = (1, order.get(cards[0], 99), a.text) if cards else (3, 0, a.text)
        if a.text == default:
            key = (-1, 0, a.text)
        entries.append((key, Entry(a.text, (a,))))
    menu.decorations = decorated
    # plain actions keep the engine's order among equals; cards follow the hand
    entries.sort(key=lambda ke: (ke[0][0], ke[0][1]))
    menu.entries = [e for _, e in entries]
    return menu


def _card_positions(obs: Observation) -> dict[Card, int]:
    """Each card of the hand by its position in the hand's display order."""
    hand = present.hand_order(obs.game, obs.hand, present.trump_suit(obs), obs.variant)
    return {c: i for i, c in enumerate(hand)}
