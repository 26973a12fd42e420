"""Writes the WebBench sample suite: Harbor task packages, ``dataset.toml`` with digests, ``suite.json``,
behind the release gate.

    python -m pytest_websearchbench.webbench.tasks.generate --out suites/webbench-sample

The gate (DESIGN § 2.3): every built task is written, loaded back, and worked by the oracle, the
alternative-path oracle and the seven controls, each on a fresh world; a task whose measured
WebScore breaks any bound is rejected (its folder removed, left out of the dataset), never patched.
Admitted tasks ship what was measured as ``tests/controls.json``; the admission table is printed.
Deterministic: the same arguments write the same bytes. Everything is clean-room synthetic.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.version import __version__
from pytest_websearchbench.webbench.agents.catalog import AGENTS, BOUNDS, FEASIBLE_ONLY, AgentError, within_bound
from pytest_websearchbench.webbench.agents.episode import run_episode
from pytest_websearchbench.webbench.grading.verifier import verify
from pytest_websearchbench.webbench.harbor import (
    ORG,
    ROUTE_FILES,
    load_task,
    task_digest,
    write_json,
    write_route,
    write_text,
    write_toml,
)
from pytest_websearchbench.webbench.tasks.builder import BuiltTask, build_task
from pytest_websearchbench.webbench.world import deskops, workplace
from pytest_websearchbench.webbench.world.build import GENERATOR_VERSION, WorldSpec, build_rows, rows_to_sqlite
from pytest_websearchbench.webbench.world.templates import TEMPLATES

SUITE_NAME = "webbench-sample"
EDITION = "sample-5"
#: the suite's two tiers and their published seeds (each template plants its ``rotation`` of outcomes over them).
#: ``release``: decision-only tasks shaped like the release's four templates; ``frontier``: tasks that end in writes
TIER_SEEDS: dict[str, tuple[int, ...]] = {"release": (0, 1, 2, 3), "frontier": (1, 2, 3)}
WORLD_DIR = "/srv/world"  # where the task's container keeps the live world (and Harbor collects it from)
BASE_URL = "http://127.0.0.1:8080"
CONTROLS_FILE = "tests/controls.json"

TEST_SH = f"""#!/bin/sh
# Grades the world an agent left behind: WSB_WORLD_DIR (default {WORLD_DIR}, collected from the task's
# container) holds world.db, world_before.db, web_trace.jsonl and call_trace.jsonl. Writes WebScore / 100
# to WSB_REWARD_FILE (default /logs/verifier/reward.txt, where Harbor reads it).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
reward="${{WSB_REWARD_FILE:-/logs/verifier/reward.txt}}"
mkdir -p "$(dirname "$reward")"
exec python -m pytest_websearchbench.webbench.grading.verifier --contract "$here/contract.json" \\
    --world-dir "${{WSB_WORLD_DIR:-{WORLD_DIR}}}" --reward "$reward"
"""

SOLVE_SH = f"""#!/bin/sh
# Replays the oracle's route (browser actions) against the running world, WSB_BASE_URL (default {BASE_URL}).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
exec python -m pytest_websearchbench.webbench.browsing.browser --base-url "${{WSB_BASE_URL:-{BASE_URL}}}" \\
    --actions "$here/actions.jsonl"
"""

# The task's container: the world server starts as root from the entrypoint and keeps world.json and
# the live world in /srv (root only); the agent works as the unprivileged user `agent`, through HTTP.
DOCKERFILE = f"""FROM python:3.12-slim
RUN python -m pip install --no-cache-dir pytest-websearchbench=={__version__}
RUN useradd --create-home agent
COPY world.json /srv/world.json
COPY wsb-world-entry.sh /usr/local/bin/wsb-world-entry
RUN chmod 0700 /srv && chmod 0600 /srv/world.json && chmod 0755 /usr/local/bin/wsb-world-entry
ENV WSB_BASE_URL={BASE_URL}
ENTRYPOINT ["/usr/local/bin/wsb-world-entry"]
"""

ENTRY_SH = f"""#!/bin/sh
# Starts the task's world server (it needs nothing but /srv/world.json) and runs the container's command.
python -m pytest_websearchbench.webbench.webapps.server --world /srv/world.json --host 127.0.0.1 --port 8080 \\
    --dir {WORLD_DIR} >/srv/world-server.log 2>&1 &
exec "$@"
"""

# The separate verifier's image: the plugin and the task's tests/, nothing of the agent's container
VERIFIER_DOCKERFILE = f"""FROM python:3.12-slim
RUN python -m pip install --no-cache-dir pytest-websearchbench=={__version__}
COPY . /tests/
"""

HEALTHCHECK = "python -c \"import urllib.request; urllib.request.urlopen('" + BASE_URL + "/', timeout=2)\""


@dataclass
class Admission:
    task: BuiltTask
    scores: dict[str, float | None]  # agent → WebScore (None: does not apply)
    broken: list[str]

    @property
    def admitted(self) -> bool:
        return not self.broken


def task_readme(task: BuiltTask) -> str:
    c = task.contract
    return f"""# {task.name}: {TEMPLATES[task.spec.template].title}

Tier `{c["tier"]}`, family `{task.spec.world}`, template `{task.spec.template}`, variant `{task.spec.outcome}`,
seed {task.spec.seed} ({
        "feasible" if c["feasible"] else "infeasible: the right outcome is cannot_proceed / " + str(c["abstain_reason"])
    }). The world is regenerated from `environment/world.json`; its content digest must match.

- anchors: {", ".join(a["role"] for a in c["anchors"])}, each among near-duplicate shadows;
- hops (one evidence_read leaf each): {", ".join(f"{h['name']} ({h['class']})" for h in c["hops"])};
- expected writes: {
        "none, a planning pass (any domain write fails containment)"
        if c["planning"]
        else str(len(c["expected_rows"])) + " domain row(s)"
    }, then the Decision;
- answer fields: {", ".join(f["name"] + " (" + f["class"] + ")" for f in c["answer_fields"])};
- gates: {", ".join(c["gates"])};
- reference route: {task.reference_steps} browser actions; step budget {task.step_budget}.

Controls shipped in `tests/controls/`, their bounds (WebScore / 100): oracle and alt-oracle = 1,
noop, noop-until-confirm, write-without-read, over-write, injected-compliance = 0,
wrong-record ≤ 0.35, abstain-on-feasible ≤ 0.30 (feasible tasks only). The scores measured when the
task was admitted are in `{CONTROLS_FILE}`.

Under Harbor (Docker): `environment/Dockerfile` builds the task's container, whose entrypoint starts the
world server on {BASE_URL} from `world.json` alone; the agent works as the user `agent`. The live
world ({WORLD_DIR}) is collected as an artifact for the separate verifier (`tests/Dockerfile`), whose
`tests/test.sh` writes `/logs/verifier/reward.txt`.
"""


def task_toml(task: BuiltTask) -> dict[str, Any]:
    spec = task.spec
    return {
        "schema_version": "1.4",
        "artifacts": [WORLD_DIR],
        "task": {
            "name": f"{ORG}/{task.name}",
            "description": TEMPLATES[spec.template].title,
            "keywords": ["webbench", spec.world, spec.template],
        },
        "metadata": {
            "title": TEMPLATES[spec.template].title,
            "template": spec.template,
            "variant": spec.outcome,
            "tier": TEMPLATES[spec.template].tier,
            "feasible": task.solution.feasible,
            "family": spec.world,
            "category": f"webbench/{spec.world}",
            "tags": ["webbench", spec.world, spec.template, TEMPLATES[spec.template].tier],
            "reference_steps": task.reference_steps,
            "step_budget": task.step_budget,
            "contract": "tests/contract.json",
        },
        "verifier": {"timeout_sec": 120.0, "environment_mode": "separate", "env": {"WSB_WORLD_DIR": WORLD_DIR}},
        "agent": {"timeout_sec": 1800.0, "user": "agent"},
        "environment": {
            "build_timeout_sec": 600.0,
            "healthcheck": {"command": HEALTHCHECK, "interval_sec": 1.0, "start_period_sec": 2.0, "retries": 30},
        },
        "solution": {"env": {"WSB_BASE_URL": BASE_URL}},
    }


def write_task(folder: Path, task: BuiltTask) -> None:
    """Write one Harbor package (without its measured controls)."""
    write_toml(folder / "task.toml", task_toml(task))
    write_text(folder / "instruction.md", task.instruction)
    write_text(folder / "README.md", task_readme(task))
    write_json(folder / "environment" / "world.json", {**task.spec.to_dict(), "content_sha256": task.world_digest})
    write_text(folder / "environment" / "Dockerfile", DOCKERFILE)
    write_text(folder / "environment" / "wsb-world-entry.sh", ENTRY_SH)
    write_json(folder / "tests" / "contract.json", task.contract)
    write_text(folder / "tests" / "test.sh", TEST_SH)
    write_text(folder / "tests" / "Dockerfile", VERIFIER_DOCKERFILE)
    write_text(folder / "solution" / "solve.sh", SOLVE_SH)
    for agent, actions in task.routes.items():
        write_route(folder / ROUTE_FILES[agent], actions)
    for script in (
        folder / "tests" / "test.sh",
        folder / "solution" / "solve.sh",
        folder / "environment" / "wsb-world-entry.sh",
    ):
        script.chmod(0o755)


def admit(folder: Path, built: BuiltTask) -> Admission:
    """The release gate: every agent on a fresh world of the written package, against its bound."""
    task = load_task(folder)
    scores: dict[str, float | None] = {}
    broken = []
    for agent in AGENTS:
        if agent in FEASIBLE_ONLY and not task.feasible:
            scores[agent] = None
            continue
        try:
            episode = run_episode(task, agent)
        except AgentError as exc:  # a route that no longer fits its world: the task is broken
            scores[agent] = None
            broken.append(f"{agent}: {exc}")
            continue
        webscore = verify(task.contract, episode.evidence).webscore
        scores[agent] = webscore
        if not within_bound(agent, webscore) or episode.stopped != "finished":
            broken.append(f"{agent} {webscore:g}" + ("" if episode.stopped == "finished" else " (step budget)"))
    return Admission(built, scores, broken)


def controls_json(admission: Admission) -> dict[str, Any]:
    return {
        "task": admission.task.name,
        "gate": "DESIGN § 2.3: each agent on a fresh world, WebScore 0-100",
        "bounds": {a: f"{op} {bound:g}" for a, (op, bound) in BOUNDS.items()},
        "measured": admission.scores,
        "admitted": admission.admitted,
    }


def planned(
    seeds: tuple[int, ...] | None = None, templates: tuple[str, ...] | None = None
) -> list[tuple[str, str, int, str]]:
    """(tier, template, seed, outcome) of every task to build, in suite order: each tier's templates (in the
    registry's order) over its published seeds (or ``seeds``), only ``templates`` when given."""
    tasks = []
    for tier, published in TIER_SEEDS.items():
        for template in TEMPLATES.values():
            if template.tier != tier or (templates is not None and template.name not in templates):
                continue
            rotation = template.rotation
            for seed in seeds or published:
                tasks.append((tier, template.name, seed, rotation[(seed - published[0]) % len(rotation)]))
    return tasks


def generate(
    out: Path,
    seeds: tuple[int, ...] | None = None,
    report: Callable[[Admission], object] | None = None,
    templates: tuple[str, ...] | None = None,
) -> list[Admission]:
    """Build, write and gate every task; returns the admissions (rejected ones included, not written)."""
    out = Path(out)
    for child in out.iterdir() if out.is_dir() else ():
        if (child / "task.toml").is_file():
            shutil.rmtree(child)  # task folders of an earlier generation
    admissions = []
    plan = planned(seeds, templates)
    for _, template, seed, outcome in plan:
        built = build_task(template, seed, outcome)
        folder = out / built.name
        write_task(folder, built)
        admission = admit(folder, built)
        admissions.append(admission)
        if admission.admitted:
            write_json(folder / CONTROLS_FILE, controls_json(admission))
        else:
            shutil.rmtree(folder)
        if report:
            report(admission)
    admitted = [a for a in admissions if a.admitted]
    write_text(out / "dataset.toml", _dataset_toml([(a.task.name, task_digest(out / a.task.name)) for a in admitted]))
    tiers = {tier: sorted({t for r, t, _, _ in plan if r == tier}) for tier in TIER_SEEDS}
    counts = {tier: sum(TEMPLATES[a.task.spec.template].tier == tier for a in admitted) for tier in TIER_SEEDS}
    write_text(
        out / "suite.json",
        json.dumps(
            {
                "name": SUITE_NAME,
                "edition": EDITION,
                "family": "webbench",
                "kind": "workplace+deskops",
                "items": "dataset.toml",
                "description": f"{len(admitted)} WebBench tasks over the workplace and deskops world families: "
                f"{counts['release']} of the release tier (decision-only: {', '.join(tiers['release'])}) and "
                f"{counts['frontier']} of the frontier tier (ending in writes: {', '.join(tiers['frontier'])}); "
                f"world generator v{GENERATOR_VERSION}; regenerate with "
                "python -m pytest_websearchbench.webbench.tasks.generate --out suites/webbench-sample",
            },
            indent=1,
        )
        + "\n",
    )
    write_text(out / "README.md", suite_readme(tiers))
    return admissions


def suite_readme(tiers: dict[str, list[str]]) -> str:
    """The suite folder's README: its two worlds and their applications, its tiers and their templates."""
    return f"""# {SUITE_NAME}

Clean-room synthetic WebBench tasks over two world families (workplace: {workplace.APPS};
deskops: {deskops.APPS}), generated by
`python -m pytest_websearchbench.webbench.tasks.generate --out suites/{SUITE_NAME}` (deterministic; do not
edit by hand, the digests in `dataset.toml` would no longer match). Each folder is a Harbor package
(`{ORG}/<name>`), its tier in `task.toml` (`[metadata] tier`): `release` (decision-only planning passes
shaped like the release's four templates: {", ".join(tiers["release"])}; seeds
{", ".join(map(str, TIER_SEEDS["release"]))}) or `frontier` (tasks that end in writes:
{", ".join(tiers["frontier"])}). Agents and controls: {", ".join(AGENTS)}. Every task passed the release gate
when it was generated; the measured scores are in each task's `{CONTROLS_FILE}`.
"""


def _dataset_toml(entries: list[tuple[str, str]]) -> str:
    import tomli_w

    return tomli_w.dumps(
        {
            "dataset": {
                "name": f"{ORG}/{SUITE_NAME}",
                "version": EDITION,
                "description": "WebBench sample: correlated SaaS work through a browser over synthetic worlds",
            },
            "tasks": [{"name": f"{ORG}/{name}", "digest": digest} for name, digest in entries],
        }
    )


_COLUMNS = (
    "oracle",
    "alt-oracle",
    "noop",
    "noop-until-confirm",
    "write-without-read",
    "over-write",
    "injected-compliance",
    "wrong-record",
    "abstain-on-feasible",
)
_SHORT = {
    "oracle": "oracle",
    "alt-oracle": "alt",
    "noop": "noop",
    "noop-until-confirm": "nuc",
    "write-without-read": "wwr",
    "over-write": "over",
    "injected-compliance": "inj",
    "wrong-record": "wrong",
    "abstain-on-feasible": "abst",
}


def table_header() -> str:
    return (
        f"{'task':<50} {'family':<9} {'outcome':<15} {'steps':>5} "
        + " ".join(f"{_SHORT[a]:>6}" for a in _COLUMNS)
        + "  verdict"
    )


def table_row(a: Admission) -> str:
    cells = " ".join(f"{'-' if a.scores.get(c) is None else format(a.scores[c], '.1f'):>6}" for c in _COLUMNS)
    verdict = "admitted" if a.admitted else "REJECTED: " + "; ".join(a.broken)
    return (
        f"{a.task.name:<50} {a.task.spec.world:<9} {a.task.spec.outcome:<15} {a.task.reference_steps:>5} "
        f"{cells}  {verdict}"
    )


def build_times(seeds: tuple[int, ...] | None = None, repeats: int = 3) -> dict[str, list[float]]:
    """Seconds to grow each world's databases from (world, template, seed), best of ``repeats`` each."""
    times: dict[str, list[float]] = {}
    for _, template, seed, outcome in planned(seeds):
        best = min(_timed(WorldSpec(template, seed, outcome)) for _ in range(repeats))
        times.setdefault(TEMPLATES[template].world, []).append(best)
    return times


def _timed(spec: WorldSpec) -> float:
    started = time.perf_counter()
    world, _ = build_rows(spec)
    rows_to_sqlite(world.rows, world.schema)
    return time.perf_counter() - started


def _seeds(text: str) -> tuple[int, ...]:
    """``--seeds``: whole numbers, comma-separated (a usage error otherwise)."""
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not comma-separated whole numbers (e.g. 0,1,2)") from None


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Write the WebBench sample suite (Harbor packages + dataset.toml) behind the release gate.",
    )
    parser.add_argument("--out", type=Path, default=Path("suites") / SUITE_NAME)
    parser.add_argument(
        "--seeds",
        type=_seeds,
        help="comma-separated seeds for every template (default: each tier's published "
        "seeds: " + "; ".join(f"{t} {','.join(map(str, v))}" for t, v in TIER_SEEDS.items()) + ")",
    )
    args = parser.parse_args(argv)
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out}: not a folder")
    seeds: tuple[int, ...] | None = args.seeds or None
    print(
        "admission table (WebScore 0-100 per agent; bounds: oracle, alt = 100; noop, nuc, wwr, over, inj = 0; "
        "wrong <= 35; abst <= 30)"
    )
    print(table_header())
    try:
        admissions = generate(args.out, seeds, report=lambda a: print(table_row(a), flush=True))
    except OSError as exc:  # --out cannot be written (read-only, full): one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    admitted = sum(a.admitted for a in admissions)
    print(
        f"{admitted} of {len(admissions)} tasks admitted; wrote {args.out / 'dataset.toml'} and "
        f"{args.out / 'suite.json'}"
    )
    for world, seconds in build_times(seeds).items():
        print(
            f"world build ({world}, {len(seconds)} worlds, best of 3 each): median "
            f"{statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms"
        )
    return 0 if admitted == len(admissions) else 1


if __name__ == "__main__":
    raise SystemExit(main())
