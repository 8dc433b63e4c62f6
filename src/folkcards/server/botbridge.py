"""How the web table asks bots for moves and hints.

Bots see only an :class:`~folkcards.engine.api.Observation` (a seat's view), never the
state. The levels are those of :mod:`folkcards.bots` (``random``, ``heuristic``,
``search``); if that package cannot be imported, a uniform-random chooser local to this
module keeps the table playable.

The ``search`` level and the hint play the batched search, ``bsearch`` (each game's
``batch_tuning`` from its bot kit), when its kernels run compiled in this process —
numpy and numba importable, ``FOLKCARDS_NO_NUMBA`` unset (:func:`batched`). Without them
they play the scalar ``search`` (PIMC with heuristic playouts): the batch's plain-Python
kernels would be about a hundred times slower than compiled ones, slower than ``search``.

Compiling a game's kernels takes seconds (4–17 s a game on the 2-core machine, idle;
about a minute under load); numba caches them on disk, and loading them from there in a
fresh process takes about 1.5 s for the first game (numba's import most of it) and tens of
ms for the others. So no table waits for a compiler: the first ``search`` decision or hint
of a process starts a warming thread (:func:`start_warming`), which loads the kernels
already in the disk cache in the gaps between decisions — a decision and a load never run
at once — and has the others compiled by a process of its own, loading each as it is
done. A card-play decision of a game whose kernels are in the disk cache loads them itself
if the thread has not; a game whose kernels are not there yet is searched by the scalar
``search`` meanwhile. The web table calls this module from its worker processes, so all
of it happens there, niced, never on the server's event loop.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import logging
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from folkcards.engine.api import Observation

log = logging.getLogger("folkcards.server")

T = TypeVar("T")

WEB_LEVELS = ("random", "heuristic", "search")
"""The levels the lobby offers, weakest first."""

HINT_LEVEL = "search"
"""The level whose bot gives hints."""

BATCHED_SPEC = "bsearch"
"""The bot of the ``search`` level (and of hints) where the batched search runs compiled:
``bpimc:keep=1:worlds=64`` with each game's ``batch_tuning`` (docs/bots.md)."""

SCALAR_SPEC = "search"
"""The bot of the ``search`` level without the compiled batch, and for a game whose
kernels are not warm yet in this process (or have none)."""


def _bots() -> Any:
    try:
        import folkcards.bots as bots
    except ImportError:  # pragma: no cover - only without the bots package
        return None
    return bots


def batched() -> bool:
    """True when the batched search runs compiled here: numpy and numba are installed,
    :mod:`folkcards.batch` is there and ``FOLKCARDS_NO_NUMBA`` is unset. Cheap: nothing is
    imported (numba's import alone takes most of a second); once the batch's compiler shim
    is imported, its own verdict (``folkcards.batch._jit.NUMBA``) is taken, and a numba
    that fails to import makes the warming fail, which keeps the search scalar."""
    if os.environ.get("FOLKCARDS_NO_NUMBA"):
        return False
    jit = sys.modules.get("folkcards.batch._jit")
    if jit is not None:
        return bool(getattr(jit, "NUMBA", False))
    try:
        found = [importlib.util.find_spec(m) for m in ("numpy", "numba", "folkcards.batch")]
    except (ImportError, ValueError):
        return False
    return all(spec is not None for spec in found)


def spec_for(level: str) -> str:
    """The bot spec a web level plays here: ``search`` is :data:`BATCHED_SPEC` when
    :func:`batched`, else :data:`SCALAR_SPEC`; the other levels are their own spec."""
    if level == "search":
        return BATCHED_SPEC if batched() else SCALAR_SPEC
    return level


def hint_spec() -> str:
    """The bot spec of hints here (that of the :data:`HINT_LEVEL`)."""
    return spec_for(HINT_LEVEL)


def levels() -> list[str]:
    """The bot levels a table may seat, weakest first."""
    bots = _bots()
    if bots is None:
        return ["random"]
    return [lv for lv in WEB_LEVELS if lv in bots.BOT_NAMES]


def default_level() -> str:
    """The level of new bot seats and of bots taking over an absent player's seat."""
    lv = levels()
    return "heuristic" if "heuristic" in lv else lv[-1]


# --- warming the batched kernels --------------------------------------------------------------
_lock = threading.Lock()
"""Guards the sets below and the start of the warming."""
_run_lock = threading.Lock()
"""Held by every decision and hint of this module and by each loading of a game's kernels,
so that the two never run at once (a thread loading kernels beside a search makes both
several times slower: they fight for the interpreter)."""
_ready: set[str] = set()
"""Games whose kernels are warm in this process (compiled or loaded from numba's cache)."""
_cached: set[str] = set()
"""Games whose kernels are in numba's disk cache, not loaded here yet."""
_failed: set[str] = set()
"""Games whose warming failed: their search stays scalar in this process."""
_started = False

_last_run = 0.0
"""When the last decision or hint here ended (``time.monotonic``)."""

IDLE_GAP = 0.25
"""How long no decision must have run before the warming loads kernels (seconds)."""

COMPILE_NICE = 5
"""How much lower the compiling process's CPU priority is than its parent's (a worker's,
itself niced): it takes what the searches leave."""


def _covered() -> tuple[str, ...]:
    try:
        from folkcards.batch import COVERED
    except ImportError:
        return ()
    return tuple(COVERED)


def kernels_ready(game: str) -> bool:
    """True when ``game``'s batched kernels are warm in this process, so that the
    batched search decides for it without compiling. False for a game without a kernel
    or whose warming failed (its search stays scalar)."""
    return game in _ready


@functools.cache
def _stamp() -> str:
    """What numba's cache of the kernels depends on: numba's and Python's versions and
    each batch source file's name, size and time (numba recompiles when they change)."""
    import numba  # imported already when the batch is compiled

    import folkcards.batch

    h = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for f in sorted(Path(folkcards.batch.__file__).parent.glob("*.py")):
        st = f.stat()
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


def _marker(game: str) -> str | None:
    """The file that says ``game``'s kernels are in numba's disk cache (written once they
    were compiled there), or None without a cache directory."""
    root = os.environ.get("NUMBA_CACHE_DIR")  # set by folkcards.batch._jit
    return None if not root else os.path.join(root, "warm", f"{game}-{_stamp()}")


def in_disk_cache(game: str) -> bool:
    """True when ``game``'s kernels were compiled into numba's disk cache for these sources,
    so loading them here takes tens of ms rather than seconds of compiling."""
    if not batched():
        return False
    try:
        from folkcards.batch import compiled

        if not compiled():
            return False
        marker = _marker(game)
    except ImportError:
        return False
    return marker is not None and os.path.exists(marker)


def _position(game: str, attempt: int) -> Observation | None:
    """An observation of card play with a choice (the third such of a deal played by the
    heuristic), to warm a game's kernels on; None when the game has none."""
    from folkcards.bots.positions import card_play_position
    from folkcards.games import GAMES

    g = GAMES.get(game)
    state = None if g is None else card_play_position(g, random.Random(7 + attempt), 3, 2, 20)
    if state is None or state.to_act is None:
        return None
    return state.observation(state.to_act)


def warm_game(game: str) -> bool:
    """Compile (or load from numba's disk cache) the kernels the batched search uses for
    ``game`` by making one small batched decision on a position of its card play, in
    the calling thread, and mark them as cached (:func:`in_disk_cache`). True when they
    are warm afterwards; False (and logged) when the game has no kernel or the warming
    failed — its search then stays scalar here."""
    if game in _ready:
        return True
    if game in _failed or game not in _covered() or not batched():
        return False
    bots = _bots()
    try:
        from folkcards.batch import compiled

        if not compiled():  # numba did not import after all
            raise ImportError("the batched kernels are not compiled (numba is missing)")
        bot = bots.make_bot(f"{BATCHED_SPEC}:worlds=4")
        for attempt in range(4):
            obs = _position(game, attempt)
            if obs is None:
                break
            ev = bot.evaluate(obs, random.Random(attempt))
            if any(isinstance(d, Mapping) and "deals" in d for d in ev.detail.values()):
                break  # the batch ran: encode, build, play, the solver, the utilities
    except Exception:
        log.exception("could not warm the batched search of %s; it plays the scalar one", game)
        with _lock:
            _failed.add(game)
        return False
    with _lock:
        _ready.add(game)
        _cached.discard(game)
    marker = _marker(game)
    if marker is not None and not os.path.exists(marker):
        with contextlib.suppress(OSError):  # a read-only cache: no marker
            os.makedirs(os.path.dirname(marker), exist_ok=True)
            Path(marker).touch()
    return True


def _when_idle(fn: Callable[[], T]) -> T:
    """``fn()`` run holding :data:`_run_lock` once no decision has run here for
    :data:`IDLE_GAP` seconds, so that warming waits for the gaps between decisions
    (a decision that comes meanwhile loads what it needs itself)."""
    while True:
        with _run_lock:
            idle = time.monotonic() - _last_run
            if idle >= IDLE_GAP:
                return fn()
        time.sleep(max(0.01, IDLE_GAP - idle))


def _load(game: str) -> None:
    """Load ``game``'s kernels here in a gap between decisions (unless one did)."""
    _when_idle(lambda: warm_game(game))


def _warm(games: list[str]) -> None:
    """The warming thread: the games already in numba's disk cache loaded here one by one
    between decisions; the others compiled by a process of its own (there the compiler
    fights no search for this process's interpreter, it runs :data:`COMPILE_NICE` below
    this process, and one such process at a time compiles: the others wait for it and
    then find the cache warm), each loaded here as it reports it."""
    # numba's import (most of a second) is a load as well
    cached = _when_idle(lambda: [g for g in games if in_disk_cache(g)])
    for game in cached:
        _load(game)
    missing = [g for g in games if g not in cached and g not in _failed]
    if not missing:
        return
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "folkcards.server.botbridge", "--warm", *missing],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
    except OSError:
        log.exception("could not start compiling the batched search; it plays the scalar one")
        with _lock:
            _failed.update(missing)
        return
    with contextlib.suppress(OSError, AttributeError):  # below this process's priority
        os.setpriority(os.PRIO_PROCESS, proc.pid, os.getpriority(os.PRIO_PROCESS, 0) + COMPILE_NICE)
    assert proc.stdout is not None
    for line in proc.stdout:  # "ready GAME" or "failed GAME", a game at a time
        status, _, game = line.strip().partition(" ")
        if status == "ready":
            with _lock:
                _cached.add(game)
            _load(game)
        else:
            with _lock:
                _failed.add(game)
    proc.wait()


def start_warming(first: str | None = None) -> None:
    """Warm every game's batched kernels in this process, ``first`` first, in a background
    thread that loads them only in the gaps between decisions (:func:`_warm`); started
    once per process, and not at all without the compiled batch."""
    global _started
    if not batched():
        return
    with _lock:
        if _started:
            return
        _started = True
    order = ([first] if first is not None else []) + list(_covered())
    games = [g for g in dict.fromkeys(order) if g in _covered()]
    threading.Thread(target=_warm, args=(games,), name="folkcards-warm", daemon=True).start()


def _use_batched(spec: str, obs: Observation, searched: bool) -> bool:
    """Whether a bot of ``spec`` plays the batched search for ``obs`` now; call it holding
    :data:`_run_lock`. Yes when the game's kernels are warm here, or are in numba's disk
    cache and the batched search would search ``obs`` (``searched``): they are loaded now
    (tens of ms; about 1.5 s for the first game of a process, numba's import counted).
    Otherwise the warming is started and the scalar search decides — which plays the
    heuristic's choice in the phases the batched search leaves to it, as it does."""
    game = obs.game
    if spec != BATCHED_SPEC or game in _failed or game not in _covered():
        return False
    if game in _ready:
        return True
    start_warming(game)
    if searched and (game in _cached or in_disk_cache(game)):
        return warm_game(game)
    return False


@contextlib.contextmanager
def _ran() -> Iterator[None]:
    """A decision or hint: holds :data:`_run_lock` and notes when it ended."""
    global _last_run
    with _run_lock:
        try:
            yield
        finally:
            _last_run = time.monotonic()


def _searches(bot: Any, obs: Observation) -> bool:
    """Whether ``bot`` searches the phase of ``obs`` (its ``only``; else every phase)."""
    only = getattr(bot, "only", None)
    return only is None or obs.phase in only


# --- seats and hints ----------------------------------------------------------------------
class SeatBot:
    """One bot playing one seat: ``choose(obs)`` returns an action text from ``obs.legal``.

    ``spec`` is the bot spec the level plays here (:func:`spec_for`); with the batched
    search, ``scalar`` is the scalar ``search`` that stands in for a game whose kernels
    are not warm yet."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.rng = random.Random(seed)
        bots = _bots()
        self.spec: str | None = spec_for(level) if bots is not None else None
        self.impl: Any = bots.make_bot(self.spec) if bots is not None else None
        self.scalar: Any = None
        if bots is not None and self.spec == BATCHED_SPEC:
            self.scalar = bots.make_bot(SCALAR_SPEC)

    @property
    def slow(self) -> bool:
        """True when a decision may take long enough to be worth a worker thread."""
        return self.level not in ("random", "heuristic")

    def bot_for(self, obs: Observation) -> Any:
        """The bot that decides ``obs``: the level's, or the scalar stand-in while the
        game's batched kernels are not warm (whose warming this starts). Call it holding
        :data:`_run_lock` (as :meth:`choose` does)."""
        if self.scalar is None:
            return self.impl
        if _use_batched(str(self.spec), obs, _searches(self.impl, obs)):
            return self.impl
        return self.scalar

    def choose(self, obs: Observation) -> str:
        """The bot's action for this observation (always one of ``obs.legal``)."""
        if not obs.legal:
            raise ValueError("no legal action to choose from")
        if self.impl is None:
            return str(self.rng.choice(obs.legal))
        if not self.slow:  # a quick bot does not wait behind a search or a kernel load
            return str(self.impl.choose(obs, self.rng))
        with _ran():
            return str(self.bot_for(obs).choose(obs, self.rng))


def hint_bot(obs: Observation) -> Any:
    """The bot that gives the hint for ``obs`` now: that of :func:`hint_spec`, or the
    scalar ``search`` while the game's batched kernels are not warm. Call it holding
    :data:`_run_lock` (as :func:`hint` does)."""
    bots = _bots()
    spec = hint_spec()
    bot = bots.make_bot(spec)
    if spec == BATCHED_SPEC and not _use_batched(spec, obs, _searches(bot, obs)):
        return bots.make_bot(SCALAR_SPEC)
    return bot


def hint(obs: Observation, seed: int = 0) -> dict[str, Any]:
    """The search bot's suggestion for this observation (the seat to act's own view):
    ``{"action": <its choice>, "hint": <folkcards.bots.explain_hint of it>}``."""
    bots = _bots()
    if bots is None:
        action = str(random.Random(seed).choice(obs.legal))
        rows = [{"action": action, "value": None, "diff": None, "reason": None}]
        plain = {"choice": action, "scale": "none", "bot_scale": "uniform", "samples": None}
        return {"action": action, "hint": {**plain, "rows": rows, "reason": None}}
    with _ran():
        out = bots.hint(obs, hint_bot(obs), random.Random(seed))
    return {"action": str(out["choice"]), "hint": bots.explain_hint(out)}


def _warm_main(games: list[str]) -> int:
    """The compiling process of :func:`_warm`: each game's kernels compiled into numba's
    disk cache (or found there), ``ready GAME`` or ``failed GAME`` printed after each,
    under a lock on the cache directory so that two such processes do not compile the
    same kernels at once. Ends when its parent stops reading."""
    lock: Any = None
    with contextlib.suppress(ImportError, OSError):  # no lock: compile all the same
        from folkcards.batch import compiled

        if compiled():
            import fcntl

            path = os.path.join(os.environ["NUMBA_CACHE_DIR"], "warm", ".lock")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            lock = open(path, "a")  # noqa: SIM115 - held until the process ends
            fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        for game in games:
            ok = warm_game(game)
            print(f"{'ready' if ok else 'failed'} {game}", flush=True)
    except BrokenPipeError:  # the parent went away
        return 1
    finally:
        if lock is not None:
            lock.close()
    return 0


if __name__ == "__main__":  # the compiling process started by _warm
    if sys.argv[1:2] != ["--warm"]:
        sys.exit("usage: python -m folkcards.server.botbridge --warm GAME [GAME …]")
    sys.exit(_warm_main(sys.argv[2:]))
