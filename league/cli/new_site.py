"""The files of `league new site FOLDER`: a federation's content to start from — league.yaml, two example
clubs with their players, one season and one finished Truco stage — that `league build` turns into a site
as it is, each file saying in comments what to replace. Text only: league/cli/new.py writes them (and the
JSON Schemas, the VS Code settings)."""
from __future__ import annotations

import json
import re

PLAIN = re.compile(r"^[A-Za-zÀ-ÿ0-9][A-Za-zÀ-ÿ0-9 .,()ªº'/-]*$")
CLUBS = (("clube-a", "Clube A", "Cidade A"), ("clube-b", "Clube B", "Cidade B"))
PAIRS = 5   # Truco 9.1: five boards a match, so five pairs a team
# one match, home pair first on each board (Truco 10.3: best of three games to 12): 4 boards to 1, no two
# pairs tied (their pontinhos balances differ: +8, +3, +9, -7, +7 for the home pairs)
BOARDS = ("12-7 12-9", "9-12 12-10 12-8", "12-5 12-10", "7-12 10-12", "12-3 4-12 12-6")


def yaml_str(text: str) -> str:
    """A YAML scalar for `text`: as it is when YAML reads it back as that same string, else in double quotes."""
    import yaml
    if PLAIN.match(text):
        try:
            if yaml.safe_load(f"k: {text}\n") == {"k": text}:
                return text
        except yaml.YAMLError:
            pass
    return json.dumps(text, ensure_ascii=False)


def site_files(name: str, short_name: str, season: str) -> dict[str, str]:
    """Path under the new folder → text, in the order they are written."""
    return {
        ".gitignore": GITIGNORE,
        "content/league.yaml": league_yaml(name, short_name),
        "content/clubs.yaml": clubs_yaml(),
        "content/players.yaml": players_yaml(),
        f"content/seasons/{season}/season.yaml": season_yaml(season),
        f"content/seasons/{season}/truco/etapa-1.yaml": stage_yaml(season),
    }


GITIGNORE = """\
# o que `league build` gera: não vai para o repositório
/site/
/.league-cache/
"""


def league_yaml(name: str, short_name: str) -> str:
    return (
        "# yaml-language-server: $schema=../schemas/league.schema.json\n"
        "# A federação e as regras de cálculo (docs/formato.md, docs/regras.md). Os valores de truco: e\n"
        "# quatrilho: são os padrões dos regulamentos; mude só o que a federação decidiu diferente.\n"
        f"name: {yaml_str(name)}\n"
        f"short_name: {yaml_str(short_name)}\n"
        "base_url: https://example.org/           # troque pelo endereço público do site (com / no fim)\n"
        "# repository: https://github.com/<conta>/<repositorio>   # links de cada resultado ao arquivo\n"
        "locale: pt_BR                            # pt_BR ou en: o idioma do site\n"
        "truco:\n"
        "  boards: 5                              # item 9.1: cinco jogos por confronto\n"
        "  games_to_win: 2                        # melhor de três partidas (item 10.3)\n"
        "  game_points: 12                        # partida de 12 pontinhos\n"
        "  walkover_games: [\"12-0\", \"12-0\"]\n"
        "  team_tiebreaks: [wins, points, head_to_head, pair_points_balance, pontinhos_balance, draw]\n"
        "  pair_tiebreaks: [points, wins, head_to_head, pair_points_balance, pontinhos_balance, draw]\n"
        "  ranking_points: [20, 16, 12, 8, 6, 4, 3, 2]   # item 12.1\n"
        "quatrilho:\n"
        "  stake: 100\n"
        "  max_players: 20\n"
        "  max_rebuys_per_round: 1\n"
        "  champions: 5\n"
        "  state_qualifiers: 4\n"
        "  tiebreaks: [net, positive_rounds, points_won, best_round, draw]\n"
    )


def _players(club: str) -> list[str]:
    letter = club[-1]
    return [f"jogador-{letter}{i}" for i in range(1, 2 * PAIRS + 1)]


def clubs_yaml() -> str:
    lines = ["# yaml-language-server: $schema=../schemas/clubs.schema.json\n",
             "# Os clubes: id → nome e cidade. Exemplos: troque pelos clubes da federação.\n"]
    lines += [f"{cid}: {{name: {name}, city: {city}}}\n" for cid, name, city in CLUBS]
    return "".join(lines)


def players_yaml() -> str:
    lines = ["# yaml-language-server: $schema=../schemas/players.schema.json\n",
             "# Os jogadores: id → nome e clube (opcional). Exemplos: troque pelos jogadores da federação.\n"]
    for cid, _name, _city in CLUBS:
        for pid in _players(cid):
            lines.append(f"{pid}: {{name: Jogador {pid.split('-')[1].upper()}, club: {cid}}}\n")
    return "".join(lines)


def season_yaml(season: str) -> str:
    return (
        "# yaml-language-server: $schema=../../../schemas/season.schema.json\n"
        "# A temporada (opcional): o título e, se mudarem só neste ano, chaves de truco: e quatrilho:.\n"
        f"title: Temporada {season}\n"
    )


def stage_yaml(season: str) -> str:
    (home, *_), (away, *_) = CLUBS
    lines = [
        "# yaml-language-server: $schema=../../../../schemas/stage.schema.json\n",
        "# Uma etapa de exemplo, encerrada: troque pelos dados de uma etapa real, ou apague o arquivo e\n",
        f"# crie a primeira com `league new stage {season} etapa-1`. Formato: docs/formato.md.\n",
        "name: 1ª Etapa\n",
        f"date: {season}-03-14\n",
        f"host: {home}\n",
        "status: final                 # scheduled, in_progress ou final: só final vale ranking\n",
        "teams:\n",
    ]
    for cid in (home, away):
        players = _players(cid)
        lines += [f"  {cid}:\n", "    pairs:\n"]
        lines += [f"      - [{players[2 * i]}, {players[2 * i + 1]}]\n" for i in range(PAIRS)]
    lines += [
        "phases:\n",
        "  - name: Fase de grupos\n",
        "    groups:\n",
        "      Grupo A:\n",
        f"        teams: [{home}, {away}]\n",
        "        matches:\n",
        f"          - home: {home}\n",
        f"            away: {away}\n",
        "            boards:           # um jogo por linha, tentos da casa primeiro\n",
    ]
    lines += [f"              - \"{b}\"\n" for b in BOARDS]
    return "".join(lines)
