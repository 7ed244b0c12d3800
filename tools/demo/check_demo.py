#!/usr/bin/env python3
"""Independent checker for the demo content: re-reads the YAML under content/ and recomputes,
without the `league` package, every group table, stage classification and pair table.

It is a development aid for `tools/demo/make_demo.py` (which imports `compute_stage` to search for
fixtures that satisfy the demo scenarios) and for a reader who wants to verify the worked examples
written as comments in the stage files. It follows /work/shared/spec/rules.md (Truco 9.1, 10.1,
10.2, 10.2.1, 10.3, 11, 12.1, 12.2) as literally as it can, and it flags as *fragile* every tie
whose outcome depends on a point that the spec leaves open (see `Fragile` below), so that the demo
season avoids them.

Usage:  python tools/demo/check_demo.py [--content content] [--stage etapa-1] [--pairs N] [-q]
Exit status 0 when the content passes, 1 otherwise.
"""
from __future__ import annotations

import argparse
import itertools
import pathlib
import re
import sys
from collections import defaultdict

import yaml

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

TRUCO_DEFAULTS = {
    "boards": 5,
    "games_to_win": 2,
    "game_points": 12,
    "walkover_games": ["12-0", "12-0"],
    "team_tiebreaks": ["wins", "points", "head_to_head", "pair_points_balance",
                       "pontinhos_balance", "draw"],
    "pair_tiebreaks": ["points", "wins", "head_to_head", "pair_points_balance",
                       "pontinhos_balance", "draw"],
    "ranking_points": [20, 16, 12, 8, 6, 4, 3, 2],
}

# How a walkover is credited to *pairs* is not written down in the spec (a team walkover names no
# pairs; a board walkover has an absent pair). The checker computes pair tables under each reading
# and the demo must be free of unresolved ties under all of them.
WALKOVER_PAIR_READINGS = ("none", "present", "both")


class ContentError(Exception):
    pass


# --------------------------------------------------------------------------- parsing

def _games_from_string(text: str, where: str, cfg: dict):
    """'12-7 9-12 12-10' -> ([(12, 7), (9, 12), (12, 10)], None); '2-1' -> (None, (2, 1))."""
    tokens = str(text).split()
    parsed = []
    for tok in tokens:
        m = re.fullmatch(r"(\d+)-(\d+)", tok)
        if not m:
            raise ContentError(f"{where}: bad game score {tok!r} in {text!r}")
        parsed.append((int(m.group(1)), int(m.group(2))))
    need = cfg["games_to_win"]
    gp = cfg["game_points"]
    if len(parsed) == 1 and max(parsed[0]) == need and min(parsed[0]) < need:
        return None, parsed[0]                       # result-only form
    if not (need <= len(parsed) <= 2 * need - 1):
        raise ContentError(f"{where}: a board has {need}..{2 * need - 1} games, got {text!r}")
    hw = aw = 0
    for i, (h, a) in enumerate(parsed):
        if not ((h == gp and 0 <= a < gp) or (a == gp and 0 <= h < gp)):
            raise ContentError(f"{where}: game {h}-{a} is not a game to {gp}")
        if hw == need or aw == need:
            raise ContentError(f"{where}: game after the board was decided in {text!r}")
        if h == gp:
            hw += 1
        else:
            aw += 1
    if max(hw, aw) != need:
        raise ContentError(f"{where}: nobody won {need} games in {text!r}")
    return parsed, (hw, aw)


def _walkover_games(cfg):
    return [tuple(int(x) for x in g.split("-")) for g in cfg["walkover_games"]]


class Board:
    __slots__ = ("home_pair", "away_pair", "games", "hg", "ag", "wo", "synthetic")

    def __init__(self, home_pair, away_pair, games, hg, ag, wo=None, synthetic=False):
        self.home_pair = home_pair      # frozenset of two player ids, or None (team walkover)
        self.away_pair = away_pair
        self.games = games              # list of (home, away) pontinhos, or None if not written
        self.hg, self.ag = hg, ag       # games won
        self.wo = wo                    # None | 'home' | 'away' : the side that did not play
        self.synthetic = synthetic      # True for the boards of a team walkover

    @property
    def home_won(self):
        return self.hg > self.ag

    def pair_points(self):
        """Item 10.3: 2x0 -> 3x0, 2x1 -> 2x1. Returns (home, away)."""
        w, l = max(self.hg, self.ag), min(self.hg, self.ag)
        win_pts, lose_pts = (3, 0) if l == 0 else (2, 1)
        return (win_pts, lose_pts) if self.home_won else (lose_pts, win_pts)

    def pontinhos(self):
        if self.games is None:
            return None
        return sum(h for h, _ in self.games), sum(a for _, a in self.games)


class Match:
    __slots__ = ("home", "away", "boards", "wo_team", "where", "round", "for_place", "places")

    def __init__(self, home, away, boards, wo_team, where):
        self.home, self.away, self.boards, self.wo_team, self.where = home, away, boards, wo_team, where
        self.round = None
        self.for_place = None
        self.places = None

    @property
    def home_boards(self):
        return sum(1 for b in self.boards if b.home_won)

    @property
    def away_boards(self):
        return len(self.boards) - self.home_boards

    @property
    def winner(self):
        return self.home if self.home_boards > self.away_boards else self.away

    @property
    def loser(self):
        return self.away if self.winner == self.home else self.home


def _pair_ref(ref, squad, team, where):
    if isinstance(ref, bool):
        raise ContentError(f"{where}: bad pair reference {ref!r}")
    if isinstance(ref, int):
        if not 1 <= ref <= len(squad):
            raise ContentError(f"{where}: {team} has no pair {ref} (squad of {len(squad)})")
        return squad[ref - 1]
    if isinstance(ref, list) and len(ref) == 2:
        p = frozenset(ref)
        if p not in squad:
            raise ContentError(f"{where}: {ref} is not a pair of {team}'s squad")
        return p
    raise ContentError(f"{where}: bad pair reference {ref!r}")


def parse_match(m, squads, cfg, where):
    for k in m:
        if k not in ("home", "away", "boards", "walkover"):
            raise ContentError(f"{where}: unknown key {k!r} in a match")
    home, away = m["home"], m["away"]
    for t in (home, away):
        if t not in squads:
            raise ContentError(f"{where}: team {t!r} is not in the stage")
    if home == away:
        raise ContentError(f"{where}: a team cannot play itself")
    if "walkover" in m:
        absent = m["walkover"]
        if absent not in (home, away):
            raise ContentError(f"{where}: walkover names {absent!r}, not a side of the match")
        if "boards" in m:
            raise ContentError(f"{where}: a walkover match has no boards")
        games = _walkover_games(cfg)
        boards = []
        for _ in range(cfg["boards"]):
            if absent == away:
                boards.append(Board(None, None, list(games), cfg["games_to_win"], 0, wo="away", synthetic=True))
            else:
                boards.append(Board(None, None, [(a, h) for h, a in games], 0, cfg["games_to_win"],
                                    wo="home", synthetic=True))
        return Match(home, away, boards, absent, where)
    lines = m.get("boards")
    if not isinstance(lines, list) or len(lines) != cfg["boards"]:
        raise ContentError(f"{where}: a match has exactly {cfg['boards']} boards")
    boards = []
    used_h, used_a = set(), set()
    for i, line in enumerate(lines, 1):
        bw = f"{where} board {i}"
        if isinstance(line, str):
            hp = _pair_ref(i, squads[home], home, bw)
            ap = _pair_ref(i, squads[away], away, bw)
            games, (hg, ag) = _games_from_string(line, bw, cfg)
            wo = None
        elif isinstance(line, dict):
            for k in line:
                if k not in ("home", "away", "score", "walkover"):
                    raise ContentError(f"{bw}: unknown key {k!r}")
            hp = _pair_ref(line["home"], squads[home], home, bw)
            ap = _pair_ref(line["away"], squads[away], away, bw)
            if "walkover" in line:
                wo = line["walkover"]
                if wo not in ("home", "away") or "score" in line:
                    raise ContentError(f"{bw}: walkover is home|away and excludes score")
                g = _walkover_games(cfg)
                if wo == "away":
                    games, hg, ag = list(g), cfg["games_to_win"], 0
                else:
                    games, hg, ag = [(a, h) for h, a in g], 0, cfg["games_to_win"]
            else:
                wo = None
                games, (hg, ag) = _games_from_string(line["score"], bw, cfg)
        else:
            raise ContentError(f"{bw}: a board is a string or a mapping, got {line!r}")
        if hp in used_h or ap in used_a:
            raise ContentError(f"{bw}: a pair plays only once per match")
        used_h.add(hp)
        used_a.add(ap)
        boards.append(Board(hp, ap, games, hg, ag, wo=wo))
    return Match(home, away, boards, None, where)


class Stage:
    def __init__(self, sid, data, cfg, where):
        self.id = sid
        self.data = data
        self.cfg = cfg
        self.where = where
        self.status = data.get("status")
        self.teams = {}          # team id -> club id
        self.names = {}          # team id -> display name or None
        self.squads = {}         # team id -> list of frozensets
        self.groups = []         # (name, [teams], [Match])
        self.rounds = []         # (name, for_place, places, [Match])
        self.draws = []          # (frozenset teams, order list)
        for tid, t in (data.get("teams") or {}).items():
            t = t or {}
            self.teams[tid] = t.get("club", tid)
            self.names[tid] = t.get("name")
            squad = []
            for p in t.get("pairs") or []:
                if len(p) != 2 or p[0] == p[1]:
                    raise ContentError(f"{where}: bad pair {p!r} in {tid}")
                squad.append(frozenset(p))
            if len(set(squad)) != len(squad):
                raise ContentError(f"{where}: repeated pair in {tid}")
            self.squads[tid] = squad
        seen = {}
        for tid, squad in self.squads.items():
            for p in squad:
                for pl in p:
                    if pl in seen:
                        raise ContentError(f"{where}: {pl} plays for {seen[pl]} and {tid}")
                    seen[pl] = tid
        for ph in data.get("phases") or []:
            if "groups" in ph:
                for gname, g in ph["groups"].items():
                    ms = [parse_match(m, self.squads, cfg, f"{where} {gname} match {i}")
                          for i, m in enumerate(g.get("matches") or [], 1)]
                    for m in ms:
                        if m.home not in g["teams"] or m.away not in g["teams"]:
                            raise ContentError(f"{m.where}: team outside the group")
                    self.groups.append((gname, list(g["teams"]), ms))
            if "knockout" in ph:
                for r in ph["knockout"]:
                    ms = [parse_match(m, self.squads, cfg, f"{where} {r['round']} match {i}")
                          for i, m in enumerate(r.get("matches") or [], 1)]
                    places = r.get("places")
                    for m in ms:
                        m.round, m.for_place, m.places = r["round"], r.get("for_place"), places
                    self.rounds.append((r["round"], r.get("for_place"), places, ms))
        for d in data.get("draws") or []:
            if set(d["teams"]) != set(d["order"]):
                raise ContentError(f"{where}: draw order must name the drawn teams")
            self.draws.append((frozenset(d["teams"]), list(d["order"])))
        self._check_knockout()

    def _check_knockout(self):
        out = set()
        for name, for_place, places, ms in self.rounds:
            placement = (for_place is not None and for_place >= 3) or places is not None
            for m in ms:
                for t in (m.home, m.away):
                    if t in out and not placement:
                        raise ContentError(f"{m.where}: {t} was knocked out before {name}")
            if for_place is None and places is None:
                out.update(m.loser for m in ms)

    def all_matches(self):
        for _, _, ms in self.groups:
            yield from ms
        for _, _, _, ms in self.rounds:
            yield from ms


# --------------------------------------------------------------------------- metrics

def team_rows(matches, teams):
    rows = {t: dict(played=0, wins=0, points=0, pair_points_balance=0, pontinhos_balance=0)
            for t in teams}
    for m in matches:
        for side, t in (("home", m.home), ("away", m.away)):
            if t not in rows:
                continue
            r = rows[t]
            r["played"] += 1
            mine = m.home_boards if side == "home" else m.away_boards
            r["points"] += mine
            r["wins"] += int(m.winner == t)
            for b in m.boards:
                hp, ap = b.pair_points()
                r["pair_points_balance"] += (hp - ap) if side == "home" else (ap - hp)
                pt = b.pontinhos()
                if pt is None or r["pontinhos_balance"] is None:
                    r["pontinhos_balance"] = None
                else:
                    r["pontinhos_balance"] += (pt[0] - pt[1]) if side == "home" else (pt[1] - pt[0])
    return rows


def team_encounters(matches):
    """(a, b, a_points, b_points) per match."""
    return [(m.home, m.away, m.home_boards, m.away_boards) for m in matches]


def pair_boards(stage, reading):
    """Yield (pair_home, pair_away, board) for every board that counts for pairs under `reading`."""
    for m in stage.all_matches():
        for i, b in enumerate(m.boards):
            if b.synthetic:
                if reading == "none":
                    continue
                hp = stage.squads[m.home][i] if i < len(stage.squads[m.home]) else None
                ap = stage.squads[m.away][i] if i < len(stage.squads[m.away]) else None
                if reading == "present":
                    if b.wo == "home":
                        hp = None
                    else:
                        ap = None
                yield hp, ap, b
            elif b.wo:
                if reading == "none":
                    continue
                hp, ap = b.home_pair, b.away_pair
                if reading == "present":
                    if b.wo == "home":
                        hp = None
                    else:
                        ap = None
                yield hp, ap, b
            else:
                yield b.home_pair, b.away_pair, b


def pair_rows_and_encounters(stage, reading):
    rows = {}
    enc = []
    team_of = {}
    for t, squad in stage.squads.items():
        for p in squad:
            team_of[p] = t
    for hp, ap, b in pair_boards(stage, reading):
        php, pap = b.pair_points()
        pt = b.pontinhos()
        for p, mine, theirs, won, my_pt, their_pt in (
                (hp, php, pap, b.home_won, pt and pt[0], pt and pt[1]),
                (ap, pap, php, not b.home_won, pt and pt[1], pt and pt[0])):
            if p is None:
                continue
            r = rows.setdefault(p, dict(played=0, wins=0, points=0, pair_points_balance=0,
                                        pontinhos_balance=0))
            r["played"] += 1
            r["wins"] += int(won)
            r["points"] += mine
            r["pair_points_balance"] += mine - theirs
            if pt is None or r["pontinhos_balance"] is None:
                r["pontinhos_balance"] = None
            else:
                r["pontinhos_balance"] += my_pt - their_pt
        if hp is not None and ap is not None:
            enc.append((hp, ap, php, pap))
    return rows, enc, team_of


# --------------------------------------------------------------------------- ranking

class Fragile(Exception):
    """A tie whose outcome depends on a reading of the spec that is not settled."""


def _h2h(group, encounters, fragile):
    """Truco 10.1 'confronto direto' per rules.md: returns ordered parts, or None (no split)."""
    gs = set(group)
    wins = defaultdict(int)
    pts = defaultdict(int)
    met = set()
    for a, b, pa, pb in encounters:
        if a in gs and b in gs:
            met.add(frozenset((a, b)))
            pts[a] += pa
            pts[b] += pb
            if pa > pb:
                wins[a] += 1
            elif pb > pa:
                wins[b] += 1
    all_pairs = {frozenset(x) for x in itertools.combinations(group, 2)}
    if not met:
        return None
    if met == all_pairs:
        key = {t: (wins[t], pts[t]) for t in group}
        parts = _partition(group, key)
        if len(parts) == 1:
            return None
        if len(group) >= 3:
            # rules.md says "rank by those wins, then those points"; whether a subgroup left tied
            # on wins is then compared on points over the whole group or restarted is open.
            wparts = _partition(group, {t: wins[t] for t in group})
            if len(wparts) > 1 and any(len(p) > 1 for p in wparts):
                fragile.append(("h2h-wins-then-points", sorted(map(str, group))))
        return parts
    # rule 3 (FIDE C.07 6.3): some never met
    unplayed = {t: sum(1 for u in group if u != t and frozenset((t, u)) not in met) for t in group}
    remaining = list(group)
    placed = []
    while len(remaining) > 1:
        top = [t for t in remaining
               if all(wins[t] > wins[u] + unplayed[u] for u in remaining if u != t)]
        if not top:
            break
        placed.append(top[0])
        remaining.remove(top[0])
    if not placed:
        return None
    fragile.append(("h2h-partial", sorted(map(str, group))))
    return [[p] for p in placed] + [remaining]


def _partition(group, key):
    vals = sorted({key[t] for t in group}, reverse=True)
    return [[t for t in group if key[t] == v] for v in vals]


def rank(entries, criteria, rows, encounters, draws=(), fragile=None):
    """Order `entries`; returns a list of (entry, decided_by, tied_with_next, unresolved_reason)."""
    if fragile is None:
        fragile = []
    used_draws = []

    def split(group, key):
        if key == "head_to_head":
            return _h2h(group, encounters, fragile), None
        if key == "draw":
            for teams, order in draws:
                if teams == frozenset(group):
                    used_draws.append(teams)
                    return [[t] for t in order], None
            return None, "draw"
        vals = {t: rows[t][key] for t in group}
        if any(v is None for v in vals.values()):
            if len(set(vals.values())) > 1 or None in vals.values():
                return None, f"{key} unknown"
        parts = _partition(group, vals)
        return (parts if len(parts) > 1 else None), None

    def order(group):
        if len(group) == 1:
            return [group], [], [None]
        reason = None
        for key in criteria:
            parts, why = split(group, key)
            if why:
                reason = why
                if why.endswith("unknown"):
                    break
            if parts is None:
                continue
            blocks, reasons, unres = [], [], []
            for k, p in enumerate(parts):
                if k > 0:
                    reasons.append(key)
                b, r, u = order(p)
                blocks += b
                reasons += r
                unres += u
            return blocks, reasons, unres
        return [group], [], [reason or "exhausted"]

    blocks, reasons, unres = order(sorted(entries, key=str))
    out = []
    for bi, block in enumerate(blocks):
        for j, t in enumerate(block):
            last_in_block = j == len(block) - 1
            if not last_in_block:
                out.append((t, None, True, unres[bi]))
            else:
                out.append((t, reasons[bi] if bi < len(reasons) else None, False,
                            unres[bi] if len(block) > 1 else None))
    return out, used_draws


def positions(ranked):
    """(entry, position, tied) with shared positions for tied blocks (1, 2, 3, 3, 3, 6)."""
    res = []
    i = 0
    while i < len(ranked):
        j = i
        while ranked[j][2]:
            j += 1
        for k in range(i, j + 1):
            res.append((ranked[k][0], i + 1, j > i))
        i = j + 1
    return res


# --------------------------------------------------------------------------- a stage

def compute_stage(stage: Stage, readings=WALKOVER_PAIR_READINGS):
    cfg = stage.cfg
    crit = cfg["team_tiebreaks"]
    res = {"groups": {}, "problems": [], "fragile": [], "classification": None, "pairs": {}}
    all_matches = list(stage.all_matches())
    group_pos = {}
    for gname, teams, ms in stage.groups:
        rows = team_rows(ms, teams)
        fr = []
        ranked, used = rank(teams, crit, rows, team_encounters(ms), stage.draws, fr)
        res["fragile"] += [(f"{gname}",) + x for x in fr]
        res["groups"][gname] = (ranked, rows)
        for i, (t, _, tied, why) in enumerate(ranked):
            group_pos[t] = (i + 1, gname)
            if (tied or why) and stage.status == "final":
                res["problems"].append(f"{gname}: unresolved tie at {t} ({why})")
    if stage.status == "final" and stage.rounds:
        res["classification"] = classify(stage, all_matches, group_pos, res)
    for reading in readings:
        rows, enc, team_of = pair_rows_and_encounters(stage, reading)
        fr = []
        ranked, _ = rank(list(rows), cfg["pair_tiebreaks"], rows, enc, (), fr)
        res["pairs"][reading] = (ranked, rows, team_of)
        res["fragile"] += [(f"pairs[{reading}]",) + x for x in fr]
        if stage.status == "final":
            for t, _, tied, why in ranked:
                if tied or why:
                    res["problems"].append(f"pairs[{reading}]: unresolved tie at "
                                           f"{'+'.join(sorted(t))} ({why})")
    return res


def classify(stage, all_matches, group_pos, res):
    crit = stage.cfg["team_tiebreaks"]
    n = len(stage.teams)
    place = {}
    elim_round = {}
    ko_teams = []
    for ri, (name, for_place, places, ms) in enumerate(stage.rounds):
        for m in ms:
            for t in (m.home, m.away):
                if t not in ko_teams:
                    ko_teams.append(t)
            if for_place is not None:
                place[m.winner] = for_place
                place[m.loser] = for_place + 1
            elif places is None:
                elim_round[m.loser] = ri
    rows = team_rows(all_matches, stage.teams)
    enc = team_encounters(all_matches)
    order = []
    # knockout teams with no placement match: by elimination round (later first), then criteria
    rest = [t for t in ko_teams if t not in place]
    by_round = defaultdict(list)
    for t in rest:
        by_round[elim_round.get(t, -1)].append(t)
    free_places = [p for p in range(1, n + 1) if p not in place.values()]
    blocks = []
    for r in sorted(by_round, reverse=True):
        blocks.append(by_round[r])
    others = [t for t in stage.teams if t not in ko_teams]
    by_pos = defaultdict(list)
    for t in others:
        by_pos[group_pos[t][0]].append(t)
    for p in sorted(by_pos):
        blocks.append(by_pos[p])
    fi = 0
    details = []
    for block in blocks:
        fr = []
        ranked, used = rank(block, crit, rows, enc, stage.draws, fr)
        res["fragile"] += [("classification",) + x for x in fr]
        for t, dec, tied, why in ranked:
            place[t] = free_places[fi]
            fi += 1
            if tied or why:
                res["problems"].append(f"classification: unresolved tie at {t} ({why})")
        details.append((block, ranked, used))
    final = sorted(place, key=lambda t: place[t])
    return {"order": final, "place": place, "rows": rows, "blocks": details}


# --------------------------------------------------------------------------- loading

def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def load_content(root: pathlib.Path):
    league = load_yaml(root / "league.yaml")
    clubs = load_yaml(root / "clubs.yaml")
    players = load_yaml(root / "players.yaml")
    problems = []
    for cid, c in clubs.items():
        if not SLUG.match(cid):
            problems.append(f"clubs.yaml: bad id {cid}")
    for pid, p in players.items():
        if not SLUG.match(pid):
            problems.append(f"players.yaml: bad id {pid}")
        if p.get("club") and p["club"] not in clubs:
            problems.append(f"players.yaml: {pid} has unknown club {p['club']}")
    seasons = {}
    for sdir in sorted((root / "seasons").iterdir()):
        cfg = dict(TRUCO_DEFAULTS)
        cfg.update((league or {}).get("truco") or {})
        sy = sdir / "season.yaml"
        if sy.exists():
            cfg.update((load_yaml(sy) or {}).get("truco") or {})
        stages = []
        for f in sorted((sdir / "truco").glob("*.yaml")):
            data = load_yaml(f)
            st = Stage(f.stem, data, cfg, str(f))
            for tid, club in st.teams.items():
                if club not in clubs:
                    problems.append(f"{f}: team {tid} has unknown club {club}")
                for p in st.squads[tid]:
                    for pl in p:
                        if pl not in players:
                            problems.append(f"{f}: unknown player {pl}")
                        elif players[pl].get("club") not in (None, club):
                            problems.append(f"{f}: {pl} is not from {club}")
            if data.get("host") and data["host"] not in clubs:
                problems.append(f"{f}: unknown host {data['host']}")
            stages.append(st)
        seasons[sdir.name] = (cfg, stages)
    return league, clubs, players, seasons, problems


def fmt_row(r):
    pb = r["pontinhos_balance"]
    return (f"J{r['played']} V{r['wins']} P{r['points']:>2} "
            f"saldo-duplas {r['pair_points_balance']:+3d} "
            f"pontinhos {'?' if pb is None else format(pb, '+d'):>5}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default="content")
    ap.add_argument("--stage")
    ap.add_argument("--pairs", type=int, default=10, help="pair rows to print per stage")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    root = pathlib.Path(args.content)
    try:
        league, clubs, players, seasons, problems = load_content(root)
    except ContentError as e:
        print(f"ERROR {e}")
        return 1
    out = (lambda *a: None) if args.quiet else print
    bad = list(problems)
    for year, (cfg, stages) in seasons.items():
        table = cfg["ranking_points"]
        club_total = defaultdict(float)
        pair_total = defaultdict(float)
        for st in stages:
            if args.stage and st.id != args.stage:
                continue
            res = compute_stage(st)
            out(f"\n=== {year} {st.id} ({st.status}) ===")
            for gname, (ranked, rows) in res["groups"].items():
                out(f"  {gname}")
                for t, pos, tied in positions(ranked):
                    dec = next(d for x, d, _, _ in ranked if x == t)
                    out(f"    {pos:>2}{'=' if tied else ' '} {t:<18} {fmt_row(rows[t])}  {dec or ''}")
            cl = res["classification"]
            if cl:
                out("  Classificação")
                for t in cl["order"]:
                    p = cl["place"][t]
                    pts = table[p - 1] if p <= len(table) else 0
                    out(f"    {p:>2} {t:<18} {fmt_row(cl['rows'][t])}  +{pts}")
                best = {}
                for t in cl["order"]:
                    c = st.teams[t]
                    best.setdefault(c, cl["place"][t])
                for c, p in best.items():
                    club_total[c] += table[p - 1] if p <= len(table) else 0
            for reading, (ranked, rows, team_of) in res["pairs"].items():
                if reading != "none":
                    continue
                out(f"  Duplas (walkover reading {reading!r}): {len(ranked)} duplas")
                for (p, pos, tied), r in zip(positions(ranked), ranked):
                    if pos > args.pairs:
                        break
                    out(f"    {pos:>2}{'=' if tied else ' '} {'+'.join(sorted(p)):<40} "
                        f"{team_of[p]:<16} {fmt_row(rows[p])}  {r[1] or ''}")
                if st.status == "final":
                    for (p, pos, tied) in positions(ranked):
                        if pos <= len(table):
                            pair_total[p] += table[pos - 1]
            for f in res["fragile"]:
                bad.append(f"{st.id}: fragile tie {f}")
            for p in res["problems"]:
                bad.append(f"{st.id}: {p}")
        out(f"\n=== {year} ranking de clubes ===")
        for c, v in sorted(club_total.items(), key=lambda x: -x[1]):
            out(f"    {c:<18} {v:g}")
        out(f"=== {year} ranking de duplas (10 primeiras) ===")
        for p, v in sorted(pair_total.items(), key=lambda x: (-x[1], sorted(x[0])))[:10]:
            out(f"    {'+'.join(sorted(p)):<40} {v:g}")
    if bad:
        print("\nPROBLEMS:")
        for b in bad:
            print("  " + b)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
