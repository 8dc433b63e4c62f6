"""Per-game presentation: card colours, each game's own rank order, names of phases.

Everything here is a reading of the rules files for display only; the engine stays the
referee. A game without an entry here (one that lands later) is still shown, with the
conventions' card order and its phase names as given by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from folkcards.cards import (
    CARD_NAMES,
    RANKS,
    SUITS,
    Card,
    CardSet,
    card,
    iter_cards,
    rank_of,
    suit_of,
)
from folkcards.engine.api import Observation
from folkcards.tui import i18n

SUIT_STYLE = {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red"}
SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_NAME = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
"""English suit names, for reading the engine's English explanations."""

ASCII_ONLY = False
"""True when the terminal cannot show symbols (``PYTHONIOENCODING=ascii``): suits are
then named by letter and word, never by symbol (set once by the session)."""


def suit_words(game: str, suit: str) -> str:
    """A suit for a person: 'hearts ♥' (Scopone: 'cups'), «دل ♥» in Persian; no symbol on
    ASCII terminals."""
    name = i18n.suit_name(game, suit)
    if ASCII_ONLY or game == "scopone":
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

HIDDEN_INFO: dict[str, frozenset[str]] = {
    "sasku": frozenset({"cutter", "eldest", "leader", "tricks_played"}),
    "sheepshead": frozenset({"leader", "trick_number"}),
    "scopone": frozenset({"turn", "initial_table"}),
    "satat": frozenset({"leader", "won", "trump_known"}),
    "huutopussi": frozenset(
        {"players", "leader", "tricks_played", "given_count", "returned_count", "discard_count"}
    ),
}
"""``info`` keys the table leaves out (shown another way, or bookkeeping)."""


def hidden_info(game: str) -> frozenset[str]:
    """The ``info`` keys not drawn for ``game``."""
    return HIDDEN_INFO.get(game, frozenset())


DEFAULT_ACTION = {("sasku", "cut"): "deal threes"}
"""Actions a person may take by pressing Enter (the rules' "when the cutter says nothing")."""


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
    """One line saying how the match ends (the game's own rule)."""
    if game == "sasku":
        return i18n.t("terminal.goals.sasku", target=variant.get("target", 16))
    if game == "scopone":
        return i18n.t("terminal.goals.scopone", target=variant.get("target", 11))
    if game == "sheepshead":
        return i18n.t("terminal.goals.sheepshead", deals=variant.get("match_deals", 5))
    if game == "satat":
        target = variant.get("match_target", 0)
        if target:
            return i18n.t("terminal.goals.satat", target=target)
        return i18n.t("terminal.goals.satat_unlimited")
    if game == "huutopussi":
        return i18n.t("terminal.goals.huutopussi")
    return i18n.t("terminal.goals.other")


def trump_suit(obs: Observation) -> str | None:
    """The trump suit letter as this seat knows it, when the observation states one."""
    for key in ("trump", "trump_suit"):
        value = obs.info.get(key)
        if isinstance(value, str) and value in SUITS:
            return value
    return None


def _sasku_key(trump: str | None) -> Callable[[Card], tuple[int, int]]:
    pictures = [card(r, s) for r in "KQJ" for s in SUITS]
    order: list[Card] = []
    if trump is not None:
        order.append(card("6", trump))
    order += pictures
    if trump is not None:
        order += [card(r, trump) for r in "AT987"]
    pos = {c: i for i, c in enumerate(order)}
    plain = "AT9876"

    def key(c: Card) -> tuple[int, int]:
        if c in pos:
            return (0, pos[c])
        return (1 + suit_of(c), plain.index(RANKS[rank_of(c)]))

    return key


def _sheepshead_key(_trump: str | None) -> Callable[[Card], tuple[int, int]]:
    trumps = [card(r, s) for r in "QJ" for s in SUITS] + [card(r, "D") for r in "ATK987"]
    pos = {c: i for i, c in enumerate(trumps)}
    plain = "ATK987"

    def key(c: Card) -> tuple[int, int]:
        if c in pos:
            return (0, pos[c])
        return (1 + suit_of(c), plain.index(RANKS[rank_of(c)]))

    return key


def _suit_first_key(plain: str, top: Card | None = None) -> Callable[[str | None], Any]:
    def make(trump: str | None) -> Callable[[Card], tuple[int, int]]:
        def key(c: Card) -> tuple[int, int]:
            if top is not None and c == top:
                return (-1, 0)
            s = SUITS[suit_of(c)]
            group = 0 if s == trump else 1 + suit_of(c)
            return (group, plain.index(RANKS[rank_of(c)]))

        return key

    return make


RANK_KEYS: dict[str, Callable[[str | None], Callable[[Card], Any]]] = {
    "sasku": _sasku_key,
    "sheepshead": _sheepshead_key,
    "huutopussi": _suit_first_key("ATKQJ9876"),
    "satat": _suit_first_key("AKQJT98765432", top=card("2", "H")),
    "scopone": _suit_first_key("KQJ765432A"),
}


def hand_order(
    game: str, cards: CardSet, trump: str | None, variant: Mapping[str, Any] | None = None
) -> list[Card]:
    """The cards in the game's own rank order: trumps first (highest first), then each suit.

    The game's own card (``Game.card(variant).sort_hand``) decides when the engine offers
    one; until then the local reading of each rules file below does."""
    engine = _engine_sort(game, cards, trump, variant)
    if engine is not None:
        return engine
    make = RANK_KEYS.get(game)
    listed = list(iter_cards(cards))
    if make is None:
        return listed
    return sorted(listed, key=make(trump))


def game_card(game: str, variant: Mapping[str, Any] | None = None) -> Any | None:
    """The engine's card of ``game`` (``Game.card(variant)``), or None where it has none."""
    from folkcards.games import GAMES

    g = GAMES.get(game)
    make_card = getattr(g, "card", None)
    if g is None or not callable(make_card):
        return None
    try:
        return make_card(g.normalize_variant(dict(variant or {})))
    except (NotImplementedError, TypeError, ValueError):
        return None


def _engine_sort(
    game: str, cards: CardSet, trump: str | None, variant: Mapping[str, Any] | None
) -> list[Card] | None:
    """``Game.card(variant).sort_hand(cards, trump)`` when the game has a card, else None."""
    gc = game_card(game, variant)
    sort = getattr(gc, "sort_hand", None)
    if not callable(sort):
        return None
    try:
        out = list(sort(cards, trump))
    except (TypeError, ValueError):  # a card of another shape: keep the local order
        return None
    if all(isinstance(c, int) for c in out) and sum(1 << c for c in out) == cards:
        return out
    return None


def group_of(
    game: str, trump: str | None, variant: Mapping[str, Any] | None = None
) -> Callable[[Card], Any]:
    """Which display group a card is in (the trump group, or its suit), to space a hand."""
    gc = game_card(game, variant)
    groups = getattr(gc, "trump_groups", None)
    if isinstance(groups, Mapping):
        top = set(groups.get(trump if trump in groups else "none", ()))
        return lambda c: -1 if c in top else suit_of(c)
    key = card_rank_key(game, trump)
    if key is not None:
        k = key
        return lambda c: k(c)[0]
    return suit_of


def card_rank_key(game: str, trump: str | None) -> Callable[[Card], Any] | None:
    """The sort key of ``hand_order`` (lower = stronger, trumps grouped first)."""
    make = RANK_KEYS.get(game)
    return make(trump) if make is not None else None


def trick_winner(game: str, plays: list[tuple[int, Card]], trump: str | None) -> int | None:
    """The seat that wins a complete trick, read from the rank orders above (for display
    only, where the observation does not say: the last trick of a deal)."""
    key = card_rank_key(game, trump)
    if key is None or not plays:
        return None
    keyed = [(seat, key(c)) for seat, c in plays]
    trumps = [(seat, k) for seat, k in keyed if k[0] <= 0]  # group 0 trumps, -1 the 2H
    if trumps:
        return min(trumps, key=lambda sk: sk[1])[0]
    led = keyed[0][1][0]
    return min((sk for sk in keyed if sk[1][0] == led), key=lambda sk: sk[1])[0]
