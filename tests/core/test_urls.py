"""URL keys: each normalisation rule, idempotence, site matching, and the host+path key."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_websearchbench.core.urls import host_matches_site, host_path_key, normalize_url, url_host


@pytest.mark.parametrize(("url", "key"), [
    ("HTTPS://EXAMPLE.ORG/a", "https://example.org/a"),
    ("http://example.org/a", "https://example.org/a"),
    ("https://www.example.org/a", "https://example.org/a"),
    ("https://www.www.example.org/a", "https://example.org/a"),
    ("http://example.org:80/a", "https://example.org/a"),
    ("https://example.org:443/a", "https://example.org/a"),
    ("http://example.org:443/a", "https://example.org/a"),
    ("https://example.org:0443/a", "https://example.org/a"),
    ("https://example.org:/a", "https://example.org/a"),
    ("https://example.org:8080/a", "https://example.org:8080/a"),
    ("https://example.org/a#section-2", "https://example.org/a"),
    ("https://example.org/a/", "https://example.org/a"),
    ("https://example.org/", "https://example.org"),
    ("https://example.org", "https://example.org"),
    ("https://example.org/a//", "https://example.org/a"),
    ("https://example.org/Docs/API", "https://example.org/Docs/API"),
    ("https://example.org/a?utm_source=x&utm_medium=y", "https://example.org/a"),
    ("https://example.org/a?UTM_Campaign=x&id=1", "https://example.org/a?id=1"),
    ("https://example.org/a?b=2&a=1", "https://example.org/a?a=1&b=2"),
    ("https://example.org/a?a=2&a=1", "https://example.org/a?a=1&a=2"),
    ("https://example.org/a?flag&a=1", "https://example.org/a?a=1&flag"),
    ("https://example.org/a?&&a=1&", "https://example.org/a?a=1"),
    ("https://example.org/a/?b=1#top", "https://example.org/a?b=1"),
    ("https://example.org/a?", "https://example.org/a"),
    ("https://example.org/a?q=A%20B", "https://example.org/a?q=A%20B"),
])
def test_each_rule(url, key):
    assert normalize_url(url) == key


@pytest.mark.parametrize(("url", "key"), [
    ("", ""),
    ("   ", ""),
    ("example.org/a/", "https://example.org/a"),
    ("www.Example.org", "https://example.org"),
    ("//cdn.example.org/lib.js", "https://cdn.example.org/lib.js"),
    ("  https://example.org/a  ", "https://example.org/a"),
    ("https://example.org/my page", "https://example.org/my%20page"),
    ("http://[::1", "http://[::1"),
    ("https://[2001:DB8::1]:443/x", "https://[2001:db8::1]/x"),
    ("ftp://Files.example.org:21/pub/", "ftp://files.example.org:21/pub"),
    ("ftp://files.example.org:443/pub", "ftp://files.example.org:443/pub"),
    ("https://User@WWW.example.org/a", "https://User@example.org/a"),
])
def test_garbage_and_unusual_input_is_deterministic(url, key):
    assert normalize_url(url) == key


def test_http_and_https_spellings_share_a_key():
    spellings = ["http://www.example.org/a/", "https://example.org:443/a#x",
                 "HTTPS://WWW.EXAMPLE.ORG/a?utm_source=news", "example.org/a"]
    assert {normalize_url(spelling) for spelling in spellings} == {"https://example.org/a"}


def test_query_order_does_not_matter():
    first, second = "https://e.org/?z=1&y=2&x=3", "https://e.org/?x=3&z=1&y=2"
    assert normalize_url(first) == normalize_url(second)


_url_like = st.builds(
    "{}{}{}{}{}{}{}".format,
    st.sampled_from(["", "http://", "HTTPS://", "https://", "ftp://", "//"]),
    st.sampled_from(["", "www.", "WWW.", "www.www."]),
    st.from_regex(r"[A-Za-z0-9.\-]{0,12}", fullmatch=True),
    st.sampled_from(["", ":80", ":443", ":8080", ":", ":0080"]),
    st.from_regex(r"(/[A-Za-z0-9%._ \-]{0,6}){0,3}/?", fullmatch=True),
    st.from_regex(r"(\?([a-zA-Z_]{0,6}(=[a-z0-9 ]{0,3})?&?){0,4})?", fullmatch=True),
    st.from_regex(r"(#[a-z]{0,4})?", fullmatch=True),
)


@given(_url_like)
def test_idempotent_on_url_like_strings(url):
    key = normalize_url(url)
    assert normalize_url(key) == key


@given(st.text())
def test_idempotent_and_total_on_any_text(text):
    key = normalize_url(text)
    assert normalize_url(key) == key


@given(_url_like)
def test_key_has_no_fragment_tracking_or_trailing_slash(url):
    key = normalize_url(url)
    assert "#" not in key
    assert "utm_" not in key.lower()
    assert not urlsplit(key).path.endswith("/")


@pytest.mark.parametrize(("url", "host"), [
    ("https://WWW.Docs.Example.org:8080/a", "docs.example.org"),
    ("http://example.org", "example.org"),
    ("example.org/path", "example.org"),
    ("https://user:secret@www.example.org/", "example.org"),
    ("", ""),
    ("http://[::1", ""),
])
def test_url_host(url, host):
    assert url_host(url) == host


@pytest.mark.parametrize(("host", "site", "matches"), [
    ("example.org", "example.org", True),
    ("docs.example.org", "example.org", True),
    ("a.b.example.org", "example.org", True),
    ("www.example.org", "example.org", True),
    ("docs.example.org", "https://www.example.org/", True),
    ("Docs.Example.org", "EXAMPLE.ORG", True),
    ("notexample.org", "example.org", False),
    ("example.org.evil.net", "example.org", False),
    ("example.org", "docs.example.org", False),
    ("example.org", "", False),
    ("", "example.org", False),
])
def test_host_matches_site(host, site, matches):
    assert host_matches_site(host, site) is matches


@pytest.mark.parametrize(("url", "key"), [
    ("https://www.A.example/x/?utm_source=n#f", "a.example/x"),
    ("http://a.example/x/", "a.example/x"),
    ("HTTPS://WWW.Example.org/Docs/API", "example.org/docs/api"),
    ("ftp://example.org/a?page=2", "example.org/a"),
    ("  www.example.org/a//  ", "example.org/a"),
    ("https://example.org#top", "example.org"),
    ("https://user@example.org:8080/a", "user@example.org:8080/a"),
    ("https://www.www.example.org/a", "www.example.org/a"),
    ("", ""),
])
def test_host_path_key(url, key):
    assert host_path_key(url) == key


@given(st.from_regex(r"[a-z0-9\-]{1,8}(\.[a-z0-9\-]{1,8}){0,2}", fullmatch=True),
       st.from_regex(r"(/[A-Za-z0-9%._\-]{1,6}){0,3}", fullmatch=True))
def test_host_path_key_ignores_scheme_case_www_query_fragment_and_trailing_slash(host, path):
    assume(not host.startswith("www."))  # "https://www.x" and "http://www.www.x" are different pages
    spellings = [f"https://{host}{path}", f"http://www.{host}{path}/", f"HTTPS://{host.upper()}{path.upper()}",
                 f"https://{host}{path}?utm_source=x&id=2#top", f"{host}{path}"]
    assert {host_path_key(spelling) for spelling in spellings} == {f"{host}{path}".lower()}
