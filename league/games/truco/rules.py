"""What a Truco interclub result is worth: games, boards, pair points and team points.

Pure functions, each citing the regulation item it implements (truco-interclubes.txt).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

# one game's score as editors write it (also the JSON Schema's pattern for board lines: the editor flags
# what the loader refuses)
from league.content.syntax import GAME_RE as _GAME, SPACED_RE as _SPACED
from league.models import Board, Match, TrucoConfig


def parse_game(token: str) -> Optional[tuple[int, int]]:
    """(home, away) of one game's score ("12-7", "12x7", "12×7"), or None if it is not one."""
    m = _GAME.match(token)
    return (int(m.group(1)), int(m.group(2))) if m else None


_SHARED: dict = {}  # every game score and board line once: see shared_games


def shared_games(games: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The same board line (and the same game score) as one tuple, shared by every board that has it: a
    season repeats a few hundred of them over tens of thousands of boards, so the loaded stages (and their
    cached copies) hold far fewer objects. Only valid lines are kept, so the table stays small."""
    games = tuple(_SHARED.setdefault(g, g) for g in games)
    return _SHARED.setdefault(games, games)


@dataclass(frozen=True)
class ParsedScore:
    games: Optional[tuple[tuple[int, int], ...]]
    home_games: int
    away_games: int


_PARSED: dict = {}    # (text, games_to_win, game_points) -> what _parse_board_score returns
_MEMO_MAX = 100_000   # entries a memo table keeps (valid lines are far fewer; odd text is not kept forever)


def parse_board_score(text: str, cfg: TrucoConfig) -> tuple[Optional[ParsedScore], Optional[str], Optional[str]]:
    """A board line such as "12-7 9-12 12-10" (or "12x7 9x12 12x10": any separator of parse_game), or the
    result only ("2-1", "2x1").

    Returns (score, error message, hint). # Truco 10.3 (a board is won 2x0 or 2x1), decision game_points
    An archive repeats a few thousand lines over tens of thousands of boards: each is parsed once.
    """
    if not isinstance(text, str):
        return _parse_board_score(text, cfg)
    key = (text, cfg.games_to_win, cfg.game_points)
    got = _PARSED.get(key)
    if got is None:
        got = _parse_board_score(text, cfg)
        if len(_PARSED) < _MEMO_MAX:
            _PARSED[key] = got
    return got


def _parse_board_score(text: str, cfg: TrucoConfig) -> tuple[Optional[ParsedScore], Optional[str], Optional[str]]:
    """What parse_board_score returns for one line, computed: the games it writes, then the board they make."""
    pairs, problem = _games_of(text)
    if problem:
        return None, problem[0], problem[1]
    if len(pairs) == 1:
        h, a = pairs[0]
        win = cfg.games_to_win
        if max(h, a) == win and min(h, a) < win:
            return ParsedScore(None, h, a), None, None  # result only: pontinhos not written down
    return _board_of_games(pairs, cfg)


def _games_of(text: str) -> tuple[list[tuple[int, int]], Optional[tuple[str, str]]]:
    """The (home, away) score of each game the line writes, or ([], (error message, hint))."""
    tokens = text.split()
    if not tokens:
        return [], ("placar vazio", "escreva as partidas, ex.: \"12-7 9-12 12-10\"")
    pairs = []
    for tok in tokens:
        game = parse_game(tok)
        if game is None:
            return [], _unreadable(text, tok)
        pairs.append(game)
    return pairs, None


def _unreadable(text: str, tok: str) -> tuple[str, str]:
    """(error message, hint) for a token that is not a game's score."""
    if _SPACED.search(text):
        return f"placar \"{text.strip()}\" ilegível: espaço dentro de uma partida", \
            "escreva cada partida sem espaços, ex.: \"12x7 9x12 12x10\"; o espaço separa as partidas"
    return f"placar \"{tok}\" ilegível", "escreva cada partida como tentos da casa-tentos visitantes, " \
                                         "ex.: \"12-7\" ou \"12x7\", separadas por espaço"


def _board_of_games(pairs: list[tuple[int, int]], cfg: TrucoConfig
                    ) -> tuple[Optional[ParsedScore], Optional[str], Optional[str]]:
    """A board written game by game: each game possible, and it ends when a pair has won games_to_win.
    # Truco 10.3 (a board is won 2x0 or 2x1), decision game_points"""
    win = cfg.games_to_win
    hg = ag = 0
    for i, (h, a) in enumerate(pairs, 1):
        if hg == win or ag == win:
            return None, (f"o jogo tem partidas demais: {len(pairs)} (uma dupla já tinha vencido {win} "
                          f"antes da {i}ª)"), f"um jogo é melhor de {2 * win - 1}: termina quando uma dupla vence {win}"
        err = game_error(h, a, cfg)
        if err:
            return None, f"partida \"{h}-{a}\" impossível: {err}", None
        if h > a:
            hg += 1
        else:
            ag += 1
    if max(hg, ag) < win:
        return None, (f"jogo incompleto: {hg}x{ag} em partidas; uma dupla precisa vencer {win}"), \
            f"um jogo tem {win} ou {2 * win - 1} partidas"
    return ParsedScore(shared_games(tuple(pairs)), hg, ag), None, None


def game_error(h: int, a: int, cfg: TrucoConfig) -> Optional[str]:
    """Why a game score is impossible, or None. # decision truco.game_points: winner exactly 12, loser 0–11"""
    top = cfg.game_points
    if h == a:
        return f"empate não existe; o vencedor tem exatamente {top} tentos e o perdedor de 0 a {top - 1}"
    if max(h, a) != top or min(h, a) > top - 1:
        return f"o vencedor tem exatamente {top} tentos e o perdedor de 0 a {top - 1}"
    return None


def pair_points(board: Board) -> tuple[int, int]:
    """(home, away) pair points of a board. # Truco 10.3: 2x0 → 3 e 0; 2x1 → 2 e 1"""
    if board.home_won:
        return (3, 0) if board.away_games == 0 else (2, 1)
    return (0, 3) if board.home_games == 0 else (1, 2)


def pontinhos(board: Board) -> Optional[tuple[int, int]]:
    """(home, away) pontinhos (tentos) summed over the board's games; None if only the result was written.
    # Truco 10.1 "saldo dos pontinhos"
    """
    games = board.games
    if games is None:
        return None
    got = _PONTINHOS.get(games)
    if got is None:
        got = sum(h for h, _ in games), sum(a for _, a in games)
        if len(_PONTINHOS) < _MEMO_MAX:
            _PONTINHOS[games] = got
    return got


_PONTINHOS: dict = {}   # board line -> its pontinhos: the standings ask for every board many times


_RESULT = re.compile(r"^\s*([0-9]{1,4})\s*[-xX×]\s*([0-9]{1,4})\s*$")


def parse_match_result(text: str, cfg: TrucoConfig) -> tuple[Optional[tuple[int, int]], Optional[str], Optional[str]]:
    """A team match's result written alone ("4x1", "4-1", "4×1"), home first: (home, away) team points, or
    (None, error message, hint). With `boards` boards the points add up to that number and one team has more:
    5x0, 4x1 or 3x2 with 5 (either way round). # Truco 9.1"""
    m = _RESULT.match(text)
    n = cfg.boards
    possible = ", ".join(f"{n - k}x{k}" for k in range((n + 1) // 2))
    if not m:
        return None, f"resultado \"{text}\" ilegível", f"escreva os pontos da casa e os do visitante, ex.: \"{possible.split(', ')[-1]}\""
    home, away = int(m.group(1)), int(m.group(2))
    if home + away != n or home == away:
        return None, (f"resultado \"{text.strip()}\" impossível: os {n} jogos do confronto somam {n} pontos "
                      f"e uma equipe vence (item 9.1)"), f"os resultados possíveis são {possible} (ou o inverso)"
    return (home, away), None, None


def team_points(match: Match) -> tuple[int, int]:
    """(home, away) team points: one per board won, so 5x0, 4x1 or 3x2. # Truco 9.1"""
    return match.home_points, match.away_points


def walkover_games(cfg: TrucoConfig) -> tuple[tuple[int, int], ...]:
    """Game scores of a board won by walkover, for the side present. # decision truco.walkover_games"""
    return cfg.walkover_games
