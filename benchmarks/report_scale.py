"""The HTML report at scale (issue 25): its size and how long headless Chromium takes to open it.

The bundled ``lexbench-sample`` replayed once with ``--wsb-json --wsb-json-raw`` (55 items: with the
answers, so every drill-down shows its previews, the larger report), its records copied to
2,750 and 10,010 items the way ``scaled_suite.py`` copies the suite (copy ``c`` of ``q001`` is
``q001-c<c>`` in suite ``lexbench-scale-<n>``), in round-robin order: q001-c0 … q055-c0, q001-c1 …, so
that a drill-down's twin is 55 items away, beyond gzip's 32 KiB window, and the compressed drill-downs
are as large as distinct items' would be (a replay writes its items sorted by id, twins side by side,
which gzip squeezes to almost nothing). Then for each checkout and size: the report built from that
file by the report CLI (wall seconds, bytes), and opened in Debian's chromium through Playwright, a
fresh page each repetition: seconds from navigation to the load event (the page's script runs before
it, so the item list is drawn), the DOM's element count, and the seconds from a click on the first
item to its drill-down on screen. Checkouts and repetitions are interleaved; medians.

    python benchmarks/report_scale.py                        # --sizes 2750 10010 --repeat 3
    python benchmarks/report_scale.py --checkout OLD_TREE     # before/after: OLD_TREE first, this one second
    python benchmarks/report_scale.py --work DIR              # keep (or reuse) the results files
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scaled_suite import SOURCE, suite_name

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def env_for(checkout: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(checkout), env.get("PYTHONPATH")]))
    return env


def results_file(work: Path, size: int) -> Path:
    """The results file of ``size`` items (made once, kept in ``work``)."""
    path = work / f"results-{size}.json"
    if path.is_file():
        return path
    sample = work / "results-sample.json"
    if not sample.is_file():
        run = work / "run"
        run.mkdir(exist_ok=True)
        (run / "pytest.ini").write_text("[pytest]\n")
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--suite",
                SOURCE,
                f"--wsb-cassette-dir={REPO / 'cassettes'}",
                "--wsb-record-mode=none",
                f"--wsb-json={sample}",
                "--wsb-json-raw",
            ],
            cwd=run,
            env=env_for(REPO),
            capture_output=True,
            text=True,
        )
        if not sample.is_file():
            raise SystemExit(f"the {SOURCE} replay wrote no results file:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    document = json.loads(sample.read_text("utf-8"))
    originals = document["items"]
    name = suite_name(size)
    items = []
    for n in range(size):
        item = originals[n % len(originals)]
        case = f"{item['case_id']}-c{n // len(originals)}"
        items.append({**item, "suite": name, "case_id": case, "nodeid": f"suites/{name}::{case}[{item['provider']}]"})
    document.update(items=items, suites={name: document["suites"][SOURCE]}, declared_items=size)
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return path


def build(checkout: Path, results: Path, output: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest_websearchbench.report", str(results), "-o", str(output)],
        env=env_for(checkout),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"the report CLI of {checkout} failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - started


def open_in_chromium(browser, path: Path) -> tuple[float, int, float]:
    """(seconds to the load event, DOM elements, seconds from a click on the first item to its drill-down)."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    started = time.perf_counter()
    page.goto(path.as_uri(), wait_until="load", timeout=300_000)
    loaded = time.perf_counter() - started
    elements = page.evaluate("document.getElementsByTagName('*').length")
    started = time.perf_counter()
    page.locator("button.open").first.click(timeout=300_000)
    page.locator("tr.drill .drilldown").first.wait_for(timeout=300_000)
    opened = time.perf_counter() - started
    context.close()
    if errors:
        raise SystemExit(f"{path}: {errors}")
    return loaded, elements, opened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2750, 10010])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--checkout", type=Path, help="another tree of the project, measured first beside this one")
    parser.add_argument("--work", type=Path, help="where the scaled suites, results files and reports go")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = args.work or Path(tempfile.mkdtemp(prefix="wsb-report-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    checkouts = [("before", args.checkout.resolve())] if args.checkout else []
    checkouts.append(("this", REPO))
    results = {size: results_file(work, size) for size in args.sizes}
    figures: dict[tuple[str, int], dict[str, list[float]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for rep in range(args.repeat):
            for size in args.sizes:
                for label, checkout in checkouts:
                    output = work / f"report-{label}-{size}.html"
                    cell = figures.setdefault((label, size), {})
                    cell.setdefault("build", []).append(build(checkout, results[size], output))
                    cell.setdefault("bytes", []).append(output.stat().st_size)
                    loaded, elements, opened = open_in_chromium(browser, output)
                    cell.setdefault("load", []).append(loaded)
                    cell.setdefault("elements", []).append(elements)
                    cell.setdefault("open", []).append(opened)
                    print(
                        f"  repetition {rep + 1}/{args.repeat}, {size} items, {label}: {output.stat().st_size / 1e6:.1f} MB, "
                        f"load {loaded:.2f} s, drill-down {opened:.2f} s",
                        file=sys.stderr,
                        flush=True,
                    )
        browser.close()
    print(
        f"\nload average {os.getloadavg()[0]:.1f} / {os.getloadavg()[1]:.1f} / {os.getloadavg()[2]:.1f}; "
        f"medians of {args.repeat}\n"
    )
    print("| checkout | items | size MB | load s | DOM elements | drill-down s | build s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (label, size), cell in figures.items():
        median = {name: statistics.median(values) for name, values in cell.items()}
        print(
            f"| {label} | {size:,} | {median['bytes'] / 1e6:.1f} | {median['load']:.2f} | {median['elements']:,.0f} | "
            f"{median['open']:.2f} | {median['build']:.1f} |"
        )


if __name__ == "__main__":
    main()
