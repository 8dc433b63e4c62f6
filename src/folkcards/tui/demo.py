"""A whole match between bots, printed as a readable trick-by-trick log (``folkcards demo``).

The log is a spectator's: it shows every seat's hand when the card play starts and
every action as the referee records it, grouped into tricks (or, in Scopone, with the
table after each play) and told from the engine's events, then each deal's score from
its ``deal_end`` event and the match score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import DealState, FolkcardsError, Game
from folkcards.engine.match import Match
from folkcards.tui import i18n, narrate, present, view
from folkcards.tui.players import Decide, make_player

SAFETY_DEALS = 25
"""Deals played at most when the match has no end of its own (e.g. Satat's default)."""


def seat_specs(bots: str, num_seats: int) -> list[str]:
    """One bot spec per seat from ``heuristic`` or a comma list ``search,random,…``."""
    specs = [s.strip() for s in bots.split(",") if s.strip()]
    if not specs:
        specs = ["heuristic"]
    if len(specs) == 1:
        return specs * num_seats
    if len(specs) != num_seats:
        raise FolkcardsError(f"give one bot or {num_seats} comma-separated bots, not {len(specs)}")
    return specs


def run_demo(
    game: Game,
    variant: Mapping[str, Any],
    bots: str,
    seed: int | None,
    console: Console,
    max_deals: int | None = None,
) -> int:
    """Play and print a match; returns the number of deals played."""
    match = Match(game, variant, rng=random.Random(seed) if seed is not None else random.Random())
    n = game.num_seats(match.variant)
    specs = seat_specs(bots, n)
    players: list[Decide] = [make_player(s) for s in specs]
    base = str(seed) if seed is not None else None
    rngs = [random.Random(f"demo-{base}-{s}") if base else random.Random() for s in range(n)]
    names = [i18n.t("terminal.names.seat", n=s) for s in range(n)]
    title = i18n.game_title(game.name, game.title)
    facts = view.TableFacts(
        title=title,
        seat_names=names,
        seat_roles=[
            i18n.t("terminal.session.role_seat", name=names[s], seat=s, who=i18n.bot_level(spec))
            for s, spec in enumerate(specs)
        ],
        partnership=game.partnership and game.num_teams(match.variant) == 2,
        num_teams=game.num_teams(match.variant),
        goal=present.match_goal(game.name, match.variant),
    )
    console.print(Text(i18n.t("terminal.session.start", game=title, goal=facts.goal), style="bold"))
    console.print(i18n.t("terminal.demo.players", roles=" · ".join(facts.seat_roles)))
    if facts.partnership:
        console.print(i18n.t("terminal.demo.teams"))
    limit = max_deals if max_deals is not None else SAFETY_DEALS
    played = 0
    while not match.is_over and played < limit:
        deal = match.new_deal()
        played += 1
        console.rule(i18n.t("terminal.demo.deal", n=played, dealer=names[deal.dealer]))
        play_logged(deal, players, rngs, names, console, facts.partnership)
        match.finish_deal()
        facts.totals = list(match.state.totals)
        console.print(Text(i18n.t("terminal.table.deal_result"), style="bold"))
        end = narrate.deal_end(deal, None)
        if end is None:  # a game without events: its score alone
            end = {"score": deal.result().get("score")}
        for line in narrate.breakdown(end, game.name, names, None, facts.partnership):
            console.print(line)
        console.print(view.score_view(facts, game.name))
    console.rule(
        i18n.t("terminal.session.match_over")
        if match.is_over
        else i18n.t("terminal.demo.stopped", n=played)
    )
    st = match.state
    facts.totals = list(st.totals)
    if match.is_over:
        if st.draw:
            console.print(Text(i18n.t("terminal.session.drawn"), style="bold"))
        elif st.winner is not None:
            winner = view.side_name(facts, st.winner)
            console.print(Text(i18n.t("terminal.demo.winner", side=winner), style="bold"))
    console.print(view.score_view(facts, game.name))
    return played


def play_logged(
    deal: DealState,
    players: Sequence[Decide],
    rngs: Sequence[random.Random],
    names: Sequence[str],
    console: Console,
    partnership: bool = False,
) -> None:
    """Play one deal with the bots, logging it (each bot sees only its observation): every
    action but the cards of a trick, which the trick's line names with its winner and
    points, and what each action changed, from the engine's events as the referee knows
    them (the demo shows every hand) — the same lines a player's table prints."""
    hands_shown = False
    game = deal.game.name
    trickless = not present.takes_tricks(game, deal.variant)
    told = len(narrate.referee_events(deal, 0))
    pending: list[tuple[int, str]] = []  # the cards of the trick not yet taken
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        obs = deal.observation(seat)
        action = players[seat](obs, rngs[seat])
        step = action.step
        if step.kind == "play" and not hands_shown:
            show_hands(deal, names, console)
            hands_shown = True
        deal.apply(action)
        found = narrate.referee_events(deal, told)
        told += len(found)
        if step.kind == "play" and not trickless:
            pending.append((seat, CARD_NAMES[step.cards[0]]))
            if any(e.kind == "trick" for e in found):
                pending = []
        else:
            line = Text(f"  {names[seat]}: ")
            line.append_text(view.styled_text(action.text, game))
            table = deal.observation(seat).info.get("table")
            if trickless and step.kind == "play" and isinstance(table, list):
                line.append("   " + i18n.t("terminal.demo.table") + " ", style="dim")
                empty = Text(i18n.t("terminal.facts.empty"), style="dim")
                line.append_text(view.format_value(table) if table else empty)
            console.print(line)
        for told_line in narrate.from_events(found, game, names, None, partnership):
            console.print(told_line)
    if pending:
        line = Text("  " + i18n.t("terminal.demo.unfinished") + " ", style="dim")
        line.append(" ".join(f"{names[s]} {i18n.ltr(c)}" for s, c in pending))
        console.print(line)


def show_hands(deal: DealState, names: Sequence[str], console: Console) -> None:
    """Every seat's hand when the card play starts (a spectator's view)."""
    for s in range(deal.num_seats):
        obs = deal.observation(s)
        line = Text("  " + i18n.t("terminal.demo.holds", name=names[s]) + " ", style="dim")
        line.append_text(view.hand_view(_as_spectator(obs)))
        console.print(line)
    table = deal.observation(0).info.get("table")
    if not present.takes_tricks(deal.game.name, deal.variant) and isinstance(table, list):
        line = Text("  " + i18n.t("terminal.facts.table") + " ", style="dim")
        line.append_text(view.format_value(table))
        console.print(line)


def _as_spectator(obs: Any) -> Any:
    """The observation with no legal actions (so the hand is drawn plainly)."""
    from dataclasses import replace

    return replace(obs, legal=())
