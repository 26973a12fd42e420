"""The results file has one reader (core/results_file.py), checked against schemas/results*.schema.json: what
the plugin writes reads back unchanged, a bad value is one line naming the file, the line, the item and the
field, and the report command, the baseline and the LexBench pool say the same line for the same file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pytest_websearchbench import report
from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.results_file import FORMAT, read_results
from pytest_websearchbench.lexbench.pool import load_runs
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.json_results import RunResults, write_document

REPO = Path(__file__).resolve().parents[2]
BUNDLED = REPO / "suites" / "baseline-local.json"


def _label(item: dict) -> str:
    return f"{item['suite']}/{item['case_id']}[{item['provider']}]"


def test_what_the_writer_wrote_reads_back_as_json_reads_it(tmp_path):
    document = read_results(BUNDLED)
    assert document == json.loads(BUNDLED.read_text("utf-8")) and document["format"] == FORMAT
    # and through the writer once more: the document a run writes is the document the reader gives
    again = tmp_path / "again.json"
    write_document(again, RunResults.from_dict(document).to_dict())
    assert read_results(again)["items"] == RunResults.from_dict(document).to_dict()["items"]


def test_a_bad_item_in_the_writers_layout_names_its_line(tmp_path):
    lines = BUNDLED.read_text("utf-8").split("\n")
    first = lines.index(' "items": [') + 1
    document = json.loads(BUNDLED.read_text("utf-8"))
    index = 7
    item = json.loads(lines[first + index].rstrip(","))
    assert item == document["items"][index]
    metric = sorted(item["metrics"])[0]
    item["metrics"][metric] = "high"
    lines[first + index] = json.dumps(item, sort_keys=True, separators=(",", ":")) + ","
    path = tmp_path / "results.json"
    path.write_text("\n".join(lines), "utf-8")
    with pytest.raises(SuiteError) as info:
        read_results(path)
    assert str(info.value) == (
        f"{path}:{first + index + 1}: item '{_label(item)}' field 'metrics.{metric}': 'high' is not of type 'number'"
    )


def test_another_layout_names_the_item_without_a_line(tmp_path):
    document = json.loads(BUNDLED.read_text("utf-8"))
    document["items"][3]["calls"] = [{"seconds": "slow"}]
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps(document, indent=2), "utf-8")
    with pytest.raises(SuiteError) as info:
        read_results(path)
    assert str(info.value) == (
        f"{path}: item '{_label(document['items'][3])}' field 'calls.0.seconds': 'slow' is not of type 'number', 'null'"
    )


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "9" * 60])
def test_a_metric_no_figure_can_use_is_refused(tmp_path, number):
    text = BUNDLED.read_text("utf-8")
    first = json.loads(text)["items"][0]
    metric = sorted(first["metrics"])[0]
    needle = f'"{metric}":{json.dumps(first["metrics"][metric])}'
    assert needle in text
    path = tmp_path / "results.json"
    path.write_text(text.replace(needle, f'"{metric}":{number}', 1), "utf-8")
    with pytest.raises(
        SuiteError,
        match=rf"{re.escape(f'{path}:')}\d+: item '{re.escape(_label(first))}' field 'metrics\.{metric}': .* is not of type 'number'",
    ):
        read_results(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[]", "field 'format': not a pytest-websearchbench results file (format 'list'"),
        ('{"format": "pytest-websearchbench/results@2", "k": 5, "items": []}', "format 'pytest-websearchbench/re"),
        (json.dumps({"format": FORMAT, "items": []}), "field 'k': 'k' is a required property"),
        (json.dumps({"format": FORMAT, "k": 5}), "field 'items': 'items' is a required property"),
        (
            json.dumps({"format": FORMAT, "k": 5, "items": [{"suite": "s"}]}),
            "item 'items[0]' field 'case_id': 'case_id' is a required property",
        ),
        (
            json.dumps({"format": FORMAT, "k": 5, "items": [], "selection": "most"}),
            "field 'selection': 'most' is not one of ['all', 'partial']",
        ),
    ],
)
def test_the_document_is_checked_against_its_schema(tmp_path, text, message):
    path = tmp_path / "r.json"
    path.write_text(text, "utf-8")
    with pytest.raises(SuiteError) as info:
        read_results(path)
    assert str(info.value).startswith(str(path)) and message in str(info.value) and "\n" not in str(info.value)


def _report(path: Path, capsys) -> str:
    assert report.main([str(path), "-o", str(path.with_suffix(".html"))]) == 2
    return capsys.readouterr().err


def _baseline(path: Path, capsys) -> str:
    with pytest.raises(ConfigurationError) as info:
        Baseline.load(path)
    return str(info.value)


def _pool(path: Path, capsys) -> str:
    with pytest.raises(SuiteError) as info:
        load_runs([path])
    return str(info.value)


@pytest.mark.parametrize("reader", [_report, _baseline, _pool], ids=["wsb-report", "--wsb-baseline", "pool"])
def test_the_three_readers_say_the_same_line(tmp_path, capsys, reader):
    document = json.loads(BUNDLED.read_text("utf-8"))
    document["items"][2]["outcome"] = ""
    path = tmp_path / "bad.json"
    write_document(path, document)
    expected = str(pytest.raises(SuiteError, read_results, path).value)
    assert expected.startswith(f"{path}:") and f"item '{_label(document['items'][2])}' field 'outcome'" in expected
    said = reader(path, capsys)
    assert expected in said and said.count("\n") <= 1
