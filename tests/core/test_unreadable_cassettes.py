"""A cassette that cannot be replayed is one line naming the file, the line and what is wrong, with the
command that records it anew; only its item errors."""

from __future__ import annotations

import re
import shlex

import pytest
import yaml
from vcr.persisters.filesystem import FilesystemPersister
from vcr.serializers import yamlserializer

from conftest import BUNDLED_CASSETTES
from pytest_websearchbench.cassettes.persister import AtomicPersister, UnreadableCassetteError


def _with(text: str, change) -> str:
    data = yaml.safe_load(text)
    change(data["interactions"][0]["response"])
    return yaml.safe_dump(data)


def _body(body: str):
    return lambda response: response["body"].__setitem__("string", body)


def _seconds(value: str):
    return lambda response: response["headers"].__setitem__("x-wsb-recorded-seconds", [value])


# name → (how to break a good cassette, what the one line must say)
BROKEN = {
    "truncated": (lambda text: text[: len(text) // 2], ":{line} is unreadable: invalid YAML: "),
    "invalid YAML": (
        lambda text: text.replace("interactions:", "interactions: [", 1),
        ":2 is unreadable: invalid YAML: ",
    ),
    "interactions: 42": (
        lambda text: "interactions: 42\nversion: 1\n",
        ":1 is unreadable: interactions is an int (42), expected a list of request/response pairs",
    ),
    "seconds not a number": (
        lambda text: _with(text, _seconds("fast")),
        ":{line} is unreadable: interactions[0].response.headers.x-wsb-recorded-seconds "
        "'fast' is not a number of seconds",
    ),
    "negative seconds": (
        lambda text: _with(text, _seconds("-0.5")),
        ":{line} is unreadable: interactions[0].response.headers.x-wsb-recorded-seconds "
        "'-0.5' is not a finite, non-negative number of seconds",
    ),
    "received-at not a date-time": (
        lambda text: _with(text, lambda response: response["headers"].__setitem__("x-wsb-received-at", ["soon"])),
        ":{line} is unreadable: interactions[0].response.headers.x-wsb-received-at 'soon' is not an ISO 8601 date-time",
    ),
    "body not JSON": (
        lambda text: _with(text, _body("<html>not json</html>")),
        " holds an answer 'local' cannot read: local: malformed JSON",
    ),
    "body without results": (
        lambda text: _with(text, _body('{"query": "road bike tyre pressure"}')),
        " holds an answer 'local' cannot read: local: search response lacks field 'results'",
    ),
    "results a string": (
        lambda text: _with(text, _body('{"query": "x", "results": "none"}')),
        " holds an answer 'local' cannot read: local: search response lacks field",
    ),
}


def _error_section(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if " ERROR at setup of tiny/t2[local] " in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("===", "___")))
    return lines[start + 1 : end]


@pytest.mark.parametrize("form", list(BROKEN))
def test_an_unreadable_cassette_is_one_line_naming_file_problem_and_fix(pytester, tiny_suite, form):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)
    cassette = pytester.path / "cassettes" / "tiny" / "local" / "t2.yaml"
    good = cassette.read_text()
    breaks, says = BROKEN[form]
    cassette.write_text(breaks(good))
    result = pytester.runpytest("suites", "--wsb-record-mode=none")
    result.assert_outcomes(passed=2, failed=1, errors=1)  # only its item
    [line] = _error_section(result.outlines)
    prefix = f"tiny/t2[local]: the cassette {cassette}"
    assert line.startswith(prefix)
    assert re.match(re.escape(says).replace(re.escape("{line}"), r"\d+"), line[len(prefix) :]), line
    assert line.endswith(
        f"; re-record it: pytest {shlex.quote('suites/tiny::t2[local]')} --provider local --wsb-cassette-dir=cassettes --wsb-record-mode=rewrite"
    )


def test_the_command_in_the_message_records_the_cassette_again(pytester, tiny_suite):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)
    cassette = pytester.path / "cassettes" / "tiny" / "local" / "t2.yaml"
    cassette.write_text(cassette.read_text()[:200])
    line = _error_section(pytester.runpytest("suites", "--wsb-record-mode=none").outlines)[0]
    command = shlex.split(line.split("; re-record it: ", 1)[1])
    assert command[0] == "pytest"
    pytester.runpytest(*command[1:]).assert_outcomes(passed=1)
    pytester.runpytest("suites", "--wsb-record-mode=none").assert_outcomes(passed=3, failed=1)


def test_every_shipped_cassette_loads_as_vcrpy_loads_it():
    paths = sorted(BUNDLED_CASSETTES.rglob("*.yaml"))
    assert len(paths) > 100
    for path in paths:
        ours = AtomicPersister.load_cassette(path, yamlserializer)
        theirs = FilesystemPersister.load_cassette(path, yamlserializer)
        assert [r._to_dict() for r in ours[0]] == [r._to_dict() for r in theirs[0]], path
        assert ours[1:] == theirs[1:], path


@pytest.mark.parametrize(
    "text, line, says",
    [
        (
            "interactions:\n- request: {}\n  response: {}\n",
            2,
            "interactions[0].request.method is missing, expected a string",
        ),
        ("- 1\n- 2\n", 1, "the document is a list ([1, 2]), expected a mapping with 'interactions'"),
        ("version: 1\n", 1, "it has no 'interactions'"),
        (
            "interactions:\n- 42\n",
            2,
            "interactions[0] is an int (42), expected a mapping with 'request' and 'response'",
        ),
    ],
)
def test_layout_errors_name_line_and_field(tmp_path, text, line, says):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(UnreadableCassetteError) as caught:
        AtomicPersister.load_cassette(path, yamlserializer)
    assert caught.value.line == line
    assert str(caught.value).endswith(f"is unreadable: {says}")


def test_a_cassette_that_is_not_utf8_is_an_error_not_an_empty_cassette(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"interactions:\n- request:\n    body: '\xff'\n")
    with pytest.raises(UnreadableCassetteError, match=r"c.yaml:3 is unreadable: not UTF-8 \(byte 0xff\)"):
        AtomicPersister.load_cassette(path, yamlserializer)


def test_a_produced_by_stamp_that_is_not_json_is_named(tmp_path):
    good = next((BUNDLED_CASSETTES / "lexbench-sample" / "local").glob("*.yaml")).read_text()
    data = yaml.safe_load(good)
    data["interactions"][0]["response"]["headers"]["x-wsb-produced-by"] = ["{corpus: sha"]
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(
        UnreadableCassetteError,
        match=r"interactions\[0\]\.response\.headers\.x-wsb-produced-by '\{corpus: sha' is not a JSON",
    ):
        AtomicPersister.load_cassette(path, yamlserializer)
