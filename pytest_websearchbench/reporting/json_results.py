"""``--wsb-json``: run metadata and every item, reusable as a baseline."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from pytest_websearchbench import __version__
from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.reporting.results import Completeness, ItemRecord

FORMAT = "pytest-websearchbench/results@1"


def results_document(records: list[ItemRecord], settings: Settings, completeness: Completeness,
                     verdicts=()) -> dict:
    suites = {}
    produced_by: dict[str, dict[str, str]] = {}
    for record in records:
        meta = record.meta
        suites[meta["suite"]] = {key: meta[key] for key in ("family", "kind", "edition", "digest")}
        if record.run.get("produced_by") is not None:
            produced_by.setdefault(meta["provider"], record.run["produced_by"])
    return {
        "format": FORMAT,
        "plugin_version": __version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        # complete, interrupted (why), declared_items, missing_items: an interrupted run's file says so
        **completeness.to_dict(),
        "k": settings.k,
        "record_mode": settings.record_mode.value,
        "providers": list(settings.providers),
        # what produced each provider's answers (a corpus digest, the options that change results)
        "provider_settings": produced_by,
        "suites": suites,
        "costs": _costs(records),
        "baseline": {"path": str(settings.baseline_path), "verdicts": [v.to_dict() for v in verdicts]}
        if settings.baseline_path else None,
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


def write_results(path: Path, records: list[ItemRecord], settings: Settings, completeness: Completeness,
                  verdicts=()) -> None:
    """Write atomically, so an interrupted run never leaves half a baseline behind."""
    text = json.dumps(results_document(records, settings, completeness, verdicts), indent=1, ensure_ascii=False,
                      sort_keys=True)
    write_text_atomic(path, text + "\n")
