"""The season's story on its page (issue 36): the title race of the club and pair rankings in words — the
champion once decided, otherwise the leader, who can still be champion, who cannot, the points still to play
— and each line's movement since the previous final stage. Only arranges what league.games.truco.race
computed."""
from __future__ import annotations

from typing import Any, Callable

from league.i18n import _, ngettext
from league.games.truco.race import Race

NAMED = 10   # contenders named in the summary; more are counted (the table marks every one)


def movement(moved: int | None, new: bool) -> dict | None:
    """A line's movement: the arrow shown and the words a screen reader says instead ("subiu 2")."""
    if moved is None:
        return {"mark": _("novo"), "text": _("entrou no ranking")} if new else None
    if moved > 0:
        return {"mark": "▲%d" % moved, "text": ngettext("subiu %(num)s posição", "subiu %(num)s posições",
                                                        moved) % {"num": moved}}
    if moved < 0:
        return {"mark": "▼%d" % -moved, "text": ngettext("caiu %(num)s posição", "caiu %(num)s posições",
                                                         -moved) % {"num": -moved}}
    return {"mark": "=", "text": _("manteve a posição")}


def title_state(race: Race, key) -> str:
    """champion | open (can still be champion) | out (cannot any more)."""
    if key in race.champions:
        return "champion"
    return "open" if race.outlook[key].can_still_win and not race.decided else "out"


def annotate(rows: list[dict], ranking: list, race: Race, previous_exists: bool) -> None:
    """Adds to each table line (in ranking order) its movement and its place in the title race."""
    for row, e in zip(rows, ranking):
        o = race.outlook[e.key]
        row["move"] = movement(o.movement, previous_exists)
        row["title"] = title_state(race, e.key)


def season_story(site, sr, clubs: list[dict], pairs: list[dict]) -> dict:
    """The season page's story: its club and pair table lines (in ranking order) get their movement and their
    place in the race; the summaries above the two rankings, and whether there is a movement column."""
    previous = sum(1 for r in sr.stages if r.stage.is_final) > 1
    annotate(clubs, sr.clubs, sr.club_race, previous)
    annotate(pairs, sr.pairs, sr.pair_race, previous)
    by_id = {r.stage.id: r.stage for r in sr.stages}
    return {"moves": previous,
            "club_story": story(sr.club_race, sr.clubs, by_id, site.club_name, site.club_url),
            "pair_story": story(sr.pair_race, sr.pairs, by_id, site.pair_name, site.pair_url)}


def story(race: Race, ranking: list, stages: dict, name: Callable[[Any], str], url: Callable[[Any], str]) -> dict:
    """What the summary above a ranking says (`stages`: id → Stage, for the names of the stages left)."""
    def who(entries) -> list[dict]:
        return [{"name": name(e.key), "url": url(e.key), "points": e.points} for e in entries]
    can = race.outlook
    champions = set(race.champions)
    open_ = _where(ranking, lambda e: can[e.key].can_still_win and e.position != 1)
    return {
        "stages_left": [stages[s].name for s in race.stages_left] + _unscheduled(race.unscheduled),
        "count_left": race.count_left,
        "points": race.points_available,
        "decided": race.decided,
        "early": race.decided and bool(race.stages_left),
        "champions": who(_where(ranking, lambda e: e.key in champions)),
        "leaders": who(_where(ranking, lambda e: e.position == 1)),
        "contenders": who(open_[:NAMED]),
        "more": max(0, len(open_) - NAMED),
        "out": len(_where(ranking, lambda e: not can[e.key].can_still_win)),
    }


def _where(ranking: list, test: Callable[[Any], bool]) -> list:
    return [e for e in ranking if test(e)]


def _unscheduled(n: int) -> list[str]:
    """The stages season.yaml plans that have no file yet, in words ("1 etapa ainda sem arquivo")."""
    if not n:
        return []
    return [ngettext("%(num)s etapa ainda sem arquivo", "%(num)s etapas ainda sem arquivo", n) % {"num": n}]
