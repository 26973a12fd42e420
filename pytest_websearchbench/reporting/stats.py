"""Aggregate statistics of per-item scores: means, percentiles, bootstrap, paired test.

Means use `math.fsum` (exactly rounded) and resampling starts from the sorted values, so a
result never depends on the order in which xdist workers delivered the values.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any

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
    return bootstrap_cis([values], resamples=resamples, confidence=confidence, seed=seed)[0]


def bootstrap_cis(
    samples: Sequence[Sequence[float]], *, resamples: int = 2000, confidence: float = 0.95, seed: int = 0
) -> list[tuple[float, float, float]]:
    """``bootstrap_ci`` of each sample. Samples of one length resample the same indices (``bootstrap_ci``'s
    draws depend only on the length and the seed), so they are drawn once for all of them: a run's metrics,
    one sample each over the same items, share one pass through the stream instead of drawing it a metric."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be within (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if not any(len(values) for values in samples):
        return [(NAN, NAN, NAN)] * len(samples)
    import numpy  # loaded by the first interval, not by every pytest start

    results: list[tuple[float, float, float]] = [(NAN, NAN, NAN)] * len(samples)
    spread: dict[int, dict[int, Any]] = {}  # length → sample's place → its sorted values, where they differ
    for place, values in enumerate(samples):
        if not len(values):
            continue
        ordered = numpy.sort(numpy.asarray(values, dtype=float))
        centre = mean(ordered.tolist())
        # all equal: no spread to resample (and no rounding to put the ends beside the mean)
        results[place] = (centre, centre, centre)
        if ordered[0] != ordered[-1]:
            spread.setdefault(len(ordered), {})[place] = ordered
    tail = (1 - confidence) / 2 * 100
    for n, sorted_samples in spread.items():
        bits = numpy.random.PCG64(seed)
        means = {place: numpy.empty(resamples) for place in sorted_samples}
        rows_at_once = max(1, _DRAWS_AT_ONCE // n)
        for start in range(0, resamples, rows_at_once):
            rows = min(rows_at_once, resamples - start)
            picks = bits.random_raw(rows * n)
            picks >>= numpy.uint64(32)
            picks *= numpy.uint64(n)
            picks >>= numpy.uint64(32)
            indices = picks.view(numpy.int64)  # each < n: the same numbers, as the index type take reads fastest
            for place, ordered in sorted_samples.items():
                means[place][start : start + rows] = ordered.take(indices).reshape(rows, n).mean(axis=1)
        for place, resample_means in means.items():
            resampled = resample_means.tolist()
            results[place] = (results[place][0], percentile(resampled, tail), percentile(resampled, 100 - tail))
    return results


def exact_differences(a: Sequence[float | Fraction], b: Sequence[float | Fraction]) -> list[Fraction]:
    """a − b pair by pair, in exact arithmetic (a float is the binary fraction it holds)."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    return [Fraction(x) - Fraction(y) for x, y in zip(a, b)]


def exact_mean(values: Sequence[float | Fraction]) -> Fraction:
    """The mean in exact arithmetic (a repeated case's runs: 1/3 + 1/3 + 1/3 is 1, not 1 − 2⁻⁵³)."""
    return sum((Fraction(v) for v in values), Fraction(0)) / len(values)


def paired_randomization_test(
    a: Sequence[float | Fraction], b: Sequence[float | Fraction], *, resamples: int = 10000, seed: int = 0
) -> float:
    """Two-sided p-value that the mean paired difference a − b is zero (sign-flip test).

    Under the null each difference is as likely negated, so p is the share of sign patterns whose
    |Σ ±dᵢ| is at least the observed |Σ dᵢ|. Sums are exact (the differences as integers over their
    common denominator), so a flip that ties the observed sum counts: two equal sums never differ by a
    float's last bit. Where the differences lie on a small grid (pass/fail, the means of a few runs) p is
    worked out from the exact null distribution; else, with 2ⁿ ≤ ``resamples``, every pattern is counted
    (the exact p too); otherwise
    ``resamples`` patterns from ``random.Random(seed).getrandbits(n)`` (bit i negates the i-th smallest
    magnitude) and p = (count + 1) / (resamples + 1). p depends only on the multiset of differences:
    the same for any order of the pairs and for swapped arguments. No pairs, or no difference → 1.0.
    """
    return sign_flip_p(exact_differences(a, b), resamples=resamples, seed=seed)


def sign_flip_p(differences: Sequence[Fraction], *, resamples: int = 10000, seed: int = 0) -> float:
    """The sign-flip test's two-sided p of exact differences (see `paired_randomization_test`)."""
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if not any(differences):
        return 1.0
    n = len(differences)
    flips = _SignFlips(differences)
    exact = flips.exact_p()
    if exact is not None:
        return exact
    if n < resamples.bit_length() and 1 << n <= resamples:
        return flips.count_at_least(iter([all_sign_patterns(n)])) / (1 << n)
    rng = random.Random(seed)
    count = flips.count_at_least(_drawn_patterns(rng, n, resamples))
    return (count + 1) / (resamples + 1)


def paired_difference(new: Sequence[float | Fraction], old: Sequence[float | Fraction]) -> tuple[float, float]:
    """(mean(new) − mean(old), p): the mean paired difference and its two-sided sign-flip test's p."""
    differences = exact_differences(new, old)
    if not differences:
        return NAN, 1.0
    return float(exact_mean(differences)), sign_flip_p(differences)


class _SignFlips:
    """The magnitudes of a sample's differences, as integers over their common denominator (exact) and
    as floats (fast); counts the sign patterns whose |Σ ±mᵢ| reaches the observed |Σ dᵢ|."""

    def __init__(self, differences: Sequence[Fraction]) -> None:
        denominator = math.lcm(*(d.denominator for d in differences))
        scaled = [d.numerator * (denominator // d.denominator) for d in differences]
        unit = math.gcd(*scaled)  # the grid the differences lie on: 1 for pass/fail, 1/N for means of N runs
        scaled = [v // unit for v in scaled]
        self.common = Fraction(denominator, unit)
        self.integers = sorted(abs(v) for v in scaled)
        self.total = sum(self.integers)
        self.observed = abs(sum(scaled))

    @cached_property
    def floats(self) -> Any:
        """The magnitudes as floats (only the counting of drawn or enumerated patterns needs them)."""
        import numpy

        return numpy.array([float(Fraction(m, self.common)) for m in self.integers])

    @cached_property
    def float_total(self) -> float:
        return math.fsum(self.floats.tolist())

    @cached_property
    def float_observed(self) -> float:
        return float(Fraction(self.observed, self.common))

    @cached_property
    def band(self) -> float:
        """Each float sum is within (n + 3)·2⁻⁵³·Σmᵢ of the exact one (rounding of each magnitude, any summation
        order, the observed sum's own rounding); only patterns within twice that band of the observed sum are
        settled in integers, which is where the ties are."""
        return (len(self.integers) + 3) * 2.0**-52 * self.float_total

    def exact_p(self) -> float | None:
        """p from the exact distribution of Σ ±mᵢ when the differences lie on a small grid (pass/fail,
        means of a few runs): the sum of the negated magnitudes has, per distinct magnitude v met c times,
        v times a Bin(c, ½) count; their convolution is the whole null. None when the grid is too fine."""
        import numpy

        if self.total > _EXACT_GRID_UP_TO:
            return None
        counts: dict[int, int] = {}
        for m in self.integers:
            counts[m] = counts.get(m, 0) + 1
        log_factorial = log_factorials(len(self.integers))
        null = numpy.ones(1)
        for magnitude, times in counts.items():
            if magnitude == 0:
                continue
            j = numpy.arange(times + 1)
            if len(null) * (magnitude * times + 1) > _EXACT_GRID_WORK:
                return None
            # the convolution with the kernel that is Bin(times, ½) at multiples of the magnitude, zero between:
            # a weighted sum of times + 1 shifted copies (numpy.convolve would also multiply every zero)
            grown = numpy.zeros(len(null) + magnitude * times)
            for shift, weight in zip((magnitude * j).tolist(), binomial_pmf(times, j, 0.5, log_factorial).tolist()):
                grown[shift : shift + len(null)] += weight * null
            null = grown
        negated = numpy.arange(len(null))
        reach = numpy.abs(self.total - 2 * negated) >= self.observed  # integers: ties are ties
        return min(1.0, float(null[reach].sum()))

    def count_at_least(self, patterns: Iterator[Any]) -> int:
        """How many of the patterns (0/1 matrices, a row a pattern, 1 negating mᵢ) reach the observed sum."""
        import numpy

        count = 0
        for bits in patterns:
            # Σ ±mᵢ = Σmᵢ − 2·Σ(negated mᵢ)
            sums = numpy.abs(self.float_total - 2 * (bits @ self.floats))
            count += int(numpy.count_nonzero(sums >= self.float_observed + self.band))
            unsure = numpy.flatnonzero(numpy.abs(sums - self.float_observed) < self.band)
            for row in unsure.tolist():
                negated = sum(self.integers[i] for i in numpy.flatnonzero(bits[row]).tolist())
                count += abs(self.total - 2 * negated) >= self.observed
        return count


#: the exact null is worked out when the differences' magnitudes sum to at most this many grid steps, and
#: the convolutions cost at most this many multiplications (10,000 pass/fail pairs: 10⁴ steps, no convolution)
_EXACT_GRID_UP_TO = 200_000
_EXACT_GRID_WORK = 4 * 10**8

#: sign patterns held at once (a pattern × n floats; 2 MiB of them at n = 256)
_PATTERNS_AT_ONCE = 1 << 18


def all_sign_patterns(n: int) -> Any:
    """Every one of the 2ⁿ sign patterns, as rows of 0/1 floats (bit i of the row's number negates mᵢ)."""
    import numpy

    numbers = numpy.arange(1 << n, dtype=numpy.int64)
    return ((numbers[:, None] >> numpy.arange(n)) & 1).astype(float)


def log_factorials(n: int) -> Any:
    """log k! for k = 0 … n (numpy), for binomial probabilities without overflow."""
    import numpy

    return numpy.concatenate(([0.0], numpy.cumsum(numpy.log(numpy.arange(1, n + 1)))))


def binomial_pmf(n: int, k: Any, p: float, log_factorial: Any) -> Any:
    """P(K = k) for K ~ Bin(n, p), at the numpy array ``k``; ``log_factorial`` from ``log_factorials`` (≥ n)."""
    import numpy

    if p <= 0:
        return (k == 0).astype(float)
    if p >= 1:
        return (k == n).astype(float)
    logs = log_factorial[n] - log_factorial[k] - log_factorial[n - k] + k * math.log(p) + (n - k) * math.log1p(-p)
    return numpy.exp(logs)


def _drawn_patterns(rng: random.Random, n: int, resamples: int) -> Iterator[Any]:
    """``resamples`` patterns, each ``rng.getrandbits(n)`` (bit i negates mᵢ), in bounded chunks."""
    import numpy

    # getrandbits(n) takes ceil(n / 32) 32-bit words, least significant first, and keeps the top bits of the
    # last; getrandbits(32·k) returns the next k words whole, in the same order: so one call a chunk gives the
    # very patterns ``rows`` calls of getrandbits(n) give (and leaves the generator where they would)
    words = (n + 31) // 32
    spare = 32 * words - n
    rows_at_once = max(1, _PATTERNS_AT_ONCE // n)
    for start in range(0, resamples, rows_at_once):
        rows = min(rows_at_once, resamples - start)
        raw = rng.getrandbits(32 * words * rows).to_bytes(4 * words * rows, "little")
        stream = numpy.frombuffer(raw, dtype="<u4").reshape(rows, words).copy()
        stream[:, -1] >>= spare
        bits = numpy.unpackbits(stream.view(numpy.uint8), axis=1, bitorder="little")
        yield bits[:, :n].astype(float)
