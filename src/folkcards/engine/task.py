"""The decision a seat faces, said once by the engine: a stable code, parameters and rules.

:attr:`Observation.task <folkcards.engine.api.Observation.task>` is the :class:`Task` of the
observation's seat when that seat is to act — None for a seat that waits, a spectator and
a deal that is over. Each game builds it (``Game.task``, in ``games/<game>/task.py``) from
the observation alone, so it says nothing the seat may not know: two worlds that the seat
cannot tell apart give it the same task. A client renders ``code`` and ``params`` with its
own template (the catalogs' ``terminal.task.<code>`` and ``tasks.<code>``); :data:`MESSAGES`
is the English table, and ``text`` is its rendering.

Parameter conventions (every value JSON-ready, as in :mod:`folkcards.engine.explain`):

* a seat (``giver``, ``to``, ``asker``, ``bidder``, ``declarer``, ``leader``): an int;
* ``card``: a card's canonical text (``"TH"``); ``cards``: a list of card texts;
* numbers (``bid``, ``total``, ``k``, ``n``, ``count``): ints; ``bids``, ``contracts``:
  the numbers on offer, ascending (a client may say them as a range);
* ``suit``: a suit letter ``C S H D``, or None for a suit not yet named;
* ``side``: ``"left"`` or ``"right"`` (whose turn it is to pass cards that way, SAT-7);
* ``phase``: the phase name.

``k`` counts the card an action hands over (``1`` of ``total``); a client that speaks of
"you" and "your partner" knows the observation's seat and maps the seats itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES
from folkcards.engine.explain import JSON, Message, placeholders, render

if TYPE_CHECKING:
    from folkcards.engine.api import Observation

__all__ = ["MESSAGES", "Task", "placeholders", "render_task", "task", "trick_task"]


@dataclass(frozen=True)
class Task(Message):
    """What the seat to act is asked to do: ``code`` and ``params`` for any language, the
    ``rules`` it concerns, and ``text``, its English line (:data:`MESSAGES` rendered)."""

    def render(self, templates: Mapping[str, str] | None = None) -> str:
        """The line from ``templates`` (default: :data:`MESSAGES`, English)."""
        return render_task(self.code, self.params, templates)


def render_task(
    code: str, params: Mapping[str, JSON], templates: Mapping[str, str] | None = None
) -> str:
    """The template of ``code`` (from ``templates``, default :data:`MESSAGES`) filled with
    ``params`` (:func:`folkcards.engine.explain.render`'s conventions)."""
    return render(code, params, MESSAGES if templates is None else templates)


def task(code: str, rules: tuple[str, ...], /, **params: JSON) -> Task:
    """The task of ``code`` with its English text (the games' helper)."""
    return Task(code, params, rules, render_task(code, params))


def to_act(obs: Observation) -> bool:
    """Whether ``obs`` is the observation of the seat to act (the only one given a task)."""
    return obs.to_act is not None and obs.seat == obs.to_act and bool(obs.legal)


def trick_task(
    obs: Observation, rules: tuple[str, ...], codes: tuple[str, str] = ("lead", "follow")
) -> Task:
    """Lead or follow the current trick (``codes``: the lead's and the follow's code), the
    trick numbered from the public ``play`` steps of the history (trick games only)."""
    played = [
        (actor, step.cards[0])
        for step, actor in zip(obs.history, obs.actors, strict=False)
        if step.kind == "play" and step.cards
    ]
    n = obs.num_seats
    done = len(played) - len(played) % n
    number = done // n + 1
    if done == len(played):
        return task(codes[0], rules, n=number)
    seat, card = played[done]
    return task(codes[1], rules, n=number, leader=seat, card=CARD_NAMES[card])


MESSAGES: dict[str, str] = {
    # --- every trick game --------------------------------------------------------------------
    "lead": "lead a card to trick {n}",
    "follow": "play a card to trick {n}: seat {leader} led {card}",
    "other": "{phase}: choose one of the legal actions",
    # --- Sasku -------------------------------------------------------------------------------
    "sasku_cut": "cut: choose how the dealer deals the cards",
    "sasku_give": "your only picture is {card}: give it face up to your partner, or keep it",
    "sasku_return": "seat {giver} gave you {card}: return one suit card face down",
    "sasku_auction": "auction: bid {bids:or}, pass, or say diamonds",
    "sasku_auction_over": "auction: bid {bids:or} over seat {bidder}'s {bid}, pass, or say diamonds",
    "sasku_auction_none": "auction: you cannot bid; pass, or say diamonds",
    "sasku_auction_over_you": "auction: seat {bidder} bid {bid}, more than you can; pass, or say diamonds",
    "sasku_declare": "you won the auction at {bid}: name trump",
    "sasku_override": "seat {declarer} named trump {suit}: say diamonds to take over, or pass",
    # --- Scopone -----------------------------------------------------------------------------
    "scopone_play": "play a card: a card that can capture must capture",
    # --- Sheepshead --------------------------------------------------------------------------
    "shp_pick": "pick up the blind, or pass",
    "shp_bury": "bury 2 cards face down: card {k} of 2",
    "shp_call": "call {cards:or} as your partner's card, or play alone",
    "shp_call_none": "no card can be called: you play alone",
    # --- Satat -------------------------------------------------------------------------------
    "sat_trump": "make trump from your first five cards, or go blind",
    "sat_propose": "you hold no trump: propose a redeal, or pass",
    "sat_consent": "your partner holds no trump and proposes a redeal: accept or refuse",
    "sat_give": "pass {count} card(s) to seat {to} (giving to the {side})",
    "sat_announce": "you hold the 2H: announce it, or stay silent",
    "sat_lese": "seat {leader} has led: signal lese, or stay silent",
    "sat_continue": "your team won the first 7 tricks: continue for 13-0, or stop at 7-0",
    # --- Huutopussi --------------------------------------------------------------------------
    "huu_bidding": "bidding: bid {bids:or}, or pass",
    "huu_bidding_open": "bidding: you open: bid {bids:or}",
    "huu_bidding_over": "bidding: bid {bids:or} over seat {bidder}'s {bid}, or pass",
    "huu_bidding_over_open": "bidding: you open: bid {bids:or} over seat {bidder}'s {bid}",
    "huu_only_pass": "bidding: you may only pass",
    "huu_only_pass_redeal": "bidding: you may only pass or ask for a redeal",
    "huu_give": "give {total} cards face down to the declarer, seat {to}: card {k} of {total}",
    "huu_contract": "set the contract: {contracts:or} (at least your bid {bid})",
    "huu_return": "return {total} cards face down to seat {to}: card {k} of {total}",
    "huu_discard": "discard 3 cards face down: card {k} of 3",
    "huu_answer_marriage": "seat {asker} asks for a marriage: answer truthfully",
    "huu_answer_half": "seat {asker} asks for the other half of a marriage: answer truthfully",
    "huu_lead_declare": "lead a card to trick {n}; you may first declare or ask for a trump",
    "huu_follow_declare": "play a card to trick {n}: seat {leader} led {card}; you may first call",
}
"""Every task code with its English template (``{param}`` placeholders, the list specs of
:mod:`folkcards.engine.explain`). The keys of a task's ``params`` are exactly the
placeholders of its code's template."""
