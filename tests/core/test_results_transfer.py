"""Each part of an item's result travels once, on the report of the phase that made it: the run (with the raw
answers) on its setup report, the score and the baseline verdict on its call report; every report names
the item. It travels as a report attribute, so xdist carries it to the controller and JUnit XML never
sees it (an item's user properties are its JUnit properties)."""

from __future__ import annotations

import json

import pytest

from pytest_websearchbench.reporting.junit import IDENTITY
from pytest_websearchbench.reporting.results import REPORT_PAYLOAD


class _Reports:
    """What every benchmark report the (controller's) session receives carries."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], list[str]] = {}
        self.properties: dict[tuple[str, str], list[str]] = {}

    def pytest_runtest_logreport(self, report) -> None:
        payload = getattr(report, REPORT_PAYLOAD, None)
        if payload is not None:
            self.seen[report.nodeid, report.when] = sorted(payload)
            self.properties[report.nodeid, report.when] = list(report.user_properties)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["n0", "n2"])
@pytest.mark.e2e
def test_each_part_of_a_result_travels_once(pytester, tiny_suite, workers):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)  # records the cassettes
    args = ["suites", "--wsb-record-mode=none"]
    pytester.runpytest(*args, "--wsb-json=single.json").assert_outcomes(passed=3, failed=1)
    reports = _Reports()
    pytester.runpytest(*args, "--wsb-json=out.json", *workers, plugins=[reports]).assert_outcomes(passed=3, failed=1)
    assert len(reports.seen) == 12
    for (nodeid, when), parts in reports.seen.items():
        assert parts == {"setup": ["item", "run"], "call": ["item", "score"], "teardown": ["item"]}[when], (
            nodeid,
            when,
        )
        # the user properties are JUnit's flat ones only: the identity, then metrics as JSON numbers
        properties = reports.properties[nodeid, when]
        assert [name for name, _ in properties[:4]] == list(IDENTITY), (nodeid, when)
        assert all(isinstance(json.loads(value), float) for _, value in properties[4:]), (nodeid, when)
    # nothing the results file held is lost: the same items as a run that never left one process
    single, out = (_items(pytester.path / name) for name in ("single.json", "out.json"))
    assert out == single and out[0]["raw"] and out[0]["results"] and out[0]["calls"]


def _items(path) -> list[dict]:
    """The results file's items without the wall time of each call (the one field that differs run to run)."""
    items = json.loads(path.read_text())["items"]
    for item in items:
        item["calls"] = [{key: value for key, value in call.items() if key != "wall_seconds"} for call in item["calls"]]
    return items
