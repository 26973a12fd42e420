"""Replay at scale, the engine and WebBench: every figure of issue 13's table in one run.

    python benchmarks/scale_bench.py [--sizes 55 550 2750] [--repeat 5] [--project-tests]

It measures the checkout it lives in (its children run with that checkout first on PYTHONPATH),
so a second worktree at another commit gives the other column of a before/after table.

* Whole runs, per size: the bundled LexBench suite copied to ``n`` items (``scaled_suite.py``)
  replayed with ``-n 0`` and ``-n 2``, and the floor: a bare parametrized pytest (this plugin
  disabled) whose every test only reads and parses one of the same YAML cassettes with vcrpy's
  own loader (``vcr.serializers.yamlserializer``: since vcrpy 9.0 a safe loader; this floor used to
  parse with PyYAML's ``CLoader``, vcrpy 8's), also under ``-n 2``: what xdist itself makes of short
  tests on this machine. Repetitions are interleaved (size by size, kind by kind, then again), so
  a busy machine slows every kind alike; the table gives medians and ratios of medians.
  Wall is fitted as a + b·n (least squares over the sizes' medians, ``-n 0``); peak RSS is the
  largest process of the run's tree (``wait4``).
* The engine: index build pages/s at 500 and 5,000 synthetic pages (``engine_bench.py``), query
  p50 at 5,000 pages straight through ``SearchIndex.search`` and over loopback HTTP.
* WebBench: every bundled task, each a fresh world, the oracle's route and the verdict.
* The bundled suites as the README runs them (``pytest suites --wsb-record-mode=none
  --wsb-baseline=suites/baseline-local.json``) with ``-n 0`` and ``-n 2``, interleaved.
* The results file of the ``-n 0`` runs (``--wsb-json``): its size an item.
* Import: ``import pytest_websearchbench.plugin`` against ``import pytest`` alone, each in a fresh
  interpreter (``-X importtime``'s cumulative figure for the module, so the interpreter's own start is not
  in either), interleaved; once with compiled bytecode (an installed wheel: pip compiles it) in a
  temporary ``PYTHONPYCACHEPREFIX``, once with this package's modules from a copy without bytecode
  (``PYTHONDONTWRITEBYTECODE=1`` on an editable install compiles them on every start; pytest's are compiled).
* ``--project-tests``: the project's own tests with ``-n 2``, once per repetition.
* ``--runs-only``: the whole runs alone (no engine, no WebBench).

The children's pytest temporary folders are kept in a folder of the script's own (``PYTEST_DEBUG_TEMPROOT``),
so no run pays for deleting what earlier pytest sessions on the machine left.

The children's cache folder (``XDG_CACHE_HOME``) is one of the script's own too. Grades files are indexed
once (``--wsb-grades-index``): a ``--co`` run of each suite before the timed ones builds the index, as the
first run on a machine does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# measure this checkout, not whichever one the venv installed
sys.path.insert(0, str(REPO))

from engine_bench import latencies_ms, make_pages, make_queries  # noqa: E402
from pairs import run  # noqa: E402
from scaled_suite import make_scaled_suite  # noqa: E402

FLOOR_TEST = """\
import os
from pathlib import Path

import pytest
from vcr.serializers import yamlserializer  # vcrpy's own cassette loader, as a replay parses with it

CASSETTES = sorted(Path(os.environ["WSB_FLOOR_CASSETTES"]).glob("*.yaml"))


@pytest.mark.parametrize("path", CASSETTES, ids=[p.stem for p in CASSETTES])
def test_cassette(path):
    assert yamlserializer.deserialize(path.read_text("utf-8"))["interactions"]
"""


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def timed_run(args: list[str], cwd: Path, env: dict[str, str], expect_passed: int | str) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB of the process tree) of one pytest run whose last line says
    ``expect_passed`` passed (a number, or the line's words)."""
    with tempfile.TemporaryFile("w+") as out:
        figures = run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=cwd, env=env, output=out
        )
        assert figures is not None  # no deadline
        out.seek(0)
        text = out.read()
    expected = f"{expect_passed} passed" if isinstance(expect_passed, int) else expect_passed
    if figures["exit"] != 0 or expected not in text.splitlines()[-1]:
        raise SystemExit(f"pytest {' '.join(args)} exited {figures['exit']:g}:\n{text[-3000:]}")
    return figures["wall s"], figures["peak MiB"]  # ru_maxrss: Linux reports KiB, the maximum over the tree


def whole_runs(sizes: list[int], repeat: int, work: Path) -> dict[tuple[str, int], list[tuple[float, float]]]:
    """(kind, size) → [(wall s, peak RSS MiB)] per repetition; kinds: floor, floor_n2, n0, n2."""
    run_dir = work / "run"
    run_dir.mkdir()
    (run_dir / "pytest.ini").write_text("[pytest]\n")  # the same empty configuration for every kind
    (run_dir / "floor_test.py").write_text(FLOOR_TEST)
    for size in sizes:
        make_scaled_suite(work, size, REPO)
        # the grades index is built once per grades file (the first run on a machine): not timed
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "--co",
                "-p",
                "no:cacheprovider",
                "--suite",
                str(work / "suites" / f"lexbench-scale-{size}"),
            ],
            cwd=run_dir,
            env=child_env(),
            capture_output=True,
            check=True,
        )
    results: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for rep in range(repeat):
        for size in sizes:
            name = f"lexbench-scale-{size}"
            replay = [
                "--suite",
                str(work / "suites" / name),
                f"--wsb-cassette-dir={work / 'cassettes'}",
                "--wsb-record-mode=none",
            ]
            floor_env = {**child_env(), "WSB_FLOOR_CASSETTES": str(work / "cassettes" / name / "local")}
            results_file = work / f"results-{size}.json"
            kinds = {
                "floor": (["-p", "no:websearchbench", "floor_test.py"], floor_env),
                "floor_n2": (["-p", "no:websearchbench", "floor_test.py", "-n", "2"], floor_env),
                "n0": ([*replay, f"--wsb-json={results_file}"], child_env()),
                "n2": ([*replay, "-n", "2"], child_env()),
            }
            for kind, (args, env) in kinds.items():
                results.setdefault((kind, size), []).append(timed_run(args, run_dir, env, size))
            results.setdefault(("json", size), []).append((results_file.stat().st_size / size, 0.0))
            print(
                f"  repetition {rep + 1}/{repeat}, {size} items: "
                + ", ".join(
                    f"{kind} {results[kind, size][-1][0]:.2f} s {results[kind, size][-1][1]:.0f} MiB" for kind in kinds
                )
                + f", results file {results['json', size][-1][0]:,.0f} B an item, load average "
                f"{os.getloadavg()[0]:.1f}",
                file=sys.stderr,
                flush=True,
            )
    return results


BUNDLED = ["suites", "--wsb-record-mode=none", "--wsb-baseline=suites/baseline-local.json"]


def bundled_runs(repeat: int) -> dict[str, list[tuple[float, float]]]:
    """``pytest suites`` (the README's command) with -n 0 and -n 2, interleaved: kind → [(wall s, RSS MiB)]."""
    out: dict[str, list[tuple[float, float]]] = {}
    for rep in range(repeat):
        for kind, extra in (("n0", []), ("n2", ["-n", "2"])):
            out.setdefault(kind, []).append(timed_run([*BUNDLED, *extra], REPO, child_env(), "passed, 25 xfailed"))
        print(
            f"  repetition {rep + 1}/{repeat}, bundled suites: "
            + ", ".join(f"{kind} {walls[-1][0]:.2f} s" for kind, walls in out.items()),
            file=sys.stderr,
            flush=True,
        )
    return out


SPIN = "total = 0\nfor i in range(40_000_000):\n    total += i\n"


def machine_ceiling(repeat: int) -> tuple[float, float, float]:
    """What two processes at once get from this machine's cores: (one spin alone s, the slower of two at
    once s, ratio 2 × alone ÷ pair). A pure-Python loop, so no disk, memory bandwidth or GIL is shared:
    a ratio under 2 is the cores themselves (vCPUs that share a physical core, a busy host)."""
    alone, pair = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", SPIN], check=True)
        alone.append(time.perf_counter() - started)
        started = time.perf_counter()
        both = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(2)]
        for process in both:
            process.wait()
        pair.append(time.perf_counter() - started)
    one, two = statistics.median(alone), statistics.median(pair)
    return one, two, 2 * one / two


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Least-squares a, b of wall = a + b·n."""
    mean_n = statistics.fmean(n for n, _ in points)
    mean_w = statistics.fmean(w for _, w in points)
    b = sum((n - mean_n) * (w - mean_w) for n, w in points) / sum((n - mean_n) ** 2 for n, _ in points)
    return mean_w - b * mean_n, b


def engine_figures(repeat: int) -> tuple[dict[int, float], float, float]:
    """Build pages/s per corpus size (median), and query p50 ms in-process / over HTTP at 5,000 pages."""
    import httpx

    from pytest_websearchbench.engine import LocalSearchServer, SearchIndex

    corpora = {size: make_pages(size) for size in (500, 5000)}
    rates: dict[int, list[float]] = {size: [] for size in corpora}
    for _ in range(repeat):
        for size, pages in corpora.items():
            started = time.perf_counter()
            index = SearchIndex(pages)
            rates[size].append(size / (time.perf_counter() - started))
    queries = make_queries(corpora[5000], 200)
    direct = latencies_ms(lambda q: index.search(q, k=10), queries)
    with LocalSearchServer(index) as server, httpx.Client(base_url=server.base_url) as client:
        over_http = latencies_ms(lambda q: client.post("/v1/search", json={"query": q, "k": 10}).json(), queries)
    return (
        {size: statistics.median(r) for size, r in rates.items()},
        statistics.median(direct),
        statistics.median(over_http),
    )


def webbench_figures(repeat: int) -> tuple[int, float, float]:
    """(tasks, median ms for all bundled tasks, slowest task's median ms): fresh world → oracle → verdict."""
    from pytest_websearchbench.webbench.agents.episode import checked_world, run_episode
    from pytest_websearchbench.webbench.grading.verifier import verify
    from pytest_websearchbench.webbench.harbor import load_dataset

    tasks = load_dataset(REPO / "suites" / "webbench-sample" / "dataset.toml")
    totals, per_task = [], {task.name: [] for task in tasks}
    for _ in range(repeat):
        checked_world.cache_clear()  # every repetition gets its worlds as a fresh process would (kept ones read back)
        started = time.perf_counter()
        for task in tasks:
            task_started = time.perf_counter()
            verdict = verify(task.contract, run_episode(task, "oracle").evidence)
            if not verdict.passed:
                raise SystemExit(f"WebBench {task.name}: the oracle did not pass:\n{verdict.explain()}")
            per_task[task.name].append((time.perf_counter() - task_started) * 1000)
        totals.append((time.perf_counter() - started) * 1000)
    return len(tasks), statistics.median(totals), max(statistics.median(t) for t in per_task.values())


def _import_us(module: str, env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(l for l in reversed(done.stderr.splitlines()) if l.rstrip().endswith(f"| {module}"))
    return int(line.split("|")[1])


def import_figures(repeat: int) -> dict[str, tuple[float, float]]:
    """{'bytecode' | 'source': (median ms of ``import pytest_websearchbench.plugin``, of ``import pytest``)}."""
    figures = {}
    with tempfile.TemporaryDirectory(prefix="wsb-pyc-") as cache:
        compiled = {**child_env(), "PYTHONPYCACHEPREFIX": cache}
        compiled.pop("PYTHONDONTWRITEBYTECODE", None)
        _import_us("pytest_websearchbench.plugin", compiled)  # writes the bytecode of both
        # this package from a copy that has no bytecode, pytest and the rest from site-packages (compiled)
        shutil.copytree(
            REPO / "pytest_websearchbench",
            Path(cache) / "src" / "pytest_websearchbench",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        source = {**child_env(), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(Path(cache) / "src")}
        for kind, env in (("bytecode", compiled), ("source", source)):
            plugin, alone = [], []
            for _ in range(repeat):
                plugin.append(_import_us("pytest_websearchbench.plugin", env) / 1000)
                alone.append(_import_us("pytest", env) / 1000)
            figures[kind] = (statistics.median(plugin), statistics.median(alone))
    return figures


def project_tests(repeat: int) -> float:
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider"],
            cwd=REPO,
            env=child_env(),
            capture_output=True,
            check=False,
        )
        walls.append(time.perf_counter() - started)
    return statistics.median(walls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[55, 550, 2750])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--project-tests", action="store_true", help="also time the project's tests (-n 2)")
    parser.add_argument("--runs-only", action="store_true", help="only the whole runs: no engine, no WebBench")
    options = parser.parse_args()
    # the children's pytest temporary folders in one of their own: an xdist controller makes one for its
    # workers and pytest then deletes the oldest of the user's earlier ones (a run of this project's tests
    # leaves ~16,000 files: 3-5 s of the controller's CPU), which is not the run's cost
    temp_root = tempfile.TemporaryDirectory(prefix="wsb-bench-tmp-")  # removed when the script ends
    os.environ["PYTEST_DEBUG_TEMPROOT"] = temp_root.name
    # and a cache folder of their own: the grades indexes are built there, the user's is left alone
    cache_home = tempfile.TemporaryDirectory(prefix="wsb-bench-cache-")
    os.environ["XDG_CACHE_HOME"] = cache_home.name
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="wsb-scale-") as tmp:
        runs = whole_runs(options.sizes, options.repeat, Path(tmp))
    bundled = bundled_runs(options.repeat)
    spin_alone, spin_pair, ceiling = machine_ceiling(max(options.repeat, 5))
    if not options.runs_only:
        build, direct_p50, http_p50 = engine_figures(options.repeat)
        webbench_tasks, webbench_total, webbench_slowest = webbench_figures(options.repeat)
    imports = import_figures(max(options.repeat, 5))
    tests_wall = project_tests(options.repeat) if options.project_tests else None

    def wall(kind: str, size: int) -> float:
        return statistics.median(w for w, _ in runs[kind, size])

    def rss(kind: str, size: int) -> float:
        return statistics.median(r for _, r in runs[kind, size])

    sizes = options.sizes
    a, b = fit([(size, wall("n0", size)) for size in sizes]) if len(set(sizes)) > 1 else (None, None)

    def each(cell) -> str:
        return ", ".join(f"{cell(size)} at {size:,}" for size in sizes)

    print(
        f"commit {_commit()}; medians of {options.repeat} interleaved runs; "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n"
    )
    if tests_wall is not None:
        print(f"the project's own tests, -n 2: {tests_wall:.1f} s\n")
    print("| what | measured |\n|---|---|")
    print(
        "| replay ÷ bare pytest reading the same cassettes | "
        + each(lambda n: f"{wall('n0', n) / wall('floor', n):.2f}× ({wall('n0', n):.1f} s vs {wall('floor', n):.1f} s)")
        + " |"
    )
    if a is not None:  # a line needs two sizes
        print(f"| cost per item (fit of wall = a + b·n, -n 0) | a = {a:.2f} s, b = {b * 1000:.2f} ms |")
    print(
        "| peak RSS MiB, -n 0 (-n 2: largest process) | "
        + each(lambda n: f"{rss('n0', n):.0f} ({rss('n2', n):.0f})")
        + " |"
    )
    print(
        "| -n 0 wall ÷ -n 2 wall (above 1: -n 2 is faster) | "
        + each(lambda n: f"{wall('n0', n) / wall('n2', n):.2f} ({wall('n2', n):.1f} s)")
        + " |"
    )
    print(
        "| the floor: -n 0 wall ÷ -n 2 wall (what xdist makes of short tests here) | "
        + each(lambda n: f"{wall('floor', n) / wall('floor_n2', n):.2f} ({wall('floor_n2', n):.1f} s)")
        + " |"
    )
    print(
        f"| two CPU-bound processes at once ÷ one after the other (the machine's ceiling for -n 2) | "
        f"{ceiling:.2f} (one {spin_alone:.2f} s, two at once {spin_pair:.2f} s) |"
    )
    bundled_n0, bundled_n2 = (statistics.median(w for w, _ in bundled[kind]) for kind in ("n0", "n2"))
    print(
        f"| `pytest suites`: -n 0 wall ÷ -n 2 wall | {bundled_n0 / bundled_n2:.2f} "
        f"({bundled_n0:.1f} s vs {bundled_n2:.1f} s) |"
    )
    print("| results file (--wsb-json), bytes an item | " + each(lambda n: f"{wall('json', n):,.0f}") + " |")
    print(
        "| `import pytest_websearchbench.plugin` ÷ `import pytest` | "
        + "; ".join(
            f"{plugin / alone:.2f}× ({plugin:.0f} ms vs {alone:.0f} ms) {kind}"
            for kind, (plugin, alone) in imports.items()
        )
        + " |"
    )
    if options.runs_only:
        return
    print(f"| engine index build | {build[500]:,.0f} pages/s (500), {build[5000]:,.0f} (5,000) |")
    print(f"| engine query p50, in-process / over HTTP (5,000 pages) | {direct_p50:.2f} / {http_p50:.2f} ms |")
    print(
        f"| WebBench, {webbench_tasks} tasks world → oracle → verdict | {webbench_total:.0f} ms in all, "
        f"slowest task {webbench_slowest:.0f} ms |"
    )


def _commit() -> str:
    done = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


if __name__ == "__main__":
    main()
