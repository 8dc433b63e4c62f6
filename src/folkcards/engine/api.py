"""The engine API: the one contract every game implements and every client uses.

A :class:`Game` declares its facts up front (name, seats, deck, variant options,
record keys, match rules) and makes :class:`DealState` objects. A deal state answers
who acts (``to_act``), in which ``phase``, with which ``legal_actions()``; ``apply``
changes it in place (``clone`` first to keep the old one); ``observation(seat)`` is
everything one seat may know, and ``determinize(seat, rng)`` is a full state built
*from that observation alone* — so a search bot cannot see more than its seat.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from folkcards.cards import CARD_NAMES, Card, CardError, CardSet, iter_cards, mask_text, parse_card
from folkcards.engine.actions import Action, ActionSyntaxError, ActionTable, Step
from folkcards.engine.explain import Explanation, explained, unexplained
from folkcards.engine.info import Info

if TYPE_CHECKING:
    from folkcards.engine.card import GameCard
    from folkcards.engine.conservation import CardView
    from folkcards.engine.events import Event, Told
    from folkcards.engine.task import Task

JSON = Any
"""A JSON-compatible value (records, results, observations' ``info``)."""

Variant = Mapping[str, Any]
"""A normalized variant: every option of the game with its value."""


class FolkcardsError(ValueError):
    """Base of every error the engine raises on bad input; its message is one clear line."""


class IllegalAction(FolkcardsError):
    """An action that the rules do not allow now; ``rule`` names the rule ID when it was
    given apart from the message; ``explanation`` is the structured reason
    (:class:`~folkcards.engine.explain.Explanation`: code, params, rules, and ``text`` =
    this error's message)."""

    def __init__(
        self, message: str, rule: str | None = None, *, explanation: Explanation | None = None
    ) -> None:
        text = f"{message} ({rule})" if rule else message
        super().__init__(text)
        self.rule = rule
        if explanation is None:
            explanation = unexplained(text)
        elif explanation.text != text:  # the message is the text, whatever built it
            explanation = Explanation(explanation.code, explanation.params, explanation.rules, text)
        self.explanation: Explanation = explanation

    @classmethod
    def because(cls, explanation: Explanation) -> IllegalAction:
        """The error whose message is ``explanation.text``."""
        return cls(explanation.text, explanation=explanation)


class MalformedRecord(FolkcardsError):
    """A deal or match record whose shape or keys break the conventions or a game's rules."""


@dataclass(frozen=True)
class VariantOption:
    """One variant key of a game's rules file: its type, default, allowed values and meaning."""

    key: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        """The value if it is allowed for this option, else MalformedRecord saying why."""
        kind = type(self.default)
        ok = type(value) is kind
        if not ok:
            raise MalformedRecord(
                f"variant {self.key!r} must be {kind.__name__}, not {json_repr(value)}"
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(json_repr(c) for c in self.choices)
            raise MalformedRecord(
                f"variant {self.key!r} must be one of {allowed}, not {json_repr(value)}"
            )
        if self.minimum is not None and value < self.minimum:
            raise MalformedRecord(f"variant {self.key!r} must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise MalformedRecord(f"variant {self.key!r} must be at most {self.maximum}")
        return value


def json_repr(value: Any) -> str:
    """A short JSON-like rendering of a value for error messages."""
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


SPECTATOR = -1
"""The ``seat`` of a spectator's observation (a viewer at no seat)."""


@dataclass(frozen=True)
class Observation:
    """Everything one seat may know at one point of a deal, and nothing more.

    A spectator's observation (:meth:`DealState.public_observation`) has ``seat`` =
    :data:`SPECTATOR`, no hand and no legal actions, and only the public facts.

    ``history`` is every action of the deal in order as this seat saw it, each a
    :class:`~folkcards.engine.actions.Step` — its text (a hidden card is ``?``: ``return
    ?``) with its verb, cards, number and what was hidden; ``actors`` names the seat of each. ``info`` holds
    the game's public facts (trump, bids, trick, points…) and this seat's private ones
    (cards it received, the blind it picked…): a game's typed, frozen
    :class:`~folkcards.engine.info.Info` dataclass (``SaskuInfo`` …), each field documented
    there, which also reads as a mapping (``info["trump"]``).

    ``task`` is the decision this seat faces (:class:`~folkcards.engine.task.Task`), built
    by the game from this observation alone; None unless the seat is to act.
    """

    game: str
    variant: Mapping[str, Any]
    seat: int
    num_seats: int
    dealer: int
    phase: str
    to_act: int | None
    hand: CardSet
    legal: tuple[Action, ...]
    history: tuple[Step, ...]
    actors: tuple[int, ...]
    info: Mapping[str, Any]
    carry: Mapping[str, Any] = field(default_factory=dict)
    result: Mapping[str, Any] | None = None

    @property
    def is_over(self) -> bool:
        """True when the deal is over."""
        return self.to_act is None

    @property
    def task(self) -> Task | None:
        """What this seat is asked to do now (its game's :meth:`Game.task` of this
        observation): None for a seat not to act, a spectator, a deal that is over, or a
        game that is not registered."""
        if self.to_act is None or self.seat != self.to_act or not self.legal:
            return None
        from folkcards.engine import registry

        game = registry.GAMES.get(self.game)
        if game is None:
            try:
                game = registry.get(self.game)
            except FolkcardsError:
                return None
        return game.task(self)

    def to_dict(self) -> dict[str, JSON]:
        """The observation as JSON-ready data (cards as canonical text); ``task`` is
        :attr:`task` as a dict, or None."""
        task = self.task
        return {
            "game": self.game,
            "variant": dict(self.variant),
            "seat": None if self.seat == SPECTATOR else self.seat,
            "num_seats": self.num_seats,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": mask_text(self.hand),
            "legal": [str(a) for a in self.legal],
            "history": list(self.history),
            "actors": list(self.actors),
            "info": self.info.to_dict() if isinstance(self.info, Info) else dict(self.info),
            "carry": dict(self.carry),
            "result": dict(self.result) if self.result is not None else None,
            "task": task.to_dict() if task is not None else None,
        }


@dataclass
class MatchState:
    """Where a match stands between deals: totals, who deals next, what is carried over."""

    totals: list[int]
    next_dealer: int | None
    carry: dict[str, Any]
    over: bool = False
    winner: int | None = None
    draw: bool = False
    deals: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class DealState(ABC):
    """One deal in progress. Mutable: ``apply`` changes it in place; ``clone`` copies it.

    The contract (``docs/engine.md``, "The deal-state contract"): a game implements
    ``legal_actions`` and ``apply`` itself — each inlines its own hot path — plus
    ``result``, ``observation``, ``public_observation``, ``clone``, ``setup_record`` and
    ``explain_illegal``/``explain``. ``legal_actions`` caches its tuple in ``_legal`` until
    the next ``apply``; ``apply`` takes its fast path only for an :class:`Action` found in
    that tuple and hands everything else (text, a bare code, an illegal action, a deal that
    is over) to :meth:`_checked`, the one shared slow path, which returns the legal Action
    meant or raises :class:`IllegalAction` with the state unchanged; ``apply`` then appends
    the action to ``history`` and its seat to ``actors`` and clears ``_legal``.

    A small game with no hot path may subclass :class:`SimpleDeal` instead, which has
    plain ``legal_actions``/``apply`` over two hooks (the test suites' toy games do; the
    five registered games do not).

    It has no instance ``__dict__`` of its own (``__slots__ = ()``), so a game whose state
    declares ``__slots__`` gets lean, fast attribute access on the hot path.
    """

    __slots__ = ()

    game: Game
    variant: Variant
    dealer: int
    num_seats: int
    to_act: int | None
    phase: str
    history: list[Action]
    actors: list[int]
    _legal: tuple[Action, ...] | None

    action_table: ClassVar[ActionTable | None] = None
    """The game's whole action table when a bare integer code names one action of it
    (``action_table.actions[code]``); None: a code names the legal action with that code."""
    deal_over_rule: ClassVar[str | None] = None
    """The rule ID cited when an action is given after the deal is over."""
    not_an_action: ClassVar[str] = "is not an action (give an Action or its text)"
    """What :meth:`_checked` says of a value that is no action at all (after its repr)."""

    # --- the contract -------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in the conventions' order; () when over.
        Cached in ``_legal`` until the next ``apply``."""

    @abstractmethod
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its text) for the seat to act.

        Raises :class:`IllegalAction` naming the rule when it is not legal now; the state
        is then unchanged. Anything but a legal Action goes through :meth:`_checked`; the
        action is then appended to ``history``, its seat to ``actors``, and ``_legal``
        cleared.
        """

    # --- the shared slow path of apply -----------------------------------------------------
    def _checked(self, action: object, legal: tuple[Action, ...]) -> Action:
        """The legal Action that ``action`` names — its text, an Action, or a bare integer
        code — or IllegalAction saying why there is none (the deal is over, not an action,
        not legal now). ``apply`` calls it for anything but a legal Action."""
        if self.to_act is None:
            raise self._deal_over()
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not isinstance(action, Action):
            if type(action) is not int:
                raise self._not_an_action(action)
            action = self._action_of_code(action)
        for a in legal:
            if a == action:
                return a
        raise self._illegal(action)

    def _deal_over(self) -> IllegalAction:
        """The error for an action given after the deal is over."""
        rule = self.deal_over_rule
        text = "the deal is over: no action is allowed"
        return IllegalAction.because(explained("deal_over", f"{text} ({rule})" if rule else text))

    def _not_an_action(self, action: object) -> IllegalAction:
        """The error for a value that is no action at all."""
        return IllegalAction.because(
            explained("not_an_action", f"{action!r} {self.not_an_action}", action=repr(action))
        )

    def _action_of_code(self, code: int) -> Action:
        """The Action a bare int names: the action table's (when the game has one) or the
        legal action with that code."""
        table = self.action_table
        if table is not None:
            if not 0 <= code < len(table):
                raise self._not_an_action(code)
            return table.actions[code]
        for a in self.legal_actions():
            if a == code:
                return a
        raise IllegalAction.because(
            explained("no_such_code", f"no legal action has the code {code}", code=code)
        )

    def _illegal(self, action: Action) -> IllegalAction:
        """The error for an illegal ``action``: :meth:`explain_illegal`'s message with
        :meth:`explain`'s structured explanation."""
        return IllegalAction(self.explain_illegal(action), explanation=self.explain(action))

    def parse_action(self, text: str) -> Action:
        """The action that ``text`` names (any accepted spelling); IllegalAction if none."""
        try:
            return self.game.parse_action(text, self.variant)
        except ActionSyntaxError as exc:
            raise IllegalAction.because(exc.explanation) from None

    @property
    def is_over(self) -> bool:
        """True when the deal is over (no seat to act)."""
        return self.to_act is None

    def legal_texts(self) -> list[str]:
        """The legal actions' canonical texts, in order."""
        return [a.text for a in self.legal_actions()]

    def determinize(self, seat: int, rng: random.Random) -> DealState:
        """A full state consistent with what ``seat`` observes, built from its observation only."""
        return self.game.determinize(self.observation(seat), rng)

    def team_of(self, seat: int) -> int:
        """The team (partnership games: seats 0/2 → 0, 1/3 → 1) or the seat itself."""
        return seat % 2 if self.game.partnership else seat

    # --- events ---------------------------------------------------------------------
    def events(self) -> list[Event]:
        """Every event of the deal so far as the referee knows it — nothing hidden
        (:mod:`folkcards.engine.events`; for logs, replays and tests, never for a seat)."""
        return [told.full() for told in self._narrate()]

    def events_since(self, k: int) -> list[Event]:
        """``events()[k:]``: the referee's events after the first ``k``."""
        return self.events()[k:]

    def events_for(self, viewer: int, since: int = 0) -> list[Event]:
        """The events ``viewer`` (a seat, or :data:`SPECTATOR`) may see, after its first
        ``since``: hidden cards as ``None``, private steps of others left out. Built from
        nothing that the viewer's observation hides; the list only grows at its end."""
        if viewer != SPECTATOR and not (type(viewer) is int and 0 <= viewer < self.num_seats):
            raise ValueError(f"no viewer {viewer!r}: a seat 0–{self.num_seats - 1} or SPECTATOR")
        out = []
        for told in self._narrate():
            event = told.seen(viewer)
            if event is not None:
                out.append(event)
        return out[since:]

    def _narrate(self) -> list[Told]:
        """Every event so far with who may see what of it (each game replays its deal from
        :meth:`fresh` and reads what each action changed)."""
        raise NotImplementedError(f"{self.game.name} does not narrate its deals")

    def fresh(self) -> DealState:
        """A new state of this same deal before its first action (from :meth:`setup_record`)."""
        return self.game.deal_from_record(self.setup_record(), self.variant)

    # --- for subclasses -------------------------------------------------------------
    @abstractmethod
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, citing the rule ID (for errors and UIs)."""

    def explain(self, action: Action) -> Explanation:
        """Why ``action`` is not legal now, structured: a message ``code`` with its
        ``params``, the ``rules`` cited, and ``text`` — exactly :meth:`explain_illegal`'s
        line. The codes and their English templates are
        :data:`folkcards.engine.explain.MESSAGES`. Games override this (and derive
        ``explain_illegal`` from it); the default wraps ``explain_illegal``'s line under
        the code ``unexplained``."""
        return unexplained(self.explain_illegal(action))

    @abstractmethod
    def result(self) -> dict[str, JSON]:
        """The game's ``result`` object (rules file); ValueError while the deal goes on."""

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now (the rules file's information section)."""

    @abstractmethod
    def public_observation(self) -> Observation:
        """What a spectator may know now: the public facts only (the rules file's
        information section), as a viewer who holds no cards and took no private step.

        ``seat`` is :data:`SPECTATOR`, ``hand`` is empty, ``legal`` is ``()``; the history
        hides every private step and card as it is hidden from a seat that took no part
        in it, and ``phase``/``to_act`` are what such a seat sees. It never depends on a
        fact that some seat's observation lacks: a world determinized from any seat's
        observation has the same public observation.
        """

    @abstractmethod
    def clone(self) -> DealState:
        """An independent copy."""

    @abstractmethod
    def setup_record(self) -> dict[str, JSON]:
        """The record keys that set the deal up: ``dealer``, ``deck`` or ``hands``/``extra``,
        and the game's carried-over keys."""

    def record(self) -> dict[str, JSON]:
        """The deal record of everything played so far (conventions.md, "Deal record")."""
        rec: dict[str, JSON] = {
            "game": self.game.name,
            "variant": self.game.variant_diff(self.variant),
        }
        rec.update(self.setup_record())
        rec["actions"] = [a.text for a in self.history]
        return rec

    def __str__(self) -> str:
        return self.game.describe(self)

    def __copy__(self) -> DealState:
        # a shallow copy would share the hands and history lists with the original, so
        # playing on one would change the other: both copies are independent clones
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> DealState:
        # the game is a registry singleton (shared, not copied); the rest is cloned
        return self.clone()


class SimpleDeal(DealState):
    """A deal state for a small game with no hot path: it implements two hooks,
    ``_generate_legal`` (the legal actions of ``to_act``) and ``_apply`` (apply a legal,
    checked action and advance ``to_act``/``phase``), and inherits the contract's
    ``legal_actions``/``apply`` in their plain form, through the same :meth:`_checked`
    as every game (the test suites' toy games are built so)."""

    __slots__ = ()

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act (``_generate_legal``, cached)."""
        legal = self._legal
        if legal is None:
            legal = () if self.to_act is None else self._generate_legal()
            self._legal = legal  # type: ignore[misc]  # a slot (or dict entry) of the game's state
        return legal

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the seat to act (``_apply``), or raise IllegalAction."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if type(action) is not Action or action not in legal:
            action = self._checked(action, legal)
        seat = self.to_act
        self._apply(action)
        self._legal = None  # type: ignore[misc]  # a slot (or dict entry) of the game's state
        self.history.append(action)
        self.actors.append(seat)  # type: ignore[arg-type]

    @abstractmethod
    def _generate_legal(self) -> tuple[Action, ...]:
        """The legal actions of ``to_act`` (never called when the deal is over)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action (already checked) and advance ``to_act``/``phase``;
        ``apply`` records it in the history afterwards."""


class Game(ABC):
    """A card game's facts and factory: the registry holds one instance per game."""

    name: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[CardSet]
    partnership: ClassVar[bool] = True
    variant_options: ClassVar[tuple[VariantOption, ...]] = ()
    deal_keys: ClassVar[tuple[str, ...]] = ()
    """Game-defined deal-record keys (carried-over state, e.g. Sasku's ``replay``)."""
    derived_deal_keys: ClassVar[tuple[str, ...]] = ()
    """Deal keys that a deal inside a match may leave out: they are then derived from the
    deals before (Satat's ``redeals``/``passing``). Other deal keys, when absent, take their
    start-of-match value and must still agree (Sasku's ``replay``, SAS-16.3)."""
    match_keys: ClassVar[tuple[str, ...]] = ()
    """Game-defined match-record keys (e.g. Satat's ``draw``)."""
    suit_letters: ClassVar[str] = "CSHD"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # a game is a registry singleton: a pickled state refers to it by name, so an
        # unpickled state shares its game (and the game's tables) with every other state
        from folkcards.engine.registry import get

        return (get, (self.name,))

    # --- variants ---------------------------------------------------------------------
    def normalize_variant(self, raw: object) -> dict[str, Any]:
        """Every option with its value: missing keys take defaults; unknown keys are errors."""
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise MalformedRecord("'variant' must be an object")
        options = {o.key: o for o in self.variant_options}
        for key in raw:
            if key not in options:
                known = ", ".join(options) or "none"
                raise MalformedRecord(
                    f"unknown variant key {key!r} for {self.name} (known: {known})"
                )
        return {k: (o.check(raw[k]) if k in raw else o.default) for k, o in options.items()}

    def variant_diff(self, variant: Variant) -> dict[str, Any]:
        """Only the options that differ from their defaults (how records store a variant)."""
        return {o.key: variant[o.key] for o in self.variant_options if variant[o.key] != o.default}

    def num_seats(self, variant: Variant) -> int:
        """Seats at the table for this variant."""
        return 4

    def num_teams(self, variant: Variant) -> int:
        """Scoring sides: 2 in partnership games, else one per seat."""
        return 2 if self.partnership else self.num_seats(variant)

    # --- actions ----------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str, variant: Variant) -> Action:
        """The action named by ``text``, or ActionSyntaxError when it names none."""

    def all_actions(self, variant: Variant) -> tuple[Action, ...] | None:
        """Every action of the game in one fixed order, codes 0..n-1 — a finite action space
        for learning environments; None where actions are not a small finite table
        (Scopone's captures)."""
        return None

    # --- deals ------------------------------------------------------------------------
    @abstractmethod
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
        """A deal from a deck order (top card first) or from dealt hands (+ extra piles)."""

    def random_deal(
        self,
        rng: random.Random,
        variant: Variant | None = None,
        dealer: int = 0,
        carry: Mapping[str, Any] | None = None,
    ) -> DealState:
        """A new deal from a deck shuffled by ``rng``."""
        v = self.normalize_variant(variant or {})
        deck = list(iter_cards(self.deck))
        rng.shuffle(deck)
        return self.new_deal(v, dealer, deck, carry=carry)

    def normalize_carry(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """The game-defined deal keys of a record, validated, with absent ones at their
        start-of-match values. Games with such keys override this."""
        return {}

    @abstractmethod
    def determinize(self, obs: Observation, rng: random.Random) -> DealState:
        """A full deal state consistent with ``obs`` (sampled hidden cards), from ``obs`` only."""

    def determinize_hands(self, obs: Observation, rng: random.Random) -> list[CardSet] | None:
        """The hands now (a card mask per seat) of a deal drawn as :meth:`determinize`
        draws it, with the same distribution, where the game can draw them without building
        the deal: a batched search of card play needs only the hands of its sampled deals
        beside one whole deal (``GameKernel.encode_hands``). None (here, and where a game
        cannot) means: use :meth:`determinize`."""
        return None

    def describe(self, state: DealState) -> str:
        """A short text picture of a state (used by ``str(state)``)."""
        return f"{self.title} · phase {state.phase} · to act {state.to_act}"

    def task(self, obs: Observation) -> Task | None:
        """The decision ``obs``'s seat faces (called only when that seat is to act), built
        from ``obs`` alone (:mod:`folkcards.engine.task`); None where the game says none."""
        return None

    # --- the game card ----------------------------------------------------------------
    def card(self, variant: Mapping[str, Any] | None = None) -> GameCard:
        """This game's facts for clients (:class:`~folkcards.engine.card.GameCard`) under
        ``variant`` (default: the default variant): seats and sides, direction, pack,
        phases, score bounds and scale, how to sort a hand, what a table shows."""
        raise NotImplementedError(f"{self.name} has no game card")

    # --- card conservation (the self-check) --------------------------------------------
    def cards_aside(self, view: CardView) -> tuple[CardSet, int] | None:
        """Where the cards neither in a hand nor played are at this point, from what the
        seats' observations show (:mod:`folkcards.engine.conservation`): ``(known,
        hidden)`` — the set the observations account for (buried, on the table, in
        transit…) and how many more no seat sees (undealt, a face-down widow) — or None
        for no constraint. The self-check requires exactly these cards out of hand and
        unplayed; a game that does not say gets its generic card checks only."""
        return None

    # --- matches ----------------------------------------------------------------------
    def new_match_keys(self, variant: Variant, rng: random.Random) -> dict[str, Any]:
        """Match-level keys for a new match, drawn with ``rng`` (e.g. Satat's first-dealer draw)."""
        return {}

    def check_match_keys(self, record: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """Validate the game's match-level keys; returns them normalized."""
        return {}

    @abstractmethod
    def start_match(self, variant: Variant, match_keys: Mapping[str, Any]) -> MatchState:
        """The match state before its first deal."""

    @abstractmethod
    def after_deal(self, match: MatchState, deal: DealState) -> MatchState:
        """The match state after a finished deal: totals, next dealer, carry, end, winner."""

    def match_result(self, match: MatchState) -> dict[str, JSON]:
        """The keys a match adds to a deal's result (conventions.md)."""
        return {
            "totals": list(match.totals),
            "match_over": match.over,
            "winner": match.winner,
            "draw": match.draw,
        }

    # --- shared record helpers ----------------------------------------------------------
    def read_cards(self, value: object, what: str) -> list[Card]:
        """A list of card texts of this game's deck, as card numbers (MalformedRecord if not)."""
        if not isinstance(value, list):
            raise MalformedRecord(f"'{what}' must be a list of cards")
        out = []
        for item in value:
            if not isinstance(item, str):
                raise MalformedRecord(f"'{what}' holds {json_repr(item)}, which is not a card")
            try:
                out.append(parse_card(item, self.deck))
            except CardError as exc:
                raise MalformedRecord(f"'{what}': {exc}") from None
        if len(set(out)) != len(out):
            dup = next(c for c in out if out.count(c) > 1)
            raise MalformedRecord(f"'{what}' holds {CARD_NAMES[dup]} twice")
        return out

    def read_dealer(self, record: Mapping[str, Any], variant: Variant) -> int:
        """The record's ``dealer``: a JSON integer seat."""
        n = self.num_seats(variant)
        dealer = record.get("dealer")
        if type(dealer) is not int or not 0 <= dealer < n:
            raise MalformedRecord(f"'dealer' must be an integer seat 0–{n - 1}")
        return dealer

    def read_full_deck(self, value: object) -> list[Card]:
        """The record's ``deck``: every card of the game's pack exactly once."""
        cards = self.read_cards(value, "deck")
        if sum(1 << c for c in cards) != self.deck or len(cards) != self.deck.bit_count():
            raise MalformedRecord(
                f"'deck' must hold the {self.deck.bit_count()} cards of the {self.title} pack, "
                f"each once (it holds {len(cards)})"
            )
        return cards

    def deal_from_record(self, record: Mapping[str, Any], variant: Variant) -> DealState:
        """The initial state of a deal record (no actions applied), validated."""
        dealer = self.read_dealer(record, variant)
        carry = self.normalize_carry(record, variant)
        has_deck, has_hands = "deck" in record, "hands" in record
        if has_deck == has_hands:
            raise MalformedRecord("a deal record needs exactly one of 'deck' or 'hands'")
        if "extra" in record and not has_hands:
            raise MalformedRecord("'extra' is allowed only with 'hands'")
        if has_deck:
            return self.new_deal(variant, dealer, self.read_full_deck(record["deck"]), carry=carry)
        hands_raw = record["hands"]
        n = self.num_seats(variant)
        if not isinstance(hands_raw, list) or len(hands_raw) != n:
            raise MalformedRecord(f"'hands' must be a list of {n} hands")
        hands = [self.read_cards(h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
        extra_raw = record.get("extra", {})
        if not isinstance(extra_raw, dict):
            raise MalformedRecord("'extra' must be an object of card lists")
        extra = {k: self.read_cards(v, f"extra.{k}") for k, v in extra_raw.items()}
        seen = [c for h in hands for c in h] + [c for pile in extra.values() for c in pile]
        if len(set(seen)) != len(seen):
            dup = next(c for c in seen if seen.count(c) > 1)
            raise MalformedRecord(f"{CARD_NAMES[dup]} is dealt twice")
        if sum(1 << c for c in seen) != self.deck:
            raise MalformedRecord(f"'hands' and 'extra' together must be the {self.title} pack")
        return self.new_deal(variant, dealer, None, hands=hands, extra=extra, carry=carry)
