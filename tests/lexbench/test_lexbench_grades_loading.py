"""Grades are read a line at a time into slotted previews (a 2,750-item suite holds 140,000 of them),
and which error a bad file reports does not change: a line that is not JSON or not a grade comes before
an unknown query id or a disagreement, wherever it is in the file."""

from __future__ import annotations

import json

import pytest

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import iter_records, read_records
from pytest_websearchbench.lexbench.grades import GradedPreview, load_grades


def _line(qid="q1", url="https://a.example/x", grade=2, grader="h"):
    return json.dumps({"query_id": qid, "url": url, "grade": grade, "grader": grader})


def _file(tmp_path, *lines):
    path = tmp_path / "grades.jsonl"
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    return path


def test_a_preview_keeps_no_instance_dict():
    preview = GradedPreview("https://a.example/x", 2, "h", "t", "s", None)
    assert not hasattr(preview, "__dict__")
    with pytest.raises(AttributeError):
        preview.grade = 3  # still frozen


@pytest.mark.parametrize("early", [_line(qid="nope"), _line(url="https://a.example/x/", grade=3)],
                         ids=["unknown-query", "disagreement"])
@pytest.mark.parametrize("late, where", [("{not json", "invalid JSON"), (_line(grade="3"), "field 'grade'"),
                                         (b"\xff".decode("latin-1"), "not valid UTF-8")],
                         ids=["json", "schema", "utf8"])
def test_a_malformed_line_further_down_is_reported_first(tmp_path, early, late, where):
    path = _file(tmp_path, _line(), early, _line(url="https://b.example/"), late)
    if where == "not valid UTF-8":
        path.write_bytes(path.read_bytes().replace("ÿ".encode(), b"\xff"))
    with pytest.raises(SuiteError) as error:
        load_grades(path, {"q1"})
    assert f"{path}:4" in str(error.value) and where in str(error.value)


def test_the_first_error_of_meaning_is_reported_with_both_lines(tmp_path):
    path = _file(tmp_path, _line(url="https://b.example/"), _line(), _line(url="https://www.a.example/x", grade=3),
                 _line(qid="nope"))
    with pytest.raises(SuiteError) as error:
        load_grades(path, {"q1"})
    assert f"{path}:3: item 'q1' field 'grade'" in str(error.value) and "but line 2 grades" in str(error.value)


def test_records_come_one_at_a_time_and_read_records_is_all_of_them(tmp_path):
    path = _file(tmp_path, _line(), _line(url="https://b.example/"), "{not json")
    records = iter_records(path, "lexbench-grade")
    assert next(records)[0] == 1  # handed out before the bad line is read
    with pytest.raises(SuiteError, match="invalid JSON"):
        list(records)
    good = _file(tmp_path, _line(), "", _line(url="https://b.example/"))
    assert read_records(good, "lexbench-grade") == list(iter_records(good, "lexbench-grade"))
    assert [line for line, _ in read_records(good, "lexbench-grade")] == [1, 3]
