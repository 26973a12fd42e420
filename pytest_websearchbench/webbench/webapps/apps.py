"""The world's apps as pages: a launcher, searchable/sortable/paginated lists, and record pages whose
foreign keys link across apps. The pages are the same for every world; an :class:`AppSet` says
which lists, filters, links and forms a world has (``workplace`` in :mod:`.workplace`, ``deskops``
in :mod:`.deskops`; the lists of the office apps every world has from :mod:`.office`)."""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.webbench.webapps.render import Page, form_html, input_html, list_url, record_url, text
from pytest_websearchbench.webbench.world.actions import PAGE_SIZE
from pytest_websearchbench.webbench.world.schema import WorldSchema


class NotFound(Exception):
    pass


class BadRequest(Exception):
    """A query the page cannot answer (answered 400 with the message)."""


@dataclass(frozen=True)
class Filter:
    param: str
    label: str
    sql: str  # expression compared with the value
    op: str = "="
    choices: tuple[str, ...] | None = None
    kind: str = "text"  # "number": compared as a whole number (a select's kind only says how it compares)


def day_range(column: str) -> tuple[Filter, Filter]:
    """The From day / To day filters of a list on a date column."""
    return Filter("from", "From day", f"t.{column}", ">=", kind="date"), Filter(
        "to", "To day", f"t.{column}", "<=", kind="date"
    )


@dataclass(frozen=True)
class ListView:
    table: str
    title: str
    columns: tuple[str, ...]
    search: tuple[str, ...] = ()
    filters: tuple[Filter, ...] = ()
    default_sort: str = "id"
    names: dict[str, str] = field(default_factory=dict)  # FK column → table whose name is shown with the key


#: table → (list, filter, link text): the lists a record page links to, filtered to that record
Linked = dict[str, tuple[tuple[str, str, str], ...]]


@dataclass(frozen=True)
class AppSet:
    """One world's apps: its tables, list views, app sub-navigation, record forms, the sections a
    record page adds below its fields, the launcher's one-line description of each app, and the
    lists a record page links to after its sections."""

    schema: WorldSchema
    lists: dict[str, ListView]
    subnav: dict[str, tuple[str, ...]]
    forms_on: dict[str, tuple[str, str]]  # table → (form action, link text)
    related: Callable[[Page, sqlite3.Connection, str, sqlite3.Row], None]
    about: str
    linked: Linked = field(default_factory=dict)

    @property
    def nav(self) -> tuple[tuple[str, str], ...]:
        return (
            ("Launcher", "/"),
            *(
                (app.capitalize(), "/decision/new" if app == "decision" else list_url(tables[0]))
                for app, tables in self.subnav.items()
            ),
        )


def launcher(apps: AppSet) -> Page:
    page = Page("Launcher", "launcher").heading(f"{apps.schema.title} launcher")
    page.para(apps.about)
    for app, tables in apps.subnav.items():
        for table in tables:
            page.link(f"{app.capitalize()}: {table.replace('_', ' ')}", list_url(table))
    page.link("Decision: record a new decision", "/decision/new")
    return page


def name_of(con: sqlite3.Connection, apps: AppSet, table: str, pk: str | None) -> str | None:
    """The name shown beside a key of a table that has one (people, customers, venues...)."""
    if not pk or table == "decisions" or "name" not in apps.schema.tables[table].names:
        return None
    row = con.execute(f"SELECT name FROM {table} WHERE id = ?", (pk,)).fetchone()
    return row[0] if row else None


def cell(page: Page, con: sqlite3.Connection, apps: AppSet, table: str, column: str, value: Any) -> str:
    """A value as HTML: keys become links (with the record's name where it has one), the rest text."""
    if column == "id":
        return page.record(table, value)
    ref = apps.schema.tables[table].column(column).ref
    if ref and value:
        return page.record(ref, value, name_of(con, apps, ref, value))
    return text(value)


@dataclass(frozen=True)
class ListSlice:
    """One page of a list as the query gives it: the search and filters that narrowed it (empty: the
    application's default list), the order, the page's rows, and how many pages the list has."""

    view: ListView
    search: str
    filters: dict[str, str]
    sort: str
    direction: str
    number: int
    pages: int
    total: int
    rows: list[sqlite3.Row]

    @property
    def filtered(self) -> bool:
        return bool(self.search or self.filters)


def list_slice(con: sqlite3.Connection, view: ListView, params: dict[str, str]) -> ListSlice:
    """The rows a list page shows for these query parameters (the verifier re-renders reads with it)."""
    where: list[str] = []
    args: list[str | int] = []
    q = params.get("q", "").strip() if view.search else ""
    if q:
        where.append("(" + " OR ".join(f"{expr} LIKE ?" for expr in view.search) + ")")
        args += [f"%{q}%"] * len(view.search)
    filters = {}
    for f in view.filters:
        value = params.get(f.param, "").strip()
        if value:
            where.append(f"{f.sql} {f.op} ?")
            args.append(_whole(f, value) if f.kind == "number" else value)
            filters[f.param] = value
    sort = params.get("sort", view.default_sort)
    sort = sort if sort in view.columns else view.default_sort
    direction = "DESC" if params.get("dir") == "desc" else "ASC"
    clause = (" WHERE " + " AND ".join(where)) if where else ""
    total = con.execute(f"SELECT COUNT(*) FROM {view.table} t{clause}", args).fetchone()[0]
    pages = max(1, math.ceil(total / PAGE_SIZE))
    try:
        number = min(max(1, int(params.get("page", "1"))), pages)
    except ValueError:
        number = 1
    rows = con.execute(
        f"SELECT * FROM {view.table} t{clause} ORDER BY t.{sort} {direction}, t.id LIMIT ? OFFSET ?",
        [*args, PAGE_SIZE, (number - 1) * PAGE_SIZE],
    ).fetchall()
    return ListSlice(view, q, filters, sort, direction, number, pages, total, rows)


def list_page(con: sqlite3.Connection, apps: AppSet, table: str, params: dict[str, str]) -> Page:
    view = apps.lists[table]
    schema = apps.schema
    found = list_slice(con, view, params)
    sort, direction, number, pages = found.sort, found.direction, found.number, found.pages
    page = Page(f"{view.title} (page {number} of {pages})", "list").heading(view.title)
    app = schema.tables[table].app
    page.add(" | ".join(f'<a href="{list_url(t)}">{t.replace("_", " ").capitalize()}</a>' for t in apps.subnav[app]))
    controls = [input_html("q", "Search", params.get("q", "").strip(), "search")] if view.search else []
    controls += [input_html(f.param, f.label, params.get(f.param, ""), f.kind, f.choices) for f in view.filters]
    if controls:
        page.add(form_html(list_url(table), "get", controls, "Search"))
    keep = {k: v for k, v in params.items() if k not in ("page", "sort", "dir") and v}
    headers = []
    for column in view.columns:
        flip = "desc" if sort == column and direction == "ASC" else "asc"
        href = list_url(table, **keep, sort=column, dir=flip)
        mark = (" ▲" if direction == "ASC" else " ▼") if sort == column else ""
        headers.append(f'<a href="{href}">{schema.tables[table].column(column).label}{mark}</a>')
    page.table(headers, [[cell(page, con, apps, table, c, row[c]) for c in view.columns] for row in found.rows])
    page.para(f"Page {number} of {pages} · {found.total} records · sorted by {sort} {direction.lower()}")
    nav = []
    if number > 1:
        nav.append(
            f'<a href="{list_url(table, **keep, sort=sort, dir=direction.lower(), page=number - 1)}">Previous page</a>'
        )
    if number < pages:
        nav.append(
            f'<a href="{list_url(table, **keep, sort=sort, dir=direction.lower(), page=number + 1)}">Next page</a>'
        )
    if nav:
        page.add("<p>" + " | ".join(nav) + "</p>")
    return page


# ASCII digits only (int() also takes "٣" and "1_0"), and few enough to fit SQLite's 64-bit integers
_WHOLE = re.compile(r"-?[0-9]{1,18}")


def _whole(f: Filter, value: str) -> int:
    if not _WHOLE.fullmatch(value):
        raise BadRequest(f"Filter {f.param} must be a whole number of at most 18 digits, not {value[:40]!r}.")
    return int(value)


def detail_page(con: sqlite3.Connection, apps: AppSet, table: str, pk: str, banner: str = "") -> Page:
    spec = apps.schema.tables[table]
    row = con.execute(f"SELECT * FROM {table} WHERE id = ?", (pk,)).fetchone()
    if row is None:
        raise NotFound(f"{spec.title} {pk} does not exist")
    page = Page(f"{spec.title} {pk}", "detail")
    if banner:
        page.para(banner, "banner")
    page.heading(f"{spec.title} {pk}")
    page.fields((c.label, cell(page, con, apps, table, c.name, row[c.name])) for c in spec.columns)
    apps.related(page, con, table, row)
    for target, param, label in apps.linked.get(table, ()):
        page.link(label, list_url(target, **{param: row["id"]}))
    if table in apps.forms_on:
        action, label = apps.forms_on[table]
        page.link(label, f"{record_url(table, pk)}/{action}")
    return page
