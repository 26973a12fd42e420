"""The one secret scrubber: API keys replaced by ``<FILTERED>`` in any text, in every form they
may take there (as is, percent-encoded, base64), whoever writes it — cassettes, error messages,
and every log record (httpx logs request URLs, and some APIs take the key as a query parameter).

Providers' ``secrets()`` are registered when they are created; a log-record factory replaces
each registered value in the formatted message before any handler sees it.
"""

from __future__ import annotations

import base64
import logging
import threading
from urllib.parse import quote, quote_plus

FILTERED = "<FILTERED>"
_LOCK = threading.Lock()
_SECRETS: list[str] = []
_INSTALLED = False


def variants(value: str) -> set[str]:
    """A secret as it may appear in text: as is, URL-encoded (a query string echoed back), and
    base64 (a basic-auth header or an encoded body)."""
    if not value:
        return set()
    raw = value.encode("utf-8")
    return {value, quote(value, safe=""), quote_plus(value, safe=""), base64.b64encode(raw).decode("ascii"),
            base64.urlsafe_b64encode(raw).decode("ascii"), base64.b64encode(raw).decode("ascii").rstrip("=")}


def register_secrets(values) -> None:
    """Remember values that must never be logged (empty and very short values are ignored)."""
    with _LOCK:
        for value in values:
            if value and len(value) >= 4:
                _SECRETS.extend(v for v in variants(value) if v not in _SECRETS)
        _SECRETS.sort(key=len, reverse=True)


def scrub(text: str, extra: list[str] | tuple[str, ...] = ()) -> str:
    """``text`` with every registered (and every ``extra``) secret replaced by ``<FILTERED>``."""
    extras = {v for s in extra if s and len(s) >= 4 for v in variants(s)}
    for secret in sorted({*_SECRETS, *extras}, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, FILTERED)
    return text


def install_log_scrubber() -> None:
    """Wrap the logging record factory once per process."""
    global _INSTALLED
    with _LOCK:
        if _INSTALLED:
            return
        _INSTALLED = True
    previous = logging.getLogRecordFactory()

    def factory(*args, **kwargs):
        record = previous(*args, **kwargs)
        if _SECRETS:
            try:
                message = record.getMessage()
            except Exception:  # a malformed record stays as it is; logging reports it itself
                return record
            clean = scrub(message)
            if clean != message:
                record.msg, record.args = clean, None
        return record

    logging.setLogRecordFactory(factory)
