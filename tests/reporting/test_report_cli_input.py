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
    "5000-digit k": (_huge_k, "field 'k': expected a whole number from 1, got a 5,000-digit number"),
    "k of 0": (_set("k", 0), "field 'k': expected a whole number from 1, got 0"),
    "Infinity metric": (
        _set("items.0.metrics.ndcg", float("inf")),
        f"item 0 ({FIRST}): field 'metrics.ndcg': expected a finite number, got inf",
    ),
    "huge metric": (
        _set("items.0.metrics.ndcg", 10**400),
        f"item 0 ({FIRST}): field 'metrics.ndcg': expected a finite number",
    ),
    "suite as a string": (
        _set(f"suites.{GOOD['items'][0]['suite']}", "code"),
        f"field 'suites.{GOOD['items'][0]['suite']}': expected an object, got 'code'",
    ),
    "suite edition as a number": (
        _set(f"suites.{GOOD['items'][0]['suite']}.edition", 3),
        f"suites.{GOOD['items'][0]['suite']}: field 'edition': expected a string, got 3",
    ),
    "kind as a number": (_set("items.0.kind", 7), f"item 0 ({FIRST}): field 'kind': expected a string, got 7"),
    "provider name as a number": (_set("providers", [1]), "field 'providers[0]': expected a string, got 1"),
    "duplicated item": (
        lambda d: json.dumps({**d, "items": d["items"] + [d["items"][0]]}),
        f"item {len(GOOD['items'])} ({FIRST}): the same suite, case and provider as item 0",
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
