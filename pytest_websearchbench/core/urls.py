"""URL keys for pooling, duplicate detection and site checks.

`normalize_url` maps every spelling of one web address to one key:
``https://`` + lower-case host without ``www.``, user info or default port + path (case kept,
no trailing ``/``) + sorted query without click-tracking parameters (``utm_*``, ``gclid``, ``fbclid``,
``srsltid``, … : `core.tracking`, ClearURLs' global rules and the card's names), no fragment. Every other
query parameter stays: it may select another page.
``http`` and ``https`` give the same key, always spelled ``https://`` so that a key
stays a clickable URL. A string without ``scheme://`` is read as a web address
(``example.com/a`` → ``https://example.com/a``); surrounding whitespace is
stripped and inner whitespace percent-encoded (``a b`` → ``a%20b``); a string that
cannot be parsed comes back only so prepared. The function never raises and is
idempotent.

Where readings of "the same address" disagree, the key decides so (RFC 3986 §6.2.2 for the
syntax, the web's form encoding for the query):

- **percent-encoding**: an escaped unreserved character is that character (``%31`` = ``1``,
  ``%7E`` = ``~``, RFC 3986 §2.3) in the path and the query; the other escapes keep their
  meaning and are spelled with upper-case hex (``%2f`` = ``%2F``, never ``/``);
- **``+`` and ``%20`` in a web query** are both a space (HTML form encoding), spelled ``%20``;
  a literal plus is ``%2B`` and stays apart; in a path ``+`` is itself, not a space;
- **``?z`` and ``?z=``** are one parameter with an empty value, spelled ``z``;
- **user info** (``https://user:secret@host/``) is dropped from web keys: HTTP deprecates it
  (RFC 9110 §4.2.4), the page is the host's whoever the URL names, and a credential has no
  place in a pool or a report. Other schemes keep it (an FTP account selects other files);
- **other schemes** are never a web address: ``ftp://host/a`` keeps its scheme (host and path
  rules apply, its own default ports are not known here), and a scheme without ``//``
  (``mailto:``, ``urn:``, ``javascript:``: letters, digits, ``+`` or ``-`` before a colon that
  does not start a port) is a key of its own, scheme lower-cased and the rest as written.

`host_path_key` is the coarser key of DESIGN §2.1 step 6 (grounding a cited URL): the
lower-cased address without scheme, query, fragment, leading ``www.`` or trailing ``/``s.
It merges what `normalize_url` keeps apart (``http`` and ``ftp``, ``?page=2``, path case).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import SplitResult, quote, urlsplit

from pytest_websearchbench.core.tracking import is_tracking_name

_SCHEME_PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
# a scheme without "//" (mailto:, urn:): no dot in its name, and its colon does not start a port
# (``localhost:8000/a``, ``example.org:/a`` stay web addresses)
_OPAQUE_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+\-]*):(?!\d*(?:[/?#]|$))")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_WHITESPACE = re.compile(r"\s")
_PORT_SUFFIX = re.compile(r"(?::[0-9]*)+$")
_WEB_SCHEMES = frozenset({"http", "https"})
_WEB_SCHEME_KEY = "https"
_DEFAULT_PORTS = frozenset({80, 443})
_WWW_PREFIX = "www."
_QUERY_OR_FRAGMENT = re.compile(r"[?#]")


def _prepared(url: str) -> str:
    """`url` stripped, inner whitespace percent-encoded, the web scheme added if none."""
    text = _WHITESPACE.sub(lambda space: quote(space.group()), url.strip())
    if not text or _SCHEME_PREFIX.match(text) or _OPAQUE_SCHEME.match(text):
        return text
    return f"{_WEB_SCHEME_KEY}://{text.lstrip('/')}"


def _split(text: str) -> SplitResult | None:
    """`urlsplit` of a prepared address; None when it cannot be parsed."""
    try:
        return urlsplit(text)
    except ValueError:
        return None


def _split_netloc(netloc: str) -> tuple[str, str, str]:
    """(userinfo including its ``@``, host, port digits) of a network location.

    The port is the digits after the last colon of the trailing ``:digits`` run; the
    whole run is cut from the host, so ``host:`` and ``host:1:80`` give host ``host``.
    """
    userinfo, at, hostport = netloc.rpartition("@")
    suffix = _PORT_SUFFIX.search(hostport)
    if suffix is None:
        return userinfo + at, hostport, ""
    return userinfo + at, hostport[: suffix.start()], suffix.group().rpartition(":")[2]


def _canonical_host(host: str) -> str:
    """Lower-case host with every leading ``www.`` removed."""
    host = host.lower()
    while host.startswith(_WWW_PREFIX):
        host = host[len(_WWW_PREFIX) :]
    return host


def _canonical_port(port: str, scheme: str) -> str:
    """Port without leading zeros; empty when absent or a web default (80, 443)."""
    if not port:
        return ""
    number = int(port)
    if scheme == _WEB_SCHEME_KEY and number in _DEFAULT_PORTS:
        return ""
    return str(number)


def _is_tracking_parameter(parameter: str) -> bool:
    """True for a click-tracking parameter (`core.tracking`: its name, case-insensitively)."""
    return is_tracking_name(parameter.partition("=")[0])


def _parameter_order(parameter: str) -> tuple[str, str, str]:
    """Sort key of a raw ``name=value`` parameter: name, then value, then spelling."""
    name, _, value = parameter.partition("=")
    return name, value, parameter


def _canonical_escapes(text: str) -> str:
    """Escaped unreserved characters decoded, the other escapes in upper-case hex."""

    def one(escape: re.Match[str]) -> str:
        char = chr(int(escape.group(1), 16))
        return char if char in _UNRESERVED else escape.group().upper()

    return _ESCAPE.sub(one, text)


def _canonical_parameter(parameter: str) -> str:
    """A web query parameter: escapes canonical, ``+`` a space (``%20``), ``z=`` spelled ``z``."""
    parameter = _canonical_escapes(parameter).replace("+", "%20")
    return parameter[:-1] if parameter.endswith("=") and parameter.count("=") == 1 else parameter


def _canonical_query(query: str, web: bool) -> str:
    """Query without empty and click-tracking parameters, the rest sorted; a web query's parameters in
    their canonical spelling (module docstring), another scheme's with canonical escapes only."""
    spell = _canonical_parameter if web else _canonical_escapes
    spelled = (spell(p) for p in query.split("&"))
    kept = [p for p in spelled if p and not _is_tracking_parameter(p)]
    return "&".join(sorted(kept, key=_parameter_order))


# both are pure and asked again and again for the same few addresses (every pooled page, every item)
@lru_cache(maxsize=1 << 16)
def normalize_url(url: str) -> str:
    """The pooling key of `url` (rules in the module docstring)."""
    text = _prepared(url)
    opaque = _OPAQUE_SCHEME.match(text)
    if opaque:
        return opaque.group(1).lower() + text[opaque.end(1) :]
    parts = _split(text)
    if parts is None or not parts.scheme:
        return text
    scheme = parts.scheme.lower()
    web = scheme in _WEB_SCHEMES
    if web:
        scheme = _WEB_SCHEME_KEY
    userinfo, host, port = _split_netloc(parts.netloc)
    port = _canonical_port(port, scheme)
    netloc = ("" if web else userinfo) + _canonical_host(host) + (f":{port}" if port else "")
    query = _canonical_query(parts.query, web)
    path = _canonical_escapes(parts.path).rstrip("/")
    return f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "")


@lru_cache(maxsize=1 << 16)
def url_host(url: str) -> str:
    """Lower-case host of `url` without ``www.``, port or user info ("" if none)."""
    parts = _split(_prepared(url))
    if parts is None:
        return ""
    return _canonical_host(_split_netloc(parts.netloc)[1])


def host_matches_site(host: str, site: str) -> bool:
    """True when `host` is `site` or one of its subdomains.

    Both sides go through `url_host`, so either may be a bare host or a URL
    (``example.com``, ``https://www.example.com/``). An empty site matches nothing.
    """
    return host_within(url_host(host), url_host(site))


def host_within(host: str, site: str) -> bool:
    """`host_matches_site` of a host and a site both already read by `url_host` (a caller matching
    many hosts against the same sites reads each once)."""
    return bool(site) and (host == site or host.endswith("." + site))


def host_path_key(url: str) -> str:
    """`url` lower-cased without scheme, ``?query``, ``#fragment``, leading ``www.`` or
    trailing ``/``s (``https://www.Example.com/A/?q=1`` → ``example.com/a``).

    Userinfo and port stay. Unlike `normalize_url` this is not a clickable address: it is
    the key two spellings of one page must share when case, scheme and query do not count.
    """
    text = _SCHEME_PREFIX.sub("", url.strip(), count=1)
    text = _QUERY_OR_FRAGMENT.split(text, maxsplit=1)[0].lower()
    if text.startswith(_WWW_PREFIX):
        text = text[len(_WWW_PREFIX) :]
    return text.rstrip("/")


#: trimmed from the right of a URL cited in a code comment, and of a URL being keyed for grounding
CITATION_TAIL = ").,;\"'"


def grounding_key(url: str) -> str:
    """The code benchmark judge's key for matching a cited URL with the URLs the agent saw:
    right-trimmed of whitespace and ``).,;"'``, no scheme (everything through the first ``://``),
    no fragment, no query, lower case, no leading ``www.``, no trailing ``/`` (unless that would
    leave nothing). Close to ``host_path_key`` but the judge's own rule, kept to the letter."""
    rest = (url or "").strip().rstrip(CITATION_TAIL)
    _, sep, after = rest.partition("://")
    rest = after if sep else rest
    rest = rest.partition("#")[0].partition("?")[0].lower()
    if rest.startswith("www."):
        rest = rest[4:]
    return rest.rstrip("/") or rest
