"""What a benchmark item writes into JUnit XML (``--junitxml``): flat properties that junitparser,
GitLab and Jenkins read as they are — the item's identity, and each metric of its score by its key.

They are the item's ``user_properties``, which pytest's junitxml writes from the teardown report as
``str(value)``: a metric is written as its JSON text, so ``json.loads`` gives the number back.
"""

from __future__ import annotations

import json

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.reporting.results import ItemMeta

#: prefix of the property a metric is written to: ``wsb.metric.ndcg``
METRIC_PREFIX = "wsb.metric."


def identity_properties(meta: ItemMeta) -> list[tuple[str, str]]:
    """Which item a test case is: its suite, case, variant (provider or agent) and family."""
    return [("wsb.suite", meta.suite), ("wsb.case", meta.case_id), ("wsb.variant", meta.variant),
            ("wsb.family", meta.family)]


def metric_properties(score: Score) -> list[tuple[str, str]]:
    """Each metric of a scored item, by its key, as a JSON number."""
    return [(METRIC_PREFIX + key, json.dumps(float(value))) for key, value in score.metrics.items()]
