"""What reaches a cassette: run-specific base URLs become stable aliases, credentials in headers,
query strings and JSON bodies and a key's every other echo (in any encoding: ``core.secrets``, a key that
cannot be told apart from data only where it stands as a credential) become ``<FILTERED>``, and rate-limit
and server errors are never recorded."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pytest_websearchbench.core.secrets import FILTERED, text_scrubber

if TYPE_CHECKING:
    from vcr.request import Request as VcrRequest  # (vcrpy ships no types: Any)

SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "apikey",
        "x-subscription-token",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
    }
)
#: query parameters and JSON fields that carry credentials ("cx": Google's search engine id, private and
#: absent in a keyless replay, so filtering it by name also lets the replay match)
SECRET_PARAMS = frozenset({"api_key", "apikey", "key", "token", "access_token", "auth", "x-api-key", "cx"})
#: JSON fields whose string values are credentials
SECRET_FIELDS = SECRET_PARAMS | {"api-key"}


def alias_url(url: str, aliases: dict[str, str]) -> str:
    """``url`` with the run-specific base URL it starts with replaced by its alias; a base URL matches
    whole path segments only (``…/tinyfish`` is no base of ``…/tinyfish-fetch/``), the longest first."""
    for real in sorted(aliases, key=len, reverse=True):
        if url == real or url.startswith((real + "/", real + "?")) or (real.endswith("/") and url.startswith(real)):
            return aliases[real] + url[len(real) :]
    return url


class SecretFilter:
    """Rewrites requests and responses before vcrpy stores or matches them.

    Run-specific base URLs become their aliases (so a cassette does not depend on a port);
    credentials in headers, query strings and JSON bodies become ``<FILTERED>``, and so does every other
    echo of a key (``core.secrets``: a telling key anywhere, another only as a credential's value). A key
    that is also a word of the data stays where it is data: in the answer the test scores, and in the
    query a replay without the key must still match.
    """

    def __init__(self, aliases: dict[str, str], secrets: list[str]) -> None:
        self.aliases = aliases
        self._hosts = [(urlsplit(real).netloc, urlsplit(alias).netloc) for real, alias in aliases.items()]
        self.secrets = [s for s in secrets if s]
        # an item's every header and body: the patterns once
        self._scrub = text_scrubber(self.secrets, echoes=True)

    def _alias_hosts(self, text: str) -> str:
        """The ``host`` header names the run's port too: give it the alias's host."""
        for real, alias in self._hosts:
            text = text.replace(real, alias)
        return text

    def scrub(self, text: str) -> str:
        return self._scrub(text)

    def request(self, request: VcrRequest) -> VcrRequest:
        request.uri = self.scrub(_filter_query(alias_url(request.uri, self.aliases)))
        for name, value in list(request.headers.items()):
            if name.lower() in SECRET_HEADERS:
                request.headers[name] = FILTERED
            elif (clean := self.scrub(self._alias_hosts(str(value)))) != value:
                request.headers[name] = clean
        if request.body:
            request.body = self._scrub_body(request.body)
        return request

    def response(self, response: dict[str, Any]) -> dict[str, Any] | None:
        if response["status"]["code"] == 429 or response["status"]["code"] >= 500:
            return None
        headers = response.get("headers", {})
        for name in list(headers):
            if name.lower() in SECRET_HEADERS:
                del headers[name]
            else:
                headers[name] = [self.scrub(str(v)) for v in headers[name]]
        body = response.get("body", {})
        if body.get("string"):
            body["string"] = self._scrub_body(body["string"])
        return response

    def _scrub_body(self, body: bytes | str) -> bytes | str:
        text = body.decode("utf-8", "surrogateescape") if isinstance(body, bytes) else body
        try:
            text = json.dumps(json.loads(text, object_pairs_hook=_filter_fields), ensure_ascii=False)
        except ValueError:
            pass
        text = self.scrub(text)
        return text.encode("utf-8", "surrogateescape") if isinstance(body, bytes) else text


def _filter_query(uri: str) -> str:
    parts = urlsplit(uri)
    if not parts.query:
        return uri
    pairs = [
        (k, FILTERED if k.lower() in SECRET_PARAMS else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit(parts._replace(query=urlencode(pairs)))


def _filter_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One JSON object as it is parsed (inner ones first), its credential fields' strings filtered: only
    objects go through Python, not every value of a large answer."""
    return {key: FILTERED if isinstance(value, str) and key.lower() in SECRET_FIELDS else value for key, value in pairs}
