"""Rebuild the HTML report from results files, without running anything: the ``wsb-report`` command.

    wsb-report results.json [more.json ...] -o report.html     # or python -m pytest_websearchbench.report
    wsb-report --history history.sqlite -o trends.html          # the trend page of a --wsb-history file

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
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Build the HTML report from results files (--wsb-json); several files make one comparison.",
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


if __name__ == "__main__":
    sys.exit(main(prog="python -m pytest_websearchbench.report"))
