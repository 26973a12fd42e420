"""A declared rate under load (issue 48 part 1): how often the tests' declared-rate check sees a 429 on a starved
machine. The check is ``tests/run/test_live_adaptive.py::test_a_declared_rate_is_a_hard_ceiling_with_many_threads_ready``
(60 items, ``--wsb-rate=serper=20/s``, 64 threads ready, against the tests' emulator admitting 20 in any second);
it fails on a single 429 or a second the emulator saw more than 20 requests in.

Each round runs that test once per checkout, in turn, while ``--burners`` processes spin on the CPU and
``--gil-hogs`` Python threads spin inside the test's own process (as threads left behind by earlier tests in an
xdist worker would: they hold the interpreter lock that the emulator's handler threads need to stamp an arrival).

    python benchmarks/rate_under_load.py --rounds 6 --burners 3 --gil-hogs 2 --checkout /tmp/old --checkout .
    python benchmarks/rate_under_load.py --test tests/run/test_live_adaptive.py::test_announced_limits_slow_the_run_before_a_429_and_without_them_it_learns_by_429s
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TEST = "tests/run/test_live_adaptive.py::test_a_declared_rate_is_a_hard_ceiling_with_many_threads_ready"

HOG_PLUGIN = """
import os, threading

def _spin():
    while True:
        pass

def pytest_configure(config):
    for _ in range(int(os.environ["RATE_BENCH_GIL_HOGS"])):
        threading.Thread(target=_spin, daemon=True).start()
"""


def _burn() -> None:
    while True:
        pass


def run_once(checkout: Path, plugins: Path, hogs: int, test: str) -> tuple[bool, str]:
    env = dict(os.environ, PYTHONPATH=f"{checkout}{os.pathsep}{plugins}", RATE_BENCH_GIL_HOGS=str(hogs))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "rate_bench_hogs", test],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
    )
    lines = done.stdout.splitlines()
    told = [line.split(" · ")[4] for line in lines if line.startswith("live: ") and line.count(" · ") >= 4]
    error = next((line.strip() for line in lines if line.startswith("E ")), "")
    return done.returncode == 0, f"{error} (each run's host and 429s: {'; '.join(told)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--burners", type=int, default=3)
    parser.add_argument("--gil-hogs", type=int, default=2)
    parser.add_argument("--test", default=TEST, help="the test to run (a node id; default the declared-rate one)")
    parser.add_argument("--checkout", action="append", type=Path, help="a checkout of the project (repeatable)")
    args = parser.parse_args()
    checkouts = [c.resolve() for c in (args.checkout or [Path(__file__).resolve().parent.parent])]
    with tempfile.TemporaryDirectory() as folder:
        plugins = Path(folder)
        (plugins / "rate_bench_hogs.py").write_text(HOG_PLUGIN)
        burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(args.burners)]
        for burner in burners:
            burner.start()
        failed = {c: 0 for c in checkouts}
        try:
            for round_ in range(1, args.rounds + 1):
                for checkout in checkouts:
                    ok, live = run_once(checkout, plugins, args.gil_hogs, args.test)
                    failed[checkout] += not ok
                    print(f"round {round_} {checkout}: {'passed' if ok else 'FAILED ' + live}", flush=True)
        finally:
            for burner in burners:
                burner.terminate()
    for checkout in checkouts:
        print(
            f"{checkout}: failed {failed[checkout]} of {args.rounds} ({args.burners} burners, {args.gil_hogs} GIL hogs)"
        )


if __name__ == "__main__":
    main()
