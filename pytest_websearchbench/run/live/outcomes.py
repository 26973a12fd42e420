"""What the live phase hands each item's test: how working it live came to be (recorded, or failed with the
error its test shows), kept on the config and, for xdist workers, in the run's state folder; and the summary's
lines of why it stopped calling and what it spent."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.run.session import run_state

if TYPE_CHECKING:
    from pytest_websearchbench.run.spec import ItemSpec

RECORDED, FAILED = "recorded", "failed"
#: an item its family works at once (``BenchmarkFamily.works_at_once``): what it came to (``run``: the item's
#: ``ItemRun.to_dict``, its raw results in it, and ``served``), or the reason it was skipped (``message``)
WORKED, SKIPPED = "worked", "skipped"
#: the error kind of an item the live phase did not call because a cassette could not be written before it
NOT_CALLED = "cassette_folder_unwritable"
#: the error kind of an item whose provider or model failed (after its retries) while it ran: an agent sees such
#: a failure as a tool's result, but its answer is not in the cassette (429, 5xx, no answer), so it is not recorded
CALL_FAILED = "call_failed"
#: the error kind of an item refused by --wsb-max-cost
MAX_COST = "max_cost"

Key = tuple[str, str, str]  # (suite, case, variant): ItemMeta.key
_OUTCOMES = pytest.StashKey["dict[Key, LiveOutcome] | None"]()
_STOPPED = pytest.StashKey[str]()
_SPEND = pytest.StashKey[str]()


@dataclass(frozen=True)
class LiveOutcome:
    """What working one item live came to: ``recorded`` (its cassette is written: the test replays it),
    ``failed`` (``message``: the error its test reports; ``run``: ``ItemRun.to_dict`` of how far it got), or for
    an item worked at once ``worked`` or ``skipped``."""

    status: str
    message: str = ""
    run: dict[str, Any] = field(default_factory=dict)


def provider_failure(spec: ItemSpec, exc: Exception) -> str:
    """An item's error when its provider (or agent) failed, live or in its test."""
    who = "provider" if spec.family.records_traffic else "agent"
    return f"{spec.label}: {who} {spec.variant!r} failed: {exc}"


def outcomes_path(run_id: str) -> Path:
    """Where a run's live outcomes wait for its xdist workers: the run's state folder (removed as the run ends)."""
    from pytest_websearchbench.providers.pacing import state_dir

    return state_dir(run_id) / "live-outcomes.json"


def live_outcome(config: pytest.Config, key: Key) -> LiveOutcome | None:
    """How the live phase left this item, or None (it was not worked live: replayed, reused, not live)."""
    outcomes = _outcomes(config)
    return outcomes.get(key) if outcomes else None


def worked_live(config: pytest.Config) -> bool:
    """Whether this run's live calls are made by its live phase (so a test's own calls only replay). Not
    when the run does not record, nor over gateways on other machines (their workers record, as before)."""
    return _outcomes(config) is not None


def stopped_note(config: pytest.Config) -> str:
    """The summary's lines when the live phase stopped calling: because its cassettes could not be written
    (a full disk, a read-only folder), a line for each provider out of credits; or ""."""
    return config.stash.get(_STOPPED, "")


def spend_note(config: pytest.Config) -> str:
    """The summary's line of the live phase's spend, providers and models apart; "" when it called nothing."""
    return config.stash.get(_SPEND, "")


def start(config: pytest.Config) -> dict[Key, LiveOutcome]:
    """This process works the run's live calls: the outcomes its items' tests read, filled as items finish."""
    outcomes: dict[Key, LiveOutcome] = {}
    config.stash[_OUTCOMES] = outcomes
    return outcomes


def keep_notes(config: pytest.Config, spend: str, stopped: list[str]) -> None:
    """The live phase's summary lines (``spend_note``, ``stopped_note``)."""
    config.stash[_SPEND] = spend
    if stopped:
        config.stash[_STOPPED] = "\n".join(stopped)


def hand_to_workers(config: pytest.Config) -> None:
    """Write the outcomes for the run's xdist workers (also when empty: it tells them that the run's live calls
    are made here)."""
    outcomes = config.stash.get(_OUTCOMES, None) or {}
    write_text_atomic(
        outcomes_path(run_state(config).run_id),
        json.dumps(
            [{"key": list(key), "status": o.status, "message": o.message, "run": o.run} for key, o in outcomes.items()]
        ),
    )


def _outcomes(config: pytest.Config) -> dict[Key, LiveOutcome] | None:
    if _OUTCOMES not in config.stash:  # an xdist worker: the controller wrote them before any item ran
        path = outcomes_path(run_state(config).run_id)
        outcomes = None
        if path.is_file():
            outcomes = {
                tuple(entry["key"]): LiveOutcome(entry["status"], entry.get("message", ""), entry.get("run") or {})
                for entry in json.loads(path.read_text(encoding="utf-8"))
            }
        config.stash[_OUTCOMES] = outcomes
    return config.stash[_OUTCOMES]
