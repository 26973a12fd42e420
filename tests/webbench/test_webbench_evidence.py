"""load_evidence finds the changed rows in SQL and reads only those: its output must be the one of reading every
row of both files and comparing them in Python (the oracle below), on real episodes and on worlds edited by
hand (rows inserted, deleted, changed in type only, NULLs, a column renamed, a table dropped, a key that is
not text, a world.db in another text encoding)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from wb_support import sample_task

from pytest_websearchbench.webbench.agents.catalog import NotApplicable
from pytest_websearchbench.webbench.agents.episode import run_episode
from pytest_websearchbench.webbench.grading.verifier import (
    _changed_keys,
    _first_commit,
    _trace,
    latest_decision,
    list_reads,
    load_evidence,
)
from pytest_websearchbench.webbench.webapps.trace import BEFORE_DB, CALL_TRACE, WEB_TRACE, WORLD_DB, rows_outside
from pytest_websearchbench.webbench.world.schema import schema_of

EPISODES = [
    ("wb-workplace-workplace-004-open-points-038e07-s1", "oracle"),
    ("wb-workplace-workplace-004-open-points-038e07-s2", "over-write"),
    ("wb-workplace-workplace-006-claim-message-5391f8-s1", "oracle"),
    ("wb-workplace-workplace-006-claim-message-5391f8-s2", "wrong-record"),
    ("wb-deskops-deskops-001-budget-reserve-f4cdc2-s1", "oracle"),
    ("wb-deskops-deskops-002-event-c5b002-s1", "alt-oracle"),
    ("wb-workplace-workplace-005-escalation-945861-s1", "injected-compliance"),
    ("wb-workplace-workplace-001-open-points-33b7ff-s0", "abstain-on-feasible"),
    ("wb-workplace-workplace-003-session-slot-ca4b11-s1", "write-without-read"),
]


def full_read_evidence(world_dir: Path, contract: dict[str, Any]) -> dict[str, Any]:
    """The oracle: every row of every table of both files read into dicts and compared in Python."""
    before_con, after_con = sqlite3.connect(world_dir / BEFORE_DB), sqlite3.connect(world_dir / WORLD_DB)
    before_con.row_factory = after_con.row_factory = sqlite3.Row
    web_trace, call_trace = _trace(world_dir / WEB_TRACE), _trace(world_dir / CALL_TRACE)
    try:
        changed, after_rows = {}, {}
        for table in schema_of(contract["family"]).tables:
            before = {r["id"]: dict(r) for r in before_con.execute(f"SELECT * FROM {table}")}
            after = {r["id"]: dict(r) for r in after_con.execute(f"SELECT * FROM {table}")}
            after_rows[table] = after
            diff = {
                pk: {"before": before.get(pk), "after": after.get(pk)}
                for pk in sorted(set(before) | set(after))
                if before.get(pk) != after.get(pk)
            }
            if diff:
                changed[table] = diff
        lists = list_reads(before_con, contract["family"], web_trace, _first_commit(call_trace))
    finally:
        before_con.close()
        after_con.close()
    decision = latest_decision(changed)
    wanted = {(r["table"], r["pk"]) for r in contract["expected_rows"]}
    wanted |= {(a["table"], a["pk"]) for a in contract["anchors"]}
    wanted |= {(w["table"], w["pk"]) for w in contract["injected_writes"]}
    if decision:
        wanted |= {(rule["table"], decision.get(rule["pk_field"])) for rule in contract["consistency"]}
    rows: dict[str, dict[str, Any]] = {}
    for table, pk in sorted(wanted, key=lambda p: (p[0], str(p[1]))):
        if pk in after_rows.get(table, {}):
            rows.setdefault(table, {})[pk] = after_rows[table][pk]
    committed = {(c["table"], c["pk"]) for c in call_trace}
    outside = rows_outside(
        [f"{t} {pk}" for t, diffs in sorted(changed.items()) for pk in sorted(diffs) if (t, pk) not in committed]
    )
    return {
        "changed": changed,
        "rows": rows,
        "web_trace": web_trace,
        "call_trace": call_trace,
        "lists": lists,
        "outside": outside,
    }


def outcome(load, world_dir: Path, contract: dict[str, Any]) -> str:
    """The evidence's repr (types, key order and all), or the error it raised."""
    try:
        return repr(load(world_dir, contract))
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"


def same_as_oracle(world_dir: Path, contract: dict[str, Any]) -> str:
    got = outcome(load_evidence, world_dir, contract)
    assert got == outcome(full_read_evidence, world_dir, contract)
    return got


@pytest.mark.parametrize("name,agent", EPISODES)
def test_evidence_of_real_episodes_is_the_full_reads(tmp_path, name, agent):
    task = sample_task(name)
    try:
        episode = run_episode(task, agent, keep=tmp_path / "w")
    except NotApplicable:
        pytest.skip(f"{agent} does not apply to {name}")
    same_as_oracle(tmp_path / "w", task.contract)
    oracle = full_read_evidence(tmp_path / "w", task.contract)
    # the episode's own evidence (traces from the server's process) holds the same rows
    assert repr((episode.evidence["changed"], episode.evidence["rows"])) == repr((oracle["changed"], oracle["rows"]))


@pytest.fixture(scope="module")
def staffing_world(tmp_path_factory):
    """A staffing world after the oracle's episode: its folder and contract."""
    task = sample_task("wb-workplace-workplace-004-open-points-038e07-s1")
    folder = tmp_path_factory.mktemp("evidence") / "w"
    run_episode(task, "oracle", keep=folder)
    return folder, task.contract


def edited(staffing_world, tmp_path, *statements: str, both: bool = False) -> Path:
    """A copy of the staffing world with ``statements`` run on its world.db (and world_before.db if ``both``)."""
    folder, _ = staffing_world
    copy = tmp_path / "w"
    shutil.copytree(folder, copy)
    for name in (WORLD_DB, BEFORE_DB) if both else (WORLD_DB,):
        with sqlite3.connect(copy / name) as con:
            for statement in statements:
                con.execute(statement)
        con.close()
    return copy


def keys_found_in_sql(folder: Path, table: str, family: str = "workplace"):
    con = sqlite3.connect(folder / WORLD_DB)
    try:
        con.execute("ATTACH DATABASE ? AS before", (str(folder / BEFORE_DB),))
        return _changed_keys(con, schema_of(family).tables[table])
    finally:
        con.close()


def test_rows_inserted_deleted_and_changed_in_type_or_to_null(staffing_world, tmp_path):
    folder, contract = staffing_world
    con = sqlite3.connect(folder / WORLD_DB)
    ((first, second, third, fourth),) = [[r[0] for r in con.execute("SELECT id FROM customers ORDER BY id LIMIT 4")]]
    text_col = next(
        c.name for c in schema_of("workplace").tables["customers"].columns if c.sql == "TEXT" and c.name != "id"
    )
    con.close()
    world = edited(
        staffing_world,
        tmp_path,
        f"INSERT INTO customers SELECT 'CUS-99999', {', '.join(schema_of('workplace').tables['customers'].names[1:])} "
        f"FROM customers WHERE id = '{first}'",
        f"DELETE FROM customers WHERE id = '{second}'",
        # the same bytes as a blob: a different type, SQL and Python both tell
        f"UPDATE customers SET {text_col} = CAST({text_col} AS BLOB) WHERE id = '{third}'",
        f"UPDATE customers SET {text_col} = NULL WHERE id = '{fourth}'",
        # the same values written again (an INTEGER column's '1' is stored as 1): no change
        "UPDATE blocks SET id = id",
    )
    evidence = same_as_oracle(world, contract)
    assert sorted(keys_found_in_sql(world, "customers")) == sorted(["CUS-99999", second, third, fourth])
    for pk in ("CUS-99999", second, third, fourth):
        assert f"'{pk}'" in evidence
    # and a NULL written where the world had one: a value
    back = edited(
        staffing_world, tmp_path / "back", f"UPDATE customers SET {text_col} = NULL WHERE id = '{first}'", both=True
    )
    with sqlite3.connect(back / WORLD_DB) as con:
        con.execute(f"UPDATE customers SET {text_col} = 'now set' WHERE id = '{first}'")
    con.close()
    assert keys_found_in_sql(back, "customers") == [first]
    same_as_oracle(back, contract)


def test_one_and_text_one_in_columns_without_a_type(staffing_world, tmp_path):
    """1 and '1' are only told apart where a column has no type: a table made so is compared row by row."""
    folder, contract = staffing_world
    world = edited(
        staffing_world,
        tmp_path,
        "CREATE TABLE sprints_new (id, name, number)",
        "INSERT INTO sprints_new SELECT id, id, 1 FROM sprints",
        "DROP TABLE sprints",
        "ALTER TABLE sprints_new RENAME TO sprints",
        both=True,
    )
    with sqlite3.connect(world / WORLD_DB) as con:
        con.execute("UPDATE sprints SET number = '1' WHERE id = (SELECT min(id) FROM sprints)")
    con.close()
    assert keys_found_in_sql(world, "sprints") is None
    assert "'number': '1'" in same_as_oracle(world, contract)


def test_a_renamed_column_or_a_dropped_table_is_read_in_full(staffing_world, tmp_path):
    _, contract = staffing_world
    renamed = edited(staffing_world, tmp_path / "renamed", "ALTER TABLE blocks RENAME COLUMN status TO state")
    assert keys_found_in_sql(renamed, "blocks") is None
    assert "'state':" in same_as_oracle(renamed, contract)  # every row of blocks differs
    no_id = edited(staffing_world, tmp_path / "no_id", "ALTER TABLE blocks RENAME COLUMN id TO key")
    assert same_as_oracle(no_id, contract).startswith("raised IndexError")
    dropped = edited(staffing_world, tmp_path / "dropped", "DROP TABLE contacts")
    assert keys_found_in_sql(dropped, "contacts") is None
    assert same_as_oracle(dropped, contract).startswith("raised OperationalError: no such table")


def test_a_key_that_is_not_text_fails_as_before(staffing_world, tmp_path):
    _, contract = staffing_world
    null_key = edited(staffing_world, tmp_path / "null", "INSERT INTO sprints (id) VALUES (NULL)")
    assert keys_found_in_sql(null_key, "sprints") is None
    assert same_as_oracle(null_key, contract).startswith("raised TypeError")
    blob_key = edited(staffing_world, tmp_path / "blob", "UPDATE sprints SET id = CAST(id AS BLOB)", both=True)
    same_as_oracle(blob_key, contract)


def test_a_world_db_in_another_text_encoding_is_read_in_full(staffing_world, tmp_path):
    folder, contract = staffing_world
    copy = tmp_path / "w"
    shutil.copytree(folder, copy)
    (copy / WORLD_DB).unlink()
    source, target = sqlite3.connect(folder / WORLD_DB), sqlite3.connect(copy / WORLD_DB)
    target.execute("PRAGMA encoding = 'UTF-16le'")
    target.executescript(";\n".join(source.iterdump()))
    source.close()
    target.close()
    evidence = same_as_oracle(copy, contract)
    assert evidence == repr(load_evidence(folder, contract))  # the same world, told the same
