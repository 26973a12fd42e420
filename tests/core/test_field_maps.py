"""A manifest's ``fields``: a dataset's columns read as the family's fields, checked when the suite loads."""

from __future__ import annotations

import json

import pytest

from conftest import write_jsonl
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import SuiteManifest, read_records

ROW = {
    "scenario_id": "q1",
    "query": "green tea temperature",
    "lang": "en",
    "search_family": "general",
    "annotator_notes": "a column the family does not know",
}
MAP = {"id": "scenario_id", "language": "lang", "family": "search_family"}


def _manifest(tmp_path, fields, family="lexbench"):
    path = tmp_path / "suite.json"
    path.write_text(
        json.dumps({"name": "s", "edition": "1", "family": family, "items": "items.jsonl", "fields": fields})
    )
    return SuiteManifest.load(path)


def test_mapped_columns_become_the_familys_fields_and_unknown_columns_are_left_out(tmp_path):
    items = write_jsonl(tmp_path / "items.jsonl", [ROW])
    field_map = _manifest(tmp_path, MAP).field_map("lexbench-scenario")
    assert read_records(items, "lexbench-scenario", field_map) == [
        (1, {"id": "q1", "query": "green tea temperature", "language": "en", "family": "general"})
    ]


def test_a_missing_required_column_names_the_column_it_looked_for(tmp_path):
    items = write_jsonl(tmp_path / "items.jsonl", [ROW, {k: v for k, v in ROW.items() if k != "search_family"}])
    field_map = _manifest(tmp_path, MAP).field_map("lexbench-scenario")
    with pytest.raises(SuiteError) as caught:
        read_records(items, "lexbench-scenario", field_map)
    message = str(caught.value)
    assert message.startswith(f"{items}:2: field 'family': no column 'search_family' for the required field 'family'")
    assert "annotator_notes" in message  # the row's columns, to find the right one
    # an unmapped required field looks for a column of its own name, and says how to map it
    field_map = _manifest(tmp_path, {"id": "scenario_id"}).field_map("lexbench-scenario")
    with pytest.raises(SuiteError, match="no column 'language' for the required field 'language' \\(its own name; map"):
        read_records(items, "lexbench-scenario", field_map)


def test_a_field_the_family_does_not_have_is_refused_with_its_fields(tmp_path):
    manifest = _manifest(tmp_path, {"identifier": "scenario_id"})
    with pytest.raises(
        SuiteError,
        match="field 'fields.identifier': the items have no field 'identifier'; "
        "their fields: id, query, language, family",
    ):
        manifest.field_map("lexbench-scenario")


def test_one_column_for_two_fields_is_refused(tmp_path):
    with pytest.raises(SuiteError, match="column 'q' is mapped to both 'query' and 'information_need'"):
        _manifest(tmp_path, {"query": "q", "information_need": "q"}).field_map("lexbench-scenario")


def test_a_schema_open_to_other_fields_keeps_the_other_columns(tmp_path):
    """Code rows may carry more columns than the family reads; a mapped-away column is not kept twice."""
    row = {"id": "acme-1", "vendor": "acme", "ticket": "t", "starter_code": "a()", "gold_code": "b()", "split": "hard"}
    items = write_jsonl(tmp_path / "eval.jsonl", [row])
    field_map = _manifest(tmp_path, {"task_id": "id"}, family="code").field_map("code-row")
    [(_, record)] = read_records(items, "code-row", field_map)
    assert record == {
        "task_id": "acme-1",
        "vendor": "acme",
        "ticket": "t",
        "starter_code": "a()",
        "gold_code": "b()",
        "split": "hard",
    }


def test_the_map_is_an_object_of_column_names(tmp_path):
    for fields in ({"id": ""}, {"id": 3}):
        with pytest.raises(SuiteError, match="field 'fields': expected an object of field → column names"):
            _manifest(tmp_path, fields).field_map("lexbench-scenario")
