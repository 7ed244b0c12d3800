"""The bad-input corpus: each case breaks one thing in a copy of base/ (a small valid content tree: league.yaml,
clubs, players, one Truco stage with groups and a knockout, one Quatrilho championship, a page and a news post)
and lists every error `league build` must print for it, as (file, line, column, message).

Line numbers refer to the files of base/ after the edit; open base/ beside this table to read them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

LEAGUE = "league.yaml"
CLUBS = "clubs.yaml"
PLAYERS = "players.yaml"
STAGE = "seasons/2026/truco/etapa-1.yaml"
CHAMP = "seasons/2026/quatrilho/chapeco.yaml"
PAGE = "pages/sobre.md"
NEWS = "news/2026-03-16-etapa-1.md"

Edit = Callable[[Path], None]   # receives the content root


def c(rel: str) -> str:
    """The path as the diagnostics print it."""
    return f"content/{rel}"


def sub(rel: str, old: str, new: str, count: int = 1) -> Edit:
    """Replace the first `count` occurrences of old (which must be there) in one file."""
    def edit(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert text.count(old) >= count, f"{old!r} não está {count}× em {rel}"
        path.write_text(text.replace(old, new, count), encoding="utf-8")
    return edit


def put(rel: str, data: str | bytes) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    return edit


def append(rel: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        with open(root / rel, "a", encoding="utf-8") as fh:
            fh.write(text)
    return edit


def both(*edits: Edit) -> Edit:
    def edit(root: Path) -> None:
        for e in edits:
            e(root)
    return edit


def sparse(rel: str, size: int) -> Edit:
    """A file of `size` bytes that takes no disk space or time to make (a hole, then one line)."""
    def edit(root: Path) -> None:
        path = root / rel
        with open(path, "wb") as fh:
            fh.truncate(size - 12)
            fh.seek(size - 12)
            fh.write(b"name: fim\n\n\n")
    return edit


def directory(rel: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        if path.exists():
            path.unlink()
        (path / "dentro").mkdir(parents=True)
    return edit


def symlink_loop(rel: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        os.symlink(path.name, path)
    return edit


def symlink(rel: str, target: str) -> Edit:
    def edit(root: Path) -> None:
        os.symlink(target, root / rel)
    return edit


def link_out(rel: str, data: bytes = b"SEGREDO_DO_CI=nao-pode-aparecer\n") -> Edit:
    """rel becomes a (relative) link to a file outside the content folder, beside it: an env file, say."""
    def edit(root: Path) -> None:
        target = root.parent / "fora" / Path(rel).name
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(data)
        path = root / rel
        if path.is_symlink() or path.exists():
            path.unlink()
        os.symlink(os.path.relpath(target, path.parent), path)
    return edit


def fifo(rel: str) -> Edit:
    """A named pipe: reading it would block forever."""
    def edit(root: Path) -> None:
        os.mkfifo(root / rel)
    return edit


def copy(rel: str, new_rel: str) -> Edit:
    def edit(root: Path) -> None:
        (root / new_rel).write_bytes((root / rel).read_bytes())
    return edit


def rename(rel: str, new_name: str) -> Edit:
    def edit(root: Path) -> None:
        (root / rel).rename((root / rel).with_name(new_name))
    return edit


def billion_laughs() -> str:
    """The classic alias bomb: 9 levels of 9 aliases, 9⁹ strings if anything expanded it."""
    lines = ['a: &a ["ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha", "ha"]']
    for prev, cur in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "name: 1ª Etapa\n" + "\n".join(lines) + "\n"


@dataclass
class Case:
    id: str
    edit: Edit
    errors: list[tuple[str, int, int, str]] = field(default_factory=list)
    hint: str | None = None          # the first suggestion printed, when the case checks it


CASES: list[Case] = [
    # ------------------------------------------------------------------ YAML syntax
    Case("yaml-colchete-nao-fechado", sub(STAGE, "teams: [aptru, serapio]", "teams: [aptru, serapio"),
         [(c(STAGE), 40, 16, 'YAML inválido: lista ou mapa entre colchetes/chaves não foi fechado')],
         hint='feche "[" com "]" e "{" com "}"'),
    Case("yaml-dois-pontos-no-texto", sub(STAGE, "city: Curitiba", "city: Curitiba: PR"),
         [(c(STAGE), 4, 15, 'YAML inválido: ":" inesperado nesta posição')],
         hint='confira o recuo da linha; um texto com ":" precisa estar entre aspas'),
    Case("yaml-aspas-nao-fechadas", sub(STAGE, '- "12-3 12-5"', '- "12-3 12-5'),
         [(c(STAGE), 45, 17, 'YAML inválido: aspas abertas e não fechadas nesta linha')],
         hint='feche as aspas no fim do texto: "…"'),
    Case("yaml-recuo-errado", sub(STAGE, "            away: serapio", "           away: serapio"),
         [(c(STAGE), 42, 12, 'YAML inválido: recuo inconsistente: esperava um item de lista ("- ")')],
         hint='alinhe a linha com os outros itens da lista'),
    Case("yaml-dois-documentos", append(CLUBS, "---\nfoo: {name: Foo}\n"),
         [(c(CLUBS), 5, 1, 'YAML inválido: o arquivo tem mais de um documento YAML ("---")')],
         hint='deixe um só documento por arquivo'),
    Case("yaml-caractere-de-controle", put(CLUBS, "aptru: {name: APTRU\x00, city: Curitiba}\n"),
         [(c(CLUBS), 1, 20, 'caractere de controle U+0000 não é permitido no YAML')],
         hint='o arquivo parece binário ou recebeu um caractere invisível ao colar um texto; apague-o'),
    Case("yaml-chave-de-mesclagem", append(CLUBS, "base: &b {name: Base, city: Curitiba}\nnovo: {<<: *b, name: Novo}\n"),
         [(c(CLUBS), 6, 8, 'a chave de mesclagem "<<" não é permitida')],
         hint='escreva as chaves por extenso'),
    Case("tab-no-recuo", sub(STAGE, "  serapio:\n", "\tserapio:\n"),
         [(c(STAGE), 14, 1, 'YAML inválido: caractere de tabulação (TAB) não é permitido no YAML')],
         hint='recue as linhas com espaços, não com TAB'),
    Case("chave-repetida-clube", append(CLUBS, "aptru: {name: APTRU de novo}\n"),
         [(c(CLUBS), 5, 1, 'chave repetida "aptru" (já aparece na linha 1)')],
         hint='apague uma das duas ou junte o conteúdo delas'),
    Case("chave-repetida-inscricao", sub(CHAMP, "  8: q8\n", "  8: q8\n  8: q7\n"),
         [(c(CHAMP), 16, 3, 'chave repetida "8" (já aparece na linha 15)')],
         hint='apague uma das duas ou junte o conteúdo delas'),
    Case("cabecalho-markdown-invalido", sub(PAGE, "title: Sobre a federação", "title: [Sobre a federação"),
         [(c(PAGE), 3, 1, 'YAML inválido: lista ou mapa entre colchetes/chaves não foi fechado')],
         hint='feche "[" com "]" e "{" com "}"'),
    # ------------------------------------------------------------------ wrong types
    Case("tipo-data-em-texto", sub(STAGE, "date: 2026-03-14", "date: 14/03/2026"),
         [(c(STAGE), 2, 7, 'data inválida em date: recebido "14/03/2026"; use AAAA-MM-DD, por exemplo 2026-03-14')],
         hint='escreva 2026-03-14'),
    Case("tipo-data-em-texto-no-campeonato", sub(CHAMP, "date: 2026-05-10", "date: 10 de maio"),
         [(c(CHAMP), 3, 7, 'data inválida em date: recebido "10 de maio"; use AAAA-MM-DD, por exemplo 2026-03-14')]),
    Case("tipo-data-em-texto-na-noticia", sub(NEWS, 'season: "2026"', 'date: "16/03/2026"\nseason: "2026"'),
         [(c(NEWS), 3, 7, 'data inválida em date: recebido "16/03/2026"; use AAAA-MM-DD, por exemplo 2026-03-14')],
         hint='escreva 2026-03-16'),
    Case("tipo-colocacao-em-texto", sub(STAGE, "for_place: 3", "for_place: terceiro"),
         [(c(STAGE), 67, 20, 'valor inválido em phases[2].knockout[2].for_place: recebido "terceiro" (texto); esperado um número inteiro')]),
    Case("tipo-taxa-em-texto", sub(CHAMP, "fee: 50.00", "fee: cinquenta"),
         [(c(CHAMP), 5, 6, 'valor inválido em fee: recebido "cinquenta" (texto); esperado um número')]),
    Case("tipo-elenco-em-texto", sub(STAGE, "  uniao:\n    pairs:\n      - [uniao-1a, uniao-1b]\n",
                                     "  uniao:\n    pairs: uniao-1a e uniao-1b\n    outras:\n      - [uniao-1a, uniao-1b]\n"),
         [(c(STAGE), 29, 12, 'valor inválido em teams.uniao.pairs: recebido "uniao-1a e uniao-1b" (texto); esperado uma lista'),
          (c(STAGE), 30, 5, 'chave desconhecida "outras" em teams.uniao')],
         hint='chaves aceitas aqui: club, name, pairs'),
    Case("tipo-regra-em-texto", append(LEAGUE, "truco: {boards: cinco}\n"),
         [(c(LEAGUE), 4, 17, 'valor inválido em truco.boards: recebido "cinco" (texto); esperado um número inteiro')]),
    Case("status-desconhecido-no-campeonato", sub(CHAMP, "status: final", "status: encerrdo"),
         [(c(CHAMP), 4, 9, 'valor inválido em status: recebido "encerrdo" (texto); esperado scheduled ou in_progress '
           'ou final ou agendado ou em andamento ou encerrado ou agendada ou encerrada')],
         hint='você quis dizer "encerrado" ou "encerrada"?'),
    # ------------------------------------------------------------------ unknown ids
    Case("id-jogador-desconhecido", sub(STAGE, "[aptru-3a, aptru-3b]", "[aptru-3a, aptru-3c]"),
         [(c(STAGE), 11, 20, 'jogador desconhecido "aptru-3c"')],
         hint='você quis dizer "aptru-3b" ou "aptru-3a" ou "aptru-5b"?'),
    Case("id-anfitriao-desconhecido", sub(STAGE, "host: aptru", "host: aptu"),
         [(c(STAGE), 3, 7, 'clube anfitrião desconhecido "aptu"')],
         hint='você quis dizer "aptru"?'),
    Case("id-equipe-desconhecida-na-final", sub(STAGE, "{home: aptru, away: tigre,", "{home: aptru, away: tigres,"),
         [(c(STAGE), 73, 33, 'equipe desconhecida "tigres" (não está em teams: desta etapa)')],
         hint='você quis dizer "tigre"?'),
    Case("id-clube-desconhecido-do-jogador", sub(PLAYERS, "club: aptru}", "club: aptu}"),
         [(c(PLAYERS), 1, 42, 'clube desconhecido "aptu"')],
         hint='você quis dizer "aptru"?'),
    Case("id-com-acento", append(CLUBS, "são-josé: {name: São José}\n"),
         [(c(CLUBS), 5, 1, 'id de clube inválido: recebido "são-josé" (texto); esperado letras minúsculas sem acento, números e hífens')],
         hint='use "sao-jose"'),
    # two files, one id: the second would take the first one's page and add a column to the season's ranking
    Case("etapa-yaml-e-yml", copy(STAGE, "seasons/2026/truco/etapa-1.yml"),
         [("content/seasons/2026/truco/etapa-1.yml", 0, 0, 'a etapa "etapa-1" está em dois arquivos: '
           'content/seasons/2026/truco/etapa-1.yaml e content/seasons/2026/truco/etapa-1.yml (o id é o nome do '
           'arquivo, sem a extensão)')],
         hint='apague um dos dois, ou renomeie um deles se são etapas diferentes'),
    Case("campeonato-yaml-e-yml", copy(CHAMP, "seasons/2026/quatrilho/chapeco.yml"),
         [("content/seasons/2026/quatrilho/chapeco.yml", 0, 0, 'o campeonato "chapeco" está em dois arquivos: '
           'content/seasons/2026/quatrilho/chapeco.yaml e content/seasons/2026/quatrilho/chapeco.yml (o id é o '
           'nome do arquivo, sem a extensão)')],
         hint='apague um dos dois, ou renomeie um deles se são campeonatos diferentes'),
    # ------------------------------------------------------------------ Truco scores and matches
    # history (data-format.md): a match by its result only, a stage by its final places only
    Case("resultado-impossivel", sub(STAGE, '          - home: tigre\n            away: uniao\n            boards:\n'
                                            + '              - "12-5 12-5"\n' * 3
                                            + '              - "5-12 5-12"\n' * 2,
                                     '          - {home: tigre, away: uniao, result: "4x2"}\n'),
         [(c(STAGE), 52, 48, 'confronto tigre × uniao: resultado "4x2" impossível: os 5 jogos do confronto somam 5 '
           'pontos e uma equipe vence (item 9.1)')],
         hint='os resultados possíveis são 5x0, 4x1, 3x2 (ou o inverso)'),
    Case("lugares-finais-clube-desconhecido", put("seasons/2026/truco/etapa-2.yaml",
                                                  "name: 2ª Etapa\ndate: 2026-05-09\nstatus: final\n"
                                                  "final_places: [aptru, [tigr, uniao], serapio]\n"),
         [("content/seasons/2026/truco/etapa-2.yaml", 4, 24, 'clube desconhecido "tigr"')],
         hint='você quis dizer "tigre"?'),
    Case("placar-12-12", sub(STAGE, '"12-3 12-5"', '"12-12 12-5"'),
         [(c(STAGE), 45, 17, 'jogo 2 (aptru × serapio): partida "12-12" impossível: empate não existe; o vencedor tem exatamente 12 tentos e o perdedor de 0 a 11')]),
    Case("placar-13-5", sub(STAGE, '"12-0 12-4"', '"13-5 12-4"'),
         [(c(STAGE), 47, 17, 'jogo 4 (aptru × serapio): partida "13-5" impossível: o vencedor tem exatamente 12 tentos e o perdedor de 0 a 11')]),
    Case("placar-so-uma-partida", sub(STAGE, '"12-0 12-4"', '"12-0"'),
         [(c(STAGE), 47, 17, 'jogo 4 (aptru × serapio): jogo incompleto: 1x0 em partidas; uma dupla precisa vencer 2')],
         hint='um jogo tem 2 ou 3 partidas'),
    Case("jogos-a-menos", sub(STAGE, '              - "10-12 11-12"\n', ""),
         [(c(STAGE), 44, 15, 'o confronto aptru × serapio tem 4 jogos; esperado 5 (item 9.1)')],
         hint='um jogo por linha; a 6ª dupla entra no lugar de outra, não em um jogo a mais'),
    Case("jogos-a-mais", sub(STAGE, '{home: aptru, away: uniao, boards: ["12-5 12-5", ',
                             '{home: aptru, away: uniao, boards: ["12-5 12-5", "12-5 12-5", '),
         [(c(STAGE), 64, 48, 'o confronto aptru × uniao tem 6 jogos; esperado 5 (item 9.1)')],
         hint='um jogo por linha; a 6ª dupla entra no lugar de outra, não em um jogo a mais'),
    Case("equipe-contra-si-mesma", sub(STAGE, "            away: uniao", "            away: tigre"),
         [(c(STAGE), 53, 19, 'a equipe "tigre" não pode jogar contra si mesma')]),
    Case("dupla-em-duas-equipes", sub(STAGE, "[serapio-5a, serapio-5b]", "[aptru-5a, aptru-5b]"),
         [(c(STAGE), 20, 10, 'o jogador "aptru-5a" já joga pela equipe "aptru" nesta etapa (linha 13)'),
          (c(STAGE), 20, 20, 'o jogador "aptru-5b" já joga pela equipe "aptru" nesta etapa (linha 13)')],
         hint='um jogador defende uma só equipe por etapa'),
    Case("eliminada-volta-na-final", sub(STAGE, "{home: aptru, away: tigre,", "{home: aptru, away: serapio,"),
         [(c(STAGE), 73, 33, 'a equipe "serapio" foi eliminada em "Semifinal" (linha 65) e não pode voltar numa rodada eliminatória')],
         hint='uma equipe eliminada só volta em disputa de colocação (for_place ≥ 3 ou places: [A, B])'),
    # ------------------------------------------------------------------ Quatrilho
    Case("fichas-somam-errado", sub(CHAMP, "1: {1: 134, 2: 80, 3: 100, 4: 86}", "1: {1: 134, 2: 80, 3: 100, 4: 96}"),
         [(c(CHAMP), 18, 7, 'mesa 1, rodada 1: soma 410, esperado 400 (4 jogadores, 0 reinscrições)')],
         hint='confira a contagem das fichas e as reinscrições da mesa; se a diferença é conhecida, registre adjustments: [{table: 1, chips: 10, reason: …}]'),
    Case("fichas-ajuste-nao-explica", both(
        sub(CHAMP, "1: {1: 134, 2: 80, 3: 100, 4: 86}", "1: {1: 134, 2: 80, 3: 100, 4: 96}"),
        sub(CHAMP, "      2: {5: 95, 6: 105, 7: 150, 8: 50}\n",
            "      2: {5: 95, 6: 105, 7: 150, 8: 50}\n    adjustments:\n      - {table: 1, chips: 5, reason: Ficha achada}\n")),
         [(c(CHAMP), 18, 7, 'mesa 1, rodada 1: soma 410, esperado 400 (4 jogadores, 0 reinscrições); o ajuste registrado (linha 21) explica +5, a diferença é +10')],
         hint='confira a contagem das fichas ou corrija o ajuste'),
    Case("mesa-com-tres", sub(CHAMP, "2: {5: 95, 6: 105, 7: 150, 8: 50}", "2: {5: 95, 6: 155, 7: 150}"),
         [(c(CHAMP), 17, 5, 'rodada 1: 1 jogador inscrito sem mesa: 8 (q8)'),
          (c(CHAMP), 19, 7, 'mesa 2, rodada 1: 3 jogadores; uma mesa tem 4 ou 5 (Art. 14)'),
          (c(CHAMP), 19, 7, 'mesa 2, rodada 1: soma 400, esperado 300 (3 jogadores, 0 reinscrições)')],
         hint='sente-os numa mesa ou acrescente "absent: [8]" à rodada (a rodada conta 0 para eles)'),
    # ------------------------------------------------------------------ dates
    Case("data-30-de-fevereiro", sub(STAGE, "date: 2026-03-14", "date: 2026-02-30"),
         [(c(STAGE), 2, 7, 'data inexistente "2026-02-30"')],
         hint='use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14'),
    Case("data-entre-aspas-30-de-fevereiro", sub(STAGE, "date: 2026-03-14", "date: '2026-02-30'"),
         [(c(STAGE), 2, 7, 'data inexistente "2026-02-30"')],
         hint='use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14'),
    Case("data-29-de-fevereiro-sem-bissexto", sub(CHAMP, "date: 2026-05-10", "date: 2026-02-29"),
         [(c(CHAMP), 3, 7, 'data inexistente "2026-02-29"')],
         hint='use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14'),
    Case("data-inexistente-no-nome-da-noticia", rename(NEWS, "2026-02-30-etapa-1.md"),
         [('content/news/2026-02-30-etapa-1.md', 0, 0, 'data inexistente no nome do arquivo "2026-02-30"')]),
    # dates beyond 1900..2100 (league.content.schema.DATE_MIN/MAX): 9999-12-31 overflowed the calendar feed's end date
    Case("data-ano-9999", sub(STAGE, "date: 2026-03-14", "date: 9999-12-31"),
         [(c(STAGE), 2, 7, 'data fora do limite em date: recebido 9999-12-31; esperado uma data de 1900-01-01 a 2100-12-31')],
         hint='confira o ano; escreva a data como AAAA-MM-DD, ex.: 2026-03-14'),
    Case("data-ano-1-no-campeonato", sub(CHAMP, "date: 2026-05-10", "date: 0001-01-01"),
         [(c(CHAMP), 3, 7, 'data fora do limite em date: recebido 0001-01-01; esperado uma data de 1900-01-01 a 2100-12-31')]),
    Case("data-ano-2101-na-noticia", sub(NEWS, 'season: "2026"', 'date: 2101-01-01\nseason: "2026"'),
         [(c(NEWS), 3, 7, 'data fora do limite em date: recebido 2101-01-01; esperado uma data de 1900-01-01 a 2100-12-31')]),
    Case("data-entre-aspas-ano-2101-na-noticia", sub(NEWS, 'season: "2026"', 'date: "2101-01-01"\nseason: "2026"'),
         [(c(NEWS), 3, 7, 'data fora do limite em date: recebido 2101-01-01; esperado uma data de 1900-01-01 a 2100-12-31')],
         hint='confira o ano; escreva a data como AAAA-MM-DD, ex.: 2026-03-14'),
    Case("data-ano-9999-no-nome-da-noticia", rename(NEWS, "9999-12-31-etapa-1.md"),
         [('content/news/9999-12-31-etapa-1.md', 0, 0, 'data fora do limite no nome do arquivo: recebido 9999-12-31; '
           'esperado uma data de 1900-01-01 a 2100-12-31')],
         hint='confira o ano e renomeie o arquivo, ex.: news/2026-03-16-etapa-1.md'),
    # ------------------------------------------------------------------ numbers: finite, non-negative, bounded
    Case("taxa-nan", sub(CHAMP, "fee: 50.00", "fee: .nan"),
         [(c(CHAMP), 5, 6, 'valor inválido em fee: recebido .nan (não é um número); esperado um número de 0 a 1000000')],
         hint='escreva o valor em algarismos, ex.: 50.00 (.nan e .inf não são números)'),
    Case("taxa-infinita", sub(CHAMP, "fee: 50.00", "fee: .inf"),
         [(c(CHAMP), 5, 6, 'valor inválido em fee: recebido .inf (infinito); esperado um número de 0 a 1000000')]),
    Case("taxa-1e308", sub(CHAMP, "fee: 50.00", "fee: 1e308"),
         [(c(CHAMP), 5, 6, 'valor inválido em fee: recebido "1e308" (texto); esperado um número')],
         hint='escreva o número por extenso, sem expoente (ex.: 1000, não 1e3)'),
    Case("taxa-1.0e+308", sub(CHAMP, "fee: 50.00", "fee: 1.0e+308"),
         [(c(CHAMP), 5, 6, 'valor fora do limite em fee: recebido 1e+308 (número); esperado um número de 0 a 1000000')],
         hint='o máximo, 1000000, fica muito acima do que uma federação usa: confira se o valor foi digitado certo '
              '(um zero a mais?)'),
    Case("taxa-negativa", sub(CHAMP, "fee: 50.00", "fee: -5"),
         [(c(CHAMP), 5, 6, 'valor fora do limite em fee: recebido -5 (número); esperado um número de 0 a 1000000')],
         hint='escreva o valor sem o sinal de menos'),
    Case("pontos-de-ranking-nan", append(LEAGUE, "truco: {ranking_points: [20, .nan]}\n"),
         [(c(LEAGUE), 4, 30, 'valor inválido em truco.ranking_points[2]: recebido .nan (não é um número); '
           'esperado um número de 0 a 100000')]),
    Case("pontos-de-ranking-infinitos", append(LEAGUE, "truco: {ranking_points: [.inf, 16]}\n"),
         [(c(LEAGUE), 4, 26, 'valor inválido em truco.ranking_points[1]: recebido .inf (infinito); '
           'esperado um número de 0 a 100000')]),
    Case("pontos-de-ranking-1e308", append(LEAGUE, "truco: {ranking_points: [1.0e+308, 16]}\n"),
         [(c(LEAGUE), 4, 26, 'valor fora do limite em truco.ranking_points[1]: recebido 1e+308 (número); '
           'esperado um número de 0 a 100000')]),
    Case("pontos-de-ranking-negativos", append(LEAGUE, "truco: {ranking_points: [20, -5]}\n"),
         [(c(LEAGUE), 4, 30, 'valor fora do limite em truco.ranking_points[2]: recebido -5 (número); '
           'esperado um número de 0 a 100000')],
         hint='escreva o valor sem o sinal de menos'),
    Case("premio-nan", sub(CHAMP, "prizes: {1: 40,", "prizes: {1: .nan,"),
         [(c(CHAMP), 6, 13, 'prêmio do 1º lugar inválido: recebido .nan (não é um número); esperado uma porcentagem '
           'maior que 0 e até 100 (Art. 23)')]),
    Case("jogos-por-confronto-um-bilhao", append(LEAGUE, "truco: {boards: 1000000000}\n"),
         [(c(LEAGUE), 4, 17, 'valor fora do limite em truco.boards: recebido 1000000000 (número); '
           'esperado um número inteiro de 1 a 99')],
         hint='o máximo, 99, fica muito acima do que uma federação usa: confira se o valor foi digitado certo '
              '(um zero a mais?)'),
    Case("fichas-da-inscricao-negativas", append(LEAGUE, "quatrilho: {stake: -100}\n"),
         [(c(LEAGUE), 4, 20, 'valor fora do limite em quatrilho.stake: recebido -100 (número); '
           'esperado um número inteiro de 1 a 1000000')],
         hint='use um valor a partir de 1'),
    Case("limite-de-inscritos-enorme", append(LEAGUE, "quatrilho: {max_players: 1000000000}\n"),
         [(c(LEAGUE), 4, 26, 'valor fora do limite em quatrilho.max_players: recebido 1000000000 (número); '
           'esperado um número inteiro de 4 a 10000')]),
    Case("colocacao-um-bilhao", sub(STAGE, "for_place: 3", "for_place: 1000000000"),
         [(c(STAGE), 67, 20, 'valor fora do limite em phases[2].knockout[2].for_place: recebido 1000000000 (número); '
           'esperado um número inteiro de 1 a 1000')]),
    Case("dupla-numero-um-milhao", sub(STAGE, '- "12-3 12-5"', '- {home: 1000000, away: 2, score: "12-3 12-5"}'),
         [(c(STAGE), 45, 24, 'valor fora do limite em phases[1].groups.Grupo A.matches[1].boards[2].home: recebido '
           '1000000 (número); esperado um número inteiro de 1 a 99')]),
    Case("premio-colocacao-um-bilhao", sub(CHAMP, "3: 15}", "1000000000: 15}"),
         [(c(CHAMP), 6, 24, 'valor fora do limite em prizes: recebido 1000000000 (número); '
           'esperado um número inteiro de 1 a 1000')]),
    Case("inscricao-numero-um-bilhao", sub(CHAMP, "  8: q8\n", "  1000000000: q8\n"),
         [(c(CHAMP), 15, 3, 'valor fora do limite em players: recebido 1000000000 (número); '
           'esperado um número inteiro de 1 a 10000')]),
    Case("mesa-numero-um-bilhao", sub(CHAMP, "      2: {5: 95,", "      1000000000: {5: 95,"),
         [(c(CHAMP), 19, 7, 'valor fora do limite em rounds[1].tables: recebido 1000000000 (número); '
           'esperado um número inteiro de 1 a 10000')]),
    Case("fichas-um-quatrilhao", sub(CHAMP, "8: 50}", "8: 1000000000000000}"),
         [(c(CHAMP), 19, 37, 'valor fora do limite em rounds[1].tables.2.8: recebido 1000000000000000 (número); '
           'esperado um número inteiro de 0 a 1000000000')]),
    Case("reinscricoes-um-bilhao", sub(CHAMP, "8: 50}\n", "8: 50}\n    rebuys: {8: 1000000000}\n"),
         [(c(CHAMP), 20, 17, 'valor fora do limite em rounds[1].rebuys.8: recebido 1000000000 (número); '
           'esperado um número inteiro de 0 a 100')]),
    Case("ausentes-demais", sub(CHAMP, "8: 50}\n", "8: 50}\n    absent: [" + "8, " * 10_000 + "8]\n"),
         [(c(CHAMP), 20, 13, 'quantidade inválida em rounds[1].absent: 10001 item(ns); esperado no máximo 10000')],
         hint='o máximo, 10000, fica muito acima do que uma federação usa: confira se o arquivo certo foi salvo aqui'),
    Case("rodadas-demais", sub(CHAMP, "rounds:\n", "rounds:\n" + "  - {tables: {}}\n" * 101),
         [(c(CHAMP), 17, 3, 'quantidade inválida em rounds: 103 item(ns); esperado no máximo 100')],
         hint='o máximo, 100, fica muito acima do que uma federação usa: confira se o arquivo certo foi salvo aqui'),
    # ------------------------------------------------------------------ bytes and files
    Case("nao-utf8", put(PLAYERS, "serapio-1a: {name: Jogador São, club: serapio}\n".encode("latin-1")),
         [(c(PLAYERS), 1, 29, 'o arquivo não está em UTF-8: byte 0xe3 inválido')],
         hint='salve o arquivo com a codificação UTF-8'),
    Case("arquivo-vazio", put(STAGE, ""),
         [(c(STAGE), 1, 1, 'o arquivo da etapa está vazio')],
         hint='preencha o arquivo; veja o modelo em `league new`'),
    Case("clubes-vazio", put(CLUBS, ""),
         [(c(CLUBS), 1, 1, 'clubs.yaml deve ser um mapa: id do clube → {name, city}')]),
    Case("arquivo-de-50-mb", sparse(STAGE, 50 * 1024 * 1024),
         [(c(STAGE), 0, 0, 'arquivo grande demais: 52.4 MB; o máximo é 5.2 MB')],
         hint='um arquivo de etapa ou campeonato tem poucos KB; confira se o arquivo certo foi salvo aqui'),
    Case("bomba-de-aliases", put(STAGE, billion_laughs()),
         [(c(STAGE), 2, 4, 'âncoras e aliases do YAML (&, *) não são permitidos')],
         hint='escreva o valor por extenso'),
    Case("aninhamento-10000", put(STAGE, "name: 1ª Etapa\nphases: " + "[" * 10_000 + "]" * 10_000 + "\n"),
         [(c(STAGE), 2, 1008, 'YAML inválido: estrutura aninhada demais')],
         hint='os arquivos de conteúdo têm no máximo uns 8 níveis; confira colchetes e recuo'),
    Case("linha-enorme", put(STAGE, "name: 1ª Etapa\n" + "x" * 3_000_000 + ": 1\n"),
         [(c(STAGE), 2, 1, 'YAML inválido: chave longa demais (3000000 caracteres; o máximo é 1024)')],
         hint='confira se falta uma quebra de linha ou ":"; um texto longo vai depois de "chave: ", nunca no lugar da chave'),
    Case("jogos-demais-numa-linha", sub(STAGE, '{home: aptru, away: uniao, boards: ["12-5 12-5", ',
                                        '{home: aptru, away: uniao, boards: [' + '"12-5 12-5", ' * 20_000),
         [(c(STAGE), 64, 48, 'o confronto aptru × uniao tem 20004 jogos; esperado 5 (item 9.1)')],
         hint='um jogo por linha; a 6ª dupla entra no lugar de outra, não em um jogo a mais'),
    Case("chave-desconhecida-enorme", sub(STAGE, "city: Curitiba\n", "city: Curitiba\n" + "k" * 1000 + ": 1\n"),
         [(c(STAGE), 5, 1, 'chave desconhecida "' + "k" * 57 + '…"')],
         hint="chaves aceitas aqui: name, date, host, city, status, teams, phases, draws, classification, "
              "disqualified, final_places, source, note"),
    Case("aninhamento-500", put(STAGE, "name: 1ª Etapa\nphases: " + "[" * 500 + "]" * 500 + "\n"),
         [(c(STAGE), 2, 49, 'estrutura aninhada demais (mais de 40 níveis)')],
         hint='os arquivos de conteúdo têm no máximo uns 8 níveis; confira o recuo'),
    Case("league-yaml-e-pasta", directory(LEAGUE),
         [(c(LEAGUE), 0, 0, 'não foi possível ler o arquivo: é uma pasta, não um arquivo')],
         hint='mova o conteúdo da pasta ou renomeie-a'),
    Case("etapa-e-pasta", directory("seasons/2026/truco/etapa-2.yaml"),
         [('content/seasons/2026/truco/etapa-2.yaml', 0, 0, 'não foi possível ler o arquivo: é uma pasta, não um arquivo')],
         hint='mova o conteúdo da pasta ou renomeie-a'),
    Case("link-em-laco", symlink_loop("seasons/2026/truco/etapa-2.yaml"),
         [('content/seasons/2026/truco/etapa-2.yaml', 0, 0, 'não foi possível ler o arquivo: link simbólico em laço (aponta para si mesmo)')],
         hint='apague o link e ponha aqui o arquivo de verdade'),
    Case("link-quebrado", symlink("seasons/2026/quatrilho/xanxere.yaml", "nao-existe.yaml"),
         [('content/seasons/2026/quatrilho/xanxere.yaml', 0, 0, 'não foi possível ler o arquivo: link simbólico quebrado (o destino não existe)')],
         hint='apague o link e ponha aqui o arquivo de verdade'),
    # links whose target is outside content/: never read (no byte of them in a message), never published
    Case("link-para-fora-no-lugar-da-etapa", link_out(STAGE),
         [(c(STAGE), 0, 0, 'link simbólico para fora da pasta de conteúdo: não é lido nem publicado')],
         hint='ponha aqui uma cópia do arquivo (ou da pasta) em vez do link, ou aponte o link para algo dentro de '
              'content/'),
    Case("link-para-fora-clubes", link_out(CLUBS, b"aptru: {name: APTRU de fora}\n"),
         [(c(CLUBS), 0, 0, 'link simbólico para fora da pasta de conteúdo: não é lido nem publicado')]),
    Case("link-para-fora-league-yaml", link_out(LEAGUE, b"name: Fora\nshort_name: F\n"),
         [(c(LEAGUE), 0, 0, 'link simbólico para fora da pasta de conteúdo: não é lido nem publicado')]),
    Case("link-para-fora-pagina", link_out("pages/segredo.md", b"---\ntitle: Segredo\n---\nchave=123\n"),
         [('content/pages/segredo.md', 0, 0, 'link simbólico para fora da pasta de conteúdo: não é lido nem publicado')]),
    Case("link-para-fora-arquivo-qualquer", link_out(".env"),
         [('content/.env', 0, 0, 'link simbólico para fora da pasta de conteúdo: não é lido nem publicado')]),
    Case("fila-fifo", fifo("seasons/2026/quatrilho/xanxere.yaml"),
         [('content/seasons/2026/quatrilho/xanxere.yaml', 0, 0, 'não foi possível ler o arquivo: não é um arquivo comum (é um dispositivo, fila ou soquete)')],
         hint='ponha aqui um arquivo de texto'),
]
