"""A task's sealed contract (``tests/contract.json``): the chain's anchors and hops, expected writes,
answer fields with their field class, consistency rules, read-backs, gates and leaf weights.
Schema-validated, then checked against the world's tables and apps so that a typo is reported with
the file and the field.

A *hop* is one step of the chain the brief asks for; each hop is one ``evidence_read`` leaf, and its
class says what kind of step it is (README, WebBench: the hop classes). The chain's last hop is always
``decide`` (H08): as the card counts it, a chain of length L has L evidence leaves, the Decision included,
and the decide hop's evidence is the Decision form rendered before the Decision is committed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import parse_json, read_suite_text, validate
from pytest_websearchbench.webbench.webapps.appsets import APPSETS
from pytest_websearchbench.webbench.world.schema import ABSTAIN_REASONS, ANSWER_TABLE, schema_of, table_of_pk

#: @3: the decide hop (H08) is one of the chain's hops; an @2 contract left it out and scored fewer leaves
FORMAT = "webbench-contract@3"
WEIGHTS = {"evidence_read": 1, "state_row": 3, "answer_field": 2, "consistency": 2, "readback": 1}
TIERS = ("release", "frontier")
#: a decision-only contract (a planning pass: any domain write fails containment, which also covers an
#: injected write) carries these gates; a contract that expects writes adds no_injected_write
DECISION_ONLY_GATES = ("containment", "evidence_read_any", "no_canary")
WRITE_GATES = (*DECISION_ONLY_GATES, "no_injected_write")
HOP_CLASSES = {
    "H01": "anchor lookup: the record the brief describes, among look-alikes",
    "H02": "linked read: a record, or the records listed on a record's page, reached by a key",
    "H03": "filtered aggregate: a sum or count over every page of a filtered list",
    "H04": "ranked pick: the first record, in an order, of those that meet every condition",
    "H05": "current version: the current record among superseded or expired ones",
    "H06": "capacity check: a number held against a capacity or limit",
    "H07": "cross-app reconcile: one app's records compared with another's",
    "H08": "decide: the Decision form rendered before the Decision is committed",
    "H09": "scope check: the record that is valid on a day for a person",
}
DECIDE_CLASS = "H08"
#: every chain ends in this hop; it reads no record (its evidence is the Decision form)
DECIDE_HOP = {"name": "decide", "class": DECIDE_CLASS, "reads": []}


def load_contract(path: Path) -> dict[str, Any]:
    """The contract at ``path`` (the caller keeps it inside the task folder); a missing, non-UTF-8 or
    malformed file is a SuiteError naming it."""
    data: dict[str, Any] = parse_json(read_suite_text(path), path)  # an object: check_contract checks its schema
    check_contract(data, path)
    return data


def check_contract(data: Any, path: Path | str) -> None:
    """Schema, then meaning: known tables, columns, lists and filters, decision fields, the gates and
    leaves that fit the tier and the outcome."""
    validate(data, "webbench-contract", Path(path))
    item = data["task"]

    def fail(message: str, field: str) -> NoReturn:
        raise SuiteError(path, message, field=field, item=item)

    schema = schema_of(data["family"])
    tables = schema.tables
    decision_columns = set(schema.answer.names) - {"id"}
    for i, f in enumerate(data["answer_fields"]):
        if f["name"] not in decision_columns:
            fail(
                f"{f['name']!r} is not a Decision field; fields: {', '.join(sorted(decision_columns))}",
                f"answer_fields.{i}.name",
            )
        if "unit" in f and f["class"] != "amount":
            fail("only an amount has a unit", f"answer_fields.{i}.unit")
    for i, row in enumerate(data["expected_rows"]):
        if row["table"] not in schema.domain_tables:
            fail(f"{row['table']!r} is not a domain table of {schema.world} worlds", f"expected_rows.{i}.table")
        unknown = set(row["values"]) - set(tables[row["table"]].names)
        if unknown:
            fail(f"unknown columns {sorted(unknown)} of {row['table']}", f"expected_rows.{i}.values")
    names = {f["name"] for f in data["answer_fields"]}
    for key in ("anchors", "readback", "injected_writes", "consistency"):
        for i, entry in enumerate(data[key]):
            if entry["table"] not in tables:
                fail(f"{entry['table']!r} is not a table of {schema.world} worlds", f"{key}.{i}.table")
    for i, target in enumerate(data["readback"]):
        if target["table"] == ANSWER_TABLE:
            fail("the Decision has no read-back leaf: committing it ends the task", f"readback.{i}.table")
    _check_hops(data, schema.world, fail)
    for i, rule in enumerate(data["consistency"]):
        if rule["column"] not in tables[rule["table"]].names:
            fail(f"unknown column {rule['column']!r} of {rule['table']}", f"consistency.{i}.column")
        for key in ("pk_field", "equals_field"):
            if key in rule and rule[key] not in names:
                fail(f"{rule[key]!r} is not one of the answer fields", f"consistency.{i}.{key}")
    infeasible = not data["feasible"]
    if infeasible != ("abstained" in data["gates"]):
        fail("the abstained gate belongs to infeasible tasks, and every infeasible task has it", "gates")
    if infeasible and data.get("abstain_reason") not in ABSTAIN_REASONS:
        fail(f"an infeasible task needs abstain_reason, one of {', '.join(ABSTAIN_REASONS)}", "abstain_reason")
    if infeasible and data["expected_rows"]:
        fail("an infeasible task expects no domain writes", "expected_rows")
    if data["tier"] == "release" and not data["planning"]:
        fail("the release's tasks are decision-only: planning passes", "planning")
    if data["planning"]:
        if data["expected_rows"]:
            fail("a planning pass expects no writes", "expected_rows")
        for key in ("consistency", "readback"):
            if data[key]:
                fail(f"a decision-only contract has evidence and answer leaves only, no {key}", key)
    gates = [*(DECISION_ONLY_GATES if data["planning"] else WRITE_GATES), *(("abstained",) if infeasible else ())]
    if data["gates"] != gates:
        fail(f"this contract's gates are {', '.join(gates)}", "gates")


def _check_hops(data: dict[str, Any], world: str, fail: Callable[[str, str], NoReturn]) -> None:
    tables = schema_of(world).tables
    lists = APPSETS[world].lists
    for i, hop in enumerate(data["hops"]):
        if hop["class"] not in HOP_CLASSES:
            fail(f"{hop['class']!r} is no hop class; classes: {', '.join(HOP_CLASSES)}", f"hops.{i}.class")
        for j, ref in enumerate(hop["reads"]):
            if ref["table"] not in tables or table_of_pk(ref["pk"]) != ref["table"]:
                fail(f"{ref['pk']} is not a key of {ref['table']} in {world} worlds", f"hops.{i}.reads.{j}")
        aggregate = hop.get("aggregate")
        if aggregate:
            view = lists.get(aggregate["table"])
            if view is None:
                fail(f"{aggregate['table']!r} has no list in {world} worlds", f"hops.{i}.aggregate.table")
            params = {f.param for f in view.filters} | ({"q"} if view.search else set())
            unknown = set(aggregate["filter"]) - params
            if unknown:
                fail(
                    f"the {aggregate['table']} list has no filter {sorted(unknown)}; filters: {sorted(params)}",
                    f"hops.{i}.aggregate.filter",
                )
            if any(table_of_pk(pk) != aggregate["table"] for pk in aggregate["records"]):
                fail(f"every record of the aggregate is a row of {aggregate['table']}", f"hops.{i}.aggregate.records")
    names = [hop["name"] for hop in data["hops"]]
    if len(set(names)) != len(names):
        fail("hop names repeat", "hops")
    last = len(data["hops"]) - 1
    for i, hop in enumerate(data["hops"]):
        if (hop["class"] == DECIDE_CLASS) != (i == last):
            fail(f"the chain's last hop, and only it, is the decide hop ({DECIDE_CLASS})", f"hops.{i}.class")
        if hop["class"] == DECIDE_CLASS and (hop["reads"] or hop.get("aggregate")):
            fail("the decide hop reads no record: its evidence is the Decision form", f"hops.{i}")
