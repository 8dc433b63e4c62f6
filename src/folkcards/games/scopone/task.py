"""The Scopone decision of the seat to act, from its observation alone (:mod:`folkcards.engine.task`)."""

from __future__ import annotations

from folkcards.engine.api import Observation
from folkcards.engine.task import Task, task, to_act


def task_of(obs: Observation) -> Task | None:
    """The task of ``obs``'s seat, or None when it is not to act."""
    if not to_act(obs):
        return None
    if obs.phase == "play":
        return task("scopone_play", ("SCO-4",))
    return task("other", (), phase=obs.phase)
