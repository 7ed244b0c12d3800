"""`league import stage SEASON ID [LIST]`: a stage's final places as a federation published them (a pasted
top-N list, "1º APTRU" …) written as a stage file known only by its final places (data-format.md, history),
every club name matched to its id in clubs.yaml (league/content/toplist.py)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from league.cli.new import Refused, _modeline, check_id, check_season, stage_name


def _clubs(content: Path) -> dict:
    """clubs.yaml's clubs: id → (name, short name); anything wrong in it is left to `league check`."""
    import yaml
    path = content / "clubs.yaml"
    if not (content / "league.yaml").is_file():
        raise Refused(f"{content}/league.yaml não encontrado: rode o comando na raiz do projeto ou use --content PASTA")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        raise Refused(f"{path} ausente ou ilegível: rode `league check` e corrija-o antes de importar") from None
    if not isinstance(data, dict):
        raise Refused(f"{path} não é um mapa de clubes: rode `league check`")
    return {str(cid): (str(c.get("name", cid)), c.get("short_name")) if isinstance(c, dict) else (str(cid), None)
            for cid, c in data.items()}


def _head(clubs: dict, name: str, date: str, city: str | None, host: str | None, source: str | None) -> dict:
    """The stage's head as given on the command line, each value checked (a usage error names it)."""
    from league.content.schema import DATE_MAX, DATE_MIN
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise Refused(f"--date \"{date}\" não é uma data: use AAAA-MM-DD, ex.: 2025-03-15") from None
    if not DATE_MIN <= day <= DATE_MAX:
        raise Refused(f"--date {date} fora do intervalo {DATE_MIN}–{DATE_MAX}")
    if host is not None and host not in clubs:
        from league.content.diagnostics import did_you_mean
        raise Refused(f"--host \"{host}\" não é um clube de clubs.yaml" + (f" — {did_you_mean(host, clubs)}"
                                                                            if did_you_mean(host, clubs) else ""))
    if source is not None and not source.lower().startswith(("https://", "http://")):
        raise Refused(f"--source \"{source}\" não é um endereço da web: use o endereço completo (https://…)")
    return {"name": name, "date": day.isoformat(), "city": city, "host": host, "source": source}


def import_stage_text(content: Path, season: str, stage_id: str, text: str, where: str, head: dict) -> str:
    """The stage file's text from the pasted list; LeagueError with every problem of the list."""
    from league.content import toplist
    from league.content.diagnostics import Diagnostics, LeagueError
    diags = Diagnostics()
    clubs = _clubs(content)
    head = _head(clubs, **head)
    lines = toplist.read_list(text, where, diags)
    places = toplist.group_places(lines, where, diags)
    entries = toplist.resolve(places, toplist.ClubIndex(clubs), where, diags)
    if diags.errors:
        raise LeagueError(diags.sorted())
    return toplist.stage_text(head, entries, places)


@click.group("import")
def import_cmd() -> None:
    """Importa resultados publicados (histórico) para arquivos de conteúdo."""


@import_cmd.command("stage")
@click.option("--content", default="content", type=click.Path(file_okay=False, path_type=Path), show_default=True,
              help="Pasta de conteúdo.")
@click.option("--date", required=True, help="Data da etapa, AAAA-MM-DD.")
@click.option("--name", default=None, help="Nome da etapa (padrão: do id, etapa-1 → 1ª Etapa).")
@click.option("--city", default=None, help="Cidade.")
@click.option("--host", default=None, help="Clube anfitrião (id).")
@click.option("--source", default=None, help="Endereço onde a classificação foi publicada.")
@click.option("--print", "show", is_flag=True, help="Mostra o arquivo em vez de escrevê-lo.")
@click.argument("season")
@click.argument("id", metavar="ID")
@click.argument("listing", metavar="[LISTA]", default="-", type=click.File("r", encoding="utf-8"))
def import_stage(content: Path, date: str, name: str | None, city: str | None, host: str | None,
                 source: str | None, show: bool, season: str, id: str, listing) -> None:  # noqa: A002
    """Etapa conhecida só pela classificação final: lê a lista colada (\"1º APTRU\", \"2. Trupuava\",
    \"3º= Los Maikas\"…) de LISTA ou da entrada padrão e escreve content/seasons/SEASON/truco/ID.yaml."""
    check_season(season)
    check_id(id, "uma etapa")
    where = "stdin" if listing.name in ("<stdin>", "-") else listing.name
    text = listing.read()
    head = {"name": name or stage_name(id), "date": date, "city": city, "host": host, "source": source}
    target = content / "seasons" / season / "truco" / f"{id}.yaml"
    for existing in (target, target.with_suffix(".yml")):
        if existing.exists() and not show:
            raise Refused(f"{existing} já existe: nada foi escrito (apague-o ou escolha outro id)")
    body = import_stage_text(content, season, id, text, where, head)
    if show:
        click.echo(body, nl=False)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "x", encoding="utf-8") as fh:   # "x": never overwrite, even in a race
        fh.write(_modeline(target, content, "stage.schema.json") + body)
    click.echo(f"criado {target}", err=True)
    click.echo("confira os lugares e rode `league check`", err=True)
