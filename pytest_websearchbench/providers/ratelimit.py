"""A per-provider request rate limit that holds across the xdist workers of one run.

Every worker of a run opens the same small state file (one per provider, in a temp folder
named after the run) and takes an exclusive ``fcntl`` lock to book its next request slot:
the file holds the *theoretical arrival time* of the next request (the generic cell rate
algorithm). A caller books a slot under the lock and sleeps outside it, so the lock is held
for microseconds and workers queue fairly in booking order.

The file is shared only by workers on one machine, account and temp folder; over xdist gateways
elsewhere each such group books at its share of the rate, handed out by the controller
(run/distributed.py).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pytest_websearchbench.core.policies import Rate

STATE_ROOT_PREFIX = "pytest-websearchbench-rate-"
#: slots are booked this much further apart than the rate says: a vendor's window limit counts arrivals,
#: and requests booked exactly 1/N s apart reach it closer together now and then (a thread woken late, a
#: loaded machine: 20/s booked exactly drew a 429 from a loopback double, 5 % apart did under load); 10 %
#: costs a tenth of the throughput
WINDOW_MARGIN = 0.10


class RateLimiter:
    """Books request slots for one provider in a state file shared by every process of a run."""

    def __init__(
        self,
        path: Path,
        rate: Rate,
        *,
        burst: int = 1,
        margin: float = 0.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.path = Path(path)
        self.rate = rate
        self.margin = margin  # see WINDOW_MARGIN
        self.burst = max(1, burst)
        self._clock = clock
        self._sleep = sleep
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def acquire(self) -> float:
        """Wait for this caller's slot; returns the seconds waited."""
        wait = max(0.0, self.book() - self._clock())
        if wait > 0:
            self._sleep(wait)
        return wait

    def book(self) -> float:
        """Book the next free slot (under the file lock) and return its start time."""
        interval = self.rate.interval * (1 + self.margin)
        with open(self.path, "a+", encoding="ascii") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                handle.seek(0)
                text = handle.read().strip()
                now = self._clock()
                arrival = max(float(text) if text else now, now)
                wait = max(0.0, arrival - now - (self.burst - 1) * interval)
                handle.seek(0)
                handle.truncate()
                handle.write(repr(arrival + interval))
                handle.flush()
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        return now + wait


def state_dir(run_id: str) -> Path:
    """The run's folder of rate-limit state files (shared by the run's xdist workers)."""
    return Path(tempfile.gettempdir(), f"{STATE_ROOT_PREFIX}{os.getuid()}", run_id)


def purge_stale_state(max_age_seconds: float = 86400.0) -> None:
    """Remove state folders of runs that ended long ago (they only hold a timestamp each)."""
    root = Path(tempfile.gettempdir(), f"{STATE_ROOT_PREFIX}{os.getuid()}")
    if not root.is_dir():
        return
    cutoff = time.time() - max_age_seconds
    for folder in root.iterdir():
        try:
            if folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass
