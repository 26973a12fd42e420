"""The shared HTTP plumbing under faults: retries, backoff, Retry-After, timeouts, connection
errors, the cross-process rate limit, and what reaches a cassette when a call fails."""

from __future__ import annotations

import multiprocessing
import random
import socket
import time
from email.utils import formatdate

import pytest
import yaml
from emulator.testing import make_provider, recording

from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError
from pytest_websearchbench.core.policies import Rate, RetryPolicy, parse_prices, parse_rate, parse_rates
from pytest_websearchbench.providers.pacing import RateLimiter
from pytest_websearchbench.providers.retry import HttpOptions, parse_retry_after

QUERY = "green tea brewing temperature"


def test_429_with_retry_after_waits_that_long_then_succeeds(emulator, tmp_path):
    emulator.fault("serper", "429", retry_after="1")
    provider = make_provider("serper", emulator.env("serper"))
    started = time.monotonic()
    with recording(provider, tmp_path / "c.yaml") as use:
        hits = provider.search(QUERY, 3)
    assert time.monotonic() - started >= 1.0
    assert len(hits) == 3 and use.recorded == 1
    call = provider.calls[-1]
    assert call.ok and call.attempts == 2 and call.wall_seconds >= 1.0 > call.seconds
    interactions = yaml.safe_load((tmp_path / "c.yaml").read_text())["interactions"]
    assert [i["response"]["status"]["code"] for i in interactions] == [200]  # the 429 was not recorded


def test_a_retry_after_beyond_the_cap_fails_at_once_saying_so(emulator):
    emulator.fault("brave", "429", retry_after="120", times=5)
    provider = make_provider("brave", emulator.env("brave"))
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    assert caught.value.status == 429 and len(emulator.seen("brave")) == 1
    assert "HTTP 429" in str(caught.value) and "retry after 120 s" in str(caught.value)


def test_persistent_500_is_an_error_with_status_provider_message_and_attempts(emulator, tmp_path):
    emulator.fault("tavily", "500", times=10)
    provider = make_provider("tavily", emulator.env("tavily"))
    with pytest.raises(ProviderError) as caught, recording(provider, tmp_path / "c.yaml"):
        provider.search(QUERY, 3)
    error = caught.value
    assert error.kind == "http" and error.status == 500 and error.attempts == 3
    assert str(error) == ("tavily: HTTP 500 from POST /search: tavily is busy (gave up after 3 attempts)")
    assert len(emulator.seen("tavily")) == 3
    assert not (tmp_path / "c.yaml").exists()
    call = provider.calls[-1]
    assert not call.ok and call.outcome == "http" and call.cost_usd is None


def test_one_503_is_retried_transparently(emulator):
    emulator.fault("exa", "503")
    provider = make_provider("exa", emulator.env("exa"))
    assert len(provider.search(QUERY, 2)) == 2
    assert provider.calls[-1].attempts == 2


def test_a_hang_past_the_timeout_is_a_timeout_error(emulator):
    emulator.fault("perplexity", "hang", times=5, hang_seconds=3.0)
    http = HttpOptions(timeout=0.2, retry=RetryPolicy(retries=1, backoff=0.01))
    provider = make_provider("perplexity", emulator.env("perplexity"), http=http)
    started = time.monotonic()
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    assert time.monotonic() - started < 2.5  # it did not wait for the hanging answer
    assert caught.value.kind == "timeout" and caught.value.attempts == 2
    assert "no complete answer within 0.2 s (--wsb-timeout)" in str(caught.value)
    assert "gave up after 2 attempts" in str(caught.value)


def test_a_dropped_connection_is_retried(emulator):
    emulator.fault("kagi", "drop")
    provider = make_provider("kagi", emulator.env("kagi"))
    assert len(provider.search(QUERY, 2)) == 2
    assert provider.calls[-1].attempts == 2


def test_a_refused_connection_is_a_connection_error():
    with socket.socket() as sock:  # bound, never listening: connections to it are refused
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        provider = make_provider(
            "serper", {"SERPER_API_KEY": "k-123", "WSB_SERPER_BASE_URL": f"http://127.0.0.1:{port}"}
        )
        with pytest.raises(ProviderError) as caught:
            provider.search(QUERY, 3)
    assert caught.value.kind == "connection" and caught.value.attempts == 3
    assert "connection failed on POST /search: ConnectError" in str(caught.value)


def test_a_client_error_is_not_retried(emulator):
    provider = make_provider("google-cse", {**emulator.env("google-cse"), "GOOGLE_CSE_ID": "wrong-engine"})
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    assert caught.value.status == 400 and "Request contains an invalid argument" in str(caught.value)
    assert len(emulator.seen("google-cse")) == 1


def test_a_rejected_answer_inside_a_successful_item_is_dropped_from_the_cassette(emulator, tmp_path):
    emulator.fault("exa", "invalid_json", route="fetch")
    provider = make_provider("exa", emulator.env("exa"))
    with recording(provider, tmp_path / "c.yaml") as use:
        provider.search(QUERY, 2)
        with pytest.raises(ProviderError, match="malformed JSON"):
            provider.fetch("https://tea.example/black-tea")  # the agent goes on without this page
    assert use.recorded == 1
    interactions = yaml.safe_load((tmp_path / "c.yaml").read_text())["interactions"]
    assert [i["request"]["uri"] for i in interactions] == ["https://api.exa.ai/search"]


def test_an_error_status_answer_never_reaches_a_cassette(emulator, tmp_path):
    provider = make_provider("linkup", emulator.env("linkup"))
    with recording(provider, tmp_path / "c.yaml") as use:
        provider.search(QUERY, 2)
        with pytest.raises(ProviderError, match="HTTP 400"):
            provider.fetch("https://nowhere.example/")
    assert use.recorded == 1
    assert "nowhere.example" not in (tmp_path / "c.yaml").read_text()


def test_backoff_grows_exponentially_with_jitter_and_honours_retry_after():
    policy = RetryPolicy(retries=5, backoff=0.5, max_backoff=4.0)
    rng = random.Random(1)
    for attempt, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 4.0)]:
        delays = [policy.delay(attempt, rng=rng) for _ in range(200)]
        assert ceiling / 2 <= min(delays) and max(delays) <= ceiling
        assert max(delays) - min(delays) > ceiling / 4  # jittered, not fixed
    assert policy.delay(1, retry_after=3.0, rng=rng) == 3.0


def test_retry_after_reads_seconds_and_http_dates():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    now = time.time()
    assert parse_retry_after(formatdate(now + 30, usegmt=True), now=now) == pytest.approx(30, abs=1)
    assert parse_retry_after(formatdate(now - 30, usegmt=True), now=now) == 0.0


def test_rates_and_prices_parse_or_say_what_is_wrong():
    assert parse_rates("serper=5/s, tavily=60/min,*=1000/h") == {
        "serper": Rate(5, 1),
        "tavily": Rate(60, 60),
        "*": Rate(1000, 3600),
    }
    assert parse_rate("2/s").interval == 0.5
    with pytest.raises(ConfigurationError, match=r"--wsb-rate serper: '5' has no unit; write 5/s, 5/min or 5/h"):
        parse_rates("serper=5")  # not guessed to be 5/s
    with pytest.raises(ConfigurationError, match="write e.g. 5/s"):
        parse_rates("serper=fast")
    with pytest.raises(ConfigurationError, match="NAME=RATE"):
        parse_rates("serper")
    assert parse_prices("serper=1.0,tavily.fetch=1.6") == {"serper": {"search": 1.0}, "tavily": {"fetch": 1.6}}
    with pytest.raises(ConfigurationError, match="not a number"):
        parse_prices("serper=cheap")


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("serper=0.0000001/s", r"--wsb-rate serper: 0.0000001/s is one request every 1e\+07 s, below the slowest"),
        ("serper=30/h", r"one request every 120 s, below the slowest rate a run takes \(0.01/s, i.e. 36/h\)"),
        ("serper=200000/s", r"200000 requests a second, above any provider's \(100000/s\)"),
        ("serper=5/s,serper=2/s", r"--wsb-rate: serper is named twice"),
    ],
)
def test_a_rate_that_would_stall_a_run_or_names_a_provider_twice_is_refused(value, said):
    with pytest.raises(ConfigurationError, match=said):
        parse_rates(value)
    assert parse_rates("serper=36/h") == {"serper": Rate(36, 3600)}  # the slowest taken: 0.01/s


def test_absurd_rates_and_concurrency_are_usage_errors(pytester, tiny_suite):
    stalled = pytester.runpytest("suites", "--wsb-rate=local=0.0000001/s")
    assert stalled.ret == pytest.ExitCode.USAGE_ERROR
    stalled.stderr.fnmatch_lines(["*--wsb-rate local: 0.0000001/s is one request every 1e+07 s*"])
    crowded = pytester.runpytest("suites", "--wsb-concurrency=100000")
    assert crowded.ret == pytest.ExitCode.USAGE_ERROR
    crowded.stderr.fnmatch_lines(["*--wsb-concurrency: must be at most 1024, got 100000*"])


def test_a_price_override_changes_the_cost_of_each_call(emulator):
    provider = make_provider("kagi", emulator.env("kagi"), http=HttpOptions(prices={"search": 2.0}))
    provider.search(QUERY, 1)
    assert provider.calls[-1].cost_usd == pytest.approx(0.002)


def _take_slots(path, count, queue):
    limiter = RateLimiter(path, Rate(20, 1))
    for _ in range(count):
        slot = limiter.book()  # the slot this process was given
        time.sleep(max(0.0, slot - time.time()))
        queue.put((slot, time.time()))


def test_the_rate_limit_holds_across_processes(tmp_path):
    queue = multiprocessing.get_context("fork").Queue()
    workers = [
        multiprocessing.get_context("fork").Process(target=_take_slots, args=(tmp_path / "p.next", 5, queue))
        for _ in range(3)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
    slots, sent = zip(*sorted(queue.get(timeout=1) for _ in range(15)))
    gaps = [b - a for a, b in zip(slots, slots[1:])]
    assert min(gaps) >= 0.049  # 20/s: one slot every 50 ms, whichever process books it
    # and the requests really were that spread out (a late first wake-up may shorten the span a little)
    assert max(sent) - min(sent) >= 14 * 0.05 * 0.8


def test_a_burst_allows_that_many_requests_at_once(tmp_path):
    clock = [100.0]
    limiter = RateLimiter(tmp_path / "b.next", Rate(1, 1), burst=3, clock=lambda: clock[0], sleep=lambda s: None)
    assert [limiter.book() for _ in range(4)] == [100.0, 100.0, 100.0, 101.0]
