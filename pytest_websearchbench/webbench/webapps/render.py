"""Server-side HTML: a page builder that remembers which primary keys and dates it rendered.

Every record link or record shown goes through :meth:`Page.record`, so the web trace can say,
for each request, exactly which records the agent had in front of it; the dates shown as values
of a record (its fields, a table's cells) are noted the same way. What the agent typed into a
form control is never a value of the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from typing import Any
from urllib.parse import urlencode

from pytest_websearchbench.webbench.world.schema import APP_OF

DATE = re.compile(r"(?<![0-9])[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9])")


def record_url(table: str, pk: str) -> str:
    return f"/{APP_OF[table]}/{table}/{pk}"


def list_url(table: str, **params: Any) -> str:
    query = urlencode({k: v for k, v in params.items() if v not in (None, "")})
    return f"/{APP_OF[table]}/{table}" + (f"?{query}" if query else "")


class Page:
    def __init__(self, title: str, kind: str) -> None:
        self.title = title
        self.kind = kind  # launcher, list, detail, form, confirm, error
        self.parts: list[str] = []
        self.pks: list[str] = []
        self.dates: list[str] = []

    def saw(self, pk: str | None) -> None:
        if pk and pk not in self.pks:
            self.pks.append(pk)

    def _saw_dates(self, html: str) -> None:
        for day in DATE.findall(html):
            if day not in self.dates:
                self.dates.append(day)

    def record(self, table: str, pk: str | None, label: str | None = None) -> str:
        """A link to a record (and a note that its key was rendered)."""
        if not pk:
            return "—"
        self.saw(pk)
        text = f"{pk} ({label})" if label else pk
        return f'<a href="{escape(record_url(table, pk))}">{escape(text)}</a>'

    def add(self, html: str) -> Page:
        self.parts.append(html)
        return self

    def heading(self, text: str) -> Page:
        return self.add(f"<h1>{escape(text)}</h1>")

    def para(self, text: str, cls: str = "") -> Page:
        return self.add(f"<p{f' class={cls!r}' if cls else ''}>{escape(text)}</p>")

    def link(self, text: str, href: str) -> Page:
        return self.add(f'<p><a href="{escape(href)}">{escape(text)}</a></p>')

    def fields(self, pairs: Iterable[tuple[str, str]]) -> Page:
        """``Label: value`` lines; values are already HTML."""
        pairs = list(pairs)
        for _, value in pairs:
            self._saw_dates(value)
        return self.add(
            "<section>"
            + "".join(f"<div><b>{escape(label)}:</b> {value}</div>" for label, value in pairs)
            + "</section>"
        )

    def table(self, headers: list[str], rows: list[list[str]]) -> Page:
        """A data table; header cells and values are already HTML."""
        for row in rows:
            for value in row:
                self._saw_dates(value)
        head = "".join(f"<th>{h}</th>" for h in headers)
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
        return self.add(f"<table class=data><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")

    def html(self, nav_links: Iterable[tuple[str, str]]) -> str:
        """The page with the world's app bar (label, href) on top."""
        nav = " | ".join(f'<a href="{escape(href)}">{escape(label)}</a>' for label, href in nav_links)
        return (
            f"<!doctype html><html><head><meta charset=utf-8><title>{escape(self.title)}</title></head>"
            f"<body><nav>{nav}</nav><main>{''.join(self.parts)}</main></body></html>"
        )


def text(value: Any) -> str:
    return "—" if value is None or value == "" else escape(str(value))


def input_html(name: str, label: str, value: Any = "", kind: str = "text", choices: Iterable[str] | None = None) -> str:
    """A labelled form control; ``choices`` makes a select (with an empty first option)."""
    value = "" if value is None else str(value)
    if choices is not None:
        options = "".join(
            f'<option value="{escape(c)}"{" selected" if c == value else ""}>{escape(c or "(any)")}</option>'
            for c in ("", *choices)
        )
        control = f'<select name="{escape(name)}" aria-label="{escape(label)}">{options}</select>'
    elif kind == "textarea":
        control = f'<textarea name="{escape(name)}" aria-label="{escape(label)}">{escape(value)}</textarea>'
    else:
        control = f'<input type="{kind}" name="{escape(name)}" value="{escape(value)}" aria-label="{escape(label)}">'
    return f"<label>{escape(label)} {control}</label>"


def hidden(name: str, value: Any) -> str:
    return f'<input type="hidden" name="{escape(name)}" value="{escape("" if value is None else str(value))}">'


def form_html(action: str, method: str, controls: list[str], submit: str) -> str:
    return (
        f'<form action="{escape(action)}" method="{method}">'
        + "".join(f"<div>{c}</div>" for c in controls)
        + f'<button type="submit">{escape(submit)}</button></form>'
    )
