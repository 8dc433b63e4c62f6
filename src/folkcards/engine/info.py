"""Typed observation facts: each game's ``Observation.info`` is a frozen dataclass.

A game declares the facts one seat may know beside its hand — trump, bids, the trick,
points, and the private ones it saw (a returned card, the blind it picked) — as a
``@dataclass(frozen=True, slots=True, eq=False)`` subclass of :class:`Info`, one typed
field per fact in the order of its JSON, each with a docstring saying what it holds. A
client reads ``obs.info.trump`` with its type known; ``to_dict()`` is the JSON-ready
form (``Observation.to_dict``'s ``info``).

An :class:`Info` also reads as the read-only mapping of its fields (``obs.info["trump"]``,
``obs.info.get("trump")``, ``dict(obs.info)``, ``key in obs.info``), so code written
against the mapping keeps working, and it equals a dict of the same items (the way
``Mapping`` compares). Every field is always present; a fact that does not apply at a
point of the deal is ``None``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

JSON = Any


class Info(Mapping[str, Any]):
    """The base of every game's observation facts (see the module's docstring)."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]

    def __getitem__(self, key: str) -> Any:
        if key in self.__dataclass_fields__:
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.__dataclass_fields__)

    def __len__(self) -> int:
        return len(self.__dataclass_fields__)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__dataclass_fields__)
        return f"{type(self).__name__}({fields})"

    def to_dict(self) -> dict[str, JSON]:
        """The facts as JSON-ready data, in the order of the fields."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def keys_of(cls) -> tuple[str, ...]:
        """The field names, in order (the keys of every ``to_dict()``)."""
        return tuple(cls.__dataclass_fields__)
