"""Rebuild the HTML report from results files, without running anything: the ``wsb-report`` command.

    wsb-report results.json [more.json ...] -o report.html     # or python -m pytest_websearchbench.report
    wsb-report --history history.sqlite -o trends.html          # the trend page of a --wsb-history file

Several files make one comparison report (a provider that several files name for one suite is told
apart by its file's name). A file that cannot be used is one line naming the file, the item and the field.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_websearchbench.providers import ProviderRegistry, register_builtin_providers
from pytest_websearchbench.reporting.history import HistoryError, load_history
from pytest_websearchbench.reporting.html.model import Source
from pytest_websearchbench.reporting.html.render import write_report
from pytest_websearchbench.reporting.html.trend_page import write_trends
from pytest_websearchbench.reporting.json_results import FORMAT, RunResults, run_secrets
from pytest_websearchbench.run.registry import FAMILIES

_FORMAT_NAME = FORMAT.split("@")[0] + "@"


class ReportInputError(Exception):
    """A results file the report cannot use: the message is the whole line."""


def load_source(path: Path) -> Source:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise ReportInputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportInputError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        document = json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        raise ReportInputError(f"{path}, line {exc.lineno}, column {exc.colno}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise ReportInputError(f"{path}: not JSON (nested too deeply)") from None
    check_document(document, str(path))
    return Source(path.name, RunResults.from_dict(document))


class _TooLong:
    """A whole number too long to be one (Python refuses to read past 4,300 digits): the check names its field."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a {self.digits:,}-digit number"


def _whole_number(text: str) -> int | _TooLong:
    return _TooLong(len(text.lstrip("-"))) if len(text) > 40 else int(text)


def check_document(document: Any, where: str) -> None:
    """The fields the report reads, with their types (a results file of any plugin version has them)."""
    if not isinstance(document, dict) or not str(document.get("format", "")).startswith(_FORMAT_NAME):
        found = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise ReportInputError(
            f"{where}: not a pytest-websearchbench results file (format {found!r}; "
            f"expected {FORMAT!r}, as --wsb-json writes)"
        )
    if not isinstance(document.get("items"), list):
        raise ReportInputError(f"{where}: field 'items': expected a list of items")
    k = document.get("k")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ReportInputError(f"{where}: field 'k': expected a whole number from 1, got {k!r:.60}")
    for position, name in enumerate(_expect(document, "providers", list, where, optional=True) or []):
        if not isinstance(name, str):
            raise ReportInputError(f"{where}: field 'providers[{position}]': expected a string, got {name!r:.60}")
    for name, suite in (_expect(document, "suites", dict, where, optional=True) or {}).items():
        if not isinstance(suite, dict):
            raise ReportInputError(f"{where}: field 'suites.{name}': expected an object, got {suite!r:.60}")
        for field in ("family", "kind", "edition", "digest"):
            _expect(suite, field, str, f"{where}: suites.{name}", optional=True)
        _expect(suite, "sources", list, f"{where}: suites.{name}", optional=True)
    for name, settings in (_expect(document, "provider_settings", dict, where, optional=True) or {}).items():
        _expect({name: settings}, name, dict, f"{where}: provider_settings", optional=True)
    baseline = _expect(document, "baseline", dict, where, optional=True)
    for index, verdict in enumerate((baseline or {}).get("verdicts") or []):
        if not isinstance(verdict, dict) or not all(isinstance(verdict.get(f), str) for f in ("suite", "provider")):
            raise ReportInputError(f"{where}: baseline.verdicts[{index}]: expected an object with suite and provider")
    seen: dict[tuple[str, str, str], int] = {}
    for index, item in enumerate(document["items"]):
        _check_item(item, f"{where}, item {index}")
        key = item["suite"], item["case_id"], item["provider"]
        if key in seen:  # one record per item: a second would count the item twice
            raise ReportInputError(
                f"{where}, item {index} ({key[0]}/{key[1]}[{key[2]}]): the same suite, case and "
                f"provider as item {seen[key]}"
            )
        seen[key] = index


def _check_item(item: Any, where: str) -> None:
    if not isinstance(item, dict):
        raise ReportInputError(f"{where}: expected an object, got {type(item).__name__}")
    for name in ("suite", "case_id", "provider", "family", "outcome"):
        if not isinstance(item.get(name), str) or not item[name]:
            raise ReportInputError(f"{where}: field {name!r}: expected a non-empty string, got {item.get(name)!r}")
    where = f"{where} ({item['suite']}/{item['case_id']}[{item['provider']}])"
    for name in ("kind", "nodeid", "message", "primary_metric", "cassette", "error", "error_kind"):
        _expect(item, name, str, where, optional=True)
    metrics = _expect(item, "metrics", dict, where, optional=True) or {}
    for name, value in metrics.items():
        if not _finite(value):
            raise ReportInputError(f"{where}: field 'metrics.{name}': expected a finite number, got {value!r:.60}")
    for name in ("results", "calls", "tags"):
        for position, entry in enumerate(_expect(item, name, list, where, optional=True) or []):
            wanted = str if name == "tags" else dict
            if not isinstance(entry, wanted):
                raise ReportInputError(
                    f"{where}: field '{name}[{position}]': expected "
                    f"{'a string' if wanted is str else 'an object'}, got {entry!r:.60}"
                )
    for position, call in enumerate(item.get("calls") or []):
        seconds = call.get("seconds")
        if seconds is not None and not _finite(seconds):
            raise ReportInputError(
                f"{where}: field 'calls[{position}].seconds': expected a finite number, got {seconds!r:.60}"
            )
    raw = _expect(item, "raw", dict, where, optional=True) or {}
    for name in ("queries", "hits", "pages"):
        _expect(raw, name, list, f"{where}: raw", optional=True)
    _expect(raw, "extra", dict, f"{where}: raw", optional=True)
    _expect(item, "baseline", dict, where, optional=True)


def _finite(value: Any) -> bool:
    """A JSON number a figure can use: not a bool, not NaN or ±Infinity, not past a float's range."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int past a float's range
        return False


def _expect(data: Mapping[str, Any], name: str, kind: type, where: str, *, optional: bool = False) -> Any:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind):
        nouns: dict[type, str] = {list: "a list", dict: "an object", str: "a string"}
        noun = nouns[kind]
        raise ReportInputError(f"{where}: field {name!r}: expected {noun}, got {value!r:.60}")
    return value


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
