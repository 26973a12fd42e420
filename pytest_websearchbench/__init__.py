"""pytest-websearchbench: web-search and web-agent benchmarks as pytest suites."""

from pytest_websearchbench.models import Hit, Page

__version__ = "0.1.0"
__all__ = ["Hit", "Page", "__version__"]
