"""The results file is written an item at a time, one compact item a line (a run of thousands of items
never holds a scrubbed copy of every item, or the file's whole text, at once), and reads back as the
document it was given."""

from __future__ import annotations

import json

import pytest

from pytest_websearchbench.core.secrets import FILTERED
from pytest_websearchbench.reporting.json_results import write_document

KEY = "sk-PLANTED-streamed-key-0123456789"


def _document(items):
    return {"format": "x", "k": 5, "suites": {"s": {"items": []}}, "zeta": [1, {"a": "b\nc"}], "items": items}


@pytest.mark.parametrize("count", [0, 1, 3])
def test_items_from_an_iterator_are_written_one_a_line_and_read_back_as_given(tmp_path, count):
    items = [
        {"case_id": f"q{n}", "raw": {"hits": [{"snippet": f"key={KEY}\n…", "rank": n}]}, "items": []}
        for n in range(count)
    ]
    path = tmp_path / "results.json"
    write_document(path, _document(iter(items)), [KEY])
    text = path.read_text("utf-8")
    assert json.loads(text) == json.loads(json.dumps(_document(items)).replace(KEY, FILTERED))
    assert KEY not in text and (count == 0 or "…" in text)  # not escaped: the file is UTF-8
    lines = text.splitlines()
    assert [line for line in lines if '"case_id"' in line] == [
        json.dumps(
            json.loads(json.dumps(item).replace(KEY, FILTERED)),
            ensure_ascii=False,
            sort_keys=True,
            separators=(",", ":"),
        )
        + ("," if n < count - 1 else "")
        for n, item in enumerate(items)
    ]


def test_an_item_that_cannot_be_made_leaves_no_file(tmp_path):
    def items():
        yield {"case_id": "q1"}
        raise RuntimeError("the run's records broke")

    path = tmp_path / "results.json"
    with pytest.raises(RuntimeError):
        write_document(path, _document(items()))
    assert list(tmp_path.iterdir()) == []


def test_a_document_without_items_is_written_whole(tmp_path):
    path = tmp_path / "doc.json"
    write_document(path, {"b": 1, "a": [KEY]}, [KEY])
    assert json.loads(path.read_text("utf-8")) == {"a": [FILTERED], "b": 1}
