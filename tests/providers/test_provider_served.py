"""What a provider's server said it served (the run identity's provider part): Exa's resolved search type, read
from the answer live and from the cassette in replay; an API version header where a vendor sends one."""

from __future__ import annotations

import httpx
from emulator.testing import make_provider, recording

from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.providers.exa import ExaProvider


def test_exa_records_the_search_type_auto_resolved_to_live_and_in_replay(emulator, tmp_path):
    provider = make_provider("exa", emulator.env("exa"))
    cassette = tmp_path / "exa.yaml"
    with recording(provider, cassette):
        provider.search("green tea", 3)
    assert provider.calls[-1].served == {"search type": "neural"}
    assert provider.calls[-1].to_dict()["served"] == {"search type": "neural"}

    emulator.clear()
    replaying = make_provider("exa", {}, may_record=False)
    with recording(replaying, cassette, CassetteMode.NONE):
        replaying.search("green tea", 3)
    assert replaying.calls[-1].served == {"search type": "neural"} and emulator.requests == []


def test_an_api_version_header_is_served_identity_and_a_call_without_any_writes_none(emulator):
    exa = ExaProvider("exa", "https://api.exa.ai", "k", {"type": None, "category": None})
    headers = httpx.Headers({"api-version": "2026-11-01", "content-type": "application/json"})
    assert exa.served(headers, {"resolvedSearchType": "keyword"}) == {
        "api-version": "2026-11-01",
        "search type": "keyword",
    }
    assert exa.served(httpx.Headers(), {"results": []}) == {}
    provider = make_provider("serper", emulator.env("serper"))
    provider.search("green tea", 3)
    assert provider.calls[-1].served is None and "served" not in provider.calls[-1].to_dict()
