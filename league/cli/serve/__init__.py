"""`league serve`: build, serve the site on 127.0.0.1 (or --host), open it in the browser (--open), rebuild
when a file under content/ or templates/ changes, and reload the page open in the browser.

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

from league.cli.conventions import QUIET, Command, info, level, verbosity_options
from league.cli.serve.server import DevServer

__all__ = ["DevServer", "serve"]

STOP_CHECK = 0.25   # seconds: how soon the main thread sees a Ctrl+C that another thread received


def only_here(host: str) -> bool:
    """Whether a server on `host` answers this machine only (a loopback address, localhost)."""
    import ipaddress
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:   # a name: another machine may reach it
        return False


@click.command(cls=Command)
@click.option("--port", default=8000, type=click.IntRange(0, 65535), show_default=True,
              help="Porta do servidor (0 = uma porta livre).")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ENDEREÇO",
              help="Endereço em que o servidor atende: 0.0.0.0 deixa outros aparelhos da rede (um celular) abrirem "
                   "o site pelo endereço desta máquina.")
@click.option("--open", "open_browser", is_flag=True, help="Abre o site no navegador depois do primeiro build.")
@click.option("--content", default="content", type=click.Path(path_type=Path), show_default=True,
              help="Pasta de conteúdo.")
@click.option("--out", default="site", type=click.Path(path_type=Path), show_default=True,
              help="Pasta onde o site é escrito.")
@click.option("--templates", default=None, type=click.Path(path_type=Path), help="Pasta de templates.")
@click.option("--polling", is_flag=True,
              help="Verifica os arquivos a cada 0,3 s em vez de esperar os avisos do sistema: para pastas onde "
                   "eles não chegam (pasta de rede, arquivos do Windows no WSL, volume de um contêiner).")
@verbosity_options
def serve(port: int, host: str, open_browser: bool, content: Path, out: Path, templates: Optional[Path],
          polling: bool) -> None:
    """Constrói e serve o site em 127.0.0.1; reconstrói e recarrega o navegador a cada mudança em content/ e
    nos templates. Erros no conteúdo aparecem no terminal e numa página de erros, sem derrubar o servidor.
    Com -v, uma linha por pedido."""
    from league.cli import _Progress, _where, debug_enabled
    from league.site.writer import OutError, check_out
    try:   # before anything: a wrong --out must not be replaced by the first build
        check_out(out, content)
    except OutError as exc:
        click.echo(f"erro: {exc}", err=True)
        sys.exit(2)
    _where(content, templates, out)   # -v
    bars = sys.stderr.isatty() and level() > QUIET
    server = DevServer(content, out, templates, port, progress=_Progress if bars else None,
                       debug=debug_enabled(), polling=polling, host=host, verbosity=level())
    server.start()
    # From the line that gives the address on, a Ctrl+C stops the server cleanly ("parando.", exit 0). Before,
    # the try began after that line, the host check and its first import of ipaddress: a Ctrl+C sent as soon
    # as the address was read could land in between and end the command as interrupted (exit 130).
    try:
        info(f"servindo {out}/ em {server.url} — observando {content}/ e {server.templates}/; "
             "Ctrl+C para parar.")
        if not only_here(host):
            info(f"atenção: com --host {host}, outros aparelhos da rede também abrem o site "
                 f"(porta {server.port}).")
        sys.stderr.flush()
        if open_browser:
            import webbrowser
            webbrowser.open(server.url)
        # Short sleeps: Ctrl+C raises KeyboardInterrupt in this thread only once it runs Python again. A SIGINT
        # the kernel hands to another thread (the server's, the watcher's) does not cut a sleep short here,
        # so with one long sleep the server would stop only when that sleep ended.
        while True:
            time.sleep(STOP_CHECK)
    except KeyboardInterrupt:
        info("parando.")
    finally:
        server.stop()
