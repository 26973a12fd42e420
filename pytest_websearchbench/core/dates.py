"""Dates as search providers write them, read into one ``datetime.date``.

One parser for every provider's shapes, so a time window is never checked by comparing text:

- ISO 8601 dates and date-times (``2025-03-03``, ``2025-03-03T10:00:00Z``,
  ``2023-11-16T01:36:32.547Z``, ``2022-01-13 14:28:59``, ``2025-03-03T10:00:00+01:00``);
- a month name with day and year, either order (``Mar 3, 2025``, ``March 3 2025``,
  ``3 Mar 2025``, ``Tue, 3 Mar 2025``), English month names and their abbreviations;
- RFC 1123 / RFC 850 (``Tue, 10 Mar 2026 09:00:00 GMT``), the HTTP date;
- Unix seconds: a JSON number, or a string of at least nine digits (a bare year such as
  ``2025`` is not read as seconds after 1970);
- relative forms, resolved against ``received_at``, the time the answer was received:
  ``3 days ago``, ``2 hours ago``, ``an hour ago``, ``1 week ago``, ``2 months ago``,
  ``1 year ago``, ``today``, ``yesterday``. Without ``received_at`` they are unknown.

The date is the calendar date as written: a date-time with an offset keeps its own day (the
publisher's), Unix seconds and relative forms are read in UTC. Anything else — a bare year,
``March 2025``, another language's month names, garbage — is unknown (None), never guessed.
Pure and standard library only.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from email.utils import parsedate_to_datetime
from functools import lru_cache

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAY = r"(?:[a-z]{3,9},?\s+)?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_MONTH_DAY_YEAR = re.compile(
    rf"{_WEEKDAY}(?P<month>[a-z]{{3,9}})\.?\s+(?P<day>\d{{1,2}}){_ORDINAL},?\s+(?P<year>\d{{4}})"
)
_DAY_MONTH_YEAR = re.compile(
    rf"{_WEEKDAY}(?P<day>\d{{1,2}}){_ORDINAL}\s+(?P<month>[a-z]{{3,9}})\.?,?\s+(?P<year>\d{{4}})"
)
_CLOCK = re.compile(r"\d{1,2}:\d{2}")
_UNIX_SECONDS = re.compile(r"\d{9,}(?:\.\d+)?")
_AGO = re.compile(r"(?P<count>\d+|an?|one)\s+(?P<unit>sec|second|min|minute|hr|hour|day|week|month|year)s?\s+ago")
_UNIT_SECONDS = {
    "sec": 1,
    "second": 1,
    "min": 60,
    "minute": 60,
    "hr": 3600,
    "hour": 3600,
    "day": 86400,
    "week": 7 * 86400,
}
_DAYS_BACK = {"today": 0, "yesterday": 1}
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


def is_iso_date(value: object) -> bool:
    """True for a real calendar date written YYYY-MM-DD in ASCII digits: JSON Schema's ``date`` format, as
    jsonschema's format checker decides it (the suite schemas' dates and the engine's corpus use this one check)."""
    if not isinstance(value, str) or _ISO_DATE.fullmatch(value) is None:
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def parse_date(value: object, received_at: datetime | None = None) -> date | None:
    """The calendar date ``value`` names (the shapes in the module docstring); None when unknown."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return _from_unix(value)
    if not isinstance(value, str):
        return None
    return _parse_text(value, received_at)


@lru_cache(maxsize=4096)  # a pool's pages are scored again for every provider, their dates among them
def _parse_text(value: str, received_at: datetime | None) -> date | None:
    text = " ".join(value.split()).lower()
    if not text:
        return None
    if _UNIX_SECONDS.fullmatch(text):
        return _from_unix(float(text))
    if text in _DAYS_BACK or _AGO.fullmatch(text):
        return _relative(text, received_at)
    instant = _iso(text)
    if instant is not None:
        return instant.date()
    if _CLOCK.search(text):
        instant = _http_date(text)
        return instant.date() if instant is not None else None
    for pattern in (_MONTH_DAY_YEAR, _DAY_MONTH_YEAR):
        found = pattern.fullmatch(text)
        if found and found["month"] in _MONTHS:
            try:
                return date(int(found["year"]), _MONTHS[found["month"]], int(found["day"]))
            except ValueError:
                return None
    return None


def parse_instant(value: str | None) -> datetime | None:
    """A moment written as ISO 8601 or as an HTTP date (RFC 1123), in UTC; a moment without an
    offset is read as UTC. None when ``value`` is neither."""
    if not value:
        return None
    text = value.strip()
    instant = _iso(text) or _http_date(text)
    if instant is None:
        return None
    return instant.replace(tzinfo=UTC) if instant.tzinfo is None else instant.astimezone(UTC)


def _iso(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.upper())  # ISO's only letters are T and Z
    except ValueError:
        return None


def _http_date(text: str) -> datetime | None:
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None


def _from_unix(seconds: float) -> date | None:
    try:
        return datetime.fromtimestamp(seconds, UTC).date()
    except (OverflowError, OSError, ValueError):
        return None


def _relative(text: str, received_at: datetime | None) -> date | None:
    """``3 days ago``, ``yesterday``… counted back from ``received_at`` (UTC); None without it."""
    if received_at is None:
        return None
    now = received_at.replace(tzinfo=UTC) if received_at.tzinfo is None else received_at.astimezone(UTC)
    if text in _DAYS_BACK:
        return now.date() - timedelta(days=_DAYS_BACK[text])
    found = _AGO.fullmatch(text)
    if found is None:
        return None
    count = int(found["count"]) if found["count"].isdigit() else 1
    unit = found["unit"]
    if unit in _UNIT_SECONDS:
        return (now - timedelta(seconds=count * _UNIT_SECONDS[unit])).date()
    return _months_back(now.date(), count * (12 if unit == "year" else 1))


def _months_back(day: date, months: int) -> date | None:
    """The same day ``months`` calendar months earlier (the month's last day when it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    if year < 1:
        return None
    next_month = date(year + (month == 11), (month + 1) % 12 + 1, 1)
    return date(year, month + 1, min(day.day, (next_month - timedelta(days=1)).day))
