"""What each seat, and a spectator, may know of a Sheepshead deal (SHP-13), and what
happened in it as events.

A seat sees its own hand and every public action: picking and passing, the call or
``alone``, every card played and who took each trick. The picker alone sees the blind and
its bury (other seats see ``bury ?``); who the partner is stays with the partner until the
called card is played (SHP-13.1). After a played-out deal the blind and the bury are shown
to everyone; after a doubler pass-out nobody has looked at the blind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from folkcards.cards import CARD_NAMES, Card, mask_text
from folkcards.engine.actions import Action, Step, masked
from folkcards.engine.api import JSON, Observation
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.events import Told, private, public
from folkcards.engine.info import Info

from .rules import (
    CARD_OF,
    K_BURY,
    K_CALL,
    K_PASS,
    K_PICK,
    K_PLAY,
    KIND,
    M_CALLED,
    M_DOUBLER,
    M_LEASTER,
    MODE_NAMES,
    PH_PLAY,
    PHASE_NAMES,
    POINTS,
    SEATS,
    carry_of,
)
from .scoring import deal_end

if TYPE_CHECKING:
    from .deal import SheepsheadState

_BURY = masked("bury ?")  # SHP-13.1: a buried card as everyone but the picker sees it


def visible_history(st: SheepsheadState, viewer: int) -> tuple[Step, ...]:
    """Every action's text as ``viewer`` sees it: the picker's buries are ``bury ?`` to
    everyone else (SHP-13.1). Only the picker buries, and before the first card is played
    (SHP-5), so only the head of the history is looked at."""
    texts = [a.step for a in st.history]
    if st.picker >= 0 and viewer != st.picker:
        for i, a in enumerate(st.history):
            kind = KIND[a]
            if kind == K_BURY:
                texts[i] = _BURY
            elif kind == K_PLAY:
                break
    return tuple(texts)


def visible_history_reference(st: SheepsheadState, viewer: int) -> tuple[Step, ...]:
    """:func:`visible_history` read off every action (the plain rule, for the tests)."""
    return tuple(
        _BURY if KIND[a] == K_BURY and who != viewer else a.step
        for a, who in zip(st.history, st.actors, strict=True)
    )


@dataclass(frozen=True, slots=True, eq=False)
class SheepsheadInfo(Info):
    """A Sheepshead observation's ``info`` (cards as canonical text). A spectator's has the
    same fields as a seat that is neither picker nor partner sees them (SHP-13.1)."""

    stake: int
    """This deal's stake (SHP-11.2)."""
    mode: str | None
    """None while picking and during bury/call, then ``called``, ``alone``, ``leaster`` or
    ``doubler``."""
    picker: int | None
    """The picker's seat, or None."""
    called: str | None
    """The called card (``AH``, ``TS``), or None."""
    partner: int | None
    """The partner's seat if this seat may know it (it is the partner, the called card has
    been played, or the deal is over), else None (SHP-13.1)."""
    blind: list[str] | None
    """The two blind cards: to the picker once it picked; to everyone when a picked deal
    or a leaster is over; else None (SHP-13.1)."""
    bury: list[str] | None
    """The buried cards, sorted: to the picker; to everyone when the deal is over; else
    None (SHP-5.2)."""
    trick: list[str]
    """Cards of the trick in progress, in play order."""
    leader: int | None
    """The seat that led the trick in progress (None outside play)."""
    trick_number: int | None
    """1–6 during play (the trick in progress), else None."""
    called_suit_led: bool
    """True once a trick has been led with a card of the called suit."""
    tricks: list[int]
    """Tricks won per seat."""
    taken: list[int]
    """Card points in each seat's won tricks (public: no bury, no blind)."""
    hand_sizes: list[int]
    """Cards in each seat's hand."""
    last_trick: dict[str, JSON] | None
    """``{"leader", "cards", "winner"}`` of the last complete trick, or None."""


def observe(st: SheepsheadState, viewer: int) -> Observation:
    """The observation of seat ``viewer``, or of a spectator when it is SPECTATOR (−1)."""
    over = st.to_act is None
    seated = viewer >= 0
    picker = st.picker
    is_picker = seated and viewer == picker  # no picker is -1, like SPECTATOR
    history = visible_history(st, viewer)
    played_out = over and st._md != M_DOUBLER
    show_blind = is_picker or played_out  # SHP-13.1; a leaster shows it only at the end
    show_bury = picker >= 0 and (is_picker or played_out)  # SHP-5.2
    in_play = st._ph == PH_PLAY
    last = st.last_trick
    info = SheepsheadInfo(
        st.stake,
        MODE_NAMES[st._md],
        picker if picker >= 0 else None,
        CARD_NAMES[st.called] if st.called >= 0 else None,
        st.partner if st.partner_known_to(viewer) else None,
        [CARD_NAMES[c] for c in st.blind] if show_blind else None,
        mask_text(st.bury) if show_bury else None,
        [CARD_NAMES[c] for c in st.trick],
        st.leader if in_play else None,
        st.trick_no + 1 if in_play else None,
        st.x_led,
        list(st.tricks),
        list(st.taken),
        [h.bit_count() for h in st.hands],
        None
        if last is None
        else {"leader": last[0], "cards": [CARD_NAMES[c] for c in last[1]], "winner": last[2]},
    )
    return Observation(
        game=st.game.name,
        variant=dict(st.variant),
        seat=viewer,
        num_seats=SEATS,
        dealer=st.dealer,
        phase=PHASE_NAMES[st._ph],  # public: every seat sees the phase and who acts
        to_act=st.to_act,
        hand=st.hands[viewer] if seated else 0,
        legal=st.legal_actions() if seated and viewer == st.to_act else (),
        history=history,
        actors=tuple(st.actors),
        info=info,
        carry=carry_of(st.variant, st.stake),
        result=st.result() if over else None,
    )


def cards_aside(view: CardView) -> Aside:
    """Where the cards out of hand and unplayed are (the self-check's conservation fact):
    the 2-card blind stays aside unseen until a pick (SHP-4); after it the picker's buried
    cards, which the picker sees (SHP-5.2, SHP-13.1), are the only ones."""
    picker = view.observations[0].info.get("picker")
    if picker is None:
        return 0, 2
    return view.cards(view.observations[picker].info.get("bury")), 0


# --- events ----------------------------------------------------------------------------------


def narrate(final: SheepsheadState, st: SheepsheadState) -> list[Told]:
    """The events of ``final``'s deal so far, replaying its history on ``st``, a fresh
    state of the same deal: who may see what of each (SHP-13.1)."""
    out = [public("deal", dealer=st.dealer)]
    for action, seat in zip(final.history, final.actors, strict=True):
        kind, card = KIND[action], CARD_OF[action]
        done = st.trick_no
        st.apply(action)
        if kind == K_PLAY:
            _play_events(out, st, seat, card, done)
        elif kind in (K_PICK, K_PASS):
            _picking_events(out, st, seat, action)
        elif kind == K_BURY:  # SHP-5.1: only the picker sees the card
            out.append(
                private(
                    "pass_cards",
                    (seat,),
                    {"cards": None},
                    **{"from": seat, "to": "bury"},
                    count=1,
                    cards=[CARD_NAMES[card]],
                )
            )
        elif kind == K_CALL:  # SHP-6.6: only the partner knows it is the partner
            out.append(
                private(
                    "contract",
                    (st.partner,),
                    {"partner": None},
                    declarer=seat,
                    mode=st.mode,
                    called=CARD_NAMES[card],
                    partner=st.partner,
                )
            )
        else:  # alone, SHP-6.5
            out.append(public("contract", declarer=seat, mode=st.mode))
    if st.to_act is None:
        if st._md == M_LEASTER and st.last_trick is not None:  # SHP-9.2
            out.append(
                public(
                    "pass_cards",
                    **{"from": "blind", "to": st.last_trick[2]},
                    count=2,
                    cards=[CARD_NAMES[c] for c in st.blind],
                )
            )
        out.append(public("deal_end", **deal_end(st)))
    return out


def _picking_events(out: list[Told], st: SheepsheadState, seat: int, action: Action) -> None:
    """``pick`` or ``pass`` (SHP-4): the bid; the blind face down to the picker (SHP-4.2);
    after five passes the leaster or doubler (SHP-9)."""
    out.append(public("bid", seat=seat, action=action.text))
    if KIND[action] == K_PICK:
        out.append(
            private(
                "pass_cards",
                (seat,),
                {"cards": None},
                **{"from": "blind", "to": seat},
                count=2,
                cards=[CARD_NAMES[c] for c in st.blind],
            )
        )
    elif st._md in (M_LEASTER, M_DOUBLER):
        out.append(public("contract", mode=st.mode))


def _play_events(out: list[Told], st: SheepsheadState, seat: int, card: Card, done: int) -> None:
    """A card played (SHP-7.2); the partner known when it is the called card (SHP-13.1);
    the trick when this card completed it (SHP-7.7, SHP-7.9)."""
    out.append(public("play", seat=seat, card=CARD_NAMES[card]))
    if st._md == M_CALLED and card == st.called:
        out.append(public("partner", seat=seat, card=CARD_NAMES[card]))
    if st.trick_no > done:
        assert st.last_trick is not None
        leader, cards, winner = st.last_trick
        out.append(
            public(
                "trick",
                number=st.trick_no,
                leader=leader,
                cards=[CARD_NAMES[c] for c in cards],
                winner=winner,
                side=winner,
                points=sum(POINTS[c] for c in cards),
                bonus=0,
            )
        )
