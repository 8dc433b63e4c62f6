"""What each seat may know of a Huutopussi deal (HUU-14), and the deal's events.

:func:`observe` is a seat's or a spectator's :class:`~folkcards.engine.api.Observation`
(``info`` is documented in the package). Only the exchange and the discard hide a card
(HUU-14.3, 14.4, 14.6): :func:`visible_text` is one history entry as a viewer saw it, and
:func:`visible_history` — the fast path, which copies every entry from the first card
played on — the whole history (a test compares it with :func:`visible_text` entry by
entry). :func:`narrate` replays the deal from its set-up into events hidden the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from folkcards.cards import CARD_NAMES, SUITS
from folkcards.engine.actions import Action, Step, masked
from folkcards.engine.api import SPECTATOR, Observation
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.events import Told, private, public
from folkcards.engine.info import Info

from .rules import (
    ARG,
    K_ANSWER_NO,
    K_ANSWER_SUIT,
    K_ANSWER_YES,
    K_ASK_HALF,
    K_ASK_MARRIAGE,
    K_BID,
    K_CONTRACT,
    K_DECLARE,
    K_DISCARD,
    K_GIVE,
    K_PASS,
    K_PLAY,
    K_RETURN,
    KIND,
    P_BIDDING,
)
from .scoring import deal_end

if TYPE_CHECKING:
    from .deal import HuutopussiState

_STEP = attrgetter("step")  # an action as a history entry, for copying the public part
_GIVE, _RETURN, _DISCARD = masked("give ?"), masked("return ?"), masked("discard ?")
_HIDES_CARD = frozenset((K_GIVE, K_RETURN, K_DISCARD))  # HUU-14.3, 14.4, 14.6


def visible_text(st: HuutopussiState, index: int, seat: int) -> Step:
    """HUU-14: history entry ``index`` as ``seat`` saw it (``give ?``…);
    ``seat`` may be :data:`SPECTATOR`, who sees no hidden card."""
    a = st.history[index]
    kind = KIND[a]
    if kind == K_GIVE:  # HUU-14.3: the card is seen by the giver and the declarer
        return a.step if seat >= 0 and seat in (st.declarer, st.actors[index]) else _GIVE
    if kind == K_RETURN:  # HUU-14.4: by the declarer and its partner
        return a.step if seat >= 0 and seat in (st.declarer, st.partner) else _RETURN
    if kind == K_DISCARD:  # HUU-14.6: by the declarer only
        return a.step if seat >= 0 and seat == st.declarer else _DISCARD
    return a.step


def visible_history(st: HuutopussiState, viewer: int) -> tuple[Step, ...]:
    """Every history entry as ``viewer`` saw it (:func:`visible_text` of each).

    Only steps before the first card is played can hide a card (gives, returns, discards:
    HUU-5, HUU-6), so from the first ``play`` on the texts are copied as they are."""
    history = st.history
    n = len(history)
    i = 0
    out: list[Step] = []
    while i < n:
        a = history[i]
        kind = KIND[a]
        if kind == K_PLAY:
            out += map(_STEP, history[i:])
            break
        out.append(visible_text(st, i, viewer) if kind in _HIDES_CARD else a.step)
        i += 1
    return tuple(out)


def observation(st: HuutopussiState, seat: int) -> Observation:
    """Everything ``seat`` may know (HUU-14); :data:`SPECTATOR` gives the public view."""
    if seat != SPECTATOR and not 0 <= seat < st.num_seats:
        raise ValueError(f"seat {seat!r} is not a seat of this deal (0–{st.num_seats - 1})")
    return observe(st, seat)


def observe(st: HuutopussiState, viewer: int) -> Observation:
    """The observation of seat ``viewer``, or of a spectator (``viewer`` = SPECTATOR, who
    holds no hand and took no part in the exchange or the discard)."""
    seated = viewer >= 0
    return Observation(
        game=st.game.name,
        variant=dict(st.variant),
        seat=viewer,
        num_seats=st.num_seats,
        dealer=st.dealer,
        phase=st.phase,
        to_act=st.to_act,
        hand=st.hands[viewer] if seated else 0,
        legal=st.legal_actions() if seated and viewer == st.to_act else (),
        history=visible_history(st, viewer),
        actors=tuple(st.actors),
        info=_info(st, viewer),
        carry={"totals": list(st.totals)},
        result=st.result() if st.to_act is None else None,
    )


@dataclass(frozen=True, slots=True, eq=False)
class HuutopussiInfo(Info):
    """A Huutopussi observation's ``info`` (cards as canonical text). Sides are teams with
    4 players and seats with 3. A spectator's is that of a seat that took no part in the
    exchange or the discard (HUU-14)."""

    players: int
    """3 or 4 (HUU-13)."""
    banned: list[int]
    """Seats under huutokielto this deal (HUU-4.7)."""
    high_bid: int | None
    """The highest bid so far, or None while nobody has bid."""
    high_bidder: int | None
    """The seat of the highest bid, or None."""
    passed: list[int]
    """Seats that passed in the bidding."""
    declarer: int | None
    """The declarer once known, else None."""
    bid: int | None
    """The final bid once known, else None."""
    contract: int | None
    """The contract once known, else None."""
    hand_sizes: list[int]
    """Cards in each seat's hand."""
    given: list[str] | None
    """The cards given in the exchange, to the declarer and its partner (HUU-14.3); None
    for the others and for a spectator."""
    given_count: int
    """How many cards were given so far (public)."""
    returned: list[str] | None
    """The cards returned in the exchange, to the declarer and its partner (HUU-14.4);
    None for the others and for a spectator."""
    returned_count: int
    """How many cards were returned so far (public)."""
    widow: list[str] | None
    """3 players: the widow once the declarer took it (public, HUU-14.6); else None."""
    discards: list[str] | None
    """3 players: the declarer's discards, to the declarer only (HUU-14.6); else None."""
    discard_count: int
    """How many cards were discarded so far (public)."""
    trump: str | None
    """The current trump suit, or None."""
    declarations: list[dict[str, Any]]
    """Every successful declaration in order, ``{"seat", "suit", "at"}``: ``at`` is the
    history index of the action that made the trump (a ``declare`` or an ``answer``)."""
    broken: list[int]
    """Seats whose marriages are broken (HUU-8.6)."""
    leader: int | None
    """The leader of the trick in progress, or None."""
    trick: list[str]
    """The cards of the trick in progress, in play order."""
    tricks_played: int
    """Completed tricks."""
    tricks: list[int]
    """Tricks won per side."""
    points: list[int]
    """Card points won in tricks per side, with the last trick's once won (a 3-player
    declarer's discards are added only in the result)."""
    marriages: list[int]
    """Marriage values declared per side."""
    window: bool
    """True when the seat to act may make a declaration attempt now (HUU-8.1)."""
    asker: int | None
    """In phase ``answer``: who asked, else None."""
    ask: str | None
    """In phase ``answer``: what was asked (``marriage`` or ``half X``), else None."""
    calls: int
    """Kontra/re calls so far (Erlangen, HUU-12)."""


def _info(st: HuutopussiState, viewer: int) -> HuutopussiInfo:
    """``Observation.info`` for ``viewer``."""
    n = st.num_seats
    d = st.declarer
    seated = viewer >= 0
    # HUU-14.3, 14.4: the exchanged cards (declarer and partner; with 3 players the
    # declarer sees the empty lists); HUU-14.6: the discards (the declarer only)
    knows_given = seated and d >= 0 and viewer in (d, st.partner)
    knows_discards = seated and n == 3 and viewer == d
    return HuutopussiInfo(
        players=n,
        banned=[s for s in range(n) if st.banned >> s & 1],
        high_bid=st.high or None,
        high_bidder=st.high_seat if st.high_seat >= 0 else None,
        passed=[s for s in range(n) if st.passed >> s & 1],
        declarer=d if d >= 0 else None,
        bid=st.bid or None,
        contract=st.contract or None,
        hand_sizes=[h.bit_count() for h in st.hands],
        given=[CARD_NAMES[c] for c in st.given] if knows_given else None,
        given_count=len(st.given),
        returned=[CARD_NAMES[c] for c in st.returned] if knows_given else None,
        returned_count=len(st.returned),
        widow=[CARD_NAMES[c] for c in st.widow] if n == 3 and d >= 0 else None,
        discards=[CARD_NAMES[c] for c in st.discards] if knows_discards else None,
        discard_count=len(st.discards),
        trump=SUITS[st.trump] if st.trump >= 0 else None,
        declarations=[{"seat": s, "suit": SUITS[x], "at": i} for s, x, i in st.declarations],
        broken=[s for s in range(n) if st.broken >> s & 1],
        leader=st.leader if st.leader >= 0 else None,
        trick=[CARD_NAMES[c] for c in st.trick],
        tricks_played=st.tricks_done,
        tricks=list(st.tricks),
        points=list(st.points),
        marriages=list(st.marriages),
        window=st.window,
        asker=st.asker if st.asker >= 0 else None,
        ask=(
            None
            if st.asker < 0
            else ("marriage" if st.ask_suit < 0 else f"half {SUITS[st.ask_suit]}")
        ),
        calls=st.calls,
    )


def cards_aside(view: CardView) -> Aside:
    """Where the cards out of hand and unplayed are (the self-check's conservation fact):
    given (returned) cards are in transit during the give (return) phase, seen by giver
    and declarer (HUU-5.1, HUU-5.3); the 3-card widow is face down until the bidding ends,
    then the declarer's discards are out of hand, seen by the declarer (HUU-6)."""
    known = 0
    widow_seen = False
    phase = view.state.phase
    for obs in view.observations:
        info = obs.info
        if phase == "give":
            known |= view.cards(info.get("given"))
        if phase == "return":
            known |= view.cards(info.get("returned"))
        known |= view.cards(info.get("discards"))
        widow_seen = widow_seen or info.get("widow") is not None
    hidden = 3 if view.state.num_seats == 3 and not widow_seen else 0
    return known, hidden


# --- events ------------------------------------------------------------------------------------


def narrate(final: HuutopussiState) -> list[Told]:
    """The events of ``final``'s deal so far (see ``HuutopussiState._narrate``)."""
    st = final.fresh()
    assert isinstance(st, type(final))
    out = [public("deal", dealer=st.dealer)]
    for action, seat in zip(final.history, final.actors, strict=True):
        ph, declarer, made = st.ph, st.declarer, len(st.declarations)
        trick, leader, done = list(st.trick), st.leader, st.tricks_done
        st.apply(action)
        if KIND[action] == K_PLAY:
            out += _play_events(st, seat, ARG[action], trick, leader, done)
        elif KIND[action] != K_DECLARE:  # a declaration's event is its trump's
            out.append(_action_event(st, action, seat))
        if len(st.declarations) > made:  # HUU-8.7 – HUU-8.9: a trump is made
            out.append(_trump_event(st, KIND[action]))
        if ph == P_BIDDING and st.ph != P_BIDDING and st.redeal_by < 0:  # HUU-4.5, HUU-12.2
            out += _bidding_end(st, declarer)
    if st.to_act is None:
        out.append(public("deal_end", **deal_end(st)))
    return out


def _play_events(
    st: HuutopussiState, seat: int, c: int, trick: list[int], leader: int, done: int
) -> list[Told]:
    """``play C``, and the trick it completes (HUU-7.4, HUU-7.5, the last trick HUU-1.4)."""
    out = [public("play", seat=seat, card=CARD_NAMES[c])]
    if st.tricks_done > done:
        r = st.rules
        cards = [*trick, c]
        w = st.win_seat
        out.append(
            public(
                "trick",
                number=st.tricks_done,
                leader=leader,
                cards=[CARD_NAMES[x] for x in cards],
                winner=w,
                side=st.sides[w],
                points=sum(r.card_points[x] for x in cards),
                bonus=r.last_trick if st.tricks_done == r.tricks else 0,
            )
        )
    return out


def _passed(seat: int, to: int | str, seen_by: tuple[int, ...], c: int) -> Told:
    """One card passed face down, seen only by ``seen_by`` (HUU-14.3, 14.4, 14.6)."""
    return private(
        "pass_cards",
        seen_by,
        {"cards": None},
        **{"from": seat, "to": to},
        count=1,
        cards=[CARD_NAMES[c]],
    )


def _action_event(st: HuutopussiState, action: Action, seat: int) -> Told:
    """The event of any action but a play or a declaration, once ``st`` has applied it."""
    kind, arg = KIND[action], ARG[action]
    if kind in (K_BID, K_PASS):  # HUU-4
        value = arg if kind == K_BID else None
        return public("bid", seat=seat, action=action.step.kind, value=value)
    if kind == K_GIVE:  # HUU-5.1, HUU-14.3
        return _passed(seat, st.declarer, (seat, st.declarer), arg)
    if kind == K_RETURN:  # HUU-5.3, HUU-14.4
        return _passed(seat, st.partner, (seat, st.partner), arg)
    if kind == K_DISCARD:  # HUU-6.2, HUU-14.6
        return _passed(seat, "discards", (seat,), arg)
    if kind == K_CONTRACT:  # HUU-5.2, HUU-6.3
        return public("contract", declarer=seat, bid=st.bid, contract=arg)
    if kind in (K_ASK_MARRIAGE, K_ASK_HALF):  # HUU-8.4, HUU-8.5
        ask = "marriage" if kind == K_ASK_MARRIAGE else "half"
        suit = SUITS[arg] if kind == K_ASK_HALF else None
        return public("ask", seat=seat, ask=ask, suit=suit)
    if kind in (K_ANSWER_SUIT, K_ANSWER_NO, K_ANSWER_YES):  # HUU-8.4, HUU-8.5
        answer = SUITS[arg] if kind == K_ANSWER_SUIT else "no" if kind == K_ANSWER_NO else "yes"
        return public("answer", seat=seat, answer=answer)
    return public("call", seat=seat, call=action.text)  # redeal, kontra, re (HUU-4.6, 12.9)


def _trump_event(st: HuutopussiState, kind: int) -> Told:
    """The trump just made, by whom, how and for how much (HUU-8.7 – HUU-8.9)."""
    credited, x, _ = st.declarations[-1]
    how = {K_DECLARE: "declare", K_ANSWER_SUIT: "marriage", K_ANSWER_YES: "half"}[kind]
    value = st.rules.marriage_values[x]
    return public("trump", seat=credited, suit=SUITS[x], how=how, value=value)


def _bidding_end(st: HuutopussiState, declarer: int) -> list[Told]:
    """The bidding's outcome: the declarer and bid (with the widow shown to all, 3
    players, HUU-6.1), or all passed (HUU-12.2)."""
    if st.declarer < 0 or declarer >= 0:
        return [public("contract", mode="all_pass")]
    out = [public("contract", declarer=st.declarer, bid=st.bid)]
    if st.num_seats == 3:
        cards = [CARD_NAMES[c] for c in st.widow]
        out.append(
            public("pass_cards", **{"from": "widow", "to": st.declarer}, count=3, cards=cards)
        )
    return out
