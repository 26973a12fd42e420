"""The calibration table (pure): per template, over its episodes (``--wsb-repeat`` runs each task
several times), the pass rate with a Wilson 80 % interval, mean WebScore, strict pass, mean steps
and the majority failure mode."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

#: two-sided 80 %: the standard normal's 90th percentile
Z80 = 1.2815515655446004


def wilson(successes: int, n: int, z: float = Z80) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (0, 1) for no trials."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # at 0 and n the bounds are exactly 0 and 1 (the float sum leaves a few 1e-18 over)
    return (0.0 if successes == 0 else centre - half), (1.0 if successes == n else centre + half)


@dataclass(frozen=True)
class Episode:
    template: str
    passed: bool
    strict_pass: bool
    webscore: float
    steps: int
    failure_mode: str


@dataclass(frozen=True)
class TemplateRow:
    template: str
    episodes: int
    passes: int
    interval: tuple[float, float]
    mean_webscore: float
    strict_pass: float
    mean_steps: float
    majority_failure: str

    @property
    def pass_rate(self) -> float:
        return self.passes / self.episodes

    def text(self) -> str:
        low, high = self.interval
        return (
            f"pass {self.passes}/{self.episodes} = {self.pass_rate:.2f} [80% {low:.2f}, {high:.2f}] · "
            f"WebScore {self.mean_webscore:.1f} · strict {self.strict_pass:.2f} · steps {self.mean_steps:.1f} · "
            f"majority failure: {self.majority_failure}"
        )


def table(episodes: Iterable[Episode]) -> list[TemplateRow]:
    """One row per template, in template order; the majority failure mode is over the failed
    episodes (ties: alphabetical), ``none`` when every episode passed."""
    by_template: dict[str, list[Episode]] = {}
    for episode in episodes:
        by_template.setdefault(episode.template, []).append(episode)
    rows = []
    for template in sorted(by_template):
        group = by_template[template]
        n = len(group)
        passes = sum(e.passed for e in group)
        modes = Counter(e.failure_mode for e in group if not e.passed)
        majority = min(modes.items(), key=lambda m: (-m[1], m[0]))[0] if modes else "none"
        rows.append(
            TemplateRow(
                template,
                n,
                passes,
                wilson(passes, n),
                sum(e.webscore for e in group) / n,
                sum(e.strict_pass for e in group) / n,
                sum(e.steps for e in group) / n,
                majority,
            )
        )
    return rows
