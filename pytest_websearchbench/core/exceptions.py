"""Exceptions raised by the plugin; each names what the user has to fix."""

from __future__ import annotations

import os


class WebSearchBenchError(Exception):
    """Base class of every error the plugin raises on purpose.

    Examples:
        A script that drives the plugin's parts catches the plugin's errors apart from bugs:

        >>> from pytest_websearchbench.api import ConfigurationError, ProviderError, SuiteError, WebSearchBenchError
        >>> all(issubclass(kind, WebSearchBenchError) for kind in (ConfigurationError, ProviderError, SuiteError))
        True
        >>> try:
        ...     raise ProviderError("acme: HTTP 503 from POST /v1/search: busy", kind="http", status=503)
        ... except WebSearchBenchError as exc:
        ...     print(f"stopped: {exc}")
        stopped: acme: HTTP 503 from POST /v1/search: busy
    """


class SuiteError(WebSearchBenchError):
    """A suite file is missing or malformed; the message names file, line and field.

    Examples:
        What a family's ``load`` raises for a bad row:

        >>> from pytest_websearchbench.api import SuiteError
        >>> error = SuiteError("suites/tides/items.jsonl", "expected a string, got 3", line=4, field="query")
        >>> print(error)
        suites/tides/items.jsonl:4: field 'query': expected a string, got 3
        >>> error.line, error.field
        (4, 'query')
    """

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

    Examples:
        An adapter raises one through ``HttpProvider.fail`` (named after the provider, keys scrubbed); its
        ``kind`` is the item's outcome in the reports:

        >>> from pytest_websearchbench.api import ProviderError
        >>> error = ProviderError(
        ...     "acme: could not fetch https://example.org/gone: HTTP 410",
        ...     kind="fetch_failed",
        ...     status=410,
        ...     url="https://example.org/gone",
        ...     detail="Gone",
        ... )
        >>> error.kind, error.status, error.detail
        ('fetch_failed', 410, 'Gone')
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
    """An option or ini value is invalid.

    Examples:
        A provider's option read with a value outside its choices:

        >>> from pytest_websearchbench.api import ConfigurationError, Option, ProviderContext
        >>> context = ProviderContext("acme", {"WSB_ACME_REGION": "mars"}, ini=lambda key: "", calls_out=False)
        >>> try:
        ...     Option("region", choices=("eu", "us")).read(context)
        ... except ConfigurationError as exc:
        ...     print(exc)
        acme: option region='mars' is not one of eu, us (set by WSB_ACME_REGION or ini wsb_acme_region)
    """
