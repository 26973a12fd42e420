"""The report's charts, drawn by matplotlib's SVG backend and inlined in the page (no script, no network).

Text stays text (``svg.fonttype: none``: smaller, selectable, escaped by matplotlib's XML writer); math
parsing is off so a provider called ``$x$`` is drawn as written; each chart gets its own hash salt so the
clip-path ids of several charts in one page never collide; no date in the metadata, so a report is
reproducible byte for byte.
"""

from __future__ import annotations

import io
import math

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from pytest_websearchbench.reporting.figures import SuiteFigures

PALETTE = ("#3366aa", "#ee8833", "#449944", "#cc3333", "#8866bb", "#886655", "#dd77bb", "#777777")
_PANELS_PER_ROW = 4
#: matplotlib 3.10 renamed boxplot's ``vert=False`` (deprecated since) to ``orientation``
_HORIZONTAL = (
    {"orientation": "horizontal"}
    if tuple(map(int, matplotlib.__version__.split(".")[:2])) >= (3, 10)
    else {"vert": False}
)


def svg_element(figure: Figure, salt: str) -> str:
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt, "text.parse_math": False}):
        FigureCanvasSVG(figure)
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]  # the element alone: no XML declaration or DOCTYPE inside HTML


def metric_chart(suite: SuiteFigures, salt: str) -> str | None:
    """One panel per metric: each variant's mean as a bar with its 95 % interval as error bars."""
    columns = [c for c in suite.columns if any(c.key in v.metrics for v in suite.variants)]
    if not columns:
        return None
    names = [v.name for v in suite.variants]
    rows = math.ceil(len(columns) / _PANELS_PER_ROW)
    cols = min(len(columns), _PANELS_PER_ROW)
    # fixed margins in inches: a layout engine measuring every label costs more than the rest of the report
    axes_height, gap, top, bottom = 0.3 * len(names) + 0.2, 0.62, 0.28, 0.3
    label_width = 0.25 + 0.065 * max(len(name) for name in names)  # 8-pt provider names
    width, height = label_width + 2.4 * cols, top + bottom + rows * axes_height + (rows - 1) * gap
    with matplotlib.rc_context({"text.parse_math": False}):
        figure = Figure(figsize=(width, height))
        axes = figure.subplots(rows, cols, squeeze=False)
        figure.subplots_adjust(
            left=label_width / width,
            right=1 - 0.15 / width,
            bottom=bottom / height,
            top=1 - top / height,
            wspace=0.18,
            hspace=gap / axes_height,
        )
        for index, column in enumerate(columns):
            ax = axes[index // cols][index % cols]
            means: list[float] = []
            errors: list[list[float]] = [[], []]
            colours: list[str] = []
            labels: list[str] = []
            for position, variant in enumerate(suite.variants):
                stat = variant.metrics.get(column.key)
                mean = stat.mean if stat else 0.0
                means.append(mean)
                errors[0].append(max(mean - stat.low, 0.0) if stat else 0.0)
                errors[1].append(max(stat.high - mean, 0.0) if stat else 0.0)
                colours.append(PALETTE[position % len(PALETTE)])
                labels.append(f"{mean:.3g}" if stat else "-")
            y = list(range(len(names)))
            ax.barh(
                y,
                means,
                xerr=errors,
                color=colours,
                height=0.6,
                capsize=3,
                error_kw={"elinewidth": 1, "ecolor": "#222222"},
            )
            ax.set_yticks(y, names if index % cols == 0 else [""] * len(names), fontsize=8)
            ax.invert_yaxis()
            ax.set_title(column.label, fontsize=9)
            ax.tick_params(axis="x", labelsize=7)
            for spine in ("top", "right"):
                ax.spines[spine].set_visible(False)
            top = max([m + e for m, e in zip(means, errors[1])] + [1e-9])
            right = top * 1.25 if top > 1 else 1.05
            ax.set_xlim(0, right)
            for yy, mean, high, label in zip(y, means, errors[1], labels):
                # inside a long bar in white, else after its interval in black
                inside = mean > 0.3 * right
                ax.annotate(
                    label,
                    (0 if inside else mean + high, yy),
                    xytext=(2 if inside else 3, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=7,
                    color="white" if inside else "#222222",
                )
        for index in range(len(columns), rows * cols):
            axes[index // cols][index % cols].set_visible(False)
        return svg_element(figure, salt)


def latency_chart(suite: SuiteFigures, salt: str) -> str | None:
    """The distribution of provider call latencies per variant: a box plot over every call (log scale)."""
    data = [(v.name, v.latencies_ms) for v in suite.variants if v.latencies_ms]
    if not data:
        return None
    with matplotlib.rc_context({"text.parse_math": False}):
        label_width = 0.25 + 0.065 * max(len(name) for name, _ in data)
        width, height = label_width + 6, 0.4 * len(data) + 0.75
        figure = Figure(figsize=(width, height))
        ax = figure.subplots()
        figure.subplots_adjust(
            left=label_width / width, right=1 - 0.2 / width, bottom=0.45 / height, top=1 - 0.1 / height
        )
        ax.boxplot(
            [values for _, values in data],
            **_HORIZONTAL,
            widths=0.5,
            flierprops={"markersize": 3, "markeredgecolor": "#777777"},
            medianprops={"color": "#cc3333"},
        )
        ax.set_yticks(range(1, len(data) + 1), [name for name, _ in data], fontsize=8)
        ax.invert_yaxis()
        low, high = min(min(v) for _, v in data), max(max(v) for _, v in data)
        if low > 0:
            ax.set_xscale("log")
            # plain numbers (the default labels are mathtext, which is off); 2…9 × 10ⁿ too on a short range
            ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
            ax.xaxis.set_minor_formatter(
                FuncFormatter(lambda value, _: f"{value:g}" if math.log10(high / low) < 1.5 else "")
            )
        ax.set_xlabel("latency per provider call (ms)", fontsize=8)
        ax.tick_params(axis="x", which="both", labelsize=7)
        for spine in ("top", "right"):
            ax.spines[spine].set_visible(False)
        return svg_element(figure, salt)
