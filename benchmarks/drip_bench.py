"""A slow-drip answer (issue 46, part 5): how long an item takes to error when its provider, or its model, sends the
headers and then one byte a second. Before the attempt deadline (core/deadline.py) ``--wsb-timeout`` bounded each
read, so an attempt lasted as many seconds as the body has bytes; now the item errors within about the timeout
times the attempts, plus the backoff.

Rows: one LexBench item of the bundled sample, recorded live (``--provider=serper --wsb-timeout=5``, the default
3 retries) against the tests' vendor emulator dripping every answer, as a whole ``pytest`` process; and one model
call (``ModelClient``, 5 s, its one retry) against the scripted model dripping its reply.

    python benchmarks/drip_bench.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.emulate.model import ScriptedModel, scripted
from pytest_websearchbench.emulate.server import Emulator
from pytest_websearchbench.providers.model_client import ModelClient

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO / "suites" / "lexbench-sample"


def provider_row() -> str:
    corpus = [json.loads(line) for line in (REPO / "suites/sample-web/corpus.jsonl").read_text().splitlines()[:50]]
    emulator = Emulator(corpus).start()
    emulator.fault("serper", "drip", times=100, drip_interval=1.0)
    case = json.loads(SUITE.joinpath("items.jsonl").read_text().splitlines()[0])
    try:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(SUITE, Path(tmp) / SUITE.name)
            command = [
                *(
                    sys.executable,
                    "-m",
                    "pytest",
                    f"{SUITE.name}::{case['id']}[serper]",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                ),
                *("--provider=serper", "--wsb-timeout=5", "--wsb-record-mode=rewrite", "--wsb-json=r.json"),
            ]
            began = time.monotonic()
            subprocess.run(command, cwd=tmp, env={**os.environ, **emulator.env("serper")}, capture_output=True)
            took = time.monotonic() - began
            (item,) = json.loads((Path(tmp) / "r.json").read_text())["items"]
    finally:
        emulator.stop()
    return f"provider, one item: {item['outcome']} after {took:.1f} s: {item['error']}"


def model_row() -> str:
    with ScriptedModel(scripted([{"content": "x" * 200, "drip": 1.0}] * 2)) as url:
        client = ModelClient(url, "k", timeout=5.0)
        began = time.monotonic()
        try:
            client.ask("/chat/completions", {"model": "m", "messages": [{"role": "system", "content": "s"}] * 2})
        except ProviderError as exc:
            return f"model, one call: error after {time.monotonic() - began:.1f} s: {exc}"
        finally:
            client.close()
    return "model, one call: answered (the drip was not cut off)"


if __name__ == "__main__":
    print(provider_row())
    print(model_row())
