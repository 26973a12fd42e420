"""LexBench-Web-Search: search-result quality, graded 0–3 per (query, normalised URL).

Scenario and factual editions are separate suites (``kind``), reported apart, never mixed.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.cache import user_cache_dir
from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.family import (
    BenchmarkFamily,
    Case,
    CaseSample,
    Coverage,
    Drilldown,
    MetricColumn,
    RawResults,
    RunContext,
    Score,
    Suite,
)
from pytest_websearchbench.core.options import GRADES_DIGEST, JUDGE, OptionValues, Settings, output_folder
from pytest_websearchbench.core.suites import (
    SuiteManifest,
    digest_files,
    file_sha256,
    read_records,
    require_unique_ids,
)
from pytest_websearchbench.lexbench.editions import GradesUsed, file_digest, layer_grades
from pytest_websearchbench.lexbench.grades import GradedPreview, load_grades
from pytest_websearchbench.lexbench.grades_index import open_grades
from pytest_websearchbench.lexbench.items import (
    FACTUAL,
    SCENARIO,
    Scenario,
    factual_case,
    scenario_case,
    scenario_from_record,
)
from pytest_websearchbench.lexbench.scoring import passing_pages, score_factual, score_scenario


class LexBenchFamily(BenchmarkFamily):
    name = "lexbench"
    outputs_answers = False  # --wsb-trec's run files read the scored rows' URLs only

    def __init__(
        self,
        grades_files: tuple[Path, ...] = (),
        replace: bool = False,
        scale: float = 1.0,
        index_dir: Path | None = None,
        trec_dir: Path | None = None,
    ) -> None:
        self.grades_files = grades_files
        self.replace = replace
        self.index_dir = index_dir  # where grades files are indexed (None: each load reads the file)
        self.scale = scale  # the summary's display scale of the metrics (--wsb-scale)
        self.trec_dir = trec_dir  # --wsb-trec: the run's TREC files are written there at its end
        #: by suite name, once loaded: its grades' digest and the model judges of --wsb-grades (``identity``)
        self.grades_identity: dict[str, dict[str, str]] = {}
        self.used: dict[str, GradesUsed] = {}  # suite name → the grades it is scored with

    def configure(self, options: OptionValues, settings: Settings) -> LexBenchFamily:
        files = tuple(Path(p.strip()).resolve() for p in options["wsb_grades"].split(",") if p.strip())
        for path in files:
            if not path.is_file():
                raise ConfigurationError(f"--wsb-grades: no such file {path}")
        replace = options["wsb_grades_replace"]
        if replace and not files:
            raise ConfigurationError("--wsb-grades-replace needs --wsb-grades")
        index = options["wsb_grades_index"].strip()
        index_dir = None if index == "none" else Path(index).resolve() if index else user_cache_dir("grades")
        trec = options["wsb_trec"].strip()  # as --wsb-grades: relative to the folder pytest was started in
        trec_dir = output_folder(Path(trec).resolve(), "--wsb-trec") if trec else None
        return LexBenchFamily(files, replace, float(options["wsb_scale"]), index_dir, trec_dir)

    def load(self, manifest: SuiteManifest) -> Suite:
        kind = manifest.kind or SCENARIO
        if kind not in (SCENARIO, FACTUAL):
            raise SuiteError(
                manifest.path, f"unknown kind {kind!r}; expected {SCENARIO!r} or {FACTUAL!r}", field="kind"
            )
        items_path = manifest.file("items")
        assert items_path is not None  # the suite schema requires items
        pairs = read_records(items_path, f"lexbench-{kind}", manifest.field_map(f"lexbench-{kind}"))
        require_unique_ids(pairs, items_path)
        files = [manifest.path, items_path]
        if kind == FACTUAL:
            cases = tuple(factual_case(record) for _, record in pairs)
            return Suite(manifest, cases, digest_files(files))
        scenarios = [scenario_from_record(record) for _, record in pairs]
        grades_path = manifest.file("grades")
        if grades_path is None:
            raise SuiteError(manifest.path, "a scenario suite needs a grades file", field="grades")
        # its bytes are read once: the grades index's key, the suite's digest and the run identity's
        known = {grades_path: file_sha256(grades_path)}
        grades = self._grades(grades_path, known[grades_path], {s.id for s in scenarios})
        files.append(grades_path)
        if self.grades_files:
            # another edition of the grades: its files join the digest (a baseline of other grades is not
            # comparable) and the edition's name says which grades score it
            layered = layer_grades(
                manifest.name, grades, list(self.grades_files), {s.id for s in scenarios}, replace=self.replace
            )
            grades = layered.grades
            self.used[manifest.name] = layered.used
            files += list(self.grades_files)
            manifest = dataclasses.replace(
                manifest,
                edition=manifest.edition
                + "+"
                + "+".join(f"{p.name}@{file_digest(p)[7:19]}" for p in self.grades_files),
            )
        # the run identity's grades: the suite's digest covers them too (a baseline of other grades is refused
        # as another digest); the judges are those of the edition files (the suite's own grades file's are
        # not listed: reading 140,000 grades for them would undo the grades index)
        identity = {GRADES_DIGEST: digest_files([grades_path, *self.grades_files], known)}
        used = self.used.get(manifest.name) if self.grades_files else None
        if used is not None and used.judges:
            identity[JUDGE] = ", ".join(sorted(used.judges))
        self.grades_identity[manifest.name] = identity
        return Suite(manifest, tuple(scenario_case(s) for s in scenarios), digest_files(files, known), grades)

    def identity(self, suite: Suite | None = None) -> dict[str, str]:
        return dict(self.grades_identity.get(suite.name, {})) if suite is not None else {}

    def _grades(self, path: Path, sha256: str, query_ids: set[str]) -> Mapping[str, dict[str, GradedPreview]]:
        if self.index_dir is not None:
            try:
                return open_grades(path, query_ids, self.index_dir, sha256)
            except (OSError, sqlite3.Error):
                pass  # a cache folder that cannot be written (or a damaged index): the file is read as before
        return load_grades(path, query_ids)

    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        query = case.data.query if isinstance(case.data, Scenario) else case.data.question
        assert ctx.provider is not None  # a LexBench item runs against a provider
        return RawResults(queries=[query], hits=ctx.provider.search(query, ctx.k))

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        if isinstance(case.data, Scenario):
            pool = suite.context.get(case.id, {})
            return score_scenario(case.data, raw.hits, pool, k, qrels=self.trec_dir is not None)
        return score_factual(case.data, raw.hits, k)

    def case_sample(self, suite: Suite, case: Case) -> CaseSample:
        """A scenario's query and the pages that pass it (graded 3, breaking no requirement); a factual
        question and its answer."""
        if isinstance(case.data, Scenario):
            return CaseSample(case.data.query, passing_pages(case.data, suite.context.get(case.id, {})))
        return CaseSample(case.data.question, case.data.answer)

    def summary_rows(self, scores: list[list[Score]]) -> list[tuple[str, list[str]]]:
        if not self.grades_files:
            return []
        # an xdist controller collects nothing: it names the files (the title's edition has their digests)
        note = " | ".join(used.note() for used in self.used.values()) or (
            ("the edition alone (not comparable): " if self.replace else "the suite's, then ")
            + ", ".join(p.name for p in self.grades_files)
        )
        # the same frozen pool for every provider: the first column says what it is, the others say so
        return [("grades (same for all)", [note] + ["the same"] * (len(scores) - 1))]

    def coverage(self, kind: str) -> Coverage | None:
        # a scenario's top k may hold pages no grades file covers; a factual answer is checked, never graded
        return None if kind == FACTUAL else Coverage("judged", "unjudged")

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        # an errored query counts 0 in the scores (the benchmark aggregates over every declared query);
        # diagnostics that apply to some queries only, or where 0 is not the worst value, leave it out
        scale = self.scale  # fractions on the article's 0–100 scale if asked; a count stays a count
        if kind == FACTUAL:
            return [
                MetricColumn("answer_found", f"answer@{k}", 0.0, scale),
                MetricColumn("supporting_hit", f"support@{k}", 0.0, scale),
            ]
        return [
            MetricColumn("ndcg", f"nDCG@{k}", 0.0, scale),
            MetricColumn("precision", f"P@{k}", 0.0, scale),
            MetricColumn("success", f"success@{k}", 0.0, scale),
            MetricColumn("rr", "MRR", 0.0, scale),
            MetricColumn("bpref", "bpref", 0.0, scale),
            MetricColumn("known_page_hit", "known-page", scale=scale),
            MetricColumn("requirements_met", "req-met", scale=scale),
            MetricColumn("duplicate_rate", "dup-rate", scale=scale),
            MetricColumn("judged", f"judged@{k}", scale=scale),
            # top-k pages per query nobody has graded (holes: wsb-lexbench fill grades them)
            MetricColumn("unjudged", "unjudged"),
            # hits per query whose date no known shape describes (their time check was skipped)
            MetricColumn("unreadable_dates", "bad-dates"),
        ]

    def write_outputs(self, records: list[Any]) -> None:  # the run's ItemRecords (reporting: a layer above)
        """--wsb-trec: each scenario suite's qrels and one run file per variant (``lexbench/trec.py``). The qrels
        come with the items (``Score.details``): the xdist controller that writes them loaded no suite."""
        if self.trec_dir is None:
            return
        from pytest_websearchbench.core.atomic import write_text_atomic
        from pytest_websearchbench.lexbench.trec import merge_qrels, qrels_lines, run_lines

        suites: dict[str, list[Any]] = {}
        for record in records:
            if record.meta.family == self.name and record.meta.kind != FACTUAL:
                suites.setdefault(record.meta.suite, []).append(record)
        if not suites:
            return
        self.trec_dir.mkdir(exist_ok=True)  # its parent was checked at the start: one folder, never a tree
        for suite, items in suites.items():
            scored = [r for r in items if r.score is not None]
            qrels = merge_qrels((r.meta.case_id, r.score.details.get("qrels") or {}) for r in scored)
            write_text_atomic(self.trec_dir / _file_name(f"{suite}.qrels"), _text(qrels_lines(qrels)))
            runs: dict[str, list[str]] = {}
            for record in sorted(items, key=lambda r: r.meta.case_id):
                urls = [str(row.get("url") or "") for row in record.score.results] if record.score else []
                runs.setdefault(record.meta.variant, []).extend(
                    run_lines(record.meta.case_id, urls, record.meta.variant)
                )
            for variant, lines in runs.items():
                write_text_atomic(self.trec_dir / _file_name(f"{suite}.{variant}.run"), _text(lines))

    def drilldown(self, item: dict[str, Any]) -> Drilldown:
        """The report's view of a query: each top-k result with its rank, title, snippet, URL, grade, who
        graded it, requirement violations (factual: whether its preview holds the answer), and the rank of
        the first result with the same normalised URL when it repeats one (it earned nothing)."""
        from pytest_websearchbench.core.urls import normalize_url

        first: dict[str, object] = {}
        rows = []
        for row in item.get("results") or []:
            rank = first.setdefault(normalize_url(str(row.get("url") or "")), row.get("rank"))
            rows.append({**row, "duplicate_of": rank if rank != row.get("rank") else None})
        raw = item.get("raw") or {}
        return Drilldown(
            "drilldown.html.j2",
            {
                "kind": item.get("kind"),
                "query": (raw.get("queries") or [""])[0],
                "rows": rows,
                "returned": len(raw["hits"]) if "hits" in raw else None,
                "errored": item.get("outcome") == "error",
            },
        )


def _file_name(name: str) -> str:
    """A suite's or variant's name as one file name in the --wsb-trec folder."""
    return name.replace("/", "_").replace("\\", "_")


def _text(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)
