"""Benchmark families, one module each, looked up by the manifest's ``family`` field."""

from __future__ import annotations

from pytest_websearchbench.core.family import (
    BenchmarkFamily, Case, MetricColumn, RawResults, RunContext, Score, Suite)
from pytest_websearchbench.codebench.family import CodeFamily
from pytest_websearchbench.lexbench.family import LexBenchFamily
from pytest_websearchbench.webbench.family import WebBenchFamily

FAMILIES: dict[str, BenchmarkFamily] = {
    family.name: family for family in (LexBenchFamily(), WebBenchFamily(), CodeFamily())}

__all__ = ["BenchmarkFamily", "Case", "FAMILIES", "MetricColumn", "RawResults", "RunContext", "Score", "Suite"]
