"""A Truco stage known only by its final places (history, data-format.md "History: stages known only by their
results"): `final_places:` lists the clubs' teams in order, a nested list for a shared place, and nothing else
of the stage is known — no teams' squads, no matches, no pair classification. Also the `source:` address a
stage's results were published at, which any stage may give.

Read by reading.py's StageLoader; every problem goes to its diagnostics, all at once."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from league.content import schema as S
from league.content.diagnostics import SourceMark
from league.content.marked import MDict, MList
from league.content.validate import slugify
from league.models import Team

if TYPE_CHECKING:
    from league.games.truco.reading import StageLoader

# what a stage known by its final places cannot also have: it has no squads, no matches, nothing to draw
_NOT_WITH_PLACES = ("teams", "phases", "draws", "classification", "disqualified")


def check_source(stage: StageLoader, model: S.StageFile, raw: MDict) -> Optional[str]:
    """The address the stage's results were published at, shown as a link on its page: a web address only
    (never a `javascript:` or `data:` link), or None (reported)."""
    src = model.source
    if src is None:
        return None
    text = src.strip()
    if not text.lower().startswith(("https://", "http://")) or any(c.isspace() for c in text):
        stage.d.error(raw.vmark("source"), f"source: \"{src}\" não é um endereço da web",
                      "escreva o endereço completo onde os resultados foram publicados, ex.: "
                      "https://fprt.com.br/noticias/1-etapa-2025")
        return None
    return text


def read_final_places(stage: StageLoader, model: S.StageFile, raw: MDict) -> tuple[dict, tuple]:
    """The teams (id → Team, no squads) and the places (each a tuple of the team ids sharing it) of a stage
    known by its final places; reported: anything the stage cannot also have, a status other than final, an
    unknown club, a team listed twice."""
    for key in _NOT_WITH_PLACES:
        if raw.get(key):
            stage.d.error(raw.kmark(key), f"uma etapa com \"final_places\" não tem \"{key}\"",
                          "a etapa conhecida só pela classificação final não tem equipes nem jogos: apague "
                          f"\"{key}\", ou \"final_places\" se os jogos são conhecidos")
    if model.status != "final":
        stage.d.error(raw.vmark("status"), f"uma etapa com \"final_places\" está encerrada; recebido status: "
                      f"{raw.get('status')}", "use status: final (a classificação publicada é a final)")
    reader = _PlacesReader(stage)
    places = []
    praw = raw["final_places"]
    for i, entry in enumerate(model.final_places):
        if isinstance(entry, list):
            shared = [reader.team(e, praw[i], j, praw[i].imark(j)) for j, e in enumerate(entry)]
        else:
            shared = [reader.team(entry, praw, i, praw.imark(i))]
        kept = tuple(t for t in shared if t is not None)
        if kept:
            places.append(kept)
    return reader.teams, tuple(places)


class _PlacesReader:
    """The teams of final_places: a club id (the club's team, its id the club's) or {club, name} (another
    team of the club, its id made from its name), each once."""

    def __init__(self, stage: StageLoader):
        self.stage = stage
        self.teams: dict[str, Team] = {}

    def team(self, entry, container, index: int, mark: SourceMark) -> Optional[str]:
        """The id of the team one entry names, now in self.teams; None when it is wrong (reported)."""
        clubs = self.stage.league.clubs
        if isinstance(entry, S.PlacedTeam):
            written = container[index] if isinstance(container, MList) else None
            club_mark = written.vmark("club") if isinstance(written, MDict) else mark
            club, tid, name = entry.club, slugify(entry.name), entry.name
        else:
            club_mark, club, tid, name = mark, entry, entry, None
        if club not in clubs:
            self.stage.L.unknown(club_mark, "clube", club, clubs)
            return None
        if tid in self.teams:
            self.stage.d.error(mark, f"a equipe \"{tid}\" aparece duas vezes em final_places "
                               f"(linha {self.teams[tid].mark.line})",
                               "cada equipe tem um só lugar; um lugar dividido é uma lista: [clube-a, clube-b]")
            return None
        self.teams[tid] = Team(tid, club, name or clubs[club].name, (), mark)
        return tid
