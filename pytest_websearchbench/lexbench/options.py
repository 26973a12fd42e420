"""LexBench's own options. A light module (it imports only the core): pytest lists and checks them
without importing the family."""

from __future__ import annotations

from pytest_websearchbench.core.options import Option

SCALES = ("1", "100")

OPTIONS: tuple[Option, ...] = (
    Option(
        "--wsb-grades",
        "wsb_grades",
        "lexbench scenario suites: new grades files (editions written by the judge or the sheet import), "
        "comma-separated, used after the suite's own grades for the pages those leave ungraded",
        "FILE[,FILE...]",
        default_help="none",
        path=True,
    ),
    Option(
        "--wsb-grades-replace",
        "wsb_grades_replace",
        "lexbench: score with the --wsb-grades files alone, not the suite's grades (not comparable)",
        switch=True,
    ),
    Option(
        "--wsb-grades-index",
        "wsb_grades_index",
        "lexbench: the folder of the grades files' indexes, each built once per file (keyed by its SHA-256) "
        "and read by every later run and xdist worker; 'none' reads the grades file in every process",
        "DIR",
        default_help="$XDG_CACHE_HOME/pytest-websearchbench/grades, else ~/.cache/pytest-websearchbench/grades",
        path=True,
    ),
    Option(
        "--wsb-trec",
        "wsb_trec",
        "lexbench scenario suites: write the run as TREC files into this folder (made if only it is missing): "
        "<suite>.qrels with the grades the scoring used and <suite>.<variant>.run per variant, docnos the "
        "normalised URLs, for trec_eval, ir_measures or ranx",
        "DIR",
        path=True,
    ),
    Option(
        "--wsb-scale",
        "wsb_scale",
        "lexbench: the terminal summary shows the metrics as fractions (1) or on the LexBench article's 0-100 "
        "scale (100); the results file and the HTML report keep fractions",
        "SCALE",
        "1",
        choices=SCALES,
    ),
)
