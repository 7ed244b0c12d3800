"""The shape of every content file, as pydantic models: types, required keys, allowed values and a
Portuguese description of each key (shown by editors through the JSON Schema, `league schema`).

These models only check structure; meaning (ids that exist, scores that are possible) is checked
by the loader, which keeps the line and column of every value.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, StringConstraints, Tag
from pydantic.json_schema import WithJsonSchema
from pydantic_core import PydanticCustomError

from league.content.syntax import GAME
from league.standings import criteria

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]

# A board line: its games separated by spaces, each "12-7", "12x7", "12X7" or "12×7" (league.content.syntax.GAME),
# or the result only ("2-1", "2x1"). The pattern is for the editor only (JSON Schema): the loader parses the
# line itself and says which game is wrong, at its line (league.games.truco.rules.parse_board_score).
BOARD_SCORE_PATTERN = rf"^\s*{GAME}(\s+{GAME})*\s*$"
GAME_SCORE_PATTERN = rf"^\s*{GAME}\s*$"
BoardScore = Annotated[str, WithJsonSchema({"type": "string", "pattern": BOARD_SCORE_PATTERN})]
# a team match known by its result only (history): "4x1", "4-1", "4×1" (league.games.truco.rules.parse_match_result)
MATCH_RESULT_PATTERN = r"^\s*[0-9]{1,4}\s*[-xX×]\s*[0-9]{1,4}\s*$"
MatchResult = Annotated[str, WithJsonSchema({"type": "string", "pattern": MATCH_RESULT_PATTERN})]
GameScore = Annotated[str, WithJsonSchema({"type": "string", "pattern": GAME_SCORE_PATTERN})]

# Bounds of every number an editor types, far above any federation's use: a slip of the keyboard (or a hostile
# file) is reported at its line, never computed with (a date past 9999 overflows; `boards: 1000000000` would
# allocate that many games for a walkover). They show in the JSON Schema too (minimum, maximum, maxItems).
DATE_MIN = dt.date(1900, 1, 1)
DATE_MAX = dt.date(2100, 12, 31)
MAX_BOARDS = 99              # games per team match (item 9.1: 5); also pairs in a squad and a pair's number
MAX_GAME_POINTS = 1000       # tentos to win a game (12)
MAX_RANKING_POINTS = 100_000  # ranking points of one place (item 12.1: 20 for the 1st)
MAX_PLACES = 1000            # places: ranking_points' length, for_place, places, prize places, champions…
MAX_NUMBER = 10_000          # registration and table numbers; players in a championship (Art. 2: 20)
MAX_ROUNDS = 100             # rounds of a championship (Art. 10: 4)
MAX_REBUYS = 100             # re-registrations of a player in one round (Art. 19: 1)
MAX_STAKE = 1_000_000        # chips of a registration (Art. 8: 100)
MAX_CHIPS = 1_000_000_000    # chips counted at a table, penalties, adjustments
MAX_FEE = 1_000_000          # R$ of a registration (Art. 7)
MAX_TEAMS = 1000             # teams in a stage, groups in a phase
MAX_PHASES = 100             # phases of a stage, knockout rounds of a phase
MAX_MATCHES = 10_000         # matches of a group or round
MAX_ORDER = 1_000_000        # a page's place in the menu
MAX_CRITERIA = 20            # tiebreak criteria listed (6 exist; a repeated one is an error)
MAX_SEED = 2 ** 63 - 1       # a draw's seed (league draw writes 1…999999)

_ISO_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


def _quoted_date(value: Any) -> Any:
    """A quoted ISO date ('2026-03-14', as the GitHub web editor and YAML tools write it) is the same date as the
    unquoted one. Any other text is left to the date check, which reports it (league.content.validate: "use AAAA-MM-DD");
    an impossible date (2026-02-30) is reported as the unquoted one is (league.content.yamlio)."""
    if type(value) is str and _ISO_DATE.match(value):   # (not str subclasses: an impossible date already reported)
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise PydanticCustomError("date_impossible", "data inexistente") from None
    return value


# the editor's YAML 1.2 reads every date as text, quoted or not: the pattern is what it checks
Date = Annotated[dt.date, Field(ge=DATE_MIN, le=DATE_MAX, json_schema_extra={
    "pattern": r"^(19[0-9]{2}|20[0-9]{2}|2100)-[0-9]{2}-[0-9]{2}$"}), BeforeValidator(_quoted_date)]
Points = Union[Annotated[int, Field(ge=0, le=MAX_RANKING_POINTS)],
               Annotated[float, Field(ge=0, le=MAX_RANKING_POINTS, allow_inf_nan=False)]]
# status: the English values the JSON API keeps, or the Portuguese words the site shows (data-format.md, "What
# editors actually type"): a stage is agendada/encerrada, a championship agendado/encerrado (either is accepted)
STATUS_WORDS = {"agendada": "scheduled", "em andamento": "in_progress", "encerrada": "final",
                "agendado": "scheduled", "encerrado": "final"}


def _english_status(value: str) -> str:
    return STATUS_WORDS.get(value, value)


StageStatus = Annotated[Literal["scheduled", "in_progress", "final", "agendada", "em andamento", "encerrada"],
                        AfterValidator(_english_status)]
ChampionshipStatus = Annotated[Literal["scheduled", "in_progress", "final", "agendado", "em andamento", "encerrado",
                                       "agendada", "encerrada"], AfterValidator(_english_status)]
# the criteria each list may name, and their defaults: the registry's (league/standings/criteria.py)
TRUCO_TEAM_CRITERIA = criteria.TEAM_DEFAULT
QUATRILHO_CRITERIA = criteria.QUATRILHO_DEFAULT
TeamCriterion = Literal[criteria.keys_for(criteria.TRUCO)]   # (a tuple subscript: Literal["wins", "points", …])
QCriterion = Literal[criteria.keys_for(criteria.QUATRILHO)]


# defer_build: a model's validator is built when it is first used, not at import (~22 ms of every build's
# start for the 29 models): a load worker builds the stage and championship models it uses, a rebuild
# only those of the files it reads again
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class TrucoSettings(Strict):
    boards: int = Field(5, ge=1, le=MAX_BOARDS,
                        description="Jogos (duplas) por confronto de equipes (item 9.1). Número ímpar.")
    games_to_win: int = Field(2, ge=1, le=5, description="Partidas para vencer um jogo: 2 = melhor de três (item 10.3).")
    game_points: int = Field(12, ge=1, le=MAX_GAME_POINTS, description="Tentos (pontinhos) para vencer uma partida.")
    walkover_games: list[GameScore] = Field(["12-0", "12-0"], max_length=MAX_BOARDS,
                                            description="Placar das partidas de um jogo vencido por W.O.")
    team_tiebreaks: list[TeamCriterion] = Field(list(TRUCO_TEAM_CRITERIA), max_length=MAX_CRITERIA,
                                                description="Critérios de desempate das equipes, em ordem (item 10.1).")
    pair_tiebreaks: list[TeamCriterion] = Field(
        list(criteria.PAIR_DEFAULT), max_length=MAX_CRITERIA,
        description="Critérios de desempate das duplas, em ordem (item 10.3 e 12.2).")
    ranking_points: list[Points] = Field([20, 16, 12, 8, 6, 4, 3, 2], max_length=MAX_PLACES,
                                         description="Pontos de ranking por colocação na etapa: 1º, 2º, … "
                                                     "(item 12.1).")


class QuatrilhoSettings(Strict):
    stake: int = Field(100, ge=1, le=MAX_STAKE,
                       description="Fichas recebidas na inscrição e em cada reinscrição (Art. 8).")
    max_players: int = Field(20, ge=4, le=MAX_NUMBER, description="Limite de inscritos por campeonato (Art. 2).")
    max_rebuys_per_round: int = Field(1, ge=0, le=MAX_REBUYS,
                                      description="Reinscrições/talhas por jogador em cada rodada (Art. 19).")
    champions: int = Field(5, ge=1, le=MAX_PLACES, description="Quantos primeiros colocados são campeões (Art. 21).")
    state_qualifiers: int = Field(4, ge=0, le=MAX_PLACES,
                                  description="Classificados ao estadual por campeonato municipal (Art. 23).")
    tiebreaks: list[QCriterion] = Field(list(QUATRILHO_CRITERIA), max_length=MAX_CRITERIA,
                                        description="Critérios de desempate (Art. 21, 22).")


class MarkdownSettings(Strict):
    allow_html: bool = Field(False, description="Permite HTML nas páginas Markdown (sempre higienizado).")


class LeagueFile(Strict):
    name: str = Field(description="Nome da federação.")
    short_name: str = Field(description="Sigla da federação, ex.: FPRT.")
    base_url: str = Field("/", description="Endereço público do site, ex.: https://example.org/")
    locale: Literal["pt_BR", "en"] = Field("pt_BR", description="Idioma do site.")
    repository: str | None = Field(None, description="Endereço do repositório (para links às fontes).")
    truco: TrucoSettings = Field(default_factory=TrucoSettings, description="Regras do Interclubes de Truco.")
    quatrilho: QuatrilhoSettings = Field(default_factory=QuatrilhoSettings, description="Regras do Quatrilho.")
    markdown: MarkdownSettings = Field(default_factory=MarkdownSettings, description="Opções das páginas Markdown.")


class TrucoOverrides(Strict):
    boards: int | None = Field(None, ge=1, le=MAX_BOARDS)
    games_to_win: int | None = Field(None, ge=1, le=5)
    game_points: int | None = Field(None, ge=1, le=MAX_GAME_POINTS)
    walkover_games: list[GameScore] | None = Field(None, max_length=MAX_BOARDS)
    team_tiebreaks: list[TeamCriterion] | None = Field(None, max_length=MAX_CRITERIA)
    pair_tiebreaks: list[TeamCriterion] | None = Field(None, max_length=MAX_CRITERIA)
    ranking_points: list[Points] | None = Field(None, max_length=MAX_PLACES)


class QuatrilhoOverrides(Strict):
    stake: int | None = Field(None, ge=1, le=MAX_STAKE)
    max_players: int | None = Field(None, ge=4, le=MAX_NUMBER)
    max_rebuys_per_round: int | None = Field(None, ge=0, le=MAX_REBUYS)
    champions: int | None = Field(None, ge=1, le=MAX_PLACES)
    state_qualifiers: int | None = Field(None, ge=0, le=MAX_PLACES)
    tiebreaks: list[QCriterion] | None = Field(None, max_length=MAX_CRITERIA)


class SeasonFile(Strict):
    title: str | None = Field(None, description="Título da temporada.")
    truco: TrucoOverrides | None = Field(None, description="Regras do Truco só nesta temporada.")
    quatrilho: QuatrilhoOverrides | None = Field(None, description="Regras do Quatrilho só nesta temporada.")


class Club(Strict):
    name: str = Field(description="Nome do clube ou associação.")
    short_name: str | None = Field(None, description="Sigla ou nome curto usado nas listas publicadas, ex.: "
                                                     "APTRU (league import reconhece o clube por ele).")
    city: str | None = Field(None, description="Cidade.")


class Player(Strict):
    name: str = Field(description="Nome do jogador.")
    club: Slug | None = Field(None, description="Clube atual (id de clubs.yaml), opcional.")


PairIds = Annotated[list[Slug], Field(min_length=2, max_length=2)]
PairRef = Union[Annotated[int, Field(ge=1, le=MAX_BOARDS)], PairIds]


class BoardMap(Strict):
    home: PairRef | None = Field(None, description="Dupla da casa: número no elenco (1, 2, …) ou [jogador, jogador].")
    away: PairRef | None = Field(None, description="Dupla visitante: número no elenco ou [jogador, jogador].")
    score: BoardScore | None = Field(None, description="Partidas, tentos da casa primeiro: \"12-7 9-12 12-10\" "
                                                       "(ou \"12x7 9x12 12x10\").")
    walkover: Literal["home", "away"] | None = Field(None, description="Lado que não jogou (W.O. no jogo).")


def _board_tag(v: Any) -> str:
    return "text" if isinstance(v, str) else "map"


Board = Annotated[Union[Annotated[BoardScore, Tag("text")], Annotated[BoardMap, Tag("map")]], Discriminator(_board_tag)]


class Match(Strict):
    home: Slug = Field(description="Equipe da casa (id).")
    away: Slug = Field(description="Equipe visitante (id).")
    boards: list[Board] | None = Field(None, description="Um item por jogo, na ordem das mesas.")
    walkover: Slug | None = Field(None, description="Equipe que não compareceu (perde 5x0).")
    result: MatchResult | None = Field(None, description="Só o resultado do confronto, casa primeiro, quando os "
                                                         "jogos não são conhecidos (histórico): \"4x1\" (item 9.1).")
    note: str | None = Field(None, description="Observação.")


class Group(Strict):
    teams: list[Slug] = Field(max_length=MAX_TEAMS, description="Equipes do grupo.")
    matches: list[Match] = Field([], max_length=MAX_MATCHES, description="Confrontos jogados.")


class Round(Strict):
    round: str = Field(description="Nome da rodada, ex.: Semifinal.")
    for_place: int | None = Field(None, ge=1, le=MAX_PLACES,
                                  description="Disputa de colocação: vencedor fica em P, perdedor em P+1.")
    places: list[Annotated[int, Field(ge=1, le=MAX_PLACES)]] | None = Field(None, min_length=2, max_length=2,
                                                             description="Chave de classificação [primeiro, último].")
    matches: list[Match] = Field([], max_length=MAX_MATCHES, description="Confrontos da rodada.")


class Phase(Strict):
    name: str = Field(description="Nome da fase.")
    groups: dict[str, Group] | None = Field(None, max_length=MAX_TEAMS,
                                            description="Grupos: nome → equipes e confrontos.")
    knockout: list[Round] | None = Field(None, max_length=MAX_PHASES, description="Rodadas eliminatórias, em ordem.")


class Team(Strict):
    club: Slug | None = Field(None, description="Clube da equipe; por padrão o próprio id da equipe.")
    name: str | None = Field(None, description="Nome exibido, ex.: APTRU B.")
    pairs: list[PairIds] = Field([], max_length=MAX_BOARDS,
                                 description="Elenco: duplas na ordem das mesas (sem elenco quando os confrontos "
                                             "só têm o resultado, histórico).")


class Draw(Strict):
    teams: list[Slug] | None = Field(None, max_length=MAX_TEAMS, description="Equipes empatadas.")
    pairs: list[PairIds] | None = Field(None, max_length=MAX_NUMBER, description="Duplas empatadas.")
    order: list[Union[Slug, PairIds]] = Field(max_length=MAX_NUMBER,
                                              description="Ordem sorteada, do primeiro ao último.")
    note: str | None = Field(None, description="Onde e como o sorteio foi feito.")


class Classification(Strict):
    order: list[Slug] = Field(max_length=MAX_TEAMS, description="Todas as equipes, da 1ª à última.")
    reason: str = Field(description="Motivo (item 3), ex.: ata da comissão.")


class Disqualification(Strict):
    team: Slug | None = Field(None, description="Equipe desclassificada.")
    pair: PairIds | None = Field(None, description="Dupla desclassificada (item 4.12).")
    reason: str = Field(description="Motivo, ex.: Item 4.12.")


class PlacedTeam(Strict):
    club: Slug = Field(description="Clube da equipe (id de clubs.yaml).")
    name: str = Field(min_length=1, description="Nome da equipe, ex.: APTRU B; o id da equipe vem dele (aptru-b).")


PlaceEntry = Union[Slug, PlacedTeam]
FinalPlace = Union[PlaceEntry, Annotated[list[PlaceEntry], Field(min_length=2, max_length=MAX_TEAMS)]]


class StageFile(Strict):
    name: str = Field(description="Nome da etapa, ex.: 1ª Etapa.")
    date: Date = Field(description="Data (AAAA-MM-DD).")
    host: Slug | None = Field(None, description="Clube anfitrião (id).")
    city: str | None = Field(None, description="Cidade.")
    status: StageStatus = Field(
        description="scheduled (agendada), in_progress (em andamento) ou final (encerrada); em português ou em "
                    "inglês, é o mesmo.")
    teams: dict[Slug, Team] = Field({}, max_length=MAX_TEAMS, description="Equipes: id → elenco.")
    phases: list[Phase] = Field([], max_length=MAX_PHASES, description="Fases, em ordem.")
    draws: list[Draw] = Field([], max_length=MAX_TEAMS, description="Sorteios registrados (item 10.1).")
    classification: Classification | None = Field(None, description="Classificação definida pela comissão.")
    disqualified: list[Disqualification] = Field([], max_length=MAX_NUMBER, description="Desclassificações.")
    final_places: list[FinalPlace] | None = Field(
        None, min_length=1, max_length=MAX_TEAMS,
        description="Etapa conhecida só pela classificação final (histórico), no lugar de teams e phases: ids de "
                    "clubes em ordem; uma lista dentro da lista para um lugar dividido; {club, name} para uma "
                    "segunda equipe.")
    source: str | None = Field(None, description="Onde os resultados foram publicados (endereço), mostrado na página.")
    note: str | None = Field(None, description="Observação.")


class PageMeta(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)
    title: str = Field(description="Título da página.")
    date: Date | None = Field(None, description="Data (notícias).")
    season: str | Annotated[int, Field(ge=DATE_MIN.year, le=DATE_MAX.year)] | None = Field(
        None, description="Temporada relacionada.")
    stage: Slug | None = Field(None, description="Etapa relacionada.")
    championship: Slug | None = Field(None, description="Campeonato relacionado.")
    summary: str | None = Field(None, description="Resumo.")
    order: int | None = Field(None, ge=-MAX_ORDER, le=MAX_ORDER, description="Ordem no menu (páginas).")


# ---------------------------------------------------------------- Quatrilho championship (data-format.md)

RegNumber = Annotated[int, Field(ge=1, le=MAX_NUMBER)]
JokerSeat = Annotated[str, StringConstraints(pattern=r"^C[0-9]+$")]
Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS)]


class QRegistration(Strict):
    player: Slug = Field(description="Jogador (id de players.yaml).")
    from_round: int = Field(1, ge=1, le=MAX_ROUNDS,
                            description="Rodada em que começa a jogar: 2 para inscrição atrasada (Art. 5).")


class QPenalty(Strict):
    player: RegNumber = Field(description="Número de inscrição do jogador penalizado.")
    chips: int = Field(200, ge=1, le=MAX_CHIPS,
                       description="Fichas descontadas, não repassadas a ninguém (Art. 12, 13: 200).")
    reason: str = Field(description="Motivo, ex.: Atraso no reinício (Art. 12).")


class QAdjustment(Strict):
    table: RegNumber = Field(description="Número da mesa.")
    chips: int = Field(ge=-MAX_CHIPS, le=MAX_CHIPS,
                       description="Diferença conhecida: soma contada menos soma esperada (ex.: 5 ou -5).")
    reason: str = Field(description="Explicação, ex.: Ficha perdida, conferido pelo fiscal.")


class QDisqualification(Strict):
    player: RegNumber = Field(description="Número de inscrição do jogador desclassificado nesta rodada.")
    reason: str = Field(description="Motivo, ex.: Art. 15.")


class QRound(Strict):
    tables: dict[RegNumber, dict[Union[RegNumber, JokerSeat], Chips | None] | None] = Field(
        description="Mesas: número da mesa → {número do jogador: fichas contadas}. Coringas como C1, C2…; "
                    "null = mesa sorteada e ainda não contada.")
    seed: int | None = Field(None, ge=-MAX_SEED - 1, le=MAX_SEED,
                             description="Semente do sorteio (league draw … --seed N), para repeti-lo.")
    rebuys: dict[RegNumber, Annotated[int, Field(ge=0, le=MAX_REBUYS)]] = Field(
        {}, description="Reinscrições ou talhas nesta rodada: número do jogador → quantidade (Art. 15, 19).")
    penalties: list[QPenalty] = Field([], max_length=MAX_NUMBER, description="Penalidades em fichas (Art. 12, 13).")
    commission_paid: dict[RegNumber, Chips] = Field(
        {}, description="Por mesa: fichas que a comissão pagou pela dívida de um jogador quebrado (Art. 19).")
    adjustments: list[QAdjustment] = Field([], max_length=MAX_NUMBER,
                                           description="Diferenças conhecidas na soma de uma mesa.")
    disqualified: list[QDisqualification] = Field([], max_length=MAX_NUMBER,
                                                  description="Desclassificados nesta rodada (Art. 15, 16).")
    absent: list[RegNumber] = Field([], max_length=MAX_NUMBER,
                                    description="Inscritos que não jogaram esta rodada (contam 0).")
    note: str | None = Field(None, description="Observação.")


class QDraw(Strict):
    players: list[RegNumber] = Field(min_length=2, max_length=MAX_NUMBER,
                                     description="Números de inscrição dos jogadores empatados.")
    order: list[RegNumber] = Field(max_length=MAX_NUMBER, description="Ordem decidida, do primeiro ao último.")
    note: str | None = Field(None, description="Como foi decidido, ex.: Sorteio pela comissão (Art. 3).")


class ChampionshipFile(Strict):
    name: str = Field(description="Nome do campeonato, ex.: 1º Campeonato Aberto de Quatrilho de Chapecó.")
    municipality: str | None = Field(None, description="Município (os 4 primeiros vão ao estadual, Art. 23).")
    date: Date = Field(description="Data (AAAA-MM-DD).")
    status: ChampionshipStatus = Field(
        description="scheduled (agendado), in_progress (em andamento) ou final (encerrado); em português ou em "
                    "inglês, é o mesmo.")
    fee: float = Field(ge=0, le=MAX_FEE, allow_inf_nan=False,
                       description="Valor em R$ de cada inscrição e reinscrição (Art. 7), ex.: 50.00.")
    prizes: dict[Annotated[int, Field(ge=1, le=MAX_PLACES)],
                 Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)]] = Field(
        {}, description="Prêmio em % do valor das inscrições por colocação: {1: 25, 2: 15, …} (Art. 23).")
    players: dict[RegNumber, Union[Slug, QRegistration]] = Field(
        description="Inscritos: número de inscrição → id do jogador, ou {player, from_round} (Art. 5, 6).")
    rounds: list[QRound] = Field([], max_length=MAX_ROUNDS, description="Rodadas, em ordem (Art. 10).")
    draws: list[QDraw] = Field([], max_length=MAX_NUMBER,
                               description="Sorteios ou decisões da comissão para empates (Art. 3, 22).")
    note: str | None = Field(None, description="Observação.")
