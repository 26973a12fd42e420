"""URL keys for pooling, duplicate detection and site checks.

`normalize_url` maps every spelling of one web address to one key:
``https://`` + lower-case host without ``www.`` and default port + path (case kept,
no trailing ``/``) + sorted query without ``utm_*`` parameters, no fragment.
``http`` and ``https`` give the same key, always spelled ``https://`` so that a key
stays a clickable URL. A string without ``scheme://`` is read as a web address
(``example.com/a`` → ``https://example.com/a``); surrounding whitespace is
stripped and inner whitespace percent-encoded (``a b`` → ``a%20b``); a string that
cannot be parsed comes back only so prepared. The function never raises and is
idempotent.

`host_path_key` is the coarser key of DESIGN §2.1 step 6 (grounding a cited URL): the
lower-cased address without scheme, query, fragment, leading ``www.`` or trailing ``/``s.
It merges what `normalize_url` keeps apart (``http`` and ``ftp``, ``?page=2``, path case).
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, quote, urlsplit

_SCHEME_PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
_WHITESPACE = re.compile(r"\s")
_PORT_SUFFIX = re.compile(r"(?::[0-9]*)+$")
_WEB_SCHEMES = frozenset({"http", "https"})
_WEB_SCHEME_KEY = "https"
_DEFAULT_PORTS = frozenset({80, 443})
_WWW_PREFIX = "www."
_TRACKING_PREFIX = "utm_"
_QUERY_OR_FRAGMENT = re.compile(r"[?#]")


def _prepared(url: str) -> str:
    """`url` stripped, inner whitespace percent-encoded, the web scheme added if none."""
    text = _WHITESPACE.sub(lambda space: quote(space.group()), url.strip())
    if not text or _SCHEME_PREFIX.match(text):
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
    return userinfo + at, hostport[:suffix.start()], suffix.group().rpartition(":")[2]


def _canonical_host(host: str) -> str:
    """Lower-case host with every leading ``www.`` removed."""
    host = host.lower()
    while host.startswith(_WWW_PREFIX):
        host = host[len(_WWW_PREFIX):]
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
    """True for ``utm_*`` parameters (name compared case-insensitively)."""
    return parameter.partition("=")[0].lower().startswith(_TRACKING_PREFIX)


def _parameter_order(parameter: str) -> tuple[str, str, str]:
    """Sort key of a raw ``name=value`` parameter: name, then value, then spelling."""
    name, _, value = parameter.partition("=")
    return name, value, parameter


def _canonical_query(query: str) -> str:
    """Query without empty and ``utm_*`` parameters, the rest sorted; raw spelling kept."""
    kept = [p for p in query.split("&") if p and not _is_tracking_parameter(p)]
    return "&".join(sorted(kept, key=_parameter_order))


def normalize_url(url: str) -> str:
    """The pooling key of `url` (rules in the module docstring)."""
    text = _prepared(url)
    parts = _split(text)
    if parts is None or not parts.scheme:
        return text
    scheme = parts.scheme.lower()
    if scheme in _WEB_SCHEMES:
        scheme = _WEB_SCHEME_KEY
    userinfo, host, port = _split_netloc(parts.netloc)
    port = _canonical_port(port, scheme)
    netloc = userinfo + _canonical_host(host) + (f":{port}" if port else "")
    query = _canonical_query(parts.query)
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}" + (f"?{query}" if query else "")


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
    host, site = url_host(host), url_host(site)
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
        text = text[len(_WWW_PREFIX):]
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
