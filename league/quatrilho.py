"""Quatrilho open championships: championship files loaded and checked, classified, published as JSON and pages."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Iterator, Optional

from league import schema as S
from league.errors import Diagnostics, SourceMark, did_you_mean
from league.models import DrawRecord, QuatrilhoConfig
from league.rules import quatrilho as R
from league.standings.core import Ranked, Row, position_blocks
from league.validate import describe, slugify, validate
from league.yamlio import MDict, MList

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
JOKER = re.compile(r"^C[0-9]+$")
RESERVED_IDS = {"qualifiers", "index"}
LATE_LIMIT = 2          # Quatrilho Art. 5: registrations close at the end of round 1; late entrants play from round 2
TABLE_SIZES = (4, 5)    # Quatrilho Art. 14
ROUNDS = 4              # Quatrilho Art. 10


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


# ---------------------------------------------------------------- loading

def _number(k: Any) -> bool:
    return isinstance(k, int) and not isinstance(k, bool) and k >= 1


def _real(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def load_championship(loader, league, season, path: Path) -> Optional[Championship]:
    """One championship file → Championship, or None; every problem goes to loader.diags."""
    return _ChampionshipLoader(loader, league, season, path).load()


class _ChampionshipLoader:
    """Checks one championship file as data-format.md and rules.md describe it, all problems at once."""

    def __init__(self, loader, league, season, path: Path):
        self.L = loader
        self.d: Diagnostics = loader.diags
        self.league = league
        self.season = season
        self.path = path
        self.rel = loader.rel(path)
        self.cfg: QuatrilhoConfig = season.quatrilho
        self.broken: set = set()      # (round number, table number) already reported: no sum check there
        self.numbers: set = set()     # every registration number written, valid or not

    def load(self) -> Optional[Championship]:
        cid = self.path.stem
        if not SLUG.match(cid) or cid in RESERVED_IDS:
            self.d.error(SourceMark(self.rel), f"nome de arquivo de campeonato inválido \"{self.path.name}\"",
                         f"renomeie para \"{slugify(cid)}{'-1' if cid in RESERVED_IDS else ''}.yaml\"", code="slug")
            return None
        raw = self.L.yaml(self.path)
        if raw is None and any(d.mark.path == self.rel for d in self.d.items):
            return None
        clean = self.precheck(raw) if isinstance(raw, MDict) else True
        model = validate(S.ChampionshipFile, raw, self.rel, self.d, "o arquivo do campeonato")
        if model is None or not clean:
            return None
        self.numbers = set(model.players)
        regs = self.load_players(model, raw["players"])
        prizes = self.load_prizes(model, raw)
        disq: dict[int, tuple[int, SourceMark]] = {}
        rounds = []
        rraw = raw.get("rounds") or MList(raw.mark)
        for i, r in enumerate(model.rounds):
            rounds.append(self.load_round(i + 1, r, rraw[i], regs, disq))
        draws = self.load_draws(model, raw.get("draws") or MList(raw.mark), regs)
        champ = Championship(season=self.season.year, id=cid, name=model.name, municipality=model.municipality,
                             date=model.date, status=model.status, fee=Decimal(str(model.fee)), prizes=prizes,
                             players=regs, rounds=tuple(rounds), draws=tuple(draws), config=self.cfg,
                             path=self.rel, mark=raw.mark, note=model.note)
        self.check_status(champ, raw)
        return champ

    # maps keyed by numbers (registrations, places, tables, seats): checked here, keys and values, so that every
    # message names the registration, table or round; a bad entry is reported and dropped, and the file stops
    # after the shape checks, like any file with a shape error
    def precheck(self, raw: MDict) -> bool:
        before = len(self.d.errors)
        regs = raw.get("players")
        ids: dict[str, int] = {}
        if isinstance(regs, MDict):
            for k, v in regs.items():
                pid = v.get("player") if isinstance(v, MDict) else v
                if _number(k) and isinstance(pid, str):
                    ids[pid] = k
            self.keys(regs, "número de inscrição inválido", "(Art. 6)",
                      lambda k: f"escreva \"{ids.get(k) or 'N'}: {k}\": o número primeiro, depois o jogador"
                      if isinstance(k, str) else None)
            for k in list(regs):
                if not self.registration(regs, k):
                    del regs[k]
        prizes = raw.get("prizes")
        if isinstance(prizes, MDict):
            self.keys(prizes, "colocação inválida", "(Art. 23)", lambda k: None)
            self.values(prizes, lambda v: _real(v) and 0 < v <= 100, lambda k, v: (
                f"prêmio do {k}º lugar inválido: recebido {describe(v)}; esperado uma porcentagem maior que 0 e até 100 "
                "(Art. 23)"))
        rounds = raw.get("rounds")
        for i, item in enumerate(rounds if isinstance(rounds, MList) else []):
            if not isinstance(item, MDict):
                continue
            rnd = i + 1
            tables = item.get("tables")
            if isinstance(tables, MDict):
                self.keys(tables, "número de mesa inválido", "", lambda k: None)
                for tno, seats in tables.items():
                    if isinstance(seats, MDict):
                        self.seat_keys(seats, ids, rnd, tno)
                        self.values(seats, lambda v: v is None or (_number(v) or v == 0), lambda k, v: (
                            f"mesa {tno}, rodada {rnd}: fichas {'do coringa' if isinstance(k, str) else 'do jogador'} "
                            f"{k} inválidas: recebido {describe(v)}; esperado um número inteiro ≥ 0, ou null se a mesa "
                            "ainda não foi contada"))
            rebuys, paid = item.get("rebuys"), item.get("commission_paid")
            if isinstance(rebuys, MDict):
                self.keys(rebuys, "número de inscrição inválido", "", lambda k: f"use o número de inscrição {ids[k]}"
                          if k in ids else None)
                self.values(rebuys, lambda v: _number(v) or v == 0, lambda k, v: (
                    f"rebuys, rodada {rnd}: quantidade inválida para o jogador {k}: recebido {describe(v)}; esperado um "
                    "número inteiro (1 = uma reinscrição ou talha)"))
            if isinstance(paid, MDict):
                self.keys(paid, "número de mesa inválido", "", lambda k: None)
                self.values(paid, lambda v: _number(v) or v == 0, lambda k, v: (
                    f"commission_paid, rodada {rnd}: fichas inválidas para a mesa {k}: recebido {describe(v)}; "
                    "esperado um número inteiro ≥ 0"))
        return len(self.d.errors) == before

    def keys(self, m: MDict, what: str, art: str, hint) -> None:
        for k in [k for k in m if not _number(k)]:
            self.d.error(m.kmark(k), f"{what}: recebido {describe(k)}; esperado um número inteiro ≥ 1"
                         + (f" {art}" if art else ""), hint(k), code="type")
            del m[k]

    def values(self, m: MDict, ok, message) -> None:
        for k in [k for k, v in m.items() if not ok(v)]:
            self.d.error(m.vmark(k), message(k, m[k]), code="type")
            del m[k]

    def registration(self, regs: MDict, k: int) -> bool:
        """players: N: id, or N: {player: id, from_round: 2} (Art. 5, 6)."""
        v, mark = regs[k], regs.vmark(k)
        if isinstance(v, str):
            return self.L.check_slug(v, mark, f"id de jogador do número {k}")
        if not isinstance(v, MDict):
            self.d.error(mark, f"inscrição {k} inválida: recebido {describe(v)}; esperado o id do jogador, ou "
                         "{player: id, from_round: 2} para uma inscrição atrasada", code="type")
            return False
        ok = True
        for key in v:
            if key not in ("player", "from_round"):
                self.d.error(v.kmark(key), f"chave desconhecida \"{key}\" na inscrição {k}",
                             did_you_mean(str(key), ["player", "from_round"]) or "chaves aceitas: player, from_round",
                             code="unknown-key")
                ok = False
        if "player" not in v:
            self.d.error(v.mark, f"falta a chave obrigatória \"player\" na inscrição {k}", "acrescente \"player: …\"",
                         code="missing")
            ok = False
        elif not self.L.check_slug(v["player"], v.vmark("player"), f"id de jogador do número {k}"):
            ok = False
        if "from_round" in v and not _number(v["from_round"]):
            self.d.error(v.vmark("from_round"), f"from_round inválido na inscrição {k}: recebido "
                         f"{describe(v['from_round'])}; esperado 2 (inscrição atrasada, Art. 5)", code="type")
            ok = False
        return ok

    def seat_keys(self, seats: MDict, ids: dict, rnd: int, tno: Any) -> None:
        for k in [k for k in seats if not _number(k) and not (isinstance(k, str) and JOKER.match(k))]:
            if isinstance(k, str) and k in ids:
                hint = f"use o número de inscrição: {ids[k]}"
            elif isinstance(k, str) and JOKER.match(k.upper()):
                hint = f"escreva \"{k.upper()}\""
            else:
                hint = did_you_mean(k, ids) or "cada assento é o número de inscrição do jogador (Art. 6)"
            self.d.error(seats.kmark(k), f"mesa {tno}, rodada {rnd}: assento inválido: recebido {describe(k)}; "
                         "esperado o número de inscrição do jogador, ou C1, C2… para um coringa (Art. 16)", hint,
                         code="type")
            del seats[k]

    # registrations
    def load_players(self, model: S.ChampionshipFile, raw: MDict) -> dict[int, Registration]:
        regs: dict[int, Registration] = {}
        seen: dict[str, int] = {}
        if len(model.players) > self.cfg.max_players:  # Quatrilho Art. 2
            self.d.error(raw.mark, f"{len(model.players)} inscritos; o máximo é {self.cfg.max_players} (Art. 2)",
                         "confira a lista; o limite pode ser mudado em quatrilho.max_players (league.yaml ou "
                         "season.yaml)", code="too-many")
        for number, value in model.players.items():
            vmark = raw.vmark(number)
            pid, from_round = (value, 1) if isinstance(value, str) else (value.player, value.from_round)
            pmark = raw[number].vmark("player") if isinstance(value, S.QRegistration) else vmark
            ok = True
            if pid not in self.league.players:
                self.L.unknown(pmark, "jogador", pid, self.league.players, " (não está em players.yaml)")
                ok = False
            elif pid in seen:
                self.d.error(pmark, f"o jogador \"{pid}\" já está inscrito com o número {seen[pid]}",
                             "cada jogador tem um só número de inscrição no campeonato (Art. 6)")
                ok = False
            if from_round > LATE_LIMIT:  # Quatrilho Art. 5
                self.d.error(raw[number].vmark("from_round"), f"inscrição atrasada do jogador {number} a partir da "
                             f"rodada {from_round}; só é permitida até o fim da 1ª rodada, para jogar a partir da 2ª "
                             f"(Art. 5)", "use from_round: 2")
                ok = False
            seen.setdefault(pid, number)
            if ok:
                regs[number] = Registration(number, pid, from_round, raw.kmark(number))
        return regs

    def load_prizes(self, model: S.ChampionshipFile, raw: MDict) -> dict[int, Decimal]:
        prizes = {p: Decimal(str(v)) for p, v in sorted(model.prizes.items())}
        total = sum(prizes.values(), Decimal(0))
        if total > 100:  # Quatrilho Art. 23: a percentage of the registration money
            self.d.error(raw.vmark("prizes"), f"os prêmios somam {_pct(total)}% do valor das inscrições; o máximo "
                         "é 100% (Art. 23)", "confira as porcentagens")
        return prizes

    # rounds
    def load_round(self, rnd: int, r: S.QRound, raw: MDict, regs: dict, disq: dict) -> QRound:
        where = f"rodada {rnd}"
        seated: dict[int, tuple[int, SourceMark]] = {}
        jokers: dict[str, int] = {}
        tables: list[Table] = []
        traw = raw["tables"]
        if not r.tables:
            self.d.error(raw.vmark("tables"), f"{where} sem mesas", "escreva as mesas: {1: {nº: fichas, …}, …} "
                         "ou apague a rodada se ainda não foi sorteada")
        for tno, seats in r.tables.items():
            tmark = traw.kmark(tno)
            if seats is None or not seats:
                self.d.error(tmark, f"mesa {tno}, {where}: sem jogadores", "escreva {nº de inscrição: fichas, …}")
                continue
            sraw = traw[tno]
            for key in seats:
                smark = sraw.kmark(key)
                if isinstance(key, str):  # a joker (Art. 12, 15, 16, 19)
                    if key in jokers:
                        self.d.error(smark, f"o coringa {key} já está na mesa {jokers[key]} da {where}",
                                     "numere os coringas da rodada C1, C2, …")
                    jokers[key] = tno
                    continue
                if key not in regs:
                    if key not in self.numbers:
                        self.d.error(smark, f"mesa {tno}, {where}: o número {key} não está inscrito",
                                     self.numbers_hint(), code="unknown-id")
                    self.broken.add((rnd, tno))
                elif key in seated:  # Quatrilho Art. 9: one table per player per round
                    self.d.error(smark, f"o jogador {key} ({regs[key].player}) já está na mesa {seated[key][0]} da "
                                 f"{where} (linha {seated[key][1].line})", "cada jogador senta em uma só mesa por rodada")
                    self.broken.add((rnd, tno))
                elif regs[key].from_round > rnd:  # Quatrilho Art. 5
                    self.d.error(smark, f"o jogador {key} ({regs[key].player}) foi inscrito com atraso e joga a partir "
                                 f"da rodada {regs[key].from_round} (Art. 5)", "tire-o desta mesa")
                    self.broken.add((rnd, tno))
                elif key in disq and disq[key][0] < rnd:  # Quatrilho Art. 16
                    self.d.error(smark, f"o jogador {key} ({regs[key].player}) foi desclassificado na rodada "
                                 f"{disq[key][0]} (linha {disq[key][1].line}) e não joga mais (Art. 16)",
                                 "tire-o desta mesa; um coringa pode ocupar o lugar (C1)")
                    self.broken.add((rnd, tno))
                if key not in seated:
                    seated[key] = (tno, smark)
            table = Table(tno, tuple(seats.items()), tmark)
            tables.append(table)
            self.check_counted(table, sraw, where, rnd)
        rebuys = self.load_rebuys(r, raw, regs, seated, where)
        penalties = self.load_penalties(r, raw, regs, seated, where)
        absent = self.load_absent(r, raw, regs, seated, where, rnd, disq)
        commission = self.per_table(r.commission_paid, raw.get("commission_paid"), r.tables, where,
                                    "commission_paid")
        adjustments = self.load_adjustments(r, raw, where)
        dqs = self.load_disqualified(r, raw, regs, seated, where, rnd, disq)
        for table in tables:
            self.check_size(table, dqs, where)
        # Quatrilho Art. 9, 5, 16: every registered player who may play this round is seated or marked absent
        missing = [n for n, reg in regs.items() if reg.from_round <= rnd and not (n in disq and disq[n][0] < rnd)
                   and n not in seated and n not in absent]
        if missing:
            names = ", ".join(f"{n} ({regs[n].player})" for n in missing)
            self.d.error(raw.kmark("tables"), f"{where}: {_plural(len(missing), 'jogador inscrito', 'jogadores inscritos')}"
                         f" sem mesa: {names}", f"sente-os numa mesa ou acrescente \"absent: [{', '.join(map(str, missing))}]\" "
                         "à rodada (a rodada conta 0 para eles)", code="missing")
        qr = QRound(rnd, tuple(tables), rebuys, tuple(penalties), commission, tuple(adjustments), tuple(dqs),
                    tuple(absent), r.seed, r.note, raw.mark)
        for table in tables:
            if (rnd, table.number) not in self.broken:
                self.check_conservation(qr, table, where)
        return qr

    def numbers_hint(self) -> str:
        if not self.numbers:
            return "inscreva o jogador em players:"
        return f"números inscritos: {_ranges(sorted(self.numbers))}; inscreva o jogador em players: se faltar"

    def check_counted(self, table: Table, sraw: MDict, where: str, rnd: int) -> None:
        """A table is counted for every player or for none (drawn, not yet played)."""
        if table.counted:
            for k, c in table.seats:
                if isinstance(k, int) and c is None:
                    self.d.error(sraw.vmark(k), f"mesa {table.number}, {where}: falta a contagem de fichas do jogador {k}",
                                 "anote as fichas de todos os jogadores da mesa (ou de nenhum, se ainda não foi contada)")
                    self.broken.add((rnd, table.number))

    def check_size(self, table: Table, dqs: list, where: str) -> None:
        """Quatrilho Art. 14: tables of 5 players, or 4 to close the list (jokers fill seats, Art. 12, 16, 19);
        a joker at the table of a player disqualified in this round took his seat (Art. 15, 16) and is not one
        more seat."""
        replaced = min(len(table.jokers), sum(1 for d in dqs if d.player in table.players))
        size = len(table.seats) - replaced
        if size in TABLE_SIZES:
            return
        what = _plural(len(table.players), "jogador", "jogadores")
        if table.jokers:
            what += " e " + _plural(len(table.jokers), "coringa", "coringas")
        hint = ("complete a mesa com coringas (C1, C2, …) ou junte-a a outra (Art. 12, 16)" if size < 4 else
                "divida os jogadores em mesas de 5 e de 4; `league draw` propõe o sorteio")
        self.d.error(table.mark, f"mesa {table.number}, {where}: {what}; uma mesa tem 4 ou 5 (Art. 14)", hint,
                     code="table-size")

    def load_rebuys(self, r, raw, regs, seated, where) -> dict:
        out = {}
        for n, k in r.rebuys.items():
            mark = raw["rebuys"].kmark(n)
            if n not in regs:
                self.d.error(mark, f"rebuys: o número {n} não está inscrito", self.numbers_hint(), code="unknown-id")
                continue
            if n not in seated:
                self.d.error(mark, f"rebuys: o jogador {n} ({regs[n].player}) não está em nenhuma mesa da {where}",
                             "a reinscrição é anotada na rodada em que o jogador a fez")
                continue
            if k > self.cfg.max_rebuys_per_round:  # Quatrilho Art. 19
                self.d.error(raw["rebuys"].vmark(n), f"o jogador {n} ({regs[n].player}) tem {k} reinscrições na {where}; "
                             f"o máximo é {self.cfg.max_rebuys_per_round} por rodada (Art. 19)",
                             "quem perde a talha comprada e fica devendo: a comissão paga o saldo (commission_paid) "
                             "e o jogador sai da rodada (Art. 19)")
            if k:
                out[n] = k
        return out

    def load_penalties(self, r, raw, regs, seated, where) -> list[Penalty]:
        out = []
        for i, p in enumerate(r.penalties):
            praw = raw["penalties"][i]
            if p.player not in regs:
                self.d.error(praw.vmark("player"), f"penalidade: o número {p.player} não está inscrito",
                             self.numbers_hint(), code="unknown-id")
                continue
            if p.player not in seated and p.player not in r.absent:
                self.d.error(praw.vmark("player"), f"penalidade: o jogador {p.player} ({regs[p.player].player}) não "
                             f"joga a {where}", "a penalidade é anotada na rodada em que aconteceu (Art. 12, 13)")
                continue
            out.append(Penalty(p.player, p.chips, p.reason, praw.mark))
        return out

    def load_absent(self, r, raw, regs, seated, where, rnd, disq) -> list[int]:
        out = []
        for i, n in enumerate(r.absent):
            mark = raw["absent"].imark(i)
            if n not in regs:
                self.d.error(mark, f"absent: o número {n} não está inscrito", self.numbers_hint(), code="unknown-id")
            elif n in seated:
                self.d.error(mark, f"absent: o jogador {n} ({regs[n].player}) está na mesa {seated[n][0]} da {where} "
                             f"(linha {seated[n][1].line})", "tire-o da mesa ou da lista absent")
            elif n in out:
                self.d.error(mark, f"absent: o jogador {n} aparece duas vezes")
            elif regs[n].from_round > rnd or (n in disq and disq[n][0] < rnd):
                self.d.error(mark, f"absent: o jogador {n} ({regs[n].player}) não joga a {where} de qualquer forma "
                             "(inscrição atrasada ou desclassificado)", "tire-o da lista absent")
            else:
                out.append(n)
        return out

    def per_table(self, values: dict, raw: Optional[MDict], tables: dict, where: str, key: str) -> dict:
        out = {}
        for t, v in values.items():
            if t not in tables:
                self.d.error(raw.kmark(t), f"{key}: a {where} não tem mesa {t}",
                             f"mesas da rodada: {', '.join(map(str, tables))}", code="unknown-id")
                continue
            out[t] = v
        return out

    def load_adjustments(self, r, raw, where) -> list[Adjustment]:
        out: list[Adjustment] = []
        for i, a in enumerate(r.adjustments):
            araw = raw["adjustments"][i]
            if a.table not in r.tables:
                self.d.error(araw.vmark("table"), f"adjustments: a {where} não tem mesa {a.table}",
                             f"mesas da rodada: {', '.join(map(str, r.tables))}", code="unknown-id")
                continue
            other = next((x for x in out if x.table == a.table), None)
            if other:
                self.d.error(araw.mark, f"a mesa {a.table} já tem um ajuste na {where} (linha {other.mark.line})",
                             "junte os dois num só ajuste, com a soma das fichas e os dois motivos")
                continue
            out.append(Adjustment(a.table, a.chips, a.reason, araw.mark))
        return out

    def load_disqualified(self, r, raw, regs, seated, where, rnd, disq) -> list[Disqualification]:
        out = []
        for i, x in enumerate(r.disqualified):
            draw = raw["disqualified"][i]
            mark = draw.vmark("player")
            if x.player not in regs:
                self.d.error(mark, f"disqualified: o número {x.player} não está inscrito", self.numbers_hint(),
                             code="unknown-id")
            elif x.player in disq:
                self.d.error(mark, f"o jogador {x.player} ({regs[x.player].player}) já foi desclassificado na rodada "
                             f"{disq[x.player][0]} (linha {disq[x.player][1].line})")
            elif x.player not in seated:  # Quatrilho Art. 16: he keeps the chips counted at disqualification
                self.d.error(mark, f"o jogador {x.player} ({regs[x.player].player}) é desclassificado na {where}, mas "
                             "não está em nenhuma mesa dela", "sente-o na mesa em que jogava, com as fichas contadas "
                             "na desclassificação (Art. 16)")
            else:
                disq[x.player] = (rnd, draw.mark)
                out.append(Disqualification(x.player, x.reason, draw.mark))
        return out

    def check_conservation(self, qr: QRound, table: Table, where: str) -> None:
        """Quatrilho Art. 8, 16, 19 (rules.md): the chips counted at a table add up to one stake per seat and per
        re-registration, plus what the commission paid."""
        if not table.counted:
            return
        missing_jokers = [k for k, c in table.seats if isinstance(k, str) and c is None]
        if missing_jokers:
            self.d.warning(table.mark, f"mesa {table.number}, {where}: fichas do coringa {', '.join(missing_jokers)} "
                           "não anotadas; a soma da mesa não foi conferida", "anote as fichas finais do coringa: "
                           f"{missing_jokers[0]}: 95", code="unchecked")
            return
        found, expected, detail = table_sum(qr, table, self.cfg.stake)
        adj = next((a for a in qr.adjustments if a.table == table.number), None)
        if found == expected + (adj.chips if adj else 0):
            return
        msg = f"mesa {table.number}, {where}: soma {found}, esperado {expected} ({detail})"
        if adj:
            self.d.error(table.mark, msg + f"; o ajuste registrado (linha {adj.mark.line}) explica "
                         f"{adj.chips:+d}, a diferença é {found - expected:+d}",
                         "confira a contagem das fichas ou corrija o ajuste", code="conservation")
        else:
            self.d.error(table.mark, msg, "confira a contagem das fichas e as reinscrições da mesa; se a diferença é "
                         f"conhecida, registre adjustments: [{{table: {table.number}, chips: {found - expected}, "
                         "reason: …}]", code="conservation")

    def load_draws(self, model: S.ChampionshipFile, raw: MList, regs: dict) -> list[DrawRecord]:
        out = []
        for i, d in enumerate(model.draws):
            draw = raw[i]
            ok = True
            for k, n in enumerate(d.players):
                if n not in regs:
                    self.d.error(draw["players"].imark(k), f"draws: o número {n} não está inscrito",
                                 self.numbers_hint(), code="unknown-id")
                    ok = False
            if len(set(d.players)) != len(d.players) or sorted(d.order) != sorted(d.players):
                self.d.error(draw.vmark("order"), "order: deve conter exatamente os jogadores do sorteio, cada um "
                             "uma vez", f"jogadores: {', '.join(map(str, d.players))}")
                ok = False
            if ok:
                out.append(DrawRecord(frozenset(d.players), tuple(d.order), d.note, draw.mark))
        return out

    def check_status(self, ch: Championship, raw: MDict) -> None:
        if ch.is_final and not ch.rounds:
            self.d.error(raw.vmark("status"), "campeonato encerrado (status: final) sem rodadas",
                         "anote as rodadas ou mude status para in_progress")
        if ch.is_final:
            for r in ch.rounds:
                for t in r.tables:
                    if not t.counted:
                        self.d.error(t.mark, f"mesa {t.number}, rodada {r.number}: sem as fichas contadas, mas o "
                                     "campeonato está encerrado (status: final)",
                                     "anote as fichas ou mude status para in_progress")
        if ch.status == "scheduled" and any(r.counted for r in ch.rounds):
            self.d.warning(raw.vmark("status"), "campeonato marcado como scheduled (agendado) já tem resultados",
                           "mude status para in_progress ou final")
        if len(ch.rounds) > ROUNDS:  # Quatrilho Art. 10: four rounds (Art. 11: the commission may play fewer)
            self.d.warning(raw.vmark("rounds"), f"{len(ch.rounds)} rodadas; o regulamento prevê {ROUNDS} (Art. 10)")


def table_sum(qr: QRound, table: Table, stake: int) -> tuple[int, int, str]:
    """(chips counted, chips expected, the count behind the expectation in words) for one counted table."""
    seats = len(table.seats)
    rebuys = sum(qr.rebuys.get(n, 0) for n in table.players)
    commission = qr.commission_paid.get(table.number, 0)
    found = sum(c or 0 for _, c in table.seats)
    expected = R.expected_table_sum(seats, rebuys, commission, stake)
    parts = [_plural(len(table.players), "jogador", "jogadores")]
    if table.jokers:
        parts.append(_plural(len(table.jokers), "coringa", "coringas"))
    parts.append(_plural(rebuys, "reinscrição", "reinscrições"))
    if commission:
        parts.append(f"{commission} pagas pela comissão")
    return found, expected, ", ".join(parts)




def _ranges(numbers: list[int]) -> str:
    out, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(out)


def _pct(v: Decimal) -> str:
    return f"{v.normalize():f}".replace(".", ",")


# ---------------------------------------------------------------- classification

@dataclass(frozen=True)
class Cell:
    """One player's round: where he sat, what was counted and what it is worth."""

    status: str                   # played | pending | absent | late | out (disqualified in an earlier round)
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

    @property
    def champions(self) -> list[Line]:
        return [ln for ln in self.lines if ln.award.champion]


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
    cfg = ch.config
    cells = {n: [round_cell(ch, r, n) for r in ch.rounds] for n in ch.players}
    rows = {n: Row(n, {"rounds": [c.result for c in cs], **R.metrics(c.result for c in cs)}) for n, cs in cells.items()}
    ranked, ctx = R.classify(rows, cfg.tiebreaks, ch.draws)
    dq = {n: ch.disqualified_in(n) for n in ch.players}
    rebuys = sum(k for r in ch.rounds for k in r.rebuys.values())
    money = R.registration_money(len(ch.players), rebuys, ch.fee)
    prizes = R.prize_amounts(money, ch.prizes)
    awards = R.awards(ranked, {n for n, r in dq.items() if r}, cfg.champions, prizes, ch.is_final)
    lines = [Line(r.key, ch.players[r.key].player, r, cells[r.key], awards[r.key], dq[r.key]) for r in ranked]
    used = ctx.used_draws
    return ChampionshipResult(ch, lines, len(ch.players), rebuys, money, prizes, ctx.notes,
                              [d for d in ch.draws if id(d) not in used], {ln.player: ln for ln in lines})


def decisive_places(cfg: QuatrilhoConfig, res: ChampionshipResult) -> int:
    """The last eligible place that decides something: a title, a prize or a place in the state final."""
    return max(cfg.champions, cfg.state_qualifiers, len(res.prizes))


def needs_decision(res: ChampionshipResult, block: list[Line]) -> bool:
    """A tie left after Art. 22 that a title, prize or qualification depends on (Art. 3: the commission decides)."""
    places = [ln.award.eligible_place for ln in block if ln.award.eligible_place is not None]
    eligible = len(places)
    return (res.championship.is_final and eligible > 1
            and min(places) <= decisive_places(res.championship.config, res))


def compute_season(season_result, diags: Diagnostics) -> None:
    """Classifies every championship of the season and lists the state qualifiers (Art. 21–23)."""
    results = [compute_championship(ch) for ch in season_result.season.championships]
    for res in results:
        _warnings(res, diags)
    season_result.championships = results
    cfg = season_result.season.quatrilho
    finals = [res for res in results if res.championship.is_final]
    picked = R.state_qualifiers([(res.championship.id, [(ln.player, ln.position, ln.award.eligible_place)
                                                        for ln in res.lines]) for res in finals],
                                cfg.state_qualifiers)
    by_id = {res.championship.id: res for res in finals}
    season_result.qualifiers = [Qualifier(by_id[c], by_id[c].by_player[p]) for c, p, _ in picked]


def _warnings(res: ChampionshipResult, diags: Diagnostics) -> None:
    """Known differences accepted at a table, ties waiting for the commission, draws never used, work in progress."""
    ch = res.championship
    if ch.status == "in_progress":
        diags.warning(ch.mark, f"campeonato \"{ch.name}\" em andamento: a classificação é provisória, sem campeões, "
                      "prêmios nem classificados ao estadual", code="in-progress")
    for r in ch.rounds:
        for a in r.adjustments:
            table = next(t for t in r.tables if t.number == a.table)
            if not table.counted:
                continue
            found, expected, detail = table_sum(r, table, ch.config.stake)
            diags.warning(table.mark, f"mesa {a.table}, rodada {r.number}: soma {found}, esperado {expected} "
                          f"({detail}); diferença de {a.chips:+d} aceita pelo ajuste: {a.reason}", code="adjustment")
    line_of = {ln.number: ln for ln in res.lines}
    for block in position_blocks([ln.ranked for ln in res.lines]):
        lines = [line_of[r.key] for r in block]
        if len(block) > 1 and needs_decision(res, lines):
            numbers = ", ".join(str(ln.number) for ln in lines)
            diags.warning(ch.mark, f"{ch.name}: empate não resolvido pelo Art. 22 no {block[0].position}º lugar entre "
                          f"os jogadores {numbers}; o título, o prêmio ou a vaga no estadual depende de uma decisão "
                          "da comissão (Art. 3)", f"registre a decisão: draws: [{{players: [{numbers}], "
                          "order: [...], note: …}]", code="draw-needed")
    for d in res.unused_draws:
        diags.warning(d.mark, "sorteio registrado não foi usado: nenhum empate envolve exatamente os jogadores "
                      + ", ".join(map(str, sorted(d.members))), "confira os números do sorteio", code="unused-draw")


# ---------------------------------------------------------------- JSON and CSV (outputs.md)

def championship_json(res: ChampionshipResult) -> dict:
    from league.api import num
    ch = res.championship
    return {
        "season": ch.season, "championship": ch.id, "status": ch.status,
        "classification": [
            {"position": ln.position, "tied": ln.tied, "player": ln.player, "number": ln.number,
             "rounds": ln.rounds, "net": ln.values["net"], "positive_rounds": ln.values["positive_rounds"],
             "points_won": ln.values["points_won"], "best_round": ln.values["best_round"],
             "champion": ln.award.champion, "disqualified": ln.disqualified_in is not None,
             "prize": num(ln.award.prize), "decided_by": ln.ranked.decided_by}
            for ln in res.lines],
        "registration_money": num(res.registration_money),
    }


def qualifiers_json(season_result) -> dict:
    return {"season": season_result.season.year,
            "qualifiers": [{"championship": q.championship.championship.id, "position": q.line.position,
                            "player": q.line.player} for q in season_result.qualifiers]}


def _classification_csv_rows(data: dict) -> list[dict]:
    rows = []
    for entry in data["classification"]:
        row = {k: v for k, v in entry.items() if k != "rounds"}
        rounds = {f"round_{i + 1}": v for i, v in enumerate(entry["rounds"])}
        rows.append({k: row[k] for k in ("position", "tied", "player", "number")} | rounds
                    | {k: row[k] for k in row if k not in ("position", "tied", "player", "number")})
    return rows


def _tables_csv_rows(res: ChampionshipResult) -> list[dict]:
    ch = res.championship
    rows = []
    for r in ch.rounds:
        for t in r.tables:
            for seat, (key, chips) in enumerate(t.seats, start=1):
                player = ch.players[key] if isinstance(key, int) else None
                cell = round_cell(ch, r, key) if player else None
                rows.append({"round": r.number, "table": t.number, "seat": seat,
                             "number": key if player else "", "player": player.player if player else key,
                             "chips": chips, "rebuys": r.rebuys.get(key, 0) if player else 0,
                             "penalty": r.penalty_of(key) if player else 0,
                             "result": cell.result if cell else None})
    return rows


def api_files(season_result) -> dict[str, str]:
    """api/<season>/quatrilho/<id>.json and qualifiers.json (outputs.md), with CSV copies of every table."""
    from league.api import dumps, to_csv
    base = f"api/{season_result.season.year}/quatrilho"
    out: dict[str, str] = {}
    for res in season_result.championships:
        cid = res.championship.id
        data = championship_json(res)
        out[f"{base}/{cid}.json"] = dumps(data)
        out[f"{base}/{cid}-classificacao.csv"] = to_csv(_classification_csv_rows(data))
        out[f"{base}/{cid}-mesas.csv"] = to_csv(_tables_csv_rows(res))
    q = qualifiers_json(season_result)
    out[f"{base}/qualifiers.json"] = dumps(q)
    out[f"{base}/qualifiers.csv"] = to_csv(q["qualifiers"]) or "championship,position,player\n"
    return out


# ---------------------------------------------------------------- pages

STATUS = {"final": "encerrado", "in_progress": "em andamento", "scheduled": "agendado"}
TIED_IN = {"net": "pontos positivos", "positive_rounds": "rodadas com pontos ganhos",
           "points_won": "soma dos pontos ganhos", "best_round": "melhor rodada"}
AHEAD = {"positive_rounds": ("por ter mais rodadas com pontos ganhos", "por ter menos rodadas com pontos ganhos"),
         "points_won": ("pela maior soma dos pontos ganhos nas rodadas", "pela menor soma dos pontos ganhos nas rodadas"),
         "best_round": ("pela maior pontuação numa só rodada", "pela menor pontuação numa só rodada")}


def brl(value: Decimal) -> str:
    """R$ with Brazilian separators: R$ 1.234,56."""
    q = Decimal(value).quantize(R.CENT, rounding=ROUND_HALF_UP)
    return "R$ " + f"{q:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def champ_url(site, ch: Championship) -> str:
    return site.url(ch.season, "quatrilho", ch.id)


def _value_text(key: str, v: Any) -> str:
    from league.explain import signed
    return signed(v) if key == "net" else str(v)


def tie_sentences(site, res: ChampionshipResult) -> dict[int, str]:
    """For every line tied on net points with a neighbour, one sentence in pt-BR saying how the tie ended.
    # Quatrilho Art. 22 (criteria), Art. 3 (decision of the commission)"""
    ch = res.championship
    order = list(ch.config.tiebreaks)
    out: dict[int, list[str]] = {}
    lines = res.lines
    for i, ln in enumerate(lines[:-1]):
        b = ln.ranked.boundary
        if b is None or b.key == order[0]:
            continue
        nxt = lines[i + 1]
        before = order[:order.index(b.key)] if b.key in order else order
        tied_in = _and([f"{TIED_IN[k]} ({_value_text(k, ln.values[k])})" for k in before if k in TIED_IN])
        a_name, b_name = site.player_name(ln.player), site.player_name(nxt.player)
        if b.key == "draw":
            d = next((d for d in ch.draws if ln.number in d.members and nxt.number in d.members), None)
            why = "decisão da comissão registrada (Art. 3)" + (f": {d.note}" if d and d.note else "")
            out.setdefault(ln.number, []).append(f"Empatado com {b_name} em todos os critérios do Art. 22; "
                                                 f"à frente por {why}.")
            out.setdefault(nxt.number, []).append(f"Empatado com {a_name} em todos os critérios do Art. 22; "
                                                  f"atrás por {why}.")
            continue
        up, down = AHEAD[b.key]
        out.setdefault(ln.number, []).append(f"Empatado com {b_name} em {tied_in}; à frente {up} "
                                             f"({b.above} contra {b.below}) — Art. 22.")
        out.setdefault(nxt.number, []).append(f"Empatado com {a_name} em {tied_in}; atrás {down} "
                                              f"({b.below} contra {b.above}) — Art. 22.")
    for block in position_blocks([ln.ranked for ln in lines]):
        if len(block) < 2:
            continue
        members = [next(ln for ln in lines if ln.number == r.key) for r in block]
        v = members[0].values
        pending = needs_decision(res, members)
        for ln in members:
            others = _and([site.player_name(o.player) for o in members if o is not ln])
            out.setdefault(ln.number, []).append(
                f"Empatado com {others} em todos os critérios do Art. 22 ({_value_text('net', v['net'])}; "
                f"{v['positive_rounds']} rodadas com pontos ganhos; {v['points_won']} pontos ganhos; melhor rodada "
                f"{v['best_round']}): posição dividida"
                + (", aguardando decisão da comissão (Art. 3)." if pending else "."))
    return {k: " ".join(v) for k, v in out.items()}


def _and(items: list[str]) -> str:
    """"a", "a e b", "a, b e c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " e " + items[-1]


def _cell_view(c: Cell) -> dict:
    from league.explain import signed
    details = []
    if c.table is not None:
        details.append(f"mesa {c.table}")
    if c.chips is not None:
        details.append(f"{c.chips} fichas")
    if c.rebuys:
        details.append(_plural(c.rebuys, "reinscrição", "reinscrições"))
    if c.penalty:
        details.append(f"penalidade de {c.penalty} fichas")
    if c.disqualified:
        details.append("desclassificado nesta rodada")
    text = {"played": signed(c.result), "pending": "a contar", "late": "—", "out": "—",
            "absent": "ausente" if not c.penalty else signed(c.result)}[c.status]
    note = {"late": "inscrição atrasada (Art. 5)", "out": "desclassificado antes (Art. 16)",
            "absent": "ausente", "pending": "mesa ainda não contada"}.get(c.status)
    if note:
        details.insert(0, note)
    return {"text": text, "detail": ", ".join(details), "status": c.status, "dq": c.disqualified,
            "rebuys": c.rebuys, "penalty": c.penalty}


def championship_view(site, season_result, res: ChampionshipResult) -> dict:
    from league.explain import signed
    ch = res.championship
    final = ch.is_final
    sentences = tie_sentences(site, res)
    qualified = {q.line.player: q.championship.championship for q in season_result.qualifiers}
    dq_reason = {d.player: (r.number, d.reason) for r in ch.rounds for d in r.disqualified}
    name = site.player_name
    lines = []
    for ln in res.lines:
        q = qualified.get(ln.player)
        lines.append({
            "pos": f"{ln.position}º" + ("=" if ln.tied else ""), "number": ln.number, "name": name(ln.player),
            "url": site.player_url(ln.player), "cells": [_cell_view(c) for c in ln.cells],
            "net": signed(ln.values["net"]), "positive_rounds": ln.values["positive_rounds"],
            "points_won": ln.values["points_won"], "best_round": ln.values["best_round"],
            "champion": ln.award.champion, "prize": brl(ln.award.prize) if ln.award.prize else "",
            "dq": ln.disqualified_in is not None,
            "dq_text": (f"desclassificado na rodada {dq_reason[ln.number][0]} ({dq_reason[ln.number][1]})"
                        if ln.number in dq_reason else ""),
            "why": sentences.get(ln.number, ""),
            "qualified": q is not None and q.id == ch.id,
            "qualified_elsewhere": q.name if q is not None and q.id != ch.id and ln.award.eligible_place is not None
            and ln.award.eligible_place <= ch.config.state_qualifiers else None,
        })
    prizes = []
    for place, amount in enumerate(res.prizes, start=1):
        winners = [name(ln.player) for ln in res.lines if ln.award.eligible_place is not None
                   and ln.award.eligible_place <= place < ln.award.eligible_place + _shared_count(res, ln)]
        prizes.append({"place": f"{place}º", "pct": _pct(ch.prizes.get(place, Decimal(0))), "amount": brl(amount),
                       "winners": ", ".join(winners) if final else "a definir",
                       "shared": final and len(winners) > 1})
    rounds = [_round_view(site, ch, r) for r in ch.rounds]
    return {
        "title": ch.name, "season": season_result.season, "ch": ch, "status": STATUS[ch.status], "final": final,
        "lines": lines, "round_numbers": [r.number for r in ch.rounds], "rounds": rounds,
        "champions": [{"pos": f"{ln.award.eligible_place}º", "name": name(ln.player), "url": site.player_url(ln.player),
                       "medal": ln.award.eligible_place <= 3, "prize": brl(ln.award.prize) if ln.award.prize else ""}
                      for ln in res.champions],
        "champions_count": ch.config.champions, "qualifiers_count": ch.config.state_qualifiers,
        "prizes": prizes, "money": brl(res.registration_money), "fee": brl(ch.fee),
        "registrations": _plural(res.registrations, "inscrição", "inscrições"),
        "rebuys": _plural(res.rebuys, "reinscrição", "reinscrições"),
        "draws": [{"order": ", ".join(f"{n} ({name(ch.players[n].player)})" for n in d.order), "note": d.note}
                  for d in ch.draws],
        "penalties": [{"round": r.number, "number": p.player, "name": name(ch.players[p.player].player),
                       "chips": p.chips, "reason": p.reason} for r in ch.rounds for p in r.penalties],
        "rebuy_list": [{"round": r.number, "number": n, "name": name(ch.players[n].player), "count": k}
                       for r in ch.rounds for n, k in sorted(r.rebuys.items())],
        "overview_url": site.url(ch.season, "quatrilho"),
        "api": site.url("api", ch.season, "quatrilho"), "source": site.source(ch.mark),
    }


def _shared_count(res: ChampionshipResult, ln: Line) -> int:
    p = ln.award.eligible_place
    return sum(1 for o in res.lines if o.award.eligible_place == p)


def _round_view(site, ch: Championship, r: QRound) -> dict:
    from league.explain import signed
    tables = []
    for t in r.tables:
        seats = []
        for i, (key, chips) in enumerate(t.seats, start=1):
            if isinstance(key, str):
                seats.append({"seat": i, "number": "", "name": f"Coringa {key}", "url": None, "joker": True,
                              "chips": "—" if chips is None else chips, "rebuys": 0, "penalty": 0, "result": "—",
                              "dq": False})
                continue
            c = round_cell(ch, r, key)
            seats.append({"seat": i, "number": key, "name": site.player_name(ch.players[key].player),
                          "url": site.player_url(ch.players[key].player), "joker": False,
                          "chips": "—" if chips is None else chips, "rebuys": c.rebuys, "penalty": c.penalty,
                          "result": signed(c.result) if c.result is not None else "—", "dq": c.disqualified})
        check = None
        if t.counted and all(c is not None for _, c in t.seats):
            found, expected, detail = table_sum(r, t, ch.config.stake)
            check = f"soma {found}, esperado {expected} ({detail})"
        tables.append({"number": t.number, "seats": seats, "counted": t.counted, "check": check,
                       "adjustment": next((a for a in r.adjustments if a.table == t.number), None),
                       "commission": r.commission_paid.get(t.number, 0)})
    name = lambda n: f"{n} ({site.player_name(ch.players[n].player)})"  # noqa: E731
    return {"number": r.number, "seed": r.seed, "counted": r.counted, "tables": tables, "note": r.note,
            "absent": ", ".join(name(n) for n in r.absent),
            "disqualified": [{"who": name(d.player), "reason": d.reason} for d in r.disqualified],
            "penalties": [{"who": name(p.player), "chips": p.chips, "reason": p.reason} for p in r.penalties],
            "rebuys": ", ".join(name(n) + (f" ×{k}" if k > 1 else "") for n, k in sorted(r.rebuys.items()))}


def season_overview(site, season_result) -> dict:
    year = season_result.season.year
    champs = []
    for res in season_result.championships:
        ch = res.championship
        champs.append({"ch": ch, "url": champ_url(site, ch), "status": STATUS[ch.status], "players": res.registrations,
                       "rounds": sum(1 for r in ch.rounds if r.counted), "money": brl(res.registration_money),
                       "leader": [(site.player_name(ln.player), site.player_url(ln.player))
                                  for ln in res.lines if ln.position == 1 and ln.award.eligible_place is not None],
                       "champions": [(ln.award.eligible_place, site.player_name(ln.player), site.player_url(ln.player))
                                     for ln in res.champions]})
    qualifiers = [{"championship": q.championship.championship.name, "url": champ_url(site, q.championship.championship),
                   "municipality": q.championship.championship.municipality or "",
                   "pos": f"{q.line.position}º" + ("=" if q.line.tied else ""), "name": site.player_name(q.line.player),
                   "player_url": site.player_url(q.line.player), "number": q.line.number}
                  for q in season_result.qualifiers]
    pending = [c["ch"].name for c in champs if not c["ch"].is_final]
    return {"title": f"Quatrilho — {season_result.season.title}", "season": season_result.season,
            "championships": champs, "qualifiers": qualifiers, "pending": pending,
            "qualifiers_count": season_result.season.quatrilho.state_qualifiers,
            "api": site.url("api", year, "quatrilho")}


def render_pages(site, season_result) -> Iterator[tuple[str, str, dict]]:
    """(path, template, context) of the season's Quatrilho pages: one per championship and the overview."""
    year = season_result.season.year
    for res in season_result.championships:
        yield (f"{year}/quatrilho/{res.championship.id}/index.html", "championship.html",
               championship_view(site, season_result, res))
    yield f"{year}/quatrilho/index.html", "quatrilho_season.html", season_overview(site, season_result)


def player_history(site, player_id: str) -> list[dict]:
    """The player's Quatrilho championships, oldest first, for the player page."""
    from league.explain import signed
    out = []
    for sr in site.r.seasons:
        qualified = {(q.championship.championship.id, q.line.player) for q in sr.qualifiers}
        for res in sr.championships:
            ln = res.by_player.get(player_id)
            if ln is None:
                continue
            ch = res.championship
            notes = []
            if ln.award.champion:
                notes.append("campeão" if ln.award.eligible_place == 1 else f"campeão ({ln.award.eligible_place}º)")
            if (ch.id, player_id) in qualified:
                notes.append("classificado ao estadual")
            if ln.disqualified_in:
                notes.append(f"desclassificado na rodada {ln.disqualified_in}")
            if not ch.is_final:
                notes.append("em andamento")
            out.append({"season": sr.season, "name": ch.name, "date": ch.date, "url": champ_url(site, ch),
                        "pos": f"{ln.position}º" + ("=" if ln.tied else ""), "number": ln.number,
                        "net": signed(ln.values["net"]), "prize": brl(ln.award.prize) if ln.award.prize else "",
                        "notes": ", ".join(notes)})
    return out
