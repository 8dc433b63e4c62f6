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
from folkcards.tui import explain as explaining
from folkcards.tui import hints, i18n, inputs, narrate, present, prompts, view
from folkcards.tui import menu as menus
from folkcards.tui.players import Decide, make_player, suggest

CLEAR_ALL = "\x1b[3J\x1b[2J\x1b[H"
"""Clear the scrollback (``\\x1b[3J``) as well as the screen: on a hand-over nobody may
scroll back to the previous person's hand."""

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
    explain: bool = True
    """One-line explanations, jump-bid confirmations and signal questions (``explain off``)."""
    lang: str = "en"
    pending: dict[int, list[Action]] = field(default_factory=dict)
    told: int = 0
    """How many of the viewer's engine events of this deal have been told."""
    """Actions typed ahead in one line (``bury tc 8h``), per seat, still to be made."""

    def __post_init__(self) -> None:
        self.lang = i18n.set_lang(self.lang)
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
                names.append(i18n.t("terminal.names.you"))
            elif s == partner:
                names.append(i18n.t("terminal.names.partner"))
            else:
                names.append(i18n.t("terminal.names.seat", n=s))
        return names

    def seat_roles(self) -> list[str]:
        """Each seat's name with who plays it (person or bot level)."""
        out = []
        plain = [i18n.t("terminal.names.seat", n=s) for s in range(self.num_seats)]
        for s, name in enumerate(self.seat_names()):
            if s in self.seating.people:
                who = i18n.t("terminal.session.person")
            else:
                who = i18n.t("terminal.session.bot", level=i18n.bot_level(self.seating.bots))
            key = "terminal.session.role_seat" if name == plain[s] else "terminal.session.role"
            out.append(i18n.t(key, name=name, seat=s, who=who))
        return out

    def facts(self) -> view.TableFacts:
        """The public match facts drawn beside every view."""
        game = self.match.game
        v = self.match.variant
        return view.TableFacts(
            title=i18n.game_title(game.name, game.title),
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
        goal = present.match_goal(game.name, self.match.variant)
        title = i18n.game_title(game.name, game.title)
        self.console.print(
            Text(i18n.t("terminal.session.start", game=title, goal=goal), style="bold")
        )
        self.console.print(i18n.t("terminal.session.help_first", seating=self.seating_line()))
        try:
            while True:
                deal = self.match.current
                if deal is None:
                    if self.match.is_over:
                        break
                    deal = self.match.new_deal()
                    self.console.rule(i18n.t("terminal.session.deal", n=len(self.match.deals)))
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
            self.console.print("\n" + i18n.t("terminal.session.interrupted"))
            self.offer_save(can_ask=True)
            return 130
        except EOFError:
            self.console.print("\n" + i18n.t("terminal.session.input_closed"))
            self.offer_save(can_ask=False)
            return 0

    def seating_line(self) -> str:
        """Who plays which seat, in words."""
        people = self.seating.people
        seats = i18n.t("ui.sep").join(map(i18n.num, people))
        if self.seating.hotseat:
            return i18n.t("terminal.session.hotseat", seats=seats)
        if not people:
            return i18n.t("terminal.session.all_bots", level=i18n.bot_level(self.seating.bots))
        level = i18n.bot_level(self.seating.bots)
        return i18n.t("terminal.session.you_play", seats=seats, level=level)

    def play_deal(self, deal: DealState) -> None:
        """Ask people and bots in turn until the deal is over, narrating as it goes."""
        viewer = self.viewer()
        shown = len(deal.observation(viewer).history) if viewer is not None else 0
        if viewer is not None and not self.seating.hotseat and shown:
            obs = deal.observation(viewer)
            for line in view.history_lines(obs, self.seat_names()):
                self.console.print(line)
        self.pending.clear()
        if viewer is not None:
            self.told = len(narrate.engine_events(deal, viewer, 0))
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            before = deal.observation(viewer) if viewer is not None else None
            if seat in self.seating.people:
                action = self.person_turn(deal, seat)
            else:
                action = self.players[seat](deal.observation(seat), self.rngs[seat])
            deal.apply(action)
            if viewer is not None and before is not None and not self.seating.hotseat:
                self.stream(deal, viewer, before, seat)

    def viewer(self) -> int | None:
        """The seat whose view the running log follows (the person's, outside hot-seat)."""
        return self.seating.people[0] if self.seating.people else None

    def stream(self, deal: DealState, viewer: int, before: Observation, actor: int) -> None:
        """Print the last action as the viewer saw it, and what it changed (trick taken and
        by whom for how much, sweep, trump, contract): from the engine's events for the
        viewer."""
        obs = deal.observation(viewer)
        names = self.seat_names()
        for i in range(len(before.history), len(obs.history)):
            who = obs.actors[i] if i < len(obs.actors) else actor
            self.console.print(narrate.action_line(who, obs.history[i], names, obs.game))
        partnership = self.facts().partnership
        found = narrate.engine_events(deal, viewer, self.told)
        self.told += len(found)
        for line in narrate.from_events(found, deal.game.name, names, viewer, partnership):
            self.console.print(line)

    # --- a person's turn ----------------------------------------------------------------
    def person_turn(self, deal: DealState, seat: int) -> Action:
        """Draw the seat's view, then read until it names a legal action."""
        if self.seating.hotseat and seat != self.last_person:
            self.privacy_screen(seat)
        self.last_person = seat
        obs = deal.observation(seat)
        queued = self.pending.pop(seat, [])
        if queued:
            found = next((a for a in obs.legal if a == queued[0]), None)
            if found is not None:
                if queued[1:]:
                    self.pending[seat] = queued[1:]
                return found
            names = self.seat_names()
            why = explaining.refusal(deal, queued[0], seat, names)
            said = explaining.not_allowed(queued[0].text, why, deal.game.name)
            self.console.print(Text(said, style="yellow"))
        facts = self.facts()
        menu = menus.build(obs)
        self.draw(obs, facts, menu)
        game = self.match.game
        prompt = i18n.t("terminal.session.prompt", name=facts.seat_names[seat], seat=seat)
        prompt = f"{prompt} {PROMPT_END}"
        while True:
            text = self.read(prompt)
            try:
                cmd = inputs.resolve(text, obs, game, menu)
                if cmd.kind == "entry" and cmd.entry is not None:
                    cmd = self.complete(cmd.entry, obs, menu, prompt)
            except inputs.InputError as exc:
                self.console.print(Text(str(exc), style="yellow"))
                continue
            if cmd.kind == "action" and cmd.action is not None:
                if cmd.confirm and self.explain and not self.confirm(cmd.confirm, cmd.action):
                    continue
                action = self.decorate(cmd.action, menu, prompt)
                if cmd.more:
                    self.pending[seat] = list(cmd.more)
                return action
            self.command(cmd, deal, obs, facts)

    def complete(
        self, entry: menus.Entry, obs: Observation, menu: menus.Menu, prompt: str
    ) -> inputs.Command:
        """Ask how to complete a family entry (a bid number, a card to deal to)."""
        verb = " ".join(entry.label.split(" ")[: 2 if entry.typing == "card" else 1])
        shown = view.entry_label(entry, obs.game).plain
        ask = {
            "number": i18n.t("terminal.session.which_number", entry=shown),
            "card": i18n.t("terminal.session.which_card", example=i18n.ltr(f"{verb} 9h")),
            "cards": i18n.t("terminal.session.which_cards", example=i18n.ltr(f"{verb} 7c 3d")),
        }.get(entry.typing, i18n.t("terminal.session.type_choice"))
        self.console.print(Text(ask, style="cyan"))
        answer = i18n.english_words(self.read(prompt))
        if (entry.typing == "number" and answer.isdigit()) or (
            entry.typing in ("card", "cards")
            and answer
            and not answer.lower().startswith(verb.split()[0])
        ):
            answer = f"{verb} {answer}"
        return inputs.resolve(answer, obs, self.match.game, menu)

    def confirm(self, question: str, action: Action) -> bool:
        """Ask before a jump bid; Enter or y goes ahead."""
        ask = i18n.t(
            "terminal.session.confirm", question=question, action=view.action_words(action.text)
        )
        answer = i18n.english_words(self.read(f"{ask} {PROMPT_END}")).lower()
        return answer in ("", "y", "yes") or answer == i18n.t("words.yes")

    def decorate(self, action: Action, menu: menus.Menu, prompt: str) -> Action:
        """Satat's signals: after a plain play, one small question (Enter = none)."""
        options = menu.decorations.get(action.text, [])
        if not options or not self.explain:
            return action
        words = [w for a in options if (w := menus.signal(a.step)) is not None]
        listed = " · ".join(f"{w[0]} {view.token_words(w).strip(' +')}" for w in words)
        card = view.action_words(action.text)
        while True:
            ask = i18n.t("terminal.session.signal", action=card, listed=listed)
            answer = self.read(f"{ask} {PROMPT_END}")
            answer = i18n.english_words(answer).lower()
            if not answer:
                return action
            for a, w in zip(options, words, strict=True):
                if w.startswith(answer):
                    return a
            letters = i18n.t("ui.sep").join(w[0] for w in words)
            self.console.print(
                Text(i18n.t("terminal.session.signal_again", letters=letters), style="yellow")
            )

    def draw(
        self, obs: Observation, facts: view.TableFacts, menu: menus.Menu | None = None
    ) -> None:
        """The table, what to do now, and the choices, fitted to the terminal's height."""
        menu = menu if menu is not None else menus.build(obs)
        width = max(40, min(self.console.width, 120) - 2)
        task = Text(prompts.task(obs, facts.seat_names), style="bold")
        notes = [Text(n, style="dim") for n in prompts.notes(obs)] if self.explain else []
        header = Text(
            i18n.t("terminal.session.choices", phase=present.short_phase(obs.game, obs.phase)),
            style="bold",
        )
        choices = view.choices_view(obs, menu, width=width)
        below = [task, *notes, header, choices]
        used = sum(self._height(t) for t in below) + 1  # + the prompt
        room = max(8, self.console.height - used)
        marked = prompts.received(obs)
        self.console.print(
            view.table_view(obs, facts, recent=self.seating.hotseat, marked=marked, max_lines=room)
        )
        for t in below:
            self.console.print(t)

    def _height(self, text: Text) -> int:
        """Lines ``text`` takes on this console."""
        return len(
            self.console.render_lines(text, self.console.options.update(height=None), pad=False)
        )

    def command(
        self, cmd: inputs.Command, deal: DealState, obs: Observation, facts: view.TableFacts
    ) -> None:
        """Carry out a table command (everything but choosing an action)."""
        game = self.match.game
        names = facts.seat_names
        if cmd.kind == "illegal" and cmd.action is not None:
            why = explaining.refusal(deal, cmd.action, obs.seat, names)
            said = explaining.not_allowed(cmd.action.text, why, game.name)
            self.console.print(Text(said, style="yellow"))
        elif cmd.kind == "refused":
            rules = tuple(getattr(cmd.explanation, "rules", ()) or ())
            words = explaining.reason(
                cmd.explanation, cmd.message, rules, obs.seat, names, game.name
            )
            self.console.print(
                Text(i18n.t("terminal.explain.not_allowed_why", why=words), style="yellow")
            )
        elif cmd.kind == "rules":
            from folkcards.commands.rules import print_rules

            print_rules(self.console, game.name, self.lang, phase=obs.phase, topic=cmd.arg)
        elif cmd.kind == "explain":
            arg = cmd.arg.strip().lower()
            off = ("off", "no", "0", i18n.t("terminal.session.off"), i18n.t("words.no"))
            self.explain = arg not in off if arg else not self.explain
            key = "terminal.session.explain_on" if self.explain else "terminal.session.explain_off"
            self.console.print(i18n.t(key))
        elif cmd.kind == "hint":
            self.show_hint(obs)
        elif cmd.kind == "why":
            target = inputs.why_action(cmd.arg, obs, game)
            if isinstance(target, str):
                self.console.print(Text(target, style="yellow"))
            elif target in obs.legal:
                said = view.action_words(target.text, game.name)
                self.console.print(i18n.t("terminal.session.legal_now", action=said))
            else:
                why = explaining.refusal(deal, target, obs.seat, names)
                said = view.action_words(target.text, game.name)
                self.console.print(
                    Text(i18n.t("terminal.session.why", action=said, why=why), style="yellow")
                )
        elif cmd.kind == "history":
            lines = view.history_lines(obs, facts.seat_names)
            self.console.print(Text(i18n.t("terminal.session.so_far", n=len(lines)), style="bold"))
            for line in lines or [Text(i18n.t("terminal.session.nothing_yet"), style="dim")]:
                self.console.print(line)
        elif cmd.kind == "help":
            self.console.print(inputs.help_text())
        elif cmd.kind == "table":
            self.draw(obs, facts, menus.build(obs))
        elif cmd.kind == "save":
            path = Path(cmd.arg) if cmd.arg else self.save_path
            if path is None:
                self.console.print(i18n.t("terminal.session.save_where"))
            else:
                self.write(path)
        elif cmd.kind == "quit":
            raise QuitMatch

    def show_hint(self, obs: Observation) -> None:
        """The adviser's suggestion for this seat, from its observation only: the
        recommendation first, then the alternatives on one labelled scale."""
        self.console.print(
            Text(
                i18n.t("terminal.session.thinking", bot=i18n.bot_level(self.seating.hint)),
                style="dim",
            )
        )
        out = suggest(obs, self.seating.hint, self.hint_rng)
        if isinstance(out, str):
            self.console.print(Text(out, style="yellow"))
            return
        for i, line in enumerate(hints.lines(out)):
            if i == 0:
                head = i18n.tx(
                    "hint_panel.title",
                    style="bold green",
                    action=view.styled_text(str(out["choice"]), obs.game),
                )
                self.console.print(head)
            else:
                self.console.print(Text(line, style="dim"))

    def privacy_screen(self, seat: int) -> None:
        """Hot-seat: clear the screen and the scrollback, then wait until the named
        person is at the keyboard."""
        self.clear_all()
        name = self.seat_names()[seat]
        self.console.print(
            Text(i18n.t("terminal.session.hand_over", name=name, seat=seat), style="bold")
        )
        self.read(f"{i18n.t('terminal.session.press_enter', seat=seat)} {PROMPT_END}")
        self.clear_all()

    def clear_all(self) -> None:
        """Clear the screen and its scrollback (only on a terminal)."""
        if self.console.is_terminal:
            self.console.file.write(CLEAR_ALL)
            self.console.file.flush()
        else:
            self.console.clear()

    # --- between deals ------------------------------------------------------------------
    def deal_summary(self, deal: DealState) -> None:
        """The result in words and numbers, every hand shown open, and the totals."""
        facts = self.facts()
        self.console.rule(i18n.t("terminal.session.end_of_deal", n=len(self.match.deals)))
        viewer = self.viewer() if not self.seating.hotseat else None
        self.console.print(Text(i18n.t("terminal.session.deal_result"), style="bold"))
        end = narrate.deal_end(deal, viewer)
        if end is None:  # a game without events: its score alone
            end = {"score": deal.result().get("score")}
        for line in narrate.breakdown(
            end, deal.game.name, facts.seat_names, viewer, facts.partnership
        ):
            self.console.print(line)
        for line in narrate.open_hands(deal, facts.seat_names):
            self.console.print(line)
        self.console.print(view.score_view(facts, deal.game.name))

    def match_summary(self) -> None:
        """Who won the match, by the game's rule."""
        st = self.match.state
        facts = self.facts()
        self.console.rule(i18n.t("terminal.session.match_over"))
        if st.draw:
            self.console.print(Text(i18n.t("terminal.session.drawn"), style="bold"))
        elif st.winner is not None:
            who = view.side_name(facts, st.winner)
            self.console.print(Text(i18n.t("terminal.session.won_by", side=who), style="bold"))
        self.console.print(view.score_view(facts, self.match.game.name))

    def ask_next_deal(self) -> bool:
        """Ask whether to play on; False when the person wants to stop."""
        while True:
            answer = self.read(f"{i18n.t('terminal.session.next_deal')} {PROMPT_END}")
            answer = i18n.english_words(answer).lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("q", "quit", "n", "no", "stop") or inputs.command_word(answer) == "quit":
                return False
            self.console.print(Text(i18n.t("terminal.session.next_again"), style="yellow"))

    # --- records ------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The match record, with the seating under ``meta`` for ``--resume``."""
        rec = self.match.record()
        rec["meta"] = {META_KEY: self.seating.to_meta()}
        return rec

    def write(self, path: Path) -> bool:
        """Save the match record to ``path``; False (with a message) if there is nothing or it fails."""
        if not self.match.deals:
            self.console.print(i18n.t("terminal.session.nothing_to_save"))
            return False
        try:
            save(self.record(), path)
        except OSError as exc:
            said = i18n.t("terminal.session.save_failed", path=i18n.ltr(str(path)), error=exc)
            self.console.print(Text(said, style="red"))
            return False
        resume = i18n.ltr(f"folkcards play --resume {path}")
        self.console.print(
            i18n.t("terminal.session.saved", path=i18n.ltr(str(path)), resume=resume)
        )
        return True

    def autosave(self) -> None:
        """With ``--save``, keep the file up to date after every deal."""
        if self.save_path is not None and self.match.deals:
            try:
                save(self.record(), self.save_path)
            except OSError as exc:
                said = i18n.t(
                    "terminal.session.save_failed", path=i18n.ltr(str(self.save_path)), error=exc
                )
                self.console.print(Text(said, style="red"))

    def offer_save(self, *, can_ask: bool) -> None:
        """On leaving early: save to ``--save`` or ask for a file (when input still works)."""
        if not self.match.deals:
            return
        if self.save_path is not None:
            self.write(self.save_path)
            return
        if not can_ask:
            self.console.print(i18n.t("terminal.session.not_saved_hint"))
            return
        try:
            answer = self.read(f"{i18n.t('terminal.session.save_ask')} {PROMPT_END}")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip():
            self.write(Path(answer.strip()))
        else:
            self.console.print(i18n.t("terminal.session.not_saved"))


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
