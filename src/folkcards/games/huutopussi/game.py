"""The Huutopussi :class:`~folkcards.engine.api.Game`: variants, deals, records, the match."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkcards.cards import CARD_NAMES, Card
from folkcards.engine.actions import Action, ActionSyntaxError
from folkcards.engine.api import (
    DealState,
    Game,
    MalformedRecord,
    MatchState,
    Observation,
    Variant,
    VariantOption,
    json_repr,
)
from folkcards.engine.card import NO_TRUMP, GameCard, suit_run, teams
from folkcards.engine.conservation import Aside, CardView
from folkcards.engine.memo import Memo
from folkcards.engine.task import Task

from .deal import HuutopussiState
from .fast import deal_deck
from .observe import cards_aside
from .rules import CARDS36, DECK, TABLE, rules_of
from .task import task_of

CARD_SET = frozenset(CARDS36)

NORMALIZED: Memo[Any, dict[str, Any]] = Memo("huutopussi.variants", limit=1 << 10)
"""``normalize_variant``'s results by the raw variant's items (keys, types and values): an
index that :meth:`HuutopussiGame.normalize_variant` fills with the variants it accepts."""

FIXED_BY_ERLANGEN = ("card_points", "last_trick", "no_trick_rule")
FOUR_PLAYER_ONLY = ("no_trick_rule", "tie")
RESTRICTED = ("card_points", "last_trick", "no_trick_rule", "tie")
"""The options that HUU-11.5 forbids to *give* in some combinations (whatever their value)."""


class _FilledStr(str):
    """A default that :meth:`HuutopussiGame.normalize_variant` filled in for an option the
    variant did not give (equal to, and JSON-encoded as, the plain text)."""

    __slots__ = ()


class _FilledInt(int):
    """The same for an integer option (``last_trick``)."""

    __slots__ = ()


def _filled(value: Any) -> Any:
    return _FilledStr(value) if isinstance(value, str) else _FilledInt(value)


class HuutopussiGame(Game):
    """Huutopussi (HUU): 4 players in partnerships, or 3 players; the Erlangen rules."""

    name = "huutopussi"
    title = "Huutopussi"
    deck = DECK
    partnership = True
    deal_keys = ("totals",)
    derived_deal_keys = ("totals",)  # HUU-10.3: a deal in a match may leave them out
    variant_options = (
        VariantOption("players", 4, "3 → three-player Huutopussi (HUU-13)", choices=(4, 3)),
        VariantOption(
            "card_points",
            "10-10-5-5-5",
            "card point values (HUU-11.1)",
            ("10-10-5-5-5", "11-10-4-3-2"),
        ),
        VariantOption("last_trick", 20, "points for the last trick (HUU-11.2)", choices=(20, 10)),
        VariantOption(
            "marriage_values",
            "hearts-high",
            "marriage values (HUU-1.5, HUU-11.3)",
            ("hearts-high", "bridge"),
        ),
        VariantOption(
            "no_trick_rule",
            "lapari",
            "a trickless side: läpäri or Porvoo (HUU-9.4, HUU-11.4)",
            ("lapari", "porvoo"),
        ),
        VariantOption("erlangen", False, "the Erlangen rules (HUU-12)"),
        VariantOption("tie", "draw", "a tie at 500 or more (HUU-10.2)", ("draw", "extra_deal")),
    )

    # --- variants -----------------------------------------------------------------------------
    def normalize_variant(self, raw: object) -> dict[str, Any]:
        """HUU-11.5: the options with defaults, rejecting unknown keys, bad values and the
        combinations the rules forbid, which depend on the keys *given*, whatever their values
        (``{"players": 3, "tie": "draw"}`` is malformed) and however many keys are spelt out.

        The result lists every option. A ``RESTRICTED`` option that was not given holds its
        default as a marked value (a ``str``/``int`` subclass, equal to the plain value and
        JSON-encoded as it), which no JSON text can produce: a normalized variant, or a
        ``dict`` copy of it (``Match``, ``Observation.variant``, ``random_deal``), therefore
        normalizes to itself, while a record that spells the same keys out is checked by the
        rules. (A JSON copy of a normalized variant is a record's spelling: see
        :meth:`renormalize_variant`.)"""
        try:
            key = tuple((k, type(x), x) for k, x in raw.items()) if type(raw) is dict else None
            cached = NORMALIZED.table.get(key) if key is not None else None
        except TypeError:  # unhashable values: no caching
            key = cached = None
        if cached is not None:
            return dict(cached)
        v = self._normalize(raw)
        if key is not None:  # only variants the rules accept are cached
            NORMALIZED.store(key, dict(v))
        return v

    def _normalize(self, raw: object) -> dict[str, Any]:
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise MalformedRecord("'variant' must be an object")
        # a default filled in by an earlier normalization stands for an option not given
        given = {k: x for k, x in raw.items() if not _is_filled(k, x)}
        v = super().normalize_variant(given)
        if v["erlangen"]:
            if v["players"] == 3:
                raise MalformedRecord(
                    "variant 'erlangen' is for 4 players only, not with 'players': 3 (HUU-11.5)"
                )
            bad = [k for k in FIXED_BY_ERLANGEN if k in given]
            if bad:
                raise MalformedRecord(
                    f"variant {bad[0]!r} cannot be given with 'erlangen', which fixes it (HUU-11.5)"
                )
        if v["players"] == 3:
            bad = [k for k in FOUR_PLAYER_ONLY if k in given]
            if bad:
                raise MalformedRecord(
                    f"variant {bad[0]!r} is for 4 players only, not with 'players': 3 (HUU-11.5)"
                )
        for k in RESTRICTED:
            if k not in given:
                v[k] = _FILLED[k]
        return v

    def renormalize_variant(self, variant: object) -> dict[str, Any]:
        """A variant already in normal form — every option listed, as ``normalize_variant``
        returns it, also after a JSON round trip (``Observation.variant`` sent to a client) —
        checked and normalized again. Unlike a record's variant, it may hold an option at its
        default where HUU-11.5 forbids giving it, since the normal form lists every option;
        anything that is not the normal form of a variant the rules accept is malformed."""
        options = {o.key: o.default for o in self.variant_options}
        if not isinstance(variant, Mapping) or set(variant) != set(options):
            raise MalformedRecord("a normalized variant lists every option, and only those")
        minimal = {
            k: x
            for k, x in variant.items()
            if not (x == options[k] and (type(x) is type(options[k]) or _is_filled(k, x)))
        }
        return self.normalize_variant(minimal)

    def sample_variant(self, rng: random.Random) -> dict[str, Any]:
        """A random valid variant (every rule set of HUU-11), as a raw record ``variant``."""
        kind = rng.randrange(3)
        if kind == 0:
            v: dict[str, Any] = {"erlangen": True}
        elif kind == 1:
            v = {"players": 3}
        else:
            v = {
                "no_trick_rule": rng.choice(("lapari", "porvoo")),
                "tie": rng.choice(("draw", "extra_deal")),
            }
        if kind != 0:
            v["card_points"] = rng.choice(("10-10-5-5-5", "11-10-4-3-2"))
            v["last_trick"] = rng.choice((20, 10))
        v["marriage_values"] = rng.choice(("hearts-high", "bridge"))
        return v

    def random_deal(
        self,
        rng: random.Random,
        variant: Variant | None = None,
        dealer: int = 0,
        carry: Mapping[str, Any] | None = None,
    ) -> DealState:
        """A new deal from a deck shuffled by ``rng`` (the same deck as the base method)."""
        v = self.normalize_variant(variant or {})
        deck = list(CARDS36)
        rng.shuffle(deck)
        return self.new_deal(v, dealer, deck, carry=carry)

    def num_seats(self, variant: Variant) -> int:
        """4, or 3 with ``players: 3`` (HUU-2.3)."""
        return int(variant["players"])

    def num_teams(self, variant: Variant) -> int:
        """Two teams with 4 players; one side per seat with 3 (HUU-13.4)."""
        return 3 if variant["players"] == 3 else 2

    # --- actions ------------------------------------------------------------------------------
    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action named by ``text`` (HUU-16.1), any accepted spelling."""
        try:
            return TABLE.parse(text)
        except ActionSyntaxError:
            parts = text.split() if isinstance(text, str) else []
            if len(parts) == 2 and parts[0].lower() in ("bid", "contract") and parts[1].isdigit():
                raise ActionSyntaxError(
                    f"{text.strip()!r}: bids and contracts are multiples of 5 from 50 to 440 "
                    "(HUU-4.2, HUU-5.2)",
                    "bad_number",
                    {"action": text.strip(), "step": 5, "minimum": 50, "maximum": 440},
                ) from None
            raise

    def all_actions(self, variant: Variant) -> tuple[Action, ...]:
        """The whole action space (every variant's actions), codes 0..n-1 in sorted order."""
        return TABLE.actions

    # --- deals --------------------------------------------------------------------------------
    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """HUU-10.3: ``totals``, one JSON integer per side; absent = all 0."""
        k = self.num_teams(variant)
        if "totals" not in record:
            return {"totals": [0] * k}
        t = record["totals"]
        if not isinstance(t, list) or len(t) != k or any(type(x) is not int for x in t):
            raise MalformedRecord(f"'totals' must be a list of {k} integers, not {json_repr(t)}")
        return {"totals": list(t)}

    def new_deal(
        self,
        variant: Variant,
        dealer: int,
        deck: Sequence[Card] | None = None,
        *,
        hands: Sequence[Sequence[Card]] | None = None,
        extra: Mapping[str, Sequence[Card]] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> DealState:
        """A deal from a deck (HUU-3.2, HUU-3.3) or from dealt hands and widow (HUU-3.5)."""
        v = dict(variant)
        r = rules_of(v)
        n = r.players
        if type(dealer) is not int or not 0 <= dealer < n:
            raise MalformedRecord(f"'dealer' must be an integer seat 0–{n - 1}")
        totals = [0] * (3 if n == 3 else 2)
        if carry and "totals" in carry:
            totals = list(carry["totals"])
        size = 11 if n == 3 else 9  # HUU-3.2, HUU-3.3
        if deck is not None:
            if hands is not None or extra:
                raise MalformedRecord("a deal needs exactly one of 'deck' or 'hands'")
            cards = list(deck)
            masks = deal_deck(cards, n, dealer)  # HUU-3.2: one at a time from the dealer's left
            if masks is None:
                raise MalformedRecord(
                    "'deck' must hold the 36 cards of the Huutopussi pack, each once"
                )
            rest = cards[n * size :]  # HUU-3.3: the widow (3 players)
            return HuutopussiState(self, v, r, dealer, masks, None, rest, cards, totals)
        if hands is None:
            raise MalformedRecord("a deal needs exactly one of 'deck' or 'hands'")
        dealt, widow = _dealt_hands(hands, extra, n, size)
        masks = [sum(1 << c for c in h) for h in dealt]
        return HuutopussiState(self, v, r, dealer, masks, dealt, widow, None, totals)

    def cards_aside(self, view: CardView) -> Aside:
        """Where the cards out of hand and unplayed are (:func:`.observe.cards_aside`)."""
        return cards_aside(view)

    def determinize(self, obs: Observation, rng: random.Random) -> DealState:
        """A full state consistent with ``obs`` (HUU-14), sampled from the observation only."""
        from .determinize import determinize

        return determinize(self, obs, rng)

    def task(self, obs: Observation) -> Task | None:
        """The decision of ``obs``'s seat, from ``obs`` alone (:mod:`.task`)."""
        return task_of(obs)

    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """Huutopussi's game card: no trump until a marriage is declared (HUU-7.2), then
        the trump suit first; every suit A T K Q J 9 8 7 6 (HUU-1.2)."""
        v = self.normalize_variant(variant)
        r = rules_of(v)
        n = r.players
        most = r.max_bid  # MAX bounds bids, contracts and any side's total (HUU-1.6)
        # Erlangen: ± contract × 2^calls, up to 9 calls (HUU-12.8, HUU-12.9)
        bounds = (-(most << 9), most << 9) if r.erlangen else (-most, most)
        phases = (
            ("bidding", "discard", "contract", "play", "answer")
            if n == 3
            else ("bidding", "give", "contract", "return", "play", "answer")
        )
        ranks = {x: suit_run("ATKQJ9876", x) for x in "CSHD"}
        return GameCard(
            name=self.name,
            title=self.title,
            variant=v,
            seats=n,
            sides=teams(n, n == 4),
            partnership=n == 4,
            direction="clockwise",
            deck=DECK,
            pack="french",
            phases=phases,
            utility_bounds=bounds,
            margin_scale=150.0,
            shaping=None,
            suit_order="CSHD",
            suit_ranks=ranks,
            trump_groups={NO_TRUMP: ()} | ranks,
            table_keys=(
                "high_bid",
                "high_bidder",
                "declarer",
                "bid",
                "contract",
                "trump",
                "declarations",
                "broken",
                "leader",
                "trick",
                "tricks_played",
                "tricks",
                "points",
                "marriages",
                "hand_sizes",
                "calls",
            ),
            rules="HUU",
            notes={
                "phases": "answer comes and goes within play (HUU-8.10)",
                "utility_bounds": "a bound, not a likely score: ± MAX (HUU-1.6); with "
                "Erlangen calls ± MAX × 2^9 (HUU-12.9)",
            },
            hidden_keys=(
                "players",
                "leader",
                "tricks_played",
                "given_count",
                "returned_count",
                "discard_count",
            ),
            fact_keys=(
                "trump",
                "high_bid",
                "high_bidder",
                "declarer",
                "contract",
                "points",
                "tricks",
            ),
            points_key="points",  # no card_points: the last trick adds more (HUU-1.4)
            # one card per action: HUU-6.2 (3 players), HUU-5.1 and HUU-5.3 (Erlangen 4)
            phase_cards={"discard": 3} if n == 3 else {"give": r.exchange, "return": r.exchange},
            choice_notes=("redeal", "declare", "ask marriage", "ask half"),
            match_target=500,  # the highest total at 500 or more, held alone, wins (HUU-10.2)
            # the learning encoding's phase block as first laid out (contract, play and
            # answer are phases of the deal); kept so that a trained agent's inputs hold
            encoding_phases=("bid", "exchange", "contract", "play", "declare", "answer", "kontra"),
            encoding_scalars=(("bid", 440.0), ("contract", 440.0)),
        )

    def describe(self, state: DealState) -> str:
        """A short picture: phase, seat to act, trump, hands and the trick."""
        assert isinstance(state, HuutopussiState)
        lines = [f"Huutopussi · phase {state.phase} · to act {state.to_act}"]
        trump = "CSHD"[state.trump] if state.trump >= 0 else "-"
        lines.append(
            f"trump {trump} · contract {state.contract or '-'} · declarer {state.declarer}"
        )
        for s in range(state.num_seats):
            cards = " ".join(CARD_NAMES[c] for c in range(52) if state.hands[s] >> c & 1)
            lines.append(f"  {s}: {cards}")
        if state.trick:
            lines.append("trick: " + " ".join(CARD_NAMES[c] for c in state.trick))
        return "\n".join(lines)

    # --- the match (HUU-10) -------------------------------------------------------------------
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """Totals 0; the first dealer is free (HUU-3.1)."""
        k = self.num_teams(variant)
        return MatchState(totals=[0] * k, next_dealer=None, carry={"totals": [0] * k})

    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """HUU-10.1–10.3: add the score, pass the deal left, end at 500 (ties per ``tie``)."""
        res = deal.result()
        score = res["score"]
        totals = [a + b for a, b in zip(match.totals, score, strict=True)]
        n = deal.num_seats
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        over, winner, draw = False, None, False
        if best >= 500:
            if len(leaders) == 1:
                over, winner = True, leaders[0]
            elif n == 4 and deal.variant["tie"] == "draw":
                over, draw = True, True
        return MatchState(
            totals=totals,
            next_dealer=(deal.dealer + 1) % n,
            carry={"totals": list(totals)},
            over=over,
            winner=winner,
            draw=draw,
            deals=match.deals + 1,
        )


_FILLED: dict[str, Any] = {
    o.key: _filled(o.default) for o in HuutopussiGame.variant_options if o.key in RESTRICTED
}
"""The marked default of each ``RESTRICTED`` option (shared: the values are immutable)."""


def _is_filled(key: str, value: Any) -> bool:
    """True for the marked default of ``key`` (an option that a normalization filled in)."""
    filled = _FILLED.get(key)
    return filled is not None and type(value) is type(filled) and value == filled


def _dealt_hands(
    hands: Sequence[Sequence[Card]],
    extra: Mapping[str, Sequence[Card]] | None,
    n: int,
    size: int,
) -> tuple[list[list[int]], list[int]]:
    """A record's dealt hands and widow, checked (HUU-3.5): ``n`` hands of ``size`` cards
    and, with 3 players only, a 3-card widow; together the 36-card pack."""
    hl = [list(h) for h in hands]
    if len(hl) != n:
        raise MalformedRecord(f"'hands' must be a list of {n} hands")
    for i, h in enumerate(hl):
        if len(h) != size:
            raise MalformedRecord(f"hands[{i}] must hold {size} cards, not {len(h)} (HUU-3.5)")
    ex = dict(extra or {})
    if n == 4:
        if ex:
            raise MalformedRecord("a 4-player record's 'extra' must be absent or {} (HUU-3.5)")
        widow: list[int] = []
    else:
        if set(ex) != {"widow"}:
            raise MalformedRecord(
                "a 3-player record needs 'extra': {\"widow\": [3 cards]} (HUU-3.5)"
            )
        widow = list(ex["widow"])
        if len(widow) != 3:
            raise MalformedRecord("the widow must hold 3 cards (HUU-3.5)")
    seen = [c for h in hl for c in h] + widow
    if len(set(seen)) != 36 or sum(1 << c for c in set(seen)) != DECK:
        raise MalformedRecord("'hands' and 'extra' together must be the 36-card pack (HUU-3.5)")
    return hl, widow
