"""Drawing a seat's view of the table with ``rich``, from its observation alone.

Every function here takes an :class:`~folkcards.engine.api.Observation` (plus match
facts that are public: seat names, totals) and never a deal state, so the screen can
show nothing that the seat may not know. What an action or a history entry names — its
verb, its cards, its number — is read from its structure (``action.step`` and the
history's :class:`~folkcards.engine.actions.Step` entries); only the drawing of a line
goes through its words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from folkcards.cards import CARD_NAMES, Card
from folkcards.engine.api import Observation
from folkcards.tui import i18n, present

CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}


@dataclass
class TableFacts:
    """Public match facts drawn beside an observation."""

    title: str
    seat_names: list[str]
    seat_roles: list[str]
    partnership: bool
    num_teams: int
    totals: list[int] = field(default_factory=list)
    deal_number: int = 1
    goal: str = ""


def styled_card(c: Card, *, dim: bool = False, bold: bool = False, isolate: bool = True) -> Text:
    """A card's text in its suit's colour, kept left to right inside right-to-left text
    (``isolate``; a run of cards is isolated as a whole instead, see :func:`styled_cards`)."""
    style = present.card_style(c)
    if dim:
        style = "dim"
    elif bold:
        style += " reverse"
    text = Text(present.card_label(c), style=style)
    return i18n.ltr_text(text) if isolate else text


def styled_cards(cards: Sequence[Card], sep: str = " ") -> Text:
    """Cards in a row, each in its colour, the row kept left to right as one run inside
    right-to-left text (as the web table lays a hand out left to right)."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(styled_card(c, isolate=False))
    return i18n.ltr_text(out)


def card_of_token(token: str) -> Card | None:
    """The card a canonical token names, if it is one."""
    return CARD_INDEX.get(token)


def styled_text(text: str, game: str = "") -> Text:
    """A line of action text with its card tokens coloured; in a language other than
    English its verb, words, suits and numbers are said in that language (``play KS`` →
    «بازی KS»), the cards staying as they are typed."""
    out = Text()
    tokens = text.split(" ")
    for i, tok in enumerate(tokens):
        if i:
            out.append(" ")
        c = card_of_token(tok)
        if c is not None:
            out.append_text(styled_card(c))
        else:
            out.append(token_words(tok, first=i == 0, game=game))
    return out


def token_words(tok: str, *, first: bool = False, game: str = "") -> str:
    """One word of an action in the current language (:func:`folkcards.tui.i18n.token_words`)."""
    return i18n.token_words(tok, first=first, game=game)


def action_words(text: str, game: str = "") -> str:
    """An action as plain text in the current language (``play KS`` → «بازی KS»)."""
    return i18n.action_words(text, game)


def legal_cards(obs: Observation) -> set[Card]:
    """The cards of the seat's hand that appear in some legal action."""
    cards = set()
    hand = obs.hand
    for action in obs.legal:
        for c in action.step.cards:
            if hand >> c & 1:
                cards.add(c)
    return cards


def hand_view(obs: Observation, marked: set[str] | None = None) -> Text:
    """The seat's hand in the game's rank order (trumps first); legal cards highlighted,
    the others dimmed; ``marked`` cards (received this deal) followed by ``*``."""
    order = present.hand_order(obs.game, obs.hand, present.trump_suit(obs), obs.variant)
    legal = legal_cards(obs)
    mine = obs.to_act == obs.seat and bool(legal)
    group_of = present.group_of(obs.game, present.trump_suit(obs), obs.variant)
    out = Text()
    prev_group: Any = None
    for c in order:
        group = group_of(c)
        if out:
            out.append("  " if group != prev_group else " ")
        prev_group = group
        if mine:
            out.append_text(styled_card(c, bold=c in legal, dim=c not in legal, isolate=False))
        else:
            out.append_text(styled_card(c, isolate=False))
        if marked and CARD_NAMES[c] in marked:
            out.append("*", style="bold yellow")
    out = i18n.ltr_text(out)
    if not order:
        key = "terminal.table.not_dealt" if not obs.history else "terminal.table.no_cards"
        out.append(i18n.t(key), style="dim")
    if mine and len(legal) < len(order):
        out.append("  " + i18n.t("terminal.table.playable", n=len(legal)), style="green")
    return out


def format_value(value: Any) -> Text:
    """A compact picture of an ``info`` value: cards coloured, lists joined."""
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, bool):
        return Text(i18n.t("values.true" if value else "values.false"))
    if isinstance(value, str):
        c = card_of_token(value)
        if c is not None:
            return styled_card(c)
        if i18n.lang() != i18n.LANGS[0]:
            return Text(i18n.maybe(f"values.{value}") or token_words(value))
        return Text(value)
    if isinstance(value, (int, float)):
        return Text(i18n.num(value))
    if isinstance(value, Sequence):
        if _all_cards(value):
            return styled_cards([CARD_INDEX[v] for v in value])
        out = Text()
        for i, item in enumerate(value):
            if i:
                out.append(" / ")
            out.append_text(format_value(item) if not isinstance(item, list) else _bracket(item))
        if not value:
            out.append("—", style="dim")
        return out
    if isinstance(value, Mapping):
        out = Text()
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(", ")
            out.append(f"{k} ")
            out.append_text(format_value(v))
        return out
    return Text(str(value))


def _bracket(items: list[Any]) -> Text:
    out = Text("[")
    out.append_text(format_value(items))
    out.append("]")
    return out


def _all_cards(values: Sequence[Any]) -> bool:
    return bool(values) and all(isinstance(v, str) and v in CARD_INDEX for v in values)


def plays(obs: Observation) -> list[tuple[int, Card]]:
    """Every card played to a trick so far, with its player, from the seat's history: the
    card of each ``play`` step (the first card it names)."""
    out = []
    for step, actor in zip(obs.history, obs.actors, strict=False):
        if step.kind == "play" and step.cards:
            out.append((actor, step.cards[0]))
    return out


def trick_view(obs: Observation, names: Sequence[str]) -> Text | None:
    """The current trick (and the last one taken, with its winner), from the public plays."""
    if not present.takes_tricks(obs.game, obs.variant):
        return None
    played = plays(obs)
    if not played:
        return None
    n = obs.num_seats
    done = len(played) - len(played) % n
    current = played[done:]
    out = Text()
    if done:
        last = played[done - n : done]
        winner = present.trick_winner(obs.game, last, present.trump_suit(obs), obs.variant)
        won = obs.info.get("won")  # [leader, cards, winner] per trick taken (Satat)
        if isinstance(won, list) and won:
            w = won[-1]
            winner = w[2] if isinstance(w, list) and len(w) == 3 else winner
        out.append(i18n.t("terminal.table.trick", n=done // n) + " ", style="dim")
        for i, (seat, c) in enumerate(last):
            if i:
                out.append(" ")
            out.append(f"{_short(names, seat)} ", style="dim")
            out.append_text(styled_card(c, dim=seat != winner))
        if winner is not None:
            out.append(f" {arrow()} {names[winner]}", style="dim")
        if current or obs.to_act is not None:
            out.append("\n")
    if current or obs.to_act is not None:
        out.append(i18n.t("terminal.table.trick", n=done // n + 1) + " ", style="bold")
    if not current and obs.to_act is not None:
        out.append(i18n.t("terminal.table.empty"), style="dim")
    for i, (seat, c) in enumerate(current):
        if i:
            out.append("  ")
        out.append(f"{_short(names, seat)} ")
        out.append_text(styled_card(c))
    return out


def _short(names: Sequence[str], seat: int) -> str:
    return names[seat]


def arrow() -> str:
    """The arrow from a trick to its winner, pointing the way the text reads."""
    return "←" if i18n.rtl() else "→"


def history_lines(obs: Observation, names: Sequence[str], start: int = 0) -> list[Text]:
    """The seat's view of the deal's actions from index ``start``, one line each."""
    out = []
    for i in range(start, len(obs.history)):
        actor = obs.actors[i] if i < len(obs.actors) else None
        line = Text(f"{i18n.num(f'{i + 1:>3}')}. ", style="dim")
        line.append(f"{names[actor] if actor is not None else '?'}: ")
        line.append_text(styled_text(obs.history[i], obs.game))
        out.append(line)
    return out


def since_last_turn(obs: Observation) -> int:
    """Index of the first action after the seat's own last action (0 if it has not acted)."""
    for i in range(len(obs.actors) - 1, -1, -1):
        if obs.actors[i] == obs.seat:
            return i + 1
    return 0


def info_table(obs: Observation, names: Sequence[str], num_teams: int) -> Table:
    """The game's facts (the observation's ``info``): trump first, seats by name, per-side
    lists labelled; keys the table shows elsewhere are left out."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    trump = present.trump_suit(obs)
    if trump is not None:
        table.add_row(
            i18n.t("terminal.facts.trump_label"),
            Text(present.suit_words(obs.game, trump), style=present.SUIT_STYLE[trump]),
        )
    skip = present.hidden_keys(obs)
    tricks = present.takes_tricks(obs.game, obs.variant)
    for key, value in obs.info.items():
        if key in ("trump", "trump_suit") or key in skip:
            continue
        if key in ("trick", "current_trick") and tricks:
            continue
        if value is None or value is False or (isinstance(value, (list, dict)) and not value):
            continue  # nothing to say yet: keep the table short
        table.add_row(i18n.result_label(obs.game, key), info_value(key, value, names, num_teams))
    return table


def info_value(key: str, value: Any, names: Sequence[str], num_teams: int) -> Text:
    """One ``info`` value for a person: seats by name, per-seat and per-team lists labelled,
    long piles of cards counted."""
    n = len(names)
    if key in present.SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return Text(names[value] if 0 <= value < n else str(value))
    if key in present.TEAM_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return Text(
            i18n.t("terminal.names.team", n=value)
            if num_teams == 2 and n == 4
            else names[value]
            if 0 <= value < n
            else str(value)
        )
    if key in present.SEAT_LIST_KEYS and isinstance(value, list):
        if not value:
            return Text("—", style="dim")
        return Text(
            ", ".join(names[v] if isinstance(v, int) and 0 <= v < n else str(v) for v in value)
        )
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        if all(_all_cards(v) or not v for v in value) and sum(len(v) for v in value) > 8:
            labels = _side_labels(len(value), names, num_teams)
            return Text(
                " · ".join(
                    f"{lab} {i18n.t('terminal.table.cards_n', n=len(v))}"
                    for lab, v in zip(labels, value, strict=True)
                )
            )
        if all(
            len(v) == 2 and isinstance(v[0], str) and v[0] in CARD_INDEX and isinstance(v[1], int)
            for v in value
        ):
            return _cards_by_seat(value, names)
        out = Text()
        for i, item in enumerate(value):
            if i:
                out.append(", ")
            out.append_text(_pair(item, names))
        return out
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        labels = _side_labels(len(value), names, num_teams)
        if labels:
            return Text(
                " · ".join(f"{lab} {i18n.num(v)}" for lab, v in zip(labels, value, strict=True))
            )
    return format_value(value)


def _side_labels(length: int, names: Sequence[str], num_teams: int) -> list[str]:
    if length == len(names):
        return list(names)
    if length == num_teams == 2:
        return [i18n.t("terminal.names.team", n=0), i18n.t("terminal.names.team", n=1)]
    return []


def _cards_by_seat(pairs: list[list[Any]], names: Sequence[str]) -> Text:
    """``[[card, seat], …]`` grouped by seat: 'You AC KD · Seat 1 9H'."""
    groups: dict[int, list[str]] = {}
    for c, seat in pairs:
        groups.setdefault(seat, []).append(c)
    out = Text()
    for i, (seat, cards) in enumerate(sorted(groups.items())):
        if i:
            out.append(" · ")
        out.append(f"{names[seat] if 0 <= seat < len(names) else seat}: ")
        out.append_text(styled_cards([CARD_INDEX[c] for c in cards]))
    return out


def _pair(item: list[Any], names: Sequence[str]) -> Text:
    """``[card, seat]`` or ``[seat, card]`` as 'AC (Seat 1)'; other lists as they are."""
    if len(item) == 2:
        a, b = item
        if isinstance(a, str) and a in CARD_INDEX and isinstance(b, int):
            out = styled_card(CARD_INDEX[a])
            out.append(f" ({names[b] if 0 <= b < len(names) else b})")
            return out
        if isinstance(b, str) and b in CARD_INDEX and isinstance(a, int):
            out = Text(f"{names[a] if 0 <= a < len(names) else a} ")
            out.append_text(styled_card(CARD_INDEX[b]))
            return out
    return _bracket(item)


def score_view(facts: TableFacts, game: str) -> Text:
    """The match score per team or seat, with the game's unit and end rule."""
    out = Text(i18n.t("terminal.table.match_score") + " ", style="bold")
    for side, total in enumerate(facts.totals):
        if side:
            out.append(" · ")
        out.append(f"{side_name(facts, side)} {i18n.num(total)}")
    out.append(f" {present.score_unit(game)}")
    if facts.goal:
        out.append(f" ({facts.goal})", style="dim")
    return out


def side_name(facts: TableFacts, side: int) -> str:
    """A team by its seats ('You & Partner'), or a seat's name."""
    if facts.partnership and facts.num_teams == 2 and len(facts.seat_names) == 4:
        return i18n.t(
            "terminal.names.pair",
            a=_short(facts.seat_names, side),
            b=_short(facts.seat_names, side + 2),
        )
    if side < len(facts.seat_names):
        return _short(facts.seat_names, side)
    return i18n.t("terminal.names.side", n=side)


def turn_line(obs: Observation, facts: TableFacts) -> Text:
    """Phase and whose turn it is, and the match score."""
    out = Text()
    if obs.to_act is None:
        out.append(i18n.t("terminal.table.deal_over"), style="bold")
    else:
        out.append(present.short_phase(obs.game, obs.phase), style="bold")
        out.append(" · " + i18n.t("terminal.table.to_act") + " ")
        out.append(
            facts.seat_names[obs.to_act], style="bold yellow" if obs.to_act == obs.seat else ""
        )
    out.append(" · ")
    out.append_text(short_score(facts, obs.game, obs.seat))
    return out


def short_score(facts: TableFacts, game: str, viewer: int | None) -> Text:
    """'score us 4 · them 2 strokes' (partnerships) or 'score you 3, leader Seat 1 5'."""
    out = Text(i18n.t("terminal.table.score") + " ", style="dim")
    totals = facts.totals
    unit = present.score_unit(game)
    if facts.partnership and facts.num_teams == 2 and len(totals) == 2:
        if viewer is not None and viewer >= 0:
            out.append(
                i18n.t("terminal.table.us_them", us=totals[viewer % 2], them=totals[1 - viewer % 2])
            )
        else:
            out.append(i18n.t("terminal.table.teams", a=totals[0], b=totals[1]))
    elif totals:
        me = viewer if viewer is not None and 0 <= viewer < len(totals) else None
        best = max(range(len(totals)), key=lambda s: totals[s])
        if me is not None:
            out.append(i18n.t("terminal.table.you_score", n=totals[me]))
        if me is None or (best != me and totals[best] > totals[me]):
            name = (
                facts.seat_names[best]
                if best < len(facts.seat_names)
                else i18n.t("terminal.names.side", n=best)
            )
            if me is not None:
                out.append(i18n.t("ui.sep"))
            out.append(i18n.t("terminal.table.leader", name=name, n=totals[best]))
    out.append(f" {unit}", style="dim")
    return out


def choices_view(obs: Observation, menu: Any = None, width: int = 78) -> Text:
    """The choices as a compact menu: numbered entries (``#n`` in a menu with numbers,
    where a plain number is the bid), families and ranges answered by typing."""
    from folkcards.tui import menu as menus

    m = menu if menu is not None else menus.build(obs)
    prefix = "#" if m.numeric_verb is not None else ""
    cells: list[Text] = []
    for i, entry in enumerate(m.entries):
        cell = Text(f"{prefix}{i18n.num(i + 1)}) ", style="cyan")
        cell.append_text(entry_label(entry, obs.game))
        cells.append(cell)
    widest = max((len(c.plain) for c in cells), default=0) + 2
    out = Text()
    per_line = max(1, width // (widest + 1))
    if widest <= 26 and per_line >= min(len(cells), 3):
        for i, cell in enumerate(cells):
            if i and i % per_line == 0:
                out.append("\n")
            cell = cell.copy()
            if (i + 1) % per_line and i + 1 < len(cells):
                cell.pad_right(widest - len(cell.plain))
            out.append(" ")
            out.append_text(cell)
        return out
    col = 0
    for cell in cells:
        if col and col + len(cell.plain) + 2 > width:
            out.append("\n")
            col = 0
        out.append("  " if col else " ")
        out.append_text(cell)
        col += len(cell.plain) + 2
    return out


def entry_label(entry: Any, game: str = "") -> Text:
    """How a menu entry is drawn: its action (cards coloured), or its family (``bid 65–440
    in steps of 5``, ``deal to CARD``), in the current language."""
    from folkcards.tui import menu as menus

    if i18n.lang() == i18n.LANGS[0] or not entry.typing:
        return styled_text(entry.label, game)
    words = entry.label.split(" ")
    if entry.typing == "number":
        nums = [n for a in entry.actions if (n := a.step.number) is not None]
        return Text(f"{i18n.verb(words[0])} {menus.range_text(nums)}")
    out = Text()
    for i, tok in enumerate(words):
        if i:
            out.append(" ")
        out.append(
            i18n.t("terminal.menu.card") if tok == "CARD" else token_words(tok, first=i == 0)
        )
    return out


def table_view(
    obs: Observation,
    facts: TableFacts,
    *,
    recent: bool = True,
    marked: set[str] | None = None,
    max_lines: int = 24,
) -> RenderableType:
    """The whole table as this seat sees it, in at most ``max_lines`` lines (an 80×24
    screen has room for it, the task line, the choices and the prompt)."""
    parts: list[RenderableType] = [turn_line(obs, facts)]
    parts.extend(fact_lines(obs, facts))
    trick = trick_view(obs, facts.seat_names)
    if trick is not None:
        parts.append(trick)
    hand = Text(i18n.t("terminal.table.your_hand") + " ", style="bold")
    hand.append_text(hand_view(obs, marked))
    room = max_lines - 2 - len(parts) - 1 - (1 if trick is not None and "\n" in trick.plain else 0)
    if recent and room > 1:
        start = since_last_turn(obs)
        lines = history_lines(obs, facts.seat_names, start)
        if lines:
            shown = lines[-(room - 1) :]
            head = (
                i18n.t("terminal.table.since")
                if len(shown) == len(lines)
                else i18n.t("terminal.table.since_last", n=len(shown))
            )
            parts.append(Text(head, style="dim"))
            parts.extend(shown)
    parts.append(hand)
    title = i18n.t(
        "terminal.table.title",
        name=facts.seat_names[obs.seat],
        seat=obs.seat,
        game=facts.title,
        deal=facts.deal_number,
        dealer=facts.seat_names[obs.dealer],
    )
    return Panel(Group(*parts), title=title, title_align="left", padding=(0, 1))


def fact_lines(obs: Observation, facts: TableFacts) -> list[Text]:
    """The game's facts that matter now, in a few short lines (trump, contract, bids,
    points, the table in Scopone), in the game's own words."""
    from folkcards.tui import facts as game_facts

    return game_facts.lines(obs, facts)
