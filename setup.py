"""Packaging only: the wheel carries the bundled suites and cassettes inside the package
(``pytest_websearchbench/_bundled/``), so ``pip install`` then ``pytest --suite NAME`` works from
any folder, offline. Everything else is declared in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUNDLED = ("suites", "cassettes")


class BuildWithBundledData(build_py):
    def run(self):
        super().run()
        for name in BUNDLED:
            target = Path(self.build_lib, "pytest_websearchbench", "_bundled", name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(name, target)


setup(cmdclass={"build_py": BuildWithBundledData})
