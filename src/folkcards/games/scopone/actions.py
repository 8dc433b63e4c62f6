"""Scopone's one kind of action, ``play C`` or ``play C take X Y …`` (SCO-4.5, SCO-4.6).

A card may take any set of table cards, so the actions are no small fixed table: each is
a :class:`Play` (an :class:`~folkcards.engine.Action`, i.e. an ``int``) with a stable code
that sorts like the ``legal`` list must (SCO-4.5). :func:`parse_play` reads the text in
any accepted spelling (SCO-4.6). The interned Plays themselves — one object per (card,
take), with what ``apply`` needs precomputed — come from :func:`.fast.action_for`.
"""

from __future__ import annotations

from folkcards.cards import (
    BIT,
    CARD_NAMES,
    DECK_40,
    Card,
    CardError,
    CardSet,
    cards_list,
    mask_text,
    parse_card,
)
from folkcards.engine.actions import Action, ActionSyntaxError, canonical_tokens

_N = 52  # card numbers 0..51: take sets are subsets of these


class Play(Action):
    """A Scopone action: ``play C`` (``take`` = 0) or ``play C take …`` (SCO-4.5).

    The integer code is ``(card << 52 | lexrank(take)) << 16 | salt``: :func:`lexrank`
    numbers the take sets in the lexicographic order of their card sequences (0 for no
    take), so sorting codes numerically gives exactly the order of ``legal`` (SCO-4.5) and
    every action has one stable code; ``salt`` is 16 bits of a fixed hash of (card, take)
    that never changes the order but gives the codes well-spread low bits (Python hashes an
    int by its value, and structured low bits make dicts keyed by actions probe long).

    ``bit``, ``won``, ``dv`` and ``fx`` are what ``apply`` reads, set once by
    :func:`.fast.action_for` when the Play is interned.
    """

    card: Card
    take: CardSet
    bit: CardSet  # the played card as a set
    won: CardSet  # take | bit: what a capture adds to the team pile (SCO-4.4)
    dv: int  # change of the table's value key when this is played
    fx: tuple[CardSet, CardSet, CardSet, int]  # (take, bit, won, dv) in one attribute load
    _text: str

    def __new__(cls, code: int, text: str | None = None) -> Play:
        obj = int.__new__(cls, code)
        if text is not None:  # unpickling (Action.__getnewargs__)
            obj._text = text
        return obj

    @property
    def text(self) -> str:
        """The canonical text (SCO-4.5), built on first use: most actions of a playout are
        never printed."""
        try:
            return self._text
        except AttributeError:
            self._text = play_text(self.card, self.take)
            return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value


def play_text(c: Card, take: CardSet) -> str:
    """SCO-4.5: ``play C``, or ``play C take X1 X2 …`` with the take list in card order."""
    if take:
        return f"play {CARD_NAMES[c]} take {' '.join(mask_text(take))}"
    return f"play {CARD_NAMES[c]}"


def lexrank(take: CardSet) -> int:
    """1 + the rank of a non-empty card set among all card sets in lexicographic sequence
    order (prefix first); 0 for the empty set. Strictly increasing along that order."""
    if not take:
        return 0
    cards = cards_list(take)
    k = len(cards)
    r = (1 << _N) + (k - 1) - (1 << (_N - cards[-1]))
    for s in cards[:-1]:
        r -= 1 << (_N - 1 - s)
    return r + 1


def play_code(c: Card, take: CardSet) -> int:
    """The code of ``play c take …`` (see :class:`Play`)."""
    salt = ((c | take << 6) * 0x9E3779B97F4A7C15 >> 40) & 0xFFFF
    return (c << _N | lexrank(take)) << 16 | salt


def parse_play(text: str) -> tuple[Card, CardSet | None]:
    """Read ``play C`` / ``play C take X …`` (SCO-4.6): the card and the take set.

    The take set is ``None`` when no ``take`` is given. Raises ActionSyntaxError naming
    what is wrong; whether the play is legal now is not asked here.
    """
    try:
        toks = canonical_tokens(text, DECK_40)
    except ActionSyntaxError as exc:
        raise exc.cited(" (SCO-4.6)") from None
    given = {"action": text.strip()}
    if toks[0] != "play" or len(toks) < 2 or (len(toks) > 2 and toks[2] != "take"):
        raise ActionSyntaxError(
            f"{text.strip()!r}: expected 'play CARD' or 'play CARD take CARD …' (SCO-4.6)",
            "bad_play_syntax",
            given,
        )
    cards: list[Card] = []
    for tok in [toks[1], *toks[3:]]:
        try:
            cards.append(parse_card(tok, DECK_40))
        except CardError:
            raise ActionSyntaxError(
                f"{text.strip()!r}: {tok!r} is not a Scopone card (SCO-1.1, SCO-4.6)",
                "not_a_card",
                {**given, "token": tok},
            ) from None
    if len(toks) == 2:
        return cards[0], None
    return cards[0], _take_set(text.strip(), cards[0], cards[1:], given)


def _take_set(text: str, played: Card, take: list[Card], given: dict[str, str]) -> CardSet:
    """SCO-4.6: the take list as a set — not empty, no card twice, not the played card."""
    if not take:
        raise ActionSyntaxError(f"{text!r}: 'take' names no card (SCO-4.6)", "empty_take", given)
    mask = 0
    for t in take:
        if mask >> t & 1:
            raise ActionSyntaxError(
                f"{text!r}: {CARD_NAMES[t]} is named twice in the take list (SCO-4.6)",
                "take_twice",
                {**given, "card": CARD_NAMES[t]},
            )
        mask |= BIT[t]
    if mask >> played & 1:
        raise ActionSyntaxError(
            f"{text!r}: {CARD_NAMES[played]} cannot take itself (SCO-4.6)",
            "take_itself",
            {**given, "card": CARD_NAMES[played]},
        )
    return mask
