"""The HTML report without a browser: it shows the figures the terminal summary shows, it escapes and scrubs what
providers send, the CLI rebuilds it from results files (one line per bad file), and --wsb-html writes it
at the end of a run with the baseline's verdicts and per-item changes."""

from __future__ import annotations

import copy
import html
import json
import re

import pytest
from html_support import PLANTED_KEY, build_with_cli, everything, first_scenario, page_data, planted, scaled, write_json

from conftest import REPO
from pytest_websearchbench import report as cli
from pytest_websearchbench.reporting import stats
from pytest_websearchbench.reporting.figures import Cost, PairedFigure, run_figures
from pytest_websearchbench.reporting.html.model import Source
from pytest_websearchbench.reporting.html.render import render_report
from pytest_websearchbench.reporting.json_results import RunResults
from pytest_websearchbench.reporting.terminal import summary_lines
from pytest_websearchbench.run.registry import FAMILIES


def _with_second_provider(document: dict) -> dict:
    """The bundled run plus a second provider, ``other``: worse on some items, errored on one."""
    doc = copy.deepcopy(document)
    others = []
    for index, item in enumerate(document["items"]):
        if item["family"] != "lexbench":
            continue
        other = copy.deepcopy(item)
        other["provider"] = "other"
        other["metrics"] = {k: (v * 0.5 if index % 3 == 0 else v) for k, v in other["metrics"].items()}
        for call in other["calls"]:
            call["seconds"] = call["seconds"] * 40 + index / 1000
        if (item["suite"], item["case_id"]) == ("lexbench-sample", "q005"):
            other.update(outcome="error", metrics={}, primary_metric=None, results=[], error="boom", raw=None)
        others.append(other)
    doc["items"] += others
    doc["providers"] = ["local", "other"]
    return doc


def _terminal_tables(lines: list[str]) -> dict[str, dict[str, list[str]]]:
    """The summary's tables: suite → row label → cells (cells are separated by two spaces or more; a one-variant
    row's long cell goes on in its column, on lines of their own)."""
    tables: dict[str, dict[str, list[str]]] = {}
    current = None
    last: list[str] = []
    for line in lines:
        if line and not line.startswith(" "):
            current = tables.setdefault(line.split()[0], {})
        elif current is not None and line.startswith("    ") and len(last) == 1:
            last[0] += " " + line.strip()
        elif current is not None and line.strip():
            label, *cells = re.split(r"\s{2,}", line.strip())
            current[label] = last = cells
    return tables


def _page_tables(page: str) -> dict[str, dict[str, list[str]]]:
    """The page's summary tables: suite → row label → cells, as text."""

    def text(markup: str) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()

    tables = {}
    for suite, table in re.findall(
        r'<article class="suite" data-suite="([^"]+)">.*?<table class="summary">(.*?)</table>', page, re.S
    ):
        rows = re.findall(r"<tr[^>]*><th>(.*?)</th>(.*?)</tr>", table, re.S)
        tables[html.unescape(suite)] = {
            text(label): [text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
            for label, cells in rows
        }
    return tables


def test_the_summary_and_the_page_format_the_same_figures(bundled_run):
    document = _with_second_provider(json.loads(bundled_run["results"].read_text("utf-8")))
    results = RunResults.from_dict(document)
    suites = run_figures(results.records, FAMILIES, results.k, order=results.providers)
    terminal = _terminal_tables(summary_lines(suites, FAMILIES))
    page = render_report([Source("results.json", results)], FAMILIES)
    shown = _page_tables(page)
    checked = 0
    for suite in suites:
        for position, variant in enumerate(suite.variants):
            both = {
                "pass rate": variant.pass_rate,
                "population": variant.population_text,
                "errors": str(variant.errors),
            }
            for stat in variant.metrics.values():
                both[stat.column.label] = f"{stat.mean:.3f} [{stat.low:.3f}, {stat.high:.3f}]"
            if suite.traffic:
                both["cost (USD)"] = variant.cost.text
                both["cassettes"] = variant.cassettes_text
                assert (
                    terminal[suite.name]["latency p50/p95"][position]
                    == f"{variant.p50_ms:.1f} / {variant.p95_ms:.1f} ms"
                )
                assert (
                    shown[suite.name]["latency p50 / p95 (ms)"][position]
                    == f"{variant.p50_ms:.1f} / {variant.p95_ms:.1f}"
                )
            for key, paired in variant.paired.items():
                label = next(c.label for c in suite.columns if c.key == key)
                both[f"Δ {label} vs local"] = f"{paired.delta:+.3f} (p={paired.p:.3f}, n={paired.n})"
            for label, value in both.items():
                assert terminal[suite.name][label][position] == value, (suite.name, variant.name, label, "terminal")
                assert shown[suite.name][label][position] == value, (suite.name, variant.name, label, "page")
                checked += 1
    assert checked > 60
    # and every other row the terminal shows, the family's own (WebBench's failure modes, calibration) included
    for suite in suites:
        for label, cells in terminal[suite.name].items():  # table rows: a cell a variant (not notes, not names)
            if label != "latency p50/p95" and len(cells) == len(suite.variants):
                assert shown[suite.name].get(label) == cells, (suite.name, label)
    # the header names whom the run's items ran against: its providers and its agents (WebBench's oracle)
    header = re.search(r'<table class="sources">.*?</table>', page, re.S).group(0)
    assert re.search(r"<td>[^<]*\blocal\b[^<]*\boracle\b[^<]*</td>", header), header
    # the heading names the cutoff only where the family has one (a WebBench task is no ranked list)
    heading = {
        name: re.search(rf"<h2>{name} <small>([^<]*)</small>", page).group(1)
        for name in ("lexbench-sample", "webbench-sample")
    }
    assert heading["lexbench-sample"].endswith(f", k={document['k']}") and "k=" not in heading["webbench-sample"]


def test_the_figures_follow_the_population_rule_and_pair_by_case(bundled_run):
    """The errored item counts 0 in nDCG@5 and leaves the diagnostics; the paired test is over the items both
    variants scored; latency is over each answered call."""
    document = _with_second_provider(json.loads(bundled_run["results"].read_text("utf-8")))
    results = RunResults.from_dict(document)
    suite = next(
        s
        for s in run_figures(results.records, FAMILIES, results.k, order=["other", "local"])
        if s.name == "lexbench-sample"
    )
    other, local = suite.variants  # the order asked for: "other" is the reference
    assert (suite.reference, other.errors, other.population, other.errored) == ("other", 1, 55, 1)
    assert other.population_text == "55 · 1 error counted as 0"
    ndcg = [r.metrics.get("ndcg", 0.0) for r in other.records]
    assert other.metrics["ndcg"].mean == stats.mean(ndcg) and other.metrics["ndcg"].n == 55
    assert other.metrics["judged"].n == 54 and other.answered.n == 54  # a diagnostic, the answered mean: without it
    pairs = [
        (r.metrics["ndcg"], o.metrics["ndcg"])
        for r in local.records
        for o in other.records
        if r.meta.case_id == o.meta.case_id and o.outcome != "error"
    ]
    assert local.paired["ndcg"] == PairedFigure(*stats.paired_difference(*zip(*pairs)), len(pairs)) and len(pairs) == 54
    seconds = sorted(c.seconds for r in other.records for c in r.run.calls if c.ok)
    assert other.p50_ms == 1000 * stats.percentile(seconds, 50) and len(other.latencies_ms) == len(seconds)
    assert other.cost == Cost(len(seconds), 0.0, 0) and other.cost.text == f"0.0000 ({len(seconds)} calls)"
    rows = _terminal_tables(summary_lines([suite], FAMILIES))["lexbench-sample"]
    assert (
        rows["nDCG@5 answered"][0] == f"{other.answered.mean:.3f} [{other.answered.low:.3f}, {other.answered.high:.3f}]"
    )


def test_provider_text_is_escaped_links_only_web_urls_and_keys_are_scrubbed(bundled_run, tmp_path):
    document = planted(json.loads(bundled_run["results"].read_text("utf-8")))
    document["items"][0]["message"] = "failed: </pre><script>window.__wsbInjected = 4</script>"
    hostile = copy.deepcopy(first_scenario(document))
    hostile.update(provider="<script>alert(1)</script>", case_id="q<b>x</b>")
    document["items"].append(hostile)
    results = write_json(tmp_path / "planted.json", document)
    done = build_with_cli([results], tmp_path / "report.html", env={"SERPER_API_KEY": PLANTED_KEY})
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "report.html").read_text("utf-8")
    # one script element runs, the report's own, and one holds its data (the provider's markup is text in both)
    assert re.findall(r"<script[^>]*>", page) == ['<script type="application/json" id="wsb-data">', "<script>"]
    assert "<img" not in page and "<b>x" not in page and "\\u003cb>x\\u003c/b>" in page
    assert "q<b>x</b>" in [row[1] for row in page_data(page)["items"]]
    shown = everything(page)  # the page and every drill-down the script can insert
    assert "<img" not in shown and "<b>x" not in shown
    assert "Snippet &lt;script&gt;window.__wsbInjected = 1&lt;/script&gt;" in shown
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the provider's name, in the tables and the chart
    assert 'href="javascript:' not in shown and "javascript:window.__wsbInjected=3" in shown
    assert PLANTED_KEY not in shown and PLANTED_KEY.replace("-", "%2D") not in shown
    assert shown.count("&lt;FILTERED&gt;") >= 3
    # the page may load nothing and run only its own script
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'none'" and re.fullmatch(r"'sha256-[A-Za-z0-9+/=]+'", directives["script-src"])


def test_a_key_never_reaches_the_results_file_of_a_run(pytester, tiny_suite, monkeypatch):
    # the key is in a query, so the provider's request and the item's raw results carry it
    items = tiny_suite / "items.jsonl"
    items.write_text(
        items.read_text("utf-8").replace("road bike tyre pressure", f"road bike tyre pressure {PLANTED_KEY}"), "utf-8"
    )
    monkeypatch.setenv("SERPER_API_KEY", PLANTED_KEY)
    pytester.runpytest("suites", "--wsb-json=r.json", "--wsb-html=r.html")
    for name in ("r.json", "r.html"):
        text = (pytester.path / name).read_text("utf-8")
        text = everything(text) if name == "r.html" else text
        assert PLANTED_KEY not in text and "road bike tyre pressure &lt;FILTERED&gt;" in text.replace(
            "<FILTERED>", "&lt;FILTERED&gt;"
        ), name


def test_the_cli_names_file_item_and_field_of_a_bad_results_file(bundled_run, tmp_path, capsys):
    good = json.loads(bundled_run["results"].read_text("utf-8"))
    cases = {
        "not-json.json": ('{\n  "items": [,]\n}', "not-json.json:2: invalid JSON: Expecting value"),
        "other.json": (
            json.dumps({"format": "something/else", "items": []}),
            "not a pytest-websearchbench results file",
        ),
        "no-suite.json": (
            json.dumps({**good, "items": [{**good["items"][3], "suite": None}]}),
            "no-suite.json: item 'items[0]' field 'suite': None is not of type 'string'",
        ),
        "metric.json": (
            json.dumps({**good, "items": good["items"][:2] + [{**good["items"][2], "metrics": {"ndcg": "high"}}]}),
            f"metric.json: item 'code-sample/{good['items'][2]['case_id']}[local]' field 'metrics.ndcg': "
            "'high' is not of type 'number'",
        ),
        "hits.json": (
            json.dumps({**good, "items": [{**good["items"][0], "raw": {"hits": {"a": 1}}}]}),
            "field 'raw.hits': {'a': 1} is not of type 'array', 'null'",
        ),
    }
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text, "utf-8")
        assert cli.main([str(tmp_path / name), "-o", str(tmp_path / "out.html")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("report: ") and message in err, err
    assert cli.main([str(tmp_path / "missing.json")]) == 2 and "missing.json: file not found" in capsys.readouterr().err
    assert not (tmp_path / "out.html").exists()


def test_an_item_of_another_shape_loses_its_drill_down_not_the_report(bundled_run, tmp_path):
    document = json.loads(bundled_run["results"].read_text("utf-8"))
    code = next(i for i in document["items"] if i["family"] == "code")
    code["raw"]["extra"]["search_hops"] = [7]
    shown = everything(render_report([Source("r.json", RunResults.from_dict(document))], FAMILIES))
    assert shown.count("drill-down cannot be shown: AttributeError") == 1
    assert shown.count('class="family-drilldown lexbench"') == sum(i["family"] == "lexbench" for i in document["items"])


@pytest.mark.e2e
def test_an_older_results_file_renders(tmp_path):
    """The committed baseline was written before items had tags and graders: the report still shows it."""
    done = build_with_cli([REPO / "suites" / "baseline-local.json"], tmp_path / "old.html")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "old.html").read_text("utf-8")
    assert "graded by" in everything(page) and "report written to" in done.stdout


def test_several_files_make_one_comparison(bundled_run, tmp_path):
    document = json.loads(bundled_run["results"].read_text("utf-8"))
    later = copy.deepcopy(document)
    for item in later["items"]:
        item["metrics"] = {k: v * 0.9 for k, v in item["metrics"].items()}
    first, second = write_json(tmp_path / "monday.json", document), write_json(tmp_path / "tuesday.json", later)
    done = build_with_cli([first, second], tmp_path / "both.html")
    assert done.returncode == 0, done.stderr
    assert f"{2 * len(document['items'])} items from 2 files" in done.stdout
    page = (tmp_path / "both.html").read_text("utf-8")
    assert "local (monday.json) <small>(reference)</small>" in page and "Δ nDCG@5 vs local (monday.json)" in page
    assert "local (tuesday.json)" in page_data(page)["variants"]


@pytest.fixture
def baseline_run(pytester, tiny_suite):
    """The tiny suite run once for a results file, which is then edited into a baseline where t1 failed (fixed
    now) and t4 passed (a regression now), and run again with it, -n 2, writing the report."""
    pytester.runpytest("suites", "--wsb-json=first.json").assert_outcomes(passed=3, failed=1)
    data = json.loads((pytester.path / "first.json").read_text("utf-8"))
    for item in data["items"]:
        if item["case_id"] == "t1":
            item["outcome"] = "failed"
        if item["case_id"] == "t4":
            item["outcome"], item["metrics"] = "passed", {**item["metrics"], "ndcg": 1.0}
    write_json(pytester.path / "baseline.json", data)
    result = pytester.runpytest(
        "suites", "-n", "2", "--wsb-record-mode=none", "--wsb-baseline=baseline.json", "--wsb-html=report.html"
    )
    return result, (pytester.path / "report.html").read_text("utf-8")


@pytest.mark.e2e
def test_wsb_html_writes_the_report_with_the_baselines_verdict_and_changes(baseline_run):
    result, page = baseline_run
    result.assert_outcomes(passed=4, failed=1)  # with the suite's verdict
    result.stdout.fnmatch_lines(["*HTML report written to *report.html"])
    verdict = re.search(r"tiny \[local\]: (.+)", result.stdout.str()).group(1)
    assert f'<td class="">{verdict}</td>' in page.replace("−", "−") or verdict.replace("'", "&#39;") in page
    assert re.search(r"<strong>regressed \(1\):</strong>\s*<a href=\"#open=tiny%3A%3At4%5Blocal%5D\"", page)
    assert re.search(
        r"<strong>fixed since the baseline \(1\):</strong>\s*<a href=\"#open=tiny%3A%3At1%5Blocal%5D\"", page
    )
    data = page_data(page)
    assert len(data["items"]) == len(data["drilldowns"]) == 4
    assert "passed in the baseline, fails now" in page and [row[8] for row in data["items"]].count("regressed") == 1


def test_the_items_are_data_so_the_page_grows_by_a_compact_row_an_item(bundled_run):
    """Three times the items add no markup (the script draws the list a page at a time) and a couple of kilobytes
    an item: each item's row and its drill-down, compressed; every item keeps its own drill-down (three copies,
    not ten: every drill-down is rendered, and ten made this the suite's slowest test at 28 s)."""
    document = json.loads(bundled_run["results"].read_text("utf-8"))
    pages = {
        copies: render_report([Source("r.json", RunResults.from_dict(scaled(document, copies)))], FAMILIES)
        for copies in (1, 3)
    }
    markup = {
        copies: re.sub(r'(<script type="application/json" id="wsb-data">).*?(</script>)', r"\1\2", page, flags=re.S)
        for copies, page in pages.items()
    }
    assert markup[1].count("<tr") == markup[3].count("<tr") and '<tbody class="item"' not in markup[3]
    items = len(document["items"])
    per_item = (len(pages[3].encode()) - len(pages[1].encode())) / (2 * items)
    # under 1,200 before transcripts; WebBench's step observations (compressed) made it 2,334 (measured at the merge)
    assert per_item < 2_600, f"{per_item:.0f} bytes an item"
    data = page_data(pages[3])
    assert len(data["items"]) == len(data["drilldowns"]) == 3 * items
    for row, drill, item in zip(data["items"], data["drilldowns"], scaled(document, 3)["items"]):
        assert row[1] == item["case_id"] and f'<p class="meta">{item["nodeid"]} ' in drill
