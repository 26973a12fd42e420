"""Live runs at the provider's pace (issue 36), against loopback doubles that answer slowly and enforce a
window rate limit: the tests' vendor emulator (a Serper-shaped API: a fixed answer time, and 429 for any
request that would make more than N admitted in the second before it) and the tests' scripted model (an
OpenAI Responses API server, a fixed time a turn).

Rows (each a whole ``pytest`` process tree, recording into a fresh cassette folder, run from a temp
folder so the project's own ini is not read):

* ``lexbench``: the bundled LexBench scenarios copied to 495 items (``scaled_suite.py``), recorded with
  ``--provider=serper -n auto --wsb-rate=serper=20/s``; answers take 1 s, the double admits 20/s;
* ``code``: the 32 bundled tickets in ``--wsb-mode=agent`` with ``-n auto``: 8 model turns of 1 s, the
  first 7 each a web search of 1 s (``--wsb-max-searches=7``), then the answer;
* ``replay``: the ``lexbench`` row's cassettes replayed (``--wsb-record-mode=none``), as ``-n 0`` and
  ``-n auto``;
* ``storm`` (asked for by name): the ``lexbench`` row's recording while the double answers every request 429 with
  ``Retry-After: 2`` for ``--storm`` seconds (10) from the first one, at the default retries: items lost, wall;
* ``undeclared`` (asked for by name): the ``lexbench`` row's recording with no ``--wsb-rate`` against a double
  admitting 20/s, then 50/s, saying so only by its 429s: wall against the floor (items ÷ rate), 429s;
* ``headers`` (asked for by name): the same at ``--rate`` with every answer stating the window
  (``X-RateLimit-Limit/-Remaining/-Reset``);
* ``webbench``: the 28 bundled WebBench tasks with ``--wsb-agent model``: the scripted model sends the
  oracle's route as tool calls, each turn ``--latency`` late (11 to 35 turns an episode), then the
  cassettes replayed.

For each: wall seconds, the limit (items ÷ rate, or one episode's length), the 429s the double sent, the
peak RSS summed over the run's processes, and whether the run's results equal its replay's item by item.

    python benchmarks/live_bench.py                  # every row
    python benchmarks/live_bench.py --rows code --items 55
    python benchmarks/live_bench.py --rows webbench --latency 0.2 -n 0
    python benchmarks/live_bench.py --checkout ../old   # the same rows with another checkout's plugin
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [
    str(REPO / "benchmarks"),
    str(REPO / "tests"),
    str(REPO / "tests" / "providers"),
    str(REPO / "tests" / "codebench"),
    str(REPO / "tests" / "webbench"),
]

from scaled_suite import make_scaled_suite  # noqa: E402

from pytest_websearchbench.emulate.model import Request, ScriptedModel  # noqa: E402
from pytest_websearchbench.emulate.server import Emulator  # noqa: E402

KEYS = ("SERPER_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "WSB_SERPER_BASE_URL")


def tree_rss_kib(root: int) -> int:
    """The resident memory of ``root`` and every process below it, KiB."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path("/proc", entry, "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid, parent = int(entry), int(fields.get("PPid", "0").strip())
        children.setdefault(parent, []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0])
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def run(args: list[str], cwd: Path, env: dict[str, str]) -> dict:
    """One pytest process tree: its wall seconds, exit code, peak summed RSS (MiB) and last output lines."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    peak = [0]

    def watch() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss_kib(process.pid))
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    output, _ = process.communicate()
    seconds = time.perf_counter() - began
    watcher.join()
    return {
        "seconds": seconds,
        "rc": process.returncode,
        "rss_mib": peak[0] / 1024,
        "tail": output.strip().splitlines()[-3:],
    }


def items_of(results: Path) -> dict:
    """Each item's outcome and metrics in a results file, by (suite, case, provider)."""
    data = json.loads(results.read_text())
    return {(i["suite"], i["case_id"], i["provider"]): (i["outcome"], i.get("metrics")) for i in data["items"]}


#: the checkout whose plugin the runs import (--checkout); the doubles are always this one's
CHECKOUT = [REPO]


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEYS and not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(CHECKOUT[0])
    return env


def lexbench_row(work: Path, items: int, latency: float, per_second: int, workers: str) -> dict:
    suite = make_scaled_suite(work, items)
    corpus = [json.loads(line) for line in (work / "suites" / "sample-web" / "corpus.jsonl").read_text().splitlines()]
    emulator = Emulator(corpus).start()
    try:
        emulator.pace("serper", latency=latency, per_second=per_second)
        env = {**base_env(), **emulator.env("serper")}
        cassettes = work / "recorded"
        common = [
            "--suite",
            str(suite),
            "--provider=serper",
            f"--wsb-cassette-dir={cassettes}",
            "-q",
            "-p",
            "no:cacheprovider",
        ]
        live = run(
            [
                *common,
                "-n",
                workers,
                f"--wsb-rate=serper={per_second}/s",
                "--wsb-record-mode=once",
                f"--wsb-json={work / 'live.json'}",
            ],
            work,
            env,
        )
        live.update(
            throttled=emulator.throttled("serper"), requests=len(emulator.seen("serper")), limit=items / per_second
        )
    finally:
        emulator.stop()
    replay_env = {k: v for k, v in base_env().items()}
    replays = {}
    for n in ("0", "auto"):
        replays[n] = run(
            [*common, "-n", n, "--wsb-record-mode=none", f"--wsb-json={work / f'replay-{n}.json'}"], work, replay_env
        )
    live["same_as_replay"] = items_of(work / "live.json") == items_of(work / "replay-0.json")
    return {"live": live, "replay": replays}


def code_row(work: Path, latency: float, turns: int, workers: str) -> dict:
    rows = [
        json.loads(line)
        for line in (REPO / "suites" / "code-sample" / "eval.jsonl").read_text().splitlines()
        if line.strip()
    ]
    gold = {row["ticket"]: row["gold_code"] for row in rows}

    def policy(request: Request) -> dict:
        time.sleep(latency)  # the model's time a turn
        if request.turn < turns - 1:
            return {
                "tool_calls": [{"name": "web_search", "arguments": {"query": f"{request.user[:40]} {request.turn}"}}]
            }
        ticket = next((t for t in gold if t in request.user), "")
        return {"content": f"```python\n{gold.get(ticket, '')}\n```"}

    corpus = [json.loads(line) for line in (REPO / "suites" / "sample-web" / "corpus.jsonl").read_text().splitlines()]
    emulator = Emulator(corpus).start()
    try:
        emulator.pace("serper", latency=latency)
        with ScriptedModel(policy) as url:
            env = {**base_env(), **emulator.env("serper"), "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-bench"}
            result = run(
                [
                    "--suite",
                    str(REPO / "suites" / "code-sample"),
                    "--provider=serper",
                    "--wsb-mode=agent",
                    f"--wsb-max-searches={turns - 1}",
                    f"--wsb-cassette-dir={work / 'recorded'}",
                    "--wsb-record-mode=once",
                    "-n",
                    workers,
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    f"--wsb-json={work / 'live.json'}",
                ],
                work,
                env,
            )
        result.update(requests=len(emulator.seen("serper")), limit=latency * (2 * turns - 1))
    finally:
        emulator.stop()
    replay = run(
        [
            "--suite",
            str(REPO / "suites" / "code-sample"),
            "--provider=serper",
            "--wsb-mode=agent",
            f"--wsb-max-searches={turns - 1}",
            f"--wsb-cassette-dir={work / 'recorded'}",
            "--wsb-record-mode=none",
            "-n",
            "0",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--wsb-json={work / 'replay.json'}",
        ],
        work,
        base_env(),
    )
    result["same_as_replay"] = items_of(work / "live.json") == items_of(work / "replay.json")
    result["replay"] = replay
    return result


def webbench_row(work: Path, latency: float, workers: str) -> dict:
    from test_agent_model import follow

    oracle = follow("oracle")
    turns: list[int] = []
    lock = threading.Lock()
    state = {"in_flight": 0, "most": 0}

    def policy(request: Request) -> dict:
        with lock:
            turns.append(1)
            state["in_flight"] += 1
            state["most"] = max(state["most"], state["in_flight"])
        try:
            time.sleep(latency)  # the model's time a turn
            return oracle(request)
        finally:
            with lock:
                state["in_flight"] -= 1

    common = [
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "model",
        "--wsb-model",
        "scripted/browser-1",
        f"--wsb-cassette-dir={work / 'recorded'}",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    with ScriptedModel(policy) as url:
        env = {**base_env(), "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-bench"}
        result = run([*common, "-n", workers, "--wsb-record-mode=once", f"--wsb-json={work / 'live.json'}"], work, env)
    result.update(turns=len(turns), most_at_once=state["most"], sequential_model_seconds=len(turns) * latency)
    replay = run([*common, "-n", "0", "--wsb-record-mode=none", f"--wsb-json={work / 'replay.json'}"], work, base_env())
    result["same_as_replay"] = items_of(work / "live.json") == items_of(work / "replay.json")
    result["replay"] = replay
    return result


def storm_row(work: Path, items: int, latency: float, per_second: int, workers: str, storm: float) -> dict:
    """The ``lexbench`` row's recording through a storm: from the first request on, the double answers every
    request 429 with ``Retry-After: 2`` for ``storm`` seconds; the default retries."""
    suite = make_scaled_suite(work, items)
    corpus = [json.loads(line) for line in (work / "suites" / "sample-web" / "corpus.jsonl").read_text().splitlines()]
    emulator = Emulator(corpus).start()
    stop = threading.Event()

    def start_the_storm() -> None:  # when the live phase sends its first request, not when pytest starts
        while not stop.is_set() and not emulator.requests:
            time.sleep(0.005)
        emulator.storm("serper", storm, retry_after="2")

    try:
        emulator.pace("serper", latency=latency, per_second=per_second)
        threading.Thread(target=start_the_storm, daemon=True).start()
        env = {**base_env(), **emulator.env("serper")}
        results = work / "live.json"
        live = run(
            [
                "--suite",
                str(suite),
                "--provider=serper",
                f"--wsb-cassette-dir={work / 'recorded'}",
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                workers,
                f"--wsb-rate=serper={per_second}/s",
                f"--wsb-json={results}",
            ],
            work,
            env,
        )
        stop.set()
        outcomes = [outcome for outcome, _ in items_of(results).values()] if results.is_file() else []
        live.update(
            requests=len(emulator.seen("serper")),
            errors=outcomes.count("error"),
            items=len(outcomes),
            storm_seconds=storm,
        )
    finally:
        stop.set()
        emulator.stop()
    return live


def adaptive_row(work: Path, items: int, latency: float, per_second: int, workers: str, headers: str) -> dict:
    """The ``lexbench`` row's recording with no ``--wsb-rate``: the double admits ``per_second`` and says so only
    by its 429s, or (``headers``) in every answer too; the run must find the limit (issue 48, parts 1-2)."""
    work.mkdir(parents=True, exist_ok=True)
    suite = make_scaled_suite(work, items)
    corpus = [json.loads(line) for line in (work / "suites" / "sample-web" / "corpus.jsonl").read_text().splitlines()]
    emulator = Emulator(corpus).start()
    try:
        emulator.pace("serper", latency=latency, per_second=per_second, headers=headers)
        live = run(
            [
                "--suite",
                str(suite),
                "--provider=serper",
                f"--wsb-cassette-dir={work / 'recorded'}",
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                workers,
                f"--wsb-json={work / 'live.json'}",
            ],
            work,
            env={**base_env(), **emulator.env("serper")},
        )
        live.update(
            per_second=per_second,
            headers=headers or "none",
            throttled=emulator.throttled("serper"),
            requests=len(emulator.seen("serper")),
            floor=items / per_second,
        )
        live["ratio"] = live["seconds"] / live["floor"]
    finally:
        emulator.stop()
    return live


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--rows",
        nargs="+",
        default=["lexbench", "code", "webbench"],
        choices=["lexbench", "code", "webbench", "storm", "undeclared", "headers"],
    )
    parser.add_argument("--storm", type=float, default=10.0, help="the storm row's seconds of 429s")
    parser.add_argument("--items", type=int, default=495)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--rate", type=int, default=20)
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("-n", dest="workers", default="auto")
    parser.add_argument("--checkout", type=Path, default=REPO, help="the plugin's checkout to run (A/B)")
    options = parser.parse_args()
    CHECKOUT[0] = options.checkout.resolve()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for row in options.rows:
        with tempfile.TemporaryDirectory(prefix=f"wsb-live-{row}-") as folder:
            if row == "lexbench":
                result = lexbench_row(Path(folder), options.items, options.latency, options.rate, options.workers)
            elif row in ("undeclared", "headers"):
                result = {
                    rate: adaptive_row(
                        Path(folder) / str(rate),
                        options.items,
                        options.latency,
                        rate,
                        options.workers,
                        "x-ratelimit" if row == "headers" else "",
                    )
                    for rate in ((20, 50) if row == "undeclared" else (options.rate,))
                }
            elif row == "storm":
                result = storm_row(
                    Path(folder), options.items, options.latency, options.rate, options.workers, options.storm
                )
            elif row == "code":
                result = code_row(Path(folder), options.latency, options.turns, options.workers)
            else:
                result = webbench_row(Path(folder), options.latency, options.workers)
        print(row, json.dumps(result, indent=1))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
