"""What a benchmark item writes into JUnit XML (``--junitxml``): flat properties that junitparser,
GitLab and Jenkins read as they are — the item's identity (``suite``, ``case``, ``variant``, ``family``), and
each metric of its score by the name the summary shows, lower-cased (``ndcg@5``, ``success@5``, ``webscore``).

They are the item's ``user_properties``, which pytest's junitxml writes from the teardown report as
``str(value)``: a metric is written as its JSON text, so ``json.loads`` gives the number back.
"""

from __future__ import annotations

import json
import math
import sys

from pytest_websearchbench.core.family import MetricColumn, Score
from pytest_websearchbench.reporting.results import ItemMeta

IDENTITY = ("suite", "case", "variant", "family")


def identity_properties(meta: ItemMeta) -> list[tuple[str, str]]:
    """Which item a test case is: its suite, case, variant (provider or agent) and family."""
    return list(zip(IDENTITY, (meta.suite, meta.case_id, meta.variant, meta.family)))


def metric_properties(score: Score, columns: list[MetricColumn]) -> list[tuple[str, str]]:
    """Each metric of a scored item, as a JSON number, named by its summary label (``columns``: the family's;
    a metric no column shows goes by its key)."""
    label = {column.key: sys.intern(column.label.lower()) for column in columns}  # one text a label, every item's
    return [(label.get(key, key), _number(float(value))) for key, value in score.metrics.items()]


def _number(value: float) -> str:
    """``json.dumps(value)``, without the encoder it sets up for each call: a float's repr, or NaN, ±Infinity."""
    return repr(value) if math.isfinite(value) else json.dumps(value)
