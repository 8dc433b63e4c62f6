"""What the person is asked to do now, in one line, and what its unusual choices mean.

Every decision gets a line that names it: how many cards, to whom or from whom, with a
counter for actions made one card at a time ("Return 3 cards to your partner — 1 of 3").
Choices a beginner cannot guess ("diamonds!", "deal cover", "blind 3", Satat's signals)
get a one-line explanation while they are on offer; ``explain off`` hides these lines.

The legal actions and the history are read by their structure (``a.step``, the history's
steps: verb, cards, number), never by splitting their text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import Observation
from folkcards.tui import i18n, present


def note(game: str, key: str) -> str:
    """The one-line note of choice ``key`` of ``game``."""
    return i18n.t(f"terminal.notes.{game}.{key.replace(' ', '_')}")


def _count(obs: Observation, key: str) -> int:
    value = obs.info.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _partner(obs: Observation, seat: int) -> int | None:
    return (seat + 2) % 4 if obs.num_seats == 4 else None


def _them(names: Sequence[str], seat: int | None, mine: int) -> str:
    """'your partner' or the seat's name."""
    if seat is None:
        return "?"
    if seat == (mine + 2) % 4 and len(names) == 4:
        return i18n.t("terminal.names.your_partner")
    return names[seat]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def received(obs: Observation) -> set[str]:
    """The cards in the seat's hand that it was given in this deal (marked on screen), as
    the public facts say: a picture exchanged and the card returned for it (Sasku's
    ``exchanges``), the cards ``given`` to the declarer, the ``widow`` it took and the cards
    ``returned`` to its partner (Huutopussi), the cards ``received`` (Satat), the ``blind``
    the picker took up (Sheepshead)."""
    info, seat, out = obs.info, obs.seat, set()

    def cards(key: str) -> set[str]:
        return {c for c in info.get(key) or [] if isinstance(c, str)}

    for e in info.get("exchanges") or []:
        if isinstance(e, dict):
            if e.get("returner") == seat and isinstance(e.get("picture"), str):
                out.add(e["picture"])
            if e.get("giver") == seat and isinstance(e.get("returned"), str):
                out.add(e["returned"])
    if info.get("declarer") == seat:
        out |= cards("given") | cards("widow")
    elif obs.num_seats == 4 and info.get("declarer") == (seat + 2) % 4:
        out |= cards("returned")
    out |= cards("received")
    if info.get("picker") == seat:
        out |= cards("blind")
    held = {CARD_NAMES[c] for c in range(len(CARD_NAMES)) if obs.hand >> c & 1}
    return out & held


def task(obs: Observation, names: Sequence[str]) -> str:
    """The decision in words: what to do, how many, to or from whom."""
    g, ph, info, me = obs.game, obs.phase, obs.info, obs.seat
    steps = [a.step for a in obs.legal]
    kinds = {st.kind for st in steps}
    nums = sorted(st.number for st in steps if st.number is not None)
    from folkcards.tui.menu import range_text

    span = range_text(nums) if nums else ""
    k = "terminal.task."
    if g == "sasku":
        if ph == "cut":
            return i18n.t(k + "sasku_cut")
        if ph == "exchange":
            if "return" in kinds:
                mine = [e for e in info.get("exchanges") or [] if e.get("returner") == me]
                giver = mine[0].get("giver") if mine else None
                pic = mine[0].get("picture") if mine else "?"
                return i18n.t(
                    k + "sasku_return", giver=_cap(_them(names, giver, me)), card=i18n.ltr(pic)
                )
            pic = next((CARD_NAMES[st.cards[0]] for st in steps if st.kind == "give"), "?")
            return i18n.t(k + "sasku_give", card=i18n.ltr(pic))
        if ph == "auction":
            high = info.get("bid")
            bidder = _name(names, info.get("bidder"))
            if not span:
                if high:
                    return i18n.t(k + "sasku_auction_over_you", name=bidder, bid=high)
                return i18n.t(k + "sasku_auction_none")
            if high:
                return i18n.t(k + "sasku_auction_over", span=span, name=bidder, bid=high)
            return i18n.t(k + "sasku_auction", span=span)
        if ph == "declare":
            return i18n.t(k + "sasku_declare", bid=info.get("bid"))
        if ph == "override":
            named = (
                present.suit_words(g, str(info.get("trump")))
                if info.get("trump")
                else i18n.t(k + "a_suit")
            )
            who = _name(names, info.get("declarer") or info.get("bidder"))
            return i18n.t(k + "sasku_override", name=who, suit=named)
    if g == "huutopussi":
        total = present.phase_cards(obs).get(ph, 0)  # given or returned (HUU-5.1, HUU-5.3)
        declarer = info.get("declarer")
        if ph == "bidding":
            high = info.get("high_bid")
            if not span:
                return i18n.t(
                    k + ("huu_only_pass_redeal" if "redeal" in kinds else "huu_only_pass")
                )
            key = "huu_bidding_over" if high else "huu_bidding"
            if "pass" not in kinds:
                key += "_open"
            return i18n.t(k + key, span=span, name=_name(names, info.get("high_bidder")), bid=high)
        if ph == "give":
            n = _count(obs, "given_count") + 1
            return i18n.t(k + "huu_give", total=total, name=_them(names, declarer, me), k=n)
        if ph == "contract":
            return i18n.t(k + "huu_contract", span=span, bid=info.get("bid"))
        if ph == "return":
            n = _count(obs, "returned_count") + 1
            return i18n.t(
                k + "huu_return", total=total, name=_them(names, _partner(obs, me), me), k=n
            )
        if ph == "discard":
            return i18n.t(k + "huu_discard", k=_count(obs, "discard_count") + 1)
        if ph == "answer":
            asker = _cap(_them(names, info.get("asker"), me))
            if info.get("ask") == "marriage":
                return i18n.t(k + "huu_answer_marriage", name=asker)
            return i18n.t(k + "huu_answer_half", name=asker)
        if ph == "play":
            extra = [st for st in steps if st.kind != "play"]
            lead = _trick_task(obs, names)
            if extra:
                return lead + " " + i18n.t(k + "huu_declare_first")
            return lead
    if g == "sheepshead":
        if ph == "pick":
            return i18n.t(k + "shp_pick")
        if ph == "bury":
            n = (
                sum(
                    1
                    for t, s in zip(obs.history, obs.actors, strict=False)
                    if s == me and t.kind == "bury"
                )
                + 1
            )
            return i18n.t(k + "shp_bury", k=n)
        if ph == "call":
            called = [CARD_NAMES[st.cards[0]] for st in steps if st.kind == "call"]
            if called:
                cards = i18n.t("narrate.or").join(i18n.ltr(c) for c in called)
                return i18n.t(k + "shp_call", cards=cards)
            return i18n.t(k + "shp_call_none")
    if g == "satat":
        if ph == "trump":
            return i18n.t(k + "sat_trump")
        if ph == "propose":
            return i18n.t(k + "sat_propose")
        if ph == "consent":
            return i18n.t(k + "sat_consent")
        if ph == "give":
            n = max((len(st.cards) for st in steps), default=1)  # one or two (SAT-7.1)
            passing = obs.carry.get("passing") if isinstance(obs.carry, dict) else None
            win_team = passing.get("winners") if isinstance(passing, dict) else None
            left = win_team == me % 2
            to = names[(me + 1) % 4] if left else names[(me - 1) % 4]
            rule = i18n.t(k + ("sat_rule_left" if left else "sat_rule_right"))
            return i18n.plural(k + "sat_give", n, name=to, rule=rule)
        if ph == "announce":
            return i18n.t(k + "sat_announce")
        if ph == "lese":
            return i18n.t(k + "sat_lese", name=_name(names, _leader(obs)))
        if ph == "continue":
            return i18n.t(k + "sat_continue")
    if g == "scopone" and ph == "play":
        return i18n.t(k + "scopone_play")
    if ph == "play":
        return _trick_task(obs, names)
    return i18n.t(k + "other", phase=present.phase_title(g, ph))


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
        return i18n.t("terminal.task.lead", n=number)
    seat, c = current[0]
    return i18n.t("terminal.task.follow", n=number, name=names[seat], card=i18n.ltr(CARD_NAMES[c]))


def notes(obs: Observation) -> list[str]:
    """One-line explanations of the unusual choices on offer now: the game card's
    ``choice_notes`` (their texts: ``terminal.notes.<game>.<choice>`` of the catalogs)."""
    keys = present.choice_notes(obs)
    if not keys:
        return []
    from folkcards.tui.menu import signal

    texts = [a.text for a in obs.legal]
    out: list[str] = []
    for key in keys:
        if key == "grate":  # the signals of a play (SAT-16.6)
            if any(signal(a.step) is not None for a in obs.legal):
                out.append(note(obs.game, key))
            continue
        text = note(obs.game, key)
        # a choice is named by the words its actions begin with (``blind``, ``ask half``):
        # the game card's phrase, matched as the phrase it is
        if any(t == key or t.startswith(key + " ") for t in texts) and text not in out:
            out.append(text)
    if obs.game == "sasku" and obs.phase == "cut":
        out.insert(0, i18n.t("terminal.notes.sasku.cut"))  # the cut methods, in one line
    return out
