"""One episode: a fresh world on its own port, an agent working it, the server-side evidence back.

    world.db (regenerated, content digest checked) → WorldServer on 127.0.0.1:<free port>
    → agent route through the Browser (step budget) → server stopped → load_evidence
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.webbench.agents.catalog import AGENTS, FEASIBLE_ONLY, AgentError, NotApplicable, replay
from pytest_websearchbench.webbench.browsing.browser import Browser
from pytest_websearchbench.webbench.tasks.harbor import ROUTE_FILES, Task
from pytest_websearchbench.webbench.webapps.folders import new_world_folder
from pytest_websearchbench.webbench.webapps.server import WORLD_DB, WorldServer
from pytest_websearchbench.webbench.grading.verifier import load_evidence
from pytest_websearchbench.webbench.world.build import WorldSpec, content_digest, world_bytes


@dataclass
class Episode:
    task: str
    agent: str
    steps: int
    budget: int
    stopped: str
    base_url: str
    evidence: dict[str, Any]
    log: list[dict[str, Any]] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "agent": self.agent, "steps": self.steps, "budget": self.budget,
                "stopped": self.stopped, "base_url": self.base_url, "seconds": self.seconds, "log": self.log,
                "evidence": self.evidence}


@lru_cache(maxsize=32)
def checked_world(spec: WorldSpec, expected_digest: str) -> bytes:
    data = world_bytes(spec)
    actual = content_digest(data)
    if actual != expected_digest:
        raise SuiteError(f"world {spec}", f"the generator produced content {actual}, but the task package records "
                         f"{expected_digest}; regenerate the suite with this version", field="content_sha256")
    return data


def route_for(task: Task, agent: str) -> tuple[dict[str, Any], ...]:
    if agent not in AGENTS:
        raise AgentError(f"unknown agent {agent!r}; agents: {', '.join(AGENTS)}")
    if agent in FEASIBLE_ONLY and not task.feasible:
        raise NotApplicable(f"{agent} applies to feasible tasks only; {task.name} is infeasible")
    if agent not in task.routes:
        raise AgentError(f"{task.name}: no route for {agent!r} (expected {task.path / ROUTE_FILES[agent]})")
    return task.routes[agent]


def run_episode(task: Task, agent: str, keep: Path | None = None) -> Episode:
    """Run ``agent`` on a fresh world of ``task``; the world folder is removed unless ``keep`` is given
    (a temporary one left by a killed process is swept by the next run: ``webapps.folders``)."""
    actions = route_for(task, agent)
    started = time.perf_counter()
    folder = Path(keep) if keep else new_world_folder(task.name)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        (folder / WORLD_DB).write_bytes(checked_world(task.world, task.world_digest))
        world_ready = time.perf_counter()
        with WorldServer(folder) as server, Browser(server.base_url) as browser:
            base_url = server.base_url
            run = replay(browser, actions, task.step_budget, f"{task.name}[{agent}]")
        worked = time.perf_counter()
        evidence = load_evidence(folder, task.contract)
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    done = time.perf_counter()
    seconds = {"world": round(world_ready - started, 4), "agent": round(worked - world_ready, 4),
               "evidence": round(done - worked, 4), "total": round(done - started, 4)}
    return Episode(task.name, agent, run.steps, task.step_budget, run.stopped, base_url, evidence, run.log, seconds)
