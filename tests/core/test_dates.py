"""The one date parser: every provider's shape read as a calendar date, relative forms against the time
the answer was received, anything else unknown (never guessed, never compared as text)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core.dates import parse_date, parse_instant

RECEIVED = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("shown", "day"),
    [
        # ISO 8601 dates and date-times (Exa, You.com, Kagi, SearXNG, Perplexity, Parallel, Brave page_age)
        ("2025-03-03", date(2025, 3, 3)),
        ("2025-03-03T10:00:00Z", date(2025, 3, 3)),
        ("2023-11-16T01:36:32.547Z", date(2023, 11, 16)),
        ("2025-10-01T00:00:00", date(2025, 10, 1)),
        ("2022-01-13 14:28:59", date(2022, 1, 13)),
        ("2023-01-18T03:05:23+00:00", date(2023, 1, 18)),
        ("2025-03-03T23:30:00-05:00", date(2025, 3, 3)),  # the publisher's own day
        # month names (Google's display dates through Serper and SerpApi, Brave's age)
        ("Mar 3, 2025", date(2025, 3, 3)),
        ("March 3, 2025", date(2025, 3, 3)),
        ("Mar. 3 2025", date(2025, 3, 3)),
        ("Sept 3, 2025", date(2025, 9, 3)),
        ("September 3rd, 2025", date(2025, 9, 3)),
        ("3 Mar 2025", date(2025, 3, 3)),
        ("Tue, 3 Mar 2025", date(2025, 3, 3)),
        ("  mar 3,  2025 ", date(2025, 3, 3)),
        # RFC 1123 and RFC 850 (Tavily, HTTP)
        ("Tue, 10 Mar 2026 09:00:00 GMT", date(2026, 3, 10)),
        ("Tuesday, 10-Mar-26 09:00:00 GMT", date(2026, 3, 10)),
        # Unix seconds
        (1741000000, date(2025, 3, 3)),
        (1741000000.5, date(2025, 3, 3)),
        ("1741000000", date(2025, 3, 3)),
        # relative, against the time the answer was received
        ("3 days ago", date(2026, 3, 7)),
        ("2 hours ago", date(2026, 3, 10)),
        ("10 hours ago", date(2026, 3, 9)),
        ("an hour ago", date(2026, 3, 10)),
        ("1 day ago", date(2026, 3, 9)),
        ("2 weeks ago", date(2026, 2, 24)),
        ("1 month ago", date(2026, 2, 10)),
        ("14 months ago", date(2025, 1, 10)),
        ("1 year ago", date(2025, 3, 10)),
        ("5 mins ago", date(2026, 3, 10)),
        ("yesterday", date(2026, 3, 9)),
        ("Today", date(2026, 3, 10)),
    ],
)
def test_every_shape_reads_as_its_day(shown, day):
    assert parse_date(shown, RECEIVED) == day


@pytest.mark.parametrize(
    "shown",
    [
        None,
        "",
        "   ",
        True,
        "2025",
        "March 2025",
        "Feb 30, 2025",
        "2025-02-30",
        "sometime last spring",
        "3 Mär 2025",
        "in 3 days",
        "3 days",
        1e30,
        "12345678",
        ["2025-03-03"],
    ],
)
def test_anything_else_is_unknown(shown):
    assert parse_date(shown, RECEIVED) is None


def test_relative_forms_are_unknown_without_the_answer_time():
    assert parse_date("3 days ago") is None and parse_date("yesterday") is None
    assert parse_date("Mar 3, 2025") == date(2025, 3, 3)  # absolute shapes need none


def test_a_month_back_from_a_longer_month_lands_on_the_shorter_months_last_day():
    assert parse_date("1 month ago", datetime(2026, 3, 31, tzinfo=UTC)) == date(2026, 2, 28)
    assert parse_date("1 year ago", datetime(2028, 2, 29, tzinfo=UTC)) == date(2027, 2, 28)


def test_an_answer_time_without_an_offset_is_utc():
    assert parse_date("1 hour ago", datetime(2026, 3, 10, 0, 30)) == date(2026, 3, 9)


@given(st.dates(min_value=date(1971, 1, 1), max_value=date(9998, 12, 31)))
def test_each_absolute_shape_of_any_day_reads_back_as_that_day(day):
    noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    shapes = [
        day.isoformat(),
        noon.isoformat(),
        f"{day:%b} {day.day}, {day.year}",
        f"{day.day} {day:%B} {day.year}",
        format_datetime(noon, usegmt=True),
        noon.timestamp(),
    ]
    assert {parse_date(shape) for shape in shapes} == {day}


@given(st.integers(0, 3000))
def test_n_days_ago_is_n_days_before_the_answer(days):
    assert parse_date(f"{days} days ago", RECEIVED) == RECEIVED.date() - timedelta(days=days)


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("2026-03-10T09:00:00+00:00", RECEIVED),
        ("2026-03-10T10:00:00+01:00", RECEIVED),
        ("2026-03-10T09:00:00", RECEIVED),
        ("Tue, 10 Mar 2026 09:00:00 GMT", RECEIVED),
        ("", None),
        (None, None),
        ("soon", None),
    ],
)
def test_an_instant_is_iso_or_an_http_date_in_utc(text, instant):
    assert parse_instant(text) == instant
