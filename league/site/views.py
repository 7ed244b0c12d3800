"""View models: what each page shows, arranged from the computed results (league.games.results) for the
templates — names, URLs, histories that cross-link clubs, teams, pairs and players, the "why" of each place.
They never compute standings."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any
from urllib.parse import urlparse

from league import i18n
from league.games.results import Results, SeasonResult, pairs_left_out
from league.standings.explain import explain, tie_text
from league.i18n import L_, _
from league.models import PairId, pair_slug
from league.games.truco.ranking import Place, StageResult
from league.games.truco.rules import pair_points
from league.games.truco.standings import went_through
from league.site import story
from league.games.truco.schedule import pending_matches
from league.site.boards import pair_games, player_games, stage_anchors, stage_boards

# interface words are lazy strings (league/i18n.py): translated for the build's locale where they are shown
STATUS = {"final": L_("encerrada"), "in_progress": L_("em andamento"), "scheduled": L_("agendada")}     # etapa
STATUS_M = {"final": L_("encerrado"), "in_progress": L_("em andamento"), "scheduled": L_("agendado")}  # campeonato
RESERVED = {"clubes", "equipes", "duplas", "jogadores", "noticias", "api", "static", "index", "busca", "pagefind",
            "embed"}
# pages that pagefind indexes (data-pagefind-body), with the kind shown beside a search result
SEARCH_KINDS = {"player.html": L_("Jogador"), "pair.html": L_("Dupla"), "club.html": L_("Clube"),
                "team.html": L_("Equipe"), "stage.html": L_("Etapa"), "championship.html": L_("Campeonato")}


def date_br(d: dt.date | None) -> str:
    """The long date in the build's locale (Babel): 14 de março de 2026 / March 14, 2026."""
    return i18n.date_long(d)


def date_short(d: dt.date | None) -> str:
    return i18n.date_short(d)


def pos_text(position: int, tied: bool) -> str:
    return i18n.position(position, tied)


def pts_text(v: Any) -> str:
    if v is None:
        return "—"
    return i18n.number(v)


class Site:
    """URLs, names and the indexes that cross-link pages (club → teams → pairs → players)."""

    def __init__(self, results: Results, boards=None):
        self.r, self.league = results, results.league
        path = urlparse(self.league.base_url).path or "/"
        self.root = path if path.endswith("/") else path + "/"
        self.team_hist: dict[str, list] = defaultdict(list)
        self.pair_hist: dict[PairId, list] = defaultdict(list)
        self.player_pairs: dict[str, set] = defaultdict(set)
        self.club_teams: dict[str, set] = defaultdict(set)
        self.team_names: dict[str, str] = {}
        self.club_hist: dict[str, list] = defaultdict(list)   # club → its teams' (season, stage, place), in order
        self._records: dict = {}
        self._pair_names: dict = {}   # locale → {pair: its name}
        self._pair_urls: dict = {}    # pair → its URL (a stage page links ~1,100 pairs)
        self._anchors: dict = {}      # stage file → its page's anchors (league.site.boards.stage_anchors)
        self._boards: dict = {}       # stage file → {pair: its boards} (league.site.boards.stage_boards)
        self._stage_boards = boards or stage_boards   # (plan_site's `boards`)
        for sr in results.seasons:
            for res in sr.stages:
                for p in res.classification:
                    team = res.stage.teams[p.key]
                    self.team_hist[p.key].append((sr, res, p))
                    self.club_hist[team.club].append((sr, res, p))
                    self.club_teams[team.club].add(p.key)
                    self.team_names[p.key] = team.name
                for p in res.pairs:
                    self.pair_hist[p.key].append((sr, res, p))
        for pair in self.pair_hist:   # in order of first appearance: the same sets, filled in the same order
            for player in pair:
                self.player_pairs[player].add(pair)

    def url(self, *parts: str) -> str:
        return self.root + "/".join(parts) + ("/" if parts else "")

    def squad_links(self, tid: str) -> list:
        """[(pair, whether it has a page)] of the squad a team's page lists: its latest stage's (a pair has a page
        when it played somewhere). team_view shows them; the page's key (PageKeys.team) follows them."""
        hist = self.team_hist.get(tid)
        if not hist:
            return []
        return [(x, x in self.pair_hist) for x in hist[-1][1].stage.teams[tid].pairs if x]

    def stage_record(self, res) -> dict:
        """stage_record(res.stage), kept for the build."""
        got = self._records.get(res.stage.path)
        if got is None:
            got = self._records[res.stage.path] = stage_record(res.stage)
        return got

    def anchors(self, stage) -> tuple[dict, dict]:
        """stage_anchors(stage), kept for the build: ({match id: anchor}, {(phase, group): anchor})."""
        got = self._anchors.get(stage.path)
        if got is None:
            got = self._anchors[stage.path] = stage_anchors(stage)
        return got

    def boards(self, stage) -> dict:
        """stage_boards(stage), kept for the build: {pair: its boards in the stage}."""
        got = self._boards.get(stage.path)
        if got is None:
            got = self._boards[stage.path] = self._stage_boards(stage)
        return got

    def season_url(self, year): return self.url(str(year))
    def stage_url(self, stage): return self.url(stage.season, "truco", stage.id)
    def club_url(self, cid): return self.url("clubes", cid)
    def team_url(self, tid): return self.url("equipes", tid)
    def pair_url(self, p) -> str:
        got = self._pair_urls.get(p)
        if got is None:
            got = self._pair_urls[p] = self.url("duplas", pair_slug(p))
        return got
    def player_url(self, pid): return self.url("jogadores", pid)

    def player_name(self, pid): return self.league.players[pid].name if pid in self.league.players else pid
    def club_name(self, cid): return self.league.clubs[cid].name if cid in self.league.clubs else cid

    def pair_name(self, p) -> str:
        locale = i18n.current()
        names = self._pair_names.get(locale)
        if names is None:
            names = self._pair_names[locale] = {}
        got = names.get(p)
        if got is None:
            got = names[p] = i18n.join([self.player_name(x) for x in p])
        return got

    def source(self, mark) -> str | None:
        repo = self.league.repository
        if not repo or mark is None:
            return None
        return f"{repo.rstrip('/')}/blob/main/{mark.path}#L{mark.line}"


def stage_record(stage) -> dict:
    """{team: [wins, losses]} in one stage's matches, in one pass (a match without a winner yet counts as
    not won): the team page's record, and part of its key (league/engine/incremental.py)."""
    got: dict = {}
    for m in stage.matches:
        for side in {m.home, m.away}:
            got.setdefault(side, [0, 0])[0 if m.winner == side else 1] += 1
    return got


def stage_news(league, stage) -> list:
    """The news posts about a stage (in the league's order): its page lists them, and they are part of its key."""
    return [n for n in league.news if n.stage == stage.id and n.season in (None, stage.season)]


# ---------------------------------------------------------------- view models

def place_how(res: StageResult, p: Place) -> str:
    """How a team got its place in a stage, in words: disqualified (and why), set by the committee, a
    placement round won or lost, the knockout round that eliminated it, its place in its group; "" else."""
    if p.disqualified:
        return _disqualified(next((d.reason for d in res.stage.disqualified if d.team == p.key), ""))
    how = _HOW.get(p.how)
    return how(res.stage, p) if how else ""


def _disqualified(reason: str) -> str:
    return _("desclassificada (%(reason)s)") % {"reason": reason} if reason else _("desclassificada")


def _by_committee(st, p: Place) -> str:
    return _("definida pela comissão")


def _by_placement(st, p: Place) -> str:
    rnd = next((r for ph in st.phases for r in ph.rounds if r.for_place and
                any(p.key in (m.home, m.away) for m in r.matches)), None)
    if not rnd:
        return _("disputa de colocação")
    won = any(m.winner == p.key for m in rnd.matches)
    return (_("%(round)s: venceu") if won else _("%(round)s: perdeu")) % {"round": rnd.name}


def _by_knockout(st, p: Place) -> str:
    elim = p.row.get("eliminated_in") if p.row else None
    rnd = next((r for ph in st.phases for r in ph.rounds if r.index == elim), None)
    return _("eliminada: %(round)s") % {"round": rnd.name} if rnd else _("mata-mata")


def _by_group(st, p: Place) -> str:
    if p.row is None or not p.row.get("group_position"):
        return ""
    gp = p.row.get("group_position")[1]
    group = next((g.name for ph in st.phases for g in ph.groups if p.key in g.teams), _("grupo"))
    return _("%(place)s no %(group)s") % {"place": i18n.ordinal(gp), "group": group}


def _by_publication(st, p: Place) -> str:
    return _("classificação publicada")


_HOW = {"override": _by_committee, "placement": _by_placement, "knockout": _by_knockout, "group": _by_group,
        "published": _by_publication}


def why(p, final: bool, what: str = "equipes", obvious: tuple = ()) -> str | None:
    """Why this line is above the next, or that it is tied; nothing when the first criterion decided
    (more wins is self-explanatory) or for the classification's own leading keys."""
    if getattr(p, "tied", False):
        return tie_text(final, True)
    if p.boundary is None or p.boundary.key in obvious or p.boundary.key in ("group_position", "eliminated_in"):
        return None
    return explain(p.boundary, what)


def match_view(site: Site, res: StageResult, m) -> dict:
    st = res.stage
    boards = []
    for b in m.boards:
        hp, ap = pair_points(b)
        boards.append({
            "number": b.number,
            "home": b.home_pair, "away": b.away_pair,
            "home_name": site.pair_name(b.home_pair) if b.home_pair else "—",
            "away_name": site.pair_name(b.away_pair) if b.away_pair else "—",
            "home_url": site.pair_url(b.home_pair) if b.home_pair else None,
            "away_url": site.pair_url(b.away_pair) if b.away_pair else None,
            "games": b.score_text if not b.walkover else "W.O.",
            "result": f"{b.home_games}x{b.away_games}",
            "home_won": b.home_won, "pp": f"{hp}–{ap}",
        })
    return {
        "id": site.anchors(st)[0][m.id], "home": m.home, "away": m.away,
        "home_name": st.teams[m.home].name, "away_name": st.teams[m.away].name,
        "home_points": m.home_points, "away_points": m.away_points, "winner": m.winner,
        "walkover": m.walkover, "walkover_name": st.teams[m.walkover].name if m.walkover else None,
        "boards": boards if not m.walkover else [], "source": site.source(m.mark), "note": m.note,
        "result_only": m.result_only,
    }


def stage_view(site: Site, sr: SeasonResult, res: StageResult) -> dict:
    st = res.stage
    return {"stage": st, "season": sr.season, "status": STATUS[st.status],
            "classification": _classification(site, res), "computed": _computed(res), "override": st.override,
            "groups": _groups(site, res), "rounds": _rounds(site, res), "pairs": _pairs(site, res),
            "draws": _draws(site, st), "host": site.club_name(st.host) if st.host else None,
            "host_url": site.club_url(st.host) if st.host else None,
            "points_table": st.config.ranking_points, "final": st.is_final, "source": site.source(st.mark),
            "disqualified": st.disqualified, "news": stage_news(site.league, st),
            "published": st.source, "published_host": urlparse(st.source).netloc if st.source else None,
            "places_only": st.places_only,
            "results_only": any(m.result_only for m in st.matches), "to_play": _to_play(site, st)}


def _place_row(res: StageResult, p: Place, what: str = "equipes") -> dict:
    """A line of a stage's classification of teams (or of pairs: what="duplas")."""
    st = res.stage
    first = st.config.team_tiebreaks[:1] if what == "equipes" else st.config.pair_tiebreaks[:1]
    return {"pos": pos_text(p.position, p.tied), "key": p.key, "points": p.points,
            "why": _tie_why(res, p) or why(p, st.is_final, what, tuple(first)), "how": place_how(res, p) if what == "equipes" else "",
            "disqualified": p.disqualified}


def _tie_why(res: StageResult, p) -> str | None:
    """A tie the data cannot break, in words: a place shared as the federation published it (history), or a
    tie a criterion could not be applied to (pontinhos or boards not written down); None for any other line."""
    if not p.tied:
        return None
    if getattr(p, "how", None) == "published":
        return _("lugar dividido")
    if any(kind == "unknown" and p.key in members for kind, _c, members, _s in res.notes):
        return _("empate que os dados registrados não desfazem — aguardando sorteio")
    return None


def _classification(site: Site, res: StageResult) -> list[dict]:
    """The stage's classification of teams, with their names, clubs and links."""
    teams = res.stage.teams
    rows = []
    for p in res.classification:
        row = _place_row(res, p)
        row.update(team=teams[p.key].name, club=site.club_name(teams[p.key].club),
                   team_url=site.team_url(p.key), club_url=site.club_url(teams[p.key].club))
        rows.append(row)
    return rows


def _computed(res: StageResult) -> list[dict] | None:
    """The classification as computed, where the committee set another (None when it did not)."""
    if not res.computed:
        return None
    return [{"pos": pos_text(p.position, p.tied), "team": res.stage.teams[p.key].name,
             "how": place_how(res, p)} for p in res.computed]


def _groups(site: Site, res: StageResult) -> list[dict]:
    """Each group's table and matches."""
    st = res.stage
    first = tuple(st.config.team_tiebreaks[:1])
    anchors = site.anchors(st)[1]
    through = went_through(st.phases)
    groups = []
    for g in res.groups:
        pi, gm = next((pi, grp) for pi, ph in enumerate(st.phases) for grp in ph.groups
                      if grp.name == g.name and ph.name == g.phase)
        ahead = through.get(g.phase) or ()
        rows = [{"pos": pos_text(r.position, r.tied), "team": st.teams[r.key].name,
                 "team_url": site.team_url(r.key), **r.row.values,
                 "why": _tie_why(res, r) or why(r, st.is_final, "equipes", first), "qualified": r.key in ahead}
                for r in g.ranked]
        groups.append({"phase": g.phase, "name": g.name, "rows": rows, "anchor": anchors[(pi, g.name)],
                       "matches": [match_view(site, res, m) for m in gm.matches]})
    return groups


def _to_play(site: Site, st) -> list[dict]:
    """The group matches an in-progress stage still has to play (games/truco/schedule.pending_matches: a
    group's round robin, less what the file has), group by group, in the order of its rounds; none for a
    stage not in progress: [{group, anchor, matches: ["ASTRA × Barigui B"]}]."""
    if st.status != "in_progress":
        return []
    anchors = site.anchors(st)[1]
    index = {id(g): (pi, g.name) for pi, ph in enumerate(st.phases) for g in ph.groups}
    out: list[dict] = []
    for p in pending_matches(st):
        key = index[id(p.group)]
        if not out or out[-1]["key"] != key:
            out.append({"key": key, "group": p.group.name, "anchor": anchors[key], "matches": []})
        out[-1]["matches"].append(_("%(home)s × %(away)s") % {"home": st.teams[p.home].name,
                                                               "away": st.teams[p.away].name})
    return out


def _rounds(site: Site, res: StageResult) -> list[dict]:
    """Every knockout and placement round, with its matches."""
    return [{"name": rnd.name, "for_place": rnd.for_place, "places": rnd.places,
             "matches": [match_view(site, res, m) for m in rnd.matches]}
            for ph in res.stage.phases for rnd in ph.rounds]


def _pairs(site: Site, res: StageResult) -> list[dict]:
    """The stage's classification of pairs, with their names, teams and links."""
    st = res.stage
    pairs = []
    for p in res.pairs:
        row = _place_row(res, p, "duplas")
        team = res.pair_team.get(p.key)
        if p.disqualified:
            row["why"] = _disqualified(_pair_disqualified_reason(st, p.key, team))
        row.update(name=site.pair_name(p.key), url=site.pair_url(p.key),
                   team=st.teams[team].name if team else "", **p.row.values)
        row["rp"] = p.points
        pairs.append(row)
    return pairs


def _pair_disqualified_reason(st, pair, team) -> str:
    """Why a pair was disqualified: its own reason, else its team's ("" when none is given)."""
    return next((d.reason for d in st.disqualified if d.pair == pair), None) or \
        next((d.reason for d in st.disqualified if d.team and d.team == team), "")


def _draws(site: Site, st) -> list[dict]:
    """The draws of the stage, their members (teams or pairs) in order."""
    return [{"members": ", ".join(st.teams[m].name if isinstance(m, str) else site.pair_name(m)
                                  for m in d.order), "note": d.note} for d in st.draws]


def season_view(site: Site, sr: SeasonResult) -> dict:
    stages = sr.stages
    final_ids = [r.stage.id for r in stages if r.stage.is_final]
    clubs = [dict(_annual_row(e), name=site.club_name(e.key), url=site.club_url(e.key)) for e in sr.clubs]
    pairs = [dict(_annual_row(e), name=site.pair_name(e.key), url=site.pair_url(e.key)) for e in sr.pairs]
    return {"season": sr.season, "sr": sr, "stages": [r.stage for r in stages], "final_ids": final_ids,
            "clubs": clubs, "pairs": pairs, **_pairs_left_out(stages), **story.season_story(site, sr, clubs, pairs)}


def _pairs_left_out(stages: list[StageResult]) -> dict:
    """The stages the season's pair ranking leaves out (known only by their final places) and those it counts
    in part (matches known by their result alone), for the sentences under it."""
    left_out, partial = pairs_left_out(stages)
    return {"pairs_left_out": [r.stage for r in left_out], "pairs_partial": [r.stage for r in partial]}


def _annual_row(e) -> dict:
    """A line of an annual ranking on the season page. Its "why" says what put it above the next line when
    the points were equal ("empate" when nothing did) — but not on a line without points: the rows with 0
    points are ordered by their places all the same (the API's decided_by says so), yet one "mais vezes em
    46º lugar" per row is noise to a reader; the page says once how they are ordered. `zero`: 0 points, the
    lines the pair ranking folds away."""
    zero = not e.points
    why = None
    if not zero:
        why = _("empate") if e.tied else (explain(e.boundary) if e.decided_by == "countback" else None)
    return {"pos": pos_text(e.position, e.tied), "points": e.points, "stages": e.stages, "places": e.places,
            "why": why, "zero": zero}


def club_view(site: Site, c) -> dict:
    by_season: dict = defaultdict(list)
    for sr, res, p in site.club_hist.get(c.id, ()):
        by_season[id(sr)].append((res, p))
    history = []
    for sr in site.r.seasons:
        season = _club_season(site, sr, c.id, by_season.get(id(sr), ()))
        if season:
            history.append(season)
    players = sorted((p for p in site.league.players.values() if p.club == c.id),
                     key=lambda p: i18n.collation_key(p.name))
    return dict(club=c, history=history, players=players, teams=sorted(site.club_teams.get(c.id, ())), title=c.name)


def _club_season(site: Site, sr: SeasonResult, cid: str, places) -> dict | None:
    """A club's season: its place in the annual ranking and its teams' places in the stages (`places`:
    (stage result, place) of its teams); None when it has neither."""
    entry = next((e for e in sr.clubs if e.key == cid), None)
    stages = [{"stage": res.stage, "team": res.stage.teams[p.key].name, "team_url": site.team_url(p.key),
               **stage_line(res, p)} for res, p in places]
    if not (entry or stages):
        return None
    return {"season": sr.season, "entry": entry, "stages": stages,
            "pos": pos_text(entry.position, entry.tied) if entry else None}


def stage_line(res: StageResult, p: Place) -> dict:
    """A team's line of a stage on its club's and its own page: position, ranking points and how. A stage
    not yet played has neither ("agendada, 21 de novembro de 2026"); one in progress has a provisional
    position and no points yet (Truco 12.1: only final stages award them)."""
    st = res.stage
    if st.status == "scheduled":
        return {"pos": "—", "points": None, "how": _("agendada, %(date)s") % {"date": date_br(st.date)}}
    how = place_how(res, p)
    if not st.is_final:
        return {"pos": pos_text(p.position, p.tied), "points": None,
                "how": _("parcial: %(how)s") % {"how": how} if how else _("parcial")}
    return {"pos": pos_text(p.position, p.tied), "points": p.points, "how": how}


def team_view(site: Site, tid: str) -> dict:
    hist = site.team_hist[tid]
    rows = []
    for sr, res, p in hist:
        wins, losses = site.stage_record(res).get(tid, (0, 0))
        record = "—" if res.stage.status == "scheduled" or not wins + losses else \
            _("%(wins)sV %(losses)sD") % {"wins": wins, "losses": losses}
        rows.append({"season": sr.season, "stage": res.stage, **stage_line(res, p), "record": record})
    team = hist[-1][1].stage.teams[tid]
    squad = [(site.pair_name(x), site.pair_url(x) if page else None) for x, page in site.squad_links(tid)]
    return dict(team=team, club_name=site.club_name(team.club), club_url=site.club_url(team.club), rows=rows,
                squad=squad, title=team.name)


def pair_view(site: Site, pair, annual_hist) -> dict:
    rows = []
    for sr, res, p in site.pair_hist[pair]:
        team = res.pair_team.get(pair)
        rows.append({"season": sr.season, "stage": res.stage, "pos": pos_text(p.position, p.tied),
                     "team": res.stage.teams[team].name if team else "",
                     "team_url": site.team_url(team) if team else None, **p.row.values,
                     "rp": p.points if res.stage.is_final else None, "url": site.stage_url(res.stage)})
    annual = [{"season": sr.season, "pos": pos_text(e.position, e.tied), "points": e.points}
              for sr, e in annual_hist]
    return dict(pair=pair, name=site.pair_name(pair), players=[(site.player_name(x), site.player_url(x)) for x in pair],
                rows=rows, annual=annual, title=site.pair_name(pair), games=pair_games(site, pair))


def player_view(site: Site, pl) -> dict:
    pairs = []
    stages = []   # both tables in one pass over each pair's stages
    for pair in site.player_pairs.get(pl.id, ()):
        partner = pair[0] if pair[1] == pl.id else pair[1]
        partner_name = site.player_name(partner)
        url = site.pair_url(pair)
        hist = site.pair_hist[pair]
        points = Decimal(0)
        for sr, res, p in hist:
            points += p.points
            team = res.pair_team.get(pair)
            stage = res.stage
            stages.append({"season": sr.season, "stage": stage, "url": site.stage_url(stage), "partner": partner_name,
                           "pos": pos_text(p.position, p.tied), "points": p.points if stage.is_final else None,
                           "pair_url": url, "team": stage.teams[team].name if team else ""})
        pairs.append(((site.pair_name(pair), pair), {"url": url, "partner": partner_name,
                      "partner_url": site.player_url(partner), "stages": len(hist), "points": points}))
    pairs.sort(key=lambda e: e[0])
    pairs = [e[1] for e in pairs]
    stages.sort(key=lambda s: (s["stage"].date, s["stage"].id))
    from league.games.quatrilho.views import history
    return dict(player=pl, club_name=site.club_name(pl.club) if pl.club else None,
                club_url=site.club_url(pl.club) if pl.club else None, pairs=pairs, stages=stages,
                title=pl.name, quatrilho=history(site, pl.id), games=player_games(site, pl.id))
