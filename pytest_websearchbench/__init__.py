"""pytest-websearchbench: web-search and web-agent benchmarks as pytest suites."""

from typing import TYPE_CHECKING, Any

from pytest_websearchbench.core.version import __version__

if TYPE_CHECKING:
    from pytest_websearchbench.core.models import Hit, Page

__all__ = ["CodeVerdict", "Hit", "Page", "__version__", "grade_code_answer"]


def __getattr__(name: str) -> Any:
    # imported on first use: `import pytest_websearchbench` (every pytest start, through the plugin) stays cheap
    # and the package's face imports no family (the code judge) nor the value types (the first item's)
    if name in ("CodeVerdict", "grade_code_answer"):
        from pytest_websearchbench.codebench import grader

        return getattr(grader, name)
    if name in ("Hit", "Page"):
        from pytest_websearchbench.core import models

        return getattr(models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
