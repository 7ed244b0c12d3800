"""`league serve`: build, serve the site on 127.0.0.1, rebuild when a file under content/ or templates/ changes,
and reload the page open in the browser.

Standard library only: a threaded http.server and a watcher thread that polls modification times (~0.5 s). The
page reloads through a small script the server adds to the HTML it sends (never to the built files): it asks
/__league/version every half second and reloads when the number changes. A build with content errors prints them
in the terminal and the browser shows an error page listing each file:line:col; the last good site stays in
out/ (and at ?__league=anterior) until the content is fixed.
"""
from __future__ import annotations

import functools
import gc
import html
import json
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import quote, unquote, urlparse, urlsplit

import click

from league.errors import Diagnostic, LeagueError, SourceMark

VERSION_PATH = "/__league/version"
SCRIPT_PATH = "/__league/reload.js"
PREVIOUS = "__league=anterior"   # query that shows the last good page instead of the error page
MAX_TARGET = 4096                 # characters of a request's target (PATH_MAX): a longer one gets 414
NAME_MAX = 255                    # bytes of one path segment: no file of a site has a longer name

RELOAD_JS = """\
(function () {
  var me = document.currentScript, seen = me && me.getAttribute("data-version");
  function poll() {
    fetch("/__league/version", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (d) {
      if (String(d.version) !== seen) { location.reload(); return; }
      setTimeout(poll, 500);
    }, function () { setTimeout(poll, 2000); });
  }
  setTimeout(poll, 500);
})();
"""

ERROR_CSS = """\
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;max-width:60rem;color:#1a1a1a}
h1{color:#a40000;font-size:1.4rem}ol{padding-left:1.5rem}li{margin:.6rem 0}
code{background:#f3f3f3;padding:.1rem .3rem;border-radius:3px;word-break:break-all}
.hint{color:#555}.warn code{background:#fff6d6}
"""


@dataclass
class State:
    """What the last build left: the version the pages poll, and its problems (empty after a good build)."""

    version: int = 0
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    prefix: str = "/"          # the path of base_url: the site's links start with it
    building: bool = False


def error_page(state: State) -> str:
    """The page the browser shows while the content has errors: every error, escaped, with its place."""
    def items(diags: list[Diagnostic]) -> str:
        out = []
        for d in diags:
            hint = f'<br><span class="hint">sugestão: {html.escape(d.hint)}</span>' if d.hint else ""
            out.append(f"<li><code>{html.escape(str(d.mark))}</code> {html.escape(d.message)}{hint}</li>")
        return "\n".join(out)
    n = len(state.errors)
    warnings = ""
    if state.warnings:
        warnings = f'<h2>Avisos ({len(state.warnings)})</h2>\n<ol class="warn">\n{items(state.warnings)}\n</ol>\n'
    return (
        '<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{n} erro(s) no conteúdo · league serve</title>\n<style>{ERROR_CSS}</style>\n</head>\n<body>\n"
        f"<h1>O conteúdo tem {n} erro(s)</h1>\n"
        "<p>O site não foi reconstruído. Corrija os arquivos abaixo e salve: esta página se atualiza sozinha.</p>\n"
        f"<ol>\n{items(state.errors)}\n</ol>\n{warnings}"
        f'<p><a href="?{PREVIOUS}">Ver a última versão do site que funcionou</a></p>\n'
        "</body>\n</html>\n")


def inject(body: bytes, version: int) -> bytes:
    """The HTML with the reload script before </body> (or at the end)."""
    tag = f'<script src="{SCRIPT_PATH}" data-version="{version}"></script>\n'.encode()
    i = body.rfind(b"</body>")
    return body[:i] + tag + body[i:] if i >= 0 else body + tag


def scan(roots: list[Path]) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file under roots; hidden files and folders (editor swap files, .git) left out."""
    out: dict[str, tuple[int, int]] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
            for name in filenames:
                if name.startswith(".") or name.endswith(("~", ".swp", ".swx")):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                    out[path] = (st.st_mtime_ns, st.st_size)
                except OSError:          # a broken link: still a file the build will report
                    out[path] = (0, -1)
    return out


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
    import stat
    try:
        mode = os.stat(fs).st_mode
    except (OSError, ValueError):
        return None
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else None


def changed(before: dict, after: dict) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


class Handler(SimpleHTTPRequestHandler):
    """Serves out/ with the reload script in HTML, the version endpoint, and the error page while the content
    is broken."""

    server: "_HTTPServer"

    def log_message(self, format: str, *args) -> None:  # the terminal is for diagnostics
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_HEAD(self) -> None:
        self.respond(head=True)

    def do_GET(self) -> None:
        self.respond(head=False)

    def send_bytes(self, status: int, ctype: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def respond(self, head: bool) -> None:
        dev = self.server.dev
        if len(self.path) > MAX_TARGET:
            return self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG, explain="Endereço longo demais.")
        url = urlsplit(self.path)
        asked = unquote(url.path)
        path = site_path(asked)
        if path is None:
            return self.not_found(dev, head)
        if path == VERSION_PATH:
            with dev.lock:
                data = {"version": dev.state.version, "ok": not dev.state.errors,
                        "errors": len(dev.state.errors), "building": dev.state.building}
            return self.send_bytes(200, "application/json", json.dumps(data).encode(), head)
        if path == SCRIPT_PATH:
            return self.send_bytes(200, "text/javascript; charset=utf-8", RELOAD_JS.encode(), head)
        with dev.lock:
            state = State(dev.state.version, list(dev.state.errors), list(dev.state.warnings), dev.state.prefix)
        canonical = path
        prefix = state.prefix
        if prefix != "/" and (path + "/").startswith(prefix):
            path = "/" + path[len(prefix):]
        fs = Path(self.directory, path.lstrip("/"))   # path: no "..", no "\\", no empty segment (site_path)
        kind = _stat_kind(fs)
        if kind == "dir":
            if asked != canonical.rstrip("/") + "/":   # a folder: its one address ends with "/"
                # the Location is built from the canonical path only, never from what the client sent
                query = quote(url.query.encode("latin-1", "replace"), safe="!$&'()*+,;=:@/?%")
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", quote(canonical.rstrip("/") + "/") + (f"?{query}" if query else ""))
                self.send_header("Content-Length", "0")
                return self.end_headers()
            fs = fs / "index.html"
            kind = _stat_kind(fs)
        page = fs.suffix in (".html", ".htm") or not fs.suffix
        if state.errors and page and PREVIOUS not in url.query:
            body = inject(error_page(state).encode("utf-8"), state.version)
            return self.send_bytes(500, "text/html; charset=utf-8", body, head)
        if kind != "file":
            return self.not_found(dev, head, state.version)
        if fs.suffix in (".html", ".htm"):
            try:
                body = fs.read_bytes()
            except OSError:   # swapped away by a build this very moment: the page reloads anyway
                return self.send_error(503, "O site está sendo reconstruído")
            return self.send_bytes(200, "text/html; charset=utf-8", inject(body, state.version), head)
        # quoted again: SimpleHTTPRequestHandler decodes self.path once more and must find this very file
        self.path = quote(path)
        if head:
            return super().do_HEAD()
        return super().do_GET()

    def not_found(self, dev: "DevServer", head: bool, version: int | None = None) -> None:
        if version is None:
            with dev.lock:
                version = dev.state.version
        missing = Path(self.directory) / "404.html"
        try:
            body = missing.read_bytes()
        except OSError:
            return self.send_error(404, "Página não encontrada")
        return self.send_bytes(404, "text/html; charset=utf-8", inject(body, version), head)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    dev: "DevServer"

    def handle_error(self, request, client_address) -> None:
        """A request that failed inside the handler: one line in the terminal (the traceback only with
        --debug), instead of socketserver's traceback on stderr; a browser that went away says nothing."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError):   # a reload or a closed tab in the middle of an answer
            return
        if self.dev.debug:
            self.dev.echo(traceback.format_exc().rstrip())
        self.dev.echo(f"erro interno do league serve ao responder a um pedido: {type(exc).__name__}: {exc}; "
                      "por favor, relate o problema com a saída de --debug")


class DevServer:
    """The build, the HTTP server and the watcher, started and stopped together (the tests drive it directly)."""

    def __init__(self, content: Path, out: Path, templates: Optional[Path] = None, port: int = 8000,
                 interval: float = 0.5, echo: Callable[[str], None] = lambda s: click.echo(s, err=True),
                 progress: Optional[Callable[[], Any]] = None, debug: bool = False):
        from league.paths import default_templates
        self.content = Path(content)
        self.out = Path(out)
        self.templates = Path(templates) if templates else default_templates()
        self.port = port
        self.interval = interval
        self.echo = echo
        # progress(): a fresh progress bar for each build (league.cli._Progress: quiet for a rebuild under a
        # second, a bar for the first build of a large archive), or None
        self.progress = progress
        self.debug = debug   # league --debug: the traceback of an unexpected failure, not only its line
        self.lock = threading.Lock()
        self.state = State()
        self.stopping = threading.Event()
        self.httpd: Optional[_HTTPServer] = None
        self.threads: list[threading.Thread] = []
        self.snapshot: dict = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.state.prefix}"

    # ------------------------------------------------------------------ build
    def rebuild(self, why: str = "") -> bool:
        """Build once; True when the site was written. Never raises: every failure becomes the error page."""
        from league.build import build
        self.snapshot = scan(self.watched())
        with self.lock:
            self.state.building = True
        if why:
            self.echo(why)
        start = time.monotonic()
        errors: list[Diagnostic] = []
        warnings: list[Diagnostic] = []
        prefix = None
        bar = self.progress() if self.progress is not None else None
        try:
            try:
                report = build(self.content, self.out, templates=self.templates, progress=bar, say=self.echo)
            finally:   # the bar ends before anything else is printed
                if bar is not None:
                    bar.close()
            warnings = [d for d in report.diagnostics if d.level != "error"]
            prefix = urlparse(report.results.league.base_url).path or "/"
        except LeagueError as exc:
            errors = [d for d in exc.diagnostics if d.level == "error"]
            warnings = [d for d in exc.diagnostics if d.level != "error"]
        except Exception as exc:  # noqa: BLE001 - a broken template or a bug must not stop the server
            errors = [_unexpected(exc)]
            if self.debug:
                self.echo("".join(traceback.format_exception(exc)).rstrip())
        for d in errors + warnings:
            self.echo(d.format_text())
        with self.lock:
            self.state.version += 1
            self.state.errors = errors
            self.state.warnings = warnings
            self.state.building = False
            if prefix is not None:
                self.state.prefix = prefix if prefix.endswith("/") else prefix + "/"
            version = self.state.version
        if errors:
            self.echo(f"{len(errors)} erro(s); o navegador mostra a lista. O site anterior continua em {self.out}/ "
                      f"(e em {self.url}?{PREVIOUS}).")
        else:
            self.echo(f"site reconstruído em {time.monotonic() - start:.1f} s (versão {version}).")
        # A build leaves a few reference cycles (Jinja2's environment of each build: ~0.3 MB). Only the
        # collector's full pass frees them, and in a process that builds again and again it hardly ever
        # comes (a build freezes its loaded content for the collector): 30 rebuilds of one season, none.
        # Run it now, once the browser has been told to reload (15 ms for one season, ~0.1 s for 20).
        report = None   # this build's results go now, by reference counting: the pass then walks only the rest
        gc.collect()
        return not errors

    def watched(self) -> list[Path]:
        return [self.content, self.templates]

    def watch(self) -> None:
        while not self.stopping.wait(self.interval):
            try:
                now = scan(self.watched())
                diff = changed(self.snapshot, now)
                if not diff:
                    continue
                time.sleep(min(self.interval, 0.1))  # let an editor finish saving several files
                names = [_shown(p) for p in diff[:3]]
                more = f" e mais {len(diff) - 3}" if len(diff) > 3 else ""
                self.rebuild(f"mudou: {', '.join(names)}{more}; reconstruindo…")
            except Exception as exc:  # noqa: BLE001 - keep watching whatever happens
                if self.debug:
                    self.echo(traceback.format_exc().rstrip())
                self.echo(f"erro interno do league serve ao observar os arquivos: {type(exc).__name__}: {exc}; "
                          "por favor, relate o problema com a saída de --debug")

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        self.rebuild()
        self.out.mkdir(parents=True, exist_ok=True)
        handler = functools.partial(Handler, directory=str(self.out.resolve()))
        try:
            self.httpd = _HTTPServer(("127.0.0.1", self.port), handler)
        except OSError as exc:
            raise click.ClickException(f"não foi possível abrir a porta {self.port} em 127.0.0.1: "
                                       f"{exc.strerror or exc}; use --port com outro número") from exc
        self.httpd.dev = self
        self.port = self.httpd.server_address[1]
        serve = functools.partial(self.httpd.serve_forever, poll_interval=0.1)
        for name, target in (("http", serve), ("watch", self.watch)):
            t = threading.Thread(target=target, daemon=True, name=f"league-serve-{name}")
            t.start()
            self.threads.append(t)

    def stop(self) -> None:
        self.stopping.set()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
        for t in self.threads:
            t.join(timeout=10)


def _shown(path: str) -> str:
    """A changed file as the terminal shows it: relative to the current folder when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _unexpected(exc: Exception) -> Diagnostic:
    """A failure that is not a content diagnostic (a template with a syntax error, a bug), placed if possible."""
    import jinja2
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = SourceMark(exc.filename or exc.name or "templates", exc.lineno or 0, 1 if exc.lineno else 0)
        return Diagnostic(where, f"erro de sintaxe no template: {exc.message}")
    if isinstance(exc, jinja2.TemplateError):
        frame = next((f for f in reversed(traceback.extract_tb(exc.__traceback__))
                      if f.filename.endswith((".html", ".xml"))), None)
        where = SourceMark(frame.filename, frame.lineno or 0, 1) if frame else SourceMark("templates")
        return Diagnostic(where, f"erro no template: {exc}")
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = SourceMark(frame.filename, frame.lineno or 0, 1) if frame else SourceMark("league")
    return Diagnostic(where, f"erro inesperado na construção do site: {type(exc).__name__}: {exc}",
                      "é um erro interno do league: por favor, relate o problema com a saída de "
                      "league --debug serve")


@click.command()
@click.option("--port", default=8000, type=click.IntRange(0, 65535), show_default=True,
              help="Porta em 127.0.0.1 (0 = uma porta livre).")
@click.option("--content", default="content", type=click.Path(path_type=Path), show_default=True)
@click.option("--out", default="site", type=click.Path(path_type=Path), show_default=True)
@click.option("--templates", default=None, type=click.Path(path_type=Path), help="Pasta de templates.")
def serve(port: int, content: Path, out: Path, templates: Optional[Path]) -> None:
    """Constrói e serve o site em 127.0.0.1; reconstrói e recarrega o navegador a cada mudança em content/ e
    templates/. Erros no conteúdo aparecem no terminal e numa página de erros, sem derrubar o servidor."""
    from league.cli import _Progress, debug_enabled
    from league.writer import OutError, check_out
    try:   # before anything: a wrong --out must not be replaced by the first build
        check_out(out, content)
    except OutError as exc:
        click.echo(f"erro: {exc}", err=True)
        sys.exit(2)
    server = DevServer(content, out, templates, port, progress=_Progress if sys.stderr.isatty() else None,
                       debug=debug_enabled())
    server.start()
    click.echo(f"servindo {out}/ em {server.url} — observando {content}/ e {server.templates}/; "
               "Ctrl+C para parar.", err=True)
    sys.stderr.flush()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        click.echo("parando.", err=True)
    finally:
        server.stop()
