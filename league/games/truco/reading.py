"""Reads one Truco stage file as data-format.md describes it: its teams and squads, its phases (groups and
knockout rounds, in reading_phases.py), the draws, disqualifications and classification the organisers
recorded — every problem reported at once, to the loader's diagnostics.

The loader (league.engine.loader.Loader, or anything with the same few members: diags, rel, yaml, unknown,
unreadable) reads the YAML and says where a reference to an unknown club, player or team points."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from league.content import schema as S
from league.content.diagnostics import SourceMark, did_you_mean
from league.content.marked import MDict, MList
from league.content.validate import slugify, validate
from league.games.truco.reading_history import check_source, read_final_places
from league.games.truco.reading_phases import read_phases
from league.models import Disqualified, DrawRecord, League, Override, Phase, Season, Stage, Team, pair_id

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def load_stage(loader, league: League, season: Season, path: Path) -> Optional[Stage]:
    """One stage file → Stage, or None; every problem goes to loader.diags."""
    return StageLoader(loader, league, season, path).load()


class StageLoader:
    """One Truco stage file: its teams and squads, groups and knockout rounds, every board line."""

    def __init__(self, loader, league: League, season: Season, path: Path):
        self.L = loader
        self.d = loader.diags
        self.league = league
        self.season = season
        self.path = path
        self.rel = loader.rel(path)
        self.cfg = season.truco
        self.pairs: dict = {}
        self.teams: dict[str, Team] = {}

    def shared_pair(self, pair):
        """One tuple per pair in the stage, the roster's: the boards, standings and classification that name
        it share it (fewer objects to build, cache and read back)."""
        return self.pairs.setdefault(pair, pair)

    def load(self) -> Optional[Stage]:
        sid = self.path.stem
        if not SLUG.match(sid):
            self.d.error(SourceMark(self.rel), f"nome de arquivo de etapa inválido \"{self.path.name}\"",
                         f"renomeie para \"{slugify(sid)}.yaml\"")
            return None
        raw = self.L.yaml(self.path)
        if raw is None and any(d.mark.path == self.rel for d in self.d.items):
            return None
        model = validate(S.StageFile, raw, self.rel, self.d, "o arquivo da etapa")
        return self.stage(sid, model, raw) if model is not None else None

    def stage(self, sid: str, model: S.StageFile, raw: MDict) -> Stage:
        """The stage a valid file (`model`, as `raw` writes it) describes, every reference checked."""
        if model.host and model.host not in self.league.clubs:
            self.L.unknown(raw.vmark("host"), "clube anfitrião", model.host, self.league.clubs)
        source = check_source(self, model, raw)
        if model.final_places is not None:
            return self.places_stage(sid, model, raw, source)
        self.teams = _Rosters(self).load_teams(model, raw.get("teams"))
        phases = read_phases(self, model, raw.get("phases") or MList(raw.mark))
        draws = load_draws(self, model, raw.get("draws") or MList(raw.mark))
        disq = load_disqualified(self, model, raw.get("disqualified") or MList(raw.mark))
        override = load_override(self, model.classification, raw["classification"], disq) \
            if model.classification else None
        if model.status == "scheduled" and _has_results(phases):
            self.d.warning(raw.vmark("status"), "etapa marcada como scheduled (agendada) já tem resultados",
                           "mude status para in_progress ou final")
        return Stage(season=self.season.year, id=sid, name=model.name, date=model.date, host=model.host,
                     city=model.city, status=model.status, teams=self.teams, phases=tuple(phases),
                     draws=tuple(draws), override=override, disqualified=tuple(disq), config=self.cfg,
                     path=self.rel, mark=raw.mark, note=model.note, source=source)

    def places_stage(self, sid: str, model: S.StageFile, raw: MDict, source: Optional[str]) -> Stage:
        """A stage known only by its final places (history): its teams, no squads, no phases."""
        self.teams, places = read_final_places(self, model, raw)
        return Stage(season=self.season.year, id=sid, name=model.name, date=model.date, host=model.host,
                     city=model.city, status=model.status, teams=self.teams, phases=(), draws=(), override=None,
                     disqualified=(), config=self.cfg, path=self.rel, mark=raw.mark, note=model.note,
                     final_places=places, source=source)

    def pairs_in_stage(self) -> set:
        return {p for t in self.teams.values() for p in t.pairs if p}


def _has_results(phases: list[Phase]) -> bool:
    """Whether a group match was written (a stage still "scheduled" should not have one)."""
    return any(ph.groups or ph.rounds for ph in phases) and \
        any(m for ph in phases for g in ph.groups for m in g.matches)


class _Rosters:
    """The teams and their squads: each team a club's (its id, or the club it names), each pair two players
    of players.yaml, and a player in one pair of one team only in the stage."""

    def __init__(self, stage: StageLoader):
        self.stage = stage
        self.d = stage.d
        self.league = stage.league
        self.owner: dict[str, tuple[str, SourceMark]] = {}   # player → (team, mark) of the pair they are in

    def load_teams(self, model: S.StageFile, raw: Optional[MDict]) -> dict[str, Team]:
        teams: dict[str, Team] = {}
        for tid, t in model.teams.items():
            traw = raw[tid]
            club = t.club or tid
            if club not in self.league.clubs:
                _unknown_club(self.stage, tid, t, traw, raw)
            praw = traw.get("pairs") or MList(traw.mark)
            pairs = [self.pair(tid, p, praw, i) for i, p in enumerate(t.pairs)]
            name = t.name or (self.league.clubs[club].name if club in self.league.clubs else tid)
            teams[tid] = Team(tid, club, name, tuple(pairs), raw.kmark(tid))
        return teams

    def pair(self, tid: str, p: list, praw: MList, i: int):
        """The i-th pair of a squad, or None when it is wrong (reported)."""
        pm = praw.imark(i)
        ok = True
        for j, player in enumerate(p):
            mark = praw[i].imark(j) if isinstance(praw[i], MList) else pm
            ok = self.claim(tid, player, mark) and ok
        if p[0] == p[1]:
            self.d.error(pm, f"dupla com o mesmo jogador duas vezes: [{p[0]}, {p[1]}]")
            ok = False
        return self.stage.shared_pair(pair_id(p[0], p[1])) if ok else None

    def claim(self, tid: str, player: str, mark: SourceMark) -> bool:
        """A player of players.yaml, in no other pair of the stage: now the team's."""
        if player not in self.league.players:
            self.stage.L.unknown(mark, "jogador", player, self.league.players)
            return False
        if player not in self.owner:
            self.owner[player] = (tid, mark)
            return True
        other, omark = self.owner[player]
        if other == tid:
            self.d.error(mark, f"o jogador \"{player}\" aparece duas vezes no elenco de \"{tid}\" "
                         f"(linha {omark.line})", "cada jogador forma uma só dupla na etapa")
        else:
            self.d.error(mark, f"o jogador \"{player}\" já joga pela equipe \"{other}\" nesta etapa "
                         f"(linha {omark.line})", "um jogador defende uma só equipe por etapa")
        return False


def _unknown_club(stage: StageLoader, tid: str, t: S.Team, traw: MDict, raw: MDict) -> None:
    """A team whose club (the one it names, or its own id) is not in clubs.yaml."""
    clubs = stage.league.clubs
    if t.club:
        stage.L.unknown(traw.vmark("club"), "clube", t.club, clubs)
    elif "clubs" in stage.L.unreadable:
        pass  # clubs.yaml is broken and reported already
    else:
        hint = did_you_mean(tid, clubs)
        stage.d.error(raw.kmark(tid), f"a equipe \"{tid}\" não é um clube de clubs.yaml e não diz o seu clube",
                      (hint + " Ou " if hint else "") + "acrescente \"club: <id do clube>\" à equipe",
                      code="unknown-id")


# draws, disqualifications, override
def load_draws(stage: StageLoader, model: S.StageFile, raw: MList) -> list[DrawRecord]:
    """The draws the organisers held (Truco 10.1): between teams or between pairs of the stage, the order
    they decided naming each of them once."""
    out = []
    pairs_in_stage = stage.pairs_in_stage()
    for i, d in enumerate(model.draws):
        draw_raw = raw[i]
        if (d.teams is None) == (d.pairs is None):
            stage.d.error(draw_raw.mark, "um sorteio registra \"teams\" ou \"pairs\", um dos dois")
            continue
        drawn = _team_draw(stage, d, draw_raw) if d.teams is not None else \
            _pair_draw(stage, d, draw_raw, pairs_in_stage)
        if drawn is None:
            continue
        members, order, ok = drawn
        if sorted(map(str, order)) != sorted(map(str, members)) or len(set(members)) != len(members):
            stage.d.error(draw_raw.vmark("order"), "order: deve conter exatamente os mesmos participantes do "
                          "sorteio, cada um uma vez", f"participantes: {', '.join(map(_show, members))}")
            ok = False
        if ok:
            out.append(DrawRecord(frozenset(members), tuple(order), d.note, draw_raw.mark))
    return out


def _team_draw(stage: StageLoader, d: S.Draw, draw_raw: MDict) -> Optional[tuple[list, list, bool]]:
    """(teams drawn, the order decided, whether every team is the stage's), or None: an order not of teams."""
    members = list(d.teams)
    ok = True
    for k, tid in enumerate(members):
        if tid not in stage.teams:
            stage.L.unknown(draw_raw["teams"].imark(k), "equipe", tid, stage.teams)
            ok = False
    order = [x for x in d.order]
    if any(not isinstance(x, str) for x in order):
        stage.d.error(draw_raw.vmark("order"), "order: deve listar ids de equipes")
        return None
    return members, order, ok


def _pair_draw(stage: StageLoader, d: S.Draw, draw_raw: MDict, pairs_in_stage: set
               ) -> Optional[tuple[list, list, bool]]:
    """(pairs drawn, the order decided, whether every pair plays in the stage), or None: an order not of pairs."""
    members = [pair_id(*p) for p in d.pairs]
    ok = True
    for k, p in enumerate(members):
        if p not in pairs_in_stage:
            stage.d.error(draw_raw["pairs"].imark(k), f"a dupla [{p[0]}, {p[1]}] não joga nesta etapa")
            ok = False
    if any(not isinstance(x, list) for x in d.order):
        stage.d.error(draw_raw.vmark("order"), "order: deve listar duplas [jogador, jogador]")
        return None
    return members, [pair_id(*x) for x in d.order], ok


def load_disqualified(stage: StageLoader, model: S.StageFile, raw: MList) -> list[Disqualified]:
    out = []
    pairs_in_stage = stage.pairs_in_stage()
    for i, d in enumerate(model.disqualified):
        entry = _disqualified(stage, d, raw[i], pairs_in_stage)
        if entry is not None:
            out.append(entry)
    return out


def _disqualified(stage: StageLoader, d: S.Disqualification, draw: MDict, pairs_in_stage: set
                  ) -> Optional[Disqualified]:
    """A disqualified team of the stage or pair of its squads, or None (reported)."""
    if (d.team is None) == (d.pair is None):
        stage.d.error(draw.mark, "uma desclassificação indica \"team\" ou \"pair\", um dos dois")
        return None
    if d.team is not None and d.team not in stage.teams:
        stage.L.unknown(draw.vmark("team"), "equipe", d.team, stage.teams)
        return None
    pair = pair_id(*d.pair) if d.pair else None
    if pair is not None and pair not in pairs_in_stage:
        stage.d.error(draw.vmark("pair"), f"a dupla [{pair[0]}, {pair[1]}] não está em nenhum elenco desta etapa")
        return None
    return Disqualified(d.team, pair, d.reason, draw.mark)


def load_override(stage: StageLoader, c: S.Classification, raw: MDict, disq: list) -> Optional[Override]:
    """The classification the organisers decided instead of the computed one: every team of the stage once,
    the disqualified ones last."""
    order = list(c.order)
    ok = _each_team_once(stage, order, raw)
    missing = [t for t in stage.teams if t not in order]
    if missing:
        stage.d.error(raw.vmark("order"), "a classificação deve listar todas as equipes da etapa; faltam: "
                      + ", ".join(missing))
        ok = False
    dq = [d.team for d in disq if d.team]
    if ok and dq and set(order[-len(dq):]) != set(dq):
        stage.d.error(raw.vmark("order"), "equipes desclassificadas ficam nos últimos lugares: "
                      + ", ".join(dq), "mova-as para o fim da lista")
        ok = False
    return Override(tuple(order), c.reason, raw.mark) if ok else None


def _each_team_once(stage: StageLoader, order: list, raw: MDict) -> bool:
    ok = True
    for k, tid in enumerate(order):
        if tid not in stage.teams:
            stage.L.unknown(raw["order"].imark(k), "equipe", tid, stage.teams)
            ok = False
        elif order.index(tid) != k:
            stage.d.error(raw["order"].imark(k), f"a equipe \"{tid}\" aparece duas vezes na classificação")
            ok = False
    return ok


def _show(x) -> str:
    return f"[{x[0]}, {x[1]}]" if isinstance(x, tuple) else str(x)
