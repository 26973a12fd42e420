"""Exceptions raised by the plugin; each names what the user has to fix."""

from __future__ import annotations

import os


class WebSearchBenchError(Exception):
    """Base class of every error the plugin raises on purpose."""


class SuiteError(WebSearchBenchError):
    """A suite file is missing or malformed; the message names file, line and field."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        item: str | None = None,
    ) -> None:
        self.path = str(path)
        self.line = line
        self.field = field
        self.item = item
        where = self.path + (f":{line}" if line is not None else "")
        which = "".join(f" {label} {value!r}" for label, value in (("item", item), ("field", field)) if value)
        super().__init__(f"{where}:{which + ':' if which else ''} {message}")


class ProviderError(WebSearchBenchError):
    """A provider call failed for good (after retries); the message keeps its reason.

    ``kind`` names the outcome for reports and the results file: ``http`` (an error status,
    ``status`` set), ``timeout``, ``connection``, ``malformed_json``, ``bad_response`` (a field
    is missing or of the wrong type), ``fetch_failed``, ``missing_key`` or ``provider``. ``url`` is
    the endpoint that answered an error status (or the page that could not be fetched) and
    ``detail`` the reason in the vendor's own words, without this plugin's framing.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str = "provider",
        status: int | None = None,
        attempts: int | None = None,
        url: str | None = None,
        detail: str | None = None,
    ):
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.attempts = attempts
        self.url = url
        self.detail = detail


class ConfigurationError(WebSearchBenchError):
    """An option or ini value is invalid."""
