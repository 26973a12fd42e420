"""The one secret scrubber: API keys replaced by ``<FILTERED>`` in any text, in every form they
may take there (as is, percent-encoded once or twice, JSON-escaped, HTML character references,
base64 alone or inside a longer value such as ``Bearer KEY`` or ``user:KEY``), whoever writes it —
cassettes, error messages, results files, and every log record (httpx logs request URLs, and some
APIs take the key as a query parameter and echo it back). A document is scrubbed value by value
before it is serialised (``scrub_value``): serialising first would escape the escaped forms again.

Providers' ``secrets()`` are registered when they are created; a log-record factory replaces
each registered value in the formatted message before any handler sees it.

Where a key is replaced depends on whether it can be told apart from data (``telling``: 12 characters or
more, not a plain word or number). Errors and logs are scrubbed of every key everywhere (``scrub``): they
are never scored. A cassette (its requests and answers), a provider's answer as it is parsed, and the
results file and reports that show it are scrubbed only of echoes (``echoes=True``): a telling key wherever
it is, any other only where it stands as a credential's value (``api_key=1921``, ``"token": "1921"``,
``Bearer 1921``; the cassette filter also filters credential headers, parameters and fields by name). A key
that is also a word of the data (``SERPER_API_KEY=1921``) would otherwise be cut out of the answer it is
scored from (a factual item's answer 1921 gone), live and in replay, and out of a recorded query, which a
replay without the key then cannot match.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

FILTERED = "<FILTERED>"
#: shorter values would filter common words (and match inside every text)
MIN_LENGTH = 4
#: a key this long and not a plain word or number (``telling``) is no word of any answer: an answer holding
#: it echoes it, and it is scrubbed from answers and reports wherever it is
TELLING_LENGTH = 12
#: names a credential goes by as a query parameter, header or field (any case, ``-`` or ``_``): a key that
#: is not ``telling`` is scrubbed from an answer or a report only as the value of one of these
CREDENTIAL_NAMES = (
    "api_key",
    "apikey",
    "x_api_key",
    "key",
    "token",
    "access_token",
    "auth",
    "authorization",
    "x_subscription_token",
    "x_goog_api_key",
    "subscription_key",
    "cx",
)
_LOCK = threading.Lock()
_SECRETS: list[str] = []
_INSTALLED = False


#: characters HTML escapes by name (Jinja2 and markupsafe write the others numerically)
_HTML_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
#: base64 of a value inside a longer one is looked for only when this long: shorter runs of
#: base64 characters turn up by chance
MIN_EMBEDDED_BASE64 = 8


@functools.lru_cache(maxsize=256)
def pattern(value: str) -> re.Pattern[str]:
    """Every form of a secret in text. Each character as is, percent-encoded (either case of hex,
    so ``quote`` with any ``safe`` set, ``quote_plus`` and servers that lower-case escapes all
    match) once or twice (``%2541``), ``+`` for a space, JSON-escaped (``\\uXXXX``, ``\\/``) or an
    HTML character reference (``&#115;``, ``&#x73;``, ``&amp;``); or the value in base64 (standard,
    URL-safe, unpadded), alone or at any offset of a longer encoded value.

    Every alternative starts with a literal character, the first character's forms spelled out one
    alternative each (``(a|b)R`` is ``aR|bR``, tried in the same order): then the regex engine skips
    ahead to the characters a match can start with instead of trying every form at every position,
    many times faster over the long texts scrubbed (a model agent's every request holds its whole
    conversation)."""
    chars = [_forms(char) for char in value]
    rest = "".join("(?:" + "|".join(forms) + ")" for forms in chars[1:])
    return re.compile("|".join([*(form + rest for form in chars[0]), *map(re.escape, _base64_forms(_utf8(value)))]))


def _forms(char: str) -> list[str]:
    """The regexes of one character's forms, sorted, each starting with a literal character."""
    utf8 = _utf8(char)
    forms = {
        re.escape(char),
        re.escape(json.dumps(char)[1:-1]),  # "\\n", "\\ud83d\\ude00"…
        "".join(f"%{_any_case(f'{byte:02x}')}" for byte in utf8),
        "".join(f"%25{_any_case(f'{byte:02x}')}" for byte in utf8),
        f"&#0*{ord(char)};",
        f"&#[xX]0*{_any_case(f'{ord(char):x}')};",
    }
    if ord(char) <= 0xFFFF:
        forms.add(f"\\\\[uU]{_any_case(f'{ord(char):04x}')}")
    if char in _HTML_NAMED:
        forms.add(re.escape(_HTML_NAMED[char]))
    forms.update({" ": [r"\+", "%2[bB]"], "/": [r"\\/"]}.get(char, []))
    return sorted(forms)


def _any_case(hex_digits: str) -> str:
    """Hex digits in either case, without a case-insensitive group (a match could not start with one)."""
    return "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in hex_digits)


def _base64_forms(raw: bytes) -> list[str]:
    """The value's base64, whole (padded, then unpadded), then the characters that encode only the
    value when it starts 0, 1 or 2 bytes into a longer encoded value (``Bearer KEY``, ``user:KEY``):
    the first characters of a shifted value also encode the bytes before it and its last one the
    bytes after it, so they are left out. Longest first."""
    forms = []
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(raw).decode("ascii")
        forms += [whole, whole.rstrip("=")]
        for offset, skip in ((0, 0), (1, 2), (2, 3)):
            core = encode(bytes(offset) + raw).decode("ascii").rstrip("=")[skip:]
            if (offset + len(raw)) % 3:
                core = core[:-1]
            if len(core) >= MIN_EMBEDDED_BASE64:
                forms.append(core)
    return sorted(dict.fromkeys(forms), key=len, reverse=True)


def _utf8(text: str) -> bytes:
    """The bytes a value is sent as; an environment variable's undecodable bytes come back as they were."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def telling(value: str) -> bool:
    """Whether a key can be told apart from the data it could appear in: ``TELLING_LENGTH`` characters or
    more and not a plain word or number (every provider's keys mix letters and digits)."""
    return len(value) >= TELLING_LENGTH and not value.isalpha() and not value.isdigit()


def untelling_reason(value: str) -> str | None:
    """Why a key cannot be told apart from data (``telling``), in words; None when it can."""
    if telling(value):
        return None
    if len(value) < TELLING_LENGTH:
        return f"is {len(value)} character{'s' if len(value) != 1 else ''}: too short"
    return f"is a plain {'word' if value.isalpha() else 'number'}: too plain"


@functools.lru_cache(maxsize=256)
def keyed_pattern(value: str) -> re.Pattern[str]:
    """A key's forms (``pattern``) where it stands as a credential's value: after one of
    ``CREDENTIAL_NAMES`` and ``=`` or ``:`` (as is, percent-encoded once or twice, quoted, JSON-escaped),
    optionally ``Bearer ``; not followed by a letter or digit (``api_key=19210`` is not the key 1921).
    The name and separator are group 1, kept."""
    names = "|".join(name.replace("_", "[-_]") for name in CREDENTIAL_NAMES)
    quote = r"(?:\\?[\"']|%22|%27)?"
    separator = r"(?:=|:|%3[dD]|%253[dD]|%3[aA]|%253[aA])"
    prefix = (
        rf"((?<![A-Za-z0-9_-])(?i:{names}){quote}\s*{separator}\s*{quote}(?i:(?:bearer|basic|token)(?:\s|\+|%20)+)?)"
    )
    return re.compile(rf"{prefix}(?:{pattern(value).pattern})(?![A-Za-z0-9])")


def register_secrets(values: Iterable[str]) -> None:
    """Remember values that must never be logged (empty and very short values are ignored)."""
    with _LOCK:
        for value in values:
            if value and len(value) >= MIN_LENGTH and value not in _SECRETS:
                _SECRETS.append(value)


def registered_secrets() -> int:
    """How many secrets are registered: a mark for ``forget_secrets``."""
    with _LOCK:
        return len(_SECRETS)


def forget_secrets(after: int) -> None:
    """Forget the secrets registered after the first ``after``: a pytest session's, when it ends.
    Pytester and IDE runners run many sessions in one process, and every scrub tries every secret."""
    with _LOCK:
        del _SECRETS[after:]


def scrub(text: str, extra: Iterable[str] = (), *, echoes: bool = False) -> str:
    """``text`` with every registered (and every ``extra``) secret replaced by ``<FILTERED>``; with
    ``echoes``, only their echoes (a provider's answer, a report: see the module docstring)."""
    return text_scrubber(extra, echoes=echoes)(text)


def text_scrubber(extra: Iterable[str] = (), *, echoes: bool = False) -> Callable[[str], str]:
    """``scrub`` with its patterns prepared once, for many texts scrubbed with the same secrets."""
    patterns = _patterns(extra, echoes)
    return lambda text: _scrub_with(text, patterns)


def scrub_value(value: Any, extra: Iterable[str] = (), *, echoes: bool = False) -> Any:
    """A JSON-able value (dicts, lists, strings, numbers…) with every string in it — keys too —
    scrubbed, for serialising next: after ``json.dumps`` a JSON-escaped key's backslashes are
    doubled and no longer read as its form."""
    return value_scrubber(extra, echoes=echoes)(value)


def value_scrubber(extra: Iterable[str] = (), *, echoes: bool = False) -> Callable[[Any], Any]:
    """``scrub_value`` with its patterns prepared once, for a document scrubbed a piece at a time. With no secret
    to look for, each value is handed back as it is (not a copy: it is read, then serialised)."""
    patterns = _patterns(extra, echoes)
    if not patterns:
        return _as_it_is

    def clean(item: Any) -> Any:
        if isinstance(item, str):
            return _scrub_with(item, patterns)
        if isinstance(item, dict):
            return {clean(k): clean(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [clean(v) for v in item]
        return item

    return clean


def _as_it_is(item: Any) -> Any:
    return item


def _patterns(extra: Iterable[str], echoes: bool = False) -> list[re.Pattern[str]]:
    with _LOCK:
        values = {*_SECRETS, *(s for s in extra if s and len(s) >= MIN_LENGTH)}
    # longest values first: a secret that contains another is filtered whole
    ordered = sorted(values, key=lambda value: (-len(value), value))
    if not echoes:
        return [pattern(value) for value in ordered]
    return [pattern(value) if telling(value) else keyed_pattern(value) for value in ordered]


def _scrub_with(text: str, patterns: list[re.Pattern[str]]) -> str:
    for secret in patterns:
        # a keyed pattern keeps the credential's name (its group 1); a plain one has no group
        text = secret.sub(_keep_name if secret.groups else FILTERED, text)
    return text


def _keep_name(match: re.Match[str]) -> str:
    return match.group(1) + FILTERED


def install_log_scrubber() -> None:
    """Wrap the logging record factory once per process."""
    global _INSTALLED
    with _LOCK:
        if _INSTALLED:
            return
        _INSTALLED = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
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
