"""A provider's key is asked for only when some item of the run will call that provider."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_keys(monkeypatch):
    for name in ("SERPER_API_KEY", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_the_code_self_check_never_asks_for_a_key(pytester, no_keys):
    result = pytester.runpytest("--suite", "code-sample", "--wsb-selftest", "--provider=serper", "-q")
    result.assert_outcomes(passed=32)


def test_collect_only_and_replay_only_never_ask_for_a_key(pytester, tiny_suite, no_keys):
    collected = pytester.runpytest("suites", "--provider=serper", "--co", "-q")
    assert collected.ret == pytest.ExitCode.OK
    collected.stdout.fnmatch_lines(["*4 tests collected*"])
    replayed = pytester.runpytest("suites", "--provider=serper", "--wsb-record-mode=none")
    replayed.assert_outcomes(errors=4)  # each item names its missing cassette; no usage error


def test_a_suite_that_calls_the_provider_still_needs_its_key(pytester, no_keys):
    result = pytester.runpytest("--suite", "lexbench-sample", "--wsb-selftest", "--provider=serper")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*provider 'serper' needs an API key: set SERPER_API_KEY*"])
