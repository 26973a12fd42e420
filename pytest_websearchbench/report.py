"""Rebuild the HTML report from results files, without running anything: the ``wsb-report`` command.

    wsb-report results.json [more.json ...] -o report.html     # or python -m pytest_websearchbench.report
    wsb-report --history history.sqlite -o trends.html          # the trend page of a --wsb-history file
    wsb-report parity --a a1.json a2.json --b b1.json b2.json   # Harbor's parity rule over two sides' runs

Several files make one comparison report (a provider that several files name for one suite is told
apart by its file's name). A file that cannot be used is one line naming the file, the item and the field.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.results_file import read_results
from pytest_websearchbench.providers import ProviderRegistry, register_builtin_providers
from pytest_websearchbench.reporting.history import HistoryError, load_history
from pytest_websearchbench.reporting.html.model import Source
from pytest_websearchbench.reporting.html.render import write_report
from pytest_websearchbench.reporting.html.trend_page import write_trends
from pytest_websearchbench.reporting.json_results import RunResults, run_secrets
from pytest_websearchbench.run.registry import FAMILIES


class ReportInputError(Exception):
    """A results file the report cannot use: the message is the whole line."""


def load_source(path: Path) -> Source:
    try:
        document = read_results(path)
    except SuiteError as exc:
        raise ReportInputError(str(exc)) from None
    return Source(path.name, RunResults.from_dict(document))


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["parity"]:  # a subcommand beside the report's own arguments (a file named parity: ./parity)
        return _parity(argv[1:], f"{prog or os.path.basename(sys.argv[0])} parity")
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Build the HTML report from results files (--wsb-json); several files make one comparison. "
        "wsb-report parity --a RUN.json... --b RUN.json...: Harbor's parity rule over two sides' runs.",
    )
    parser.add_argument("results", nargs="*", type=Path, help="results files written by --wsb-json")
    parser.add_argument(
        "--history",
        type=Path,
        metavar="HISTORY",
        help="instead: the trend page of a release history written by --wsb-history",
    )
    parser.add_argument(
        "-o", "--output", type=Path, help="the page to write (default: report.html, with --history trends.html)"
    )
    args = parser.parse_args(argv)
    if args.history is not None:
        if args.results:
            parser.error("give results files or --history, not both")
        return _trends(args.history, args.output or Path("trends.html"))
    if not args.results:
        parser.error("give the results files to report on (or --history HISTORY)")
    args.output = args.output or Path("report.html")
    try:
        sources = [load_source(path) for path in args.results]
    except ReportInputError as exc:
        print(f"report: {exc}", file=sys.stderr)
        return 2
    labels = [source.label for source in sources]
    if len(set(labels)) != len(labels):  # the label tells apart a provider that several files name
        sources = [Source(str(path), source.results) for path, source in zip(args.results, sources)]
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    registry.add_entry_points()
    secrets = run_secrets(registry, FAMILIES.values(), os.environ)
    try:
        size = write_report(args.output, sources, FAMILIES, secrets=secrets)
    except OSError as exc:
        print(f"report: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    items = sum(len(source.results.records) for source in sources)
    print(
        f"report written to {args.output} ({size:,} bytes; {items} items from {len(sources)} "
        f"file{'s' if len(sources) != 1 else ''})"
    )
    return 0


def _trends(history: Path, output: Path) -> int:
    """The trend page of a release history; a history that cannot be used is one line naming it."""
    try:
        entries = load_history(history)
    except HistoryError as exc:
        print(f"report: {exc}", file=sys.stderr)
        return 2
    registry = ProviderRegistry()  # every provider this installation knows: the page scrubs each one's key
    register_builtin_providers(registry)
    registry.add_entry_points()
    try:
        size = write_trends(output, history.name, entries, secrets=run_secrets(registry, FAMILIES.values(), os.environ))
    except OSError as exc:
        print(f"report: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(
        f"trend page written to {output} ({size:,} bytes; {len(entries)} run{'s' if len(entries) != 1 else ''} "
        f"from {history})"
    )
    return 0


def _parity(argv: list[str], prog: str) -> int:
    """Harbor's parity rule over two sides' runs (``reporting/parity.py``): the table, and with --json the
    parity_experiment.json; exit 1 when a metric's ranges do not overlap."""
    import json
    from datetime import date

    from pytest_websearchbench.core.atomic import write_text_atomic
    from pytest_websearchbench.reporting.parity import MIN_RUNS, parity, parity_document

    parser = argparse.ArgumentParser(
        prog=prog,
        description="Harbor's parity rule: each metric's mean ± SEM over each side's runs (a run's value is its "
        "suite × variant mean over items) and whether the ranges [mean − SEM, mean + SEM] overlap; exit 1 when "
        "one does not.",
    )
    parser.add_argument(
        "--a", nargs="+", type=Path, required=True, metavar="RUN.json", help="side a's results files (the original)"
    )
    parser.add_argument(
        "--b",
        nargs="+",
        type=Path,
        required=True,
        metavar="RUN.json",
        help="side b's results files (the adapter, the new harness)",
    )
    parser.add_argument(
        "--json", type=Path, metavar="OUT", help="write the comparison as Harbor's parity_experiment.json"
    )
    parser.add_argument(
        "--adapter-name", default="pytest-websearchbench", help="its adapter_name (default: %(default)s)"
    )
    parser.add_argument("--agent", default="", help="its agent (default: the variants compared)")
    parser.add_argument("--model", default="", help="its model")
    args = parser.parse_args(argv)
    for side in ("a", "b"):
        if len(getattr(args, side)) < MIN_RUNS:
            print(
                f"report parity: --{side} needs at least {MIN_RUNS} runs (a standard error needs two), got {len(getattr(args, side))}",
                file=sys.stderr,
            )
            return 2
    try:
        sides = [[load_source(path).results for path in getattr(args, side)] for side in ("a", "b")]
    except ReportInputError as exc:
        print(f"report parity: {exc}", file=sys.stderr)
        return 2
    result = parity(sides[0], sides[1], FAMILIES)
    if not result.rows:
        print(
            "report parity: the two sides share no suite, variant and metric run at least twice each", file=sys.stderr
        )
        return 2
    for row in result.rows:
        verdict = "overlap" if row.overlap else "NO OVERLAP"
        print(
            f"{row.suite} [{row.variant}] {row.label}: a {row.a.text()} (n={len(row.a.trials)}), b {row.b.text()} (n={len(row.b.trials)}): {verdict}"
        )
    for line in result.unmatched:
        print(f"not compared: {line}")
    if args.json is not None:
        variants = sorted({row.variant for row in result.rows})
        items = max(len(run.records) for run in sides[0] + sides[1])
        document = parity_document(
            result,
            adapter_name=args.adapter_name,
            agent=args.agent or ", ".join(variants),
            model=args.model,
            date=date.today().isoformat(),
            items=items,
        )
        try:
            write_text_atomic(args.json, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        except OSError as exc:
            print(f"report parity: cannot write {args.json}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"parity written to {args.json}")
    return 0 if all(row.overlap for row in result.rows) else 1


if __name__ == "__main__":
    sys.exit(main(prog="python -m pytest_websearchbench.report"))
