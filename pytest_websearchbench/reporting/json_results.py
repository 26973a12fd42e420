"""``--wsb-json``: run metadata and every item, reusable as a baseline."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from pytest_websearchbench.core.version import __version__
from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.secrets import scrub
from pytest_websearchbench.reporting.results import Completeness, ItemRecord

if TYPE_CHECKING:
    from pytest_websearchbench.providers.registry import ProviderRegistry

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
        # tags: the case's markers (a query's language and family, a ticket's vendor, a task's template),
        # which the HTML report filters by
        "items": [{**record.to_dict(), "tags": list(record.meta.get("tags") or [])} for record in records],
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


def write_document(path: Path, document: dict, secrets: list[str] = ()) -> None:
    """Write atomically, so an interrupted run never leaves half a baseline behind; no key reaches the file
    (a provider may echo one back in what it returns)."""
    text = json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True)
    write_text_atomic(path, scrub(text, list(secrets)) + "\n")


def run_secrets(registry: ProviderRegistry, families: Iterable, environ: Mapping[str, str]) -> list[str]:
    """Every key this process may hold: each known provider's key variables, the model endpoint's and the
    families' own (the scrubber also knows every key a provider registered when it was created)."""
    from pytest_websearchbench.providers.model_client import ModelEndpoint  # httpx loads when a run writes results

    keys = [environ.get(var, "") for name in registry.names() for var in registry.entry(name).key_env]
    keys.append(ModelEndpoint.from_environ(environ).api_key)
    keys += [secret for family in families for secret in family.secrets()]
    return [key for key in dict.fromkeys(keys) if key]
