"""``python -m pytest_websearchbench.sampledata [--out suites] [--seed N] [--check]``."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from pytest_websearchbench.sampledata import DEFAULT_SEED, generate, validate


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m pytest_websearchbench.sampledata", description="Generate the clean-room synthetic sample data."
    )
    ap.add_argument("--out", default="suites", help="output directory (default: suites)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default: {DEFAULT_SEED})")
    ap.add_argument(
        "--check",
        action="store_true",
        help="regenerate into a temporary directory and exit 1 if files under --out differ",
    )
    args = ap.parse_args(argv)
    out = Path(args.out)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = generate(Path(tmp), args.seed)
            differ = []
            for path in fresh:
                rel = path.relative_to(tmp)
                target = out / rel
                if not target.is_file() or target.read_bytes() != path.read_bytes():
                    differ.append(rel.as_posix())
        if differ:
            print(f"sample data under {out} is out of date (seed {args.seed}):")
            for name in differ:
                print(f"  {name}")
            print("regenerate with: python -m pytest_websearchbench.sampledata --out " + str(out))
            return 1
        print(f"sample data under {out} is up to date (seed {args.seed})")
        return 0
    t0 = time.perf_counter()
    paths = generate(out, args.seed)
    took = time.perf_counter() - t0
    problems = validate(out)
    for p in paths:
        print(f"{p.stat().st_size:>10,}  {p}")
    print(f"generated {len(paths)} files in {took:.2f} s (seed {args.seed})")
    if problems:
        print(f"{len(problems)} validation problems:")
        for msg in problems[:50]:
            print("  " + msg)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
