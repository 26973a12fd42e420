"""Every adapter's date field, in its vendor's documented shape, read as the page's day; relative dates
count back from the time the answer was received, which the cassette keeps, so every replay reads
the same day."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import yaml
from emulator.testing import PROVIDERS, make_provider, recording

from pytest_websearchbench.cassettes.latency import RECEIVED_AT_HEADER
from pytest_websearchbench.core.dates import parse_instant
from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.lexbench.eligibility import hit_date

QUERY = "green tea brewing temperature"
PUBLISHED = date(2025, 3, 1)  # the first page's date in the emulator's documents

# provider: (the vendor's field the adapter keeps as Hit.extra["date"], its documented shape as the
# emulator answers it); None: the vendor documents no date for a search result
DATE_FIELDS = {
    "serper": ("organic[].date", "Mar 1, 2025"),
    "serpapi": ("organic_results[].date", "Mar 1, 2025"),
    "tavily": ("results[].published_date (news searches only)", "Sat, 01 Mar 2025 00:00:00 GMT"),
    "exa": ("results[].publishedDate", "2025-03-01T00:00:00.000Z"),
    "brave": ("web.results[].page_age (else age)", "2025-03-01T00:00:00"),
    "searxng": ("results[].publishedDate", "2025-03-01T00:00:00"),
    "parallel": ("results[].publish_date", "2025-03-01"),
    "perplexity": ("results[].date", "2025-03-01"),
    "you": ("results.web[].page_age", "2025-03-01T00:00:00"),
    "kagi": ("data[].published", "2025-03-01T00:00:00+00:00"),
    "google-cse": ("items[].pagemap.metatags[].article:published_time", "2025-03-01T00:00:00+00:00"),
    "jina": ("data[].date", None),  # optional and its shape undocumented: the emulator sends none
    "firecrawl": (None, None),
    "linkup": (None, None),
}


#: the settings under which a vendor dates its results (Tavily: news searches)
SETTINGS = {"tavily": {"WSB_TAVILY_TOPIC": "news"}}


def test_the_table_covers_every_built_in_adapter():
    assert sorted(DATE_FIELDS) == sorted(PROVIDERS)


@pytest.mark.parametrize("name", sorted(DATE_FIELDS))
def test_each_adapter_keeps_its_vendors_date_and_it_reads_as_the_pages_day(name, emulator):
    field, shape = DATE_FIELDS[name]
    first = make_provider(name, {**emulator.env(name), **SETTINGS.get(name, {})}).search(QUERY, 3)[0]
    assert first.extra.get("date") == shape, field
    assert hit_date(first.extra).date == (PUBLISHED if shape else None)
    assert not hit_date(first.extra).unreadable
    received = parse_instant(first.extra["received_at"])
    assert abs(received - datetime.now(UTC)) < timedelta(minutes=1)


def _restamp(cassette, when: str) -> None:
    """Set the received-at stamp of every answer in ``cassette``."""
    data = yaml.safe_load(cassette.read_text())
    for interaction in data["interactions"]:
        interaction["response"]["headers"][RECEIVED_AT_HEADER] = [when]
    cassette.write_text(yaml.safe_dump(data))


@pytest.mark.parametrize("name", ["serper", "serpapi", "brave"])
def test_relative_dates_count_back_from_the_recorded_answer_time(name, emulator, tmp_path):
    emulator.variants[name] = "relative_dates"
    provider = make_provider(name, emulator.env(name))
    cassette = tmp_path / f"{name}.yaml"
    with recording(provider, cassette):
        hits = provider.search(QUERY, 3)
    assert hits[0].extra["date"].endswith(" days ago")
    assert hit_date(hits[0].extra).date == PUBLISHED
    assert RECEIVED_AT_HEADER in cassette.read_text()

    replaying = make_provider(name, {}, may_record=False)
    with recording(replaying, cassette, CassetteMode.NONE):
        again = replaying.search(QUERY, 3)
    assert again == hits  # the same answer time, so the same day, in every replay

    # the stamp is what the day counts back from: an answer received a year later names a later day
    later = parse_instant(hits[0].extra["received_at"]) + timedelta(days=365)
    _restamp(cassette, later.isoformat())
    replaying = make_provider(name, {}, may_record=False)
    with recording(replaying, cassette, CassetteMode.NONE):
        shifted = replaying.search(QUERY, 3)
    assert hit_date(shifted[0].extra).date == PUBLISHED + timedelta(days=365)


def test_a_cassette_recorded_before_the_stamp_counts_back_from_the_servers_date_header(emulator, tmp_path):
    emulator.variants["serper"] = "relative_dates"
    provider = make_provider("serper", emulator.env("serper"))
    cassette = tmp_path / "serper.yaml"
    with recording(provider, cassette):
        shown = provider.search(QUERY, 3)[0].extra["date"]
    data = yaml.safe_load(cassette.read_text())
    for interaction in data["interactions"]:  # as an older recording: no stamp, the server's own Date
        interaction["response"]["headers"].pop(RECEIVED_AT_HEADER)
        interaction["response"]["headers"]["date"] = ["Tue, 10 Mar 2026 09:00:00 GMT"]
    cassette.write_text(yaml.safe_dump(data))
    replaying = make_provider("serper", {}, may_record=False)
    with recording(replaying, cassette, CassetteMode.NONE):
        hits = replaying.search(QUERY, 3)
    assert hits[0].extra["received_at"] == "2026-03-10T09:00:00+00:00"
    assert hit_date(hits[0].extra).date == date(2026, 3, 10) - timedelta(days=int(shown.split()[0]))
