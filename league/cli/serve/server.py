"""The dev server: the build, the HTTP server and the watcher of `league serve`, started and stopped together."""
from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any, Callable, Optional

import click

from league.cli.serve.handler import _HTTPServer, open_server
from league.cli.serve.live import HEARTBEAT, Live, State
from league.cli.serve.rebuild import Build, Rebuilder
from league.cli.serve.watch import SETTLE, Watcher


def browsable(host: str) -> str:
    """The host of the address to open in a browser: this machine's for "every interface" (0.0.0.0, ::), an
    IPv6 address in brackets."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class DevServer:
    """The build, the HTTP server and the watcher, started and stopped together (the tests drive it directly).
    watch=False: no watcher thread (the site is built once, at start); polling: look at the files every 0.3 s
    instead of waiting for the system's events; `live` holds what the open pages hear."""

    def __init__(self, content: Path, out: Path, templates: Optional[Path] = None, port: int = 8000,
                 settle: float = SETTLE, echo: Callable[[str], None] = lambda s: click.echo(s, err=True),
                 progress: Optional[Callable[[], Any]] = None, debug: bool = False, watch: bool = True,
                 heartbeat: float = HEARTBEAT, polling: bool = False, host: str = "127.0.0.1", verbosity: int = 0):
        from league.site.paths import default_templates
        self.content, self.out, self.port, self.host = Path(content), Path(out), port, host
        self.verbosity = verbosity   # league.cli.conventions: -1 (-q), 0, 1 (-v: a line per request too)
        self.templates = Path(templates) if templates else default_templates()
        self.echo, self.debug = echo, debug
        self.live = Live(heartbeat)
        build = Build(self.content, self.out, self.templates, echo, progress, debug, quiet=verbosity < 0)
        self.builder = Rebuilder(build, self.live, lambda: self.url)
        self.watcher = Watcher(self.builder, self.live.stopping, settle, polling, echo, debug) if watch else None
        self.httpd: Optional[_HTTPServer] = None
        self.threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return f"http://{browsable(self.host)}:{self.port}{self.state.prefix}"

    @property
    def state(self) -> State:
        return self.live.state

    def rebuild(self, why: str = "") -> bool:
        return self.builder.rebuild(why)

    def collect(self) -> None:
        self.builder.collect()

    def start(self) -> None:
        """The first build, then the HTTP server and the watcher, each in a daemon thread."""
        self.rebuild()
        self.out.mkdir(parents=True, exist_ok=True)
        self.httpd = open_server(self.out, self.port, self.live, self.echo, self.debug, self.host,
                                 requests=self.verbosity > 0)
        self.port = self.httpd.server_address[1]
        targets = [("http", functools.partial(self.httpd.serve_forever, poll_interval=0.1))]
        if self.watcher is not None:
            targets.append(("watch", self.watcher.watch))
        for name, target in targets:
            t = threading.Thread(target=target, daemon=True, name=f"league-serve-{name}")
            t.start()
            self.threads.append(t)

    def stop(self) -> None:
        """Stop the watcher (within SETTLE), end the event streams and the server; the build under way, if
        any, is left to finish (its thread is a daemon)."""
        self.live.stop()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
        for t in self.threads:
            t.join(timeout=10)
