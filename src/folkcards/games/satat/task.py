"""The Satat decision of the seat to act, from its observation alone (:mod:`folkcards.engine.task`)."""

from __future__ import annotations

from folkcards.engine.api import Observation
from folkcards.engine.task import Task, task, to_act, trick_task

_SIMPLE = {
    "trump": ("sat_trump", ("SAT-5",)),
    "propose": ("sat_propose", ("SAT-6.1",)),
    "consent": ("sat_consent", ("SAT-6.2",)),
    "announce": ("sat_announce", ("SAT-16.3",)),
    "continue": ("sat_continue", ("SAT-9.2",)),
}


def task_of(obs: Observation) -> Task | None:
    """The task of ``obs``'s seat, or None when it is not to act."""
    if not to_act(obs):
        return None
    ph, me = obs.phase, obs.seat
    if ph in _SIMPLE:
        code, rules = _SIMPLE[ph]
        return task(code, rules)
    if ph == "give":  # winners give to the left, losers their best to the right (SAT-7)
        count = max((len(a.step.cards) for a in obs.legal), default=1)
        passing = obs.carry.get("passing") if isinstance(obs.carry, dict) else None
        winners = passing.get("winners") if isinstance(passing, dict) else None
        left = winners == me % 2
        to = (me + 1) % 4 if left else (me - 1) % 4
        return task("sat_give", ("SAT-7",), count=count, to=to, side="left" if left else "right")
    if ph == "lese":
        leader = _leader(obs)
        if leader is not None:
            return task("sat_lese", ("SAT-16.5",), leader=leader)
    if ph == "play":
        return trick_task(obs, ("SAT-8",))
    return task("other", (), phase=ph)


def _leader(obs: Observation) -> int | None:
    """The seat that led the current trick: the trick's first play, else the first play
    after the last complete trick."""
    trick = obs.info.get("trick")
    if isinstance(trick, list) and trick and isinstance(trick[0], list):
        first = trick[0][0]
        return first if isinstance(first, int) else None
    played = [
        a for st, a in zip(obs.history, obs.actors, strict=False) if st.kind == "play" and st.cards
    ]
    done = len(played) - len(played) % obs.num_seats
    return played[done] if done < len(played) else None
