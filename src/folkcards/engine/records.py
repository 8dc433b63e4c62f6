"""Deal and match records: load, validate, replay, save (conventions.md).

:func:`replay` turns any JSON value into the ``replay`` contract's output object;
it never raises on bad input. :func:`load_deal` and :func:`load_match` give the
engine objects for clients that want to continue a recorded game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from folkcards.engine import registry
from folkcards.engine.api import (
    JSON,
    DealState,
    FolkcardsError,
    Game,
    MalformedRecord,
    MatchState,
    Variant,
)

DEAL_KEYS = frozenset({"game", "variant", "dealer", "deck", "hands", "extra", "actions", "meta"})
MATCH_KEYS = frozenset({"game", "variant", "deals", "meta"})


class RecordError(FolkcardsError):
    """A record that cannot be replayed: ``index`` of the bad action (None = malformed record)
    and ``deal`` (match records: the offending deal, None for the match as a whole)."""

    def __init__(
        self, message: str, index: int | None = None, action: Any = None, deal: int | None = None
    ) -> None:
        super().__init__(message)
        self.index = index
        self.action = action
        self.deal = deal


def _game_of(obj: Mapping[str, Any]) -> Game:
    name = obj.get("game")
    if name is None:
        raise MalformedRecord("the record has no 'game'")
    games = registry.load_builtin()
    if not isinstance(name, str) or name not in games:
        raise MalformedRecord(f"unknown game {json.dumps(name)} (known: {', '.join(games)})")
    return games[name]


def _check_top_keys(obj: Mapping[str, Any], allowed: frozenset[str], what: str) -> None:
    for key in obj:
        if key not in allowed:
            raise MalformedRecord(f"unknown key {key!r} in a {what}")
    if "meta" in obj and not isinstance(obj["meta"], dict):
        raise MalformedRecord("'meta' must be an object")


def start_deal(
    game: Game, obj: object, variant: Variant | None = None, in_match: bool = False
) -> tuple[DealState, list[Any]]:
    """Validate a deal record's keys and shape; return its initial state and its actions."""
    if not isinstance(obj, dict):
        raise MalformedRecord("a deal record must be a JSON object")
    _check_top_keys(obj, DEAL_KEYS | set(game.deal_keys), f"{game.name} deal record")
    if "game" in obj:
        if obj["game"] != game.name:
            raise MalformedRecord(f"'game' must be {game.name!r}")
    elif not in_match:
        raise MalformedRecord("the record has no 'game'")
    own = game.normalize_variant(obj.get("variant", {}))
    if variant is not None and own != variant and "variant" in obj:
        raise MalformedRecord("the deal's 'variant' differs from the match's")
    actions = obj.get("actions")
    if not isinstance(actions, list):
        raise MalformedRecord("'actions' must be a list")
    state = game.deal_from_record(obj, variant if variant is not None else own)
    return state, actions


def play_actions(state: DealState, actions: list[Any], deal: int | None = None) -> None:
    """Apply recorded actions in order; the first bad one raises RecordError with its index."""
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError("an action must be a text", i, text, deal)
        try:
            state.apply(text)
        except FolkcardsError as exc:
            raise RecordError(str(exc), i, text, deal) from None


def load_deal(obj: object) -> DealState:
    """The state at the end of a deal record (RecordError if any part is bad)."""
    try:
        if not isinstance(obj, dict):
            raise MalformedRecord("a record must be a JSON object")
        game = _game_of(obj)
        state, actions = start_deal(game, obj)
    except RecordError:
        raise
    except FolkcardsError as exc:
        raise RecordError(str(exc)) from None
    play_actions(state, actions)
    return state


@dataclass
class MatchReplay:
    """A replayed match: its game and variant, each deal's final state, the match state."""

    game: Game
    variant: Variant
    deals: list[DealState] = field(default_factory=list)
    match: MatchState | None = None
    match_keys: dict[str, Any] = field(default_factory=dict)

    @property
    def current(self) -> DealState:
        """The last deal."""
        return self.deals[-1]


def load_match(obj: object) -> MatchReplay:
    """Replay a match record, checking the order of faults of conventions.md."""
    try:
        if not isinstance(obj, dict):
            raise MalformedRecord("a record must be a JSON object")
        game = _game_of(obj)
        _check_top_keys(obj, MATCH_KEYS | set(game.match_keys), f"{game.name} match record")
        variant = game.normalize_variant(obj.get("variant", {}))
        match_keys = game.check_match_keys(obj, variant)
        deals = obj.get("deals")
        if not isinstance(deals, list) or not deals:
            raise MalformedRecord("'deals' must be a non-empty list of deal records")
        ms = game.start_match(variant, match_keys)
    except FolkcardsError as exc:
        raise RecordError(str(exc)) from None
    rep = MatchReplay(game, variant, match=ms, match_keys=match_keys)
    for k, deal_obj in enumerate(deals):
        if ms.over:
            raise RecordError("the match was already over before this deal", deal=k)
        try:
            if isinstance(deal_obj, dict) and game.derived_deal_keys:
                # Carried-over keys that the game lets a deal in a match leave out take the
                # values the deals before derive; keys it gives must agree with them.
                derived = {k: v for k, v in ms.carry.items() if k in game.derived_deal_keys}
                deal_obj = {**derived, **deal_obj}
            state, actions = start_deal(game, deal_obj, variant, in_match=True)
            if ms.next_dealer is not None and state.dealer != ms.next_dealer:
                raise MalformedRecord(
                    f"'dealer' must be {ms.next_dealer} in this deal of the match"
                )
            carry = game.normalize_carry(deal_obj, variant)
            if carry != ms.carry:
                raise MalformedRecord(
                    f"carried-over keys {json.dumps(carry)} disagree with the deals before "
                    f"(expected {json.dumps(ms.carry)})"
                )
        except RecordError as exc:
            exc.deal = k
            raise
        except FolkcardsError as exc:
            raise RecordError(str(exc), deal=k) from None
        play_actions(state, actions, deal=k)
        rep.deals.append(state)
        if state.is_over:
            ms = game.after_deal(ms, state)
            rep.match = ms
        elif k != len(deals) - 1:
            raise RecordError("this deal is not finished but another deal follows it", deal=k)
    return rep


def state_output(state: DealState) -> dict[str, JSON]:
    """The ``replay`` object for one deal: in progress or over."""
    if state.is_over:
        return {"ok": True, "over": True, "result": state.result()}
    return {
        "ok": True,
        "over": False,
        "to_act": state.to_act,
        "phase": state.phase,
        "legal": state.legal_texts(),
    }


def replay(obj: object) -> dict[str, JSON]:
    """The ``replay`` contract's output for a parsed JSON value (never raises on bad input)."""
    is_match = isinstance(obj, dict) and "deals" in obj
    try:
        if is_match:
            rep = load_match(obj)
            out = state_output(rep.current)
            if rep.current.is_over and rep.match is not None:
                out["result"].update(rep.game.match_result(rep.match))
            return out
        return state_output(load_deal(obj))
    except RecordError as exc:
        return error_output(str(exc), exc.index, exc.action, exc.deal, is_match)


def error_output(
    message: str,
    index: int | None = None,
    action: Any = None,
    deal: int | None = None,
    is_match: bool = False,
) -> dict[str, JSON]:
    """The contract's error object."""
    out: dict[str, JSON] = {
        "ok": False,
        "index": index,
        "action": action if index is not None else None,
        "error": message,
    }
    if is_match:
        out["deal"] = deal
    return out


def replay_text(text: str) -> dict[str, JSON]:
    """``replay`` for a JSON text (a text that is not JSON gives the error object)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        return error_output(f"not JSON: {exc}")
    return replay(obj)


def save(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a record as canonical, indented JSON."""
    Path(path).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_json(path: str | Path) -> Any:
    """Read a record file (UTF-8 JSON)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
