"""Where an item's cassette is, and how to name the item on a command line that records it again: the
tests (run/runner.py) and the live phase (run/live/) say the same."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.cassettes.recorder import cassette_path
from pytest_websearchbench.core.bundled import BUNDLED_CASSETTES_DIR, BUNDLED_SUITES_DIR
from pytest_websearchbench.core.options import CassetteMode, Settings
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest

if TYPE_CHECKING:
    from pytest_websearchbench.run.spec import ItemSpec


def cassette_for(spec: ItemSpec, settings: Settings) -> Path:
    """The item's cassette in the cassette folder; for a suite that ships with the plugin, the
    cassette shipped beside it when the folder has none, was not named by the user, and the run may
    replay it (so an installed plugin replays its bundled suites from any folder, offline)."""
    folder = spec.family.cassette_folder(spec.variant)
    path = cassette_path(settings.cassette_dir, spec.suite.name, folder, spec.case.id)
    if (
        path.is_file()
        or settings.cassette_dir_given
        or settings.record_mode not in (CassetteMode.NONE, CassetteMode.ONCE)
        or not spec.suite.manifest.folder.resolve().is_relative_to(BUNDLED_SUITES_DIR)
    ):
        return path
    shipped = cassette_path(BUNDLED_CASSETTES_DIR, spec.suite.name, folder, spec.case.id)
    return shipped if shipped.is_file() else path


def rerecord_command(spec: ItemSpec, settings: Settings) -> str:
    """The command that records this item's cassette anew, into the same folder: the item by its id
    (``-k`` could match other items, and rewrite replaces the cassettes of all it matches)."""
    item = f"{suite_argument(spec.suite.manifest)}::{spec.case.id}[{spec.variant}]"
    return (
        f"pytest {shlex.quote(item)} --provider {spec.variant}{spec.family.record_args()}"
        f"{settings.cassette_args()} --wsb-record-mode=rewrite"
    )


def suite_argument(manifest: SuiteManifest) -> str:
    """How to name this suite on the command line: its folder (or manifest-less file), relative if possible."""
    target = manifest.folder if manifest.path.name == MANIFEST_NAME else manifest.path
    try:
        return str(target.relative_to(Path.cwd()))
    except ValueError:
        return str(target)
