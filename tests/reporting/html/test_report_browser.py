"""The bundled suites' report in a real browser: Debian's chromium, headless, driven by Playwright.

One browser for the test process and one report, built once: the bundled suites replayed with --wsb-json
and --wsb-html, then rebuilt by the CLI from that results file with hostile markup and a key planted in a
LexBench snippet. Screenshots of each section are kept under ``$WSB_REPORT_ARTIFACTS`` when set (CI keeps
that folder), else under the test's temporary folder. Without chromium these tests skip, naming the
command that installs it; with CI=true they fail instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from html_support import PLANTED_KEY, build_with_cli, first_scenario, planted, scaled, write_json

from conftest import require_chromium
from pytest_websearchbench.reporting.html.model import Source
from pytest_websearchbench.reporting.html.render import render_report
from pytest_websearchbench.reporting.json_results import RunResults
from pytest_websearchbench.run.registry import FAMILIES
from pytest_websearchbench.webbench.browsing.chromium import CHROMIUM_ENV


def _require_browser() -> None:
    require_chromium("the HTML report cannot be tested in a browser")


@pytest.fixture(scope="session")
def report(bundled_run, tmp_path_factory) -> dict:
    """The report with hostile text in it (built by the CLI from the run's results file), and what it shows."""
    folder = tmp_path_factory.mktemp("report")
    document = planted(json.loads(bundled_run["results"].read_text("utf-8")))
    results = write_json(folder / "results.json", document)
    done = build_with_cli([results], folder / "report.html", env={"SERPER_API_KEY": PLANTED_KEY})
    assert done.returncode == 0, done.stderr
    return {"path": folder / "report.html", "document": document, "run": bundled_run["report"]}


def _open(page, path: Path, fragment: str = "") -> None:
    page.goto(path.as_uri() + fragment)
    page.wait_for_load_state("load")


def _visible_items(page) -> list[str]:
    return page.eval_on_selector_all("tbody.item:not([hidden])", "bodies => bodies.map(b => b.dataset.key)")


def _key(item: dict) -> str:
    return f"{item['suite']}::{item['case_id']}[{item['provider']}]"


def test_both_reports_load_without_errors_or_requests_and_draw_every_chart(page, report, artifacts):
    document = report["document"]
    suites = sorted({i["suite"] for i in document["items"]})
    with_latency = {i["suite"] for i in document["items"] if any(c.get("ok", True) for c in i["calls"])}
    for path in (report["run"], report["path"]):
        page.wsb_console.clear()
        page.wsb_requests.clear()
        _open(page, path)
        assert page.wsb_console == [], (path.name, page.wsb_console)
        assert page.wsb_requests == [path.as_uri()], page.wsb_requests  # the file itself, nothing else
        assert page.locator("article.suite").count() == len(suites)
        assert page.locator("figure.metric-chart svg").count() == len(suites)
        assert page.locator("figure.latency-chart svg").count() == len(with_latency)
        sizes = page.eval_on_selector_all(
            "figure.chart svg",
            """svgs => svgs.map(s => {
            const box = s.getBoundingClientRect();
            return [box.width, box.height, s.querySelectorAll('path, rect, line, use').length]; })""",
        )
        assert sizes and all(w > 100 and h > 50 and shapes > 10 for w, h, shapes in sizes), sizes
    page.locator("#overview").screenshot(path=str(artifacts / "report-overview.png"))
    page.locator("article.suite").nth(suites.index("lexbench-sample")).screenshot(
        path=str(artifacts / "report-overview-lexbench.png")
    )
    assert (artifacts / "report-overview.png").stat().st_size > 10_000


def test_a_drill_down_opens_with_the_items_top_k_and_the_planted_script_stays_text(page, report, artifacts):
    item = first_scenario(report["document"])
    _open(page, report["path"])
    body = page.locator(f'tbody.item[data-key="{_key(item)}"]')
    assert body.locator("tr.drill").is_hidden()
    body.locator("button.open").click()
    drill = body.locator("tr.drill")
    assert drill.is_visible() and f"open={quote(_key(item), safe='')}" in page.url
    drill.locator("table.topk").wait_for()  # the script decompresses the drill-down, then inserts it
    rows = drill.locator("table.topk tbody tr")
    assert rows.count() == len(item["results"]) == report["document"]["k"]
    for position, result in enumerate(item["results"]):
        cells = rows.nth(position).locator("td")
        assert cells.nth(0).inner_text() == str(result["rank"])
        assert cells.nth(1).locator(".title").inner_text() == result["title"]
        assert cells.nth(1).locator(".url").inner_text() == result["url"]
        assert cells.nth(2).inner_text() == str(result["grade"])
        assert cells.nth(3).inner_text() == (
            result.get("grader") or ("-" if result["grade"] is None else "not recorded")
        )
    # the planted markup is on screen as text, and none of it ran or loaded
    assert "<script>window.__wsbInjected = 1</script>" in rows.nth(0).inner_text()
    assert page.evaluate("window.__wsbInjected") is None
    assert drill.locator("script, img").count() == 0
    assert rows.nth(1).locator("a").count() == 0  # the javascript: URL is shown, not linked
    assert PLANTED_KEY not in page.content() and "<FILTERED>" in rows.nth(2).inner_text()
    assert [url for url in page.wsb_requests if not url.startswith("file://")] == []
    drill.screenshot(path=str(artifacts / "report-drilldown.png"))
    # the fragment keeps the view: a fresh page on the same link opens the same item
    link = page.url
    _open(page, report["path"])
    page.goto(link)
    page.reload()
    assert page.locator(f'tbody.item[data-key="{_key(item)}"] tr.drill').is_visible()
    page.locator(f'tbody.item[data-key="{_key(item)}"] tr.drill table.topk').wait_for()
    assert page.wsb_console == []


def test_filters_and_sorting_change_the_visible_rows_and_stay_in_the_link(page, report, artifacts):
    items = report["document"]["items"]
    _open(page, report["path"])
    assert len(_visible_items(page)) == len(items)
    page.select_option("select[name=suite]", "lexbench-sample")
    expected = [_key(i) for i in items if i["suite"] == "lexbench-sample"]
    assert sorted(_visible_items(page)) == sorted(expected)
    assert page.locator("#shown").inner_text() == f"{len(expected)} of {len(items)} items"
    page.select_option("select[name=sort]", "ndcg")
    page.select_option("select[name=order]", "asc")
    shown = _visible_items(page)
    by_key = {_key(i): i for i in items}
    values = [by_key[key]["metrics"]["ndcg"] for key in shown]
    assert values == sorted(values) and values[0] < values[-1]
    failing = [i for i in items if i["outcome"] == "failed"]
    page.select_option("select[name=suite]", "")
    page.select_option("select[name=outcome]", "failed")
    assert sorted(_visible_items(page)) == sorted(_key(i) for i in failing)
    tag = next(t for i in items for t in i.get("tags") or [] if t.startswith("lang_"))
    page.select_option("select[name=outcome]", "")
    page.select_option("select[name=tag]", tag)
    assert sorted(_visible_items(page)) == sorted(_key(i) for i in items if tag in (i.get("tags") or []))
    page.locator("#items").screenshot(path=str(artifacts / "report-items.png"))
    link = page.url
    assert "tag=" in link and "sort=ndcg" in link and "order=asc" in link
    page.goto("about:blank")
    page.goto(link)
    assert sorted(_visible_items(page)) == sorted(_key(i) for i in items if tag in (i.get("tags") or []))
    assert page.locator("select[name=tag]").input_value() == tag
    assert page.wsb_console == []


@pytest.fixture(scope="session")
def long_report(bundled_run, tmp_path_factory) -> dict:
    """The bundled run's items four times over (more than two pages of the list)."""
    document = scaled(json.loads(bundled_run["results"].read_text("utf-8")), 4)
    path = tmp_path_factory.mktemp("long-report") / "report.html"
    path.write_text(render_report([Source("r.json", RunResults.from_dict(document))], FAMILIES), "utf-8")
    return {"path": path, "document": document}


def test_a_long_list_is_drawn_a_page_at_a_time_and_a_link_opens_an_item_on_its_page(page, long_report):
    items = long_report["document"]["items"]
    keys = [_key(i) for i in items]
    _open(page, long_report["path"])
    assert _visible_items(page) == keys[:200] and page.locator("#page").inner_text() == "page 1 of 3"
    assert page.locator("#shown").inner_text() == f"{len(items)} of {len(items)} items"
    page.locator("nav.pager button[data-page='1']").click()
    assert _visible_items(page) == keys[200:400] and "page=2" in page.url
    # sorting orders the whole list, and starts again at its first page
    page.select_option("select[name=sort]", "ndcg")
    page.select_option("select[name=order]", "asc")
    lowest = min(i["metrics"]["ndcg"] for i in items if "ndcg" in i["metrics"])
    first = next(i for i in items if _key(i) == _visible_items(page)[0])
    assert first["metrics"]["ndcg"] == lowest and "page=" not in page.url
    # a link to an item of the last page shows that page with the item open, its own drill-down inserted
    last = items[-1]
    page.goto("about:blank")
    page.goto(long_report["path"].as_uri() + "#open=" + quote(_key(last), safe=""))
    assert page.locator("#page").inner_text() == "page 3 of 3" and _key(last) in _visible_items(page)
    drill = page.locator(f'tbody.item[data-key="{_key(last)}"] tr.drill')
    drill.locator(".drilldown").wait_for()
    assert drill.locator("p.meta").inner_text().startswith(last["nodeid"] + " ")
    assert page.wsb_console == []


def test_a_linked_text_filter_searches_every_compressed_drill_down_case_insensitively(page, long_report):
    from playwright.sync_api import expect  # not wait_for_function: the page's policy forbids eval

    items = long_report["document"]["items"]
    last = items[-1]  # its drill-down is in the last chunk: every chunk is read, not just the first page's
    text = (last["nodeid"] + " · ").upper()  # the drill-down's meta line, in another case
    _open(page, long_report["path"], "#" + urlencode({"text": text}, quote_via=quote))
    expect(page.locator("#shown")).to_have_text(f"1 of {len(items)} items")
    assert _visible_items(page) == [_key(last)] and page.input_value("input[name=text]") == text
    page.fill("input[name=text]", "")  # cleared: the whole list again, and the link forgets the text
    expect(page.locator("#shown")).to_have_text(f"{len(items)} of {len(items)} items")
    assert "text=" not in page.url and page.wsb_console == []


def test_the_bundled_report_is_one_small_file_that_loads_nothing(report):
    size = report["run"].stat().st_size
    # 501,126 bytes with the transcripts and each WebBench step's observation, the drill-downs gzip'd (measured
    # at the merge; 2.14 MB when every drill-down was markup in the page)
    assert size < 600_000, f"the bundled suites' report is {size:,} bytes"
    text = report["run"].read_text("utf-8")
    # nothing to fetch: no stylesheet or script file, no source attribute, no CSS import or url()
    assert not re.search(r"<link\b|\ssrc=|@import|url\((?!#)", text)


def test_without_chromium_these_tests_skip_naming_the_install_command_and_fail_in_ci(monkeypatch, tmp_path):
    monkeypatch.setenv(CHROMIUM_ENV, str(tmp_path / "no-chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="sudo apt-get install -y chromium"):
        _require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true .*sudo apt-get install -y chromium"):
        _require_browser()
