"""Grades editions: the new grades a pool produced (model, human sheet, rule) written to a file of
their own — never over the suite's grades — and the grades a scoring run uses, layered and named.

An edition file is a grades file (``lexbench-grade`` lines) whose every line carries its receipt:
``grader`` (``model:<name>``, ``human:<id>`` or ``rule:<rules>``), ``packet``, ``prompt_sha256``,
``raw``, ``graded_at``, ``cost_usd``. One line per (query, normalised URL): when one page was shown
under several previews, the highest grade any of them earned is the page's (each packet's own grade
stays in ``packets``). Its digest is the SHA-256 of its bytes.

Scoring with ``--wsb-grades FILE[,FILE…]`` layers them: the suite's own grades first, then each file
in order, the first grade of a page winning — so new grades only fill what the suite leaves ungraded.
``replace`` scores with the files' grades alone (a model edition on its own: not comparable).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import read_records
from pytest_websearchbench.lexbench.grades import GradedPreview, load_grades
from pytest_websearchbench.lexbench.judge import Verdict
from pytest_websearchbench.lexbench.packets import PacketSet
from pytest_websearchbench.lexbench.pool import Preview, QueryPool

RULE_REASONS = {
    "site": "not on a required site",
    "time": "dated outside the required time window",
    "content": "the preview lacks every required content term",
}


def edition_lines(
    suite: str, pools: dict[str, QueryPool], packet_set: PacketSet, verdicts: dict[str, Verdict]
) -> list[dict[str, Any]]:
    """Grade lines for what the pool left ungraded: 0 by rule, else the verdicts of its packets."""
    by_target: dict[tuple[str, str], list[str]] = {}
    for pid, targets in packet_set.targets.items():
        for target in targets:
            by_target.setdefault(target, []).append(pid)
    packets = packet_set.by_id()
    lines = []
    for qid, pool in pools.items():
        for key, entry in pool.entries.items():
            if entry.ineligible:
                first = entry.previews[0]
                rules = entry.ineligible
                lines.append(
                    {
                        "suite": suite,
                        "query_id": qid,
                        "url": entry.url,
                        "grade": 0,
                        "grader": "rule:" + "+".join(rules),
                        "reason": "; ".join(RULE_REASONS[r] for r in rules),
                        "title": first.title,
                        "snippet": first.snippet,
                        "published": first.published,
                        "received_at": first.received_at,
                        "packet": None,
                        "prompt_sha256": None,
                        "raw": None,
                        "graded_at": None,
                        "cost_usd": None,
                    }
                )
                continue
            judged = [verdicts[pid] for pid in by_target.get((qid, key), []) if pid in verdicts]
            graded = [v for v in judged if v.grade is not None]
            if not graded:
                continue
            best = max(graded, key=lambda v: v.grade or 0)  # (every one is graded)
            packet = packets[best.packet_id]
            lines.append(
                {
                    "suite": suite,
                    "query_id": qid,
                    "url": entry.url,
                    "grade": best.grade,
                    "title": packet.title,
                    "snippet": packet.snippet,
                    # a date another provider showed for the page is the page's: scoring checks
                    # an undated hit's time window against it
                    **_dated(entry.previews),
                    **best.receipt(),
                    "packets": {v.packet_id: v.grade for v in judged},
                }
            )
    return lines


def _dated(previews: list[Preview]) -> dict[str, Any]:
    """The first dated preview's date and when it was received (none dated: no date)."""
    dated = next((p for p in previews if p.published), None)
    return {"published": dated.published if dated else None, "received_at": dated.received_at if dated else None}


def write_edition(path: Path, lines: list[dict[str, Any]]) -> str:
    """Write atomically; the edition's digest."""
    text = "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in lines)
    write_text_atomic(path, text)
    return file_digest(path)


def file_digest(path: Path) -> str:
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def grader_kind(grader: str) -> str:
    return grader.split(":", 1)[0]


@dataclass(frozen=True)
class GradesUsed:
    """Which grades a scoring run used: counts by grader kind, the judges and their prompts."""

    counts: dict[str, int]
    judges: dict[str, tuple[str, ...]]  # model name → prompt digests
    replace: bool = False

    def text(self) -> str:
        parts = []
        for kind, n in sorted(self.counts.items(), key=lambda kv: ({"model": 1, "rule": 2}.get(kv[0], 0), kv[0])):
            part = f"{n:,} {kind}"
            if kind == "model" and self.judges:
                part += (
                    " ("
                    + "; ".join(
                        f"{name}, prompt {', '.join(d[:15] + '…' for d in digests) or 'unknown'}"
                        for name, digests in sorted(self.judges.items())
                    )
                    + ")"
                )
            parts.append(part)
        return " · ".join(parts)

    def note(self) -> str:
        """The summary's cell: what the frozen pool every provider is scored against is made of."""
        if not self.replace:
            return self.text()
        why = "model grades are not human ground truth" if self.counts.get("model") else "not the suite's grades"
        return f"{self.text()} · the edition alone: not comparable ({why})"


@dataclass(frozen=True)
class LayeredGrades:
    grades: dict[str, dict[str, GradedPreview]]
    used: GradesUsed


def layer_grades(
    suite_name: str,
    suite_grades: Mapping[str, dict[str, GradedPreview]],
    paths: list[Path],
    query_ids: set[str],
    *,
    replace: bool = False,
) -> LayeredGrades:
    """The suite's grades (unless ``replace``), then each edition file's, the first grade of a page winning."""
    merged: dict[str, dict[str, GradedPreview]] = {} if replace else {q: dict(g) for q, g in suite_grades.items()}
    judges: dict[str, set[str]] = {}
    for path in paths:
        for line, record in read_records(path, "lexbench-grade"):
            named = record.get("suite")
            if named is not None and named != suite_name:
                raise SuiteError(
                    path,
                    f"these grades are for suite {named!r}, not {suite_name!r}",
                    line=line,
                    item=record.get("query_id"),
                    field="suite",
                )
            if grader_kind(record["grader"]) == "model":
                judges.setdefault(record["grader"].split(":", 1)[1], set()).add(record.get("prompt_sha256") or "")
        for qid, pages in load_grades(path, query_ids).items():
            target = merged.setdefault(qid, {})
            for key, preview in pages.items():
                target.setdefault(key, preview)
    counts = Counter(grader_kind(p.grader) for pages in merged.values() for p in pages.values())
    used_models = {
        p.grader.split(":", 1)[1]
        for pages in merged.values()
        for p in pages.values()
        if grader_kind(p.grader) == "model"
    }
    used = GradesUsed(dict(counts), {m: tuple(sorted(d for d in judges.get(m, ()) if d)) for m in used_models}, replace)
    return LayeredGrades(merged, used)
