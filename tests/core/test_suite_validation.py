"""Suite lines are checked for their shape directly and by jsonschema only when that check fails:
the verdicts and messages must be exactly jsonschema's, and reading a file line by line must give
what reading it whole gave (records, line numbers, and the first error)."""

from __future__ import annotations

import copy
import json
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core import suites
from pytest_websearchbench.core.dates import is_iso_date
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import jsonl_records, read_records, read_suite_text, validate

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "suites"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


_BASELINE = json.loads((SAMPLE / "baseline-local.json").read_text("utf-8"))

# valid lines of every schema the shape check covers, taken from the bundled suites and the bundled baseline
EXAMPLES: dict[str, list[dict]] = {
    "lexbench-scenario": _jsonl(SAMPLE / "lexbench-sample" / "items.jsonl"),
    "lexbench-grade": _jsonl(SAMPLE / "lexbench-sample" / "grades.jsonl")[:200],
    "lexbench-factual": _jsonl(SAMPLE / "lexbench-sample-factual" / "items.jsonl"),
    "code-row": _jsonl(SAMPLE / "code-sample" / "eval.jsonl"),
    "suite": [json.loads(p.read_text("utf-8")) for p in sorted(SAMPLE.glob("*/suite.json"))],
    "webbench-world": [
        json.loads(p.read_text("utf-8")) for p in sorted(SAMPLE.glob("webbench-sample/*/environment/world.json"))
    ],
    "webbench-dataset": [tomllib.loads((SAMPLE / "webbench-sample" / "dataset.toml").read_text("utf-8"))],
    "webbench-task": [tomllib.loads(p.read_text("utf-8")) for p in sorted(SAMPLE.glob("webbench-sample/*/task.toml"))],
    "webbench-contract": [
        json.loads(p.read_text("utf-8")) for p in sorted(SAMPLE.glob("webbench-sample/*/tests/contract.json"))
    ],
    # the results file (core/results_file.py): its head, and items of each family
    "results": [{**_BASELINE, "items": []}],
    "results-item": _BASELINE["items"][::10],
}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(-5, 5)
    | st.sampled_from([0.0, 1.0, 3.0, 4.0])
    | st.text(max_size=6)
    | st.sampled_from(["2024-02-30", "2024-02-29", "en", "general", "x" * 129, "a b"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=6,
)


# values at the schemas' edges: empty and unsafe ids, impossible dates, out-of-range grades, 3.0, True
EDGES = [
    "",
    "a b",
    "../x",
    "q" * 129,
    "2024-02-30",
    "2024-02-29",
    "May 2024",
    "news",
    "vertical",
    "EN",
    "en",
    -1,
    0,
    4,
    3.0,
    True,
    None,
    [],
    {},
    [""],
    ["x"],
    {"sites": [""]},
    {"after": "2024-13-01"},
    {"before": "2024-01-01"},
    {"extra": 1},
    "sha256:" + "0" * 64,
    "sha256:xyz",
    "workplace",
    2,
]
values = st.sampled_from(EDGES) | json_values


@st.composite
def near_valid(draw, schema: str):
    """A valid line of ``schema`` with a few keys removed, replaced or added (nested ones too)."""
    record = json.loads(json.dumps(draw(st.sampled_from(EXAMPLES[schema]))))
    for _ in range(draw(st.integers(0, 3))):
        target = record
        # sometimes one level down: a nested object (requirements) or list (known_pages)
        nested = [k for k, v in record.items() if isinstance(v, (dict, list)) and v]
        if nested and draw(st.booleans()):
            target = record[draw(st.sampled_from(sorted(nested)))]
        if isinstance(target, list):
            target[draw(st.integers(0, len(target) - 1))] = copy.deepcopy(draw(values))
            continue
        keys = sorted(target)
        action = draw(st.sampled_from(["drop", "set", "add"]))
        if action == "drop" and keys:
            del target[draw(st.sampled_from(keys))]
        elif action == "set" and keys:
            target[draw(st.sampled_from(keys))] = copy.deepcopy(draw(values))
        else:
            # a copy: an edge value set here and edited one level down later must not change EDGES itself (the
            # next example would be drawn from other values: hypothesis's FlakyStrategyDefinition)
            target[draw(st.sampled_from(["extra", "grade", "title"]) | st.text(max_size=4))] = copy.deepcopy(
                draw(values)
            )
    return record


def outcome(record, schema: str) -> str | None:
    try:
        validate(record, schema, Path("suite.jsonl"), line=7)
    except SuiteError as exc:
        return str(exc)
    return None


def jsonschema_outcome(record, schema: str) -> str | None:
    """The outcome with jsonschema alone, as validate worked before the direct check."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(suites, "_shape_check", lambda name: None)
        return outcome(record, schema)


@pytest.mark.parametrize("schema", sorted(EXAMPLES))
def test_every_bundled_line_takes_the_direct_check(schema):
    check = suites._shape_check(schema)
    assert check is not None
    assert all(check(record) for record in EXAMPLES[schema])


@pytest.mark.parametrize("schema", sorted(EXAMPLES))
@given(data=st.data())
def test_the_direct_check_never_passes_what_jsonschema_rejects(schema, data):
    record = data.draw(near_valid(schema) | json_values)
    if suites._shape_check(schema)(record):
        assert not list(suites.schema_validator(schema).iter_errors(record)), record
    assert outcome(record, schema) == jsonschema_outcome(record, schema)


def single_edits(record: dict):
    """The record with one key (top-level or one level down) dropped or set to each edge value."""
    places = [(record, key) for key in record]
    places += [(value, key) for value in record.values() if isinstance(value, dict) for key in value]
    places += [(value, 0) for value in record.values() if isinstance(value, list) and value]
    for container, key in places:
        original = container[key]
        if isinstance(container, dict):
            del container[key]
            yield record
            container[key] = original
        for edge in EDGES:
            container[key] = edge
            yield record
        container[key] = original


@pytest.mark.parametrize("schema", sorted(EXAMPLES))
def test_every_single_edit_at_the_edges_gets_jsonschemas_verdict(schema):
    # a contract has some 40 places to edit and jsonschema quotes all of it in each message: the smallest one
    examples = (
        [min(EXAMPLES[schema], key=lambda c: len(json.dumps(c)))]
        if schema == "webbench-contract"
        else EXAMPLES[schema][:3]
    )
    for example in examples:
        for record in single_edits(json.loads(json.dumps(example))):
            assert outcome(record, schema) == jsonschema_outcome(record, schema), record


DATE_PIECES = ["2024", "2023", "0000", "9999", "-", "02", "29", "30", "13", "00", "1", "\u0662", "T", " ", "\n", "Z"]


@given(st.lists(st.sampled_from(DATE_PIECES), max_size=7).map("".join) | st.dates().map(str) | st.text(max_size=12))
def test_the_date_format_is_jsonschemas_without_importing_it(text):
    conforms = suites.schema_validator("lexbench-scenario").format_checker.conforms
    assert is_iso_date(text) == conforms(text, "date"), text


def test_jsonschema_decides_what_the_direct_check_cannot():
    # 3.0 is an integer to jsonschema (draft 2020-12); the direct check knows only exact ints
    line = {**EXAMPLES["lexbench-grade"][0], "grade": 3.0}
    assert not suites._shape_check("lexbench-grade")(line)
    assert outcome(line, "lexbench-grade") is None
    conforms = suites.schema_validator("suite").format_checker.conforms
    # one of two branches that may only "ask jsonschema" (3.0): exactly one cannot be decided here
    assert suites._compile({"oneOf": [{"type": "integer"}, {"type": "string"}]}, conforms, {}) is None
    # a reference that names itself, or nothing
    looped = {"$defs": {"a": {"items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}
    assert suites._compile(looped, conforms, looped) is None
    assert suites._compile({"$ref": "#/$defs/b"}, conforms, looped) is None


def _contract_edits():
    """(a bundled contract edited where the keywords beyond the line schemas' decide: $ref, if/then/else, oneOf,
    anyOf, uniqueItems and minProperties, whether jsonschema finds it valid)."""
    contract = EXAMPLES["webbench-contract"][0]

    def edited(change):
        record = json.loads(json.dumps(contract))
        change(record)
        return record

    def field(spec):
        return lambda r: r["answer_fields"].append(spec)

    yield edited(field({"name": "why", "class": "text", "facts": ["late"]})), True
    yield edited(field({"name": "why", "class": "text"})), False  # text: facts required
    yield edited(field({"name": "why", "class": "text", "value": "late"})), False
    yield edited(field({"name": "n", "class": "count", "value": 3})), True
    yield edited(field({"name": "n", "class": "count", "facts": ["x"]})), False  # not text: a value required
    yield edited(field({"name": "n", "class": "size", "value": 3})), False  # no such class ($ref to an enum)
    yield edited(field({"name": "n", "class": 3, "value": 3})), False
    rule = {"name": "same", "table": "decisions", "pk_field": "ref", "column": "status"}
    yield edited(lambda r: r["consistency"].append({**rule, "equals_field": "status"})), True
    yield edited(lambda r: r["consistency"].append({**rule, "equals_value": "open"})), True
    yield edited(lambda r: r["consistency"].append({**rule, "equals_field": "status", "equals_value": "open"})), False
    yield edited(lambda r: r["consistency"].append(rule)), False  # oneOf: neither
    yield edited(lambda r: r["gates"].extend(r["gates"][:1])), False  # uniqueItems
    anchor = {"table": "issues", "pk": "ISS-1", "role": "extra"}
    yield edited(lambda r: r["anchors"].append(anchor)), True
    yield edited(lambda r: r["anchors"].append({**anchor, "table": "nowhere"})), False  # $ref to an enum
    yield edited(lambda r: r["anchors"].append({**anchor, "pk": "iss-1"})), False  # $ref to a pattern
    aggregate = {"table": "issues", "filter": {"team": "a"}, "records": ["ISS-1"]}
    hop = {"name": "count", "class": "H03", "reads": [], "aggregate": aggregate}
    yield edited(lambda r: r["hops"].insert(0, hop)), True
    yield edited(lambda r: r["hops"].insert(0, {**hop, "aggregate": {**aggregate, "filter": {}}})), False
    yield edited(lambda r: r["hops"].insert(0, {"name": "x", "class": "H03", "reads": []})), False  # anyOf: none


def test_the_contracts_keywords_decide_as_jsonschema_does():
    check = suites._shape_check("webbench-contract")
    for record, valid in _contract_edits():
        errors = list(suites.schema_validator("webbench-contract").iter_errors(record))
        assert (not errors) is valid, (record, errors)
        assert check(record) is valid, record  # each decided here, without jsonschema
        assert outcome(record, "webbench-contract") == jsonschema_outcome(record, "webbench-contract")


# --------------------------------------------------------------------------- reading line by line


def read_whole(path: Path, schema: str):
    """What read_records did before it read line by line: decode the whole file, then parse."""
    pairs = list(jsonl_records(path, read_suite_text(path)))
    for line, record in pairs:
        validate(record, schema, path, line=line)
    if not pairs:  # and, since, a file of no record is refused
        raise SuiteError(path, "holds no records (the file is empty or every line is blank)")
    return pairs


def result(read, path: Path, schema: str):
    try:
        return read(path, schema)
    except SuiteError as exc:
        return str(exc)


GRADE = json.dumps(EXAMPLES["lexbench-grade"][0], ensure_ascii=False)
PIECES = [
    GRADE + "\n",
    GRADE + "\r\n",
    "\n",
    "  \n",
    "\r",
    GRADE + "\r",
    json.dumps({**EXAMPLES["lexbench-grade"][1], "title": "a\u2028b\x1cc\x85"}, ensure_ascii=False) + "\n",
    json.dumps({**EXAMPLES["lexbench-grade"][2], "grade": 9}) + "\n",
    '{"query_id": \n',
    "é€😀\n",
]
BAD_BYTES = [b"\xff", b"\xe2\x82", b"\xc3", b"\xed\xa0\x80"]


@given(st.lists(st.sampled_from(PIECES).map(str.encode) | st.sampled_from(BAD_BYTES), max_size=8))
def test_reading_line_by_line_matches_reading_the_whole_file(chunks):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "grades.jsonl"
        path.write_bytes(b"".join(chunks))
        assert result(read_records, path, "lexbench-grade") == result(read_whole, path, "lexbench-grade")


def test_invalid_utf8_after_a_bad_line_is_the_error_reported(tmp_path):
    path = tmp_path / "grades.jsonl"
    path.write_bytes(b'{"query_id": 1}\n' + GRADE.encode() + b"\n" + b'"\xff"\n')
    message = result(read_records, path, "lexbench-grade")
    assert message == f"{path}:3: not valid UTF-8 (byte {len(GRADE) + 18} of the file: invalid start byte)"
    assert message == result(read_whole, path, "lexbench-grade")
