"""Bad suite files are collection errors that name the file, line, item and field."""

from __future__ import annotations

import json

import pytest


def run_collect(pytester):
    return pytester.runpytest("suites", "--co", "-q")


def replace_line(path, number, text):
    lines = path.read_text().splitlines()
    lines[number - 1] = text
    path.write_text("\n".join(lines) + "\n")


def test_invalid_json_line(pytester, tiny_suite):
    replace_line(tiny_suite / "items.jsonl", 2, '{"id": "t2", "query": ')
    result = run_collect(pytester)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*ERROR collecting suites/tiny*",
            "*invalid suite: */suites/tiny/items.jsonl:2: invalid JSON: Expecting value*",
        ]
    )


def test_missing_field_names_line_item_and_field(pytester, tiny_suite):
    record = {"id": "t2", "language": "en", "family": "general"}
    replace_line(tiny_suite / "items.jsonl", 2, json.dumps(record))
    result = run_collect(pytester)
    result.stdout.fnmatch_lines(
        ["*/suites/tiny/items.jsonl:2: item 't2' field 'query': 'query' is a required property*"]
    )


def test_wrong_enum_and_nested_field(pytester, tiny_suite):
    record = {"id": "t3", "query": "q", "language": "en", "family": "news"}
    replace_line(tiny_suite / "items.jsonl", 3, json.dumps(record))
    run_collect(pytester).stdout.fnmatch_lines(["*items.jsonl:3: item 't3' field 'family': 'news' is not one of*"])
    record = {"id": "t3", "query": "q", "language": "en", "family": "general", "requirements": {"after": "May 2024"}}
    replace_line(tiny_suite / "items.jsonl", 3, json.dumps(record))
    run_collect(pytester).stdout.fnmatch_lines(["*items.jsonl:3: item 't3' field 'requirements.after':*"])


def test_duplicate_ids(pytester, tiny_suite):
    replace_line(tiny_suite / "items.jsonl", 4, (tiny_suite / "items.jsonl").read_text().splitlines()[0])
    run_collect(pytester).stdout.fnmatch_lines(
        ["*items.jsonl:4: item 't1' field 'id': duplicate id (first on line 1)*"]
    )


def test_grades_for_unknown_query_and_bad_grade(pytester, tiny_suite):
    grades = tiny_suite / "grades.jsonl"
    replace_line(grades, 2, json.dumps({"query_id": "zz", "url": "https://a.example", "grade": 1, "grader": "x"}))
    run_collect(pytester).stdout.fnmatch_lines(["*grades.jsonl:2: field 'query_id': grade for unknown query id 'zz'*"])
    replace_line(grades, 2, json.dumps({"query_id": "t1", "url": "https://a.example", "grade": 4, "grader": "x"}))
    run_collect(pytester).stdout.fnmatch_lines(["*grades.jsonl:2: field 'grade': 4 is greater than the maximum of 3*"])


def test_bad_manifest(pytester, tiny_suite):
    manifest = tiny_suite / "suite.json"
    data = json.loads(manifest.read_text())
    del data["edition"]
    manifest.write_text(json.dumps(data))
    run_collect(pytester).stdout.fnmatch_lines(["*suites/tiny/suite.json: field 'edition': 'edition' is a required*"])
    data.update(edition="1", family="nosuch")
    manifest.write_text(json.dumps(data))
    run_collect(pytester).stdout.fnmatch_lines(
        ["*suite.json: field 'family': unknown family 'nosuch'; known: *lexbench*"]
    )


def test_missing_items_file(pytester, tiny_suite):
    (tiny_suite / "items.jsonl").unlink()
    run_collect(pytester).stdout.fnmatch_lines(["*suites/tiny/items.jsonl: file not found*"])


def test_unknown_suite_name_is_a_usage_error(pytester):
    result = pytester.runpytest("--suite", "no-such-suite")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*no-such-suite: no such file, folder or bundled suite; bundled suites: *lexbench-sample*"]
    )


# --------------------------------------------------------------------------- hostile or broken files
# Each once gave a traceback or read a file outside the suite's folder.


def assert_one_clean_error(result, *patterns):
    result.stdout.fnmatch_lines(["*ERROR collecting suites/tiny*", *patterns])
    assert "Traceback" not in result.stdout.str() and "Error:" not in result.stdout.str().replace("ERROR", "")


def test_invalid_utf8_names_file_and_line(pytester, tiny_suite):
    items = tiny_suite / "items.jsonl"
    data = items.read_bytes().splitlines(keepends=True)
    data[2] = data[2].replace(b'"t3"', b'"t\xff3"')
    items.write_bytes(b"".join(data))
    assert_one_clean_error(run_collect(pytester), "*/suites/tiny/items.jsonl:3: not valid UTF-8 (byte *")


def test_deep_nesting_and_huge_numbers_are_invalid_json(pytester, tiny_suite):
    items = tiny_suite / "items.jsonl"
    replace_line(items, 2, "[" * 100_000 + "]" * 100_000)
    assert_one_clean_error(run_collect(pytester), "*/suites/tiny/items.jsonl:2: invalid JSON: nested too deeply*")
    replace_line(items, 2, '{"id": "t2", "n": ' + "7" * 5000 + "}")
    assert_one_clean_error(run_collect(pytester), "*/suites/tiny/items.jsonl:2: invalid JSON: Exceeds the limit*")


@pytest.mark.parametrize("target", ["../../outside/secret.jsonl", "/etc/hostname", "link.jsonl"])
def test_a_suite_cannot_name_files_outside_its_folder(pytester, tiny_suite, target):
    outside = pytester.path / "outside"
    outside.mkdir()
    (outside / "secret.jsonl").write_text((tiny_suite / "items.jsonl").read_text())
    (tiny_suite / "link.jsonl").symlink_to(outside / "secret.jsonl")
    manifest = tiny_suite / "suite.json"
    data = json.loads(manifest.read_text())
    data["items"] = target
    manifest.write_text(json.dumps(data))
    assert_one_clean_error(run_collect(pytester), "*suite.json: field 'items': * points outside the suite folder*")


def test_a_huge_path_value_is_a_clean_error(pytester, tiny_suite):
    manifest = tiny_suite / "suite.json"
    data = json.loads(manifest.read_text())
    data["items"] = "x" * 5000 + ".jsonl"
    manifest.write_text(json.dumps(data))
    assert_one_clean_error(run_collect(pytester), "*cannot read the file: File name too long*")


def test_ids_are_bounded_and_file_name_safe(pytester, tiny_suite):
    items = tiny_suite / "items.jsonl"
    record = json.loads(items.read_text().splitlines()[1])
    replace_line(items, 2, json.dumps({**record, "id": "q" * 301}))
    assert_one_clean_error(
        run_collect(pytester), "*/suites/tiny/items.jsonl:2: item 'q*' field 'id': an id has at most 128 characters*"
    )
    for bad in ("../escape", "a b"):
        replace_line(items, 2, json.dumps({**record, "id": bad}))
        assert_one_clean_error(run_collect(pytester), f"*/suites/tiny/items.jsonl:2: item '{bad}' field 'id': *")


def test_an_empty_suite_is_an_error_not_zero_tests(pytester, tiny_suite):
    (tiny_suite / "items.jsonl").write_text("\n")
    assert_one_clean_error(
        run_collect(pytester), "*/suites/tiny/items.jsonl: holds no records (the file is empty or every line is blank)*"
    )


def test_family_files_naming_paths_outside_are_one_line_collection_errors(pytester):
    # a WebBench task's contract and a code catalog's outfile: each family's own path-valued fields
    import shutil

    from conftest import REPO

    webbench = pytester.path / "suites" / "wb"
    shutil.copytree(REPO / "suites" / "webbench-sample", webbench)
    manifest = json.loads((webbench / "suite.json").read_text())
    (webbench / "suite.json").write_text(json.dumps({**manifest, "name": "wb"}))
    toml = webbench / "wb-workplace-workplace-004-open-points-038e07-s1" / "task.toml"
    toml.write_text(toml.read_text().replace('contract = "tests/contract.json"', 'contract = "../../../../etc/passwd"'))
    catalog = pytester.path / "suites" / "cat"
    for sub in ("starter", "gold"):
        (catalog / "t1" / sub).mkdir(parents=True)
    (catalog / "t1" / "prompt.txt").write_text("Fix it.")
    (catalog / "catalog.json").write_text(
        json.dumps({"items": [{"id": "t1", "outfile": "../../outside.py", "required": ["new_call"]}]}, indent=1)
    )
    (catalog / "suite.json").write_text(
        json.dumps({"name": "cat", "edition": "1", "family": "code", "items": "catalog.json"})
    )
    result = run_collect(pytester)
    result.stdout.fnmatch_lines(
        [
            "*ERROR collecting suites/cat*",
            "*/suites/cat/catalog.json:3: item 't1' field 'items.0.outfile': expected a relative file name (no '..', "
            "not absolute), got '../../outside.py'",
            "*ERROR collecting suites/wb*",
            "*/suites/wb/wb-workplace-workplace-004-open-points-038e07-s1/task.toml: item 'wb-workplace-workplace-004-open-points-038e07-s1' field 'metadata.contract': "
            "'../../../../etc/passwd' points outside*",
        ]
    )
    assert "Traceback" not in result.stdout.str() and "Error:" not in result.stdout.str().replace("ERROR", "")


@pytest.mark.parametrize("name, text", [("grades.jsonl", "\n"), ("grades.jsonl", ""), ("items.jsonl", "\n\n")])
def test_a_grades_or_items_file_that_holds_no_line_is_a_collection_error(pytester, tiny_suite, name, text):
    (tiny_suite / name).write_text(text)
    result = run_collect(pytester)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [f"*invalid suite: */suites/tiny/{name}: holds no records (the file is empty or every line is blank)*"]
    )
    assert "Traceback" not in result.stdout.str()
