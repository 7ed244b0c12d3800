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

The package, by concern: live.py (what the open pages hear: the build's State, the reload script, the events,
the error page), handler.py (the HTTP server), watch.py (the watcher), rebuild.py (one build, never raising),
failures.py (an unexpected failure as a diagnostic placed in the content), server.py (DevServer: all of them
started and stopped together); here, the command.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional

import click

from league.cli.serve.server import DevServer

__all__ = ["DevServer", "serve"]


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
