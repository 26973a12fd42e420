"""wsb-engine serves a corpus in the foreground until Ctrl-C or SIGTERM, then stops its server and exits 0
(the serve-and-wait it shares with wsb-emulate: core.loopback.serve_until_stopped)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

import pytest

from conftest import REPO

CORPUS = REPO / "suites" / "sample-web" / "corpus.jsonl"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_engine_serves_until_stopped_and_exits_0(stop):
    child = subprocess.Popen(
        [sys.executable, "-m", "pytest_websearchbench.engine", "--corpus", str(CORPUS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = child.stdout.readline()
        assert first.startswith("serving ") and "(Ctrl-C to stop)" in first, first + child.stderr.read()
        base_url = first.split(" at ")[1].split()[0]
        with urllib.request.urlopen(f"{base_url}/healthz", timeout=10) as answer:
            assert answer.status == 200 and json.load(answer)
        child.send_signal(stop)
        assert child.wait(timeout=20) == 0
        assert child.stderr.read() == ""
    finally:
        child.kill()
