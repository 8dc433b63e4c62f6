"""Ray for the commands that spread work over a cluster (``tournament``, ``selfcheck``).

One way to start it, shared: an embedded local Ray, or the cluster at an address; a Ray
already initialized in this process is used as it is and left running.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def ray_session(address: str | None, num_cpus: int | None = None) -> Iterator[Any]:
    """The ``ray`` module, initialized for the block (and shut down after it if this call
    started it); RuntimeError naming the extra when Ray is not installed."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "Ray is not installed: pip install 'folkcards[ray]' (or run without --ray)"
        ) from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        elif num_cpus:
            kwargs["num_cpus"] = num_cpus
        ray.init(**kwargs)
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()
