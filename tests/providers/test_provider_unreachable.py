"""A provider that cannot be reached costs seconds, not minutes: a host name that does not resolve is
not retried, a circuit breaker stops calling a provider after consecutive failed connects (the rest
of its items error at once with one reason), and calls that failed never feed the latency row."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from emulator.testing import make_provider

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.providers.retry import CircuitBreaker, HttpOptions, send_with_retries, transport_problem

QUERY = "green tea brewing temperature"
#: RFC 6761: names under .invalid never resolve, and fail fast without a network
NOWHERE = "http://search.wsb-test.invalid"


def test_a_host_name_that_does_not_resolve_is_not_retried():
    provider = make_provider("serper", {"SERPER_API_KEY": "k-123", "WSB_SERPER_BASE_URL": NOWHERE})
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    assert caught.value.kind == "connection" and caught.value.attempts == 1
    assert "the host name 'search.wsb-test.invalid' does not resolve" in str(caught.value)
    assert "not retried" in str(caught.value)
    assert provider.calls[-1].attempts == 1 and not provider.calls[-1].ok


def _refused_port() -> socket.socket:
    sock = socket.socket()  # bound, never listening: connections to it are refused
    sock.bind(("127.0.0.1", 0))
    return sock


def test_after_consecutive_failed_connects_the_breaker_fails_every_call_at_once_with_one_reason():
    with _refused_port() as sock:
        http = HttpOptions(timeout=5.0, retry=RetryPolicy(retries=1, backoff=0.01, breaker_failures=3))
        provider = make_provider(
            "serper",
            {"SERPER_API_KEY": "k-123", "WSB_SERPER_BASE_URL": f"http://127.0.0.1:{sock.getsockname()[1]}"},
            http=http,
        )
        errors = []
        for _ in range(3):
            with pytest.raises(ProviderError) as caught:
                provider.search(QUERY, 3)
            errors.append(caught.value)
        assert [e.attempts for e in errors] == [2, 2, 2]  # each call still had its retries
        started = time.monotonic()
        refused = []
        for _ in range(20):
            with pytest.raises(ProviderError) as caught:
                provider.search(QUERY, 3)
            refused.append(caught.value)
        assert time.monotonic() - started < 0.5
    assert {str(e) for e in refused} == {
        "serper: not called: the last 3 calls could not connect (the last: connection failed on POST /search: "
        "ConnectError: [Errno 111] Connection refused); further calls in this process fail at once, one is "
        "tried again every 60 s"
    }
    assert {e.kind for e in refused} == {"connection"}
    assert [c.attempts for c in provider.calls[3:]] == [0] * 20  # nothing was sent
    assert all(not c.ok and c.seconds == 0.0 for c in provider.calls[3:])


def test_a_server_that_answers_errors_is_reached_and_never_trips_the_breaker(emulator):
    emulator.fault("serper", "500", times=100)
    http = HttpOptions(timeout=5.0, retry=RetryPolicy(retries=0, breaker_failures=2))
    provider = make_provider("serper", emulator.env("serper"), http=http)
    for _ in range(5):
        with pytest.raises(ProviderError, match="HTTP 500"):
            provider.search(QUERY, 3)
    assert len(emulator.seen("serper")) == 5


def test_the_breaker_lets_one_call_try_again_after_its_pause_and_closes_on_an_answer():
    clock = [0.0]
    breaker = CircuitBreaker(RetryPolicy(breaker_failures=2, breaker_reset=60.0), clock=lambda: clock[0])
    breaker.record(False, "connection failed: A")
    assert breaker.refusal() is None
    breaker.record(False, "connection failed: B")
    reason = breaker.refusal()
    assert reason and "the last 2 calls could not connect (the last: connection failed: B)" in reason
    clock[0] = 59.9
    assert breaker.refusal() == reason
    clock[0] = 60.0
    assert breaker.refusal() is None  # half-open: one trial call
    breaker.record(False, "connection failed: C")  # still unreachable: open again, with the same reason
    assert breaker.refusal() == reason
    clock[0] = 120.0
    assert breaker.refusal() is None
    breaker.record(True)  # an answer of any kind closes it and forgets the count
    breaker.record(False, "connection failed: D")
    assert breaker.refusal() is None


def test_an_answer_between_failed_connects_resets_the_count():
    breaker = CircuitBreaker(RetryPolicy(breaker_failures=2))
    for _ in range(5):
        breaker.record(False, "connection failed")
        breaker.record(True)
    assert breaker.refusal() is None


def _failing(exc: Exception):
    request = httpx.Request("GET", "https://api.example/search")
    exc.request = request
    return lambda: (None, transport_problem(exc, "GET /search", 1.0))


@pytest.mark.parametrize(
    "exc, attempts, trips",
    [
        (httpx.ConnectTimeout("timed out"), 3, True),
        (httpx.ConnectError("[Errno 113] No route to host"), 3, True),
        (httpx.ReadTimeout("timed out"), 3, False),  # connected, then slow: reached
        (httpx.RemoteProtocolError("Server disconnected"), 3, False),
    ],
)
def test_what_each_transport_failure_means_for_retries_and_the_breaker(exc, attempts, trips):
    policy = RetryPolicy(retries=2, backoff=0.0, breaker_failures=1)
    breaker = CircuitBreaker(policy)
    sent = []

    def attempt():
        sent.append(1)
        return _failing(exc)()

    with pytest.raises(ProviderError):
        send_with_retries(attempt, policy, lambda message, **kw: ProviderError(message, **kw), breaker=breaker)
    assert len(sent) == attempts
    assert (breaker.refusal() is not None) == trips


def test_a_resolver_error_under_a_connect_error_is_final():
    try:
        try:
            raise socket.gaierror(-2, "Name or service not known")
        except socket.gaierror as cause:
            raise httpx.ConnectError("[Errno -2] Name or service not known") from cause
    except httpx.ConnectError as exc:
        exc.request = httpx.Request("GET", "https://api.example/search")
        problem = transport_problem(exc, "GET /search", 1.0)
    assert not problem.retry and not problem.reached
    assert problem.message == (
        "connection failed on GET /search: the host name 'api.example' does not resolve "
        "([Errno -2] Name or service not known; not retried)"
    )


def test_an_unreachable_provider_errors_its_items_fast_with_one_reason_and_no_latency(
    pytester, tiny_suite, env, monkeypatch
):
    monkeypatch.setenv("SERPER_API_KEY", "k-fake-123")
    monkeypatch.setenv("WSB_SERPER_BASE_URL", NOWHERE)
    # 12 items: the tiny suite's four scenarios three times over (three suites of other names)
    for copy in ("tiny2", "tiny3"):
        folder = pytester.path / "suites" / copy
        folder.mkdir()
        for name in ("items.jsonl", "grades.jsonl"):
            (folder / name).write_bytes((tiny_suite / name).read_bytes())
        manifest = json.loads((tiny_suite / "suite.json").read_text())
        (folder / "suite.json").write_text(json.dumps({**manifest, "name": copy}))
    results = pytester.path / "r.json"
    started = time.monotonic()
    # one item at a time, so which calls the breaker refuses is known (at once, all 12 would be sent together)
    result = pytester.runpytest("suites", "--provider=serper", f"--wsb-json={results}", "--wsb-concurrency=1")
    assert time.monotonic() - started < 20  # was 12 × 4 attempts with backoff: about 30 s
    result.assert_outcomes(errors=12)
    items = json.loads(results.read_text())["items"]
    reasons = [i["error"] for i in items]
    assert all("does not resolve" in r and "not retried" in r for r in reasons[:5])
    assert len(set(reasons[5:])) == 1 and reasons[5].startswith(
        "serper: not called: the last 5 calls could not connect"
    )
    assert [c["attempts"] for i in items for c in i["calls"]] == [1] * 5 + [0] * 7
    result.stdout.fnmatch_lines(
        [
            "tiny  (*",
            "*latency p50/p95  -*",
            "tiny3  (*",
            "*latency p50/p95  -*",
            "*serper errors: 4× serper: not called: the last 5 calls could not connect*",
        ]
    )
    assert "Traceback" not in result.stdout.str()
