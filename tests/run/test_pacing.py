"""The live phase's pacing (run/pacing.py): a 429 halves a host's requests in flight, answers add them back
one a window up to no limit, a bounded host's requests wait their turn, and the live line's rate is over the
seconds the host has been asked, never the full window in a run's first seconds."""

from __future__ import annotations

import threading

from pytest_websearchbench.run.pacing import RATE_WINDOW, Pacer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _answer(pacer: Pacer, host: str, status: int | None) -> None:
    with pacer.pace(host) as paced:
        paced.status = status


def _limit(pacer: Pacer, host: str) -> int | None:
    return pacer.snapshot()[host][3]


def test_a_429_halves_the_limit_and_answers_bring_it_back_to_none():
    pacer = Pacer(ceiling=4, clock=Clock())
    _answer(pacer, "api", 200)
    assert _limit(pacer, "api") is None  # unbounded until throttled
    _answer(pacer, "api", 429)
    assert _limit(pacer, "api") == 1  # (in flight 0 + 1) // 2, at least one
    _answer(pacer, "api", 429)
    assert _limit(pacer, "api") == 1
    seen = []
    for _ in range(1 + 2 + 3 + 4):  # a window of answers at each limit: 1, 2, 3, 4, then above the ceiling
        _answer(pacer, "api", 200)
        seen.append(_limit(pacer, "api"))
    assert seen == [2, 2, 3, 3, 3, 4, 4, 4, 4, None]
    assert pacer.snapshot()["api"][:2] == (13, 2)  # requests, 429s


def test_an_answer_without_a_status_leaves_the_limit_alone():
    pacer = Pacer(ceiling=8, clock=Clock())
    _answer(pacer, "api", 429)
    _answer(pacer, "api", None)  # a connection error: no news of the host's capacity
    assert _limit(pacer, "api") == 1


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
    assert most[0] <= 2 and not any(t.is_alive() for t in threads)  # 1, then 2 after the first answer
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
