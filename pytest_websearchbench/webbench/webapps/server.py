"""The world's web server: real HTTP on 127.0.0.1, pages rendered from ``world.db``, HTML only.

At start it keeps a copy of the untouched database as ``world_before.db``. Every request goes to the
web trace (method, path, status, page kind, and the primary keys and dates rendered on the page);
every committed write goes to the call trace, with the row as the commit left it. Both share one
sequence counter, so the verifier can tell what was read before what was written. The traces live
in the server's process (:class:`~pytest_websearchbench.webbench.webapps.trace.ServerTrace`, what the
verifier reads) and in HMAC-chained files (``web_trace.jsonl``, ``call_trace.jsonl``) it checks.

The traces are graded evidence, so the HTTP layer is strict where ``http.server`` is lenient, the
way production servers are: a body is framed by one valid ``Content-Length`` or the request is
refused (400 for a malformed or conflicting length or header block, 501 for ``Transfer-Encoding``,
413 above ``MAX_BODY``), every refusal closes the connection after draining what the client still
sends (it reads a status, not a reset, and no byte of a refused body is ever parsed as a request),
and a failure inside a page is a 500 page, never a dropped connection. A confirmation token is
honoured once, and only by the server that issued it.

    python -m pytest_websearchbench.webbench.webapps.server --task suites/webbench-sample/wb-workplace-workplace-004-open-points-038e07-s1
    python -m pytest_websearchbench.webbench.webapps.server --world environment/world.json --host 0.0.0.0 --port 8080
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler, QuietServer, port_argument
from pytest_websearchbench.webbench.webapps import apps, forms
from pytest_websearchbench.webbench.webapps.appsets import APPSETS
from pytest_websearchbench.webbench.webapps.folders import new_world_folder
from pytest_websearchbench.webbench.webapps.render import Page, form_html, hidden, input_html, record_url, text
from pytest_websearchbench.webbench.webapps.trace import BEFORE_DB, CALL_TRACE, WEB_TRACE, WORLD_DB, ServerTrace
from pytest_websearchbench.webbench.world.build import world_schema_of
from pytest_websearchbench.webbench.world.schema import APP_OF

#: the largest request body read (a form is a few hundred bytes); larger ones get 413
MAX_BODY = 1 << 20
#: after a refusal, how long and how much of the client's remaining upload is read and dropped
LINGER_SECONDS, LINGER_BYTES = 5.0, 64 << 20
_LENGTH = re.compile(r"[0-9]+")
_ROUTE = re.compile(
    r"^/(?P<app>[a-z]+)/(?P<table>[a-z_]+)(?:/(?P<pk>[A-Z]+-\d+|new)(?:/(?P<action>[a-z]+))?"
    r"(?P<commit>/commit)?)?/?$"
)


class Response:
    def __init__(self, status: int, page: Page | None = None, location: str | None = None) -> None:
        self.status = status
        self.page = page
        self.location = location


class WorldServer:
    def __init__(self, world_dir: Path, host: str = "127.0.0.1", port: int = 0, secret: bytes | None = None) -> None:
        self.dir = Path(world_dir)
        self.db_path = self.dir / WORLD_DB
        if not self.db_path.is_file():
            raise FileNotFoundError(f"no {WORLD_DB} in {self.dir}")
        con = sqlite3.connect(self.db_path)
        try:
            self.world = world_schema_of(con).world
        finally:
            con.close()
        self.apps = APPSETS[self.world]
        self.forms = forms.FORMS[self.world]
        self._form_by_route = {(f.table, f.action): f for f in self.forms.values()}
        if not (self.dir / BEFORE_DB).exists():
            shutil.copyfile(self.db_path, self.dir / BEFORE_DB)
        self.trace = ServerTrace(self.dir)
        self.secret = secret or os.urandom(32)
        self._lock = threading.Lock()
        self._seq = 0
        self._open_confirmations: set[str] = set()  # nonces issued on confirmation pages, not yet committed
        self._http = LoopbackServer(_handler(self), host=host, port=port, name="wsb-world", server_class=_HTTPServer)

    @property
    def base_url(self) -> str:
        return self._http.url

    def start(self) -> WorldServer:
        self._http.start()
        return self

    def stop(self) -> None:
        self._http.close()

    def __enter__(self) -> WorldServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ------------------------------------------------------------------------------ requests
    def handle(self, method: str, target: str, body: bytes) -> Response:
        with self._lock:
            self._seq += 1
            seq = self._seq
            con = sqlite3.connect(self.db_path)
            con.row_factory = sqlite3.Row
            try:
                response = self._dispatch(con, seq, method, target, body)
            except apps.NotFound as exc:
                response = Response(404, _error_page("Not found", str(exc)))
            except apps.BadRequest as exc:
                response = Response(400, _error_page("Bad request", str(exc)))
            except Exception as exc:  # a bug of a page: the client gets a 500 page, the server keeps serving
                print(f"wsb world server: {method} {target[:200]}: {type(exc).__name__}: {exc}", file=sys.stderr)
                response = Response(
                    500, _error_page("Server error", f"This page failed ({type(exc).__name__}); nothing was saved.")
                )
            finally:
                con.close()  # uncommitted changes are rolled back
            self._trace(seq, method, target, response)
            return response

    def refuse(self, method: str, target: str, status: int, title: str, message: str) -> Response:
        """A request refused before it was read (bad framing, too large): traced, answered, never served."""
        response = Response(status, _error_page(title, message))
        with self._lock:
            self._seq += 1
            self._trace(self._seq, method, target, response)
        return response

    def _trace(self, seq: int, method: str, target: str, response: Response) -> None:
        page = response.page
        self.trace.append(
            WEB_TRACE,
            {
                "seq": seq,
                "method": method,
                "path": target,
                "status": response.status,
                "kind": page.kind if page else "redirect",
                "pks": page.pks if page else [],
                "dates": page.dates if page else [],
            },
        )

    def _dispatch(self, con: sqlite3.Connection, seq: int, method: str, target: str, body: bytes) -> Response:
        parts = urlsplit(target)
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        if parts.path in ("", "/"):
            return Response(200, apps.launcher(self.apps))
        if parts.path in (forms.DECISION_PATH, forms.DECISION_PATH + "/commit"):
            return self._form(
                con, seq, method, self.forms["decisions.new"], None, body, commit=parts.path.endswith("/commit")
            )
        match = _ROUTE.match(parts.path)
        if not match:
            raise apps.NotFound(f"no page at {parts.path}")
        app, table, pk, action, commit = match.group("app", "table", "pk", "action", "commit")
        if table not in self.apps.lists or APP_OF[table] != app or pk == "new":
            raise apps.NotFound(f"no app page at {parts.path}")
        if pk is None:
            if method != "GET":
                return Response(405, _error_page("Method not allowed", "lists are read with GET"))
            return Response(200, apps.list_page(con, self.apps, table, params))
        if action is None:
            return Response(200, apps.detail_page(con, self.apps, table, pk, "Saved." if params.get("saved") else ""))
        form = self._form_by_route.get((table, action))
        if form is None:
            raise apps.NotFound(f"no form {action!r} on {table}")
        apps.detail_page(con, self.apps, table, pk)  # 404 for an unknown record
        return self._form(con, seq, method, form, pk, body, commit=bool(commit))

    def _form(
        self,
        con: sqlite3.Connection,
        seq: int,
        method: str,
        form: forms.FormSpec,
        pk: str | None,
        body: bytes,
        *,
        commit: bool,
    ) -> Response:
        if method == "GET" and not commit:
            return Response(200, _form_page(form, pk, forms.initial_values(con, form, pk), {}))
        if method != "POST":
            return Response(405, _error_page("Method not allowed", "commits are POSTed from the confirmation page"))
        submitted = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        values = forms.normalize(form, submitted)
        nonce = forms.vouched_nonce(self.secret, form, pk, values, submitted.get("token", "")) if commit else None
        if commit and nonce is None:
            return Response(
                400,
                _error_page(
                    "Confirmation does not match",
                    "The token does not vouch for these arguments; nothing was written. "
                    "Fill the form again and confirm.",
                ),
            )
        if commit and nonce not in self._open_confirmations:
            return Response(
                409,
                _error_page(
                    "Confirmation already used",
                    "This confirmation was committed before (or belongs to another "
                    "session); nothing was written. Fill the form again and confirm.",
                ),
            )
        errors = forms.validate(con, form, pk, values)
        if errors:
            return Response(422, _form_page(form, pk, values, errors))
        if not commit:
            nonce = secrets.token_hex(8)
            self._open_confirmations.add(nonce)
            return Response(200, _confirm_page(form, pk, values, forms.sign(self.secret, form, pk, values, nonce)))
        new_pk, op, written = forms.commit(con, form, pk, values)
        self._open_confirmations.discard(nonce)
        self.trace.append(
            CALL_TRACE, {"seq": seq, "form": form.key, "table": form.table, "pk": new_pk, "op": op, "values": written}
        )
        row = con.execute(f"SELECT * FROM {form.table} WHERE id = ?", [new_pk]).fetchone()
        self.trace.committed_row(form.table, new_pk, dict(row))
        return Response(303, location=record_url(form.table, new_pk) + "?saved=1")


def _error_page(title: str, message: str) -> Page:
    return Page(title, "error").heading(title).para(message)


def _form_page(form: forms.FormSpec, pk: str | None, values: dict[str, str], errors: dict[str, str]) -> Page:
    page = Page(f"{form.title} {pk or ''}".strip(), "form").heading(f"{form.title} {pk or ''}".strip())
    page.saw(pk)
    if errors:
        page.para("The form has errors; nothing was saved.", "error")
        for name, message in errors.items():
            page.para(f"Error in {name}: {message}", "error")
    controls = [
        input_html(
            f.name,
            f.label,
            values.get(f.name, ""),
            {"date": "text", "int": "number", "amount": "text"}.get(f.kind, f.kind),
            f.choices,
        )
        for f in form.fields
    ]
    page.add(form_html(form.path(pk), "post", controls, "Continue"))
    page.link("Cancel", record_url(form.table, pk) if pk else "/")
    return page


def _confirm_page(form: forms.FormSpec, pk: str | None, values: dict[str, str], token: str) -> Page:
    page = Page(f"Confirm: {form.title} {pk or ''}".strip(), "confirm").heading(
        f"Confirm: {form.title} {pk or ''}".strip()
    )
    page.saw(pk)
    page.para("Check the values below. Nothing is saved until you commit.")
    page.fields((f.label, text(values[f.name])) for f in form.fields)
    page.add(
        form_html(
            form.path(pk) + "/commit",
            "post",
            [hidden(name, value) for name, value in values.items()] + [hidden("token", token)],
            "Commit",
        )
    )
    page.link("Cancel", record_url(form.table, pk) if pk else "/")
    return page


class _HTTPServer(QuietServer):
    label = "wsb world server"


def _framing_problem(headers: Any) -> tuple[int, str, str] | None:
    """Why a request's header block cannot frame a body (status, title, message), or None."""
    if headers.defects or headers.get_payload():  # a line that is no header, e.g. "Content-Length : 5"
        return 400, "Bad request", "The header block has a malformed line."
    if headers.get("Transfer-Encoding") is not None:
        return 501, "Not implemented", "Transfer-Encoding is not supported; send the body with a Content-Length."
    lengths = {v.strip() for value in headers.get_all("Content-Length", []) for v in value.split(",")}
    if len(lengths) > 1 or not all(_LENGTH.fullmatch(v) for v in lengths):
        return 400, "Bad request", "Content-Length must be one whole number of bytes."
    if lengths and (len(length := next(iter(lengths))) > 19 or int(length) > MAX_BODY):
        return 413, "Content too large", f"A request body may have at most {MAX_BODY} bytes."
    return None


def _handler(server: WorldServer) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):  # the web trace is the log
        protocol_version = "HTTP/1.1"
        timeout = 60  # an idle keep-alive connection does not hold its thread forever

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def _serve(self, method: str) -> None:
            problem = _framing_problem(self.headers)
            if problem is not None:
                self._respond(server.refuse(method, self.path, *problem), close=True)
                self._linger()
                return
            # a GET's body is read too: left unread, its bytes would be parsed as the next request
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._respond(server.handle(method, self.path, body), close=self.close_connection)

        def _respond(self, response: Response, *, close: bool) -> None:
            body = (
                response.page.html(server.apps.nav)
                if response.page
                else f'<!doctype html><title>See other</title><a href="{response.location}">continue</a>'
            ).encode()
            self.send_response(response.status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            if response.location:
                self.send_header("Location", response.location)
            if close:
                self.send_header("Connection", "close")  # also sets close_connection
            self.end_headers()
            self.wfile.write(body)

        def _linger(self) -> None:
            """Send the answer, then read and drop what the client still uploads before closing, as
            production servers do: closing with unread data makes the kernel reset the connection,
            and the client loses the answer it was sent."""
            try:
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_WR)
                self.connection.settimeout(1.0)
                deadline, drained = time.monotonic() + LINGER_SECONDS, 0
                while drained < LINGER_BYTES and time.monotonic() < deadline:
                    chunk = self.rfile.read1(1 << 16)
                    if not chunk:
                        break
                    drained += len(chunk)
            except OSError:  # the client is gone, or went quiet
                pass

    return Handler


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    from pytest_websearchbench.webbench.world.build import content_digest, load_world_spec, world_bytes
    from pytest_websearchbench.webbench.world.toolkit import GenerationError

    parser = argparse.ArgumentParser(prog=prog, description="Serve a WebBench task's world until interrupted.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--task", type=Path, help="a Harbor task folder")
    source.add_argument(
        "--world",
        type=Path,
        help="a task's environment/world.json alone (the world server's container holds nothing else of the task)",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=port_argument, default=0)
    parser.add_argument(
        "--dir", type=Path, help="world folder, kept at the end (default: a temporary folder, removed at the end)"
    )
    args = parser.parse_args(argv)
    if args.task is not None and not args.task.is_dir():
        parser.error(
            f"--task {args.task}: {'not a folder' if args.task.exists() else 'no such folder'} (a Harbor task)"
        )
    # a task's world is its environment/world.json: serving needs nothing else of the package
    try:
        spec, digest = load_world_spec(args.task / "environment" / "world.json" if args.task else args.world)
        data = world_bytes(spec)
    except (WebSearchBenchError, GenerationError) as exc:  # a missing, unreadable or invalid world.json: one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    name = args.task.name if args.task else f"{spec.template}-s{spec.seed}"
    if content_digest(data) != digest:
        print(
            f"{name}: this generator builds {content_digest(data)}, the task records {digest}; "
            "regenerate the task with this version",
            file=sys.stderr,
        )
        return 2
    # SIGTERM ends the server like Ctrl-C does: through the finally below, which removes the folder
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    folder = args.dir or new_world_folder(name)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / WORLD_DB).write_bytes(data)
        with WorldServer(folder, host=args.host, port=args.port) as server:
            print(f"{name}: serving {server.base_url} from {folder} (Ctrl-C to stop)", flush=True)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # --dir not a folder one can write, a port in use, a host that is not this machine's
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
