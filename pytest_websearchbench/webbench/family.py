"""WebBench: correlated SaaS work through a browser, graded by WebScore (DESIGN § 2.3).

A suite is a folder of Harbor task packages listed in ``dataset.toml`` (digests checked on load).
Each item is (task × agent): ``run`` starts a fresh world on its own port and lets the agent
(``--wsb-agent``: the oracle, the alternative-path oracle or a control) work it through the
browser; ``score`` is the verifier's verdict on the server-side evidence. The item passes when
every gate holds and every state-row and answer-field leaf is right (the verdict's ``pass``).
"""

from __future__ import annotations

from collections import Counter
import pytest

from pytest_websearchbench.core.family import (
    BenchmarkFamily, Case, MetricColumn, RawResults, RunContext, Score, Suite)
from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.options import FamilyOptions, OptionReader, Settings
from pytest_websearchbench.core.suites import SuiteManifest, digest_files


class WebBenchFamily(BenchmarkFamily):
    name = "webbench"
    records_traffic = False  # the world server is local and fresh per item: nothing worth a cassette

    def __init__(self, agents: tuple[str, ...] = ("oracle",)) -> None:
        self.agents = agents

    @classmethod
    def add_options(cls, options: FamilyOptions) -> None:
        options.add_value("--wsb-agent", "wsb_agent", "WebBench: who works each task: oracle, alt-oracle or a "
                          "control, comma-separated (default: oracle)", "oracle", metavar="NAME[,NAME...]")

    def configure(self, options: OptionReader, settings: Settings) -> "WebBenchFamily":
        from pytest_websearchbench.webbench.agents.catalog import AGENTS

        agents = options.names("wsb_agent", "--wsb-agent", "agent")
        unknown = [a for a in agents if a not in AGENTS]
        if unknown:
            raise ConfigurationError(f"--wsb-agent: unknown agent {unknown[0]!r}; agents: {', '.join(AGENTS)}")
        return WebBenchFamily(agents)

    def variants(self, settings: Settings) -> tuple[str, ...]:
        return self.agents

    def load(self, manifest: SuiteManifest) -> Suite:
        from pytest_websearchbench.webbench.tasks.harbor import load_dataset

        dataset = manifest.file("items")
        if dataset is None or dataset.suffix != ".toml":
            raise SuiteError(manifest.path, "a webbench suite's items is its dataset.toml", field="items")
        tasks = load_dataset(dataset)
        cases = tuple(Case(t.name, t, markers=("webbench", f"webbench_{t.template.replace('-', '_')}",
                                               "webbench_feasible" if t.feasible else "webbench_infeasible"),
                           keywords=(t.template, t.variant)) for t in tasks)
        return Suite(manifest, cases, digest_files([manifest.path, dataset]))

    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        from pytest_websearchbench.webbench.agents.catalog import NotApplicable
        from pytest_websearchbench.webbench.agents.episode import run_episode

        try:
            episode = run_episode(case.data, ctx.variant)
        except NotApplicable as exc:
            pytest.skip(str(exc))
        return RawResults(extra=episode.to_dict())

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        from pytest_websearchbench.webbench.grading.verifier import verify

        verdict = verify(case.data.contract, raw.extra["evidence"])
        metrics = {"webscore": verdict.webscore, "pass": float(verdict.passed),
                   "strict_pass": float(verdict.strict_pass), "steps": float(raw.extra["steps"])}
        message = "" if verdict.passed else (
            f"{case.id} [{raw.extra['agent']}, {raw.extra['steps']}/{raw.extra['budget']} steps]: " + verdict.explain())
        return Score(verdict.passed, metrics, message, [{"verdict": verdict.to_dict(), "agent": raw.extra["agent"],
                                                         "failure_mode": verdict.failure_mode}])

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        # an agent that crashed scores 0 on its task: every declared task is in the population
        return [MetricColumn("webscore", "WebScore", 0.0), MetricColumn("pass", "pass", 0.0),
                MetricColumn("strict_pass", "strict_pass", 0.0), MetricColumn("steps", "steps")]

    def summary_rows(self, scores: list[list[Score]]) -> list[tuple[str, list[str]]]:
        """Failure modes per agent, most common first."""
        cells = []
        for variant_scores in scores:
            modes = Counter(r["failure_mode"] for s in variant_scores for r in s.results if "failure_mode" in r)
            cells.append(" · ".join(f"{mode} {n}" for mode, n in sorted(modes.items(), key=lambda m: (-m[1], m[0])))
                         or "-")
        return [("failure modes", cells)]

    def drilldown(self, item: dict) -> "Drilldown":
        """The report's view of a task: WebScore, every gate and leaf with its value, weight and detail, the
        failure mode, and the steps the agent took (its browser actions)."""
        from pytest_websearchbench.core.family import Drilldown

        extra = (item.get("raw") or {}).get("extra") or {}
        row = next((r for r in item.get("results") or [] if "verdict" in r), {})
        return Drilldown("drilldown.html.j2", {
            "verdict": row.get("verdict"), "failure_mode": row.get("failure_mode"),
            "agent": extra.get("agent") or row.get("agent"), "steps": extra.get("steps"),
            "budget": extra.get("budget"), "stopped": extra.get("stopped"), "log": extra.get("log") or [],
            "seconds": extra.get("seconds")})
