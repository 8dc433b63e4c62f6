"""A table's state as its event log makes it: pure data, changed only by :meth:`TableState.apply`.

Nothing here knows of connections, timers or the event loop. A live table
(:mod:`folkcards.server.tables`) applies an event only after the log has committed it, and a
table is restored by applying its stored events in order (:meth:`TableState.from_events`);
an event that cannot apply (a seat out of range, an action the rules refuse, a deck that is
not the game's pack) raises :class:`CorruptLog` naming the event and why, so one damaged
table is quarantined instead of stopping the server.

Events: ``create``, ``join``, ``fill``, ``deal``, ``act``, ``end`` (reasons ``over``,
``limit``, ``abandoned``, ``resigned`` with its seat, ``closed``), and a table's life:
``offer`` (a bot's seat on offer), ``claim`` (somebody took the offer: the seat is theirs at
the next ``deal``), ``leave`` (a bot takes a person's seat), ``chat``, and ``again`` (the
table "play again" created). ``chat`` and ``again`` also apply after the table finished.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from folkcards.cards import iter_cards
from folkcards.engine.api import DealState, FolkcardsError, Game
from folkcards.engine.match import Match
from folkcards.games import GAMES

MAX_NAME = 32
MAX_TITLE = 80
MAX_CHAT_KEPT = 30
"""Chat lines a table keeps in memory (the log keeps all; a reconnecting viewer is sent these)."""
LEVEL_LABELS = {"random": "Random bot", "heuristic": "Heuristic bot", "search": "Search bot"}
"""How the lobby names a bot's level."""
FINAL_KINDS = ("chat", "again")
"""Events a finished table still takes: chat after the match, the link to the next match."""
DEFAULT_MAX_DEALS = 100
"""Deals a web table plays at most (the ``max_deals`` option): a match whose rules set no
end (Satat's default ``match_target`` 0, SAT-13.3) still ends, as ``limit``."""
MAX_MAX_DEALS = 1000


class TableError(Exception):
    """A request the table refuses; ``code`` is a stable machine word for clients."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule


class CorruptLog(Exception):
    """A stored event that cannot be applied to the table its earlier events built."""

    def __init__(self, seq: int | None, reason: str) -> None:
        super().__init__(f"event {seq}: {reason}" if seq is not None else reason)
        self.seq = seq
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from a worker process intact
        return (CorruptLog, (self.seq, self.reason))


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_text(text: object, limit: int) -> str:
    """Printable text with runs of white space made one space, trimmed, at most ``limit``
    characters (``""`` for anything that is not a text)."""
    if not isinstance(text, str):
        return ""
    printable = "".join(ch if ch.isprintable() else " " for ch in text[: limit * 4])
    return " ".join(printable.split())[:limit].strip()


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, trimmed, at most MAX_NAME characters."""
    return clean_text(name, MAX_NAME) or fallback


def required_name(name: object) -> str:
    """A player's name, trimmed; TableError ``bad_name`` when there is none."""
    text = clean_text(name, MAX_NAME)
    if not text:
        raise TableError("bad_name", f"a player needs a name (1–{MAX_NAME} characters)")
    return text


def _number(raw: dict[str, Any], key: str, lo: float, hi: float) -> float | None:
    if key not in raw:
        return None
    v = raw[key]
    if not isinstance(v, int | float) or isinstance(v, bool) or not lo <= v <= hi:
        raise TableError("bad_request", f"{key} must be a number {lo:g}–{hi:g}")
    return float(v)


@dataclass
class TableOptions:
    """How a table runs, beyond the game's variant."""

    mode: str = "match"  # "match" (until the game's end) or "deal" (one deal)
    turn_clock: float | None = None  # seconds per action for humans; None = no clock
    grace: float = 30.0  # seconds before a bot takes over a disconnected seat
    bot_delay: float = 0.7  # seconds a bot waits before acting (lets people follow)
    deal_pause: float = 12.0  # seconds between deals unless every human is ready
    max_deals: int = DEFAULT_MAX_DEALS  # deals at most; then the table ends as "limit"

    @classmethod
    def parse(cls, raw: object, min_bot_delay: float = 0.0) -> TableOptions:
        """Options from a client request; TableError naming the bad value. ``bot_delay``
        is raised to ``min_bot_delay`` (the server's floor for anonymous tables)."""
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise TableError("bad_request", "options must be an object")
        o = cls()
        mode = raw.get("mode", "match")
        if mode not in ("match", "deal"):
            raise TableError("bad_request", "mode must be 'match' or 'deal'")
        o.mode = mode
        clock = raw.get("turn_clock")
        if clock is not None:
            o.turn_clock = _number(raw, "turn_clock", 1, 600)
        for key, lo, hi in (("grace", 0, 3600), ("bot_delay", 0, 5), ("deal_pause", 0, 120)):
            v = _number(raw, key, lo, hi)
            if v is not None:
                setattr(o, key, v)
        deals = raw.get("max_deals", DEFAULT_MAX_DEALS)
        if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= MAX_MAX_DEALS:
            raise TableError("bad_request", f"max_deals must be an integer 1–{MAX_MAX_DEALS}")
        o.max_deals = deals
        o.bot_delay = max(o.bot_delay, min_bot_delay)
        return o

    def to_dict(self) -> dict[str, Any]:
        """JSON form (stored in the create event)."""
        return {
            "mode": self.mode,
            "turn_clock": self.turn_clock,
            "grace": self.grace,
            "bot_delay": self.bot_delay,
            "deal_pause": self.deal_pause,
            "max_deals": self.max_deals,
        }


@dataclass
class SeatState:
    """One seat as the log knows it: a bot, an open human seat, or a claimed human seat."""

    kind: str  # "human" or "bot"
    level: str  # bot level (also the level that plays for an absent human)
    name: str = ""
    token_hash: str | None = None
    offered: bool = False
    """A bot seat its table offers to a friend (the ``offer`` event)."""
    claim: tuple[str, str] | None = None
    """(name, token hash) of the friend who took the offer: the seat is theirs from the
    next deal on (the ``claim`` event; the bot plays until then)."""

    @property
    def claimed(self) -> bool:
        """True for a bot or a human seat somebody has taken."""
        return self.kind == "bot" or self.token_hash is not None

    @property
    def open(self) -> bool:
        """True for a human seat nobody has taken yet."""
        return self.kind == "human" and self.token_hash is None


def _handed_over(seat: SeatState) -> SeatState:
    """The seat at the next deal: a claimed offer makes it its claimer's."""
    if seat.claim is None:
        return dataclasses.replace(seat)
    name, token_hash = seat.claim
    return SeatState("human", seat.level, name, token_hash)


def _checked_options(raw: object) -> TableOptions:
    # stored options were checked when the table was created; tables created before
    # max_deals existed keep the default
    return TableOptions.parse(raw)


@dataclass
class TableState:
    """Seats, match and status of one table, built from its events alone."""

    id: str
    game: Game
    variant: dict[str, Any]
    seats: list[SeatState]
    options: TableOptions
    title: str
    first_dealer: int
    match: Match
    status: str = "open"  # open | playing | finished
    ended: str | None = None  # why it finished: over | limit | abandoned
    seq: int = 1  # the next event's sequence number (the create event is 0)
    results: list[dict[str, Any]] = field(default_factory=list)
    actions_applied: int = 0
    creator_hash: str | None = None
    """The hashed token of whoever created the table (may offer seats, close it)."""
    previous: str | None = None
    """The table whose "play again" created this one."""
    again: str | None = None
    """The table "play again" created from this one (the ``again`` event)."""
    resigned: int | None = None
    """The seat that resigned (``ended: "resigned"``)."""
    chat: list[dict[str, Any]] = field(default_factory=list)
    """The last :data:`MAX_CHAT_KEPT` chat lines: ``{seat, name, text}`` or ``{seat, name,
    phrase}``."""

    @classmethod
    def from_create(cls, table_id: str, create: dict[str, Any]) -> TableState:
        """The state right after a ``create`` event (its data as stored)."""
        try:
            game = GAMES[create["game"]]
            v = game.normalize_variant(create["variant"])
            seats = [
                SeatState(
                    kind=s["kind"],
                    level=s["level"],
                    name=s.get("name", ""),
                    token_hash=s.get("token_hash") if s["kind"] == "human" else None,
                )
                for s in create["seats"]
            ]
            if len(seats) != game.num_seats(v) or any(
                s.kind not in ("human", "bot") for s in seats
            ):
                raise CorruptLog(0, "the seats do not fit the game")
            opts = _checked_options(create["options"])
            first = create["first_dealer"]
            if not isinstance(first, int) or not 0 <= first < len(seats):
                raise CorruptLog(0, "first_dealer is not a seat")
            match = Match(game, v, dealer=first, match_keys=create["match_keys"])
            state = cls(table_id, game, dict(v), seats, opts, str(create["title"]), first, match)
            creator = create.get("creator_hash")
            state.creator_hash = creator if isinstance(creator, str) else None
            previous = create.get("previous")
            state.previous = previous if isinstance(previous, str) else None
            return state
        except CorruptLog:
            raise
        except (KeyError, TypeError, ValueError, TableError, FolkcardsError) as exc:
            raise CorruptLog(0, f"bad create event ({type(exc).__name__}: {exc})") from None

    @classmethod
    def from_events(cls, table_id: str, events: Sequence[Any]) -> TableState:
        """Replay a table's stored events (``Event`` objects, in order)."""
        if not events or events[0].kind != "create" or events[0].seq != 0:
            raise CorruptLog(None, "the log does not start with its create event")
        state = cls.from_create(table_id, events[0].data)
        for ev in events[1:]:
            if ev.seq != state.seq:
                raise CorruptLog(ev.seq, f"expected event {state.seq} (a gap or a repeat)")
            state.apply(ev.kind, ev.data)
        return state

    # --- facts -------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        """Seats at this table."""
        return len(self.seats)

    @property
    def deal(self) -> DealState | None:
        """The current (or last) deal state, or None before the first deal."""
        return self.match.deals[-1] if self.match.deals else None

    def open_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [i for i, s in enumerate(self.seats) if s.open]

    def offered_seats(self) -> list[int]:
        """Bot seats offered to a friend that nobody has taken yet."""
        return [i for i, s in enumerate(self.seats) if s.offered and s.claim is None]

    @property
    def joinable(self) -> bool:
        """True when somebody can still take a seat here."""
        return self.status != "finished" and bool(self.open_seats() or self.offered_seats())

    @property
    def at_limit(self) -> bool:
        """True when the table has played its ``max_deals`` deals."""
        return len(self.match.deals) >= self.options.max_deals

    def summary(self) -> dict[str, Any]:
        """The lobby's view of the table."""
        return self._summary(self.seats, self.status, len(self.match.deals), self.ended)

    def _summary(
        self, seats: list[SeatState], status: str, deals: int, ended: str | None
    ) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.title,
            "status": status,
            "ended": ended,
            "variant": self.game.variant_diff(self.variant),
            "mode": self.options.mode,
            "turn_clock": self.options.turn_clock,
            "max_deals": self.options.max_deals,
            "seats": [
                {
                    "kind": s.kind,
                    "level": s.level if s.kind == "bot" else None,
                    "label": LEVEL_LABELS.get(s.level, f"{s.level} bot")
                    if s.kind == "bot"
                    else None,
                    "name": s.name if s.claimed else None,
                    "open": s.open,
                    "offered": s.offered and s.claim is None,
                }
                for s in seats
            ],
            "joinable": status != "finished"
            and any(s.open or (s.offered and s.claim is None) for s in seats),
            "deals": deals,
            "totals": list(self.match.state.totals),
        }

    def summary_after(self, kind: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """The lobby row the table will have once event ``kind`` is applied, computed
        without applying it (the row is written in the event's own transaction, and the
        event is applied only after that commits); None for an event that leaves the row
        as it is (an action)."""
        if kind in ("join", "fill", "offer", "claim", "leave"):
            seats = [dataclasses.replace(s) for s in self.seats]
            old = seats[data["seat"]]
            if kind == "join":
                seats[data["seat"]] = SeatState(old.kind, old.level, data["name"], "x")
            elif kind == "fill":
                seats[data["seat"]] = SeatState("bot", data["level"], data["name"])
            elif kind == "offer":
                old.offered = True
            elif kind == "claim":
                old.claim = (data["name"], "x")
            else:
                seats[data["seat"]] = SeatState("bot", old.level, data["name"])
            return self._summary(seats, self.status, len(self.match.deals), self.ended)
        if kind == "deal":
            seats = [_handed_over(s) for s in self.seats]
            return self._summary(seats, "playing", len(self.match.deals) + 1, None)
        if kind == "end":
            return self._summary(
                self.seats, "finished", len(self.match.deals), str(data.get("reason"))
            )
        return None

    # --- events --------------------------------------------------------------------------
    def apply(self, kind: str, data: dict[str, Any]) -> None:
        """Apply one event; CorruptLog (and no change) if it cannot apply here."""
        seq = self.seq
        try:
            self._apply(kind, data)
        except CorruptLog:
            raise
        except (KeyError, TypeError, IndexError, ValueError, FolkcardsError) as exc:
            raise CorruptLog(
                seq, f"{kind} event cannot apply ({type(exc).__name__}: {exc})"
            ) from None
        self.seq = seq + 1

    def _seat(self, data: dict[str, Any]) -> SeatState:
        s = data["seat"]
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < len(self.seats):
            raise CorruptLog(self.seq, f"seat {s!r} is not a seat of this table")
        return self.seats[s]

    def _apply(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "chat":
            seat = self._seat(data)
            line = {"seat": data["seat"], "name": str(data.get("name", seat.name))}
            if isinstance(data.get("text"), str):
                line["text"] = data["text"]
            elif isinstance(data.get("phrase"), str):
                line["phrase"] = data["phrase"]
            else:
                raise CorruptLog(self.seq, "a chat event without text or phrase")
            self.chat = [*self.chat, line][-MAX_CHAT_KEPT:]
            return
        if kind == "again":
            if not isinstance(data["table"], str) or self.again is not None:
                raise CorruptLog(self.seq, "a second again event, or one without a table")
            self.again = data["table"]
            return
        if self.status == "finished":
            raise CorruptLog(self.seq, f"a {kind} event after the table finished")
        if kind == "join":
            seat = self._seat(data)
            if not seat.open:
                raise CorruptLog(self.seq, "join of a seat that is not open")
            if not isinstance(data["name"], str) or not isinstance(data["token_hash"], str):
                raise CorruptLog(self.seq, "join without a name and token hash")
            seat.name = data["name"]
            seat.token_hash = data["token_hash"]
        elif kind == "fill":
            seat = self._seat(data)
            if not seat.open:
                raise CorruptLog(self.seq, "fill of a seat that is not open")
            seat.kind = "bot"
            seat.level = str(data["level"])
            seat.name = str(data["name"])
        elif kind == "offer":
            seat = self._seat(data)
            if seat.kind != "bot" or seat.offered:
                raise CorruptLog(self.seq, "offer of a seat that is not a bot's, or twice")
            seat.offered = True
        elif kind == "claim":
            seat = self._seat(data)
            if not seat.offered or seat.claim is not None:
                raise CorruptLog(self.seq, "claim of a seat that is not on offer")
            if not isinstance(data["name"], str) or not isinstance(data["token_hash"], str):
                raise CorruptLog(self.seq, "claim without a name and token hash")
            seat.claim = (data["name"], data["token_hash"])
        elif kind == "leave":
            seat = self._seat(data)
            if seat.kind != "human" or seat.token_hash is None:
                raise CorruptLog(self.seq, "leave of a seat nobody sits at")
            seat.kind = "bot"
            seat.name = str(data["name"])
            seat.token_hash = None
        elif kind == "deal":
            deck = data["deck"]
            if not isinstance(deck, list) or sorted(deck) != sorted(iter_cards(self.game.deck)):
                raise CorruptLog(self.seq, "the deck is not the game's pack")
            if self.open_seats():
                raise CorruptLog(self.seq, "a deal while seats are open")
            self.match.new_deal(list(deck))
            self.status = "playing"
            # an offered seat somebody claimed is theirs from this deal on
            self.seats[:] = [_handed_over(s) for s in self.seats]
        elif kind == "act":
            deal = self.deal
            if deal is None or deal.is_over:
                raise CorruptLog(self.seq, "an action with no deal in progress")
            if deal.to_act != data["seat"]:
                raise CorruptLog(self.seq, f"seat {data['seat']!r} acted out of turn")
            text = data["action"]
            if not isinstance(text, str):
                raise CorruptLog(self.seq, "the action is not a text")
            action = deal.parse_action(text)
            if action not in deal.legal_actions():
                raise CorruptLog(self.seq, f"{text!r} is not legal here")
            deal.apply(action)
            self.actions_applied += 1
            if deal.is_over:
                self.match.finish_deal()
                self._record_result()
        elif kind == "end":
            self.status = "finished"
            self.ended = str(data.get("reason", "over"))
            if self.ended == "resigned":
                self._seat(data)
                self.resigned = int(data["seat"])
        else:
            raise CorruptLog(self.seq, f"unknown event kind {kind[:20]!r}")

    def _record_result(self) -> None:
        deal = self.match.deals[-1]
        self.results.append(
            {
                "deal": len(self.match.deals) - 1,
                "dealer": deal.dealer,
                "result": dict(deal.result()),
            }
        )

    @property
    def should_end(self) -> str | None:
        """Why the table ends now that its last deal is over (``over``: the rules' match end
        or a one-deal table; ``limit``: ``max_deals`` reached), or None to play on."""
        deal = self.deal
        if self.status == "finished" or deal is None or not deal.is_over:
            return None
        if self.match.is_over or self.options.mode == "deal":
            return "over"
        if self.at_limit:
            return "limit"
        return None
