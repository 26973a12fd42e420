"""Wall time of the project's own test commands, as the README states them, with the ten slowest tests.

Times ``python -m pytest -n auto`` (everything, what CI runs) and ``python -m pytest -m "not e2e" -n auto`` (the
fast tier) as whole processes, in a fresh clone of this checkout's HEAD by default (no ``__pycache__``, nothing
recorded: what a newcomer runs), and prints a Markdown row a command (wall and CPU seconds, the outcome line) and
each command's ten slowest tests (pytest's ``--durations=10``). The clone imports its own code (``PYTHONPATH``), so
the installed editable package does not stand in for it.

    python benchmarks/tests_bench.py                  # both commands, once each, in a fresh clone
    python benchmarks/tests_bench.py --tier fast --repeat 3 --here

The figures are only as quiet as the machine: other processes on the same cores lengthen every run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIERS = {
    "all": ["-n", "auto"],
    "fast": ["-m", "not e2e", "-n", "auto"],
}


def clone(into: Path) -> Path:
    folder = into / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(folder)], check=True)
    return folder


def run_once(checkout: Path, args: list[str]) -> tuple[float, float, str, list[str]]:
    """(wall s, CPU s of the command and its children, pytest's last line, the ten slowest tests)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    env.pop("PYTEST_ADDOPTS", None)
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
    parser.add_argument("--here", action="store_true", help="time this checkout as it is, not a fresh clone")
    options = parser.parse_args(argv)
    tiers = list(TIERS) if options.tier == "both" else [options.tier]
    with tempfile.TemporaryDirectory(prefix="wsb-tests-bench-") as tmp:
        print(
            f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {'this checkout' if options.here else 'a fresh clone'}"
        )
        print("\n| command | median wall s | median CPU s | runs | last run |\n|---|---:|---:|---:|---|")
        slowest: dict[str, list[str]] = {}
        for tier in tiers:
            walls, cpus, outcome = [], [], ""
            for _ in range(options.repeat):
                checkout = REPO if options.here else clone(Path(tempfile.mkdtemp(dir=tmp)))
                wall, cpu, outcome, slowest[tier] = run_once(checkout, TIERS[tier])
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
