"""Rate limits: a token bucket, and a bounded table of them per client address."""

from __future__ import annotations

import time

MAX_RATE_ENTRIES = 10_000
"""Per-address rate limiters kept at most; idle ones (back to a full burst) are dropped."""


class TokenBucket:
    """A rate limit: ``rate`` events per second with bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.at = time.monotonic()

    def idle(self) -> bool:
        """True when the bucket has refilled to a full burst (nothing to remember)."""
        return self.level + (time.monotonic() - self.at) * self.rate >= self.burst

    def take(self) -> bool:
        """True when one more event is allowed now."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class AddressLimits:
    """One :class:`TokenBucket` per client address, at most :data:`MAX_RATE_ENTRIES` kept."""

    def __init__(self, per_minute: float, burst: float) -> None:
        self.per_minute = per_minute
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        """True when ``address`` may do one more now."""
        self.prune()
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket(self.per_minute / 60, self.burst)
        return bucket.take()

    def prune(self) -> None:
        """Forget the limiters of addresses that are idle again (their bucket refilled),
        once there are many, so the table of addresses stays bounded."""
        if len(self.buckets) < MAX_RATE_ENTRIES:
            return
        for ip in [ip for ip, b in self.buckets.items() if b.idle()]:
            del self.buckets[ip]
        while len(self.buckets) >= MAX_RATE_ENTRIES:  # all busy: drop the oldest
            del self.buckets[next(iter(self.buckets))]
