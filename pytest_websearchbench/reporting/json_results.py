"""``--wsb-json``: run metadata and every item, reusable as a baseline; the HTML report reads it back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_websearchbench.core.atomic import atomic_writer
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.results_file import FORMAT, ITEMS_OPEN
from pytest_websearchbench.core.secrets import value_scrubber
from pytest_websearchbench.core.version import __version__
from pytest_websearchbench.reporting.figures import SuiteFigures, cost_of
from pytest_websearchbench.reporting.identity import run_identity
from pytest_websearchbench.reporting.regression import SuiteVerdict
from pytest_websearchbench.reporting.results import Completeness, ItemRecord, variant_settings

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import BenchmarkFamily
    from pytest_websearchbench.providers.registry import ProviderRegistry


@dataclass
class RunResults:
    """A run's results: what ``--wsb-json`` writes (``to_dict``, the results document) and what the HTML
    report is built from, in the run or from results files (``from_dict``; older files lack fields)."""

    records: list[ItemRecord]
    k: int
    providers: list[str] = field(default_factory=list)  # the --provider list: the first is the reference
    record_mode: str | None = None
    completeness: Completeness | None = None  # None: a file written before runs said whether they completed
    baseline_path: str | None = None
    verdicts: list[SuiteVerdict] = field(default_factory=list)  # the suites' against the baseline
    created: str | None = None
    plugin_version: str | None = None
    figures: list[SuiteFigures] | None = None  # the run's (the summary block); None: read from a file
    raw_answers: bool = True  # the items keep the provider answers' text (--wsb-json-raw; files before it did)
    #: side by side, each variant's verdict against the reference (the summary block's ``versus``); read from a file
    versus: list[SuiteVerdict] = field(default_factory=list)
    #: the A/A pairs (two labels of one endpoint) whose noise floors the summary block shows; read from a file
    same_endpoints: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def of_run(
        cls,
        records: list[ItemRecord],
        settings: Settings,
        completeness: Completeness,
        verdicts: Iterable[SuiteVerdict] = (),
        figures: list[SuiteFigures] | None = None,
    ) -> RunResults:
        return cls(
            records,
            settings.k,
            list(settings.providers),
            settings.record_mode.value,
            completeness,
            str(settings.baseline_path) if settings.baseline_path else None,
            list(verdicts),
            datetime.now(UTC).isoformat(timespec="seconds"),
            __version__,
            figures,
            settings.json_raw,
            # as a file read back gives them: the report made in the run shows what ``wsb-report`` shows of it
            versus=[variant.versus for suite in figures or [] for variant in suite.variants if variant.versus],
            same_endpoints=list(
                dict.fromkeys((f.first, f.second) for suite in figures or [] for f in suite.noise_floors)
            ),
        )

    def to_dict(self, *, stream: bool = False) -> dict[str, Any]:
        """The results document; ``stream``: its items an iterator, each made when ``write_document`` writes it."""
        suites = {}
        for record in self.records:
            meta = record.meta
            suites[meta.suite] = {
                "family": meta.family,
                "kind": meta.kind,
                "edition": meta.edition,
                "digest": meta.digest,
                **({"sources": list(meta.sources)} if meta.sources else {}),
            }  # remote files
        variants = dict.fromkeys(record.meta.variant for record in self.records)
        items = (record.to_dict(shared_previews=True, answers=self.raw_answers) for record in self.records)
        return {
            "format": FORMAT,
            "plugin_version": self.plugin_version,
            "created": self.created,
            # complete, interrupted (why), declared_items, missing_items: an interrupted run's file says so
            **(self.completeness.to_dict() if self.completeness else {}),
            "k": self.k,
            "record_mode": self.record_mode,
            # false: written without --wsb-json-raw, so no item holds the text its provider answered
            "raw_answers": self.raw_answers,
            "providers": self.providers,
            # what produced each provider's answers (a corpus digest, the options that change results)
            "provider_settings": variant_settings(self.records),
            "suites": suites,
            # what a baseline must match (reporting/identity.py): per suite its files, mode, models as asked and
            # as served, and per variant what the provider's servers said they served
            "identity": run_identity(self.records, self.k),
            # per variant: calls made, the USD they cost at the price table's rates, and unpriced calls
            "costs": {
                variant: cost_of(r for r in self.records if r.meta.variant == variant).to_dict() for variant in variants
            },
            "baseline": {"path": self.baseline_path, "verdicts": [v.to_dict() for v in self.verdicts]}
            if self.baseline_path
            else None,
            # every figure the terminal summary shows, per suite and variant (reporting/figures.py)
            **({"summary": [suite.to_dict() for suite in self.figures]} if self.figures is not None else {}),
            # tags: the case's markers (a query's language and family, a ticket's vendor, a task's template),
            # which the HTML report filters by
            "items": items if stream else list(items),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunResults:
        """A results document (``core.results_file.read_results`` checked it)."""
        suites = data.get("suites") or {}
        settings = data.get("provider_settings") or {}
        records = [
            ItemRecord.from_dict(item, suites.get(item["suite"]), settings.get(item["provider"]))
            for item in data["items"]
        ]
        baseline = data.get("baseline") or {}
        return cls(
            records,
            data["k"],
            list(data.get("providers") or []),
            data.get("record_mode"),
            Completeness.from_dict(data) if "complete" in data else None,
            baseline.get("path"),
            [SuiteVerdict.from_dict(v) for v in baseline.get("verdicts") or []],
            data.get("created"),
            data.get("plugin_version"),
            raw_answers=data.get("raw_answers", True),
            versus=[
                SuiteVerdict.from_dict(variant["versus"])
                for suite in data.get("summary") or []
                for variant in suite.get("variants") or []
                if variant.get("versus")
            ],
            same_endpoints=list(
                dict.fromkeys(
                    (floor["first"], floor["second"])
                    for suite in data.get("summary") or []
                    for floor in suite.get("noise_floors") or []
                )
            ),
        )


def write_document(path: Path, document: dict[str, Any], secrets: Sequence[str] = ()) -> None:
    """Write atomically, so an interrupted run never leaves half a baseline behind; no key reaches the file
    (a provider may echo one back in what it returns).

    ``document["items"]`` (a list, or any iterable of dicts: ``RunResults.to_dict(stream=True)``) is
    scrubbed and written an item at a time, one item a line, so a run of thousands of items never holds
    a scrubbed copy of every item, or the whole text, at once. The items are written compact, by json's
    C encoder (an indented dump runs its pure-Python one: ~10 ms an item of a 2,750-item run); the rest
    of the document, indented."""
    scrub = value_scrubber(secrets, echoes=True)  # the answers shown keep a key that is a word of them
    items = document.get("items")
    head = json.dumps(
        scrub({**document, "items": []} if items is not None else document),
        indent=1,
        ensure_ascii=False,
        sort_keys=True,
    )
    # a top-level key is the only text on a line at indent 1 (strings hold newlines escaped)
    before, marker, after = head.partition(ITEMS_OPEN + "]")
    with atomic_writer(path) as out:
        out.write(before)
        if marker and items is not None:  # the marker is there only if the document has items
            out.write(ITEMS_OPEN)
            separator = "\n"
            for item in items:
                out.write(separator + _ITEM.encode(scrub(item)))
                separator = ",\n"
            out.write("\n ]" if separator != "\n" else "]")
        out.write(after + "\n")


_ITEM = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def run_secrets(
    registry: ProviderRegistry, families: Iterable[BenchmarkFamily], environ: Mapping[str, str]
) -> list[str]:
    """Every key this process may hold: each known provider's key variables, the model endpoint's and the
    families' own (the scrubber also knows every key a provider registered when it was created)."""
    from pytest_websearchbench.providers.model_client import ModelEndpoint  # httpx loads when a run writes results

    keys = [environ.get(var, "") for entry in registry.entries() for var in entry.secret_env]
    keys.append(ModelEndpoint.from_environ(environ).api_key)
    keys += [secret for family in families for secret in family.secrets()]
    return [key for key in dict.fromkeys(keys) if key]
