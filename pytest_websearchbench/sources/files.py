"""Suite files given without a manifest (``--suite path/to/eval.jsonl``).

A user who downloaded a benchmark's published rows runs them as they are: the family is told
from the fields of the first record (each family's ``recognizes``), the suite is named after
the file (``eval.jsonl`` → ``eval``), and its edition is ``unversioned``. A file fetched from the hub
(``--suite hf://...``) is named after its dataset and file (``core.hub.HubSpec.suite_name``), and its
edition names the commit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.hub import HubFile, edition_at
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest, jsonl_records, parse_json, read_suite_text

UNVERSIONED = "unversioned"


def first_record(path: Path) -> Any:
    """The first JSONL record, the first element of a JSON array, or a JSON object itself."""
    text = read_suite_text(path)
    if path.suffix == ".jsonl":
        for _, record in jsonl_records(path, text):
            return record
        raise SuiteError(path, "no records: the file is empty")
    document = parse_json(text, path)
    if isinstance(document, list):
        if not document:
            raise SuiteError(path, "no records: the array is empty")
        return document[0]
    return document


def manifest_for_file(path: Path, families: Mapping[str, Any], remote: HubFile | None = None) -> SuiteManifest:
    """A manifest for a suite file: its own ``suite.json`` if it is one, else one told from the fields.
    ``remote``: the hub file a ``--suite hf://...`` spec put at ``path`` (its place in the hub cache, kept
    as it is: the cache's blob behind it is named by its hash)."""
    resolved = path if remote is not None else path.resolve()
    if resolved.name == MANIFEST_NAME:
        return SuiteManifest.load(resolved)
    record = first_record(path)  # by the name it was given: the hub cache's file is a link to a blob named by its hash
    path = resolved
    for name in sorted(families):
        kind = families[name].recognizes(record)
        if kind is None:
            continue
        if remote is not None:
            return SuiteManifest(
                path,
                remote.spec.suite_name,
                edition_at("", [remote]),
                name,
                kind,
                {"items": str(remote.spec)},
                remote={"items": remote},
            )
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", path.stem).strip("-._") or "suite"
        return SuiteManifest(path, stem, UNVERSIONED, name, kind, {"items": path.name})
    fields = sorted(record) if isinstance(record, dict) else type(record).__name__
    formats = "; ".join(f.file_format for f in families.values() if f.file_format)
    raise SuiteError(
        path,
        f"no {MANIFEST_NAME} and the first record's fields {fields} match no family's "
        f"row format" + (f" ({formats})" if formats else ""),
        line=1,
    )
