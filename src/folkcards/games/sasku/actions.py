"""Sasku's action space: every action text, its code, kind and argument (SAS-20.3, SAS-21.2).

The 124 actions form one :class:`~folkcards.engine.actions.ActionTable` (:data:`ACTIONS`)
whose codes follow the conventions' sort order, so a list of codes in numeric order is a
``legal`` list in the order ``replay`` prints. ``KIND[code]`` and ``ARG[code]`` say what
an action is without reading its text; :func:`parse_action` reads text, with a message
that names the rule when the text names no action.
"""

from __future__ import annotations

from folkcards.cards import CARD_NAMES, CARD_NUMBERS, SUITS, Card, cards_list
from folkcards.engine.actions import Action, ActionSyntaxError, ActionTable, canonical_tokens

from .rules import DEAL_METHODS, DECK, PICTURES, SUIT_CARDS

PICTURE_LIST: list[Card] = cards_list(PICTURES)
SUIT_CARD_LIST: list[Card] = cards_list(SUIT_CARDS)
DECK_LIST: list[Card] = cards_list(DECK)
"""The 36 cards in card order."""

ACTIONS = ActionTable(
    [f"deal {m}" for m in DEAL_METHODS[:4]]
    + [f"deal to {CARD_NAMES[c]}" for c in DECK_LIST]
    + [f"give {CARD_NAMES[c]}" for c in PICTURE_LIST]
    + ["keep"]
    + [f"return {CARD_NAMES[c]}" for c in SUIT_CARD_LIST]
    + [f"bid {n}" for n in range(5, 10)]
    + ["pass", "diamonds"]
    + [f"trump {s}" for s in SUITS]
    + [f"play {CARD_NAMES[c]}" for c in DECK_LIST],
    DECK,
)
"""Every Sasku action, coded in the conventions' sort order."""

# Action kinds, and each code's kind and argument (method index, card, number or suit).
K_DEAL, K_GIVE, K_KEEP, K_RETURN, K_BID, K_PASS, K_DIAMONDS, K_TRUMP, K_PLAY = range(9)
_KIND_OF_VERB = {
    "deal": K_DEAL,
    "give": K_GIVE,
    "keep": K_KEEP,
    "return": K_RETURN,
    "bid": K_BID,
    "pass": K_PASS,
    "diamonds": K_DIAMONDS,
    "trump": K_TRUMP,
    "play": K_PLAY,
}


def _kind_and_arg(text: str) -> tuple[int, int]:
    words = text.split(" ")
    kind = _KIND_OF_VERB[words[0]]
    if kind == K_DEAL:
        if words[1] == "to":
            return kind, 100 + CARD_NUMBERS[words[2]]
        return kind, DEAL_METHODS.index(words[1])
    if kind in (K_GIVE, K_RETURN, K_PLAY):
        return kind, CARD_NUMBERS[words[1]]
    if kind == K_BID:
        return kind, int(words[1])
    if kind == K_TRUMP:
        return kind, SUITS.index(words[1])
    return kind, -1


_KA = [_kind_and_arg(a.text) for a in ACTIONS.actions]
KIND: tuple[int, ...] = tuple(k for k, _ in _KA)
"""``KIND[code]``: the action's kind (``K_DEAL`` … ``K_PLAY``)."""
ARG: tuple[int, ...] = tuple(a for _, a in _KA)
"""``ARG[code]``: a card, bid, suit, or dealing method (``100 + X`` for ``deal to X``)."""

DEAL_ACTIONS: tuple[Action, ...] = tuple(a for a in ACTIONS.actions if KIND[a] == K_DEAL)
"""The cutter's 40 choices (SAS-6.2)."""
KEEP = ACTIONS["keep"]
PASS = ACTIONS["pass"]
DIAMONDS = ACTIONS["diamonds"]
GIVE: dict[Card, Action] = {c: ACTIONS[f"give {CARD_NAMES[c]}"] for c in PICTURE_LIST}
RETURN: dict[Card, Action] = {c: ACTIONS[f"return {CARD_NAMES[c]}"] for c in SUIT_CARD_LIST}
BID: dict[int, Action] = {n: ACTIONS[f"bid {n}"] for n in range(5, 10)}
TRUMP_IN_ORDER: tuple[Action, ...] = tuple(sorted(ACTIONS[f"trump {s}"] for s in SUITS))
"""``trump C``, ``trump D``, ``trump H``, ``trump S``: the conventions' order (SAS-21.2)."""
PLAY: dict[Card, Action] = {c: ACTIONS[f"play {CARD_NAMES[c]}"] for c in DECK_LIST}


def parse_action(text: str) -> Action:
    """The action ``text`` names (SAS-20.3), with a specific message when it names none."""
    try:
        return ACTIONS.parse(text)
    except ActionSyntaxError:
        pass
    tokens = canonical_tokens(text, DECK)  # raises for a card outside the deck (SAS-20.2)
    verb, args = tokens[0], tokens[1:]
    if verb == "give" and len(args) == 1 and args[0] in CARD_NAMES:
        raise ActionSyntaxError(
            f"{args[0]} is not a picture: only a lone K, Q or J is given (SAS-7.3)",
            "give_not_picture",
            {"card": args[0]},
        )
    if verb == "return" and len(args) == 1 and args[0] in CARD_NAMES:
        raise ActionSyntaxError(
            f"{args[0]} is a picture: only a suit card is returned (SAS-7.4)",
            "return_picture",
            {"card": args[0]},
        )
    if verb == "bid" and len(args) == 1 and args[0].isdigit():
        raise ActionSyntaxError(
            f"bids are 5 to 9, not {args[0]} (SAS-8.4)",
            "bid_out_of_range",
            {"bid": int(args[0]), "minimum": 5, "maximum": 9},
        )
    if verb == "deal":
        raise ActionSyntaxError(
            "the dealing choices are 'deal threes|ones|nines|cover' and 'deal to X' (SAS-6.2)",
            "bad_deal_choice",
        )
    if verb == "trump":
        raise ActionSyntaxError(
            "'trump' takes a suit letter C, S, H or D (SAS-9.1)", "bad_trump_suit"
        )
    raise ActionSyntaxError(
        f"{text.strip()!r} is not a Sasku action (SAS-20.3)",
        "not_an_action",
        {"action": text.strip()},
    )
