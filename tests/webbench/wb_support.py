"""Shared helpers of the WebBench tests: the sample suite's tasks and a live world to poke at."""

from __future__ import annotations

import contextlib
import tempfile
from functools import lru_cache
from pathlib import Path

from pytest_websearchbench.webbench.harbor import Task, load_dataset
from pytest_websearchbench.webbench.webapps.server import WORLD_DB, WorldServer
from pytest_websearchbench.webbench.world.build import WorldSpec, world_bytes

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "suites" / "webbench-sample"


@lru_cache(maxsize=1)
def sample_tasks() -> tuple[Task, ...]:
    return tuple(load_dataset(SAMPLE / "dataset.toml"))


def one_task_a_template(every_task: bool, turn: int = 0) -> list[Task]:
    """The bundled tasks a slow per-task test runs: all of them with ``--every-task``; otherwise one of each
    template (every page layout, hop chain and Decision shape), the templates taking their seeds in turn
    (``turn`` shifts the turn, so that two tests cover different seeds)."""
    if every_task:
        return list(sample_tasks())
    by_template: dict[str, list[Task]] = {}
    for task in sample_tasks():
        by_template.setdefault(task.template, []).append(task)
    return [tasks[(i + turn) % len(tasks)] for i, tasks in enumerate(by_template.values())]


def task_agent_pairs(agents: tuple[str, ...], applies, every_task: bool) -> list[tuple[str, str]]:
    """(task, agent) pairs for a slow per-pair test: every pair that ``applies`` with ``--every-task``;
    otherwise the first agent on one task of each template, and each other agent once, on the templates
    in turn (its first task there that it applies to, the seeds shifted per agent)."""
    if every_task:
        return [(t.name, a) for t in sample_tasks() for a in agents if applies(t, a)]
    pairs = [(t.name, agents[0]) for t in one_task_a_template(False)]
    templates = one_task_a_template(False)
    for j, agent in enumerate(agents[1:], start=1):
        template = templates[j % len(templates)].template
        tasks = [t for t in sample_tasks() if t.template == template]
        shifted = tasks[j % len(tasks) :] + tasks[: j % len(tasks)]
        pairs += [(t.name, agent) for t in shifted if applies(t, agent)][:1]
    return pairs


def sample_task(name: str) -> Task:
    return next(t for t in sample_tasks() if t.name == name)


@contextlib.contextmanager
def live_world(spec: WorldSpec = WorldSpec("staffing", 1, "issue")):  # noqa: B008 (a frozen dataclass: one shared value is right)
    """A fresh world folder with a running server: yields (server, folder)."""
    with tempfile.TemporaryDirectory(prefix="wsb-test-") as tmp:
        folder = Path(tmp)
        (folder / WORLD_DB).write_bytes(world_bytes(spec))
        with WorldServer(folder) as server:
            yield server, folder


def staffing_chain() -> dict[str, str]:
    """Keys of the default live world's chain (staffing, seed 1): anchor, its look-alike, engineer, block."""
    from pytest_websearchbench.webbench.world.build import build_rows

    plant = build_rows(WorldSpec("staffing", 1, "issue"))[1]
    return {
        "esc": plant["anchor"],
        "twin": plant["nearest"],
        "eng": plant["candidate"]["engineer"],
        "block": plant["candidate"]["block"],
        "other_block": plant["shadows"]["blocks"][0],
    }
