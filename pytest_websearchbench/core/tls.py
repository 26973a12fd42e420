"""The process's one TLS context for its HTTP clients: httpx's defaults (its certificates, and the
SSL_CERT_FILE / SSL_CERT_DIR it reads), built once. Loading the certificates takes 20–50 ms, which
every provider, model client and browser (one a WebBench episode) paid again when it made its client."""

from __future__ import annotations

import ssl
from functools import cache


@cache
def client_tls() -> ssl.SSLContext:
    import httpx  # loaded by the first HTTP client, not by every pytest start

    return httpx.create_ssl_context()
