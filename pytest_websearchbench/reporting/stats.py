"""Aggregate statistics of per-item scores: means, percentiles, bootstrap, paired test.

Means use `math.fsum` (exactly rounded) and resampling starts from the sorted values, so a
result never depends on the order in which xdist workers delivered the values.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

NAN = float("nan")
#: index draws held at once by bootstrap_ci (2 MiB of them), so its memory does not grow with resamples × n
_DRAWS_AT_ONCE = 1 << 18


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean (exactly rounded sum / count); nan when empty."""
    if not values:
        return NAN
    return math.fsum(values) / len(values)


def percentile(values: Sequence[float], q: float) -> float:
    """The `q`-th percentile (0 ≤ q ≤ 100) by linear interpolation between order statistics.

    Same rule as numpy's default ("linear"): position h = (n − 1)·q/100 in the sorted
    values, value = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). nan when empty.
    """
    if not 0 <= q <= 100:
        raise ValueError(f"percentile q must be within 0..100, got {q}")
    if not values:
        return NAN
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    below = math.floor(position)
    if below == len(ordered) - 1:
        return ordered[below]
    fraction = position - below
    return ordered[below] + fraction * (ordered[below + 1] - ordered[below])


def bootstrap_ci(
    values: Sequence[float], *, resamples: int = 2000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a percentile-bootstrap interval.

    Draws `resamples` samples with replacement from the sorted values, the indices from the raw
    stream of numpy's PCG64 bit generator seeded with `seed` (a fixed algorithm, unlike Generator's
    methods, so the interval does not move with numpy's version): index = ⌊(high 32 bits) · n / 2³²⌋.
    The result depends only on the multiset of values; low/high are the (1 ∓ confidence)/2
    percentiles of the resample means. Empty → (nan, nan, nan); all values equal to v → (v, v, v).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be within (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if not len(values):
        return NAN, NAN, NAN
    import numpy  # loaded by the first interval, not by every pytest start

    ordered = numpy.sort(numpy.asarray(values, dtype=float))
    centre = mean(ordered.tolist())
    if ordered[0] == ordered[-1]:
        return centre, centre, centre  # no spread to resample (and no rounding to put the ends beside the mean)
    n = len(ordered)
    bits = numpy.random.PCG64(seed)
    means = numpy.empty(resamples)
    rows_at_once = max(1, _DRAWS_AT_ONCE // n)
    for start in range(0, resamples, rows_at_once):
        rows = min(rows_at_once, resamples - start)
        picks = ((bits.random_raw(rows * n) >> numpy.uint64(32)) * numpy.uint64(n)) >> numpy.uint64(32)
        means[start : start + rows] = ordered[picks.reshape(rows, n)].mean(axis=1)
    tail = (1 - confidence) / 2 * 100
    resampled = means.tolist()
    return centre, percentile(resampled, tail), percentile(resampled, 100 - tail)


def paired_randomization_test(
    a: Sequence[float], b: Sequence[float], *, resamples: int = 10000, seed: int = 0
) -> float:
    """Two-sided p-value that the mean paired difference a − b is zero (sign-flip test).

    Each resample flips the sign of every difference with probability ½ (`random.Random(seed)`);
    p = (count + 1) / (resamples + 1), count = resamples whose |Σ flipped| ≥ |Σ observed|.
    Under the null only the magnitudes matter, so they are flipped in sorted order: p is
    the same for any order of the pairs and for swapped arguments. No pairs, or identical
    inputs → 1.0.
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    differences = [x - y for x, y in zip(a, b)]
    observed = abs(math.fsum(differences))
    magnitudes = sorted(abs(d) for d in differences)
    rng = random.Random(seed)
    count = sum(_flipped_sum(magnitudes, rng.getrandbits(len(magnitudes))) >= observed for _ in range(resamples))
    return (count + 1) / (resamples + 1)


def paired_difference(new: Sequence[float], old: Sequence[float]) -> tuple[float, float]:
    """(mean(new) − mean(old), p): the mean paired difference and its two-sided randomization test's p.
    Identical pairs skip the resamples: every sign flip ties, so p is 1."""
    p = 1.0 if list(new) == list(old) else paired_randomization_test(new, old)
    return mean(new) - mean(old), p


def _flipped_sum(magnitudes: Sequence[float], signs: int) -> float:
    """|Σ ±mᵢ| where bit i of `signs` set means mᵢ is negated."""
    return abs(math.fsum(-m if signs >> i & 1 else m for i, m in enumerate(magnitudes)))
