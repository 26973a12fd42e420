"""Every family's drill-down, drawn from a real run of that family (the bundled suites, replayed): a family
that stops providing one, or whose view loses what it shows, fails here (the WebBench view once went
missing for a whole release and only a reader of the report would have noticed)."""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser

import pytest

from pytest_websearchbench.reporting.html.render import _number, render_drilldown
from pytest_websearchbench.run.registry import FAMILIES


class _Rows(HTMLParser):
    """The body rows of each table, by the table's class, and the text of the fragment."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[list[str]]] = {}
        self.text: list[str] = []
        self._table: list[str] = []
        self._in_head = False
        self._cells: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table.append(attrs.get("class") or "")
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr" and self._table and not self._in_head:
            self._cells = []
            self.rows.setdefault(self._table[-1], []).append(self._cells)
        elif tag == "td" and self._cells is not None:
            self._cells.append("")

    def handle_endtag(self, tag):
        if tag == "table" and self._table:
            self._table.pop()
        elif tag == "thead":
            self._in_head = False
        elif tag == "tr":
            self._cells = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cells:
            self._cells[-1] += data


def _drawn(family: str, item: dict) -> _Rows:
    html = render_drilldown(FAMILIES[family], item)
    assert 'class="family-drilldown' in html, f"{family} draws no drill-down for {item['case_id']}"
    assert "drill-down unavailable" not in html and "error" not in re.findall(r'class="([^"]*)"', html)
    parsed = _Rows()
    parsed.feed(str(html))
    return parsed


@pytest.fixture(scope="module")
def items_by_family(bundled_run) -> dict[str, list[dict]]:
    document = json.loads(bundled_run["results"].read_text("utf-8"))
    found: dict[str, list[dict]] = {}
    for item in document["items"]:
        found.setdefault(item["family"], []).append(item)
    return found


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_ships_a_bundled_suite_and_a_drill_down(items_by_family, family):
    assert items_by_family.get(family), f"the bundled suites hold no {family} item: a family ships one"
    for item in items_by_family[family]:
        _drawn(family, item)


def test_a_webbench_task_shows_its_webscore_every_gate_and_leaf_and_every_step(items_by_family):
    for item in items_by_family["webbench"]:
        verdict = item["results"][0]["verdict"]
        drawn = _drawn("webbench", item)
        text = " ".join("".join(drawn.text).split())
        assert f"WebScore {verdict['webscore']:.1f}" in text or f"WebScore {verdict['webscore']:g}" in text
        parts = [
            [
                p["kind"],
                p["name"],
                _number(p["value"]),
                "gate" if p["kind"] == "gate" else str(p["weight"]),
                " ".join((p.get("detail") or "-").split()),
            ]
            for p in verdict["gates"] + verdict["leaves"]
        ]
        assert [[*row[:4], " ".join(row[4].split())] for row in drawn.rows["gates"]] == parts
        mode = item["results"][0].get("failure_mode") or verdict.get("failure_mode") or "-"
        assert f"failure mode {mode}" in text
        assert len(drawn.rows["steps"]) == len(item["raw"]["extra"]["log"]) == item["metrics"]["steps"]
        assert [row[1] for row in drawn.rows["steps"]] == [s["action"] for s in item["raw"]["extra"]["log"]]


@pytest.mark.parametrize(
    "sandbox, shown",
    [
        ("bwrap", "· in bwrap"),
        ("none: bwrap is not installed", "· UNSANDBOXED (bwrap is not installed)"),
        (
            "bwrap; UNSANDBOXED NETWORK (--wsb-agent-net=host)",
            "· in bwrap · UNSANDBOXED NETWORK (--wsb-agent-net=host)",
        ),
    ],
)
def test_a_program_agents_item_says_how_it_was_confined(items_by_family, sandbox, shown):
    item = copy.deepcopy(items_by_family["webbench"][0])
    program = {"command": "./agent.sh", "exit_code": 0, "seconds": 1.5, "stdout_tail": "", "stderr_tail": ""}
    item["raw"]["extra"]["details"] = {**program, "sandbox": sandbox}
    text = " ".join("".join(_drawn("webbench", item).text).split())
    assert f"program ./agent.sh · exit 0 · 1.50 s {shown}" in text
    html = str(render_drilldown(FAMILIES["webbench"], item))
    assert ('<span class="bad">UNSANDBOXED' in html) == (sandbox != "bwrap")


def test_a_lexbench_query_shows_each_scored_result(items_by_family):
    for item in items_by_family["lexbench"]:
        drawn = _drawn("lexbench", item)
        assert len(drawn.rows.get("topk", [])) == len(item["results"])
        text = "".join(drawn.text)
        assert all(row["url"] in text for row in item["results"])
        assert all(row["snippet"] in text for row in item["results"] if row.get("snippet"))


def test_a_lexbench_query_from_a_file_without_answers_says_where_its_previews_went(items_by_family):
    from pytest_websearchbench.reporting.results import ItemRecord

    checked = 0
    for item in items_by_family["lexbench"]:
        lean = ItemRecord.from_dict(item).to_dict(shared_previews=True, answers=False)  # as the run writes it
        results = lean["results"]
        drawn = _drawn("lexbench", {**item, **lean})
        text = "".join(drawn.text)
        assert len(drawn.rows.get("topk", [])) == len(results)
        assert all(row["url"] in text for row in results)
        answered = [
            row
            for row in item["results"]
            if row.get("snippet") and "snippet" not in next(r for r in results if r["rank"] == row["rank"])
        ]
        assert not any(row["snippet"] in text for row in answered)
        assert text.count("written without --wsb-json-raw") == len(answered)
        checked += bool(answered)
    assert checked > 50  # the scenario and factual items that scored rows


def test_a_code_ticket_shows_every_needle_with_where_it_was_found(items_by_family):
    for item in items_by_family["code"]:
        drawn = _drawn("code", item)
        needles = [row for row in item["results"] if "needle" in row]
        assert [row[0] for row in drawn.rows["needles"]] == [row["needle"] for row in needles]
        assert [row[2] for row in drawn.rows["needles"]] == ["yes" if row["found"] else "no" for row in needles]
        assert "budgets used: fetches 0, searches 1" in " ".join("".join(drawn.text).split())
        assert "written without --wsb-json-raw" not in "".join(drawn.text)


def test_a_code_ticket_from_a_file_without_answers_says_its_hits_are_not_kept(items_by_family):
    from pytest_websearchbench.reporting.results import ItemRecord

    for item in items_by_family["code"]:
        lean = ItemRecord.from_dict(item).to_dict(shared_previews=True, answers=False)  # as the run writes it
        drawn = _drawn("code", {**item, **lean})
        text = " ".join("".join(drawn.text).split())
        assert "not in the results file: it was written without --wsb-json-raw" in text
        assert "topk" not in drawn.rows and " 0 hits" not in text  # no hits shown, and none claimed absent
        needles = [row for row in item["results"] if "needle" in row]
        assert [row[0] for row in drawn.rows["needles"]] == [row["needle"] for row in needles]
