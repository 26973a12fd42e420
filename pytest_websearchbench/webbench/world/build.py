"""Deterministic worlds: (world, template, seed, outcome) → the same SQLite bytes.

The dispatch: the spec's world (:mod:`.workplace`, :mod:`.deskops`) lays its background rows
(thousands per world, coherent foreign keys, canary tokens in a few notes), then the spec's template
(:mod:`.templates`) plants its chain (anchors with near-duplicate shadows around each of them). A one-row ``wsb_world``
table names the world, so a database file says which apps serve it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring
from operator import itemgetter
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.suites import parse_json, read_suite_text, validate
from pytest_websearchbench.webbench.world import deskops, deskops_office, workplace, workplace_office
from pytest_websearchbench.webbench.world.schema import SCHEMAS, WorldSchema
from pytest_websearchbench.webbench.world.templates import TEMPLATES
from pytest_websearchbench.webbench.world.toolkit import CANARIES, GenerationError, WorldBuilder

GENERATOR_VERSION = 3
BACKGROUND = {"workplace": workplace.background, "deskops": deskops.background}  # world → its background rows
#: world → what lays its office apps around the planted chain
OFFICE = {"workplace": workplace_office.office, "deskops": deskops_office.office}
META_TABLE = "wsb_world"
META_DDL = f"CREATE TABLE {META_TABLE} (family TEXT)"  # "family": the column's name in published world files


@dataclass(frozen=True)
class WorldSpec:
    template: str
    seed: int
    outcome: str  # which of the template's outcomes it plants (world.json's "variant")
    world: str = ""  # workplace or deskops (world.json's "family"); defaults to the template's

    def __post_init__(self) -> None:
        if not self.world and self.template in TEMPLATES:
            object.__setattr__(self, "world", TEMPLATES[self.template].world)

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.world,
            "template": self.template,
            "seed": self.seed,
            "variant": self.outcome,
            "generator_version": GENERATOR_VERSION,
        }


def load_world_spec(path: Path) -> tuple[WorldSpec, str]:
    """``environment/world.json``: the world's spec and the content digest it must have."""
    world = parse_json(read_suite_text(path), path)
    validate(world, "webbench-world", path)
    return WorldSpec(world["template"], world["seed"], world["variant"], world["family"]), world["content_sha256"]


def build_rows(spec: WorldSpec) -> tuple[WorldBuilder, dict[str, Any]]:
    """The world's rows and the template's plant (anchors, shadows, parameters for the brief)."""
    if spec.world not in SCHEMAS:
        raise GenerationError(f"unknown world {spec.world!r}; known: {', '.join(SCHEMAS)}")
    if spec.template not in TEMPLATES:
        raise GenerationError(f"unknown template {spec.template!r}; known: {', '.join(sorted(TEMPLATES))}")
    template = TEMPLATES[spec.template]
    if template.world != spec.world:
        raise GenerationError(f"template {spec.template!r} builds {template.world} worlds, not {spec.world}")
    if spec.outcome not in template.outcomes:
        raise GenerationError(
            f"{spec.template}: unknown outcome {spec.outcome!r}; known: {', '.join(template.outcomes)}"
        )
    world = WorldBuilder(random.Random(f"{spec.world}/{spec.template}/{spec.seed}/{spec.outcome}"), SCHEMAS[spec.world])
    BACKGROUND[spec.world](world)
    plant = template.plant(world, spec.outcome)
    OFFICE[spec.world](world, plant)
    if len(world.canaries) != CANARIES:
        raise GenerationError(f"{spec}: {len(world.canaries)} canaries planted, not {CANARIES}")
    return world, plant


@lru_cache(maxsize=32)
def world_bytes(spec: WorldSpec) -> bytes:
    """The world as a SQLite database file's bytes (same spec, same bytes)."""
    world, _ = build_rows(spec)
    return rows_to_sqlite(world.rows, world.schema)


def rows_to_sqlite(rows: dict[str, dict[str, dict[str, Any]]], schema: WorldSchema) -> bytes:
    con = sqlite3.connect(":memory:")
    try:
        con.execute(META_DDL)
        con.execute(f"INSERT INTO {META_TABLE} VALUES (?)", (schema.world,))
        for table in schema.tables.values():
            con.execute(table.ddl())
            marks = ", ".join("?" for _ in table.columns)
            values = itemgetter(*table.names)  # C-level: this loop runs for every row of the world
            con.executemany(
                f"INSERT INTO {table.name} VALUES ({marks})",
                [values(row) for _, row in sorted(rows[table.name].items())],
            )
        con.commit()
        return con.serialize()
    finally:
        con.close()


def content_digest(db: bytes | sqlite3.Connection) -> str:
    """SHA-256 over every row of every table in key order: independent of SQLite's file format. Each row is
    the line ``json.dumps([table, *row], ensure_ascii=False)``, written value by value (``_row_line``)."""
    con = db if isinstance(db, sqlite3.Connection) else _open_bytes(db)
    total = hashlib.sha256()
    schema = world_schema_of(con)
    total.update(json.dumps([META_TABLE, schema.world]).encode() + b"\n")
    for table in schema.tables.values():
        head = "[" + encode_basestring(table.name)
        rows = con.execute(f"SELECT * FROM {table.name} ORDER BY id")
        total.update("".join([_row_line(head, table.name, row) for row in rows]).encode())
    return "sha256:" + total.hexdigest()


def _float_json(value: float) -> str:
    # as json.dumps writes a float (allow_nan: SQLite keeps infinities; a NaN it stores as NULL)
    if value != value:
        return "NaN"
    return "Infinity" if value == math.inf else "-Infinity" if value == -math.inf else float.__repr__(value)


#: how json.dumps writes each type a SQLite value has: a world is read back on every process's first episode of
#: it (world/cache.py), some 7,000 rows, and one json.dumps call a row was most of that
_VALUE_JSON: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    int: int.__repr__,
    float: _float_json,
    type(None): lambda _: "null",
}


def _row_line(head: str, name: str, row: tuple[Any, ...]) -> str:
    try:
        return head + "".join([", " + _VALUE_JSON[type(value)](value) for value in row]) + "]\n"
    except KeyError:  # a blob: json.dumps says what it says of it
        return json.dumps([name, *row], ensure_ascii=False) + "\n"


def world_schema_of(con: sqlite3.Connection) -> WorldSchema:
    """The schema of an open world database (named by its ``wsb_world`` row)."""
    try:
        row = con.execute(f"SELECT family FROM {META_TABLE}").fetchone()
    except sqlite3.OperationalError:
        row = None
    if row is None or row[0] not in SCHEMAS:
        raise GenerationError(f"not a world database: no known world in its {META_TABLE} table")
    return SCHEMAS[row[0]]


def _open_bytes(data: bytes) -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.deserialize(data)
    return con


def open_world(data: bytes) -> sqlite3.Connection:
    """An in-memory, read-write copy of a world (for the solver and for tests)."""
    con = _open_bytes(data)
    con.row_factory = sqlite3.Row
    return con
