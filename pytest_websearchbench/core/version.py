"""The plugin's version (pyproject.toml reads it from here)."""

__version__ = "0.1.0"
"""The plugin's version, as its package metadata gives it.

Examples:
    >>> from importlib.metadata import version
    >>> from pytest_websearchbench.api import __version__
    >>> __version__ == version("pytest-websearchbench")
    True
"""
