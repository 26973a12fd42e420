"""URL keys: each normalisation rule, idempotence, site matching, and the host+path key."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pytest_websearchbench.core.tracking import is_tracking_name
from pytest_websearchbench.core.urls import host_matches_site, host_path_key, normalize_url, url_host


@pytest.mark.parametrize(
    ("url", "key"),
    [
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
        # a repeated name keeps its values' order (issue 47: ?s=price&s=date is not ?s=date&s=price)
        ("https://example.org/a?a=2&a=1", "https://example.org/a?a=2&a=1"),
        ("https://example.org/a?b=2&a=1&b=1", "https://example.org/a?a=1&b=2&b=1"),
        ("https://example.org/a?flag&a=1", "https://example.org/a?a=1&flag"),
        ("https://example.org/a?&&a=1&", "https://example.org/a?a=1"),
        ("https://example.org/a/?b=1#top", "https://example.org/a?b=1"),
        ("https://example.org/a?", "https://example.org/a"),
        ("https://example.org/a?q=A%20B", "https://example.org/a?q=A%20B"),
    ],
)
def test_each_rule(url, key):
    assert normalize_url(url) == key


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("", ""),
        ("   ", ""),
        ("example.org/a/", "https://example.org/a"),
        ("www.Example.org", "https://example.org"),
        ("//cdn.example.org/lib.js", "https://cdn.example.org/lib.js"),
        ("  https://example.org/a  ", "https://example.org/a"),
        ("https://example.org/my page", "https://example.org/my%20page"),
        ("http://[::1", "http://[::1"),
        ("https://[2001:DB8::1]:443/x", "https://[2001:db8::1]/x"),
        # FTP lists a folder at pub/ and retrieves a file at pub (RFC 1738 § 3.2.2): the slash stays
        ("ftp://Files.example.org:21/pub/", "ftp://files.example.org:21/pub/"),
        ("ftp://files.example.org:443/pub", "ftp://files.example.org:443/pub"),
        ("https://User@WWW.example.org/a", "https://example.org/a"),
        ("ftp://anon@Files.example.org/pub", "ftp://anon@files.example.org/pub"),
        ("mailto:Someone@Example.org", "mailto:Someone@Example.org"),
        ("MAILTO:someone@example.org", "mailto:someone@example.org"),
        ("javascript:void(0)", "javascript:void(0)"),
        ("localhost:8000/a", "https://localhost:8000/a"),
        ("example.org:/a", "https://example.org/a"),
    ],
)
def test_garbage_and_unusual_input_is_deterministic(url, key):
    assert normalize_url(url) == key


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://example.org/a%31", "https://example.org/a1"),
        ("https://example.org/%7Euser/%41", "https://example.org/~user/A"),
        ("https://example.org/a%2fb", "https://example.org/a%2Fb"),
        ("https://example.org/a?q=%31", "https://example.org/a?q=1"),
        ("https://example.org/a?q=a+b", "https://example.org/a?q=a%20b"),
        ("https://example.org/a?q=a%2Bb", "https://example.org/a?q=a%2Bb"),
        ("https://example.org/a+b", "https://example.org/a+b"),
        ("https://example.org/a?z=", "https://example.org/a?z"),
        ("https://example.org/a?z==", "https://example.org/a?z=="),
        ("https://example.org/a?%75tm_source=x&id=1", "https://example.org/a?id=1"),
        ("https://user:secret@example.org/a", "https://example.org/a"),
    ],
)
def test_each_equivalence_decision(url, key):
    assert normalize_url(url) == key


def test_http_and_https_spellings_share_a_key():
    spellings = [
        "http://www.example.org/a/",
        "https://example.org:443/a#x",
        "HTTPS://WWW.EXAMPLE.ORG/a?utm_source=news",
        "example.org/a",
    ]
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
    if key.startswith("https://"):  # another scheme keeps its last slash (FTP: a folder, not a file)
        assert not urlsplit(key).path.endswith("/")


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://WWW.Docs.Example.org:8080/a", "docs.example.org"),
        ("http://example.org", "example.org"),
        ("example.org/path", "example.org"),
        ("https://user:secret@www.example.org/", "example.org"),
        ("", ""),
        ("http://[::1", ""),
    ],
)
def test_url_host(url, host):
    assert url_host(url) == host


@pytest.mark.parametrize(
    ("host", "site", "matches"),
    [
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
    ],
)
def test_host_matches_site(host, site, matches):
    assert host_matches_site(host, site) is matches


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://www.A.example/x/?utm_source=n#f", "a.example/x"),
        ("http://a.example/x/", "a.example/x"),
        ("HTTPS://WWW.Example.org/Docs/API", "example.org/docs/api"),
        ("ftp://example.org/a?page=2", "example.org/a"),
        ("  www.example.org/a//  ", "example.org/a"),
        ("https://example.org#top", "example.org"),
        ("https://user@example.org:8080/a", "user@example.org:8080/a"),
        ("https://www.www.example.org/a", "www.example.org/a"),
        ("", ""),
    ],
)
def test_host_path_key(url, key):
    assert host_path_key(url) == key


@given(
    st.from_regex(r"[a-z0-9\-]{1,8}(\.[a-z0-9\-]{1,8}){0,2}", fullmatch=True),
    st.from_regex(r"(/[A-Za-z0-9%._\-]{1,6}){0,3}", fullmatch=True),
)
def test_host_path_key_ignores_scheme_case_www_query_fragment_and_trailing_slash(host, path):
    assume(not host.startswith("www."))  # "https://www.x" and "http://www.www.x" are different pages
    spellings = [
        f"https://{host}{path}",
        f"http://www.{host}{path}/",
        f"HTTPS://{host.upper()}{path.upper()}",
        f"https://{host}{path}?utm_source=x&id=2#top",
        f"{host}{path}",
    ]
    assert {host_path_key(spelling) for spelling in spellings} == {f"{host}{path}".lower()}


# The forms the URL-equivalence decisions cover (core/urls.py's docstring): each rewrites an address
# into another spelling, and says whether the two must share a key. One property runs all of them over
# generated addresses, so a decision holds for every address, not only for the example in its table row.
EQUIVALENCE_FORMS = [
    # (name, rewrite of (host, path, query), same key?)
    ("http scheme", lambda h, p, q: f"http://{h}{p}{q}", True),
    ("upper-case scheme and host", lambda h, p, q: f"HTTPS://{h.upper()}{p}{q}", True),
    ("www. prefix", lambda h, p, q: f"https://www.{h}{p}{q}", True),
    ("default port", lambda h, p, q: f"https://{h}:443{p}{q}", True),
    ("no scheme", lambda h, p, q: f"{h}{p}{q}", True),
    ("trailing slash", lambda h, p, q: f"https://{h}{p}/{q}", True),
    ("fragment", lambda h, p, q: f"https://{h}{p}{q}#top", True),
    ("utm parameter", lambda h, p, q: f"https://{h}{p}{q}{'&' if q else '?'}utm_source=x", True),
    ("click-tracking parameter", lambda h, p, q: f"https://{h}{p}{q}{'&' if q else '?'}srsltid=AfmBOo&gclid=x", True),
    ("another query parameter", lambda h, p, q: f"https://{h}{p}{q}{'&' if q else '?'}ref=main", False),
    (
        "parameters reordered",
        lambda h, p, q: f"https://{h}{p}" + ("?" + "&".join(reversed(q[1:].split("&"))) if q else ""),
        True,
    ),
    ("escaped unreserved path character", lambda h, p, q: f"https://{h}{_escape_first(p)}{q}", True),
    ("lower-case hex escape", lambda h, p, q: f"https://{h}{p}{q.replace('%2F', '%2f')}", True),
    ("escaped unreserved query character", lambda h, p, q: f"https://{h}{p}{_escape_first(q)}", True),
    ("+ for %20 in the query", lambda h, p, q: f"https://{h}{p}{q.replace('%20', '+')}", True),
    ("z= for z in the query", lambda h, p, q: f"https://{h}{p}{q.replace('&flag&', '&flag=&')}", True),
    ("user info", lambda h, p, q: f"https://user:secret@{h}{p}{q}", True),
    ("user name only", lambda h, p, q: f"https://someone@{h}{p}{q}", True),
    ("ftp scheme", lambda h, p, q: f"ftp://{h}{p}{q}", False),
    ("mailto", lambda h, p, q: f"mailto:someone@{h}", False),
    ("other port", lambda h, p, q: f"https://{h}:8443{p}{q}", False),
    ("path case", lambda h, p, q: f"https://{h}{p.upper()}/X{q}", False),
    ("escaped reserved path character", lambda h, p, q: f"https://{h}{p}%2Fx{q}", False),
    ("+ in the path", lambda h, p, q: f"https://{h}{p}/a+b{q}", False),
    ("%2B for a space in the query", lambda h, p, q: f"https://{h}{p}{q.replace('%20', '%2B')}", False),
]


def _escape_first(text: str) -> str:
    """``text`` with its first unreserved character percent-escaped (a path may hold no letter: ``/~``)."""
    index = next(i for i, char in enumerate(text) if char.isalnum() or char in "-._~")
    return f"{text[:index]}%{ord(text[index]):02x}{text[index + 1 :]}"


@given(
    host=st.from_regex(r"[a-z][a-z0-9\-]{0,7}\.(org|example)", fullmatch=True),
    path=st.from_regex(r"(/[a-z0-9._~\-]{1,6}){1,3}", fullmatch=True),
    query=st.from_regex(r"\?a=[a-z0-9]{1,3}%20[a-z]{1,3}&flag&id=[0-9]{1,3}&sep=%2F", fullmatch=True),
    form=st.sampled_from(EQUIVALENCE_FORMS),
)
def test_every_equivalence_form_keeps_or_changes_the_key_as_decided(host, path, query, form):
    assume(not host.startswith("www"))
    name, rewrite, same = form
    base = f"https://{host}{path}{query}"
    rewritten = rewrite(host, path, query)
    assert (normalize_url(rewritten) == normalize_url(base)) is same, (name, base, rewritten)


# ---------------------------------------------------------------- click-tracking parameters (DESIGN § 2.2)

#: the card's list, word for word, and examples of ClearURLs' global rules (core/tracking.py)
CARD_TRACKING = [
    "utm_source",
    "utm_campaign",
    "gclid",
    "dclid",
    "gbraid",
    "wbraid",
    "fbclid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "yclid",
    "_hsenc",
    "_hsmi",
    "igshid",
    "srsltid",
]
CLEARURLS_EXAMPLES = [
    "_ga",
    "_gl",
    "mkt_tok",
    "twclid",
    "vero_id",
    "oly_enc_id",
    "__hstc",
    "hsCtaTracking",
    "fb_action_ids",
    "itm_source",
    "wickedid",
    "Echobox",
    "%3Futm_medium",
    "GCLID",
    "Srsltid",
]
#: names a page may need: never dropped
KEPT = ["id", "page", "q", "ref", "referrer", "source", "lang", "v", "gclid2", "xfbclid", "utm", "tag", "s", "mcc"]
#: ClearURLs' broad global patterns, narrowed to the domains its rules name (issue 47): kept elsewhere
KEPT += ["mc", "pmc", "spm", "__s", "si", "trk", "sid"]


@pytest.mark.parametrize("name", CARD_TRACKING + CLEARURLS_EXAMPLES)
def test_documented_click_tracking_parameters_do_not_make_another_page(name):
    assert is_tracking_name(name)
    assert normalize_url(f"https://Example.org/a?id=7&{name}=Cj0KCQ&b=1") == "https://example.org/a?b=1&id=7"
    assert normalize_url(f"https://example.org/a?{name}") == "https://example.org/a"


@pytest.mark.parametrize("name", KEPT)
def test_every_other_query_parameter_makes_another_page(name):
    assert not is_tracking_name(name)
    assert normalize_url(f"https://example.org/a?{name}=1") != normalize_url("https://example.org/a")


_tracking_param = st.builds(
    "{}={}".format,
    st.sampled_from(CARD_TRACKING + CLEARURLS_EXAMPLES),
    st.from_regex(r"[A-Za-z0-9_\-.%]{0,12}", fullmatch=True),
)
_kept_param = st.builds("{}={}".format, st.sampled_from(KEPT), st.from_regex(r"[a-z0-9]{1,4}", fullmatch=True))


@given(
    kept=st.lists(_kept_param, max_size=4), tracking=st.lists(_tracking_param, min_size=1, max_size=4), data=st.data()
)
def test_a_url_with_click_tracking_parameters_anywhere_is_the_same_page_and_keeps_every_other_parameter(
    kept, tracking, data
):
    # a provider adds tracking parameters anywhere in the query: the key is the untracked page's, and every
    # other parameter survives (each one that is dropped makes another key than the whole query's); the kept
    # parameters keep their order among themselves (a repeated name's order may select another page)
    places = data.draw(st.permutations([True] * len(kept) + [False] * len(tracking)))
    kept_left, tracking_left = iter(kept), iter(tracking)
    mixed = [next(kept_left) if is_kept else next(tracking_left) for is_kept in places]
    plain = normalize_url("https://example.org/docs" + ("?" + "&".join(kept) if kept else ""))
    assert normalize_url("https://example.org/docs?" + "&".join(mixed)) == plain
    for i in range(len(kept)):
        fewer = kept[:i] + kept[i + 1 :]
        assert normalize_url("https://example.org/docs?" + "&".join(fewer + tracking)) != plain
