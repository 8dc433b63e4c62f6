"""The game-agnostic core: the engine API, the registry of games (:mod:`.registry`), trick
machinery, records and matches, and the shapes clients read: explanations
(:mod:`.explain`), tasks (:mod:`.task`), events (:mod:`.events`) and the game card (:mod:`.card`).
``docs/engine.md`` describes the contract."""

from folkcards.engine.actions import Action, ActionSyntaxError, ActionTable, Step, masked
from folkcards.engine.api import (
    SPECTATOR,
    DealState,
    FolkcardsError,
    Game,
    IllegalAction,
    MalformedRecord,
    MatchState,
    Observation,
    SimpleDeal,
    VariantOption,
)
from folkcards.engine.card import GameCard
from folkcards.engine.events import EVENT_FIELDS, Event
from folkcards.engine.explain import MESSAGES, Explanation
from folkcards.engine.match import Match
from folkcards.engine.records import RecordError, load_deal, load_match, replay, replay_text
from folkcards.engine.task import MESSAGES as TASK_MESSAGES
from folkcards.engine.task import Task
from folkcards.engine.tricks import TrumpConfig

__all__ = [
    "EVENT_FIELDS",
    "MESSAGES",
    "SPECTATOR",
    "TASK_MESSAGES",
    "Action",
    "ActionSyntaxError",
    "ActionTable",
    "DealState",
    "Event",
    "Explanation",
    "FolkcardsError",
    "Game",
    "GameCard",
    "IllegalAction",
    "MalformedRecord",
    "Match",
    "MatchState",
    "Observation",
    "RecordError",
    "SimpleDeal",
    "Step",
    "Task",
    "TrumpConfig",
    "VariantOption",
    "load_deal",
    "load_match",
    "masked",
    "replay",
    "replay_text",
]
