"""How far a model judge agrees with the reference grades (pure): Cohen's weighted κ over the pages
both graded, the 4×4 confusion matrix, and Kendall's τ between the provider rankings the two sets of
grades give — what TREC's LLM-assessor studies (UMBRELA) report.

κ uses **quadratic** weights, wᵢⱼ = (i − j)² / 9: the 0–3 scale is ordinal and its gains (2^g − 1)
grow with the distance between grades, so a 0 given to a 3 should cost far more than a 2 given to a 3;
linear weights would price every step alike. (Quadratic-weighted κ is also the usual choice for
ordinal relevance scales, so the figure is comparable with published ones.)

τ is Kendall's τ-b (ties in either ranking counted as in scipy's default), over the providers'
mean nDCG@k.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

GRADES = (0, 1, 2, 3)


def confusion(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """matrix[reference][model] counts over (reference grade, model grade) pairs."""
    matrix = [[0] * len(GRADES) for _ in GRADES]
    for reference, model in pairs:
        matrix[reference][model] += 1
    return matrix


def weighted_kappa(pairs: Sequence[tuple[int, int]], weights: str = "quadratic") -> float:
    """Cohen's κ with disagreement weights (i−j)² (quadratic) or |i−j| (linear); nan without pairs,
    1.0 when both graders give one and the same grade throughout (no disagreement is possible)."""
    if not pairs:
        return math.nan
    power = {"quadratic": 2, "linear": 1}[weights]
    top = len(GRADES) - 1
    n = len(pairs)
    matrix = confusion(pairs)
    rows = [sum(row) for row in matrix]
    cols = [sum(matrix[i][j] for i in GRADES) for j in GRADES]
    observed = expected = 0.0
    for i in GRADES:
        for j in GRADES:
            w = (abs(i - j) / top) ** power
            observed += w * matrix[i][j] / n
            expected += w * rows[i] * cols[j] / (n * n)
    if expected == 0:
        return 1.0 if observed == 0 else math.nan
    return 1.0 - observed / expected


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b between two scorings of the same items; nan when either is constant or n < 2."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(x)
    for a in range(n):
        for b in range(a + 1, n):
            dx, dy = x[a] - x[b], y[a] - y[b]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else math.nan


@dataclass(frozen=True)
class Agreement:
    pairs: tuple[tuple[int, int], ...]
    rankings: dict[str, tuple[float, float]]  # provider → (mean nDCG with reference grades, with model grades)
    metric: str = "nDCG"

    @property
    def kappa(self) -> float:
        return weighted_kappa(self.pairs)

    @property
    def linear_kappa(self) -> float:
        return weighted_kappa(self.pairs, "linear")

    @property
    def tau(self) -> float:
        providers = list(self.rankings)
        return kendall_tau_b([self.rankings[p][0] for p in providers], [self.rankings[p][1] for p in providers])

    def lines(self, reference: str = "reference", new: str = "model") -> list[str]:
        n = len(self.pairs)
        exact = sum(a == b for a, b in self.pairs)
        out = [f"agreement of the {new} grades with the {reference} grades on {n:,} pages both graded"]
        if not n:
            return out + ["  (no page has both grades: grade with --calibrate to measure agreement)"]
        out.append(
            f"  Cohen's κ, quadratic weights: {self.kappa:.3f}   (linear: {self.linear_kappa:.3f}; "
            f"exact agreement {exact / n:.1%})"
        )
        out.append(f"  {reference + ' ↓ / ' + new + ' →':<22}" + "".join(f"{g:>7}" for g in GRADES))
        for grade, row in zip(GRADES, confusion(self.pairs)):
            out.append(f"  {grade:<22}" + "".join(f"{c:>7}" for c in row))
        if len(self.rankings) >= 2:
            out.append(f"  provider ranking by mean {self.metric}: {reference} grades vs {new} grades")
            for provider, (ref, model) in sorted(self.rankings.items(), key=lambda kv: -kv[1][0]):
                out.append(f"    {provider:<20} {ref:.3f}   {model:.3f}")
            out.append(f"  Kendall's τ-b between the two rankings: {self.tau:.3f} ({len(self.rankings)} providers)")
        return out
