"""The validated content as frozen dataclasses: what the rules and the pages work on.

Every object keeps the SourceMark of the line it was written on, so a page can link to its source
and a later check can point at it.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple, Optional

from league.content.diagnostics import SourceMark
from league.standings.criteria import PAIR_DEFAULT, QUATRILHO_DEFAULT, TEAM_DEFAULT

_tuple_new = tuple.__new__
PairId = tuple[str, str]  # the two player ids, sorted: a pair is the unordered set of its players


def pair_id(a: str, b: str) -> PairId:
    return (a, b) if a <= b else (b, a)


def pair_slug(p: PairId) -> str:
    return f"{p[0]}--{p[1]}"


@dataclass(frozen=True)
class TrucoConfig:
    boards: int = 5
    games_to_win: int = 2
    game_points: int = 12
    walkover_games: tuple[tuple[int, int], ...] = ((12, 0), (12, 0))
    team_tiebreaks: tuple[str, ...] = TEAM_DEFAULT   # (league/standings/criteria.py)
    pair_tiebreaks: tuple[str, ...] = PAIR_DEFAULT
    ranking_points: tuple = (20, 16, 12, 8, 6, 4, 3, 2)


@dataclass(frozen=True)
class QuatrilhoConfig:
    stake: int = 100
    max_players: int = 20
    max_rebuys_per_round: int = 1
    champions: int = 5
    state_qualifiers: int = 4
    tiebreaks: tuple[str, ...] = QUATRILHO_DEFAULT


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    city: Optional[str]
    mark: SourceMark
    short_name: Optional[str] = None   # a shorter name the federation's lists use (league import matches it)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    club: Optional[str]
    mark: SourceMark


_SCORE_TEXTS: dict = {}   # games → "12-5 7-12 12-9": an archive's 55,000 boards repeat a few thousand scores


def _score_text(games) -> str:
    return " ".join([f"{h}-{a}" for h, a in games])


class Board(NamedTuple):
    """One board (jogo): a home pair against an away pair, best of three games (partidas).
    (A NamedTuple, like SourceMark: an archive has tens of thousands, and a tuple is built and read back from
    the cache several times faster than a dataclass.)"""

    number: int                      # 1-based board number inside the match
    home_pair: Optional[PairId]      # None when a whole match is a walkover
    away_pair: Optional[PairId]
    games: Optional[tuple[tuple[int, int], ...]]  # None when only the result ("2-1") was written
    home_games: int
    away_games: int
    walkover: Optional[str]          # "home" | "away": the side that did not play
    mark: SourceMark

    @property
    def home_won(self) -> bool:
        return self.home_games > self.away_games

    @property
    def score_text(self) -> str:
        if self.games is None:
            return f"{self.home_games}-{self.away_games}"
        games = self.games
        if type(games) is not tuple:   # (the loader makes tuples, shared: rules.truco.shared_games)
            return _score_text(games)
        got = _SCORE_TEXTS.get(games)
        if got is None:
            got = _SCORE_TEXTS[games] = _score_text(games)
        return got

    def __reduce__(self):
        return _tuple_new, (type(self), tuple(self))   # C, not the NamedTuple's Python __new__


@dataclass(frozen=True)
class Match:
    """A team match (confronto): two teams, `boards` boards."""

    id: str                          # stable within the stage, e.g. "f1-grupo-a-3"
    home: str
    away: str
    boards: tuple[Board, ...]
    walkover: Optional[str]          # team id that did not show
    phase: int
    group: Optional[str]
    round: Optional[int]             # index of the knockout round in the stage, in order
    mark: SourceMark
    note: Optional[str] = None
    result: Optional[tuple[int, int]] = None   # (home, away) team points when only the result is known: no boards

    @cached_property
    def home_points(self) -> int:
        if self.result is not None:
            return self.result[0]
        return sum(1 for b in self.boards if b.home_games > b.away_games)

    @property
    def away_points(self) -> int:
        if self.result is not None:
            return self.result[1]
        return len(self.boards) - self.home_points

    @property
    def result_only(self) -> bool:
        """Known by its team result alone ("4x1"): its boards, pair points and pontinhos are unknown."""
        return self.result is not None

    @cached_property
    def winner(self) -> str:
        return self.home if self.home_points > self.away_points else self.away

    @property
    def loser(self) -> str:
        return self.away if self.winner == self.home else self.home

    def points_of(self, team: str) -> int:
        return self.home_points if team == self.home else self.away_points

    def opponent(self, team: str) -> str:
        return self.away if team == self.home else self.home


@dataclass(frozen=True)
class Team:
    id: str
    club: str
    name: str
    pairs: tuple[PairId, ...]
    mark: SourceMark


@dataclass(frozen=True)
class Group:
    name: str
    teams: tuple[str, ...]
    matches: tuple[Match, ...]
    mark: SourceMark


@dataclass(frozen=True)
class Round:
    index: int                       # order among all knockout rounds of the stage
    name: str
    for_place: Optional[int]
    places: Optional[tuple[int, int]]
    matches: tuple[Match, ...]
    mark: SourceMark

    @property
    def eliminates(self) -> bool:
        return self.for_place is None and self.places is None


@dataclass(frozen=True)
class Phase:
    name: str
    groups: tuple[Group, ...] = ()
    rounds: tuple[Round, ...] = ()
    mark: SourceMark = SourceMark("")


@dataclass(frozen=True)
class DrawRecord:
    """A draw (sorteio) held by the organisers and recorded in the file (Truco 10.1)."""

    members: frozenset
    order: tuple
    note: Optional[str]
    mark: SourceMark


@dataclass(frozen=True)
class Override:
    order: tuple[str, ...]
    reason: str
    mark: SourceMark


@dataclass(frozen=True)
class Disqualified:
    team: Optional[str]
    pair: Optional[PairId]
    reason: str
    mark: SourceMark


@dataclass(frozen=True)
class Stage:
    season: str
    id: str
    name: str
    date: dt.date
    host: Optional[str]
    city: Optional[str]
    status: str
    teams: dict                      # team id -> Team, in file order
    phases: tuple[Phase, ...]        # (a sequence: the build cache may read them back lazily)
    draws: tuple[DrawRecord, ...]
    override: Optional[Override]
    disqualified: tuple[Disqualified, ...]
    config: TrucoConfig
    path: str
    mark: SourceMark
    note: Optional[str] = None
    # a stage known only by its published final places (history): each place the team ids sharing it
    final_places: Optional[tuple[tuple[str, ...], ...]] = None
    source: Optional[str] = None      # where the results were published (a URL)

    @property
    def places_only(self) -> bool:
        """Known only by its final places: no matches, no pair classification."""
        return self.final_places is not None

    @property
    def matches(self) -> list[Match]:
        out = []
        for ph in self.phases:
            for g in ph.groups:
                out.extend(g.matches)
            for r in ph.rounds:
                out.extend(r.matches)
        return out

    @property
    def is_final(self) -> bool:
        return self.status == "final"


@dataclass
class Season:
    year: str
    title: str
    truco: TrucoConfig
    quatrilho: QuatrilhoConfig
    stages: list = field(default_factory=list)         # Stage, by date then id
    championships: list = field(default_factory=list)  # Quatrilho championships
    path: Optional[str] = None


@dataclass
class League:
    name: str
    short_name: str
    base_url: str
    locale: str
    repository: Optional[str]
    allow_html: bool
    truco: TrucoConfig
    quatrilho: QuatrilhoConfig
    clubs: dict
    players: dict
    seasons: list                    # Season, oldest first
    pages: list
    news: list
    content_dir: str = "content"
    # computed while loading (and kept in the cache), by the file's path (two files may give the same id)
    precomputed: dict = field(default_factory=dict)   # stage file -> StageResult
    stage_warnings: dict = field(default_factory=dict)  # stage file -> warnings about its classification
    championship_results: dict = field(default_factory=dict)  # championship file -> ChampionshipResult
