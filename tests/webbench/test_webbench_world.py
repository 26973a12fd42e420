"""The world generator: determinism, size, coherent keys, shadows around anchors, canaries, briefs."""

from __future__ import annotations

import hashlib
import re
from datetime import date

import pytest

from pytest_websearchbench.webbench.world.schema import PK_PATTERN, TABLES
from pytest_websearchbench.webbench.tasks.builder import build_task
from pytest_websearchbench.webbench.world.build import (
    GenerationError, WorldSpec, build_rows, content_digest, open_world, rows_to_sqlite)
from wb_support import sample_tasks

SPECS = [WorldSpec("staffing", 1, "issue"), WorldSpec("sprint-pull", 2, "over_capacity")]


def _fresh_bytes(spec: WorldSpec) -> bytes:
    world, _ = build_rows(spec)  # not the cached world_bytes: a second, independent generation
    return rows_to_sqlite(world.rows)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.template}-{s.seed}")
def test_same_spec_gives_the_same_sqlite_bytes(spec):
    first, second = _fresh_bytes(spec), _fresh_bytes(spec)
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest()
    assert first[:16] == b"SQLite format 3\x00"


def test_seed_and_variant_change_the_world():
    base = content_digest(_fresh_bytes(WorldSpec("staffing", 1, "issue")))
    assert content_digest(_fresh_bytes(WorldSpec("staffing", 2, "issue"))) != base
    assert content_digest(_fresh_bytes(WorldSpec("staffing", 1, "needs_approval"))) != base


def test_shipped_tasks_record_the_content_the_generator_produces():
    for task in sample_tasks():
        assert content_digest(_fresh_bytes(task.world)) == task.world_digest, task.name


def test_unknown_template_or_variant_is_a_clear_error():
    with pytest.raises(GenerationError, match="unknown template 'nope'; known: sprint-pull, staffing"):
        build_rows(WorldSpec("nope", 1, "issue"))
    with pytest.raises(GenerationError, match="staffing: unknown variant 'fits'"):
        build_rows(WorldSpec("staffing", 1, "fits"))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.template}-{s.seed}")
def test_hundreds_of_rows_and_every_foreign_key_resolves(spec):
    con = open_world(_fresh_bytes(spec))
    counts = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
    for table in ("escalations", "issues", "engineers", "certifications", "blocks", "oncall"):
        assert counts[table] >= 100, (table, counts[table])
    assert counts["decisions"] == 0
    for table in TABLES.values():
        for column in table.columns:
            if column.ref:
                dangling = con.execute(
                    f"SELECT t.id, t.{column.name} FROM {table.name} t WHERE t.{column.name} IS NOT NULL "
                    f"AND NOT EXISTS (SELECT 1 FROM {column.ref} r WHERE r.id = t.{column.name})").fetchall()
                assert not dangling, (table.name, column.name, dangling[:3])
        prefix = re.compile(rf"^{table.prefix}-\d+$")
        assert all(prefix.match(pk) for (pk,) in con.execute(f"SELECT id FROM {table.name}"))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.template}-{s.seed}")
def test_anchor_sits_among_near_duplicate_shadows(spec):
    world, plant = build_rows(spec)
    rows = world.rows
    anchor = rows["escalations"][plant["anchor"]]
    customer = rows["customers"][anchor["customer_id"]]["name"]
    nearest = rows["escalations"][plant["nearest"]]
    twin = rows["customers"][nearest["customer_id"]]["name"]
    # the nearest look-alike: a customer whose name contains the anchor's, same product/severity/status/month
    assert twin != customer and twin.startswith(customer + " ")
    for column in ("product", "severity", "status"):
        assert nearest[column] == anchor[column]
    opened = [date.fromisoformat(e["opened_on"]) for e in (anchor, nearest)]
    assert 0 < abs((opened[0] - opened[1]).days) <= 2
    shadows = [rows["escalations"][pk] for pk in plant["shadows"]["escalations"]]
    assert any(s["customer_id"] == anchor["customer_id"] and s["status"] == "closed" for s in shadows)
    assert any(s["customer_id"] == anchor["customer_id"] and s["product"] != anchor["product"] for s in shadows)
    assert plant["customer"] == customer and plant["lookalike_customer"] == twin


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.template}-{s.seed}")
def test_canaries_live_in_the_world_and_the_anchor_carries_the_injection(spec):
    world, plant = build_rows(spec)
    notes = " ".join(r["notes"] for r in world.rows["escalations"].values())
    assert len(world.canaries) >= 8 and all(token in notes for token in world.canaries)
    anchor_notes = world.rows["escalations"][plant["anchor"]]["notes"]
    assert plant["canary"] in anchor_notes and plant["injected"]["pk"] in anchor_notes


def test_briefs_name_records_by_descriptors_never_ids():
    for task in sample_tasks():
        assert not re.findall(PK_PATTERN, task.instruction), task.name
        plant = build_rows(task.world)[1]
        assert f"**{plant['customer']}**" in task.instruction and plant["product"] in task.instruction


def test_generation_refuses_a_variant_the_world_does_not_solve_to(monkeypatch):
    from pytest_websearchbench.webbench.tasks import builder as tasks

    monkeypatch.setitem(tasks.EXPECTED_DECISION, "issue", "needs_approval")
    with pytest.raises(GenerationError, match="variant 'issue' planted, but the world solves to 'issue'"):
        build_task("staffing", 1, "issue")
