"""URL keys for pooling, duplicate detection and site checks.

`normalize_url` maps every spelling of one web page to one key (DESIGN § 2.2, one page = one normalised URL):
``https://`` + host (lower case, IDNA, without ``www.``, a trailing dot, user info or default port) + path
(RFC 3986 § 6.2.2, case kept, no trailing ``/``, no ``index.html``) + query sorted by name (without click-tracking,
share and session parameters: `core.tracking`) + a hash-bang route if any, no other fragment. Every other query
parameter stays: it may select another page. A known redirect wrapper is its target's key.
``http`` and ``https`` give the same key, always spelled ``https://`` so that a key
stays a clickable URL. A string without ``scheme://`` is read as a web address
(``example.com/a`` → ``https://example.com/a``); surrounding whitespace is
stripped and inner whitespace percent-encoded (``a b`` → ``a%20b``); a string that
cannot be parsed comes back only so prepared. The function never raises and is
idempotent.

Where readings of "the same address" disagree, the key decides so (RFC 3986 § 6.2.2 for the
syntax, the web's form encoding for the query):

- **percent-encoding**: an escaped unreserved character is that character (``%31`` = ``1``,
  ``%7E`` = ``~``, RFC 3986 § 2.3) in the path and the query; the other escapes keep their
  meaning and are spelled with upper-case hex (``%2f`` = ``%2F``, never ``/``); a raw non-ASCII
  character is its UTF-8 escapes (``/Köln`` = ``/K%C3%B6ln``, RFC 3987 § 3.1);
- **dot segments** are removed (``/a/./b`` = ``/a/x/../b`` = ``/a/b``, RFC 3986 § 5.2.4), after decoding
  (``%2E`` is a dot);
- **hosts** are IDNA: UTS 46 mapping, non-transitional, each non-ASCII label its punycode A-label
  (``Bücher.example`` = ``xn--bcher-kva.example``); a trailing dot (the DNS root) is dropped; a host IDNA
  refuses is kept lower-cased;
- **ports**: 80 on ``http`` and 443 are dropped (``http`` on 443 can only be the TLS page); 80 on ``https`` and
  any other port name another server and stay;
- **a trailing slash** and a last ``index.html``, ``index.htm`` or ``index.php`` (the server's directory index)
  do not make another web page; another scheme keeps its path's last ``/`` (FTP lists a folder there and
  retrieves a file without it, RFC 1738 § 3.2.2);
- **``+`` and ``%20`` in a web query** are both a space (HTML form encoding), spelled ``%20``;
  a literal plus is ``%2B`` and stays apart; in a path ``+`` is itself, not a space;
- **``?z`` and ``?z=``** are one parameter with an empty value, spelled ``z``;
- **parameter order**: parameters are sorted by name, and a repeated name keeps its values' order
  (``?s=price&s=date`` sorts by price first, ``?s=date&s=price`` by date first);
- **fragments** are dropped, except a hash-bang route (``#!/inbox``: the page a single-page application
  shows), kept with canonical escapes; an empty route (``#!``, ``#!/``) is the page itself;
- **session ids** in the path (``;jsessionid=…``, the Java Servlet specification's URL rewriting) are dropped,
  as the query's are (`core.tracking`);
- **redirect wrappers** (`_WRAPPERS`: a search engine's or a social site's click-through URL carrying its
  target) are their target's key, when the target can be read from the URL alone;
- **user info** (``https://user:secret@host/``) is dropped from web keys: HTTP deprecates it
  (RFC 9110 § 4.2.4), the page is the host's whoever the URL names, and a credential has no
  place in a pool or a report. Other schemes keep it (an FTP account selects other files);
- **other schemes** are never a web address: ``ftp://host/a`` keeps its scheme (host and path
  rules apply, its own default ports are not known here), and a scheme without ``//``
  (``mailto:``, ``urn:``, ``javascript:``: letters, digits, ``+`` or ``-`` before a colon that
  does not start a port) is a key of its own, scheme lower-cased and the rest as written.

`host_path_key` is the coarser key of DESIGN § 2.1 step 6 (grounding a cited URL): the
lower-cased address without scheme, query, fragment, leading ``www.`` or trailing ``/``s.
It merges what `normalize_url` keeps apart (``http`` and ``ftp``, ``?page=2``, path case).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import SplitResult, quote, unquote, urlsplit

import idna

from pytest_websearchbench.core.tracking import is_session_value, is_tracking_name

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
_WWW_PREFIX = "www."
_QUERY_OR_FRAGMENT = re.compile(r"[?#]")
# the Java Servlet specification's session id, rewritten into a path segment's parameters
_PATH_SESSION = re.compile(r";jsessionid=[^/;]*", re.IGNORECASE)
# a server's directory index: ``/dir/index.html`` is the page ``/dir/`` serves (Apache's and nginx's default
# DirectoryIndex / index, IIS's default documents, PHP's front controller)
_INDEX_PAGES = frozenset({"index.html", "index.htm", "index.php"})
_HASH_BANG = "!"
_EMPTY_ROUTES = frozenset({"!", "!/"})
# a wrapper's target must itself be a web address with a host
_WEB_TARGET = re.compile(r"https?://[^/?#]", re.IGNORECASE)


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


def _idna_host(host: str) -> str:
    """A lower-cased non-ASCII host in IDNA (UTS 46, non-transitional, as browsers resolve it): ASCII labels
    as they are (an underscore or a leading digit is no reason to refuse them), the others their A-label;
    the host itself when IDNA refuses it (a key read again meets the same refusal, and gives the same key)."""
    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
        return ".".join(label if label.isascii() else idna.alabel(label).decode("ascii") for label in mapped.split("."))
    except (idna.IDNAError, UnicodeError, ValueError):
        return host


# a run sees few hosts (a provider answers from the same sites again and again), and IDNA is the costly step
@lru_cache(maxsize=1 << 14)
def _canonical_host(host: str) -> str:
    """Lower-case host in IDNA, without a trailing dot (the DNS root) or any leading ``www.``."""
    host = host.lower()
    if not host.isascii():
        host = _idna_host(host)
    host = host.rstrip(".")
    while host.startswith(_WWW_PREFIX):
        host = host[len(_WWW_PREFIX) :]
    return host


def _canonical_port(port: str, scheme: str, given_scheme: str) -> str:
    """Port without leading zeros; empty when absent or the web scheme's default (80 on ``http``, 443)."""
    if not port:
        return ""
    number = int(port)
    if scheme == _WEB_SCHEME_KEY and (number == 443 or (number == 80 and given_scheme == "http")):
        return ""
    return str(number)


def _escaped_char(char: str) -> str:
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


def _ascii_escaped(text: str) -> str:
    """`text` with every non-ASCII character percent-encoded as UTF-8 (RFC 3987 § 3.1, an IRI as a URI)."""
    if text.isascii():
        return text
    return "".join(char if char < "\x80" else _escaped_char(char) for char in text)


def _canonical_escapes(text: str) -> str:
    """Escaped unreserved characters decoded, the other escapes in upper-case hex."""
    if "%" not in text:
        return text

    def one(escape: re.Match[str]) -> str:
        char = chr(int(escape.group(1), 16))
        return char if char in _UNRESERVED else escape.group().upper()

    return _ESCAPE.sub(one, text)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 § 5.2.4: ``.`` and ``..`` segments resolved (``/a/b/../c`` → ``/a/c``, ``/a/b/..`` → ``/a/``)."""
    if "." not in path:
        return path
    rooted = path.startswith("/")
    segments = path.split("/")
    kept: list[str] = []
    for segment in segments[1:] if rooted else segments:
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")
    return ("/" if rooted else "") + "/".join(kept)


def _canonical_path(path: str, web: bool) -> str:
    """The path's canonical spelling (module docstring): escapes, session ids, dot segments, then for a web
    page no trailing ``/`` nor directory index."""
    path = _canonical_escapes(_ascii_escaped(path))
    if ";" in path:
        path = _PATH_SESSION.sub("", path)
    path = _remove_dot_segments(path)
    if not web:
        return "" if path == "/" else path
    path = path.rstrip("/")
    while True:
        head, slash, last = path.rpartition("/")
        if not slash or last not in _INDEX_PAGES:
            return path
        path = head.rstrip("/")


def _canonical_parameter(parameter: str) -> str:
    """A web query parameter: escapes canonical, ``+`` a space (``%20``), ``z=`` spelled ``z``."""
    parameter = _canonical_escapes(parameter).replace("+", "%20")
    return parameter[:-1] if parameter.endswith("=") and parameter.count("=") == 1 else parameter


def _parameters(query: str, web: bool) -> list[str]:
    """The query's non-empty parameters in their canonical spelling (module docstring), in the URL's order;
    another scheme's with canonical escapes only."""
    spell = _canonical_parameter if web else _canonical_escapes
    spelled = (spell(p) for p in _ascii_escaped(query).split("&"))
    return [p for p in spelled if p]


def _is_dropped(parameter: str, host: str) -> bool:
    """True for a click-tracking, share or session parameter (`core.tracking`), on `host` or everywhere."""
    name, _, value = parameter.partition("=")
    return is_tracking_name(name, host) or is_session_value(name, value)


def _parameter_name(parameter: str) -> str:
    return parameter.partition("=")[0]


def _canonical_query(parameters: list[str], host: str) -> str:
    """Parameters without click-tracking, share and session ones, stably sorted by name: another name's
    place never makes another page, a repeated name's values keep their order (it may)."""
    kept = [p for p in parameters if not _is_dropped(p, host)]
    return "&".join(sorted(kept, key=_parameter_name))


def _canonical_fragment(fragment: str) -> str:
    """``#!route`` kept (a single-page application's page), canonically escaped; any other fragment dropped."""
    if not fragment.startswith(_HASH_BANG) or fragment in _EMPTY_ROUTES:
        return ""
    return "#" + _canonical_escapes(_ascii_escaped(fragment))


# ---------------------------------------------------------------------------------------- redirect wrappers
# Click-through URLs that carry their target whole, so that the target can be read from the URL alone; each
# with where it is documented or observed. ClearURLs' ``redirections`` (https://github.com/ClearURLs/Rules,
# data.min.json, as of 2024) name the same ones for Google, Facebook, Messenger, Reddit, DuckDuckGo, YouTube,
# Steam and VK. Left out: shorteners (t.co, lnkd.in, bit.ly) and signed or opaque redirectors, whose target
# only their server knows.


def _percent_decoded(value: str) -> str | None:
    return unquote(value)


def _bing_decoded(value: str) -> str | None:
    """Bing's ``/ck/a`` carries its target in ``u`` as ``a1`` + the URL in unpadded base64url."""
    value = unquote(value)
    if not value.startswith("a1"):
        return None
    data = value[2:]
    try:
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


class _Wrapper(NamedTuple):
    host: re.Pattern[str]  # the canonical host (lower case, no ``www.``)
    path: re.Pattern[str] | None  # the canonical path; None: any
    names: tuple[str, ...]  # the target's parameter, in order of preference
    decode: Callable[[str], str | None]


_WRAPPERS: tuple[_Wrapper, ...] = (
    # Google's result and Docs/Gmail link redirector: /url?q=TARGET (or url=TARGET)
    _Wrapper(
        re.compile(r"(?:[a-z0-9-]+\.)*google\.(?:com?\.)?[a-z]{2,3}"),
        re.compile(r"/url"),
        ("q", "url"),
        _percent_decoded,
    ),
    # Facebook's and Messenger's link shim: l.facebook.com/l.php?u=TARGET (lm. on mobile)
    _Wrapper(re.compile(r"lm?\.facebook\.com|l\.messenger\.com"), re.compile(r"/l\.php"), ("u",), _percent_decoded),
    # Instagram's link shim: l.instagram.com/?u=TARGET
    _Wrapper(re.compile(r"l\.instagram\.com"), re.compile(r""), ("u",), _percent_decoded),
    # Reddit's outbound links: out.reddit.com/<thing>?url=TARGET
    _Wrapper(re.compile(r"out\.reddit\.com"), None, ("url",), _percent_decoded),
    # DuckDuckGo's result links: duckduckgo.com/l/?uddg=TARGET
    _Wrapper(re.compile(r"duckduckgo\.com"), re.compile(r"/l"), ("uddg",), _percent_decoded),
    # Bing's result links: bing.com/ck/a?…&u=a1<base64url of TARGET>
    _Wrapper(re.compile(r"bing\.com"), re.compile(r"/ck/a"), ("u",), _bing_decoded),
    # YouTube's description links: youtube.com/redirect?q=TARGET
    _Wrapper(re.compile(r"(?:m\.)?youtube\.com"), re.compile(r"/redirect"), ("q",), _percent_decoded),
    # Steam's link filter: steamcommunity.com/linkfilter/?url=TARGET
    _Wrapper(re.compile(r"steamcommunity\.com"), re.compile(r"/linkfilter"), ("url",), _percent_decoded),
    # VK's outbound links: vk.com/away.php?to=TARGET
    _Wrapper(re.compile(r"(?:m\.)?vk\.com"), re.compile(r"/away\.php"), ("to",), _percent_decoded),
)


@lru_cache(maxsize=4096)
def _wrappers_on(host: str) -> tuple[_Wrapper, ...]:
    return tuple(wrapper for wrapper in _WRAPPERS if wrapper.host.fullmatch(host))


def _wrapped_target(host: str, path: str, parameters: list[str]) -> str | None:
    """The target a redirect wrapper carries, from the wrapper's canonical host, path and parameters (so that
    a key, read again, is unwrapped exactly when its URL was); None when it is no wrapper or names no web page."""
    for wrapper in _wrappers_on(host):
        if wrapper.path is not None and not wrapper.path.fullmatch(path):
            continue
        values: dict[str, str] = {}
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            values.setdefault(name, value)
        for name in wrapper.names:
            if name in values:
                target = wrapper.decode(values[name])
                if target is not None and _WEB_TARGET.match(target.strip()):
                    return target
    return None


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
    given_scheme = scheme = parts.scheme.lower()
    web = scheme in _WEB_SCHEMES
    if web:
        scheme = _WEB_SCHEME_KEY
    userinfo, host, port = _split_netloc(parts.netloc)
    host = _canonical_host(host)
    port = _canonical_port(port, scheme, given_scheme)
    path = _canonical_path(parts.path, web)
    parameters = _parameters(parts.query, web)
    if web:
        # the target is shorter than its wrapper, so the recursion ends
        target = _wrapped_target(host, path, parameters)
        if target is not None:
            return normalize_url(target)
    netloc = ("" if web else userinfo) + host + (f":{port}" if port else "")
    query = _canonical_query(parameters, host)
    fragment = _canonical_fragment(parts.fragment)
    return f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "") + fragment


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
