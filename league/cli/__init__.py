"""The `league` command: thin click wrappers around build.py; no logic here."""
from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import click

from league import __version__
from league.cli.conventions import CONTEXT, QUIET, VERBOSE, Group, detail, info, level, verbosity_options
from league.content.diagnostics import LeagueError
from league.site.writer import OutError


def _print_diags(diags, fmt: str) -> None:
    """The problems found: on stdout for a machine (github, json), else on stderr — with -q, errors only."""
    if fmt == "github":
        for d in diags:
            click.echo(d.format_github())
    elif fmt == "json":
        click.echo(json.dumps([d.as_json() for d in diags], ensure_ascii=False, indent=2))
    else:
        for d in diags:
            if d.level == "error" or level() > QUIET:
                click.echo(d.format_text(), err=True)


def _progress():
    """The progress bar of a long build or check: on a terminal, unless -q."""
    return _Progress() if sys.stderr.isatty() and level() > QUIET else None


class _Progress:
    """A bar on the terminal for builds that take a while: a phase line, then a bar while the pages are
    made, which only moves forward and ends at 100 %; a later phase ends it. Drawn by the build's own
    process only (league.engine.rendering.run_plan: a forked worker is never handed it). Quiet when the build
    finishes within `quiet_for` seconds."""

    def __init__(self, file=None, quiet_for: float = 1.0) -> None:
        import time
        self.start = time.monotonic()
        self.file = file if file is not None else sys.stderr
        self.quiet_for = quiet_for
        self.bar = None
        self.phase = None
        self.last = 0
        self.ended: set = set()   # the phases whose bar has ended (not drawn again)

    def __call__(self, phase: str, done: int, total: int) -> None:
        import time
        if self.bar is not None and phase != self.phase:
            self.close()   # the bar's phase is over
        if self.bar is None and time.monotonic() - self.start < self.quiet_for:
            self.phase = phase
            return  # short builds stay quiet
        if self.bar is None:
            self._begin(phase, total)
        if self.bar is not None:
            self._advance(done, total)
        self.phase = phase

    def _begin(self, phase: str, total: int) -> None:
        """A bar for a phase that counts its steps (none again for a phase whose bar ended), or the name of a
        new phase that does not."""
        if total and phase not in self.ended:
            self.bar = click.progressbar(length=total, label=phase, file=self.file, show_eta=False, show_pos=True,
                                          show_percent=True)
            self.bar.__enter__()
            self.last = 0
        elif not total and phase != self.phase:
            click.echo(f"{phase}…", file=self.file)

    def _advance(self, done: int, total: int) -> None:
        """The bar at `done` of `total`: it never goes backwards, and ends at 100 %."""
        done = min(done, total)
        if done > self.last:
            self.bar.update(done - self.last)
            self.last = done
        if done >= total:
            self.close()

    def close(self) -> None:
        """Ends the bar where it is (a later phase, the build's end, an error)."""
        if self.bar is not None:
            bar, self.bar = self.bar, None
            self.ended.add(self.phase)
            bar.__exit__(None, None, None)


# subcommands imported only when used: `league build` does not pay for the schema exporter, the draw,
# the diff or the server (a third of a second of imports)
LAZY = {"schema": ("league.cli.schema", "schema"), "new": ("league.cli.new", "new"),
        "diff": ("league.cli.diff", "diff_cmd"), "draw": ("league.cli.draw", "draw"),
        "serve": ("league.cli.serve", "serve"), "import": ("league.cli.importer", "import_cmd"),
        "sumulas": ("league.cli.sumulas", "sumulas")}


class LazyGroup(Group):
    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *LAZY])

    def get_command(self, ctx, name):
        if name in LAZY:
            import importlib
            module, attr = LAZY[name]
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        """Every command, with what no command handles turned into an exit status and one line: an internal
        error (a bug) exits 3 — 1 means content errors, 2 usage or environment errors — asking to report it,
        with the traceback only under --debug (or LEAGUE_DEBUG=1); Ctrl+C exits 130 without a traceback.
        click's own exceptions (usage errors: 2) and sys.exit go through untouched."""
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, EOFError):
            raise
        except KeyboardInterrupt:
            click.echo(("\n" if sys.stderr.isatty() else "") + "interrompido (Ctrl+C).", err=True)
            sys.exit(130)
        except LeagueError as exc:   # content errors a command let through: listed, exit 1
            _print_diags(exc.diagnostics, "text")
            click.echo(f"{sum(1 for d in exc.diagnostics if d.level == 'error')} erro(s).", err=True)
            sys.exit(exc.exit_code)
        except OSError as exc:
            if exc.errno == errno.EPIPE:   # output piped into `head`: click ends quietly (exit 1)
                raise
            _internal_error(exc, ctx)
        except Exception as exc:  # noqa: BLE001 - the last line of defence: never a bare traceback
            _internal_error(exc, ctx)


def debug_enabled(ctx: click.Context | None = None) -> bool:
    """`league --debug …`, or LEAGUE_DEBUG set to anything but "", 0, false, no, off."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is not None and ctx.find_root().params.get("debug"):
        return True
    return os.environ.get("LEAGUE_DEBUG", "").strip().lower() not in ("", "0", "false", "no", "off", "nao", "não")


def _internal_error(exc: BaseException, ctx: click.Context) -> None:
    """An exception no command expected: the traceback only under --debug, one line, exit 3."""
    if debug_enabled(ctx):
        import traceback
        click.echo("".join(traceback.format_exception(exc)).rstrip(), err=True)
    what = " ".join(f"{type(exc).__name__}: {exc}".split())   # one line, whatever the message holds
    click.echo(f"erro interno do league: {what}; por favor, relate o problema com a saída de --debug "
               f"(league --debug {ctx.invoked_subcommand or '…'} …).", err=True)
    sys.exit(3)


@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="league")
@click.option("--debug", is_flag=True,
              help="Mostra o traceback completo de um erro interno (também com LEAGUE_DEBUG=1).")
@verbosity_options
def main(debug: bool) -> None:
    """Publica classificações e rankings de federações de Truco e Quatrilho como um site estático.

    Autocompletar no bash: eval "$(_LEAGUE_COMPLETE=bash_source league)" (zsh: zsh_source; fish:
    fish_source)."""


CONTENT_HELP = "Pasta de conteúdo (league.yaml, clubs.yaml, players.yaml, seasons/…)."


@main.command()
@click.option("--content", default="content", type=click.Path(path_type=Path), show_default=True,
              help=CONTENT_HELP)
@click.option("--out", default="site", type=click.Path(path_type=Path), show_default=True,
              help="Pasta onde o site é escrito.")
@click.option("--strict", is_flag=True, help="Avisos contam como erros.")
@click.option("--draft", is_flag=True, help="Prévia: faixa de rascunho em cada página e nada indexável.")
@click.option("--templates", default=None, type=click.Path(path_type=Path), help="Pasta de templates.")
@click.option("--no-search", is_flag=True, help="Não gera o índice de busca (pagefind).")
@click.option("--force", is_flag=True, help="Substitui uma pasta --out que não foi escrita pelo league.")
@verbosity_options
def build(content: Path, out: Path, strict: bool, draft: bool, templates: Path | None, no_search: bool,
          force: bool) -> None:
    """Valida, calcula e escreve o site inteiro."""
    from league.engine.build import build as do_build
    progress = _progress()
    _where(content, templates, out)
    try:
        try:
            report = do_build(content, out, strict=strict, templates=templates, draft=draft, search=not no_search,
                              progress=progress, skip_unchanged=True, force=force, say=info)
        finally:   # the bar ends before anything else is printed (an error too)
            if progress is not None:
                progress.close()
    except (LeagueError, OutError, OSError, RuntimeError) as exc:
        _build_failed(exc, out)
        raise   # a RuntimeError that is no search failure: a bug
    _print_diags(report.diagnostics, "text")
    _computed(report)
    pages = f"{report.rendered} de {report.pages} página(s) gerada(s), " if report.pages else ""
    info(f"site escrito em {out}/: {pages}{report.written} arquivo(s) escrito(s), {report.unchanged} "
         f"inalterado(s), em {report.seconds:.1f} s.")


def _where(content: Path, templates: Path | None = None, out: Path | None = None) -> None:
    """-v: where league reads (the content; for a build, the templates: the package's or a site's own) and
    writes."""
    if level() < VERBOSE:
        return
    from league.engine.cache import default_dir
    from league.site.paths import default_templates
    own = default_templates()
    whose = "de --templates" if templates else ("do pacote" if own.resolve().is_relative_to(
        Path(__file__).resolve().parents[1]) else "da pasta do site")
    detail(f"league {__version__} (Python {sys.version.split()[0]})")
    detail(f"conteúdo: {Path(content).resolve()}")
    detail(f"cache: {default_dir(content)}")
    if out is not None:
        detail(f"templates {whose}: {Path(templates or own).resolve()}")
        detail(f"site: {Path(out).resolve()}")


def _computed(report) -> None:
    """-v: what was computed, season by season (nothing after a build that found nothing changed)."""
    if level() < VERBOSE:
        return
    if report.results is None:
        detail("nada mudou desde o último build (conteúdo, templates, opções): nada foi calculado de novo")
        return
    for sr in report.results.seasons:
        detail(f"temporada {sr.season.year}: {len(sr.stages)} etapa(s) de Truco, {len(sr.championships)} "
               f"campeonato(s) de Quatrilho, {len(sr.clubs)} clube(s) e {len(sr.pairs)} dupla(s) no ranking")
    if report.pages:
        detail(f"{report.pages - report.rendered} página(s) mantida(s) do build anterior, sem mudança")


def _build_failed(exc: Exception, out: Path) -> None:
    """Why `league build` wrote nothing, and its exit status: 1 for the content's errors (listed) and a search
    index that could not be made, 2 for out/ or the machine (a full disk, a read-only folder…). Returns only
    for a RuntimeError that is no search failure."""
    if isinstance(exc, LeagueError):
        _print_diags(exc.diagnostics, "text")
        n = sum(1 for d in exc.diagnostics if d.level == "error")
        click.echo(f"{n} erro(s); nada foi escrito, {out}/ continua como estava.", err=True)
        sys.exit(1)
    if isinstance(exc, OutError):
        click.echo(f"erro: {exc}", err=True)
        sys.exit(2)
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        click.echo(f"erro: não foi possível escrever o site: {exc.strerror or exc}{where}; nada foi publicado, "
                   f"{out}/ continua como estava.\n    sugestão: libere espaço em disco ou verifique as permissões "
                   "da pasta.", err=True)
        sys.exit(2)
    from league.site.search import SearchError
    if isinstance(exc, SearchError):
        click.echo(f"erro: o índice de busca não pôde ser gerado: {exc}\n"
                   f"    sugestão: reinstale o pagefind (pip install 'pagefind[bin]') ou use --no-search; "
                   f"nada foi escrito, {out}/ continua como estava.", err=True)
        sys.exit(1)


@main.command()
@click.option("--content", default="content", type=click.Path(path_type=Path), show_default=True,
              help=CONTENT_HELP)
@click.option("--format", "fmt", default="text", type=click.Choice(["text", "github", "json"]), show_default=True,
              help="text: para ler no terminal; github: anotações do GitHub Actions; json: para outro programa.")
@click.option("--strict", is_flag=True, help="Avisos contam como erros.")
@verbosity_options
def check(content: Path, fmt: str, strict: bool) -> None:
    """Valida e calcula tudo, sem escrever nada."""
    from league.engine.build import check as do_check
    progress = _progress()   # the files being read, as in league build
    _where(content)
    try:
        try:
            report = do_check(content, strict=strict, progress=progress)
        finally:
            if progress is not None:
                progress.close()
    except LeagueError as exc:
        _print_diags(exc.diagnostics, fmt)
        if fmt == "text":
            n = sum(1 for d in exc.diagnostics if d.level == "error")
            click.echo(f"{n} erro(s).", err=True)
        sys.exit(1)
    _print_diags(report.diagnostics, fmt)
    if fmt == "text":
        _computed(report)
        w = len(report.diagnostics)
        info("conteúdo válido" + (f" ({w} aviso(s))." if w else "."))


def run() -> None:
    """The `league` console command (in-process callers, such as tests, use main())."""
    # league uses no pydantic plugin (PYDANTIC_DISABLE_PLUGINS, documented by pydantic): pydantic would look
    # for them among every installed package's entry points (~20 ms of every command's start)
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from league.engine.process import one_command_process
    one_command_process()
    if os.environ.get(COMPLETE_VAR):   # the shell asks for completions: click's words for it in Portuguese too
        import click.shell_completion  # noqa: F401
        from league.cli import clickpt
        clickpt.install()
    main(complete_var=COMPLETE_VAR)


# shell completion (click's): eval "$(_LEAGUE_COMPLETE=bash_source league)", also for `python -m league`
COMPLETE_VAR = "_LEAGUE_COMPLETE"


if __name__ == "__main__":  # pragma: no cover
    run()
