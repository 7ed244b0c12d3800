"""The phases of a Truco stage file (reading.py's StageLoader): groups and knockout rounds, their matches and
every board line, each checked against the stage's teams and squads, every problem reported at once.

These run once per match and once per board of a cold build: the steps are methods of objects made once per
stage, which keep what they read on every board (the teams, the settings) at hand."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from league.content import schema as S
from league.content.diagnostics import SourceMark, did_you_mean
from league.content.marked import MDict, MList
from league.content.validate import slugify
from league.games.truco.rules import parse_board_score, parse_match_result, shared_games
from league.models import Board, Group, Match, Phase, Round, TrucoConfig, pair_id

if TYPE_CHECKING:
    from league.games.truco.reading import StageLoader


def read_phases(stage: StageLoader, model: S.StageFile, raw: MList) -> list[Phase]:
    """Every phase of the stage: groups (each match between two of its teams) or knockout rounds."""
    matches = MatchReader(stage)
    knockout = _Knockout(matches)
    phases = []
    for pi, ph in enumerate(model.phases):
        praw = raw[pi]
        if (ph.groups is None) == (ph.knockout is None):
            stage.d.error(praw.mark, f"a fase \"{ph.name}\" deve ter \"groups\" ou \"knockout\" (um dos dois)")
            continue
        groups, rounds = [], []
        if ph.groups is not None:
            groups = _groups(matches, pi, ph, praw)
        else:
            rounds = [knockout.round(pi, r, praw["knockout"][ri]) for ri, r in enumerate(ph.knockout)]
        phases.append(Phase(ph.name, tuple(groups), tuple(rounds), praw.mark))
    return phases


def _groups(matches: MatchReader, pi: int, ph: S.Phase, praw: MDict) -> list[Group]:
    """A phase's groups: their teams (each in one group of the phase) and matches (between teams of the group)."""
    stage = matches.stage
    seen: dict[str, str] = {}
    groups = []
    for gname, g in ph.groups.items():
        graw = praw["groups"][gname]
        _check_group_teams(stage, g, graw, str(gname), seen)
        allowed = set(g.teams)
        played = []
        for mi, m in enumerate(g.matches):
            match = matches.load_match(m, graw["matches"][mi], pi, str(gname), None,
                                       f"{_slug(ph.name)}-{_slug(str(gname))}-{mi + 1}", allowed=allowed,
                                       scope=f"no {gname}")
            if match:
                played.append(match)
        groups.append(Group(str(gname), tuple(t for t in g.teams if t in stage.teams), tuple(played),
                            praw["groups"].kmark(gname)))
    return groups


def _check_group_teams(stage: StageLoader, g: S.Group, graw: MDict, gname: str, seen: dict[str, str]) -> None:
    """A group's teams: teams of the stage, none in two groups of the phase (`seen`: team → its group)."""
    for k, tid in enumerate(g.teams):
        mark = graw["teams"].imark(k)
        if tid not in stage.teams:
            stage.L.unknown(mark, "equipe", tid, stage.teams, " (não está em teams: desta etapa)")
        elif tid in seen:
            stage.d.error(mark, f"a equipe \"{tid}\" já está no {seen[tid]} desta fase")
        else:
            seen[tid] = gname


class _Knockout:
    """The knockout rounds of every phase, in order: their index among all the stage's rounds, the teams they
    eliminated (who may only come back to play for a place) and the places already decided."""

    def __init__(self, matches: MatchReader):
        self.matches = matches
        self.d = matches.d
        self.index = 0
        self.eliminated: dict[str, tuple[str, SourceMark]] = {}     # team → (round, mark) that eliminated it
        self.places_taken: dict[int, tuple[str, SourceMark]] = {}   # place → (team, mark) of the match deciding it

    def round(self, pi: int, r: S.Round, rraw: MDict) -> Round:
        places = tuple(r.places) if r.places else None
        _check_round(self.d, r, rraw, places)
        matches = self.round_matches(pi, r, rraw, placement=bool(r.for_place and r.for_place >= 3) or bool(places))
        if r.for_place is None and not places:
            for match in matches:
                self.eliminated.setdefault(match.loser, (r.round, match.mark))
        played = Round(self.index, r.round, r.for_place, places, tuple(matches), rraw.mark)
        self.index += 1
        return played

    def round_matches(self, pi: int, r: S.Round, rraw: MDict, placement: bool) -> list[Match]:
        """The round's matches; `placement`: it decides places (eliminated teams may play it)."""
        allowed = set(self.matches.stage.teams)
        matches = []
        for mi, m in enumerate(r.matches):
            mraw = rraw["matches"][mi]
            match = self.matches.load_match(m, mraw, pi, None, self.index, f"{_slug(r.round)}-{mi + 1}",
                                            allowed=allowed, scope="nesta etapa")
            if not match:
                continue
            matches.append(match)
            if not placement:
                self.check_not_eliminated(m, mraw)
            if r.for_place:
                self.take_places(r.for_place, match, rraw, mraw)
        return matches

    def check_not_eliminated(self, m: S.Match, mraw: MDict) -> None:
        """An eliminated team plays no further elimination round (only for a place)."""
        for tid, tmark in ((m.home, mraw.vmark("home")), (m.away, mraw.vmark("away"))):
            if tid in self.eliminated:
                rname, emark = self.eliminated[tid]
                self.d.error(tmark, f"a equipe \"{tid}\" foi eliminada em \"{rname}\" (linha "
                             f"{emark.line}) e não pode voltar numa rodada eliminatória",
                             "uma equipe eliminada só volta em disputa de colocação "
                             "(for_place ≥ 3 ou places: [A, B])")

    def take_places(self, for_place: int, match: Match, rraw: MDict, mraw: MDict) -> None:
        """The winner of a match for a place takes it, the loser the next; each place is decided once."""
        for place, tid in ((for_place, match.winner), (for_place + 1, match.loser)):
            if place in self.places_taken:
                other, omark = self.places_taken[place]
                self.d.error(rraw.vmark("for_place"), f"o {place}º lugar já foi decidido "
                             f"(\"{other}\", linha {omark.line})")
            else:
                self.places_taken[place] = (tid, mraw.mark)


def _check_round(d, r: S.Round, rraw: MDict, places: Optional[tuple]) -> None:
    """A round decides places (for_place or places, not both; places in order, one match per for_place)."""
    if r.for_place and r.places:
        d.error(rraw.mark, "uma rodada tem \"for_place\" ou \"places\", não os dois")
    if places and places[0] > places[1]:
        d.error(rraw.vmark("places"), f"places: [{places[0]}, {places[1]}]: o primeiro lugar "
                "deve vir antes do último", f"use [{places[1]}, {places[0]}]")
    if r.for_place and len(r.matches) > 1:
        d.error(rraw.vmark("for_place"), f"a disputa de {r.for_place}º lugar tem "
                f"{len(r.matches)} confrontos; deve ter um só",
                "separe as disputas em rodadas, uma por colocação")


class MatchReader:
    """A match (confronto): two teams of the stage in its group or round, and its boards — as many as the
    settings say (item 9.1) — or a walkover."""

    def __init__(self, stage: StageLoader):
        self.stage = stage
        self.d = stage.d
        self.teams = stage.teams
        self.cfg: TrucoConfig = stage.cfg
        self.boards = BoardReader(stage)

    def load_match(self, m: S.Match, raw: MDict, phase: int, group: Optional[str], rnd: Optional[int], mid: str,
                   allowed: set, scope: str) -> Optional[Match]:
        if not self.teams_ok(m, raw, allowed, scope):
            _check_scores_only(self.d, self.cfg, m, raw)  # still report impossible scores: every error at once
            return None
        if m.result is not None:
            result = _result_only(self.d, self.cfg, m, raw)
            return None if result is None else \
                Match(mid, m.home, m.away, (), None, phase, group, rnd, raw.mark, m.note, result)
        boards = _walkover_boards(self.d, self.cfg, m, raw) if m.walkover is not None else self.played_boards(m, raw)
        if boards is None:
            return None
        return Match(mid, m.home, m.away, boards, m.walkover, phase, group, rnd, raw.mark, m.note)

    def teams_ok(self, m: S.Match, raw: MDict, allowed: set, scope: str) -> bool:
        """Both teams are the stage's, in this group (or round), and not the same team."""
        ok = True
        for side in ("home", "away"):
            tid = getattr(m, side)
            if tid not in self.teams:
                self.stage.L.unknown(raw.vmark(side), "equipe", tid, self.teams, " (não está em teams: desta etapa)")
                ok = False
            elif tid not in allowed:
                self.d.error(raw.vmark(side), f"a equipe \"{tid}\" não está {scope}",
                             did_you_mean(tid, allowed) or f"equipes {scope}: {', '.join(sorted(allowed))}")
                ok = False
        if m.home == m.away:
            self.d.error(raw.vmark("away"), f"a equipe \"{m.home}\" não pode jogar contra si mesma")
            ok = False
        return ok

    def played_boards(self, m: S.Match, raw: MDict) -> Optional[tuple[Board, ...]]:
        """A match played: every board line, or None when one of them is wrong (all of them reported)."""
        if not _board_count_ok(self.d, self.cfg, m, raw):
            return None
        boards = []
        ok = True
        used: dict = {"home": {}, "away": {}}   # side → player → the board they played
        braw = raw["boards"]
        for i, b in enumerate(m.boards):
            board = self.boards.board(b, braw[i], braw.imark(i), i, m, used)
            if board is None:
                ok = False
            else:
                boards.append(board)
        return tuple(boards) if ok else None


def _result_only(d, cfg: TrucoConfig, m: S.Match, raw: MDict) -> Optional[tuple[int, int]]:
    """A match known by its team result only (history, data-format.md): "4x1", no boards, no walkover.
    # Truco 9.1 (5x0, 4x1 or 3x2)"""
    if m.boards or m.walkover is not None:
        other = "boards" if m.boards else "walkover"
        d.error(raw.vmark(other), f"o confronto {m.home} × {m.away} tem \"result\" e \"{other}\"",
                "escreva os jogos em \"boards\" quando são conhecidos, ou só o resultado em \"result\"")
        return None
    result, err, hint = parse_match_result(m.result, cfg)
    if err:
        d.error(raw.vmark("result"), f"confronto {m.home} × {m.away}: {err}", hint, code="score")
    return result


def _walkover_boards(d, cfg: TrucoConfig, m: S.Match, raw: MDict) -> Optional[tuple[Board, ...]]:
    """A match by walkover (W.O.): no boards written, each one won by the team present."""
    if m.walkover not in (m.home, m.away):
        d.error(raw.vmark("walkover"), f"walkover: \"{m.walkover}\" não é uma das equipes do confronto",
                did_you_mean(m.walkover, [m.home, m.away]) or f"use \"{m.home}\" ou \"{m.away}\"")
        return None
    if m.boards:
        d.error(raw.vmark("boards"), "um confronto por W.O. não tem jogos", "apague \"boards\" ou o \"walkover\"")
        return None
    absent = "away" if m.walkover == m.away else "home"
    return tuple(walkover_board(cfg, i + 1, None, None, absent, raw.mark) for i in range(cfg.boards))


def _board_count_ok(d, cfg: TrucoConfig, m: S.Match, raw: MDict) -> bool:
    """A match played has its boards written, as many as the settings say (item 9.1)."""
    if not m.boards:
        d.error(raw.mark, f"confronto {m.home} × {m.away} sem jogos",
                f"escreva os {cfg.boards} jogos em \"boards\", ou \"walkover: <equipe ausente>\", "
                "ou apague o confronto se ainda não foi jogado")
        return False
    if len(m.boards) != cfg.boards:
        d.error(raw.vmark("boards"), f"o confronto {m.home} × {m.away} tem {len(m.boards)} jogos; "
                f"esperado {cfg.boards} (item 9.1)",
                "um jogo por linha; a 6ª dupla entra no lugar de outra, não em um jogo a mais")
        return False
    return True


def _check_scores_only(d, cfg: TrucoConfig, m: S.Match, raw: MDict) -> None:
    """Score errors of a match whose teams could not be resolved."""
    if m.result is not None and not parse_match_result(m.result, cfg)[0]:
        _, err, hint = parse_match_result(m.result, cfg)
        d.error(raw.vmark("result"), f"confronto {m.home} × {m.away}: {err}", hint, code="score")
    braw = raw.get("boards") if isinstance(raw, MDict) else None
    for i, b in enumerate(m.boards or ()):
        text = b if isinstance(b, str) else b.score
        if text is None:
            continue
        _, err, hint = parse_board_score(text, cfg)
        if err:
            d.error(_score_mark(b, braw, i, raw), f"jogo {i + 1} ({m.home} × {m.away}): {err}", hint, code="score")


def _score_mark(b, braw, i: int, raw: MDict) -> SourceMark:
    """Where the score of the i-th board line is written: the line, or its score: key."""
    if not isinstance(braw, MList):
        return raw.mark
    if not isinstance(b, str) and isinstance(braw[i], MDict):
        return braw[i].vmark("score")
    return braw.imark(i)


class BoardReader:
    """A board line: the pair of each side (the squad's pair of the board's number, or the pair it names),
    each pair on one board per match, and the score ("12-7 9-12 12-10", or "2-1") or a walkover."""

    def __init__(self, stage: StageLoader):
        self.stage = stage
        self.d = stage.d
        self.teams = stage.teams
        self.cfg: TrucoConfig = stage.cfg

    def board(self, b, braw, mark: SourceMark, i: int, m: S.Match, used: dict) -> Optional[Board]:
        if isinstance(b, str):
            text, walkover, refs, score_mark = b, None, (None, None), mark
        elif (b.score is None) == (b.walkover is None):
            self.d.error(mark, "o jogo deve ter \"score\" (placar) ou \"walkover\" (home/away), um dos dois")
            return None
        else:
            text, walkover, refs = b.score, b.walkover, (b.home, b.away)
            score_mark = braw.vmark("score") if b.score is not None else mark
        home = self.side_pair("home", m.home, refs[0], braw, mark, i, used["home"])
        away = self.side_pair("away", m.away, refs[1], braw, mark, i, used["away"])
        if walkover:
            if home is None or away is None:
                return None
            return walkover_board(self.cfg, i + 1, home, away, walkover, mark)
        score, err, hint = parse_board_score(text, self.cfg)
        if err:
            self.d.error(score_mark, f"jogo {i + 1} ({m.home} × {m.away}): {err}", hint, code="score")
            return None
        if home is None or away is None:
            return None
        return Board(i + 1, home, away, score.games, score.home_games, score.away_games, None, mark)

    def side_pair(self, side: str, tid: str, ref, braw, mark: SourceMark, i: int, used: dict):
        """The pair that played board i + 1 for one side, or None (reported). `ref`: None (the squad's pair of
        that number), a pair's number in the squad, or the pair's two players; `used`: player → board, the
        side's so far in the match."""
        rmark = braw.vmark(side) if isinstance(braw, MDict) and side in braw else mark
        if ref is None or isinstance(ref, int):
            pair = self.numbered_pair(tid, ref, rmark, i)
        else:
            pair = _named_pair(self.stage, tid, ref, braw[side], rmark)
        if pair is None or not _plays_once(self.d, pair, used, rmark, i):
            return None
        return pair

    def numbered_pair(self, tid: str, ref: Optional[int], rmark: SourceMark, i: int):
        team = self.teams[tid]
        n = (i + 1) if ref is None else ref
        if n > len(team.pairs):
            self.d.error(rmark, f"a equipe \"{tid}\" tem {len(team.pairs)} duplas no elenco; não há dupla {n}"
                         + ("" if ref is not None else f" para o jogo {i + 1}"),
                         "confira o elenco em teams:, ou indique a dupla: {home: 1, away: 2, score: …}")
            return None
        return team.pairs[n - 1]   # (None: a pair of the squad that is wrong, reported there)


def _plays_once(d, pair, used: dict, rmark: SourceMark, i: int) -> bool:
    """Each pair plays one board of a match: its players are now in `used` (player → board) with board i + 1."""
    ok = True
    for player in pair:
        if player in used:
            d.error(rmark, f"o jogador \"{player}\" já jogou o jogo {used[player]} deste confronto",
                    "cada dupla joga um só jogo por confronto")
            ok = False
        else:
            used[player] = i + 1
    return ok


def _named_pair(stage: StageLoader, tid: str, ref: list, written, rmark: SourceMark):
    """A pair a board line names by its players ([a, b]): both in the team's squad; None (reported) if not."""
    members = [x for t2 in stage.teams.values() if t2.id == tid for p in t2.pairs if p for x in p]
    bad = False
    for j, player in enumerate(ref):
        pmark = written.imark(j) if isinstance(written, MList) else rmark
        if player not in members:
            _not_in_squad(stage, player, tid, members, pmark)
            bad = True
    return None if bad else stage.shared_pair(pair_id(ref[0], ref[1]))


def _not_in_squad(stage: StageLoader, player: str, tid: str, members: list, pmark: SourceMark) -> None:
    where = next((t2.id for t2 in stage.teams.values() for p in t2.pairs if p and player in p), None)
    if player not in stage.league.players:
        stage.L.unknown(pmark, "jogador", player, stage.league.players)
    elif where:
        stage.d.error(pmark, f"o jogador \"{player}\" é da equipe \"{where}\", não de \"{tid}\"",
                      "uma dupla só joga pela própria equipe")
    else:
        stage.d.error(pmark, f"o jogador \"{player}\" não está no elenco de \"{tid}\"",
                      did_you_mean(player, members) or "acrescente-o ao elenco em teams:")


def walkover_board(cfg: TrucoConfig, number: int, home, away, absent: str, mark: SourceMark) -> Board:
    """A board not played (`absent`: the side that did not show): the side present wins it by the settings'
    walkover games (truco.walkover_games, written from the home side's view)."""
    home_present = absent == "away"
    games = shared_games(tuple(g if home_present else (g[1], g[0]) for g in cfg.walkover_games))
    win = cfg.games_to_win
    return Board(number, home, away, games, win if home_present else 0, 0 if home_present else win, absent, mark)


_SLUGS: dict = {}   # phase, group and round names: a handful, slugified for every match id


def _slug(text: str) -> str:
    got = _SLUGS.get(text)
    if got is None:
        got = slugify(text)
        if len(_SLUGS) < 10_000:
            _SLUGS[text] = got
    return got
