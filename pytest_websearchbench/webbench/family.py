"""WebBench: correlated SaaS work through a browser, graded by WebScore (DESIGN § 2.3).

A suite is a folder of Harbor task packages listed in ``dataset.toml`` (digests checked on load).
Each item is (task × agent): ``run`` starts a fresh world on its own port and lets the agent
(``--wsb-agent``: the oracle, the alternative-path oracle, a control, the model agent, a program
``cmd:…`` or an agent a plugin registered) work it through the browser (``--wsb-browser``: the text
browser or headless Chromium); ``score`` is the verifier's verdict on the server-side evidence. The
item passes when every gate holds and every state-row and answer-field leaf is right (the verdict's
``pass``). ``--wsb-repeat N`` makes N items (episodes) of every task; the summary's calibration rows
give per template the pass rate with a Wilson 80 % interval, mean WebScore, strict pass, mean steps
and the majority failure mode.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError, WebSearchBenchError
from pytest_websearchbench.core.family import (
    BenchmarkFamily,
    Case,
    CaseSample,
    Drilldown,
    MetricColumn,
    OwnCassette,
    RawResults,
    RunContext,
    Score,
    Suite,
)
from pytest_websearchbench.core.options import (
    AGENT_MODEL,
    AGENT_SERVED,
    RESPONSES_API,
    OptionValues,
    Settings,
)
from pytest_websearchbench.core.repeats import repeat_cases
from pytest_websearchbench.core.suites import SuiteManifest, digest_files

if TYPE_CHECKING:
    from pytest_websearchbench.webbench.agents.dispatch import AgentSetup


class AgentNeverActed(WebSearchBenchError):
    """A program agent that took no step: it never reached the world (an error of its item)."""

    kind = "agent_never_acted"


class AgentLimitReached(WebSearchBenchError):
    """A program agent stopped at a limit of what it may write (program_agent.OUTPUT_LIMIT, DISK_LIMIT)."""

    kind = "agent_limit"


class WebBenchFamily(BenchmarkFamily):
    name = "webbench"
    uses_k = False  # a task is graded on the world it leaves, not on a ranked list
    # the world server is local and fresh per item; the model agent keeps its own cassette (live_cassette)
    records_traffic = False

    def __init__(
        self,
        agents: tuple[str, ...] = ("oracle",),
        setup: AgentSetup | None = None,
        repeat: int = 1,
        named: dict[str, str] | None = None,
    ) -> None:
        from pytest_websearchbench.webbench.agents.dispatch import AgentSetup

        self.agents = agents  # the items' variant names
        self.named = named or {a: a for a in agents}  # variant name → the agent as given (cmd:…)
        self.setup = setup or AgentSetup()
        self.repeat = repeat

    def variant_listing(self, hook: Any) -> tuple[str, list[tuple[str, str]]]:
        from pytest_websearchbench.webbench.agents.registry import AgentRegistry

        registry = AgentRegistry()
        hook.pytest_websearchbench_add_agents(registry=registry)
        return "WebBench agents (--wsb-agent=NAME[,NAME…])", registry.listing()

    def configure(self, options: OptionValues, settings: Settings) -> WebBenchFamily:
        from pytest_websearchbench.providers.model_client import ModelEndpoint
        from pytest_websearchbench.webbench.agents.dispatch import AgentSetup
        from pytest_websearchbench.webbench.agents.registry import MODEL, PROGRAM_PREFIX, AgentRegistry, variant_name
        from pytest_websearchbench.webbench.agents.sandbox import REQUIRE, unavailable

        registry = AgentRegistry()
        options.hook.pytest_websearchbench_add_agents(registry=registry)  # the agents hook is the run's
        agents = options["wsb_agent"]
        named: dict[str, str] = {}  # the items' variant name → the agent as given
        for agent in agents:
            registry.check(agent)
            variant = variant_name(agent)
            if variant in named:
                raise ConfigurationError(
                    f"--wsb-agent: {named[variant]!r} and {agent!r} would both be named {variant!r}; rename one"
                )
            named[variant] = agent
        browser = options["wsb_browser"]
        if browser == "chromium":
            from pytest_websearchbench.webbench.browsing.chromium import chromium_missing

            problem = chromium_missing()
            if problem:
                raise ConfigurationError(f"--wsb-browser chromium: {problem}")
        if options["wsb_sandbox"] == REQUIRE and any(a.startswith(PROGRAM_PREFIX) for a in agents) and unavailable():
            raise ConfigurationError(f"--wsb-sandbox require: {unavailable()}")
        if options["wsb_screenshots"] and browser != "chromium":
            raise ConfigurationError(
                "--wsb-screenshots: the text browser draws no page; use it with --wsb-browser chromium"
            )
        # the benchmark's model agent sends temperature 0 unless told otherwise
        temperature = options["wsb_temperature"] if options["wsb_temperature"] is not None else 0.0
        endpoint = ModelEndpoint.from_environ(os.environ)
        if (
            MODEL in agents
            and settings.calls_out
            and not (endpoint.api_key or endpoint.base_url)
            and not any(settings.cassette_dir.glob(f"*/{MODEL}-*/*.yaml"))
        ):
            raise ConfigurationError(
                "--wsb-agent model calls the model: set OPENAI_API_KEY (and OPENAI_BASE_URL for a server other than "
                "OpenAI's), or replay recorded episodes with --wsb-record-mode=none"
            )
        setup = AgentSetup(
            registry=registry,
            browser=browser,
            screenshots=bool(options["wsb_screenshots"]),
            time_limit=options["wsb_agent_time_limit"],
            model=options["wsb_model"],
            model_api=options["wsb_model_api"],
            temperature=temperature,
            endpoint=endpoint,
            calls_out=settings.calls_out,
            cassette_dir=settings.cassette_dir,
            cassette_args=settings.cassette_args(),
            base=Path.cwd(),
            sandbox=options["wsb_sandbox"],
            network=options["wsb_agent_net"],
            agent_env=options["wsb_agent_env"] or (),
        )
        return WebBenchFamily(tuple(named), setup, options["wsb_repeat"], named)

    def variants(self, settings: Settings) -> tuple[str, ...]:
        return self.agents

    def repeats(self) -> int:
        return self.repeat

    def secrets(self) -> list[str]:
        return self.setup.secrets()

    def identity(self, suite: Suite | None = None) -> dict[str, str]:
        from pytest_websearchbench.webbench.agents.registry import MODEL

        if MODEL not in self.named.values():
            return {}
        setup = self.setup
        return {AGENT_MODEL: setup.model if setup.model_api == RESPONSES_API else f"{setup.model} ({setup.model_api})"}

    def live_cassette(self, suite: Suite, case: Case, variant: str, settings: Settings) -> OwnCassette | None:
        """The model agent's episodes go live (its model turns only: the world's pages go through
        httpx's own transport, which no capture taps), in either browser (Chromium's calls are made on the thread
        that owns its driver: browsing/chromium.py); the other agents call no model."""
        from pytest_websearchbench.webbench.agents.dispatch import model_cassette
        from pytest_websearchbench.webbench.agents.registry import MODEL

        if self.named.get(variant) != MODEL:
            return None
        return model_cassette(self.setup, suite.name, case.id)

    def works_at_once(self, suite: Suite, case: Case, variant: str, settings: Settings) -> bool:
        """A sandboxed program agent's episodes (its time is its own process's) and a route agent's in Chromium
        (the browser's) are worked many at once before the tests, each with its own world, sandbox and browser
        context. In the tests stay: a route agent in the text browser (Python's own time: xdist's workers
        share it out), an agent registered through the hook (its code was written for a test's thread), and an
        unsandboxed program (what it leaves behind is found as this process's adopted children, which tells
        one episode's from another's only when they run one at a time)."""
        from pytest_websearchbench.webbench.agents.catalog import AGENTS as ROUTE_AGENTS
        from pytest_websearchbench.webbench.agents.registry import PROGRAM_PREFIX
        from pytest_websearchbench.webbench.agents.sandbox import OFF, unavailable

        agent = self.named.get(variant, "")
        if agent.startswith(PROGRAM_PREFIX):
            return self.setup.sandbox != OFF and not unavailable()
        return agent in ROUTE_AGENTS and self.setup.browser == "chromium"

    def load(self, manifest: SuiteManifest) -> Suite:
        from pytest_websearchbench.webbench.harbor import load_dataset

        dataset = manifest.file("items")
        if dataset is None or dataset.suffix != ".toml":
            raise SuiteError(manifest.path, "a webbench suite's items is its dataset.toml", field="items")
        tasks = load_dataset(dataset)
        cases = repeat_cases(
            (
                Case(
                    t.name,
                    t,
                    markers=(
                        "webbench",
                        f"webbench_{t.template.replace('-', '_')}",
                        f"webbench_{t.tier}",
                        "webbench_feasible" if t.feasible else "webbench_infeasible",
                    ),
                    keywords=(t.template, t.outcome),
                )
                for t in tasks
            ),
            self.repeat,
        )
        return Suite(manifest, cases, digest_files([manifest.path, dataset]))

    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        from pytest_websearchbench.webbench.agents.catalog import NotApplicable
        from pytest_websearchbench.webbench.agents.dispatch import run_agent
        from pytest_websearchbench.webbench.grading.verifier import grade

        try:
            episode = run_agent(case.data, self.named[ctx.variant], self.setup, suite.name, case.id)
        except NotApplicable as exc:
            pytest.skip(str(exc))
        if ctx.recorded_live and "cassette" in episode.details:
            episode.details["cassette"] = "recorded"  # by this run, live: as a provider item's cassette says
        program = episode.details.get("exit_code", False) is not False  # a cmd: agent's run (program_agent)
        if program and episode.details.get("limit"):
            raise AgentLimitReached(
                f"the agent was stopped: it {episode.details['limit']} ({episode.details.get('sandbox')})"
            )
        if program and episode.steps == 0:
            # it never acted through the browser (a command it could not start, a file it could not read):
            # an error with the program's own words, not a 0 that reads like a bad answer
            said = (episode.details.get("stderr_tail") or episode.details.get("stdout_tail") or "").strip()
            last = said.splitlines()[-1][:300] if said else "nothing"
            raise AgentNeverActed(
                f"the agent never reached the world (0 steps): the program exited "
                f"{episode.details.get('exit_code')} ({episode.details.get('sandbox')}); its last "
                f"words: {last}"
            )
        # a verifier that fails on this world grades nothing (graded: false, no reward): an error of the item,
        # never a score; ``score`` then recomputes the same verdict, as a pure function of the evidence
        grade(case.data.contract, episode.evidence)
        served = episode.details.pop("served_models", None)  # the model agent's: a part of the run's identity
        return RawResults(extra=episode.to_dict(), served={AGENT_SERVED: served} if served else {})

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        from pytest_websearchbench.webbench.agents.failure import classify
        from pytest_websearchbench.webbench.grading.verifier import latest_decision, verify

        verdict = verify(case.data.contract, raw.extra["evidence"])
        episode_failure = classify(
            verdict=verdict.to_dict(),
            stopped=raw.extra["stopped"],
            log=raw.extra["log"],
            contract=case.data.contract,
            decision=latest_decision(raw.extra["evidence"]["changed"]),
        )
        # a pass is work done through the browser: an episode of 0 steps cannot pass (a program that wrote
        # behind the server's back, unsandboxed, is caught by containment; this holds whatever it did)
        acted = raw.extra["steps"] > 0
        passed = verdict.passed and acted
        metrics = {
            "webscore": verdict.webscore if acted else 0.0,
            "pass": float(passed),
            "strict_pass": float(verdict.strict_pass and acted),
            "steps": float(raw.extra["steps"]),
        }
        if passed:
            message = ""
        elif not acted:
            message = (
                f"{case.id} [{raw.extra['agent']}]: 0 steps: it never acted through the browser, so it cannot pass"
            )
        else:
            message = (
                f"{case.id} [{raw.extra['agent']}, {raw.extra['steps']}/{raw.extra['budget']} steps, stopped: "
                f"{raw.extra['stopped']}, episode failure: {episode_failure}]: " + verdict.explain()
            )
        return Score(
            passed,
            metrics,
            message,
            [
                {
                    "verdict": verdict.to_dict(),
                    "agent": raw.extra["agent"],
                    "failure_mode": verdict.failure_mode,
                    "episode_failure": episode_failure,
                    "template": case.data.template,
                    **_sandbox_of(raw.extra.get("details") or {}),
                }
            ],
        )

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        # an agent that crashed scores 0 on its task: every declared task is in the population
        return [
            MetricColumn("webscore", "WebScore", 0.0),
            MetricColumn("pass", "pass", 0.0),
            MetricColumn("strict_pass", "strict_pass", 0.0),
            MetricColumn("steps", "steps"),
        ]

    def summary_rows(self, scores: list[list[Score]]) -> list[tuple[str, list[str]]]:
        """Per agent: the verdicts' failure modes (first failing gate, else leaf kind), the episodes'
        (step cap, looping, …), and per template the calibration row."""
        from pytest_websearchbench.webbench.agents.calibration import Episode, table
        from pytest_websearchbench.webbench.agents.registry import MODEL

        def histogram(key: str, variant_scores: list[Score]) -> str:
            modes = Counter(r[key] for s in variant_scores for r in s.results[:1] if key in r)
            return " · ".join(f"{mode} {n}" for mode, n in sorted(modes.items(), key=lambda m: (-m[1], m[0]))) or "-"

        rows = [
            ("failure modes", [histogram("failure_mode", v) for v in scores]),
            ("episode failure modes", [histogram("episode_failure", v) for v in scores]),
        ]
        per_variant = []
        for variant_scores in scores:
            episodes = [
                Episode(
                    r["template"],
                    s.passed,
                    bool(s.metrics.get("strict_pass")),
                    s.metrics["webscore"],
                    int(s.metrics["steps"]),
                    r["episode_failure"],
                )
                for s in variant_scores
                for r in s.results[:1]
                if "template" in r
            ]
            per_variant.append({row.template: row.text() for row in table(episodes)})
        for template in sorted({t for cells in per_variant for t in cells}):
            rows.append((f"calibration {template}", [cells.get(template, "-") for cells in per_variant]))
        confinements = [Counter(r["sandbox"] for s in v for r in s.results[:1] if "sandbox" in r) for v in scores]
        if any(confinements):  # program agents ran: say how, and loudly when unsandboxed
            from pytest_websearchbench.webbench.agents.sandbox import read_confined

            said = [" · ".join(read_confined(how).counted(n) for how, n in sorted(c.items())) for c in confinements]
            rows.append(("sandbox", [text or "-" for text in said]))
        if self.setup.browser != "text":
            rows.append(("browser", [self.setup.browser for _ in scores]))
        if MODEL in self.agents:
            rows.append(("model agent", [self._model_profile() if agent == MODEL else "-" for agent in self.agents]))
        return rows

    def case_sample(self, suite: Suite, case: Case) -> CaseSample:
        """The task's brief, and what its contract expects: the Decision's fields (a free-text field by the
        facts it must state) and the rows its writes must leave, one line each."""
        contract = case.data.contract
        lines = []
        for answer in contract.get("answer_fields") or []:
            value = answer["value"] if "value" in answer else {"facts": answer.get("facts") or []}
            lines.append(f"{answer['name']}: {value if isinstance(value, str) else json.dumps(value)}")
        for row in contract.get("expected_rows") or []:
            values = ", ".join(
                f"{name} = {json.dumps(v.get('value'))}" for name, v in (row.get("values") or {}).items()
            )
            lines.append(f"{row.get('table')} {row.get('pk')}: {values}")
        return CaseSample(case.data.instruction, "\n".join(lines))

    def drilldown(self, item: dict[str, Any]) -> Drilldown:
        """The report's view of a task: WebScore, every gate and leaf with its value, weight and detail, the
        failure mode, every step the agent took (its browser action and arguments, the page, the status, the
        observation it received, a screenshot when taken), and a model agent's transcript (every model turn,
        each browser call with the observation sent back) or a program's exit and output."""
        from pytest_websearchbench.webbench.agents.sandbox import read_confined

        extra = (item.get("raw") or {}).get("extra") or {}
        row: dict[str, Any] = next((r for r in item.get("results") or [] if "verdict" in r), {})
        details = extra.get("details") or {}
        log = [_shown_step(step) for step in extra.get("log") or [] if isinstance(step, dict)]
        observed = {step.get("step"): step.get("observation") for step in log}
        transcript = [
            {
                **turn,
                "output": [
                    {**out, "result": observed[out["step"]]}
                    if out.get("type") == "function_call" and "result" not in out and out.get("step") in observed
                    else out
                    for out in turn.get("output") or []
                ],
            }
            for turn in details.get("transcript") or []
        ]
        return Drilldown(
            "drilldown.html.j2",
            {
                "verdict": row.get("verdict"),
                "failure_mode": row.get("failure_mode"),
                "episode_failure": row.get("episode_failure"),
                "agent": extra.get("agent") or row.get("agent"),
                "steps": extra.get("steps"),
                "budget": extra.get("budget"),
                "stopped": extra.get("stopped"),
                "log": log,
                "seconds": extra.get("seconds"),
                "browser": extra.get("browser"),
                "model": details if "transcript" in details else None,
                "transcript": transcript,
                "program": details if "command" in details else None,
                "confinement": read_confined(details["sandbox"]) if details.get("sandbox") else None,
            },
            # the verdict's mode (first failing gate, else leaf kind), else the episode's (step cap, looping…)
            failure_mode=next(
                (m for m in (row.get("failure_mode"), row.get("episode_failure")) if m and m != "none"), ""
            ),
        )

    def _model_profile(self) -> str:
        setup = self.setup
        text = f"{setup.model} via {setup.model_api}"
        if setup.temperature == 0:
            return text + ", temperature 0 (unless the model refuses one)"
        return text + f", temperature {setup.temperature:g}: not comparable (the benchmark's agent sends 0)"


def _sandbox_of(details: dict[str, Any]) -> dict[str, Any]:
    """How a program agent ran (``sandbox``: "bwrap" or "none: <why>"); nothing for the other agents."""
    return {"sandbox": details["sandbox"]} if "sandbox" in details else {}


_SCREENSHOT = re.compile(r"data:image/jpeg;base64,[A-Za-z0-9+/]+={0,2}")


def _shown_step(step: dict[str, Any]) -> dict[str, Any]:
    """A step as the drill-down shows it: its arguments (a session's step keeps them in its signature) and a
    screenshot only when it is the JPEG ``data:`` URL the browser makes (a results file is not trusted)."""
    shown = dict(step)
    if "arguments" not in shown and isinstance(step.get("signature"), str):
        try:
            action = json.loads(step["signature"])
        except ValueError:
            action = None
        if isinstance(action, dict):
            shown["arguments"] = {k: v for k, v in action.items() if k != "action"}
    if not (isinstance(step.get("screenshot"), str) and _SCREENSHOT.fullmatch(step["screenshot"])):
        shown.pop("screenshot", None)
    return shown
