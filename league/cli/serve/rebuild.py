"""One build of `league serve`: it never raises. A build with content errors prints them in the terminal and
the browser shows an error page listing each file:line:col; the last good site stays in out/ (and at
?__league=anterior) until the content is fixed."""
from __future__ import annotations

import gc
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import urlparse

from league.cli.serve.failures import _unexpected
from league.cli.serve.live import PREVIOUS, Live
from league.cli.serve.watch import existing, scan
from league.content.diagnostics import Diagnostic, LeagueError

Outcome = tuple[list[Diagnostic], list[Diagnostic], Optional[str]]   # errors, warnings, base_url's path


def _by_level(diags: list[Diagnostic]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(errors, warnings) of a build's diagnostics."""
    return [d for d in diags if d.level == "error"], [d for d in diags if d.level != "error"]


@dataclass
class Build:
    """One build as league serve runs it: content/ with templates/ into out/, with a fresh progress bar
    (`progress()`: league.cli._Progress, quiet for a rebuild under a second, a bar for the first build of a
    large archive; or None); --debug prints the traceback of an unexpected failure, not only its line."""

    content: Path
    out: Path
    templates: Path
    echo: Callable[[str], None]
    progress: Optional[Callable[[], Any]] = None
    debug: bool = False
    quiet: bool = False   # -q: only errors in the terminal (not what changed, the warnings, "site reconstruído")

    def run(self) -> Outcome:
        """league.engine.build's outcome: its errors (a failure that is no content error becomes one, see
        failures.py), its warnings, and the path of base_url after a good build."""
        try:
            report = self._build()
            _errors, warnings = _by_level(report.diagnostics)
            return [], warnings, urlparse(report.results.league.base_url).path or "/"
        except LeagueError as exc:
            return (*_by_level(exc.diagnostics), None)
        except Exception as exc:  # noqa: BLE001 - a broken template or a bug must not stop the server
            errors = [_unexpected(exc, self.content, self.out)]
            if self.debug:
                self.echo("".join(traceback.format_exception(exc)).rstrip())
            return errors, [], None

    def _build(self):
        from league.engine.build import build
        bar = self.progress() if self.progress is not None else None
        try:
            return build(self.content, self.out, templates=self.templates, progress=bar, say=self.echo)
        finally:   # the bar ends before anything else is printed
            if bar is not None:
                bar.close()


class Rebuilder:
    """Runs a Build whenever asked, tells `live` (the open pages) how it went, and keeps what the watcher
    compares file events with: the watched files as the last build began (`snapshot`)."""

    def __init__(self, build: Build, live: Live, url: Callable[[], str]) -> None:
        self.build = build
        self.watched = [build.content, build.templates]
        self.live = live
        self.echo = build.echo
        self.say = (lambda text: None) if build.quiet else build.echo   # what -q leaves out
        self.url = url               # where the site is served: the message after a build with errors says it
        self.snapshot: dict = {}     # the watched files as the last build began: what a file event is checked against
        self.garbage = False         # a build's reference cycles wait for the collector (see collect)

    def rebuild(self, why: str = "") -> bool:
        """Build once; True when the site was written. Never raises: every failure becomes the error page."""
        self.collect()   # the previous build's, when no quiet second came since
        self.snapshot = scan(existing(self.watched))
        self.live.building()
        if why:
            self.say(why)
        start = time.monotonic()
        # the build's results are gone once run() returns, by reference counting: the collector then walks
        # only the rest
        errors, warnings, prefix = self.build.run()
        version = self.live.publish(errors, warnings, prefix)   # the open pages hear of it now
        for d in errors:
            self.echo(d.format_text())
        for d in warnings:
            self.say(d.format_text())
        if errors:
            self.echo(f"{len(errors)} erro(s); o navegador mostra a lista. O site anterior continua em "
                      f"{self.build.out}/ (e em {self.url()}?{PREVIOUS}).")
        else:
            self.say(f"site reconstruído em {time.monotonic() - start:.1f} s (versão {version}).")
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
