"""Fixtures shared by the project's tests: a tiny hand-written suite and the repository's paths."""

from __future__ import annotations

import fcntl
import fnmatch
import gc
import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

# Keep pytest's rewritten test modules (and the modules they import) in __pycache__ even where
# PYTHONDONTWRITEBYTECODE is set, as on these machines: otherwise every run, and every xdist worker,
# parses and rewrites some 400 modules again (about 5 s of each worker's collection). The processes
# the tests start write theirs too, as on a reader's machine: else each of some 250 compiled the
# plugin again, and those run from the checkout (its egg-info marks the plugin for pytest's assertion
# rewriting) parsed and rewrote every module the plugin imports before this file is read.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# A shell starts a background job ('cmd &' without job control) with SIGINT ignored, and every child
# inherits that: the tests that press Ctrl-C on a child (the judge, the world server, a Chromium run)
# would see it ignored. A handler of Python's own is reset to the default in each child it starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

from hypothesis import settings as hypothesis_settings  # noqa: E402

# One hypothesis profile for the whole suite: the same examples on every run (a failure in CI
# replays on any machine) and no per-example deadline (a loaded CI machine is not a bug).
hypothesis_settings.register_profile("websearchbench", derandomize=True, deadline=None, print_blob=True)
hypothesis_settings.load_profile("websearchbench")

# One BLAS thread a process (set before numpy's first import; the processes the tests start inherit it): the
# tests run three xdist workers on two cores, and numpy's OpenBLAS would start a thread a core in each, which
# spin while numpy works element by element between products (the sign-flip and power simulations of
# reporting/): about 5 % of tests/reporting's CPU for no time saved (benchmarks/README.md).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Imported once, before any test: pytester's in-process runs restore sys.modules after each run,
# so a module first imported inside one (httpx imports httpcore lazily; the plugin imports vcr,
# yaml and numpy lazily) would be dropped and imported anew by the next: exceptions of the old copy
# no longer match the classes the rest of the process catches, and numpy refuses to load twice.
import httpcore  # noqa: E402, F401
import numpy  # noqa: E402, F401
import vcr  # noqa: E402, F401

REPO = Path(__file__).resolve().parent.parent

#: What every pytest these tests start leaves out (a guide's command, pytester's subprocess runs, their xdist
#: workers): plugins of the test environment that no child run uses. Loading them is about 0.2 s a process,
#: and the suite starts some 400 (issue 49 part 6: benchmarks/README.md).
CHILD_PYTEST_ADDOPTS = "-p no:hypothesispytest -p no:anyio"


def child_environ(drop: tuple[str, ...] = ("PYTEST_", "WSB_")) -> dict[str, str]:
    """This process's environment for a child pytest: without the variables starting with ``drop``, and
    with CHILD_PYTEST_ADDOPTS."""
    env = {name: value for name, value in os.environ.items() if not name.startswith(drop)}
    env["PYTEST_ADDOPTS"] = CHILD_PYTEST_ADDOPTS
    return env


BUNDLED_CASSETTES = REPO / "cassettes"
#: the fixtures several test folders share, each module registered as a plugin (its folder, its module), so a
#: test asks for them by name instead of importing them: the vendor emulator, the loopback hub, the browser
SHARED_FIXTURES = (("providers", "emulator.testing"), ("sources", "hub_datasets"), ("reporting/html", "html_support"))


def pytest_configure(config: pytest.Config) -> None:
    for folder, module in SHARED_FIXTURES:
        path = str(REPO / "tests" / folder)
        if path not in sys.path:
            sys.path.insert(0, path)
        config.pluginmanager.import_plugin(module)


def require_chromium(what: str) -> None:
    """Skip a test that needs Debian's chromium when it cannot be driven here (the message names the
    install command); with CI=true, fail instead: CI installs it, so its absence there is a fault."""
    from pytest_websearchbench.webbench.browsing.chromium import chromium_missing

    missing = chromium_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {what}: {missing}")
        pytest.skip(missing)


def require_sandbox(what: str) -> None:
    """Skip a test that needs the program agents' sandbox (bubblewrap) where it cannot run, saying why;
    with CI=true, fail instead: CI installs it."""
    from pytest_websearchbench.webbench.agents.sandbox import unavailable

    missing = unavailable()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {what}: {missing}")
        pytest.skip(f"no sandbox for program agents: {missing}")


#: End to end (marked ``e2e``, left out of the fast tier ``-m "not e2e"``): a test that runs pytest in xdist workers
#: or a child process, runs a bundled suite whole or works every bundled task, builds or installs the wheel, installs
#: Harbor, drives Chromium, or waits out seconds of real time (a live run paced by rate limits, a storm, deadlines).
#: A test that uses one of these fixtures is marked here; the others carry the mark.
E2E_FIXTURES = {"bundled_run", "harbor_python", "browser"}


@pytest.hookimpl(wrapper=True)
def pytest_xdist_auto_num_workers(config: pytest.Config):
    """``-n auto`` for these tests: one worker more than xdist would start (three on two cores), unless
    PYTEST_XDIST_AUTO_NUM_WORKERS says how many. A third of the tests' span is spent waiting on real time (paced
    live runs, storms, deadlines, Chromium), which one more worker fills; two more cost more CPU than they save
    (benchmarks/README.md, "the project's own tests")."""
    cpus = yield
    return cpus if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") else cpus + 1


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--every-task",
        action="store_true",
        help="run the slow per-task WebBench tests (Chromium parity, the model and program agents, the "
        "controls) on every bundled task and agent, not one task of each template",
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    """The garbage collector, in each process that runs these tests (each xdist worker), after collection: what
    is alive now (the modules imported, the collected tests) is frozen out of every later full collection, and a
    young collection waits for 20,000 new objects instead of 700. The tests' in-process pytest runs keep growing
    the heap, and the collector's full passes over it took about a tenth of a worker's CPU (benchmarks/README.md,
    "The collector in the test processes"). The plugin leaves a user's collector alone: this is the tests' own."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if E2E_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
    # the end-to-end tests first: xdist hands tests out in this order, and the slow ones (tests/webbench, last
    # by name) coming last left one worker running them for a minute while the other had nothing to do
    items.sort(key=lambda item: item.get_closest_marker("e2e") is None)


def pytest_terminal_summary(terminalreporter) -> None:
    """Above the final "N passed, M skipped": how many tests skipped for each reason (one line a reason,
    the most common first), so a run says what it left out and how to get it back."""
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count} skipped: {reason}")


def summary_shows(output: str, *patterns: str) -> None:
    """Each fnmatch pattern is in ``output``, in order, both read as words (every run of whitespace one space): the
    terminal summary folds a note longer than 120 columns at spaces (reporting.terminal.fold), and where a line
    breaks depends on its paths, so a test looks for a note's words wherever they break. A ``*`` between words
    may stand for nothing (a table's padding is one space here)."""
    text = " ".join(output.split())
    wanted = "*" + "*".join(" ".join(pattern.split()).replace(" * ", "*") for pattern in patterns) + "*"
    assert fnmatch.fnmatchcase(text, wanted), f"{patterns} not in the output:\n{output}"


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def read_jsonl(path: Path) -> list[dict]:
    """The records of a JSONL file (blank lines skipped)."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


TINY_CORPUS = [
    {
        "url": "https://tea.example/green-tea-brewing",
        "title": "Brewing green tea at the right temperature",
        "text": "Green tea leaves brew best at 75 degrees for two minutes; boiling water makes green tea bitter.",
        "language": "en",
        "site": "tea.example",
        "published": "2025-03-01",
    },
    {
        "url": "https://tea.example/black-tea",
        "title": "Black tea basics",
        "text": "Black tea tolerates boiling water and steeps for four minutes.",
        "language": "en",
        "site": "tea.example",
        "published": "2019-01-10",
    },
    {
        "url": "https://www.mirror.example/green-tea-brewing",
        "title": "Brewing green tea (mirror)",
        "text": "Green tea leaves brew best at 75 degrees for two minutes, a mirrored copy.",
        "language": "en",
        "site": "mirror.example",
        "published": "2025-03-02",
    },
    {
        "url": "https://bike.example/tyre-pressure",
        "title": "Road bike tyre pressure guide",
        "text": "Road bike tyres run at six bar for riders of seventy kilograms.",
        "language": "en",
        "site": "bike.example",
        "published": "2024-06-01",
    },
    {
        "url": "https://cha.example/lvcha",
        "title": "绿茶的冲泡方法",
        "text": "绿茶适合用八十度的水冲泡两分钟。",
        "language": "zh",
        "site": "cha.example",
        "published": "2024-05-01",
    },
]

TINY_SCENARIOS = [
    {
        "id": "t1",
        "query": "green tea brewing temperature",
        "language": "en",
        "family": "general",
        "known_pages": ["https://tea.example/green-tea-brewing"],
        "requirements": {"sites": ["tea.example"]},
        "origin": "test",
        "provenance_kind": "authored",
    },
    {
        "id": "t2",
        "query": "road bike tyre pressure",
        "language": "en",
        "family": "vertical",
        "origin": "test",
        "provenance_kind": "authored",
    },
    {
        "id": "t3",
        "query": "绿茶 冲泡",
        "language": "zh",
        "family": "named-site",
        "origin": "test",
        "provenance_kind": "authored",
    },
    {
        "id": "t4",
        "query": "black tea boiling water",
        "language": "en",
        "family": "general",
        "requirements": {"after": "2022-01-01"},
        "origin": "test",
        "provenance_kind": "authored",
    },
]

TINY_GRADES = [
    {"query_id": "t1", "url": "https://tea.example/green-tea-brewing", "grade": 3, "grader": "test"},
    {"query_id": "t1", "url": "https://www.mirror.example/green-tea-brewing", "grade": 3, "grader": "test"},
    {"query_id": "t1", "url": "https://tea.example/black-tea", "grade": 1, "grader": "test"},
    {"query_id": "t2", "url": "https://bike.example/tyre-pressure", "grade": 3, "grader": "test"},
    {"query_id": "t3", "url": "https://cha.example/lvcha", "grade": 3, "grader": "test"},
    {"query_id": "t4", "url": "https://tea.example/black-tea", "grade": 3, "grader": "test", "published": "2019-01-10"},
]


def write_lexbench_suite(root: Path, name: str, scenarios: list[dict], grades: list[dict]) -> Path:
    """``root/suites/<name>`` (manifest, items, grades) over the tiny corpus at ``root/corpus``; the folder."""
    write_jsonl(root / "corpus" / "corpus.jsonl", TINY_CORPUS)
    folder = root / "suites" / name
    write_jsonl(folder / "items.jsonl", scenarios)
    write_jsonl(folder / "grades.jsonl", grades)
    (folder / "suite.json").write_text(
        json.dumps(
            {
                "name": name,
                "edition": "test-1",
                "family": "lexbench",
                "kind": "scenario",
                "items": "items.jsonl",
                "grades": "grades.jsonl",
            }
        ),
        "utf-8",
    )
    return folder


@pytest.fixture
def tiny_suite(pytester: pytest.Pytester) -> Path:
    """A four-scenario LexBench suite over a five-page corpus, written into the pytester folder.

    t1, t2, t3 succeed on a BM25 engine; t4's only grade-3 page is outside its time window.
    """
    folder = write_lexbench_suite(pytester.path, "tiny", TINY_SCENARIOS, TINY_GRADES)
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    return folder


@pytest.fixture(scope="session")
def bundled_run(tmp_path_factory) -> dict[str, Path]:
    """The bundled suites replayed under xdist with --wsb-json (and --wsb-json-raw: its tests read the answers),
    --wsb-html and --junitxml, once per test session (under xdist the first worker to ask runs it, in the
    workers' shared temporary root, while the others wait on a lock: the pattern pytest-xdist's docs give):
    the results file, the report and the JUnit XML."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return _bundled_run(tmp_path_factory.mktemp("bundled-run"))
    folder = tmp_path_factory.getbasetemp().parent / "bundled-run"
    with open(tmp_path_factory.getbasetemp().parent / "bundled-run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        failure = folder / "failure.txt"
        if failure.is_file():  # the run failed for an earlier worker: the same message, not a second run
            pytest.fail(failure.read_text("utf-8"), pytrace=False)
        if not (folder / "done").is_file():
            folder.mkdir(exist_ok=True)
            try:
                _bundled_run(folder)
            except AssertionError as exc:
                failure.write_text(str(exc), "utf-8")
                raise
            (folder / "done").touch()
    return {"results": folder / "results.json", "report": folder / "run.html", "junit": folder / "junit.xml"}


def _bundled_run(folder: Path) -> dict[str, Path]:
    results, report, junit = folder / "results.json", folder / "run.html", folder / "junit.xml"
    env = child_environ()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(REPO / "suites"),
            "-n",
            "2",
            "-q",
            "-p",
            "no:cacheprovider",
            "--wsb-record-mode=none",
            f"--wsb-cassette-dir={BUNDLED_CASSETTES}",
            f"--wsb-json={results}",
            "--wsb-json-raw",
            f"--wsb-html={report}",
            f"--junitxml={junit}",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert results.is_file() and report.is_file() and junit.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    assert f"HTML report written to {report}" in done.stdout
    return {"results": results, "report": report, "junit": junit}


@pytest.fixture(autouse=True, scope="session")
def _children_without_test_plugins():
    """A pytest a test starts (its environment copied from this process's) gets CHILD_PYTEST_ADDOPTS."""
    before = os.environ.get("PYTEST_ADDOPTS")
    os.environ["PYTEST_ADDOPTS"] = f"{before} {CHILD_PYTEST_ADDOPTS}" if before else CHILD_PYTEST_ADDOPTS
    yield
    if before is None:
        os.environ.pop("PYTEST_ADDOPTS", None)
    else:
        os.environ["PYTEST_ADDOPTS"] = before


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytester's own, its runs given CHILD_PYTEST_ADDOPTS (pytester clears PYTEST_ADDOPTS as it starts)."""
    monkeypatch.setenv("PYTEST_ADDOPTS", CHILD_PYTEST_ADDOPTS)
    return pytester


@pytest.fixture(autouse=True)
def _no_step_summary(monkeypatch):
    """A run under test never appends to the GitHub Actions step summary of the CI job running these tests."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
