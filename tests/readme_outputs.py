"""The README's example outputs, regenerated from real runs (``--update``) or checked against them (the default).

A block is marked by an HTML comment naming the command that prints it, right above the block's fence:

    <!-- output: pytest suites -n auto --wsb-baseline=suites/baseline-local.json -->

and, when that command is slow, the cheaper command that prints the same figures for the check:

    <!-- output: pytest suites -n auto …; check: pytest --suite lexbench-sample … -->

Commands run from the checkout's root with this checkout's package first on the path. What is compared:
each table row of a suite's summary (``<suite>  (…)`` then ``  <label>  <cells>``), keyed by suite and
row label, and the run's last line (``113 passed, 25 xfailed``) when the block's own command ran.
Timings (``latency p50/p95``, ``in 17.69s``) are rewritten by ``--update`` but never checked. A check
that ran a cheaper command compares only the rows that command printed.

    python tests/readme_outputs.py            # exit 1 and one line per figure that drifted
    python tests/readme_outputs.py --update   # rewrite the blocks from today's runs
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^<!-- output: (?P<command>.+?)(?:; check: (?P<check>.+?))? -->$")
SECTION = re.compile(r"^(?P<suite>[A-Za-z0-9][\w.-]*)  \(")
ROW = re.compile(r"^  (?P<label>\S(?:.*?\S)?)\s{2,}(?P<cells>\S.*)$")
LAST = re.compile(
    r"^=*\s*(?P<counts>\d+ (?:passed|failed|error|errors|xfailed|skipped|deselected)\b.*?)"
    r"(?P<time> in [\d.]+s(?: \([\d:]+\))?)?\s*=*$"
)
#: rows whose cells are timings: rewritten, never checked
VOLATILE = ("latency p50/p95",)


@dataclass
class Block:
    command: str
    check: str | None
    start: int  # index of the fence's first content line in the README's lines
    end: int  # index of the closing fence


def blocks(lines: list[str]) -> list[Block]:
    found = []
    for index, line in enumerate(lines):
        match = MARKER.match(line.strip())
        if not match or index + 1 >= len(lines) or not lines[index + 1].startswith("```"):
            continue
        end = next(i for i in range(index + 2, len(lines)) if lines[i].startswith("```"))
        found.append(Block(match["command"], match["check"], index + 2, end))
    return found


def figures(lines: list[str]) -> dict[tuple[str, str], str]:
    """(suite, row label) → the row's cells; ("", "last") → the run's counts line."""
    out: dict[tuple[str, str], str] = {}
    suite = ""
    for line in lines:
        if SECTION.match(line):
            suite = SECTION.match(line)["suite"]
            continue
        if not line.strip():
            suite = ""
            continue
        row = ROW.match(line)
        if suite and row:
            out[suite, row["label"]] = row["cells"].rstrip()
        last = LAST.match(line.strip())
        if last and not line.startswith(" "):
            out["", "last"] = last["counts"].strip()
    return out


def run(command: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]), "COLUMNS": "80"}
    done = subprocess.run(["bash", "-c", command], cwd=REPO, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: a documented run with failures; anything else did not run
        raise SystemExit(
            f"readme_outputs: `{command}` exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    return done.stdout.splitlines()


def drift(documented: list[str], fresh: list[str], *, whole: bool) -> list[str]:
    """One line per figure the README shows otherwise than the fresh output (``whole``: the block's own
    command ran, so its last line counts too)."""
    shown, now = figures(documented), figures(fresh)
    problems = []
    for key, cells in shown.items():
        if key not in now or key[1] in VOLATILE or (key == ("", "last") and not whole):
            continue
        wanted = now[key]
        if key == ("", "last"):
            wanted = LAST.match(wanted)["counts"].strip() if LAST.match(wanted) else wanted
        if re.sub(r"\s+", " ", cells) != re.sub(r"\s+", " ", wanted):
            suite, label = key
            problems.append(f"{suite or 'last line'}{' ' + label if suite else ''}: README {cells!r}, today {wanted!r}")
    return problems


def rewrite(documented: list[str], fresh: list[str]) -> list[str]:
    """The block's lines with every figure it shows taken from the fresh output (timings included)."""
    now = figures(fresh)
    fresh_last = next((line.strip().strip("=").strip() for line in reversed(fresh) if LAST.match(line.strip())), None)
    out, suite = [], ""
    for line in documented:
        if SECTION.match(line):
            suite = SECTION.match(line)["suite"]
        elif not line.strip():
            suite = ""
        row = ROW.match(line)
        if suite and row and (suite, row["label"]) in now:
            prefix = line[: line.index(row["cells"])]
            line = prefix + now[suite, row["label"]]
        elif LAST.match(line.strip()) and not line.startswith(" ") and fresh_last:
            line = fresh_last
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the README's blocks from today's runs")
    parser.add_argument("--readme", type=Path, default=REPO / "README.md")
    args = parser.parse_args(argv)
    lines = args.readme.read_text("utf-8").splitlines()
    problems = []
    for block in reversed(blocks(lines)):  # from the end: a rewritten block never moves an earlier one
        command = block.command if args.update or not block.check else block.check
        fresh = run(command)
        documented = lines[block.start : block.end]
        if args.update:
            lines[block.start : block.end] = rewrite(documented, fresh)
        else:
            problems += [
                f"{args.readme.name}:{block.start + 1} `{block.command}`: {p}"
                for p in drift(documented, fresh, whole=command == block.command)
            ]
    if args.update:
        args.readme.write_text("\n".join(lines) + "\n", "utf-8")
        return 0
    print("\n".join(problems) or "the README's outputs match today's runs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
