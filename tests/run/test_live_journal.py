"""``rewrite`` resumes after a Ctrl-C (issue 48, part 7): the run journal in the cassette folder says which items
this command already re-recorded, so the same command again records only the rest; a command that finishes
removes it, so the next one rewrites everything again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from test_live import _cassettes, _suite  # noqa: E402

from pytest_websearchbench.run.live.plan import Journal


@pytest.mark.e2e
def test_rewrite_after_a_ctrl_c_records_only_what_this_command_has_not(pytester, emulator, env):
    env("serper")
    ids = _suite(pytester.path, 12)
    pytester.runpytest("suites", "--provider=serper", "-p", "no:cacheprovider")  # every cassette there
    emulator.clear()
    emulator.pace("serper", latency=0.6)
    args = ["suites", "--provider=serper", "--wsb-record-mode=rewrite", "-p", "no:cacheprovider"]
    started = time.time()
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", *args, "--wsb-concurrency=2"],
        cwd=pytester.path,
        env={**os.environ},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def rewritten() -> list:
        return [path for path in _cassettes(pytester.path) if path.stat().st_mtime >= started]

    deadline = time.monotonic() + 60
    while len(rewritten()) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.wait(60)
    done = len(rewritten())
    assert 3 <= done < 12 and (pytester.path / "cassettes" / Journal.NAME).is_file()
    emulator.clear()
    again = pytester.runpytest(*args)
    assert len(emulator.seen("serper")) == 12 - done  # what this command had re-recorded is not asked again
    again.stdout.fnmatch_lines([f"live: {12 - done}/{12 - done} items * reused {done} *"])
    assert [p.stem for p in _cassettes(pytester.path)] == ids
    assert not (pytester.path / "cassettes" / Journal.NAME).exists()  # finished: the next rewrite is whole
    emulator.clear()
    pytester.runpytest(*args).stdout.fnmatch_lines(["live: 12/12 items * recorded 12 · reused 0 *"])
