"""Wall time and peak memory of whole benchmark runs, as users start them.

Runs the bundled LexBench suites (81 items on ``local``) in one process and under
``-n 2``, replaying the committed cassettes and recording them anew into a temp folder
(the embedded engine then serves every call). Each configuration runs ``--repeat``
times; the table shows the median wall time, the ratio to the first row, and the peak
RSS of the largest child (the pytest controller or a worker).

    python benchmarks/suite_bench.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUITES = ["--suite", "lexbench-sample", "--suite", "lexbench-sample-factual", "-p", "no:cacheprovider", "-q"]


def configurations(tmp: Path) -> list[tuple[str, list[str]]]:
    replay = [f"--wsb-cassette-dir={REPO / 'cassettes'}", "--wsb-record-mode=none"]
    record = [f"--wsb-cassette-dir={tmp / 'cassettes'}", "--wsb-record-mode=rewrite"]
    return [
        ("replay, -n 0", replay),
        ("replay, -n 2", replay + ["-n", "2"]),
        ("record, -n 0", record),
        ("record, -n 2", record + ["-n", "2"]),
    ]


def run_once(args: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", *SUITES, *args], cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"pytest {' '.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for label, args in configurations(Path(tmp)):
            times = [run_once(args) for _ in range(options.repeat)]
            rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            rows.append((label, statistics.median(times), rss_mib))
    first = rows[0][1]
    print("| run | median wall s | ratio | peak child RSS MiB (cumulative max) |")
    print("|---|---:|---:|---:|")
    for label, seconds, rss in rows:
        print(f"| {label} | {seconds:.2f} | {seconds / first:.2f} | {rss:.0f} |")


if __name__ == "__main__":
    main()
