"""The shortcut table: each shortcut the release's rules forbid, replayed from every bundled WebBench
task's saved oracle route where it applies, with the WebScore it gets and whether that is what the card's
rules give (``pytest_websearchbench.webbench.agents.shortcuts``).

    python benchmarks/webbench_shortcuts.py [--suite suites/webbench-sample] [--browser text|chromium] [--tasks]

``--tasks`` adds one line per task. The exit status is 1 when some shortcut scores other than the card says.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_websearchbench.webbench.agents.shortcuts import SHORTCUTS, measure
from pytest_websearchbench.webbench.harbor import load_dataset

SUITE = Path(__file__).resolve().parents[1] / "suites" / "webbench-sample"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=SUITE, help="a WebBench suite folder (with dataset.toml)")
    parser.add_argument("--browser", default="text", choices=("text", "chromium"))
    parser.add_argument("--tasks", action="store_true", help="also print every task's WebScore")
    args = parser.parse_args(argv)
    rows = measure(load_dataset(args.suite / "dataset.toml"), browser=args.browser)
    print("| shortcut | the card says | here (WebScore 0-100 per task it applies to) | as the card says |")
    print("|---|---|---|---|")
    for name, (what, says) in SHORTCUTS.items():
        mine = [r for r in rows if r["shortcut"] == name]
        scores = sorted(r["webscore"] for r in mine)
        spread = (
            "-"
            if not scores
            else f"{scores[0]:.1f}"
            if scores[0] == scores[-1]
            else f"{scores[0]:.1f}–{scores[-1]:.1f}"
        )
        print(f"| {what} | {says} | {spread} on {len(mine)} task(s) | {sum(r['holds'] for r in mine)}/{len(mine)} |")
        if args.tasks:
            for r in mine:
                print(f"|   {r['task']} | | {r['webscore']:.2f} | {'yes' if r['holds'] else 'NO: ' + r['why']} |")
    return 0 if all(r["holds"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
