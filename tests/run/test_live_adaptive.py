"""Issue 48, parts 1 and 2: a live run finds an undeclared limit (adaptive concurrency from slow start), keeps
a declared --wsb-rate as a hard ceiling under load, and reads the limits a host announces in its headers so it
slows before the host answers 429. The vendor is the tests' emulator (a Serper-shaped API with an answer time
and a window rate limit); what is checked is what it saw, counted, never a wall time of the run itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_distributed import _wide_suite, max_per_window  # noqa: E402

pytestmark = pytest.mark.e2e  # live runs paced in real time: seconds of answers and rate windows each

FAST = ("-p", "no:hypothesispytest")


def _suite(root: Path, items: int) -> None:
    _wide_suite(root, items)
    (root / "tox.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")


def test_an_undeclared_limit_is_found_from_slow_start_not_kept_at_sixteen(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 150)
    # answers take 1 s: 16 requests in flight would be 16/s; the host admits 50/s and says so only by 429s
    emulator.pace("serper", latency=1.0, per_second=50)
    result = pytester.runpytest(*FAST, "suites", "--provider=serper")
    result.stdout.fnmatch_lines(["live: 150/150 items * recorded 150 *"])
    # kept at sixteen in flight, no second of the run could see more than about 16 requests reach the host. The
    # busiest second is counted, not the run's mean rate, which the ramp from slow start weighs down on a loaded
    # machine: the mean was about 36/s quiet and 22.9/s in one loaded run of the whole test command (it failed a
    # "> 24" check); the busiest second held 41 quiet and 46-47 beside three CPU burners
    assert max_per_window([r.at for r in emulator.seen("serper")]) > 24


def test_a_declared_rate_is_a_hard_ceiling_with_many_threads_ready(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 60)
    emulator.pace("serper", latency=0.5, per_second=20)
    # 64 threads waiting, answers freeing their slots together: the sends still leave spaced
    result = pytester.runpytest(*FAST, "suites", "--provider=serper", "--wsb-rate=serper=20/s", "--wsb-concurrency=64")
    result.stdout.fnmatch_lines(["live: 60/60 items * recorded 60 *"])
    arrivals = [r.at for r in emulator.seen("serper")]
    assert emulator.throttled("serper") == 0 and len(arrivals) == 60 and max_per_window(arrivals) <= 20


def test_announced_limits_slow_the_run_before_a_429_and_without_them_it_learns_by_429s(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 60)
    # 20 at once at 0.3 s would be 66/s against 20/s; each answer states the window as Brave's do
    emulator.pace("serper", latency=0.3, per_second=20, headers="x-ratelimit")
    told = pytester.runpytest(*FAST, "suites", "--provider=serper", "--wsb-record-mode=rewrite")
    told.stdout.fnmatch_lines(["live: 60/60 items * recorded 60 *"])
    assert emulator.throttled("serper") == 0
    assert max_per_window([r.at for r in emulator.seen("serper")]) <= 20

    emulator.clear()
    emulator.pace("serper", latency=0.3, per_second=20, headers="ietf")  # the IETF draft's RateLimit header
    ietf = pytester.runpytest(*FAST, "suites", "--provider=serper", "--wsb-record-mode=rewrite")
    ietf.stdout.fnmatch_lines(["live: 60/60 items * recorded 60 *"])
    assert emulator.throttled("serper") == 0

    emulator.clear()
    emulator.pace("serper", latency=0.3, per_second=20)  # the same host, silent
    silent = pytester.runpytest(*FAST, "suites", "--provider=serper", "--wsb-record-mode=rewrite")
    silent.stdout.fnmatch_lines(["live: 60/60 items * recorded 60 *"])
    assert emulator.throttled("serper") > 0
