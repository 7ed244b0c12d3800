"""The rules page tells the truth (issue 36): the sections a Markdown page asks for with a line holding only
[[name]] (league.content.documents.RULE_BLOCKS), written at build time from league.yaml (each season's
overrides too) and the criteria the code applies (league.standings.explain), so they cannot go stale. The
editors' prose around them stays as they wrote it."""
from __future__ import annotations

from league import i18n
from league.content.documents import BLOCK_HTML, RULE_BLOCKS
from league.standings.explain import NAMES, PAIR_RULES, QUATRILHO_RULES, RULES


def page_parts(html: str) -> list[dict] | None:
    """A page's HTML cut at its [[name]] paragraphs: [{"block": None, "html": text} or {"block": name}]; None
    without any."""
    parts: list[dict] = []
    pos = 0
    for m in BLOCK_HTML.finditer(html):
        if m.group(1) in RULE_BLOCKS:
            parts += [{"block": None, "html": html[pos:m.start()]}, {"block": m.group(1)}]
            pos = m.end()
    return parts + [{"block": None, "html": html[pos:]}] if parts else None


def _criteria(keys, rules: dict) -> list[dict]:
    """A tiebreak order, as configured: each criterion's name and what it compares."""
    return [{"key": k, "name": NAMES.get(k, k), "rule": rules.get(k, "")} for k in keys]


def _points(table) -> list[dict]:
    return [{"place": i18n.ordinal(i + 1), "points": p} for i, p in enumerate(table)]


def rules_view(league) -> dict:
    """What the sections show: the ranking points table of league.yaml and of each season that overrides it
    (Truco 12.1), the tiebreak orders of teams (10.1), pairs (10.3, 12.2) and Quatrilho players (Art. 22)."""
    t, q = league.truco, league.quatrilho
    seasons = [{"title": s.title, "table": ", ".join(i18n.number(p) for p in s.truco.ranking_points)}
               for s in league.seasons if tuple(s.truco.ranking_points) != tuple(t.ranking_points)]
    return {
        "points": _points(t.ranking_points),
        "places": len(t.ranking_points),
        "season_points": seasons,
        "team": _criteria(t.team_tiebreaks, RULES),
        "pair": _criteria(t.pair_tiebreaks, {**RULES, **PAIR_RULES}),
        "quatrilho": _criteria(q.tiebreaks, {**RULES, **QUATRILHO_RULES}),
        "team_names": i18n.join([str(NAMES.get(k, k)) for k in t.team_tiebreaks]),
    }


def page_view(doc, league) -> dict:
    """The context of a Markdown page: the page, and its sections where it asks for any."""
    parts = page_parts(doc.html)
    return {"doc": doc, "title": doc.title, "parts": parts, "rules": rules_view(league) if parts else None}
