"""What a Scopone seat or spectator knows (SCO-9), and a deal's events.

Only the hands are hidden: every play and every capture is public (SCO-9), so a seat's
observation is its hand, its legal actions when it is to act, and the public facts — the
full text of every action, the table, both team piles, the sweeps, the last capture and
each seat's number of cards. A spectator's is the same without a hand and legal actions,
and every event is public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from folkcards.cards import CARD_NAMES, iter_cards, mask_text, to_mask
from folkcards.engine.api import JSON, SPECTATOR, Observation
from folkcards.engine.conservation import Aside, CardView, NotConserved
from folkcards.engine.events import Told, component, only, public
from folkcards.engine.info import Info

from .actions import Play

if TYPE_CHECKING:
    from .deal import ScoponeDeal


@dataclass(frozen=True, slots=True, eq=False)
class ScoponeInfo(Info):
    """A Scopone observation's ``info``: every fact is public (SCO-9), the same for every
    seat and for a spectator."""

    turn: int
    """Turns played so far (0 … 36, or 40 in scientifico)."""
    table: list[str]
    """Cards on the table now, in card order (SCO-3.3)."""
    initial_table: list[str]
    """The four cards dealt to the table (``[]`` in scientifico)."""
    piles: list[list[str]]
    """``[team 0 cards, team 1 cards]`` captured so far, each in card order."""
    sweeps: list[int]
    """Sweeps so far per team (SCO-5.1)."""
    last_capture: int | None
    """The seat of the last capture so far, or None (SCO-5.3)."""
    hand_sizes: list[int]
    """Cards in each seat's hand."""
    redeal: bool
    """True for a void deal (SCO-3.4)."""


def observe(deal: ScoponeDeal, viewer: int) -> Observation:
    """The observation of ``viewer``: a seat 0–3, or SPECTATOR (no seat, no hand)."""
    seated = viewer != SPECTATOR
    return Observation(
        game=deal.game.name,
        variant=dict(deal.variant),
        seat=viewer,
        num_seats=4,
        dealer=deal.dealer,
        phase=deal.phase,
        to_act=deal.to_act,
        hand=deal.hands[viewer] if seated else 0,
        legal=deal.legal_actions() if seated and deal.to_act == viewer else (),
        history=tuple(a.step for a in deal.history),
        actors=tuple(deal.actors),
        info=ScoponeInfo(
            deal.turn,
            mask_text(deal.table),
            mask_text(to_mask(deal.initial_table)),
            [mask_text(deal.piles[0]), mask_text(deal.piles[1])],
            list(deal.sweeps),
            deal.last_capture,
            [h.bit_count() for h in deal.hands],
            deal.redeal,
        ),
        result=deal.result() if deal.to_act is None else None,
    )


def cards_aside(view: CardView) -> Aside:
    """Where the cards out of hand and unplayed are (the self-check's conservation fact):
    hands, table and the two capture piles are public facts and partition the pack
    (SCO-9); the cards never played from a hand are the table as dealt (SCO-3.3)."""
    info = view.observations[0].info
    parts = [*view.hands, view.cards(info["table"])] + [view.cards(p) for p in info["piles"]]
    seen = 0
    for part in parts:
        if part & seen:
            raise NotConserved("a card is in two of hands, table and piles")
        seen |= part
    deck = view.game.deck
    if seen != deck:
        missing = [CARD_NAMES[c] for c in iter_cards(deck & ~seen)]
        raise NotConserved(f"hands, table and piles lack {missing}")
    return view.cards(info["initial_table"]), 0


def narrate(final: ScoponeDeal) -> list[Told]:
    """The events of ``final``'s deal: the table dealt, each play with its capture and
    sweep (SCO-4.4, SCO-5.1), the leftover (SCO-5.3) and the score by its points (SCO-6)."""
    st = cast("ScoponeDeal", final.fresh())
    out = [public("deal", dealer=st.dealer)]
    if st.initial_table:
        out.append(public("table", cards=mask_text(to_mask(st.initial_table))))
    for action, seat in zip(final.history, final.actors, strict=True):
        assert isinstance(action, Play)
        table = st.table
        sweeps = st.sweeps[seat & 1]
        st.apply(action)
        name = CARD_NAMES[action.card]
        out.append(public("play", seat=seat, card=name, take=mask_text(action.take)))
        if action.take:  # SCO-4.4
            out.append(
                public("capture", seat=seat, side=seat & 1, card=name, cards=mask_text(action.take))
            )
            now = st.sweeps[seat & 1]
            if now > sweeps:  # SCO-5.1
                out.append(public("sweep", seat=seat, side=seat & 1, sweeps=now))
        if st.to_act is None:  # SCO-5.3: what is left goes to the team of the last capture
            left = table & ~action.take if action.take else table | action.bit
            lc = st.last_capture
            if left and lc is not None:
                out.append(public("leftover", seat=lc, side=lc & 1, cards=mask_text(left)))
    if st.to_act is None:
        out.append(public("deal_end", **_deal_end(st.result(), out)))
    return out


def _deal_end(res: dict[str, JSON], told: list[Told]) -> dict[str, JSON]:
    """The ``deal_end`` event: the result with its points one by one (SCO-6.7) and where
    the cards came from (captures and the leftover, SCO-5.3)."""
    if res["redeal"]:  # SCO-3.4
        return {
            "result": res,
            "score": list(res["score"]),
            "outcome": "void",
            "reason": None,
            "components": [],
            "points_from": None,
        }
    captured, left = [0, 0], [0, 0]
    for t in told:
        if t.kind == "capture":
            captured[t.data["side"]] += 1 + len(t.data["cards"])
        elif t.kind == "leftover":
            left[t.data["side"]] += len(t.data["cards"])
    return {
        "result": res,
        "score": list(res["score"]),
        "outcome": "scored",
        "reason": None,
        "components": _components(res),
        "points_from": {"captures": captured, "leftover": left},
    }


def _components(res: dict[str, JSON]) -> list[dict[str, JSON]]:
    """The points of a scored deal one by one, each with its rule (SCO-6.1 … SCO-6.6)."""
    cards, coins, prim = res["cards"], res["coins"], res["primiera"]
    parts = [
        component("cards", [int(cards[0] > 20), int(cards[1] > 20)], counts=cards, rule="SCO-6.1"),
        component("coins", [int(coins[0] > 5), int(coins[1] > 5)], counts=coins, rule="SCO-6.2"),
        component(
            "settebello", only(res["settebello"], 1, 2), holder=res["settebello"], rule="SCO-6.3"
        ),
        component(
            "primiera",
            [int(prim[0] > prim[1]), int(prim[1] > prim[0])],
            values=prim,
            rule="SCO-6.4",
        ),
        component("sweeps", list(res["sweeps"]), counts=res["sweeps"], rule="SCO-6.5"),
    ]
    if "re_bello" in res:
        parts.append(
            component(
                "re_bello", only(res["re_bello"], 1, 2), holder=res["re_bello"], rule="SCO-8.3"
            )
        )
    if "napola" in res:
        parts.append(component("napola", list(res["napola"]), values=res["napola"], rule="SCO-8.4"))
    return parts
