"""The HTTP side of `league serve`: a threaded http.server on 127.0.0.1 (or --host) serving out/, with the reload script
added to the HTML it sends (never to the built files), the server's own /__league/ addresses, and the error
page while the content is broken. Every address a request names is first reduced to one path under the
site's root (site_path): no answer ever points outside this host or outside out/."""
from __future__ import annotations

import functools
import os
import socket
import stat
import sys
import traceback
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import SplitResult, quote, unquote, urlsplit

import click

from league.cli.serve.live import (EVENTS_PATH, PREVIOUS, SCRIPT_PATH, VERSION_PATH, RELOAD_JS, Live, State,
                                   error_page, inject, stream_events, version_document)

MAX_TARGET = 4096                 # characters of a request's target (PATH_MAX): a longer one gets 414
NAME_MAX = 255                    # bytes of one path segment: no file of a site has a longer name
HTML = (".html", ".htm")


def site_path(path: str) -> str | None:
    """A request's percent-decoded path as the one path under the site's root it names: "/" and non-empty
    segments joined by single slashes, "." dropped, ".." taking back one segment and never climbing above the
    root, a trailing "/" kept for a folder. None for a path no file of a site can have: a backslash (browsers
    read "/\\host" as "//host"), a control character or a segment longer than NAME_MAX bytes. What this returns
    (quoted) is the only thing a redirect of the server may point at: it starts with exactly one "/" and has
    neither "//", "\\" nor a scheme, so it always stays on this host."""
    segments: list[str] = []
    parts = path.split("/")
    for seg in parts:
        if seg in ("", "."):
            continue
        if seg == "..":
            if segments:
                segments.pop()
            continue
        if "\\" in seg or not seg.isprintable() or len(seg.encode("utf-8", "surrogatepass")) > NAME_MAX:
            return None
        segments.append(seg)
    out = "/" + "/".join(segments)
    if segments and (parts[-1] in ("", ".", "..")):
        out += "/"
    return out


def _stat_kind(fs: Path) -> str | None:
    """"dir", "file" or None (missing, or a name the file system refuses: too long, not encodable)."""
    try:
        mode = os.stat(fs).st_mode
    except (OSError, ValueError):
        return None
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else None


def _unprefixed(path: str, prefix: str) -> str:
    """The path under out/ of a site path: the site's links start with base_url's path, its files do not."""
    if prefix != "/" and (path + "/").startswith(prefix):
        return "/" + path[len(prefix):]
    return path


class _Answers(SimpleHTTPRequestHandler):
    """The answers league serve gives: bytes, a page with the reload script, a redirect, a 404 (the site's
    own 404.html when it has one); no log line per request (the terminal is for diagnostics), and never an
    answer the browser keeps (the next build may change any file)."""

    server: "_HTTPServer"

    def log_message(self, format: str, *args) -> None:
        """With -v, one line per request ("GET /2026/ HTTP/1.1" 200 -); else none."""
        if self.server.requests:
            self.server.echo(f"{self.address_string()} {format % args}")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def send_bytes(self, status: int, ctype: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def send_page(self, fs: Path, version: int, head: bool) -> None:
        """An HTML file of the site, with the reload script."""
        try:
            body = fs.read_bytes()
        except OSError:   # swapped away by a build this very moment: the page reloads anyway
            return self.send_error(503, "O site está sendo reconstruído")
        return self.send_bytes(200, "text/html; charset=utf-8", inject(body, version), head)

    def send_moved(self, canonical: str, query: str) -> None:
        """301 to a folder's one address, the one ending with "/"; built from the canonical path only (see
        site_path), never from what the client sent."""
        query = quote(query.encode("latin-1", "replace"), safe="!$&'()*+,;=:@/?%")
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", quote(canonical.rstrip("/") + "/") + (f"?{query}" if query else ""))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def not_found(self, head: bool, version: int | None = None) -> None:
        if version is None:
            version = self.server.live.now().version
        try:
            body = (Path(self.directory) / "404.html").read_bytes()
        except OSError:
            return self.send_error(404, "Página não encontrada")
        return self.send_bytes(404, "text/html; charset=utf-8", inject(body, version), head)


class Handler(_Answers):
    """Serves out/ with the reload script in HTML, the version endpoint, and the error page while the content
    is broken."""

    def do_HEAD(self) -> None:
        self.respond(head=True)

    def do_GET(self) -> None:
        self.respond(head=False)

    def respond(self, head: bool) -> None:
        if len(self.path) > MAX_TARGET:
            return self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG, explain="Endereço longo demais.")
        url = urlsplit(self.path)
        asked = unquote(url.path)
        path = site_path(asked)
        if path is None:
            return self.not_found(head)
        own = OWN.get(path)   # the server's own addresses, under /__league/
        if own is not None:
            return own(self, head)
        return self.send_site(url, asked, path, head)

    def send_site(self, url: SplitResult, asked: str, path: str, head: bool) -> None:
        """A file of the site at `path` (the canonical form of `asked`); a folder's index.html; the error page
        instead of any page while the content has errors (but with ?__league=anterior)."""
        state = self.server.live.now()
        inside = _unprefixed(path, state.prefix)
        fs = Path(self.directory, inside.lstrip("/"))   # no "..", no "\\", no empty segment (site_path)
        kind = _stat_kind(fs)
        if kind == "dir":
            if asked != path.rstrip("/") + "/":   # a folder: its one address ends with "/"
                return self.send_moved(path, url.query)
            fs = fs / "index.html"
            kind = _stat_kind(fs)
        if state.errors and (fs.suffix in HTML or not fs.suffix) and PREVIOUS not in url.query:
            return self.send_errors(state, head)
        if kind != "file":
            return self.not_found(head, state.version)
        if fs.suffix in HTML:
            return self.send_page(fs, state.version, head)
        # quoted again: SimpleHTTPRequestHandler decodes self.path once more and must find this very file
        self.path = quote(inside)
        return super().do_HEAD() if head else super().do_GET()

    def send_errors(self, state: State, head: bool) -> None:
        body = inject(error_page(state).encode("utf-8"), state.version)
        self.send_bytes(500, "text/html; charset=utf-8", body, head)

    def send_version(self, head: bool) -> None:
        self.send_bytes(200, "application/json", version_document(self.server.live), head)

    def send_script(self, head: bool) -> None:
        self.send_bytes(200, "text/javascript; charset=utf-8", RELOAD_JS.encode(), head)

    def send_events(self, head: bool) -> None:
        stream_events(self, self.server.live, head)


OWN: dict[str, Callable[[Handler, bool], None]] = {
    VERSION_PATH: Handler.send_version, SCRIPT_PATH: Handler.send_script, EVENTS_PATH: Handler.send_events}


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    live: Live
    echo: Callable[[str], None]
    debug: bool
    requests: bool = False   # a line per request in the terminal (league serve -v)

    def handle_error(self, request, client_address) -> None:
        """A request that failed inside the handler: one line in the terminal (the traceback only with
        --debug), instead of socketserver's traceback on stderr; a browser that went away says nothing."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError):   # a reload or a closed tab in the middle of an answer
            return
        if self.debug:
            self.echo(traceback.format_exc().rstrip())
        self.echo(f"erro interno do league serve ao responder a um pedido: {type(exc).__name__}: {exc}; "
                  "por favor, relate o problema com a saída de --debug")


def open_server(out: Path, port: int, live: Live, echo: Callable[[str], None], debug: bool,
                host: str = "127.0.0.1", requests: bool = False) -> _HTTPServer:
    """The HTTP server of out/ on host:port (0: a free port), not yet serving; an IPv6 host listens on IPv6."""
    handler = functools.partial(Handler, directory=str(out.resolve()))
    kind = type("_HTTPServer6", (_HTTPServer,), {"address_family": socket.AF_INET6}) if ":" in host else _HTTPServer
    try:
        httpd = kind((host, port), handler)
    except (OSError, OverflowError) as exc:
        raise click.ClickException(f"não foi possível abrir a porta {port} em {host}: "
                                   f"{getattr(exc, 'strerror', None) or exc}; use --port com outro número, ou "
                                   "--host com um endereço desta máquina") from exc
    httpd.live, httpd.echo, httpd.debug, httpd.requests = live, echo, debug, requests
    return httpd
