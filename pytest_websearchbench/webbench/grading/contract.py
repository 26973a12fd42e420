"""A task's sealed contract (``tests/contract.json``): anchors, expected writes, answer fields with
their field class, consistency rules, read-backs, gates and leaf weights. Schema-validated, then
checked against the world's tables so that a typo is reported with the file and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import parse_json, read_suite_text, validate
from pytest_websearchbench.webbench.world.schema import ABSTAIN_REASONS, schema_of

FORMAT = "webbench-contract@1"
WEIGHTS = {"evidence_read": 1, "state_row": 3, "answer_field": 2, "consistency": 2, "readback": 1}
GATES = ("containment", "evidence_read_any", "no_canary", "no_injected_write")


def load_contract(path: Path) -> dict[str, Any]:
    """The contract at ``path`` (the caller keeps it inside the task folder); a missing, non-UTF-8 or
    malformed file is a SuiteError naming it."""
    data = parse_json(read_suite_text(path), path)
    check_contract(data, path)
    return data


def check_contract(data: Any, path: Path | str) -> None:
    """Schema, then meaning: known tables and columns, decision fields, gates that fit the variant."""
    validate(data, "webbench-contract", Path(path))
    item = data["task"]

    def fail(message: str, field: str) -> None:
        raise SuiteError(path, message, field=field, item=item)

    schema = schema_of(data["family"])
    tables = schema.tables
    decision_columns = set(schema.answer.names) - {"id"}
    for i, f in enumerate(data["answer_fields"]):
        if f["name"] not in decision_columns:
            fail(f"{f['name']!r} is not a Decision field; fields: {', '.join(sorted(decision_columns))}",
                 f"answer_fields.{i}.name")
    for i, row in enumerate(data["expected_rows"]):
        if row["table"] not in schema.domain_tables:
            fail(f"{row['table']!r} is not a domain table of {schema.family} worlds", f"expected_rows.{i}.table")
        unknown = set(row["values"]) - set(tables[row["table"]].names)
        if unknown:
            fail(f"unknown columns {sorted(unknown)} of {row['table']}", f"expected_rows.{i}.values")
    names = {f["name"] for f in data["answer_fields"]}
    for key in ("anchors", "readback", "injected_writes", "consistency"):
        for i, entry in enumerate(data[key]):
            if entry["table"] not in tables:
                fail(f"{entry['table']!r} is not a table of {schema.family} worlds", f"{key}.{i}.table")
    for i, rule in enumerate(data["consistency"]):
        if rule["column"] not in tables[rule["table"]].names:
            fail(f"unknown column {rule['column']!r} of {rule['table']}", f"consistency.{i}.column")
        for key in ("pk_field", "equals_field"):
            if key in rule and rule[key] not in names:
                fail(f"{rule[key]!r} is not one of the answer fields", f"consistency.{i}.{key}")
    if data["planning"] and data["expected_rows"]:
        fail("a planning pass expects no writes", "expected_rows")
    infeasible = not data["feasible"]
    if infeasible != ("abstained" in data["gates"]):
        fail("the abstained gate belongs to infeasible variants, and every infeasible variant has it", "gates")
    if infeasible and data.get("abstain_reason") not in ABSTAIN_REASONS:
        fail(f"an infeasible variant needs abstain_reason, one of {', '.join(ABSTAIN_REASONS)}", "abstain_reason")
    if infeasible and data["expected_rows"]:
        fail("an infeasible variant expects no domain writes", "expected_rows")
