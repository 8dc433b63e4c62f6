"""What the person is asked to do now, in one line, and what its unusual choices mean.

Every decision gets a line that names it: how many cards, to whom or from whom, with a
counter for actions made one card at a time ("Return 3 cards to your partner — 1 of 3").
Choices a beginner cannot guess ("diamonds!", "deal cover", "blind 3", Satat's signals)
get a one-line explanation while they are on offer; ``explain off`` hides these lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import Observation
from folkcards.tui import present

NOTES: dict[str, dict[str, str]] = {
    "sasku": {
        "deal threes": "deal threes: packets of three (the usual way; Enter chooses it)",
        "deal ones": "deal ones: one card at a time",
        "deal nines": "deal nines: nine cards at once to each player",
        "deal cover": "deal cover: nines, but the dealer takes the third packet and you the last",
        "deal to": "deal to CARD: nines, every card face up until CARD is dealt (e.g. deal to 9h)",
        "diamonds": "diamonds!: ends the auction now — diamonds are trump, you declare, "
        "and the deal scores the higher diamond column (SAS-8.6, SAS-13.5)",
        "keep": "keep: hold on to your lone picture (no exchange for your team)",
    },
    "satat": {
        "blind": "blind N: trump is the suit of your Nth card of the last four, taken unseen "
        "(it stays in your hand)",
        "redeal": "redeal: no picture (K Q J) in your first five — the same dealer deals again",
        "grate": "signals: after a card, g = grate (my last of this suit), p = pile (I hold "
        "the top card of this suit), v = vire (partner, switch to the suit of the other colour)",
        "lese": "lese: 'I will win this trick, partner play low' (a signal, not binding)",
        "announce": "announce: tell the table you hold the 2H (a signal, not binding)",
        "propose": "propose: your partner's side holds no trump — ask for a redeal",
    },
    "huutopussi": {
        "redeal": "redeal: allowed at your first turn with three sixes or no card above a jack",
        "declare": "declare X: your king and queen of X make X trump and score the marriage",
        "ask marriage": "ask marriage: your partner names a suit where they hold K and Q",
        "ask half": "ask half X: your partner says if they hold the other half of your X marriage",
    },
    "sheepshead": {
        "pick": "pick: take the two blind cards, bury two, call a partner (you need 61 points)",
        "alone": "alone: no partner — you play against all four",
    },
}


def _count(obs: Observation, key: str) -> int:
    value = obs.info.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _partner(obs: Observation, seat: int) -> int | None:
    return (seat + 2) % 4 if obs.num_seats == 4 and obs.game != "sheepshead" else None


def _them(names: Sequence[str], seat: int | None, mine: int) -> str:
    """'your partner' or the seat's name."""
    if seat is None:
        return "?"
    if seat == (mine + 2) % 4 and len(names) == 4:
        return "your partner"
    return names[seat]


def received(obs: Observation) -> set[str]:
    """The cards in the seat's hand that it was given in this deal (marked on screen)."""
    info, seat, out = obs.info, obs.seat, set()
    if obs.game == "sasku":
        for e in info.get("exchanges") or []:
            if isinstance(e, dict):
                if e.get("returner") == seat and isinstance(e.get("picture"), str):
                    out.add(e["picture"])
                if e.get("giver") == seat and isinstance(e.get("returned"), str):
                    out.add(e["returned"])
    elif obs.game == "huutopussi":
        if info.get("declarer") == seat:
            out |= {c for c in info.get("given") or [] if isinstance(c, str)}
            out |= {c for c in info.get("widow") or [] if isinstance(c, str)}
        elif obs.num_seats == 4 and info.get("declarer") == (seat + 2) % 4:
            out |= {c for c in info.get("returned") or [] if isinstance(c, str)}
    elif obs.game == "satat":
        out |= {c for c in info.get("received") or [] if isinstance(c, str)}
    elif obs.game == "sheepshead" and info.get("picker") == seat:
        out |= {c for c in info.get("blind") or [] if isinstance(c, str)}
    held = {CARD_NAMES[c] for c in range(len(CARD_NAMES)) if obs.hand >> c & 1}
    return out & held


def task(obs: Observation, names: Sequence[str]) -> str:
    """The decision in words: what to do, how many, to or from whom."""
    g, ph, info, me = obs.game, obs.phase, obs.info, obs.seat
    legal = [a.text for a in obs.legal]
    nums = sorted(
        int(t.split(" ")[1]) for t in legal if t.split(" ")[1:2] and t.split(" ")[1].isdigit()
    )
    from folkcards.tui.menu import range_text

    span = range_text(nums) if nums else ""
    if g == "sasku":
        if ph == "cut":
            return "You cut: choose how the dealer deals the cards (Enter = deal threes)."
        if ph == "exchange":
            if any(t.startswith("return") for t in legal):
                giver = next(
                    (
                        e.get("giver")
                        for e in info.get("exchanges") or []
                        if e.get("returner") == me
                    ),
                    None,
                )
                pic = next(
                    (
                        e.get("picture")
                        for e in info.get("exchanges") or []
                        if e.get("returner") == me
                    ),
                    "?",
                )
                return (
                    f"{_them(names, giver, me).capitalize()} gave you {pic} (marked *): return one "
                    "suit card (A T 9 8 7 6), face down — 1 of 1."
                )
            pic = next((t.split(" ")[1] for t in legal if t.startswith("give")), "?")
            return (
                f"Your only picture is {pic}: give it face up to your partner (they return a "
                "suit card face down), or keep it."
            )
        if ph == "auction":
            high = info.get("bid")
            over = f" over {_name(names, info.get('bidder'))}'s {high}" if high else ""
            if not span:
                top = (
                    f"{_name(names, info.get('bidder'))} bid {high}, more than you can"
                    if high
                    else "you cannot bid"
                )
                return f"Auction: {top} — pass, or say diamonds."
            return (
                f"Auction: bid {span} (how many trumps you will hold){over}, pass, or say diamonds."
            )
        if ph == "declare":
            return (
                f"You won the auction at {info.get('bid')}: name trump — a suit where pictures + "
                "its cards reach your bid, or diamonds."
            )
        if ph == "override":
            named = present.suit_words(g, str(info.get("trump"))) if info.get("trump") else "a suit"
            return (
                f"{_name(names, info.get('declarer') or info.get('bidder'))} named {named}: say "
                "diamonds to take over (diamonds trump, you declare), or pass."
            )
    if g == "huutopussi":
        total = 4 if obs.variant.get("erlangen") else 3
        declarer = info.get("declarer")
        if ph == "bidding":
            high = info.get("high_bid")
            over = f" over {_name(names, info.get('high_bidder'))}'s {high}" if high else ""
            if not span:
                return "Bidding: you may only pass" + (
                    " or ask for a redeal." if "redeal" in legal else "."
                )
            must = "" if "pass" in legal else " (you open: passing is not allowed)"
            return f"Bidding: bid {span}{over}, or pass{must}. Type the number to bid."
        if ph == "give":
            n = _count(obs, "given_count") + 1
            return f"Give {total} cards face down to {_them(names, declarer, me)}, the declarer — {n} of {total}."
        if ph == "contract":
            return (
                f"Set the contract: {span} (at least your bid {info.get('bid')}). Type the number."
            )
        if ph == "return":
            n = _count(obs, "returned_count") + 1
            return (
                f"Return {total} cards face down to {_them(names, _partner(obs, me), me)} — "
                f"{n} of {total} (cards you received are marked *)."
            )
        if ph == "discard":
            n = _count(obs, "discard_count") + 1
            return f"Discard 3 cards face down (their points count for you) — {n} of 3."
        if ph == "answer":
            ask = info.get("ask")
            asker = _them(names, info.get("asker"), me)
            if ask == "marriage":
                return (
                    f"{asker.capitalize()} asks for a marriage: name a suit where you hold K and Q."
                )
            return f"{asker.capitalize()} asks for the other half of a marriage: answer truthfully."
        if ph == "play":
            extra = [t for t in legal if not t.startswith("play")]
            lead = _trick_task(obs, names)
            if extra:
                return lead + " You may first declare or ask for a trump (one attempt)."
            return lead
    if g == "sheepshead":
        if ph == "pick":
            return "Pick up the two-card blind (then bury two and call a partner), or pass."
        if ph == "bury":
            n = (
                sum(
                    1
                    for t, s in zip(obs.history, obs.actors, strict=False)
                    if s == me and t.startswith("bury")
                )
                + 1
            )
            return f"Bury 2 cards face down (their points count for you) — {n} of 2."
        if ph == "call":
            called = [t.split(" ")[1] for t in legal if t.startswith("call")]
            if called:
                return (
                    f"Call {' or '.join(called)}: whoever holds it is your secret partner — "
                    "or play alone."
                )
            return (
                "No card can be called (you need a card of its suit in hand, and not the card "
                "itself): you play alone."
            )
    if g == "satat":
        if ph == "trump":
            return "Make trump from your first five cards: name a suit, or go blind (1–4)."
        if ph == "propose":
            return "You hold no trump: propose a redeal, or pass (play on)."
        if ph == "consent":
            return "Your partner holds no trump and proposes a redeal: accept or refuse."
        if ph == "give":
            k = max((len(t.split(" ")) - 1 for t in legal), default=1)
            passing = obs.carry.get("passing") if isinstance(obs.carry, dict) else None
            win_team = passing.get("winners") if isinstance(passing, dict) else None
            left = win_team == me % 2
            to = names[(me + 1) % 4] if left else names[(me - 1) % 4]
            rule = "winners give to the left" if left else "losers give their best to the right"
            return f"Pass {k} card{'s' if k > 1 else ''} to {to} ({rule}) — 1 of 1."
        if ph == "announce":
            return "You hold the 2H: announce it to the table, or stay silent."
        if ph == "lese":
            return f"{_name(names, _leader(obs))} has led: signal lese to your partner, or stay silent."
        if ph == "continue":
            return "Your team has won the first 7 tricks: continue for 13-0, or stop at 7-0."
    if g == "scopone" and ph == "play":
        return (
            "Play a card: a card matching a table card (or, if none, a sum of table cards) "
            "must capture it; clearing the table is a scopa."
        )
    if ph == "play":
        return _trick_task(obs, names)
    return f"{present.phase_title(g, ph)}: choose one of the actions below."


def _leader(obs: Observation) -> int | None:
    trick = obs.info.get("trick")
    if isinstance(trick, list) and trick and isinstance(trick[0], list):
        first = trick[0][0]
        return first if isinstance(first, int) else None
    from folkcards.tui.view import plays

    played = plays(obs)
    n = obs.num_seats
    done = len(played) - len(played) % n
    return played[done][0] if done < len(played) else None


def _trick_task(obs: Observation, names: Sequence[str]) -> str:
    from folkcards.tui.view import plays

    played = plays(obs)
    n = obs.num_seats
    done = len(played) - len(played) % n
    current = played[done:]
    number = done // n + 1
    if not current:
        return f"Lead a card to trick {number}."
    seat, c = current[0]
    led = CARD_NAMES[c]
    return f"Play a card to trick {number}: {names[seat]} led {led}."


def notes(obs: Observation) -> list[str]:
    """One-line explanations of the unusual choices on offer now."""
    table = NOTES.get(obs.game, {})
    if not table:
        return []
    texts = [a.text for a in obs.legal]
    out: list[str] = []
    for key, note in table.items():
        if key == "grate":
            if any(t.endswith((" grate", " pile", " vire")) for t in texts):
                out.append(note)
            continue
        if any(t == key or t.startswith(key + " ") for t in texts) and note not in out:
            if obs.game == "sasku" and key.startswith("deal") and key != "deal to":
                continue  # the cut: one combined line below
            out.append(note)
    if obs.game == "sasku" and obs.phase == "cut":
        out.insert(
            0,
            "threes/ones/nines: packets of 3, 1 or 9 · cover: nines, the dealer takes the "
            "third nine · to CARD: nines, face up until CARD",
        )
        out = [o for o in out if not o.startswith("deal to")]
    return out
