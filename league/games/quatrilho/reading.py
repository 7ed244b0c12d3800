"""Checks one Quatrilho championship file as data-format.md and rules.md describe it, every problem at once."""
from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Optional

from league.content import schema as S
from league.content.diagnostics import Diagnostics, SourceMark
from league.models import DrawRecord, QuatrilhoConfig
from league.games.quatrilho.championship import (
    Adjustment, Championship, Disqualification, Penalty, QRound, Registration, Table, pct_text, plural, table_sum,
)
from league.games.quatrilho.shapes import check_numbered_maps
from league.content.validate import slugify, validate
from league.content.yamlio import MDict, MList

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
RESERVED_IDS = {"qualifiers", "index"}   # api/<season>/quatrilho/qualifiers.json, <season>/quatrilho/index.html
LATE_LIMIT = 2          # Quatrilho Art. 5: registrations close at the end of round 1; late entrants play from round 2
TABLE_SIZES = (4, 5)    # Quatrilho Art. 14
ROUNDS = 4              # Quatrilho Art. 10


class ChampionshipLoader:
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
        if not self.check_file_name(cid):
            return None
        raw = self.L.yaml(self.path)
        if raw is None and any(d.mark.path == self.rel for d in self.d.items):
            return None
        clean = check_numbered_maps(self.L, raw) if isinstance(raw, MDict) else True
        model = validate(S.ChampionshipFile, raw, self.rel, self.d, "o arquivo do campeonato")
        if model is None or not clean:
            return None
        self.numbers = set(model.players)
        regs = self.load_players(model, raw["players"])
        prizes = self.load_prizes(model, raw)
        rounds = self.load_rounds(model, raw.get("rounds") or MList(raw.mark), regs)
        draws = self.load_draws(model, raw.get("draws") or MList(raw.mark), regs)
        champ = Championship(season=self.season.year, id=cid, name=model.name, municipality=model.municipality,
                             date=model.date, status=model.status, fee=Decimal(str(model.fee)), prizes=prizes,
                             players=regs, rounds=tuple(rounds), draws=tuple(draws), config=self.cfg,
                             path=self.rel, mark=raw.mark, note=model.note)
        self.check_status(champ, raw)
        return champ

    def check_file_name(self, cid: str) -> bool:
        """The file's name is the championship's id: a slug, and not a name the site keeps for itself."""
        if SLUG.match(cid) and cid not in RESERVED_IDS:
            return True
        self.d.error(SourceMark(self.rel), f"nome de arquivo de campeonato inválido \"{self.path.name}\"",
                     f"renomeie para \"{slugify(cid)}{'-1' if cid in RESERVED_IDS else ''}.yaml\"", code="slug")
        return False

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
            self.d.error(raw.vmark("prizes"), f"os prêmios somam {pct_text(total)}% do valor das inscrições; o máximo "
                         "é 100% (Art. 23)", "confira as porcentagens")
        return prizes

    # rounds
    def load_rounds(self, model: S.ChampionshipFile, raw: MList, regs: dict) -> list[QRound]:
        disq: dict[int, tuple[int, SourceMark]] = {}   # player -> (round, mark) of his disqualification
        return [self.load_round(i + 1, r, raw[i], regs, disq) for i, r in enumerate(model.rounds)]

    def load_round(self, rnd: int, r: S.QRound, raw: MDict, regs: dict, disq: dict) -> QRound:
        """One round: its tables, rebuys, penalties, absences, the commission's payments, adjustments and
        disqualifications; then every table's size (Art. 14), every player's seat (Art. 9) and every sum."""
        where = f"rodada {rnd}"
        tables, seated = self.load_tables(rnd, r, raw, regs, disq, where)
        rebuys = self.load_rebuys(r, raw, regs, seated, where)
        penalties = self.load_penalties(r, raw, regs, seated, where)
        absent = self.load_absent(r, raw, regs, seated, where, rnd, disq)
        commission = self.per_table(r.commission_paid, raw.get("commission_paid"), r.tables, where,
                                    "commission_paid")
        adjustments = self.load_adjustments(r, raw, where)
        dqs = self.load_disqualified(r, raw, regs, seated, where, rnd, disq)
        for table in tables:
            self.check_size(table, dqs, where)
        self.check_everyone_seated(raw, regs, seated, absent, disq, rnd, where)
        qr = QRound(rnd, tuple(tables), rebuys, tuple(penalties), commission, tuple(adjustments), tuple(dqs),
                    tuple(absent), r.seed, r.note, raw.mark)
        for table in tables:
            if (rnd, table.number) not in self.broken:
                self.check_conservation(qr, table, where)
        return qr

    def load_tables(self, rnd: int, r: S.QRound, raw: MDict, regs: dict, disq: dict, where: str
                    ) -> tuple[list[Table], dict[int, tuple[int, SourceMark]]]:
        """The round's tables, and where each player sits: number -> (table, mark of the seat)."""
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
                    self.check_joker(key, smark, tno, where, jokers)
                    continue
                if not self.check_seat(key, smark, tno, rnd, where, regs, disq, seated):
                    self.broken.add((rnd, tno))
                if key not in seated:
                    seated[key] = (tno, smark)
            table = Table(tno, tuple(seats.items()), tmark)
            tables.append(table)
            self.check_counted(table, sraw, where, rnd)
        return tables, seated

    def check_joker(self, key: str, smark: SourceMark, tno: int, where: str, jokers: dict) -> None:
        """A joker sits at one table of the round (C1, C2, … numbered per round)."""
        if key in jokers:
            self.d.error(smark, f"o coringa {key} já está na mesa {jokers[key]} da {where}",
                         "numere os coringas da rodada C1, C2, …")
        jokers[key] = tno

    def check_seat(self, key: int, smark: SourceMark, tno: int, rnd: int, where: str, regs: dict, disq: dict,
                   seated: dict) -> bool:
        """A player's seat: registered, at one table of the round, allowed to play it; False (the table's sum
        is not checked) when not."""
        if key not in regs:
            if key not in self.numbers:
                self.unregistered(smark, f"mesa {tno}, {where}: ", key)
            return False
        player = regs[key].player
        if key in seated:  # Quatrilho Art. 9: one table per player per round
            self.d.error(smark, f"o jogador {key} ({player}) já está na mesa {seated[key][0]} da "
                         f"{where} (linha {seated[key][1].line})", "cada jogador senta em uma só mesa por rodada")
        elif regs[key].from_round > rnd:  # Quatrilho Art. 5
            self.d.error(smark, f"o jogador {key} ({player}) foi inscrito com atraso e joga a partir "
                         f"da rodada {regs[key].from_round} (Art. 5)", "tire-o desta mesa")
        elif key in disq and disq[key][0] < rnd:  # Quatrilho Art. 16
            self.d.error(smark, f"o jogador {key} ({player}) foi desclassificado na rodada "
                         f"{disq[key][0]} (linha {disq[key][1].line}) e não joga mais (Art. 16)",
                         "tire-o desta mesa; um coringa pode ocupar o lugar (C1)")
        else:
            return True
        return False

    def check_everyone_seated(self, raw: MDict, regs: dict, seated: dict, absent: list, disq: dict, rnd: int,
                              where: str) -> None:
        """Quatrilho Art. 9, 5, 16: every registered player who may play this round is seated or marked absent."""
        missing = [n for n, reg in regs.items() if reg.from_round <= rnd and not (n in disq and disq[n][0] < rnd)
                   and n not in seated and n not in absent]
        if missing:
            names = ", ".join(f"{n} ({regs[n].player})" for n in missing)
            self.d.error(raw.kmark("tables"), f"{where}: {plural(len(missing), 'jogador inscrito', 'jogadores inscritos')}"
                         f" sem mesa: {names}", f"sente-os numa mesa ou acrescente \"absent: [{', '.join(map(str, missing))}]\" "
                         "à rodada (a rodada conta 0 para eles)", code="missing")

    def unregistered(self, mark: SourceMark, where: str, number: int) -> None:
        hint = (f"números inscritos: {_ranges(sorted(self.numbers))}; inscreva o jogador em players: se faltar"
                if self.numbers else "inscreva o jogador em players:")
        self.d.error(mark, f"{where}o número {number} não está inscrito", hint, code="unknown-id")

    def no_table(self, mark: SourceMark, key: str, where: str, number: int, tables) -> None:
        self.d.error(mark, f"{key}: a {where} não tem mesa {number}", f"mesas da rodada: {', '.join(map(str, tables))}",
                     code="unknown-id")

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
        what = plural(len(table.players), "jogador", "jogadores")
        if table.jokers:
            what += " e " + plural(len(table.jokers), "coringa", "coringas")
        hint = ("complete a mesa com coringas (C1, C2, …) ou junte-a a outra (Art. 12, 16)" if size < 4 else
                "divida os jogadores em mesas de 5 e de 4; `league draw` propõe o sorteio")
        self.d.error(table.mark, f"mesa {table.number}, {where}: {what}; uma mesa tem 4 ou 5 (Art. 14)", hint,
                     code="table-size")

    def load_rebuys(self, r, raw, regs, seated, where) -> dict:
        out = {}
        for n, k in r.rebuys.items():
            mark = raw["rebuys"].kmark(n)
            if n not in regs:
                self.unregistered(mark, "rebuys: ", n)
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
                self.unregistered(praw.vmark("player"), "penalidade: ", p.player)
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
                self.unregistered(mark, "absent: ", n)
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
                self.no_table(raw.kmark(t), key, where, t, tables)
                continue
            out[t] = v
        return out

    def load_adjustments(self, r, raw, where) -> list[Adjustment]:
        out: list[Adjustment] = []
        for i, a in enumerate(r.adjustments):
            araw = raw["adjustments"][i]
            if a.table not in r.tables:
                self.no_table(araw.vmark("table"), "adjustments", where, a.table, r.tables)
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
                self.unregistered(mark, "disqualified: ", x.player)
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
        if not table.counted or not self.jokers_counted(table, where):
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

    def jokers_counted(self, table: Table, where: str) -> bool:
        """A counted table's sum is checked only when its jokers' final chips are written too."""
        missing_jokers = [k for k, c in table.seats if isinstance(k, str) and c is None]
        if missing_jokers:
            self.d.warning(table.mark, f"mesa {table.number}, {where}: fichas do coringa {', '.join(missing_jokers)} "
                           "não anotadas; a soma da mesa não foi conferida", "anote as fichas finais do coringa: "
                           f"{missing_jokers[0]}: 95", code="unchecked")
        return not missing_jokers

    def load_draws(self, model: S.ChampionshipFile, raw: MList, regs: dict) -> list[DrawRecord]:
        out = []
        for i, d in enumerate(model.draws):
            draw = raw[i]
            ok = True
            for k, n in enumerate(d.players):
                if n not in regs:
                    self.unregistered(draw["players"].imark(k), "draws: ", n)
                    ok = False
            if len(set(d.players)) != len(d.players) or sorted(d.order) != sorted(d.players):
                self.d.error(draw.vmark("order"), "order: deve conter exatamente os jogadores do sorteio, cada um "
                             "uma vez", f"jogadores: {', '.join(map(str, d.players))}")
                ok = False
            if ok:
                out.append(DrawRecord(frozenset(d.players), tuple(d.order), d.note, draw.mark))
        return out

    def check_status(self, ch: Championship, raw: MDict) -> None:
        """The status agrees with the results: a final championship has every table counted; a scheduled one none."""
        if ch.is_final:
            self.check_final(ch, raw)
        if ch.status == "scheduled" and any(r.counted for r in ch.rounds):
            self.d.warning(raw.vmark("status"), "campeonato marcado como scheduled (agendado) já tem resultados",
                           "mude status para in_progress ou final")
        if len(ch.rounds) > ROUNDS:  # Quatrilho Art. 10: four rounds (Art. 11: the commission may play fewer)
            self.d.warning(raw.vmark("rounds"), f"{len(ch.rounds)} rodadas; o regulamento prevê {ROUNDS} (Art. 10)")

    def check_final(self, ch: Championship, raw: MDict) -> None:
        if not ch.rounds:
            self.d.error(raw.vmark("status"), "campeonato encerrado (status: final) sem rodadas",
                         "anote as rodadas ou mude status para in_progress")
        for r in ch.rounds:
            for t in r.tables:
                if not t.counted:
                    self.d.error(t.mark, f"mesa {t.number}, rodada {r.number}: sem as fichas contadas, mas o "
                                 "campeonato está encerrado (status: final)",
                                 "anote as fichas ou mude status para in_progress")


def _ranges(numbers: list[int]) -> str:
    out, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(out)


def load_championship(loader, league, season, path: Path) -> Optional[Championship]:
    """One championship file → Championship, or None; every problem goes to loader.diags (Loader.load_seasons,
    which also classifies it and keeps both in the cache)."""
    return ChampionshipLoader(loader, league, season, path).load()
