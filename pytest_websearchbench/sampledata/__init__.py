"""Deterministic, clean-room synthetic sample data (DESIGN §7).

``generate(out_dir, seed)`` writes, relative to ``out_dir``::

    sample-web/corpus.jsonl              the sample web: one page per line
    lexbench-sample/suite.json           scenario suite manifest
    lexbench-sample/items.jsonl          scenarios
    lexbench-sample/grades.jsonl         complete 0-3 grades, one per (scenario, normalised URL)
    lexbench-sample/grades-model.jsonl   a second edition: the same pool graded by the judge pipeline
                                         with a scripted stand-in judge (never replaces grades.jsonl)
    lexbench-sample-factual/suite.json   factual suite manifest
    lexbench-sample-factual/items.jsonl  short-answer questions
    code-sample/suite.json               coding-ticket suite manifest (family ``code``)
    code-sample/eval.jsonl               coding tickets in the published row format

Same seed -> byte-identical files: every JSON object is written with sorted
keys, ``ensure_ascii=False``, ``\\n`` line ends and UTF-8; nothing depends on
time, hash seeds or set order.  Everything is invented by templates and a
seeded ``random.Random``; no third-party text or data is used.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pytest_websearchbench.sampledata.code_sample import build_code_sample
from pytest_websearchbench.sampledata.layout import (
    CODE_DIR,
    CODE_ROWS,
    CORPUS,
    FACTUAL_DIR,
    FACTUAL_ITEMS,
    GRADES,
    MANIFEST,
    MODEL_GRADES,
    SCENARIO_DIR,
    SCENARIO_ITEMS,
)
from pytest_websearchbench.sampledata.lexbench import build_lexbench, factual_manifest, scenario_manifest
from pytest_websearchbench.sampledata.validate import validate
from pytest_websearchbench.sampledata.web import build_web

DEFAULT_SEED = 20261130


def dumps_line(obj: Any) -> str:
    """The one JSON encoding used for every ``.jsonl`` line."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _write(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(content)
    return path


def _jsonl(rows: Iterable[Any]) -> str:
    return "".join(dumps_line(r) + "\n" for r in rows)


def _json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=2) + "\n"


def build(seed: int = DEFAULT_SEED) -> dict[str, str]:
    """All generated files as ``{relative posix path: text}`` (nothing written)."""
    web = build_web(seed)
    lex = build_lexbench(web, seed)
    code = build_code_sample()
    return {
        CORPUS: _jsonl(web.records()),
        f"{SCENARIO_DIR}/{MANIFEST}": _json(scenario_manifest()),
        SCENARIO_ITEMS: _jsonl(lex["items"]),
        GRADES: _jsonl(lex["grades"]),
        MODEL_GRADES: _jsonl(lex["model_grades"]),
        f"{FACTUAL_DIR}/{MANIFEST}": _json(factual_manifest()),
        FACTUAL_ITEMS: _jsonl(lex["factual"]),
        f"{CODE_DIR}/{MANIFEST}": _json(code["manifest"]),
        CODE_ROWS: _jsonl(code["rows"]),
    }


def generate(out_dir: Path, seed: int = DEFAULT_SEED) -> list[Path]:
    """Write every sample-data file under ``out_dir``; return the written paths (sorted)."""
    out_dir = Path(out_dir)
    files = build(seed)
    return [_write(out_dir / rel, files[rel]) for rel in sorted(files)]


__all__ = ["DEFAULT_SEED", "build", "generate", "validate"]
