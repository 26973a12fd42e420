"""pytest-websearchbench: web-search and web-agent benchmarks as pytest suites."""

from pytest_websearchbench.codebench.grader import CodeVerdict, grade_code_answer
from pytest_websearchbench.core.models import Hit, Page

__version__ = "0.1.0"
__all__ = ["CodeVerdict", "Hit", "Page", "__version__", "grade_code_answer"]
