"""Wall time of the project's own test commands, as the README states them, with the ten slowest tests.

Times ``python -m pytest -n auto`` (everything, what CI runs) and ``python -m pytest -m "not e2e" -n auto`` (the
fast tier) as whole processes in this checkout, with the Python that runs the script (a clean clone's figure: clone,
install as the README says, run the script there), and prints a Markdown row a command (median wall and CPU
seconds of the command and its children, the outcome line) and each command's ten slowest tests (pytest's
``--durations=10``).

    python benchmarks/tests_bench.py                  # both commands, once each
    python benchmarks/tests_bench.py --tier fast --repeat 3

The figures are only as quiet as the machine: other processes on the same cores lengthen every run, and CPU
seconds less than wall seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIERS = {
    "all": ["-n", "auto"],
    "fast": ["-m", "not e2e", "-n", "auto"],
}


def run_once(checkout: Path, args: list[str]) -> tuple[float, float, str, list[str]]:
    """(wall s, CPU s of the command and its children, pytest's last line, the ten slowest tests)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "-q", "--durations=10"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.splitlines()
    outcome = next((line.strip("= ") for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)), "")
    slowest = [line for line in lines if re.match(r"\d+\.\d+s (setup|call|teardown) ", line)][:10]
    return wall, cpu, outcome, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", choices=[*TIERS, "both"], default="both")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (the table shows the median)")
    options = parser.parse_args(argv)
    tiers = list(TIERS) if options.tier == "both" else [options.tier]
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {REPO}")
    print("\n| command | median wall s | median CPU s | runs | last run |\n|---|---:|---:|---:|---|")
    slowest: dict[str, list[str]] = {}
    for tier in tiers:
        walls, cpus, outcome = [], [], ""
        for _ in range(options.repeat):
            wall, cpu, outcome, slowest[tier] = run_once(REPO, TIERS[tier])
            walls.append(wall)
            cpus.append(cpu)
        command = "python -m pytest " + " ".join(f'"{a}"' if " " in a else a for a in TIERS[tier])
        print(
            f"| `{command}` | {statistics.median(walls):.0f} | {statistics.median(cpus):.0f} | "
            f"{options.repeat} | {outcome} |"
        )
    for tier in tiers:
        print(f"\nten slowest tests, {tier} ({TIERS[tier]}):\n")
        print("\n".join(f"    {line}" for line in slowest[tier]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
