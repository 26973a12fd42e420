"""The browser actions a reference route is made of (each a JSON object, one a line in a route file), and
the apps' page size an aggregate read pages through. A template's reads and writes are built from these
(:mod:`.templates`), the routes of every agent too (:mod:`..tasks.routes`)."""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]
PAGE_SIZE = 20  # rows a list page shows (DESIGN § 2.3)


def go(url: str, expect: list[str] | None = None) -> Action:
    return {"action": "navigate", "url": url, **({"expect": expect} if expect else {})}


def click(text: str, expect: list[str] | None = None) -> Action:
    return {"action": "click", "text": text, **({"expect": expect} if expect else {})}


def fill(name: str, value: Any) -> Action:
    return {"action": "fill", "name": name, "value": str(value)}


def select(name: str, value: str) -> Action:
    return {"action": "select", "name": name, "value": value}


def write(form_url: str, fields: list[Action]) -> list[Action]:
    return [go(form_url), *fields, click("Continue", ["Check the values below"]), click("Commit", ["Saved."])]


def later_pages(rows: int) -> list[Action]:
    """Every further page of a list of ``rows`` records (20 a page): an aggregate needs them all."""
    return [click("Next page") for _ in range((rows - 1) // PAGE_SIZE)]
