"""What the HTML report's tests share: a results file with hostile text planted in it (the bundled run they
read is tests/conftest.py's ``bundled_run``)."""

from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

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


def build_with_cli(results: list[Path], output: Path, *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_websearchbench.report", *map(str, results), "-o", str(output)],
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=300)


def write_json(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return path
