"""Sasku heuristic (rules/sasku.md and its seed's advice).

* cut: ``deal threes`` (the method of a cutter who "says nothing", SAS-6.2);
* lone-picture exchange: give the lone picture (it strengthens the partner's trumps,
  SAS-7); return the cheapest suit card of the shortest plain suit;
* trump evaluation: :func:`win_chance`, a logistic estimate (fitted on simulated deals)
  of our pair taking more than 60 points with a given trump, from our hand alone;
* auction: bid the lowest legal number while the best trump's win chance and its
  potential trumps (SAS-8.1, SAS-8.4) support it; say ``diamonds`` when diamonds is the
  best trump and the win chance is high (the diamond column pays more, SAS-13.5) or
  **when rivals threaten lambapea** (a bid of 8 or 9 by an opponent, SAS-13.1);
* declaration: the trump with the best win chance (diamonds on near-ties); override
  with ``diamonds`` (SAS-9.3) an opponent's trump when diamonds gives us a clearly
  better and at least 60 % win chance (losing a diamond contract costs 6–8 strokes,
  SAS-13.4, so not on a whim);
* play (own to Sasku, not the shared ``common`` tactics): a :class:`Knowledge` of the
  other hands from this seat's observation only — face-up cards of ``deal to X`` and the
  exchange (SAS-6.4, SAS-7.7), voids shown by not following or not trumping, and under
  the duty to beat (SAS-10.3) the absence of cards that would have beaten — gives the
  chance that a card still wins after the opponents to come (who must beat when they
  can). A follower rates each card by the trick's expected point swing (schmear points to
  a partner likely to hold the trick, win cheaply when it is safe, give little when the
  trick is lost; as second hand, count on the partner who plays last and must beat when
  it can) minus what the card is worth kept for later (high trumps, plain aces);
  a leader draws trumps with sure winners when declaring, cashes sure winners and the
  top card of a plain suit when no rival is likely to trump it, else leads low from a
  short plain suit — preferably one the partner is known void in while it may still trump;
* endgame (the last three tricks): :func:`_endgame` samples placements of the unseen cards
  that agree with the :class:`Knowledge` and solves each with open hands (SAS-10.3 legal
  plays); a card's value is the deal won (> 60 points, SAS-13) first, then our points.
  Opponents are valued half by their best reply and half by their average card — worst-case
  play alone is too pessimistic against weaker rivals, the average alone too trusting.
  The solver costs about 20 times a plain decision, so the playouts of ``search`` use
  :func:`playout_evaluate`, which leaves it out.
"""

from __future__ import annotations

import math
import random

from folkcards.bots.base import utilities
from folkcards.bots.heuristic.common import (
    card_of,
    play_actions,
)
from folkcards.cards import BIT, CARD_NAMES, SUIT_MASK, Card, CardSet, iter_cards
from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, Observation
from folkcards.engine.tricks import TrumpConfig
from folkcards.games.sasku import (
    CARD_POINTS,
    DECK,
    PICTURES,
    PLAIN_RANKS,
    PLAY_PHASE,
    TRUMP_CONFIGS,
    SaskuDeal,
    play_exclusions,
    trump_order,
)

CONFIGS = TRUMP_CONFIGS
POWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (30 - trump_order(t).index(c))
        if c in trump_order(t)
        else (6 - PLAIN_RANKS.index(c % 13) if c % 13 in PLAIN_RANKS else 0)
        for c in range(52)
    )
    for t in range(4)
)
"""A small ordinal per card and trump suit: trumps 13–30, plain cards 1–6."""


def points(c: Card) -> int:
    """Sasku card points (SAS-4.1)."""
    return CARD_POINTS[c]


def potential(hand: CardSet, suit: int) -> int:
    """Pictures plus cards of ``suit`` (SAS-8.1)."""
    return (hand & PICTURES).bit_count() + (hand & SUIT_MASK[suit] & ~PICTURES).bit_count()


DECLARE_D = 0.05
"""Win-chance bonus of diamonds as trump: its column pays more (SAS-13.5)."""
OVERRIDE_MIN = 0.6
"""Win chance with diamonds the override (SAS-9.3) needs at least ..."""
OVERRIDE_GAIN = 0.05
"""... and by how much it must beat the win chance under the named trump."""

WIN_WEIGHTS = {
    "bias": 0.135,
    "six": 0.558,
    "K": 0.565,
    "Q": 0.274,
    "J": 0.142,
    "A_trump": 0.166,
    "T_trump": 0.170,
    "low_trump": 0.036,
    "ace": 0.155,
    "ten": -0.207,
    "ten_with_ace": -0.419,
    "void": 0.345,
    "low": -0.226,
}
"""Logistic weights of :func:`win_chance`, fitted on 32 000 deals (heuristic pair against
random, each trump in turn, exchange off) to whether the pair took more than 60 points:
pictures and the 6 of trumps count most, a plain ten (no longer guarded in play) and
plain low cards count against, a void lets the hand trump."""


def win_chance(hand: CardSet, suit: int) -> float:
    """Rough chance that our pair takes more than 60 points with ``suit`` trump, from this
    hand alone (the partner's hand counted as average)."""
    w = WIN_WEIGHTS
    x = w["bias"]
    for c in iter_cards(hand & PICTURES):
        x += w[CARD_NAMES[c][0]]
    trumps = hand & SUIT_MASK[suit] & ~PICTURES
    for c in iter_cards(trumps):
        r = CARD_NAMES[c][0]
        x += (
            w["six"]
            if r == "6"
            else w["A_trump"]
            if r == "A"
            else w["T_trump"]
            if r == "T"
            else w["low_trump"]
        )
    for t in range(4):
        if t == suit:
            continue
        cards = hand & SUIT_MASK[t] & ~PICTURES
        ranks = {CARD_NAMES[c][0] for c in iter_cards(cards)}
        if not cards:
            x += w["void"]
        if "A" in ranks:
            x += w["ace"]
        if "T" in ranks:
            x += w["ten_with_ace"] if "A" in ranks else w["ten"]
        x += w["low"] * len(ranks - {"A", "T"})
    return 1.0 / (1.0 + math.exp(-x))


def evaluate(obs: Observation) -> dict[Action, float]:
    """A score per legal action (higher is better)."""
    return _evaluate(obs, endgame=True)


def playout_evaluate(obs: Observation) -> dict[Action, float]:
    """:func:`evaluate` without the endgame solver: the policy inside ``search``'s playouts,
    where the solver would cost 20 times more per step and the search itself already
    compares the cards of the last tricks over sampled deals."""
    return _evaluate(obs, endgame=False)


def _evaluate(obs: Observation, endgame: bool) -> dict[Action, float]:
    texts = {a.text: a for a in obs.legal}
    phase = obs.phase
    hand = obs.hand
    info = obs.info
    me = obs.seat
    out = dict.fromkeys(obs.legal, 0.0)
    if phase == "cut":
        if "deal threes" in texts:
            out[texts["deal threes"]] = 1.0
        return out
    if phase == "exchange":
        for a in obs.legal:
            kind = a.step.kind
            if kind == "give":
                out[a] = 1.0
            elif kind == "return":
                c = a.step.cards[0]
                short = (hand & SUIT_MASK[c // 13] & ~PICTURES).bit_count()
                out[a] = -points(c) - 2.0 * short
        return out
    if phase == "auction":
        return _auction(obs, texts, out)
    if phase == "declare":
        for a in obs.legal:
            suit = a.step.suit
            assert suit is not None  # the declarer's choices are ``trump X`` (SAS-9.1)
            t = "CSHD".index(suit)
            out[a] = win_chance(hand, t) + (DECLARE_D if t == 3 else 0.0)
        return out
    if phase == "override":
        declarer = info.get("declarer")
        if declarer is None:
            declarer = info.get("bidder")
        friend = declarer is not None and declarer % 2 == me % 2
        named = "CSHD".index(info["trump"]) if info.get("trump") else 3
        d_chance = win_chance(hand, 3)
        want = not friend and (
            d_chance >= OVERRIDE_MIN and d_chance >= win_chance(hand, named) + OVERRIDE_GAIN
        )
        if "diamonds" in texts:
            out[texts["diamonds"]] = 1.0 if want else -1.0
        return out
    if phase == "play":
        return _play(obs, endgame)
    return out


def _auction(
    obs: Observation, texts: dict[str, Action], out: dict[Action, float]
) -> dict[Action, float]:
    """Bid the lowest legal number the hand supports (its best trump's win chance, and
    the length SAS-8.4 asks for); say ``diamonds`` when diamonds is clearly the best trump
    or a rival's high bid threatens lambapea (SAS-13.1)."""
    hand = obs.hand
    info = obs.info
    me = obs.seat
    chances = [win_chance(hand, t) + (DECLARE_D if t == 3 else 0.0) for t in range(4)]
    suit = max(range(4), key=lambda t: (chances[t], t))
    chance = chances[suit] - (DECLARE_D if suit == 3 else 0.0)
    # with diamonds any length may be bid: the final bidder may always name diamonds
    length = max(potential(hand, t) for t in range(4)) if suit == 3 else potential(hand, suit)
    bidder = info.get("bidder")
    bid = info.get("bid") or 0
    partner_bid = bidder is not None and bidder % 2 == me % 2
    rival_bid = bidder is not None and not partner_bid
    supported = 0
    for n in range(5, 10):
        if length >= n and chance >= BID_MIN + BID_STEP * (n - 5):
            supported = n
    if "pass" in texts:
        out[texts["pass"]] = 0.0
    if "diamonds" in texts:
        d = win_chance(hand, 3)
        threat = rival_bid and bid >= 8 and d >= 0.5
        good_d = suit == 3 and d >= DIAMONDS_MIN
        out[texts["diamonds"]] = 2.0 if (good_d or threat) else -1.0
    for a in obs.legal:
        step = a.step
        if step.kind == "bid":
            number = step.number
            assert number is not None  # ``bid N`` names its number (SAS-8.3, SAS-8.4)
            if number <= supported and not (partner_bid and supported - bid < 2):
                out[a] = 1.0 + 0.1 * (10 - number)  # the lowest supported bid
            else:
                out[a] = -1.0
    return out


BID_MIN = 0.75
"""Win chance (:func:`win_chance`) a bid of 5 needs; each step up needs ``BID_STEP`` more."""
BID_STEP = 0.04
DIAMONDS_MIN = 0.8
"""Win chance with diamonds trump that makes the seat say ``diamonds`` in the auction."""


class Knowledge:
    """What one seat can infer about the other hands during play (SAS-19: only its
    observation): cards still unseen, the cards each seat may hold, and the cards known to
    be in a hand.

    Sources: the face-up cards of ``deal to X`` (SAS-6.4) and the exchange (SAS-7.7), moved
    through the exchanges; a follower who did not follow the led class is void in it, and
    also void in trumps when it did not trump (SAS-10.3); with ``must_beat`` (SAS-17.2) a
    follower whose card did not beat the winning card holds no card of its allowed class
    that beats it. Hand sizes close the sets (a seat whose possible cards are as many as
    its cards holds exactly those).
    """

    def __init__(self, obs: Observation, config: TrumpConfig) -> None:
        info = obs.info
        me = obs.seat
        self.me = me
        self.config = config
        must_beat = bool(obs.variant.get("must_beat", True))
        played = 0
        for step in obs.history:
            if step.kind == "play":
                played |= BIT[step.cards[0]]
        self.played = played
        unseen = DECK & ~obs.hand & ~played
        self.unseen = unseen
        possible = [unseen] * 4
        possible[me] = obs.hand
        excluded = play_exclusions(obs.history, obs.actors, config, must_beat)
        for s in range(4):
            if s != me:
                possible[s] &= ~excluded[s]
        # where the face-up and exchanged cards went
        at: dict[Card, int] = {}
        for name, seat in info.get("face_up", []):
            at[card_of(name)] = int(seat)
        for ex in info.get("exchanges", []):
            giver, returner = int(ex["giver"]), int(ex["returner"])
            at[card_of(ex["picture"])] = returner
            returned = ex.get("returned")
            if returned is None:
                continue
            if returned != "?":
                at[card_of(returned)] = giver
            else:  # one unknown suit card of the returner went to the giver
                for c, seat in list(at.items()):
                    if seat == returner and not PICTURES >> c & 1:
                        del at[c]
                        for t in range(4):
                            if t not in (giver, returner, me):
                                possible[t] &= ~BIT[c]
        for c, seat in at.items():
            if unseen >> c & 1:
                for t in range(4):
                    if t != seat and t != me:
                        possible[t] &= ~BIT[c]
        sizes = [int(n) for n in info.get("hand_sizes", [9, 9, 9, 9])]
        others = [t for t in range(4) if t != me]
        for _ in range(4):  # close the sets on hand sizes
            changed = False
            for t in others:
                if possible[t].bit_count() <= sizes[t]:
                    for u in others:
                        if u != t and possible[u] & possible[t]:
                            possible[u] &= ~possible[t]
                            changed = True
            if not changed:
                break
        self.possible = possible
        self.sizes = sizes
        self.definite = [0] * 4
        self.density = [0.0] * 4
        for t in others:
            rest = 0
            for u in others:
                if u != t:
                    rest |= possible[u]
            self.definite[t] = possible[t] & ~rest
            free = (possible[t] & rest).bit_count()
            slots = sizes[t] - self.definite[t].bit_count()
            self.density[t] = max(0.0, min(1.0, slots / free)) if free else 0.0

    def p_none(self, seat: int, cards: CardSet) -> float:
        """Probability (rough, independent cards) that ``seat`` holds none of ``cards``."""
        if seat == self.me:
            return 0.0 if self.possible[seat] & cards else 1.0
        cards &= self.possible[seat]
        if not cards:
            return 1.0
        if cards & self.definite[seat]:
            return 0.0
        p = 1.0
        for c in iter_cards(cards):
            total = 0.0
            for t in range(4):
                if t != self.me and self.possible[t] >> c & 1:
                    total += self.density[t]
            share = self.density[seat] / total if total > 0 else 0.0
            p *= 1.0 - share
        return p

    def p_beat(self, seat: int, card: Card, led_class: CardSet) -> float:
        """Probability that ``seat``, playing later to a trick of ``led_class`` that ``card``
        is winning, takes it (it must when it can, SAS-10.3)."""
        cfg = self.config
        higher = cfg.beats[card]
        if led_class == cfg.trumps:
            return 1.0 - self.p_none(seat, higher)
        void = self.p_none(seat, led_class)
        trumps_higher = 1.0 - self.p_none(seat, higher & cfg.trumps)
        if cfg.trumps >> card & 1:
            return void * trumps_higher
        follow_higher = 1.0 - self.p_none(seat, higher & led_class)
        return min(1.0, follow_higher + void * trumps_higher)

    def p_hold(self, card: Card, led_class: CardSet, later: list[int]) -> float:
        """Probability that ``card`` still wins after the opponents in ``later`` played."""
        p = 1.0
        for t in later:
            if t % 2 != self.me % 2:
                p *= 1.0 - self.p_beat(t, card, led_class)
        return p

    def keep_value(self, card: Card) -> float:
        """What holding ``card`` for a later trick is worth, in card points (rough)."""
        cfg = self.config
        opp = self.possible[(self.me + 1) % 4] | self.possible[(self.me + 3) % 4]
        if cfg.trumps >> card & 1:
            higher = (cfg.beats[card] & opp).bit_count()
            pw = TRUMP_PW**higher
        else:
            higher = (cfg.beats[card] & opp & ~cfg.trumps).bit_count()
            pw = PLAIN_PW * 0.5**higher
        pts = points(card)
        return pw * (KEEP_TRICK + pts) - (1.0 - pw) * pts * KEEP_SCHMEAR


TRUMP_PW = 0.75
"""A kept trump's chance to win a later trick falls by this factor per higher trump out."""
PLAIN_PW = 0.3
"""A kept plain card's chance to win a later trick when no higher card of its suit is out
(halved per higher card out): the suit may be trumped."""
KEEP_TRICK = 15.0
"""Card points a later trick won by a kept card is worth (tuned by tournaments)."""
KEEP_SCHMEAR = 0.5
"""Share of a losing card's points a later schmear to the partner saves."""
REST_POINTS = 1.0
"""Points each seat still to play is expected to add to the trick."""


def _play(obs: Observation, endgame: bool = True) -> dict[Action, float]:
    """Rate each card by the trick's expected point swing minus the card's later value."""
    info = obs.info
    me = obs.seat
    trump = "CSHD".index(info["trump"])
    config = CONFIGS[trump]
    know = Knowledge(obs, config)
    trick = [(int(s), card_of(c)) for s, c in info["trick"]]
    cards = play_actions(obs.legal)
    if endgame and len(cards) > 1 and obs.hand.bit_count() <= ENDGAME_CARDS:
        solved = _endgame(obs, know, trick, cards)
        if solved is not None:
            return solved
    out: dict[Action, float] = {}
    later = [(me + k) % 4 for k in range(1, 4 - len(trick))]
    rest = REST_POINTS * len(later)
    if not trick:
        declaring = info.get("declarer") is not None and info["declarer"] % 2 == me % 2
        for a, c in cards.items():
            out[a] = _lead(know, c, declaring)
        return out
    led_class = config.class_of[trick[0][1]]
    w_seat, w = trick[0]
    for s, c in trick[1:]:
        if config.beats_card(c, w):
            w_seat, w = s, c
    trick_points = sum(points(c) for _, c in trick)
    friend_winning = w_seat % 2 == me % 2
    partner = (me + 2) % 4
    partner_last = bool(later) and later[-1] == partner
    q_w = know.p_hold(w, led_class, later) if friend_winning else 0.0
    if not friend_winning and partner_last:
        # second hand: the partner plays last and must beat when it can (SAS-10.3)
        q_w = PARTNER_OVER * know.p_beat(partner, w, led_class)
    for a, c in cards.items():
        value = trick_points + points(c) + rest
        if config.beats_card(c, w):
            q = know.p_hold(c, led_class, later)
            if partner_last:  # an opponent's overtrick may still be beaten by the partner
                higher = config.beats[c] & (led_class | config.trumps)
                q += (1.0 - q) * PARTNER_BACK * (1.0 - know.p_none(partner, higher))
        else:
            q = q_w
        out[a] = (2 * q - 1) * value - know.keep_value(c)
    return out


PARTNER_OVER = 0.9
"""Second hand, not beating the opponent's card: the share of the partner's chance to beat
it (:meth:`Knowledge.p_beat`) counted as our trick (the third hand may overtake first)."""
PARTNER_BACK = 0.5
"""Second hand, beating: the share of the partner's chance of holding a higher card that
counts as taking back the trick if the third hand overtakes ours."""


def _lead(know: Knowledge, c: Card, declaring: bool) -> float:
    """Leading: sure winners first (trumps to draw them when declaring), then the top card
    of a plain suit, else a low card of a short plain suit; keep trumps and points back."""
    cfg = know.config
    me = know.me
    later = [(me + 1) % 4, (me + 2) % 4, (me + 3) % 4]
    opp = know.possible[(me + 1) % 4] | know.possible[(me + 3) % 4]
    pts = points(c)
    power = POWER[cfg_index(cfg)][c]
    if cfg.trumps >> c & 1:
        q = know.p_hold(c, cfg.trumps, later)
        opp_trumps = bool(opp & cfg.trumps)
        if q >= BOSS_Q and declaring and opp_trumps:
            return 30 + 0.1 * power
        if q >= BOSS_Q:
            return (8.0 if declaring else DEFENDER_BOSS_TRUMP_LEAD) + 0.01 * power
        return -5 - pts - 0.05 * power
    suit = cfg.class_of[c]
    q = know.p_hold(c, suit, later)
    if q >= BOSS_Q:
        return 15 + pts * 0.2
    if q >= TOP_Q and not (opp & suit & cfg.beats[c]):
        out_there = (opp & suit).bit_count()
        return 6 + 0.5 * pts + out_there
    length = (know.possible[me] & suit).bit_count()
    partner = know.possible[(me + 2) % 4]
    ruff = VOID_LEAD if not partner & suit and partner & cfg.trumps else 0.0
    return ruff - pts - 0.02 * power - 0.5 * length


DEFENDER_BOSS_TRUMP_LEAD = -10.0
"""A defender's lead of the boss trump: rather not (below the low plain leads). Kept, it
takes a rich trick later or saves the partner's; led, it mostly draws small trumps.
Measured on 256 early and middle leads against ``search``'s values: the regret of the
lead choice fell from 0.059 to 0.054 (8.0, the declarer's value, before)."""
VOID_LEAD = 10.0
"""Bonus for a low lead of a suit the partner is known void in while it may hold trumps."""


BOSS_Q = 0.999
"""A lead counts as a sure winner when it holds with at least this probability."""
TOP_Q = 0.8
"""The top card of a plain suit is cashed only when it holds with at least this
probability: plain suits are short (six cards), so early on a rival is often void and must
trump it (SAS-10.3), and an ace lost that way is 11 points to the rivals."""


def cfg_index(cfg: TrumpConfig) -> int:
    """The trump suit of one of the four CONFIGS."""
    return CONFIGS.index(cfg)


ENDGAME_CARDS = 3
"""With at most this many cards in hand the play is solved exactly (:func:`_endgame`)."""
ENDGAME_WORLDS = 16
"""Placements of the unseen cards sampled for the endgame."""


def _sample_world(know: Knowledge, rng: random.Random) -> list[CardSet] | None:
    """One placement of the unseen cards consistent with ``know`` (possible cards and hand
    sizes), or None when a few random tries find none."""
    me = know.me
    others = [t for t in range(4) if t != me]
    free: list[tuple[Card, list[int]]] = []
    for c in iter_cards(know.unseen):
        owners = [t for t in others if know.possible[t] >> c & 1]
        if not owners:
            return None
        free.append((c, owners))
    for _ in range(20):
        rng.shuffle(free)
        free.sort(key=lambda x: len(x[1]))  # most constrained cards first
        hands = [0] * 4
        hands[me] = know.possible[me]
        left = list(know.sizes)
        ok = True
        for c, owners in free:
            cand = [t for t in owners if left[t] > 0]
            if not cand:
                ok = False
                break
            t = rng.choices(cand, weights=[left[u] for u in cand])[0]
            hands[t] |= BIT[c]
            left[t] -= 1
        if ok and all(left[t] == 0 for t in others):
            return hands
    return None


class _Solver:
    """Values of endgame positions with all hands open: a deal won (> 60 points for team
    ``us``, SAS-13) counts 1000, a 60-60 tie 500, plus our points (strokes grow with them,
    SAS-13.4). Followers play by SAS-10.3 (follow the led class, else trump, and beat the
    winning card when they can). Our side takes its best card; the opponents are valued
    ``OPP_MEAN`` by their average card and the rest by their best reply (alpha-beta
    pruning applies only when ``OPP_MEAN`` is 0). While the opponents' average counts
    (``OPP_MEAN`` > 0, so nothing is pruned) the exact value of every position at a trick's
    start is memoized (all four hands, the leader, our points): one solver shared by the
    cards and worlds of an endgame solves each such position once."""

    def __init__(self, cfg: TrumpConfig, beat: bool, us: int, mean: float | None = None) -> None:
        self.beats = cfg.beats
        self.follow = cfg.follower(must_trump=True, must_beat=beat)
        self.us = us
        self.mean = OPP_MEAN if mean is None else mean
        self.memo: dict[tuple[int, ...], float] = {}

    @staticmethod
    def points_of(value: float) -> int:
        """Our points at the end of a line of :meth:`value` ``value`` (exact values only:
        a deal won is 1000 + points, a 60-60 tie 500 + 60, a deal lost its points)."""
        return int(value - 1000 if value >= 1000 else value - 500 if value >= 500 else value)

    def solve(
        self,
        hands: list[CardSet],
        trick: list[tuple[int, Card]],
        seat: int,
        pts: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The value with ``trick`` on the table and ``seat`` to play."""
        led = w = ws = -1
        tp = 0
        for s, c in trick:
            if led < 0:
                led, w, ws = c, c, s
            elif self.beats[w] >> c & 1:
                w, ws = c, s
            tp += CARD_POINTS[c]
        return self.value(list(hands), seat, len(trick), led, w, ws, tp, pts, alpha, beta)

    def value(
        self,
        hands: list[CardSet],
        seat: int,
        n: int,
        led: Card,
        w: Card,
        ws: int,
        tp: int,
        pts: int,
        alpha: float,
        beta: float,
    ) -> float:
        """``n`` cards lie in the trick (led ``led``, won so far by ``w`` of seat ``ws``,
        ``tp`` points); ``seat`` is to play; ``pts`` are our points before the trick."""
        if n == 4:
            if ws & 1 == self.us:
                pts += tp
            if not hands[ws]:
                return (1000.0 if pts > 60 else 500.0 if pts == 60 else 0.0) + pts
            if not self.mean:  # minimax: alpha-beta prunes more than a memo saves
                return self.value(hands, ws, 0, -1, -1, -1, 0, pts, alpha, beta)
            key = (hands[0], hands[1], hands[2], hands[3], ws, pts)
            known = self.memo.get(key)
            if known is None:
                known = self.value(hands, ws, 0, -1, -1, -1, 0, pts, -1e9, 1e9)
                self.memo[key] = known
            return known
        h = hands[seat]
        m = self.follow(h, led, w) if n else h
        nxt = (seat + 1) & 3
        beats = self.beats
        ours = seat & 1 == self.us
        mean = self.mean
        best = -1e9 if ours else 1e9
        total = 0.0
        count = 0
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            hands[seat] = h ^ low
            if not n:
                v = self.value(hands, nxt, 1, c, c, seat, CARD_POINTS[c], pts, alpha, beta)
            elif beats[w] >> c & 1:
                v = self.value(
                    hands, nxt, n + 1, led, c, seat, tp + CARD_POINTS[c], pts, alpha, beta
                )
            else:
                v = self.value(hands, nxt, n + 1, led, w, ws, tp + CARD_POINTS[c], pts, alpha, beta)
            if ours:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
                    if alpha >= beta and not mean:
                        break
            else:
                total += v
                count += 1
                if v < best:
                    best = v
                    if not mean:
                        if best < beta:
                            beta = best
                        if alpha >= beta:
                            break
        hands[seat] = h
        if ours or not mean:
            return best
        return (1.0 - mean) * best + mean * total / count


OPP_MEAN = 0.5
"""Weight of the opponents' average card (against the best reply) in the endgame value."""


def _endgame(
    obs: Observation, know: Knowledge, trick: list[tuple[int, Card]], cards: dict[Action, Card]
) -> dict[Action, float] | None:
    """The last tricks solved exactly in sampled placements of the unseen cards that agree
    with :class:`Knowledge`; each card scores its average value (deal won, then points)."""
    me = obs.seat
    us = me % 2
    pts = int(obs.info["points"][us])
    beat = bool(obs.variant.get("must_beat", True))
    rng = random.Random(hash((obs.hand, len(obs.history), me)))
    total = dict.fromkeys(cards, 0.0)
    seen: dict[tuple[CardSet, ...], int] = {}  # late in a deal many samples coincide
    for _ in range(ENDGAME_WORLDS):
        hands = _sample_world(know, rng)
        if hands is not None:
            key = tuple(hands)
            seen[key] = seen.get(key, 0) + 1
    if not seen:
        return None
    solver = _Solver(know.config, beat, us)
    for world, weight in seen.items():
        hands = list(world)
        for a, c in cards.items():
            hands[me] = obs.hand & ~BIT[c]
            v = solver.solve(hands, [*trick, (me, c)], (me + 1) % 4, pts, -1e9, 1e9)
            total[a] += weight * v
    worlds = sum(seen.values())
    return {a: v / worlds for a, v in total.items()}


SEARCH_TUNING = {"keep": 0.5, "infer": 0.25, "pool": 4}
"""Sasku's settings for ``search`` (``folkcards.bots.search.search_tuning``): deals
weighted by how well this heuristic explains the rivals' bids and cards (``infer``, a
factor of 0.25 per decision it would not have made), each playout deal drawn from a pool
of four by that weight (``pool``: most sampled deals explain the play badly), and the
heuristic's card left when another's paired gain exceeds half a standard error
(``keep``). Measured in docs/bots.md ("Measured strength")."""

LEAF_CARDS = 3
"""The playouts of ``search`` stop when the seat to play holds at most this many cards:
the rest of the deal is solved double dummy (:func:`leaf`). Solving three cards costs
about a quarter of playing them out by the heuristic; four cost more than a playout, and
five some twenty times more."""


_LEAF_SOLVERS: dict[tuple[int, bool], _Solver] = {}


def leaf(state: DealState) -> list[float] | None:
    """Every seat's utility of a determinized deal in play whose seat to act holds at most
    :data:`LEAF_CARDS` cards, by solving its last tricks double dummy (all hands open, both
    sides at their best, the deal won first, then points: :class:`_Solver` with no
    average); None for any other state, which the playout goes on playing.

    This is PIMC with double-dummy leaves: the sampled world is played by the heuristic
    until the endgame, which is then valued exactly rather than by a heuristic playout
    (the rival heuristic solves its endgames too). A lambapea (SAS-13.1) needs all 120
    points, so the winner is always the side with more than 60 (SAS-13); a 60-60 tie is a
    redeal that nobody wins (SAS-13.2)."""
    if not isinstance(state, SaskuDeal) or state.phase != PLAY_PHASE:
        return None
    seat = state.to_act
    config = state.config
    if seat is None or config is None or state.hands[seat].bit_count() > LEAF_CARDS:
        return None
    leader = state.leader
    trick = [((leader + i) & 3, c) for i, c in enumerate(state.trick)]
    key = (state.trump, state.must_beat)
    solver = _LEAF_SOLVERS.get(key)
    if solver is None:  # minimax keeps no memo, so one solver serves every leaf
        solver = _LEAF_SOLVERS[key] = _Solver(config, state.must_beat, 0, mean=0.0)
    v = solver.solve(list(state.hands), trick, seat, state.points[0], -1e9, 1e9)
    ours = _Solver.points_of(v)
    score = [1, 0] if ours > 60 else [0, 1] if ours < 60 else [0, 0]
    return utilities(state.game, {"score": score, "points": [ours, 120 - ours]}, 4, state.variant)


def models(obs: Observation) -> bool:
    """Whether :func:`playout_evaluate` is what this heuristic plays at ``obs`` (for the
    search's inference from play): everywhere except the last :data:`ENDGAME_CARDS`
    tricks, whose solver is too dear to rerun for every sampled deal."""
    return obs.phase != PLAY_PHASE or obs.hand.bit_count() > ENDGAME_CARDS


BATCH_TUNING = {
    "worlds": 144,
    "policy": "fast",
    "leaf": 3,
    "read": 0.25,
    "pool": 2,
    "only": "play+auction+exchange+declare+override",
}
"""Sasku's settings for ``bsearch`` (``folkcards.bots.batched.batch_tuning``): playouts by
the batch's ``fast`` policy (the point-swing rating) until three tricks are left, which
the kernel's double-dummy solver (``folkcards.batch.sasku._dd``) then values exactly.
The fast policy alone measured weaker than the ``simple`` one (seed 1, 100 boards
against ``heuristic``: 56.2 % against 60.8 %); with the solved endgame it won 63.0 % on
seed 1 and 60.0 % on seed 2 (``simple`` 55.0 % there); docs/bots.md, "Batched search".
Two deals are sampled for each one played out, drawn by how well this heuristic explains
the other seats' cards in them (``read=0.25``, the kernel's reading of the play): on the
1,000 fresh boards of seed 43 that won 59.6 % against ``heuristic`` where the search
without it won 58.1 % (four deals for each, ``pool=4``, 59.4 % at twice the sampling;
48 deals with ``pool=3`` 57.6 %); docs/bots.md, "The heuristic in the kernel". The
reading takes in the bids, the trump and the override too, as ``search``'s ``infer`` does:
level with the card play alone (seed 72, 400 boards: 49.9 % head to head, 61.6 against
61.9 % against ``heuristic``), at the same cost. A bid, trump or override searched through
the bridge reads the bids made before it the same way (seed 80, 400 boards: 50.6 % head
to head with the bridge unread, 60.3 against 59.3 % against ``heuristic``, at 25.0 ms a
decision to 23.4).
The bids, the exchange, the declaration and the override are searched too, through the
bridge (``only``: the heuristic's best few valued by playing each out on the sampled
deals): over the 900 boards of seeds 47, 48 and 50 that gained 2.4 points against
``heuristic`` on the search of card play alone (60.9 % against 58.7 % on the 600 of
seed 50), level head to head (50.6 %); docs/bots.md, "Searching before card play".
96 deals are played out a decision rather than the batch's default 64: on 1,000 fresh
boards each of seeds 53 and 55 that won 60.7 and 60.9 % against ``heuristic``, where 64
deals won 58.8 % on seed 53 (paired, +1.9 points [+0.4, +3.5]), at 29.5 ms a decision
with a choice on average (card play 27.8 ms) against 21.5; docs/bots.md, "The batched
search against its goals".
144 since the card play draws the hands of its deals alone (``Game.determinize_hands``),
which halved a card's cost: on 500 fresh boards (seed 99) 144 deals won 61.8 % against
``heuristic`` where 96 won 59.8 % (paired, +2.1 points [+0.1, +4.3]; level head to head,
49.0 %), at 28.5 ms a decision with a choice (card play 21.2) against 18.3 with 96; 192
deals gained as much on seed 98 (+2.2 [+0.1, +4.3]) at 36.3 ms, over the 30 ms a
decision. On the fresh boards of seed 100, 144 deals won 60.7 % against ``heuristic``;
docs/bots.md, "Hands alone"."""
