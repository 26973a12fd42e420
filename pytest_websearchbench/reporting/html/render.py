"""Rendering the report: one self-contained HTML file from one or several runs' results.

Everything goes through Jinja2 with autoescape on; the only markup inserted as is comes from this
package (its own script and stylesheet) and from matplotlib's SVG writer (which escapes its text). The
page's Content-Security-Policy allows no network at all and only the report's own script (by its hash),
so even text that escaped escaping could neither run nor load anything. Every registered secret, and
every key the caller names, is scrubbed from each value before it is escaped into the page, and from
the page after.

The items are data, not markup, so that a report of 10,000 items opens: one JSON block (a row of
indexes, texts and metric values an item) from which the script draws a page of the list at a time, and
each item's drill-down rendered here (the family's template, as the unit a family owns) but embedded
as gzip'd, base64'd JSON arrays of HTML strings, ``DRILL_CHUNK`` items each, that the script
decompresses (the browser's DecompressionStream) and inserts when the item is opened. A drill-down's
HTML is scrubbed before it is compressed: the page's last scrub cannot read it there.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.core.secrets import scrub, scrub_value
from pytest_websearchbench.core.version import __version__
from pytest_websearchbench.reporting.html import charts
from pytest_websearchbench.reporting.html.model import OUTCOMES, Item, Source, build_items, changes, report_figures

#: the page's template, stylesheet and script: package data beside this module
_TEMPLATES = Path(__file__).parent
#: drill-downs compressed together: one click decompresses this many (about 0.1 MB of HTML for LexBench)
DRILL_CHUNK = 64


def _module_folder(name: str) -> Path:
    file = import_module(name).__file__
    assert file is not None  # a family's module is a file (its templates lie beside it)
    return Path(file).parent


def _environment(families: Mapping[str, BenchmarkFamily], secrets: list[str]) -> jinja2.Environment:
    # a family's drill-down templates live in its own package: "<family>/<template>"
    # (imported by name: a module can leave sys.modules while its classes live on, as pytester's runs do)
    family_dirs = {
        name: jinja2.FileSystemLoader(_module_folder(type(family).__module__)) for name, family in families.items()
    }
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(_TEMPLATES), jinja2.PrefixLoader(family_dirs)]),
        # results files of other versions may lack a field: a missing one renders empty
        autoescape=True,
        undefined=jinja2.ChainableUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # a value's text is scrubbed before it is escaped (escaping could change a key's characters); markup
        # (this package's, matplotlib's, a rendered drill-down's) is scrubbed with the page
        finalize=lambda value: value if isinstance(value, Markup) else scrub(str(value), secrets, echoes=True),
    )
    env.filters["num"] = _number
    env.filters["href"] = _href
    env.filters["ms"] = lambda value: "-" if value is None else f"{value:.1f}"
    return env


def _number(value: Any, digits: int = 3) -> str:
    if isinstance(value, bool) or value is None:
        return "-" if value is None else ("yes" if value else "no")
    if isinstance(value, (int, float)):
        if value != value:  # nan
            return "-"
        return f"{value:.{digits}f}" if isinstance(value, float) and value != int(value) else f"{value:g}"
    return str(value)


def _href(url: Any) -> str | None:
    """A link target only for web URLs: a provider's ``javascript:`` or ``data:`` URL is shown, never linked."""
    if not isinstance(url, str):
        return None
    try:
        return url if urlsplit(url.strip()).scheme.lower() in ("http", "https") else None
    except ValueError:
        return None


def render_report(
    sources: list[Source], families: Mapping[str, BenchmarkFamily], *, secrets: Iterable[str] = ()
) -> str:
    """The report's HTML (one page, nothing to fetch)."""
    secrets = [s for s in secrets if s]
    env = _environment(families, secrets)
    items = build_items(sources)
    views = [_drilldown(env, families, item) for item in items]
    suites = report_figures(sources, items, families)
    charts_of = {}
    for index, suite in enumerate(suites):
        charts_of[suite.name] = [
            Markup(svg)
            for svg in (  # matplotlib's SVG: its text is XML-escaped
                charts.metric_chart(suite, f"m{index}"),
                charts.latency_chart(suite, f"l{index}"),
            )
            if svg
        ]
    labels = {c.key: c.label for suite in suites for c in suite.columns}
    # the rows a family adds to the terminal's table (WebBench: failure modes, calibration, sandbox), here too
    family_rows = {
        suite.name: families[suite.family].summary_rows(
            [[r.score for r in v.records if r.score] for v in suite.variants]
        )
        if suite.family in families
        else []
        for suite in suites
    }
    # who the run's items were run against, as its records say (a WebBench run names agents, not providers)
    ran = {source.label: list(dict.fromkeys(r.meta.variant for r in source.results.records)) for source in sources}
    script = (_TEMPLATES / "report.js").read_text("utf-8")
    variants = list(dict.fromkeys(v.name for s in suites for v in s.variants))
    outcomes = [o for o in OUTCOMES if any(i.record.outcome == o for i in items)]
    families_shown = sorted({i.record.meta.family for i in items})
    tags = sorted({t for i in items for t in i.record.meta.tags})
    drill = env.get_template("item_drill.html.j2")
    drills = [
        scrub(drill.render(item=item, record=item.record, metric_labels=labels, family_view=view), secrets, echoes=True)
        for item, (view, _) in zip(items, views)
    ]
    failure_modes = sorted({mode for _, mode in views} - {""})
    data = _item_data(
        items,
        [s.name for s in suites],
        variants,
        outcomes,
        families_shown,
        tags,
        labels,
        drills,
        [mode for _, mode in views],
        failure_modes,
        secrets,
    )
    page = env.get_template("report.html.j2").render(
        sources=sources,
        suites=suites,
        changes=changes(items),
        items=items,
        charts=charts_of,
        family_rows=family_rows,
        ran=ran,
        metric_labels=labels,
        outcomes=outcomes,
        variants=variants,
        families=families_shown,
        tags=tags,
        failure_modes=failure_modes,
        data=Markup(data),
        version=__version__,
        built=datetime.now(UTC).isoformat(timespec="seconds"),
        style=Markup((_TEMPLATES / "report.css").read_text("utf-8")),
        script=Markup(script),
        script_hash="sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii"),
    )
    return scrub(page, secrets, echoes=True)


def _item_data(
    items: list[Item],
    suites: list[str],
    variants: list[str],
    outcomes: list[str],
    families: list[str],
    tags: list[str],
    labels: Mapping[str, str],
    drills: list[str],
    modes: list[str],
    failure_modes: list[str],
    secrets: list[str],
) -> str:
    """The page's one JSON block: each item as a row of indexes into the lists, its metric values in the
    order of ``metrics`` (null: not measured; ``labels`` their names), its primary metric's column, its baseline
    status and its failure mode (``modes``, as an index into ``failure_modes``; null: none); the drill-downs in
    compressed chunks. ``<`` is written \\u003c, so nothing in it can end the block."""
    metrics = sorted({key for item in items for key in item.record.metrics})
    index = {
        name: {value: n for n, value in enumerate(values)}
        for name, values in (
            ("suite", suites),
            ("variant", variants),
            ("outcome", outcomes),
            ("family", families),
            ("tag", tags),
            ("failure", failure_modes),
        )
    }
    column = {key: n for n, key in enumerate(metrics)}
    rows = []
    for item, mode in zip(items, modes):
        record = item.record
        values = [record.metrics.get(key) for key in metrics]
        primary = record.primary
        rows.append(
            [
                index["suite"][item.suite],
                item.case_id,
                index["variant"][item.variant],
                index["outcome"][record.outcome],
                index["family"][record.meta.family],
                [index["tag"][t] for t in record.meta.tags],
                [v if isinstance(v, (int, float)) and math.isfinite(v) else None for v in values],
                column.get(primary) if primary in record.metrics else None,
                record.baseline.status if record.baseline else "",
                index["failure"].get(mode),
            ]
        )
    chunks = [
        base64.b64encode(
            gzip.compress(
                json.dumps(drills[start : start + DRILL_CHUNK], ensure_ascii=False, separators=(",", ":")).encode(
                    "utf-8"
                ),
                9,
                mtime=0,
            )
        ).decode("ascii")
        for start in range(0, len(drills), DRILL_CHUNK)
    ]
    document = scrub_value(
        {
            "suites": suites,
            "variants": variants,
            "outcomes": outcomes,
            "families": families,
            "tags": tags,
            "failure_modes": failure_modes,
            "metrics": metrics,
            "labels": [labels.get(key, key) for key in metrics],
            "items": rows,
        },
        secrets,
        echoes=True,
    )
    document.update(chunk=DRILL_CHUNK, drills=chunks)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")


def _drilldown(env: jinja2.Environment, families: Mapping[str, BenchmarkFamily], item: Item) -> tuple[Markup, str]:
    """An item's drill-down and its failure mode: the family's, else an errored item's error kind."""
    family = families.get(item.record.meta.family)
    markup, mode = (Markup(""), "") if family is None else _render_view(family, item.record.to_dict(), env)
    run = item.record.run
    if not mode and item.record.outcome == "error":
        mode = f"error: {run.error_kind}" if run is not None and run.error_kind else "error"
    return markup, mode


def render_drilldown(family: BenchmarkFamily, data: Mapping[str, Any], env: jinja2.Environment | None = None) -> Markup:
    """The family's view of one item of a results file (``data``), as the report shows it; empty when the
    family has none."""
    return _render_view(family, data, env or _environment({family.name: family}, []))[0]


def _render_view(family: BenchmarkFamily, data: Mapping[str, Any], env: jinja2.Environment) -> tuple[Markup, str]:
    try:
        view = family.drilldown(dict(data))
        if view is None:
            return Markup(""), ""
        # the family's template is autoescaped like the page: its output is markup
        return Markup(env.get_template(f"{family.name}/{view.template}").render(**view.context)), view.failure_mode
    except (TypeError, AttributeError, KeyError, ValueError, jinja2.UndefinedError) as exc:
        # an item of another shape (a hand-edited or foreign file) loses its drill-down, not the report
        return Markup(
            env.get_template("drilldown_error.html.j2").render(family=family.name, error=f"{type(exc).__name__}: {exc}")
        ), ""


def write_report(
    path: Path, sources: list[Source], families: Mapping[str, BenchmarkFamily], *, secrets: Iterable[str] = ()
) -> int:
    """Write the report atomically; its size in bytes."""
    text = render_report(sources, families, secrets=secrets)
    write_text_atomic(path, text)
    return len(text.encode("utf-8"))
