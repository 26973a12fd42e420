"""One episode: a fresh world on its own port, an agent working it, the server-side evidence back.

    world.db (regenerated, content digest checked) → WorldServer on 127.0.0.1:<free port>
    → a route through the browser, or an agent's ``work`` on a Session (step budget)
    → server stopped → load_evidence (from the trace the server kept in its process)

The browser is the text browser or a page of the worker's headless Chromium (``--wsb-browser``).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.webbench.agents.catalog import AGENTS, FEASIBLE_ONLY, AgentError, NotApplicable, replay
from pytest_websearchbench.webbench.agents.session import Session
from pytest_websearchbench.webbench.browsing.browser import Browser
from pytest_websearchbench.webbench.grading.verifier import load_evidence
from pytest_websearchbench.webbench.harbor import ROUTE_FILES, Task
from pytest_websearchbench.webbench.webapps.folders import new_world_folder
from pytest_websearchbench.webbench.webapps.server import WorldServer
from pytest_websearchbench.webbench.webapps.trace import WORLD_DB
from pytest_websearchbench.webbench.world.build import WorldSpec, content_digest, world_bytes
from pytest_websearchbench.webbench.world.cache import keep, read_kept


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
    browser: str = "text"
    details: dict[str, Any] = field(default_factory=dict)  # what the agent adds (model turns, program exit)

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "agent": self.agent,
            "steps": self.steps,
            "budget": self.budget,
            "stopped": self.stopped,
            "base_url": self.base_url,
            "browser": self.browser,
            "seconds": self.seconds,
            "log": self.log,
            "details": self.details,
            "evidence": self.evidence,
        }


@lru_cache(maxsize=32)
def checked_world(spec: WorldSpec, expected_digest: str) -> bytes:
    kept = read_kept(expected_digest)
    if kept is not None:
        return kept
    data = world_bytes(spec)
    actual = content_digest(data)
    if actual != expected_digest:
        raise SuiteError(
            f"world {spec}",
            f"the generator produced content {actual}, but the task package records "
            f"{expected_digest}; regenerate the suite with this version",
            field="content_sha256",
        )
    keep(expected_digest, data)
    return data


def route_for(task: Task, agent: str) -> tuple[dict[str, Any], ...]:
    if agent not in AGENTS:
        raise AgentError(f"unknown agent {agent!r}; agents: {', '.join(AGENTS)}")
    if agent in FEASIBLE_ONLY and not task.feasible:
        raise NotApplicable(f"{agent} applies to feasible tasks only; {task.name} is infeasible")
    if agent not in task.routes:
        raise AgentError(f"{task.name}: no route for {agent!r} (expected {task.path / ROUTE_FILES[agent]})")
    return task.routes[agent]


#: an agent's work: (session, the world's base URL, the world folder) → details for the record
Work = Callable[[Session, str, Path], "dict[str, Any] | None"]


def open_browser(kind: str, base_url: str, screenshots: bool = False) -> Any:
    if kind == "chromium":
        from pytest_websearchbench.webbench.browsing.chromium import ChromiumBrowser

        return ChromiumBrowser(base_url, screenshots)
    return Browser(base_url)


def run_episode(
    task: Task,
    agent: str,
    keep: Path | None = None,
    *,
    browser: str = "text",
    work: Work | None = None,
    screenshots: bool = False,
) -> Episode:
    """Run ``agent`` on a fresh world of ``task``: its route, or ``work`` when given. The world folder is
    removed unless ``keep`` is given (a temporary one left by a killed process is swept by the next
    run: ``webapps.folders``)."""
    actions = route_for(task, agent) if work is None else ()
    started = time.perf_counter()
    folder = Path(keep) if keep else new_world_folder(task.name)
    folder.mkdir(parents=True, exist_ok=True)
    details: dict[str, Any] = {}
    try:
        (folder / WORLD_DB).write_bytes(checked_world(task.world, task.world_digest))
        world_ready = time.perf_counter()
        with WorldServer(folder) as server, open_browser(browser, server.base_url, screenshots) as page:
            base_url = server.base_url
            if work is None:
                run = replay(page, actions, task.step_budget, f"{task.name}[{agent}]")
                steps, stopped, log = run.steps, run.stopped, run.log
            else:
                session = Session(page, task.step_budget, server.trace.decided)
                details = work(session, base_url, folder) or {}
                steps, stopped, log = session.steps, session.stopped, session.log
        worked = time.perf_counter()
        evidence = load_evidence(folder, task.contract, server.trace)
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    done = time.perf_counter()
    seconds = {
        "world": round(world_ready - started, 4),
        "agent": round(worked - world_ready, 4),
        "evidence": round(done - worked, 4),
        "total": round(done - started, 4),
    }
    return Episode(
        task.name, agent, steps, task.step_budget, stopped, base_url, evidence, log, seconds, browser, details
    )
