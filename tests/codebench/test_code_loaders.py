"""Loading code tickets: needles and their origins, the row and catalog formats, and bad input."""

from __future__ import annotations

import json

import pytest
from code_support import ROW, write_jsonl, write_rows

from pytest_websearchbench.codebench.needles import case_needles, code_tokens, derive_needles
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.codebench.tasks import Budgets, load_tasks

FAST = ("-p", "no:hypothesispytest")

# --------------------------------------------------------------------------- needles


def test_explicit_needles_are_required_plus_query_forbidden_with_their_origin():
    needles = case_needles(required=["mark_resolved", "DAP"], query_forbidden=["mark_resolved", "close_ticket"])
    assert [(n.text, n.source) for n in needles] == [("mark_resolved", "required"), ("close_ticket", "query_forbidden")]


def test_needles_are_derived_from_what_gold_has_and_starter_lacks():
    gold = 'def f(t):\n    """Resolve it."""\n    return desk.tickets.mark_resolved(t, code="workaround_applied", terms="DAP")\n'
    starter = "def f(t):\n    return desk.tickets.close(t, code=None)\n"
    assert derive_needles(gold, starter) == ["mark_resolved", "workaround_applied", "terms"]
    needles = case_needles(required=None, query_forbidden=["closing"], gold_code=gold, starter_code=starter)
    assert [n.source for n in needles] == ["derived"] * 3 + ["query_forbidden"]


def test_derivation_reads_identifiers_and_literals_but_not_keywords_docstrings_or_comments():
    code = ('import acme.desk as ad\nfrom acme.sdk import Client\n\nclass Helper:\n    """A docstring."""\n'
            '    def run(self, *, token):\n        global LIMIT  # a comment\n        return f"/v2/{token}/resolve"\n')
    tokens = code_tokens(code)
    assert {"acme", "desk", "sdk", "Client", "Helper", "run", "self", "token", "LIMIT", "/v2/", "/resolve"} <= set(tokens)
    assert not {"import", "return", "class", "A docstring.", "a comment"} & set(tokens)


def test_a_needle_the_starter_already_contains_is_not_derived():
    assert derive_needles("client.resolve_all(x)", "client.resolve_all_later(x)") == []


# --------------------------------------------------------------------------- the row format


def test_rows_load_with_defaults_and_overrides(tmp_path):
    path = write_rows(tmp_path / "eval.jsonl", [{}, {"required": ["bulk_onboard"], "cite_urls": False,
                                                     "budgets": {"searches": 2}, "gold_code": "hr.bulk_onboard(x)"}])
    first, second = load_tasks(path)
    assert first.task_id == "acme-001" and first.cite_urls and first.budgets == Budgets()
    assert [n.text for n in first.needles] == ["mark_resolved", "resolution_code", "workaround_applied"]
    assert second.needle_texts == ["bulk_onboard"] and not second.cite_urls
    assert second.budgets == Budgets(searches=2) and second.budgets.turns == 32
    assert first.where == f"{path}:1" and second.where == f"{path}:2"


def test_a_json_array_of_rows_loads_too(tmp_path):
    path = tmp_path / "eval.json"
    path.write_text(json.dumps([ROW]))
    assert [t.task_id for t in load_tasks(path)] == ["acme-001"]


@pytest.mark.parametrize("change, line, field, message", [
    ({"ticket": None}, 2, "ticket", "'ticket' is a required property"),
    ({"required": "mark_resolved"}, 2, "required", "is not of type 'array'"),
    ({"cite_urls": "yes"}, 2, "cite_urls", "is not of type 'boolean'"),
    ({"budgets": {"searches": -1}}, 2, "budgets.searches", "less than the minimum of 0"),
    ({"budgets": {"tokens": 5}}, 2, "budgets", "Additional properties are not allowed"),
    ({"task_id": "acme 2"}, 2, "task_id", "does not match"),
    ({"task_id": "acme-001"}, 2, "task_id", "duplicate task_id (first on line 1)"),
    ({"required": ["DAP", "v2"]}, 2, "required", "no needles"),
    ({"required": None, "gold_code": ROW["starter_code"]}, 2, "gold_code", "no needles"),
    ({"required": None, "gold_code": "def f(:\n"}, 2, "gold_code", "gold_code does not parse"),
])
def test_a_bad_row_names_file_line_item_and_field(tmp_path, change, line, field, message):
    path = write_rows(tmp_path / "eval.jsonl", [{}, change])
    with pytest.raises(SuiteError) as info:
        load_tasks(path)
    error = info.value
    assert (error.path, error.line, error.field) == (str(path), line, field)
    assert message in str(error) and str(error).startswith(f"{path}:{line}:")
    if change.get("task_id", "x") != "acme 2":
        assert error.item == change.get("task_id", "acme-002")


def test_invalid_json_on_a_line_is_an_error_naming_it(tmp_path):
    path = write_rows(tmp_path / "eval.jsonl", [{}, {}])
    path.write_text(path.read_text() + '{"task_id": \n')
    with pytest.raises(SuiteError, match=r"eval.jsonl:3: invalid JSON"):
        load_tasks(path)


# --------------------------------------------------------------------------- the catalog format


def make_catalog(root, items, defaults=None):
    for item in items:
        folder = root / item.get("dir", item["task_id"])
        outfile = item.get("outfile", (defaults or {}).get("outfile", "solution.py"))
        (folder / "starter").mkdir(parents=True, exist_ok=True)
        (folder / "gold").mkdir(parents=True, exist_ok=True)
        (folder / "prompt.txt").write_text("Resolve tickets fixed by a workaround.\n")
        (folder / "starter" / outfile).write_text(ROW["starter_code"])
        (folder / "gold" / outfile).write_text(ROW["gold_code"])
    path = root / "catalog.json"
    document = {"defaults": defaults or {}, "items": items}
    path.write_text(json.dumps(document, indent=2))
    return path


def test_catalog_items_read_their_files_and_merge_defaults(tmp_path):
    path = make_catalog(tmp_path, [{"task_id": "acme-001"}, {"task_id": "acme-002", "dir": "second",
                                                              "budgets": {"fetches": 1}, "outfile": "fix.py"}],
                        defaults={"vendor": "Acme Desk", "budgets": {"searches": 3}, "cite_urls": False})
    first, second = load_tasks(path)
    assert first.ticket == "Resolve tickets fixed by a workaround." and first.vendor == "Acme Desk"
    assert first.gold_code == ROW["gold_code"] and not first.cite_urls
    assert first.budgets == Budgets(searches=3) and second.budgets == Budgets(searches=3, fetches=1)
    assert second.outfile == "fix.py" and second.needle_texts == ["mark_resolved", "resolution_code",
                                                                   "workaround_applied"]


def test_catalog_errors_name_the_items_line_and_field(tmp_path):
    path = make_catalog(tmp_path, [{"task_id": "acme-001"}, {"task_id": "acme-002", "cite_urls": "no"}],
                        defaults={"vendor": "Acme"})
    with pytest.raises(SuiteError) as info:
        load_tasks(path)
    lines = path.read_text().splitlines()
    line = [n for n, text in enumerate(lines, start=1) if text == "    {"][1]  # the second item's opening brace
    assert (info.value.line, info.value.field, info.value.item) == (line, "items.1.cite_urls", "acme-002")

    path = make_catalog(tmp_path, [{"task_id": "acme-001"}])  # no vendor anywhere
    with pytest.raises(SuiteError, match=r"catalog.json:\d+: item 'acme-001' field 'items.0.vendor'"):
        load_tasks(path)

    path = make_catalog(tmp_path, [{"task_id": "acme-001", "vendor": "Acme"}])
    (tmp_path / "acme-001" / "gold" / "solution.py").unlink()
    with pytest.raises(SuiteError, match=r"field 'items.0.dir': acme-001/gold/solution.py not found"):
        load_tasks(path)


# --------------------------------------------------------------------------- collection (pytester)


def test_a_bare_eval_jsonl_is_collected_as_a_suite_told_from_its_fields(pytester):
    write_rows(pytester.path / "downloads" / "eval.jsonl", [{}, {"task_id": "acme-007"}])
    result = pytester.runpytest(*FAST, "--suite", "downloads/eval.jsonl", "--co", "-q")
    result.stdout.fnmatch_lines(["downloads/eval.jsonl::acme-001[[]local[]]", "downloads/eval.jsonl::acme-007[[]local[]]",
                                 "*2 tests collected*"])
    marked = pytester.runpytest(*FAST, "--suite", "downloads/eval.jsonl", "--co", "-q", "-m", "code and vendor_acme_desk",
                                "--provider=local,serper")
    marked.stdout.fnmatch_lines(["*4 tests collected*"])


def test_a_bad_row_is_a_collection_error_naming_file_line_and_field(pytester):
    write_rows(pytester.path / "eval.jsonl", [{}, {}, {"starter_code": 42}])
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--co", "-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*ERROR collecting eval.jsonl*",
                                 "*invalid suite: */eval.jsonl:3: item 'acme-003' field 'starter_code': "
                                 "42 is not of type 'string'*"])


def test_a_file_that_is_no_known_suite_says_what_it_expected(pytester):
    write_jsonl(pytester.path / "other.jsonl", [{"question": "q", "answer": "a"}])
    result = pytester.runpytest(*FAST, "--suite", "other.jsonl", "--co", "-q")
    result.stdout.fnmatch_lines(["*other.jsonl:1: no suite.json and the first record's fields "
                                 "[[]'answer', 'question'[]] match no family's row format (code rows have task_id*"])


def test_the_bundled_suite_and_its_files_are_addressable(pytester):
    by_name = pytester.runpytest(*FAST, "--suite", "code-sample", "--co", "-q")
    by_name.stdout.fnmatch_lines(["*::quillon-001[[]local[]]", "*32 tests collected*"])
    from pytest_websearchbench.core.suites import BUNDLED_SUITES_DIR

    for spec in ("suite.json", "eval.jsonl"):  # a file of a suite folder stands for the folder
        result = pytester.runpytest(*FAST, "--suite", str(BUNDLED_SUITES_DIR / "code-sample" / spec), "--co", "-q")
        result.stdout.fnmatch_lines(["*32 tests collected*"])
