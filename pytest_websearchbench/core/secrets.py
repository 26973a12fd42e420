"""The one secret scrubber: API keys replaced by ``<FILTERED>`` in any text, in every form they
may take there (as is, percent-encoded, JSON-escaped, base64), whoever writes it — cassettes, error
messages, and every log record (httpx logs request URLs, and some APIs take the key as a query
parameter and echo it back).

Providers' ``secrets()`` are registered when they are created; a log-record factory replaces
each registered value in the formatted message before any handler sees it.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import re
import threading

FILTERED = "<FILTERED>"
#: shorter values would filter common words (and match inside every text)
MIN_LENGTH = 4
_LOCK = threading.Lock()
_SECRETS: list[re.Pattern[str]] = []
_INSTALLED = False


@functools.lru_cache(maxsize=256)
def pattern(value: str) -> re.Pattern[str]:
    """Every form of a secret in text. Each character as is, percent-encoded (either case of hex,
    so ``quote`` with any ``safe`` set, ``quote_plus`` and servers that lower-case escapes all
    match), ``+`` for a space, or JSON-escaped (``\\uXXXX``, ``\\/``); or the whole value in
    base64 (standard, URL-safe, unpadded: a basic-auth header or an encoded body)."""
    chars = []
    for char in value:
        forms = {re.escape(char), re.escape(json.dumps(char)[1:-1]),  # "\\n", "\\ud83d\\ude00"…
                 "(?i:" + "".join(f"%{byte:02x}" for byte in _utf8(char)) + ")"}
        if ord(char) <= 0xFFFF:
            forms.add(f"(?i:\\\\u{ord(char):04x})")
        forms.update({" ": [r"\+"], "/": [r"\\/"]}.get(char, []))
        chars.append("(?:" + "|".join(sorted(forms)) + ")")
    raw = _utf8(value)
    encoded = sorted({base64.b64encode(raw).decode("ascii"), base64.urlsafe_b64encode(raw).decode("ascii")},
                     key=len, reverse=True)
    encoded += [e.rstrip("=") for e in encoded if e.endswith("=")]  # after the padded forms: longest first
    return re.compile("|".join(["".join(chars), *map(re.escape, encoded)]))


def _utf8(text: str) -> bytes:
    """The bytes a value is sent as; an environment variable's undecodable bytes come back as they were."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def register_secrets(values) -> None:
    """Remember values that must never be logged (empty and very short values are ignored)."""
    with _LOCK:
        for value in values:
            if value and len(value) >= MIN_LENGTH and pattern(value) not in _SECRETS:
                _SECRETS.append(pattern(value))


def scrub(text: str, extra: list[str] | tuple[str, ...] = ()) -> str:
    """``text`` with every registered (and every ``extra``) secret replaced by ``<FILTERED>``."""
    patterns = [*_SECRETS, *(pattern(s) for s in extra if s and len(s) >= MIN_LENGTH)]
    # longest values first: a secret that contains another is filtered whole
    for secret in sorted(set(patterns), key=lambda p: len(p.pattern), reverse=True):
        text = secret.sub(FILTERED, text)
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
