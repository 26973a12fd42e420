"""Built worlds kept between runs and processes. A world is a pure function of its spec and the generator,
and building one (some 7,000 rows, then its content digest) is most of an episode; without this every
process (each xdist worker, each run) built every world it served again.

A kept world is read back only if it is what a build gives: its tables, indexes and triggers exactly the
family's (nothing added to the file) and its content digest the one the task package records, the same
check a fresh build passes. So the cache can save a build but never change a world; anything else found
there is built again and replaced. A cache folder that cannot be written is no cache, not an error."""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from pathlib import Path

from pytest_websearchbench.core.atomic import atomic_path
from pytest_websearchbench.core.cache import user_cache_dir
from pytest_websearchbench.webbench.world.build import META_DDL, content_digest
from pytest_websearchbench.webbench.world.schema import SCHEMAS, WorldSchema


def cache_path(digest: str, folder: Path | None = None) -> Path:
    return (folder or user_cache_dir("worlds")) / f"{digest.removeprefix('sha256:')}.sqlite"


def read_kept(digest: str, folder: Path | None = None) -> bytes | None:
    """The kept world whose content digest is ``digest``, or None (none kept, or not as built)."""
    try:
        data = cache_path(digest, folder).read_bytes()
    except OSError:
        return None
    try:
        if _structure(data) not in _built_structures() or content_digest(data) != digest:
            return None
    except Exception:  # noqa: BLE001 (not a database, no world named, any damage: it is built again)
        return None
    return data


def keep(digest: str, data: bytes, folder: Path | None = None) -> None:
    """Keep a world that passed its check (atomically: a reader never sees half a file)."""
    try:
        with atomic_path(cache_path(digest, folder)) as tmp:
            tmp.write_bytes(data)
    except OSError:
        pass


def _structure(data: bytes) -> frozenset[tuple[str, str, str | None]]:
    con = sqlite3.connect(":memory:")
    try:
        con.deserialize(data)
        return frozenset(con.execute("SELECT type, name, sql FROM sqlite_master"))
    finally:
        con.close()


@lru_cache(maxsize=1)
def _built_structures() -> tuple[frozenset[tuple[str, str, str | None]], ...]:
    """What ``rows_to_sqlite`` creates for each world: its tables and their own autoindexes, nothing more."""
    return tuple(_structure_of(schema) for schema in SCHEMAS.values())


def _structure_of(schema: WorldSchema) -> frozenset[tuple[str, str, str | None]]:
    con = sqlite3.connect(":memory:")
    try:
        con.execute(META_DDL)
        for table in schema.tables.values():
            con.execute(table.ddl())
        return frozenset(con.execute("SELECT type, name, sql FROM sqlite_master"))
    finally:
        con.close()
