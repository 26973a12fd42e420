"""``--wsb-code-json PATH``: an agent run's results in the harness's own document shape
(openbenchmarks-labs/web-search-for-coding-agents, ``eval.py``'s ``--out``), so a run of this
plugin can be diffed against one made with the harness.

``{n, passed, failed, experiment, backend, fetch_mode, model, results: [{id, backend, search_backend,
allow_fetch, used_search, used_fetch, search_count, fetch_count, queries, fetch_urls, search_hops,
fetch_hops, passed, score: {passed, compiled, output, notes}, metrics: {wall_ms, llm_ms, search_count,
fetch_count, search_ms, fetch_ms, llm_prompt_tokens, llm_completion_tokens, gold_token_queries},
source, notes, query_contained_gold_token, error}]}``, rows sorted by (id, backend). An item that
could not run (its provider, its cassette) is a ``RUN_ERROR`` row, as the harness writes a failed arm.
Built from the results' plain records (``ItemRecord.to_dict()``): pure; written atomically, scrubbed of every key.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_websearchbench.codebench.options import BOARD_SEARCH_FETCH
from pytest_websearchbench.codebench.scoring import RUN_ERROR
from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.secrets import scrub_value


def harness_document(items: list[dict[str, Any]], *, model: str, board: str) -> dict[str, Any]:
    allow_fetch = board == BOARD_SEARCH_FETCH
    rows = sorted((_row(item, allow_fetch) for item in items), key=lambda row: (row["id"], row["backend"]))
    passed = sum(row["passed"] for row in rows)
    return {
        "n": len(rows),
        "passed": passed,
        "failed": len(rows) - passed,
        "experiment": None,
        "backend": list(dict.fromkeys(row["search_backend"] for row in rows)),
        "fetch_mode": "on" if allow_fetch else "off",
        "model": model,
        "results": rows,
    }


def _row(item: dict[str, Any], allow_fetch: bool) -> dict[str, Any]:
    extra = (item.get("raw") or {}).get("extra") or {}
    backend = extra.get("backend") or item["provider"]
    judge = next((r for r in item.get("results") or [] if "judge" in r), None)
    row = {
        "id": item["case_id"],
        "suite": item["suite"],
        "backend": f"{backend}+{'fetch' if allow_fetch else 'search'}",
        "search_backend": backend,
        "allow_fetch": allow_fetch,
    }
    if judge is None:  # the item errored before it could be scored
        error = item.get("error") or item.get("message") or "the item did not run"
        return {
            **row,
            "used_search": False,
            "used_fetch": False,
            "search_count": 0,
            "fetch_count": 0,
            "queries": [],
            "fetch_urls": [],
            "search_hops": [],
            "fetch_hops": [],
            "passed": False,
            "score": {"passed": False, "compiled": False, "output": RUN_ERROR, "notes": [error]},
            "metrics": {},
            "source": "",
            "notes": [error],
            "query_contained_gold_token": False,
            "error": error,
        }
    searches, fetches = extra.get("search_hops") or [], extra.get("fetch_hops") or []
    metrics = {
        "wall_ms": extra.get("wall_ms", 0),
        "llm_ms": extra.get("llm_ms", 0),
        "search_count": len(searches),
        "fetch_count": len(fetches),
        "search_ms": extra.get("search_ms", 0),
        "fetch_ms": extra.get("fetch_ms", 0),
        "llm_prompt_tokens": extra.get("prompt_tokens", 0),
        "llm_completion_tokens": extra.get("completion_tokens", 0),
        "gold_token_queries": sum(1 for hop in searches if hop.get("gold_token")),
    }
    return {
        **row,
        "used_search": bool(searches),
        "used_fetch": bool(fetches),
        "search_count": len(searches),
        "fetch_count": len(fetches),
        "queries": [hop["query"] for hop in searches],
        "fetch_urls": [hop["url"] for hop in fetches],
        "search_hops": searches,
        "fetch_hops": fetches,
        "passed": bool(judge["judge"]["passed"]),
        "score": judge["judge"],
        "metrics": metrics,
        "source": judge.get("source", ""),
        "notes": list(extra.get("notes") or []),
        "query_contained_gold_token": metrics["gold_token_queries"] > 0,
        "error": extra.get("run_error"),
    }


def write_harness_document(
    path: Path, items: list[dict[str, Any]], *, model: str, board: str, secrets: Sequence[str] = ()
) -> None:
    """Written atomically, every registered key and every one of ``secrets`` scrubbed from it."""
    document = scrub_value(harness_document(items, model=model, board=board), secrets, echoes=True)
    write_text_atomic(path, json.dumps(document, indent=2) + "\n")
