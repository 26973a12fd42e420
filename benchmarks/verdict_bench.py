"""The verdict against a baseline: how honest its "could detect −X at 80 % power" is, and what exact ties cost.

    python benchmarks/verdict_bench.py power [--runs 1000]
        per suite size n and kind of metric: the drop the verdict prints now, the drop the normal
        approximation printed before, and the real sign-flip test's simulated power at each
    python benchmarks/verdict_bench.py verdict --n 10000 --kind pass-fail|repeat3|continuous [--ties float]
        one suite verdict's statistics at n items (the sign-flip p and the detectable drop), as a whole process;
        --ties float sums the flips in floats as before (the cost exact ties are measured against)

Data are seeded and synthetic: continuous differences ~ N(0, 0.2); pass/fail cases passing with probability 0.7
in both releases; repeat3 the same cases run three times each (a case is the mean of its runs).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from fractions import Fraction

import numpy

from pytest_websearchbench.reporting import power, stats

SIZES = (8, 16, 28, 32, 55)
ALPHA = 0.05


def _sample(kind: str, n: int, seed: int) -> tuple[list[Fraction], list[Fraction]]:
    """(new, old) case values."""
    rng = random.Random(seed)
    if kind == "continuous":
        old = [Fraction(rng.random()) for _ in range(n)]
        return [o + Fraction(rng.gauss(0, 0.2)) for o in old], old
    runs = 3 if kind == "repeat3" else 1

    def case() -> Fraction:
        return stats.exact_mean([float(rng.random() < 0.7) for _ in range(runs)])

    return [case() for _ in range(n)], [case() for _ in range(n)]


def _rejects(differences: numpy.ndarray) -> bool:
    return stats.sign_flip_p([Fraction(float(d)) for d in differences]) < ALPHA


def _continuous_power(observed: list[float], drop: float, runs: int, seed: int) -> float:
    rng = numpy.random.default_rng(seed)
    centred = numpy.array(observed) - numpy.mean(observed)
    n = len(observed)
    return sum(_rejects(centred[rng.integers(0, n, n)] - drop) for _ in range(runs)) / runs


def _pass_fail_power(observed: list[float], drop: float, runs: int, seed: int) -> float:
    rng = numpy.random.default_rng(seed)
    n = len(observed)
    churn = sum(d != 0 for d in observed) / n
    better = min(churn, 1 - drop) / 2
    found = 0
    for _ in range(runs):
        u = rng.random(n)
        found += _rejects(numpy.where(u < better + drop, -1.0, numpy.where(u < 2 * better + drop, 1.0, 0.0)))
    return found / runs


def power_table(runs: int) -> None:
    print("| metric | n | drop printed now | its simulated power | normal approx. before | its simulated power |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("continuous", "pass/fail"):
        for n in SIZES:
            rng = random.Random(n)
            if kind == "continuous":
                observed = [rng.gauss(0.0, 0.2) for _ in range(n)]
                simulate = _continuous_power
            else:
                observed = [float((rng.random() < 0.7) - (rng.random() < 0.7)) for _ in range(n)]
                simulate = _pass_fail_power
            now = power.detectable_drop(observed, ALPHA)
            before = (1.959964 + 0.841621) * statistics.stdev(observed) / math.sqrt(n)
            assert now is not None
            print(
                f"| {kind} | {n} | {now:.3f} | {simulate(observed, now, runs, 7):.3f} | {before:.3f} | "
                f"{simulate(observed, min(before, 1.0), runs, 7):.3f} |"
            )


def _float_p(new: list[Fraction], old: list[Fraction], resamples: int = 10000) -> float:
    """The sign-flip test as it was: float differences, each flip's sum in floats (the tie-blind reference)."""
    differences = [float(a) - float(b) for a, b in zip(new, old)]
    observed = abs(math.fsum(differences))
    magnitudes = sorted(abs(d) for d in differences)
    rng = random.Random(0)
    count = 0
    for _ in range(resamples):
        signs = rng.getrandbits(len(magnitudes))
        count += abs(math.fsum(-m if signs >> i & 1 else m for i, m in enumerate(magnitudes))) >= observed
    return (count + 1) / (resamples + 1)


def verdict(n: int, kind: str, ties: str) -> None:
    new, old = _sample(kind, n, seed=n)
    if ties == "float":
        print(f"p={_float_p(new, old):.4f}")
        return
    differences = stats.exact_differences(new, old)
    step = Fraction(1, 3) if kind == "repeat3" else Fraction(1) if kind == "pass-fail" else None
    p = stats.sign_flip_p(differences)
    drop = power.detectable_drop(differences, ALPHA, step=step)
    print(f"p={p:.4f} detectable={drop}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    table = commands.add_parser("power")
    table.add_argument("--runs", type=int, default=1000)
    one = commands.add_parser("verdict")
    one.add_argument("--n", type=int, default=10000)
    one.add_argument("--kind", choices=("pass-fail", "repeat3", "continuous"), default="pass-fail")
    one.add_argument("--ties", choices=("exact", "float"), default="exact")
    args = parser.parse_args(argv)
    if args.command == "power":
        power_table(args.runs)
    else:
        verdict(args.n, args.kind, args.ties)
    return 0


if __name__ == "__main__":
    sys.exit(main())
