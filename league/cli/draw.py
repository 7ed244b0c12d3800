"""`league draw`: proposes the seat draw of a Quatrilho round, read aloud, and can append it to the championship file."""
from __future__ import annotations

import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import click

from league.cli.conventions import Command, verbosity_options

from league.content.diagnostics import LeagueError
from league.games.quatrilho.championship import Championship
from league.games.quatrilho.draw import DrawProposal, propose_draw
from league.content.yamlio import MDict, MList

YEAR_ID = re.compile(r"^(\d{4})/([a-z0-9]+(?:-[a-z0-9]+)*)$")


class DrawError(Exception):
    """A problem the organiser must fix before a draw can be proposed or written (exit status 1)."""


@dataclass
class Located:
    path: Path          # the championship file
    content: Path       # the content folder it belongs to


def locate(arg: str, content: Optional[Path]) -> Located:
    """CHAMPIONSHIP as a file path, or as <year>/<id> under the content folder."""
    m = YEAR_ID.match(arg)
    if m and not Path(arg).exists():
        root = content or Path("content")
        return Located(_by_id(arg, m, root), root)
    path = Path(arg)
    if not path.is_file():
        raise click.BadParameter(f"arquivo \"{arg}\" não encontrado; use o caminho do arquivo do campeonato ou "
                                 "<ano>/<id>, ex.: 2026/chapeco", param_hint="CAMPEONATO")
    return Located(path, content if content is not None else _content_of(arg, path))


def _by_id(arg: str, m: re.Match, root: Path) -> Path:
    """The file of championship <year>/<id> under the content folder `root`; else what the folder has."""
    path = root / "seasons" / m.group(1) / "quatrilho" / f"{m.group(2)}.yaml"
    if not path.is_file():
        known = sorted(f"{p.parent.parent.name}/{p.stem}" for p in root.glob("seasons/*/quatrilho/*.yaml"))
        from league.content.diagnostics import did_you_mean
        hint = did_you_mean(arg, known) or (f"campeonatos: {', '.join(known)}" if known else
                                            f"nenhum campeonato em {root}/seasons/*/quatrilho/")
        raise click.BadParameter(f"campeonato \"{arg}\" não encontrado ({path}); {hint}", param_hint="CAMPEONATO")
    return path


def _content_of(arg: str, path: Path) -> Path:
    """The content folder a championship file is in: <content>/seasons/<year>/quatrilho/<file>."""
    parts = path.resolve().parents
    if len(parts) < 4 or parts[0].name != "quatrilho" or parts[2].name != "seasons":
        raise click.BadParameter(f"\"{arg}\" não está em <conteúdo>/seasons/<ano>/quatrilho/; indique a pasta "
                                 "de conteúdo com --content", param_hint="CAMPEONATO")
    return parts[3]


def load(loc: Located):
    """(league, championship) from the content folder; DrawError listing the file's errors, if any."""
    from league.engine.loader import Loader
    loader = Loader(loc.content.resolve())
    try:
        rel = loader.rel(loc.path.resolve())
    except ValueError:
        raise DrawError(f"{loc.path} não está dentro da pasta de conteúdo {loc.content}")
    try:
        league = loader.load()
    except LeagueError as exc:
        raise DrawError(_listed(exc.diagnostics))
    errors = [d for d in loader.diags.errors if d.mark.path == rel]
    if errors:
        raise DrawError(_listed(errors) + "\ncorrija o arquivo do campeonato antes do sorteio")
    return league, _championship(league, rel)


def _listed(diags) -> str:
    return "\n".join(d.format_text() for d in diags)


def _championship(league, rel: str) -> Championship:
    """The championship read from the file `rel` (as the loader names it)."""
    champ = next((c for s in league.seasons for c in s.championships if c.path == rel), None)
    if champ is None:
        raise DrawError(f"{rel}: o campeonato não pôde ser lido")
    return champ


def players_for(ch: Championship, round_number: int, absent: Sequence[int] = ()) -> list[int]:
    """Who is drawn for the round: registered by then (Art. 5), not disqualified before (Art. 16), not absent."""
    unknown = [n for n in absent if n not in ch.players]
    if unknown:
        raise DrawError(f"--absent: número(s) não inscrito(s): {', '.join(map(str, unknown))}")
    return [n for n in ch.players if ch.eligible(n, round_number) and n not in absent]


def propose(ch: Championship, round_number: int, seed: int, absent: Sequence[int] = ()) -> DrawProposal:
    """Quatrilho Art. 9, 14: the proposal for the round, given the tables of the earlier rounds of the file."""
    if round_number > len(ch.rounds) + 1:
        raise DrawError(f"o arquivo tem {len(ch.rounds)} rodada(s); a próxima a sortear é a {len(ch.rounds) + 1}ª")
    players = players_for(ch, round_number, absent)
    if not players:
        raise DrawError(f"nenhum jogador para sortear na {round_number}ª rodada")
    earlier = [[t.players for t in r.tables] for r in ch.rounds[:round_number - 1]]
    return propose_draw(players, earlier, round_number, seed)


def announcement(ch: Championship, league, proposal: DrawProposal, again: str) -> str:
    """The proposal as an organiser reads it aloud (pt-BR)."""
    sizes = Counter(len(t.seats) for t in proposal.tables)
    n = sum(1 for t in proposal.tables for s in t.seats if isinstance(s, int))
    shape = " e ".join(f"{k} de {size}" for size, k in sorted(sizes.items(), reverse=True))
    out = [f"Sorteio da {proposal.round}ª rodada — {ch.name}",
           f"Semente {proposal.seed} (para repetir: {again})",
           f"{n} jogadores em {len(proposal.tables)} mesas: {shape}.", ""]
    for t in proposal.tables:
        out.append(f"Mesa {t.number}")
        for i, s in enumerate(t.seats, start=1):
            if isinstance(s, str):
                out.append(f"  Cadeira {i}: coringa {s}")
            else:
                pid = ch.players[s].player
                out.append(f"  Cadeira {i}: nº {s}, {league.players[pid].name if pid in league.players else pid}")
        out.append("")
    out += list(proposal.notes)
    return "\n".join(out).rstrip() + "\n"


def round_block(proposal: DrawProposal, dash: str, gap: str, absent: Sequence[int] = ()) -> list[str]:
    """The YAML lines of the round, tables with empty seats (null: drawn, not yet counted)."""
    inner = " " * (len(dash) + 1 + len(gap))
    lines = [f"{dash}# {proposal.round}ª rodada: sorteio proposto por `league draw` (semente {proposal.seed}); "
             "troque cada null pelas fichas contadas.\n",
             f"{dash}-{gap}seed: {proposal.seed}\n", f"{inner}tables:\n"]
    for t in proposal.tables:
        seats = ", ".join(f"{s}: null" for s in t.seats)
        lines.append(f"{inner}  {t.number}: {{{seats}}}\n")
    if absent:
        lines.append(f"{inner}absent: [{', '.join(map(str, sorted(absent)))}]\n")
    return lines


def append_round(text: str, raw: MDict, proposal: DrawProposal, absent: Sequence[int] = ()) -> str:
    """The file's text with the round added at the end of `rounds:`; everything else, comments included, untouched."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    if "rounds" not in raw:
        return "".join(lines + ["rounds:\n"] + round_block(proposal, "  ", " ", absent))
    key_line = raw.kmark("rounds").line          # 1-based
    dash, gap = _item_indent(lines, raw["rounds"], key_line)
    at = _rounds_end(lines, raw, key_line)
    return "".join(lines[:at] + round_block(proposal, dash, gap, absent) + lines[at:])


def _item_indent(lines: list[str], value, key_line: int) -> tuple[str, str]:
    """The indentation of the items of `rounds:` (the spaces before the dash, and after it): those of its
    first round, or two and one for an empty list (whose "[]" goes, in `lines`); DrawError for a list written
    in brackets or anything but a list."""
    if isinstance(value, MList) and value:
        first = value.imark(0).line
        m = re.match(r"^( *)-( +)", lines[first - 1])
        if first == key_line or m is None:
            raise DrawError(f"rounds: (linha {key_line}) está escrito entre colchetes; escreva as rodadas como itens "
                            "\"- tables: …\" para que o sorteio possa ser acrescentado")
        return m.group(1), m.group(2)
    if isinstance(value, MList):   # rounds: []
        fixed = re.sub(r"^(rounds:)\s*\[\s*\]", r"\1", lines[key_line - 1])
        if fixed == lines[key_line - 1]:
            raise DrawError(f"rounds: (linha {key_line}) não pôde ser editado; escreva \"rounds:\" sozinho na linha")
        lines[key_line - 1] = fixed
    elif value is not None:
        raise DrawError(f"rounds: (linha {key_line}) deve ser uma lista de rodadas")
    return "  ", " "


def _rounds_end(lines: list[str], raw: MDict, key_line: int) -> int:
    """The line after the last round: before the next top-level key, its comments and the blank lines."""
    keys = list(raw)
    nxt = keys.index("rounds") + 1
    at = raw.kmark(keys[nxt]).line - 1 if nxt < len(keys) else len(lines)   # lines before the next top-level key
    while at > key_line and (not lines[at - 1].strip() or lines[at - 1].startswith("#")):
        at -= 1                                    # leave blank lines and the next key's comments where they are
    return at


def write_round(loc: Located, proposal: DrawProposal, absent: Sequence[int] = ()) -> int:
    """Appends the round to the file, checks the file still loads, else puts it back. Returns the round's line."""
    from league.content.diagnostics import Diagnostics
    from league.content.yamlio import parse_yaml
    text = loc.path.read_text(encoding="utf-8")
    raw = parse_yaml(text, str(loc.path), Diagnostics())
    if not isinstance(raw, MDict):
        raise DrawError(f"{loc.path}: o arquivo não pôde ser lido")
    new = append_round(text, raw, proposal, absent)
    loc.path.write_text(new, encoding="utf-8")
    try:
        _, ch = load(loc)
        if len(ch.rounds) < proposal.round:
            raise DrawError("a rodada acrescentada não foi encontrada ao reler o arquivo")
    except DrawError as exc:
        loc.path.write_text(text, encoding="utf-8")
        raise DrawError(f"{exc}\no arquivo não foi alterado")
    return ch.rounds[proposal.round - 1].mark.line


@click.command("draw", cls=Command)
@click.argument("championship", metavar="CAMPEONATO")
@click.argument("round_number", metavar="RODADA", type=click.IntRange(min=1))
@click.option("--seed", type=int, default=None, help="Semente do sorteio; sem ela, uma nova é sorteada e mostrada.")
@click.option("--write", "do_write", is_flag=True,
              help="Acrescenta a rodada, com as mesas sorteadas e as fichas em branco (null), ao arquivo.")
@click.option("--absent", multiple=True, type=int, metavar="Nº",
              help="Número de inscrição de quem não joga a rodada (repita a opção para vários).")
@click.option("--content", default=None, type=click.Path(path_type=Path),
              help="Pasta de conteúdo (padrão: a do arquivo, ou content/).")
@verbosity_options
def draw(championship: str, round_number: int, seed: Optional[int], do_write: bool, absent: tuple,
         content: Optional[Path]) -> None:
    """Propõe o sorteio de mesas e cadeiras de uma rodada de Quatrilho (Art. 9, 14).

    CAMPEONATO é o arquivo do campeonato (content/seasons/2026/quatrilho/chapeco.yaml) ou 2026/chapeco.
    """
    loc = locate(championship, content)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    try:
        league, ch = load(loc)
        if do_write and round_number <= len(ch.rounds):
            raise DrawError(f"a {round_number}ª rodada já está no arquivo (linha {ch.rounds[round_number - 1].mark.line});"
                            " --write só acrescenta a próxima rodada")
        proposal = propose(ch, round_number, seed, absent)
        again = f"league draw {championship} {round_number} --seed {seed}" + "".join(f" --absent {n}" for n in absent)
        click.echo(announcement(ch, league, proposal, again), nl=False)
        if do_write:
            line = write_round(loc, proposal, absent)
            click.echo(f"\n{proposal.round}ª rodada acrescentada a {loc.path} (linha {line}): anote as fichas "
                       "no lugar de cada null depois da contagem.")
    except DrawError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
