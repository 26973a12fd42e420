"""A run spread over xdist gateways that share neither a temp folder nor a cassette folder with the
controller (as gateways on other machines do): the run's --wsb-rate holds at the vendor across all of
them, every cassette a worker recorded lands in the controller's folder, and the results are those
of a run without xdist."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from types import SimpleNamespace

import execnet
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import TINY_GRADES, TINY_SCENARIOS, write_lexbench_suite
from pytest_websearchbench.core.options import CassetteMode, Settings  # noqa: E402
from pytest_websearchbench.core.policies import Rate  # noqa: E402
from pytest_websearchbench.providers.pacing import RateLimiter  # noqa: E402
from pytest_websearchbench.run.distributed import _Controller, host_rates, lock_scope, split_rate  # noqa: E402

ITEMS = 20


def _wide_suite(root, items: int = ITEMS) -> list[str]:
    """The tiny suite's scenarios repeated under new ids: enough items to keep a 5/s limit busy for seconds."""
    scenarios, grades = [], []
    for index in range(items):
        base = TINY_SCENARIOS[index % len(TINY_SCENARIOS)]
        case = f"w{index:02d}"
        scenarios.append({**base, "id": case})
        grades += [{**g, "query_id": case} for g in TINY_GRADES if g["query_id"] == base["id"]]
    write_lexbench_suite(root, "wide", scenarios, grades)
    return [s["id"] for s in scenarios]


def max_per_window(arrivals: list[float], seconds: float = 1.0) -> int:
    """The most requests any half-open window of ``seconds`` holds."""
    arrivals = sorted(arrivals)
    return max(sum(1 for t in arrivals[i:] if t < start + seconds) for i, start in enumerate(arrivals))


def _comparable(results_file) -> dict:
    """Each item's outcome and score, without what differs between a recording and a replay (latency, status)."""
    items = json.loads(results_file.read_text())["items"]
    return {
        (i["suite"], i["case_id"], i["provider"]): (i["outcome"], i["message"], i["metrics"], i["results"], i["raw"])
        for i in items
    }


@pytest.mark.e2e
def test_gateways_on_separate_temp_and_cassette_folders_keep_the_rate_and_bring_cassettes_back(
    pytester, emulator, env, monkeypatch
):
    env("serper")
    ids = _wide_suite(pytester.path)
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    gateways, worker_folders = [], []
    for name in ("a", "b"):
        temp = pytester.mkdir(f"tmp-{name}")
        worker_folders.append(pytester.path / f"worker-{name}" / "cassettes")
        # its own temp folder, as on another machine, and its own cassette folder (PYTEST_ADDOPTS on the worker only)
        gateways += ["--tx", f"popen//env:TMPDIR={temp}//env:PYTEST_ADDOPTS=--wsb-cassette-dir={worker_folders[-1]}"]
    spread = pytester.runpytest(
        "suites", "--provider=serper", "--dist=load", *gateways, "--wsb-rate=serper=5/s", "--wsb-json=spread.json"
    )
    spread.assert_outcomes(passed=15, failed=5)

    arrivals = [r.at for r in emulator.seen("serper")]
    assert len(arrivals) == ITEMS
    peak, span = max_per_window(arrivals), max(arrivals) - min(arrivals)
    # Each gateway limiting itself to 5/s: 11-12 in the busiest window, ~1.9 s in all. Shared out (3/s and
    # 2/s), no window holds more than 5 booked slots; the vendor sees 6, as from one process (-n 0 shows 6
    # too: the first request, opening its connection, arrives a little late), and 7 when a loaded machine
    # wakes a worker late.
    assert peak <= 7 and span >= (ITEMS - 1) / 5 * 0.9, (peak, span)

    # the workers really recorded into their own folders, and the controller has every cassette
    recorded = {p.stem: p for folder in worker_folders for p in (folder / "wide" / "serper").glob("*.yaml")}
    assert sorted(recorded) == ids
    home = pytester.path / "cassettes" / "wide" / "serper"
    assert sorted(p.stem for p in home.glob("*.yaml")) == ids
    assert all((home / f"{case}.yaml").read_text() == recorded[case].read_text() for case in ids)
    spread.stdout.fnmatch_lines([f"*{ITEMS} cassettes recorded by xdist workers written to {home.parent.parent}*"])

    # without xdist, offline, from the controller's folder: the same results
    for variable in emulator.env("serper"):
        monkeypatch.delenv(variable)
    emulator.clear()
    single = pytester.runpytest(
        "suites", "--provider=serper", "-n", "0", "--wsb-record-mode=none", "--wsb-json=single.json"
    )
    single.assert_outcomes(passed=15, failed=5)
    assert emulator.requests == []
    assert _comparable(pytester.path / "single.json") == _comparable(pytester.path / "spread.json")


# -- the controller's share of each rate ---------------------------------------------------------------


def test_a_rate_is_shared_in_whole_requests_by_the_number_of_workers_of_each_group():
    assert split_rate(Rate(5, 1), [1, 1]) == [Rate(3, 1), Rate(2, 1)]
    assert split_rate(Rate(5, 1), [2, 1]) == [Rate(3, 1), Rate(2, 1)]
    assert split_rate(Rate(5, 1), [10, 1]) == [Rate(4, 1), Rate(1, 1)]  # every group may send
    assert split_rate(Rate(300, 60), [4]) == [Rate(300, 60)]  # -n 4 on one machine: the whole rate
    # fewer requests than groups, or a fraction per period: shares in proportion
    assert split_rate(Rate(1, 1), [1, 1]) == [Rate(0.5, 1), Rate(0.5, 1)]
    assert split_rate(Rate(2.5, 1), [3, 2]) == [Rate(1.5, 1), Rate(1, 1)]


def _slots(rate: Rate, start: float, count: int, folder: Path) -> list[float]:
    """The slots a worker group's limiter books when asked without pause from ``start`` on."""
    limiter = RateLimiter(folder / f"{start}.next", rate, clock=lambda: start, sleep=lambda s: None)
    return [limiter.book() for _ in range(count)]


@given(
    count=st.integers(1, 40),
    sizes=st.lists(st.integers(1, 6), min_size=1, max_size=5),
    phases=st.lists(st.floats(0, 1), min_size=5, max_size=5),
    per=st.sampled_from([1.0, 60.0]),
)
@settings(derandomize=True, deadline=None, max_examples=150)
@pytest.mark.e2e
def test_the_groups_together_keep_the_rate_whatever_their_phases(count, sizes, phases, per):
    rate = Rate(count, per)
    shares = split_rate(rate, sizes)
    assert sum(s.count for s in shares) == pytest.approx(count) and all(s.count > 0 for s in shares)
    if count < len(sizes):
        return  # fractions: only the long-run rate holds
    assert all(s.count.is_integer() for s in shares)
    with tempfile.TemporaryDirectory() as folder:
        slots = sorted(
            t
            for share, phase in zip(shares, phases)
            for t in _slots(share, phase * per, 3 * int(share.count), Path(folder))
        )
    # any window of one period (less a nanosecond of float error) holds at most the rate's count
    assert max_per_window(slots, per - 1e-9) <= count


def test_workers_share_a_limiter_when_they_share_machine_account_and_temp_folder():
    specs = [
        "popen",
        "popen//python=python3",
        "popen//env:TMPDIR=/scratch/a",
        "popen//env:TMPDIR=/scratch/a",
        "popen//env:TMPDIR=/scratch/b",
        "ssh=ci@box1",
        "ssh=ci@box1//chdir=work",
        "ssh=ci@box2",
        "ssh=box1//ssh_config=other.conf",
        "socket=10.0.0.5:8888",
        "popen//via=proxy1",
    ]
    scopes = [lock_scope(execnet.XSpec(f"execmodel=main_thread_only//{s}")) for s in specs]
    assert [len(set(scopes[:2])), len(set(scopes[2:4]))] == [1, 1]  # the same machine and temp folder
    assert scopes[6] == scopes[5]
    assert len({scopes[0], scopes[2], scopes[4], scopes[5], *scopes[7:]}) == 8


def _node(spec: str, specs: list[str]):
    parse = lambda s: execnet.XSpec(f"execmodel=main_thread_only//{s}")  # noqa: E731 (as xdist's NodeManager)
    return SimpleNamespace(
        gateway=SimpleNamespace(spec=parse(spec)),
        workerinput={},
        nodemanager=SimpleNamespace(specs=[parse(s) for s in specs]),
    )


def _settings(tmp_path, mode=CassetteMode.ONCE, rates=None) -> Settings:
    return Settings(
        providers=("serper",),
        suites=(),
        k=5,
        record_mode=mode,
        cassette_dir=tmp_path / "cassettes",
        json_path=None,
        baseline_path=None,
        tolerance=None,
        local_corpus=None,
        rates=rates or {},
    )


def test_each_worker_is_handed_its_groups_share_and_limits_itself_to_it(tmp_path):
    controller = _Controller(_settings(tmp_path, rates={"serper": Rate(5, 1), "*": Rate(60, 60)}))
    # --tx 2*popen//env:TMPDIR=/a --tx popen//env:TMPDIR=/b, as xdist has expanded it before any node starts
    expanded = ["popen//env:TMPDIR=/a"] * 2 + ["popen//env:TMPDIR=/b"]
    nodes = [_node(spec, expanded) for spec in expanded]
    for node in nodes:
        controller.pytest_configure_node(node)
    assert (
        nodes[0].workerinput["wsb_rates"]
        == nodes[1].workerinput["wsb_rates"]
        == {"serper": [3.0, 1.0], "*": [40.0, 60.0]}
    )
    assert nodes[2].workerinput["wsb_rates"] == {"serper": [2.0, 1.0], "*": [20.0, 60.0]}
    worker = SimpleNamespace(workerinput=nodes[2].workerinput)
    assert host_rates(worker, {"serper": Rate(5, 1)}) == {"serper": Rate(2, 1), "*": Rate(20, 60)}
    assert host_rates(SimpleNamespace(), {"serper": Rate(5, 1)}) == {"serper": Rate(5, 1)}  # no xdist: the rate


# -- cassettes brought home --------------------------------------------------------------------------


def _report(path: str, text: str):
    return SimpleNamespace(wsb_cassette={"path": path, "text": text})


def test_the_controller_writes_a_workers_cassette_when_missing_or_different_and_only_then(tmp_path):
    controller = _Controller(_settings(tmp_path))
    target = tmp_path / "cassettes" / "wide" / "serper" / "w01.yaml"
    controller.pytest_runtest_logreport(_report("wide/serper/w01.yaml", "interactions: []\n"))
    assert target.read_text() == "interactions: []\n" and controller.written == 1
    os.utime(target, (1, 1))
    controller.pytest_runtest_logreport(_report("wide/serper/w01.yaml", "interactions: []\n"))
    assert target.stat().st_mtime == 1 and controller.written == 1  # the same text: left alone
    controller.pytest_runtest_logreport(_report("wide/serper/w01.yaml", "interactions: [1]\n"))
    assert target.read_text() == "interactions: [1]\n" and controller.written == 2
    controller.pytest_runtest_logreport(SimpleNamespace())  # an item that recorded nothing
    assert controller.written == 2

    controller.pytest_runtest_logreport(_report("../../escaped.yaml", "x"))
    assert not (tmp_path.parent / "escaped.yaml").exists()
    assert controller.failures == [
        f"{tmp_path / 'cassettes' / '../../escaped.yaml'}: '../../escaped.yaml' is outside the cassette folder"
    ]
    # the summary's notes: the count within 120 columns, the line naming the file below it, whole
    lines: list[str] = []
    controller.pytest_terminal_summary(SimpleNamespace(write_line=lambda line, **markup: lines.append(line)))
    assert lines == [
        f"2 cassettes recorded by xdist workers written to {tmp_path / 'cassettes'}",
        "1 cassettes recorded by xdist workers could not be written; the first:",
        f"  {controller.failures[0]}",
    ]


def test_a_replay_only_run_never_writes_a_cassette(tmp_path):
    controller = _Controller(_settings(tmp_path, mode=CassetteMode.NONE))
    controller.pytest_runtest_logreport(_report("wide/serper/w01.yaml", "interactions: []\n"))
    assert not (tmp_path / "cassettes").exists()
