"""Quatrilho open championships: the championship as loaded, its classification (Art. 21–23), and the hooks that
the loader, compute, api and render call (checking in quatrilho_loader.py, pages in quatrilho_pages.py)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Optional

from league.content.diagnostics import Diagnostics, SourceMark
from league.models import DrawRecord, QuatrilhoConfig
from league.games.quatrilho import rules as R
from league.standings.core import Ranked, Row, position_blocks


# ---------------------------------------------------------------- the championship as loaded

@dataclass(frozen=True)
class Registration:
    """One registration (Art. 6): the number the player keeps all day."""

    number: int
    player: str
    from_round: int          # 2 for a late registration (Art. 5)
    mark: SourceMark


@dataclass(frozen=True)
class Table:
    """One table of one round: seats in the order written (registration number or joker "C1") and the chips
    counted (None while the round is not yet counted)."""

    number: int
    seats: tuple[tuple[Any, Optional[int]], ...]
    mark: SourceMark

    @property
    def players(self) -> list[int]:
        return [k for k, _ in self.seats if isinstance(k, int)]

    @property
    def jokers(self) -> list[str]:
        return [k for k, _ in self.seats if isinstance(k, str)]

    @property
    def counted(self) -> bool:
        return any(c is not None for k, c in self.seats if isinstance(k, int))

    def chips(self, number: int) -> Optional[int]:
        return next((c for k, c in self.seats if k == number), None)


@dataclass(frozen=True)
class Penalty:
    player: int
    chips: int
    reason: str
    mark: SourceMark


@dataclass(frozen=True)
class Adjustment:
    table: int
    chips: int
    reason: str
    mark: SourceMark


@dataclass(frozen=True)
class Disqualification:
    player: int
    reason: str
    mark: SourceMark


@dataclass(frozen=True)
class QRound:
    number: int
    tables: tuple[Table, ...]
    rebuys: dict                      # registration number -> re-registrations in this round
    penalties: tuple[Penalty, ...]
    commission_paid: dict             # table number -> chips
    adjustments: tuple[Adjustment, ...]
    disqualified: tuple[Disqualification, ...]
    absent: tuple[int, ...]
    seed: Optional[int]
    note: Optional[str]
    mark: SourceMark

    def table_of(self, number: int) -> Optional[Table]:
        return next((t for t in self.tables if number in t.players), None)

    def penalty_of(self, number: int) -> int:
        return sum(p.chips for p in self.penalties if p.player == number)

    @property
    def counted(self) -> bool:
        return any(t.counted for t in self.tables)


@dataclass(frozen=True)
class Championship:
    season: str
    id: str
    name: str
    municipality: Optional[str]
    date: dt.date
    status: str
    fee: Decimal
    prizes: dict                      # place -> percentage (Decimal)
    players: dict                     # registration number -> Registration, in file order
    rounds: tuple[QRound, ...]
    draws: tuple[DrawRecord, ...]
    config: QuatrilhoConfig
    path: str
    mark: SourceMark
    note: Optional[str] = None

    @property
    def is_final(self) -> bool:
        return self.status == "final"

    def disqualified_in(self, number: int) -> Optional[int]:
        """The round in which the player was disqualified, if any."""
        return next((r.number for r in self.rounds for d in r.disqualified if d.player == number), None)

    def eligible(self, number: int, round_number: int) -> bool:
        """Must be seated (or marked absent) in this round: registered by then (Art. 5), not disqualified before (Art. 16)."""
        reg = self.players[number]
        dq = self.disqualified_in(number)
        return reg.from_round <= round_number and (dq is None or dq >= round_number)


def plural(n: int, one: str, many: str) -> str:
    """"1 reinscrição", "0 reinscrições"."""
    return f"{n} {one if n == 1 else many}"


def pct_text(v: Decimal) -> str:
    """A percentage as written in pt-BR: 2,5."""
    return f"{v.normalize():f}".replace(".", ",")


# ---------------------------------------------------------------- checks shared by the loader and the pages

def table_sum(qr: QRound, table: Table, stake: int) -> tuple[int, int, str]:
    """(chips counted, chips expected, the count behind the expectation in words) for one counted table."""
    seats = len(table.seats)
    rebuys = sum(qr.rebuys.get(n, 0) for n in table.players)
    commission = qr.commission_paid.get(table.number, 0)
    found = sum(c or 0 for _, c in table.seats)
    expected = R.expected_table_sum(seats, rebuys, commission, stake)
    parts = [plural(len(table.players), "jogador", "jogadores")]
    if table.jokers:
        parts.append(plural(len(table.jokers), "coringa", "coringas"))
    parts.append(plural(rebuys, "reinscrição", "reinscrições"))
    if commission:
        parts.append(f"{commission} pagas pela comissão")
    return found, expected, ", ".join(parts)


# ---------------------------------------------------------------- classification

@dataclass(frozen=True)
class Cell:
    """One player's round: where he sat, what was counted and what it is worth."""

    status: str                   # played | pending | absent | late | out (disqualified earlier) | joker
    result: Optional[int]         # None while the table is not counted
    table: Optional[int] = None
    chips: Optional[int] = None
    rebuys: int = 0
    penalty: int = 0
    disqualified: bool = False    # disqualified during this round


@dataclass
class Line:
    """One line of a championship classification."""

    number: int
    player: str
    ranked: Ranked
    cells: list[Cell]
    award: R.Award
    disqualified_in: Optional[int]

    @property
    def position(self) -> int:
        return self.ranked.position

    @property
    def tied(self) -> bool:
        return self.ranked.tied

    @property
    def values(self) -> dict:
        return self.ranked.row.values

    @property
    def rounds(self) -> list[int]:
        """Each round's result after penalties, 0 for a round not played (outputs.md)."""
        return [c.result or 0 for c in self.cells]


@dataclass
class ChampionshipResult:
    championship: Championship
    lines: list[Line]
    registrations: int
    rebuys: int
    registration_money: Decimal
    prizes: list[Decimal]          # R$ by eligible place (index 0 = 1st)
    notes: list
    unused_draws: list
    by_player: dict = field(default_factory=dict)   # player id -> Line
    by_number: dict = field(default_factory=dict)   # registration number -> Line

    @property
    def champions(self) -> list[Line]:
        return [ln for ln in self.lines if ln.award.champion]

    def cell(self, round_number: int, number: int) -> Cell:
        return self.by_number[number].cells[round_number - 1]


@dataclass(frozen=True)
class Qualifier:
    championship: ChampionshipResult
    line: Line


def round_cell(ch: Championship, rnd: QRound, number: int) -> Cell:
    """Quatrilho Art. 8, 12, 19, 21 (round result), Art. 5 (a late entrant's round 1 counts 0), Art. 16 (a player
    disqualified earlier counts 0); decision: a penalty recorded for an absent player still counts."""
    rebuys, penalty = rnd.rebuys.get(number, 0), rnd.penalty_of(number)
    table = rnd.table_of(number)
    dq = any(d.player == number for d in rnd.disqualified)
    if table is not None:
        chips = table.chips(number)
        if not table.counted or chips is None:
            return Cell("pending", None, table.number, None, rebuys, penalty, dq)
        return Cell("played", R.round_result(chips, rebuys, penalty, ch.config.stake), table.number, chips, rebuys,
                    penalty, dq)
    if number in rnd.absent:
        return Cell("absent", -penalty, penalty=penalty)
    if ch.players[number].from_round > rnd.number:
        return Cell("late", 0)
    return Cell("out", 0)


def compute_championship(ch: Championship) -> ChampionshipResult:
    """Round results → net points → Art. 21/22 order → champions and prizes (Art. 21, 23)."""
    cells, rows = _player_rows(ch)
    ranked, ctx = R.classify(rows, ch.config.tiebreaks, ch.draws)
    dq = {n: ch.disqualified_in(n) for n in ch.players}
    rebuys, money, prizes = _prize_money(ch)
    awards = R.awards(ranked, {n for n, r in dq.items() if r}, ch.config.champions, prizes, ch.is_final)
    lines = [Line(r.key, ch.players[r.key].player, r, cells[r.key], awards[r.key], dq[r.key]) for r in ranked]
    used = ctx.used_draws
    return ChampionshipResult(ch, lines, len(ch.players), rebuys, money, prizes, ctx.notes,
                              [d for d in ch.draws if id(d) not in used], {ln.player: ln for ln in lines},
                              {ln.number: ln for ln in lines})


def _player_rows(ch: Championship) -> tuple[dict, dict]:
    """Each player's round cells, and the row of metrics the Art. 21/22 order reads (net points and the rest)."""
    cells = {n: [round_cell(ch, r, n) for r in ch.rounds] for n in ch.players}
    rows = {n: Row(n, {"rounds": [c.result for c in cs], **R.metrics(c.result for c in cs)}) for n, cs in cells.items()}
    return cells, rows


def _prize_money(ch: Championship) -> tuple[int, Decimal, list]:
    """The rebuys of every round, the money they and the registrations raise, and the prizes it pays (Art. 23)."""
    rebuys = sum(k for r in ch.rounds for k in r.rebuys.values())
    money = R.registration_money(len(ch.players), rebuys, ch.fee)
    return rebuys, money, R.prize_amounts(money, ch.prizes)


def decisive_places(cfg: QuatrilhoConfig, res: ChampionshipResult) -> int:
    """The last eligible place that decides something: a title, a prize or a place in the state final."""
    return max(cfg.champions, cfg.state_qualifiers, len(res.prizes))


def needs_decision(res: ChampionshipResult, block: list[Line]) -> bool:
    """A tie left after Art. 22 that a title, prize or qualification depends on (Art. 3: the commission decides)."""
    places = [ln.award.eligible_place for ln in block if ln.award.eligible_place is not None]
    eligible = len(places)
    return (res.championship.is_final and eligible > 1
            and min(places) <= decisive_places(res.championship.config, res))


def compute_season(season_result, diags: Diagnostics, precomputed: Optional[dict] = None) -> None:
    """Classifies every championship of the season and lists the state qualifiers (Art. 21–23). `precomputed`:
    championship file (its path) -> ChampionshipResult already computed (League.championship_results)."""
    results = [(precomputed or {}).get(ch.path) or compute_championship(ch)
               for ch in season_result.season.championships]
    for res in results:
        _warnings(res, diags)
    season_result.championships = results
    season_result.qualifiers = _state_qualifiers(results, season_result.season.quatrilho)


def _state_qualifiers(results: list[ChampionshipResult], cfg: QuatrilhoConfig) -> list[Qualifier]:
    """The players the season's final championships send to the state final."""
    finals = [res for res in results if res.championship.is_final]
    picked = R.state_qualifiers([(res.championship.id, [(ln.player, ln.position, ln.award.eligible_place)
                                                        for ln in res.lines]) for res in finals],
                                cfg.state_qualifiers)
    by_id = {res.championship.id: res for res in finals}
    return [Qualifier(by_id[c], by_id[c].by_player[p]) for c, p, _ in picked]


def _warnings(res: ChampionshipResult, diags: Diagnostics) -> None:
    """Known differences accepted at a table, ties waiting for the commission, draws never used, work in progress."""
    ch = res.championship
    if ch.status == "in_progress":
        diags.warning(ch.mark, f"campeonato \"{ch.name}\" em andamento: a classificação é provisória, sem campeões, "
                      "prêmios nem classificados ao estadual", code="in-progress")
    _adjustments(ch, diags)
    _ties_for_the_commission(res, diags)
    for d in res.unused_draws:
        diags.warning(d.mark, "sorteio registrado não foi usado: nenhum empate envolve exatamente os jogadores "
                      + ", ".join(map(str, sorted(d.members))), "confira os números do sorteio", code="unused-draw")


def _adjustments(ch: Championship, diags: Diagnostics) -> None:
    """Each difference in a counted table's sum accepted by a recorded adjustment, shown with its reason."""
    for r in ch.rounds:
        for a in r.adjustments:
            table = next(t for t in r.tables if t.number == a.table)
            if not table.counted:
                continue
            found, expected, detail = table_sum(r, table, ch.config.stake)
            diags.warning(table.mark, f"mesa {a.table}, rodada {r.number}: soma {found}, esperado {expected} "
                          f"({detail}); diferença de {a.chips:+d} aceita pelo ajuste: {a.reason}", code="adjustment")


def _ties_for_the_commission(res: ChampionshipResult, diags: Diagnostics) -> None:
    """A tie left after Art. 22 that a title, prize or qualification depends on (Art. 3: the commission decides)."""
    ch = res.championship
    line_of = {ln.number: ln for ln in res.lines}
    for block in position_blocks([ln.ranked for ln in res.lines]):
        lines = [line_of[r.key] for r in block]
        if len(block) > 1 and needs_decision(res, lines):
            numbers = ", ".join(str(ln.number) for ln in lines)
            diags.warning(ch.mark, f"{ch.name}: empate não resolvido pelo Art. 22 no {block[0].position}º lugar entre "
                          f"os jogadores {numbers}; o título, o prêmio ou a vaga no estadual depende de uma decisão "
                          "da comissão (Art. 3)", f"registre a decisão: draws: [{{players: [{numbers}], "
                          "order: [...], note: …}]", code="draw-needed")


def positions_by_round(res: ChampionshipResult) -> list[dict]:
    """Every player's position after each round, over the rounds so far: [{registration number: (position,
    tied)}], one per round in order, up to the last round whose every table is counted.
    # Quatrilho Art. 21, 22 (net points, then the tiebreaks) over rounds 1..k; decision: the commission's
    recorded decisions (Art. 3) settle the final classification only, so a tie after an earlier round stays
    shared; after the last round it is the classification itself."""
    ch = res.championship
    out: list[dict] = []
    for k, rnd in enumerate(ch.rounds, start=1):
        if not rnd.tables or not all(t.counted for t in rnd.tables):
            break
        if k == len(ch.rounds):
            out.append({ln.number: (ln.position, ln.tied) for ln in res.lines})
            break
        rows = {ln.number: Row(ln.number, R.metrics(c.result for c in ln.cells[:k])) for ln in res.lines}
        ranked, _ctx = R.classify(rows, ch.config.tiebreaks)
        out.append({r.key: (r.position, r.tied) for r in ranked})
    return out
