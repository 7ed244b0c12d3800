"""`league diff REV`: what changes in every standings table, stage classification and annual ranking between
git revision REV and the working tree, in Portuguese lines a reviewer can paste into a pull request
("APTRU: 3º → 2º no ranking de clubes (+4 pts)"), as text or Markdown.

git itself materialises the content at REV (`git archive`); both sides go through league.engine.build.check, and
the tables compared are the ones of the public JSON API (league/site/api.py), so the diff speaks about exactly
what the site publishes.

The package: tables.py (what the site publishes, as comparable tables), changes.py (what changed, in
Portuguese lines), report.py (text or Markdown), git.py (the content at REV); here, the command."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

import click

from league.cli.conventions import Command, verbosity_options

from league.cli.diff.changes import compare
from league.cli.diff.git import GitError, materialise
from league.cli.diff.report import DiffResult, format_markdown, format_text
from league.cli.diff.tables import Table, snapshot
from league.content.diagnostics import LeagueError


def diff(rev: str, content: Path, shown: Optional[str] = None) -> DiffResult:
    """Compares the content at REV with the working tree. Raises LeagueError if the working tree has errors,
    GitError if git cannot give REV."""
    from league.engine.build import check
    from league.engine.cache import default_dir
    new = check(content)  # the working tree first: its errors are what the editor must fix
    with tempfile.TemporaryDirectory(prefix="league-diff-") as tmp:
        old_dir, short, problem = materialise(rev, content, Path(tmp))
        old_tables: list[Table] = []
        if old_dir is not None:
            try:   # with the working tree's cache: its entries are keyed by what they are made of (bytes, the
                # path inside the content folder, the files they refer to…), so every file REV has as it is
                # now is read from there, not parsed again (the content folder is extracted under its own name)
                old_tables = snapshot(check(old_dir, cache_dir=default_dir(content)).results)
            except LeagueError as exc:
                n = sum(1 for d in exc.diagnostics if d.level == "error")
                problem = f"o conteúdo em {rev} tem {n} erro(s) e não pôde ser calculado"
    return DiffResult(rev, short, shown or os.path.normpath(str(content)), compare(old_tables, snapshot(new.results)),
                      problem)


@click.command("diff", cls=Command)
@click.argument("rev", metavar="REVISÃO")
@click.option("--content", default="content", type=click.Path(file_okay=False, path_type=Path), show_default=True,
              help="Pasta de conteúdo.")
@click.option("--format", "fmt", default="text", type=click.Choice(["text", "markdown"]), show_default=True,
              help="markdown: para colar num comentário de pull request.")
@verbosity_options
def diff_cmd(rev: str, content: Path, fmt: str) -> None:
    """Mostra como mudam as tabelas, classificações e rankings entre a REVISÃO do git (um commit, um ramo:
    origin/main) e os arquivos atuais."""
    try:
        result = diff(rev, content)
    except LeagueError as exc:
        for d in exc.diagnostics:
            click.echo(d.format_text(), err=True)
        n = sum(1 for d in exc.diagnostics if d.level == "error")
        click.echo(f"{n} erro(s) no conteúdo atual: corrija-os (league check) antes de comparar.", err=True)
        sys.exit(1)
    except GitError as exc:
        click.echo(f"erro: {exc}", err=True)
        sys.exit(2)
    click.echo(format_markdown(result) if fmt == "markdown" else format_text(result), nl=False)
