"""`league sumulas SEASON STAGE` (issue 35, item 3): a scoresheet (súmula, Truco item 8) for every group match
of a stage with no result in its file yet, in the file's order, laid out as the file takes it back; nothing
written when every match has its result; unknown season or stage: a usage error with suggestions."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from league.cli import main
from league.games.truco.schedule import pending_matches, round_robin
from tests.util import LEAGUE, ROOT, squad, write_content


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# ---------------------------------------------------------------- the matches still to be played

def test_round_robin_of_four_teams_by_the_circle_method():
    # a stays and meets b, c, d in turn; the others turn around it: round 1 a-b and c-d, round 2 a-c and
    # d-b, round 3 a-d and b-c (the order the demo's etapa-5 lists its matches "A disputar" in)
    assert round_robin(["a", "b", "c", "d"]) == [[("a", "b"), ("c", "d")], [("a", "c"), ("d", "b")],
                                                 [("a", "d"), ("b", "c")]]


def test_round_robin_of_three_teams_rests_one_team_each_round():
    # odd: all three turn, the one facing the empty seat rests: a rests (b-c), then b (c-a), then c (a-b)
    assert round_robin(["a", "b", "c"]) == [[("b", "c")], [("c", "a")], [("a", "b")]]
    assert round_robin(["a"]) == [] and round_robin([]) == []


@pytest.mark.parametrize("n", range(2, 11))
def test_round_robin_meets_every_two_teams_once_and_each_team_once_a_round(n):
    teams = [f"t{i}" for i in range(n)]
    rounds = round_robin(teams)
    met = [frozenset(p) for r in rounds for p in r]
    assert len(met) == len(set(met)) == n * (n - 1) // 2          # C(n, 2) matches, none twice
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)             # n−1 rounds, or n with one team resting
    for r in rounds:
        playing = [t for p in r for t in p]
        assert len(playing) == len(set(playing)) == 2 * (n // 2)   # everyone plays once, but the one resting


STAGE = """\
name: 2ª Etapa
date: 2026-04-18
host: aa
city: Curitiba
status: in_progress
teams: {{aa: {aa}, bb: {bb}, cc: {cc}}}
phases:
  - name: Fase de grupos
    groups:
      Grupo Único:
        teams: [aa, bb, cc]
        matches:
          - {{home: aa, away: bb, boards: ["12-5 12-5", "12-5 12-5", "5-12 5-12"]}}
"""


@pytest.fixture
def content(tmp_path):
    """Three teams in one group, three boards a match; aa × bb played (line 13), aa has a reserve 4th pair."""
    text = STAGE.format(aa=squad("aa", 4), bb=squad("bb", 3), cc=squad("cc", 3))
    return write_content(tmp_path, {"etapa-2": text}, clubs=["aa", "bb", "cc"], pairs_per_team=4,
                         league=LEAGUE + "truco: {boards: 3}\n")


def _stage(content, sid="etapa-2"):
    from league.engine.loader import load
    league, _ = load(content)
    return league, next(s for s in league.seasons[0].stages if s.id == sid)


def test_pending_are_the_group_pairings_not_in_the_file_in_round_order(content):
    # [aa, bb, cc] by the circle method: round 1 bb-cc, round 2 cc-aa, round 3 aa-bb (played): two left
    _, stage = _stage(content)
    assert [(p.group.name, p.round, p.home, p.away, p.after.mark.line) for p in pending_matches(stage)] == [
        ("Grupo Único", 1, "bb", "cc", 13), ("Grupo Único", 2, "cc", "aa", 13)]


def test_a_match_played_with_home_and_away_swapped_is_not_pending(content):
    path = content / "seasons" / "2026" / "truco" / "etapa-2.yaml"
    path.write_text(path.read_text(encoding="utf-8") + '          - {home: aa, away: cc, boards: '
                    '["12-5 12-5", "12-5 12-5", "5-12 5-12"]}\n', encoding="utf-8")
    _, stage = _stage(content)
    # the circle method's c-a was played as aa × cc (line 14): only bb × cc is left
    assert [(p.home, p.away, p.after.mark.line) for p in pending_matches(stage)] == [("bb", "cc", 14)]


def test_a_disqualified_team_and_a_final_stage_have_no_pending_match(content):
    path = content / "seasons" / "2026" / "truco" / "etapa-2.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "disqualified:\n  - {team: cc, reason: Item 4.12}\n", encoding="utf-8")
    _, stage = _stage(content)
    assert pending_matches(stage) == []          # both matches left were cc's (Truco 4.12)
    path.write_text(text.replace("status: in_progress", "status: final"), encoding="utf-8")
    _, stage = _stage(content)
    assert pending_matches(stage) == []          # a final stage is over


def test_the_demo_stage_in_progress_has_the_matches_its_comments_list():
    # content/seasons/2026/truco/etapa-5.yaml: "# A disputar: ASTRA x Barigui B." above Grupo A, and so on
    _, stage = _stage(ROOT / "content", "etapa-5")
    assert [(p.group.name, p.home, p.away) for p in pending_matches(stage)] == [
        ("Grupo A", "astra", "barigui-b"), ("Grupo B", "princesa", "pe-vermelho"),
        ("Grupo B", "beira-rio", "heranca-gaucha"), ("Grupo C", "tropeiros", "siqueirense"),
        ("Grupo D", "barigui", "cidade-alta"), ("Grupo D", "tres-fronteiras", "campestre-toledo")]
    text = (ROOT / "content" / "seasons" / "2026" / "truco" / "etapa-5.yaml").read_text(encoding="utf-8")
    assert re.findall(r"# A disputar: (.*)\.", text) == [
        "ASTRA x Barigui B", "Princesa x Pé Vermelho, Beira-Rio x Herança Gaúcha", "Tropeiros x Siqueirense",
        "Barigui x Cidade Alta, Três Fronteiras x Campestre"]


# ---------------------------------------------------------------- the sheets

class Blocks(HTMLParser):
    """The text of every paragraph, heading and table cell of each sheet, in order, spaces collapsed."""

    LEAVES = {"p", "h2", "th", "td", "caption"}

    def __init__(self):
        super().__init__()
        self.sheets: list[list[str]] = []
        self.buf: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "section" and ("class", "sheet") in attrs:
            self.sheets.append([])
        elif tag in self.LEAVES and self.sheets:
            self.buf = []
        elif tag == "br" and self.buf is not None:
            self.buf.append(" ")

    def handle_endtag(self, tag):
        if tag in self.LEAVES and self.buf is not None:
            self.sheets[-1].append(" ".join("".join(self.buf).split()))
            self.buf = None

    def handle_data(self, data):
        if self.buf is not None:
            self.buf.append(data)


def sheets_of(html: str) -> list[list[str]]:
    parser = Blocks()
    parser.feed(html)
    return parser.sheets


HINT = ('Se uma reserva jogar, risque a dupla e escreva o número dela no quadrado: no arquivo, {home: 6, away: 4, '
        'score: "12-7 9-12 12-10"}. W.O. num jogo: {walkover: home} ou {walkover: away}, o lado que não jogou. '
        'Partidas anotadas como "12-7 9-12 12-10".')
TAIL = ["Observações (rasura: observação no verso, assinada por um jogador das duplas — item 8.3):"]
RULES = ("Item 8.1: os pontos são anotados e confirmados pelas duplas adversárias. Item 8.2: a equipe vencedora "
         "devolve a súmula preenchida e assinada à mesa organizadora.")


GROUP = ("Fase de grupos (linha 8) › Grupo Único (linha 10) › matches:, depois do último confronto (linha 13, "
         "aa × bb)")


def expected_sheet(n, rnd, home, away, reserves, where=GROUP, total=2):
    """A sheet of the fixture: teams "Clube XX", players "Jogador xx-ia"; 3 boards of up to 3 games (best of
    three, games_to_win 2) to 12; a group match goes under Fase de grupos (line 8), Grupo Único (line 10),
    after aa × bb (line 13)."""
    h, a = f"Clube {home.upper()}", f"Clube {away.upper()}"
    rows = []
    for b in (1, 2, 3):   # board b: squad pair b of each side (Truco: pair i plays board i)
        rows += [str(b), f"{b} Jogador {home}-{b}a / Jogador {home}-{b}b",
                 f"{b} Jogador {away}-{b}a / Jogador {away}-{b}b", "×", "×", "×", "casa visitante"]
    return [
        "Federação de Teste (FT)",
        "Súmula — 2ª Etapa",
        "18 de abril de 2026 · Curitiba · sede: Clube AA · " + (f"Fase de grupos · Grupo Único · {rnd}ª rodada"
                                                               if rnd else "Fase final"),
        f"Súmula {n} de {total}. Lançar em content/seasons/2026/truco/etapa-2.yaml › {where} - home: {home} "
        f"away: {away} boards:",
        f"home: {h}", "×", f"away: {a}",
        f"walkover: W.O. da equipe (não compareceu; no lugar de boards): {h} {a}",
        "boards: um jogo por linha, na ordem das mesas; em cada partida, os tentos da casa primeiro. Partidas de 12 "
        "tentos; o jogo acaba quando uma dupla vence 2.",
        f"Jogos de {h} x {a}",
        "Jogo", "Dupla da casa", "Dupla visitante", "1ª partida", "2ª partida", "3ª partida",
        "W.O. no jogo",
        *rows,
        f"Reservas: {h}: {reserves[0]} · {a}: {reserves[1]}.",
        HINT,
        f"Resultado em jogos vencidos (item 9.1): {h} × {a}",
        *TAIL,
        f"Capitão — {h}", f"Capitão — {a}", "Fiscal / árbitro",
        RULES,
    ]


def test_sumulas_writes_one_sheet_per_pending_match_exactly(content, tmp_path):
    out = tmp_path / "kit" / "etapa-2.html"
    res = run("sumulas", "2026", "etapa-2", "--content", content, "--out", out)
    assert res.exit_code == 0, res.output
    assert res.output == (f'etapa "2ª Etapa": 2 súmula(s) em {out}; abra no navegador e imprima em A4, uma por '
                          "página.\n  1. Grupo Único, 1ª rodada: Clube BB × Clube CC\n"
                          "  2. Grupo Único, 2ª rodada: Clube CC × Clube AA\n")
    sheets = sheets_of(out.read_text(encoding="utf-8"))
    # bb × cc first (round 1), then cc × aa (round 2); aa's 4th pair is its reserve, bb and cc have none
    assert sheets == [expected_sheet(1, 1, "bb", "cc", ("—", "—")),
                      expected_sheet(2, 2, "cc", "aa", ("—", "4 Jogador aa-4a / Jogador aa-4b"))]


def test_sumulas_is_deterministic_and_goes_to_a_folder_or_the_current_one(content, tmp_path, monkeypatch):
    folder = tmp_path / "kit"
    folder.mkdir()
    assert run("sumulas", "2026", "etapa-2", "--content", content, "--out", folder).exit_code == 0
    first = (folder / "sumulas-2026-etapa-2.html").read_bytes()
    monkeypatch.chdir(tmp_path)
    assert run("sumulas", "2026", "etapa-2", "--content", "content").exit_code == 0
    assert (tmp_path / "sumulas-2026-etapa-2.html").read_bytes() == first   # same files → same bytes


def test_sumulas_escapes_names(tmp_path):
    text = STAGE.format(aa=squad("aa", 3), bb=squad("bb", 3), cc=squad("cc", 3))
    content = write_content(tmp_path, {"etapa-2": text}, clubs=["aa", "bb", "cc"], pairs_per_team=3,
                            league=LEAGUE + "truco: {boards: 3}\n")
    clubs = content / "clubs.yaml"
    clubs.write_text(clubs.read_text(encoding="utf-8").replace("Clube BB", "\"<b>B&B</b>\""), encoding="utf-8")
    out = tmp_path / "s.html"
    assert run("sumulas", "2026", "etapa-2", "--content", content, "--out", out).exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert "<b>B&B</b>" not in html and "&lt;b&gt;B&amp;B&lt;/b&gt;" in html


def test_nothing_pending_says_so_and_writes_nothing(content, tmp_path):
    path = content / "seasons" / "2026" / "truco" / "etapa-2.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n".join(
        f'          - {{home: {h}, away: {a}, boards: ["12-5 12-5", "12-5 12-5", "5-12 5-12"]}}'
        for h, a in (("bb", "cc"), ("cc", "aa"))) + "\n", encoding="utf-8")
    out = tmp_path / "s.html"
    res = run("sumulas", "2026", "etapa-2", "--content", content, "--out", out)
    assert res.exit_code == 0
    assert res.output == ('etapa "2ª Etapa": todos os confrontos dos grupos já têm resultado no arquivo; '
                          "nenhuma súmula escrita.\n")
    assert not out.exists()


def test_the_demo_final_and_scheduled_stages_have_no_sheet(tmp_path):
    res = run("sumulas", "2026", "etapa-1", "--content", ROOT / "content", "--out", tmp_path)
    assert res.exit_code == 0 and res.output == ('etapa "1ª Etapa" encerrada (status: final): todos os confrontos '
                                                 "têm resultado; nenhuma súmula escrita.\n")
    res = run("sumulas", "2026", "etapa-6", "--content", ROOT / "content", "--out", tmp_path)
    assert res.exit_code == 0 and "ainda sem grupos no arquivo" in res.output
    assert list(tmp_path.iterdir()) == []


def test_unknown_season_or_stage_is_a_usage_error_with_suggestions(content):
    res = run("sumulas", "2025", "etapa-2", "--content", content)
    assert res.exit_code == 2
    assert (f'Invalid value for SEASON: temporada "2025" não encontrada em {content}/seasons/; você quis dizer '
            '"2026"?') in res.output
    res = run("sumulas", "2026", "etapa2", "--content", content)
    assert res.exit_code == 2
    assert f'etapa "etapa2" não encontrada em {content}/seasons/2026/truco/; você quis dizer "etapa-2"?' in res.output
    res = run("sumulas", "2026", "final", "--content", content)
    assert res.exit_code == 2 and "; etapas de 2026: etapa-2" in res.output


def test_a_stage_file_with_errors_is_listed_at_its_lines(content, tmp_path):
    path = content / "seasons" / "2026" / "truco" / "etapa-2.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("teams: [aa, bb, cc]", "teams: [aa, bb, dd]"),
                    encoding="utf-8")
    out = tmp_path / "s.html"
    res = run("sumulas", "2026", "etapa-2", "--content", content, "--out", out)
    assert res.exit_code == 1
    assert "content/seasons/2026/truco/etapa-2.yaml:11:" in res.output and '"dd"' in res.output
    assert res.output.rstrip().endswith("corrija o arquivo da etapa (league check) antes de imprimir as súmulas")
    assert not out.exists()


def test_the_sheets_follow_the_boards_setting(tmp_path):
    # five boards (the default, item 9.1): five rows; a pair missing from a squad leaves its row blank
    text = STAGE.format(aa=squad("aa", 5), bb=squad("bb", 4), cc=squad("cc", 5)).replace(
        '{home: aa, away: bb, boards: ["12-5 12-5", "12-5 12-5", "5-12 5-12"]}',
        '{home: aa, away: cc, boards: ["12-5 12-5", "12-5 12-5", "5-12 5-12", "12-5 12-5", "5-12 5-12"]}')
    content = write_content(tmp_path, {"etapa-2": text}, clubs=["aa", "bb", "cc"])
    out = tmp_path / "s.html"
    assert run("sumulas", "2026", "etapa-2", "--content", content, "--out", out).exit_code == 0
    first = sheets_of(out.read_text(encoding="utf-8"))[0]        # bb × cc: bb has 4 pairs
    rows = first[first.index("W.O. no jogo") + 1:first.index("W.O. no jogo") + 1 + 5 * 7]
    assert rows[0::7] == ["1", "2", "3", "4", "5"]
    assert rows[1::7] == [f"{b} Jogador bb-{b}a / Jogador bb-{b}b" for b in (1, 2, 3, 4)] + [""]


def test_sumulas_is_listed_in_the_help():
    assert "sumulas" in run("--help").output
    assert "Súmulas para imprimir" in run("sumulas", "--help").output


def test_the_template_is_compiled_by_the_site_environment():
    # every template under templates/ is compiled by a build (league.site.render.prepare_env)
    from league.site.render import prepare_env
    env = prepare_env(ROOT / "templates", "pt_BR")
    assert env.get_template("sumulas.html") is not None




# ---------------------------------------------------------------- --match: the matches the organisers name

KNOCKOUT = """\
  - name: Fase final
    knockout:
      - round: Final
        for_place: 1
        matches: []
"""


def test_match_names_a_knockout_match_typed_in_the_knockout_phase(content, tmp_path):
    path = content / "seasons" / "2026" / "truco" / "etapa-2.yaml"
    path.write_text(path.read_text(encoding="utf-8") + KNOCKOUT, encoding="utf-8")   # "Fase final" at line 14
    out = tmp_path / "final.html"
    res = run("sumulas", "2026", "etapa-2", "--content", content, "--out", out, "--match", "bb:aa",
              "--match", "bb:cc")
    assert res.exit_code == 0, res.output
    assert res.output.endswith("  1. mata-mata: Clube BB × Clube AA\n  2. Grupo Único, 1ª rodada: Clube BB × Clube CC\n")
    # bb and aa met in the group already (line 13): a knockout match, in Fase final (line 14), in its round;
    # bb and cc have not: their group match, round 1 of [aa, bb, cc] (b-c), after line 13 as usual
    assert sheets_of(out.read_text(encoding="utf-8")) == [
        expected_sheet(1, None, "bb", "aa", ("—", "4 Jogador aa-4a / Jogador aa-4b"),
                       "Fase final (linha 14) › knockout: › a rodada em que este confronto é jogado › matches:"),
        expected_sheet(2, 1, "bb", "cc", ("—", "—"))]


def test_match_in_a_stage_without_knockout_says_to_write_one(content, tmp_path):
    out = tmp_path / "final.html"
    res = run("sumulas", "2026", "etapa-2", "--content", content, "--out", out, "--match", "aa:bb")
    assert res.exit_code == 0, res.output
    sheet = sheets_of(out.read_text(encoding="utf-8"))[0]
    assert sheet[2] == "18 de abril de 2026 · Curitiba · sede: Clube AA · Mata-mata"
    assert sheet[3] == ("Súmula 1 de 1. Lançar em content/seasons/2026/truco/etapa-2.yaml › phases: › uma fase nova "
                        "de mata-mata, com a rodada deste confronto › matches: - home: aa away: bb boards:")


@pytest.mark.parametrize("value,message", [
    ("aa-bb", '"aa-bb": escreva as duas equipes do confronto, a da casa primeiro, como CASA:VISITANTE'),
    ("aa:aa", '"aa:aa": escreva as duas equipes do confronto'),
    ("aa:ccc", 'equipe "ccc" não está em teams: da etapa; você quis dizer "cc"?'),
    ("aa:zz", 'equipe "zz" não está em teams: da etapa; equipes da etapa: aa, bb, cc'),
])
def test_a_bad_match_is_a_usage_error(content, tmp_path, value, message):
    res = run("sumulas", "2026", "etapa-2", "--content", content, "--out", tmp_path / "x.html", "--match", value)
    assert res.exit_code == 2 and message in res.output, res.output
    assert not (tmp_path / "x.html").exists()


def test_a_site_with_its_own_templates_but_no_sheet_template_uses_leagues(content, tmp_path, monkeypatch):
    # a federation's copy of the templates (./templates with base.html) made before league sumulas existed
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "base.html").write_text("<!doctype html>", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = run("sumulas", "2026", "etapa-2", "--content", content)
    assert res.exit_code == 0, res.output
    assert len(sheets_of((tmp_path / "sumulas-2026-etapa-2.html").read_text(encoding="utf-8"))) == 2
