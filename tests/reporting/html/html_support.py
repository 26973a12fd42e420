"""What the HTML report's tests share: the bundled suites run once per test process (replayed, -n 2, with
--wsb-json and --wsb-html), and a results file with hostile text planted in it."""

from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUNDLED_CASSETTES, REPO

#: what a provider may send back: markup that must show as text and never run or load anything
INJECTED = '<script>window.__wsbInjected = 1</script><img src="https://tracker.example/p.gif" onerror="window.__wsbInjected = 2">'
#: a key as a provider might echo it (the report scrubs it in every form)
PLANTED_KEY = "wsb-planted-key-7f3a9c1e55d2"


@pytest.fixture(scope="session")
def bundled_run(tmp_path_factory) -> dict[str, Path]:
    """The bundled suites replayed under xdist with --wsb-json and --wsb-html: the results file and the report."""
    folder = tmp_path_factory.mktemp("bundled-run")
    results, report = folder / "results.json", folder / "run.html"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "WSB_"))}
    done = subprocess.run([sys.executable, "-m", "pytest", str(REPO / "suites"), "-n", "2", "-q", "-p", "no:cacheprovider",
                           "--wsb-record-mode=none", f"--wsb-cassette-dir={BUNDLED_CASSETTES}",
                           f"--wsb-json={results}", f"--wsb-html={report}"],
                          cwd=folder, capture_output=True, text=True, env=env, timeout=600)
    assert results.is_file() and report.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    assert f"HTML report written to {report}" in done.stdout
    return {"results": results, "report": report}


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


def build_with_cli(results: list[Path], output: Path, *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_websearchbench.report", *map(str, results), "-o", str(output)],
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=300)


def write_json(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return path
