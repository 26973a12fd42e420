"""One episode of any agent: a route (oracle, controls), the model agent (inside the item's cassette),
a program (``cmd:``) or an agent a plugin registered; all through the same world, budget and evidence."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_websearchbench.cassettes.capture import capture_active
from pytest_websearchbench.cassettes.recorder import cassette_path, replay_cassette
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.family import OwnCassette
from pytest_websearchbench.core.secrets import scrub
from pytest_websearchbench.providers.model_client import TRANSPORTS, ModelClient, ModelEndpoint, ResponsesApi
from pytest_websearchbench.webbench.agents.catalog import AGENTS as ROUTE_AGENTS
from pytest_websearchbench.webbench.agents.episode import Episode, run_episode
from pytest_websearchbench.webbench.agents.model_agent import run_model_agent
from pytest_websearchbench.webbench.agents.program_agent import run_program
from pytest_websearchbench.webbench.agents.registry import (
    MODEL,
    PROGRAM_PREFIX,
    AgentRegistry,
    EpisodeContext,
    program_command,
)
from pytest_websearchbench.webbench.agents.sandbox import AUTO, NET_WORLD, confinement
from pytest_websearchbench.webbench.agents.session import Session

DEFAULT_TIME_LIMIT = 600.0


class MissingEpisodeCassette(WebSearchBenchError):
    kind = "missing_cassette"


@dataclass(frozen=True)
class AgentSetup:
    """The run's choices for the agents (from the family's options)."""

    registry: AgentRegistry = field(default_factory=AgentRegistry)
    browser: str = "text"
    screenshots: bool = False  # --wsb-screenshots: a picture of each step (chromium only)
    time_limit: float = DEFAULT_TIME_LIMIT
    model: str = ""
    model_api: str = ResponsesApi.name
    temperature: float | None = 0.0
    endpoint: ModelEndpoint = field(default_factory=ModelEndpoint)
    calls_out: bool = True  # the run calls the model (Settings.calls_out): its real URL, aliased in cassettes
    cassette_dir: Path = Path("cassettes")
    cassette_args: str = ""  # Settings.cassette_args: what a record command must keep
    base: Path = Path(".")  # where a cmd: agent's relative path starts
    sandbox: str = AUTO  # --wsb-sandbox: how program agents are confined (agents.sandbox)
    network: str = NET_WORLD  # --wsb-agent-net: the network a sandboxed program agent reaches
    agent_env: tuple[str, ...] = ()  # --wsb-agent-env: key variables a program agent is given all the same

    def secrets(self) -> list[str]:
        """The keys the agents hold: the model's, and those a program agent is given (--wsb-agent-env)."""
        given = (os.environ.get(name, "") for name in self.agent_env)
        return [key for key in (self.endpoint.api_key, *given) if key]

    def model_folder(self) -> str:
        """The model agent's cassettes: one folder per model and API, so switching never makes one stale."""
        slug = re.sub(r"[^A-Za-z0-9._]+", "-", self.model).strip("-").lower() or "model"
        return f"{MODEL}-{slug}" + ("" if self.model_api == ResponsesApi.name else f"-{self.model_api}")

    def produced_by(self) -> dict[str, str]:
        return {
            "webbench_agent": MODEL,
            "model": self.model,
            "model_api": self.model_api,
            "temperature": "none" if self.temperature is None else f"{self.temperature:g}",
        }


def run_agent(task: Any, agent: str, setup: AgentSetup, suite: str, case_id: str) -> Episode:
    label = f"{suite}/{case_id}[{agent}]"
    if agent in ROUTE_AGENTS:
        return run_episode(task, agent, browser=setup.browser, screenshots=setup.screenshots)
    if agent == MODEL:
        return _model_episode(task, setup, suite, case_id, label)
    if agent.startswith(PROGRAM_PREFIX):
        command = program_command(agent, setup.base)

        def program(session: Session, base_url: str, world: Path) -> dict[str, Any]:
            # out of its sight: the task's suite (contract, routes), the world's files, recorded episodes
            sandbox, why = confinement(
                setup.sandbox, command, (task.path.parent, world, setup.cassette_dir), setup.network
            )
            with tempfile.TemporaryDirectory(prefix="wsb-agent-") as workdir:
                done = run_program(
                    session,
                    command,
                    task.instruction,
                    base_url,
                    Path(workdir),
                    setup.time_limit,
                    sandbox,
                    why,
                    setup.agent_env,
                )
            record = done.to_dict()  # the program's output joins the results file: no key in it
            for stream in ("stdout_tail", "stderr_tail"):
                record[stream] = scrub(record[stream], setup.secrets())
            return record

        return run_episode(task, agent, browser=setup.browser, screenshots=setup.screenshots, work=program)
    factory = setup.registry.entries[agent].factory

    def plugin(session: Session, base_url: str, world: Path) -> dict[str, Any] | None:
        workdir = Path(tempfile.mkdtemp(prefix="wsb-agent-"))
        try:
            record: dict[str, Any] | None = factory().work(
                EpisodeContext(task, session, base_url, task.instruction, workdir, label)
            )
            return record
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    return run_episode(task, agent, browser=setup.browser, screenshots=setup.screenshots, work=plugin)


def model_cassette(setup: AgentSetup, suite: str, case_id: str) -> OwnCassette:
    """The model agent's cassette of one episode, and how its traffic is written there: one place for the
    episode (``_model_episode``) and for the run that records it (``WebBenchFamily.live_cassette``)."""
    return OwnCassette(
        cassette_path(setup.cassette_dir, suite, setup.model_folder(), case_id),
        aliases=setup.endpoint.aliases(setup.calls_out),
        secrets=[setup.endpoint.api_key] if setup.endpoint.api_key else [],
        produced_by=setup.produced_by(),
    )


def _model_episode(task: Any, setup: AgentSetup, suite: str, case_id: str, label: str) -> Episode:
    own = model_cassette(setup, suite, case_id)
    path = own.path
    # the run records the episode while a capture is active: its live phase (run/live/), or the test of a
    # gateway on another machine, which no live phase serves (run/runner.py); else the episode replays
    recording = capture_active()
    if not recording and not path.is_file():
        raise MissingEpisodeCassette(
            f"no cassette at {path} and --wsb-record-mode=none forbids recording; record it with: pytest "
            f"--suite {suite} --wsb-agent model --wsb-model {setup.model} --wsb-model-api {setup.model_api}"
            f"{setup.cassette_args} --wsb-record-mode=once -k '{case_id}'"
        )
    api = TRANSPORTS[setup.model_api](setup.model, setup.temperature)
    client = ModelClient(setup.endpoint.url_for(setup.calls_out), setup.endpoint.api_key)
    details: dict[str, Any] = {}

    def model(session: Session, base_url: str, world: Path) -> dict[str, Any]:
        run = run_model_agent(session, task.instruction, base_url, client, api)
        details.update(
            turns=run.turns,
            input_tokens=run.input_tokens,
            output_tokens=run.output_tokens,
            final_text=run.final_text[:2000],
            temperature=run.temperature,
            notes=run.notes,
            model=setup.model,
            model_api=setup.model_api,
            transcript=run.transcript,
        )
        return details

    try:
        if recording:  # this thread's model calls are captured into this same cassette
            episode = run_episode(task, MODEL, browser=setup.browser, screenshots=setup.screenshots, work=model)
            status = "recorded"
        else:
            with replay_cassette(
                path, aliases=own.aliases, secrets=own.secrets, produced_by=own.produced_by
            ) as cassette:
                episode = run_episode(task, MODEL, browser=setup.browser, screenshots=setup.screenshots, work=model)
            status = cassette.status(len(client.calls))
    finally:
        client.close()
    if client.served:  # the model its answers named (webbench/family.py takes it off into the item's record)
        episode.details["served_models"] = client.served_models()
    episode.details["cassette"] = status
    episode.details["cassette_path"] = str(path)
    return episode
