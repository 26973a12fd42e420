"""The world's server-rendered web apps on 127.0.0.1: page rendering, app pages, forms, the HTTP server."""
