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
ms for the others. So no table waits for a compiler: a warming thread
(:func:`start_warming`) — started by the web table's worker pool as each worker starts,
else by the first ``search`` decision or hint of a process — imports numba and loads the
kernels already in the disk cache as soon as no decision runs, and has the others compiled
by a process of its own, loading each as it is done in a gap between decisions. A decision
or hint never imports numba or compiles: one that comes while the thread loads waits at
most :data:`WARM_WAIT` and then runs beside the load (by the scalar ``search`` unless its
game is warm already); a card-play decision of a game whose kernels are in the disk cache
once numba is imported here loads them itself (tens of ms) if the thread has not; a game
whose kernels are not there yet is searched by the scalar ``search`` meanwhile. The web
table calls this module from its worker processes, so all of it happens there, niced,
never on the server's event loop.
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

BESIDE_MS = 300
"""The time budget of the scalar search that decides beside a load of the warming
(:data:`BESIDE_SPEC`), in milliseconds."""

BESIDE_SPEC = f"search:ms={BESIDE_MS}"
"""The bot of a ``search`` decision or hint that runs beside a load of the warming for a
game not warm yet: the scalar search within :data:`BESIDE_MS` of wall time, since beside
numba's import its 200 playouts would take seconds (a fresh Sasku table's first card:
3.9 s under load 8) — the first seconds of a worker only."""


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
    verdict = getattr(jit, "NUMBA", None)  # None while the warming thread imports it
    if verdict is not None:
        return bool(verdict)
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
so that the two do not run at once (a thread loading kernels beside a search makes both
slower: they fight for the interpreter) — unless the load outlasts :data:`WARM_WAIT`."""
_ready: set[str] = set()
"""Games whose kernels are warm in this process (compiled or loaded from numba's cache)."""
_cached: set[str] = set()
"""Games whose kernels are in numba's disk cache, not loaded here yet."""
_failed: set[str] = set()
"""Games whose warming failed: their search stays scalar in this process."""
_started = False
_loading = False
"""True while the warming thread holds :data:`_run_lock` to import numba or load kernels."""

_last_run = 0.0
"""When the last decision or hint here ended (``time.monotonic``)."""

_counts = {"decisions": 0, "beside": 0}
"""Decisions and hints run here, and those of them that ran beside a load of the warming
(after :data:`WARM_WAIT`) rather than after it."""
_max_wait = 0.0
"""The longest a decision or hint here waited for :data:`_run_lock` (seconds)."""

IDLE_GAP = 0.25
"""How long no decision must have run before the warming loads kernels (seconds)."""

WARM_WAIT = 0.2
"""The longest a decision or hint the batched search would search waits for a load of the
warming to end (seconds): past it, it runs beside the load — batched if its game's
kernels are warm already, else by the time-bounded scalar search (:data:`BESIDE_SPEC`) —
so that no decision waits for numba's import (1.5 s; 3–4 s under load), a slow first load
or a compile the disk cache did not spare. One the batched search leaves to the heuristic
(bids, exchanges) does not wait at all. So a decision asked during the warming is answered
within about ``WARM_WAIT + BESIDE_MS`` plus one playout and the scheduler's delays."""

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
    """What numba's cache of the kernels depends on: numba's and Python's versions, where
    the batch's sources are (numba's cache is by their path) and each source file's name,
    size and time (numba recompiles when they change)."""
    import numba  # imported already when the batch is compiled

    import folkcards.batch

    here = Path(folkcards.batch.__file__).parent
    h = hashlib.sha256(f"{numba.__version__} {sys.version} {here}".encode())
    for f in sorted(here.glob("*.py")):
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
    (a decision that comes meanwhile loads what it needs itself, or runs beside it after
    :data:`WARM_WAIT`)."""
    global _loading
    while True:
        with _run_lock:
            idle = time.monotonic() - _last_run
            if idle >= IDLE_GAP:
                _loading = True
                try:
                    return fn()
                finally:
                    _loading = False
        time.sleep(max(0.01, IDLE_GAP - idle))


def _load(game: str) -> None:
    """Load ``game``'s kernels here in a gap between decisions (unless one did)."""
    _when_idle(lambda: warm_game(game))


def _load_cached(games: list[str]) -> list[str] | None:
    """Import the batch (numba) and load here the kernels of each of ``games`` that are in
    numba's disk cache; those games (warm now unless their load failed), or None when the
    batch does not run compiled after all. Call it holding :data:`_run_lock`."""
    if not _compiled_here():
        return None
    cached = [g for g in games if in_disk_cache(g)]
    for game in cached:
        warm_game(game)
    return cached


def _warm(games: list[str]) -> None:
    """The warming thread: numba imported and the games already in numba's disk cache
    loaded here in one go as soon as no decision runs (:func:`_load_cached`); the others
    compiled by a process of its own (there the compiler
    fights no search for this process's interpreter, it runs :data:`COMPILE_NICE` below
    this process, and one such process at a time compiles: the others wait for it and
    then find the cache warm), each loaded here as it reports it, in a gap between
    decisions."""
    # numba's import (most of a second) and the first load (numba's own set-up, about as
    # long again) are a load as well: all the cached games are loaded in one go, so that a
    # decision after it pays none of it (one during it runs beside it after WARM_WAIT)
    found = _when_idle(lambda: _load_cached(games))
    if found is None:  # numba failed to import: nothing to compile either
        with _lock:
            _failed.update(games)
        return
    cached = found
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


def _compiled_here() -> bool:
    """Whether the batch imported here runs compiled (numba imported); False without it."""
    try:
        from folkcards.batch import compiled

        return compiled()
    except ImportError:
        return False


def start_warming(first: str | None = None) -> bool:
    """Warm every game's batched kernels in this process, ``first`` first, in a background
    thread that loads them while no decision runs (:func:`_warm`); started
    once per process — by the worker pool's initializer as a worker starts
    (:func:`folkcards.server.workers.init_worker`), else by the first ``search`` decision
    or hint — and not at all without the compiled batch. True when this call started it."""
    global _started
    if not batched():
        return False
    with _lock:
        if _started:
            return False
        _started = True
    order = ([first] if first is not None else []) + list(_covered())
    games = [g for g in dict.fromkeys(order) if g in _covered()]
    threading.Thread(target=_warm, args=(games,), name="folkcards-warm", daemon=True).start()
    return True


def status() -> dict[str, Any]:
    """What this process's warming did so far, for tests and diagnostics: the games whose
    kernels are ``warm`` here, those that ``failed``, whether the warming ``started`` and
    is ``loading`` now, how many ``decisions`` and hints ran here, how many of them ran
    ``beside`` a load, and the longest any waited for one (``max_wait_s``)."""
    with _lock:
        return {
            "warm": sorted(_ready),
            "failed": sorted(_failed),
            "started": _started,
            "loading": _loading,
            "decisions": _counts["decisions"],
            "beside": _counts["beside"],
            "max_wait_s": round(_max_wait, 3),
            "numba_imported": "numba" in sys.modules,
        }


def _use_batched(spec: str, obs: Observation, searched: bool) -> bool:
    """Whether a bot of ``spec`` plays the batched search for ``obs`` now; call it holding
    :data:`_run_lock`. Yes when the game's kernels are warm here, or are in numba's disk
    cache, numba is imported here already (by the warming) and the batched search would
    search ``obs`` (``searched``): they are loaded now (tens of ms). Otherwise the warming
    is started (if it is not yet) and the scalar search decides — which plays the
    heuristic's choice in the phases the batched search leaves to it, as it does; numba's
    import and the first load (1.5 s, 3–4 s under load) are the warming thread's."""
    game = obs.game
    if spec != BATCHED_SPEC or game in _failed or game not in _covered():
        return False
    if game in _ready:
        return True
    start_warming(game)
    imported = "folkcards.batch._jit" in sys.modules  # whole: the warming is not in it now
    if searched and imported and (game in _cached or in_disk_cache(game)):
        return warm_game(game)
    return False


@contextlib.contextmanager
def _ran(wait: float = WARM_WAIT) -> Iterator[bool]:
    """A decision or hint: holds :data:`_run_lock` and notes when it ended. Yields True
    holding it; False when the warming held it for ``wait`` seconds (numba's import, a
    load): the decision then runs beside that load without the lock, and must neither
    load nor import anything of the batch (:func:`_beside_bot`)."""
    global _last_run, _max_wait
    start = time.monotonic()
    held = _run_lock.acquire(timeout=wait) if wait > 0 else _run_lock.acquire(blocking=False)
    while not held and not _loading:  # another thread's decision holds it: wait for that
        held = _run_lock.acquire(timeout=WARM_WAIT)
    waited = time.monotonic() - start
    try:
        yield held
    finally:
        _last_run = time.monotonic()
        if held:
            _run_lock.release()
        with _lock:
            _counts["decisions"] += 1
            _counts["beside"] += not held
            _max_wait = max(_max_wait, waited)


def _wait_for(bot: Any, obs: Observation) -> float:
    """How long a decision of ``bot`` for ``obs`` waits for a load of the warming
    (:func:`_ran`): :data:`WARM_WAIT` when the batched search would search it, else 0
    (the heuristic decides, in a few ms, beside the load)."""
    return WARM_WAIT if _searches(bot, obs) else 0.0


@functools.cache
def _beside_search() -> Any:
    """The bot of :data:`BESIDE_SPEC` (made once: a bot keeps no state between decisions)."""
    return _bots().make_bot(BESIDE_SPEC)


def _beside_bot(impl: Any, obs: Observation) -> Any:
    """The bot of a batched-search decision that runs beside a load of the warming:
    ``impl`` (the batched search) when its game's kernels are warm already or it leaves
    ``obs`` to the heuristic (which it then plays), else the time-bounded scalar search
    of :data:`BESIDE_SPEC` — nothing loaded, nothing of the batch imported (the warming
    thread may hold numba's import lock)."""
    return impl if obs.game in _ready or not _searches(impl, obs) else _beside_search()


def _searches(bot: Any, obs: Observation) -> bool:
    """Whether ``bot`` searches the phase of ``obs`` (its ``searches``, which knows a
    game's tuned phases: Huutopussi's ``bsearch`` searches the gift too; else every
    phase)."""
    searches = getattr(bot, "searches", None)
    return True if searches is None else bool(searches(obs))


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

    def bot_for(self, obs: Observation, held: bool = True) -> Any:
        """The bot that decides ``obs``: the level's, or the scalar stand-in while the
        game's batched kernels are not warm (whose warming this starts). Call it holding
        :data:`_run_lock` (as :meth:`choose` does), or with ``held`` False beside a load
        of the warming (:func:`_beside_bot`)."""
        if self.scalar is None:
            return self.impl
        if not held:
            return _beside_bot(self.impl, obs)
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
        with _ran(_wait_for(self.impl, obs)) as held:
            return str(self.bot_for(obs, held).choose(obs, self.rng))


def hint_bot(obs: Observation, held: bool = True) -> Any:
    """The bot that gives the hint for ``obs`` now: that of :func:`hint_spec`, or the
    scalar ``search`` while the game's batched kernels are not warm. Call it holding
    :data:`_run_lock` (as :func:`hint` does), or with ``held`` False beside a load of the
    warming (:func:`_beside_bot`)."""
    bots = _bots()
    spec = hint_spec()
    bot = bots.make_bot(spec)
    if spec != BATCHED_SPEC:
        return bot
    if not held:
        return _beside_bot(bot, obs)
    if not _use_batched(spec, obs, _searches(bot, obs)):
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
        rest = {"rows": rows, "reason": None, "unsearched": 0, "warming": False}
        return {"action": action, "hint": {**plain, **rest}}
    wanted = bots.make_bot(hint_spec())
    with _ran(_wait_for(wanted, obs)) as held:
        used = hint_bot(obs, held)
        out = bots.hint(obs, used, random.Random(seed))
    explained = bots.explain_hint(out)
    # the search would value this decision but its kernels are still loading: the panel
    # says so rather than "no search in this phase"
    explained["warming"] = bool(
        explained["scale"] == "rank" and used.name != wanted.name and _searches(wanted, obs)
    )
    return {"action": str(out["choice"]), "hint": explained}


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
