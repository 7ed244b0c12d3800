"""`league new stage|championship SEASON ID`: writes a commented skeleton file for an editor to fill in.

Every value the editor must supply is a placeholder in angle brackets (`<AAAA-MM-DD>`, `<equipe-1>`,
`"<placar>"`) chosen so that `league check` rejects it at its line until it is replaced; once every
placeholder is filled the file passes `league check`. The first line is the yaml-language-server
modeline pointing at the committed JSON Schema (schemas/, written by `league schema`; written here too when a
project has none yet, so that the reference always resolves)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

import click

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
YEAR = re.compile(r"^\d{4}$")


class Refused(click.ClickException):
    """A request that cannot be done as asked (usage error, exit status 2); nothing is written."""

    exit_code = 2

    def show(self, file=None) -> None:  # noqa: D102
        click.echo(f"erro: {self.format_message()}", err=True)


def _slugify(text: str) -> str:
    from league.content.validate import slugify
    return slugify(text)


def check_id(value: str, what: str) -> None:
    if not SLUG.match(value):
        raise Refused(f"\"{value}\" não é um id válido para {what}: use letras minúsculas sem acento, números "
                      f"e hífens (ex.: etapa-3) — sugestão: {_slugify(value)}")


def check_season(value: str) -> None:
    if not YEAR.match(value):
        digits = re.sub(r"\D", "", value)
        hint = f" — sugestão: {digits}" if len(digits) == 4 else ""
        raise Refused(f"\"{value}\" não é uma temporada: use o ano com 4 dígitos (ex.: 2026){hint}")


def _setting(content: Path, season: str, section: str, key: str, default):
    """A rule setting as the season sees it (season.yaml over league.yaml over the default); any problem in
    those files is left to `league check`."""
    import yaml
    value = default
    for path in (content / "league.yaml", content / "seasons" / season / "season.yaml"):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            found = data[section][key]
        except Exception:  # noqa: BLE001 - missing file, bad YAML, missing key: keep what we have
            continue
        if isinstance(found, int) and not isinstance(found, bool) and 1 <= found <= 15:
            value = found
    return value


def stage_name(stage_id: str) -> str:
    """etapa-3 → "3ª Etapa"; other ids → their words capitalised ("final-estadual" → "Final Estadual")."""
    m = re.fullmatch(r"etapa-(\d+)", stage_id)
    if m:
        return f"{int(m.group(1))}ª Etapa"
    return " ".join(w.capitalize() for w in stage_id.split("-"))


def schema_path(content: Path, schema_file: str) -> Path:
    """Where the modeline of a new file points: <project>/schemas/ beside the content folder, where `league
    schema` writes by default and .vscode/settings.json maps the content files to."""
    return content.resolve().parent / "schemas" / schema_file


def _modeline(target: Path, content: Path, schema_file: str) -> str:
    rel = Path(os.path.relpath(schema_path(content, schema_file), target.resolve().parent)).as_posix()
    return f"# yaml-language-server: $schema={rel}\n"


def ensure_schema(content: Path, schema_file: str) -> Optional[Path]:
    """Writes the schema a new file's modeline points at when it is not there yet (a project without schemas/),
    so that the reference resolves; returns its path when written. An existing file is left as it is (`league
    schema --check` says when it is out of date)."""
    path = schema_path(content, schema_file)
    if path.exists():
        return None
    from league.cli.schema import schema_files
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_files()[schema_file], encoding="utf-8")
    return path


def _c(code: str, comment: str = "", width: int = 40) -> str:
    """One line: code, then the comment aligned at `width`."""
    if not comment:
        return code.rstrip() + "\n"
    return f"{code.ljust(width - 1)} # {comment}\n" if len(code) < width - 1 else f"{code}  # {comment}\n"


def stage_skeleton(season: str, stage_id: str, boards: int = 5) -> str:
    """The body of a new Truco stage file (without the modeline)."""
    return "".join(_stage_head(season, stage_id) + _stage_teams(boards) + _stage_phases(boards) + STAGE_TAIL)


def _stage_head(season: str, stage_id: str) -> list[str]:
    """How to fill the file in, then the stage's name, date, host and status."""
    return [
        f"# Etapa \"{stage_id}\" do Interclubes de Truco, temporada {season}.\n",
        "# Como preencher:\n",
        "#   1. troque cada <…> pelo valor certo: ids de clubs.yaml e players.yaml, data AAAA-MM-DD, placares;\n",
        "#   2. copie os blocos de equipe e de confronto quantas vezes precisar;\n",
        "#   3. rode `league check`: ele aponta a linha de cada valor que falta ou está errado.\n",
        "# O nome do arquivo é o id da etapa. Formato completo: data-format.md (\"A Truco stage\").\n",
        "\n",
        _c(f"name: {stage_name(stage_id)}", "nome exibido no site"),
        _c("date: <AAAA-MM-DD>", "data da etapa, ex.: 2026-03-14"),
        _c("host: <clube-anfitriao>", "id do clube anfitrião (clubs.yaml); apague se não houver"),
        _c("# city: Curitiba", "cidade (opcional)"),
        _c("status: scheduled", "scheduled (agendada), in_progress (em andamento)"),
        _c("", "ou final (encerrada): só etapas final valem ranking"),
        "\n",
    ]


def _stage_teams(boards: int) -> list[str]:
    """`teams:` with two teams of `boards` pairs each, the first explained, the second as the one to copy."""
    out = [_c("teams:", "equipes da etapa: id da equipe → elenco")]
    player = 0
    for t in (1, 2):
        out.append(_c(f"  <equipe-{t}>:", "id da equipe; o clube é o próprio id (clubs.yaml)"
                      if t == 1 else "outra equipe: copie o bloco para cada uma"))
        if t == 2:
            out.append(_c("    # club: <clube>", "2ª equipe de um clube: o id do clube…"))
            out.append(_c("    # name: APTRU B", "…e o nome exibido"))
        out.append(_c("    pairs:", "duplas na ordem das mesas: a 1ª joga o jogo 1, …" if t == 1 else ""))
        for i in range(boards):
            player += 2
            out.append(_c(f"      - [<jogador-{player - 1}>, <jogador-{player}>]",
                          "ids de players.yaml" if t == 1 and i == 0 else ""))
        if t == 1:
            out.append(_c("      # - [jogador, jogador]", "uma dupla a mais pode ficar de fora de um confronto"))
    return out


def _stage_phases(boards: int) -> list[str]:
    """`phases:` with a group phase of one match of `boards` boards."""
    out = [
        "\n",
        _c("phases:", "fases, em ordem"),
        _c("  - name: Fase de grupos"),
        _c("    groups:"),
        _c("      Grupo A:", "nome do grupo → equipes e confrontos"),
        _c("        teams: [<equipe-1>, <equipe-2>]"),
        _c("        matches:", "confrontos jogados; os que ainda não aconteceram"),
        _c("", "ficam de fora (apague este se for o caso)"),
        _c("          - home: <equipe-1>", "equipe da casa"),
        _c("            away: <equipe-2>", "equipe visitante"),
        _c("            boards:", f"{boards} jogos, um por linha, na ordem das mesas"),
    ]
    for i in range(boards):
        out.append(_c('              - "<placar>"', 'partidas, tentos da casa primeiro: "12-7 9-12 12-10"'
                      if i == 0 else ""))
    out.append(_c("            # walkover: <equipe>", "em vez de boards: a equipe que não compareceu (5x0)"))
    out += [
        _c("      # Grupo B:", "outro grupo: tire o \"# \" destas linhas"),
        _c("      #   teams: [<equipe-3>, <equipe-4>]"),
        _c("      #   matches: []", "[] até o primeiro confronto"),
    ]
    return out + ["\n"] + _stage_knockout(boards)


# A knockout of 8 teams with its placement rounds (data-format.md: `places`, `for_place`): each round's name,
# its key line (None: an elimination round) and who plays each of its matches.
KNOCKOUT = [
    ("Quartas de final", None, ["quarta 1", "quarta 2", "quarta 3", "quarta 4"]),
    ("Semifinal", None, ["vencedores das quartas 1 e 2", "vencedores das quartas 3 e 4"]),
    ("Semifinal do 5º ao 8º", "places: [5, 8]", ["perdedores das quartas 1 e 2", "perdedores das quartas 3 e 4"]),
    ("Disputa de 5º lugar", "for_place: 5", ["vencedores das semifinais do 5º ao 8º"]),
    ("Disputa de 7º lugar", "for_place: 7", ["perdedores das semifinais do 5º ao 8º"]),
    ("Disputa de 3º lugar", "for_place: 3", ["perdedores das semifinais"]),
    ("Final", "for_place: 1", ["vencedores das semifinais"]),
]
KEY_NOTES = {None: "o perdedor é eliminado", "places: [5, 8]": "chave do 5º ao 8º lugar: não elimina ninguém",
             "for_place: 5": "vencedor em 5º, perdedor em 6º", "for_place: 7": "vencedor em 7º, perdedor em 8º",
             "for_place: 3": "vencedor em 3º, perdedor em 4º", "for_place: 1": "vencedor campeão, perdedor vice"}


def _stage_knockout(boards: int) -> list[str]:
    """A knockout phase, commented out: quarter-finals, semi-finals, the 5th–8th bracket and the matches for
    places, one match a line."""
    score = "[" + ", ".join(['"<placar>"'] * boards) + "]"
    out = [
        "  # Mata-mata (opcional), de 8 equipes, com disputa de todas as colocações: quando a fase começar,\n",
        "  # tire o \"# \" do início das linhas abaixo e troque cada <equipe> por um id de teams:. Rodadas em\n",
        "  # ordem; uma rodada sem for_place nem places elimina o perdedor. Apague as que a etapa não tiver.\n",
        _c("  # - name: Fase final"),
        _c("  #   knockout:", "rodadas, em ordem"),
    ]
    for name, key, who in KNOCKOUT:
        out.append(_c(f"  #     - round: {name}", KEY_NOTES[None] if key is None else ""))
        if key:
            out.append(_c(f"  #       {key}", KEY_NOTES[key]))
        out.append(_c("  #       matches:"))
        out += [f"  #         - {{home: <equipe>, away: <equipe>, boards: {score}}}  # {w}\n" for w in who]
    return out


STAGE_TAIL = [   # the draws and the disqualifications: commented out, for when they come
    "\n",
    "# Sorteios (item 10.1): só quando `league check` avisar de um empate que precisa de sorteio.\n",
    "# draws:\n",
    "#   - teams: [<equipe>, <equipe>]\n",
    "#     order: [<equipe>, <equipe>]     # ordem sorteada, do primeiro ao último\n",
    "#     note: Sorteio na mesa da organização\n",
    "# Desclassificações (item 4.12):\n",
    "# disqualified:\n",
    "#   - team: <equipe>\n",
    "#     reason: Item 4.12\n",
]


def championship_skeleton(season: str, champ_id: str) -> str:
    """The body of a new Quatrilho championship file (without the modeline)."""
    place = " ".join(w.capitalize() for w in champ_id.split("-") if not w.isdigit()) or champ_id
    out = [
        f"# Campeonato de Quatrilho \"{champ_id}\", temporada {season}.\n",
        "# Como preencher:\n",
        "#   1. troque cada <…> pelo valor certo: ids de players.yaml, data AAAA-MM-DD, fichas contadas;\n",
        "#   2. inscreva todos os jogadores e copie o bloco de rodada para cada rodada jogada;\n",
        "#   3. rode `league check`: ele confere cada mesa (soma das fichas) e aponta a linha de cada erro.\n",
        "# `league draw` propõe o sorteio das mesas de uma rodada. Formato: data-format.md (\"A Quatrilho championship\").\n",
        "\n",
        _c(f"name: Campeonato Aberto de Quatrilho de {place}", "nome exibido no site (confira os acentos)"),
        _c(f"municipality: {place}", "município; os 4 primeiros vão ao estadual (Art. 23)"),
        _c("date: <AAAA-MM-DD>", "data, ex.: 2026-05-10"),
        _c("status: scheduled", "scheduled (agendado), in_progress (em andamento)"),
        _c("", "ou final (encerrado)"),
        _c("fee: <valor-da-inscricao>", "R$ por inscrição e reinscrição (Art. 7), ex.: 50.00"),
        _c("prizes: {1: 25, 2: 15, 3: 10, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}", "% do arrecadado por colocação (Art. 23)"),
        "\n",
        _c("players:", "número de inscrição → id do jogador (Art. 6)"),
    ]
    for n in range(1, 9):
        out.append(_c(f"  {n}: <jogador-{n}>", "ids de players.yaml" if n == 1 else ""))
    out += [
        _c("  # 17: {player: <jogador>, from_round: 2}", "inscrição atrasada: joga da 2ª rodada (Art. 5)"),
        "\n",
        _c("rounds:", "rodadas, em ordem (Art. 10); copie o bloco"),
        _c("  - tables:", "mesa → {número do jogador: fichas contadas}"),
        _c("      1: {1: <fichas>, 2: <fichas>, 3: <fichas>, 4: <fichas>}", "mesas de 4 ou 5 (Art. 14)"),
        _c("      2: {5: <fichas>, 6: <fichas>, 7: <fichas>, 8: <fichas>}"),
        _c("    # rebuys: {5: 1}", "reinscrições e talhas: jogador → quantas (Art. 15, 19)"),
        _c("    # penalties:", "penalidades em fichas (Art. 12, 13)"),
        _c("    #   - {player: 9, chips: 200, reason: Atraso no reinício (Art. 12)}"),
        _c("    # commission_paid: {2: 0}", "mesa → fichas pagas pela comissão (Art. 19)"),
        _c("    # adjustments:", "diferença conhecida na soma de uma mesa"),
        _c("    #   - {table: 2, chips: 5, reason: \"Ficha perdida, conferido pelo fiscal\"}"),
        _c("    # disqualified:", "desclassificados nesta rodada (Art. 15, 16)"),
        _c("    #   - {player: 14, reason: Art. 15}"),
        _c("    # absent: [7]", "inscritos que não jogaram esta rodada (contam 0)"),
        "\n",
        "# Empates que os critérios não resolvem (Art. 3, 22): a decisão da comissão.\n",
        "# draws:\n",
        "#   - players: [3, 8]\n",
        "#     order: [8, 3]\n",
        "#     note: Sorteio pela comissão (Art. 3)\n",
    ]
    return "".join(out)


def new_file(content: Path, kind: str, season: str, file_id: str) -> tuple[Path, Optional[Path]]:
    """Writes the skeleton of a stage ("truco") or championship ("quatrilho"); returns its path, and the schema
    file its modeline points at when that had to be written too. Raises Refused when the file exists or the
    content folder is missing."""
    if not (content / "league.yaml").is_file():
        raise Refused(f"{content}/league.yaml não encontrado: rode o comando na raiz do projeto "
                      "ou use --content PASTA")
    folder = content / "seasons" / season / kind
    target = folder / f"{file_id}.yaml"
    for existing in (target, target.with_suffix(".yml")):
        if existing.exists():
            what = "a etapa" if kind == "truco" else "o campeonato"
            raise Refused(f"{existing} já existe: {what} \"{file_id}\" já foi criad{what[0]}; nada foi escrito "
                          "(edite o arquivo ou escolha outro id)")
    if kind == "truco":
        body = stage_skeleton(season, file_id, _setting(content, season, "truco", "boards", 5))
        schema_file = "stage.schema.json"
    else:
        body = championship_skeleton(season, file_id)
        schema_file = "championship.schema.json"
    folder.mkdir(parents=True, exist_ok=True)
    text = _modeline(target, content, schema_file) + body
    with open(target, "x", encoding="utf-8") as fh:  # "x": never overwrite, even in a race
        fh.write(text)
    return target, ensure_schema(content, schema_file)


_content_option = click.option("--content", default="content", type=click.Path(file_okay=False, path_type=Path),
                               show_default=True, help="Pasta de conteúdo.")


@click.group("new")
def new() -> None:
    """Cria o esqueleto comentado de uma etapa ou de um campeonato, para preencher."""


def _run(content: Path, kind: str, season: str, file_id: str, what: str) -> None:
    check_season(season)
    check_id(file_id, what)
    path, schema = new_file(content, kind, season, file_id)
    click.echo(f"criado {path}", err=True)
    if schema is not None:
        click.echo(f"criado {schema} (o esquema que o editor usa para completar e conferir o arquivo)", err=True)
    click.echo("preencha os campos <…> e rode `league check`", err=True)


@new.command("stage")
@_content_option
@click.argument("season")
@click.argument("id", metavar="ID")
def new_stage(content: Path, season: str, id: str) -> None:  # noqa: A002 - the CLI argument is ID
    """Etapa do Truco: content/seasons/SEASON/truco/ID.yaml."""
    _run(content, "truco", season, id, "uma etapa")


@new.command("championship")
@_content_option
@click.argument("season")
@click.argument("id", metavar="ID")
def new_championship(content: Path, season: str, id: str) -> None:  # noqa: A002
    """Campeonato de Quatrilho: content/seasons/SEASON/quatrilho/ID.yaml."""
    _run(content, "quatrilho", season, id, "um campeonato")

