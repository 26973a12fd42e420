"""docs/ci.md's workflows are whole YAML documents, and every option they give pytest is one the plugin has (the
generated docs/reference/options.md lists each) or pytest's own."""

from __future__ import annotations

import re

import yaml

from conftest import REPO

PAGE = REPO / "docs" / "ci.md"
PYTEST_OPTIONS = {"--junitxml", "--suite", "--provider"}


def recipes() -> list[dict]:
    text = PAGE.read_text("utf-8")
    return [yaml.safe_load(block) for block in re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)]


def test_the_page_has_a_github_workflow_and_a_gitlab_pipeline():
    github, gitlab = recipes()
    assert set(github["jobs"]) == {"replay", "live"}
    assert {"replay", "replay-baseline", "live"} <= set(gitlab)
    for job in github["jobs"].values():
        uses = [step.get("uses", "") for step in job["steps"]]
        assert any(u.startswith("actions/cache/restore") for u in uses)
        assert any(u.startswith("actions/cache/save") for u in uses)
        assert any(u.startswith("actions/upload-artifact") for u in uses)
        assert any("pip install" in step.get("run", "") for step in job["steps"])
    replay = " ".join(step.get("run", "") for step in github["jobs"]["replay"]["steps"])
    assert "--wsb-record-mode=none" in replay and "secrets." not in str(github["jobs"]["replay"])
    assert gitlab["replay"]["artifacts"]["reports"]["junit"] == "reports/junit.xml"


def test_every_option_in_the_recipes_is_a_real_one():
    options = (REPO / "docs" / "reference" / "options.md").read_text("utf-8")
    known = set(re.findall(r"`(--[a-z][a-z0-9-]*)", options)) | PYTEST_OPTIONS
    used = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", PAGE.read_text("utf-8")))
    assert used, "no option found on the page"
    assert not used - known, f"options on docs/ci.md that the plugin does not have: {sorted(used - known)}"
