"""wsb-report parity: Harbor's parity rule over two sides' runs (mean ± SEM of each run's suite × variant mean,
whether the ranges overlap), its parity_experiment.json, and its usage errors (one line, exit 2)."""

from __future__ import annotations

import json
import math

import pytest

from pytest_websearchbench.report import main


def _runs(pytester, base, ndcgs, prefix):
    """A results file per value: the base run with every item's nDCG set to it (the run's mean)."""
    paths = []
    for number, value in enumerate(ndcgs, start=1):
        document = json.loads(base.read_text("utf-8"))
        for item in document["items"]:
            item["metrics"]["ndcg"] = value
        path = pytester.path / f"{prefix}{number}.json"
        path.write_text(json.dumps(document), "utf-8")
        paths.append(str(path))
    return paths


def test_parity_gives_mean_and_sem_a_side_and_whether_the_ranges_overlap(pytester, tiny_suite, capsys):
    base = pytester.path / "base.json"
    pytester.runpytest("suites", f"--wsb-json={base}").assert_outcomes(passed=3, failed=1)
    a = _runs(pytester, base, [0.5, 0.7], "a")
    b = _runs(pytester, base, [0.9, 0.9, 0.9], "b")
    out = pytester.path / "parity_experiment.json"
    code = main(["parity", "--a", *a, "--b", *b, "--json", str(out), "--model", "none"], prog="wsb-report")
    text = capsys.readouterr().out
    assert code == 1  # nDCG's ranges do not meet
    sem = math.sqrt(0.02) / math.sqrt(2)  # the sample SD of 0.5 and 0.7 over √2: 0.1
    assert f"tiny [local] nDCG@5: a 0.6000 ± {sem:.4f} (n=2), b 0.9000 ± 0.0000 (n=3): NO OVERLAP" in text
    assert "tiny [local] P@5: a 0.1500 ± 0.0000 (n=2), b 0.1500 ± 0.0000 (n=3): overlap" in text
    [experiment] = json.loads(out.read_text("utf-8"))
    assert (experiment["adapter_name"], experiment["agent"], experiment["model"]) == (
        "pytest-websearchbench",
        "local",
        "none",
    )
    assert experiment["number_of_trials"] == 3 and experiment["parity_benchmark_size"] == 4
    ndcg = next(m for m in experiment["metrics"] if m["metric"] == "nDCG@5")
    assert ndcg == {
        "benchmark_name": "tiny",
        "variant": "local",
        "metric": "nDCG@5",
        "original": "0.6000 ± 0.1000",
        "harbor": "0.9000 ± 0.0000",
        "original_trials": [0.5, 0.7],
        "harbor_trials": [0.9, 0.9, 0.9],
        "overlap": False,
    }
    # ranges that meet: 0.6 ± 0.1 and 0.75 ± 0.05
    assert main(["parity", "--a", *a, "--b", *_runs(pytester, base, [0.7, 0.8], "c")], prog="wsb-report") == 0


def test_fewer_than_two_runs_a_side_is_one_usage_line(pytester, tiny_suite, capsys):
    base = pytester.path / "base.json"
    pytester.runpytest("suites", f"--wsb-json={base}")
    assert main(["parity", "--a", str(base), "--b", str(base), str(base)], prog="wsb-report") == 2
    err = capsys.readouterr().err
    assert err == "report parity: --a needs at least 2 runs (a standard error needs two), got 1\n"
    assert main(["parity", "--a", str(base), "nowhere.json", "--b", str(base), str(base)], prog="wsb-report") == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_report_command_still_takes_results_files(pytester, tiny_suite, capsys):
    base = pytester.path / "base.json"
    pytester.runpytest("suites", f"--wsb-json={base}")
    assert main([str(base), "-o", str(pytester.path / "r.html")], prog="wsb-report") == 0
    with pytest.raises(SystemExit) as exited:
        main([], prog="wsb-report")
    assert exited.value.code == 2
