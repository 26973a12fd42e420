"""Two commands timed in turn, each run one whole process: the paired figures of benchmarks/README.md.

    python benchmarks/pairs.py -n 5 --warmup 1 --vs "python -m pytest suites -n 0" -- python -m pytest suites -n 2

A (the command after ``--``) and B (``--vs``, one string split as a shell splits words) run in turn, A B A B …,
after ``--warmup`` runs of each that are not counted. A run's user and system seconds and its peak memory are the
kernel's accounting of the finished process (``os.wait4``: the process and the children it waited for), its wall
seconds a monotonic clock around it. Each figure is printed as min, median and max; with ``--vs``, the ratio A/B is
taken pair by pair, so that a machine whose speed drifts moves both sides of a ratio alike. What the commands print
is thrown away (a command that needs a pipe or a redirection is written ``sh -c '…'``); what a run leaves running
in its process group is killed. ``--timeout`` bounds the whole call: at the bound the running command is killed and
the finished runs are printed (exit 3).
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

FIGURES = ("user s", "sys s", "cpu s", "wall s", "peak MiB")
RATIOS = ("user s", "cpu s", "wall s")


def run(
    command: list[str],
    deadline: float = math.inf,
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    output: IO[str] | None = None,
) -> dict[str, float] | None:
    """One whole run of ``command``: its figures, or None when the deadline killed it. ``output``: where its
    stdout and stderr go (else nowhere)."""
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=output or subprocess.DEVNULL,
        stderr=subprocess.STDOUT if output else subprocess.DEVNULL,
        start_new_session=True,
    )
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        _kill_group(process.pid)

    timer = threading.Timer(max(0.0, deadline - time.monotonic()), kill) if deadline < math.inf else None
    if timer:
        timer.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    if timer:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    _kill_group(process.pid)  # what it left running
    if killed.is_set():
        return None
    return {
        "user s": usage.ru_utime,
        "sys s": usage.ru_stime,
        "cpu s": usage.ru_utime + usage.ru_stime,
        "wall s": wall,
        "peak MiB": usage.ru_maxrss / 1024,
        "exit": process.returncode,
    }


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _spread(values: list[float]) -> str:
    return f"{min(values):12.3f}{statistics.median(values):12.3f}{max(values):12.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=5, help="counted runs of each command (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="runs of each not counted, first (default 1)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="bound on the whole call, seconds")
    parser.add_argument("--vs", help="B, the command to pair A with (one string)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- A …")
    options = parser.parse_args(argv)
    a = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not a or options.runs < 1 or options.warmup < 0:
        parser.error("give the command after --, at least one run and no negative warm-up")
    commands = {"A": a, **({"B": shlex.split(options.vs)} if options.vs else {})}
    deadline = time.monotonic() + options.timeout
    for name, command in commands.items():
        print(f"{name} = {shlex.join(command)}")
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in commands}
    cut = False
    for turn in range(options.warmup + options.runs):
        for name, command in commands.items():
            figures = run(command, deadline)
            if figures is None:
                cut = True
                break
            if turn >= options.warmup:
                runs[name].append(figures)
        if cut:
            break
    pairs = min(len(done) for done in runs.values())
    print(
        f"runs counted: {', '.join(f'{name} {len(done)}' for name, done in runs.items())}"
        + (" (cut at --timeout)" if cut else "")
    )
    for name, done in runs.items():
        codes = sorted({int(r["exit"]) for r in done})
        print(f"{name} exit codes: {codes}")
    print(f"{'':14}{'min':>12}{'median':>12}{'max':>12}")
    for name, done in runs.items():
        for figure in FIGURES:
            if done:
                print(f"{name} {figure:12}{_spread([r[figure] for r in done])}")
    if "B" in runs and pairs:
        for figure in RATIOS:
            ratios = [runs["A"][i][figure] / runs["B"][i][figure] for i in range(pairs) if runs["B"][i][figure] > 0]
            if ratios:
                print(f"A/B {figure[:-2]:10}{_spread(ratios)}")
    return 3 if cut else 0


if __name__ == "__main__":
    sys.exit(main())
