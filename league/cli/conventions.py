"""What every `league` command shares: -h as well as --help, -q (only errors) and -v (more detail) wherever they
are typed, and help in Portuguese down to the metavars (`[OPÇÕES]`, `PASTA`, `NÚMERO`); click's own words are
translated by league/cli/clickpt.py."""
from __future__ import annotations

import click

from league.cli import clickpt

clickpt.install()

CONTEXT = {"help_option_names": ["-h", "--help"]}
QUIET, NORMAL, VERBOSE = -1, 0, 1
KEY = "league.verbosity"   # in the root context's meta: the level the command line asked for


FOLDERS = ("content", "out", "templates")   # options that name a folder, whatever their type allows


def _metavar(param: click.Parameter) -> str | None:
    """A Portuguese metavar for an option whose type would show an English one (TEXT, INTEGER, PATH)."""
    kind = param.type
    if param.name in FOLDERS:
        return "PASTA"
    if isinstance(kind, click.Path):
        if kind.dir_okay and not kind.file_okay:
            return "PASTA"
        return "ARQUIVO" if kind.file_okay and not kind.dir_okay else "CAMINHO"
    if isinstance(kind, click.File):
        return "ARQUIVO"
    if isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)):
        return "NÚMERO"
    if isinstance(kind, click.types.StringParamType):
        return "TEXTO"
    return None


def _portuguese(params: list[click.Parameter]) -> None:
    for param in params:
        if isinstance(param, click.Option) and param.metavar is None and not param.is_flag:
            param.metavar = _metavar(param)


class Command(click.Command):
    """A league command: Portuguese metavars, `[OPÇÕES]` in its usage line."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("options_metavar", "[OPÇÕES]")
        super().__init__(*args, **kwargs)
        _portuguese(self.params)


class Group(click.Group):
    """A group of league commands: as Command, and `COMANDO [ARGS]...`; its commands are Commands."""

    command_class = Command

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("options_metavar", "[OPÇÕES]")
        kwargs.setdefault("subcommand_metavar", "COMANDO [ARGS]...")
        super().__init__(*args, **kwargs)
        _portuguese(self.params)


Group.group_class = Group


# ---------------------------------------------------------------- -q and -v

def _set_level(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value:
        return
    root = ctx.find_root()
    want = QUIET if param.name == "quiet" else VERBOSE
    if root.meta.get(KEY, want) != want:
        raise click.UsageError("-q (só erros) e -v (mais detalhes) não combinam: use um dos dois", ctx)
    root.meta[KEY] = want


def verbosity_options(f):
    """-q/--quiet and -v/--verbose, on the group and on every command (`league -q build` = `league build -q`)."""
    f = click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_set_level,
                     help="Mostra mais detalhes: de onde o league lê e onde escreve, o que calculou.")(f)
    return click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_set_level,
                        help="Só mostra os erros.")(f)


def level() -> int:
    """QUIET, NORMAL or VERBOSE, as the command line asked (NORMAL outside a command, e.g. in a thread)."""
    ctx = click.get_current_context(silent=True)
    return ctx.find_root().meta.get(KEY, NORMAL) if ctx is not None else NORMAL


def info(text: str) -> None:
    """A line on stderr that -q leaves out: what was done, a summary, a warning."""
    if level() >= NORMAL:
        click.echo(text, err=True)


def detail(text: str) -> None:
    """A line on stderr only with -v."""
    if level() >= VERBOSE:
        click.echo(text, err=True)
