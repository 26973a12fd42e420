"""The plugin run the way users run it (pytester), on the tiny suite and the bundled sample suite."""

from __future__ import annotations

import json
import tempfile

import pytest

from conftest import BUNDLED_CASSETTES
from pytest_websearchbench.providers.pacing import PURGE_STAMP, state_dir


def test_items_are_case_times_provider_with_stable_ids(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--co", "-q")
    result.stdout.fnmatch_lines(
        [
            "suites/tiny::t1[[]local[]]",
            "suites/tiny::t2[[]local[]]",
            "suites/tiny::t3[[]local[]]",
            "suites/tiny::t4[[]local[]]",
            "*4 tests collected*",
        ]
    )


def test_markers_and_keywords_select_what_users_expect(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--co", "-q", "-m", "lang_zh", "--strict-markers")
    result.stdout.fnmatch_lines(["suites/tiny::t3[[]local[]]", "*1/4 tests collected (3 deselected)*"])
    result = pytester.runpytest("suites", "--co", "-q", "-k", "named-site")
    result.stdout.fnmatch_lines(["suites/tiny::t3[[]local[]]", "*1/4 tests collected (3 deselected)*"])
    result = pytester.runpytest("suites", "--co", "-q", "-m", "lexbench_vertical")
    result.stdout.fnmatch_lines(["suites/tiny::t2[[]local[]]", "*1/4 tests collected*"])


def test_the_items_of_a_run_share_one_mark_a_marker(pytester, tiny_suite):
    """A marker is registered and made once a run, not looked up in pytest's registry for every item
    (its items carry the same marks, and -m still selects by them)."""
    items, _ = pytester.inline_genitems("suites", "--strict-markers")
    marks = [{mark.name: mark for mark in item.own_markers} for item in items]
    assert len(items) == 4 and all(m["lexbench"] is marks[0]["lexbench"] for m in marks)
    assert all(m["provider_local"] is marks[0]["provider_local"] for m in marks)


def test_a_users_conftest_fixtures_reach_every_benchmark_item(pytester, tiny_suite):
    """Autouse fixtures of every scope from a conftest apply to benchmark items as to any test (the items
    of a suite share one fixture closure, worked out once)."""
    pytester.makeconftest("""
import pytest

SEEN = []

@pytest.fixture(scope="module", autouse=True)
def once_per_suite():
    SEEN.append("module")

@pytest.fixture(autouse=True)
def each_item(request):
    SEEN.append(request.node.nodeid)

def pytest_sessionfinish(session):
    print("seen:", " ".join(SEEN))
""")
    result = pytester.runpytest("suites", "--wsb-record-mode=rewrite", "-s", "-q")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*seen: module suites/tiny::t1[[]local[]] suites/tiny::t2[[]local[]] "
            "suites/tiny::t3[[]local[]] suites/tiny::t4[[]local[]]"
        ]
    )


def test_record_then_replay_without_server(pytester, tiny_suite, monkeypatch):
    results = pytester.path / "run1.json"
    recorded = pytester.runpytest("suites", f"--wsb-json={results}")
    recorded.assert_outcomes(passed=3, failed=1)
    recorded.stdout.fnmatch_lines(
        [
            "*websearchbench summary*",
            "tiny  (lexbench/scenario, edition test-1, k=5)",
            "*cassettes*0 replayed · 4 recorded · 0 live*",
        ]
    )
    # t4: its grade-3 page is dated outside the time window, so it counts 0 and the failure shows the grades
    recorded.stdout.fnmatch_lines(["*tiny/t4[[]local[]]: success@5 = 0*", "*grade=0*black-tea*violates: time*"])
    for case in ("t1", "t2", "t3", "t4"):
        assert (pytester.path / "cassettes" / "tiny" / "local" / f"{case}.yaml").is_file()

    from pytest_websearchbench.engine import LocalSearchServer

    def no_server(self):
        raise AssertionError("the local server must not start in replay mode")

    monkeypatch.setattr(LocalSearchServer, "start", no_server)
    replay_json = pytester.path / "run2.json"
    replayed = pytester.runpytest_inprocess("suites", "--wsb-record-mode=none", f"--wsb-json={replay_json}")
    replayed.assert_outcomes(passed=3, failed=1)
    replayed.stdout.fnmatch_lines(["*cassettes*4 replayed · 0 recorded · 0 live*"])
    latency = [next(line for line in run.outlines if "latency p50/p95" in line) for run in (recorded, replayed)]
    assert latency[0] == latency[1]
    first, second = (json.loads(p.read_text()) for p in (results, replay_json))
    assert [i["metrics"] for i in first["items"]] == [i["metrics"] for i in second["items"]]
    assert [i["results"] for i in first["items"]] == [i["results"] for i in second["items"]]


def test_results_file_has_metadata_and_every_item(pytester, tiny_suite):
    path = pytester.path / "out" / "results.json"
    path.parent.mkdir()  # an output's folder is never made
    pytester.runpytest("suites", f"--wsb-json={path}")
    data = json.loads(path.read_text())
    assert data["k"] == 5 and data["providers"] == ["local"] and data["record_mode"] == "once"
    assert data["suites"]["tiny"]["edition"] == "test-1"
    assert data["suites"]["tiny"]["digest"].startswith("sha256:")
    items = {i["case_id"]: i for i in data["items"]}
    assert {i["outcome"] for i in items.values()} == {"passed", "failed"}
    assert items["t4"]["outcome"] == "failed" and "success@5 = 0" in items["t4"]["message"]
    t1 = items["t1"]
    assert t1["suite"] == "tiny" and t1["provider"] == "local"
    assert t1["results"][0]["rank"] == 1
    # without --wsb-json-raw the file keeps what was scored, not the text the provider answered
    assert data["raw_answers"] is False
    assert set(t1["results"][0]) >= {"rank", "url", "grade"} and not {"title", "snippet"} & set(t1["results"][0])
    assert t1["raw"]["queries"] and "hits" not in t1["raw"]
    assert t1["metrics"]["success"] == 1.0 and 0 < t1["metrics"]["ndcg"] <= 1


def test_wsb_json_raw_keeps_the_provider_answers_and_the_rest_is_the_same(pytester, tiny_suite):
    lean, full = pytester.path / "lean.json", pytester.path / "full.json"
    pytester.runpytest("suites", f"--wsb-json={lean}")
    pytester.runpytest("suites", "--wsb-record-mode=none", f"--wsb-json={full}", "--wsb-json-raw")
    lean_items, full_items = (json.loads(p.read_text())["items"] for p in (lean, full))
    assert json.loads(full.read_text())["raw_answers"] is True
    t1 = next(i for i in full_items if i["case_id"] == "t1")
    assert set(t1["results"][0]) >= {"rank", "url", "title", "snippet", "grade"}
    assert len(t1["raw"]["hits"]) >= len(t1["results"])
    for lean_item, full_item in zip(lean_items, full_items):
        assert lean_item["metrics"] == full_item["metrics"] and lean_item["outcome"] == full_item["outcome"]
        assert [
            {k: v for k, v in row.items() if k not in ("title", "snippet")} for row in full_item["results"]
        ] == lean_item["results"]
        assert {k: v for k, v in full_item["raw"].items() if k not in ("hits", "pages")} == lean_item["raw"]


def test_the_results_files_summary_block_holds_the_figures_the_terminal_prints(pytester, tiny_suite):
    path = pytester.path / "results.json"
    result = pytester.runpytest("suites", f"--wsb-json={path}")
    data = json.loads(path.read_text())
    [suite] = data["summary"]
    assert (suite["suite"], suite["family"], suite["k"], suite["reference"]) == ("tiny", "lexbench", 5, "local")
    [local] = suite["variants"]
    ndcgs = [i["metrics"]["ndcg"] for i in data["items"]]
    assert (local["items"], local["population"], local["errored"]) == (4, 4, 0)
    assert local["passed"] == sum(i["outcome"] == "passed" for i in data["items"])
    assert local["metrics"]["ndcg"]["mean"] == pytest.approx(sum(ndcgs) / 4) and local["metrics"]["ndcg"]["n"] == 4
    ndcg = local["metrics"]["ndcg"]
    assert ndcg["low"] <= ndcg["mean"] <= ndcg["high"]
    assert local["cassettes"]["recorded"] + local["cassettes"]["replayed"] + local["cassettes"]["live"] == 4
    row = next(line for line in _summary(result) if line.lstrip().startswith("nDCG@5"))
    assert f"{ndcg['mean']:.3f} [{ndcg['low']:.3f}, {ndcg['high']:.3f}]" in row  # one figure, two formats


def test_missing_cassette_in_replay_mode_is_an_error_saying_how_to_record(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--wsb-record-mode=none", "-k", "t2")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*tiny/t2[[]local[]]: no cassette at*t2.yaml*",
            "*Record it with: pytest --suite suites/tiny --provider local --wsb-cassette-dir=cassettes "
            "--wsb-record-mode=once*",
        ]
    )


def test_stale_cassette_is_an_error_not_a_fail(pytester, tiny_suite):
    pytester.runpytest("suites", "-k", "t2").assert_outcomes(passed=1)
    items = tiny_suite / "items.jsonl"
    items.write_text(items.read_text().replace("road bike tyre pressure", "road bike tyre pressure chart"))
    result = pytester.runpytest("suites", "--wsb-record-mode=none", "-k", "t2")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*not in the cassette*re-record it: pytest 'suites/tiny::t2[[]local[]]' "
            "--provider local --wsb-cassette-dir=cassettes --wsb-record-mode=rewrite*"
        ]
    )
    # vcrpy's explanation inside the error, not repeated as an exception it was raised handling (the short
    # summary may quote it again: in CI, pytest does not cut its lines)
    assert "During handling of the above exception" not in result.stdout.str()


def test_rewrite_mode_replaces_the_cassette(pytester, tiny_suite):
    pytester.runpytest("suites", "-k", "t2").assert_outcomes(passed=1)
    cassette = pytester.path / "cassettes" / "tiny" / "local" / "t2.yaml"
    cassette.write_text(cassette.read_text().replace("tyre", "TYRE"))
    result = pytester.runpytest("suites", "--wsb-record-mode=rewrite", "-k", "t2")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*0 replayed · 1 recorded · 0 live*"])
    assert "TYRE" not in cassette.read_text()


def test_rewrite_mode_keeps_every_cassette_when_the_provider_is_down(pytester, tiny_suite, monkeypatch):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)
    cassettes = sorted((pytester.path / "cassettes" / "tiny" / "local").glob("*.yaml"))
    recorded = {path: path.read_bytes() for path in cassettes}
    assert len(recorded) == 4
    monkeypatch.setenv("WSB_LOCAL_BASE_URL", "http://search.wsb-test.invalid")  # never resolves
    result = pytester.runpytest("suites", "--wsb-record-mode=rewrite")
    result.assert_outcomes(errors=4)
    assert {path: path.read_bytes() for path in cassettes} == recorded
    assert sorted(path.name for path in (pytester.path / "cassettes" / "tiny" / "local").iterdir()) == [
        path.name for path in cassettes
    ]


def test_a_run_removes_its_state_folder_as_it_ends_unless_its_id_was_given(pytester, tiny_suite, monkeypatch):
    """The run's state folder (rate-limit slots, the live phase's outcomes for the workers) is the run's own:
    it goes when the run ends, so runs do not pile folders up in the temp folder. An id given with
    --testrunuid may be another run's too: its folder stays (purged once a day old)."""
    monkeypatch.setattr(tempfile, "tempdir", str(pytester.path / "temp"))
    (pytester.path / "temp").mkdir()
    root = state_dir("x").parent
    pytester.makeconftest(f"""
import os

def pytest_sessionfinish(session):
    print("state folders during the run:", sorted(os.listdir({str(root)!r})))
""")
    result = pytester.runpytest("suites", "--wsb-record-mode=rewrite", "-s", "--wsb-rate=local=1000/s")
    result.assert_outcomes(passed=3, failed=1)
    (during,) = [line.partition("state folders during the run:")[2] for line in result.outlines if "during the" in line]
    assert during.count("'") == 2  # the run's one folder, written while it ran
    assert [path.name for path in root.iterdir() if path.name != PURGE_STAMP] == []
    result = pytester.runpytest("suites", "--wsb-record-mode=rewrite", "--testrunuid=shared-id")
    result.assert_outcomes(passed=3, failed=1)
    assert (root / "shared-id" / "live-outcomes.json").is_file()


def test_suite_option_by_path_and_ini(pytester, tiny_suite):
    pytester.runpytest("--suite", "suites/tiny", "--co", "-q").stdout.fnmatch_lines(["*4 tests collected*"])
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\nwsb_suite = suites/tiny\nwsb_k = 3\n")
    result = pytester.runpytest("-k", "t1")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*k=3)*", "*nDCG@3*"])


def test_unknown_provider_is_one_usage_error(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--provider=local,nosuch")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown provider 'nosuch'; known: *local*serper*"])


def test_help_lists_options_in_one_group(pytester):
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(
        [
            "web-search benchmarks (pytest-websearchbench):",
            "*--suite=SPEC*",
            "*--provider=NAME[[]@LABEL[]][[],...[]]*",
            "*--wsb-k=N*",
            "*--wsb-record-mode=MODE*",
            "*--wsb-cassette-dir=PATH*",
            "*--wsb-json=PATH*",
            "*--wsb-baseline=PATH*",
            "*--wsb-tolerance=X*",
            "*--wsb-local-corpus=PATH*",
        ]
    )


def test_coexists_with_pytest_recording(pytester, tiny_suite):
    pytest.importorskip("pytest_recording")
    result = pytester.runpytest("suites", "-p", "recording", "--record-mode=none", "-k", "t1")
    result.assert_outcomes(passed=1)


SAMPLE_ARGS = (
    "--suite",
    "lexbench-sample",
    "--suite",
    "lexbench-sample-factual",
    f"--wsb-cassette-dir={BUNDLED_CASSETTES}",
    "--wsb-record-mode=none",
)


def _metrics_by_item(path):
    return {
        (i["suite"], i["case_id"], i["provider"]): (i["outcome"], i["metrics"])
        for i in json.loads(path.read_text())["items"]
    }


def _summary(result):
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "websearchbench summary" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("results written"))
    return lines[start:end]


@pytest.mark.e2e  # two pytest processes over the bundled suites
def test_bundled_suites_replay_identically_with_and_without_xdist(pytester):
    """The committed cassettes replay with no server, and -n 2 aggregates to the same numbers as -n 0."""
    serial, parallel = pytester.path / "serial.json", pytester.path / "parallel.json"
    one = pytester.runpytest_subprocess(*SAMPLE_ARGS, f"--wsb-json={serial}")
    two = pytester.runpytest_subprocess(*SAMPLE_ARGS, "-n", "2", f"--wsb-json={parallel}")
    assert one.ret in (0, 1) and two.ret == one.ret
    assert _metrics_by_item(serial) == _metrics_by_item(parallel)
    assert json.loads(serial.read_text())["summary"] == json.loads(parallel.read_text())["summary"]
    assert len(_metrics_by_item(serial)) >= 60
    # replayed calls report the latency they were recorded with, so even latency agrees
    assert _summary(one) == _summary(two)
    one.stdout.fnmatch_lines(
        ["lexbench-sample  (lexbench/scenario*", "*nDCG@5*", "*cassettes*replayed · 0 recorded · 0 live*"]
    )
