"""The shared trick machinery: follow/trump/beat obligations and trick winners."""

from __future__ import annotations

from folkcards.cards import DECK_36, DECK_52, parse_card, to_mask
from folkcards.engine.tricks import TrumpConfig


def cards(*names: str) -> list[int]:
    return [parse_card(n) for n in names]


def mask(*names: str) -> int:
    return to_mask(cards(*names))


PLAIN = [0, 4, 5, 6, 7, 8]  # A T 9 8 7 6
HEARTS = TrumpConfig(
    DECK_36,
    cards("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"),
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
)
NO_TRUMP = TrumpConfig(DECK_36, [], [0, 1, 2, 3, 4, 5, 6, 7, 8])


def test_winner_is_highest_trump_else_highest_of_led_suit() -> None:
    assert HEARTS.winner(cards("AC", "6H", "KC", "AS")) == 1
    assert HEARTS.winner(cards("9C", "AS", "KC", "6C")) == 2
    assert NO_TRUMP.winner(cards("6D", "AH", "AS", "7D")) == 3


def test_follow_suit_then_trump_then_anything() -> None:
    led, win = parse_card("9C"), parse_card("9C")
    both = dict(must_trump=True, must_beat=False)
    assert HEARTS.follow(mask("6C", "AH", "AS"), led, win, **both) == mask("6C")
    assert HEARTS.follow(mask("6H", "AS"), led, win, **both) == mask("6H")
    assert HEARTS.follow(mask("AS", "6D"), led, win, **both) == mask("AS", "6D")
    assert HEARTS.follow(mask("6H", "AS"), led, win, must_trump=False, must_beat=False) == mask(
        "6H", "AS"
    )


def test_must_beat_keeps_only_beating_cards_when_there_are_some() -> None:
    led, win = parse_card("9C"), parse_card("TC")
    assert HEARTS.follow(mask("AC", "6C"), led, win, must_trump=True, must_beat=True) == mask("AC")
    assert HEARTS.follow(mask("7C", "6C"), led, win, must_trump=True, must_beat=True) == mask(
        "7C", "6C"
    )
    # The trick was trumped: a follower of the led suit may play any card of that suit.
    assert HEARTS.follow(
        mask("AC", "6C"), led, parse_card("6H"), must_trump=True, must_beat=True
    ) == mask("AC", "6C")


def test_free_cards_are_never_forced_and_always_allowed() -> None:
    cfg = TrumpConfig(DECK_52, cards("AS", "KS"), list(range(13)), supreme=parse_card("2H"))
    led = parse_card("9C")
    hand = mask("2H", "5C")
    assert cfg.follow(hand, led, led, must_trump=True, must_beat=False, free=mask("2H")) == hand
    assert cfg.follow(
        mask("2H"), led, led, must_trump=True, must_beat=False, free=mask("2H")
    ) == mask("2H")
    assert cfg.winner(cards("AS", "2H", "KS", "AC")) == 1


def test_follower_closure_agrees_with_follow_everywhere() -> None:
    import random

    rng = random.Random(3)
    cfg = TrumpConfig(DECK_52, cards("AS", "KS", "QS"), list(range(13)), supreme=parse_card("2H"))
    for must_trump in (False, True):
        for must_beat in (False, True):
            fast = cfg.follower(must_trump=must_trump, must_beat=must_beat, free=mask("2H"))
            for _ in range(300):
                hand = rng.getrandbits(52)
                led, win = rng.randrange(52), rng.randrange(52)
                slow = cfg.follow(
                    hand, led, win, must_trump=must_trump, must_beat=must_beat, free=mask("2H")
                )
                assert fast(hand, led, win) == slow
