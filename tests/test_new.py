"""`league new stage|championship`: the skeleton carries the schema modeline, is rejected by `league check`
while it has placeholders, passes once they are filled, and is never written over an existing file."""
from __future__ import annotations

import importlib.util
import json
import re

import pytest
import yaml
from click.testing import CliRunner

from league.content import schema as S
from league.cli import main
from league.cli.new import stage_name
from tests.util import squad, team_players, write_content

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
    code = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
    assert code.count('"<placar>"') == 3 and "<jogador-12>" in text and "<jogador-13>" not in text
    # the commented knockout's matches have three boards too
    assert '#         - {home: <equipe>, away: <equipe>, boards: ["<placar>", "<placar>", "<placar>"]}' in text
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


# ---------------------------------------------------------------- scaffolds that build (issue 35, item 4)

EIGHT = ["aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh"]
# the <equipe> of the commented knockout, in file order; every board "12-7 9-12 12-10", so the home team wins 5x0
BRACKET = ["aa", "hh", "bb", "gg", "cc", "ff", "dd", "ee",   # quarter-finals: aa, bb, cc, dd go through
           "aa", "bb", "cc", "dd",                           # semi-finals: aa and cc to the final, bb and dd for 3rd
           "hh", "gg", "ff", "ee",                           # places [5, 8]: hh and ff for 5th, gg and ee for 7th
           "hh", "ff",                                       # for_place 5: hh 5th, ff 6th
           "gg", "ee",                                       # for_place 7: gg 7th, ee 8th
           "bb", "dd",                                       # for_place 3: bb 3rd, dd 4th
           "aa", "cc"]                                       # for_place 1: aa 1st, cc 2nd


def uncomment(text: str, first: str) -> str:
    """What an editor does in VS Code (Ctrl+;): "# " taken off the block of lines starting at the line `first`,
    up to the next blank line."""
    lines = text.split("\n")
    i = lines.index(first)
    while lines[i].strip():
        lines[i] = re.sub(r"^(\s*)# ", r"\1", lines[i])
        i += 1
    return "\n".join(lines)


def fill_code(text: str, placeholder: str, values: list[str]) -> str:
    """Each `placeholder` outside comments replaced by the next of `values`, in file order."""
    it = iter(values)
    out = []
    for line in text.split("\n"):
        code, sep, comment = ("", "", line) if line.lstrip().startswith("#") else line.partition("  #")
        while placeholder in code:
            code = code.replace(placeholder, next(it), 1)
        out.append(code + sep + comment)
    assert next(it, None) is None, "fewer placeholders than values"
    return "\n".join(out)


def test_the_stage_skeleton_with_its_second_group_and_knockout_uncommented_builds(tmp_path):
    content = write_content(tmp_path, {}, clubs=EIGHT)
    assert run("new", "stage", "2026", "etapa-3", "--content", content).exit_code == 0
    path = content / "seasons" / "2026" / "truco" / "etapa-3.yaml"
    text = path.read_text(encoding="utf-8")
    assert "places: [5, 8]" in text and "for_place: 5" in text and "for_place: 7" in text
    text = uncomment(uncomment(text, "      # Grupo B:                        # outro grupo: tire o \"# \" destas linhas"),
                     "  # - name: Fase final")
    text = fill_stage(text).replace("<equipe-3>", "cc").replace("<equipe-4>", "dd")
    text = fill_code(text, "<equipe>", BRACKET).replace("status: scheduled", "status: final")
    more = "".join(f"  {t}: {squad(t)}\n" for t in EIGHT[2:])   # the six other teams' blocks, copied and filled
    text = text.replace("\nphases:", more + "\nphases:", 1)
    assert not [ln for ln in text.splitlines() if PLACEHOLDER.search(ln.split("#", 1)[0])]
    path.write_text(text, encoding="utf-8")
    res = run("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "site" / "2026" / "truco" / "etapa-3" / "index.html").exists()
    from league.engine.build import check
    stage = check(content).results.seasons[0].stages[0]
    # places from the bracket above; ranking points item 12.1: 20, 16, 12, 8, 6, 4, 3, 2
    assert [(p.key, p.position, int(p.points)) for p in stage.classification] == [
        ("aa", 1, 20), ("cc", 2, 16), ("bb", 3, 12), ("dd", 4, 8), ("hh", 5, 6), ("ff", 6, 4), ("gg", 7, 3),
        ("ee", 8, 2)]
    # on the stage day (in progress), the kit prints the one group match not in the file: Grupo B's cc × dd
    path.write_text(text.replace("status: final", "status: in_progress"), encoding="utf-8")
    res = run("sumulas", "2026", "etapa-3", "--content", content, "--out", tmp_path / "s.html")
    assert res.exit_code == 0, res.output
    assert res.output.endswith("  1. Grupo B, 1ª rodada: Clube CC × Clube DD\n")


MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


@pytest.mark.parametrize("kind,folder,schema", [("stage", "truco", "stage"),
                                                ("championship", "quatrilho", "championship")])
def test_the_schema_a_new_file_points_at_exists(tmp_path, kind, folder, schema):
    # a project without schemas/: `league new` writes the one its modeline needs, as `league schema` would
    from league.cli.schema import schema_files
    content = write_content(tmp_path, {}, clubs=["aa", "bb"])
    res = run("new", kind, "2026", "x-1", "--content", content)
    assert res.exit_code == 0, res.output
    path = content / "seasons" / "2026" / folder / "x-1.yaml"
    ref = MODELINE.match(path.read_text(encoding="utf-8").splitlines()[0]).group(1)
    target = (path.parent / ref).resolve()
    assert target == (tmp_path / "schemas" / f"{schema}.schema.json").resolve() and target.is_file()
    assert target.read_text(encoding="utf-8") == schema_files()[f"{schema}.schema.json"]
    assert json.loads(target.read_text(encoding="utf-8"))["$id"] == f"urn:league:schema:{schema}"
    assert f"criado {tmp_path / 'schemas' / f'{schema}.schema.json'}" in res.output
    # an existing schema is left as it is (`league schema --check` tells when it is stale)
    target.write_text("{}\n", encoding="utf-8")
    res = run("new", kind, "2026", "x-2", "--content", content)
    assert res.exit_code == 0 and target.read_text(encoding="utf-8") == "{}\n"
    assert "schemas" not in res.output


def test_every_schema_reference_of_the_repository_content_resolves():
    # the demo's files have no modeline (.vscode/settings.json maps them); those that have one must resolve,
    # and every schema .vscode/settings.json maps must exist
    from tests.util import ROOT
    for path in sorted((ROOT / "content").rglob("*.y*ml")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        m = MODELINE.match(first)
        if m:
            assert (path.parent / m.group(1)).is_file(), path
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"] and all((ROOT / s).is_file() for s in settings["yaml.schemas"])
