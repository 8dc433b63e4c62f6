"""The running commentary of a deal: who did what, who took each trick and for how much,
sweeps, trump changes, contracts — and at the end the score in words and numbers with
every hand shown open.

It reads only what the viewer may see: the engine's structured events for the viewer
(``events_for(viewer)``, :func:`from_events`), the score from the ``deal_end`` event
(:func:`breakdown`, the same parts the web table draws), and once the deal is over the
deal's record, when every card may be shown. No line depends on which game it is beyond
the names of its suits. Every line is a template of
the catalogs (``terminal.narrate.*``, ``terminal.breakdown.*``), with a form for the reader
as its subject (``…_you``: "You win the trick", «شما … می‌برید») where the language needs one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import SPECTATOR, DealState
from folkcards.engine.events import Event
from folkcards.tui import i18n, present
from folkcards.tui.view import arrow, styled_card, styled_cards, styled_text

N = "terminal.narrate."
B = "terminal.breakdown."


def _is_you(who: str | None) -> bool:
    return who is not None and who == i18n.t("terminal.names.you")


def said(key: str, who: str | None, /, **params: Any) -> str:
    """The narration template ``key`` about ``who``: its ``_you`` form when ``who`` is the
    reader and the catalogs have one."""
    if _is_you(who) and i18n.maybe(f"{key}_you") is not None:
        key = f"{key}_you"
    return i18n.t(key, who=who, **params)


def team_words(seat: int, viewer: int | None, partnership: bool, names: Sequence[str]) -> str:
    """'us' / 'them' for a team as the viewer sees it, else the team's seats."""
    if partnership and viewer is not None:
        return i18n.t("terminal.names.us" if seat % 2 == viewer % 2 else "terminal.names.them")
    if partnership and len(names) == 4:
        return i18n.t("terminal.names.pair", a=names[seat % 2], b=names[seat % 2 + 2])
    return names[seat]


def _pair(values: Any) -> list[int] | None:
    if isinstance(values, list) and all(isinstance(v, int) for v in values):
        return list(values)
    return None


def _cards(cards: Sequence[Any]) -> str:
    return i18n.ltr(" ".join(str(c) for c in cards))


def action_line(actor: int, text: str, names: Sequence[str], game: str = "") -> Text:
    """``Seat 1: bid 70`` with the cards coloured (the action in the table's language)."""
    line = Text(f"  {names[actor]}: ")
    line.append_text(styled_text(text, game))
    return line


def _trick_head(number: Any) -> Text:
    return Text(f"  {i18n.t('terminal.table.trick', n=number)} ", style="bold")


def engine_events(deal: DealState, viewer: int, since: int) -> list[Event]:
    """The viewer's structured events after its first ``since`` (``events_for``); none for
    a game that does not narrate its deals (events are optional in the engine's contract:
    its action lines still tell the whole deal)."""
    try:
        return deal.events_for(viewer, since)
    except NotImplementedError:
        return []


def from_events(
    found: Sequence[Any], game: str, names: Sequence[str], viewer: int | None, partnership: bool
) -> list[Text]:
    """The lines worth telling of the engine's events (a trick taken and for how much,
    trump named or changed, the contract, a sweep, the partner revealed, cards passed);
    bids, plays and calls are already told by the action lines."""
    out: list[Text] = []
    n = len(names)
    ended = any(getattr(e, "kind", "") == "deal_end" for e in found)
    tricks = [e for e in found if getattr(e, "kind", "") == "trick"]
    passes = sum(getattr(e, "kind", "") == "pass_cards" for e in found)
    for event in found:
        kind, d = getattr(event, "kind", ""), getattr(event, "data", {})
        if not isinstance(d, Mapping):
            continue
        seat = d.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < n else "?"
        if kind == "trick":
            line = _trick_event(d, game, names)
            if ended and event is tricks[-1]:
                line.append(" · " + i18n.t(N + "last_trick"), style="bold")
            out.append(line)
        elif kind == "trump" and isinstance(d.get("suit"), str):
            out.append(
                Text(f"  {_trump_event(d, who, game, names, viewer, partnership)}", style="bold")
            )
        elif kind == "contract":
            out.append(_contract_event(d, game, names))
        elif kind == "partner" and isinstance(seat, int):
            text = said(N + "partner", who, card=i18n.ltr(str(d.get("card"))))
            out.append(Text(f"  {text}", style="bold"))
        elif kind == "sweep":
            side = team_words(int(seat), viewer, True, names) if isinstance(seat, int) else "?"
            out.append(Text(f"  {said(N + 'sweep', who, side=side)}", style="bold green"))
        elif kind == "leftover" and isinstance(d.get("cards"), list) and d["cards"]:
            text = said(N + "leftover", who, cards=_cards(d["cards"]))
            out.append(Text(f"  {text}"))
        elif kind == "pass_cards":
            passed = _pass_event(d, names, alone=passes == 1)
            if passed is not None:
                out.append(passed)
    return [line for line in out if line.plain]


def _trump_event(
    d: Mapping[str, Any],
    who: str,
    game: str,
    names: Sequence[str],
    viewer: int | None,
    partnership: bool,
) -> str:
    suit = present.suit_words(game, d["suit"])
    how = d.get("how")
    seat = d.get("seat")
    if how == "blind":
        return said(
            N + "trump_blind",
            who,
            n=d.get("position"),
            card=i18n.ltr(str(d.get("card"))),
            suit=suit,
        )
    if how == "diamonds":
        return said(N + "trump_diamonds", who)
    if how == "override":
        return said(N + "trump_override", who)
    if how in ("marriage", "declare"):
        side = team_words(int(seat), viewer, partnership, names) if isinstance(seat, int) else "?"
        return said(N + "trump_marriage", who, suit=suit, value=d.get("value"), side=side)
    if how == "hidden":
        return said(N + "trump_hidden", who)
    return said(N + "trump_by", who, suit=suit)


def _pass_event(d: Mapping[str, Any], names: Sequence[str], alone: bool) -> Text | None:
    """Cards handed over, or None where the action line has said it: one card passed by
    the action just told (``alone``: the only pass of its action; Sasku's exchange,
    Huutopussi's give and return), a bury or a discard. Satat's exchange moves every
    pair's cards at once, after the gives, so it is told."""
    n = len(names)
    src, to, count = d.get("from"), d.get("to"), d.get("count")
    giver = names[src] if isinstance(src, int) and 0 <= src < n else str(src)
    taker = names[to] if isinstance(to, int) and 0 <= to < n else str(to)
    cards = d.get("cards")
    if isinstance(cards, list) and cards:
        what = _cards(cards)
    else:
        what = i18n.plural(N + "face_down", count if isinstance(count, int) else 0)
    if alone and count == 1:
        return None
    if src == "blind":
        return Text(f"  {said(N + 'picks_blind', taker, cards=what)}", style="dim")
    if to in ("bury", "discard"):
        return None
    return Text(
        f"  {i18n.t(N + 'passed', giver=giver, arrow=arrow(), taker=taker, cards=what)}",
        style="dim",
    )


def _trick_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text:
    n = len(names)
    leader, winner = d.get("leader"), d.get("winner")
    line = _trick_head(i18n.num(d.get("number")))
    cards = d.get("cards") or []
    for i, c in enumerate(cards):
        seat = (leader + i) % n if isinstance(leader, int) else None
        if i:
            line.append("  ")
        if seat is not None:
            line.append(f"{names[seat]} ")
        card = CARD_NAMES.index(c) if c in CARD_NAMES else None
        if card is None:
            line.append(str(c))
        else:
            line.append_text(styled_card(card, bold=seat == winner))
    if isinstance(winner, int) and 0 <= winner < n:
        line.append(f" {arrow()} {names[winner]}", style="green")
    points, bonus = d.get("points"), d.get("bonus")
    if isinstance(points, int):
        total = points + (bonus if isinstance(bonus, int) else 0)
        line.append(f" {i18n.num(f'+{total}')}", style="green")
        if isinstance(bonus, int) and bonus:
            line.append(" " + i18n.t(N + "bonus", n=bonus), style="green")
    return line


def _contract_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text:
    """The contract in words, by its ``mode`` (Sheepshead's leaster, alone or called card;
    a passed deal) or its ``contract`` and ``bid`` (Huutopussi); a Sasku declarer's is
    already told by the trump event."""
    n = len(names)
    dec = d.get("declarer")
    who = names[dec] if isinstance(dec, int) and 0 <= dec < n else None
    mode = d.get("mode")
    text = ""
    if mode == "leaster":
        text = i18n.t(N + "leaster")
    elif mode == "alone":
        text = said(N + "alone", who)
    elif mode == "called":
        text = said(N + "calls", who, card=i18n.ltr(str(d.get("called"))))
    elif mode == "passed" or who is None:
        text = i18n.t(N + "passed_deal")
    elif isinstance(d.get("contract"), int):
        text = said(N + "sets_contract", who, n=d["contract"])
    elif mode is None and isinstance(d.get("bid"), int):
        text = said(N + "wins_bidding", who, bid=d["bid"])
    return Text(f"  {text}", style="bold") if text else Text("")


# --- the end of a deal -----------------------------------------------------------------

_SHOWN_BY_POINTS = frozenset({"name", "points", "rule", "side", "holder", "won_by", "outcome"})
"""Component keys a breakdown row does not repeat: its points per side say them."""

N_FROM = {False: "narrate.points_from", True: "narrate.cards_from"}
"""Where a side's card points came from, or its cards in a game without card points."""

_OPS = {"<": "<", "<=": "≤", "=": "=", ">=": "≥", ">": ">"}


def referee_events(deal: DealState, since: int) -> list[Event]:
    """Every event after the first ``since`` as the referee knows them (``events()``: for
    a log that shows every hand, such as the demo's), none for a game that does not
    narrate its deals."""
    try:
        return deal.events_since(since)
    except NotImplementedError:
        return []


def deal_end(deal: DealState, viewer: int | None) -> Mapping[str, Any] | None:
    """The data of the deal's ``deal_end`` event as ``viewer`` (None: a spectator) sees it,
    or None while the deal is not over or where the game does not narrate its deals."""
    for event in reversed(engine_events(deal, SPECTATOR if viewer is None else viewer, 0)):
        if event.kind == "deal_end":
            return event.data
    return None


def breakdown(
    end: Mapping[str, Any],
    game: str,
    names: Sequence[str],
    viewer: int | None,
    partnership: bool,
) -> list[Text]:
    """The deal's score in words and numbers from its ``deal_end`` event, as the web table
    draws it: the outcome, the deciding comparison with its rule ("declarers 52 < 61
    points"), each part of the score per side with the facts that earned it, the deal's
    score, and where the card points came from."""
    score = _pair(end.get("score")) or []
    k = len(score)

    def side(t: int) -> str:
        if partnership and len(names) == 4 and k == 2:
            return i18n.t("terminal.names.pair", a=names[t], b=names[t + 2])
        return names[t] if 0 <= t < len(names) else i18n.t("terminal.names.side", n=t)

    heads = [side(t) for t in range(k)]
    col = max([i18n.width(h) for h in heads] + [5]) + 2
    out: list[Text] = []
    outcome = str(end.get("outcome") or "")
    head = i18n.t("narrate.breakdown")
    if outcome:
        head += " — " + (i18n.maybe(f"narrate.outcome_{outcome}") or outcome)
    out.append(Text(head, style="bold"))
    reason = end.get("reason")
    if isinstance(reason, Mapping):
        out.append(Text(_reason_words(reason, side, k)))

    def row(label: str, values: Sequence[str], style: str = "") -> Text:
        cells = "".join(" " * (col - i18n.width(v)) + v for v in values)
        return Text(f"  {_pad(label, 22)}{cells}", style=style)

    if k:
        out.append(row("", heads, "bold"))
    for c in end.get("components") or []:
        if not isinstance(c, Mapping):
            continue
        name = str(c.get("name"))
        points = _pair(c.get("points")) or []
        out.append(
            row(i18n.maybe(f"narrate.comp_{name}") or name, [i18n.signed(v) for v in points])
        )
        notes: list[str] = []
        for key, value in c.items():
            if key in _SHOWN_BY_POINTS or (key == "total" and value == sum(points)):
                continue
            per_side = _pair(value)
            if per_side is not None and len(per_side) == k and key != "winners":
                label = i18n.maybe(f"{B}fact_{key}") or key
                out.append(row(f"  {label}", [i18n.num(v) for v in per_side], "dim"))
                continue
            note = _fact(key, value, game, names)
            if note:
                notes.append(note)
        rule = c.get("rule")
        if isinstance(rule, str):
            notes.append(i18n.ltr(rule))
        if notes:
            out.append(Text(f"    {i18n.t('ui.sep').join(notes)}", style="dim"))
    if k:
        out.append(row(i18n.t(B + "this_deal"), [i18n.signed(v) for v in score], "bold"))
    source = end.get("points_from")
    if isinstance(source, Mapping) and source:
        card = present.game_card(game)
        counts = card is not None and card.points_key is None  # Scopone counts its cards
        out.append(Text(f"  {i18n.t(N_FROM[counts])}", style="dim"))
        for key, values in source.items():
            per_side = _pair(values)
            if per_side is not None:
                label = i18n.maybe(f"narrate.from_{key}") or key
                out.append(row(f"  {label}", [i18n.num(v) for v in per_side], "dim"))
    return out


def _reason_words(r: Mapping[str, Any], side: Any, k: int) -> str:
    """The deciding comparison: "Why: the declarers (Seat 1 & Seat 3) 31 < 61 points (SAS-13.4)"."""
    who = str(r.get("who"))
    s = r.get("side")
    team = isinstance(s, int) and 0 <= s < k
    if who.startswith("team ") and team:
        words = side(s)
    else:
        words = i18n.maybe(f"narrate.who_{who.replace(' ', '_')}") or who
        if team:
            words = i18n.t(B + "who_side", who=words, side=side(s))
    measure = str(r.get("measure"))
    return i18n.t(
        B + "reason",
        who=words,
        value=i18n.num(r.get("value")),
        op=_OPS.get(str(r.get("op")), str(r.get("op"))),
        target=i18n.num(r.get("target")),
        measure=i18n.maybe(f"narrate.measure_{measure}") or measure,
        rule=i18n.ltr(str(r.get("rule"))),
    )


def _fact(key: str, value: Any, game: str, names: Sequence[str]) -> str:
    """One fact of a score component in words ("trump ♦ diamonds", "schneider",
    "contract 440"), or "" for one the reader needs not be told."""
    if value is None or isinstance(value, bool):
        return ""
    if key == "trump" and isinstance(value, str):
        return i18n.t(B + "fact_trump", suit=present.suit_words(game, value))
    if key == "winners" and isinstance(value, list):
        won = [names[s] for s in value if isinstance(s, int) and 0 <= s < len(names)]
        return i18n.t(B + "fact_winners", names=i18n.t("ui.sep").join(won))
    if key == "seat" and isinstance(value, int) and 0 <= value < len(names):
        return i18n.t(B + "fact_seat", name=names[value])
    if key in ("level", "unit") and value == 1:
        return ""
    if key == "calls" and value == 0:
        return ""
    worded = i18n.maybe(f"{B}fact_{key}_{value}")
    if worded is not None:
        return worded
    if i18n.maybe(f"{B}fact_{key}") is not None:
        return i18n.t(B + f"fact_{key}", n=i18n.num(value))
    return f"{key} {i18n.num(value)}"


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` cells (isolates and joiners take none)."""
    return i18n.pad(text, width)


def open_hands(deal: DealState, names: Sequence[str]) -> list[Text]:
    """Every seat's cards as they held them when the card play began (the deal is over,
    so nothing is hidden any more), plus the game's hidden piles."""
    game = deal.game
    record = deal.record()
    state = game.deal_from_record(record, deal.variant)
    for text in record["actions"]:
        action = game.parse_action(text, deal.variant)  # the record's canonical text
        if action.step.kind == "play":
            break
        state.apply(action)
    out = [Text(i18n.t(N + "open_hands"), style="bold")]
    trump = None
    for s in range(state.num_seats):
        obs = state.observation(s)
        trump = trump or present.trump_suit(obs)
    for s in range(state.num_seats):
        obs = state.observation(s)
        line = Text(f"  {_pad(names[s], 8)} ")
        line.append_text(styled_cards(present.hand_order(game.name, obs.hand, trump, deal.variant)))
        out.append(line)
    result = deal.result()
    final = dict(deal.observation(0).info)
    final["bury"] = result.get("bury")
    for key in ("bury", "blind", "widow", "discards"):
        value = final.get(key)
        if (
            isinstance(value, list)
            and value
            and all(isinstance(v, str) and v in CARD_NAMES for v in value)
        ):
            line = Text(f"  {_pad(i18n.t(N + 'piles.' + key), 8)} ")
            line.append_text(styled_cards([CARD_NAMES.index(v) for v in value]))
            out.append(line)
    return out
