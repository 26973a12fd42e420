"""The results file (``--wsb-json``): its format name and its one reader.

The report command, the baseline and the LexBench pool all read it here, through the suite files' path: the
shipped JSON Schemas (``schemas/results.schema.json`` for the document, ``results-item.schema.json`` for each
item) and ``core.suites.validate``. A file that breaks them is one SuiteError naming the file, the line, the item
and the field. The writer is ``reporting/json_results.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import parse_json, read_suite_text, validate

FORMAT = "pytest-websearchbench/results@1"

#: the writer puts each item on a line of its own, after this line (``reporting.json_results.write_document``):
#: the reader names an item's line from it
ITEMS_OPEN = '\n "items": ['


def read_results(path: Path) -> dict[str, Any]:
    """The results document at ``path``, checked against the schemas; its items each once."""
    text = read_suite_text(path)
    document = parse_json(text, path, finite=True)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise SuiteError(
            path,
            f"not a pytest-websearchbench results file (format {found!r:.60}; expected {FORMAT!r}, as --wsb-json "
            "writes)",
            field="format",
        )
    validate({**document, "items": []} if isinstance(document.get("items"), list) else document, "results", path)
    items: list[Any] = document["items"]
    lines = _item_lines(text, len(items))
    seen: dict[tuple[str, str, str], str] = {}
    for index, item in enumerate(items):
        where = f"items[{index}]"
        label = where
        if isinstance(item, dict) and all(isinstance(item.get(k), str) for k in ("suite", "case_id", "provider")):
            label = f"{item['suite']}/{item['case_id']}[{item['provider']}]"
        line = lines[index] if lines else None
        validate(item, "results-item", path, line=line, item=label)
        key = item["suite"], item["case_id"], item["provider"]
        if key in seen:  # one record per item: a second would count the item twice
            raise SuiteError(
                path, f"{where} has the same suite, case and provider as {seen[key]}", line=line, item=label
            )
        seen[key] = where
    return document


def _item_lines(text: str, count: int) -> list[int] | None:
    """Each item's line, where the file has the writer's layout (an item a line); None where it has not (a
    file written by another tool): then errors name the item without its line."""
    start = text.find(ITEMS_OPEN)
    if start < 0 or not count:
        return None
    first = text.count("\n", 0, start) + 3  # the opening line is the one after that newline; its items follow
    rest = text[start + len(ITEMS_OPEN) :].split("\n")
    if len(rest) < count + 2 or not all(line.startswith("{") for line in rest[1 : count + 1]):
        return None
    if rest[count + 1].strip() not in ("]", "],"):
        return None
    return list(range(first, first + count))
