"""Built worlds are kept in the user's cache folder and read back only when they are what a build gives."""

from __future__ import annotations

import sqlite3

import pytest
from wb_support import sample_tasks

from pytest_websearchbench.webbench.agents import episode
from pytest_websearchbench.webbench.agents.episode import checked_world
from pytest_websearchbench.webbench.world import build
from pytest_websearchbench.webbench.world.cache import cache_path, read_kept
from pytest_websearchbench.webbench.world.schema import schema_of


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    checked_world.cache_clear()
    yield tmp_path / "pytest-websearchbench" / "worlds"
    checked_world.cache_clear()


@pytest.fixture
def task():
    return sample_tasks()[0]


def _no_build(monkeypatch):
    def refuse(spec):
        raise AssertionError(f"built {spec} again")

    monkeypatch.setattr(episode, "world_bytes", refuse)


def _tampered(path, statement: str) -> None:
    con = sqlite3.connect(path)
    con.execute(statement)
    con.commit()
    con.close()


def test_a_built_world_is_kept_and_the_next_process_reads_it_instead_of_building(cache, task, monkeypatch):
    built = checked_world(task.world, task.world_digest)
    assert cache_path(task.world_digest).read_bytes() == built
    checked_world.cache_clear()  # as a new process starts
    _no_build(monkeypatch)
    assert checked_world(task.world, task.world_digest) == built


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE {table} SET {column} = 'something else' WHERE rowid = 1",
        "CREATE TRIGGER sneaky AFTER INSERT ON decisions BEGIN DELETE FROM {table}; END",
        "CREATE INDEX extra ON {table} ({column})",
        "CREATE TABLE notes (id TEXT)",
    ],
    ids=["a-row", "a-trigger", "an-index", "a-table"],
)
def test_a_kept_world_that_is_not_what_a_build_gives_is_built_again_and_replaced(cache, task, statement):
    built = checked_world(task.world, task.world_digest)
    kept = cache_path(task.world_digest)
    table = next(t for t in schema_of(task.contract["family"]).tables.values() if t.name != "decisions")
    _tampered(kept, statement.format(table=table.name, column=table.names[1]))
    assert read_kept(task.world_digest) is None
    checked_world.cache_clear()
    assert checked_world(task.world, task.world_digest) == built
    assert kept.read_bytes() == built


def test_garbage_in_the_cache_is_no_world(cache, task):
    path = cache_path(task.world_digest)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database")
    assert read_kept(task.world_digest) is None


def test_a_cache_folder_that_cannot_be_written_is_no_cache(tmp_path, monkeypatch, task):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    checked_world.cache_clear()
    try:
        assert build.content_digest(checked_world(task.world, task.world_digest)) == task.world_digest
    finally:
        checked_world.cache_clear()
