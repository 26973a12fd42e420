"""``--wsb-json``: run metadata and every item, reusable as a baseline."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_websearchbench import __version__
from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.reporting.results import ItemRecord

FORMAT = "pytest-websearchbench/results@1"


def results_document(records: list[ItemRecord], settings: Settings) -> dict:
    suites = {}
    for record in records:
        meta = record.meta
        suites[meta["suite"]] = {key: meta[key] for key in ("family", "kind", "edition", "digest")}
    return {
        "format": FORMAT,
        "plugin_version": __version__,
        "k": settings.k,
        "record_mode": settings.record_mode.value,
        "providers": list(settings.providers),
        "suites": suites,
        "costs": _costs(records),
        "items": [record.to_dict() for record in records],
    }


def _costs(records: list[ItemRecord]) -> dict:
    """Per provider: calls made, the USD they cost at the price table's rates, and unpriced calls."""
    out: dict[str, dict] = {}
    for record in records:
        entry = out.setdefault(record.meta["provider"], {"calls": 0, "usd": 0.0, "unpriced_calls": 0})
        for call in record.run.get("calls", []):
            if not call.get("ok", True):
                continue
            entry["calls"] += 1
            if call.get("cost_usd") is None:
                entry["unpriced_calls"] += 1
            else:
                entry["usd"] += call["cost_usd"]
    return out


def write_results(path: Path, records: list[ItemRecord], settings: Settings) -> None:
    """Write atomically, so an interrupted run never leaves half a baseline behind."""
    text = json.dumps(results_document(records, settings), indent=1, ensure_ascii=False, sort_keys=True)
    write_text_atomic(path, text + "\n")
