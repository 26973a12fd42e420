"""WebBench episodes at once (issue 48, part 8): one whole ``pytest`` process over the bundled WebBench sample,
timed from outside (the figures in benchmarks/README.md are farm-bench medians, A/B interleaved).

``program``: the 28 tasks with a sandboxed program agent that waits 3 s, then replays the oracle's route through
the ``browser`` CLI, at ``-n 0``; ``--concurrency 1`` is the one-at-a-time yardstick (what the tests did before).

``model``: 16 model-agent episodes recorded live (``--wsb-record-mode=rewrite``) against a loopback model double
that answers each turn after ``--latency`` s and answers 429 (``Retry-After: 1``) past ``--limit`` requests in any
1 s window: its peak RSS is the figure.

    python benchmarks/episodes_bench.py program [--concurrency N]
    python benchmarks/episodes_bench.py model [--episodes 16] [--latency 0.2] [--limit 20]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from pytest_websearchbench.emulate.model import Request, ScriptedModel
from pytest_websearchbench.webbench.agents.model_agent import BROWSER_TOOL, WORKSPACE_URL
from pytest_websearchbench.webbench.harbor import load_dataset

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "suites" / "webbench-sample"
FAST = ("-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest")


def program(concurrency: int | None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        routes = Path(tmp) / "routes"
        routes.mkdir()
        for task in load_dataset(SAMPLE / "dataset.toml"):
            digest = hashlib.sha256(task.instruction.encode()).hexdigest()
            (routes / f"{digest}.jsonl").write_text("".join(json.dumps(a) + "\n" for a in task.routes["oracle"]))
        script = Path(tmp) / "wait-then-replay.sh"
        script.write_text(
            "#!/bin/sh\nset -eu\nsleep 3\n"
            'browser < "$ROUTES/$(sha256sum "$WSB_BRIEF_FILE" | cut -d\' \' -f1).jsonl" > /dev/null\n'
        )
        script.chmod(0o755)
        command = [sys.executable, "-m", "pytest", *FAST, "--suite", "webbench-sample", "--wsb-agent", f"cmd:{script}"]
        if concurrency:
            command.append(f"--wsb-concurrency={concurrency}")
        done = subprocess.run(command, cwd=tmp, env={**os.environ, "ROUTES": str(routes)})
    return done.returncode


ARGUMENTS = [name for name in BROWSER_TOOL["parameters"]["properties"] if name != "action"]


class Oracle:
    """The model double's policy: the oracle's route of the task its brief names, a tool call a turn, each
    answered after ``latency`` s; over ``limit`` requests in a second, a 429."""

    def __init__(self, latency: float, limit: int) -> None:
        self.tasks = list(load_dataset(SAMPLE / "dataset.toml"))
        self.latency, self.limit = latency, limit
        self.sent: collections.deque[float] = collections.deque()
        self.lock = threading.Lock()

    def __call__(self, request: Request) -> dict[str, Any]:
        with self.lock:
            now = time.monotonic()
            while self.sent and self.sent[0] < now - 1.0:
                self.sent.popleft()
            if len(self.sent) >= self.limit:
                return {"status": 429, "error": "rate limited", "headers": {"Retry-After": "1"}}
            self.sent.append(now)
        time.sleep(self.latency)
        task = next(t for t in self.tasks if request.user.startswith(t.instruction.strip()))
        route = task.routes["oracle"]
        if request.turn >= len(route):
            return {"content": "done"}
        action = route[request.turn]
        arguments = {"action": action["action"], **{name: None for name in ARGUMENTS}}
        arguments.update({k: str(v) for k, v in action.items() if k in ARGUMENTS})
        if "url" in action and action["url"].startswith("/"):
            arguments["url"] = WORKSPACE_URL + action["url"]
        return {"tool_calls": [{"name": "browser", "arguments": arguments}]}


def model(episodes: int, latency: float, limit: int) -> int:
    names = [t.name for t in list(load_dataset(SAMPLE / "dataset.toml"))[:episodes]]
    with tempfile.TemporaryDirectory() as tmp, ScriptedModel(Oracle(latency, limit)) as url:
        command = [
            *(sys.executable, "-m", "pytest", *FAST, "--suite", "webbench-sample"),
            *("--wsb-agent", "model", "--wsb-model", "scripted/browser-1", "--wsb-record-mode=rewrite"),
            *("-k", " or ".join(f"{name}[" for name in names)),
        ]
        env = {**os.environ, "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-benchmark"}
        done = subprocess.run(command, cwd=tmp, env=env)
    return done.returncode


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="row", required=True)
    sub.add_parser("program").add_argument("--concurrency", type=int)
    row = sub.add_parser("model")
    row.add_argument("--episodes", type=int, default=16)
    row.add_argument("--latency", type=float, default=0.2)
    row.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    sys.exit(program(args.concurrency) if args.row == "program" else model(args.episodes, args.latency, args.limit))
