"""wsb-report reads results files written by hand or by other tools: a value of the wrong type or out of
any range is one line naming the file and the field (exit 2), never a traceback, and an item listed
twice is refused, not counted twice."""

from __future__ import annotations

import copy
import json

import pytest

from conftest import REPO
from pytest_websearchbench import report as cli

GOOD = json.loads((REPO / "suites" / "baseline-local.json").read_text("utf-8"))
FIRST = f"{GOOD['items'][0]['suite']}/{GOOD['items'][0]['case_id']}[{GOOD['items'][0]['provider']}]"


def _huge_k(document: dict) -> str:
    text = json.dumps(document)
    return text.replace('"k": 5', '"k": ' + "9" * 5000, 1)


def _set(path: str, value) -> callable:
    def change(document: dict) -> str:
        *parents, last = path.split(".")
        target = document
        for name in parents:
            target = target[int(name)] if isinstance(target, list) else target[name]
        target[last] = value
        return json.dumps(document)

    return change


CASES = {
    "5000-digit k": (_huge_k, "field 'k': a 5,000-digit number is not of type 'integer'"),
    "k of 0": (_set("k", 0), "field 'k': 0 is less than the minimum of 1"),
    "Infinity metric": (
        _set("items.0.metrics.ndcg", float("inf")),
        f"item '{FIRST}' field 'metrics.ndcg': Infinity is not of type 'number'",
    ),
    "huge metric": (
        _set("items.0.metrics.ndcg", 10**400),
        f"item '{FIRST}' field 'metrics.ndcg': a 401-digit number is not of type 'number'",
    ),
    "suite as a string": (
        _set(f"suites.{GOOD['items'][0]['suite']}", "code"),
        f"field 'suites.{GOOD['items'][0]['suite']}': 'code' is not of type 'object'",
    ),
    "suite edition as a number": (
        _set(f"suites.{GOOD['items'][0]['suite']}.edition", 3),
        f"field 'suites.{GOOD['items'][0]['suite']}.edition': 3 is not of type 'string', 'null'",
    ),
    "kind as a number": (_set("items.0.kind", 7), f"item '{FIRST}' field 'kind': 7 is not of type 'string', 'null'"),
    "provider name as a number": (_set("providers", [1]), "field 'providers.0': 1 is not of type 'string'"),
    "duplicated item": (
        lambda d: json.dumps({**d, "items": d["items"] + [d["items"][0]]}),
        f"item '{FIRST}': items[{len(GOOD['items'])}] has the same suite, case and provider as items[0]",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_value_is_one_line_naming_the_file_and_the_field(case, tmp_path, capsys):
    make, message = CASES[case]
    path = tmp_path / "results.json"
    path.write_text(make(copy.deepcopy(GOOD)), "utf-8")
    assert cli.main([str(path), "-o", str(tmp_path / "out.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"report: {path}") and message in err, err
    assert not (tmp_path / "out.html").exists()


@pytest.mark.e2e
def test_the_good_file_still_makes_the_report(tmp_path, capsys):
    assert cli.main([str(REPO / "suites" / "baseline-local.json"), "-o", str(tmp_path / "out.html")]) == 0
    assert f"{len(GOOD['items'])} items from 1 file" in capsys.readouterr().out
