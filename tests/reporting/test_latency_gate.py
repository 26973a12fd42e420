"""--wsb-max-latency-regression as a vendor runs it: release 1 recorded through ``wsb-emulate provider serper
--latency 0.005 --server-timing`` is the baseline, release 2 answers after 0.3 s (or three times release 1's slowest answer on a loaded machine); with the gate the suite's verdict
test fails on latency alone (exit 1, JUnit), without it the run passes; a replay reports the recorded latencies
(release 1's cassettes against its own baseline shift nothing), and the server's stated times are kept apart."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from xml.etree import ElementTree

import pytest

from conftest import REPO, TINY_CORPUS, TINY_GRADES, TINY_SCENARIOS, summary_shows, write_jsonl, write_lexbench_suite

#: three copies of the tiny suite's scenarios: 12 pairs, enough for the sign-flip test to reach p < 0.05
SCENARIOS = [{**s, "id": f"{s['id']}-{copy}"} for copy in range(3) for s in TINY_SCENARIOS]
GRADES = [{**g, "query_id": f"{g['query_id']}-{copy}"} for copy in range(3) for g in TINY_GRADES]


def emulate(*args: str) -> dict[str, str]:
    """``wsb-emulate … --detach``'s exports (its pid among them), as ``eval "$(… | sed 1d)"`` sets them."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest_websearchbench.emulate", *args, "--detach"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()[1:]
    return dict(line.removeprefix("export ").split("=", 1) for line in lines if line.startswith("export "))


@pytest.fixture
def release(pytester, monkeypatch):
    """Serve serper from the tiny corpus at a latency, pointing the plugin at it; the server stops after the test."""
    write_lexbench_suite(pytester.path, "tiny", SCENARIOS, GRADES)
    corpus = write_jsonl(pytester.path / "corpus.jsonl", TINY_CORPUS)
    started = []

    def serve(latency: str) -> None:
        for pid in started:
            os.kill(pid, signal.SIGTERM)
        exports = emulate("provider", "serper", "--corpus", str(corpus), "--latency", latency, "--server-timing")
        started.append(int(exports.pop("WSB_EMULATE_PID")))
        for name, value in exports.items():
            monkeypatch.setenv(name, value)

    yield serve
    for pid in started:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def _run(pytester, *args: str):
    return pytester.runpytest("suites/tiny", "--provider=serper", "-p", "no:cacheprovider", *args)


@pytest.mark.e2e  # answers slowed in real time
def test_a_slower_release_fails_the_latency_gate_and_passes_without_it(pytester, release):
    release("0.005")
    _run(pytester, "--wsb-record-mode=rewrite", "--wsb-cassette-dir=runs/r1", "--wsb-json=base.json")
    items = json.loads((pytester.path / "base.json").read_text())["items"]
    assert len(items) == 12 and all(i["latency_ms"]["client"] >= 5 for i in items)
    # the server's stated time, apart from the client's and never above it
    for item in items:
        (call,) = item["calls"]
        assert 0.005 <= call["server_seconds"] <= call["seconds"]
        assert item["latency_ms"]["server"] == pytest.approx(1000 * call["server_seconds"])

    # release 2 answers far slower than release 1 was measured: a loaded machine's client latency for a 5 ms answer
    # has reached 330 ms (a fixed 0.3 s release read as a fall there); release 2's is never below its server's wait
    slowest = max(i["latency_ms"]["client"] for i in items) / 1000
    release(f"{max(0.3, 3 * slowest):.3f}")
    gated = _run(
        pytester,
        "--wsb-record-mode=rewrite",
        "--wsb-cassette-dir=runs/r2",
        "--wsb-baseline=base.json",
        "--wsb-max-latency-regression=25%",
        "--junitxml=junit.xml",
    )
    assert gated.ret == 1
    summary_shows(  # the verdict folded at 120 columns
        gated.stdout.str(),
        "server p50/p95 ",
        "latency vs baseline p50 +* (p<0.001), p95 +* (p=0.00*), n=12",
        " tiny [[]serper[]]: * nDCG@5 +0.000 *; latency REGRESSION (over +25 %) p50 +* (* → * ms, p<0.001), "
        "p95 +* (* → * ms, p=0.00*), n=12; server p50 ",
        "FAILED suites/tiny::[[]vs baseline[]][[]serper[]] - tiny [[]serper[]]: ",
    )
    failures = {
        case.get("name"): failure.get("message", "") + (failure.text or "")
        for case in ElementTree.parse(pytester.path / "junit.xml").iter("testcase")
        if (failure := case.find("failure")) is not None
    }
    assert (
        list(failures) == ["[vs baseline][serper]"]
        and "latency REGRESSION (over +25 %)" in failures["[vs baseline][serper]"]
    )

    # the same release without the gate: latency compared, nothing failed
    ungated = _run(pytester, "--wsb-cassette-dir=runs/r2", "--wsb-baseline=base.json")
    assert ungated.ret == 0
    ungated.stdout.fnmatch_lines(["*latency vs baseline  p50 +* (p<0.001), p95 +*, n=12*"])
    assert "latency REGRESSION" not in ungated.stdout.str()

    # a replay reports the recorded latencies: release 1's cassettes against the baseline made from them
    same = _run(pytester, "--wsb-cassette-dir=runs/r1", "--wsb-baseline=base.json", "--wsb-max-latency-regression=0.25")
    assert same.ret == 0
    summary_shows(
        same.stdout.str(),
        " tiny [[]serper[]]: *; latency p50 +0 % (* → * ms, p=1.000), p95 +0 % (* → * ms, p=1.000), n=12; ",
    )


def test_a_bad_gate_is_one_usage_error(pytester, tiny_suite):
    result = _run(pytester, "--wsb-max-latency-regression=fast")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--wsb-max-latency-regression: expected a percentage (25%) or a share (0.25) above 0, got 'fast'"]
    )
