"""Shared helpers of the WebBench tests: the sample suite's tasks and a live world to poke at."""

from __future__ import annotations

import contextlib
import tempfile
from functools import lru_cache
from pathlib import Path

from pytest_websearchbench.webbench.tasks.harbor import Task, load_dataset
from pytest_websearchbench.webbench.webapps.server import WORLD_DB, WorldServer
from pytest_websearchbench.webbench.world.build import WorldSpec, world_bytes

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "suites" / "webbench-sample"


@lru_cache(maxsize=1)
def sample_tasks() -> tuple[Task, ...]:
    return tuple(load_dataset(SAMPLE / "dataset.toml"))


def sample_task(name: str) -> Task:
    return next(t for t in sample_tasks() if t.name == name)


@contextlib.contextmanager
def live_world(spec: WorldSpec = WorldSpec("staffing", 1, "issue")):
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
    return {"esc": plant["anchor"], "twin": plant["nearest"], "eng": plant["candidate"]["engineer"],
            "block": plant["candidate"]["block"], "other_block": plant["shadows"]["blocks"][0]}
