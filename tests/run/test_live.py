"""A live run (run/live/): its calls made many at once in one process, at the provider's rate, each
item's cassette written when it finishes; the tests then replay them, so the run scores as its replay.

The vendor is the tests' emulator, made slow (an answer time) and strict (a window rate limit) with
``Emulator.pace``; what is checked is what the vendor saw, never a wall time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from test_distributed import _comparable, _wide_suite, max_per_window  # noqa: E402

from conftest import TINY_SCENARIOS


def _suite(root: Path, items: int) -> list[str]:
    """The tiny suite's scenarios repeated under new ids (test_distributed's), its corpus named in the ini."""
    ids = _wide_suite(root, items)
    (root / "tox.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    return ids


def _cassettes(root: Path) -> list[Path]:
    return sorted((root / "cassettes" / "wide" / "serper").glob("*.yaml"))


def test_a_live_run_sends_its_calls_at_once_and_scores_as_its_replay(pytester, emulator, env, monkeypatch):
    env("serper")
    _suite(pytester.path, 12)
    emulator.pace("serper", latency=0.5)
    live = pytester.runpytest("suites", "--provider=serper", "--wsb-json=live.json")
    live.assert_outcomes(passed=9, failed=3)
    arrivals = sorted(r.at for r in emulator.seen("serper"))
    # one call at a time would space them 0.5 s apart; at once, all 12 arrive before the first answer is back
    assert len(arrivals) == 12 and arrivals[-1] - arrivals[0] < 0.5, arrivals
    live.stdout.fnmatch_lines(
        [
            "live: 12/12 items in * s · recorded 12 · reused 0 · google.serper.dev *0 × 429 · spend *",
            "*cassettes*0 replayed · 12 recorded · 0 live*",
        ]
    )
    assert len(_cassettes(pytester.path)) == 12
    for variable in emulator.env("serper"):
        monkeypatch.delenv(variable)
    emulator.clear()
    replay = pytester.runpytest("suites", "--provider=serper", "--wsb-record-mode=none", "--wsb-json=replay.json")
    replay.assert_outcomes(passed=9, failed=3)
    assert emulator.requests == []
    assert _comparable(pytester.path / "live.json") == _comparable(pytester.path / "replay.json")


@pytest.mark.e2e  # pytest in xdist workers
def test_a_window_limit_sees_no_429_at_the_rate_given_under_xdist(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 16)
    emulator.pace("serper", latency=0.3, per_second=5)
    # rewrite: a worker that did not find the controller's outcomes would record every item again
    result = pytester.runpytest(
        "suites", "--provider=serper", "-n", "2", "--wsb-rate=serper=5/s", "--wsb-record-mode=rewrite"
    )
    result.assert_outcomes(passed=12, failed=4)
    arrivals = [r.at for r in emulator.seen("serper")]
    assert len(arrivals) == 16  # made once, by the controller: no worker called again
    assert emulator.throttled("serper") == 0 and max_per_window(arrivals) <= 5


@pytest.mark.e2e  # Retry-After waited out in real time
def test_a_provider_that_answers_429_is_backed_off_and_no_item_is_lost(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 16)
    emulator.pace("serper", latency=0.2, per_second=4)  # no --wsb-rate: the run learns the limit from 429s
    result = pytester.runpytest("suites", "--provider=serper", "--wsb-retries=8", "--wsb-backoff=0.05")
    result.assert_outcomes(passed=12, failed=4)
    assert emulator.throttled("serper") > 0
    result.stdout.fnmatch_lines(["live: 16/16 items * recorded 16 * google.serper.dev *, * × 429*"])
    assert len(_cassettes(pytester.path)) == 16


def test_the_same_command_again_calls_only_for_what_is_missing(pytester, emulator, env):
    env("serper")
    ids = _suite(pytester.path, 8)
    first = pytester.runpytest("suites", "--provider=serper", "-k", "w00 or w01 or w02")
    first.assert_outcomes(passed=3)
    emulator.clear()
    again = pytester.runpytest("suites", "--provider=serper", "--wsb-json=again.json")
    again.assert_outcomes(passed=6, failed=2)
    assert sorted(json.loads(r.body)["q"] for r in emulator.seen("serper")) == sorted(
        s["query"] for s in [*TINY_SCENARIOS, *TINY_SCENARIOS][3:8]
    )
    again.stdout.fnmatch_lines(["live: 5/5 items * recorded 5 · reused 3 *"])
    assert [p.stem for p in _cassettes(pytester.path)] == ids


def test_max_cost_starts_no_item_once_the_spend_reaches_it(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 8)
    emulator.pace("serper", latency=0.1)
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        "suites", "--provider=serper", "--wsb-price=serper=1000", "--wsb-max-cost=3", f"--wsb-json={results}"
    )
    assert len(emulator.seen("serper")) == 3  # 1 USD a call: the fourth would pass 3 USD
    items = json.loads(results.read_text())["items"]
    refused = [i for i in items if i["error_kind"] == "max_cost"]
    assert len(refused) == 5 and all(
        "not run: the run's estimated spend reached --wsb-max-cost 3 USD" in i["error"] for i in refused
    )
    result.assert_outcomes(
        errors=5,
        passed=sum(i["outcome"] == "passed" for i in items),
        failed=sum(i["outcome"] == "failed" for i in items),
    )
    result.stdout.fnmatch_lines(["live: 8/8 items * recorded 3 · reused 0 · errors 5 * spend 3.0000 USD*"])


@pytest.mark.e2e
def test_ctrl_c_keeps_the_finished_cassettes_whole_and_the_same_command_finishes_the_rest(pytester, emulator, env):
    env("serper")
    ids = _suite(pytester.path, 12)
    emulator.pace("serper", latency=0.6)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "suites",
        "--provider=serper",
        "--wsb-concurrency=2",
        "-p",
        "no:cacheprovider",
    ]
    process = subprocess.Popen(
        command, cwd=pytester.path, env={**os.environ}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while len(_cassettes(pytester.path)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.wait(60)
    kept = _cassettes(pytester.path)
    assert 3 <= len(kept) < 12
    for path in kept:  # each whole: one interaction, its answer
        assert len(yaml.safe_load(path.read_text())["interactions"]) == 1
    asked = {json.loads(r.body)["q"] for r in emulator.seen("serper")}
    emulator.clear()
    again = pytester.runpytest("suites", "--provider=serper", "-p", "no:cacheprovider")
    again.assert_outcomes(passed=9, failed=3)
    assert [p.stem for p in _cassettes(pytester.path)] == ids
    # no finished item was asked again (a query stands for several items: compare the counts)
    assert len(emulator.seen("serper")) == 12 - len(kept)
    again.stdout.fnmatch_lines([f"live: {12 - len(kept)}/{12 - len(kept)} items * reused {len(kept)} *"])
    assert asked  # the interrupted run had really started


@pytest.mark.e2e  # pytest in a child process and xdist workers
def test_n_auto_runs_light_suites_without_workers_and_anything_else_with_them(pytester):
    _suite(pytester.path, 4)
    # in a process of their own: xdist reads -n auto before an in-process run's plugins could answer
    alone = pytester.runpytest_subprocess("suites/wide", "-n", "auto", "--wsb-record-mode=none", "--provider=local")
    assert "created:" not in alone.stdout.str()  # xdist says "created: N/N workers" when it starts any
    pytester.makepyfile(test_other="def test_one():\n    pass\n")
    mixed = pytester.runpytest_subprocess(
        "suites/wide", "test_other.py", "-n", "auto", "--wsb-record-mode=none", "--provider=local"
    )
    mixed.stdout.fnmatch_lines(["*created: */* workers*"])


def test_once_without_a_key_replays_what_is_recorded_and_errors_only_what_is_not(pytester, emulator, env, monkeypatch):
    env("serper")
    _suite(pytester.path, 6)
    pytester.runpytest("suites", "--provider=serper", "-k", "not w05 and not w04").assert_outcomes(passed=3, failed=1)
    monkeypatch.delenv("SERPER_API_KEY")
    emulator.clear()
    result = pytester.runpytest("suites", "--provider=serper", "--wsb-record-mode=once", "-rE")
    result.assert_outcomes(passed=3, failed=1, errors=2)  # w00-w03 replayed; w04, w05 have no cassette
    assert emulator.requests == []
    result.stdout.fnmatch_lines(
        ["*wide/w04[[]serper[]]: provider 'serper' failed: provider 'serper' needs an API key: set SERPER_API_KEY*"]
    )
    result.stdout.fnmatch_lines(["*cassettes*4 replayed*"])
