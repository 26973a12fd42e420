"""LocalSearchServer: the JSON API over loopback, driven through httpx like a provider."""

from __future__ import annotations

import http.client
import json
import socket
import time

import httpx
import pytest

from pytest_websearchbench.engine import LocalSearchServer, SearchIndex

PAGES = [
    {
        "url": f"https://docs.test/page-{n}",
        "title": f"Widget guide part {n}",
        "text": f"Part {n} explains how a widget spins. " + "Widgets spin. " * n,
        "language": "en",
        "site": "docs.test",
        "published": "2024-03-0" + str(n % 9 + 1),
    }
    for n in range(1, 13)
] + [
    {
        "url": "https://zh.test/a",
        "title": "小部件",
        "text": "小部件的使用说明。",
        "language": "zh",
        "site": "zh.test",
        "published": None,
    }
]


@pytest.fixture(scope="module")
def server():
    with LocalSearchServer(SearchIndex(PAGES)) as running:
        yield running


@pytest.fixture
def client(server):
    with httpx.Client(base_url=server.base_url, timeout=5) as http:
        yield http


def test_base_url_is_loopback_with_an_os_chosen_port(server):
    assert server.base_url.startswith("http://127.0.0.1:")
    assert int(server.base_url.rsplit(":", 1)[1]) > 0


def test_search_round_trip_returns_ranked_json(client):
    response = client.post("/v1/search", json={"query": "widget spins", "k": 3})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["query"] == "widget spins"
    assert [hit["rank"] for hit in body["results"]] == [1, 2, 3]
    assert set(body["results"][0]) == {"url", "title", "snippet", "published", "site", "language", "score", "rank"}


def test_search_matches_the_index_directly(server, client):
    direct = SearchIndex(PAGES).search("widget part 7", k=5)
    served = client.post("/v1/search", json={"query": "widget part 7", "k": 5}).json()["results"]
    assert [{k: v for k, v in hit.items() if k != "rank"} for hit in served] == direct


def test_search_defaults_to_ten_results(client):
    assert len(client.post("/v1/search", json={"query": "widget"}).json()["results"]) == 10


def test_chinese_query_over_http(client):
    results = client.post("/v1/search", json={"query": "小部件"}).json()["results"]
    assert results[0]["url"] == "https://zh.test/a"


def test_fetch_returns_page_text(client):
    response = client.post("/v1/fetch", json={"url": "https://docs.test/page-2"})
    assert response.status_code == 200
    assert response.json() == {
        "url": "https://docs.test/page-2",
        "title": "Widget guide part 2",
        "text": PAGES[1]["text"],
    }


def test_fetch_of_unknown_url_is_404(client):
    response = client.post("/v1/fetch", json={"url": "https://docs.test/nope"})
    assert response.status_code == 404
    assert "https://docs.test/nope" in response.json()["error"]


@pytest.mark.parametrize(
    ("path", "content", "mentions"),
    [
        ("/v1/search", b"{not json", "valid JSON"),
        ("/v1/search", b"", "valid JSON"),
        ("/v1/search", b'["widget"]', "JSON object"),
        ("/v1/search", b"{}", "'query' is required"),
        ("/v1/search", b'{"query": 5}', "'query' must be a string"),
        ("/v1/search", b'{"query": "w", "k": 0}', "'k'"),
        ("/v1/search", b'{"query": "w", "k": 101}', "'k'"),
        ("/v1/search", b'{"query": "w", "k": "3"}', "'k'"),
        ("/v1/search", b'{"query": "w", "k": true}', "'k'"),
        ("/v1/fetch", b"{}", "'url' is required"),
        ("/v1/fetch", b'{"url": null}', "'url' must be a string"),
    ],
)
def test_bad_requests_are_400_naming_the_problem(client, path, content, mentions):
    response = client.post(path, content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/json"
    assert mentions in response.json()["error"]


def test_unknown_path_is_404(client):
    response = client.post("/v1/nothing", json={"query": "widget"})
    assert response.status_code == 404
    assert "error" in response.json()


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/v1/search", "POST"),
        ("PUT", "/v1/fetch", "POST"),
        ("DELETE", "/v1/search", "POST"),
        ("POST", "/healthz", "GET"),
    ],
)
def test_wrong_method_is_405_with_allow_header(client, method, path, allowed):
    response = client.request(method, path, json={"query": "widget"})
    assert response.status_code == 405
    assert response.headers["allow"] == allowed
    assert "error" in response.json()


def test_healthz_reports_page_count(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "pages": len(PAGES)}


def test_connection_stays_usable_after_errors(client):
    client.post("/v1/nothing", content=b"x" * 1000)
    client.post("/v1/search", content=b"{broken")
    assert client.post("/v1/search", json={"query": "widget", "k": 1}).status_code == 200


def test_requests_are_not_logged(client, capfd):
    client.post("/v1/search", json={"query": "widget"})
    client.get("/missing")
    assert capfd.readouterr().err == ""


def test_stop_releases_the_port_and_start_twice_is_refused():
    server = LocalSearchServer(SearchIndex(PAGES))
    base_url = server.start()
    with pytest.raises(RuntimeError):
        server.start()
    server.stop()
    # the listening socket is gone: the port can be bound again (connecting instead would race with
    # any other process on the machine that happens to be given the freed port)
    port = int(base_url.rsplit(":", 1)[1])
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
    with pytest.raises(RuntimeError):
        _ = server.base_url


def test_stop_is_prompt():
    # with serve_forever's default 0.5 s poll, a stop right after the start waited the whole poll
    index = SearchIndex(PAGES)
    started = time.perf_counter()
    for _ in range(5):
        server = LocalSearchServer(index)
        server.start()
        server.stop()
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("declared", ["99999999", "-1", "many"])
def test_oversized_or_malformed_content_length_is_400(server, declared):
    connection = http.client.HTTPConnection(server.base_url.removeprefix("http://"), timeout=5)
    connection.putrequest("POST", "/v1/search")
    connection.putheader("Content-Length", declared)
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 400
    assert "error" in json.loads(response.read())
    connection.close()
