"""The tables `league diff` compares: every standings table, stage classification, annual ranking and
Quatrilho classification the site publishes, read from the public JSON API (league/site/api.py), as entries
comparable across revisions."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

@dataclass
class Entry:
    key: str
    label: str
    position: int
    tied: bool
    values: dict[str, Any]           # metric → value, in the order of Table.metrics


@dataclass
class Table:
    key: tuple                       # identity across revisions
    title: str                       # section heading: "Temporada 2026 — ranking de clubes"
    where: str                       # in a line: "no ranking de clubes"
    metrics: tuple                   # ((metric, label), …); the first is the main points, shown as a delta
    entries: dict[str, Entry] = field(default_factory=dict)
    status: Optional[str] = None     # a stage's or championship's status
    status_label: str = ""           # "1ª Etapa"
    detail: bool = False             # group standings and pair tables: folded in Markdown
    ranked: bool = True              # False: a list whose order is not a ranking (state qualifiers)


def _names(league) -> tuple[dict, dict]:
    clubs = {k: c.name for k, c in league.clubs.items()}
    players = {k: p.name for k, p in league.players.items()}
    return clubs, players


def _pair_label(players: list[str], names: dict) -> str:
    return " + ".join(names.get(p, p) for p in players)


def snapshot(results) -> list[Table]:
    """Every table the site publishes, as comparable entries, in the order a reader meets them."""
    from league.site.api import quatrilho_api_files, ranking_json, stage_json
    clubs, players = _names(results.league)
    tables: list[Table] = []
    for sr in results.seasons:
        tables += _ranking_tables(sr.season.year, ranking_json(sr), clubs, players)
        for res in sr.stages:
            tables += _stage_tables(sr.season.year, res, stage_json(res), players)
        if getattr(sr, "championships", None):   # the season's Quatrilho files only (not every CSV of the site)
            tables += _quatrilho_tables(sr, quatrilho_api_files(sr), players)
    return tables


def _fill(t: Table, rows: Iterable[dict], key: Callable[[dict], str], label: Callable[[dict, str], str]) -> Table:
    """The table with an entry for each row of the JSON API: its key, its label, its place and the values of
    the table's metrics."""
    for e in rows:
        k = key(e)
        t.entries[k] = Entry(k, label(e, k), e["position"], e["tied"], {m: e[m] for m, _ in t.metrics})
    return t


def _pair_key(e: dict) -> str:
    return "--".join(e["players"])


def _ranking_tables(year: int, rk: dict, clubs: dict, players: dict) -> list[Table]:
    """The season's annual rankings: clubs, then pairs."""
    by_club = Table(("ranking", year, "clubs"), f"Temporada {year} — ranking de clubes", "no ranking de clubes",
                    (("points", "pts"),))
    by_pair = Table(("ranking", year, "pairs"), f"Temporada {year} — ranking de duplas", "no ranking de duplas",
                    (("points", "pts"),))
    return [_fill(by_club, rk["clubs"], lambda e: e["club"], lambda e, k: clubs.get(k, k)),
            _fill(by_pair, rk["pairs"], _pair_key, lambda e, k: _pair_label(e["players"], players))]


def _stage_tables(year: int, res, sj: dict, players: dict) -> list[Table]:
    """A Truco stage's tables: its classification, each group's standings, the pairs' classification."""
    st = res.stage
    teams = {tid: team.name for tid, team in st.teams.items()}
    team = (lambda e: e["team"], lambda e, k: teams.get(k, k))
    of = f"da {st.name}" if "etapa" in st.name.lower() else f"da etapa {st.name}"
    out = [_fill(Table(("stage", year, st.id, "classification"), f"{st.name} ({year}) — classificação",
                       f"na classificação {of}", (("ranking_points", "pts"),), status=st.status,
                       status_label=f"{st.name} ({year})"), sj["classification"], *team)]
    group_phases = {g.phase for g in res.groups}
    for g, gj in zip(res.groups, sj["groups"]):
        name = f"{g.name} ({g.phase})" if len(group_phases) > 1 else g.name
        t = Table(("stage", year, st.id, "group", g.phase, g.name), f"{st.name} ({year}) — {name}",
                  f"no {name} {of}" if name.lower().startswith("grupo") else f"em {name} {of}",
                  (("points", "pts"), ("wins", "vitórias"), ("pair_points_balance", "saldo de duplas"),
                   ("pontinhos_balance", "saldo de pontinhos")), detail=True)
        out.append(_fill(t, gj["standings"], *team))
    t = Table(("stage", year, st.id, "pairs"), f"{st.name} ({year}) — duplas", f"na classificação de duplas {of}",
              (("ranking_points", "pts"), ("points", "pontos de dupla"), ("wins", "vitórias"),
               ("pair_points_balance", "saldo de duplas"), ("pontinhos_balance", "saldo de pontinhos")),
              detail=True)
    out.append(_fill(t, sj["pairs"], _pair_key, lambda e, k: _pair_label(e["players"], players)))
    return out


def _quatrilho_tables(sr, api: dict, players: dict) -> list[Table]:
    """Championship classifications and state qualifiers, read from the JSON API (outputs.md)."""
    year = sr.season.year
    out = []
    for res in sr.championships:
        ch = getattr(res, "championship", res)  # a championship result, or the championship itself
        text = api.get(f"api/{year}/quatrilho/{ch.id}.json")
        if not text:
            continue
        data = json.loads(text)
        name = getattr(ch, "name", ch.id)
        where = f"no {name}" if "campeonato" in name.lower() else f"no campeonato {name}"
        t = Table(("championship", year, ch.id), f"{name} ({year}) — classificação", where,
                  (("net", "pts"), ("prize", "prêmio")), status=data.get("status"),
                  status_label=f"{name} ({year})")
        for e in data.get("classification", []):
            key = e.get("player")
            t.entries[key] = Entry(key, players.get(key, key), e["position"], e.get("tied", False),
                                   {"net": e.get("net"), "prize": e.get("prize")})
        out.append(t)
    text = api.get(f"api/{year}/quatrilho/qualifiers.json")
    if text:
        t = Table(("qualifiers", year), f"Temporada {year} — classificados ao estadual do Quatrilho",
                  "nos classificados ao estadual", (), ranked=False)
        names = {getattr(r, "championship", r).id: getattr(getattr(r, "championship", r), "name", "")
                 for r in sr.championships}
        for e in json.loads(text).get("qualifiers", []):
            key = e["player"]
            label = f"{players.get(key, key)} ({e['position']}º, {names.get(e['championship']) or e['championship']})"
            t.entries[key] = Entry(key, label, e["position"], False, {})
        out.append(t)
    return out
