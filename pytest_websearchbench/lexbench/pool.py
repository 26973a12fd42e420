"""The pool of one or more collected runs (``--wsb-json`` files of one suite and k): per query, every
distinct normalised URL the providers returned, with every distinct preview (title, snippet, date)
they showed for it, and what it still needs before every provider can be scored against it. A
preview's date is the hit's, whatever its provider's shape, read by ``core.dates.parse_date``
(relative forms against the time the answer was received) and kept as an ISO date — the date the
grades file records and scoring checks the time window against; a date it cannot read is unknown. The
time the preview was received is kept too (``received_at``) and written on the grade line, so a grades
file says what any relative date in it counts back from.

A pooled page is *graded* (a grades file already has it), *ineligible* (every preview of it breaks
an explicit requirement — site, time window, content terms — so it is 0 by rule and nobody is asked)
or *to grade*. Which provider returned it, and at which rank, is kept here for the report only; the
grading packets never see it (``packets.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.models import previews_from_rows
from pytest_websearchbench.core.results_file import read_results
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.lexbench.eligibility import hit_date, requirement_violations
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import Scenario


@dataclass(frozen=True)
class Preview:
    title: str
    snippet: str
    published: str | None = None  # an ISO date (YYYY-MM-DD); None: none given, or none readable
    # when the answer showing it was received (ISO 8601), the first seen: a receipt, not part of the preview
    received_at: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class RunItem:
    """One (case, provider) of a results file: its hits as dicts, or None when the item errored."""

    case_id: str
    provider: str
    hits: tuple[dict[str, Any], ...] | None


@dataclass(frozen=True)
class Run:
    """The LexBench scenario items of the results files, all of one suite and one k."""

    suite: str
    k: int
    items: tuple[RunItem, ...]

    @property
    def providers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item.provider for item in self.items))


@dataclass
class PoolEntry:
    query_id: str
    key: str  # normalised URL
    url: str  # the first form seen
    previews: list[Preview] = field(default_factory=list)
    returned_by: list[tuple[str, int]] = field(default_factory=list)  # (provider, rank): the report's only
    grade: GradedPreview | None = None
    violations: dict[Preview, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ineligible(self) -> tuple[str, ...]:
        """The rules every preview breaks (none: at least one preview is eligible)."""
        if self.grade is not None or not self.previews or not all(self.violations.get(p) for p in self.previews):
            return ()
        return tuple(dict.fromkeys(rule for p in self.previews for rule in self.violations[p]))

    @property
    def to_grade(self) -> list[Preview]:
        """The previews a grader must see (none when graded or ineligible by rule)."""
        if self.grade is not None or self.ineligible:
            return []
        return [p for p in self.previews if not self.violations.get(p)]


@dataclass
class QueryPool:
    scenario: Scenario
    entries: dict[str, PoolEntry] = field(default_factory=dict)
    errored: list[str] = field(default_factory=list)  # providers whose item errored (no hits)

    @property
    def graded(self) -> int:
        return sum(e.grade is not None for e in self.entries.values())

    @property
    def ineligible(self) -> int:
        return sum(bool(e.ineligible) for e in self.entries.values())

    @property
    def work_left(self) -> int:
        """Previews that still need a grader."""
        return sum(len(e.to_grade) for e in self.entries.values())

    @property
    def judged_share(self) -> float:
        """Pooled pages with a grade (from a file or by rule), of all pooled pages."""
        return (self.graded + self.ineligible) / len(self.entries) if self.entries else 1.0


def load_runs(paths: list[Path], suite_name: str | None = None) -> Run:
    """The scenario items of ``paths`` (of ``suite_name`` where a file holds several scenario suites);
    files of other suites or another k are refused (one line)."""
    suite: str | None = None
    k: int | None = None
    first: Path | None = None
    items: list[RunItem] = []
    seen: dict[tuple[str, str], Path] = {}
    for path in paths:
        doc = read_results(path)
        if doc.get("raw_answers") is False:
            raise SuiteError(
                path,
                "written without --wsb-json-raw: it holds the scores, not the provider answers "
                "a pool is made of; run again with --wsb-json-raw",
                field="raw_answers",
            )
        run_k = doc.get("k")
        lex = [
            name
            for name, meta in (doc.get("suites") or {}).items()
            if meta.get("family") == "lexbench" and meta.get("kind") == "scenario"
        ]
        if suite_name is not None and suite_name in lex:
            lex = [suite_name]
        if len(lex) != 1:
            raise SuiteError(
                path,
                f"expected the results of one LexBench scenario suite{' (--suite)' if lex else ''}, "
                f"found {len(lex)} ({', '.join(lex) or 'none'})",
                field="suites",
            )
        if suite is not None and (lex[0], run_k) != (suite, k):
            raise SuiteError(
                path,
                f"suite {lex[0]} at k={run_k} cannot be pooled with {first} "
                f"(suite {suite} at k={k}): a pool is one suite at one declared budget",
                field="suites" if lex[0] != suite else "k",
            )
        suite, k, first = lex[0], run_k, first or path
        for record in doc["items"]:
            if record["suite"] != suite:
                continue
            item = _run_item(record, path)
            if (item.case_id, item.provider) in seen:
                raise SuiteError(
                    path,
                    f"{item.case_id} is answered by {item.provider} here and in "
                    f"{seen[item.case_id, item.provider]}: pool each provider's run once",
                    item=item.case_id,
                    field="provider",
                )
            seen[item.case_id, item.provider] = path
            items.append(item)
    if suite is None or k is None:  # (k is set with the suite)
        raise SuiteError("<results>", "no results file given")
    return Run(suite, k, tuple(items))


def _run_item(record: dict[str, Any], path: Path) -> RunItem:
    case_id, provider = record["case_id"], record["provider"]  # strings: read_results checked them
    raw = previews_from_rows(record.get("raw"), record.get("results") or [])  # as the results file writes it
    if record.get("outcome") == "error" or raw is None:
        return RunItem(case_id, provider, None)
    hits = raw.get("hits") if isinstance(raw, dict) else None
    if not isinstance(hits, list):
        raise SuiteError(path, "raw.hits is not a list", item=f"{case_id}[{provider}]", field="raw.hits")
    for position, hit in enumerate(hits, start=1):
        if not isinstance(hit, dict) or not isinstance(hit.get("url"), str) or not hit["url"]:
            raise SuiteError(
                path, f"hit {position} has no url", item=f"{case_id}[{provider}]", field=f"raw.hits[{position - 1}].url"
            )
    return RunItem(case_id, provider, tuple(hits))


def build_pool(
    run: Run, scenarios: dict[str, Scenario], grades: dict[str, dict[str, GradedPreview]]
) -> dict[str, QueryPool]:
    """query id → its pool (every declared scenario, in suite order), from each item's top k.

    A results item whose case the suite does not declare is refused: the run and suite disagree."""
    pools = {qid: QueryPool(s) for qid, s in scenarios.items()}
    for item in run.items:
        pool = pools.get(item.case_id)
        if pool is None:
            raise SuiteError(
                run.suite,
                f"the results answer {item.case_id}, which the suite does not declare",
                item=item.case_id,
                field="case_id",
            )
        if item.hits is None:
            pool.errored.append(item.provider)
            continue
        for position, hit in enumerate(item.hits[: run.k], start=1):
            key = normalize_url(hit["url"])
            entry = pool.entries.get(key)
            if entry is None:
                entry = pool.entries[key] = PoolEntry(
                    item.case_id, key, hit["url"], grade=grades.get(item.case_id, {}).get(key)
                )
            preview = _preview(hit)
            entry.returned_by.append((item.provider, int(hit.get("rank") or position)))
            if preview not in entry.violations:
                entry.previews.append(preview)
                text = f"{preview.title} {preview.snippet}" if preview.title or preview.snippet else None
                published = date.fromisoformat(preview.published) if preview.published else None
                entry.violations[preview] = tuple(
                    requirement_violations(pool.scenario.requirements, hit["url"], text, published)
                )
    return pools


def _preview(hit: dict[str, Any]) -> Preview:
    extra = hit.get("extra")
    extra = extra if isinstance(extra, dict) else {}
    published = hit_date(extra).date
    received = extra.get("received_at")
    return Preview(
        str(hit.get("title") or ""),
        str(hit.get("snippet") or ""),
        published.isoformat() if published else None,
        received if isinstance(received, str) else None,
    )


def pool_report(run: Run, pools: dict[str, QueryPool]) -> list[str]:
    """Per query: pool size, graded, ineligible by rule, judged share and the previews left to grade."""
    lines = [
        f"pool of {run.suite} at k={run.k} from {len(run.providers)} provider"
        f"{'s' if len(run.providers) != 1 else ''} ({', '.join(run.providers)})",
        f"  {'query':<10} {'pool':>5} {'graded':>7} {'by rule':>8} {'judged':>7} {'to grade':>9}",
    ]
    for qid, pool in pools.items():
        errored = f"  ({', '.join(pool.errored)} errored)" if pool.errored else ""
        lines.append(
            f"  {qid:<10} {len(pool.entries):>5} {pool.graded:>7} {pool.ineligible:>8} "
            f"{pool.judged_share:>7.0%} {pool.work_left:>9}{errored}"
        )
    size = sum(len(p.entries) for p in pools.values())
    graded = sum(p.graded for p in pools.values())
    rule = sum(p.ineligible for p in pools.values())
    left = sum(p.work_left for p in pools.values())
    share = (graded + rule) / size if size else 1.0
    lines.append(f"  {'total':<10} {size:>5} {graded:>7} {rule:>8} {share:>7.0%} {left:>9}")
    lines += [
        f"  {len(pools)} queries; pool = distinct normalised URLs in the top {run.k}; judged = graded or 0 by rule",
        "  (a preview breaking a site, time or content requirement is never sent to a grader)",
    ]
    return lines
