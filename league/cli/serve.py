"""`league serve`: build, serve the site on 127.0.0.1, rebuild when a file under content/ or templates/ changes,
and reload the page open in the browser.

A threaded http.server, and a watcher thread told of file events by watchfiles (the operating system's
notifications: inotify, FSEvents, ReadDirectoryChangesW), which gathers the events of one save — an editor's
temporary file and rename, "save all" of several files — into one rebuild once the files have been quiet for
30 ms (with --polling, or where the system refuses to watch, watchfiles looks at them every 0.3 s). The page
reloads through a small script the server adds to the HTML it sends (never to the built files): it listens to
/__league/events (Server-Sent Events), where the server says `reload` after each good build and `errors` after
a build with errors, each with the build's version; the page reloads when the version is not its own. A build
with content errors prints them in the terminal and the browser shows an error page listing each
file:line:col; the last good site stays in out/ (and at ?__league=anterior) until the content is fixed.
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

from league.content.diagnostics import Diagnostic, LeagueError, SourceMark

VERSION_PATH = "/__league/version"
EVENTS_PATH = "/__league/events"
SCRIPT_PATH = "/__league/reload.js"
PREVIOUS = "__league=anterior"   # query that shows the last good page instead of the error page
MAX_TARGET = 4096                 # characters of a request's target (PATH_MAX): a longer one gets 414
NAME_MAX = 255                    # bytes of one path segment: no file of a site has a longer name
MAX_LISTENERS = 32                # pages listening to /__league/events at once; one more gets 503
HEARTBEAT = 15.0                  # seconds between the comments that keep an idle event stream open
SETTLE = 0.03                     # seconds without a file event that end a save (and start the rebuild)
GATHER = 1.6                      # seconds: the longest a stream of events is gathered into one rebuild
IDLE = 1.0                        # seconds: how often the watcher looks whether content/ itself came or went

# The page listens while it is shown: a hidden tab closes its stream (browsers open at most six connections
# to one host, and each listening tab holds one), and catches up when shown again, since the server says
# its current version first to every new listener. EventSource reconnects by itself when the server is
# restarted; the server then counts from 1 again, which differs from the page's version: it reloads.
RELOAD_JS = """\
(function () {
  var me = document.currentScript, seen = me && me.getAttribute("data-version"), source = null;
  function check(e) {
    var d;
    try { d = JSON.parse(e.data); } catch (err) { return; }
    if (String(d.version) !== seen) { close(); location.reload(); }
  }
  function open() {
    if (source || document.hidden || !window.EventSource) return;
    source = new EventSource("/__league/events");
    source.addEventListener("reload", check);
    source.addEventListener("errors", check);
  }
  function close() { if (source) { source.close(); source = null; } }
  document.addEventListener("visibilitychange", function () { if (document.hidden) close(); else open(); });
  window.addEventListener("pagehide", close);
  window.addEventListener("pageshow", open);
  open();
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


def event(state: State) -> bytes:
    """The Server-Sent Event that says how the last build went: `reload` after a good one, `errors` (and how
    many) after one with errors; each with the build's version."""
    if state.errors:
        data = json.dumps({"version": state.version, "errors": len(state.errors)})
        return f"event: errors\ndata: {data}\n\n".encode()
    return f"event: reload\ndata: {json.dumps({'version': state.version})}\n\n".encode()


def ignored(name: str) -> bool:
    """A file or folder name the watcher leaves out: hidden ones (.git, an editor's .swp or .#lock) and
    __pycache__ folders, and editors' backup and swap files."""
    return name.startswith(".") or name == "__pycache__" or name.endswith(("~", ".swp", ".swx"))


def _state(path: str) -> tuple[int, int] | None:
    """(mtime, size) of a file, (0, -1) for a broken link (still a file the build will report), None when
    there is nothing there."""
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return (0, -1) if os.path.lexists(path) else None


def scan(roots: list[Path]) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file under roots; hidden files and folders (editor swap files, .git) left out."""
    out: dict[str, tuple[int, int]] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not ignored(d)]
            for name in filenames:
                if not ignored(name):
                    path = os.path.join(dirpath, name)
                    out[path] = _state(path) or (0, -1)
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
        if path == EVENTS_PATH:
            return self.events(dev, head)
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

    def events(self, dev: "DevServer", head: bool) -> None:
        """/__league/events: a stream of Server-Sent Events, open until the page goes away or the server stops.
        It says the current version at once, then `reload` or `errors` after each build, and a comment every
        HEARTBEAT seconds (which also finds a page gone without a word: the write fails). Each listener holds
        one of the server's (daemon) threads, waiting on the condition a build notifies; MAX_LISTENERS at
        once, one more gets 503."""
        with dev.lock:
            full = dev.listeners >= MAX_LISTENERS
            if not full:
                dev.listeners += 1
        if full:
            return self.send_bytes(503, "text/plain; charset=utf-8",
                                   f"league serve: já há {MAX_LISTENERS} páginas ouvindo as mudanças; feche "
                                   "algumas abas e recarregue esta.\n".encode("utf-8"), head)
        self.close_connection = True
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.end_headers()
            if head:
                return
            self.wfile.write(b"retry: 1000\n\n")   # a server restarted is found again within a second
            sent = None
            while True:
                with dev.changed:
                    dev.changed.wait_for(lambda: dev.stopping.is_set() or dev.state.version != sent,
                                         timeout=dev.heartbeat)
                    if dev.stopping.is_set():
                        return
                    message = event(dev.state) if dev.state.version != sent else b": ping\n\n"
                    sent = dev.state.version
                self.wfile.write(message)
        except OSError:   # the page went away (ConnectionResetError, BrokenPipeError): its thread ends here
            pass
        finally:
            with dev.lock:
                dev.listeners -= 1

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
                 settle: float = SETTLE, echo: Callable[[str], None] = lambda s: click.echo(s, err=True),
                 progress: Optional[Callable[[], Any]] = None, debug: bool = False, watch: bool = True,
                 heartbeat: float = HEARTBEAT, polling: bool = False):
        from league.site.paths import default_templates
        self.content = Path(content)
        self.out = Path(out)
        self.templates = Path(templates) if templates else default_templates()
        self.port = port
        self.settle = settle        # seconds without a file event that end a save
        self.watching = watch       # False: no watcher thread (the site is built once, at start)
        self.polling = polling      # True: look at the files every 0.3 s instead of waiting for the system's events
        self.heartbeat = heartbeat
        self.echo = echo
        # progress(): a fresh progress bar for each build (league.cli._Progress: quiet for a rebuild under a
        # second, a bar for the first build of a large archive), or None
        self.progress = progress
        self.debug = debug   # league --debug: the traceback of an unexpected failure, not only its line
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)   # notified when a build ends, and at stop
        self.listeners = 0                              # open /__league/events streams
        self.state = State()
        self.stopping = threading.Event()
        self.httpd: Optional[_HTTPServer] = None
        self.threads: list[threading.Thread] = []
        self.snapshot: dict = {}     # the watched files as the last build began: what a file event is checked against
        self.garbage = False         # a build's reference cycles wait for the collector (see collect)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.state.prefix}"

    # ------------------------------------------------------------------ build
    def rebuild(self, why: str = "") -> bool:
        """Build once; True when the site was written. Never raises: every failure becomes the error page."""
        from league.engine.build import build
        self.collect()   # the previous build's, when no quiet second came since
        self.snapshot = scan(self.roots())
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
            errors = [_unexpected(exc, self.content, self.out)]
            if self.debug:
                self.echo("".join(traceback.format_exception(exc)).rstrip())
        report = None   # this build's results go now, by reference counting: the collector then walks only the rest
        with self.changed:
            self.state.version += 1
            self.state.errors = errors
            self.state.warnings = warnings
            self.state.building = False
            if prefix is not None:
                self.state.prefix = prefix if prefix.endswith("/") else prefix + "/"
            version = self.state.version
            self.changed.notify_all()   # the open pages hear of it now (/__league/events)
        for d in errors + warnings:
            self.echo(d.format_text())
        if errors:
            self.echo(f"{len(errors)} erro(s); o navegador mostra a lista. O site anterior continua em {self.out}/ "
                      f"(e em {self.url}?{PREVIOUS}).")
        else:
            self.echo(f"site reconstruído em {time.monotonic() - start:.1f} s (versão {version}).")
        self.garbage = True
        return not errors

    def collect(self) -> None:
        """A build leaves a few reference cycles (Jinja2's environment of each build: ~0.3 MB). Only the
        collector's full pass frees them, and in a process that builds again and again it hardly ever comes
        (a build freezes its loaded content for the collector): 30 rebuilds of one season, none. The watcher
        runs it after a quiet second, or the next build before it begins: never between a build and the
        page's reload, which it would hold up (it holds the interpreter: 15 ms for one season, ~0.1 s for 20)."""
        if self.garbage:
            self.garbage = False
            gc.collect()

    def watched(self) -> list[Path]:
        return [self.content, self.templates]

    def roots(self) -> list[Path]:
        """The watched folders that exist, as the watcher sees them (links resolved)."""
        out = []
        for p in self.watched():
            try:
                if p.is_dir():
                    out.append(p.resolve())
            except OSError:
                pass
        return out

    def touched(self, paths: set[str]) -> list[str]:
        """Of the paths file events named, those that differ from what the last build read: a file written
        (its time or size changed), added or deleted, and any folder added, moved or deleted. A file made and
        removed again within one save (vim's "4913" test file), or one written before the last build read it
        but told of after, rebuilds nothing."""
        out = []
        for p in sorted(paths):
            now = _state(p)
            before = self.snapshot.get(p)
            if os.path.isdir(p):
                out.append(p)
            elif now != before:
                out.append(p)
            elif now is None and any(k.startswith(p + os.sep) for k in self.snapshot):
                out.append(p)   # a folder that held files the build read went away
        return out

    def watch(self) -> None:
        """The watcher thread: a rebuild after each save under content/ or templates/ (hidden files, swap and
        backup files left out), until stop()."""
        polling = True if self.polling else None   # None: watchfiles' choice (the system's notifications)
        said = ""        # the last failure told: the same one is not told again every second
        while not self.stopping.is_set():
            roots = self.roots()
            if not roots:   # no content/ (yet): looked for again every IDLE seconds
                if self.stopping.wait(IDLE):
                    return
                self._catch_up(roots)
                continue
            try:
                polling = self._watch(roots, polling)
            except FileNotFoundError:   # a watched folder went away as the watcher started: look again
                self.stopping.wait(self.settle)
            except Exception as exc:  # noqa: BLE001 - keep watching whatever happens
                what = " ".join(f"{type(exc).__name__}: {exc}".split())
                if self.debug:
                    self.echo(traceback.format_exc().rstrip())
                if not polling:   # e.g. the system's limit of watched folders (inotify's max_user_watches)
                    self.echo(f"aviso: o sistema não avisa das mudanças nos arquivos ({what}); o league serve "
                              "passa a verificá-los a cada 0,3 s")
                    polling = True
                    continue
                if what != said:
                    self.echo(f"erro interno do league serve ao observar os arquivos: {what}; por favor, relate o "
                              "problema com a saída de --debug")
                    said = what
                self.stopping.wait(IDLE)

    def _watch(self, roots: list[Path], polling: Optional[bool]) -> Optional[bool]:
        """Watch `roots` until they change (content/ deleted, made again or made at last) or the server stops."""
        import watchfiles
        where = tuple(str(r) for r in roots)

        def wanted(_change, path: str) -> bool:
            for root in where:
                if path.startswith(root + os.sep):
                    return not any(ignored(part) for part in path[len(root) + 1:].split(os.sep))
            return False

        identity = _identity(roots)
        caught_up = False
        for batch in watchfiles.watch(*where, watch_filter=wanted, step=max(1, round(self.settle * 1000)),
                                      debounce=round(GATHER * 1000), rust_timeout=round(IDLE * 1000),
                                      yield_on_timeout=True, stop_event=self.stopping, raise_interrupt=False,
                                      force_polling=polling, poll_delay_ms=300,
                                      ignore_permission_denied=True):   # the build reports such a folder
            try:
                paths = {path for _change, path in batch}
                if not caught_up:   # watching for sure by now: a save between the last build and then?
                    caught_up = True
                    if self._catch_up(roots, paths):
                        continue
                touched = self.touched(paths)
                if touched:
                    self.rebuild(_why(touched))
                elif not batch:
                    self.collect()   # a quiet second
                if _identity(self.roots()) != identity:   # content/ deleted, made again, or made at last
                    self._catch_up(self.roots())
                    return polling
            except Exception as exc:  # noqa: BLE001 - keep watching whatever happens
                if self.debug:
                    self.echo(traceback.format_exc().rstrip())
                self.echo(f"erro interno do league serve ao observar os arquivos: {type(exc).__name__}: {exc}; "
                          "por favor, relate o problema com a saída de --debug")
        return polling

    def _catch_up(self, roots: list[Path], paths: set[str] = frozenset()) -> bool:
        """Rebuild when the watched files differ from what the last build read (a save while no watcher was
        running: before it started, while content/ was away); True if it did."""
        diff = sorted(set(changed(self.snapshot, scan(roots))) | set(self.touched(paths)))
        if diff:
            self.rebuild(_why(diff))
        return bool(diff)

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
        targets = [("http", serve)] + ([("watch", self.watch)] if self.watching else [])
        for name, target in targets:
            t = threading.Thread(target=target, daemon=True, name=f"league-serve-{name}")
            t.start()
            self.threads.append(t)

    def stop(self) -> None:
        """Stop the watcher (within SETTLE), end the event streams and the server; the build under way, if
        any, is left to finish (its thread is a daemon)."""
        with self.changed:
            self.stopping.set()
            self.changed.notify_all()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
        for t in self.threads:
            t.join(timeout=10)


def _identity(roots: list[Path]) -> list[tuple]:
    """The watched folders as the system knows them: a folder deleted and made again is another one."""
    out = []
    for root in roots:
        try:
            st = os.stat(root)
        except OSError:
            continue
        out.append((str(root), st.st_dev, st.st_ino))
    return out


def _why(paths: list[str]) -> str:
    names = [_shown(p) for p in paths[:3]]
    more = f" e mais {len(paths) - 3}" if len(paths) > 3 else ""
    return f"mudou: {', '.join(names)}{more}; reconstruindo…"


def _shown(path: str) -> str:
    """A changed file as the terminal shows it: relative to the current folder when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _unexpected(exc: Exception, content: Path, out: Path) -> Diagnostic:
    """A failure that is not a content diagnostic (a template with a syntax error, a bug), placed in the
    content or the templates when possible, and never at league's own code: the page is for the one editing
    the content, the traceback is for --debug."""
    import jinja2
    from league.site.writer import OutError
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = SourceMark(exc.filename or exc.name or "templates", exc.lineno or 0, 1 if exc.lineno else 0)
        return Diagnostic(where, f"erro de sintaxe no template: {exc.message}")
    if isinstance(exc, jinja2.TemplateError):
        frame = next((f for f in reversed(traceback.extract_tb(exc.__traceback__))
                      if f.filename.endswith((".html", ".xml"))), None)
        where = SourceMark(frame.filename, frame.lineno or 0, 1) if frame else SourceMark("templates")
        return Diagnostic(where, f"erro no template: {_one_line(exc)}")
    if isinstance(exc, OutError):   # out/ got something league did not write: the build refuses it
        return Diagnostic(SourceMark(str(out)), str(exc))
    what = f"{type(exc).__name__}: {_one_line(exc)}"
    hint = "o conteúdo pode estar certo: é um erro do league; por favor, relate o problema com a saída de " \
           "league --debug serve"
    place = _content_place(exc, content)
    if place is not None:
        return Diagnostic(place, f"erro interno do league ao processar este conteúdo: {what}", hint)
    return Diagnostic(SourceMark("erro interno"), f"erro inesperado na construção do site: {what}", hint)


def _one_line(exc: BaseException) -> str:
    """The first line of an exception's message: a worker's failure carries the worker's traceback after it."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""


def _content_place(exc: BaseException, content: Path) -> Optional[SourceMark]:
    """The content being processed when `exc` was raised: the innermost frame of its traceback (or of what
    caused it) with a local that is a place in the content (a SourceMark, or one of league's records that
    has one: a stage, a match, a club…) or a content file. None when nothing says (a failure in a worker,
    which loses its frames)."""
    import dataclasses
    try:
        root = Path(content).resolve()
    except OSError:
        root = Path(content).absolute()
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        for frame, _line in reversed(list(traceback.walk_tb(exc.__traceback__))):
            files = []
            for value in list(frame.f_locals.values()):
                mark = None
                if isinstance(value, SourceMark):
                    mark = value
                elif dataclasses.is_dataclass(value) and not isinstance(value, type):
                    mark = getattr(value, "mark", None) if any(f.name == "mark" for f in dataclasses.fields(value)) \
                        else None
                elif isinstance(value, (str, Path)) and len(str(value)) < 4096 \
                        and str(value).endswith((".yaml", ".yml", ".md")):
                    files.append(value)
                if isinstance(mark, SourceMark) and mark.path:
                    return mark
            for value in files:
                path = Path(value)
                full = path if path.is_absolute() else root.parent / path
                try:
                    rel = full.resolve().relative_to(root)
                except (OSError, ValueError):
                    continue
                if full.is_file():   # as the loader names it (league.loader.Loader.rel)
                    return SourceMark(f"{Path(content).name or 'content'}/{rel.as_posix()}")
        exc = exc.__cause__ or exc.__context__
    return None


@click.command()
@click.option("--port", default=8000, type=click.IntRange(0, 65535), show_default=True,
              help="Porta em 127.0.0.1 (0 = uma porta livre).")
@click.option("--content", default="content", type=click.Path(path_type=Path), show_default=True)
@click.option("--out", default="site", type=click.Path(path_type=Path), show_default=True)
@click.option("--templates", default=None, type=click.Path(path_type=Path), help="Pasta de templates.")
@click.option("--polling", is_flag=True,
              help="Verifica os arquivos a cada 0,3 s em vez de esperar os avisos do sistema: para pastas onde "
                   "eles não chegam (pasta de rede, arquivos do Windows no WSL, volume de um contêiner).")
def serve(port: int, content: Path, out: Path, templates: Optional[Path], polling: bool) -> None:
    """Constrói e serve o site em 127.0.0.1; reconstrói e recarrega o navegador a cada mudança em content/ e
    templates/. Erros no conteúdo aparecem no terminal e numa página de erros, sem derrubar o servidor."""
    from league.cli import _Progress, debug_enabled
    from league.site.writer import OutError, check_out
    try:   # before anything: a wrong --out must not be replaced by the first build
        check_out(out, content)
    except OutError as exc:
        click.echo(f"erro: {exc}", err=True)
        sys.exit(2)
    server = DevServer(content, out, templates, port, progress=_Progress if sys.stderr.isatty() else None,
                       debug=debug_enabled(), polling=polling)
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
