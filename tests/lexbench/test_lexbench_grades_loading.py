"""Grades are read a line at a time into slotted previews (a 2,750-item suite holds 140,000 of them),
and which error a bad file reports does not change: a line that is not JSON or not a grade comes before
an unknown query id or a disagreement, wherever it is in the file."""

from __future__ import annotations

import json

import pytest

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import iter_records, read_records
from pytest_websearchbench.lexbench import grades_index
from pytest_websearchbench.lexbench.grades import GradedPreview, load_grades
from pytest_websearchbench.lexbench.grades_index import GradesIndex, open_grades


@pytest.fixture(params=["file", "index"])
def loader(request, tmp_path):
    """Both ways a suite's grades are read: the file itself, and its index (built on first use)."""
    if request.param == "file":
        return load_grades
    return lambda path, query_ids: open_grades(path, query_ids, tmp_path / "index")


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


@pytest.mark.parametrize(
    "early", [_line(qid="nope"), _line(url="https://a.example/x/", grade=3)], ids=["unknown-query", "disagreement"]
)
@pytest.mark.parametrize(
    "late, where",
    [
        ("{not json", "invalid JSON"),
        (_line(grade="3"), "field 'grade'"),
        (b"\xff".decode("latin-1"), "not valid UTF-8"),
    ],
    ids=["json", "schema", "utf8"],
)
def test_a_malformed_line_further_down_is_reported_first(tmp_path, early, late, where, loader):
    path = _file(tmp_path, _line(), early, _line(url="https://b.example/"), late)
    if where == "not valid UTF-8":
        path.write_bytes(path.read_bytes().replace("ÿ".encode(), b"\xff"))
    with pytest.raises(SuiteError) as error:
        loader(path, {"q1"})
    assert f"{path}:4" in str(error.value) and where in str(error.value)
    assert not list((tmp_path / "index").glob("*.sqlite"))  # a bad file gets no index: every load reports it


def test_the_first_error_of_meaning_is_reported_with_both_lines(tmp_path, loader):
    path = _file(
        tmp_path,
        _line(url="https://b.example/"),
        _line(),
        _line(url="https://www.a.example/x", grade=3),
        _line(qid="nope"),
    )
    with pytest.raises(SuiteError) as error:
        loader(path, {"q1"})
    assert f"{path}:3: item 'q1' field 'grade'" in str(error.value) and "but line 2 grades" in str(error.value)
    with pytest.raises(SuiteError) as error:  # an unknown query id earlier in the file comes first
        loader(_file(tmp_path, _line(qid="nope"), *path.read_text().splitlines()), {"q1"})
    assert f"{tmp_path / 'grades.jsonl'}:1: field 'query_id': grade for unknown query id 'nope'" == str(error.value)


def test_the_index_holds_what_the_file_holds_and_is_built_once(tmp_path, monkeypatch):
    path = _file(
        tmp_path,
        _line(),
        _line(url="https://www.a.example/x/"),
        _line(qid="q2", url="https://b.example/"),
        json.dumps(
            {
                "query_id": "q2",
                "url": "https://c.example/",
                "grade": 0,
                "grader": "rule",
                "title": "T",
                "snippet": "S",
                "published": "2024-01-02",
            }
        ),
    )
    index = open_grades(path, {"q1", "q2", "q3"}, tmp_path / "index")
    assert isinstance(index, GradesIndex) and dict(index) == load_grades(path, {"q1", "q2", "q3"})
    assert list(index) == ["q1", "q2"] and index.get("q3") is None
    # every later load (another xdist worker, the next run) reads the index, never the grades file
    monkeypatch.setattr(grades_index, "merged_lines", lambda path: pytest.fail("the file was read again"))
    again = open_grades(path, {"q1", "q2"}, tmp_path / "index")
    assert again["q2"] == index["q2"] and len(again) == 2
    with pytest.raises(SuiteError, match="unknown query id 'q2'"):  # checked against each suite's items
        open_grades(path, {"q1"}, tmp_path / "index")
    # another file (one byte differs) is another index
    path.write_text(path.read_text().replace('"grade": 0', '"grade": 1'), "utf-8")
    monkeypatch.undo()
    assert open_grades(path, {"q1", "q2"}, tmp_path / "index")["q2"]["https://c.example"].grade == 1
    assert len(list((tmp_path / "index").glob("*.sqlite"))) == 2


def test_records_come_one_at_a_time_and_read_records_is_all_of_them(tmp_path):
    path = _file(tmp_path, _line(), _line(url="https://b.example/"), "{not json")
    records = iter_records(path, "lexbench-grade")
    assert next(records)[0] == 1  # handed out before the bad line is read
    with pytest.raises(SuiteError, match="invalid JSON"):
        list(records)
    good = _file(tmp_path, _line(), "", _line(url="https://b.example/"))
    assert read_records(good, "lexbench-grade") == list(iter_records(good, "lexbench-grade"))
    assert [line for line, _ in read_records(good, "lexbench-grade")] == [1, 3]
