"""``folkcards serve`` tunes its own process's interpreter at start (its garbage collector and
thread switch interval, :func:`folkcards.server.app.tune_interpreter`); a server made for
tests (the harness) leaves the test process's alone."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from .harness import ServerThread

PROBE = """
import gc, json, sys
from folkcards.server.app import GC_THRESHOLDS, SWITCH_INTERVAL, tune_interpreter
before = gc.get_freeze_count()
tune_interpreter()
print(json.dumps({
    "frozen": gc.get_freeze_count() - before,
    "threshold": list(gc.get_threshold()) == list(GC_THRESHOLDS),
    "switch": sys.getswitchinterval() == SWITCH_INTERVAL,
    "enabled": gc.isenabled(),
}))
"""


def test_the_server_process_tunes_its_interpreter() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["frozen"] > 10_000  # the modules and tables loaded at start
    assert got["threshold"] and got["switch"] and got["enabled"]


def test_a_test_server_leaves_the_test_process_alone(tmp_path: Path) -> None:
    threshold, switch = gc.get_threshold(), sys.getswitchinterval()
    with ServerThread(f"sqlite:///{tmp_path}/t.db") as srv:
        assert srv.server_state.tune_process is False
    assert gc.get_threshold() == threshold and sys.getswitchinterval() == switch
