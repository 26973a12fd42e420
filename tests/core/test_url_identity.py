"""One page, one identity (issue 47, DESIGN § 2.2): labelled pairs of URLs, each the same page or another page,
for every class of the rule in both directions, and normalisation's idempotence over generated URLs (IDN hosts,
dot segments, escapes, queries, redirect wrappers)."""

from __future__ import annotations

import base64
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core.urls import normalize_url, url_host

SAME, OTHER = True, False

#: (class, first URL, second URL, same page?) -- written by hand, each a form a provider sends or a page a site has
PAIRS: list[tuple[str, str, str, bool]] = [
    # dot segments and the rest of RFC 3986 § 6.2.2
    ("dot segment", "https://example.org/a/./b", "https://example.org/a/b", SAME),
    ("dot segment", "https://example.org/a/x/../b", "https://example.org/a/b", SAME),
    ("dot segment", "https://example.org/a/%2E/b/%2e%2E/c", "https://example.org/a/c", SAME),
    ("dot segment", "https://example.org/docs/v2/..", "https://example.org/docs", SAME),
    ("dot segment", "https://example.org/../../a", "https://example.org/a", SAME),
    ("dot segment", "https://example.org/a/../b", "https://example.org/a/b", OTHER),
    ("dot segment", "https://example.org/a/.../b", "https://example.org/a/b", OTHER),
    ("dot segment", "https://example.org/a/.hidden", "https://example.org/a/hidden", OTHER),
    ("case", "HTTPS://Example.ORG/a", "https://example.org/a", SAME),
    ("case", "https://example.org/Docs", "https://example.org/docs", OTHER),
    ("case", "https://example.org/a?ID=1", "https://example.org/a?id=1", OTHER),
    ("escape", "https://example.org/s?q=a+b", "https://example.org/s?q=a%20b", SAME),
    ("escape", "https://example.org/%7Euser/%41bc", "https://example.org/~user/Abc", SAME),
    ("escape", "https://example.org/a%2fb", "https://example.org/a%2Fb", SAME),
    ("escape", "https://example.org/a%2Fb", "https://example.org/a/b", OTHER),
    # hosts by IDNA (UTS 46, non-transitional)
    ("idna", "https://bücher.example/a", "https://xn--bcher-kva.example/a", SAME),
    ("idna", "https://BÜCHER.example/a", "https://bücher.example/a", SAME),
    ("idna", "https://bücher。example/a", "https://xn--bcher-kva.example/a", SAME),
    ("idna", "https://ｅｘａｍｐｌｅ.org/a", "https://example.org/a", SAME),
    ("idna", "https://XN--BCHER-KVA.example/a", "https://xn--bcher-kva.example/a", SAME),
    ("idna", "https://bücher.example/a", "https://bucher.example/a", OTHER),
    ("idna", "https://faß.de/", "https://fass.de/", OTHER),
    # raw and escaped non-ASCII paths and queries (RFC 3987 § 3.1)
    ("non-ascii path", "https://de.wikipedia.org/wiki/Köln", "https://de.wikipedia.org/wiki/K%C3%B6ln", SAME),
    ("non-ascii path", "https://de.wikipedia.org/wiki/K%c3%b6ln", "https://de.wikipedia.org/wiki/K%C3%B6ln", SAME),
    ("non-ascii path", "https://example.org/s?q=café", "https://example.org/s?q=caf%C3%A9", SAME),
    ("non-ascii path", "https://de.wikipedia.org/wiki/Köln", "https://de.wikipedia.org/wiki/Koln", OTHER),
    # a trailing-dot host
    ("trailing dot", "https://example.org./a", "https://example.org/a", SAME),
    ("trailing dot", "https://www.example.org.:443/a", "https://example.org/a", SAME),
    ("trailing dot", "https://example.org./a", "https://example.org.uk/a", OTHER),
    # the directory index
    ("index page", "https://example.org/docs/index.html", "https://example.org/docs/", SAME),
    ("index page", "https://example.org/index.php?id=3", "https://example.org/?id=3", SAME),
    ("index page", "https://example.org/a/index.htm", "https://example.org/a", SAME),
    ("index page", "https://example.org/docs/main.html", "https://example.org/docs", OTHER),
    ("index page", "https://example.org/docs/index.html.bak", "https://example.org/docs", OTHER),
    # the trailing slash: a web page's does not count (DESIGN § 2.2), FTP's does (RFC 1738 § 3.2.2)
    ("trailing slash", "https://example.org/dir/", "https://example.org/dir", SAME),
    ("trailing slash", "ftp://files.example.org/pub/", "ftp://files.example.org/pub", OTHER),
    # ports: the scheme's default only
    ("port", "http://example.org:80/a", "https://example.org/a", SAME),
    ("port", "https://example.org:443/a", "https://example.org/a", SAME),
    ("port", "https://example.org:80/a", "https://example.org/a", OTHER),
    ("port", "https://example.org:8443/a", "https://example.org/a", OTHER),
    # redirect wrappers, unwrapped to their target
    ("wrapper", "https://www.google.com/url?q=https://example.org/a&sa=D&ved=2ahUKE", "https://example.org/a", SAME),
    (
        "wrapper",
        "https://www.google.co.uk/url?sa=t&url=https%3A%2F%2Fexample.org%2Fa%3Fid%3D7",
        "https://example.org/a?id=7",
        SAME,
    ),
    ("wrapper", "https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2Fa&h=AT0x", "https://example.org/a", SAME),
    ("wrapper", "https://lm.facebook.com/l.php?u=http%3A%2F%2Fexample.org%2Fa%2F", "https://example.org/a", SAME),
    (
        "wrapper",
        "https://out.reddit.com/t3_abc?url=https%3A%2F%2Fexample.org%2Fa&token=x",
        "https://example.org/a",
        SAME,
    ),
    ("wrapper", "https://duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa&rut=93f1", "https://example.org/a", SAME),
    (
        "wrapper",
        "https://www.bing.com/ck/a?!&&p=4f2&ptn=3&u=a1aHR0cHM6Ly9leGFtcGxlLm9yZy9h&ntb=1",
        "https://example.org/a",
        SAME,
    ),
    (
        "wrapper",
        "https://www.youtube.com/redirect?event=video_description&q=https%3A%2F%2Fexample.org%2Fa",
        "https://example.org/a",
        SAME,
    ),
    ("wrapper", "https://steamcommunity.com/linkfilter/?url=https://example.org/a", "https://example.org/a", SAME),
    ("wrapper", "https://vk.com/away.php?to=https%3A%2F%2Fexample.org%2Fa&cc_key=", "https://example.org/a", SAME),
    ("wrapper", "https://l.instagram.com/?u=https%3A%2F%2Fexample.org%2Fa&e=AT1", "https://example.org/a", SAME),
    (
        "wrapper",
        "https://www.google.com/url?q="
        + quote("https://duckduckgo.com/l/?uddg=" + quote("https://example.org/a", safe=""), safe=""),
        "https://example.org/a",
        SAME,
    ),
    ("wrapper", "https://www.google.com/search?q=https://example.org/a", "https://example.org/a", OTHER),
    ("wrapper", "https://www.google.com/url?q=/search%3Fq%3Dx", "https://example.org/search?q=x", OTHER),
    ("wrapper", "https://google.evil.example/url?q=https://example.org/a", "https://example.org/a", OTHER),
    ("wrapper", "https://t.co/AbCdEf", "https://example.org/a", OTHER),
    ("wrapper", "https://www.bing.com/ck/a?u=https%3A%2F%2Fexample.org%2Fa", "https://example.org/a", OTHER),
    ("wrapper", "https://example.org/url?q=https://example.net/a", "https://example.net/a", OTHER),
    # share and session ids
    (
        "share id",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ&si=Xy3_pq",
        "https://youtube.com/watch?v=dQw4w9WgXcQ",
        SAME,
    ),
    ("share id", "https://open.spotify.com/track/4uLU6hMC?si=9a8b7c", "https://open.spotify.com/track/4uLU6hMC", SAME),
    ("share id", "https://www.instagram.com/p/C1x2y3/?igsh=MWQ1ZGUx", "https://instagram.com/p/C1x2y3", SAME),
    ("share id", "https://www.linkedin.com/in/someone?trk=public_profile", "https://linkedin.com/in/someone", SAME),
    ("share id", "https://example.org/a?s_kwcid=AL!123&hsa_cam=42&hsa_acc=7", "https://example.org/a", SAME),
    ("share id", "https://example.org/glossary?si=metre", "https://example.org/glossary", OTHER),
    ("share id", "https://example.org/tracks?trk=3", "https://example.org/tracks", OTHER),
    ("session id", "https://shop.example/cart;jsessionid=A1B2C3?item=4", "https://shop.example/cart?item=4", SAME),
    ("session id", "https://shop.example/cart?JSESSIONID=A1B2C3&item=4", "https://shop.example/cart?item=4", SAME),
    ("session id", "https://example.org/p.php?PHPSESSID=k9d8s7&id=2", "https://example.org/p.php?id=2", SAME),
    (
        "session id",
        "https://forum.example/viewtopic.php?t=9&sid=0c9d2f1e8b7a6c5d4e3f2a1b0c9d8e7f",
        "https://forum.example/viewtopic.php?t=9",
        SAME,
    ),
    ("session id", "https://news.example/story?sid=20240117", "https://news.example/story", OTHER),
    # ClearURLs' broad patterns, only on the domains its rules name
    (
        "broad pattern",
        "https://item.taobao.com/item.htm?id=1&spm=a21n57.1",
        "https://item.taobao.com/item.htm?id=1",
        SAME,
    ),
    ("broad pattern", "https://example.org/a?utm_source=news&utm_medium=mail", "https://example.org/a", SAME),
    ("broad pattern", "https://example.org/guide?spm=2", "https://example.org/guide", OTHER),
    ("broad pattern", "https://maps.example/grid?utm=33N", "https://maps.example/grid", OTHER),
    ("broad pattern", "https://shop.example/list?mc=12", "https://shop.example/list", OTHER),
    ("broad pattern", "https://archive.example/view?pmc=PMC31415", "https://archive.example/view", OTHER),
    ("broad pattern", "https://example.org/page?__s=2", "https://example.org/page", OTHER),
    # fragments, but not hash-bang routes
    ("fragment", "https://example.org/a#section-2", "https://example.org/a", SAME),
    ("fragment", "https://example.org/app#!", "https://example.org/app", SAME),
    ("fragment", "https://example.org/app#!/inbox/%7e1", "https://example.org/app#!/inbox/~1", SAME),
    ("fragment", "https://example.org/app#!/a", "https://example.org/app#!/b", OTHER),
    ("fragment", "https://example.org/#!/profile", "https://example.org/", OTHER),
    # parameter order: another name's place never counts, a repeated name's values' order may
    ("order", "https://example.org/a?x=1&y=2", "https://example.org/a?y=2&x=1", SAME),
    ("order", "https://example.org/a?sort=price&x=1&sort=date", "https://example.org/a?x=1&sort=price&sort=date", SAME),
    ("order", "https://example.org/a?sort=price&sort=date", "https://example.org/a?sort=date&sort=price", OTHER),
]


def test_the_pairs_cover_every_class_both_ways():
    assert len(PAIRS) >= 60
    classes = {name for name, *_ in PAIRS}
    for name in classes:
        assert {same for n, _, _, same in PAIRS if n == name} == {SAME, OTHER} or name in {"case"}, name
    assert {same for n, _, _, same in PAIRS if n == "case"} == {SAME, OTHER}


@pytest.mark.parametrize(("name", "first", "second", "same"), PAIRS, ids=[f"{p[0]}-{i}" for i, p in enumerate(PAIRS)])
def test_a_labelled_pair_is_one_page_or_two(name, first, second, same):
    assert (normalize_url(first) == normalize_url(second)) is same, (normalize_url(first), normalize_url(second))


@pytest.mark.parametrize(
    ("url", "host"),
    [("https://Bücher.example./a", "xn--bcher-kva.example"), ("https://www.example.org./", "example.org")],
)
def test_site_checks_read_hosts_as_the_key_does(url, host):
    assert url_host(url) == host == url_host(normalize_url(url))


# -------------------------------------------------------------------------------- generated URLs: idempotence

_label = st.text(alphabet="abcxyzAZ09-_äöüßéłİ中文ｅＡ", min_size=1, max_size=6)
_host = st.builds(
    "{}{}{}".format,
    st.sampled_from(["", "www.", "WWW.", "xn--bcher-kva.", "l.", "out."]),
    st.lists(_label, min_size=1, max_size=3).map(".".join),
    st.sampled_from(["", ".", "。", ".org", ".com.", ".ORG", "google.com", ".facebook.com", "bing.com"]),
)
_segment = st.one_of(
    st.sampled_from([".", "..", "%2E", "%2e%2E", "index.html", "index.php", "", "l.php", "url", "a;jsessionid=Z"]),
    st.text(alphabet="aZ09-._~%2fFé中 +;=", max_size=5),
)
_path = st.lists(_segment, max_size=5).map(lambda s: "/" + "/".join(s))
_name = st.sampled_from(
    ["q", "u", "url", "id", "s", "si", "sid", "utm", "utm_source", "spm", "mc", "igsh", "PHPSESSID", "%71"]
)
_value = st.one_of(
    st.text(alphabet="az09%2F+é=.", max_size=6),
    st.just("0c9d2f1e8b7a6c5d4e3f2a1b0c9d8e7f"),
    st.just("a1aHR0cHM6Ly9leGFtcGxlLm9yZy9h"),
    st.just("https%3A%2F%2Fexample.org%2Fa%2F..%2Fb"),
)
_query = st.lists(st.builds("{}={}".format, _name, _value), max_size=4).map(lambda ps: "?" + "&".join(ps) if ps else "")
_fragment = st.sampled_from(["", "#top", "#!", "#!/", "#!/a/%7e", "#!/é"])
_url = st.builds(
    "{}{}{}{}{}{}".format,
    st.sampled_from(["https://", "http://", "HTTP://", "ftp://", "//", ""]),
    _host,
    st.sampled_from(["", ":80", ":443", ":8080", ":"]),
    _path,
    _query,
    _fragment,
)


def _wrapped(url: str, how: int) -> str:
    """`url` inside one of the redirect wrappers."""
    escaped = quote(url, safe="")
    return [
        f"https://www.google.com/url?sa=t&q={escaped}",
        f"https://l.facebook.com/l.php?u={escaped}&h=AT0",
        f"https://duckduckgo.com/l/?uddg={escaped}",
        "https://www.bing.com/ck/a?!&&p=1&u=a1" + base64.urlsafe_b64encode(url.encode()).decode().rstrip("="),
        f"https://out.reddit.com/t3_x?url={escaped}",
    ][how]


@given(_url)
def test_normalising_a_key_again_changes_nothing(url):
    key = normalize_url(url)
    assert normalize_url(key) == key


@given(_url, st.integers(0, 4), st.booleans())
def test_a_wrapped_web_address_is_its_target_and_stays_idempotent(url, how, twice):
    target = "https://" + url.split("://", 1)[-1].lstrip("/")
    wrapped = _wrapped(target, how)
    if twice:
        wrapped = _wrapped(wrapped, (how + 1) % 5)
    key = normalize_url(wrapped)
    assert normalize_url(key) == key
    if normalize_url(target).startswith("https://") and url_host(target):
        assert key == normalize_url(target)
