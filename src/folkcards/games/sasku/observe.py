"""What a seat, or a spectator, may know of a Sasku deal: observations and events (SAS-19).

Everything is public (SAS-19.1) but the hands and one card: a ``return X`` of the
lone-picture exchange is seen only by the giver and the returner (SAS-7.7), so the others'
history reads ``return ?`` and their ``info.exchanges`` show ``"?"``. :func:`observe` builds
an :class:`~folkcards.engine.api.Observation` (the ``info`` keys are listed in the
package's docstring); :func:`narrate` replays a deal from its set-up into events, the
returned card marked as private to those two seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from folkcards.cards import CARD_NAMES, SUITS
from folkcards.engine.actions import Step, masked
from folkcards.engine.api import JSON, SPECTATOR, Observation
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.events import Told, private, public
from folkcards.engine.info import Info

from .actions import ARG, K_BID, K_DEAL, K_DIAMONDS, K_GIVE, K_KEEP, K_PLAY, K_RETURN, KIND
from .rules import AUCTION, CARD_POINTS, DEAL_LAYOUTS, DECLARE, OVER, PLAY_PHASE
from .scoring import deal_end

if TYPE_CHECKING:
    from .deal import SaskuState

_RETURN = masked("return ?")  # SAS-7.7: a partner's return as the others see it


@dataclass(frozen=True, slots=True, eq=False)
class SaskuInfo(Info):
    """A Sasku observation's ``info`` (cards as canonical text). Everything is public
    (SAS-19.1) but a card returned in the lone-picture exchange, which only its giver and
    returner see (SAS-7.7)."""

    cutter: int
    """The cutter's seat (SAS-5.3)."""
    eldest: int
    """The eldest hand's seat (SAS-5.3)."""
    deal: str | None
    """How the cutter had the cards dealt: ``threes``, ``ones``, ``nines``, ``cover`` or
    ``to`` (SAS-6); None before the cut, or for a record that gave the hands."""
    face_up: list[list[JSON]]
    """``[[card, seat], …]``: the cards dealt face up by ``deal to X``, in deck order, and
    who received each (SAS-6.4)."""
    exchanges: list[dict[str, JSON]]
    """``[{"giver", "picture", "returner", "returned"}, …]``; ``returned`` is the card,
    ``"?"`` when hidden from this seat (SAS-7.7), or None while the return is pending."""
    bid: int | None
    """The highest bid so far, or None."""
    bidder: int | None
    """The seat of the highest bid, or None."""
    passed: list[int]
    """Seats that passed in the auction, ascending."""
    trump: str | None
    """The trump suit (``C``, ``S``, ``H``, ``D``), or None while undecided."""
    declarer: int | None
    """The seat whose trump stands (SAS-9.5), or None."""
    passed_deal: bool
    """True when all four passed (or in a replay of such a deal, SAS-15.2)."""
    leader: int | None
    """The seat that led the current trick (None before play)."""
    trick: list[list[JSON]]
    """``[[seat, card], …]``: the cards of the current trick."""
    tricks_played: int
    """Completed tricks, 0–9."""
    points: list[int]
    """Card points per team, from completed tricks."""
    tricks: list[int]
    """Tricks per team."""
    hand_sizes: list[int]
    """Cards held by each seat now."""


def observe(state: SaskuState, viewer: int) -> Observation:
    """The observation of ``viewer``: a seat 0–3, or SPECTATOR (no seat, no hand)."""
    history: list[Step] = []
    for action, actor in zip(state.history, state.actors, strict=True):
        if KIND[action] == K_RETURN and viewer != actor and viewer != (actor + 2) & 3:
            history.append(_RETURN)  # SAS-7.7, SAS-19.1
        else:
            history.append(action.step)
    seated = viewer != SPECTATOR
    return Observation(
        game=state.game.name,
        variant=dict(state.variant),
        seat=viewer,
        num_seats=4,
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        hand=state.hands[viewer] if seated else 0,
        legal=state.legal_actions() if seated and viewer == state.to_act else (),
        history=tuple(history),
        actors=tuple(state.actors),
        info=_info(state, viewer),
        carry={"replay": dict(state.replay)} if state.replay is not None else {},
        result=state.result() if state.to_act is None else None,
    )


def _info(state: SaskuState, viewer: int) -> SaskuInfo:
    """The observation's ``info``: the public facts, and the returned cards ``viewer`` saw."""
    exchanges = []
    for giver, picture, returner, returned in state.exchanges:
        if returned < 0:
            shown: str | None = None
        elif viewer in (giver, returner):
            shown = CARD_NAMES[returned]
        else:
            shown = "?"
        exchanges.append(
            {
                "giver": giver,
                "picture": CARD_NAMES[picture],
                "returner": returner,
                "returned": shown,
            }
        )
    layout = DEAL_LAYOUTS["to"]  # SAS-6.4: the face-up cards and who received each
    face_up = [
        [CARD_NAMES[c], (state.dealer + layout[i][0]) & 3] for i, c in enumerate(state.face_up)
    ]
    leader = state.leader if state.phase in (PLAY_PHASE, OVER) else None
    return SaskuInfo(
        state.cutter,
        state.eldest,
        state.method,
        face_up,
        exchanges,
        state.high_bid or None,
        state.high_bidder if state.high_bid else None,
        [s for s in range(4) if state.passed_mask >> s & 1],
        SUITS[state.trump] if state.trump >= 0 else None,
        state.declarer,
        state.passed_deal,
        leader,
        [[(state.leader + i) & 3, CARD_NAMES[c]] for i, c in enumerate(state.trick)],
        state.tricks_played,
        list(state.points),
        list(state.tricks),
        [h.bit_count() for h in state.hands],
    )


def cards_aside(view: CardView) -> Aside:
    """Where the cards out of hand and unplayed are (the self-check's conservation fact):
    before the cutter's deal choice the whole pack is undealt (SAS-6); afterwards every
    card is in a hand or played — the face-up cards of the deal are in hands (SAS-6.4)."""
    if view.in_hands == 0 and view.played == 0:
        return 0, view.game.deck.bit_count()
    return 0, 0


def narrate(final: SaskuState) -> list[Told]:
    """The events of ``final``'s deal so far, replayed from its set-up: each action read
    for what it changed. A returned card is seen by its giver and returner only (SAS-7.7,
    SAS-19.1); everything else is public."""
    st = cast("SaskuState", final.fresh())
    out = [public("deal", dealer=st.dealer)]
    if st.replay is not None:  # SAS-15.2: trump and declarer of the tied deal
        out.append(public("trump", seat=st.declarer, suit=SUITS[st.trump], how="replay"))
    if st.phase == PLAY_PHASE:
        out.append(_contract(st))
    for action, seat in zip(final.history, final.actors, strict=True):
        phase = st.phase
        giver = st.pending_giver
        done = st.tricks_played
        st.apply(action)
        out += _told(st, action.text, KIND[action], ARG[action], seat, phase, giver, done)
        if phase != PLAY_PHASE and st.phase == PLAY_PHASE:
            out.append(_contract(st))
    if st.is_over:
        out.append(public("deal_end", **deal_end(st)))
    return out


def _told(
    st: SaskuState, text: str, kind: int, arg: int, seat: int, phase: str, giver: int, done: int
) -> list[Told]:
    """The events of one action just applied to ``st`` (``phase``, ``giver`` and ``done``
    tricks as they were before it)."""
    if kind == K_PLAY:
        out = [public("play", seat=seat, card=CARD_NAMES[arg])]
        if st.tricks_played > done:
            leader, cards, winner = st.completed[-1]
            out.append(
                public(
                    "trick",
                    number=st.tricks_played,
                    leader=leader,
                    cards=[CARD_NAMES[c] for c in cards],
                    winner=winner,
                    side=winner & 1,
                    points=sum(CARD_POINTS[c] for c in cards),
                    bonus=0,
                )
            )
        return out
    if kind == K_DEAL:
        layout = DEAL_LAYOUTS["to"]
        face_up = [
            [CARD_NAMES[c], (st.dealer + layout[i][0]) & 3] for i, c in enumerate(st.face_up)
        ]
        return [public("cut", seat=seat, method=st.method, face_up=face_up)]
    if kind == K_GIVE:  # SAS-7.3: face up
        sides = {"from": seat, "to": (seat + 2) & 3}
        return [public("pass_cards", **sides, count=1, cards=[CARD_NAMES[arg]])]
    if kind == K_RETURN:  # SAS-7.4, SAS-7.7: face down
        sides = {"from": seat, "to": giver}
        hidden = {"cards": None}
        return [
            private("pass_cards", (seat, giver), hidden, **sides, count=1, cards=[CARD_NAMES[arg]])
        ]
    if kind == K_KEEP:
        return [public("call", seat=seat, call="keep")]
    if phase == AUCTION:
        value = arg if kind == K_BID else None
        out = [public("bid", seat=seat, action="bid" if kind == K_BID else text, value=value)]
        if kind == K_DIAMONDS:  # SAS-8.6
            out.append(public("trump", seat=seat, suit="D", how="diamonds"))
        elif st.passed_deal:  # SAS-8.7a
            out.append(public("trump", seat=None, suit="D", how="passed"))
        return out
    if phase == DECLARE:  # SAS-9.1
        return [public("trump", seat=seat, suit=SUITS[arg], how="named")]
    out = [public("call", seat=seat, call=text)]  # phase override: SAS-9.3, SAS-9.4
    if kind == K_DIAMONDS:
        out.append(public("trump", seat=seat, suit="D", how="override"))
    return out


def _contract(st: SaskuState) -> Told:
    """The trump that stands and its declarer as play begins (SAS-9.5)."""
    return public(
        "contract",
        declarer=st.declarer,
        mode="passed" if st.passed_deal else ("replay" if st.replay is not None else "bid"),
        bid=st.high_bid or None,
        trump=SUITS[st.trump],
    )
