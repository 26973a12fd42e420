"""The smallest drop a verdict could have detected: the drop at which the paired sign-flip test the verdict
runs (``stats.sign_flip_p``, two-sided, p < alpha) finds it with probability ``power`` (80 %).

Worked out for the test actually run, on the differences observed, not by a normal approximation (which
promised 80 % where the test had 64–72 % on pass/fail suites):

- pass/fail differences (every difference −c, 0 or +c) keep their discreteness. The sign-flip test is then
  the exact sign test on the m pairs that differ; under a drop δ the release newly loses δ/c of the cases
  over the churn seen (each pair worse with probability q/2 + δ/c, better with q/2, q the share of pairs
  that differ; once every pair differs, better with (1 − δ/c)/2), and the power is summed exactly over m
  and the number of losses.
- any other differences: they are centred, and samples of n drawn from them with replacement, shifted by
  −δ, are put through the sign-flip test (every sign pattern when 2ⁿ is at most the test's resamples,
  else a fixed draw of them); the power is the share of samples it rejects. The same draws serve every δ,
  so power grows with δ and bisection finds the 80 % point. Above ``SIMULATED_UP_TO`` pairs the
  sign-flip test is the paired t test (its permutation distribution is normal there), and the
  noncentral t gives the drop.

Pure and deterministic (fixed seeds): the same differences always print the same drop.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pytest_websearchbench.reporting import stats

POWER = 0.8
#: the largest n whose power is simulated (above it the t test's, which the sign-flip test then matches)
SIMULATED_UP_TO = 200
#: the largest n whose pass/fail power is summed exactly (above it the t test's, as for other differences)
LATTICE_UP_TO = 2000
#: simulated samples per drop tried, and sign patterns per sample (the sign-flip test's own, fewer)
SAMPLES = 2000
FLIPS = 2000
#: the sign-flip test enumerates every pattern up to this many (2¹³ ≤ its 10,000 resamples)
EXACT_UP_TO = 13
#: bisection over a simulated power stops when the bracket is this narrow, relative to the drop (the
#: simulation's own error is larger)
PRECISION = 4e-3


def detectable_drop(
    differences: Sequence[Fraction | float],
    alpha: float,
    power: float = POWER,
    seed: int = 0,
    *,
    step: Fraction | float | None = None,
) -> float | None:
    """The smallest mean paired drop the sign-flip test at ``alpha`` detects with probability ``power``,
    on data like ``differences`` (new − old per pair). ``step``: the values are pass/fail, a pair moving by
    ``step`` at a time (the caller knows the values; the differences alone may not tell: none differ when
    nothing changed), so differences on {−step, 0, +step} are pass/fail; differences on {−c, 0, +c} that are
    not all equal are read as pass/fail too. 0.0 when there is
    no spread and the test can reject (a shift moves every pair); None with fewer than two pairs, or when no
    drop can be found at this n (n ≤ 5 pairs can never reach p < 0.05)."""
    if len(differences) < 2:
        return None
    exact = sorted(Fraction(d) for d in differences)  # the draws below then depend on the multiset only
    magnitudes = {abs(d) for d in exact} - {Fraction(0)}
    given = None if step is None else Fraction(step)
    lattice = (given is not None and magnitudes <= {given}) or (len(magnitudes) == 1 and len(set(exact)) > 1)
    if lattice and len(exact) <= LATTICE_UP_TO:
        unit = next(iter(magnitudes), given or Fraction(1))
        return _lattice_drop(exact, unit, alpha, power)
    if len(exact) > SIMULATED_UP_TO or lattice:
        return _t_drop([float(d) for d in exact], alpha, power)
    return _simulated_drop(exact, alpha, power, seed)


# ---------------------------------------------------------------------------------------------- pass/fail


def _lattice_drop(differences: list[Fraction], step: Fraction, alpha: float, power: float) -> float | None:
    """Differences in {−c, 0, +c}: the exact sign test's power, bisected over the drop in units of c."""
    n = len(differences)
    churn = sum(d != 0 for d in differences) / n
    log_factorial = stats.log_factorials(n)
    critical: dict[int, int] = {}

    def power_at(drop: float) -> float:
        better = min(churn, 1 - drop) / 2  # once every pair differs, a bigger drop turns gains into losses
        return _sign_test_power(n, better + drop, better, alpha, critical, log_factorial)

    if power_at(1.0) < power:
        return None  # even every pair worse is not found (n ≤ 5 at alpha 0.05)
    return float(step) * _bisect(power_at, 0.0, 1.0, power)


def _sign_test_critical(m: int, alpha: float, log_factorial: Any) -> int:
    """For m differing pairs: the least |2K − m| (K of them negative) whose two-sided exact p,
    P(|2K′ − m| ≥ |2K − m|) = 2·P(K′ ≤ min(K, m − K)) under K′ ~ Bin(m, ½), is below alpha (m + 1 when none is)."""
    import numpy

    k = numpy.arange((m + 1) // 2)  # the lower side, K < m/2 (K = m/2 has p = 1)
    pmf = stats.binomial_pmf(m, k, 0.5, log_factorial)
    below = numpy.flatnonzero(2 * numpy.cumsum(pmf) < alpha)
    return m - 2 * int(below[-1]) if len(below) else m + 1


def _sign_test_power(
    n: int, worse: float, better: float, alpha: float, critical: dict[int, int], log_factorial: Any
) -> float:
    """P(reject) when each pair is worse with probability ``worse``, better with ``better``: over m
    differing pairs ~ Bin(n, worse + better) and K worse among them ~ Bin(m, worse / (worse + better))."""
    import numpy

    differ = worse + better
    if differ <= 0:
        return 0.0
    share = min(1.0, worse / differ)
    m = numpy.arange(n + 1)
    p_m = stats.binomial_pmf(n, m, differ, log_factorial)
    total = 0.0
    for count in numpy.flatnonzero(p_m > 1e-15).tolist():
        if count not in critical:
            critical[count] = _sign_test_critical(count, alpha, log_factorial)
        threshold = critical[count]
        if threshold > count:
            continue
        k = numpy.arange(count + 1)
        pmf = stats.binomial_pmf(count, k, share, log_factorial)
        total += float(p_m[count]) * float(pmf[numpy.abs(2 * k - count) >= threshold].sum())
    return total


# ------------------------------------------------------------------------------------------------ simulated


def _simulated_drop(differences: list[Fraction], alpha: float, power: float, seed: int) -> float | None:
    """Any other differences: the sign-flip test on samples drawn from the centred differences, shifted."""
    import numpy

    n = len(differences)
    centre = sum(differences, Fraction(0)) / n
    centred = numpy.array([float(d - centre) for d in differences])
    scale = float(numpy.abs(centred).max())
    bits = numpy.random.Generator(numpy.random.PCG64(seed))
    samples = centred[bits.integers(0, n, size=(SAMPLES, n))]
    if n <= EXACT_UP_TO:
        patterns = stats.all_sign_patterns(n)
    else:
        patterns = bits.integers(0, 2, size=(FLIPS, n)).astype(float)
    exact = n <= EXACT_UP_TO

    def power_at(drop: float) -> float:
        shifted = samples - drop
        observed = numpy.abs(shifted.sum(axis=1))
        magnitudes = numpy.abs(shifted)
        totals = magnitudes.sum(axis=1)
        flipped = numpy.abs(totals[:, None] - 2 * (magnitudes @ patterns.T))
        # ties within the floats' rounding count as ties (the test itself settles them in integers)
        reach = (flipped >= observed[:, None] - 1e-9 * totals[:, None]).sum(axis=1)
        p = reach / len(patterns) if exact else (reach + 1) / (len(patterns) + 1)
        return float(numpy.mean(p < alpha))

    if scale == 0:  # no spread: every shifted sample is n equal drops
        return 0.0 if power_at(1.0) >= power else None
    high = scale
    while power_at(high) < power:
        high *= 2
        if high > scale * 2**20:
            return None  # even a drop far beyond the data's range is not found (too few pairs)
    return _bisect(power_at, 0.0, high, power)


# ------------------------------------------------------------------------------------------------ large n


def _t_drop(differences: list[float], alpha: float, power: float) -> float:
    """The drop at which the two-sided paired t test has the given power: its noncentrality λ solves
    P(|T| > t₁₋α/₂) = power for T noncentral t with n − 1 degrees of freedom, and the drop is λ·s/√n."""
    n = len(differences)
    spread = statistics.stdev(differences)
    if spread == 0:
        return 0.0
    df = n - 1
    critical = _bisect(lambda t: 1 - _t_two_sided_tail(t, df), 0.0, 50.0, 1 - alpha, precision=1e-9)
    noncentrality = _bisect(lambda lam: _noncentral_power(critical, df, lam), 0.0, 50.0, power, precision=1e-9)
    return noncentrality * spread / math.sqrt(n)


@functools.cache
def _chi_grid(df: int) -> tuple[Any, Any]:
    """Points and weights to integrate over V ~ χ²(df)/df (Gauss–Legendre on its ±12 SD range); kept per df:
    the two bisections of ``_t_drop`` ask for the same grid some 70 times, and each is a 400-point
    eigenvalue problem (read only: the callers make new arrays from it)."""
    import numpy

    nodes, weights = numpy.polynomial.legendre.leggauss(400)
    sd = math.sqrt(2 / df)
    low, high = max(1e-12, 1 - 12 * sd), 1 + 12 * sd
    v = (nodes + 1) / 2 * (high - low) + low
    log_density = (df / 2) * math.log(df / 2) - math.lgamma(df / 2) + (df / 2 - 1) * numpy.log(v) - df * v / 2
    return v, weights * (high - low) / 2 * numpy.exp(log_density)


def _normal_cdf(x: Any) -> Any:
    import numpy

    erf = numpy.vectorize(math.erf)
    return 0.5 * (1 + erf(x / math.sqrt(2)))


def _noncentral_power(critical: float, df: int, noncentrality: float) -> float:
    """P(|T| > critical), T = (Z + λ)/√V: ∫ [Φ(−c√v − λ) + 1 − Φ(c√v − λ)] dF(v)."""
    v, weights = _chi_grid(df)
    root = v**0.5
    inside = _normal_cdf(-critical * root - noncentrality) + 1 - _normal_cdf(critical * root - noncentrality)
    return float((weights * inside).sum())


def _t_two_sided_tail(t: float, df: int) -> float:
    return _noncentral_power(t, df, 0.0)


def _bisect(f: Any, low: float, high: float, target: float, precision: float = PRECISION) -> float:
    """The x in [low, high] where the increasing f reaches target (f(low) < target ≤ f(high)), to within
    ``precision`` of x."""
    while high - low > precision * max(high, 1e-12):
        middle = (low + high) / 2
        if f(middle) >= target:
            high = middle
        else:
            low = middle
    return high
