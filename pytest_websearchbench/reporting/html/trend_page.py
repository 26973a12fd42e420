"""The trend page of a release history (``wsb-report --history``): one self-contained HTML file.

Built like the report (``render.py``): Jinja2 with autoescape on, the charts matplotlib's SVG drawn at
build time (``charts.svg_element``), the stylesheet inside the page. The page has no script at all: its
Content-Security-Policy allows none and no network, so it opens from disk and loads nothing. Every
registered secret, and every key the caller names, is scrubbed from each value and from the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import jinja2
import matplotlib
from markupsafe import Markup
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.secrets import scrub
from pytest_websearchbench.core.version import __version__
from pytest_websearchbench.reporting.history import RunEntry
from pytest_websearchbench.reporting.html.charts import PALETTE, svg_element
from pytest_websearchbench.reporting.trends import FLAKY_FLIPS, SuiteTrend, suite_trends

_HERE = Path(__file__).parent
#: the outcome history's cells: pytest's outcome → what the cell says
OUTCOME_MARKS = {"passed": "pass", "failed": "fail", "xfailed": "xfail", "error": "error", "skipped": "skip"}
_DROP, _RISE = "#cc3333", "#449944"


def trend_chart(trend: SuiteTrend, salt: str) -> str | None:
    """The primary metric per variant over the suite's runs: each run's mean (a point on the line) and 95 %
    interval (the band); a significant step marked ▲/▼ with its Δ; a dashed line where the suite changed
    and a new line starts."""
    if not any(p.figure for v in trend.variants for p in v.points):
        return None
    runs = len(trend.runs)
    names = [run.name for run in trend.runs]
    rotate = runs > 6 or max(len(name) for name in names) * runs > 70
    width = min(max(6.0, 1.5 + 0.85 * runs), 13.0)
    height = 3.4 + (0.1 * max(len(name) for name in names) if rotate else 0)
    with matplotlib.rc_context({"text.parse_math": False}):
        figure = Figure(figsize=(width, height))
        ax = figure.subplots()
        figure.subplots_adjust(
            left=0.75 / width,
            right=1 - 0.2 / width,
            top=1 - 0.3 / height,
            bottom=(height - 2.6) / height if rotate else 0.55 / height,
        )
        lows, highs = [0.0], [1.0]
        for index, variant in enumerate(trend.variants):
            colour = PALETTE[index % len(PALETTE)]
            for number, segment in enumerate(variant.segments):
                points = [(p, stored) for p in segment if (stored := p.figure) is not None]
                if not points:
                    continue
                xs = [p.position for p, _ in points]
                means = [f.mean for _, f in points]
                low, high = [f.low for _, f in points], [f.high for _, f in points]
                lows += low
                highs += high
                if len(points) > 1:
                    ax.fill_between(xs, low, high, color=colour, alpha=0.18, linewidth=0)
                else:  # a band needs two runs: one run's interval is an error bar
                    ax.errorbar(
                        xs,
                        means,
                        yerr=[[means[0] - low[0]], [high[0] - means[0]]],
                        color=colour,
                        capsize=4,
                        elinewidth=1,
                    )
                ax.plot(
                    xs,
                    means,
                    marker="o",
                    markersize=4,
                    color=colour,
                    linewidth=1.5,
                    label=variant.variant if number == 0 else None,
                )
                for point, stored in points:
                    if point.significant and point.step is not None:  # a significant point has its step
                        drop = point.step.delta < 0
                        ax.plot(
                            [point.position],
                            [stored.mean],
                            marker="v" if drop else "^",
                            markersize=10,
                            color=_DROP if drop else _RISE,
                            linestyle="none",
                        )
                        ax.annotate(
                            f"{point.step.delta:+.3f}".replace("-", "−"),
                            (point.position, stored.mean),
                            xytext=(7, -3 if drop else 3),
                            textcoords="offset points",
                            fontsize=7,
                            color=_DROP if drop else _RISE,
                        )
        top = max(highs) * 1.08 if max(highs) > 1 else 1.08
        ax.set_ylim(min(lows) * 1.08 if min(lows) < 0 else 0, top)
        ax.set_xlim(-0.5, runs - 0.5)
        on_axes = blended_transform_factory(ax.transData, ax.transAxes)
        for brk in trend.breaks:
            ax.axvline(brk.position - 0.5, color="#888888", linestyle="--", linewidth=1)
            ax.text(
                brk.position - 0.45,
                0.98,
                brk.what + " changed",
                transform=on_axes,
                fontsize=7,
                va="top",
                color="#555555",
            )
        ax.set_xticks(range(runs), names, fontsize=8, rotation=35 if rotate else 0, ha="right" if rotate else "center")
        ax.tick_params(axis="y", labelsize=7)
        ax.set_ylabel(trend.metric, fontsize=8)
        ax.grid(axis="y", color="#e4e4e4", linewidth=0.6)
        for spine in ("top", "right"):
            ax.spines[spine].set_visible(False)
        ax.legend(fontsize=7, loc="lower left", frameon=False)
        return svg_element(figure, salt)


def render_trends(name: str, entries: Sequence[RunEntry], *, secrets: Iterable[str] = ()) -> str:
    """The trend page of the history ``name`` (its file name), from its runs."""
    secrets = [s for s in secrets if s]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_HERE),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=lambda value: value if isinstance(value, Markup) else scrub(str(value), secrets, echoes=True),
    )
    env.filters["num"] = lambda value, digits=3: "-" if value is None else f"{value:.{digits}f}"
    trends = suite_trends(entries)
    charts = {}
    for index, trend in enumerate(trends):
        svg = trend_chart(trend, f"t{index}")
        charts[trend.suite] = Markup(svg) if svg else None  # matplotlib's SVG: its text is XML-escaped
    page = env.get_template("trends.html.j2").render(
        name=name,
        runs=[entry.run for entry in entries],
        trends=trends,
        charts=charts,
        marks=OUTCOME_MARKS,
        flaky_flips=FLAKY_FLIPS,
        version=__version__,
        built=datetime.now(UTC).isoformat(timespec="seconds"),
        style=Markup((_HERE / "trends.css").read_text("utf-8")),
    )
    return scrub(page, secrets, echoes=True)


def write_trends(path: Path, name: str, entries: Sequence[RunEntry], *, secrets: Iterable[str] = ()) -> int:
    """Write the trend page atomically; its size in bytes."""
    text = render_trends(name, entries, secrets=secrets)
    write_text_atomic(path, text)
    return len(text.encode("utf-8"))
