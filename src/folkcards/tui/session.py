"""The terminal match: people at some seats, bots at the others, the engine as referee.

:class:`PlaySession` holds the live :class:`~folkcards.engine.match.Match` (the referee's
state) and hands each seat only ``observation(seat)``: a person's screen is drawn from
it, a bot decides from it. A person's input is checked against the observation's legal
actions; the state is asked only to apply a chosen action and to explain (citing the
rule) why an action the person named is not legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from folkcards.engine.actions import Action
from folkcards.engine.api import DealState, FolkcardsError, Observation
from folkcards.engine.match import Match
from folkcards.engine.records import save
from folkcards.tui import inputs, present, view
from folkcards.tui.players import Decide, make_player, suggest

PROMPT_END = "> "
"""Every prompt ends with this (tests and scripts wait for it)."""

META_KEY = "terminal"
"""The key under the record's ``meta`` where the table's seating is kept for ``--resume``."""


class QuitMatch(Exception):
    """The person asked to end the match."""


Reader = Callable[[str], str]


@dataclass
class Seating:
    """Who sits where: the seats played by people, the bot spec of the others, hot-seat."""

    people: list[int]
    bots: str = "heuristic"
    hotseat: bool = False
    hint: str = "search"

    def to_meta(self) -> dict[str, Any]:
        """The seating as JSON for the record's ``meta``."""
        return {"people": list(self.people), "bots": self.bots, "hotseat": self.hotseat}


@dataclass
class PlaySession:
    """One match played at the terminal."""

    match: Match
    seating: Seating
    console: Console
    read: Reader
    save_path: Path | None = None
    seed: int | None = None
    players: dict[int, Decide] = field(default_factory=dict)
    rngs: dict[int, random.Random] = field(default_factory=dict)
    last_person: int | None = None

    def __post_init__(self) -> None:
        n = self.match.game.num_seats(self.match.variant)
        base = f"{self.seed}" if self.seed is not None else None
        for seat in range(n):
            if seat not in self.seating.people:
                self.players[seat] = make_player(self.seating.bots)
            self.rngs[seat] = random.Random(f"bot-{base}-{seat}") if base else random.Random()
        self.hint_rng = random.Random(f"hint-{base}") if base else random.Random()

    # --- names and facts ----------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        """Seats at this table."""
        return self.match.game.num_seats(self.match.variant)

    def seat_names(self) -> list[str]:
        """How each seat is called on screen: You, Partner, Seat N."""
        people = self.seating.people
        solo = people[0] if len(people) == 1 and not self.seating.hotseat else None
        partner = (
            (solo + 2) % 4
            if solo is not None and self.match.game.partnership and self.num_seats == 4
            else None
        )
        names = []
        for s in range(self.num_seats):
            if s == solo:
                names.append("You")
            elif s == partner:
                names.append("Partner")
            else:
                names.append(f"Seat {s}")
        return names

    def seat_roles(self) -> list[str]:
        """Each seat's name with who plays it (person or bot level)."""
        out = []
        for s, name in enumerate(self.seat_names()):
            who = "person" if s in self.seating.people else f"{self.seating.bots} bot"
            out.append(
                f"{name} = seat {s}, {who}" if not name.startswith("Seat") else f"{name}: {who}"
            )
        return out

    def facts(self) -> view.TableFacts:
        """The public match facts drawn beside every view."""
        game = self.match.game
        v = self.match.variant
        return view.TableFacts(
            title=game.title,
            seat_names=self.seat_names(),
            seat_roles=self.seat_roles(),
            partnership=game.partnership and game.num_teams(v) == 2,
            num_teams=game.num_teams(v),
            totals=list(self.match.state.totals),
            deal_number=max(1, len(self.match.deals)),
            goal=present.match_goal(game.name, v),
        )

    # --- the match ----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match ends or the person stops; 0 on a clean end, 130 on Ctrl-C."""
        game = self.match.game
        self.console.print(
            Text(
                f"{game.title} — {present.match_goal(game.name, self.match.variant)}.", style="bold"
            )
        )
        self.console.print(f"Type 'help' at any prompt for the commands. {self.seating_line()}")
        try:
            while True:
                deal = self.match.current
                if deal is None:
                    if self.match.is_over:
                        break
                    deal = self.match.new_deal()
                    self.console.rule(f"Deal {len(self.match.deals)}")
                self.play_deal(deal)
                self.match.finish_deal()
                self.deal_summary(deal)
                self.autosave()
                if self.match.is_over:
                    break
                if self.seating.people and not self.ask_next_deal():
                    self.offer_save(can_ask=True)
                    return 0
            self.match_summary()
            return 0
        except QuitMatch:
            self.offer_save(can_ask=True)
            return 0
        except KeyboardInterrupt:
            self.console.print("\nInterrupted.")
            self.offer_save(can_ask=True)
            return 130
        except EOFError:
            self.console.print("\nInput closed.")
            self.offer_save(can_ask=False)
            return 0

    def seating_line(self) -> str:
        """Who plays which seat, in words."""
        people = self.seating.people
        if self.seating.hotseat:
            return (
                f"Hot-seat: seats {', '.join(map(str, people))} are people sharing this terminal."
            )
        if not people:
            return f"All seats are bots ({self.seating.bots})."
        return (
            f"You play seat {', '.join(map(str, people))}; the others are {self.seating.bots} bots."
        )

    def play_deal(self, deal: DealState) -> None:
        """Ask people and bots in turn until the deal is over."""
        viewer = self.viewer()
        shown = len(deal.observation(viewer).history) if viewer is not None else 0
        if viewer is not None and not self.seating.hotseat and shown:
            obs = deal.observation(viewer)
            for line in view.history_lines(obs, self.seat_names()):
                self.console.print(line)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            if seat in self.seating.people:
                action = self.person_turn(deal, seat)
            else:
                action = self.players[seat](deal.observation(seat), self.rngs[seat])
            deal.apply(action)
            if viewer is not None and not self.seating.hotseat:
                shown = self.stream(deal, viewer, shown)

    def viewer(self) -> int | None:
        """The seat whose view the running log follows (the person's, outside hot-seat)."""
        return self.seating.people[0] if self.seating.people else None

    def stream(self, deal: DealState, viewer: int, shown: int) -> int:
        """Print the actions the viewer has not seen yet, as the viewer sees them."""
        obs = deal.observation(viewer)
        names = self.seat_names()
        for line in view.history_lines(obs, names, shown):
            self.console.print(line)
        n = obs.num_seats
        played = view.plays(obs)
        last = obs.history[-1].split(" ") if obs.history else []
        if (
            obs.game not in view.TRICKLESS
            and last[:1] == ["play"]
            and played
            and len(played) % n == 0
        ):
            trick = Text(f"     Trick {len(played) // n} complete: ", style="dim")
            for i, (s, c) in enumerate(played[-n:]):
                if i:
                    trick.append("  ")
                trick.append(f"{names[s]} ", style="dim")
                trick.append_text(view.styled_card(c))
            self.console.print(trick)
        return len(obs.history)

    # --- a person's turn ----------------------------------------------------------------
    def person_turn(self, deal: DealState, seat: int) -> Action:
        """Draw the seat's view, then read until it names a legal action."""
        if self.seating.hotseat and seat != self.last_person:
            self.privacy_screen(seat)
        self.last_person = seat
        obs = deal.observation(seat)
        facts = self.facts()
        self.draw(obs, facts)
        game = self.match.game
        prompt = f"{facts.seat_names[seat]} (seat {seat}) {PROMPT_END}"
        while True:
            text = self.read(prompt)
            try:
                cmd = inputs.resolve(text, obs, game)
            except inputs.InputError as exc:
                self.console.print(Text(str(exc), style="yellow"))
                continue
            if cmd.kind == "action" and cmd.action is not None:
                return cmd.action
            self.command(cmd, deal, obs, facts)

    def draw(self, obs: Observation, facts: view.TableFacts) -> None:
        """The table and the numbered choices."""
        self.console.print(view.table_view(obs, facts, recent=self.seating.hotseat))
        self.console.print(
            Text(f"Your choices ({present.phase_title(obs.game, obs.phase)}):", style="bold")
        )
        self.console.print(view.choices_view(obs))

    def command(
        self, cmd: inputs.Command, deal: DealState, obs: Observation, facts: view.TableFacts
    ) -> None:
        """Carry out a table command (everything but choosing an action)."""
        game = self.match.game
        if cmd.kind == "illegal" and cmd.action is not None:
            self.console.print(
                Text(f"Not allowed: {deal.explain_illegal(cmd.action)}", style="yellow")
            )
        elif cmd.kind == "hint":
            self.show_hint(obs)
        elif cmd.kind == "why":
            target = inputs.why_action(cmd.arg, obs, game)
            if isinstance(target, str):
                self.console.print(Text(target, style="yellow"))
            elif target in obs.legal:
                self.console.print(f"{target.text} is legal now.")
            else:
                self.console.print(
                    Text(f"{target.text}: {deal.explain_illegal(target)}", style="yellow")
                )
        elif cmd.kind == "history":
            lines = view.history_lines(obs, facts.seat_names)
            self.console.print(Text(f"The deal so far ({len(lines)} actions):", style="bold"))
            for line in lines or [Text("(nothing yet)", style="dim")]:
                self.console.print(line)
        elif cmd.kind == "help":
            self.console.print(inputs.HELP)
        elif cmd.kind == "table":
            self.draw(obs, facts)
        elif cmd.kind == "save":
            path = Path(cmd.arg) if cmd.arg else self.save_path
            if path is None:
                self.console.print("Say where: save FILE")
            else:
                self.write(path)
        elif cmd.kind == "quit":
            raise QuitMatch

    def show_hint(self, obs: Observation) -> None:
        """The search bot's suggestion for this seat, from its observation only."""
        self.console.print(Text(f"Thinking ({self.seating.hint})…", style="dim"))
        out = suggest(obs, self.seating.hint, self.hint_rng)
        if isinstance(out, str):
            self.console.print(Text(out, style="yellow"))
            return
        line = Text("Hint: ", style="bold green")
        line.append_text(view.styled_text(str(out["choice"])))
        ranked = out.get("actions", [])[:3]
        if ranked and out.get("scale") != "uniform":
            line.append("   (", style="dim")
            line.append(", ".join(f"{a['action']} {a['value']:.2f}" for a in ranked), style="dim")
            line.append(")", style="dim")
        self.console.print(line)

    def privacy_screen(self, seat: int) -> None:
        """Hot-seat: clear the screen and wait until the next person is at the keyboard."""
        self.console.clear()
        self.console.print(
            Text(f"Hand over to seat {seat}. Everyone else, look away.", style="bold")
        )
        self.read(f"Seat {seat}: press Enter when ready {PROMPT_END}")
        self.console.clear()

    # --- between deals ------------------------------------------------------------------
    def deal_summary(self, deal: DealState) -> None:
        """The result, score change and totals of a finished deal, shown to everyone."""
        facts = self.facts()
        self.console.rule(f"End of deal {len(self.match.deals)}")
        self.console.print(view.result_view(deal.result(), facts, deal.game.name))

    def match_summary(self) -> None:
        """Who won the match, by the game's rule."""
        st = self.match.state
        facts = self.facts()
        self.console.rule("Match over")
        if st.draw:
            self.console.print(Text("The match is drawn.", style="bold"))
        elif st.winner is not None:
            self.console.print(
                Text(f"The match is won by {view.side_name(facts, st.winner)}.", style="bold")
            )
        self.console.print(view.score_view(facts, self.match.game.name))

    def ask_next_deal(self) -> bool:
        """Ask whether to play on; False when the person wants to stop."""
        while True:
            answer = self.read(f"Next deal? Enter = yes, q = stop {PROMPT_END}").strip().lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("q", "quit", "n", "no", "stop"):
                return False
            self.console.print(
                Text("Press Enter for the next deal, or type q to stop.", style="yellow")
            )

    # --- records ------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The match record, with the seating under ``meta`` for ``--resume``."""
        rec = self.match.record()
        rec["meta"] = {META_KEY: self.seating.to_meta()}
        return rec

    def write(self, path: Path) -> bool:
        """Save the match record to ``path``; False (with a message) if there is nothing or it fails."""
        if not self.match.deals:
            self.console.print("Nothing to save yet.")
            return False
        try:
            save(self.record(), path)
        except OSError as exc:
            self.console.print(Text(f"Could not save to {path}: {exc}", style="red"))
            return False
        self.console.print(
            f"Match saved to {path} (continue with: folkcards play --resume {path})."
        )
        return True

    def autosave(self) -> None:
        """With ``--save``, keep the file up to date after every deal."""
        if self.save_path is not None and self.match.deals:
            try:
                save(self.record(), self.save_path)
            except OSError as exc:
                self.console.print(Text(f"Could not save to {self.save_path}: {exc}", style="red"))

    def offer_save(self, *, can_ask: bool) -> None:
        """On leaving early: save to ``--save`` or ask for a file (when input still works)."""
        if not self.match.deals:
            return
        if self.save_path is not None:
            self.write(self.save_path)
            return
        if not can_ask:
            self.console.print("The match was not saved (start with --save FILE to keep a record).")
            return
        try:
            answer = self.read(
                f"Save the match? Type a file name, or Enter to leave without saving {PROMPT_END}"
            )
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip():
            self.write(Path(answer.strip()))
        else:
            self.console.print("Not saved.")


def seating_from_meta(record: dict[str, Any]) -> dict[str, Any]:
    """The seating stored by :meth:`PlaySession.record` (empty when the record has none)."""
    meta = record.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get(META_KEY), dict):
        out: dict[str, Any] = meta[META_KEY]
        return out
    return {}


def check_people(people: list[int], num_seats: int) -> None:
    """FolkcardsError unless every seat number is at the table."""
    for s in people:
        if not 0 <= s < num_seats:
            raise FolkcardsError(f"seat {s} is not at this table (seats 0–{num_seats - 1})")
