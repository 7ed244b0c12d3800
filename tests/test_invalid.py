"""Every invalid example of spec/data-format.md gives its message at its file and line; all errors of a run are
reported together; the CLI exits 1; a failed build leaves the previous site alone.

Diagnostics are league.content.diagnostics.Diagnostic (mark.path, mark.line, mark.col, message, hint, level, code).
"""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from league.cli import main
from tests.truco_fixtures import content, errors, header, line_of, run, team_block

CLUBS = ["aptru", "serapio", "cc", "dd"]
PATH = "content/seasons/2026/truco/etapa-1.yaml"
OK_BOARDS = ['"12-5 12-5"'] * 3 + ['"5-12 5-12"'] * 2


def group_stage(board_items=OK_BOARDS, home="aptru", away="serapio", teams=("aptru", "serapio"),
                head: str | None = None) -> str:
    """One group match written in block style, one board per line (so each error has its own line)."""
    return (head or header()) + team_block(CLUBS) + (
        "phases:\n"
        "  - name: Fase de grupos\n"
        "    groups:\n"
        "      Grupo A:\n"
        f"        teams: [{', '.join(teams)}]\n"
        "        matches:\n"
        f"          - home: {home}\n"
        f"            away: {away}\n"
        "            boards:\n") + "".join(f"              - {b}\n" for b in board_items)


def only(diags, level: str = "error"):
    got = [d for d in diags if d.level == level]
    assert len(got) == 1, [d.format_text() for d in diags]
    return got[0]


def board_error(tmp_path, first_board: str):
    text = group_stage([first_board] + OK_BOARDS[1:])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert d.mark.path == PATH
    assert d.mark.line == line_of(text, first_board)
    assert d.mark.col == 17  # the board's value, after "              - "
    return d


# ----------------------------------------------------------------------------------- board lines

def test_invalid_board_one_game(tmp_path):
    d = board_error(tmp_path, '"12-5"')
    assert d.message == "jogo 1 (aptru × serapio): jogo incompleto: 1x0 em partidas; uma dupla precisa vencer 2"
    assert d.hint == "um jogo tem 2 ou 3 partidas"


def test_invalid_board_four_games(tmp_path):
    d = board_error(tmp_path, '"12-5 5-12 12-5 12-5"')
    assert d.message == ("jogo 1 (aptru × serapio): o jogo tem partidas demais: 4 "
                         "(uma dupla já tinha vencido 2 antes da 4ª)")


def test_invalid_board_third_game_after_2x0(tmp_path):
    d = board_error(tmp_path, '"12-5 12-5 12-5"')
    assert d.message == ("jogo 1 (aptru × serapio): o jogo tem partidas demais: 3 "
                         "(uma dupla já tinha vencido 2 antes da 3ª)")


def test_invalid_board_no_side_wins_two(tmp_path):
    d = board_error(tmp_path, '"12-5 5-12"')
    assert d.message == "jogo 1 (aptru × serapio): jogo incompleto: 1x1 em partidas; uma dupla precisa vencer 2"


def test_invalid_game_12_12(tmp_path):
    d = board_error(tmp_path, '"12-12 12-5 12-5"')
    assert d.message == ('jogo 1 (aptru × serapio): partida "12-12" impossível: empate não existe; '
                         "o vencedor tem exatamente 12 tentos e o perdedor de 0 a 11")


def test_invalid_game_13_5(tmp_path):
    d = board_error(tmp_path, '"13-5 12-5"')
    assert d.message == ('jogo 1 (aptru × serapio): partida "13-5" impossível: '
                         "o vencedor tem exatamente 12 tentos e o perdedor de 0 a 11")


def test_invalid_game_11_10(tmp_path):
    d = board_error(tmp_path, '"11-10 12-5 12-5"')
    assert d.message == ('jogo 1 (aptru × serapio): partida "11-10" impossível: '
                         "o vencedor tem exatamente 12 tentos e o perdedor de 0 a 11")


def test_invalid_board_score_in_mapping_form(tmp_path):
    # the mapping form points at its score: value
    text = group_stage(OK_BOARDS[:4] + ['{home: 5, away: 5, score: "12-5 12-12"}'])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "score:"))
    assert d.message.startswith('jogo 5 (aptru × serapio): partida "12-12" impossível')


def test_invalid_match_with_four_boards(tmp_path):
    text = group_stage(OK_BOARDS[:4])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert d.mark.path == PATH
    assert d.mark.line == line_of(text, "boards:") + 1  # the boards list
    assert d.message == "o confronto aptru × serapio tem 4 jogos; esperado 5 (item 9.1)"


def test_invalid_match_with_six_boards(tmp_path):
    text = group_stage(OK_BOARDS + ['"12-5 12-5"'])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert d.message == "o confronto aptru × serapio tem 6 jogos; esperado 5 (item 9.1)"


# ----------------------------------------------------------------------------------- pairs and players

def test_invalid_pair_playing_for_another_team(tmp_path):
    # aptru's 5th board played by a pair of serapio's squad
    text = group_stage(OK_BOARDS[:4] + ['{home: [serapio-1a, serapio-1b], away: 5, score: "12-5 12-5"}'])
    diags = errors(tmp_path, {"etapa-1": text}, CLUBS)
    line = line_of(text, "{home: [serapio-1a, serapio-1b]")
    assert [(d.mark.path, d.mark.line, d.message) for d in diags] == [
        (PATH, line, 'o jogador "serapio-1a" é da equipe "serapio", não de "aptru"'),
        (PATH, line, 'o jogador "serapio-1b" é da equipe "serapio", não de "aptru"')]
    assert diags[0].hint == "uma dupla só joga pela própria equipe"


def test_invalid_player_playing_twice_in_a_match(tmp_path):
    # squad pair 1 of aptru plays board 1 (by position) and again board 5 (by number)
    text = group_stage(OK_BOARDS[:4] + ['{home: 1, away: 5, score: "12-5 12-5"}'])
    diags = errors(tmp_path, {"etapa-1": text}, CLUBS)
    line = line_of(text, "{home: 1, away: 5")
    assert [(d.mark.path, d.mark.line, d.message) for d in diags] == [
        (PATH, line, 'o jogador "aptru-1a" já jogou o jogo 1 deste confronto'),
        (PATH, line, 'o jogador "aptru-1b" já jogou o jogo 1 deste confronto')]
    assert diags[0].hint == "cada dupla joga um só jogo por confronto"


def test_invalid_team_playing_itself(tmp_path):
    text = group_stage(away="aptru")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "away: aptru"))
    assert d.message == 'a equipe "aptru" não pode jogar contra si mesma'


def test_invalid_group_match_team_not_in_group(tmp_path):
    text = group_stage(away="cc")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "away: cc"))
    assert d.message == 'a equipe "cc" não está no Grupo A'


# ----------------------------------------------------------------------------------- knockout

def knockout_stage(rounds: list[tuple[str, str, list[tuple[str, str]]]]) -> str:
    """rounds: (name, extra line such as "for_place: 3" or "", [(home, away)]), block style, one match a line."""
    out = header() + team_block(CLUBS) + "phases:\n  - name: Mata-mata\n    knockout:\n"
    for name, extra, ms in rounds:
        out += f"      - round: {name}\n"
        if extra:
            out += f"        {extra}\n"
        out += "        matches:\n"
        for h, a in ms:
            out += f"          - {{home: {h}, away: {a}, boards: [{', '.join(OK_BOARDS)}]}}\n"
    return out


SEMIS = ("Semifinal", "", [("aptru", "serapio"), ("cc", "dd")])


def test_invalid_knockout_team_not_in_stage(tmp_path):
    text = knockout_stage([SEMIS, ("Final", "for_place: 1", [("aptru", "serapia")])])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "serapia"))
    assert re.fullmatch(r'equipe desconhecid[oa] "serapia" \(não está em teams: desta etapa\)', d.message)
    assert d.hint == 'você quis dizer "serapio"?'


def test_invalid_knocked_out_team_reappears(tmp_path):
    # serapio lost its semifinal (home aptru took 3 boards) and appears in the final
    text = knockout_stage([SEMIS, ("Final", "", [("aptru", "serapio")])])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    sf_line = line_of(text, "{home: aptru, away: serapio")
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "{home: aptru, away: serapio", nth=2))
    assert d.message == (f'a equipe "serapio" foi eliminada em "Semifinal" (linha {sf_line}) e não pode voltar '
                         "numa rodada eliminatória")


def test_invalid_knocked_out_team_in_final_for_place_1(tmp_path):
    # for_place 1 is the final, not a placement round: still an error
    text = knockout_stage([SEMIS, ("Final", "for_place: 1", [("aptru", "serapio")])])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert 'a equipe "serapio" foi eliminada em "Semifinal"' in d.message


@pytest.mark.parametrize("extra", ["for_place: 3", "places: [3, 4]"])
def test_valid_knocked_out_team_in_placement_round(tmp_path, extra):
    # the semifinal losers meet again in a third-place match or a placement bracket: allowed
    text = knockout_stage([SEMIS, ("Disputa de 3º lugar", extra, [("serapio", "dd")]),
                           ("Final", "for_place: 1", [("aptru", "cc")])])
    rep = run(tmp_path, {"etapa-1": text}, CLUBS)
    assert not [d for d in rep.diagnostics if d.level == "error"]


# ----------------------------------------------------------------------------------- unknown ids

def test_invalid_unknown_team_suggests(tmp_path):
    text = group_stage(away="serapo")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "away: serapo"))
    assert re.fullmatch(r'equipe desconhecid[oa] "serapo" \(não está em teams: desta etapa\)', d.message)
    assert d.hint == 'você quis dizer "serapio"?'


def test_invalid_unknown_team_message_agrees_in_gender(tmp_path):
    text = group_stage(away="serapo")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert d.message.startswith('equipe desconhecida "serapo"')


def test_invalid_unknown_player_suggests(tmp_path):
    text = group_stage().replace("[serapio-1a, serapio-1b]", "[serapio-1x, serapio-1b]", 1)
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "serapio-1x"))
    assert d.mark.col == text.splitlines()[d.mark.line - 1].index("serapio-1x") + 1
    assert d.message == 'jogador desconhecido "serapio-1x"'
    assert d.hint.startswith("você quis dizer ") and '"serapio-1a"' in d.hint and '"serapio-1b"' in d.hint


def test_invalid_unknown_club_of_team_suggests(tmp_path):
    text = group_stage().replace("  serapio: {pairs", "  serapio: {club: serapo, pairs", 1)
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, line_of(text, "club: serapo"))
    assert d.message == 'clube desconhecido "serapo"'
    assert d.hint == 'você quis dizer "serapio"?'


def test_invalid_unknown_host_club_suggests(tmp_path):
    text = group_stage(head=header() + "host: aptu\n")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 4, 7)
    assert d.message == 'clube anfitrião desconhecido "aptu"'
    assert d.hint == 'você quis dizer "aptru"?'


def test_invalid_unknown_club_in_players_yaml(tmp_path):
    root = content(tmp_path, {"etapa-1": group_stage()}, CLUBS, extra_players=[])
    players = root / "players.yaml"
    players.write_text(players.read_text(encoding="utf-8") + "zeca-lima: {name: Zeca Lima, club: serapi}\n",
                       encoding="utf-8")
    from league.engine.build import check
    from league.content.diagnostics import LeagueError
    with pytest.raises(LeagueError) as info:
        check(root)
    d = only(info.value.diagnostics)
    n = len(players.read_text(encoding="utf-8").splitlines())
    assert (d.mark.path, d.mark.line) == ("content/players.yaml", n)
    assert d.message == 'clube desconhecido "serapi"'
    assert d.hint == 'você quis dizer "serapio"?'


# ----------------------------------------------------------------------------------- YAML and shape

def test_invalid_unknown_key_suggests(tmp_path):
    text = group_stage().replace("status: final", "statu: final", 1)
    diags = errors(tmp_path, {"etapa-1": text}, CLUBS)
    unknown = [d for d in diags if d.code == "unknown-key"]
    assert len(unknown) == 1
    d = unknown[0]
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 3, 1)
    assert d.message == 'chave desconhecida "statu"'
    assert d.hint == 'você quis dizer "status"?'
    # and the required key it should have been is reported missing
    assert any(x.message == 'falta a chave obrigatória "status"' for x in diags)


def test_invalid_status_value_suggests(tmp_path):
    text = group_stage().replace("status: final", "status: finall", 1)
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 3, 9)
    assert d.message == ('valor inválido em status: recebido "finall" (texto); '
                         "esperado scheduled ou in_progress ou final ou agendada ou em andamento ou encerrada")
    assert d.hint == 'você quis dizer "final"?'


def test_invalid_duplicate_key(tmp_path):
    text = group_stage().replace("status: final\n", "status: final\nstatus: final\n", 1)
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 4, 1)
    assert d.message == 'chave repetida "status" (já aparece na linha 3)'


def test_invalid_tab(tmp_path):
    text = group_stage().replace("  serapio: {", "\tserapio: {", 1)
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, line_of(text, "\tserapio"), 1)
    assert d.message == "YAML inválido: caractere de tabulação (TAB) não é permitido no YAML"
    assert d.hint == "recue as linhas com espaços, não com TAB"


def test_invalid_impossible_date(tmp_path):
    text = group_stage(head=header(date="2026-02-30"))
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 2, 7)
    assert d.message == 'data inexistente "2026-02-30"'


def test_invalid_not_utf8(tmp_path):
    root = content(tmp_path, {"etapa-1": group_stage()}, CLUBS)
    f = root / "seasons" / "2026" / "truco" / "etapa-1.yaml"
    f.write_bytes(group_stage(head=header(name="Etapa São Paulo")).encode("latin-1"))
    from league.engine.build import check
    from league.content.diagnostics import LeagueError
    with pytest.raises(LeagueError) as info:
        check(root)
    d = only(info.value.diagnostics)
    # "name: Etapa São…": the byte 0xe3 (ã in Latin-1) is the 14th of line 1
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 1, 14)
    assert d.message == "o arquivo não está em UTF-8: byte 0xe3 inválido"
    assert d.hint == "salve o arquivo com a codificação UTF-8"


@pytest.mark.parametrize("text", ["", "# só um comentário\n", "\n\n"])
def test_invalid_empty_stage_file(tmp_path, text):
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line) == (PATH, 1)
    assert d.message == "o arquivo da etapa está vazio"


# ----------------------------------------------------------------------------------- a whole run

def two_broken(tmp_path):
    e1 = group_stage(['"12-12 12-5 12-5"'] + OK_BOARDS[1:])
    e2 = group_stage(head=header(name="2ª Etapa", date="2026-04-11").replace("status:", "statu:"))
    return e1, e2, content(tmp_path, {"etapa-1": e1, "etapa-2": e2}, CLUBS)


def test_invalid_all_errors_reported_together(tmp_path):
    from league.engine.build import check
    from league.content.diagnostics import LeagueError
    e1, e2, root = two_broken(tmp_path)
    with pytest.raises(LeagueError) as info:
        check(root)
    got = [(d.mark.path, d.mark.line, d.message) for d in info.value.diagnostics if d.level == "error"]
    assert (PATH, line_of(e1, "12-12"), 'jogo 1 (aptru × serapio): partida "12-12" impossível: empate não existe; '
            "o vencedor tem exatamente 12 tentos e o perdedor de 0 a 11") in got
    assert ("content/seasons/2026/truco/etapa-2.yaml", 3, 'chave desconhecida "statu"') in got
    # sorted by file, line, column
    assert got == sorted(got, key=lambda g: (g[0], g[1]))


def test_invalid_cli_check_exit_1_lists_every_error(tmp_path):
    e1, e2, root = two_broken(tmp_path)
    res = CliRunner().invoke(main, ["check", "--content", str(root)])
    assert res.exit_code == 1
    out = res.output
    assert f"{PATH}:{line_of(e1, '12-12')}:17: erro: jogo 1 (aptru × serapio): partida \"12-12\" impossível" in out
    assert "content/seasons/2026/truco/etapa-2.yaml:3:1: erro: chave desconhecida \"statu\"" in out
    assert "sugestão: você quis dizer \"status\"?" in out


def test_invalid_cli_check_github_format(tmp_path):
    e1, e2, root = two_broken(tmp_path)
    res = CliRunner().invoke(main, ["check", "--content", str(root), "--format", "github"])
    assert res.exit_code == 1
    assert f"::error file={PATH},line={line_of(e1, '12-12')},col=17::" in res.output


def test_valid_cli_check_exit_0(tmp_path):
    root = content(tmp_path, {"etapa-1": group_stage()}, CLUBS)
    res = CliRunner().invoke(main, ["check", "--content", str(root)])
    assert res.exit_code == 0, res.output


def test_invalid_build_leaves_out_dir_untouched(tmp_path):
    e1, e2, root = two_broken(tmp_path)
    out = tmp_path / "site"
    from tests.bad_input.harness import previous_site
    previous_site(out)   # a site a previous build of league wrote

    def snapshot():
        return {p.relative_to(tmp_path).as_posix(): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns)
                for p in sorted(tmp_path.rglob("*")) if "content" not in p.parts}

    before = snapshot()
    res = CliRunner().invoke(main, ["build", "--content", str(root), "--out", str(out)])
    assert res.exit_code == 1
    assert snapshot() == before  # same files, same bytes, nothing beside it
    assert "nada foi escrito" in res.output
