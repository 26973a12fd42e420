"""Endpoints side by side (issue 45, part 3): one provider under two labels, ``serper@a`` and ``serper@b``, each
its own base URL, key, cassette folder and column; one case's calls to both start together; the same endpoint
under two labels is an A/A run whose spread is the noise floor.

The endpoints are the tests' emulators: two of them (one answering every list reversed, so the two differ) or
one under both labels."""

from __future__ import annotations

import json

import pytest

from conftest import TINY_CORPUS, TINY_GRADES, TINY_SCENARIOS, summary_shows, write_lexbench_suite
from pytest_websearchbench.emulate.server import Emulator
from pytest_websearchbench.reporting.terminal import WIDTH


@pytest.fixture
def staging():
    """A second serper endpoint: the same pages, every list answered in reverse (a release that ranks worse)."""
    em = Emulator(TINY_CORPUS).start()
    em.variants["serper"] = "reverse"
    yield em
    em.stop()


def _suite(pytester: pytest.Pytester, copies: int = 1) -> list[str]:
    """The tiny suite, its scenarios repeated ``copies`` times under new ids; the ids."""
    scenarios, grades = [], []
    for copy in range(copies):
        for base in TINY_SCENARIOS:
            case = f"{base['id']}-{copy}"
            scenarios.append({**base, "id": case})
            grades += [{**g, "query_id": case} for g in TINY_GRADES if g["query_id"] == base["id"]]
    write_lexbench_suite(pytester.path, "tiny", scenarios, grades)
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    return [s["id"] for s in scenarios]


def _cassettes(pytester: pytest.Pytester, variant: str) -> list[str]:
    return sorted(p.stem for p in (pytester.path / "cassettes" / "tiny" / variant).glob("*.yaml"))


def test_two_endpoints_run_side_by_side_each_with_its_cassettes_and_column(
    pytester, emulator, env, staging, monkeypatch
):
    env("serper")  # SERPER_API_KEY, which both emulators accept
    monkeypatch.setenv("WSB_SERPER_A_BASE_URL", emulator.base_url("serper"))
    monkeypatch.setenv("WSB_SERPER_B_BASE_URL", staging.base_url("serper"))
    ids = _suite(pytester)
    result = pytester.runpytest("suites", "--provider=serper@a,serper@b", "--wsb-json=run.json")
    result.assert_outcomes(passed=6, failed=2)
    assert _cassettes(pytester, "serper@a") == _cassettes(pytester, "serper@b") == sorted(ids)
    assert len(emulator.seen("serper")) == len(staging.seen("serper")) == len(ids)
    result.stdout.fnmatch_lines(
        [
            "live: 8/8 items * · google.serper.dev (serper@a) *, 0 × 429 ·",  # folded between its parts
            "  google.serper.dev (serper@b) *, 0 × 429 · spend 0.0080 USD",
            "tiny  (lexbench/scenario, edition test-1, k=5)",
            "* serper@a * serper@b*",
            "*Δ nDCG@5 vs serper@a * (reference) * -0.* (p=*, n=4)*",
            "*Δ vs serper@a: mean paired difference*",
        ]
    )
    result.stdout.no_fnmatch_line("*noise floor*")  # two endpoints: not an A/A run
    at = next(i for i, line in enumerate(result.outlines) if line.startswith("live: 8/8 items"))
    assert max(len(line) for line in result.outlines[at : at + 2]) <= WIDTH
    items = json.loads((pytester.path / "run.json").read_text())["items"]
    assert {(i["case_id"], i["provider"]) for i in items} == {(c, v) for c in ids for v in ("serper@a", "serper@b")}
    # the test ids name the endpoint
    listed = pytester.runpytest("suites", "--provider=serper@a,serper@b", "--co", "-q")
    listed.stdout.fnmatch_lines(["*t1-0[[]serper@a[]]", "*t1-0[[]serper@b[]]"])


def test_one_cases_calls_to_both_endpoints_start_together(pytester, emulator, env, staging, monkeypatch):
    env("serper")
    monkeypatch.setenv("WSB_SERPER_A_BASE_URL", emulator.base_url("serper"))
    monkeypatch.setenv("WSB_SERPER_B_BASE_URL", staging.base_url("serper"))
    emulator.pace("serper", latency=0.3)
    staging.pace("serper", latency=0.3)
    _suite(pytester, copies=2)
    # two at a time: the pair of one case goes out together, then the next case's pair, 0.3 s later
    result = pytester.runpytest("suites", "--provider=serper@a,serper@b", "--wsb-concurrency=2")
    result.assert_outcomes(passed=12, failed=4)
    at_a = {json.loads(r.body)["q"] + str(n): r.at for n, r in enumerate(emulator.seen("serper"))}
    at_b = {json.loads(r.body)["q"] + str(n): r.at for n, r in enumerate(staging.seen("serper"))}
    assert at_a.keys() == at_b.keys()  # the same queries in the same order
    assert all(abs(at_a[q] - at_b[q]) < 0.15 for q in at_a), (at_a, at_b)


def test_the_same_endpoint_under_two_labels_is_an_a_a_run_with_its_noise_floor(pytester, emulator, env, monkeypatch):
    env("serper")
    monkeypatch.setenv("WSB_SERPER_A_BASE_URL", emulator.base_url("serper"))
    monkeypatch.setenv("WSB_SERPER_B_BASE_URL", emulator.base_url("serper") + "/")  # one endpoint, written twice
    _suite(pytester)
    result = pytester.runpytest("suites", "--provider=serper@a,serper@b", "--wsb-json=run.json", "--wsb-html=run.html")
    result.assert_outcomes(passed=6, failed=2)
    summary_shows(  # the note folded at 120 columns
        result.stdout.str(),
        "Δ nDCG@5 vs serper@a * (reference) * +0.000 (p=1.000, n=4)",
        " noise floor (A/A serper@a vs serper@b, one endpoint): nDCG@5 mean Δ +0.000 [[]+0.000, +0.000], "
        "0/4 items differ (p95 |Δ| 0.000); a mean change within ±0.000 is noise (--wsb-min-effect=0)",
    )
    (summary,) = json.loads((pytester.path / "run.json").read_text())["summary"]
    assert summary["noise_floors"] == [
        {
            "first": "serper@a",
            "second": "serper@b",
            "metric": "ndcg",
            "delta": 0.0,
            "low": 0.0,
            "high": 0.0,
            "floor": 0.0,
            "differing": 0,
            "n": 4,
            "p95_abs_delta": 0.0,
        }
    ]
    # the HTML report says it too: the run's own, and one made later from its results file
    from pytest_websearchbench.report import main as wsb_report

    assert wsb_report([str(pytester.path / "run.json"), "-o", str(pytester.path / "later.html")]) == 0
    floor = "noise floor (A/A serper@a vs serper@b, one endpoint): nDCG@5 mean Δ +0.000 [+0.000, +0.000]"
    for page in ("run.html", "later.html"):
        assert floor in (pytester.path / page).read_text(), page


def test_each_label_reads_its_own_key_then_the_providers_and_a_baseline_pairs_label_with_label(
    pytester, emulator, env, monkeypatch
):
    env("serper")
    own = Emulator(TINY_CORPUS, keys={"serper": "key-of-b"}).start()  # b's endpoint takes another key
    try:
        monkeypatch.setenv("SERPER_B_API_KEY", "key-of-b")
        monkeypatch.delenv("WSB_SERPER_BASE_URL")
        _suite(pytester)
        # a's base URL from the ini file, b's from the environment
        pytester.makeini(
            f"[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\nwsb_serper_a_base_url = {emulator.base_url('serper')}\n"
        )
        monkeypatch.setenv("WSB_SERPER_B_BASE_URL", own.base_url("serper"))
        first = pytester.runpytest("suites", "--provider=serper@a,serper@b", "--wsb-json=base.json")
        first.assert_outcomes(passed=6, failed=2)
        first.stdout.no_fnmatch_line("*Unknown config option*")
        assert len(emulator.seen("serper")) == len(own.seen("serper")) == 4
        assert own.rejected == [] and emulator.rejected == []
        recorded = "".join(p.read_text() for p in (pytester.path / "cassettes").rglob("*.yaml"))
        assert "key-of-b" not in recorded and "test-key-serper" not in recorded
    finally:
        own.stop()
    # the next run replays, offline, against the first: each label against its own
    again = pytester.runpytest(
        "suites", "--provider=serper@a,serper@b", "--wsb-record-mode=none", "--wsb-baseline=base.json"
    )
    assert again.ret == pytest.ExitCode.OK and again.parseoutcomes()["xfailed"] == 2  # t4-0, under each label
    again.stdout.fnmatch_lines(
        [
            "baseline *base.json*",
            "  tiny [[]serper@a[]]: * nDCG@5 +0.000 (p=1.000, n=4*",
            "  tiny [[]serper@b[]]: * nDCG@5 +0.000 (p=1.000, n=4*",
        ]
    )


@pytest.mark.parametrize(
    ("providers", "environ", "message"),
    [
        (
            "serper@a,serper@b",
            {"WSB_SERPER_A_BASE_URL": "http://127.0.0.1:9/serper"},
            "ERROR: pytest-websearchbench: --provider serper@b: the endpoint 'b' has no base URL: set "
            "WSB_SERPER_B_BASE_URL (or ini wsb_serper_b_base_url)",
        ),
        (
            "nope@a",
            {},
            "ERROR: pytest-websearchbench: unknown provider 'nope' in 'nope@a'; known: *",
        ),
        (
            "serper@Prod",
            {},
            "ERROR: pytest-websearchbench: --provider: 'serper@Prod': write NAME@LABEL with a label of lower-case "
            "letters, digits and _ (e.g. serper@staging): the label names environment variables and a cassette folder",
        ),
        ("serper@pro-d", {}, "ERROR: pytest-websearchbench: --provider: 'serper@pro-d': write NAME@LABEL *"),
        ("@a", {}, "ERROR: pytest-websearchbench: --provider: '@a': write NAME@LABEL *"),
    ],
)
def test_a_bad_endpoint_is_one_line_naming_what_to_set_and_nothing_is_written(
    pytester, monkeypatch, providers, environ, message
):
    _suite(pytester)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SERPER_API_KEY", "k")
    result = pytester.runpytest("suites", f"--provider={providers}", "--wsb-json=run.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert [line for line in result.stderr.lines if line] == [result.stderr.lines[0]] and not result.stdout.lines
    assert not (pytester.path / "run.json").exists() and not (pytester.path / "cassettes").exists()
