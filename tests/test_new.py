"""`league new stage|championship`: the skeleton carries the schema modeline, is rejected by `league check`
while it has placeholders, passes once they are filled, and is never written over an existing file."""
from __future__ import annotations

import importlib.util
import re

import pytest
import yaml
from click.testing import CliRunner

from league.content import schema as S
from league.cli import main
from league.cli.new import stage_name
from tests.util import team_players, write_content

PLACEHOLDER = re.compile(r"<[^<>\s]+>")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def content(tmp_path):
    return write_content(tmp_path, {}, clubs=["aa", "bb"], extra_players=[f"q-{i}" for i in range(1, 9)])


def fill_stage(text: str, pairs: int = 5) -> str:
    """What an editor does: every <…> replaced by a real value."""
    players = [p for a, b in team_players("aa", pairs) + team_players("bb", pairs) for p in (a, b)]
    for i, p in enumerate(players, 1):
        text = text.replace(f"<jogador-{i}>", p)
    return (text.replace("<equipe-1>", "aa").replace("<equipe-2>", "bb").replace("<clube-anfitriao>", "aa")
            .replace("<AAAA-MM-DD>", "2026-03-14").replace('"<placar>"', '"12-7 9-12 12-10"'))


def test_new_stage_writes_a_commented_skeleton_with_the_schema_modeline(content):
    res = run("new", "stage", "2026", "etapa-3", "--content", content)
    assert res.exit_code == 0, res.output
    path = content / "seasons" / "2026" / "truco" / "etapa-3.yaml"
    assert f"criado {path}" in res.output
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../../../schemas/stage.schema.json"
    # the relative path really leads from the file to <repo>/schemas/
    target = (path.parent / first.split("=", 1)[1]).resolve()
    assert target == (content.parent / "schemas" / "stage.schema.json").resolve()
    assert "name: 3ª Etapa" in text
    assert "status: scheduled" in text
    # every key line explains itself in Portuguese
    for key in ("name:", "date:", "host:", "status:", "teams:", "pairs:", "phases:", "matches:", "boards:"):
        line = next(ln for ln in text.splitlines() if ln.lstrip().startswith(key))
        assert "#" in line, line
    assert "equipe visitante" in text and "tentos da casa primeiro" in text


def test_unfilled_stage_skeleton_is_rejected_at_each_placeholder(content):
    run("new", "stage", "2026", "etapa-3", "--content", content)
    res = run("check", "--content", content, "--format", "github")
    assert res.exit_code == 1
    assert ('::error file=content/seasons/2026/truco/etapa-3.yaml,line=10,col=7::campo ainda não preenchido: '
            '"<AAAA-MM-DD>" em date — sugestão: troque o texto entre < > pelo valor certo') in res.output
    assert 'line=11,col=7::campo ainda não preenchido: "<clube-anfitriao>" em host' in res.output


def test_filled_stage_skeleton_passes_check(content):
    run("new", "stage", "2026", "etapa-3", "--content", content)
    path = content / "seasons" / "2026" / "truco" / "etapa-3.yaml"
    filled = fill_stage(path.read_text(encoding="utf-8"))
    code = [ln.split("#", 1)[0] for ln in filled.splitlines()]
    assert not [ln for ln in code if PLACEHOLDER.search(ln)]
    path.write_text(filled, encoding="utf-8")
    res = run("check", "--content", content)
    assert res.exit_code == 0, res.output
    # and as a final stage it is scored: aa won every board
    path.write_text(filled.replace("status: scheduled", "status: final"), encoding="utf-8")
    from league.engine.build import check
    report = check(content)
    stage = report.results.seasons[0].stages[0]
    assert [(p.key, p.position, int(p.points)) for p in stage.classification] == [("aa", 1, 20), ("bb", 2, 16)]


def test_stage_skeleton_follows_the_boards_setting_of_the_season(tmp_path):
    content = write_content(tmp_path, {}, clubs=["aa", "bb"], season="truco: {boards: 3}\n", pairs_per_team=3)
    run("new", "stage", "2026", "etapa-1", "--content", content)
    path = content / "seasons" / "2026" / "truco" / "etapa-1.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count('"<placar>"') == 3 and "<jogador-12>" in text and "<jogador-13>" not in text
    path.write_text(fill_stage(text, pairs=3), encoding="utf-8")
    res = run("check", "--content", content)
    assert res.exit_code == 0, res.output


def test_new_refuses_to_overwrite(content):
    assert run("new", "stage", "2026", "etapa-3", "--content", content).exit_code == 0
    path = content / "seasons" / "2026" / "truco" / "etapa-3.yaml"
    path.write_text("editado\n", encoding="utf-8")
    res = run("new", "stage", "2026", "etapa-3", "--content", content)
    assert res.exit_code == 2
    assert f"erro: {path} já existe: a etapa \"etapa-3\" já foi criada; nada foi escrito" in res.output
    assert path.read_text(encoding="utf-8") == "editado\n"
    other = path.with_suffix(".yml")
    path.rename(other)
    res = run("new", "stage", "2026", "etapa-3", "--content", content)
    assert res.exit_code == 2 and f"{other} já existe" in res.output
    assert not path.exists()


@pytest.mark.parametrize("bad,suggestion", [
    ("Etapa 3", "etapa-3"), ("etapa_3", "etapa-3"), ("Chapecó", "chapeco"), ("etapa--3", "etapa-3"),
])
def test_new_refuses_an_invalid_id_with_a_suggestion(content, bad, suggestion):
    for kind in ("stage", "championship"):
        res = run("new", kind, "2026", bad, "--content", content)
        assert res.exit_code == 2, res.output
        assert res.output.startswith(f"erro: \"{bad}\" não é um id válido para um")
        assert res.output.rstrip().endswith(f"sugestão: {suggestion}")
    assert list((content / "seasons" / "2026").rglob("*.yaml")) == []


def test_new_refuses_a_bad_season_and_a_missing_content_folder(tmp_path, content):
    res = run("new", "stage", "26", "etapa-1", "--content", content)
    assert res.exit_code == 2 and "\"26\" não é uma temporada" in res.output
    res = run("new", "stage", "temporada-2027", "etapa-1", "--content", content)
    assert "sugestão: 2027" in res.output
    res = run("new", "stage", "2026", "etapa-1", "--content", tmp_path / "nada")
    assert res.exit_code == 2 and "league.yaml não encontrado" in res.output


def test_new_creates_a_new_season_folder(content):
    res = run("new", "championship", "2027", "chapeco", "--content", content)
    assert res.exit_code == 0, res.output
    path = content / "seasons" / "2027" / "quatrilho" / "chapeco.yaml"
    assert path.read_text(encoding="utf-8").splitlines()[0] == \
        "# yaml-language-server: $schema=../../../../schemas/championship.schema.json"


def test_stage_names():
    assert stage_name("etapa-1") == "1ª Etapa"
    assert stage_name("etapa-12") == "12ª Etapa"
    assert stage_name("final-estadual") == "Final Estadual"


def fill_championship(text: str) -> str:
    for i in range(1, 9):
        text = text.replace(f"<jogador-{i}>", f"q-{i}")
    return (text.replace("<AAAA-MM-DD>", "2026-05-10").replace("<valor-da-inscricao>", "50.00")
            .replace("<fichas>", "100"))


def test_filled_championship_skeleton_has_the_shape_of_a_championship(content):
    if not hasattr(S, "ChampionshipFile"):
        pytest.skip("league/content/schema.py ainda não tem ChampionshipFile")
    run("new", "championship", "2026", "chapeco", "--content", content)
    path = content / "seasons" / "2026" / "quatrilho" / "chapeco.yaml"
    text = path.read_text(encoding="utf-8")
    assert "municipality: Chapeco" in text and "fee: <valor-da-inscricao>" in text
    with pytest.raises(Exception):
        S.ChampionshipFile.model_validate(yaml.safe_load(text))
    data = yaml.safe_load(fill_championship(text))
    model = S.ChampionshipFile.model_validate(data)
    assert len(model.players) == 8 and len(model.rounds) == 1


def test_filled_championship_skeleton_passes_check(content):
    if importlib.util.find_spec("league.games.quatrilho.championship") is None:
        pytest.skip("o carregador do Quatrilho (league/games/quatrilho/championship.py) ainda não existe")
    run("new", "championship", "2026", "chapeco", "--content", content)
    path = content / "seasons" / "2026" / "quatrilho" / "chapeco.yaml"
    assert run("check", "--content", content).exit_code == 1
    path.write_text(fill_championship(path.read_text(encoding="utf-8")), encoding="utf-8")
    res = run("check", "--content", content)
    assert res.exit_code == 0, res.output
