"""The Huutopussi decision of the seat to act, from its observation alone
(:mod:`folkcards.engine.task`)."""

from __future__ import annotations

from folkcards.engine.api import Observation
from folkcards.engine.task import Task, task, to_act, trick_task

from .rules import rules_of


def _count(obs: Observation, key: str) -> int:
    value = obs.info.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def task_of(obs: Observation) -> Task | None:
    """The task of ``obs``'s seat, or None when it is not to act."""
    if not to_act(obs):
        return None
    ph, info, me = obs.phase, obs.info, obs.seat
    steps = [a.step for a in obs.legal]
    kinds = {st.kind for st in steps}
    numbers = sorted(st.number for st in steps if st.number is not None)
    if ph == "bidding":
        rules: tuple[str, ...] = ("HUU-4.1", "HUU-4.2")
        if not numbers:
            if "redeal" in kinds:
                return task("huu_only_pass_redeal", (*rules, "HUU-4.6"))
            return task("huu_only_pass", rules)
        high = info.get("high_bid")
        code = "huu_bidding_over" if high else "huu_bidding"
        if "pass" not in kinds:  # eldest's compulsory opening (HUU-4.3)
            code, rules = code + "_open", (*rules, "HUU-4.3")
        if high:
            return task(code, rules, bids=numbers, bidder=info.get("high_bidder"), bid=high)
        return task(code, rules, bids=numbers)
    if ph in ("give", "return"):  # one card per action (HUU-5.1, HUU-5.3)
        total = rules_of(obs.variant).exchange
        if ph == "give":
            k = _count(obs, "given_count") + 1
            return task("huu_give", ("HUU-5.1",), total=total, to=info.get("declarer"), k=k)
        k = _count(obs, "returned_count") + 1
        return task("huu_return", ("HUU-5.3",), total=total, to=(me + 2) % 4, k=k)
    if ph == "contract":
        contract = ("HUU-6.3",) if obs.num_seats == 3 else ("HUU-5.2",)
        return task("huu_contract", contract, contracts=numbers, bid=info.get("bid"))
    if ph == "discard":
        return task("huu_discard", ("HUU-6.2",), k=_count(obs, "discard_count") + 1)
    if ph == "answer":
        if info.get("ask") == "marriage":
            return task("huu_answer_marriage", ("HUU-8.4",), asker=info.get("asker"))
        return task("huu_answer_half", ("HUU-8.5",), asker=info.get("asker"))
    if ph == "play":
        if any(st.kind != "play" for st in steps):  # declare, ask, kontra, re (HUU-7.6)
            return trick_task(obs, ("HUU-7", "HUU-7.6"), ("huu_lead_declare", "huu_follow_declare"))
        return trick_task(obs, ("HUU-7",))
    return task("other", (), phase=ph)
