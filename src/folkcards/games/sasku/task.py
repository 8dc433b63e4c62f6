"""The Sasku decision of the seat to act, from its observation alone (:mod:`folkcards.engine.task`)."""

from __future__ import annotations

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import Observation
from folkcards.engine.task import Task, task, to_act, trick_task

_AUCTION = ("SAS-8.3", "SAS-8.4", "SAS-8.6")


def task_of(obs: Observation) -> Task | None:
    """The task of ``obs``'s seat, or None when it is not to act."""
    if not to_act(obs):
        return None
    ph, info, me = obs.phase, obs.info, obs.seat
    steps = [a.step for a in obs.legal]
    kinds = {st.kind for st in steps}
    if ph == "cut":
        return task("sasku_cut", ("SAS-6.2",))
    if ph == "exchange":
        if "return" in kinds:
            mine = [e for e in info.get("exchanges") or [] if e.get("returner") == me]
            if mine:  # the picture the partner gave, face up (SAS-7.3, SAS-7.4)
                giver, picture = mine[0].get("giver"), mine[0].get("picture")
                return task("sasku_return", ("SAS-7.4", "SAS-7.7"), giver=giver, card=picture)
        else:
            picture = next((CARD_NAMES[st.cards[0]] for st in steps if st.kind == "give"), None)
            if picture is not None:
                return task("sasku_give", ("SAS-7.3",), card=picture)
    if ph == "auction":
        high, bidder = info.get("bid"), info.get("bidder")
        bids = sorted(st.number for st in steps if st.number is not None)
        if not bids:
            if high:
                return task("sasku_auction_over_you", _AUCTION, bidder=bidder, bid=high)
            return task("sasku_auction_none", _AUCTION)
        if high:
            return task("sasku_auction_over", _AUCTION, bids=bids, bidder=bidder, bid=high)
        return task("sasku_auction", _AUCTION, bids=bids)
    if ph == "declare":
        return task("sasku_declare", ("SAS-9.1",), bid=info.get("bid"))
    if ph == "override":
        declarer = info.get("declarer")
        who = declarer if declarer is not None else info.get("bidder")
        suit = info.get("trump") or None
        return task("sasku_override", ("SAS-9.3", "SAS-9.4"), declarer=who, suit=suit)
    if ph == "play":
        return trick_task(obs, ("SAS-10",))
    return task("other", (), phase=ph)
