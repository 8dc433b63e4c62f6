"""Presentation: card colours, suit words, names of phases, and the game card's facts.

Every per-game fact comes from the game's own card (``Game.card(variant)``,
:class:`~folkcards.engine.card.GameCard`): the pack, the hand's display order, whether the
deal is played in tricks, the ``info`` keys a table leaves out, the action taken when a
person says nothing. The engine stays the referee. A game without a card (one that lands
later, a test's toy) is still shown, with the conventions' card order and its phase names
as given by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from folkcards.cards import CARD_NAMES, SUITS, Card, CardSet, iter_cards, suit_of
from folkcards.engine.api import Observation
from folkcards.engine.card import NO_TRUMP, GameCard
from folkcards.tui import i18n

SUIT_STYLE = {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red"}
SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_NAME = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
"""English suit names, for reading the engine's English explanations."""

ASCII_ONLY = False
"""True when the terminal cannot show symbols (``PYTHONIOENCODING=ascii``): suits are
then named by letter and word, never by symbol (set once by the session)."""


def suit_words(game: str, suit: str) -> str:
    """A suit for a person: 'hearts ♥' (an Italian pack's: 'cups', no symbol), «دل ♥» in
    Persian; no symbol on ASCII terminals."""
    name = i18n.suit_name(game, suit)
    if ASCII_ONLY or pack(game) != "french":
        return name
    return f"{name} {SUIT_SYMBOL.get(suit, '')}".rstrip()


SEAT_KEYS = frozenset(
    {
        "declarer",
        "bidder",
        "picker",
        "partner",
        "leader",
        "cutter",
        "eldest",
        "last_capture",
        "trump_maker",
        "dealer",
        "asker",
        "winner",
        "giver",
        "returner",
        "next_dealer",
        "high_bidder",
        "announced",
    }
)
"""``info`` keys whose integer value is a seat (drawn as the seat's name)."""

TEAM_KEYS = frozenset({"won_by", "declarer_team", "settebello", "re_bello", "capotto"})
"""Result keys whose integer value is a team (a seat in games scored per seat)."""

SEAT_LIST_KEYS = frozenset({"passed", "leaster_winners", "passes"})
"""``info`` keys whose value is a list of seats."""

_CARDS: dict[tuple[Any, tuple[tuple[str, Any], ...]], GameCard] = {}


def game_card(game: str, variant: Mapping[str, Any] | None = None) -> GameCard | None:
    """The engine's card of ``game`` (``Game.card(variant)``), or None where it has none
    (cached per game and variant: the table asks for it on every redraw)."""
    from folkcards.games import GAMES

    g = GAMES.get(game)
    if g is None:
        return None
    try:
        v = g.normalize_variant(dict(variant or {}))
        key = (g, tuple(sorted(v.items())))
        hash(key)
    except (TypeError, ValueError):  # a variant the game refuses, or one not to be keyed
        key = None
    found = _CARDS.get(key) if key is not None else None
    if found is None:
        try:
            found = g.card(g.normalize_variant(dict(variant or {})))
        except (NotImplementedError, TypeError, ValueError):  # no card (yet)
            return None
        if key is not None:
            _CARDS[key] = found
    return found


def _card_of(obs: Observation) -> GameCard | None:
    return game_card(obs.game, obs.variant)


def pack(game: str) -> str:
    """The game's pack (``french``, ``italian``): a game without a card uses the French."""
    gc = game_card(game)
    return gc.pack if gc is not None else "french"


def takes_tricks(game: str, variant: Mapping[str, Any] | None = None) -> bool:
    """Whether the game's cards are played in tricks (the card's ``tricks``; Scopone's go
    to a table instead). A game without a card is taken to play tricks."""
    gc = game_card(game, variant)
    return gc.tricks if gc is not None else True


def hidden_keys(obs: Observation) -> frozenset[str]:
    """The ``info`` keys the table leaves out (the card's ``hidden_keys``: shown another
    way, or bookkeeping)."""
    gc = _card_of(obs)
    return frozenset(gc.hidden_keys) if gc is not None else frozenset()


def default_action(obs: Observation) -> str | None:
    """The action a person may take by pressing Enter in this phase (the card's
    ``default_actions``: what the rules do "when the cutter says nothing"), or None."""
    gc = _card_of(obs)
    return gc.default_actions.get(obs.phase) if gc is not None else None


def phase_cards(obs: Observation) -> Mapping[str, int]:
    """Phase → how many cards a seat hands over in it, one per action (the card's)."""
    gc = _card_of(obs)
    return gc.phase_cards if gc is not None else {}


def choice_notes(obs: Observation) -> tuple[str, ...]:
    """The choices of the game that get a one-line note while on offer (the card's)."""
    gc = _card_of(obs)
    return gc.choice_notes if gc is not None else ()


def points_key(obs: Observation) -> str:
    """The ``info`` key of the card points each side has taken (the card's, else
    ``points``)."""
    gc = _card_of(obs)
    return gc.points_key if gc is not None and gc.points_key else "points"


def card_style(c: Card) -> str:
    """The rich style of a card: red suits red."""
    return SUIT_STYLE[SUITS[suit_of(c)]]


def card_label(c: Card) -> str:
    """A card as a person types it: its canonical text (``TH``)."""
    return CARD_NAMES[c]


def phase_title(game: str, phase: str) -> str:
    """A readable name of a phase: the terminal's title of the game's phase
    (``terminal.phases``), else the tables' name of the phase (``phases``)."""
    found = i18n.maybe(f"terminal.phases.{game}.{phase}")
    if found is None and i18n.lang() != i18n.LANGS[0]:
        found = i18n.maybe(f"phases.{phase}")
    return found if found is not None else phase.replace("_", " ").capitalize()


def short_phase(game: str, phase: str) -> str:
    """The phase's name in a word or two ('Trick play', 'Bidding')."""
    return phase_title(game, phase).split(":")[0].split(" (")[0]


def score_unit(game: str) -> str:
    """What the match score counts in this game."""
    return i18n.maybe(f"terminal.units.{game}") or i18n.t("terminal.units.points")


def match_goal(game: str, variant: Mapping[str, Any]) -> str:
    """One line saying how the match ends (the game's own rule): the game's line of the
    catalogs (``terminal.goals.<game>``) with the card's ``match_deals`` or ``match_target``
    (``…_unlimited`` where it has neither), else the catalogs' line for any game."""
    gc = game_card(game, variant)
    key = f"terminal.goals.{game}"
    if gc is not None and i18n.maybe(key) is not None:
        if gc.match_deals is not None:
            return i18n.t(key, deals=gc.match_deals)
        if gc.match_target is not None:
            return i18n.t(key, target=gc.match_target)
        if i18n.maybe(key + "_unlimited") is not None:
            return i18n.t(key + "_unlimited")
    return i18n.t("terminal.goals.other")


def trump_suit(obs: Observation) -> str | None:
    """The trump suit letter as this seat knows it, when the observation states one."""
    for key in ("trump", "trump_suit"):
        value = obs.info.get(key)
        if isinstance(value, str) and value in SUITS:
            return value
    return None


def hand_order(
    game: str, cards: CardSet, trump: str | None, variant: Mapping[str, Any] | None = None
) -> list[Card]:
    """The cards in the game's own rank order: trumps first (highest first), then each
    suit — the game card's ``sort_hand``; a game without a card in card order."""
    gc = game_card(game, variant)
    return gc.sort_hand(cards, trump) if gc is not None else list(iter_cards(cards))


def group_of(
    game: str, trump: str | None, variant: Mapping[str, Any] | None = None
) -> Callable[[Card], Any]:
    """Which display group a card is in (the trump group, or its suit), to space a hand."""
    gc = game_card(game, variant)
    if gc is None:
        return suit_of
    groups = gc.trump_groups
    top = set(groups.get(trump if trump is not None and trump in groups else NO_TRUMP, ()))
    return lambda c: -1 if c in top else suit_of(c)


def trick_winner(
    game: str,
    plays: list[tuple[int, Card]],
    trump: str | None,
    variant: Mapping[str, Any] | None = None,
) -> int | None:
    """The seat that wins a complete trick, read from the game card's orders (for display
    only, where the observation does not say: the last trick of a deal): the highest card
    of the trump group (``trump_groups``) played, else the highest of the suit led
    (``suit_ranks``). A card that beats trumps from outside the trump group (Satat's 2H)
    is not on the card: Satat's observation names each trick's winner (``won``)."""
    gc = game_card(game, variant)
    if gc is None or not plays:
        return None
    groups = gc.trump_groups
    group = groups.get(trump if trump is not None and trump in groups else NO_TRUMP, ())
    high = {c: i for i, c in enumerate(group)}
    trumps = [(high[c], seat) for seat, c in plays if c in high]
    if trumps:
        return min(trumps)[1]
    led = suit_of(plays[0][1])
    ranks = {c: i for i, c in enumerate(gc.suit_ranks.get(SUITS[led], ()))}
    follow = [(ranks[c], seat) for seat, c in plays if suit_of(c) == led and c in ranks]
    return min(follow)[1] if follow else None
