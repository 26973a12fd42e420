"""Every line of the conformance file — inputs with the benchmark judge's own verdicts — graded by
``grade_code_answer`` in one test (one test keeps the suite fast; all mismatches are listed).

The file is kept beside the project (``../shared/conformance/code-grader.jsonl``); a gzipped copy
travels with the tests so that a clean clone checks it too, and the two must not drift apart.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from pytest_websearchbench.codebench.grader import EMPTY, SYNTAX_ERROR, grade_code_answer

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "conformance" / "code-grader.jsonl"
BUNDLED = Path(__file__).with_name("conformance") / "code-grader.jsonl.gz"


def conformance_lines() -> list[str]:
    data = gzip.decompress(BUNDLED.read_bytes())
    if SHARED.is_file():
        assert SHARED.read_bytes() == data, f"{BUNDLED} is out of date: gzip -9 -c {SHARED} > {BUNDLED}"
    # split on "\n" only: answers hold raw U+2028 and U+0085, where splitlines() would cut
    return [line for line in data.decode("utf-8").split("\n") if line.strip()]


def canonical(note: str) -> str:
    """The file's note vocabulary: ``empty``, ``syntax`` (any syntax-error note), the rest as is."""
    if note == EMPTY:
        return "empty"
    return "syntax" if note.startswith(SYNTAX_ERROR) else note


def test_every_conformance_line_matches_the_judge():
    lines = conformance_lines()
    assert len(lines) == 4026
    mismatches = []
    for number, raw in enumerate(lines, start=1):
        case = json.loads(raw)
        verdict = grade_code_answer(
            case["answer"],
            case["needles"],
            seen_urls=case["seen_urls"],
            seen_text=case["seen_text"],
            cite_urls=case["cite_urls"],
        )
        got = {
            "passed": verdict.passed,
            "compiled": verdict.compiled,
            "notes": sorted({canonical(n) for n in verdict.notes}),
            "code": verdict.code,
        }
        want = {**case["expect"], "notes": sorted(set(case["expect"]["notes"]))}
        if got != want:
            mismatches.append(
                f"line {number} ({case.get('id')}): "
                + ", ".join(f"{key} {got[key]!r} ≠ {want[key]!r}" for key in want if got[key] != want[key])
            )
    assert not mismatches, f"{len(mismatches)} of {len(lines)} lines differ:\n" + "\n".join(mismatches[:10])
