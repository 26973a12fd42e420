"""How hard a run presses a host (providers/pacing.py): the adaptive controller (slow start, additive increase,
×0.8 once an episode, within its ceiling), the headers a host announces its limits in, the window log of a
declared rate, and the pacer that puts them together (it holds sends when the announced budget is spent,
before any 429)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from email.utils import formatdate

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pytest_websearchbench.core.policies import Rate
from pytest_websearchbench.emulate.model import TokenBucket
from pytest_websearchbench.providers.pacing import (
    ARRIVAL_LAG,
    COOLDOWN,
    DECREASE,
    PURGE_STAMP,
    RATE_WINDOW,
    RESET_MARGIN,
    START_LIMIT,
    WINDOW_MARGIN,
    Controller,
    Pacer,
    WindowLog,
    bucket_wait,
    parse_limits,
    parse_reset,
    purge_stale_state,
    request_tokens,
    state_dir,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _answer(pacer: Pacer, host: str, status: int | None, headers: dict[str, str] | None = None) -> None:
    with pacer.pace(host) as paced:
        paced.status = status
        paced.headers = headers or {}


# ------------------------------------------------------------------------------------------ the controller


def test_slow_start_doubles_a_busy_host_until_the_first_429_then_one_a_window_of_answers():
    control = Controller(ceiling=1000)
    assert control.allowed == START_LIMIT
    for _ in range(START_LIMIT):  # a round trip of answers at the limit: the limit doubles
        control.answered(busy=True)
    assert control.allowed == 2 * START_LIMIT
    control.answered(busy=False)  # a host the run does not fill says nothing of its capacity
    assert control.allowed == 2 * START_LIMIT
    assert control.throttled(now=10.0, in_flight=40)
    assert control.allowed == int(40 * DECREASE) == 32 and not control.slow_start
    for _ in range(33):  # additive: about one more a window of answers (1/limit each)
        control.answered(busy=True)
    assert control.allowed == 33


def test_one_decrease_an_episode_however_many_429s_it_brings():
    control = Controller(ceiling=100)
    assert control.throttled(now=0.0, in_flight=20)
    assert [control.throttled(now=t, in_flight=16) for t in (0.1, 1.0, COOLDOWN - 0.01)] == [False] * 3
    assert control.allowed == 16
    assert control.throttled(now=COOLDOWN + 0.01, in_flight=16)  # a new episode
    assert control.allowed == int(16 * DECREASE)


def test_a_decrease_starts_from_the_requests_actually_out():
    control = Controller(ceiling=1000)
    for _ in range(300):
        control.answered(busy=True)
    control.throttled(now=0.0, in_flight=10)  # a limit of 320 the run never used is no measure of the host
    assert control.allowed == 8


@settings(max_examples=200, deadline=None)
@given(
    ceiling=st.integers(1, 64),
    events=st.lists(st.tuples(st.sampled_from(["ok", "busy", "429"]), st.floats(0, 5), st.integers(0, 80))),
)
def test_the_limit_never_leaves_one_to_its_ceiling(ceiling, events):
    control = Controller(ceiling=ceiling)
    now = 0.0
    for kind, step, in_flight in events:
        now += step
        if kind == "429":
            control.throttled(now, in_flight)
        else:
            control.answered(busy=kind == "busy")
        assert 1 <= control.allowed <= ceiling


# ------------------------------------------------------------------------------------------ headers


def test_x_ratelimit_headers_in_any_case_and_brave_s_lists_take_the_tightest_policy():
    told = parse_limits({"x-ratelimit-limit": "20", "X-RateLimit-Remaining": "3", "X-RATELIMIT-RESET": "0.5"})
    assert (told.limit, told.remaining, told.reset) == (20, 3, 0.5)
    brave = parse_limits(
        {"X-RateLimit-Limit": "1, 15000", "X-RateLimit-Remaining": "0, 14999", "X-RateLimit-Reset": "1, 2591999"}
    )
    assert (brave.limit, brave.remaining, brave.reset) == (1, 0, 1.0)
    month = parse_limits(
        {"X-RateLimit-Limit": "20, 15000", "X-RateLimit-Remaining": "12, 4", "X-RateLimit-Reset": "1, 99"}
    )
    assert (month.remaining, month.reset) == (4, 99.0)


def test_the_ietf_draft_in_both_forms():
    old = parse_limits({"RateLimit": "limit=100, remaining=50, reset=5"})
    assert (old.limit, old.remaining, old.reset) == (100, 50, 5.0)
    new = parse_limits({"RateLimit": '"default";r=50;t=30', "RateLimit-Policy": '"default";q=100;w=60'})
    assert (new.limit, new.remaining, new.reset) == (100, 50, 30.0)
    split = parse_limits({"RateLimit-Limit": "10", "RateLimit-Remaining": "0", "RateLimit-Reset": "2"})
    assert (split.limit, split.remaining, split.reset) == (10, 0, 2.0)


def test_openai_s_requests_and_tokens_with_their_durations():
    limits = parse_limits(
        {
            "x-ratelimit-limit-requests": "500",
            "x-ratelimit-remaining-requests": "499",
            "x-ratelimit-reset-requests": "120ms",
            "x-ratelimit-limit-tokens": "30000",
            "x-ratelimit-remaining-tokens": "10",
            "x-ratelimit-reset-tokens": "6m0s",
        }
    )
    assert (limits.limit, limits.remaining, limits.reset) == (500, 499, pytest.approx(0.12))
    assert (limits.tokens_limit, limits.tokens_remaining, limits.tokens_reset) == (30000, 10, 360.0)
    assert parse_reset("1h2m3.5s") == 3723.5 and parse_reset("1s") == 1.0 and parse_reset("12ms") == 0.012
    assert parse_reset("soon") is None and parse_reset("") is None and parse_reset("5 minutes") is None


def test_a_reset_as_a_unix_time_and_retry_after_as_a_date_are_seconds_from_now():
    now = time.time()
    assert parse_reset(str(int(now) + 30), now=now) == pytest.approx(30, abs=1)
    assert parse_limits({"Retry-After": formatdate(now + 20, usegmt=True)}, now=now).retry_after == pytest.approx(
        20, abs=1
    )
    assert parse_limits({"Retry-After": "7"}).retry_after == 7.0
    assert parse_limits({"Content-Type": "application/json"}) == parse_limits({})


# ------------------------------------------------------------------------------------------ a declared rate


def _departures(
    log: WindowLog, arrivals: list[float], lateness: list[float], writing: list[float] | None = None
) -> list[tuple[float, float, float]]:
    """Callers arriving at ``arrivals`` book a slot each, wake ``lateness`` late from every sleep, ask to leave (as
    ``Pacer._declared_rate`` does) and, once gone, stall ``writing`` seconds before their request is on the wire
    (``arrived``, as the capture tells the pacer), all in time order; (booked, left, on the wire) for each."""
    writing = writing or [0.0] * len(arrivals)
    events = [(t, i, "arrive", 0.0) for i, t in enumerate(arrivals)]
    booked: dict[int, float] = {}
    left: dict[int, float] = {}
    wrote: dict[int, float] = {}
    while events:
        events.sort()
        now, i, kind, due = events.pop(0)
        if kind == "arrive":
            booked[i] = due = log.reserve(now)
            events.append((max(now, due) + lateness[i], i, "leave", due))
        elif kind == "write":
            log.arrived(left[i], now)
            wrote[i] = now
        elif (hold := log.leave(now, due)) > 0:
            events.append((now + hold + lateness[i], i, "leave", now + hold))
        else:
            left[i] = now
            events.append((now + writing[i], i, "write", 0.0))
    return [(booked[i], left[i], wrote[i]) for i in range(len(arrivals))]


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(1, 8),
    per=st.sampled_from([0.5, 1.0, 60.0]),
    callers=st.lists(st.tuples(st.floats(0, 0.3), st.floats(0, 0.5)), min_size=1, max_size=60),
)
@example(count=1, per=1.0, callers=[(0.0, 0.5), (0.0, 0.0)])  # the first wakes late, the one booked after it does not
def test_a_window_log_never_lets_a_window_see_more_than_the_rate_however_late_threads_wake(count, per, callers):
    log = WindowLog(Rate(count, per))
    arrivals = [sum(gap for gap, _ in callers[: i + 1]) for i in range(len(callers))]
    sends = _departures(log, arrivals, [late for _, late in callers])
    assert all(left >= booked >= arrival for (booked, left, _), arrival in zip(sends, arrivals))
    left = sorted(t for _, t, _ in sends)
    for i in range(len(left) - count):
        assert left[i + count] - left[i] >= per - 1e-9  # any count + 1 sends leave over a whole window


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(1, 8),
    per=st.sampled_from([0.5, 1.0, 60.0]),
    callers=st.lists(st.tuples(st.floats(0, 0.3), st.floats(0, 0.2), st.floats(0, 0.99)), min_size=1, max_size=60),
)
# the first stalls between leaving and writing; the one a window after it does not (one 429 in a loaded run)
@example(count=1, per=1.0, callers=[(0.0, 0.0, 0.5), (0.0, 0.0, 0.0)])
def test_a_window_never_sees_more_than_the_rate_on_the_wire_however_long_a_send_stalls_before_writing(
    count, per, callers
):
    log = WindowLog(Rate(count, per))
    arrivals = [sum(gap for gap, *_ in callers[: i + 1]) for i in range(len(callers))]
    # a stall shorter than the window (one longer than a whole window passes a send through)
    sends = _departures(log, arrivals, [late for _, late, _ in callers], [stall * per for *_, stall in callers])
    on_wire = sorted(t for *_, t in sends)
    for i in range(len(on_wire) - count):
        assert on_wire[i + count] - on_wire[i] >= per - 1e-9


def test_a_window_log_on_time_leaves_each_send_at_its_slot():
    sends = _departures(WindowLog(Rate(2, 1.0)), [0.0, 0.0, 0.0, 0.0], [0.0] * 4)
    assert sends == [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (1.0, 1.0, 1.0)]


# ------------------------------------------------------------------------------------------ the pacer


def test_a_host_starts_at_the_start_limit_and_its_line_shows_a_limit_only_once_a_429_set_one():
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    assert pacer.wanted() == 8  # the start limit under a lower ceiling
    _answer(pacer, "api", 200)
    assert pacer.snapshot()["api"][3] is None
    _answer(pacer, "api", 429)
    assert pacer.snapshot()["api"][:2] == (2, 1) and pacer.snapshot()["api"][3] == 1  # 1 in flight × 0.8, at least 1


def test_a_spent_budget_holds_the_host_until_its_reset_before_any_429():
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    # a host that says only what is left (one that says its limit too is paced at it, below)
    _answer(pacer, "api", 200, {"X-RateLimit-Remaining": "1", "X-RateLimit-Reset": "0.3"})
    _answer(pacer, "api", 200)  # the one left
    blocked = threading.Event()

    def send() -> None:
        _answer(pacer, "api", 200)
        blocked.set()

    thread = threading.Thread(target=send)
    thread.start()
    assert not blocked.wait(0.2)  # held: the budget is spent and the clock has not reached the reset
    clock.now += 0.3 + RESET_MARGIN + 0.01
    with pacer._changed:
        pacer._changed.notify_all()
    thread.join(5)  # the reset passed: one request may ask for news (its wait times out on its own too)
    assert blocked.is_set()
    assert pacer.snapshot()["api"][1] == 0


def test_retry_after_on_a_429_holds_the_whole_host():
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    _answer(pacer, "api", 429, {"Retry-After": "2"})
    state = pacer._hosts["api"]
    assert pacer._hold(state, clock.now) == pytest.approx(2.0)
    clock.now += 2.0
    assert pacer._hold(state, clock.now) == 0.0


def test_tokens_nearly_spent_hold_the_host_until_its_bucket_refills_enough():
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    _answer(
        pacer,
        "api",
        200,
        {
            "x-ratelimit-limit-tokens": "30000",
            "x-ratelimit-remaining-tokens": "100",
            "x-ratelimit-reset-tokens": "1.5s",
        },
    )
    refill = 29900 / 1.5
    assert bucket_wait(pacer._hosts["api"].bucket, 1100, clock.now) == pytest.approx(1000 / refill)
    assert bucket_wait(pacer._hosts["api"].bucket, 100, clock.now) == 0.0


def test_a_request_s_tokens_are_its_body_s_and_the_answer_it_caps():
    assert request_tokens(b"x" * 400) == 100 and request_tokens(b"x" * 401) == 101 and request_tokens(b"") == 0
    capped = b'{"model": "m", "input": "hello", "max_output_tokens": 500}'
    assert request_tokens(capped) == -(-len(capped) // 4) + 500
    chat = b'{"model": "m", "messages": [], "max_tokens": 64, "max_completion_tokens": 256}'
    assert request_tokens(chat) == -(-len(chat) // 4) + 256  # the larger cap
    broken = b'{"max_tokens": 64'  # not JSON: its bytes alone
    assert request_tokens(broken) == -(-len(broken) // 4)


def _body(tokens: int) -> bytes:
    return b"x" * (4 * tokens)


def test_a_host_announcing_its_tokens_is_sent_a_request_when_its_bucket_holds_the_request():
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    with pacer.pace("api", _body(1000)) as first:  # no bucket known yet: it goes
        with pacer.pace("api", _body(1000)):  # and one more while the first is out
            first.status = 200
            first.headers = {
                "x-ratelimit-limit-tokens": "10000",
                "x-ratelimit-remaining-tokens": "3000",  # after the first, not yet the second
                "x-ratelimit-reset-tokens": "7s",
            }
    state = pacer._hosts["api"]
    refill = 7000 / 7
    assert state.bucket == (10000, 2000.0, pytest.approx(refill), clock.now)  # the second's tokens taken off
    assert bucket_wait(state.bucket, 2000, clock.now) == 0.0
    with pacer.pace("api", _body(2000)):
        pass
    assert bucket_wait(state.bucket, 500, clock.now) == pytest.approx(500 / refill)
    assert bucket_wait(state.bucket, 1, clock.now) == pytest.approx(1 / refill)  # a body-less request: one token
    clock.now += 0.25
    assert bucket_wait(state.bucket, 500, clock.now) == pytest.approx(500 / refill - 0.25)
    assert bucket_wait(state.bucket, 50_000, clock.now) == pytest.approx(10000 / refill - 0.25)  # a full bucket
    with pacer.pace("api"):  # it has refilled a quarter of a second's worth: a body-less request goes, for one
        pass
    assert state.bucket[1] == pytest.approx(0.25 * refill - 1)


def test_an_answer_takes_off_the_requests_still_out_that_left_just_before_its_own_not_long_before():
    """A request that left just before another may reach the host after it: the other's answer does not count
    it yet. One out for longer than ARRIVAL_LAG (a model thinking for 20 s) has been counted."""
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    announced = {"x-ratelimit-limit-tokens": "100000", "x-ratelimit-reset-tokens": "1s"}
    _answer(pacer, "api", 200, {**announced, "x-ratelimit-remaining-tokens": "99000"})  # a bucket is known
    with pacer.pace("api", _body(1000)) as slow:  # out for long
        clock.now += ARRIVAL_LAG + 1
        with pacer.pace("api", _body(1000)) as near:  # left just before the last
            clock.now += 0.1
            with pacer.pace("api", _body(1000)) as last:
                last.status, last.headers = 200, {**announced, "x-ratelimit-remaining-tokens": "50000"}
            assert pacer._hosts["api"].bucket[1] == 50000 - 1000  # ``near`` taken off, ``slow`` not
            near.status = 200
        slow.status = 200


@settings(max_examples=60)
@given(
    sizes=st.lists(st.integers(1, 4000), min_size=1, max_size=40),
    limit=st.integers(4000, 20000),
    window=st.sampled_from([1.0, 10.0, 60.0]),
)
def test_one_sender_never_draws_a_429_from_a_token_bucket_and_waits_no_longer_than_it_must(sizes, limit, window):
    """The scripted model's bucket (emulate/model.py, OpenAI's rule: refilled continuously) is the host; each
    request is charged its estimate. After the first answer told the pacer the bucket, no request is refused,
    and the sends take at most a few percent longer than the bucket's own pace."""
    clock = Clock()
    start = clock.now
    pacer = Pacer(ceiling=8, clock=clock, sleep=clock.sleep)
    host = TokenBucket(limit, window)
    for tokens in sizes:
        # the pacer's own wait, as its thread would sleep it (and a hair more: a real clock does not stop exactly
        # at the edge, and this one stands still while the pacer looks again)
        clock.now += bucket_wait(pacer._hosts["api"].bucket if "api" in pacer._hosts else None, tokens, clock.now)
        clock.now += 1e-9
        with pacer.pace("api", _body(tokens)) as paced:
            admitted, paced.headers = host.admit(clock.now, tokens)
            paced.status = 200 if admitted else 429
        assert admitted
    rate = limit / window
    fastest = max(0.0, sum(sizes) - limit) / rate  # the bucket's own pace: a full bucket, then its refill
    assert clock.now - start <= fastest * 1.001 + 0.001 * len(sizes) + 1e-6


def test_a_bounded_host_has_no_more_requests_out_than_its_limit():
    pacer = Pacer(ceiling=8)
    _answer(pacer, "api", 429)  # limit 1
    inside, most, lock = [0], [0], threading.Lock()
    release = threading.Event()

    def request() -> None:
        with pacer.pace("api") as paced:
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            release.wait(0.05)
            with lock:
                inside[0] -= 1
            paced.status = 200

    threads = [threading.Thread(target=request) for _ in range(4)]
    for thread in threads:
        thread.start()
    release.set()
    for thread in threads:
        thread.join(5)
    assert most[0] == 1 and not any(t.is_alive() for t in threads)  # after a 429, additive: slow growth
    assert pacer.snapshot()["api"][0] == 5


def test_the_rate_is_over_the_seconds_asked_in_the_first_window_then_over_the_window():
    clock = Clock()
    pacer = Pacer(ceiling=8, clock=clock)
    for _ in range(5):
        clock.now += 0.4
        _answer(pacer, "api", 200)
    # 5 answers in the 1.6 s since the first request, not 5 over 10 s
    assert abs(pacer.snapshot()["api"][2] - 5 / 1.6) < 1e-9
    clock.now += 30
    for _ in range(20):
        clock.now += 0.5
        _answer(pacer, "api", 200)
    assert pacer.snapshot()["api"][2] == 20 / RATE_WINDOW
    # the first instant of a run: a second at least, not a rate over a millisecond
    fresh = Pacer(ceiling=8, clock=clock)
    _answer(fresh, "other", 200)
    assert fresh.snapshot()["other"][2] == 1.0


def test_old_state_folders_are_purged_at_most_once_an_hour(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    old, new = state_dir("old-run"), state_dir("new-run")
    for folder in (old, new):
        folder.mkdir(parents=True)
        (folder / "live-outcomes.json").write_text("{}")
    day_ago = time.time() - 86400 - 60
    os.utime(old, (day_ago, day_ago))
    purge_stale_state()
    assert not old.exists() and new.exists() and (old.parent / PURGE_STAMP).is_file()
    # within the hour the folders are not looked at (a run no longer stats every folder every run left) ...
    old.mkdir()
    os.utime(old, (day_ago, day_ago))
    purge_stale_state()
    assert old.exists()
    # ... and an hour on they are
    hour_ago = time.time() - 3601
    os.utime(old.parent / PURGE_STAMP, (hour_ago, hour_ago))
    purge_stale_state()
    assert not old.exists() and new.exists()


def test_a_window_that_ends_with_budget_left_lets_one_request_ask_not_every_thread_send():
    # a host counting a sliding window frees one slot when its oldest request leaves, not all of them: the sends
    # still out are in its count. So once the window the budget was counted in is over, a host that never said its
    # limit gets one request that asks for news (as after a spent budget), whatever was left of the budget; the
    # answer's own headers set the next budget.
    clock = Clock()
    pacer = Pacer(ceiling=40, clock=clock)
    _answer(pacer, "api", 200, {"X-RateLimit-Remaining": "5", "X-RateLimit-Reset": "0.05"})
    _answer(pacer, "api", 200)  # 4 of the 5 left unsent when the window ends
    state = pacer._hosts["api"]
    clock.now += 0.05 + RESET_MARGIN + 0.01
    assert pacer._hold(state, clock.now) == 0.0 and state.budget == 1
    with pacer.pace("api") as paced:  # the one that asks
        assert pacer._hold(state, clock.now) == pytest.approx(
            0.05 + RESET_MARGIN
        )  # no other send until it answers or the reset
        paced.status, paced.headers = 200, {"X-RateLimit-Remaining": "7", "X-RateLimit-Reset": "0.5"}
    assert state.budget == 7 and pacer._hold(state, clock.now) == 0.0


def test_a_host_that_announces_its_limit_is_sent_requests_spaced_at_it_and_held_only_when_it_is_full():
    # 20 a window of a second at most (the longest reset it announced, 10 % apart more), never a burst: what is
    # left, low because the sends go at the limit, holds nothing until the host says none is left
    clock = Clock()
    pacer = Pacer(ceiling=40, clock=clock)
    _answer(pacer, "api", 200, {"X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "5", "X-RateLimit-Reset": "0.05"})
    state = pacer._hosts["api"]
    gap = 1.0 * (1 + WINDOW_MARGIN) / 20
    out, sent = [], []
    for _ in range(18):  # eighteen sends out at once (the start limit is 20), each as soon as the pacer lets it
        clock.now += pacer._hold(state, clock.now) + 1e-9
        out.append(pacer.pace("api"))
        out[-1].__enter__()
        sent.append(clock.now)
    assert all(b - a == pytest.approx(gap, abs=1e-6) for a, b in zip(sent, sent[1:]))
    for passage in out:
        passage.__exit__(None, None, None)
    # full: held until its reset, though the spacing would let a send go
    clock.now += gap + 1e-9
    _answer(pacer, "api", 200, {"X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "0.3"})
    assert pacer._hold(state, clock.now) == pytest.approx(0.3 + RESET_MARGIN)
    # a longer window announced (a minute's 100) spaces them at that one's rate; a quota's day is not a rate
    clock.now += 0.3 + RESET_MARGIN + 1e-9
    _answer(pacer, "api", 200, {"X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "1", "X-RateLimit-Reset": "60"})
    assert pacer._hold(state, clock.now) == pytest.approx(60 * (1 + WINDOW_MARGIN) / 100)
    clock.now += 60 * (1 + WINDOW_MARGIN) / 100 + 1e-9
    _answer(
        pacer, "api", 200, {"X-RateLimit-Limit": "9000", "X-RateLimit-Remaining": "1", "X-RateLimit-Reset": "86400"}
    )
    assert pacer._hold(state, clock.now) == pytest.approx(60 * (1 + WINDOW_MARGIN) / 9000)
    # an answer with no window: the host no longer announces one, nothing holds it
    clock.now += 1
    _answer(pacer, "api", 200, {"Content-Type": "application/json"})
    assert state.limit is None and state.budget is None and pacer._hold(state, clock.now) == 0.0


def test_the_sends_before_a_host_announced_its_limit_count_in_its_window():
    # the start limit lets 20 go at once; answers that still had room (read late, or the burst's first ones) then
    # announce 20 a second: sends spaced at the limit may not follow the burst into its second
    clock = Clock()
    pacer = Pacer(ceiling=40, clock=clock)
    out = []
    for _ in range(START_LIMIT):
        out.append(pacer.pace("api"))
        out[-1].__enter__()
        clock.now += 0.01
    clock.now = 100.3
    out[0].__exit__(None, None, None)
    state = pacer._hosts["api"]
    answer = {"X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "10", "X-RateLimit-Reset": "0.7"}
    _answer(pacer, "api", 200, answer)  # the 21st request: sent at once, it is the burst's twentieth in a window
    assert pacer._hold(state, clock.now) == pytest.approx(100.01 + 1.0 * (1 + WINDOW_MARGIN) - 100.3)
    for passage in out[1:]:
        passage.__exit__(None, None, None)


def test_a_send_that_reached_the_wire_late_holds_the_send_a_window_after_it_not_the_next_one():
    # 2 a second (spaced 0.55 s, 1.1 s a window with the margin); the first send after the announcement stalls 0.3 s
    # between leaving and writing: the send a window after it waits for its arrival, the next one only for the
    # spacing from when it left (from its arrival, every send's delay would add to the gap)
    clock = Clock()
    pacer = Pacer(ceiling=40, clock=clock)
    _answer(pacer, "api", 200, {"X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1", "X-RateLimit-Reset": "1"})
    state = pacer._hosts["api"]
    span = 1.0 * (1 + WINDOW_MARGIN)
    clock.now = 100.0 + span / 2
    with pacer.pace("api") as stalled:
        clock.now += 0.3
        stalled.on_wire()
        assert pacer._hold(state, clock.now) == pytest.approx(100.0 + span - clock.now)  # not 0.3 more
    clock.now = 100.0 + span
    with pacer.pace("api") as paced:
        paced.on_wire()
    clock.now += span / 2
    assert pacer._hold(state, clock.now) == pytest.approx(0.3)  # a window after the stalled one's arrival


def test_a_host_that_stops_announcing_is_not_held_by_its_last_announcement():
    clock = Clock()
    pacer = Pacer(ceiling=40, clock=clock)
    _answer(pacer, "api", 200, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "0.05"})
    clock.now += 0.05 + RESET_MARGIN + 0.01
    _answer(pacer, "api", 200, {"Content-Type": "application/json"})  # the one that asked: no window in its answer
    state = pacer._hosts["api"]
    assert state.budget is None and pacer._hold(state, clock.now) == 0.0


def test_an_answer_read_after_later_sends_does_not_give_their_budget_again():
    # two requests out; the first answer says 3 left, counted before the second reached the host: sent after it,
    # the second is taken from those 3
    clock = Clock()
    pacer = Pacer(ceiling=40, clock=clock)
    first, second = pacer.pace("api"), pacer.pace("api")
    paced_first, _ = first.__enter__(), second.__enter__()
    paced_first.status, paced_first.headers = 200, {"X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "0.5"}
    first.__exit__(None, None, None)
    assert pacer._hosts["api"].budget == 2
    second.__exit__(None, None, None)


def test_a_send_that_left_late_holds_the_send_booked_a_window_after_it():
    log = WindowLog(Rate(1, 1.0))
    assert [log.reserve(0.0), log.reserve(0.0)] == [0.0, 1.0]  # booked ahead, in turn
    assert log.leave(0.3, 0.0) == 0.0  # its thread woke 0.3 s late
    # the second was booked from the first's slot; it leaves a window after the first left, and the 0.3 s the first
    # one's thread woke late is allowed for as well (the process may stall as long between counting and sending)
    assert log.leave(1.0, 1.0) == pytest.approx(0.6)
    assert log.leave(1.6, 1.6) == 0.0


def test_a_send_that_reached_the_wire_late_holds_the_send_after_it_a_window_after_its_arrival():
    log = WindowLog(Rate(1, 1.0))
    assert log.leave(0.0, 0.0) == 0.0
    log.arrived(0.0, 0.4)  # counted as it left, on the wire 0.4 s later
    assert log.gone == [0.4]
    assert log.leave(1.0, 1.0) == pytest.approx(0.4)
    assert log.leave(1.4, 1.4) == 0.0


def test_a_stall_widens_the_window_for_one_window_only():
    log = WindowLog(Rate(1, 1.0))
    assert log.leave(0.2, 0.0) == 0.0 and log.stall(0.2) == pytest.approx(0.2)
    assert log.reserve(0.5) == pytest.approx(1.4)
    assert log.stall(1.3) == 0.0  # a window after it, the stall is forgotten
    assert log.leave(5.0, 4.0) == 0.0 and log.stall(5.0) == 1.0  # never more than the window itself
