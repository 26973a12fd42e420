"""What the HTML report's tests share: a results file with hostile text planted in it (the bundled run they
read is tests/conftest.py's ``bundled_run``), and the browser fixtures of the tests that open it in Chromium."""

from __future__ import annotations

import base64
import copy
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import require_chromium

#: what a provider may send back: markup that must show as text and never run or load anything
INJECTED = '<script>window.__wsbInjected = 1</script><img src="https://tracker.example/p.gif" onerror="window.__wsbInjected = 2">'
#: a key as a provider might echo it (the report scrubs it in every form)
PLANTED_KEY = "wsb-planted-key-7f3a9c1e55d2"


def planted(document: dict) -> dict:
    """``document`` with INJECTED in the first LexBench scenario result's title and snippet, a ``javascript:``
    URL, and PLANTED_KEY in a snippet as is, percent-encoded and in base64."""
    out = copy.deepcopy(document)
    item = next(i for i in out["items"] if i["family"] == "lexbench" and i["kind"] == "scenario" and i["results"])
    first = item["results"][0]
    first["title"] = "Title " + INJECTED
    first["snippet"] = "Snippet " + INJECTED
    second = item["results"][1]
    second["url"] = "javascript:window.__wsbInjected=3"
    third = item["results"][2]
    encoded = base64.b64encode(PLANTED_KEY.encode()).decode()
    third["snippet"] = f"key {PLANTED_KEY} / {PLANTED_KEY.replace('-', '%2D')} / {encoded}"
    return out


def first_scenario(document: dict) -> dict:
    return next(i for i in document["items"] if i["family"] == "lexbench" and i["kind"] == "scenario" and i["results"])


def build_with_cli(
    results: list[Path], output: Path, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest_websearchbench.report", *map(str, results), "-o", str(output)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def write_json(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return path


def page_data(page: str) -> dict:
    """The report's data block (the items the script lists), with each item's drill-down HTML decoded from its
    compressed chunk under ``drilldowns``."""
    block = re.search(r'<script type="application/json" id="wsb-data">(.*?)</script>', page, re.S).group(1)
    data = json.loads(block)
    data["drilldowns"] = [
        html
        for chunk in data["drills"]
        for html in json.loads(gzip.decompress(base64.b64decode(chunk)).decode("utf-8"))
    ]
    return data


def everything(page: str) -> str:
    """The page's text and every drill-down's HTML: all a reader can be shown."""
    return page + "".join(page_data(page)["drilldowns"])


def scaled(document: dict, copies: int) -> dict:
    """``document`` with its items and ``copies - 1`` copies of them (copy ``c`` of case ``x`` is ``x-c<c>``)."""
    out = copy.deepcopy(document)
    out["items"] = [
        {**item, "case_id": f"{item['case_id']}-c{c}", "nodeid": f"{item['nodeid']}-c{c}"} if c else item
        for c in range(copies)
        for item in document["items"]
    ]
    return out


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium driven from the tests' thread (Playwright allows one sync driver a thread; the
    plugin's own, for --wsb-browser chromium, has a thread of its own)."""
    require_chromium("the HTML report cannot be tested in a browser")
    from playwright.sync_api import sync_playwright

    from pytest_websearchbench.webbench.browsing.chromium import chromium_path

    driver = sync_playwright().start()
    browser = driver.chromium.launch(executable_path=chromium_path(), headless=True, args=["--no-sandbox"])
    yield browser
    browser.close()
    driver.stop()


@pytest.fixture
def page(browser):
    """A fresh page that records console messages, page errors and every request it makes (only file:// loads)."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    tab = context.new_page()
    tab.wsb_console, tab.wsb_requests = [], []
    tab.on("console", lambda message: tab.wsb_console.append((message.type, message.text)))
    tab.on("pageerror", lambda error: tab.wsb_console.append(("pageerror", str(error))))

    def intercept(route):
        tab.wsb_requests.append(route.request.url)
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    tab.route("**/*", intercept)
    yield tab
    context.close()


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    """Where the browser tests' screenshots go: $WSB_REPORT_ARTIFACTS when set (docs/ is made this way)."""
    folder = os.environ.get("WSB_REPORT_ARTIFACTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        return Path(folder)
    return tmp_path_factory.mktemp("report-screenshots")
