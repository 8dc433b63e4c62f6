"""The Sheepshead decision of the seat to act, from its observation alone
(:mod:`folkcards.engine.task`)."""

from __future__ import annotations

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import Observation
from folkcards.engine.task import Task, task, to_act, trick_task


def task_of(obs: Observation) -> Task | None:
    """The task of ``obs``'s seat, or None when it is not to act."""
    if not to_act(obs):
        return None
    ph, me = obs.phase, obs.seat
    if ph == "pick":
        return task("shp_pick", ("SHP-4",))
    if ph == "bury":  # two cards, one action each: the count is the seat's own burials
        done = sum(
            1
            for st, s in zip(obs.history, obs.actors, strict=False)
            if s == me and st.kind == "bury"
        )
        return task("shp_bury", ("SHP-5",), k=done + 1)
    if ph == "call":
        called = [
            CARD_NAMES[a.step.cards[0]] for a in obs.legal if a.step.kind == "call" and a.step.cards
        ]
        if called:
            return task("shp_call", ("SHP-6",), cards=called)
        return task("shp_call_none", ("SHP-6",))
    if ph == "play":
        return trick_task(obs, ("SHP-7",))
    return task("other", (), phase=ph)
