"""Helpers for the code family's tests: rows, a tiny corpus, a tiny suite without a manifest."""

from __future__ import annotations

import json
from pathlib import Path

ROW = {
    "task_id": "acme-001",
    "vendor": "Acme Desk",
    "ticket": "When a ticket was fixed by a temporary workaround, record it as resolved with a workaround "
    "instead of closing it.",
    "starter_code": "def finish(ticket_id, note):\n    return desk.tickets.close(ticket_id, close_notes=note)\n",
    "gold_code": "def finish(ticket_id, note):\n    return desk.tickets.mark_resolved(ticket_id, "
    'resolution_code="workaround_applied")\n',
}

ROWS = [
    ROW,
    {
        "task_id": "acme-002",
        "vendor": "Acme HR",
        "ticket": "Import every new hire from the onboarding spreadsheet in one request instead of one by one.",
        "starter_code": "def import_hires(rows):\n    return [hr.people.create(r) for r in rows]\n",
        "gold_code": "def import_hires(rows):\n    return hr.people.bulk_onboard(rows)\n",
        "required": ["bulk_onboard"],
    },
    {
        "task_id": "acme-003",
        "vendor": "Acme Desk",
        "ticket": "Archive a tenant that left us, keeping its tickets readable for auditors.",
        "starter_code": "def archive(tenant):\n    return desk.tenants.delete(tenant)\n",
        "gold_code": "def archive(tenant):\n    return desk.tenants.archive_readonly(tenant)\n",
        "required": ["archive_readonly"],
        "cite_urls": False,
    },
]

CORPUS = [
    {
        "url": "https://docs.acme.example/v2/tickets/resolve",
        "title": "Tickets v2: resolve a ticket fixed by a workaround",
        "text": "A ticket fixed by a temporary workaround is resolved, not closed: call "
        'desk.tickets.mark_resolved(ticket_id, resolution_code="workaround_applied") with the note.',
        "language": "en",
        "site": "docs.acme.example",
        "published": "2026-01-10",
    },
    {
        "url": "https://docs.acme.example/v1/tickets/close",
        "title": "Tickets v1 (deprecated): close a ticket",
        "text": "Deprecated. Close a ticket with desk.tickets.close(ticket_id, close_notes=note).",
        "language": "en",
        "site": "docs.acme.example",
        "published": "2023-03-01",
    },
    {
        "url": "https://docs.acme.example/v2/people/bulk",
        "title": "People v2: onboard many new hires in one request",
        "text": "Import new hires from a spreadsheet in one request with hr.people.bulk_onboard(rows); creating "
        "people one by one is slow.",
        "language": "en",
        "site": "docs.acme.example",
        "published": "2026-02-01",
    },
    {
        "url": "https://forum.acme-users.example/q/17",
        "title": "Closing tickets after a workaround?",
        "text": "We close tickets fixed by a workaround with desk.tickets.close and a note. Works for us.",
        "language": "en",
        "site": "forum.acme-users.example",
        "published": "2024-05-05",
    },
]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def write_rows(path: Path, overrides: list[dict]) -> Path:
    """One row per dict of overrides (on ``ROW``), task ids acme-001, acme-002, …; ``None`` values drop a field."""
    rows = []
    for number, change in enumerate(overrides, start=1):
        row = {**ROW, "task_id": f"acme-{number:03d}", **change}
        rows.append({k: v for k, v in row.items() if v is not None})
    return write_jsonl(path, rows)


def tiny_code_suite(root: Path) -> Path:
    """``eval.jsonl`` (three rows, no manifest) and a four-page corpus the local provider indexes."""
    write_jsonl(root / "corpus" / "corpus.jsonl", CORPUS)
    (root / "pytest.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n", "utf-8")
    return write_jsonl(root / "downloads" / "eval.jsonl", ROWS)


PROMPT = "Resolve incidents fixed by a workaround instead of closing them.\r\n\nKeep the engineer's note.\n"


def write_catalog(
    root: Path, items: list[dict], defaults: dict | None = None, *, yaml_format: bool = False, prompts: bool = True
) -> Path:
    """A harness-style catalog (``catalog.json`` or ``.yaml`` as {defaults, items}) with each item's
    ``<id>/prompt.txt`` (unless ``prompts`` is false), ``starter/<outfile>`` and ``gold/<outfile>``."""
    for item in items:
        folder = root / item["id"]
        outfile = item.get("outfile", (defaults or {}).get("outfile", "solution.py"))
        (folder / "starter").mkdir(parents=True, exist_ok=True)
        (folder / "gold").mkdir(parents=True, exist_ok=True)
        if prompts:
            (folder / "prompt.txt").write_bytes(PROMPT.encode())
        (folder / "starter" / outfile).write_text(ROW["starter_code"])
        (folder / "gold" / outfile).write_text(ROW["gold_code"])
    document = {"defaults": defaults or {}, "items": items}
    if yaml_format:
        import yaml

        path = root / "catalog.yaml"
        path.write_text(yaml.safe_dump(document, sort_keys=False))
    else:
        path = root / "catalog.json"
        path.write_text(json.dumps(document, indent=2))
    return path
