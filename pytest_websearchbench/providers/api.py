"""The shared shape of a keyed web API adapter: credentials, options, requests, response reading.

An adapter subclasses ``ApiProvider`` and declares, as class attributes, its default base
URL, the environment variable of its key and where the key travels (``Auth``), its options
(``Option``: settable by ``WSB_<NAME>_<OPTION>`` or the ini key ``wsb_<name>_<option>``) and its
list prices; it then writes two small methods per capability: ``search_request``/``parse_search``
and, where the API can fetch pages, ``fetch_request``/``parse_fetch``. Everything else —
retries, rate limits, timing, cost, secrets, error wording — is shared.

Response reading is strict where it matters: ``field(body, "web.results", list)`` names the
exact path that is missing or mistyped (outcome ``bad_response``), an empty list is a legitimate
answer (outcome ``empty``, flagged in reports), malformed JSON is its own outcome.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, ClassVar, TypeVar

from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.base import HttpProvider, ProviderContext
from pytest_websearchbench.providers.endpoints import Endpoint
from pytest_websearchbench.providers.retry import HttpOptions

#: the key sent in replay mode when none is set: requests then match their cassettes
#: (secret headers and parameters are stored as <FILTERED>) and nothing goes out live
REPLAY_KEY = "replay-only-no-key"

_T = TypeVar("_T")
_MISSING = object()
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class MissingCredentialError(ConfigurationError):
    """A provider's key (or another required setting) is not set, and the run may go live.

    Examples:
        ``ApiProvider.from_context`` raises it when the provider's ``key_env`` is unset and the run may call out:

        >>> from pytest_websearchbench.api import ApiProvider, MissingCredentialError, ProviderContext
        >>> class Keyed(ApiProvider):
        ...     key_env = "KEYED_API_KEY"
        ...     docs = "https://keyed.example/docs"
        >>> live = ProviderContext("keyed", environ={}, ini=lambda key: "", calls_out=True)
        >>> try:
        ...     Keyed.from_context(live)
        ... except MissingCredentialError as exc:
        ...     print(exc.kind, "|", exc)
        missing_key | provider 'keyed' needs an API key: set KEYED_API_KEY (see https://keyed.example/docs),
        or replay its cassettes without a key with --wsb-record-mode=none
    """

    kind = "missing_key"


@dataclass(frozen=True)
class Auth:
    """Where the key travels: a header (``value_prefix`` + key) or a query parameter.

    Examples:
        >>> from pytest_websearchbench.api import Auth
        >>> Auth.bearer()
        Auth(header='Authorization', value_prefix='Bearer ', query_param=None)
        >>> Auth(header="X-Api-Key").header
        'X-Api-Key'
        >>> Auth(query_param="api_key").query_param  # the key as ?api_key=...
        'api_key'
    """

    header: str | None = None
    value_prefix: str = ""
    query_param: str | None = None

    @classmethod
    def bearer(cls) -> Auth:
        return cls(header="Authorization", value_prefix="Bearer ")


@dataclass(frozen=True)
class Option:
    """A provider setting a user changes without code: env ``WSB_<NAME>_<OPTION>`` or ini
    ``wsb_<name>_<option>``. Empty means "the API's own default" (the field is not sent).

    Examples:
        An adapter lists its options in ``ApiProvider.options``; ``read`` is what ``from_context`` calls:

        >>> from pytest_websearchbench.api import Option, ProviderContext, flag
        >>> safe = Option("safe", default="on", type=flag, help="filter adult results")
        >>> region = Option("region", choices=("eu", "us"), help="the index searched")
        >>> context = ProviderContext("acme", environ={"WSB_ACME_SAFE": "off"}, ini=lambda key: "", calls_out=False)
        >>> safe.read(context)
        False
        >>> region.read(context) is None  # unset: the API's own default, the field is not sent
        True
    """

    name: str
    default: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()
    type: Callable[[str], Any] = str

    def read(self, context: ProviderContext) -> Any:
        raw = context.option(self.name, self.default).strip()
        if not raw:
            return None
        if self.choices and raw not in self.choices:
            raise ConfigurationError(
                f"{context.name}: option {self.name}={raw!r} is not one of {', '.join(self.choices)} "
                f"(set by WSB_{_stem(context.name).upper()}_{self.name.upper()} or "
                f"ini wsb_{_stem(context.name)}_{self.name})"
            )
        try:
            return self.type(raw)
        except ValueError:
            raise ConfigurationError(
                f"{context.name}: option {self.name}={raw!r} is not a valid {getattr(self.type, '__name__', 'value')}"
            ) from None


def _stem(variant: str) -> str:
    """How a variant's settings are named: ``serper@prod`` → ``serper_prod`` (``-`` and ``@`` become ``_``)."""
    return variant.replace("-", "_").replace("@", "_")


def flag(text: str) -> bool:
    """An option value read as a boolean.

    Examples:
        >>> from pytest_websearchbench.api import flag
        >>> flag(" Yes"), flag("off"), flag("1")
        (True, False, True)
        >>> flag("sometimes")
        Traceback (most recent call last):
        ...
        ValueError: sometimes
    """
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


flag.__name__ = "boolean (true/false)"


@dataclass(frozen=True)
class ApiRequest:
    """One HTTP request an adapter wants sent (``path`` relative to its base URL, or absolute).

    Examples:
        What ``ApiProvider.search_request`` returns; a parameter left None is not sent:

        >>> from pytest_websearchbench.api import ApiRequest
        >>> request = ApiRequest("GET", "/v2/find", params={"q": "tide tables", "lang": None})
        >>> request.kwargs()
        {'params': {'q': 'tide tables'}}
        >>> ApiRequest("POST", "/v2/find", json={"q": "tide tables", "n": 5}).kwargs()
        {'json': {'q': 'tide tables', 'n': 5}}
    """

    method: str
    path: str
    params: Mapping[str, Any] | None = None
    json: Any = None
    headers: Mapping[str, str] = dc_field(default_factory=dict)

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.params:
            out["params"] = {k: v for k, v in self.params.items() if v is not None}
        if self.json is not None:
            out["json"] = self.json
        if self.headers:
            out["headers"] = dict(self.headers)
        return out


def compact(**fields: Any) -> dict[str, Any]:
    """A request body or query without the fields left unset (None).

    Examples:
        >>> from pytest_websearchbench.api import compact
        >>> compact(q="tide tables", limit=5, region=None, safe=False)
        {'q': 'tide tables', 'limit': 5, 'safe': False}
    """
    return {k: v for k, v in fields.items() if v is not None}


class ApiProvider(HttpProvider):
    """A keyed web search/fetch API; subclasses declare the class attributes below.

    Examples:
        An adapter declares where the API is and how its key travels, then builds each request and reads each
        answer; sending, retries, timing and cost are shared. Its two methods run here without a network:

        >>> from pytest_websearchbench.api import ApiProvider, ApiRequest, Auth, Option, ProviderContext, compact
        >>> class Acme(ApiProvider):
        ...     default_base_url = "https://api.acme.test"
        ...     key_env = "ACME_API_KEY"
        ...     auth = Auth.bearer()
        ...     options = (Option("region", choices=("eu", "us"), help="the index searched"),)
        ...     docs = "https://acme.test/docs/search"
        ...     prices = {"search": 3.0}  # USD per 1,000 searches
        ...
        ...     def search_request(self, query, k):
        ...         body = compact(q=query, limit=k, region=self.settings["region"])
        ...         return ApiRequest("POST", "/v1/search", json=body)
        ...
        ...     def parse_search(self, body, k):
        ...         return self.hits(self.field(body, "results", list), "results", snippet="summary")
        >>> environ = {"ACME_API_KEY": "k-123", "WSB_ACME_REGION": "eu"}
        >>> acme = Acme.from_context(ProviderContext("acme", environ, ini=lambda key: "", calls_out=True))
        >>> acme.search_request("tide tables", 2)
        ApiRequest(method='POST', path='/v1/search', params=None,
                   json={'q': 'tide tables', 'limit': 2, 'region': 'eu'}, headers={})
        >>> acme.parse_search({"results": [{"url": "https://example.org/t", "summary": "High water 06:12"}]}, 2)
        [Hit(rank=1, url='https://example.org/t', title='', snippet='High water 06:12', extra={})]
        >>> acme.parse_search({"items": []}, 2)
        Traceback (most recent call last):
        ...
        pytest_websearchbench.core.exceptions.ProviderError: acme: the response lacks field 'results'
        >>> acme.close()

        ``acme.search(query, k)`` sends the request and parses the answer; registered
        (``registry.add("acme", Acme.from_context)``), it runs as ``pytest --provider=acme``.
    """

    #: where the vendor serves the API (``WSB_<NAME>_BASE_URL`` or ini ``wsb_<name>_base_url`` override it)
    default_base_url: ClassVar[str] = ""
    #: the vendor's customary environment variable for the key; None for keyless APIs
    key_env: ClassVar[str | None] = None
    #: other environment variables whose values are private (an engine id): scrubbed like the key
    private_env: ClassVar[tuple[str, ...]] = ()
    auth: ClassVar[Auth] = Auth()
    options: ClassVar[tuple[Option, ...]] = ()
    #: the vendor document the adapter follows (also in the module docstring)
    docs: ClassVar[str] = ""
    #: headers every request carries (besides the key)
    headers: ClassVar[Mapping[str, str]] = {"Accept": "application/json"}

    def __init__(
        self,
        name: str,
        base_url: str,
        key: str,
        settings: Mapping[str, Any],
        http: HttpOptions | None = None,
        *,
        live_key: bool = True,
    ) -> None:
        headers = dict(self.headers)
        params = {}
        if self.key_env and self.auth.header:
            headers[self.auth.header] = self.auth.value_prefix + key
        if self.key_env and self.auth.query_param:
            params[self.auth.query_param] = key
        self.name = name
        self.settings = dict(settings)
        self._key = key if live_key else ""
        super().__init__(base_url, headers, http=http, params=params)

    @classmethod
    def from_context(cls, context: ProviderContext) -> ApiProvider:
        """Read the key, base URL and options; without a key a run that may record is refused."""
        key = context.environ.get(cls.key_env, "").strip() if cls.key_env else ""
        live_key = bool(key)
        if cls.key_env and not key:
            if context.calls_out:
                endpoint = Endpoint.parse(context.name)  # a labelled endpoint's own key comes first
                wanted = f"{endpoint.key_var} (or {cls.key_env})" if endpoint.label else cls.key_env
                raise MissingCredentialError(
                    f"provider {context.name!r} needs an API key: set {wanted} (see {cls.docs}), "
                    f"or replay its cassettes without a key with --wsb-record-mode=none"
                )
            key = REPLAY_KEY
        settings = {option.name: option.read(context) for option in cls.options}
        provider = cls(context.name, cls.resolve_base_url(context), key, settings, context.http, live_key=live_key)
        provider.check_settings(context)
        return provider

    @classmethod
    def resolve_base_url(cls, context: ProviderContext) -> str:
        return context.base_url(cls.default_base_url)

    def check_settings(self, context: ProviderContext) -> None:
        """Adapters with more required settings raise MissingCredentialError here."""

    def secrets(self) -> list[str]:
        return [self._key] if self._key else []

    def produced_by(self) -> dict[str, str]:
        """The options in force (``WSB_<NAME>_*``): they change what the API answers. Endpoints and
        credentials are left out — a recording made through any endpoint, with any key, replays anywhere."""
        secrets = set(self.secrets())
        return {
            name: str(value)
            for name, value in sorted(self.settings.items())
            if value is not None and not name.endswith("base_url") and value not in secrets
        }

    def cassette_aliases(self) -> dict[str, str]:
        """Cassettes name the vendor's own base URL, whatever endpoint (proxy, emulator) served them,
        so a recording replays with any base URL."""
        if self.default_base_url and self.base_url != self.default_base_url:
            return {self.base_url: self.default_base_url}
        return {}

    # -- what adapters implement -------------------------------------------------------------

    def search_request(self, query: str, k: int) -> ApiRequest:
        raise NotImplementedError

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        raise NotImplementedError

    def fetch_request(self, url: str) -> ApiRequest | None:
        """None: this API cannot fetch pages."""
        return None

    @classmethod
    def can_fetch(cls) -> bool:
        """An API fetches pages when its adapter writes a fetch request (or a fetch of its own)."""
        return cls.fetch_request is not ApiProvider.fetch_request or cls.fetch is not ApiProvider.fetch

    def parse_fetch(self, body: Any, url: str) -> Page:
        raise NotImplementedError

    # -- the shared flow -----------------------------------------------------------------------

    def search(self, query: str, k: int) -> list[Hit]:
        request = self.search_request(query, k)
        body = self.request_json("search", request.method, request.path, **request.kwargs())
        hits = self._read(lambda: self.parse_search(body, k))[:k]
        if not hits:
            self.flag_last_call("empty", failed=False)
        # every hit says when its answer arrived: a vendor's relative dates ("3 days ago") count back from it
        received = {"received_at": self.calls[-1].received_at}
        return [
            Hit(rank, hit.url, hit.title, hit.snippet, {**hit.extra, **received})
            for rank, hit in enumerate(hits, start=1)
        ]

    def fetch(self, url: str, objective: str = "") -> Page:  # no objective: accepts_objective is False
        request = self.fetch_request(url)
        if request is None:
            return super().fetch(url)
        body = self.request_json("fetch", request.method, request.path, **request.kwargs())
        return self._read(lambda: self.parse_fetch(body, url))

    def _read(self, parse: Callable[[], _T]) -> _T:
        try:
            return parse()
        except ProviderError as exc:
            self.flag_last_call(exc.kind, failed=True)
            if self.calls:  # the answer that could not be read: its status and attempts
                exc.status = exc.status or self.calls[-1].status
                exc.attempts = exc.attempts or self.calls[-1].attempts
            raise

    # -- helpers for parse_* ------------------------------------------------------------------

    def field(
        self,
        value: Any,
        path: str,
        kind: type | tuple[type, ...] = object,
        *,
        default: Any = _MISSING,
        where: str = "response",
    ) -> Any:
        """``value`` at ``path`` (``a.b[0].c``); a missing or mistyped field is a ``bad_response``
        error naming the path, unless a ``default`` is given (used when the field is absent or null)."""
        current = value
        walked = ""
        for name, index in _PATH_PART.findall(path):
            walked += f"[{index}]" if index else (f".{name}" if walked else name)
            if index:
                ok = isinstance(current, list) and int(index) < len(current)
                current = current[int(index)] if ok else _MISSING
            else:
                current = current.get(name, _MISSING) if isinstance(current, dict) else _MISSING
            if current is _MISSING or current is None:
                if default is not _MISSING:
                    return default
                raise self.fail(f"the {where} lacks field {walked!r}", kind="bad_response")
        if kind is not object and not isinstance(current, kind):
            names = " or ".join(t.__name__ for t in (kind if isinstance(kind, tuple) else (kind,)))
            raise self.fail(
                f"the {where} has field {path!r} of type {type(current).__name__}, expected {names}",
                kind="bad_response",
            )
        return current

    def hits(
        self,
        rows: list[Any],
        where: str,
        *,
        url: str = "url",
        title: str = "title",
        snippet: str | Callable[[dict[str, Any]], str] = "snippet",
        extra: Mapping[str, str] | None = None,
        keep: Callable[[dict[str, Any]], bool] | None = None,
    ) -> list[Hit]:
        """Hits from result objects, in the provider's order: ``url`` is required, ``title`` and
        ``snippet`` may be absent (empty), ``extra`` copies {name: field} when present."""
        out: list[Hit] = []
        for index, row in enumerate(rows):
            at = f"{where}[{index}]"
            if not isinstance(row, dict):
                raise self.fail(
                    f"the response has {at} of type {type(row).__name__}, expected an object", kind="bad_response"
                )
            if keep is not None and not keep(row):
                continue
            text = snippet(row) if callable(snippet) else self.field(row, snippet, str, default="", where=at)
            out.append(
                Hit(
                    rank=len(out) + 1,
                    url=self.field(row, url, str, where=f"response's {at}"),
                    title=self.field(row, title, str, default="", where=f"response's {at}"),
                    snippet=text,
                    extra={name: row[key] for name, key in (extra or {}).items() if row.get(key) not in (None, "", [])},
                )
            )
        return out

    def page_not_fetched(self, url: str, reason: str) -> ProviderError:
        return self.fail(f"could not fetch {url}: {reason}", kind="fetch_failed", url=url, detail=reason)


def join_snippets(parts: Any, sep: str = " … ") -> str:
    """Several excerpts of one result as one snippet (non-strings are ignored).

    Examples:
        >>> from pytest_websearchbench.api import join_snippets
        >>> join_snippets(["High water at 06:12. ", None, "Low water at 12:30."])
        'High water at 06:12. … Low water at 12:30.'
        >>> join_snippets("Already one snippet"), join_snippets({"text": "not a list"})
        ('Already one snippet', '')
    """
    if isinstance(parts, str):
        return parts
    if not isinstance(parts, list):
        return ""
    return sep.join(p.strip() for p in parts if isinstance(p, str) and p.strip())
