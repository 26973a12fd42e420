"""WebBench worlds at the release's scale (issue 28): per family, the applications, SQLite tables and rows
of every bundled task's world, and how long each world takes to build (rows, then the SQLite bytes).

    python benchmarks/world_bench.py              # every bundled task's world, best of 5 each
    python benchmarks/world_bench.py --one staffing:1:issue --repeat 20   # one world, for a whole-process timer
"""

from __future__ import annotations

import argparse
import statistics
import time

from pytest_websearchbench.webbench.tasks.generate import planned
from pytest_websearchbench.webbench.world.build import WorldSpec, build_rows, rows_to_sqlite
from pytest_websearchbench.webbench.world.schema import ANSWER_TABLE, SCHEMAS


def build_once(spec: WorldSpec) -> tuple[float, int]:
    started = time.perf_counter()
    world, _ = build_rows(spec)
    rows_to_sqlite(world.rows, world.schema)
    return time.perf_counter() - started, sum(len(rows) for rows in world.rows.values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--one", help="template:seed:variant: build only this world, --repeat times")
    options = parser.parse_args()
    if options.one:
        template, seed, variant = options.one.split(":")
        for _ in range(options.repeat):
            build_once(WorldSpec(template, int(seed), variant))
        return
    figures: dict[str, list[tuple[float, int]]] = {}
    for _, template, seed, variant in planned():
        spec = WorldSpec(template, seed, variant)
        runs = [build_once(spec) for _ in range(options.repeat)]
        figures.setdefault(spec.world, []).append((min(t for t, _ in runs), runs[0][1]))
    print("| family | applications | tables | rows a world | build ms, median / max of the worlds' best |")
    print("|---|---:|---:|---:|---:|")
    for family, worlds in figures.items():
        schema = SCHEMAS[family]
        apps = len({t.app for name, t in schema.tables.items() if name != ANSWER_TABLE})
        tables = len(schema.tables) + 1  # and the wsb_world table that names the family
        rows = sorted(n for _, n in worlds)
        times = [t * 1000 for t, _ in worlds]
        print(
            f"| {family} ({len(worlds)} worlds) | {apps} | {tables} | {rows[0]:,}–{rows[-1]:,} | "
            f"{statistics.median(times):.0f} / {max(times):.0f} |"
        )


if __name__ == "__main__":
    main()
