"""Loading code tickets: needles and their origins, the row and catalog formats, and bad input."""

from __future__ import annotations

import json

import pytest
from code_support import PROMPT, ROW, write_catalog, write_jsonl, write_rows

from pytest_websearchbench.codebench.needles import case_needles, code_tokens, derive_needles
from pytest_websearchbench.codebench.tasks import Budgets, load_tasks
from pytest_websearchbench.core.exceptions import SuiteError

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


def test_derivation_reads_the_api_surface_not_keywords_docstrings_or_comments():
    code = (
        'import acme.desk as ad\nfrom acme.sdk import Client\n\nclass Helper:\n    """A docstring."""\n'
        '    def run(self, *, token):\n        global LIMIT  # a comment\n        return f"/v2/{token}/resolve"\n'
    )
    tokens = code_tokens(code)
    assert {"acme", "desk", "sdk", "Client", "/v2/", "/resolve"} <= set(tokens)
    assert not {"import", "return", "class", "A docstring.", "a comment"} & set(tokens)
    assert not {"ad", "Helper", "run", "self", "token", "LIMIT"} & set(tokens)  # bound by the code itself


def test_derived_needles_are_api_names_keywords_and_literals_never_names_the_code_binds():
    starter = (
        "import requests\n\ndef sync(incident_id, path):\n    return requests.post(URL, json={'id': incident_id})\n"
    )
    gold = (
        "import requests\n\ndef sync(incident_id, file_path):\n    payload = {'evidence': file_path}\n"
        "    incidents = desk.cases.upload_evidence(incident_id, payload, visibility='internal_only', "
        "retries=3)\n    for record in incidents:\n        record.attached = True\n"
        "    helper(record, record_mode='strict')\n    return requests.post(URL + '/v2/evidence', timeout=30.5)\n\n"
        "def helper(item, record_mode):\n    return item.attached\n"
    )
    assert derive_needles(gold, starter) == [
        "evidence",
        "cases",
        "upload_evidence",
        "visibility",
        "internal_only",
        "retries",
        "strict",
        "/v2/evidence",
        "timeout",
        "30.5",
    ]
    # local names (payload, file_path, incidents, record), the code's own functions and their keywords
    # (helper, record_mode) and attributes it assigns (attached) are no needles; literals always are


def test_a_needle_the_starter_already_contains_is_not_derived():
    assert derive_needles("client.resolve_all(x)", "client.resolve_all_later(x)") == []


# --------------------------------------------------------------------------- the row format


def test_rows_load_with_defaults_and_overrides(tmp_path):
    path = write_rows(
        tmp_path / "eval.jsonl",
        [
            {},
            {
                "required": ["bulk_onboard"],
                "cite_urls": False,
                "budgets": {"searches": 2},
                "gold_code": "hr.bulk_onboard(x)",
            },
        ],
    )
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


@pytest.mark.parametrize(
    "change, line, field, message",
    [
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
    ],
)
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


def test_catalog_items_read_their_files_and_merge_defaults(tmp_path):
    path = write_catalog(
        tmp_path,
        [
            {"id": "sn_resolve", "max_searches": 3, "vendor": "Acme Desk"},
            {"id": "sn_second", "outfile": "fix.py", "max_fetches": 1, "max_turns": 0, "hops": ["x"], "docs": []},
        ],
        defaults={"outfile": "sync.py", "max_searches": 4, "cite_urls": False, "repo": "acme/desk"},
    )
    first, second = load_tasks(path)
    assert first.prompt == PROMPT.replace("\r\n", "\n")  # the file's text, unchanged (read as text)
    assert first.ticket == first.prompt.strip() and first.vendor == "Acme Desk" and second.vendor == ""
    assert first.gold_code == ROW["gold_code"] and first.outfile == "sync.py" and not first.cite_urls
    assert first.budgets == Budgets(searches=3) and second.budgets == Budgets(searches=4, fetches=1)  # 0: the default
    assert second.outfile == "fix.py" and second.needle_texts == [
        "mark_resolved",
        "resolution_code",
        "workaround_applied",
    ]


def test_a_yaml_catalog_and_an_items_own_prompt(tmp_path):
    path = write_catalog(
        tmp_path,
        [
            {
                "id": "sn_resolve",
                "prompt": "Use the v2 call.",
                "required": ["mark_resolved"],
                "query_forbidden": ["mark_resolved", "resolution_code"],
            }
        ],
        defaults={"outfile": "solution.py"},
        yaml_format=True,
        prompts=False,
    )
    (task,) = load_tasks(path)
    assert (task.prompt, task.needle_texts, task.query_forbidden) == (
        "Use the v2 call.",
        ["mark_resolved", "resolution_code"],
        ("mark_resolved", "resolution_code"),
    )
    assert task.where == f"{path}:4"


@pytest.mark.parametrize("yaml_format", [False, True])
def test_catalog_errors_name_the_items_line_and_field(tmp_path, yaml_format):
    path = write_catalog(
        tmp_path,
        [{"id": "sn_a"}, {"id": "sn_b", "cite_urls": "no"}],
        defaults={"outfile": "s.py"},
        yaml_format=yaml_format,
    )
    with pytest.raises(SuiteError) as info:
        load_tasks(path)
    lines = path.read_text().splitlines()
    opening = "    {" if not yaml_format else "- id: sn_b"
    line = [n for n, text in enumerate(lines, start=1) if text == opening][-1]
    assert (info.value.line, info.value.field, info.value.item) == (line, "items.1.cite_urls", "sn_b")

    path = write_catalog(tmp_path / "b", [{"id": "sn_a"}], yaml_format=yaml_format)  # no outfile anywhere
    with pytest.raises(SuiteError, match=r"item 'sn_a' field 'items.0.outfile': 'outfile' is a required property"):
        load_tasks(path)

    path = write_catalog(tmp_path / "c", [{"id": "sn_a", "outfile": "s.py"}], yaml_format=yaml_format, prompts=False)
    with pytest.raises(SuiteError, match=r"field 'items.0.prompt': no prompt: sn_a/prompt.txt is missing"):
        load_tasks(path)
    (tmp_path / "c" / "sn_a" / "prompt.txt").write_text("Fix it.")
    (tmp_path / "c" / "sn_a" / "gold" / "s.py").unlink()
    with pytest.raises(SuiteError, match=r"field 'items.0.outfile': sn_a/gold/s.py not found"):
        load_tasks(path)


@pytest.mark.parametrize(
    "outfile",
    ["../outside.py", "../../outside.py", "sub/../../gold/s.py", "/etc/passwd", "C:\\x.py", "sub\\..\\..\\x.py"],
)
def test_an_outfile_that_is_absolute_or_climbs_out_is_refused_naming_line_item_and_field(tmp_path, outfile):
    path = write_catalog(tmp_path, [{"id": "sn_a", "outfile": "s.py"}, {"id": "sn_b", "outfile": "s.py"}])
    document = json.loads(path.read_text())
    document["items"][1]["outfile"] = outfile
    path.write_text(json.dumps(document, indent=2))
    with pytest.raises(SuiteError) as info:
        load_tasks(path)
    line = [n for n, text in enumerate(path.read_text().splitlines(), start=1) if text == "    {"][-1]
    assert (info.value.path, info.value.line, info.value.item, info.value.field) == (
        str(path),
        line,
        "sn_b",
        "items.1.outfile",
    )
    assert "expected a relative file name (no '..', not absolute)" in str(info.value)


def test_a_file_outside_the_catalog_never_becomes_a_prompt_or_a_needle(tmp_path):
    secret = tmp_path / "outside"
    secret.mkdir()
    (secret / "prompt.txt").write_text("the private text of a file outside the catalog\n")
    path = write_catalog(tmp_path / "catalog", [{"id": "sn_a", "outfile": "s.py"}], prompts=False)
    (path.parent / "sn_a" / "prompt.txt").symlink_to(secret / "prompt.txt")
    with pytest.raises(SuiteError, match=r"item 'sn_a' field 'items.0.prompt': 'prompt.txt' points outside"):
        load_tasks(path)
    (path.parent / "sn_a" / "prompt.txt").unlink()
    (path.parent / "sn_a" / "prompt.txt").write_text("Fix it.")
    (secret / "s.py").write_text("client.outside_only_api(token)\n")
    (path.parent / "sn_a" / "gold" / "s.py").unlink()
    (path.parent / "sn_a" / "gold" / "s.py").symlink_to(secret / "s.py")
    with pytest.raises(SuiteError, match=r"item 'sn_a' field 'items.0.outfile': 'gold/s.py' points outside"):
        load_tasks(path)


@pytest.mark.parametrize(
    "damage, message",
    [
        (
            lambda folder: (folder / "prompt.txt").write_bytes(b"Fix \xff it."),
            r"field 'items.0.prompt': sn_a/prompt.txt \(the item's prompt\) is not valid UTF-8 \(byte 4",
        ),
        (
            lambda folder: (folder / "starter" / "s.py").write_bytes(b"x = '\xc3'"),
            r"field 'items.0.outfile': sn_a/starter/s.py \(the item's starter code\) is not valid UTF-8",
        ),
        (
            lambda folder: ((folder / "gold" / "s.py").unlink(), (folder / "gold" / "s.py").mkdir()),
            r"field 'items.0.outfile': sn_a/gold/s.py not found \(the item's gold code\)",
        ),
    ],
)
def test_an_unreadable_item_file_is_one_error_naming_the_catalog_line_item_and_field(tmp_path, damage, message):
    path = write_catalog(tmp_path, [{"id": "sn_a", "outfile": "s.py"}])
    damage(tmp_path / "sn_a")
    with pytest.raises(SuiteError, match=message) as info:
        load_tasks(path)
    assert info.value.line == 4 and info.value.item == "sn_a"


def test_an_outfile_too_long_for_a_file_name_is_an_error_not_an_os_error(tmp_path):
    path = write_catalog(tmp_path, [{"id": "sn_a", "outfile": "s.py"}])
    document = json.loads(path.read_text())
    document["items"][0]["outfile"] = "x" * 5000
    path.write_text(json.dumps(document))
    with pytest.raises(SuiteError, match=r"field 'items.0.outfile': a file name has at most 255 characters"):
        load_tasks(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("items:\n- id: sn_a\n  outfile: " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
        ("items:\n- id: sn_a\n  max_turns: " + "9" * 5000 + "\n", "Exceeds the limit"),
    ],
)
def test_a_yaml_catalog_too_deep_or_with_a_huge_number_is_one_error(tmp_path, text, message):
    path = tmp_path / "catalog.yaml"
    path.write_text(text)
    with pytest.raises(SuiteError, match=f"catalog.yaml: invalid YAML: {message}"):
        load_tasks(path)


def test_an_upstream_catalog_item_without_id_says_so(tmp_path):
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps({"items": [{"task_id": "acme-001", "outfile": "s.py"}]}))
    with pytest.raises(SuiteError, match=r"field 'items.0.id': 'id' is a required property"):
        load_tasks(path)


def test_a_rows_prompt_is_its_own_or_the_ticket_then_the_starter_file(tmp_path):
    first, second = load_tasks(write_rows(tmp_path / "eval.jsonl", [{}, {"prompt": "Exactly this.\n"}]))
    assert first.prompt == (f"{ROW['ticket']}\n\nsolution.py:\n```python\n{ROW['starter_code'].rstrip()}\n```\n")
    assert second.prompt == "Exactly this.\n" and second.ticket == ROW["ticket"]


# --------------------------------------------------------------------------- collection (pytester)


def test_a_bare_eval_jsonl_is_collected_as_a_suite_told_from_its_fields(pytester):
    write_rows(pytester.path / "downloads" / "eval.jsonl", [{}, {"task_id": "acme-007"}])
    result = pytester.runpytest(*FAST, "--suite", "downloads/eval.jsonl", "--co", "-q")
    result.stdout.fnmatch_lines(
        [
            "downloads/eval.jsonl::acme-001[[]local[]]",
            "downloads/eval.jsonl::acme-007[[]local[]]",
            "*2 tests collected*",
        ]
    )
    marked = pytester.runpytest(
        *FAST,
        "--suite",
        "downloads/eval.jsonl",
        "--co",
        "-q",
        "-m",
        "code and vendor_acme_desk",
        "--provider=local,serper",
    )
    marked.stdout.fnmatch_lines(["*4 tests collected*"])


def test_a_bad_row_is_a_collection_error_naming_file_line_and_field(pytester):
    write_rows(pytester.path / "eval.jsonl", [{}, {}, {"starter_code": 42}])
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--co", "-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*ERROR collecting eval.jsonl*",
            "*invalid suite: */eval.jsonl:3: item 'acme-003' field 'starter_code': 42 is not of type 'string'*",
        ]
    )


def test_a_file_that_is_no_known_suite_says_what_it_expected(pytester):
    write_jsonl(pytester.path / "other.jsonl", [{"question": "q", "answer": "a"}])
    result = pytester.runpytest(*FAST, "--suite", "other.jsonl", "--co", "-q")
    result.stdout.fnmatch_lines(
        [
            "*other.jsonl:1: no suite.json and the first record's fields "
            "[[]'answer', 'question'[]] match no family's row format (code rows have task_id*"
        ]
    )


def test_the_bundled_suite_and_its_files_are_addressable(pytester):
    by_name = pytester.runpytest(*FAST, "--suite", "code-sample", "--co", "-q")
    by_name.stdout.fnmatch_lines(["*::quillon-001[[]local[]]", "*32 tests collected*"])
    from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR

    for spec in ("suite.json", "eval.jsonl"):  # a file of a suite folder stands for the folder
        result = pytester.runpytest(*FAST, "--suite", str(BUNDLED_SUITES_DIR / "code-sample" / spec), "--co", "-q")
        result.stdout.fnmatch_lines(["*32 tests collected*"])
