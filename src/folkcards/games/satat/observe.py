"""What each seat, and a spectator, may know of a Satat deal (SAT-19), and the deal's
events as each of them may see them.

* Private steps (SAT-19.1, SAT-16.7): a partner's ``pass`` and an announce-phase ``silent``
  never appear in the others' histories, and while such a step is pending the others see
  the phase and seat that follow if it is declined (:func:`masked_step`).
* Hidden cards: a give is ``give ?`` to all but its giver, and to its receiver too until
  the exchange is done (SAT-7.3); ``hide C`` is ``hide ?`` to all but the trump maker
  (SAT-19.3).
* Public inferences: the suits a seat has shown it lacks (:func:`public_voids`, SAT-8.3)
  and the Trup Kasiet candidates (SAT-15.4).

:func:`visible_history` and :func:`public_voids` are the fast versions of the plain
:func:`visible_history_reference` and :func:`public_voids_reference`, which a test compares
them with.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from folkcards.cards import CARD_NAMES, SUITS, CardSet, mask_text, parse_card
from folkcards.engine.actions import Action, Step, masked
from folkcards.engine.api import JSON, Observation
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.events import Told, private, public, secret
from folkcards.engine.info import Info

from .rules import (
    ARG,
    B2H,
    K_BLIND,
    K_GIVE,
    K_HIDE,
    K_PASS,
    K_PLAY,
    K_SILENT,
    K_TRUMP,
    KIND,
    NOT_2H,
    PH_ANNOUNCE,
    PH_PROPOSE,
    SUF,
    SUFFIXES,
    TWO_H,
)
from .scoring import deal_end

if TYPE_CHECKING:
    from .deal import SatatState

_STEP = attrgetter("step")  # an action as a history entry, for copying the public part
_HIDE, _GIVE1, _GIVE2 = masked("hide ?"), masked("give ?"), masked("give ? ?")

# --- SAT-19.1 the masked pending step, SAT-19 the history ---------------------------------


def masked_step(st: SatatState, seat: int) -> tuple[str, int | None]:
    """Phase and seat to act as ``seat`` sees them (private pending steps, SAT-19.1,
    SAT-16.7): what follows if the pending step is declined. ``seat`` may be
    :data:`~folkcards.engine.api.SPECTATOR`, who holds no 2♥ and so sees what any
    uninvolved seat sees."""
    ph, to_act = st.ph, st.to_act
    if ph == PH_PROPOSE and seat != to_act:
        if st.passing is not None:
            return "give", st.tm
        if st.sig and st.holder_2h() == seat:
            return "announce", seat
        return "play", st.tm
    if ph == PH_ANNOUNCE and seat != to_act:
        return "play", st.tm
    return st.phase, to_act


def visible_history(st: SatatState, seat: int) -> tuple[list[Step], list[int]]:
    """The history as ``seat`` saw it (SAT-19); ``seat`` = ``SPECTATOR`` gives the public
    history (every pass and announce-phase silent left out, ``hide ?``, ``give ?``).

    Only steps before the first card is played can be private (pass, the announce phase's
    silent, hide, give); from the first ``play`` on every step is public, so the rest of
    the history is copied as it is."""
    history, actors = st.history, st.actors
    texts: list[Step] = []
    seen: list[int] = []
    n = len(history)
    i = 0
    while i < n:
        a = history[i]
        kind = KIND[a]
        if kind == K_PLAY:
            break
        s = actors[i]
        text = a.step
        if s != seat:
            if kind == K_PASS or (kind == K_SILENT and i == st.ann_idx):
                i += 1
                continue  # SAT-19.1: others do not see the phase happened
            if kind == K_HIDE:
                text = _HIDE  # SAT-19.3
            elif kind == K_GIVE and not (st.exchanged and st.receiver(s) == seat):
                text = _GIVE1 if ARG[a].bit_count() == 1 else _GIVE2
        texts.append(text)
        seen.append(s)
        i += 1
    if i < n:
        texts += map(_STEP, history[i:])
        seen += actors[i:]
    return texts, seen


def visible_history_reference(st: SatatState, seat: int) -> tuple[list[Step], list[int]]:
    """:func:`visible_history` step by step over the whole history (the reference)."""
    texts: list[Step] = []
    actors: list[int] = []
    for i, (a, s) in enumerate(zip(st.history, st.actors, strict=True)):
        kind = KIND[a]
        text = a.step
        if s != seat:
            if kind == K_PASS or (kind == K_SILENT and i == st.ann_idx):
                continue  # SAT-19.1: others do not see the phase happened
            if kind == K_HIDE:
                text = _HIDE  # SAT-19.3
            elif kind == K_GIVE and not (st.exchanged and st.receiver(s) == seat):
                text = _GIVE1 if ARG[a].bit_count() == 1 else _GIVE2
        texts.append(text)
        actors.append(s)
    return texts, actors


# --- SAT-8.3 public voids -----------------------------------------------------------------


def public_voids(st: SatatState) -> list[CardSet]:
    """Per seat, the cards it has publicly shown it cannot hold (SAT-8.3 inferences).

    The same for every viewer, so it is worked out once per point of the deal (kept with
    the number of steps, tricks and trick cards it was worked out at) and shared by the
    observations built there; callers must not change the list."""
    key = (len(st.history), len(st.log), len(st.trick))
    cached = st._voids
    if cached is not None and cached[0] == key:
        return cached[1]
    voids = public_voids_reference(st)
    st._voids = (key, voids)
    return voids


def public_voids_reference(st: SatatState) -> list[CardSet]:
    """:func:`public_voids` worked out from every trick played: a follower who did not
    follow lacks the led suit (the 2♥ excepted); after a 2♥ led with the trump known, a
    follower who played no trump lacks trumps (SAT-8.3 rule 1a)."""
    voids = [0, 0, 0, 0]
    tricks = [(ld, cards, lk) for ld, cards, lk, _ in st.log]
    if st.trick:
        tricks.append((st.leader, st.trick, st.lead_known))
    for leader, cards, lk in tricks:
        led = cards[0]
        for i in range(1, len(cards)):
            f = (leader + i) % 4
            c = cards[i]
            if led == TWO_H:
                if lk and c // 13 != st.trump:
                    voids[f] |= NOT_2H[st.trump]
            elif c != TWO_H and c // 13 != led // 13:
                voids[f] |= NOT_2H[led // 13]
    return voids


# --- SAT-19 the observation ---------------------------------------------------------------


def _trump_card_seen(st: SatatState, seat: int) -> int:
    """The Trup Kasiet trump card as ``seat`` knows it: the trump maker's own, everyone's
    once it has left his hand (SAT-15.4 a, SAT-19.3); else −1."""
    if st.tk and st.tcard >= 0 and (seat == st.tm or not st.hands[st.tm] >> st.tcard & 1):
        return st.tcard
    return -1


def _known_cards(st: SatatState, seat: int) -> tuple[list[list[str]], list[str], list[str]]:
    """Cards ``seat`` knows to be in other hands, and the cards it gave and received.

    The turned card while it is known to be in the trump maker's hand: before an exchange
    everyone, after it only the receiver of his give (SAT-19.2); the cards ``seat`` gave
    that its receiver still holds (SAT-7.3); an announced 2♥ still held (SAT-16.3)."""
    known: list[list[str]] = [[], [], [], []]
    gave: list[str] = []
    received: list[str] = []
    if (not st.tk and st.turned >= 0 and seat != st.tm and st.hands[st.tm] >> st.turned & 1) and (
        not st.exchanged or st.receiver(st.tm) == seat
    ):
        known[st.tm].append(CARD_NAMES[st.turned])  # SAT-19.2
    if seat >= 0 and st.passing is not None and st.give_idx >= 0 and st.gives[seat]:
        gave = mask_text(st.gives[seat])
        if st.exchanged:
            r = st.receiver(seat)
            known[r] += mask_text(st.gives[seat] & st.hands[r])
            giver = next(s for s in range(4) if s != seat and st.receiver(s) == seat)
            received = mask_text(st.gives[giver])
    if st.announced >= 0 and st.announced != seat and st.hands[st.announced] & B2H:
        known[st.announced].append("2H")
    for lst in known:
        lst.sort(key=lambda t: parse_card(t))
    return known, gave, received


@dataclass(frozen=True, slots=True, eq=False)
class SatatInfo(Info):
    """A Satat observation's ``info`` (cards as canonical text, seats as ints). Every
    private fact is tied to the viewer's seat (SAT-19): a spectator's holds the public ones
    only (``gave``/``received`` empty, ``known_cards`` the public ones)."""

    trump_maker: int
    """The trump maker's seat (SAT-2.2)."""
    partner: int
    """The trump maker's partner's seat (SAT-2.2)."""
    trump: str | None
    """The trump suit as this seat knows it, else None (Trup Kasiet: only the trump maker
    until the table knows it, SAT-19.3)."""
    trump_known: bool
    """The table knows the trump (the main game: once made, SAT-15.4)."""
    trump_candidates: list[str]
    """The suits the public deduction of SAT-15.4 still allows."""
    blind: int | None
    """The position N of ``blind N``, or None."""
    turned: str | None
    """The main game's card turned by ``blind N`` (public), or None."""
    trump_card: str | None
    """Trup Kasiet's face-down trump card: the trump maker's own knowledge, everyone's once
    it has left his hand; else None (SAT-19.3)."""
    gave: list[str]
    """The cards this seat gave in card passing (SAT-7)."""
    received: list[str]
    """The cards this seat received in card passing, once the exchange is done."""
    known_cards: list[list[str]]
    """Per seat, the cards this seat knows to be in that hand now: the turned card, cards
    it gave away, an announced 2♥ (SAT-19.2, SAT-16.3); its own entry is ``[]``."""
    voids: list[list[str]]
    """Per seat, the suits it has publicly shown to hold no card of (the 2♥ excepted: a
    void in hearts means no heart other than the 2♥)."""
    announced: int | None
    """The seat that announced the 2♥ (SAT-16.3), or None."""
    tricks: list[int]
    """Tricks taken, ``[team 0, team 1]``."""
    trick: list[list[JSON]]
    """The current trick as ``[[seat, card], …]``."""
    leader: int | None
    """The current trick's leader, or None."""
    won: list[list[JSON]]
    """The completed tricks, each ``[leader, [cards], winner]``."""
    continuing: bool
    """A 7-0 continuation is on (SAT-9.3)."""


def observe(st: SatatState, seat: int) -> Observation:
    """The observation of ``seat`` (0–3) or of a viewer at no seat (``SPECTATOR``): every
    private fact is tied to the viewer's seat, so a spectator gets only the public ones
    (the package docstring lists ``info``)."""
    phase, to_act = masked_step(st, seat)
    texts, actors = visible_history(st, seat)
    dealt = st.trump >= 0
    hand = 0 if seat < 0 else st.hands[seat] if dealt else st.first_five(seat)
    sees_trump = dealt and (not st.tk or st.known or seat == st.tm)  # SAT-19.3
    tcard = _trump_card_seen(st, seat)
    known, gave, received = _known_cards(st, seat)
    voids = public_voids(st)
    return Observation(
        game=st.game.name,
        variant=dict(st.variant),
        seat=seat,
        num_seats=4,
        dealer=st.dealer,
        phase=phase,
        to_act=to_act,
        hand=hand,
        legal=st.legal_actions() if seat == st.to_act else (),
        history=tuple(texts),
        actors=tuple(actors),
        info=SatatInfo(
            st.tm,
            st.p,
            SUITS[st.trump] if sees_trump else None,
            dealt and st.known,
            [SUITS[s] for s in range(4) if st.cands >> s & 1],
            st.blind or None,
            CARD_NAMES[st.turned] if st.turned >= 0 and not st.tk else None,
            CARD_NAMES[tcard] if tcard >= 0 else None,
            gave,
            received,
            known,
            [[SUITS[s] for s in range(4) if v & NOT_2H[s]] for v in voids],
            st.announced if st.announced >= 0 else None,
            list(st.tricks),
            [[(st.leader + i) % 4, CARD_NAMES[c]] for i, c in enumerate(st.trick)],
            st.leader if st.trick else None,
            [[ld, [CARD_NAMES[c] for c in cs], w] for ld, cs, _, w in st.log],
            st.continuing,
        ),
        carry=st.carry(),
        result=st.result() if st.to_act is None else None,
    )


def cards_aside(view: CardView) -> Aside:
    """Where the cards out of hand and unplayed are (the self-check's conservation fact):
    until the first card is played, cards may be undealt (the trump phase) or passed face
    down (SAT-7), which no seat's observation accounts for; from the first play on, every
    card is in a hand or played."""
    return None if view.played == 0 else (0, 0)


# --- events -------------------------------------------------------------------------------


def narrate(final: SatatState) -> list[Told]:
    """The events of ``final``'s deal so far, replayed from its set-up and hidden as SAT-19
    hides them (``SatatState._narrate``)."""
    st = cast("SatatState", final.fresh())
    out = [public("deal", dealer=st.dealer)]
    for action, seat in zip(final.history, final.actors, strict=True):
        kind, arg = KIND[action], ARG[action]
        ph = st.ph
        known = st.known
        done = len(st.log)
        exchanged = st.exchanged
        st.apply(action)
        if kind == K_PLAY:
            out += _play_events(st, seat, action, done)
        elif kind in (K_TRUMP, K_BLIND, K_HIDE):
            out.append(_trump_event(st, seat, kind, arg))
        elif kind == K_GIVE:
            out += _give_events(st, seat, arg, exchanged)
        elif kind == K_PASS or (kind == K_SILENT and ph == PH_ANNOUNCE):  # SAT-19.1
            out.append(secret("call", (seat,), seat=seat, call=action.text))
        else:  # redeal, propose, accept, refuse, announce, lese, silent, continue, stop
            out.append(public("call", seat=seat, call=action.text))
        if st.known and not known and st.tk:  # SAT-15.4: the table knows the trump now
            played = kind == K_PLAY and arg == st.tcard
            out.append(
                public(
                    "trump",
                    suit=SUITS[st.trump],
                    how="revealed" if played else "deduced",
                    card=CARD_NAMES[st.tcard] if played else None,
                )
            )
    if st.to_act is None:
        out.append(public("deal_end", **deal_end(st)))
    return out


def _play_events(st: SatatState, seat: int, action: Action, done: int) -> list[Told]:
    """A card played with its signal (SAT-16), and the trick if it ended one (SAT-8.5)."""
    card, signal = CARD_NAMES[ARG[action]], SUFFIXES[SUF[action]] or None
    out = [public("play", seat=seat, card=card, signal=signal)]
    if len(st.log) > done:
        leader, cards, _, winner = st.log[-1]
        out.append(
            public(
                "trick",
                number=len(st.log),
                leader=leader,
                cards=[CARD_NAMES[c] for c in cards],
                winner=winner,
                side=winner & 1,
            )
        )
    return out


def _trump_event(st: SatatState, seat: int, kind: int, arg: int) -> Told:
    """Trump made: named (SAT-5.2), turned from the last four (SAT-5.3), or — Trup Kasiet —
    a card laid face down, seen by the trump maker only (SAT-15.2)."""
    if kind == K_TRUMP:
        return public("trump", seat=seat, suit=SUITS[arg], how="named")
    if kind == K_BLIND:
        fields = {"seat": seat, "how": "blind", "position": arg}
        turned = {"suit": SUITS[st.trump], "card": CARD_NAMES[st.turned]}
        if st.tk:
            return private("trump", (seat,), {"suit": None, "card": None}, **fields, **turned)
        return public("trump", **fields, **turned)
    return private(
        "trump",
        (seat,),
        {"suit": None, "card": None},
        seat=seat,
        how="hidden",
        suit=SUITS[st.trump],
        card=CARD_NAMES[arg],
    )


def _give_events(st: SatatState, seat: int, cards: CardSet, exchanged: bool) -> list[Told]:
    """A give, private until the exchange (SAT-7.3); the exchange itself once the fourth
    give is in, each pair's cards seen by giver and receiver (SAT-7.4)."""
    assert st.passing is not None
    out = [
        private(
            "pass_chosen",
            (seat,),
            {"cards": None},
            seat=seat,
            to=st.receiver(seat),
            count=st.passing["cards"],
            cards=mask_text(cards),
        )
    ]
    if st.exchanged and not exchanged:
        for i in range(1, 5):
            g = (st.dealer + i) & 3
            r = st.receiver(g)
            out.append(
                private(
                    "pass_cards",
                    (g, r),
                    {"cards": None},
                    **{"from": g, "to": r},
                    count=st.passing["cards"],
                    cards=mask_text(st.gives[g]),
                )
            )
    return out
