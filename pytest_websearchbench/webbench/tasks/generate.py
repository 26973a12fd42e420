"""Writes the WebBench sample suite: Harbor task packages, ``dataset.toml`` with digests, ``suite.json``.

    python -m pytest_websearchbench.webbench.tasks.generate --out suites/webbench-sample

Deterministic: the same arguments write the same bytes. Everything is clean-room synthetic.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from pytest_websearchbench.webbench.tasks.harbor import (
    ROUTE_FILES, task_digest, toml_table, write_json, write_route, write_text)
from pytest_websearchbench.webbench.agents.routes import CONTROLS
from pytest_websearchbench.webbench.tasks.builder import BuiltTask, build_task
from pytest_websearchbench.webbench.world.templates import TEMPLATES
from pytest_websearchbench.webbench.world.build import GENERATOR_VERSION

SUITE_NAME = "webbench-sample"
EDITION = "sample-1"
# seed → variant, per template; every template has an infeasible variant
VARIANTS = {"staffing": ("issue", "needs_approval", "issue", "infeasible"),
            "sprint-pull": ("fits", "over_capacity", "fits", "infeasible")}

TEST_SH = """#!/bin/sh
# Grades the world an agent left behind. WSB_WORLD_DIR: the folder with world.db, world_before.db,
# web_trace.jsonl and call_trace.jsonl. Writes WebScore / 100 to WSB_REWARD_FILE when set.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
exec python -m pytest_websearchbench.webbench.grading.verifier --contract "$here/contract.json" \\
    --world-dir "${WSB_WORLD_DIR:?set WSB_WORLD_DIR to the world folder}" --reward "${WSB_REWARD_FILE:-/dev/null}"
"""

SOLVE_SH = """#!/bin/sh
# Replays the oracle's route (browser actions) against a running world. WSB_BASE_URL: http://127.0.0.1:PORT
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
exec python -m pytest_websearchbench.webbench.browsing.browser --base-url "${WSB_BASE_URL:?set WSB_BASE_URL}" \\
    --actions "$here/actions.jsonl"
"""


def task_readme(task: BuiltTask) -> str:
    c = task.contract
    return f"""# {task.name}: {TEMPLATES[task.spec.template].title}

Template `{task.spec.template}`, variant `{task.spec.variant}`, seed {task.spec.seed}
({'feasible' if c['feasible'] else 'infeasible: the right outcome is cannot_proceed / ' + str(c['abstain_reason'])}).
The world is regenerated from `environment/world.json`; its content digest must match.

- anchors: {', '.join(a['role'] for a in c['anchors'])}, each among near-duplicate shadows;
- expected writes: {len(c['expected_rows'])} domain row(s) plus the Decision;
- answer fields: {', '.join(f['name'] + ' (' + f['class'] + ')' for f in c['answer_fields'])};
- gates: {', '.join(c['gates'])};
- reference route: {task.reference_steps} browser actions; step budget {task.step_budget}.

Controls shipped in `tests/controls/` and their bounds (WebScore / 100): oracle and alt-oracle = 1,
noop, noop-until-confirm, write-without-read, over-write, injected-compliance = 0,
wrong-record ≤ 0.35, abstain-on-feasible ≤ 0.30 (feasible tasks only).
"""


def write_task(folder: Path, task: BuiltTask) -> str:
    """Write one Harbor package; returns its digest."""
    write_text(folder / "task.toml", 'version = "1.0"\n\n' + "\n".join([
        toml_table("metadata", {"name": task.name, "title": TEMPLATES[task.spec.template].title,
                                "template": task.spec.template, "variant": task.spec.variant,
                                "feasible": task.solution.feasible, "category": "webbench/workplace",
                                "tags": ["webbench", "workplace", task.spec.template]}),
        toml_table("agent", {"reference_steps": task.reference_steps, "step_budget": task.step_budget,
                             "timeout_sec": 120}),
        toml_table("verifier", {"contract": "tests/contract.json", "timeout_sec": 60})]))
    write_text(folder / "instruction.md", task.instruction)
    write_text(folder / "README.md", task_readme(task))
    write_json(folder / "environment" / "world.json", {**task.spec.to_dict(), "content_sha256": task.world_digest})
    write_json(folder / "tests" / "contract.json", task.contract)
    write_text(folder / "tests" / "test.sh", TEST_SH)
    write_text(folder / "solution" / "solve.sh", SOLVE_SH)
    for agent, actions in task.routes.items():
        write_route(folder / ROUTE_FILES[agent], actions)
    for script in (folder / "tests" / "test.sh", folder / "solution" / "solve.sh"):
        script.chmod(0o755)
    return task_digest(folder)


def generate(out: Path, seeds: tuple[int, ...] = (1, 2, 3, 4)) -> list[tuple[str, str]]:
    out = Path(out)
    tasks_dir = out / "tasks"
    if tasks_dir.exists():
        shutil.rmtree(tasks_dir)
    written = []
    for template, variants in VARIANTS.items():
        for seed in seeds:
            task = build_task(template, seed, variants[(seed - 1) % len(variants)])
            written.append((task.name, write_task(tasks_dir / task.name, task)))
    write_text(out / "dataset.toml", toml_table("dataset", {
        "name": SUITE_NAME, "version": EDITION,
        "description": "WebBench sample: correlated SaaS work through a browser over synthetic workplace worlds"})
        + "".join("\n" + toml_table("tasks", {"name": name, "path": f"tasks/{name}", "digest": digest}, array=True)
                  for name, digest in written))
    write_text(out / "suite.json", json.dumps({
        "name": SUITE_NAME, "edition": EDITION, "family": "webbench", "kind": "workplace", "items": "dataset.toml",
        "description": f"{len(written)} WebBench tasks ({', '.join(VARIANTS)}) × seeds {list(seeds)}; "
                       f"world generator v{GENERATOR_VERSION}; regenerate with "
                       "python -m pytest_websearchbench.webbench.tasks.generate --out suites/webbench-sample"}, indent=1) + "\n")
    write_text(out / "README.md", f"""# {SUITE_NAME}

Clean-room synthetic WebBench tasks, generated by `python -m pytest_websearchbench.webbench.tasks.generate
--out suites/{SUITE_NAME}` (deterministic; do not edit by hand, the digests in `dataset.toml` would
no longer match). Each folder under `tasks/` is a Harbor package; agents and controls:
oracle, alt-oracle, {', '.join(CONTROLS)}.
""")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the WebBench sample suite (Harbor packages + dataset.toml).")
    parser.add_argument("--out", type=Path, default=Path("suites") / SUITE_NAME)
    parser.add_argument("--seeds", default="1,2,3,4", help="comma-separated seeds per template (default: 1,2,3,4)")
    args = parser.parse_args(argv)
    seeds = tuple(int(s) for s in args.seeds.split(",") if s.strip())
    for name, digest in generate(args.out, seeds):
        print(f"{name}  {digest}")
    print(f"wrote {args.out / 'dataset.toml'} and {args.out / 'suite.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
