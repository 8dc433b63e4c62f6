"""What the person is asked to do now, in one line, and what its unusual choices mean.

Every decision gets a line that names it: how many cards, to whom or from whom, with a
counter for actions made one card at a time ("Return 3 cards to your partner — 1 of 3").
Choices a beginner cannot guess ("diamonds!", "deal cover", "blind 3", Satat's signals)
get a one-line explanation while they are on offer; ``explain off`` hides these lines.

The decision itself is the engine's: :attr:`Observation.task` (a code, its params and
rules, :mod:`folkcards.engine.task`), said here through the catalogs' ``terminal.task.*``
with the players' names; this module keeps only the client's own mapping of params to
words (seats to names or "your partner", cards, the numbers on offer as a range).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import Observation
from folkcards.engine.task import Task, trick_task
from folkcards.tui import i18n, present


def note(game: str, key: str) -> str:
    """The one-line note of choice ``key`` of ``game``."""
    return i18n.t(f"terminal.notes.{game}.{key.replace(' ', '_')}")


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _them(names: Sequence[str], seat: int | None, mine: int) -> str:
    """'your partner' or the seat's name."""
    if seat is None:
        return "?"
    if seat == (mine + 2) % 4 and len(names) == 4:
        return i18n.t("terminal.names.your_partner")
    return names[seat]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def received(obs: Observation) -> set[str]:
    """The cards in the seat's hand that it was given in this deal (marked on screen), as
    the public facts say: a picture exchanged and the card returned for it (Sasku's
    ``exchanges``), the cards ``given`` to the declarer, the ``widow`` it took and the cards
    ``returned`` to its partner (Huutopussi), the cards ``received`` (Satat), the ``blind``
    the picker took up (Sheepshead)."""
    info, seat, out = obs.info, obs.seat, set()

    def cards(key: str) -> set[str]:
        return {c for c in info.get(key) or [] if isinstance(c, str)}

    for e in info.get("exchanges") or []:
        if isinstance(e, dict):
            if e.get("returner") == seat and isinstance(e.get("picture"), str):
                out.add(e["picture"])
            if e.get("giver") == seat and isinstance(e.get("returned"), str):
                out.add(e["returned"])
    if info.get("declarer") == seat:
        out |= cards("given") | cards("widow")
    elif obs.num_seats == 4 and info.get("declarer") == (seat + 2) % 4:
        out |= cards("returned")
    out |= cards("received")
    if info.get("picker") == seat:
        out |= cards("blind")
    held = {CARD_NAMES[c] for c in range(len(CARD_NAMES)) if obs.hand >> c & 1}
    return out & held


SEAT_PARAMS = frozenset({"giver", "to", "asker", "bidder", "declarer", "leader"})
"""The task parameters that name a seat (:mod:`folkcards.engine.task`)."""
THEM_PARAMS = frozenset({"giver", "to", "asker"})
"""Seat parameters said as "your partner" when they are the partner's seat."""
CAPITALIZED = frozenset({"giver", "asker"})
"""Seat parameters that begin their sentence."""
NUMBERS_PARAMS = frozenset({"bids", "contracts"})
"""Parameters that are the numbers on offer, said as a range (``65–440 in steps of 5``)."""


def task(obs: Observation, names: Sequence[str]) -> str:
    """The decision in words: what to do, how many, to or from whom — the engine's
    :attr:`Observation.task <folkcards.engine.api.Observation.task>` said through the
    catalogs (``terminal.task.<code>``), its seats as the players' names."""
    tk = obs.task
    if tk is None:  # a game that says no task: its trick, or the phase
        if obs.phase != "play":
            return i18n.t("terminal.task.other", phase=present.phase_title(obs.game, obs.phase))
        tk = trick_task(obs, ())
    return say(tk, obs, names)


def say(tk: Task, obs: Observation, names: Sequence[str]) -> str:
    """A :class:`~folkcards.engine.task.Task` of ``obs``'s seat in the current language: a
    ``count`` picks the template's ``_one`` form (:func:`i18n.plural`)."""
    key = "terminal.task." + tk.code
    params = {name: _param(name, value, obs, names) for name, value in tk.params.items()}
    count = tk.params.get("count")
    if isinstance(count, int):
        return i18n.plural(key, count, **{k: v for k, v in params.items() if k != "count"})
    return i18n.t(key, **params)


def _param(name: str, value: Any, obs: Observation, names: Sequence[str]) -> Any:
    """One task parameter as the catalogs' templates take it."""
    if name in SEAT_PARAMS:
        if name in THEM_PARAMS:
            said = _them(names, value if isinstance(value, int) else None, obs.seat)
            return _cap(said) if name in CAPITALIZED else said
        return _name(names, value)
    if name == "card":
        return i18n.ltr(value if isinstance(value, str) else "?")
    if name == "cards":
        return i18n.t("narrate.or").join(i18n.ltr(c) for c in value)
    if name in NUMBERS_PARAMS:
        from folkcards.tui.menu import range_text

        return range_text(value) if value else ""
    if name == "suit":
        return present.suit_words(obs.game, value) if value else i18n.t("terminal.task.a_suit")
    if name == "side":  # who passes which way (SAT-7)
        return i18n.t(f"terminal.task.sat_rule_{value}")
    if name == "phase":
        return present.phase_title(obs.game, str(value))
    return value


def notes(obs: Observation) -> list[str]:
    """One-line explanations of the unusual choices on offer now: the game card's
    ``choice_notes`` (their texts: ``terminal.notes.<game>.<choice>`` of the catalogs)."""
    keys = present.choice_notes(obs)
    if not keys:
        return []
    from folkcards.tui.menu import signal

    texts = [a.text for a in obs.legal]
    out: list[str] = []
    for key in keys:
        if key == "grate":  # the signals of a play (SAT-16.6)
            if any(signal(a.step) is not None for a in obs.legal):
                out.append(note(obs.game, key))
            continue
        text = note(obs.game, key)
        # a choice is named by the words its actions begin with (``blind``, ``ask half``):
        # the game card's phrase, matched as the phrase it is
        if any(t == key or t.startswith(key + " ") for t in texts) and text not in out:
            out.append(text)
    if obs.game == "sasku" and obs.phase == "cut":
        out.insert(0, i18n.t("terminal.notes.sasku.cut"))  # the cut methods, in one line
    return out
