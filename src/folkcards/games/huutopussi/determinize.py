"""``determinize``: a full Huutopussi deal consistent with one seat's observation (HUU-14).

Built from the :class:`~folkcards.engine.api.Observation` alone. The public history is walked
once to learn what every other seat must hold or cannot hold:

* cards it played, and cards it is known to hold (a ``declare X`` or ``answer X`` shows both
  KX and QX; the exchanged cards the observer gave or received);
* cards it cannot hold now: every play that did not follow suit, trump or beat shows the cards
  whose presence would have forced another card (HUU-7.3), Erlangen's first-trick rules
  (HUU-12.4), and ``answer no`` to a half-marriage ask (HUU-8.5);
* conditions on a pair K/Q (``answer no`` to a marriage ask, the asker of a half marriage,
  ``answer yes``), checked on each sample, and the hand of a seat that asked for a redeal.

The unknown cards are then dealt to the hidden places (other hands, a packet in transit, the
widow before it is shown, the declarer's discards) by an exact sampler that never deals itself
into a dead end (Hall's condition), the initial hands are rebuilt through the exchange, and
the history is replayed with the sampled hidden cards; a sample that breaks a condition is
drawn again.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from folkcards.cards import CARD_NAMES, SUITS, cards_list, parse_card
from folkcards.engine.api import FolkcardsError, Observation

from .state import HuutopussiState, can_redeal
from .tables import (
    ACES,
    CONFIGS,
    DECK,
    HIGH,
    NO_TRUMP,
    PAIR,
    SIXES,
    SPADES,
    TABLE,
    rules_of,
)

if TYPE_CHECKING:
    from .game import HuutopussiGame

# pair conditions: (kind, seat, suit, history index)
NOT_BOTH, EXACTLY_ONE, AT_LEAST_ONE = 0, 1, 2


def _follow_lacks(led: int, win: int, c: int, trump: int) -> int:
    """HUU-7.3 read backwards: the cards whose presence would have made ``c`` illegal."""
    cfg = CONFIGS[trump if trump >= 0 else NO_TRUMP]
    f = cfg.class_of[led]
    if f >> c & 1:
        if cfg.class_of[win] == f and not cfg.beats[win] >> c & 1:
            return f & cfg.beats[win]
        return 0
    z = f
    t = cfg.trumps
    if t:
        if t >> c & 1:
            if t >> win & 1 and not cfg.beats[win] >> c & 1:
                z |= t & cfg.beats[win]
        else:
            z |= t
    return z


class _Knowledge:
    """What the observer learned from the public history."""

    def __init__(self, n: int) -> None:
        self.played = [0] * n
        self.held = [0] * n
        self.lacks = [0] * n
        self.pairs: list[tuple[int, int, int, int]] = []
        self.played_after: list[list[tuple[int, int]]] = [[] for _ in range(n)]


def _walk(obs: Observation, erlangen: bool, declarer: int, n: int) -> _Knowledge:
    kn = _Knowledge(n)
    made = {int(d["at"]): SUITS.index(d["suit"]) for d in obs.info["declarations"]}
    trump = -1
    used = 0
    trick: list[int] = []
    win = -1
    tricks_done = 0
    asker, ask_suit = -1, -1
    for i, (text, actor) in enumerate(zip(obs.history, obs.actors, strict=True)):
        verb, _, arg = text.partition(" ")
        if verb == "play":
            c = parse_card(arg)
            kn.played[actor] |= 1 << c
            kn.played_after[actor].append((i, c))
            if not trick:
                if erlangen and not tricks_done and c not in ACES_LIST:  # HUU-12.4
                    kn.lacks[actor] |= ACES
                    if not SPADES >> c & 1:
                        kn.lacks[actor] |= SPADES
                trick.append(c)
                win = c
                continue
            led = trick[0]
            lack = _follow_lacks(led, win, c, trump)
            if erlangen and not tricks_done and led % 13:
                ace = led - led % 13
                if c != ace:
                    lack |= 1 << ace
            kn.lacks[actor] |= lack
            cfg = CONFIGS[trump if trump >= 0 else NO_TRUMP]
            if cfg.beats[win] >> c & 1:
                win = c
            trick.append(c)
            if len(trick) == n:
                trick = []
                tricks_done += 1
        elif verb == "declare":
            x = SUITS.index(arg)
            kn.held[actor] |= PAIR[x]
            trump, used = x, used | 1 << x
        elif verb == "ask":
            asker = actor
            partner = -1
            if arg == "marriage":
                ask_suit = -1
                continue
            x = SUITS.index(arg.split()[1])
            ask_suit = x
            if erlangen:
                kn.pairs.append((NOT_BOTH, actor, x, i))
            else:
                kn.pairs.append((EXACTLY_ONE, actor, x, i))
        elif verb == "answer":
            partner = actor
            if ask_suit < 0:
                if arg == "no":  # HUU-8.4: no unused marriage
                    for y in range(4):
                        if not used >> y & 1:
                            kn.pairs.append((NOT_BOTH, partner, y, i))
                else:
                    y = SUITS.index(arg)
                    kn.held[partner] |= PAIR[y]
                    trump, used = y, used | 1 << y
            else:
                x = ask_suit
                if arg == "no":
                    kn.lacks[partner] |= PAIR[x]
                else:
                    kn.pairs.append((AT_LEAST_ONE, partner, x, i))
                    if i in made:
                        kn.pairs.append((AT_LEAST_ONE, asker, x, i))
                        trump, used = x, used | 1 << x
                    else:  # an Erlangen bluff: the asker holds neither (HUU-12.6)
                        kn.lacks[asker] |= PAIR[x]
            asker, ask_suit = -1, -1
    # facts about the hand at time t hold for the hand now, plus what the seat played after t
    return kn


ACES_LIST = frozenset(cards_list(ACES))


def _holds_at(kn: _Knowledge, hands: list[int], seat: int, index: int) -> int:
    h = hands[seat]
    for i, c in kn.played_after[seat]:
        if i > index:
            h |= 1 << c
    return h


def _pairs_ok(kn: _Knowledge, hands: list[int]) -> bool:
    for kind, seat, x, index in kn.pairs:
        h = _holds_at(kn, hands, seat, index) & PAIR[x]
        if kind == NOT_BOTH:
            if h == PAIR[x]:
                return False
        elif kind == EXACTLY_ONE:
            if h == 0 or h == PAIR[x]:
                return False
        elif not h:
            return False
    return True


def _feasible(pool: int, needs: list[int], allowed: list[int]) -> bool:
    """Hall's condition: every set of places finds enough allowed cards in ``pool``."""
    m = len(needs)
    for sub in range(1, 1 << m):
        need = 0
        cover = 0
        for j in range(m):
            if sub >> j & 1:
                need += needs[j]
                cover |= allowed[j]
        if need > (pool & cover).bit_count():
            return False
    return True


def _deal_hidden(
    pool: int, needs: list[int], allowed: list[int], rng: random.Random
) -> list[int] | None:
    """Deal every card of ``pool`` to the places (``needs[j]`` cards, only ``allowed[j]``)."""
    needs = list(needs)
    if sum(needs) != pool.bit_count() or not _feasible(pool, needs, allowed):
        return None
    got = [0] * len(needs)
    cards = cards_list(pool)
    rng.shuffle(cards)
    rest = pool
    for c in cards:
        rest &= ~(1 << c)
        options = [j for j in range(len(needs)) if needs[j] and allowed[j] >> c & 1]
        rng.shuffle(options)
        options.sort(key=lambda j: -needs[j] * rng.random())
        for j in options:
            needs[j] -= 1
            if _feasible(rest, needs, allowed):
                got[j] |= 1 << c
                break
            needs[j] += 1
        else:
            return None
    return got


def determinize(game: HuutopussiGame, obs: Observation, rng: random.Random) -> HuutopussiState:
    """A full state whose ``observation(obs.seat)`` equals ``obs`` (see the module docstring)."""
    variant = game.renormalize_variant(obs.variant)  # a normal form, maybe from JSON
    r = rules_of(variant)
    n = r.players
    me = obs.seat
    info = obs.info
    d = info["declarer"] if info["declarer"] is not None else -1
    partner = (d + 2) % 4 if (d >= 0 and n == 4) else -1
    sizes: list[int] = list(info["hand_sizes"])
    kn = _walk(obs, r.erlangen, d, n)
    played_all = 0
    for m in kn.played:
        played_all |= m

    # exchanged cards as the observer saw them
    gives = [t.split()[1] for t in obs.history if t.startswith("give ")]
    returns = [t.split()[1] for t in obs.history if t.startswith("return ")]
    [t.split()[1] for t in obs.history if t.startswith("discard ")]
    knows_exchange = me in (d, partner) and d >= 0
    g_known = [parse_card(x) for x in gives] if knows_exchange else []
    r_known = [parse_card(x) for x in returns] if knows_exchange else []
    g_mask = sum(1 << c for c in g_known)
    r_mask = sum(1 << c for c in r_known)
    phase = obs.phase
    exchange_done = n == 4 and d >= 0 and len(returns) == r.exchange
    gives_done = n == 4 and d >= 0 and len(gives) == r.exchange

    known = [0] * n  # cards known to be in each hand now
    known[me] = obs.hand
    for s in range(n):
        if s != me:
            known[s] |= kn.held[s] & ~played_all
    if knows_exchange:
        # the observer knows where the exchanged cards went
        if me == partner and gives_done:
            known[d] |= g_mask & ~r_mask & ~played_all
        if me == d and exchange_done:
            known[partner] |= r_mask & ~played_all
    widow_pub: list[int] = [parse_card(x) for x in info["widow"]] if info["widow"] else []
    disc_known: list[int] = [parse_card(x) for x in info["discards"]] if info["discards"] else []

    # hidden places: other hands, then packets / widow / discards
    places_need: list[int] = []
    places_allowed: list[int] = []
    seats_hidden = [s for s in range(n) if s != me]
    pool = DECK & ~played_all
    for s in range(n):
        pool &= ~known[s]
    fixed_packet = 0  # cards known to be in a packet in transit (observer knows it)
    if n == 4 and d >= 0 and phase == "give" and me in (d, partner):
        fixed_packet = g_mask
    if n == 4 and d >= 0 and phase == "return" and me in (d, partner):
        fixed_packet = r_mask
    pool &= ~fixed_packet
    disc_fixed = 0
    if n == 3 and me == d:
        disc_fixed = sum(1 << c for c in disc_known)
        pool &= ~disc_fixed
    # 3 players, observer not declarer: the shown widow cards lie in the declarer's hand or
    # among its discards; they stay in the pool but no other place may take them.
    widow_left = 0
    ndisc = int(info["discard_count"])
    if n == 3 and d >= 0 and me != d:
        for c in widow_pub:
            if not played_all >> c & 1 and not known[d] >> c & 1:
                widow_left |= 1 << c

    redeal_by = obs.result["redeal_by"] if obs.result is not None and obs.result["redeal"] else None
    for s in seats_hidden:
        places_need.append(sizes[s] - known[s].bit_count())
        places_allowed.append(DECK & ~kn.lacks[s] & ~(0 if s == d else widow_left))
    extra_places: list[str] = []
    if n == 4 and d >= 0 and phase == "give" and me not in (d, partner):
        extra_places.append("give")
        places_need.append(len(gives))
        places_allowed.append(DECK & ~widow_left)
    if n == 4 and d >= 0 and phase == "return" and me not in (d, partner):
        extra_places.append("return")
        places_need.append(len(returns))
        places_allowed.append(DECK & ~widow_left)
    if n == 3 and not widow_pub:
        extra_places.append("widow")
        places_need.append(3)
        places_allowed.append(DECK & ~widow_left)
    if n == 3 and d >= 0 and me != d:
        extra_places.append("discards")
        places_need.append(ndisc)
        places_allowed.append(DECK)

    for _attempt in range(2000):
        allowed = list(places_allowed)
        pre = [0] * len(places_need)
        needs = list(places_need)
        sample_pool = pool
        if redeal_by is not None and redeal_by != me:  # HUU-4.6: the requester's hand
            j = seats_hidden.index(redeal_by)
            sixes = cards_list(sample_pool & SIXES)
            have = (known[redeal_by] & SIXES).bit_count()
            modes = []
            if have + len(sixes) >= 3:
                modes.append("sixes")
            if (
                not known[redeal_by] & HIGH
                and (sample_pool & ~HIGH & allowed[j]).bit_count() >= needs[j]
            ):
                modes.append("low")
            mode = rng.choice(modes) if modes else "none"
            if mode == "sixes" and have < 3:
                take = rng.sample(sixes, 3 - have)
                for c in take:
                    pre[j] |= 1 << c
                needs[j] -= len(take)
                sample_pool &= ~pre[j]
            elif mode == "low":
                allowed[j] &= ~HIGH
        got = _deal_hidden(sample_pool, needs, allowed, rng)
        if got is None:
            continue
        hands = list(known)
        for j, s in enumerate(seats_hidden):
            hands[s] |= got[j] | pre[j]
        if not _pairs_ok(kn, hands):
            continue
        extras = {name: got[len(seats_hidden) + j] for j, name in enumerate(extra_places)}
        state = _rebuild(game, obs, variant, hands, extras, kn, d, partner, widow_pub, rng)
        if state is not None:
            return state
    raise FolkcardsError("determinize: no deal is consistent with this observation")


def _rebuild(
    game: HuutopussiGame,
    obs: Observation,
    variant: dict[str, Any],
    hands: list[int],
    extras: dict[str, int],
    kn: _Knowledge,
    d: int,
    partner: int,
    widow_pub: list[int],
    rng: random.Random,
) -> HuutopussiState | None:
    """Initial hands from the sampled current ones, then replay the history on them."""
    n = len(hands)
    me = obs.seat
    after = [hands[s] | kn.played[s] for s in range(n)]  # hands after any exchange or widow
    gives = [t.split()[1] for t in obs.history if t.startswith("give ")]
    returns = [t.split()[1] for t in obs.history if t.startswith("return ")]
    g: list[int] = []
    rt: list[int] = []
    init = list(after)
    widow: list[int] = []
    disc: list[int] = []
    if n == 4 and d >= 0:
        knows = me in (d, partner)
        ng, nr = len(gives), len(returns)
        phase = obs.phase
        if knows:
            g = [parse_card(x) for x in gives]
            rt = [parse_card(x) for x in returns]
        if phase == "give":
            if not knows:
                g = cards_list(extras["give"])
                rng.shuffle(g)
            init[partner] = after[partner] | sum(1 << c for c in g)
        elif nr < ng or phase == "contract" or (phase == "return" and nr < ng):
            # gives delivered, returns (some) in the packet
            if not knows:
                rt = cards_list(extras.get("return", 0))
                rng.shuffle(rt)
                base = cards_list(after[d] | sum(1 << c for c in rt))
                g = rng.sample(base, ng)
            rmask = sum(1 << c for c in rt)
            gmask = sum(1 << c for c in g)
            init[d] = (after[d] | rmask) & ~gmask
            init[partner] = after[partner] | gmask
        else:  # exchange complete
            if not knows:
                rt = rng.sample(cards_list(after[partner]), nr)
                g = rng.sample(cards_list(after[d]), ng)
            rmask = sum(1 << c for c in rt)
            gmask = sum(1 << c for c in g)
            init[partner] = (after[partner] & ~rmask) | gmask
            init[d] = (after[d] | rmask) & ~gmask  # a card given and returned began at the partner
    if n == 3:
        widow = list(widow_pub) if widow_pub else cards_list(extras["widow"])
        if d >= 0:
            if me == d:
                disc = [parse_card(x) for x in obs.info["discards"]]
            else:
                disc = cards_list(extras["discards"])
                rng.shuffle(disc)
            init[d] = (after[d] | sum(1 << c for c in disc)) & ~sum(1 << c for c in widow)
    carry = {"totals": list(obs.carry["totals"])}
    try:
        state = game.new_deal(
            variant,
            obs.dealer,
            None,
            hands=[cards_list(h) for h in init],
            extra={"widow": widow} if n == 3 else None,
            carry=carry,
        )
    except FolkcardsError:
        return None
    assert isinstance(state, HuutopussiState)
    gi = iter(g)
    ri = iter(rt)
    di = iter(disc)
    by_text = TABLE.by_text
    try:
        for text in obs.history:
            if text.endswith("?"):
                verb = text.split()[0]
                src = gi if verb == "give" else ri if verb == "return" else di
                text = f"{verb} {CARD_NAMES[next(src)]}"
            elif text.startswith(("give", "return", "discard")):
                verb = text.split()[0]
                src = gi if verb == "give" else ri if verb == "return" else di
                next(src)
            state.apply(by_text[text])
    except (FolkcardsError, StopIteration, KeyError):
        return None
    if [(s, x, i) for s, x, i in state.declarations] != [
        (int(e["seat"]), SUITS.index(e["suit"]), int(e["at"])) for e in obs.info["declarations"]
    ]:
        return None
    if (
        obs.result is not None
        and obs.result["redeal"]
        and not can_redeal(state.hands[obs.result["redeal_by"]])
    ):
        return None
    return state


__all__ = ["determinize"]
