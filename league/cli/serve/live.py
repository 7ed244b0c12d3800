"""What the open pages of `league serve` hear: the last build's State, the reload script the server adds to
the HTML it sends, the Server-Sent Events of /__league/events and the error page shown while the content is
broken."""
from __future__ import annotations

import html
import json
import threading
from dataclasses import dataclass, field

from league.content.diagnostics import Diagnostic

VERSION_PATH = "/__league/version"
EVENTS_PATH = "/__league/events"
SCRIPT_PATH = "/__league/reload.js"
PREVIOUS = "__league=anterior"   # query that shows the last good page instead of the error page
MAX_LISTENERS = 32                # pages listening to /__league/events at once; one more gets 503
HEARTBEAT = 15.0                  # seconds between the comments that keep an idle event stream open

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


class Live:
    """The State shared by the build, the HTTP server's threads and the watcher: guarded by `lock`, whose
    condition `changed` a build notifies (and stop()); the open event streams counted in `listeners`."""

    def __init__(self, heartbeat: float = HEARTBEAT) -> None:
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)   # notified when a build ends, and at stop
        self.state = State()
        self.listeners = 0                              # open /__league/events streams
        self.heartbeat = heartbeat
        self.stopping = threading.Event()

    def now(self) -> State:
        """A copy of the state, for one request to answer from."""
        with self.lock:
            s = self.state
            return State(s.version, list(s.errors), list(s.warnings), s.prefix, s.building)

    def building(self) -> None:
        with self.lock:
            self.state.building = True

    def publish(self, errors: list[Diagnostic], warnings: list[Diagnostic], prefix: str | None) -> int:
        """A build's outcome, told to the open pages at once (/__league/events); its version."""
        with self.changed:
            self.state.version += 1
            self.state.errors = errors
            self.state.warnings = warnings
            self.state.building = False
            if prefix is not None:
                self.state.prefix = prefix if prefix.endswith("/") else prefix + "/"
            self.changed.notify_all()
            return self.state.version

    def next_event(self, sent: int | None) -> tuple[bytes, int] | None:
        """What to tell a page told of version `sent`, once a build ends or HEARTBEAT seconds pass: the event of
        a new version, or a comment (and the version it was told); None once the server stops."""
        with self.changed:
            self.changed.wait_for(lambda: self.stopping.is_set() or self.state.version != sent,
                                  timeout=self.heartbeat)
            if self.stopping.is_set():
                return None
            message = event(self.state) if self.state.version != sent else b": ping\n\n"
            return message, self.state.version

    def stop(self) -> None:
        """Ends every event stream (and the watcher, which waits on `stopping` too)."""
        with self.changed:
            self.stopping.set()
            self.changed.notify_all()


def error_page(state: State) -> str:
    """The page the browser shows while the content has errors: every error, escaped, with its place."""
    n = len(state.errors)
    warnings = ""
    if state.warnings:
        warnings = (f'<h2>Avisos ({len(state.warnings)})</h2>\n<ol class="warn">\n{_items(state.warnings)}\n'
                    '</ol>\n')
    return (
        '<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{n} erro(s) no conteúdo · league serve</title>\n<style>{ERROR_CSS}</style>\n</head>\n<body>\n"
        f"<h1>O conteúdo tem {n} erro(s)</h1>\n"
        "<p>O site não foi reconstruído. Corrija os arquivos abaixo e salve: esta página se atualiza sozinha.</p>\n"
        f"<ol>\n{_items(state.errors)}\n</ol>\n{warnings}"
        f'<p><a href="?{PREVIOUS}">Ver a última versão do site que funcionou</a></p>\n'
        "</body>\n</html>\n")


def _items(diags: list[Diagnostic]) -> str:
    """The list items of the error page: each problem's place, message and hint, escaped."""
    out = []
    for d in diags:
        hint = f'<br><span class="hint">sugestão: {html.escape(d.hint)}</span>' if d.hint else ""
        out.append(f"<li><code>{html.escape(str(d.mark))}</code> {html.escape(d.message)}{hint}</li>")
    return "\n".join(out)


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


def version_document(live: Live) -> bytes:
    """/__league/version: the last build's version, whether it went well, and whether a build is under way."""
    state = live.now()
    data = {"version": state.version, "ok": not state.errors, "errors": len(state.errors),
            "building": state.building}
    return json.dumps(data).encode()


def stream_events(handler, live: Live, head: bool) -> None:
    """/__league/events: a stream of Server-Sent Events, open until the page goes away or the server stops.
    It says the current version at once, then `reload` or `errors` after each build, and a comment every
    HEARTBEAT seconds (which also finds a page gone without a word: the write fails). Each listener holds
    one of the server's (daemon) threads, waiting on the condition a build notifies; MAX_LISTENERS at
    once, one more gets 503. `handler` is the request's Handler (league.cli.serve.handler)."""
    with live.lock:
        full = live.listeners >= MAX_LISTENERS
        if not full:
            live.listeners += 1
    if full:
        return handler.send_bytes(503, "text/plain; charset=utf-8",
                                  f"league serve: já há {MAX_LISTENERS} páginas ouvindo as mudanças; feche "
                                  "algumas abas e recarregue esta.\n".encode("utf-8"), head)
    handler.close_connection = True
    try:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream; charset=utf-8")
        handler.end_headers()
        if not head:
            handler.wfile.write(b"retry: 1000\n\n")   # a server restarted is found again within a second
            _tell(handler.wfile, live)
    except OSError:   # the page went away (ConnectionResetError, BrokenPipeError): its thread ends here
        pass
    finally:
        with live.lock:
            live.listeners -= 1


def _tell(wfile, live: Live) -> None:
    """Write each event to the page until the server stops."""
    sent = None
    while (told := live.next_event(sent)) is not None:
        message, sent = told
        wfile.write(message)
