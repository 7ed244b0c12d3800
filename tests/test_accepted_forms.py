"""data-format.md, "What editors actually type": a quoted ISO date, a score with `x`, `X` or `×` where `-`
separates two numbers, and a `status:` in Portuguese mean the same as the canonical form — the same site, byte
for byte — while anything else is reported at its file:line:col; the JSON Schema (what the editor checks as
one types) accepts and flags the same."""
from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from league.cli import main
from league.content.diagnostics import Diagnostics
from league.models import TrucoConfig
from league.games.truco.rules import parse_board_score, parse_game
from league.content.schema import BOARD_SCORE_PATTERN, GAME_SCORE_PATTERN
from league.cli.schema import generate, kinds
from league.content.yamlio import parse_yaml
from tests.bad_input.harness import BASE
from tests.truco_fixtures import errors, line_of, run, stage_data, stage_result
from tests.test_invalid import CLUBS, OK_BOARDS, PATH, group_stage, only
from tests.test_schema import errors as schema_errors
from tests.test_schema import jsonable, load, validator

STAGE = "seasons/2026/truco/etapa-1.yaml"
STAGE2 = "seasons/2026/truco/etapa-2.yaml"
STAGE3 = "seasons/2026/truco/etapa-3.yaml"
CHAMP = "seasons/2026/quatrilho/chapeco.yaml"
NEWS = "news/2026-03-16-etapa-1.md"
LEAGUE = "league.yaml"


# ---------------------------------------------------------------- the same site, byte for byte

def _sub(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} não está em {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def canonical(dest: Path) -> Path:
    """tests/bad_input/base (one final stage, one championship, a page, a news post) and, written the canonical
    way: the news post's date, league.yaml's walkover_games, a scheduled stage and a stage in progress whose
    boards include a result only ("2-0"), a board by squad numbers and a board walkover."""
    content = dest / "content"
    shutil.copytree(BASE, content)
    _sub(content, NEWS, "title: APTRU vence a 1ª Etapa\n", "title: APTRU vence a 1ª Etapa\ndate: 2026-03-16\n")
    (content / LEAGUE).write_text((content / LEAGUE).read_text(encoding="utf-8")
                                  + 'truco:\n  walkover_games: ["12-0", "12-0"]\n', encoding="utf-8")
    (content / STAGE2).write_text("name: 2ª Etapa\ndate: 2026-06-13\ncity: Londrina\nstatus: scheduled\n",
                                  encoding="utf-8")
    third = (content / STAGE).read_text(encoding="utf-8")
    third = third.replace("name: 1ª Etapa", "name: 3ª Etapa").replace("date: 2026-03-14", "date: 2026-09-12")
    third = third.replace("status: final", "status: in_progress")
    third = third.replace('"12-3 12-5"', '"2-0"').replace('"12-0 12-4"', '{home: 4, away: 4, score: "12-0 12-4"}')
    third = third.replace('"10-12 11-12"', "{home: 5, away: 5, walkover: home}")
    (content / STAGE3).write_text(third, encoding="utf-8")
    return content


def quoted_dates(content: Path) -> None:
    _sub(content, STAGE, "date: 2026-03-14", "date: '2026-03-14'")
    _sub(content, STAGE2, "date: 2026-06-13", 'date: "2026-06-13"')
    _sub(content, STAGE3, "date: 2026-09-12", "date: '2026-09-12'")
    _sub(content, CHAMP, "date: 2026-05-10", 'date: "2026-05-10"')
    _sub(content, NEWS, "date: 2026-03-16", "date: '2026-03-16'")


def scores_with_x(content: Path) -> None:
    """Every `-` between two numbers of a score becomes x, ×, X or stays -, in turn: mixed in one line too."""
    seps = itertools.cycle(["x", "×", "X", "-"])
    for rel in (STAGE, STAGE3):
        path = content / rel
        lines = path.read_text(encoding="utf-8").split("\n")
        lines = [line if line.startswith("date:") else re.sub(r"(?<=[0-9])-(?=[0-9])", lambda m: next(seps), line)
                 for line in lines]
        path.write_text("\n".join(lines), encoding="utf-8")
    assert '"2-0"' not in (content / STAGE3).read_text(encoding="utf-8")   # the result only, too
    _sub(content, LEAGUE, '["12-0", "12-0"]', '["12x0", "12×0"]')


def status_in_portuguese(content: Path) -> None:
    _sub(content, STAGE, "status: final", "status: encerrada")
    _sub(content, STAGE2, "status: scheduled", "status: agendada")
    _sub(content, STAGE3, "status: in_progress", "status: em andamento")
    _sub(content, CHAMP, "status: final", "status: encerrado")


def everything(content: Path) -> None:
    quoted_dates(content)
    scores_with_x(content)
    status_in_portuguese(content)


def build(content: Path) -> Path:
    out = content.parent / "site"
    res = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert " erro" not in res.output, res.output
    return out


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def canonical_site(tmp_path_factory) -> dict[str, bytes]:
    return tree(build(canonical(tmp_path_factory.mktemp("canonical"))))


def test_canonical_tree_has_what_the_forms_change(tmp_path):
    """The forms below have something to change: every kind of date, score and status is in the tree."""
    content = canonical(tmp_path)
    text = {rel: (content / rel).read_text(encoding="utf-8") for rel in (STAGE, STAGE2, STAGE3, CHAMP, NEWS)}
    assert "date: 2026-03-16" in text[NEWS] and "date: 2026-05-10" in text[CHAMP]
    assert {"status: final", "status: scheduled", "status: in_progress"} <= \
        {line for t in text.values() for line in t.splitlines() if line.startswith("status:")}
    assert '"2-0"' in text[STAGE3] and 'score: "12-0 12-4"' in text[STAGE3] and "walkover: home" in text[STAGE3]


@pytest.mark.parametrize("form", [quoted_dates, scores_with_x, status_in_portuguese, everything],
                         ids=lambda f: f.__name__)
def test_accepted_form_builds_the_same_site(tmp_path, canonical_site, form):
    content = canonical(tmp_path)
    before = tree(content)
    form(content)
    assert tree(content) != before
    site = tree(build(content))
    assert sorted(site) == sorted(canonical_site)
    different = [rel for rel in site if site[rel] != canonical_site[rel]]
    # the one file that differs is the site's manifest: its "inputs" is the digest of the content files' bytes
    # (league.engine.build.inputs_id), which differ by design; every other key of it, and every other file, is equal
    assert different == [".league-build.json"]
    mine, theirs = json.loads(site[different[0]]), json.loads(canonical_site[different[0]])
    assert mine.pop("inputs") != theirs.pop("inputs")
    assert mine == theirs


def test_api_keeps_the_english_status(tmp_path):
    report = run(tmp_path, {"etapa-1": group_stage().replace("status: final", "status: encerrada"),
                            "etapa-2": "name: 2ª Etapa\ndate: '2026-06-13'\nstatus: agendada\n"}, CLUBS)
    assert stage_data(report)["status"] == "final"
    assert stage_data(report, "etapa-2")["status"] == "scheduled"


# ---------------------------------------------------------------- scores

CFG = TrucoConfig()


@pytest.mark.parametrize("form,canonical_text", [
    ("12x7 9x12 12x10", "12-7 9-12 12-10"),
    ("12×7 9×12 12×10", "12-7 9-12 12-10"),
    ("12X7 9X12 12X10", "12-7 9-12 12-10"),
    ("12x7 9-12 12×10", "12-7 9-12 12-10"),
    ("  12x3   12X5 ", "12-3 12-5"),
    ("2x1", "2-1"),
    ("0×2", "0-2"),
])
def test_board_score_forms_mean_the_same(form, canonical_text):
    assert parse_board_score(form, CFG) == parse_board_score(canonical_text, CFG)
    assert parse_board_score(form, CFG)[1] is None


def first_board(report):
    return stage_result(report).stage.phases[0].groups[0].matches[0].boards[0]


def test_unquoted_0x2_is_a_score_not_a_hex_number(tmp_path):
    """YAML 1.1 reads `0x2` as the number 2; a board `- 0x2` is the result 0-2 (away pair won 2 games to 0)."""
    assert parse_yaml("- 0x2\n- 0x12\n- 0x1f\n", "f.yaml", Diagnostics()) == ["0x2", "0x12", 31]
    board = first_board(run(tmp_path, {"etapa-1": group_stage(["0x2"] + OK_BOARDS[1:])}, CLUBS))
    assert (board.games, board.home_games, board.away_games) == (None, 0, 2)


def test_12y7_is_reported_at_its_line(tmp_path):
    text = group_stage(['"12y7 12-5"'] + OK_BOARDS[1:])
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, line_of(text, "12y7"), 17)
    assert d.message == 'jogo 1 (aptru × serapio): placar "12y7" ilegível'
    assert d.hint == 'escreva cada partida como tentos da casa-tentos visitantes, ex.: "12-7" ou "12x7", ' \
                     'separadas por espaço'


def test_spaces_inside_a_game_are_explained(tmp_path):
    d = only(errors(tmp_path, {"etapa-1": group_stage(['"12 x 5 12 x 5"'] + OK_BOARDS[1:])}, CLUBS))
    assert d.message == 'jogo 1 (aptru × serapio): placar "12 x 5 12 x 5" ilegível: espaço dentro de uma partida'
    assert d.hint == 'escreva cada partida sem espaços, ex.: "12x7 9x12 12x10"; o espaço separa as partidas'


def test_walkover_games_take_x_too(tmp_path):
    league = "name: F\nshort_name: F\ntruco:\n  walkover_games: [12x0, 12×3]\n"
    text = group_stage(['{home: 1, away: 1, walkover: away}'] + OK_BOARDS[1:])
    board = first_board(run(tmp_path / "a", {"etapa-1": text}, CLUBS, league=league))
    assert board.games == ((12, 0), (12, 3))
    bad = errors(tmp_path / "b", {"etapa-1": text}, CLUBS, league=league.replace("12×3", "12y3"))
    assert [(d.mark.path, d.mark.line, d.mark.col, d.message) for d in bad] == [
        ("content/league.yaml", 4, 26, 'truco.walkover_games: placar "12y3" inválido: escreva como "12-0" ou "12x0"')]
    bad = errors(tmp_path / "c", {"etapa-1": text}, CLUBS, season="truco:\n  walkover_games:\n    - 12x0\n    - 12-13\n")
    assert [(d.mark.path, d.mark.line, d.mark.col) for d in bad] == [("content/seasons/2026/season.yaml", 4, 7)]
    assert bad[0].message.startswith('truco.walkover_games: placar "12-13" inválido: o vencedor tem exatamente 12')


# the board line grammar as the loader reads it, and as the JSON Schema's pattern says it (for the editor)
_GAMES = st.lists(st.tuples(st.integers(0, 99), st.sampled_from("-xX×"), st.integers(0, 99)), min_size=1,
                  max_size=3)


@settings(max_examples=200, deadline=None)
@given(_GAMES, st.sampled_from([" ", "  ", "\t"]), st.sampled_from(["", " "]))
def test_schema_pattern_accepts_every_score_the_loader_reads(games, gap, edge):
    text = edge + gap.join(f"{h}{sep}{a}" for h, sep, a in games) + edge
    assert re.search(BOARD_SCORE_PATTERN, text)
    assert all(parse_game(tok) for tok in text.split())


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789-xX×y:/. \t", max_size=14))
def test_schema_pattern_and_loader_agree_on_any_text(text):
    loader_reads = bool(text.split()) and all(parse_game(tok) for tok in text.split())
    assert bool(re.search(BOARD_SCORE_PATTERN, text)) == loader_reads
    assert bool(re.search(GAME_SCORE_PATTERN, text)) == (loader_reads and len(text.split()) == 1)


# ---------------------------------------------------------------- the JSON Schema (what the editor checks)

STAGE_HEAD = "name: E\ndate: 2026-03-14\nstatus: final\n"
MATCH = "phases:\n  - name: F\n    groups:\n      A:\n        teams: [aa, bb]\n        matches:\n" \
        "          - home: aa\n            away: bb\n            boards:\n"


@pytest.mark.parametrize("kind,text", [
    ("stage", "name: E\ndate: '2026-03-14'\nstatus: encerrada\n"),
    ("stage", 'name: E\ndate: "2026-03-14"\nstatus: agendada\n'),
    ("stage", "name: E\ndate: 2026-03-14\nstatus: em andamento\n"),
    ("stage", STAGE_HEAD + MATCH + "".join(f"              - {b}\n" for b in [
        '"12x7 9x12 12x10"', '"12×7 12×3"', '"12X7 9-12 12×10"', "12x5 12x5", '"2x1"', '"2-0"',
        '{home: 1, away: 1, score: "12x0 12×4"}', "{home: 2, away: 2, walkover: home}"])),
    ("championship", "name: C\ndate: '2026-05-10'\nstatus: encerrado\nfee: 50\nplayers: {1: ana}\n"),
    ("championship", "name: C\ndate: 2026-05-10\nstatus: encerrada\nfee: 50\nplayers: {1: ana}\n"),
    ("championship", "name: C\ndate: 2026-05-10\nstatus: em andamento\nfee: 50\nplayers: {1: ana}\n"),
    ("page", "title: Notícia\ndate: '2026-03-16'\n"),
    ("league", "name: F\nshort_name: F\ntruco: {walkover_games: [12x0, '12×0']}\n"),
    ("season", "truco: {walkover_games: ['12X0', '12-0']}\n"),
])
def test_schema_accepts_the_forms(kind, text):
    assert schema_errors(kind, text) == []


def leaf_errors(kind: str, text: str) -> list[str]:
    """Every JSON Schema error, with those inside an anyOf/oneOf (what the editor underlines: the value itself)."""
    def leaves(err):
        if not err.context:
            yield ": ".join(filter(None, ["/".join(map(str, err.absolute_path)), err.message]))
        for sub in err.context:
            yield from leaves(sub)
    return [m for e in validator(kind).iter_errors(jsonable(load(text))) for m in leaves(e)]


BOARD = "phases/0/groups/A/matches/0/boards/0"


@pytest.mark.parametrize("kind,text,expected", [
    ("stage", STAGE_HEAD + MATCH + '              - "12y7"\n', f"{BOARD}: '12y7' does not match"),
    ("stage", STAGE_HEAD + MATCH + '              - "12x7 9y12 12x10"\n', f"{BOARD}: '12x7 9y12 12x10' does not match"),
    ("stage", STAGE_HEAD + MATCH + '              - "12x7 9x12 12x10 x"\n', f"{BOARD}: '12x7 9x12 12x10 x' does not"),
    ("stage", STAGE_HEAD + MATCH + '              - "12 x 7 12 x 5"\n', f"{BOARD}: '12 x 7 12 x 5' does not match"),
    ("stage", STAGE_HEAD + MATCH + '              - "12x-7"\n', f"{BOARD}: '12x-7' does not match"),
    ("stage", STAGE_HEAD + MATCH + '              - ""\n', f"{BOARD}: '' does not match"),
    ("stage", STAGE_HEAD + MATCH + '              - {home: 1, away: 1, score: "12y7 12-5"}\n',
     f"{BOARD}/score: '12y7 12-5' does not match"),
    ("stage", "name: E\ndate: 14/03/2026\nstatus: final\n", "date: '14/03/2026' does not match"),
    ("stage", "name: E\ndate: '2026-3-14'\nstatus: final\n", "date: '2026-3-14' does not match"),
    ("stage", "name: E\ndate: '2026-03-14 10:00'\nstatus: final\n", "date: '2026-03-14 10:00' does not match"),
    ("stage", "name: E\ndate: 2026-03-14\nstatus: encerado\n", "status: 'encerado' is not one of"),
    ("championship", "name: C\ndate: 2026-05-10\nstatus: Encerrado\nfee: 50\nplayers: {1: ana}\n",
     "status: 'Encerrado' is not one of"),
    ("page", "title: N\ndate: 'amanhã'\n", "date: 'amanhã' does not match"),
    ("league", "name: F\nshort_name: F\ntruco: {walkover_games: [12y0]}\n",
     "truco/walkover_games/0: '12y0' does not match"),
])
def test_schema_flags_what_the_loader_refuses(kind, text, expected):
    errs = leaf_errors(kind, text)
    assert any(e.startswith(expected) for e in errs), errs


def test_schema_offers_the_portuguese_status_words():
    """The editor's autocompletion lists the enum: the Portuguese words are there, after the English ones."""
    stage = generate(next(k for k in kinds() if k.name == "stage"))
    assert stage["properties"]["status"]["enum"] == ["scheduled", "in_progress", "final",
                                                      "agendada", "em andamento", "encerrada"]
    champ = generate(next(k for k in kinds() if k.name == "championship"))
    assert {"agendado", "em andamento", "encerrado", "agendada", "encerrada"} <= \
        set(champ["properties"]["status"]["enum"])


# ---------------------------------------------------------------- dates and status reported at their line

@pytest.mark.parametrize("written,hint", [
    ("14/03/2026", "escreva 2026-03-14"),
    ("'2026-3-14'", "escreva 2026-03-14"),
    ("14 de março", None),
    ("2026-03-14 10:00:00", "escreva só a data, sem a hora: 2026-03-14"),
    ("20260314", None),
])
def test_garbage_date_says_the_form_it_takes(tmp_path, written, hint):
    text = group_stage().replace("date: 2026-03-14", f"date: {written}")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 2, 7)
    shown = {"14/03/2026": '"14/03/2026"', "'2026-3-14'": '"2026-3-14"', "14 de março": '"14 de março"',
             "2026-03-14 10:00:00": "2026-03-14 10:00:00 (data e hora)", "20260314": "20260314 (número)"}[written]
    assert d.message == f"data inválida em date: recebido {shown}; use AAAA-MM-DD, por exemplo 2026-03-14"
    assert d.hint == hint


def test_quoted_impossible_date_is_reported_as_the_unquoted_one(tmp_path):
    for i, written in enumerate(("2026-02-30", "'2026-02-30'", '"2026-02-30"')):
        text = group_stage().replace("date: 2026-03-14", f"date: {written}")
        d = only(errors(tmp_path / str(i), {"etapa-1": text}, CLUBS))
        assert (d.mark.line, d.mark.col, d.message) == (2, 7, 'data inexistente "2026-02-30"')
        assert d.hint == "use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14"


def test_quoted_date_out_of_bounds_is_reported_as_the_unquoted_one(tmp_path):
    text = group_stage().replace("date: 2026-03-14", "date: '9999-12-31'")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert d.message == "data fora do limite em date: recebido 9999-12-31; esperado uma data de 1900-01-01 a 2100-12-31"


@pytest.mark.parametrize("written,suggestion", [
    ("encerado", "encerrada"), ("em_andamento", "em andamento"), ("agendado", "agendada"), ("fnal", "final"),
])
def test_unknown_status_word_gets_a_suggestion(tmp_path, written, suggestion):
    text = group_stage().replace("status: final", f"status: {written}")
    d = only(errors(tmp_path, {"etapa-1": text}, CLUBS))
    assert (d.mark.path, d.mark.line, d.mark.col) == (PATH, 3, 9)
    assert d.message == (f'valor inválido em status: recebido "{written}" (texto); esperado scheduled ou '
                         "in_progress ou final ou agendada ou em andamento ou encerrada")
    assert d.hint.startswith(f'você quis dizer "{suggestion}"')
