"""Grades editions: layering for --wsb-grades (the suite's grades first, first grade of a page wins),
what the summary says was used, the strict parse of a judge's answer, results files refused in one
line, and the bundled suite's second edition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, TINY_GRADES, TINY_SCENARIOS, write_lexbench_suite
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.lexbench.agreement import weighted_kappa
from pytest_websearchbench.lexbench.editions import layer_grades
from pytest_websearchbench.lexbench.grades import load_grades
from pytest_websearchbench.lexbench.judge import PROMPT_SHA256, parse_grade
from pytest_websearchbench.lexbench.pool import load_runs

GREEN, BIKE = "https://tea.example/green-tea-brewing", "https://bike.example/tyre-pressure"


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return path


def test_the_suites_grades_come_first_and_the_first_file_to_grade_a_page_wins(tmp_path):
    ids = {"t1", "t2", "t3", "t4"}
    suite = {"t1": {}}
    suite_file = _write(tmp_path / "suite.jsonl", [{"query_id": "t1", "url": GREEN, "grade": 3, "grader": "human:a"}])
    suite = load_grades(suite_file, ids)
    first = _write(
        tmp_path / "a.jsonl",
        [
            {"query_id": "t1", "url": GREEN + "/", "grade": 0, "grader": "model:m", "prompt_sha256": "sha256:abc"},
            {"query_id": "t2", "url": BIKE, "grade": 2, "grader": "model:m", "prompt_sha256": "sha256:abc"},
        ],
    )
    second = _write(
        tmp_path / "b.jsonl",
        [
            {"query_id": "t2", "url": BIKE, "grade": 3, "grader": "human:b"},
            {"query_id": "t3", "url": BIKE, "grade": 0, "grader": "rule:site"},
        ],
    )
    layered = layer_grades("tiny", suite, [first, second], ids)
    assert layered.grades["t1"]["https://tea.example/green-tea-brewing"].grade == 3  # the suite's
    assert layered.grades["t2"]["https://bike.example/tyre-pressure"].grade == 2  # a.jsonl came first
    assert layered.used.counts == {"human": 1, "model": 1, "rule": 1}
    assert layered.used.text() == "1 human · 1 model (m, prompt sha256:abc…) · 1 rule"
    replaced = layer_grades("tiny", suite, [first], ids, replace=True)
    assert replaced.grades["t1"]["https://tea.example/green-tea-brewing"].grade == 0
    assert replaced.used.note() == (
        "2 model (m, prompt sha256:abc…) · the edition alone: not comparable (model grades are not human ground truth)"
    )


def test_an_edition_of_another_suite_is_refused_naming_the_line(tmp_path):
    other = _write(
        tmp_path / "other.jsonl",
        [
            {"suite": "tiny", "query_id": "t1", "url": GREEN, "grade": 1, "grader": "model:m"},
            {"suite": "elsewhere", "query_id": "t1", "url": BIKE, "grade": 1, "grader": "model:m"},
        ],
    )
    with pytest.raises(SuiteError) as caught:
        layer_grades("tiny", {}, [other], {"t1"})
    assert str(caught.value).startswith(f"{other}:2: item 't1' field 'suite': these grades are for suite 'elsewhere'")


def test_the_plugin_options_are_checked_once_and_a_bad_edition_is_one_line(pytester):
    write_lexbench_suite(pytester.path, "tiny", TINY_SCENARIOS, TINY_GRADES)
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    lonely = pytester.runpytest("suites", "--wsb-grades-replace", "--co")
    assert lonely.ret == 4 and "--wsb-grades-replace needs --wsb-grades" in lonely.stderr.str()
    _write(pytester.path / "v2.jsonl", [{"query_id": "t9", "url": GREEN, "grade": 1, "grader": "model:m"}])
    bad = pytester.runpytest("suites", "--wsb-grades=v2.jsonl", "--co")
    bad.stdout.fnmatch_lines(["invalid suite: */v2.jsonl:1: field 'query_id': grade for unknown query id 't9'"])


@settings(derandomize=True, deadline=None)
@given(st.text(max_size=40))
def test_only_a_strict_answer_is_a_grade(text):
    try:
        grade = parse_grade(text)
    except ValueError as exc:
        assert str(exc)
    else:
        answer = json.loads(text)
        assert answer["grade"] == grade and grade in (0, 1, 2, 3) and set(answer) <= {"grade", "reason"}


@pytest.mark.parametrize(
    "text, grade", [('{"grade": 2}', 2), (' {"grade":0}\n', 0), ('{"grade": 3, "reason": "the recipe"}', 3)]
)
def test_strict_answers(text, grade):
    assert parse_grade(text) == grade


@pytest.mark.parametrize(
    "text",
    [
        "2",
        "Grade: 2",
        '{"grade": "2"}',
        '{"grade": 2.0}',
        '{"grade": true}',
        '{"grade": 4}',
        '{"grade": -1}',
        '{"score": 2}',
        '{"grade": 2, "conf": 1}',
        '```json\n{"grade": 2}\n```',
        '[{"grade": 2}]',
        '{"grade": 2} {"grade": 3}',
        "",
    ],
)
def test_everything_else_is_unreadable(text):
    with pytest.raises(ValueError):
        parse_grade(text)


def _results(path: Path, items: list[dict], k: int = 5, suite: str = "tiny") -> Path:
    path.write_text(
        json.dumps(
            {
                "format": "pytest-websearchbench/results@1",
                "k": k,
                "suites": {suite: {"family": "lexbench", "kind": "scenario"}},
                "items": items,
            }
        )
    )
    return path


def _item(case: str, provider: str, hits: list[dict]) -> dict:
    return {
        "suite": "tiny",
        "case_id": case,
        "provider": provider,
        "family": "lexbench",
        "outcome": "passed",
        "raw": {"hits": hits},
    }


def test_results_files_are_refused_in_one_line_naming_file_item_and_field(tmp_path):
    plain = tmp_path / "plain.json"
    plain.write_text('{"items": []}')
    with pytest.raises(SuiteError, match=r"plain.json: field 'format': not a pytest-websearchbench results file"):
        load_runs([plain])
    nourl = _results(tmp_path / "nourl.json", [_item("t1", "serper", [{"rank": 1, "title": "x"}])])
    with pytest.raises(
        SuiteError, match=r"nourl.json: item 't1\[serper\]' field 'raw.hits\[0\].url': hit 1 has no url"
    ):
        load_runs([nourl])
    one = _results(tmp_path / "one.json", [_item("t1", "serper", [{"rank": 1, "url": GREEN}])])
    two = _results(tmp_path / "two.json", [_item("t1", "serper", [{"rank": 1, "url": BIKE}])])
    with pytest.raises(SuiteError, match=r"two.json: item 't1' field 'provider': t1 is answered by serper here and in"):
        load_runs([one, two])
    other = _results(tmp_path / "other.json", [], suite="tiny-2")
    with pytest.raises(SuiteError, match=r"other.json: field 'suites': suite tiny-2 at k=5 cannot be pooled with"):
        load_runs([one, other])
    both = json.loads(one.read_text())
    both["suites"]["tiny-b"] = {"family": "lexbench", "kind": "scenario"}
    both["items"].append({**_item("t1", "serper", [{"rank": 1, "url": BIKE}]), "suite": "tiny-b"})
    (tmp_path / "both.json").write_text(json.dumps(both))
    with pytest.raises(
        SuiteError,
        match=r"both.json: field 'suites': expected the results of one LexBench scenario "
        r"suite \(--suite\), found 2 \(tiny, tiny-b\)",
    ):
        load_runs([tmp_path / "both.json"])
    picked = load_runs([tmp_path / "both.json"], "tiny-b")
    assert picked.suite == "tiny-b" and [i.hits[0]["url"] for i in picked.items] == [BIKE]
    errored = _results(tmp_path / "errored.json", [{**_item("t2", "brave", []), "outcome": "error", "raw": None}])
    assert load_runs([one, errored]).items[1].hits is None  # an errored item pools nothing and is reported
    lean = json.loads(one.read_text())
    lean["raw_answers"] = False  # written without --wsb-json-raw: no answers to pool
    (tmp_path / "lean.json").write_text(json.dumps(lean))
    with pytest.raises(
        SuiteError,
        match=r"lean.json: field 'raw_answers': written without --wsb-json-raw: it holds "
        r"the scores, not the provider answers a pool is made of",
    ):
        load_runs([tmp_path / "lean.json"])


def test_the_bundled_suite_has_a_model_graded_second_edition_made_by_the_pipeline():
    from pytest_websearchbench.sampledata import DEFAULT_SEED, lexbench
    from pytest_websearchbench.sampledata.web import build_web

    folder = REPO / "suites" / "lexbench-sample"
    manifest = json.loads((folder / "suite.json").read_text())
    assert manifest["grades"] == "grades.jsonl"  # the second edition never replaces the first
    lines = [json.loads(line) for line in (folder / "grades-model.jsonl").read_text("utf-8").splitlines()]
    built = lexbench.build_lexbench(build_web(DEFAULT_SEED), DEFAULT_SEED)
    assert lines == built["model_grades"]  # generated by the project's code, deterministically
    reference = {(g["query_id"], g["url"]): g["grade"] for g in built["grades"]}
    models = [line for line in lines if line["grader"] == "model:sample-scripted-judge"]
    rules = [line for line in lines if line["grader"].startswith("rule:")]
    assert len(models) + len(rules) == len(lines) == len(reference)
    for line in models:
        assert line["prompt_sha256"] == PROMPT_SHA256 and line["packet"].startswith("pk-") and line["raw"]
        assert line["graded_at"] == "2025-12-01T00:00:00+00:00"
    assert all(line["grade"] == 0 and reference[line["query_id"], line["url"]] == 0 for line in rules)
    retried = [line for line in models if "\n---\n" in line["raw"]]
    assert retried  # the stand-in answers some packets in prose first: asked again, then read
    kappa = weighted_kappa([(reference[m["query_id"], m["url"]], m["grade"]) for m in models])
    assert 0.8 < kappa < 1.0  # close to the rule-made grades, and not a copy of them
