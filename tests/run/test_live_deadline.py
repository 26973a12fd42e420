"""A live run's item against a provider that drips its answer (issue 46): it errors at the attempts' deadline
(core/deadline.py), not after the minutes the drip would take."""

from __future__ import annotations

import json
import time

import pytest
from test_distributed import _wide_suite  # noqa: E402


@pytest.mark.e2e  # deadlines waited out in real time
def test_a_dripping_provider_errors_its_item_of_a_live_run_within_timeout_times_attempts(pytester, emulator, env):
    """The measured case of issue 46: headers, then one byte a second, under --wsb-timeout."""
    env("serper")
    _wide_suite(pytester.path, 1)
    (pytester.path / "tox.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    emulator.fault("serper", "drip", times=10, drip_interval=1.0)
    started = time.monotonic()
    result = pytester.runpytest(
        "suites", "--provider=serper", "--wsb-timeout=2", "--wsb-retries=1", "--wsb-backoff=0.05", "--wsb-json=r.json"
    )
    took = time.monotonic() - started
    result.assert_outcomes(errors=1)
    assert took < 15, took  # two attempts of 2 s; the drip alone would take minutes
    (item,) = json.loads((pytester.path / "r.json").read_text())["items"]
    assert item["error_kind"] == "timeout"
    assert "no complete answer within 2 s (--wsb-timeout)" in item["error"]
