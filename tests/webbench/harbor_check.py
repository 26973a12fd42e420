"""Run inside a Python 3.12 venv that has ``harbor`` installed (never imported by pytest): Harbor's own
task loader, dataset manifest and digests, and ``harbor lint`` on a dataset folder. Prints one JSON
object: {"loaded": [...], "manifest_errors": [...], "digests": {name: [recorded, harbor's]}, "lint": {...}}.

    python harbor_check.py DATASET_FOLDER
"""

import json
import subprocess
import sys
from pathlib import Path

from harbor.models.dataset.manifest import DatasetManifest
from harbor.models.task.config import TaskConfig
from harbor.models.task.task import Task
from harbor.publisher.packager import Packager

folder = Path(sys.argv[1])
out = {"loaded": [], "load_errors": [], "manifest_errors": [], "digests": {}, "lint": {}}
try:
    manifest = DatasetManifest.from_toml_file(folder / "dataset.toml")
except Exception as exc:  # pydantic's message lists every bad field
    out["manifest_errors"].append(str(exc))
    manifest = None
# as `harbor sync` does: a task is the child folder whose task.toml carries its [task] name
local = {}
for child in sorted(p for p in folder.iterdir() if (p / "task.toml").is_file()):
    try:
        task = Task(child)
        out["loaded"].append(task.name)
        local[TaskConfig.model_validate_toml((child / "task.toml").read_text()).task.name] = child
    except Exception as exc:
        out["load_errors"].append(f"{child.name}: {exc}")
for ref in manifest.tasks if manifest else []:
    harbor_digest = f"sha256:{Packager.compute_content_hash(local[ref.name])[0]}" if ref.name in local else None
    out["digests"][ref.name] = [ref.digest, harbor_digest]
lint = subprocess.run(
    [str(Path(sys.executable).with_name("harbor")), "lint", *map(str, local.values())], capture_output=True, text=True
)
out["lint"] = {"returncode": lint.returncode, "output": (lint.stdout + lint.stderr).strip()}
print(json.dumps(out))
