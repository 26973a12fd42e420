"""What the ``deskops`` templates share: finding the event the brief names by descriptors (two ways in) and the
shadow events every event chain forbids."""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.webbench.world.actions import Action, click, fill, go, select
from pytest_websearchbench.webbench.world.solver import Solution
from pytest_websearchbench.webbench.world.toolkit import Forbidden


def find_event(plant: dict[str, Any], pk: str, sol: Solution) -> list[Action]:
    return [
        go("/"),
        click("Grids"),
        fill("q", plant["title"]),
        select("team", sol.facts["team"]),
        {"action": "press", "key": "Enter", "expect": [pk]},
        click(pk, [f"Team: {sol.facts['team']}"]),
    ]


def find_event_by_list(plant: dict[str, Any], pk: str, sol: Solution) -> list[Action]:
    """The other way in: the events list filtered by status and sorted by start day, searched by team."""
    return [
        go("/grids/events?status=planning&sort=starts_on&dir=desc"),
        fill("q", sol.facts["team"]),
        {"action": "press", "key": "Enter"},
        fill("q", plant["title"]),
        select("team", sol.facts["team"]),
        select("status", "planning"),
        {"action": "press", "key": "Enter", "expect": [pk]},
        click(pk),
    ]


def event_forbidden(plant: dict[str, Any]) -> Forbidden:
    return {"event_id": {"shadow": plant["shadows"]["events"]}}
