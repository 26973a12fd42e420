"""The HTML report (``--wsb-html``, ``python -m pytest_websearchbench.report``): one self-contained page
built from runs' results: model.py (the items, and each suite's figures from ``reporting/figures.py``),
charts.py (matplotlib SVG), render.py (Jinja2, autoescaped), report.html.j2, report.css and report.js (the
page, its stylesheet and script); each family's drill-down template lives in its own package
(``BenchmarkFamily.drilldown``). Import from the modules: the package imports nothing, so importing
``charts`` does not load the page."""
