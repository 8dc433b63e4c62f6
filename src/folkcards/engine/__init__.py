"""The game-agnostic core: the engine API, trick machinery, records and matches."""

from folkcards.engine.actions import Action, ActionSyntaxError, ActionTable
from folkcards.engine.api import (
    SPECTATOR,
    DealState,
    FolkcardsError,
    Game,
    IllegalAction,
    MalformedRecord,
    MatchState,
    Observation,
    VariantOption,
)
from folkcards.engine.match import Match
from folkcards.engine.records import RecordError, load_deal, load_match, replay, replay_text
from folkcards.engine.tricks import TrumpConfig

__all__ = [
    "SPECTATOR",
    "Action",
    "ActionSyntaxError",
    "ActionTable",
    "DealState",
    "FolkcardsError",
    "Game",
    "IllegalAction",
    "MalformedRecord",
    "Match",
    "MatchState",
    "Observation",
    "RecordError",
    "TrumpConfig",
    "VariantOption",
    "load_deal",
    "load_match",
    "replay",
    "replay_text",
]
