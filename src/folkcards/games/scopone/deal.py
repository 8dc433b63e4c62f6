"""A Scopone deal as a state machine, in the order of ``rules/scopone.md``.

SCO-3 the deal (:class:`ScoponeDeal` from a dealt deck, :func:`deal_from_hands`, the void
deal of three kings), SCO-4 the play — its one phase, ``play`` — with the capture options
(:func:`capture_options`), the legal actions and the effect of a play, SCO-5 the sweeps
and the leftover at the end, and SCO-10.2's refusals in the words of
:meth:`ScoponeDeal.explain`. Scoring (SCO-6) is :mod:`.scoring`, what a seat sees (SCO-9)
:mod:`.observe`; the tables behind ``legal_actions`` are :mod:`.fast`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from folkcards.cards import BIT, CARD_NAMES, DECK_40, Card, CardSet, iter_cards, mask_text, to_mask
from folkcards.engine.actions import Action, ActionSyntaxError
from folkcards.engine.api import (
    JSON,
    SPECTATOR,
    DealState,
    IllegalAction,
    MalformedRecord,
    Observation,
    Variant,
)
from folkcards.engine.explain import Explanation, explained

from .actions import Play, parse_play
from .fast import NO_CAPTURE, THREE_KINGS, VW, action_for, decode, sum_options
from .fast import legal_actions as fast_legal_actions
from .observe import narrate, observe
from .rules import NEXT_SEAT, SAME_RANK, TEAM, VALUE, ScoponeRules, rules_of
from .scoring import deal_result

if TYPE_CHECKING:
    from folkcards.engine.events import Told

    from .game import ScoponeGame

PHASES: Mapping[str, str] = {"play": "play", "over": "over"}
"""The phases (SCO-4: ``play``, then ``over``) by value, as this package's own strings."""

# --- SCO-3 the deal ------------------------------------------------------------------------------


def deal_from_hands(
    game: ScoponeGame,
    variant: Variant,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    extra: Mapping[str, Sequence[Card]] | None,
) -> ScoponeDeal:
    """A deal from dealt hands and ``extra.table`` (SCO-3.5): 4 hands of 9 cards and 4
    table cards (scientifico: 10 cards, no table), together the 40 cards."""
    rules = rules_of(variant)
    size = rules.hand_size
    if len(hands) != 4:
        raise MalformedRecord("'hands' must be a list of 4 hands (SCO-3.5)")
    dealt = tuple(tuple(h) for h in hands)
    masks = [0, 0, 0, 0]
    for s, h in enumerate(dealt):
        if len(h) != size:
            raise MalformedRecord(f"hands[{s}] must hold {size} cards, not {len(h)} (SCO-3.5)")
        masks[s] = to_mask(h)
    extra = dict(extra or {})
    unknown = [k for k in extra if k != "table"]
    if unknown:
        raise MalformedRecord(f"'extra' may hold only 'table', not {unknown[0]!r} (SCO-3.5)")
    table_order = tuple(extra.get("table", ()))
    if len(table_order) != rules.table_size:
        raise MalformedRecord(
            f"'extra.table' must hold {rules.table_size} cards, not {len(table_order)} (SCO-3.5)"
        )
    if to_mask(table_order) | masks[0] | masks[1] | masks[2] | masks[3] != DECK_40 or (
        sum(len(h) for h in dealt) + len(table_order) != 40
    ):
        raise MalformedRecord("'hands' and 'extra.table' must be the 40 Scopone cards (SCO-3.5)")
    table = to_mask(table_order)
    return ScoponeDeal(game, rules, variant, dealer, masks, table, None, dealt, table_order)


# --- SCO-4.2 capture options -----------------------------------------------------------------------


def capture_options(c: Card, table: CardSet) -> list[CardSet]:
    """Every option of card ``c`` against ``table`` (SCO-4.2), in ``legal`` order (SCO-4.5):
    one equal table card each if there is one (SCO-4.2.1: never two, never a sum), else
    every set of two or more adding up to ``c``'s value (SCO-4.2.2), else none (SCO-4.2.3)."""
    singles = table & SAME_RANK[c]
    if singles:
        return [BIT[t] for t in iter_cards(singles)]
    return list(sum_options(VALUE[c], table))


# --- the deal in progress ------------------------------------------------------------------------


class ScoponeDeal(DealState):
    """A Scopone deal in progress (SCO-3 … SCO-6). ``apply`` works in place.

    Hands, the table and the two team piles are card sets; ``_vkey`` is the table's value
    key (:func:`.fast.value_key`), kept up to date by ``apply`` for ``legal_actions``.
    """

    game: ScoponeGame

    def __init__(
        self,
        game: ScoponeGame,
        rules: ScoponeRules,
        variant: Variant,
        dealer: int,
        hands: list[CardSet],
        table: CardSet,
        deck: tuple[Card, ...] | None,
        dealt: tuple[tuple[Card, ...], ...] | None,
        table_order: tuple[Card, ...],
    ) -> None:
        """A deal at its start: ``table`` holds the cards of ``table_order`` (the four dealt
        to the table in deal order, SCO-3.1, or none in scientifico). Positional arguments
        only (no keyword dict per deal)."""
        self.game = game
        self.rules = rules
        self.variant = variant
        self.dealer = dealer
        self.num_seats = 4
        self.phase = "play"
        self.history = []
        self.actors = []
        self._legal = None
        self.hands = hands
        self.table = table
        self.piles = [0, 0]  # SCO-2.4: one pile per team
        self.sweeps = [0, 0]
        self.last_capture: int | None = None
        self.turn = 0  # turns played so far (SCO-4.1)
        self.final_turn = rules.final_turn
        self.last_sweep = rules.dealer_last_sweep
        self.deck = deck
        self.dealt = dealt  # hands as received, for a hands record
        self.initial_table = table_order
        if table_order:  # the value key of the four table cards: four lookups
            a, b, c, d = table_order
            vkey = self._vkey = VW[a] + VW[b] + VW[c] + VW[d]
        else:
            vkey = self._vkey = 0
        # SCO-3.4: three or four kings on the table void the (classic) deal.
        self.redeal = vkey >= THREE_KINGS
        if self.redeal:
            self.to_act: int | None = None
            self.phase = "over"
        else:
            self.to_act = (dealer + 1) & 3  # SCO-2.2: the eldest plays first

    # --- SCO-4.3 legal actions -----------------------------------------------------------
    legal_actions = fast_legal_actions
    """Every legal action of the seat to act, in ``legal`` order (SCO-4.3, SCO-4.5),
    computed once per position and then cached: :func:`.fast.legal_actions`, table-driven
    and assigned as the method itself (no call more on the hot path); the tests compare it
    with :func:`.fast.legal_plain`, the same straight from SCO-4.2 and SCO-4.3."""

    # --- SCO-4.4 a play, SCO-5 sweeps and the end ------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (a Play, its text or its code) for the seat to act, in place.

        The contract's fast path: a legal Play is applied as it is; anything else goes
        through ``DealState._checked`` (IllegalAction naming the rule, state unchanged).
        """
        legal = self._legal
        if legal is None or type(action) is not Play or action not in legal:
            play: Play = self._checked(action, self.legal_actions())  # type: ignore[assignment]
        else:
            play = action
        seat: int = self.to_act  # type: ignore[assignment]
        take, bit, won, dv = play.fx
        self.hands[seat] ^= bit
        self._vkey += dv
        turn = self.turn = self.turn + 1
        if take:  # SCO-4.4: the card and its take go to the team pile
            table = self.table = self.table ^ take
            self.piles[TEAM[seat]] |= won
            self.last_capture = seat
            # SCO-5.1 / SCO-8.2: emptying the table is a sweep, except on the final turn.
            if not table and (turn != self.final_turn or self.last_sweep):
                self.sweeps[TEAM[seat]] += 1
        else:  # SCO-4.4: the card lies on the table
            self.table |= bit
        if turn == self.final_turn:
            # SCO-5.3: the leftover goes to the team of the last capture (never a sweep).
            lc: int = self.last_capture  # type: ignore[assignment]  # SCO-5.4: never None
            self.piles[TEAM[lc]] |= self.table
            self.table = 0
            self._vkey = 0
            self.to_act = None
            self.phase = "over"
        else:
            self.to_act = NEXT_SEAT[seat]  # SCO-2.2 / SCO-4.1
        self._legal = None
        self.history.append(play)
        self.actors.append(seat)

    # --- SCO-4.6, SCO-10.2: reading actions and refusing them --------------------------------
    not_an_action = "is not an action (SCO-10.2)"

    def _deal_over(self) -> IllegalAction:
        """SCO-10.2, or SCO-3.4 for a void deal (:meth:`explain`'s words)."""
        return self._illegal(NO_CAPTURE[0])

    def _action_of_code(self, code: int) -> Action:
        """A bare code is the Play with that code (or a placeholder naming the code)."""
        return _decode(code)

    def _illegal(self, action: Action) -> IllegalAction:
        return super()._illegal(_decode(action))

    def parse_action(self, text: str) -> Action:
        """Read an action for this state (SCO-4.6): ``play C`` alone means C's only capture."""
        try:
            c, take = parse_play(text)
        except ActionSyntaxError as exc:
            raise IllegalAction.because(exc.explanation) from None
        if take is not None:
            return action_for(c, take)
        seat = self.to_act
        if seat is None or not self.hands[seat] >> c & 1:
            return action_for(c)  # apply() reports the real fault
        options = capture_options(c, self.table)
        if len(options) > 1:
            name = CARD_NAMES[c]
            raise IllegalAction.because(
                explained(
                    "ambiguous_play",
                    f"'play {name}' is ambiguous: {name} has {len(options)} "
                    f"capture options, name the cards with 'take' (SCO-4.6)",
                    card=name,
                    count=len(options),
                )
            )
        return action_for(c, options[0] if options else 0)

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, with the rule ID."""
        return self.explain(action).text

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now: code, params, rules and the text of
        :meth:`explain_illegal`."""
        if self.to_act is None:
            if self.redeal:
                return explained(
                    "deal_void",
                    "the deal is void (3 or 4 kings on the table): no action is allowed (SCO-3.4)",
                )
            return explained("deal_over", "the deal is over: no action is allowed (SCO-10.2)")
        if not isinstance(action, Play):
            return explained(
                "not_an_action",
                f"{action.text!r} is not a Scopone action (SCO-4.5)",
                action=action.text,
            )
        name = CARD_NAMES[action.card]
        if not self.hands[self.to_act] >> action.card & 1:
            return explained(
                "not_held",
                f"{name} is not in the hand of seat {self.to_act} (SCO-4.6)",
                seat=self.to_act,
                card=name,
            )
        return explain_take(action.card, action.take, self.table)

    # --- SCO-6 the result, SCO-9 what each seat knows, the events -------------------------------
    result = deal_result
    """The result object of SCO-6.8 (a void deal: ``{"score": [0, 0], "redeal": true}``):
    :func:`.scoring.deal_result`, assigned as the method itself (a deal's one call less)."""

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows: its hand, everything played, the table and both piles."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat} in Scopone (seats 0–3)")
        return observe(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator knows (SCO-9): every play and capture, the table, both piles
        and the hand sizes; no hand and no legal actions."""
        return observe(self, SPECTATOR)

    def _narrate(self) -> list[Told]:
        """The deal's events, replayed from its set-up; all public (SCO-9)."""
        return narrate(self)

    # --- copies and records ------------------------------------------------------------------
    def clone(self) -> ScoponeDeal:
        """An independent copy (card sets are ints; the set-up tuples and rules are shared)."""
        new = object.__new__(ScoponeDeal)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.actors = list(self.actors)
        new.hands = list(self.hands)
        new.piles = list(self.piles)
        new.sweeps = list(self.sweeps)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """The pickled state: the attributes, with the history as ``(card, take)`` pairs,
        without the legal cache and the rules (both rebuilt on loading)."""
        state = dict(self.__dict__)
        history: list[Play] = self.history  # type: ignore[assignment]  # only Plays
        state["history"] = [(a.card, a.take) for a in history]
        state["_legal"] = None
        state.pop("rules", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled deal by value: the history as interned actions
        (:func:`.fast.action_for`), the phase as this package's string, the rules of its
        variant. A pickle of the single-module ``scopone.py`` loads the same way."""
        self.__dict__.update(state)
        self.rules = rules_of(self.variant)
        self.history = [action_for(c, take) for c, take in state["history"]]
        self.phase = PHASES[state["phase"]]

    def setup_record(self) -> dict[str, JSON]:
        """``dealer`` and ``deck``, or ``hands`` (as received) and ``extra.table``."""
        if self.deck is not None:
            return {"dealer": self.dealer, "deck": [CARD_NAMES[c] for c in self.deck]}
        rec: dict[str, JSON] = {
            "dealer": self.dealer,
            "hands": [[CARD_NAMES[c] for c in h] for h in self.dealt or ()],
        }
        if not self.rules.scientifico:
            rec["extra"] = {"table": [CARD_NAMES[c] for c in self.initial_table]}
        return rec


def _decode(code: int) -> Action:
    """The action of a raw code (for messages about an int that is not a legal action)."""
    if isinstance(code, Play):
        return code
    got = decode(code)
    return got if got is not None else Action(code, f"action code {code}")


def explain_take(c: Card, take: CardSet, table: CardSet) -> Explanation:
    """Why the held card ``c`` may not be played taking ``take`` from ``table``: it must
    capture (SCO-4.3), a card is not on the table (SCO-4.6), it captures nothing, it must
    take a single equal card, or the take is no match or the wrong sum (SCO-4.2)."""
    name = CARD_NAMES[c]
    if not take:
        return explained(
            "must_capture",
            f"{name} can capture, so it must capture: say which cards with 'take' (SCO-4.3)",
            card=name,
        )
    off = take & ~table
    if off:
        return explained(
            "not_on_table",
            f"{' '.join(mask_text(off))} not on the table (SCO-4.6)",
            cards=mask_text(off),
        )
    if not capture_options(c, table):
        return explained(
            "captures_nothing",
            f"{name} captures nothing on this table: play it as 'play {name}' (SCO-4.2)",
            card=name,
        )
    singles = table & SAME_RANK[c]
    if singles:
        return explained(
            "must_take_single",
            f"{name} must take exactly one card of equal rank "
            f"({' or '.join(mask_text(singles))}), never a sum (SCO-4.2)",
            card=name,
            cards=mask_text(singles),
        )
    taken = mask_text(take)
    if take.bit_count() < 2:
        return explained(
            "no_match", f"{' '.join(taken)} does not match {name} (SCO-4.2)", cards=taken, card=name
        )
    total = sum(VALUE[t] for t in iter_cards(take))
    return explained(
        "wrong_sum",
        f"{' '.join(taken)} add up to {total}, not {VALUE[c]}, the value of {name} (SCO-4.2)",
        cards=taken,
        total=total,
        value=VALUE[c],
        card=name,
    )
