"""Exceptions raised by the plugin; each names what the user has to fix."""

from __future__ import annotations


class WebSearchBenchError(Exception):
    """Base class of every error the plugin raises on purpose."""


class SuiteError(WebSearchBenchError):
    """A suite file is missing or malformed; the message names file, line and field."""

    def __init__(self, path, message: str, *, line: int | None = None, field: str | None = None,
                 item: str | None = None):
        self.path = str(path)
        self.line = line
        self.field = field
        self.item = item
        where = self.path + (f":{line}" if line is not None else "")
        which = f" item {item!r}" if item else ""
        what = f" field {field!r}" if field else ""
        super().__init__(f"{where}:{which}{what}: {message}")


class ProviderError(WebSearchBenchError):
    """A provider call failed for good (after retries); the message keeps its reason."""


class ConfigurationError(WebSearchBenchError):
    """An option or ini value is invalid."""
