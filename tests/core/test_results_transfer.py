"""Each part of an item's result travels once: the run (with the raw answers) on its setup report, the
score and the baseline verdict on its call report; every report names the item. pytest copies an item's
user properties into all three of its reports, and xdist sent every copy to the controller."""

from __future__ import annotations

import json

import pytest


class _Reports:
    """The wsb_* properties of every report the (controller's) session receives."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], list[str]] = {}

    def pytest_runtest_logreport(self, report) -> None:
        self.seen[report.nodeid, report.when] = sorted(name for name, _ in report.user_properties
                                                       if name.startswith("wsb_"))


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["n0", "n2"])
def test_each_part_of_a_result_travels_once(pytester, tiny_suite, workers):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)  # records the cassettes
    args = ["suites", "--wsb-record-mode=none"]
    pytester.runpytest(*args, "--wsb-json=single.json").assert_outcomes(passed=3, failed=1)
    reports = _Reports()
    pytester.runpytest(*args, "--wsb-json=out.json", *workers, plugins=[reports]).assert_outcomes(passed=3, failed=1)
    assert len(reports.seen) == 12
    for (nodeid, when), names in reports.seen.items():
        assert names == {"setup": ["wsb_item", "wsb_run"], "call": ["wsb_item", "wsb_score"],
                         "teardown": ["wsb_item"]}[when], (nodeid, when)
    # nothing the results file held is lost: the same items as a run that never left one process
    single, out = (_items(pytester.path / name) for name in ("single.json", "out.json"))
    assert out == single and out[0]["raw"] and out[0]["results"] and out[0]["calls"]


def _items(path) -> list[dict]:
    """The results file's items without the wall time of each call (the one field that differs run to run)."""
    items = json.loads(path.read_text())["items"]
    for item in items:
        item["calls"] = [{key: value for key, value in call.items() if key != "wall_seconds"} for call in item["calls"]]
    return items
